"""Shape manipulation built on views and copies into views (no new C code):
concatenate, stack, hstack, vstack, split, flip, squeeze, expand_dims,
swapaxes, moveaxis-free transpose, roll, pad (constant), atleast_1d/2d."""
import builtins

import numpy as _np

from ._creation import asarray, empty
from ._functions import _axis
from ._ndarray import ndarray, _assign


def _result_dtype(arrays):
    return str(_np.result_type(*[_np.dtype(a._dtype) for a in arrays]))


def concatenate(arrays, axis=0, out=None, dtype=None):
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    if axis is None:
        arrays = [a.ravel() if a.ndim != 1 else a for a in arrays]
        axis, nd = 0, 1
    ax = _axis(axis, nd)
    for i, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError("all the input array dimensions except for the concatenation axis must match "
                             f"exactly, but along dimension 0, the array at index 0 has {nd} dimension(s) and "
                             f"the array at index {i} has {a.ndim} dimension(s)")
        for d in range(nd):
            if d != ax and a.shape[d] != arrays[0].shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {d}, the array at index 0 has size "
                                 f"{arrays[0].shape[d]} and the array at index {i} has size {a.shape[d]}")
    shape = list(arrays[0].shape)
    shape[ax] = builtins.sum(a.shape[ax] for a in arrays)
    if out is None:
        out = empty(tuple(shape), dtype or _result_dtype(arrays))
    elif tuple(out.shape) != tuple(shape):
        raise ValueError(f"Output array has wrong dimensionality: {out.shape} instead of {tuple(shape)}")
    start = 0
    for a in arrays:
        n = a.shape[ax]
        key = (slice(None),) * ax + (slice(start, start + n),)
        _assign(out._materialize().index(out._items(key)), a)
        start += n
    return out


def stack(arrays, axis=0, out=None):
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    ax = _axis(axis, len(shape) + 1)
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax, out=out)


def vstack(tup):
    return concatenate([atleast_2d(a) for a in tup], axis=0)


def hstack(tup):
    arrs = [atleast_1d(a) for a in tup]
    return concatenate(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1)


def atleast_1d(a):
    a = asarray(a)
    return a if a.ndim >= 1 else a.reshape(1)


def atleast_2d(a):
    a = asarray(a)
    if a.ndim >= 2:
        return a
    return a.reshape(1, 1) if a.ndim == 0 else a[None, :]


def expand_dims(a, axis):
    a = asarray(a)
    ax = _axis(axis, a.ndim + 1)
    return a[(slice(None),) * ax + (None,)]


def squeeze(a, axis=None):
    a = asarray(a)
    if axis is None:
        axes = [d for d in range(a.ndim) if a.shape[d] == 1]
    else:
        axes = [_axis(x, a.ndim) for x in (axis if isinstance(axis, tuple) else (axis,))]
        for d in axes:
            if a.shape[d] != 1:
                raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    if not axes:
        return a
    key = tuple(0 if d in axes else slice(None) for d in range(a.ndim))
    r = a._materialize().index(a._items(key))
    return ndarray(r)


def flip(a, axis=None):
    a = asarray(a)
    axes = range(a.ndim) if axis is None else [_axis(x, a.ndim) for x in (axis if isinstance(axis, tuple) else (axis,))]
    key = tuple(slice(None, None, -1) if d in axes else slice(None) for d in range(a.ndim))
    return a[key]


def fliplr(a):
    return flip(a, 1)


def flipud(a):
    return flip(a, 0)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    p = list(range(a.ndim))
    i, j = _axis(axis1, a.ndim), _axis(axis2, a.ndim)
    p[i], p[j] = p[j], p[i]
    return a.transpose(p)


def transpose(a, axes=None):
    return asarray(a).transpose(axes)


def matrix_transpose(x, /):
    """The last two axes swapped (a view, as in NumPy)."""
    x = asarray(x)
    if x.ndim < 2:
        raise ValueError(f"Input array must be at least 2-dimensional, but it is {x.ndim}")
    return swapaxes(x, -1, -2)


