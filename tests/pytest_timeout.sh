#!/usr/bin/env bash
# A hanging Python test fails fast and names itself on every rank (pytest's
# faulthandler_timeout with faulthandler_exit_on_timeout, as python/
# CMakeLists.txt runs the suite), instead of burning the ctest timeout.
set -uo pipefail
py=$1 mpiexec=$2 tag=${3:-} here=$(cd "$(dirname "$0")/../python/tests" && pwd)
start=$SECONDS
out=$(timeout -k 5 100 "$mpiexec" -n 2 $tag "$py" -m pytest -q -p no:cacheprovider \
      --color=no -o faulthandler_timeout=5 -o faulthandler_exit_on_timeout=true "$here/hang/hang_case.py" 2>&1)
rc=$? took=$((SECONDS - start))
fail() { echo "$1"; echo "--- output (rc $rc, ${took}s):"; echo "$out"; exit 1; }
[ "$rc" -ne 0 ] || fail "the hanging test did not fail"
[ "$rc" -ne 124 ] && [ "$rc" -ne 137 ] || fail "the hang was cut by the outer timeout, not the per-test one"
[ "$took" -lt 60 ] || fail "the hang took ${took}s to fail"
for r in 0 1; do
  # mpiexec --tag-output tags every chunk a rank writes, so a busy machine can
  # put a tag in the middle of a line: drop the rank's own tags first
  grep "^\[[0-9]*,$r\]<stderr>:" <<< "$out" | sed "s/\[[0-9]*,$r\]<stderr>://g" |
    grep -q "in test_hangs_on_rank_divergence" ||
    grep -q "^\[1,$r\]<stderr>:.*in test_hangs_on_rank_divergence" <<< "$out" ||
    grep -q "\[[0-9]*,$r\]<stderr>:.*in test_hangs_on_rank_divergence" <<< "$out" ||
    grep -q "^\[$r\] .*in test_hangs_on_rank_divergence" <<< "$out" ||
    fail "rank $r's traceback does not name the test"
done
