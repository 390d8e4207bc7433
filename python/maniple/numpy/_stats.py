"""Covariance and correlation: NumPy's cov and corrcoef step by step, the
centred data multiplied by its (conjugate) transpose with a distributed
matmul."""

import numpy as _np

from . import _warn
from ._creation import asarray
from ._engine import _binary, _unary
from ._ndarray import _part_of


def _rows(a, dtype):
    """a of dtype as at least 2-d (NumPy's array(a, ndmin=2, dtype=dtype))."""
    return a.astype(dtype).reshape((1,) * (2 - a.ndim) + a.shape)


def _weights(w, n, name, integer):
    w = _np.asarray(w, dtype=float)
    if integer and not _np.all(w == _np.around(w)):
        raise TypeError(f"{name} must be integer")
    if w.ndim > 1:
        raise RuntimeError(f"cannot handle multidimensional {name}")
    if w.shape[0] != n:
        raise RuntimeError(f"incompatible numbers of samples and {name}")
    if _np.any(w < 0):
        raise ValueError(f"{name} cannot be negative")
    return w


def cov(m, y=None, rowvar=True, bias=False, ddof=None, fweights=None, aweights=None, *, dtype=None):
    """numpy.cov: variables in rows (columns with rowvar=False), frequency
    and analytic weights, complex data (conjugated), NumPy's dtypes."""
    from ._manipulation import concatenate
    from ._products import matmul
    from ._reductions import average
    if ddof is not None and ddof != int(ddof):
        raise ValueError("ddof must be integer")
    m = asarray(m)
    if m.ndim > 2:
        raise ValueError("m has more than 2 dimensions")
    if y is not None:
        y = asarray(y)
        if y.ndim > 2:
            raise ValueError("y has more than 2 dimensions")
    if dtype is None:
        dtype = _np.result_type(_np.dtype(m.dtype), _np.float64) if y is None else \
            _np.result_type(_np.dtype(m.dtype), _np.dtype(y.dtype), _np.float64)
    dtype = str(_np.dtype(dtype))
    X = _rows(m, dtype)
    if not rowvar and m.ndim != 1:
        X = X.T
    if X.shape[0] == 0:
        return asarray(_np.array([]).reshape(0, 0))
    if y is not None:
        Y = _rows(y, dtype)
        if not rowvar and Y.shape[0] != 1:
            Y = Y.T
        X = concatenate((X, Y), axis=0)
    if ddof is None:
        ddof = 1 if bias == 0 else 0
    w = None
    if fweights is not None:
        w = _weights(fweights, X.shape[1], "fweights", True)
    if aweights is not None:
        aw = _weights(aweights, X.shape[1], "aweights", False)
        w = aw if w is None else w * aw
    avg, w_sum = average(X, axis=1, weights=w, returned=True)
    w_sum = _np.asarray(w_sum).reshape(-1)[0]
    if w is None:
        fact = X.shape[1] - ddof
    elif ddof == 0:
        fact = w_sum
    elif aweights is None:
        fact = w_sum - ddof
    else:
        fact = w_sum - ddof * _np.sum(w * aw) / w_sum
    if fact <= 0:
        _warn.warn("Degrees of freedom <= 0 for slice", RuntimeWarning)
        fact = 0.0
    X = X - avg[:, None]
    XT = X.T if w is None else (X * asarray(w)).T
    if dtype in ("complex64", "complex128"):
        XT = XT.conj()
    with _np.errstate(divide="ignore", invalid="ignore"):
        c = matmul(X, XT) * _np.true_divide(1, fact)
    return c.astype(dtype).squeeze()


def corrcoef(x, y=None, rowvar=True, bias=_np._NoValue, ddof=_np._NoValue, *, dtype=None):
    """numpy.corrcoef: cov scaled by the standard deviations, clipped to
    [-1, 1] (each part of a complex one)."""
    if bias is not _np._NoValue or ddof is not _np._NoValue:
        _warn.warn("bias and ddof have no effect and are deprecated", DeprecationWarning)
    c = cov(x, y, rowvar, dtype=dtype)
    if c.ndim == 0:  # one variable: nan for nan, inf or 0, else 1
        with _np.errstate(divide="ignore", invalid="ignore"):
            return c / c
    from ._functions import clip
    from ._manipulation import diag
    d = diag(c)
    s = _unary("sqrt", _part_of(d, "real"))
    with _np.errstate(divide="ignore", invalid="ignore"):
        c = c / s[:, None]
        c = c / s[None, :]
    if c.dtype in (_np.complex64, _np.complex128):
        return _binary("complex", clip(_part_of(c, "real"), -1, 1), clip(_part_of(c, "imag"), -1, 1))
    return clip(c, -1, 1)
