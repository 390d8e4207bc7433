"""Reductions beyond the basic ones: NaN-ignoring variants, average, ptp,
and differences (diff, ediff1d, gradient, trapezoid), all as fused
expressions over the C reductions."""
import builtins
import warnings

import numpy as _np

from . import _warn
from ._creation import asarray, empty, full
from ._functions import (UFUNCS as _U, _NOVALUE, _ddof, _warn_where, _axis, _axis_tuple, _with_out, _reduced_out,
                         _index_out, _sqrt_out, argmax as _argmax, argmin as _argmin, max as _max, mean as _mean,
                         min as _min, prod as _prod, sum as _sum, var as _var, where as _where)
from ._dtypes import COMPLEX as _COMPLEX, INEXACT as _INEXACT, INTEGER as _INTEGER
from ._engine import _scalar
from ._ndarray import ndarray, _flat, _part_of


def _is_float(a):
    """a holds NaNs to skip: NumPy's inexact types, complex ones included
    (a complex element is NaN when either part is)."""
    return a._dtype in _INEXACT


def _beyond(a, sign):
    """The fill that loses to every element in a NaN-skipping max (sign -1)
    or min (+1): an infinity, and for complex (compared real part first)
    both parts infinite, so that an element at inf+1j still wins, as
    NumPy's fmax/fmin keep it."""
    return complex(sign * _np.inf, sign * _np.inf) if a._dtype in _COMPLEX else sign * _np.inf


def _nan_to(a, value):
    return _where(_U["isnan"](a), value, a).astype(a._dtype) if _is_float(a) else a


def _masked(a, where):
    """a with the elements where= leaves out as NaN, which the NaN-skipping
    means and variances then skip (NumPy's where= for them)."""
    a = asarray(a)
    if where is True or not _is_float(a):
        return a
    return _where(where, a, _np.nan).astype(a._dtype)


def nansum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    a = asarray(a)
    return _sum(_nan_to(a, 0), axis, dtype, out, keepdims, initial, where)


def nanprod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    a = asarray(a)
    return _prod(_nan_to(a, 1), axis, dtype, out, keepdims, initial, where)


def _all_nan_warn(name):
    _warn.warn("All-NaN slice encountered", RuntimeWarning)


def _nan_extreme(a, axis, out, keepdims, sign, name, initial=_NOVALUE, where=True):
    """nanmax (sign -1) or nanmin (+1): the extreme of the non-NaN elements;
    an all-NaN slice gives its first element, as NumPy's fmax/fmin reduce
    (for complex, the NaN with its other part), with NumPy's warning (for
    an axis result, on the ranks holding an all-NaN slice)."""
    a = asarray(a)
    ext = _max if sign < 0 else _min
    if where is not True and initial is _NOVALUE:
        raise ValueError(f"reduction operation '{'fmax' if sign < 0 else 'fmin'}' does not have an identity, so to "
                         "use a where mask one has to specify 'initial'")
    if not _is_float(a) or initial is not _NOVALUE:  # an all-NaN slice gives initial
        return ext(_nan_to(a, _beyond(a, sign)) if _is_float(a) else a, axis, out, keepdims, initial, where)
    r = ext(_nan_to(a, _beyond(a, sign)), axis, None, keepdims)
    if isinstance(r, ndarray):
        allnan = _U["logical_not"](_U["logical_not"](_U["isnan"](a)).any(axis=axis, keepdims=keepdims))
        _warn_where(allnan, "All-NaN slice encountered")
        first = _np.nan
        if a._dtype in _COMPLEX and type(axis) is int:
            ax = _axis(axis, a.ndim)
            first = a[(slice(None),) * ax + ((slice(0, 1),) if keepdims else (0,))]
        r = _where(allnan, first, r).astype(a._dtype)
    elif not bool((~_U["isnan"](a)).any()):
        _all_nan_warn(name)
        r = a.ravel()[0] if a._dtype in _COMPLEX else _scalar(_np.nan, a._dtype)
    return _reduced_out(r, out)


