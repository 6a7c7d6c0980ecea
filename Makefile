# The two user commands: `make demo` and `make test`. Both install missing Debian packages first.
.PHONY: deps demo test sanitize fuzz-smoke tsan bench clean

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

# libFuzzer harnesses (tests/fuzz), 15 s each on their seeds, then their regression inputs.
fuzz-smoke: deps
	cmake --preset fuzz
	cmake --build --preset fuzz
	bash scripts/fuzz-smoke.sh 15 build/fuzz

# The concurrency test alone under ThreadSanitizer.
tsan: deps
	cmake --preset tsan
	cmake --build --preset tsan
	ctest --preset tsan

bench: deps
	cmake --preset bench
	cmake --build --preset bench
	for b in build/bench/bench/asterune-bench-*; do $$b; done

clean:
	rm -rf build
