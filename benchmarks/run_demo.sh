#!/usr/bin/env bash
# make demo: the seed's heat stencil on 2 ranks, through the C API and through
# maniple.numpy (the seed's script with only the import changed).
set -euo pipefail
BUILD=${1:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
# Open MPI: allow more ranks than cores (other MPIs ignore it)
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMP_NUM_THREADS=1
timeout -k 5 300 mpiexec -n 2 "$BUILD/benchmarks/demo_stencil" 1000 100
if [ -d "$BUILD/python/maniple" ]; then
  echo
  timeout -k 5 300 mpiexec -n 2 .venv/bin/python benchmarks/demo_stencil.py  # maniple is installed in .venv
  echo
  .venv/bin/python benchmarks/demo_stencil.py --backend numpy
fi