def nanmax(a, axis=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    return _nan_extreme(a, axis, out, keepdims, -1, "nanmax", initial, where)


def nanmin(a, axis=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    return _nan_extreme(a, axis, out, keepdims, 1, "nanmin", initial, where)


def _nan_arg(a, axis, fill, fn, name, keepdims=False):
    a = asarray(a)
    if _is_float(a) and (a.size if axis is None else a.shape[_axis(axis, a.ndim)]):  # (nothing: argmax's error)
        nan = _U["isnan"](a)
        if (axis is None and bool(nan.all())) or (axis is not None and bool(nan.all(axis=axis).any())):
            raise ValueError("All-NaN slice encountered")
        a = _where(nan, fill, a).astype(a._dtype)
    r = fn(a, axis)
    if keepdims:  # the reduced axis (or every axis) kept with extent 1
        from ._ndarray import _reshaped
        shape = tuple(1 if axis is None or d == _axis(axis, a.ndim) else n for d, n in enumerate(a.shape))
        r = _reshaped(asarray(r), shape)
    return r


def nanargmax(a, axis=None, out=None, *, keepdims=False):
    _index_out(out)
    return _reduced_out(_nan_arg(a, axis, -_np.inf, _argmax, "nanargmax", keepdims), out, True)


def nanargmin(a, axis=None, out=None, *, keepdims=False):
    _index_out(out)
    return _reduced_out(_nan_arg(a, axis, _np.inf, _argmin, "nanargmin", keepdims), out, True)


def _count(a, axis, keepdims):
    return _sum(_U["logical_not"](_U["isnan"](a)), axis, None, None, keepdims)


def _inexact_only(dtype, out):
    """NumPy's refusal of an integer or bool dtype= or out= for the nan
    moments of floating-point data."""
    if dtype is not None and not _np.issubdtype(_np.dtype(dtype), _np.inexact):
        raise TypeError("If a is inexact, then dtype must be inexact")
    if out is not None and not _np.issubdtype(_np.dtype(out.dtype), _np.inexact):
        raise TypeError("If a is inexact, then out must be inexact")


def nanmean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = _masked(a, where)
    if not _is_float(a):
        return _mean(a, axis, dtype, out, keepdims, where=where)
    _inexact_only(dtype, out)
    fdt = dtype or a._dtype
    s = _sum(_nan_to(a, 0).astype(fdt), axis, None, None, keepdims)
    n = _count(a, axis, keepdims)
    _warn_where(n == 0, "Mean of empty slice")  # NumPy's warning, no 0/0 one
    with _np.errstate(invalid="ignore", divide="ignore"):
        r = s / n
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(fdt), out)
    return _reduced_out(_scalar(r, fdt), out) if out is not None else _scalar(r, fdt)


def nanvar(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=_NOVALUE):
    ddof, correction = _ddof(ddof, correction), _NOVALUE
    a = _masked(a, where)
    if not _is_float(a):
        return _var(a, axis, dtype, out, ddof, keepdims, where=None if where is True else where, mean=mean,
                    correction=correction)
    _inexact_only(dtype, out)
    fdt = dtype or a._dtype
    x = a.astype(fdt) if fdt != a._dtype else a
    with warnings.catch_warnings():  # NumPy's nanvar warns of its degrees of freedom alone
        warnings.simplefilter("ignore", RuntimeWarning)
        m = nanmean(x, axis, keepdims=True) if mean is None else asarray(mean)  # NumPy 2's precomputed mean
    d = _where(_U["isnan"](x), 0, x - m).astype(fdt)  # only the NaN inputs count as nothing
    if fdt in _COMPLEX:  # |d|^2 as NumPy: the real part of d * conj(d), in the real type
        fdt = "float32" if fdt == "complex64" else "float64"
        d2 = _part_of(d * _U["conjugate"](d), "real").astype(fdt)
    else:
        d2 = d * d
    ss = _sum(d2, axis, None, None, keepdims)
    n = _count(a, axis, keepdims)
    div = n - ddof
    _warn_where(div <= 0, "Degrees of freedom <= 0 for slice.")
    r = _where(div > 0, ss / _where(div > 0, div, 1), _np.nan) if isinstance(div, ndarray) else \
        (ss / div if div > 0 else _np.nan)
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(fdt), out)
    return _reduced_out(_scalar(r, fdt), out) if out is not None else _scalar(r, fdt)


def nanstd(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=True, mean=None,
           correction=_NOVALUE):
    a = asarray(a)  # (once: nanvar takes it as it is)
    if _is_float(a):
        _inexact_only(dtype, out)
    _sqrt_out(out)
    v = nanvar(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    r = _U["sqrt"](v)
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(v._dtype), out)
    return r if out is None else _reduced_out(asarray(r), out)  # (a 0-d out too)


def ptp(a, axis=None, out=None, keepdims=False):
    a = asarray(a)
    r = _max(a, axis, None, keepdims) - _min(a, axis, None, keepdims)
    if isinstance(r, ndarray) and r._expr is not None:
        r = r.copy()
    return _with_out(r, out)


