#!/usr/bin/env bash
# libmaniple exports exactly the functions include/maniple declares with
# MN_EXTERN: no internal symbol leaks, no public one is hidden.
# usage: check_exports.sh LIBRARY INCLUDE_DIR
set -euo pipefail
lib=$1 inc=$2
exported=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort)
declared=$(grep -hoE 'MN_EXTERN [^(]*\bmn_[a-z0-9_]+[[:space:]]*\(' "$inc"/maniple/*.h |
           grep -oE 'mn_[a-z0-9_]+[[:space:]]*\($' | tr -d '( ' | sort)
extra=$(comm -23 <(echo "$exported") <(echo "$declared"))
missing=$(comm -13 <(echo "$exported") <(echo "$declared"))
if [ -n "$extra" ] || [ -n "$missing" ]; then
  [ -z "$extra" ] || echo "exported but not declared MN_EXTERN in $inc/maniple:" $extra
  [ -z "$missing" ] || echo "declared MN_EXTERN but not exported by $lib:" $missing
  exit 1
fi
echo "$lib exports the $(echo "$declared" | wc -l) functions include/maniple declares"
