#!/bin/bash
# The nvrtc test: run tests on the emulated device with every fused
# expression's CUDA source dumped, then compile each with NVRTC for sm_80
# and sm_90 (tests/nvrtc_check.c). No GPU needed.
# usage: nvrtc.sh BUILD_DIR MPIEXEC PYTHON
set -u
B=$1 MPIEXEC=$2 PY=$3
D=$(mktemp -d)
trap 'rm -rf "$D"' EXIT
export MANIPLE_BACKEND=emulated MANIPLE_KERNEL_DUMP=$D OMP_NUM_THREADS=1
for t in t_device t_ops t_views t_expr_extra t_reduce; do
  for np in 1 2; do
    timeout -k 5 120 "$MPIEXEC" -n $np "$B/tests/$t" > /dev/null || { echo "$t at $np ranks failed"; exit 1; }
  done
done
if [ -n "$PY" ] && [ -d "$B/python/maniple" ]; then # the Python suite's expressions too
  PYTHONPATH=$B/python timeout -k 5 600 "$MPIEXEC" -n 1 "$PY" -m pytest -q -x -p no:cacheprovider \
    "$(dirname "$0")/../python/tests" > "$D/pytest.log" 2>&1 || { tail -20 "$D/pytest.log"; exit 1; }
fi
# about 2000 sources, each compiled twice: two halves side by side
mkdir "$D/a" "$D/b"
i=0
for f in "$D"/*.cu; do
  if ((i++ % 2)); then mv "$f" "$D/a/"; else mv "$f" "$D/b/"; fi
done
"$B/tests/nvrtc_check" "$D/a" &
pa=$!
"$B/tests/nvrtc_check" "$D/b"
rb=$?
wait $pa
ra=$?
exit $((ra || rb))
