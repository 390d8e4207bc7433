"""Shape manipulation built on views and copies into views (no new C code):
concatenate, stack, hstack, vstack, split, flip, squeeze, expand_dims,
swapaxes, moveaxis-free transpose, roll, pad (constant), atleast_1d/2d."""
import builtins

import numpy as _np

from ._creation import asarray, empty
from ._functions import _axis
from ._ndarray import ndarray, _assign, _flat, _reshaped


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
        arrays = [_flat(a) for a in arrays]
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


def _each(fn, arys):
    res = [fn(asarray(a)) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    return _each(lambda a: a if a.ndim >= 1 else a[None], arys)  # views, as NumPy's


def atleast_2d(*arys):
    return _each(lambda a: a if a.ndim >= 2 else a[None, None] if a.ndim == 0 else a[None, :], arys)


def expand_dims(a, axis):
    a = asarray(a)
    axes = tuple(axis) if isinstance(axis, (tuple, list)) else (axis,)
    nd = a.ndim + len(axes)
    axes = [_axis(x, nd) for x in axes]
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return a[tuple(None if d in axes else slice(None) for d in range(nd))]


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
    else:  # Python slices between the points, as NumPy (negative points count from the end)
        bounds = [0] + [int(i) for i in indices_or_sections] + [None]
    return [a[(slice(None),) * ax + (slice(bounds[i], bounds[i + 1]),)] for i in range(len(bounds) - 1)]


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return _reshaped(roll(_flat(a), shift, 0), a.shape)
    if isinstance(axis, (tuple, list)) or _np.ndim(shift):
        # shifts and axes broadcast together; shifts along one axis add up
        pairs = _np.broadcast(_np.asarray(shift), _np.asarray(axis))
        total = {}
        for sh, ax in pairs:
            ax = _axis(int(ax), a.ndim)
            total[ax] = total.get(ax, 0) + int(sh)
        r = a
        for ax, sh in total.items():
            r = roll(r, sh, ax)
        return r.copy() if r is a else r
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
    if v.ndim == 2:
        from ._products import diagonal
        return diagonal(v, k)
    if v.ndim != 1:
        raise ValueError("Input must be 1- or 2-d.")
    from ._creation import arange
    from ._functions import where
    n, s = v.size, builtins.abs(int(k))
    m = n + s
    vp = pad(v, (0, s))  # D[i, i+k] = v[i] (by row) or D[i+s, i] = v[i] (by column)
    r, c = arange(m)[:, None], arange(m)[None, :]
    if k >= 0:
        return where((c - r) == s, vp[:, None], 0).astype(v._dtype)
    return where((r - c) == s, vp[None, :], 0).astype(v._dtype)


# ---- more shape manipulation ----
def moveaxis(a, source, destination):
    a = asarray(a)
    src = [_axis(s, a.ndim) for s in (source if isinstance(source, (list, tuple)) else [source])]
    dst = [_axis(d, a.ndim) for d in (destination if isinstance(destination, (list, tuple)) else [destination])]
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order) if order != list(range(a.ndim)) else a


def rollaxis(a, axis, start=0):
    a = asarray(a)
    ax = _axis(axis, a.ndim)
    if not -a.ndim <= start <= a.ndim:
        raise _np.exceptions.AxisError(f"'start' arg requires {-a.ndim} <= start < {a.ndim + 1}, but {start} was "
                                       "passed in")
    start = int(start)
    start = start + a.ndim if start < 0 else start  # NumPy adds ndim (not ndim + 1)
    if ax < start:
        start -= 1
    if ax == start:
        return a
    order = [d for d in range(a.ndim) if d != ax]
    order.insert(start, ax)
    return a.transpose(order)


def atleast_3d(*arys):
    res = []
    for a in arys:
        a = asarray(a)
        if a.ndim == 0:
            a = a[None, None, None]
        elif a.ndim == 1:
            a = a[None, :, None]
        elif a.ndim == 2:
            a = a[:, :, None]
        res.append(a)
    return res[0] if len(res) == 1 else tuple(res)


def broadcast_shapes(*args):
    return _np.broadcast_shapes(*args)


