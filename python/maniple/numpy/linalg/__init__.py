"""maniple.numpy.linalg: what is implemented so far (vector and Frobenius
norms); multi_dot, matrix_power, outer, ... are announced fallbacks (see
maniple.numpy._fallback); other names are missing and NumPy's protocols
raise for them."""
import numpy as _np

from .. import _fallback
from .._creation import asarray
from .._functions import UFUNCS as _U, max as _max, sum as _sum


def norm(x, ord=None, axis=None, keepdims=False):
    x = asarray(x)
    if axis is not None or keepdims:
        raise NotImplementedError("maniple.numpy.linalg.norm: axis and keepdims are not implemented yet")
    if x._dtype not in ("float32", "float64"):
        x = x.astype("float64")
    if ord is None or ord == "fro" or (ord == 2 and x.ndim == 1):
        if ord == "fro" and x.ndim != 2:
            raise ValueError("Invalid norm order 'fro' for vectors")
        r = _U["sqrt"](_sum(x * x))
        return _np.dtype(x._dtype).type(r)
    if x.ndim != 1:
        raise NotImplementedError(f"maniple.numpy.linalg.norm: matrix norm ord={ord!r} is not implemented yet")
    if ord == _np.inf:
        return _max(_U["absolute"](x))
    if ord == 1:
        return _sum(_U["absolute"](x))
    raise NotImplementedError(f"maniple.numpy.linalg.norm: ord={ord!r} is not implemented yet")


_fallback.install(globals(), "linalg")
del _fallback
