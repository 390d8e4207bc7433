"""np.save / np.load (.npy files) against NumPy, on every rank under
mpiexec -n 1, 2, 3.

- Headers: each crafted header is loaded by numpy.load and by maniple; both
  must accept it (with the same array) or both refuse it (maniple on every
  rank, naming the file). NumPy evaluates the header with ast.literal_eval,
  so duplicated keys keep their last value, extra or missing keys, a
  non-bool fortran_order, non-int shapes and text after the dict are refused.
- Files that differ between ranks or exist on some ranks only (node-local
  disks, simulated by one relative name in a per-rank working directory):
  an error on every rank, never rank 0's header applied to other data, never
  a hang.
- File errors are NumPy's exceptions: FileNotFoundError, IsADirectoryError,
  PermissionError, with errno and filename, on every rank.
- A save appears at its name only when complete: an injected failure or a
  killed process leaves no plausible file there, and a replaced file is
  swapped in one rename.
- An axis longer than 2^31 - 1 elements, written by NumPy and read by
  maniple, and written back by maniple (at 2 ranks only: about 20 s and
  2 GiB of disk; MANIPLE_NPY_LARGE=0 skips it).
- savetxt/loadtxt touch the file on rank 0 only, as do .npz archives and
  open file objects given to save/load.
"""
import contextlib
import errno
import glob
import os
import pathlib
import pickle
import re
import shutil
import struct
import subprocess
import sys
import time
import warnings

import numpy
import pytest

import maniple
import maniple.numpy as np
from maniple import _core

R, P = maniple.rank(), maniple.size()


def bcast(obj):
    """rank 0's obj on every rank (the others wait for rank 0)"""
    return pickle.loads(_core.bcast(pickle.dumps(obj) if R == 0 else None, 0))


def barrier():
    """every rank has arrived (a bcast only makes the others wait for rank 0)"""
    float(np.ones(P).sum())


@pytest.fixture(scope="module")
def tmp():
    base = os.environ.get("MANIPLE_PYTEST_TMP") or os.environ.get("MANIPLE_TEST_TMP") or "/tmp"
    # one directory a pytest-xdist worker too (the GPU run uses 8)
    d = os.path.join(base, f"npy_io_np{P}{os.environ.get('PYTEST_XDIST_WORKER', '')}")
    if R == 0:
        shutil.rmtree(d, ignore_errors=True)
        os.makedirs(d)
    bcast(None)
    yield d
    barrier()
    if R == 0:
        shutil.rmtree(d, ignore_errors=True)


def npy_bytes(text, data=bytes(k % 2 for k in range(96)), major=1):
    """A .npy file: header text padded as NumPy pads it, then data."""
    h = text.encode("latin1" if major < 3 else "utf8")
    pre = 10 if major == 1 else 12
    total = pre + len(h) + 1
    total += (64 - total % 64) % 64
    h = h + b" " * (total - pre - len(h) - 1) + b"\n"
    size = struct.pack("<H", len(h)) if major == 1 else struct.pack("<I", len(h))
    return b"\x93NUMPY" + bytes([major, 0]) + size + h + data


def write_root(path, content):
    if R == 0:
        with open(path, "wb") as f:
            f.write(content)
    bcast(None)


def numpy_result(path):
    """numpy.load's array, or the exception it raised"""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Python 2 headers warn
            return numpy.load(path)
    except Exception as e:  # noqa: BLE001 - any refusal counts
        return e


def same_on_every_rank(text):
    assert bcast(text) == text, f"rank {R} has another message: {text}"


