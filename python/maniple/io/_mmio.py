"""Matrix Market coordinate files, read by every rank on its byte range of
the entries and written collectively (maniple._core.read_mtx and
Csr.write_mtx). The C library checks the path on every rank and agrees on
the outcome, so a file missing on some ranks (a node-local path) raises
FileNotFoundError on all of them; no rank looks at the file on its own
here, which would leave the others waiting in the collective read."""
import os

import numpy as _np

from maniple import _core
from maniple import init as _init


def _path(source, what):
    if isinstance(source, (str, bytes, os.PathLike)):
        path = os.fsdecode(source)
        if what == "mmread" and path.endswith((".gz", ".bz2")):
            # SciPy decompresses these; every rank here reads its own share of the bytes
            raise NotImplementedError(f"maniple.io.mmread reads uncompressed files only: decompress '{path}' first")
        return path
    raise NotImplementedError(f"maniple.io.{what} takes a file name (file objects are not supported)")


def _need(obj, name):
    if not hasattr(obj, name):
        raise NotImplementedError(f"maniple.io: this build's C library has no {name} (Matrix Market files)")


def mmread(source, *, spmatrix=True, dtype=None):
    """Read a Matrix Market coordinate file (real, integer, complex or
    pattern; general, symmetric, skew-symmetric or hermitian) as a
    coo_matrix (coo_array with spmatrix=False), held row-distributed.
    Values are float64 (integer files too), complex128 for a complex file;
    dtype= reads them as float32, float64, complex64 or complex128 (a
    complex file as a real dtype is a TypeError). Dense (array) files are
    not supported. A missing path raises
    FileNotFoundError, a directory IsADirectoryError, on every rank; a
    value beyond the dtype's range, or a hexadecimal one, raises
    ValueError naming the file and line (SciPy reads inf and 0 there); a
    matrix whose declared sizes cannot fit raises MemoryError before
    anything is allocated."""
    _init()
    _need(_core, "read_mtx")
    path = _path(source, "mmread")
    from maniple.sparse._base import _cls, value_dtype
    A = _core.read_mtx(path, None if dtype is None else value_dtype(dtype, True), True)
    return _cls("coo", not spmatrix)._new(A)


def _symmetric(a):
    m, n = a.shape
    if m != n:
        return False
    d = a._A.add(1.0, -1.0, a._A.transpose())
    from maniple.sparse._base import local_coo
    from maniple.sparse import _dist
    _, _, v = local_coo(d)
    return all(_dist.allgather_obj(not _np.any(v != 0)))


def mmwrite(target, a, comment=None, field=None, precision=None, symmetry="AUTO"):
    """Write sparse matrix a as a Matrix Market coordinate file (".mtx" is
    added to a name without it, as SciPy does). field: "real" (the default
    for a real matrix), "complex" (for a complex one), "integer" or
    "pattern"; symmetry: "general", "symmetric", or "AUTO"
    (symmetric when a equals its transpose). Values are written in full
    precision (precision is ignored); comments are not supported. Every
    rank calls it."""
    _init()
    _need(_core.Csr, "write_mtx")
    from maniple.sparse._base import _spbase
    if not isinstance(a, _spbase):
        raise NotImplementedError("maniple.io.mmwrite writes maniple sparse matrices (coordinate format); "
                                  "dense arrays are not supported")
    if comment:
        raise NotImplementedError("maniple.io.mmwrite does not write comments")
    path = _path(target, "mmwrite")
    if not path.endswith(".mtx"):
        path += ".mtx"
    if field is None:
        field = "complex" if a.dtype.kind == "c" else "real"
    if field not in ("real", "integer", "complex", "pattern"):
        raise ValueError(f"unknown field type {field!r} (real, integer, complex or pattern)")
    if symmetry in (None, "AUTO"):
        sym = _symmetric(a)
    elif symmetry in ("general", "symmetric"):
        sym = symmetry == "symmetric"
    else:
        raise ValueError(f"unsupported symmetry {symmetry!r} (general, symmetric or AUTO)")
    a._A.write_mtx(path, field, sym)
