# The two user commands: `make demo` and `make test`. Both install missing Debian packages first.
.PHONY: deps demo test sanitize bench clean

deps:
	@bash scripts/install-deps.sh

build/default/CMakeCache.txt:
	cmake --preset default

demo: deps build/default/CMakeCache.txt
	cmake --build --preset default --target asterune-solve
	./build/default/examples/asterune-solve

test: deps build/default/CMakeCache.txt
	cmake --build --preset default
	ctest --preset default

sanitize: deps
	cmake --preset asan
	cmake --build --preset asan
	ctest --preset asan

bench: deps
	cmake --preset bench
	cmake --build --preset bench
	bash scripts/run-bench.sh

clean:
	rm -rf build
