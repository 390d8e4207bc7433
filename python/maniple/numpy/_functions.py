"""Universal functions, reductions and a few NumPy functions on ndarrays."""
import builtins

import numpy as _np

from maniple import _core

from ._creation import asarray, empty
from ._ndarray import ndarray, _binary, _check_writable, _compile, _scalar, _ternary, _unary, _assign, \
    _has_cells, _eval_shared, _NOTHING

# ---- ufuncs (the names are NumPy's) ----
_UNARY = ["negative", "positive", "absolute", "sqrt", "exp", "log", "log2", "log10", "expm1", "log1p", "sin",
          "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "floor", "ceil", "trunc", "rint",
          "sign", "square", "reciprocal", "logical_not", "invert", "isnan", "isinf", "isfinite", "arccosh",
          "arcsinh", "arctanh", "cbrt", "exp2", "fabs", "signbit", "spacing", "deg2rad", "rad2deg"]
_BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power", "maximum",
           "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
           "right_shift", "arctan2", "hypot", "copysign", "fmod", "logaddexp", "logaddexp2", "heaviside", "nextafter",
           "ldexp", "gcd", "lcm", "float_power"]


def _with_out(r, out):
    if out is None:
        return r
    _check_writable(out)
    _assign(out._materialize(), r, same_kind=True)
    return out


def _scalars_only(*xs):
    return builtins.all(isinstance(x, (bool, int, float, _np.generic)) for x in xs)


def _make_unary(name, op=None):
    """numpy.<name>, computed by maniple's op of that name (or by op)."""
    np_f, op = getattr(_np, name), op or name

    def f(x, out=None):
        if out is None and _scalars_only(x):  # a scalar in, NumPy's scalar out
            return np_f(x)
        return _with_out(_unary(op, x), out)
    f.__name__ = name
    f.__doc__ = f"numpy.{name}, element-wise, evaluated fused with the expression around it."
    return f


def _make_binary(name):
    np_f = getattr(_np, name)

    def f(x, y, out=None):
        if out is None and _scalars_only(x, y):
            return np_f(x, y)
        return _with_out(_binary(name, x, y), out)
    f.__name__ = name
    f.__doc__ = f"numpy.{name}, element-wise, evaluated fused with the expression around it."
    return f


UFUNCS = {n: _make_unary(n) for n in _UNARY}
UFUNCS.update({n: _make_binary(n) for n in _BINARY})


_NOARG = object()


def where(condition, x=_NOARG, y=_NOARG):
    if x is _NOARG and y is _NOARG:
        from ._indexing import nonzero
        return nonzero(condition)
    if x is _NOARG or y is _NOARG:
        raise ValueError("either both or neither of x and y should be given")
    return _ternary("where", condition, x, y)


_NOVALUE = object()


def clip(a, a_min=_NOVALUE, a_max=_NOVALUE, out=None, *, min=_NOVALUE, max=_NOVALUE):
    """NumPy 2's clip: bounds positional or as min=/max=; a None bound is
    no bound (maximum or minimum only)."""
    if min is not _NOVALUE:
        if a_min is not _NOVALUE:
            raise ValueError("Passed more than one argument for the minimum (a_min and min)")
        a_min = min
    if max is not _NOVALUE:
        if a_max is not _NOVALUE:
            raise ValueError("Passed more than one argument for the maximum (a_max and max)")
        a_max = max
    lo = None if a_min is _NOVALUE else a_min
    hi = None if a_max is _NOVALUE else a_max
    if lo is None and hi is None:
        a = asarray(a)
        return _with_out(a.astype(a._dtype), out)
    if lo is None:
        return _with_out(_binary("minimum", a, hi), out)
    if hi is None:
        return _with_out(_binary("maximum", a, lo), out)
    return _with_out(_ternary("clip", a, lo, hi), out)


# ---- reductions ----
def _result_dtype(op, dt):
    if op in ("argmin", "argmax"):
        return "int64"
    if op in ("any", "all"):
        return "bool"
    if op in ("sum", "prod") and dt in ("bool", "int32", "int64"):
        return "int64"
    return dt


def _axis(axis, ndim):
    if axis is None:
        return None
    if isinstance(axis, tuple):
        if len(axis) != 1:
            raise NotImplementedError("maniple.numpy: reducing over several axes at once is not implemented yet")
        axis = axis[0]
    axis = int(axis)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim)
    return axis % ndim


def _axes(axis, ndim):
    """Sorted, checked axes of an axis argument (None: every axis)."""
    if axis is None:
        return list(range(ndim))
    axes = [_axis(x, ndim) for x in (axis if isinstance(axis, (tuple, list)) else (axis,))]
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return sorted(axes)


