#!/usr/bin/env bash
# Install what maniple needs on a Debian machine, skipping what is present:
# Debian packages with apt-get, Python packages into .venv with pip.
set -euo pipefail
cd "$(dirname "$0")/.."

debs=(build-essential cmake pkg-config libopenmpi-dev openmpi-bin libmetis-dev libptscotch-dev libopenblas-dev libscalapack-openmpi-dev python3-venv python3-dev time)
# `setup.sh bench`: also the peers the benchmarks compare with (PETSc)
if [ "${1:-}" = "bench" ]; then
  debs+=(petsc-dev)
fi
# `setup.sh fuzz`: clang, whose libFuzzer make fuzz uses
if [ "${1:-}" = "fuzz" ]; then
  debs+=(clang)
fi
missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "setup: installing Debian packages: ${missing[*]}"
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
fi

PY=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv"
  "$PY" -m venv .venv
fi
pkgs=(numpy pytest mpi4py scipy matplotlib)
need=()
for p in "${pkgs[@]}"; do
  .venv/bin/python -c "import $p" 2>/dev/null || need+=("$p")
done
# pytest 9 has faulthandler_exit_on_timeout: a hanging test fails at once,
# naming itself on every rank (python/CMakeLists.txt)
.venv/bin/python -c "import pytest, sys; sys.exit(int(pytest.__version__.split('.')[0]) < 9)" 2>/dev/null ||
  need+=("pytest>=9")
if ((${#need[@]})); then
  echo "setup: pip installing ${need[*]} into .venv"
  .venv/bin/pip install -q --disable-pip-version-check -U "${need[@]}"
fi

# `setup.sh bench`: cuPyNumeric, the peer, in its own venv (it pins its own
# NumPy and Legate), at the version whose CPU-only run is known here; the
# suite records why when it cannot run
CPN_VERSION=26.6.1
if [ "${1:-}" = "bench" ] && [ ! -x .venv-cupynumeric/bin/python ]; then
  echo "setup: creating .venv-cupynumeric (pip install nvidia-cupynumeric==$CPN_VERSION)"
  if "$PY" -m venv .venv-cupynumeric; then
    .venv-cupynumeric/bin/pip install -q --disable-pip-version-check "nvidia-cupynumeric==$CPN_VERSION" \
      "legate==$CPN_VERSION" ||
      echo "setup: nvidia-cupynumeric did not install; the suite marks the peer 'not installed'"
  fi
fi
# the wheels link the CUDA driver even on CPUs: a stand-in that reports no
# device lets them run where no driver is installed (tools/cuda_driver_stub.c)
if [ "${1:-}" = "bench" ] && [ -x .venv-cupynumeric/bin/python ] &&
  [ ! -e .venv-cupynumeric/cuda-stub/libcuda.so.1 -o tools/cuda_driver_stub.c -nt .venv-cupynumeric/cuda-stub/libcuda.so.1 ]; then
  mkdir -p .venv-cupynumeric/cuda-stub
  cc -O2 -shared -fPIC -Wl,-soname,libcuda.so.1 -o .venv-cupynumeric/cuda-stub/libcuda.so.1 tools/cuda_driver_stub.c -ldl
  ln -sf libcuda.so.1 .venv-cupynumeric/cuda-stub/libcuda.so
fi
