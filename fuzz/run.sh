#!/usr/bin/env bash
# make fuzz: each libFuzzer target for FUZZ_SECONDS (default 60) from the
# kept corpus; new interesting inputs go to <build>/corpus/<t>, crashes to
# <build>/crashes/. Keep a crash (after fixing it) or a useful new input
# by copying it into fuzz/corpus/<t>: make test replays that directory.
set -uo pipefail
build=$1 secs=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
export OMPI_MCA_mca_base_component_disable_dlclose=1 OMP_NUM_THREADS=1
export LSAN_OPTIONS="suppressions=$here/../tests/lsan.supp:print_suppressions=0:fast_unwind_on_malloc=0"
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0" MANIPLE_FUZZ_TMP=${TMPDIR:-/tmp}
status=0
for t in ${FUZZ_TARGETS:-npy npy_header mtx}; do
  work=$build/corpus/$t crashes=$build/crashes
  mkdir -p "$work" "$crashes"
  echo "fuzz: $t for ${secs}s (corpus $work, seeds fuzz/corpus/$t)"
  if ! "$build/fuzz/fuzz_$t" -max_total_time="$secs" -timeout=10 -rss_limit_mb=4096 -max_len=4096 \
       -dict="$here/${t%_header}.dict" -artifact_prefix="$crashes/$t-" -print_final_stats=1 "$work" "$here/corpus/$t" \
       2> "$build/fuzz_$t.log"; then
    echo "fuzz: $t FOUND A PROBLEM: see $build/fuzz_$t.log and $crashes"
    status=1
  fi
  grep -E "stat::number_of_executed_units|stat::new_units_added" "$build/fuzz_$t.log" | sed "s/^/fuzz: $t /"
done
exit $status