def average(a, axis=None, weights=None, returned=False, *, keepdims=False):
    a = asarray(a)
    if axis is not None:
        axis = _axis_tuple(axis, a.ndim, "axis")  # NumPy's errors, with its prefix
    if weights is None:
        r = _mean(a, axis, keepdims=keepdims)
        if not returned:
            return r
        rdt = r._dtype if isinstance(r, ndarray) else _np.asarray(r).dtype.name
        scl = a.size / builtins.max(r.size if isinstance(r, ndarray) else 1, 1)
        return r, (full(r.shape, scl, rdt) if isinstance(r, ndarray) else _scalar(scl, rdt))
    w = asarray(weights)
    if w.shape != a.shape:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = list(axis)
        if w.shape != tuple(a.shape[d] for d in axes):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        # weights' axes in a's order, broadcast over the others
        order = sorted(range(len(axes)), key=lambda i: axes[i])
        if order != list(range(len(axes))):
            w = w.transpose(order)
        w = w[tuple(slice(None) if d in axes else None for d in range(a.ndim))]
    dt = _np.result_type(_np.dtype(a._dtype), _np.dtype(w._dtype), _np.float64 if a._dtype in
                         _INTEGER else _np.dtype(a._dtype)).name
    ws = _sum((w + a * 0).astype(dt) if w.shape != a.shape else w.astype(dt), axis, None, None, keepdims)
    if (isinstance(ws, ndarray) and bool((ws == 0).any())) or (not isinstance(ws, ndarray) and ws == 0):
        raise ZeroDivisionError("Weights sum to zero, can't be normalized")
    r = _sum((a * w).astype(dt), axis, None, None, keepdims) / ws
    if isinstance(r, ndarray):
        r = r.astype(dt)
    else:
        r = _scalar(r, dt)
    return (r, ws) if returned else r


