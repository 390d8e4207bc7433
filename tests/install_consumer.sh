#!/usr/bin/env bash
# Install the built tree into a scratch prefix, then build a consumer with
# find_package(maniple) and another with pkg-config, and run both.
set -euo pipefail
build=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" >/dev/null
cmake -S "$src/tests/consumer" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/cmake" >/dev/null
export LD_LIBRARY_PATH="$work/prefix/lib:${LD_LIBRARY_PATH:-}"
timeout -k 5 60 "$work/cmake/consumer"
libdir=$(ls -d "$work"/prefix/lib*/pkgconfig | head -1)
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs maniple)
# shellcheck disable=SC2086
cc -std=c11 "$src/tests/consumer/consumer.c" $flags -o "$work/pc_consumer"
LD_LIBRARY_PATH="$(dirname "$libdir"):${LD_LIBRARY_PATH}" timeout -k 5 60 "$work/pc_consumer"
