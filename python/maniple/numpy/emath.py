"""maniple.numpy.emath (numpy.emath, numpy.lib.scimath): the functions whose
result leaves the real line for some real inputs (sqrt and log of negative
numbers, arccos beyond 1) go complex where NumPy's do. Whether an array goes
complex depends on its values, so that decision is one reduction over the
array (every rank takes the same dtype)."""
import numpy as _np

from ._creation import asarray
from ._functions import UFUNCS as _U, any as _any, _scalars_only
from ._math import isreal

# what numpy.lib.scimath makes complex64 (every other dtype goes complex128)
_SINGLE = ("float32", "int8", "int16", "uint8", "uint16", "complex64")


def _tocomplex(x):
    return x.astype("complex64" if x.dtype.name in _SINGLE else "complex128")


def _fix(x, bad):
    x = asarray(x)
    return _tocomplex(x) if bool(_any(isreal(x) & bad(x))) else x


def _real_lt_zero(x):
    return _fix(x, lambda a: a < 0)


def _real_abs_gt_1(x):
    return _fix(x, lambda a: _U["absolute"](a) > 1)


def _int_lt_zero(x):
    x = asarray(x)
    return x * 1.0 if bool(_any(isreal(x) & (x < 0))) else x


def _unary(name, fix):
    np_f = getattr(_np.emath, name)

    def f(x):
        if _scalars_only(x) or isinstance(x, (list, tuple)) and not x:
            return np_f(x)
        return _U[name](fix(x))
    f.__name__ = name
    f.__doc__ = f"numpy.emath.{name}: complex where the real result would not exist."
    return f


sqrt = _unary("sqrt", _real_lt_zero)
log = _unary("log", _real_lt_zero)
log2 = _unary("log2", _real_lt_zero)
log10 = _unary("log10", _real_lt_zero)
arccos = _unary("arccos", _real_abs_gt_1)
arcsin = _unary("arcsin", _real_abs_gt_1)
arctanh = _unary("arctanh", _real_abs_gt_1)


def logn(n, x):
    """The logarithm of x to base n."""
    if _scalars_only(n, x):
        return _np.emath.logn(n, x)
    return _U["log"](_real_lt_zero(x)) / _U["log"](_real_lt_zero(n))


def power(x, p):
    """x ** p, complex for negative real x."""
    if _scalars_only(x, p):
        return _np.emath.power(x, p)
    return _U["power"](_real_lt_zero(x), _int_lt_zero(p))