# Header texts, each checked against numpy.load on the same bytes. Data:
# 96 bytes, byte k = k % 2.
HEADERS = [
    # fortran_order must be a bool
    "{'descr': '|b1', 'fortran_order': 1, 'shape': (3,), }",
    "{'descr': '|b1', 'fortran_order': 0, 'shape': (3,), }",
    "{'descr': '|b1', 'fortran_order': None, 'shape': (3,), }",
    "{'descr': '|b1', 'fortran_order': 'True', 'shape': (3,), }",
    "{'descr': '|b1', 'fortran_order': (False), 'shape': (3,), }",
    # duplicated keys: the last value counts
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), 'shape': (2,)}",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'descr': '|b1'}",
    "{'descr': '|b1', 'fortran_order': True, 'shape': (3, 2), 'fortran_order': False}",
    "{'descr': '|b1', 'fortran_order': 1, 'shape': (3,), 'fortran_order': False}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), 'fortran_order': 1}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 1.5, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': {1, 2}, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': set(), 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': ..., 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': -1.5e3-2j, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': x, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': {[1]: 2}, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 1+2, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 2j+1, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': --3, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': f'x', 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 'a' b'b', 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': '\\x4', 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': '\\q\\777', 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': '''a\nb''', 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 'a\nb', 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': set((1,)), 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 09.5, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 09, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 1__0, 'shape': (3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': 0x_1f, 'shape': (3,)}",
    # extra and missing keys, keys that are not str
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), 'x': 1}",
    "{'descr': '|b1', 'fortran_order': False}",
    "{'descr': '|b1', 'shape': (3,)}",
    "{}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), b'x': 1}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), 1: 1}",
    "{'desc' 'r': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "{\"descr\": '|b1', u'fortran_order': False, r'shape': (3,)}",
    "{'\\x64escr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "{b'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    # shapes
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3.0,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (True, 2)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': [3]}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (-1,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (0, -1)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (- 3,)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (-0, 4)}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (+3, (2))}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3 ,  ) }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': ( ), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (03,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (00,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (0x3, 0o2, 0b1), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (1_0,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (97,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (96,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (9223372036854775807,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (9223372036854775808,), }",
    "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (4294967296, 4294967296, 0), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (1, 2, 1, 3, 1, 1, 2, 1), }",
    # Python 2 'L' suffixes (formats 1.0 and 2.0 only: see test_python2_suffix)
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3L, 2L), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3 L,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3l,), }",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3L,), 'x': y}",
    # text around the dict
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)} x",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)} # c",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)};",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)},",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}\n x",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}\n # c",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}\\\n",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,),,}",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), **{}}",
    "  {'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "\t{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "\n{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "\n  {'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "# c\n{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "\\\n{'descr': '|b1', 'fortran_order': False, 'shape': (3,)}",
    "({'descr': '|b1', 'fortran_order': False, 'shape': (3,)})",
    "{'descr': '|b1', 'fortran_order':\n False, 'shape': (3,)}",
    "['descr', '|b1']",
    "",
    "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)} #\x01\x7f",
    # descr spellings
    "{'descr': 'f8', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': 'float64', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '=f8', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '|f8', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': 'd', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '<b1', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '>?', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '<i 4', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '1f8', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '<(1,)i8 ', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '\\x0c', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': 'long', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '<f8x', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': b'<f8', 'fortran_order': False, 'shape': (3,)}",
    "{'descr': ['<f8'], 'fortran_order': False, 'shape': (3,)}",
    "{'descr': 8, 'fortran_order': False, 'shape': (3,)}",
    "{'descr': '\\u003cf8', 'fortran_order': False, 'shape': (3,)}",
    # Fortran order (the transpose of the C-order data)
    "{'descr': '<i4', 'fortran_order': True, 'shape': (3, 2, 4)}",
    "{'descr': '<i4', 'fortran_order': True, 'shape': (0, 3)}",
    "{'descr': '|b1', 'fortran_order': True, 'shape': (1, 5, 1)}",
]


@pytest.mark.parametrize("k", range(len(HEADERS)))
def test_header_as_numpy(k, tmp):
    text = HEADERS[k]
    path = os.path.join(tmp, f"h{k}.npy")
    write_root(path, npy_bytes(text))
    want = numpy_result(path)
    got = None
    try:
        got = np.load(path)
    except (ValueError, TypeError, NotImplementedError) as e:
        got = e
    if isinstance(want, Exception):
        assert isinstance(got, Exception), f"NumPy refuses {text!r} ({want!r}); maniple loads it"
        assert path in str(got), got
        same_on_every_rank(f"{type(got).__name__}: {got}")
    elif isinstance(got, Exception):
        # what maniple cannot hold: more than 8 axes, other dtypes
        assert want.ndim > 8 or want.dtype.name not in ("bool", "int32", "int64", "float32", "float64"), \
            f"NumPy loads {text!r}; maniple raises {got!r}"
        assert isinstance(got, (TypeError, NotImplementedError)), got
    else:
        g = numpy.asarray(got)
        assert g.dtype == want.dtype and g.shape == want.shape, (text, g.dtype, g.shape, want.dtype, want.shape)
        numpy.testing.assert_array_equal(g, want)


def test_python2_suffix(tmp):
    """NumPy drops Python 2 'L' suffixes in formats 1.0 and 2.0 (with a warning), not in 3.0."""
    text = "{'descr': '|b1', 'fortran_order': False, 'shape': (3L, 2), }"
    for major in (1, 2, 3):
        path = os.path.join(tmp, f"py2_v{major}.npy")
        write_root(path, npy_bytes(text, major=major))
        want = numpy_result(path)
        if major < 3:
            numpy.testing.assert_array_equal(numpy.asarray(np.load(path)), want)
        else:
            assert isinstance(want, ValueError)
            with pytest.raises(ValueError, match="invalid number"):
                np.load(path)


def test_versions_and_sizes(tmp):
    """Format versions, header lengths and data sizes NumPy refuses."""
    good = npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }")
    cases = {
        "v11": good[:7] + b"\x01" + good[8:],
        "v40": b"\x93NUMPY\x04\x00" + good[8:],
        "v2": npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), }", major=2),
        "v3": npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), 'x':'\u00e9'}", major=3),
        "v3ok": npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } # \u00e9", major=3),
        "v3bad": good[:6] + b"\x03\x00" + struct.pack("<I", 64) + b"{'descr': '<f8', # \xff\xfe" + b" " * 40 + b"\n"
                 + bytes(32),
        "long": npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } #" + "x" * 10000, major=2),
        "short": npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (13,), }"),
        "nul": npy_bytes("{'descr': '<f8', 'fortran_order': False, 'shape': (4,), } #\x00"),
        "trunc": good[:40],
        "magic": b"not a .npy file at all",
        "empty": b"",
    }
    for name, content in cases.items():
        path = os.path.join(tmp, f"size_{name}.npy")
        write_root(path, content)
        want = numpy_result(path)
        if isinstance(want, Exception):
            with pytest.raises(ValueError) as info:
                np.load(path)
            assert path in str(info.value)
            same_on_every_rank(str(info.value))
        else:
            numpy.testing.assert_array_equal(numpy.asarray(np.load(path)), want)


