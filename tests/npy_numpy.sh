#!/usr/bin/env bash
# .npy interoperability with NumPy at one rank count:
#   1. NumPy writes reference files (npy_check.py write DIR)
#   2. t_npy loads and checks them, and writes its own (t_npy DIR)
#   3. NumPy reads those back and checks them (npy_check.py read DIR)
# Usage: npy_numpy.sh PYTHON MPIEXEC NUMPROC_FLAG NP T_NPY DIR [MPIEXEC_FLAGS...]
# Exits 77 (skipped) when PYTHON is missing or cannot import numpy.
set -euo pipefail

if [ "$#" -lt 6 ]; then
  echo "usage: $0 PYTHON MPIEXEC NUMPROC_FLAG NP T_NPY DIR [MPIEXEC_FLAGS...]" >&2
  exit 2
fi
py=$1 mpiexec=$2 npflag=$3 np=$4 exe=$5 dir=$6
shift 6
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
check="$here/npy_check.py"

if [ -z "$py" ] || ! command -v "$py" >/dev/null 2>&1; then
  echo "SKIP: no Python interpreter ('$py'); configure with -DPython_EXECUTABLE=... or create $here/../.venv" >&2
  exit 77
fi
if ! "$py" -c 'import numpy' >/dev/null 2>&1; then
  echo "SKIP: numpy is not importable by $py (python3 -m venv .venv && .venv/bin/pip install numpy)" >&2
  exit 77
fi

rm -rf "$dir"
mkdir -p "$dir"
"$py" "$check" write "$dir"
# t_npy's own scratch files go to $dir too: the plain t_npy runs at the
# same rank counts at the same time in MANIPLE_TEST_TMP
MANIPLE_TEST_TMP="$dir" timeout -k 5 120 "$mpiexec" "$npflag" "$np" "$@" "$exe" "$dir"
"$py" "$check" read "$dir"
