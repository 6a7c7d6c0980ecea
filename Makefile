# The two user commands: `make demo` and `make test`. Both install missing Debian packages first.
.PHONY: deps demo test viewer core-only sanitize fuzz-smoke tsan bench clean

deps:
	@bash scripts/install-deps.sh

# ccache (installed by deps) with its cache in build/: the five CI configurations compile many
# translation units with the same flags (core-only's tests are test's), and a rebuild after a
# small change is quick. Paths are hashed relative to this folder and not by build directory, so
# two configurations share an entry. `=` (not `:=`): looked up after deps has run.
export CCACHE_DIR ?= $(CURDIR)/build/.ccache
export CCACHE_BASEDIR := $(CURDIR)
export CCACHE_NOHASHDIR := 1
LAUNCHER = $(if $(shell command -v ccache 2>/dev/null),-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)

build/default/CMakeCache.txt:
	cmake --preset default $(LAUNCHER)

demo: deps build/default/CMakeCache.txt
	cmake --build --preset default --target asterune-solve
	./build/default/examples/asterune-solve

test: deps build/default/CMakeCache.txt
	cmake --build --preset default
	ctest --preset default

# The live viewer (examples/viewer, docs/viewer.md) on a scene: SCENE=path overrides the default.
SCENE ?= examples/walk_over_step.scene.json
viewer: deps
	cmake --preset default $(LAUNCHER)  # again: finds the viewer's packages if they came after the first configure
	cmake --build --preset default --target asterune-viewer
	./build/default/examples/asterune-viewer $(SCENE)

# The core library alone (no asterune::io, no CLI), with the portable scalar kernels instead of
# SSE2 (the path of targets without SSE2): configures, builds and runs its tests.
core-only: deps
	cmake -S . -B build/core-only $(LAUNCHER) -DASTERUNE_BUILD_IO=OFF -DASTERUNE_SCALAR_KERNELS=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build build/core-only -j2
	ctest --test-dir build/core-only --output-on-failure -j2

sanitize: deps
	cmake --preset asan $(LAUNCHER)
	cmake --build --preset asan
	ctest --preset asan

# libFuzzer harnesses (tests/fuzz), 15 s each on their seeds, then their regression inputs.
fuzz-smoke: deps
	cmake --preset fuzz $(LAUNCHER)
	cmake --build --preset fuzz
	bash scripts/fuzz-smoke.sh 15 build/fuzz

# The concurrency test alone under ThreadSanitizer.
tsan: deps
	cmake --preset tsan $(LAUNCHER)
	cmake --build --preset tsan
	ctest --preset tsan

bench: deps
	cmake --preset bench $(LAUNCHER)
	cmake --build --preset bench
	bash scripts/run-bench.sh

clean:
	rm -rf build
