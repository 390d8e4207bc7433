# The two commands: `make demo` and `make test`. Both install what is missing
# first (tools/setup.sh), then build with CMake.
JOBS ?= 2
CMAKE ?= cmake
BUILD ?= build
ASAN ?= build-asan

.PHONY: all setup build build-asan demo test test-c test-asan bench clean

all: build

setup:
	@tools/setup.sh

build: setup
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	$(CMAKE) --build $(BUILD) -j $(JOBS)

# C tests under AddressSanitizer + UndefinedBehaviorSanitizer (CPU backend)
build-asan: setup
	$(CMAKE) -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DMANIPLE_SANITIZE=ON -DMANIPLE_CUDA=OFF \
	  -DMANIPLE_BENCHMARKS=OFF >/dev/null
	$(CMAKE) --build $(ASAN) -j $(JOBS)

demo: build
	@benchmarks/run_demo.sh $(BUILD)

test-c: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

test-asan: build-asan
	cd $(ASAN) && ctest --output-on-failure -j $(JOBS) -LE cuda

test: test-c test-asan

# the benchmark suite (python -m maniple.bench) also needs its peers (PETSc,
# cuPyNumeric); CMake then finds PETSc. make bench BENCH_ARGS=--quick: ~3 min
BENCH_ARGS ?=
bench:
	@tools/setup.sh bench
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	$(CMAKE) --build $(BUILD) -j $(JOBS)
	@benchmarks/run_bench.sh $(BUILD) $(BENCH_ARGS)

clean:
	rm -rf $(BUILD) $(ASAN)
