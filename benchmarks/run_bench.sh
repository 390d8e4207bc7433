#!/usr/bin/env bash
# make bench: the whole suite (python -m maniple.bench), then the
# performance model validated against it. Results, CSV and plots go to
# benchmarks/results/. Extra arguments go to the suite (e.g. --quick).
set -euo pipefail
BUILD=${1:-build}
shift || true
export PYTHONPATH="$BUILD/python"
.venv/bin/python -m maniple.bench --build "$BUILD" "$@"
.venv/bin/python -m maniple.bench.model --results benchmarks/results