def diff(a, n=1, axis=-1, prepend=None, append=None):
    from ._manipulation import concatenate
    if n == 0:
        return a  # the argument itself, as NumPy returns it
    a = asarray(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    if a.ndim == 0:
        raise ValueError("diff requires input that is at least one dimensional")
    ax = _axis(axis, a.ndim, "int")
    def edge(v):  # scalars become one slab along the axis
        v = asarray(v)
        if v.ndim == 0:
            shape = list(a.shape)
            shape[ax] = 1
            return full(tuple(shape), v.item(), v._dtype)
        return v
    if prepend is not None or append is not None:
        seq = ([edge(prepend)] if prepend is not None else []) + [a] + ([edge(append)] if append is not None else [])
        a = concatenate(seq, axis=ax)
    pre = (slice(None),) * ax
    for _ in range(n):
        if a._dtype == "bool":
            a = (a[pre + (slice(1, None),)] != a[pre + (slice(None, -1),)]).copy()
        else:
            a = (a[pre + (slice(1, None),)] - a[pre + (slice(None, -1),)]).copy()
    return a


def ediff1d(ary, to_end=None, to_begin=None):
    from ._manipulation import concatenate
    a = asarray(ary)
    a = _flat(a)
    d = (a[1:] - a[:-1]).copy() if a.size else a
    parts = []

    def edge(v, name):
        v = asarray(v)
        if not _np.can_cast(v._dtype, a._dtype, "same_kind"):  # (int64 to uint8 is not the same kind)
            raise TypeError(f"dtype of `{name}` must be compatible with input `ary` under the `same_kind` rule.")
        return _flat(v).astype(a._dtype) if v.ndim != 1 else v.astype(a._dtype)
    if to_begin is not None:
        parts.append(edge(to_begin, "to_begin"))
    parts.append(d)
    if to_end is not None:
        parts.append(edge(to_end, "to_end"))
    return concatenate(parts) if len(parts) > 1 else d


def _spacings(varargs, axes, shape):
    """NumPy's reading of gradient's spacings: one per axis, each a scalar
    or the differences of a 1-d coordinate array (a scalar again when they
    are all equal)."""
    n = len(varargs)
    if n == 0:
        return [1.0] * len(axes)
    if n == 1 and _np.ndim(varargs[0]) == 0:
        return list(varargs) * len(axes)
    if n != len(axes):
        raise TypeError("invalid number of arguments")
    dx = list(varargs)
    for i, d in enumerate(dx):
        if _np.ndim(d) == 0:
            continue
        d = asarray(d)
        if d.ndim != 1:
            raise ValueError("distances must be either scalars or 1d")
        if len(d) != shape[axes[i]]:
            raise ValueError("when 1d, distances must match the length of the corresponding dimension")
        if d._dtype in _INTEGER:
            d = d.astype("float64")  # no modular arithmetic in the differences
        diffx = diff(d)
        dx[i] = diffx[0] if len(diffx) and bool((diffx == diffx[0]).all()) else diffx
    return dx


def gradient(f, *varargs, axis=None, edge_order=1):
    """numpy.gradient with NumPy's formulas (so the same roundings):
    second-order central differences inside, first- or second-order
    one-sided at the edges; uniform spacings (scalars) or 1-d coordinate
    arrays per axis."""
    f = asarray(f)
    if f._dtype == "bool":
        raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` "
                        "operator, or the logical_xor function instead.")
    axes = tuple(range(f.ndim)) if axis is None else _axis_tuple(axis, f.ndim)  # in the order given, as NumPy
    dx = _spacings(varargs, axes, f.shape)
    if edge_order > 2:
        raise ValueError("'edge_order' greater than 2 not supported")
    otype = f._dtype
    if otype not in _INEXACT:
        f, otype = f.astype("float64"), "float64"
    out_all = []
    for ax, h in zip(axes, dx):
        if f.shape[ax] < edge_order + 1:
            raise ValueError("Shape of array too small to calculate a numerical gradient, at least (edge_order + 1) "
                             "elements are required.")
        pre = (slice(None),) * ax

        def s(k):
            return f[pre + (k,)]
        out = empty(f.shape, otype)
        uniform = _np.ndim(h) == 0
        if uniform:
            out[pre + (slice(1, -1),)] = (s(slice(2, None)) - s(slice(None, -2))) / (2. * h)
        else:
            dx1, dx2 = h[0:-1], h[1:]
            a = -(dx2) / (dx1 * (dx1 + dx2))
            b = (dx2 - dx1) / (dx1 * dx2)
            c = dx1 / (dx2 * (dx1 + dx2))
            along = tuple(-1 if d == ax else 1 for d in range(f.ndim))
            a, b, c = a.reshape(along), b.reshape(along), c.reshape(along)
            out[pre + (slice(1, -1),)] = a * s(slice(None, -2)) + b * s(slice(1, -1)) + c * s(slice(2, None))
        if edge_order == 1:
            out[pre + (0,)] = (s(1) - s(0)) / (h if uniform else h[0])
            out[pre + (-1,)] = (s(-1) - s(-2)) / (h if uniform else h[-1])
        else:
            if uniform:
                a, b, c = -1.5 / h, 2. / h, -0.5 / h
            else:
                dx1, dx2 = h[0], h[1]
                a = -(2. * dx1 + dx2) / (dx1 * (dx1 + dx2))
                b = (dx1 + dx2) / (dx1 * dx2)
                c = - dx1 / (dx2 * (dx1 + dx2))
            out[pre + (0,)] = a * s(0) + b * s(1) + c * s(2)
            if uniform:
                a, b, c = 0.5 / h, -2. / h, 1.5 / h
            else:
                dx1, dx2 = h[-2], h[-1]
                a = (dx2) / (dx1 * (dx1 + dx2))
                b = - (dx2 + dx1) / (dx1 * dx2)
                c = (2. * dx2 + dx1) / (dx2 * (dx1 + dx2))
            out[pre + (-1,)] = a * s(-3) + b * s(-2) + c * s(-1)
        out_all.append(out)
    return out_all[0] if len(out_all) == 1 else tuple(out_all)


def trapezoid(y, x=None, dx=1.0, axis=-1):
    y = asarray(y)
    slices = [slice(None)] * y.ndim
    slices[axis] = slice(1, None)  # NumPy's list indexing, and its errors for a bad axis
    ax = _axis(axis, y.ndim)
    pre = (slice(None),) * ax
    a, b = y[pre + (slice(1, None),)], y[pre + (slice(None, -1),)]
    if x is None:
        return _sum(dx * (a + b) / 2.0, axis=ax)  # NumPy's order of operations
    x = asarray(x)

    def step(hi, lo):  # NumPy's diff: not_equal for booleans
        return _U["not_equal"](hi, lo) if x._dtype == "bool" else hi - lo
    if x.ndim == 1:
        d = step(x[1:], x[:-1])
        d = d[tuple(slice(None) if i == ax else None for i in range(y.ndim))]
    else:
        d = step(x[pre + (slice(1, None),)], x[pre + (slice(None, -1),)])
    return _sum(d * (a + b) / 2.0, axis=ax)
