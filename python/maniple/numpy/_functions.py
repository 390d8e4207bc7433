"""Universal functions, reductions and a few NumPy functions on ndarrays."""
import builtins

import numpy as _np

from maniple import _core

from ._creation import asarray, empty
from ._ndarray import ndarray, _binary, _compile, _scalar, _ternary, _unary, _assign

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


def where(condition, x, y):
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


def _reduce(op, a, axis=None, dtype=None, out=None, keepdims=False):
    a = asarray(a)
    if dtype is not None:
        a = a.astype(dtype)
    ax = _axis(axis, a.ndim)
    rdt = _result_dtype(op, a._dtype)
    if ax is None:
        v = _scalar(_core.reduce(_compile(a._node()), op), rdt)
        if keepdims:
            v = asarray(_np.full((1,) * a.ndim, v, dtype=rdt))
        return _with_out(v, out) if out is not None else v
    shape = a.shape[:ax] + a.shape[ax + 1:]
    r = empty(shape, rdt)
    _core.reduce_axis(op, a._materialize(), ax, r._arr)
    if keepdims:
        r = r[(slice(None),) * ax + (None,)]
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
    n = a.size if axis is None else a.shape[_axis(axis, a.ndim)]
    r = s / n if n else s * _np.nan
    if isinstance(r, ndarray):
        return _with_out(r.astype(dtype or fdt), out)
    return _scalar(r, dtype or fdt)


def count_nonzero(a, axis=None):
    r = sum(asarray(a) != 0, axis=axis)
    return int(r) if axis is None else r


# ---- products ----
def dot(a, b, out=None):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return _with_out(a * b, out)
    if a.ndim > 2 or b.ndim > 2 or (a.ndim == 2 and b.ndim == 2):
        raise NotImplementedError("maniple.numpy: dot/matmul of two matrices (or of arrays with more than two "
                                  "dimensions) is not implemented yet; matrix-vector products are")
    if a.shape[-1] != b.shape[0]:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) != "
                         f"{b.shape[0]} (dim 0)")
    if a.ndim == 1 and b.ndim == 1:
        p = a * b
        return _with_out(_scalar(_core.reduce(_compile(p._node()), "sum"), p._dtype), out)
    # matrix-vector products as a reduction of the broadcast product: the
    # vector's pieces reach the matrix's owners through the alignment plan
    if a.ndim == 2:
        return _with_out(sum(a * b[None, :], axis=1), out)
    return _with_out(sum(a[:, None] * b, axis=0), out)


def matmul(a, b, out=None):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    return dot(a, b, out=out)


def vdot(a, b):
    a, b = asarray(a), asarray(b)
    if a.ndim != 1 or b.ndim != 1:
        raise NotImplementedError("maniple.numpy: vdot of arrays with more than one dimension is not implemented yet")
    return dot(a, b)


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
