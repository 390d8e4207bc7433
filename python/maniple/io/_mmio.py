"""Matrix Market coordinate files, read by every rank on its byte range of
the entries and written collectively (maniple._core.read_mtx and
Csr.write_mtx)."""
import os

import numpy as _np

from maniple import _core
from maniple import init as _init


def _path(source, what):
    if isinstance(source, (str, bytes, os.PathLike)):
        return os.fsdecode(source)
    raise NotImplementedError(f"maniple.io.{what} takes a file name (file objects are not supported)")


def _need(obj, name):
    if not hasattr(obj, name):
        raise NotImplementedError(f"maniple.io: this build's C library has no {name} (Matrix Market files)")


def mmread(source, *, spmatrix=True, dtype="float64"):
    """Read a Matrix Market coordinate file (real, integer or pattern;
    general or symmetric) as a coo_matrix (coo_array with
    spmatrix=False), held row-distributed. Values are float64 (integer
    files too; dtype="float32" reads float32). Dense (array) files are
    not supported."""
    _init()
    _need(_core, "read_mtx")
    path = _path(source, "mmread")
    if not os.path.exists(path):
        raise FileNotFoundError(f"No such file: '{path}'")
    from maniple.sparse._base import _cls, value_dtype
    A = _core.read_mtx(path, value_dtype(dtype, True), True)
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
    added to a name without it, as SciPy does). field: "real" (default),
    "integer" or "pattern"; symmetry: "general", "symmetric", or "AUTO"
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
    field = "real" if field is None else field
    if field not in ("real", "integer", "pattern"):
        raise ValueError(f"unknown field type {field!r} (real, integer or pattern)")
    if symmetry in (None, "AUTO"):
        sym = _symmetric(a)
    elif symmetry in ("general", "symmetric"):
        sym = symmetry == "symmetric"
    else:
        raise ValueError(f"unsupported symmetry {symmetry!r} (general, symmetric or AUTO)")
    a._A.write_mtx(path, field, sym)