def _npz_members():
    return {"a": numpy.arange(35.0).reshape(7, 5), "b": numpy.arange(9, dtype="int16"),
            "c": numpy.array([1 + 2j, -3j], "complex64")}


@pytest.mark.parametrize("compressed", [False, True])
def test_npz_loads_as_numpy(compressed, tmp):
    """NumPy's archive read by maniple: the same members, names and errors."""
    path = os.path.join(tmp, "a.npz")
    want = _npz_members()
    if R == 0:
        (numpy.savez_compressed if compressed else numpy.savez)(path, **want)
    bcast(None)
    with np.load(path) as z:
        assert isinstance(z, np.lib.npyio.NpzFile)  # the class scripts check for, as numpy.lib.npyio's
        assert z.files == sorted(want) and list(z) == sorted(want) and len(z) == 3
        assert "a" in z and "a.npy" in z and "zz" not in z
        for k, w in want.items():
            got = z[k]
            assert isinstance(got, np.ndarray)
            assert got.dtype == w.dtype
            numpy.testing.assert_array_equal(numpy.asarray(got), w)
        numpy.testing.assert_array_equal(numpy.asarray(z.f.b), want["b"])
        with pytest.raises(KeyError, match="zz is not a file in the archive"):
            z["zz"]
        assert (z.fid is not None) == (R == 0)  # rank 0 holds the file
    assert z.fid is None
    with pytest.raises(ValueError, match="closed file"):
        z["a"]