def _reduce(op, a, axis=None, dtype=None, out=None, keepdims=False):
    a = asarray(a)
    if dtype is not None:
        a = a.astype(dtype)
    if isinstance(axis, (tuple, list)) and op in ("argmin", "argmax"):
        raise TypeError("'tuple' object cannot be interpreted as an integer")
    axes = _axes(axis, a.ndim)
    rdt = _result_dtype(op, a._dtype)
    if dtype is not None and op in ("sum", "prod"):
        rdt = a._dtype  # an explicit dtype is the accumulator's and the result's
    if len(axes) == a.ndim:  # every axis: one fused pass to a scalar
        node = a._node()
        v = _NOTHING
        if a._big and a._expr is not None and _has_cells(node):
            v = _eval_shared(node, a._shape, reduce=op)
        if v is _NOTHING:
            v = _core.reduce(_compile(node), op)
        # integers wrap into a narrower result dtype, as NumPy's accumulation does
        v = _np.asarray(v).astype(rdt)[()] if rdt != _result_dtype(op, a._dtype) else _scalar(v, rdt)
        if keepdims and a.ndim:
            v = asarray(_np.full((1,) * a.ndim, v, dtype=rdt))
        return _with_out(v, out) if out is not None else v
    r = a
    for ax in reversed(axes):  # one axis at a time, from the last
        shape = r.shape[:ax] + r.shape[ax + 1:]
        t = empty(shape, rdt)
        _core.reduce_axis(op, r._materialize(), ax, t._arr)
        r = t
    if keepdims:
        r = r[tuple(None if d in axes else slice(None) for d in range(a.ndim))]
    return _with_out(r, out)


def sum(a, axis=None, dtype=None, out=None, keepdims=False):
    return _reduce("sum", a, axis, dtype, out, keepdims)


def prod(a, axis=None, dtype=None, out=None, keepdims=False):
    return _reduce("prod", a, axis, dtype, out, keepdims)


def min(a, axis=None, out=None, keepdims=False):
    return _reduce("min", a, axis, None, out, keepdims)


def max(a, axis=None, out=None, keepdims=False):
    return _reduce("max", a, axis, None, out, keepdims)


amin, amax = min, max


def argmin(a, axis=None):
    return _reduce("argmin", a, axis)


def argmax(a, axis=None):
    return _reduce("argmax", a, axis)


def any(a, axis=None, out=None, keepdims=False):
    return _reduce("any", a, axis, None, out, keepdims)


def all(a, axis=None, out=None, keepdims=False):
    return _reduce("all", a, axis, None, out, keepdims)


def mean(a, axis=None, dtype=None, out=None, keepdims=False):
    a = asarray(a)
    fdt = a._dtype if a._dtype in ("float32", "float64") else "float64"
    s = _reduce("sum", a.astype(dtype or fdt) if (dtype or fdt) != a._dtype else a, axis, None, None, keepdims)
    n = 1
    for d in _axes(axis, a.ndim):
        n *= a.shape[d]
    r = s / n if n else s * _np.nan
    if isinstance(r, ndarray):
        return _with_out(r.astype(dtype or fdt), out)
    return _with_out(_scalar(r, dtype or fdt), out) if out is not None else _scalar(r, dtype or fdt)


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
    """Mean of squared deviations from the mean (two passes, as NumPy)."""
    if where is not None:
        raise NotImplementedError("maniple.numpy: var with where= is not implemented yet")
    if correction is not None:
        ddof = correction
    a = asarray(a)
    fdt = a._dtype if a._dtype in ("float32", "float64") else "float64"
    dt = dtype or fdt
    x = a.astype(dt) if dt != a._dtype else a
    m = globals()["mean"](x, axis=axis, keepdims=True) if mean is None else asarray(mean)
    d = x - m
    ss = _reduce("sum", d * d, axis, None, None, keepdims)
    n = 1
    for ax in _axes(axis, a.ndim):
        n *= a.shape[ax]
    div = builtins.max(n - ddof, 0)
    r = ss / div if div else ss * _np.nan
    if isinstance(r, ndarray):
        return _with_out(r.astype(dt), out)
    r = _scalar(r, dt)
    return _with_out(asarray(r), out) if out is not None else r


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=None):
    v = var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    r = UFUNCS["sqrt"](v)
    if isinstance(r, ndarray):
        return _with_out(r.astype(v._dtype), out)
    return _with_out(asarray(r), out) if out is not None else r


def count_nonzero(a, axis=None):
    r = sum(asarray(a) != 0, axis=axis)
    return int(r) if axis is None else r


# ---- comparisons ----
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    a, b = asarray(a), asarray(b)
    close = UFUNCS["less_equal"](UFUNCS["absolute"](a - b), atol + rtol * UFUNCS["absolute"](b))
    # equal infinities (and nans when asked) are close, as in NumPy
    close = UFUNCS["logical_or"](close, a == b)
    if equal_nan:
        close = UFUNCS["logical_or"](close, UFUNCS["logical_and"](UFUNCS["isnan"](a), UFUNCS["isnan"](b)))
    return close


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(all(isclose(a, b, rtol, atol, equal_nan)))


def array_equal(a, b, equal_nan=False):
    a, b = asarray(a), asarray(b)
    if a.shape != b.shape:
        return False
    eq = a == b
    if equal_nan:
        eq = UFUNCS["logical_or"](eq, UFUNCS["logical_and"](UFUNCS["isnan"](a), UFUNCS["isnan"](b)))
    return builtins.bool(all(eq))


# ---- shape ----
def reshape(a, newshape, order="C"):
    return asarray(a).reshape(newshape, order=order)


def ravel(a, order="C"):
    return asarray(a).ravel(order=order)
