#!/usr/bin/env bash
# make bench: the foundation benchmark at 1 and 2 ranks (one OpenMP thread
# per rank, so ranks = cores used). JSON lines go to stdout and to
# benchmarks/results/core.jsonl.
set -euo pipefail
BUILD=${1:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMP_NUM_THREADS=1
mkdir -p benchmarks/results
out=benchmarks/results/core.jsonl
: > "$out"
: > benchmarks/results/numpy.jsonl
for np in 1 2; do
  timeout -k 5 600 mpiexec -n "$np" --bind-to core "$BUILD/benchmarks/bench_core" "${@:2}" | tee -a "$out"
done
# maniple.numpy against NumPy (the seeds' stencil idiom, N = 4000; small arrays)
if [ -d "$BUILD/python/maniple" ]; then
  for np in 1 2; do
    PYTHONPATH="$BUILD/python" timeout -k 5 600 mpiexec -n "$np" --bind-to core .venv/bin/python \
      benchmarks/bench_numpy.py 4000 10 5 "$BUILD" | tee -a benchmarks/results/numpy.jsonl
  done
fi
# SpMV on the 2-d Poisson matrix (2000 x 2000 grid), natural and shuffled
# numbering, equal and METIS partitions, beside SciPy and STREAM
if [ -d "$BUILD/python/maniple" ]; then
  : > benchmarks/results/spmv.jsonl
  for np in 1 2; do
    PYTHONPATH="$BUILD/python" timeout -k 5 900 mpiexec -n "$np" --bind-to core .venv/bin/python \
      benchmarks/bench_spmv.py 2000 15 "$BUILD" | tee -a benchmarks/results/spmv.jsonl
  done
fi
# CG + Jacobi on the 2-d Poisson matrix (2000 x 2000), 200 iterations without
# a convergence test: maniple and PETSc interleaved at 1 and 2 ranks, SciPy
# on one rank (PETSc only where Debian's petsc-dev was found by CMake)
if [ -x "$BUILD/benchmarks/bench_cg" ]; then
  timeout -k 5 1800 .venv/bin/python benchmarks/bench_cg.py 2000 200 3 3 "$BUILD" | tee benchmarks/results/cg.jsonl
fi