def test_savez_round_trip_through_file_objects(tmp):
    """A BytesIO on every rank: rank 0 writes it and reads it back, as
    savetxt and savez do; save and load of a .npy file object too."""
    import io
    a, b = np.arange(12.0).reshape(3, 4), np.arange(5, dtype="uint8")
    f = io.BytesIO()
    np.savez(f, a=a, b=b)
    f.seek(0)
    with np.load(f) as z:
        numpy.testing.assert_array_equal(numpy.asarray(z["a"]), numpy.arange(12.0).reshape(3, 4))
        assert z["b"].dtype == numpy.uint8
    g = io.BytesIO()
    np.save(g, a.T)
    if R == 0:  # a NumPy .npy written to rank 0's object
        numpy.testing.assert_array_equal(numpy.load(io.BytesIO(g.getvalue())), numpy.arange(12.0).reshape(3, 4).T)
    g.seek(0)
    got = np.load(g)
    assert isinstance(got, np.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.arange(12.0).reshape(3, 4).T)


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (1, 4), (4, 1)])
@pytest.mark.parametrize("via", ["path", "file object", "npz"])
def test_fortran_order_kept_as_numpy(shape, via, tmp):
    """An F-ordered array saves as NumPy saves it (fortran_order True) and
    loads F-ordered, as NumPy's load gives it; a NumPy F-ordered file too."""
    import io
    x = numpy.asfortranarray(numpy.arange(float(numpy.prod(shape))).reshape(shape))
    for save in (np.save, numpy.save):
        src = np.asfortranarray(np.asarray(x)) if save is np.save else x
        if via == "path":
            path = os.path.join(tmp, f"f{len(shape)}{shape[0]}.npy")
            if save is np.save or R == 0:
                save(path, src)
            bcast(None)
            got, want = np.load(path), numpy.load(path)
        elif via == "file object":
            f = io.BytesIO()
            np.save(f, src) if save is np.save else numpy.save(f, src)
            f.seek(0)
            got = np.load(f)
            want = numpy.load(io.BytesIO(f.getvalue())) if R == 0 or save is numpy.save else None
        else:
            f = io.BytesIO()
            np.savez(f, a=src) if save is np.save else numpy.savez(f, a=src)
            f.seek(0)
            got = np.load(f)["a"]
            want = numpy.load(io.BytesIO(f.getvalue()))["a"] if R == 0 or save is numpy.save else None
        w = bcast(want if R == 0 else None)  # (NumPy's reading of rank 0's file object)
        assert (got.flags.c_contiguous, got.flags.f_contiguous) == (w.flags.c_contiguous, w.flags.f_contiguous)
        numpy.testing.assert_array_equal(numpy.asarray(got), w)
        numpy.testing.assert_array_equal(w, x)


def test_load_mmap_modes(tmp):
    """mmap_mode 'r' reads into a read-only array and 'c' into a writable
    one; 'r+'/'w+' (writes reaching the file) are refused on every rank."""
    path = os.path.join(tmp, "m.npy")
    np.save(path, np.arange(6.0))
    r = np.load(path, mmap_mode="r")
    assert not r.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        r[0] = 1.0
    c = np.load(path, mmap_mode="c")
    c[0] = 7.0
    numpy.testing.assert_array_equal(numpy.asarray(c), [7, 1, 2, 3, 4, 5])
    numpy.testing.assert_array_equal(numpy.load(path), numpy.arange(6.0))  # the file is unchanged
    for mode in ("r+", "w+"):
        with pytest.raises(NotImplementedError, match=re.escape(repr(mode))):
            np.load(path, mmap_mode=mode)
    with pytest.raises(ValueError, match="mode must be one of"):
        numpy.load(path, mmap_mode="x")
    with pytest.raises(ValueError, match="mode must be one of"):
        np.load(path, mmap_mode="x")


def test_savetxt_to_a_list_subclass_writer():
    """An object with write() that is also a list stays the caller's object
    (it was rebuilt as a plain list, which NumPy then refused)."""
    class Writer(list):
        def write(self, text):
            self.extend(text.split(b"\n"))
    w, want = Writer(), Writer()
    a = np.array([[1, 2], [3, 4]])
    np.savetxt(w, a)
    numpy.savetxt(want, numpy.array([[1, 2], [3, 4]]))
    assert w == (want if R == 0 else [])  # rank 0 writes
    if R == 0:
        numpy.testing.assert_array_equal(numpy.loadtxt(w), [[1, 2], [3, 4]])


# ---- files the ranks see differently ----

@contextlib.contextmanager
def own_directory(tmp, name):
    """Each rank in its own working directory: one relative name is a
    different file on each rank, as on node-local disks."""
    d = os.path.join(tmp, f"{name}_r{R}")
    os.makedirs(d, exist_ok=True)
    old = os.getcwd()
    os.chdir(d)
    try:
        yield d
    finally:
        os.chdir(old)
        barrier()


