"""Array creation: zeros, ones, full, empty, *_like, arange, linspace, array."""
import math

import numpy as _np

from maniple import _core
from maniple import init as _init

from ._ndarray import ndarray, _pyscalar, _KIND

_SUPPORTED = tuple(_KIND)


def _dt(dtype, default="float64"):
    if dtype is None:
        return default
    d = str(_np.dtype(dtype))
    if d not in _SUPPORTED:
        raise TypeError(f"maniple.numpy does not support dtype '{d}' (supported: {', '.join(_SUPPORTED)})")
    return d


def _shape(shape):
    if isinstance(shape, (int, _np.integer)):
        shape = (int(shape),)
    shape = tuple(int(s) for s in shape)
    for s in shape:
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
    return shape


def empty(shape, dtype=None):
    _init()
    return ndarray(_core.create(_shape(shape), _dt(dtype)))


def zeros(shape, dtype=None):
    return empty(shape, dtype)  # maniple arrays start zeroed


def full(shape, fill_value, dtype=None):
    if dtype is None:
        dtype = _np.asarray(fill_value).dtype
        dtype = "float64" if dtype.kind == "f" else ("int64" if dtype.kind in "iu" else str(dtype))
    a = empty(shape, dtype)
    a._arr.fill(_pyscalar(fill_value))
    return a


def ones(shape, dtype=None):
    return full(shape, 1, _dt(dtype))


def _like(a, dtype, shape):
    return (a.shape if shape is None else shape), (a.dtype if dtype is None else dtype)


def empty_like(a, dtype=None, shape=None):
    s, d = _like(asarray(a), dtype, shape)
    return empty(s, d)


def zeros_like(a, dtype=None, shape=None):
    s, d = _like(asarray(a), dtype, shape)
    return zeros(s, d)


def ones_like(a, dtype=None, shape=None):
    s, d = _like(asarray(a), dtype, shape)
    return ones(s, d)


def full_like(a, fill_value, dtype=None, shape=None):
    s, d = _like(asarray(a), dtype, shape)
    return full(s, fill_value, d)


def arange(start, stop=None, step=1, dtype=None):
    if stop is None:
        start, stop = 0, start
    if step == 0:
        raise ZeroDivisionError("step must not be zero")
    n = max(0, math.ceil((stop - start) / step))
    if dtype is None:
        dtype = "int64" if all(isinstance(v, (int, _np.integer)) for v in (start, stop, step)) else "float64"
    a = empty((n,), dtype)
    a._arr.arange(float(start), float(step))
    return a


def linspace(start, stop, num=50, endpoint=True, dtype=None):
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    a = empty((int(num),), _dt(dtype))
    a._arr.linspace(float(start), float(stop), bool(endpoint))
    return a


def asarray(x, dtype=None):
    """x as a maniple array. NumPy arrays and sequences must be the same on
    every rank (SPMD); each rank keeps its own part."""
    if isinstance(x, ndarray):
        return x if dtype is None or str(_np.dtype(dtype)) == x._dtype else x.astype(dtype)
    y = _np.asarray(x, dtype=dtype)
    if dtype is None and y.dtype.kind == "f" and y.dtype.itemsize > 8:
        raise TypeError(f"maniple.numpy does not support dtype '{y.dtype}'")
    d = _dt(y.dtype)
    a = empty(y.shape, d)
    a._arr.set_global(_np.ascontiguousarray(y))
    return a


def array(x, dtype=None, copy=True):
    if isinstance(x, ndarray):
        r = x.copy() if copy else x
        return r if dtype is None else r.astype(dtype)
    return asarray(x, dtype)


def copy(a):
    return asarray(a).copy()


def copyto(dst, src):
    from ._ndarray import _assign, _check_writable
    if not isinstance(dst, ndarray):
        raise TypeError("copyto: destination must be a maniple array")
    _check_writable(dst)
    _assign(dst._materialize(), src)



def eye(N, M=None, k=0, dtype=None):
    """Ones on the k-th diagonal: a fused comparison of broadcast aranges."""
    M = N if M is None else M
    r = arange(N)[:, None]
    c = arange(M)[None, :]
    return ((c - r) == k).astype(_dt(dtype))


def identity(n, dtype=None):
    return eye(n, dtype=dtype)


def meshgrid(*xi, indexing="xy"):
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [asarray(x).ravel() if asarray(x).ndim != 1 else asarray(x) for x in xi]
    n = len(xs)
    shape = [x.size for x in xs]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, x in enumerate(xs):
        axis = i
        if indexing == "xy" and n >= 2 and i < 2:
            axis = 1 - i
        key = tuple(slice(None) if d == axis else None for d in range(n))
        # multiplying by one keeps every value (-0.0, inf, nan) exactly
        out.append((x[key] * ones(tuple(shape), x._dtype)).copy())
    return out


def save(file, arr, allow_pickle=False):
    path = str(file)
    if not path.endswith(".npy"):
        path += ".npy"
    asarray(arr)._materialize().save_npy(path)


def load(file, mmap_mode=None, allow_pickle=False):
    if mmap_mode is not None:
        raise NotImplementedError("maniple.numpy: load with mmap_mode is not implemented")
    _init()
    return ndarray(_core.load_npy(str(file)))
