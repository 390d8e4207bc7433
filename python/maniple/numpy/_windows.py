"""Sequences and windows built from arange and linspace, as NumPy writes
them (the same operations in the same order, so the same values): logspace,
geomspace, vander and the window functions bartlett, blackman, hamming,
hanning and kaiser. Each is one fused expression over a distributed
arange."""
import operator

import numpy as _np

from ._creation import arange, asarray, linspace, ones, empty, _dt
from ._engine import _binary, _unary


def logspace(start, stop, num=50, endpoint=True, base=10.0, dtype=None, axis=0):
    """numpy.logspace: base ** linspace(start, stop); an array base is
    broadcast with start and stop, and takes the samples' axis too."""
    if _np.ndim(base):
        from ._manipulation import broadcast_shapes, expand_dims
        nd = len(broadcast_shapes(_np.shape(start), _np.shape(stop), _np.shape(base)))
        start, stop, base = (_reshaped_to(x, nd) for x in (start, stop, base))
        y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
        r = _binary("power", expand_dims(base, axis), y)
        return r if dtype is None else r.astype(_dt(dtype))
    y = linspace(start, stop, num=num, endpoint=endpoint, axis=axis)
    r = _binary("power", base, y)
    return r if dtype is None else r.astype(_dt(dtype))


def _reshaped_to(x, nd):
    """x with leading axes of length 1 up to nd (NumPy's ndmin)."""
    x = asarray(x)
    return x.reshape((1,) * (nd - x.ndim) + x.shape) if x.ndim < nd else x


def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """numpy.geomspace: logspace between the logarithms of |start| and
    |stop| (signs, and complex directions, factored out), its end points
    set exactly."""
    if _np.ndim(start) or _np.ndim(stop):  # (end points of a few values): NumPy's, on every rank
        from ._root import everywhere
        return asarray(_np.geomspace(everywhere(start), everywhere(stop), num, endpoint, dtype, axis))
    if start == 0 or stop == 0:
        raise ValueError("Geometric sequence cannot include zero")
    dt = _np.result_type(_np.asanyarray(start), _np.asanyarray(stop), float(num), _np.zeros((), dtype))
    start, stop = _np.asarray(start, dt), _np.asarray(stop, dt)
    sign = _np.sign(start)
    start = start / sign
    stop = stop / sign
    r = logspace(_np.log10(start)[()], _np.log10(stop)[()], num=num, endpoint=endpoint, base=10.0, dtype=dt)
    if num > 0:
        r[0] = start[()]
        if num > 1 and endpoint:
            r[-1] = stop[()]
    r = _binary("multiply", sign[()], r)
    return r if dtype is None else r.astype(_dt(dtype))


def vander(x, N=None, increasing=False):
    """numpy.vander: the columns are x's powers, each the running product
    along the row (NumPy's multiply.accumulate)."""
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("x must be a one-dimensional array or sequence.")
    n = x.shape[0]
    N = n if N is None else operator.index(N)
    dt = str(_np.promote_types(x.dtype, int))
    v = empty((n, N), dt)
    if N == 0:
        return v
    cols = [ones((n, 1), dt)]
    if N > 1:
        from ._sorting import cumprod
        cols.append(cumprod(_binary("multiply", x[:, None].astype(dt), ones((1, N - 1), dt)), axis=1))
    from ._manipulation import concatenate
    v[...] = concatenate(cols, axis=1) if increasing else concatenate(cols, axis=1)[:, ::-1]
    return v


def _window(M):
    """M as NumPy's windows take it (a float), and the empty or one-point
    window where M < 2 (None otherwise)."""
    M = _np.array([0.0, M])[1]
    if M < 1:
        return M, asarray(_np.array([], dtype=_np.float64))
    if M == 1:
        return M, ones(1, "float64")
    return M, None


def _n(M):
    return arange(1 - M, M, 2)


def hanning(M):
    M, w = _window(M)
    if w is not None:
        return w
    return 0.5 + 0.5 * _unary("cos", _np.pi * _n(M) / (M - 1))


def hamming(M):
    M, w = _window(M)
    if w is not None:
        return w
    return 0.54 + 0.46 * _unary("cos", _np.pi * _n(M) / (M - 1))


def blackman(M):
    M, w = _window(M)
    if w is not None:
        return w
    n = _n(M)
    return 0.42 + 0.5 * _unary("cos", _np.pi * n / (M - 1)) + 0.08 * _unary("cos", 2.0 * _np.pi * n / (M - 1))


def bartlett(M):
    M, w = _window(M)
    if w is not None:
        return w
    n = _n(M)
    from ._functions import where
    return where(n <= 0, 1 + n / (M - 1), 1 - n / (M - 1))


def kaiser(M, beta):
    values = _np.array([0.0, M, beta])
    M, beta = values[1], values[2]
    if M == 1:
        return ones(1, "float64")
    from ._math import i0
    n = arange(0, M)
    alpha = (M - 1) / 2.0
    return i0(beta * _unary("sqrt", 1 - ((n - alpha) / alpha) ** 2.0)) / i0(asarray(beta))[()]