def test_same_file_on_every_rank_loads(tmp):
    x = numpy.arange(35.0).reshape(7, 5)
    with own_directory(tmp, "same"):
        numpy.save("a.npy", x)
        barrier()
        numpy.testing.assert_array_equal(numpy.asarray(np.load("a.npy")), x)


def test_other_byte_order(tmp):
    """Arrays of another machine's byte order: asarray takes their values;
    a big-endian .npy file is refused on every rank, naming what is read."""
    x = numpy.arange(35.0).reshape(7, 5).astype(">f8")
    a = np.asarray(x)
    assert a.dtype == numpy.float64
    numpy.testing.assert_array_equal(numpy.asarray(a), x)
    numpy.testing.assert_array_equal(numpy.asarray(np.asarray(numpy.arange(9).astype(">i2"))), numpy.arange(9))
    with own_directory(tmp, "endian"):
        numpy.save("b.npy", x)
        barrier()
        with pytest.raises(TypeError, match=r"'b.npy': dtype '>f8' not supported \(bool, int8, .*complex128, "
                                            r"little-endian\)"):
            np.load("b.npy")


@pytest.mark.parametrize("what", ["shape", "dtype", "size"])
def test_file_differing_between_ranks(what, tmp):
    last = R == P - 1
    x = numpy.arange(12, dtype=numpy.int32)
    if last and what == "shape":
        x = x.reshape(3, 4)
    if last and what == "dtype":
        x = x.astype(numpy.float32)
    with own_directory(tmp, f"differ_{what}"):
        numpy.save("a.npy", x)
        if last and what == "size":
            with open("a.npy", "ab") as f:
                f.write(b"trailing")
        barrier()
        if P == 1:
            numpy.testing.assert_array_equal(numpy.asarray(np.load("a.npy")), x)
            return
        with pytest.raises(OSError) as info:
            np.load("a.npy")
    msg = str(info.value)
    assert "'a.npy' differs between ranks" in msg and f"rank {P - 1} sees" in msg, msg
    assert {"shape": "int32 (3, 4)", "dtype": "float32 (12,)", "size": "184 bytes in all"}[what] in msg, msg
    assert "int32 (12,)" in msg and "176 bytes in all" in msg, msg
    same_on_every_rank(msg)


@pytest.mark.parametrize("where", ["rank 0 only", "all but rank 0", "last rank missing"])
def test_file_missing_on_some_ranks(where, tmp):
    """FileNotFoundError on every rank, never a hang in MPI_File_open."""
    have = {"rank 0 only": R == 0, "all but rank 0": R != 0, "last rank missing": R != P - 1}[where]
    with own_directory(tmp, "missing_" + where.replace(" ", "_")):
        if have:
            numpy.save("a.npy", numpy.arange(4.0))
        barrier()
        if P == 1:
            if have:
                np.load("a.npy")
            return
        with pytest.raises(FileNotFoundError) as info:
            np.load("a.npy")
    e = info.value
    assert e.errno == errno.ENOENT and e.filename == "a.npy", (e.errno, e.filename)
    first_missing = min(r for r in range(P) if not {"rank 0 only": r == 0, "all but rank 0": r != 0,
                                                     "last rank missing": r != P - 1}[where])
    assert f"(on rank {first_missing})" in e.strerror, e.strerror
    same_on_every_rank(str(e))


def test_save_where_a_directory_is_missing_on_some_ranks(tmp):
    a = np.arange(5.0)
    with own_directory(tmp, "savedir"):
        if R == 0:
            os.makedirs("sub", exist_ok=True)
        barrier()
        if P > 1:
            with pytest.raises(FileNotFoundError) as info:
                np.save("sub/a.npy", a)
            assert info.value.filename == "sub/a.npy"
            assert not os.path.exists("sub/a.npy")
        else:
            np.save("sub/a.npy", a)
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(5.0))


def test_save_into_per_rank_directories(tmp):
    """Every rank has the directory, but each its own (node-local disks):
    rank 0's temporary file is not seen by the others, so OSError on every
    rank and nothing left behind."""
    with own_directory(tmp, "saveown"):
        if P > 1:
            with pytest.raises(OSError, match="rank 1 cannot open the temporary file"):
                np.save("own.npy", np.arange(3))
            assert not os.path.exists("own.npy") and glob.glob(".own.npy.mn-tmp-*") == []
        else:
            np.save("own.npy", np.arange(3))