def split(a, indices_or_sections, axis=0):
    a = asarray(a)
    ax = _axis(axis, a.ndim)
    n = a.shape[ax]
    if isinstance(indices_or_sections, (int, _np.integer)):
        k = int(indices_or_sections)
        if k <= 0 or n % k:
            raise ValueError("array split does not result in an equal division")
        bounds = [i * (n // k) for i in range(k + 1)]
    else:
        bounds = [0] + [builtins.min(builtins.max(int(i), 0), n) for i in indices_or_sections] + [n]
    return [a[(slice(None),) * ax + (slice(bounds[i], builtins.max(bounds[i], bounds[i + 1])),)]
            for i in range(len(bounds) - 1)]


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return roll(a.ravel(), shift, 0).reshape(a.shape)
    ax = _axis(axis, a.ndim)
    n = a.shape[ax]
    if n == 0:
        return a.copy()
    s = int(shift) % n
    if s == 0:
        return a.copy()
    pre = (slice(None),) * ax
    return concatenate([a[pre + (slice(n - s, None),)], a[pre + (slice(0, n - s),)]], axis=ax)


def pad(a, pad_width, mode="constant", constant_values=0):
    if mode != "constant":
        raise NotImplementedError(f"maniple.numpy: pad mode '{mode}' is not implemented yet (only 'constant')")
    a = asarray(a)
    pw = _np.broadcast_to(_np.asarray(pad_width, dtype=_np.int64), (a.ndim, 2))
    if (pw < 0).any():
        raise ValueError("index can't contain negative values")
    shape = tuple(int(s + lo + hi) for s, (lo, hi) in zip(a.shape, pw))
    out = empty(shape, a._dtype)
    if constant_values != 0:
        out.fill(constant_values)
    key = tuple(slice(int(lo), int(lo) + s) for s, (lo, _) in zip(a.shape, pw))
    _assign(out._materialize().index(out._items(key)), a)
    return out


def _ones_like_dtype(shape, dtype):
    from ._creation import ones
    return ones(shape, dtype)


def repeat(a, repeats, axis=None):
    """Each element k times: a broadcast product with ones (exact for every
    value: x * 1 is x, -0.0 and nan included), then a reshape."""
    a = asarray(a)
    if not isinstance(repeats, (int, _np.integer)):
        raise NotImplementedError("maniple.numpy: repeat with per-element counts is not implemented yet")
    k = int(repeats)
    if k < 0:
        raise ValueError("negative dimensions are not allowed")
    if axis is None:
        a, ax = (ndarray(a._materialize().reshape((a.size,))) if a.ndim != 1 else a), 0
    else:
        ax = _axis(axis, a.ndim)
    key = (slice(None),) * (ax + 1) + (None,)
    wide = a[key] * _ones_like_dtype((k,) + (1,) * (a.ndim - ax - 1), a._dtype)
    shape = list(a.shape)
    shape[ax] *= k
    # a new array anyway (as in NumPy), so no copy warning: reshape directly
    return ndarray(wide._materialize().reshape(tuple(shape))) if wide.size else empty(tuple(shape), a._dtype)


def tile(a, reps):
    a = asarray(a)
    reps = (int(reps),) if isinstance(reps, (int, _np.integer)) else tuple(int(r) for r in reps)
    d = builtins.max(a.ndim, len(reps))
    reps = (1,) * (d - len(reps)) + reps
    if a.ndim < d:  # leading axes of extent 1, as views
        a = a[(None,) * (d - a.ndim)]
    out = a
    for ax in range(d):
        if reps[ax] != 1:
            out = concatenate([out] * reps[ax], axis=ax) if reps[ax] > 0 else \
                empty(out.shape[:ax] + (0,) + out.shape[ax + 1:], out._dtype)
    return out.copy() if out is a else out


def diag(v, k=0):
    v = asarray(v)
    if v.ndim != 1:
        raise NotImplementedError("maniple.numpy: diag of a 2-d array (extracting a diagonal) is not implemented yet")
    from ._creation import arange
    from ._functions import where
    n, s = v.size, builtins.abs(int(k))
    m = n + s
    vp = pad(v, (0, s))  # D[i, i+k] = v[i] (by row) or D[i+s, i] = v[i] (by column)
    r, c = arange(m)[:, None], arange(m)[None, :]
    if k >= 0:
        return where((c - r) == s, vp[:, None], 0).astype(v._dtype)
    return where((r - c) == s, vp[None, :], 0).astype(v._dtype)
