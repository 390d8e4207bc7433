#!/usr/bin/env bash
# MANIPLE_LIMIT_STDOUT=1: a print on every rank appears once.
set -euo pipefail
py=$1 mpiexec=$2
out=$(MANIPLE_LIMIT_STDOUT=1 timeout -k 5 60 "$mpiexec" -n 3 "$py" -c \
      "import maniple.numpy as np; print(f'sum {int(np.arange(10).sum())}')")
n=$(grep -o 'sum 45' <<< "$out" | wc -l)  # mpiexec may merge ranks' lines
[ "$n" -eq 1 ] || { echo "expected one line 'sum 45', got $n:"; echo "$out"; exit 1; }
out=$(timeout -k 5 60 "$mpiexec" -n 3 "$py" -c \
      "import maniple.numpy as np; print(f'sum {int(np.arange(10).sum())}')")
n=$(grep -o 'sum 45' <<< "$out" | wc -l)
[ "$n" -eq 3 ] || { echo "without the variable every rank prints: expected 3 lines, got $n:"; echo "$out"; exit 1; }