# ---- file errors as NumPy raises them ----

def test_missing_file_and_directories(tmp):
    missing = os.path.join(tmp, "no_such.npy")
    d = os.path.join(tmp, "adir.npy")
    if R == 0:
        os.makedirs(d, exist_ok=True)
    bcast(None)
    a = np.arange(4)
    for call, path, exc in [
        (lambda xp, p: xp.load(p), missing, FileNotFoundError),
        (lambda xp, p: xp.load(p), d, IsADirectoryError),
        (lambda xp, p: xp.save(p, a if xp is np else numpy.arange(4)), d, IsADirectoryError),
        (lambda xp, p: xp.save(p, a if xp is np else numpy.arange(4)), os.path.join(missing, "x.npy"),
         (FileNotFoundError, NotADirectoryError)),
        (lambda xp, p: xp.save(p, a if xp is np else numpy.arange(4)), os.path.join(tmp, "nodir", "x.npy"),
         FileNotFoundError),
    ]:
        with pytest.raises(exc) as want:
            call(numpy, path)
        with pytest.raises(type(want.value)) as got:
            call(np, path)
        assert got.value.errno == want.value.errno and got.value.filename == path, (got.value, want.value)
        same_on_every_rank(str(got.value))
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(4))


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads and writes any file")
def test_permission_errors(tmp):
    path = os.path.join(tmp, "locked.npy")
    if R == 0:
        numpy.save(path, numpy.arange(3))
        os.chmod(path, 0)
    bcast(None)
    try:
        with pytest.raises(PermissionError):
            numpy.load(path)
        with pytest.raises(PermissionError):
            np.load(path)
        with pytest.raises(PermissionError):
            np.save(path, np.arange(3))
    finally:
        barrier()
        if R == 0:
            os.chmod(path, 0o644)


def test_paths_and_file_objects(tmp):
    a = np.arange(6.0)
    p = pathlib.Path(tmp) / "pathlib"
    np.save(p, a)  # ".npy" appended, as NumPy does
    numpy.testing.assert_array_equal(numpy.load(str(p) + ".npy"), numpy.arange(6.0))
    numpy.testing.assert_array_equal(numpy.asarray(np.load(pathlib.Path(str(p) + ".npy"))), numpy.arange(6.0))
    numpy.testing.assert_array_equal(numpy.asarray(np.load(os.fsencode(str(p) + ".npy"))), numpy.arange(6.0))
    with open(str(p) + ".npy", "rb") as f:  # an open file: read by rank 0, scattered
        numpy.testing.assert_array_equal(numpy.asarray(np.load(f)), numpy.arange(6.0))


# ---- saving atomically ----

def temporaries(d, name):
    return sorted(glob.glob(os.path.join(d, f".{name}.mn-tmp-*")))


@contextlib.contextmanager
def env(**kv):
    old = {k: os.environ.get(k) for k in kv}
    os.environ.update(kv)
    try:
        yield
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_failed_save_leaves_no_file(tmp):
    path = os.path.join(tmp, "fail.npy")
    with env(MANIPLE_NPY_FAULT="write"):
        with pytest.raises(OSError, match="injected"):
            np.save(path, np.arange(1000.0))
    assert not os.path.exists(path)
    assert temporaries(tmp, "fail.npy") == []
    # over an existing file: the file stays as it was
    barrier()
    if R == 0:
        numpy.save(path, numpy.arange(3))
    bcast(None)
    with env(MANIPLE_NPY_FAULT="write"):
        with pytest.raises(OSError, match="injected"):
            np.save(path, np.arange(1000.0))
    numpy.testing.assert_array_equal(numpy.load(path), numpy.arange(3))
    assert temporaries(tmp, "fail.npy") == []


