#!/usr/bin/env bash
# How maniple starts: on an mpi4py communicator (the world split in two),
# and as one process without mpiexec (an MPI singleton).
set -euo pipefail
py=$1 mpiexec=$2 here=$(dirname "$0")
if "$py" -c "import mpi4py" 2>/dev/null; then
  for n in 2 3; do
    timeout -k 5 120 "$mpiexec" -n "$n" "$py" "$here/comm_split.py"
  done
else
  echo "mpi4py is not installed: skipping the communicator test"
  exit 77
fi
out=$(timeout -k 5 60 "$py" -c "import maniple, maniple.numpy as np; print(maniple.size(), int(np.arange(10).sum()))")
[ "$out" = "1 45" ] || { echo "without mpiexec: expected '1 45', got '$out'"; exit 1; }
