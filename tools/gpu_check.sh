#!/usr/bin/env bash
# The CUDA checks on a lent GPU machine (the workplace's device tool), which
# has CUDA and Python but no MPI or METIS. Here, after `make build`:
# `tools/gpu_check.sh pack` fills .gpu/ with Debian's runtime packages, the
# MPI headers and the build without its objects. There, carrying .gpu:
# `tools/gpu_check.sh run MODE...`, logs under $OUT. Modes: c (the C suite,
# CTEST_ARGS added), py (the extension for that Python, the tests in
# PYFIRST with tracebacks, then the suite in 8 processes unless PYTIME=0),
# bench (CuPy's triad and stencil, then maniple's programs), apps (heat.py
# and swe.py with maniple.numpy and CuPy), cgview (CG's -log_view), pympi
# (Python tests at 2 ranks, after py), suite (make bench's suite with --gpu
# yes, quick, after py).
# docs/benchmarks.md, "The whole framework on a GPU", has what it found.
set -u
cd "$(dirname "$0")/.."
if [ "${1:-}" = pack ]; then
  set -e
  mkdir -p .gpu/debs
  (cd .gpu/debs && apt-get download -q openmpi-bin openmpi-common libopenmpi3 libhwloc15 libevent-core-2.1-7 \
    libevent-pthreads-2.1-7 libpmix2 libmetis5 libopenblas0-pthread libopenblas0 libgfortran5 libquadmath0 \
    libnuma1 libfabric1 libucx0 libibverbs1 librdmacm1 libnl-3-200 libnl-route-3-200 libpsm2-2 \
    libpsm-infinipath1 libxnvctrl0 libmunge2 libpciaccess0 >/dev/null)
  rm -rf .gpu/mpiinc .gpu/build && mkdir .gpu/mpiinc && cp /usr/lib/x86_64-linux-gnu/openmpi/include/mpi*.h .gpu/mpiinc/
  rm -f .gpu/build.tar.xz && rsync -a --exclude '*.o' --exclude '*.a' --exclude Testing --exclude '_core.*.so' \
    --exclude CMakeFiles --include fuzz/CTestTestfile.cmake --exclude 'fuzz/*' build/ .gpu/build/
  tar -C .gpu -cJf .gpu/build.tar.xz build && rm -rf .gpu/build
  sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' build/CMakeCache.txt > .gpu/srcdir
  du -sh .gpu
  exit 0