def test_save_replaces_in_one_rename(tmp):
    path = os.path.join(tmp, "swap.npy")
    np.save(path, np.arange(100.0))
    barrier()
    fd = os.open(path, os.O_RDONLY)
    old = os.pread(fd, 10 ** 6, 0)
    barrier()
    np.save(path, np.ones((3, 4), dtype=np.int32))
    # a reader of the old file still reads it all: the new one was renamed over it
    assert os.pread(fd, 10 ** 6, 0) == old
    os.close(fd)
    numpy.testing.assert_array_equal(numpy.load(path), numpy.ones((3, 4), numpy.int32))
    assert temporaries(tmp, "swap.npy") == []


def singleton_env():
    keep = {k: v for k, v in os.environ.items()
            if not k.startswith(("OMPI_", "PMIX_", "PRTE_", "OPAL_", "PMI_", "HYDRA_"))}
    keep.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1",
                PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    return keep


def test_killed_save_leaves_no_plausible_file(tmp):
    """A save killed after writing all its data, just before the rename
    (MANIPLE_NPY_FAULT=kill), as a job killed at its time limit: the target holds
    the old file, or nothing; the data sits in a temporary name that
    numpy.load would never be given."""
    if R == 0:
        path = os.path.join(tmp, "killed.npy")
        numpy.save(path, numpy.arange(5))
        script = ("import maniple, maniple.numpy as np; maniple.init(); "
                  f"np.save({path!r}, np.arange(1000000.0)); print('saved')")
        e = singleton_env()
        e["MANIPLE_NPY_FAULT"] = "kill"
        r = subprocess.run([sys.executable, "-c", script], env=e, capture_output=True, text=True, timeout=120)
        assert r.returncode == -9 and "saved" not in r.stdout, (r.returncode, r.stdout, r.stderr)
        numpy.testing.assert_array_equal(numpy.load(path), numpy.arange(5))
        left = temporaries(tmp, "killed.npy")
        assert len(left) == 1 and os.path.getsize(left[0]) == 128 + 8 * 1000000, left
        os.unlink(left[0])
        os.unlink(path)
        r = subprocess.run([sys.executable, "-c", script], env=e, capture_output=True, text=True, timeout=120)
        assert r.returncode == -9 and not os.path.exists(path)
        for t in temporaries(tmp, "killed.npy"):
            os.unlink(t)
    bcast(None)


# ---- an axis longer than 2^31 - 1 elements ----

BIG = 2 ** 31 + 5
PERIOD = 5  # element k is True where k % 5 == 1
CHUNK = PERIOD * 2 ** 24  # elements NumPy writes or compares at a time


def big_pattern(start, stop):
    k = numpy.arange(start, stop, dtype=numpy.int64)
    return k % PERIOD == 1


@pytest.mark.skipif(P != 2 or os.environ.get("MANIPLE_NPY_LARGE", "1") == "0",
                    reason="runs at 2 ranks (about 20 s, 2 GiB of disk); MANIPLE_NPY_LARGE=0 skips it")
