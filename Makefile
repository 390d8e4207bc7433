# The two commands: `make demo` and `make test`. Both install what is missing
# first (tools/setup.sh), then build with CMake.
JOBS ?= 2
CMAKE ?= cmake
BUILD ?= build
ASAN ?= build-asan

FUZZ ?= build-fuzz
FUZZ_SECONDS ?= 60

.PHONY: all setup build build-asan demo test test-c test-emulated test-asan test-scale bench fuzz clean

all: build

setup:
	@tools/setup.sh

build: setup
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DMANIPLE_INSTALL_VENV=ON >/dev/null
	$(CMAKE) --build $(BUILD) -j $(JOBS)

# C tests under AddressSanitizer + UndefinedBehaviorSanitizer (CPU backend)
build-asan: setup
	$(CMAKE) -S . -B $(ASAN) -DCMAKE_BUILD_TYPE=Debug -DMANIPLE_SANITIZE=ON -DMANIPLE_CUDA=OFF \
	  -DMANIPLE_BENCHMARKS=OFF >/dev/null
	$(CMAKE) --build $(ASAN) -j $(JOBS)

demo: build
	@benchmarks/run_demo.sh $(BUILD)

test-c: build
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -LE scale

# the same suite on the emulated device (docs/design.md): host code that
# touches device memory faults there
test-emulated: build
	cd $(BUILD) && MANIPLE_BACKEND=emulated ctest --output-on-failure -j $(JOBS) -LE "cuda|install|fuzz|nvrtc|scale"

test-asan: build-asan
	cd $(ASAN) && ctest --output-on-failure -j $(JOBS) -LE "cuda|scale"

test: test-c test-emulated test-asan

# the scale tests at 16, 32 and 64 ranks (oversubscribed; tests/scale.cmake):
# about 15 minutes on 2 cores
test-scale: build
	cd $(BUILD) && ctest --output-on-failure -L scale

# the benchmark suite (python -m maniple.bench) also needs its peers (PETSc,
# cuPyNumeric); CMake then finds PETSc. make bench BENCH_ARGS=--quick: ~3 min
BENCH_ARGS ?=
bench:
	@tools/setup.sh bench
	$(CMAKE) -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release >/dev/null
	$(CMAKE) --build $(BUILD) -j $(JOBS)
	@benchmarks/run_bench.sh $(BUILD) $(BENCH_ARGS)

# libFuzzer on the .npy and Matrix Market readers (clang, ASan+UBSan), each
# for FUZZ_SECONDS; make test replays the kept inputs (fuzz/corpus)
fuzz:
	@tools/setup.sh fuzz
	$(CMAKE) -S . -B $(FUZZ) -DCMAKE_C_COMPILER=clang -DCMAKE_BUILD_TYPE=Debug -DMANIPLE_FUZZ=ON \
	  -DMANIPLE_SANITIZE=ON -DMANIPLE_CUDA=OFF -DMANIPLE_OPENMP=OFF -DMANIPLE_BENCHMARKS=OFF -DMANIPLE_PYTHON=OFF >/dev/null
	$(CMAKE) --build $(FUZZ) -j $(JOBS) --target fuzz_npy fuzz_npy_header fuzz_mtx
	@fuzz/run.sh $(FUZZ) $(FUZZ_SECONDS)

clean:
	rm -rf $(BUILD) $(ASAN) $(FUZZ)
