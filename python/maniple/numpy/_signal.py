"""One-dimensional signal functions on distributed arrays: convolve and
correlate (the shorter sequence's values on every rank, the longer one
shifted and summed in fused passes), unwrap (diff, mod and cumsum, as
NumPy), interp (searchsorted and gathers of the table's neighbours) and
polyval (Horner's rule, as NumPy)."""
import operator

import numpy as _np

from ._creation import asarray, zeros, zeros_like
from ._dtypes import check_cast
from ._engine import _binary, _unary
from ._ndarray import _part_of
from ._pad import pad

_TERMS = 16  # shifted slices summed per fused pass


def _slide(a, v, mode):
    """NumPy's multiarray.correlate(a, v, mode) for len(v) <= len(a):
    r[k] = sum_j a[k + j - pad] v[j], zeros outside a."""
    n, m = a.shape[0], v.shape[0]
    if mode == "valid":
        lo, length = 0, n - m + 1
    elif mode == "same":
        lo, length = m // 2, n
    else:  # full (_mode checked it)
        lo, length = m - 1, n + m - 1
    dt = str(_np.result_type(_np.dtype(a.dtype), _np.dtype(v.dtype)))
    vv = _np.asarray(v).astype(dt)  # the short sequence, on every rank
    rp = m - 1 + length - lo - n  # the last slice ends at m - 1 + length
    ap = pad(a.astype(dt), (lo, rp)) if lo or rp else a.astype(dt)
    r = None
    for j0 in range(0, m, _TERMS):
        part = None
        for j in range(j0, min(m, j0 + _TERMS)):
            t = _binary("multiply", ap[j:j + length], vv[j][()])
            part = t if part is None else part + t
        r = part if r is None else r + part
        if m > _TERMS:
            r = r.copy()  # one pass per group of terms
    return r


def _prep(a, v, what):
    a, v = asarray(a), asarray(v)
    a, v = a.reshape(1) if a.ndim == 0 else a, v.reshape(1) if v.ndim == 0 else v
    if a.ndim != 1 or v.ndim != 1:
        raise ValueError("object too deep for desired array")
    if a.shape[0] == 0:
        raise ValueError(f"{what[0]} cannot be empty")
    if v.shape[0] == 0:
        raise ValueError(f"{what[1]} cannot be empty")
    return a, v


_MODES = ("valid", "same", "full")


def _mode(mode):
    """NumPy's mode: one of the three names, or its integer 0, 1, 2."""
    if isinstance(mode, str):
        if mode not in _MODES:
            raise ValueError("Use one of 'valid', 'same', or 'full' for convolve/correlate mode")
        return mode
    if type(mode) is bool or not hasattr(mode, "__index__"):
        raise TypeError("convolve/correlate mode not understood")
    if not 0 <= operator.index(mode) <= 2:
        raise ValueError("integer convolve/correlate mode must be 0, 1, or 2")
    return _MODES[operator.index(mode)]


def convolve(a, v, mode="full"):
    """numpy.convolve: the shorter sequence reversed and slid over the
    longer one."""
    mode = _mode(mode)
    a, v = _prep(a, v, ("a", "v"))
    if v.shape[0] > a.shape[0]:
        a, v = v, a
    return _slide(a, v[::-1], mode)


def correlate(a, v, mode="valid"):
    """numpy.correlate: c[k] = sum_n a[n + k] conj(v[n]) (NumPy's
    correlate2: the sequences swapped, and the result reversed, where v is
    the longer one)."""
    mode = _mode(mode)
    a, v = _prep(a, v, ("a", "v"))
    if v.shape[0] > a.shape[0]:  # correlate(a, v) = conj(reverse(correlate(v, a)))
        r = _slide(v, a.conj(), mode)[::-1]
        return r.conj() if r.dtype in (_np.complex64, _np.complex128) else r
    return _slide(a, v.conj(), mode)


