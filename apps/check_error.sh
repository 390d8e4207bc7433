#!/usr/bin/env bash
# check_error.sh NP MESSAGE CMD...: CMD (an mpiexec line of NP ranks) must
# exit with status 2 (bad input) and every rank must print MESSAGE (fixed
# text) on stderr: no rank may go on, or wait, without the error.
np=$1 msg=$2
shift 2
err=$("$@" 2>&1 >/dev/null)
status=$?
count=$(grep -cF -- "$msg" <<<"$err")
if [ "$status" -ne 2 ]; then
  echo "expected exit status 2, got $status; stderr:"; echo "$err"; exit 1
fi
if [ "$count" -ne "$np" ]; then
  echo "expected '$msg' from each of $np ranks, found it $count times; stderr:"; echo "$err"; exit 1
fi