def test_axis_beyond_int32(tmp):
    """A bool array of 2^31 + 5 elements (a 2 GiB file): NumPy writes it,
    maniple reads it (MPI-IO pieces of at most 1 GiB, int counts) and writes
    it back, and NumPy checks every byte of that file against the pattern.
    Reading is checked apart from writing (a count, and elements around
    2^31, the ranks' blocks and their 1 GiB pieces, gathered by slicing), so
    that a misplacement in both cannot cancel out."""
    path = os.path.join(tmp, "big.npy")
    block = numpy.tile(big_pattern(0, PERIOD), CHUNK // PERIOD)
    t0 = time.time()
    if R == 0:
        with open(path, "wb") as f:
            numpy.lib.format.write_array_header_1_0(f, {"descr": "|b1", "fortran_order": False, "shape": (BIG,)})
            for s in range(0, BIG, CHUNK):
                f.write(block[:min(CHUNK, BIG - s)].tobytes())
    bcast(None)
    t1 = time.time()
    b = np.load(path)
    assert b.shape == (BIG,) and b.dtype == numpy.bool_
    assert int(np.count_nonzero(b)) == (BIG + PERIOD - 2) // PERIOD
    starts = [0, BIG // 2, BIG // 2 + 2 ** 30, 2 ** 30, 2 ** 31 - 4, BIG - 9]
    for lo in starts:
        lo = max(0, lo - 4)
        numpy.testing.assert_array_equal(numpy.asarray(b[lo:lo + 9]), big_pattern(lo, min(lo + 9, BIG)), err_msg=lo)
    barrier()
    if R == 0:
        os.unlink(path)
    bcast(None)
    t2 = time.time()
    np.save(path, b)
    t3 = time.time()
    del b
    if R == 0:
        with open(path, "rb") as f:
            assert numpy.lib.format.read_magic(f) == (1, 0)
            assert numpy.lib.format.read_array_header_1_0(f) == ((BIG,), False, numpy.dtype(bool))
            assert os.path.getsize(path) == f.tell() + BIG
            for s in range(0, BIG, CHUNK):
                x = numpy.frombuffer(f.read(min(CHUNK, BIG - s)), dtype=numpy.bool_)
                if not numpy.array_equal(x, block[:len(x)]):
                    bad = numpy.flatnonzero(x != block[:len(x)])[:5] + s
                    raise AssertionError(f"elements {bad.tolist()} of the file maniple wrote are wrong")
        os.unlink(path)
        print(f"\n[np{P}] 2^31+5 bools: NumPy writes {t1 - t0:.1f} s, maniple loads and checks {t2 - t1:.1f} s, "
              f"saves {t3 - t2:.1f} s, NumPy checks {time.time() - t3:.1f} s", file=sys.stderr)
    bcast(None)


# ---- text files: rank 0 only ----

def test_loadtxt_reads_rank0s_file(tmp):
    with own_directory(tmp, "txt_read"):
        numpy.savetxt("a.txt", numpy.arange(6.0).reshape(2, 3) + R)  # another file on each rank
        barrier()
        got = np.loadtxt("a.txt")
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.arange(6.0).reshape(2, 3))


def test_loadtxt_missing_on_rank0_raises_everywhere(tmp):
    with own_directory(tmp, "txt_missing"):
        if R != 0:
            numpy.savetxt("a.txt", numpy.arange(3.0))
        barrier()
        with pytest.raises(FileNotFoundError):
            np.loadtxt("a.txt")


def test_savetxt_of_numpy_data_writes_once(tmp):
    with own_directory(tmp, "txt_write") as d:
        np.savetxt("b.txt", numpy.arange(4.0))
        barrier()
        assert os.path.exists(os.path.join(d, "b.txt")) == (R == 0)
        if R == 0:
            numpy.testing.assert_array_equal(numpy.loadtxt("b.txt"), numpy.arange(4.0))


def test_tofile_writes_once_and_raises_everywhere(tmp_path_factory):
    """ndarray.tofile: rank 0 writes the whole array; a missing directory is
    NumPy's FileNotFoundError on every rank (it used to hang the others)"""
    import maniple
    from maniple import _core
    d = _core.bcast(str(tmp_path_factory.mktemp("tofile")).encode() if maniple.rank() == 0 else None, 0).decode()
    x = numpy.arange(35.0).reshape(5, 7)
    np.asarray(x).tofile(f"{d}/x.bin")
    np.asarray(x).tofile(f"{d}/x.txt", sep=",")
    _core.bcast(b"", 0)  # rank 0 has written
    numpy.testing.assert_array_equal(numpy.fromfile(f"{d}/x.bin").reshape(5, 7), x)
    numpy.testing.assert_array_equal(numpy.fromfile(f"{d}/x.txt", sep=",").reshape(5, 7), x)
    with pytest.raises(FileNotFoundError):
        np.asarray(x).tofile(f"{d}/no_such_dir/x.bin")
    float(np.arange(3.0).sum())  # every rank is still in step


def test_genfromtxt_with_usemask_gives_numpys_masked_array():
    """maniple has no masked arrays: usemask=True gives NumPy's MaskedArray,
    the same on every rank (the mask was dropped, a nan left in its place);
    without it, a maniple array as before."""
    lines = ["1,,3", "4,5,6", "7,8,"]
    want = numpy.genfromtxt(lines, delimiter=",", usemask=True)
    got = np.genfromtxt(lines, delimiter=",", usemask=True)
    assert isinstance(got, numpy.ma.MaskedArray)
    numpy.testing.assert_array_equal(got.mask, want.mask)
    assert numpy.ma.allequal(got, want)
    plain = np.genfromtxt(lines, delimiter=",")
    assert isinstance(plain, np.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(plain), numpy.genfromtxt(lines, delimiter=","))
