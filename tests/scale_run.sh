#!/usr/bin/env bash
# A scale test's run: mpiexec -n N [flags] program args..., each rank under
# GNU time, whose peak resident memory per rank is summarised at the end
# (max, min over the ranks). Exit status: the run's.
# Usage: scale_run.sh TIME MPIEXEC NPFLAG N [PREFLAGS...] -- PROGRAM ARGS...
set -u
tm=$1 mpiexec=$2 npflag=$3 n=$4
shift 4
pre=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do pre+=("$1"); shift; done
shift
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$mpiexec" "$npflag" "$n" "${pre[@]}" "$tm" -o "$log" -a -f "MN_PEAK_KB %M" "$@"
rc=$?
awk -v n="$n" '/^MN_PEAK_KB/ { k++; v = $2; if (k == 1 || v > mx) mx = v; if (k == 1 || v < mn) mn = v }
  END { if (k) printf "peak resident memory per rank (%d of %d ranks): max %.1f MB, min %.1f MB\n", k, n, mx / 1024, mn / 1024 }' "$log"
exit $rc
