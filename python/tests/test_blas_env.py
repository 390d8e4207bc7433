"""The OpenBLAS the C library links runs kernels for the CPU's instruction
set (maniple/_blas_env.py): Debian 12's OpenBLAS falls back to SSE3 kernels
on Xeons it does not know, 5x slower for dgemm."""
import ctypes
import ctypes.util
import os

import pytest

import maniple  # noqa: F401  (loads the library, and OpenBLAS with it)
from maniple import _blas_env

GENERIC = {b"Prescott", b"Core2", b"Penryn", b"Dunnington", b"Nehalem", b"Atom", b"Katmai", b"Coppermine",
           b"Northwood", b"Banias", b"Unknown"}


def test_coretype_by_instruction_set():
    assert _blas_env.coretype(_blas_env.AVX512 | {"avx2", "fma", "sse3"}) == "SKYLAKEX"
    assert _blas_env.coretype({"avx2", "fma", "avx512f"}) == "HASWELL"  # AVX-512 F alone is not SkylakeX's set
    assert _blas_env.coretype({"avx", "sse4_2"}) is None
    assert _blas_env.coretype(set()) is None


def test_user_setting_kept_and_environment_restored(monkeypatch):
    monkeypatch.setenv("OPENBLAS_CORETYPE", "ZEN")
    with _blas_env.chosen():
        assert os.environ["OPENBLAS_CORETYPE"] == "ZEN"
    assert os.environ["OPENBLAS_CORETYPE"] == "ZEN"
    monkeypatch.delenv("OPENBLAS_CORETYPE")
    with _blas_env.chosen():
        want = _blas_env.coretype(_blas_env.cpu_flags())
        assert os.environ.get("OPENBLAS_CORETYPE") == want
    assert "OPENBLAS_CORETYPE" not in os.environ


def test_loaded_openblas_uses_the_cpus_vector_kernels():
    flags = _blas_env.cpu_flags()
    if not {"avx2", "fma"} <= flags or "OPENBLAS_CORETYPE" in os.environ:
        pytest.skip("no AVX2 here, or the user chose the kernels")
    try:
        lib = ctypes.CDLL("libopenblas.so.0")  # the instance the library loaded
        lib.openblas_get_corename.restype = ctypes.c_char_p
    except (OSError, AttributeError):
        pytest.skip("the library is not linked with OpenBLAS")
    assert lib.openblas_get_corename() not in GENERIC