def unwrap(p, discont=None, axis=-1, *, period=2 * _np.pi):
    """numpy.unwrap: jumps larger than discont corrected by multiples of
    period, along axis (NumPy's steps)."""
    from ._functions import where
    from ._reductions import diff
    from ._sorting import cumsum
    p = asarray(p)
    nd = p.ndim
    dd = diff(p, axis=axis)
    if discont is None:
        discont = period / 2
    slice1 = [slice(None)] * nd
    slice1[axis] = slice(1, None)
    slice1 = tuple(slice1)
    dtype = _np.result_type(_np.dtype(dd.dtype), period)
    if _np.issubdtype(dtype, _np.integer):
        high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        high, ambiguous = period / 2, True
    low = -high
    ddmod = _binary("remainder", dd - low, period) + low
    if ambiguous:
        ddmod = where((ddmod == low) & (dd > 0), _np.asarray(high).astype(ddmod.dtype)[()], ddmod)
    ph = ddmod - dd
    ph = where(_unary("absolute", dd) < discont, _np.zeros((), ph.dtype)[()], ph)
    up = p.astype(str(dtype))
    if p.shape[axis] > 1:
        up[slice1] = p[slice1] + cumsum(ph, axis)
    return up


def interp(x, xp, fp, left=None, right=None, period=None):
    """numpy.interp: the piecewise linear interpolant of (xp, fp) at x, as
    NumPy's C loop computes it (the slope from the left point, the right
    point where that gives NaN; fp[-1] at xp[-1]; left and right outside)."""
    from ._functions import where
    from ._select import take
    from ._sorting import searchsorted
    x, xp, fp = asarray(x), asarray(xp), asarray(fp)
    for v in (x, xp):  # NumPy's: the points must be real
        check_cast(v.dtype, "float64", "safe")
    if xp.ndim != 1 or fp.ndim != 1:
        raise ValueError("object too deep for desired array")
    if xp.shape[0] != fp.shape[0]:
        raise ValueError("fp and xp are not of the same length.")
    if xp.shape[0] == 0:
        raise ValueError("array of sample points is empty")
    cplx = fp.dtype in (_np.complex64, _np.complex128)
    if period is not None:
        if period == 0:
            raise ValueError("period must be a non-zero value")
        period = abs(period)
        left = right = None
        from ._manipulation import concatenate
        from ._sorting import argsort
        x = _binary("remainder", x.astype("float64"), period)
        xp = _binary("remainder", xp.astype("float64"), period)
        order = argsort(xp)
        xp, fp = take(xp, order), take(fp, order)
        xp = concatenate((xp[-1:] - period, xp, xp[0:1] + period))
        fp = concatenate((fp[-1:], fp, fp[0:1]))
    xf, xpf = x.astype("float64"), xp.astype("float64")
    if cplx:  # each part as a real table, as NumPy's loop does
        lc = None if left is None else complex(left)
        rc = None if right is None else complex(right)
        re = _interp(xf, xpf, _part_of(fp, "real").astype("float64"), None if lc is None else lc.real,
                     None if rc is None else rc.real)
        im = _interp(xf, xpf, _part_of(fp, "imag").astype("float64"), None if lc is None else lc.imag,
                     None if rc is None else rc.imag)
        out = _binary("complex", re, im)
    else:
        out = _interp(xf, xpf, fp.astype("float64"), left, right)
    return out[()] if x.ndim == 0 else out


def _interp(xf, xpf, fpf, left, right):
    from ._functions import where
    from ._select import take
    from ._sorting import searchsorted
    n = xpf.shape[0]
    lval = fpf[0] if left is None else float(left)
    rval = fpf[-1] if right is None else float(right)
    if n == 1:
        return where(xf < xpf[0], lval, where(xf > xpf[0], rval, fpf[0])).astype("float64")
    j = searchsorted(xpf, xf, side="right") - 1
    j = _binary("minimum", _binary("maximum", j, 0), n - 2)
    x0, x1, y0, y1 = take(xpf, j), take(xpf, j + 1), take(fpf, j), take(fpf, j + 1)
    with _np.errstate(all="ignore"):
        slope = (y1 - y0) / (x1 - x0)
        r = slope * (xf - x0) + y0
        r2 = slope * (xf - x1) + y1
    r = where(_unary("isnan", r), where(_unary("isnan", r2) & (y0 == y1), y0, r2), r)
    r = where(xf == x0, y0, r)  # NumPy: no interpolation at a table point
    r = where(xf == xpf[-1], fpf[-1], r)
    r = where(xf < xpf[0], lval, where(xf > xpf[-1], rval, r))
    return where(_unary("isnan", xf), _np.nan, r).astype("float64")


def polyval(p, x):
    """numpy.polyval by Horner's rule, as NumPy (y starts as zeros like x)."""
    p = _np.asarray(p)
    x = asarray(x)
    y = zeros_like(x)
    for pv in p:
        y = y * x + pv
    return y
