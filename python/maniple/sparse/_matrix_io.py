"""save_npz and load_npz in SciPy's .npz format, through rank 0: the
matrix is gathered to rank 0, which writes the file; rank 0 reads a file
and sends it to every rank, each of which keeps its rows. An error on rank
0 is raised on every rank as the same exception (an OSError with its
errno, so FileNotFoundError and IsADirectoryError stay what SciPy
raises)."""
import builtins as _builtins

import numpy as _np

from maniple.numpy._root import throw

from . import _dist
from ._base import _cls, _spbase


def _packed(e):
    """An exception as plain data that rank 0 can broadcast."""
    if isinstance(e, OSError) and e.errno is not None:
        return ("OSError", e.errno, e.strerror, e.filename)
    return (type(e).__name__, str(e))


def _raise(p):
    if p[0] == "OSError":
        raise OSError(p[1], p[2], p[3])  # Python picks FileNotFoundError, IsADirectoryError, ...
    exc = getattr(_builtins, p[0], None)
    if not (isinstance(exc, type) and issubclass(exc, Exception)):
        exc = OSError  # e.g. zipfile.BadZipFile: the file is not what it should be
    for cls in exc.__mro__:  # the nearest class built from a message (not UnicodeDecodeError's five fields)
        try:
            box = [cls(p[1])]
        except TypeError:
            continue
        throw(box)  # no frame keeps the exception (a reference cycle)


def save_npz(file, matrix, compressed=True):
    """Write matrix (csr, csc, coo or dia) as SciPy's save_npz does; rank 0
    writes, every rank calls it. Returns once the file is written."""
    if not isinstance(matrix, _spbase):
        raise NotImplementedError(f"Save is not implemented for sparse matrix of format {type(matrix).__name__}.")
    fmt = matrix.format
    if fmt in ("csr", "csc"):
        data, indices, indptr = matrix._gather_compressed()
        arrays = dict(indices=indices, indptr=indptr)
    elif fmt == "coo":
        r, c, data = matrix._gathered()
        arrays = dict(row=r, col=c)
    else:  # dia
        offsets, data = matrix._gathered()
        arrays = dict(offsets=offsets)
    arrays.update(format=fmt.encode("ascii"), shape=_np.asarray(matrix.shape), data=data)
    if matrix._is_array:
        arrays["_is_array"] = True
    err = None
    if _dist.rank() == 0:
        try:
            (_np.savez_compressed if compressed else _np.savez)(file, **arrays)
        except Exception as e:  # every rank raises it
            err = _packed(e)
    err = _dist.bcast_obj(err, 0)
    if err is not None:
        _raise(err)


def load_npz(file):
    """Read a SciPy .npz sparse matrix file (rank 0 reads it; every rank
    gets it and keeps its rows)."""
    loaded = None
    if _dist.rank() == 0:
        try:
            with _np.load(file, allow_pickle=False) as f:
                loaded = {k: f[k] for k in f.files}
        except Exception as e:
            loaded = _packed(e)
    loaded = _dist.bcast_obj(loaded, 0)
    if isinstance(loaded, tuple):
        _raise(loaded)
    try:
        fmt = loaded["format"].item()
        fmt = fmt.decode("ascii") if isinstance(fmt, bytes) else str(fmt)
    except KeyError:
        raise ValueError(f"The file {file} does not contain a sparse array or matrix.") from None
    is_array = bool(loaded.get("_is_array", False))
    shape = tuple(int(s) for s in loaded["shape"])
    if fmt not in ("csr", "csc", "coo", "dia"):
        raise NotImplementedError(f"Load is not implemented for sparse matrix of format {fmt}.")
    cls = _cls(fmt, is_array)
    if fmt in ("csr", "csc"):
        return cls((loaded["data"], loaded["indices"], loaded["indptr"]), shape=shape)
    if fmt == "coo":
        if "row" in loaded:
            return cls((loaded["data"], (loaded["row"], loaded["col"])), shape=shape)
        return cls((loaded["data"], tuple(loaded["coords"])), shape=shape)
    return cls((loaded["data"], loaded["offsets"]), shape=shape)
