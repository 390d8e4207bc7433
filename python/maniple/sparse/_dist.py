"""Data movement for maniple.sparse: the row split, small collectives over
Python objects, a rank's share of data every rank holds, a rank's rows of
a distributed dense array, and distributed vectors and dense arrays made
from entries that ranks hold locally.

Every function here is collective (every rank calls it, in the same order)
unless it says otherwise."""
import pickle

import numpy as _np

from maniple import _core
from maniple import init as _init


def size():
    _init()
    return _core.size()


def rank():
    _init()
    return _core.rank()


def split(n, r=None, p=None):
    """(start, count) of part r (this rank by default) when n items are
    split into p equal parts as maniple's default layout splits them
    (sizes differing by at most one, the larger first). Local."""
    p = size() if p is None else p
    r = rank() if r is None else r
    q, m = divmod(int(n), p)
    return r * q + min(r, m), q + (1 if r < m else 0)


def bcast_obj(obj, root=0):
    """root's Python object on every rank (pickled)."""
    b = _core.bcast(pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL) if rank() == root else None, root)
    return pickle.loads(b)


def allgather_obj(obj):
    """[every rank's obj] on every rank, in rank order (one broadcast per
    rank: for small objects and for data that must reach every rank)."""
    me = rank()
    return [bcast_obj(obj if r == me else None, r) for r in range(size())]


def agree(ok, message, exc=ValueError):
    """Raise exc(message) on every rank when any rank's ok is false (for
    checks of data that differs between ranks)."""
    if not all(allgather_obj(bool(ok))):
        raise exc(message)


def my_rows_block(a, nrows=None):
    """This rank's block of rows (its part of the row split of the first
    nrows rows) of a maniple ndarray, as a NumPy array: every rank's block
    in one exchange (split_local of the flattened rows)."""
    n = a.shape[0] if nrows is None else nrows
    if n != a.shape[0]:
        a = a[:n]
    c = split(n)[1]
    per = int(_np.prod(a.shape[1:], dtype=_np.int64))
    flat = a if a.ndim == 1 else a.reshape(a.size)
    b = flat._materialize().split_local(c * per)
    return _np.frombuffer(b, dtype=a.dtype).reshape((c,) + tuple(a.shape[1:])).copy()


def vector(n, idx, vals, dtype):
    """A maniple 1-d array of n elements of dtype (float64 or float32)
    whose element i is the sum of the vals (NumPy, this rank's) at
    indices idx == i, over every rank: a scatter-add."""
    from maniple.numpy import ndarray
    out = _core.create((int(n),), dtype)
    if n:
        idx = _np.ascontiguousarray(idx, dtype=_np.int64)
        T = _core.csr_coo(int(n), 1, dtype, idx, _np.zeros(len(idx), _np.int64),
                          _np.ascontiguousarray(vals, dtype=dtype))
        T.sum(1, out)
    return ndarray(out)


def dense(shape, rows, cols, vals, dtype):
    """A maniple 2-d array of shape and dtype (float64 or float32): zeros
    but for the entries (rows, cols, vals) that ranks hold, summed where
    they repeat. The entries go straight to the owners of their elements."""
    m, n = int(shape[0]), int(shape[1])
    rows = _np.asarray(rows, dtype=_np.int64)
    flat = rows * n + _np.asarray(cols, dtype=_np.int64)
    v = vector(m * n, flat, vals, dtype)
    from maniple.numpy import ndarray
    return ndarray(v._materialize().reshape((m, n)))
