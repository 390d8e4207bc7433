"""NumPy's polynomial functions (the old API). polyfit is distributed: the
data stay split over the ranks, each rank factors its rows of the scaled
Vandermonde matrix beside the data (a QR of its block, as TSQR does), and
the small triangular factors, gathered, give NumPy's least-squares
answer, its singular values, rank and residuals. polyadd, polysub,
polymul, polyder and polyint are distributed array arithmetic. polydiv,
roots and poly work on coefficient lists, sequentially: their arrays are
gathered to every rank and NumPy computes there, alike (marked
"gathered"). A poly1d argument gives a poly1d answer; maniple's poly1d
is NumPy's, whose calls on arrays evaluate on the distributed array."""

import numpy as _np

from . import _warn
from ._creation import arange, asarray, zeros
from ._ndarray import ndarray


def _poly1d(*args):
    return any(isinstance(a, _np.poly1d) for a in args)


def _as_ours(r):
    if isinstance(r, tuple):  # polydiv's (quotient, remainder)
        return tuple(_as_ours(x) for x in r)
    return poly1d(r) if isinstance(r, _np.poly1d) and not isinstance(r, poly1d) else r


class poly1d(_np.poly1d):
    """numpy.poly1d. Its coefficients are a short list, the same on every
    rank (a maniple array given is gathered); called on an array it
    evaluates by Horner's rule on the distributed array (polyval), and its
    arithmetic, deriv and integ give maniple poly1d objects."""

    def __init__(self, c_or_r, r=False, variable=None):
        if isinstance(c_or_r, ndarray):
            c_or_r = _np.asarray(c_or_r)
        super().__init__(c_or_r, r, variable)

    def __call__(self, val):
        if isinstance(val, _np.poly1d):
            return _as_ours(super().__call__(val))
        if isinstance(val, (ndarray, _np.ndarray, list, tuple)):
            from ._signal import polyval
            return polyval(self.coeffs, val)
        return super().__call__(val)


def _wrap(name):
    base = getattr(_np.poly1d, name)

    def method(self, *args, **kwargs):
        args = [_np.asarray(a) if isinstance(a, ndarray) else a for a in args]
        return _as_ours(base(self, *args, **kwargs))
    method.__name__ = name
    method.__doc__ = base.__doc__
    setattr(poly1d, name, method)


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__", "__pow__",
              "__neg__", "__pos__", "deriv", "integ"):
    _wrap(_name)


def _1d(a):
    from ._manipulation import atleast_1d
    return atleast_1d(asarray(a))


def _padded_sum(a1, a2, sign):
    from ._manipulation import concatenate
    a1, a2 = _1d(a1), _1d(a2)
    diff = len(a2) - len(a1)
    if diff > 0:
        a1 = concatenate((zeros(diff, a1.dtype), a1))
    elif diff < 0:
        a2 = concatenate((zeros(-diff, a2.dtype), a2))
    return a1 + a2 if sign > 0 else a1 - a2


def polyadd(a1, a2):
    """numpy.polyadd: the shorter padded with leading zeros, then added."""
    if _poly1d(a1, a2):
        return _as_ours(_np.polyadd(a1, a2))
    return _padded_sum(a1, a2, 1)


def polysub(a1, a2):
    """numpy.polysub: the shorter padded with leading zeros, then subtracted."""
    if _poly1d(a1, a2):
        return _as_ours(_np.polysub(a1, a2))
    return _padded_sum(a1, a2, -1)


def polymul(a1, a2):
    """numpy.polymul: the convolution of the coefficients."""
    if _poly1d(a1, a2):
        return _as_ours(_np.polymul(a1, a2))
    from ._signal import convolve
    return convolve(_trimmed(a1), _trimmed(a2))


def _trimmed(a):
    """a as numpy.poly1d holds it: leading zeros dropped, [0] when none is
    left (so polymul equals NumPy's, which goes through poly1d)"""
    a = _1d(a)
    if a.ndim > 1:
        raise ValueError("Polynomial must be 1d only.")
    nz = a != 0
    if not bool(nz.any()):
        return zeros(1, a.dtype)
    first = int(nz.argmax())
    return a[first:] if first else a


def polyder(p, m=1):
    """numpy.polyder: each coefficient times its power, m times."""
    if _poly1d(p):
        return _as_ours(_np.polyder(p, m))
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    p = asarray(p)
    for _ in range(m):
        n = len(p) - 1
        p = p[:-1] * arange(n, 0, -1)
    return p


def polyint(p, m=1, k=None):
    """numpy.polyint: each coefficient over its new power, then the
    integration constant k, m times."""
    if _poly1d(p):
        return _as_ours(_np.polyint(p, m, k))
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    k = _np.zeros(m, float) if k is None else _np.atleast_1d(_np.asarray(k))
    if len(k) == 1 and m > 1:
        k = k[0] * _np.ones(m, float)
    if len(k) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    from ._manipulation import concatenate
    p = asarray(p)
    for i in range(m):
        p = concatenate((p / arange(len(p), 0, -1), asarray(k[i:i + 1])))
    return p