fi
[ "${1:-}" = run ] || { echo "usage: $0 pack | run [c] [py] [pympi] [bench] [apps] [suite] [cgview]"; exit 2; }
shift
OUT=${OUT:-/tmp/gpu_out}; mkdir -p "$OUT"
R=$PWD
t0=$(date +%s); stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
# the Debian runtime, added beside the image's files (never over them)
mkdir -p /tmp/deb && for f in .gpu/debs/*.deb; do dpkg -x "$f" /tmp/deb; done
cp -an /tmp/deb/usr/. /usr/ && cp -an /tmp/deb/etc/. /etc/ 2>/dev/null
ln -sf /usr/bin/orterun /usr/bin/mpiexec
L=/usr/lib/x86_64-linux-gnu
[ -e $L/libopenblas.so.0 ] || ln -s $L/openblas-pthread/libopenblas.so.0 $L/libopenblas.so.0
[ -e $L/libblas.so.3 ] || ln -s $L/openblas-pthread/libblas.so.3 $L/libblas.so.3
ldconfig
# the build's absolute paths: the source tree it was configured in
S=$(cat .gpu/srcdir)
[ -e "$S" ] || { mkdir -p "$(dirname "$S")" && ln -s "$R" "$S"; }
rm -rf build && tar -xJf .gpu/build.tar.xz
for d in /usr/local/cuda/lib64 /usr/local/cuda/targets/x86_64-linux/lib; do
  [ -d $d ] && export LD_LIBRARY_PATH=$d${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
done
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_pml=ob1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mca_base_component_show_load_errors=0 OMP_NUM_THREADS=1 PYTHONUNBUFFERED=1
{ nvidia-smi -L; ldd build/libmaniple.so | grep -E "not found|cuda|mpi|metis|blas"; mpiexec --version | head -1
  stamp setup done; } 2>&1 | tee "$OUT/setup.log"
for what in "$@"; do case $what in
c)  # every C test on the CUDA backend (not the NVRTC one: CI runs it)
  (cd build && MANIPLE_BACKEND=cuda timeout 110 ctest -LE "install|fuzz|nvrtc" -E pytest -j 14 --timeout 60 \
     --output-on-failure ${CTEST_ARGS:-}) > "$OUT/ctest_cuda.log" 2>&1
  stamp "c: rc $?"; grep -E "tests passed|Failed|Timeout|\*\*\*" "$OUT/ctest_cuda.log" | head -40 ;;
py) # the extension for this machine's Python, then the suite at 1 rank on the device: the
    # tests named in $PYFIRST (with tracebacks), then all of it in 8 processes (pytest-xdist)
  PY=${PY:-python3}; inc=$($PY -c "import sysconfig; print(sysconfig.get_paths()['include'])")
  ext=$($PY -c "import sysconfig; print(sysconfig.get_config_var('EXT_SUFFIX'))")
  [ -f "$inc/Python.h" ] || { stamp "py: no Python.h at $inc"; continue; }
  gcc -O3 -DNDEBUG -fPIC -fvisibility=hidden -shared -std=c11 -DMANIPLE_HAVE_CUDA=1 -Iinclude -I"$inc" \
    -I.gpu/mpiinc python/src/*.c -o build/python/maniple/_core$ext -Lbuild -lmaniple -Wl,-rpath,$R/build 2>&1 | tail -5
  export MANIPLE_BACKEND=cuda PYTHONPATH=$R/build/python
  if [ -n "${PYFIRST:-}" ]; then
    timeout 60 $PY -m pytest -q --tb=short -p no:cacheprovider -n 8 --timeout 50 $PYFIRST > "$OUT/pytest_first.log" 2>&1
    stamp "py first: rc $?"; tail -40 "$OUT/pytest_first.log"
  fi
  [ "${PYTIME:-200}" = 0 ] && { unset MANIPLE_BACKEND; continue; }
  timeout ${PYTIME:-200} $PY -m pytest -v -n 8 --tb=short -rfE -p no:cacheprovider --timeout 60 python/tests \
    > "$OUT/pytest_cuda.log" 2>&1
  stamp "py: rc $?"; grep -E "FAILED|ERROR|passed|failed" "$OUT/pytest_cuda.log" | grep -v PASSED | tail -60
  unset MANIPLE_BACKEND ;;
bench) # GPU figures: CuPy's triad and stencil as the peer, then maniple's programs on the
    # device, one process each (MPI singletons), lines unbuffered so a stopped one shows
  { python3 benchmarks/gpu_peer.py 2>&1
    B="timeout 25 stdbuf -oL"
    export MANIPLE_BACKEND=cuda
    $B build/benchmarks/bench_core 100000000 8000 7
    $B build/apps/heat --n 8000 --iterations 200
    $B build/apps/heat --n 8000 --iterations 50 -log_view
    $B build/benchmarks/bench_cg 1000 50 1
    MANIPLE_LOG_VIEW=1 $B build/benchmarks/bench_cg 4000 200 3
    $B build/apps/swe --case dambreak2d --nx 1024 --ny 1024 --steps 10 -log_view
    $B build/apps/swe --case dambreak2d --nx 4096 --ny 4096 --steps 20
    unset MANIPLE_BACKEND
  } > "$OUT/bench_gpu.log" 2>&1
  stamp "bench: rc $?"; grep -E "^\{|rror|points/s|cells/s|row" "$OUT/bench_gpu.log" | head -40 ;;
apps) # the Python apps on the device, maniple.numpy beside CuPy (the same script)
  export PYTHONPATH=$R/build/python
  { for be in maniple cupy; do
      MANIPLE_BACKEND=cuda timeout 30 python3 apps/heat.py --n 8000 --iterations 200 --backend $be
      MANIPLE_BACKEND=cuda timeout 30 python3 apps/swe.py --case dambreak2d --nx 2048 --ny 2048 --steps 20 --backend $be
    done; } > "$OUT/apps_gpu.log" 2>&1
  stamp "apps: rc $?"; grep -E "throughput|rror|heat:|swe " "$OUT/apps_gpu.log" | head -20 ;;
pympi) # the Python tests named in $PYMPI (default: interop and device) at 2 ranks on the device,
    # after py (its extension)
  MANIPLE_BACKEND=cuda PYTHONPATH=$R/build/python timeout 120 mpiexec -n 2 python3 -m pytest -q --tb=short \
    -p no:cacheprovider ${PYMPI:-python/tests/test_interop.py python/tests/test_device.py} > "$OUT/pytest_mpi.log" 2>&1
  stamp "pympi: rc $?"; grep -E "FAILED|Error|passed|failed" "$OUT/pytest_mpi.log" | head -20 ;;
suite) # make bench's suite with its GPU column (--gpu yes) at one rank, after py (its extension);
    # quick sizes unless SUITEARGS says otherwise (e.g. '--only heat' for full sizes); the peers
    # this machine lacks (PETSc, cuPyNumeric) are recorded as failed
  PYTHONPATH=$R/build/python timeout ${SUITETIME:-300} python3 -m maniple.bench --gpu yes --ranks 1 \
    --oversub "" --no-plots -q --out "$OUT/bench" ${SUITEARGS---quick} > "$OUT/suite.log" 2>&1
  stamp "suite: rc $?"; tail -45 "$OUT/suite.log" ;;
cgview) # the CG iteration's events on the device (each event waits for its kernels)
  MANIPLE_BACKEND=cuda MANIPLE_LOG_VIEW=1 timeout 30 stdbuf -oL build/benchmarks/bench_cg 1000 50 1 \
    > "$OUT/cg_view.log" 2>&1
  stamp "cgview: rc $?"; grep -vE "^(Times|Calls|Mem|sends)" "$OUT/cg_view.log" | head -30 ;;
esac; done
stamp all done