def broadcast_to(array, shape, subok=False):
    a = asarray(array)
    shape = (int(shape),) if isinstance(shape, (int, _np.integer)) else tuple(int(s) for s in shape)
    try:
        _np.broadcast_shapes(a.shape, shape)
        if len(shape) < a.ndim:
            raise ValueError
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes [original->remapped]: "
                         f"{a.shape} and requested shape {shape}") from None
    v = ndarray(a._materialize().broadcast_to(shape))
    v._ro = True  # as NumPy's: writing would change several elements at once
    return v


def broadcast_arrays(*args, subok=False):
    arrs = [asarray(a) for a in args]
    shape = _np.broadcast_shapes(*[a.shape for a in arrs])
    out = tuple(broadcast_to(a, shape) for a in arrs)
    for v in out:  # NumPy 2 still lets these be written, with a DeprecationWarning
        v._ro = "warn"
    return out


def array_split(ary, indices_or_sections, axis=0):
    a = asarray(ary)
    ax = _axis(axis, a.ndim)
    n = a.shape[ax]
    if isinstance(indices_or_sections, (int, _np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        bounds = [0]
        for s in sizes:
            bounds.append(bounds[-1] + s)
        return [a[(slice(None),) * ax + (slice(bounds[i], bounds[i + 1]),)] for i in range(k)]
    return split(a, indices_or_sections, axis)


def hsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim == 0:
        raise ValueError("hsplit only works on arrays of 1 or more dimensions")
    return split(a, indices_or_sections, 1 if a.ndim > 1 else 0)


def vsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim < 2:
        raise ValueError("vsplit only works on arrays of 2 or more dimensions")
    return split(a, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    a = asarray(ary)
    if a.ndim < 3:
        raise ValueError("dsplit only works on arrays of 3 or more dimensions")
    return split(a, indices_or_sections, 2)


def dstack(tup):
    arrs = [atleast_3d(a) for a in tup]
    return concatenate(arrs, axis=2)


def column_stack(tup):
    arrs = []
    for a in tup:
        a = asarray(a)
        arrs.append(_reshaped(a, (1, 1)) if a.ndim == 0 else (a[:, None] if a.ndim == 1 else a))
    return concatenate(arrs, axis=1)


row_stack = vstack


def _block_depth(x, index=()):
    """The depth of x's lists, checked as NumPy: lists only, none empty,
    every element at the same depth."""
    where = "arrays" + "".join(f"[{i}]" for i in index)
    if type(x) is tuple:
        raise TypeError(f"{where} is a tuple. Only lists can be used to arrange blocks, and np.block does not allow "
                        "implicit conversion from tuple to ndarray.")
    if type(x) is not list:
        return len(index), where
    if not x:
        raise ValueError(f"List at {where} cannot be empty")
    first = None
    for i, e in enumerate(x):
        d, w = _block_depth(e, index + (i,))
        if first is None:
            first = d
        elif d != first:
            raise ValueError(f"List depths are mismatched. First element was at depth {first}, but there is an "
                             f"element at depth {d} ({w})")
    return first, where


def block(arrays):
    d = _block_depth(arrays)[0]

    def rec(x, lvl):
        if not isinstance(x, list):
            return asarray(x)
        parts = [rec(e, lvl + 1) for e in x]
        nd = builtins.max([p.ndim for p in parts] + [d])
        parts = [p[(None,) * (nd - p.ndim)] if p.ndim < nd else p for p in parts]
        return concatenate(parts, axis=-(d - lvl))
    r = rec(arrays, 0)
    return r.copy() if r is arrays else r


def append(arr, values, axis=None):
    arr = asarray(arr)
    values = asarray(values)
    if axis is None:
        return concatenate([_flat(arr), _flat(values)])
    return concatenate([arr, values], axis=axis)


def delete(arr, obj, axis=None):
    from ._select import compress
    from ._creation import ones
    arr = asarray(arr)
    if axis is None:
        arr, axis = _flat(arr), 0
    ax = _axis(axis, arr.ndim)
    n = arr.shape[ax]
    keep = _np.ones(n, dtype=bool)
    idx = obj if isinstance(obj, slice) else _np.asarray(obj.__array__() if isinstance(obj, ndarray) else obj)
    if not isinstance(idx, slice) and idx.size == 0 and idx.dtype.kind == "f":
        idx = idx.astype(_np.int64)  # [] deletes nothing
    if not isinstance(idx, slice) and idx.dtype.kind not in "biu":
        raise IndexError("arrays used as indices must be of integer (or boolean) type")
    if not isinstance(idx, slice) and idx.dtype == bool:
        if idx.shape != (n,):
            raise ValueError(f"boolean array argument obj to delete must be one dimensional and match the axis "
                             f"length of {n}")
        keep = ~idx
    else:
        if not isinstance(idx, slice) and idx.size and (idx.max() >= n or idx.min() < -n):
            bad = int(idx.max()) if idx.max() >= n else int(idx.min())
            raise IndexError(f"index {bad} is out of bounds for axis {ax} with size {n}")
        keep[idx] = False
    return compress(keep, arr, axis=ax)


def insert(arr, obj, values, axis=None):
    arr = asarray(arr)
    if axis is None:
        arr, axis = _flat(arr), 0
    ax = _axis(axis, arr.ndim)
    n = arr.shape[ax]
    if isinstance(obj, slice):
        obj = _np.arange(*obj.indices(n))
    if isinstance(obj, ndarray):
        obj = obj.__array__()
    scalar = _np.ndim(obj) == 0
    pos = _np.atleast_1d(_np.asarray(obj, dtype=_np.int64))
    if pos.size and (pos.max() > n or pos.min() < -n):
        bad = int(pos.max()) if pos.max() > n else int(pos.min())
        raise IndexError(f"index {bad} is out of bounds for axis {ax} with size {n}")
    pos = _np.where(pos < 0, pos + n, pos)
    vals = asarray(values).astype(arr._dtype)
    if vals.ndim < arr.ndim:
        vals = vals[(None,) * (arr.ndim - vals.ndim)]
    pre = (slice(None),) * ax
    vshape = list(arr.shape)
    if scalar:  # values' first axis becomes the inserted slabs
        vals = moveaxis(vals, 0, ax)
        vshape[ax] = vals.shape[ax]
        v = broadcast_to(vals, tuple(vshape))
        p = int(pos[0])
        return concatenate([arr[pre + (slice(0, p),)], v, arr[pre + (slice(p, None),)]], axis=ax)
    order = _np.argsort(pos, kind="stable")
    vshape[ax] = pos.size
    v = broadcast_to(vals, tuple(vshape))
    pieces, prev = [], 0
    for i in order:  # value i goes before element pos[i], in stable order
        p = int(pos[i])
        pieces.append(arr[pre + (slice(prev, p),)])
        pieces.append(v[pre + (slice(int(i), int(i) + 1),)])
        prev = p
    pieces.append(arr[pre + (slice(prev, None),)])
    return concatenate(pieces, axis=ax)


def resize(a, new_shape):
    from ._select import _cycle
    a = asarray(a)
    shape = (int(new_shape),) if isinstance(new_shape, (int, _np.integer)) else tuple(int(s) for s in new_shape)
    n = int(_np.prod(shape))
    if a.size == 0 or n == 0:
        return empty(shape, a._dtype)
    flat = _cycle(a, n, a._dtype)
    return _reshaped(flat, shape)


def rot90(m, k=1, axes=(0, 1)):
    m = asarray(m)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    a0, a1 = _axis(axes[0], m.ndim), _axis(axes[1], m.ndim)
    if a0 == a1:
        raise ValueError("Axes must be different.")
    k %= 4
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, a0), a1)
    perm = list(range(m.ndim))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return flip(m, a1).transpose(perm)
    return flip(m.transpose(perm), a1)


def trim_zeros(filt, trim="fb", axis=None):
    from ._indexing import nonzero
    a = asarray(filt)
    if set(trim.lower()) - {"f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    if a.ndim != 1:
        raise NotImplementedError("maniple.numpy: trim_zeros of 1-d arrays only")
    (nz,) = nonzero(a)
    if nz.size == 0:
        return a[:0]
    lo = int(nz[0]) if "f" in trim.lower() else 0
    hi = int(nz[-1]) + 1 if "b" in trim.lower() else a.size
    return a[lo:hi]


def unstack(x, /, *, axis=0):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    ax = _axis(axis, x.ndim)
    return tuple(x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax]))


def diagflat(v, k=0):
    v = asarray(v)
    return diag(_flat(v), k)