def _gathered(name):
    np_func = getattr(_np, name)

    def f(*args, **kwargs):
        args = [_np.asarray(a) if isinstance(a, ndarray) else a for a in args]
        kwargs = {k: _np.asarray(v) if isinstance(v, ndarray) else v for k, v in kwargs.items()}
        r = np_func(*args, **kwargs)
        if isinstance(r, tuple):
            return tuple(asarray(x) if isinstance(x, _np.ndarray) else _as_ours(x) for x in r)
        return asarray(r) if isinstance(r, _np.ndarray) else _as_ours(r)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"numpy.{name} on coefficient-sized arrays: gathered to every rank, computed there by NumPy "
                 "alike, the result a maniple array.")
    f._mn_kind = "gathered"
    return f


polydiv = _gathered("polydiv")
roots = _gathered("roots")
poly = _gathered("poly")


def _my_rows(a, n):
    """this rank's rows of a (first axis n long) as NumPy: the rows split
    over the ranks in rank order (split_local)"""
    from maniple import _core
    r, P = _core.rank(), _core.size()
    c = n // P + (1 if r < n % P else 0)
    per = int(_np.prod(a.shape[1:], dtype=_np.int64))
    flat = a.reshape(a.size)._materialize()
    return _np.frombuffer(flat.split_local(c * per), dtype=a.dtype).reshape((c,) + a.shape[1:])


def _summed(local):
    """local NumPy arrays of one shape summed over the ranks, in rank order
    (the same on every rank)"""
    from maniple.sparse import _dist
    parts = _dist.allgather_obj(local)
    total = parts[0].copy()
    for p in parts[1:]:
        total += p
    return total


def polyfit(x, y, deg, rcond=None, full=False, w=None, cov=False):
    """numpy.polyfit, distributed (the module's docstring says how): the
    same scaled least-squares problem NumPy solves, through a QR of the
    data's blocks instead of an SVD of the whole matrix."""
    from maniple.sparse import _dist
    order = int(deg) + 1
    x = asarray(x) + 0.0
    y = asarray(y) + 0.0
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if x.ndim != 1:
        raise TypeError("expected 1D vector for x")
    if x.size == 0:
        raise TypeError("expected non-empty vector for x")
    if y.ndim < 1 or y.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if x.shape[0] != y.shape[0]:
        raise TypeError("expected x and y to have same length")
    n = len(x)
    if rcond is None:
        rcond = n * _np.finfo(x.dtype).eps
    lhs = _np.vander(_my_rows(x, n), order)
    rhs = _my_rows(y, n).copy()
    if w is not None:
        w = asarray(w) + 0.0
        if w.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if w.shape[0] != y.shape[0]:
            raise TypeError("expected w and y to have the same length")
        if not _np.can_cast(_np.result_type(lhs.dtype, w.dtype), lhs.dtype, "same_kind"):  # NumPy's lhs *= w
            raise TypeError(f"Cannot cast ufunc 'multiply' output from dtype('{_np.result_type(lhs.dtype, w.dtype)}') "
                            f"to dtype('{lhs.dtype}') with casting rule 'same_kind'")
        wl = _my_rows(w, n)
        lhs = lhs * wl[:, _np.newaxis]
        rhs = rhs * (wl[:, _np.newaxis] if rhs.ndim == 2 else wl)
    scale = _np.sqrt(_summed((lhs * lhs).sum(axis=0)))
    lhs = lhs / scale
    # [lhs | rhs] = Q R over all rows: each rank's block's R, then R of those
    r2 = rhs.reshape(len(rhs), 1 if rhs.ndim == 1 else rhs.shape[1])  # (a rank may hold no rows)
    dt = _np.result_type(lhs, r2)
    aug = _np.hstack([lhs, r2]).astype(dt)
    blocks = _dist.allgather_obj(_np.linalg.qr(aug, mode="r") if len(aug) else _np.zeros((0, aug.shape[1]), dt))
    R = _np.linalg.qr(_np.vstack(blocks), mode="r")
    c, resids, rank, s = _np.linalg.lstsq(R[:, :order], R[:, order:], rcond)
    if rhs.ndim == 1:
        c = c[:, 0]
    c = (c.T / scale).T
    if rank != order and not full:
        _warn.warn("Polyfit may be poorly conditioned", _np.exceptions.RankWarning)
    if full:
        return asarray(c), asarray(resids), rank, asarray(s), rcond
    if cov:
        vbase = _np.linalg.inv(_summed(_np.dot(lhs.T, lhs)))
        vbase /= _np.outer(scale, scale)
        if cov == "unscaled":
            fac = 1
        else:
            if n <= order:
                raise ValueError("the number of data points must exceed order to scale the covariance matrix")
            fac = resids / (n - order)
        v = vbase * fac if rhs.ndim == 1 else vbase[:, :, _np.newaxis] * fac
        return asarray(c), asarray(v)
    return asarray(c)
