#!/usr/bin/env bash
# make demo: the seed's heat stencil through maniple on 2 ranks.
set -euo pipefail
BUILD=${1:-build}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMP_NUM_THREADS=1
timeout -k 5 300 mpiexec -n 2 --oversubscribe "$BUILD/benchmarks/demo_stencil" 1000 100
