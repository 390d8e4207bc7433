"""norm of a sparse matrix (scipy.sparse.linalg.norm), by maniple's
distributed reductions over the stored entries."""
import math

import numpy as _np

import maniple.numpy as _mnp

from ._interface import _is_sparse


def _dense1d(v):
    if hasattr(v, "toarray"):
        v = v.toarray()
    return v.reshape(-1) if isinstance(v, _mnp.ndarray) else _mnp.asarray(_np.asarray(v).reshape(-1))


def _abs_extreme(x, axis, which):
    """max or min of |x| along axis (implicit zeros counted) as a maniple
    vector: each rank reduces its own rows (of the transpose for axis 0)."""
    from maniple.sparse._base import local_rows
    from maniple.sparse import _dist
    A = x._A if axis == 1 else x._A.transpose()
    n_out, n_in = (x.shape[0], x.shape[1]) if axis == 1 else (x.shape[1], x.shape[0])
    r0, rp, _, vals = local_rows(A)
    cnt = _np.diff(rp)
    out = _np.zeros(len(cnt))
    full = cnt > 0
    if full.any():
        out[full] = (_np.maximum if which == "max" else _np.minimum).reduceat(_np.abs(vals), rp[:-1][full])
    if which == "min":
        out[cnt < n_in] = 0.0
    return _dist.vector(n_out, r0 + _np.arange(len(cnt)), out, "float64")


def norm(x, ord=None, axis=None):
    """The Frobenius norm by default; ord inf, -inf, 1, -1 for matrix
    norms; with axis (0, 1, -1, -2), vector norms of the columns or rows
    (ord None or 2, inf, -inf, 0, 1, any p). ord=2 over the whole matrix
    (the largest singular value) is not implemented."""
    if not _is_sparse(x):
        raise TypeError("input is not sparse. use maniple.numpy.linalg.norm")
    if axis is None and ord in (None, "fro", "f"):
        return _np.float64(math.sqrt(float(abs(x).power(2).sum())))
    if axis is None:
        axis = (-2, -1)
    if isinstance(axis, tuple) and len(axis) == 2:
        r, c = (a % 2 for a in axis)
        if r == c:
            raise ValueError("Duplicate axes given.")
        if ord in (2, -2):
            raise NotImplementedError("maniple.sparse.linalg.norm: ord=2 and -2 (singular values) are not implemented")
        if ord in (None, "fro", "f"):
            return _np.float64(math.sqrt(float(abs(x).power(2).sum())))
        if ord in (_np.inf, -_np.inf):
            s = _dense1d(abs(x).sum(axis=c))
        elif ord in (1, -1):
            s = _dense1d(abs(x).sum(axis=r))
        else:
            raise ValueError("Invalid norm order for matrices.")
        return _np.float64(s.max() if ord in (_np.inf, 1) else s.min())
    if isinstance(axis, tuple) and len(axis) == 1:
        axis = axis[0]
    if isinstance(axis, (int, _np.integer)) and not isinstance(axis, bool):
        if not -2 <= axis < 2:
            raise ValueError(f"Invalid axis {axis!r} for an array with shape {x.shape}")
        a = axis % 2
        if ord in (_np.inf, -_np.inf):
            return _abs_extreme(x, a, "max" if ord > 0 else "min")
        if ord == 0:
            return _dense1d(abs(x).sign().sum(axis=a))  # explicit zeros count 0, as SciPy's
        if ord == 1:
            return _dense1d(abs(x).sum(axis=a))
        if ord in (None, 2):
            return _mnp.sqrt(_dense1d(abs(x).power(2).sum(axis=a)))
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order {ord!r} for vectors")
        p = float(ord)
        return _dense1d(abs(x).power(p).sum(axis=a)) ** (1.0 / p)
    raise ValueError("Improper number of dimensions to norm.")
