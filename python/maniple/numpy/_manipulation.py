"""Shape manipulation built on views and copies into views (no new C code):
concatenate, stack, hstack, vstack, split, flip, squeeze, expand_dims,
swapaxes, moveaxis-free transpose, roll, atleast_1d/2d."""
import builtins
import operator

import numpy as _np

from ._creation import _dt, asarray, empty
from ._dtypes import check_cast
from ._functions import _axes, _axis, _axis_tuple, _index
from . import _layout
from ._engine import _assign
from ._ndarray import ndarray, _flat, _reshaped


def _result_dtype(arrays):
    return str(_np.result_type(*[_np.dtype(a._dtype) for a in arrays]))


def _sequence(arrays, what):
    """NumPy's refusal of a generator or a single array where a sequence of
    arrays is asked for."""
    if not hasattr(arrays, "__len__"):
        raise TypeError(f"arrays to {what} must be passed as a \"sequence\" type such as list or tuple.")
    return arrays


def concatenate(arrays, axis=0, out=None, dtype=None, casting="same_kind"):
    """NumPy's concatenate: the result (or out) has dtype or the arrays'
    common type, each array cast into it under casting."""
    if out is not None and dtype is not None:
        raise TypeError("concatenate() only takes `out` or `dtype` as an argument, but both were provided.")
    imax = _np.iinfo(_np.intc).max
    if hasattr(arrays, "__len__") and len(arrays) > imax:  # NumPy's limit, before a walk of them all
        raise ValueError(f"concatenate() only supports up to {imax} arrays but got {len(arrays)}.")
    arrays = [asarray(a) for a in arrays]
    if not arrays:
        raise ValueError("need at least one array to concatenate")
    if axis is None:
        arrays = [_flat(a) for a in arrays]
        axis = 0
    nd = arrays[0].ndim
    if nd == 0:
        raise ValueError("zero-dimensional arrays cannot be concatenated")
    ax = _axis(axis, nd, "scan")
    for i, a in enumerate(arrays):
        if a.ndim != nd:
            raise ValueError("all the input arrays must have same number of dimensions, but the array at index 0 "
                             f"has {nd} dimension(s) and the array at index {i} has {a.ndim} dimension(s)")
        for d in range(nd):
            if d != ax and a.shape[d] != arrays[0].shape[d]:
                raise ValueError("all the input array dimensions except for the concatenation axis must match "
                                 f"exactly, but along dimension {d}, the array at index 0 has size "
                                 f"{arrays[0].shape[d]} and the array at index {i} has size {a.shape[d]}")
    shape = list(arrays[0].shape)
    shape[ax] = builtins.sum(a.shape[ax] for a in arrays)
    if out is not None:
        if tuple(out.shape) != tuple(shape):
            raise ValueError(f"Output array has wrong dimensionality: {out.shape} instead of {tuple(shape)}")
        target = _np.dtype(out.dtype)
    else:
        target = _np.dtype(_dt(dtype) if dtype is not None else _result_dtype(arrays))
    for a in arrays:
        check_cast(a._dtype, target, casting)
    if out is None:
        # laid out as the arrays when they all agree (F-ordered in, F-ordered out), as NumPy's
        ps = {_layout.axes(a, "K") for a in arrays}
        p = ps.pop() if len(ps) == 1 else None
        out = _layout.fresh(shape, p, lambda s: empty(s, target.name))
    start = 0
    for a in arrays:
        n = a.shape[ax]
        key = (slice(None),) * ax + (slice(start, start + n),)
        _assign(out._materialize().index(out._items(key)), a)
        start += n
    return out


def stack(arrays, axis=0, out=None, *, dtype=None, casting="same_kind"):
    arrays = [asarray(a) for a in _sequence(arrays, "stack")]
    if not arrays:
        raise ValueError("need at least one array to stack")
    shape = arrays[0].shape
    if any(a.shape != shape for a in arrays):
        raise ValueError("all input arrays must have the same shape")
    ax = _axis(axis, len(shape) + 1, "int")
    return concatenate([expand_dims(a, ax) for a in arrays], axis=ax, out=out, dtype=dtype, casting=casting)


def vstack(tup, *, dtype=None, casting="same_kind"):
    arrs = atleast_2d(*_sequence(tup, "stack"))
    arrs = [arrs] if not isinstance(arrs, tuple) else list(arrs)
    return concatenate(arrs, axis=0, dtype=dtype, casting=casting)


def hstack(tup, *, dtype=None, casting="same_kind"):
    arrs = [atleast_1d(a) for a in _sequence(tup, "stack")]
    return concatenate(arrs, axis=0 if arrs and arrs[0].ndim == 1 else 1, dtype=dtype, casting=casting)


def _each(fn, arys):
    res = [fn(asarray(a)) for a in arys]
    return res[0] if len(res) == 1 else tuple(res)


def atleast_1d(*arys):
    return _each(lambda a: a if a.ndim >= 1 else a[None], arys)  # views, as NumPy's


def atleast_2d(*arys):
    return _each(lambda a: a if a.ndim >= 2 else a[None, None] if a.ndim == 0 else a[None, :], arys)


def expand_dims(a, axis):
    a = asarray(a)
    axes = axis if type(axis) in (tuple, list) else (axis,)
    nd = a.ndim + len(axes)
    axes = _axis_tuple(axes, nd)
    return a[tuple(None if d in axes else slice(None) for d in range(nd))]


def squeeze(a, axis=None):
    a = asarray(a)
    if axis is None:
        axes = [d for d in range(a.ndim) if a.shape[d] == 1]
    else:
        axes = _axes(axis, a.ndim, "index")
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
    axes = range(a.ndim) if axis is None else _axis_tuple(axis, a.ndim)
    key = tuple(slice(None, None, -1) if d in axes else slice(None) for d in range(a.ndim))
    return a[key]


def fliplr(a):
    a = asarray(a)
    if a.ndim < 2:  # NumPy's message
        raise ValueError("Input must be >= 2-d.")
    return flip(a, 1)


def flipud(a):
    a = asarray(a)
    if a.ndim < 1:
        raise ValueError("Input must be >= 1-d.")
    return flip(a, 0)


def swapaxes(a, axis1, axis2):
    a = asarray(a)
    p = list(range(a.ndim))
    i, j = _axis(axis1, a.ndim, prefix="axis1"), _axis(axis2, a.ndim, prefix="axis2")
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
    try:
        len(indices_or_sections)
    except TypeError:
        n = a.shape[axis]  # (Python's errors for a bad axis, as NumPy's)
        if n % indices_or_sections:
            raise ValueError("array split does not result in an equal division") from None
    return array_split(a, indices_or_sections, axis)


def roll(a, shift, axis=None):
    a = asarray(a)
    if axis is None:
        return _reshaped(roll(_flat(a), shift, 0), a.shape)
    axes = _axis_tuple(axis, a.ndim, allow_duplicate=True)
    if len(axes) != 1 or _np.ndim(shift):
        # shifts and axes broadcast together; shifts along one axis add up
        pairs = _np.broadcast(_np.asarray(shift.__array__() if isinstance(shift, ndarray) else shift), axes)
        if pairs.ndim > 1:
            raise ValueError("'shift' and 'axis' should be scalars or 1D sequences")
        total = {}
        for sh, ax in pairs:
            total[int(ax)] = total.get(int(ax), 0) + int(sh)
        r = a
        for ax, sh in total.items():
            r = roll(r, sh, ax)
        return r.copy() if r is a else r
    ax = axes[0]
    n = a.shape[ax]
    if n == 0:
        return a.copy()
    s = int(shift) % n
    if s == 0:
        return a.copy()
    pre = (slice(None),) * ax
    return concatenate([a[pre + (slice(n - s, None),)], a[pre + (slice(0, n - s),)]], axis=ax)


def _ones_like_dtype(shape, dtype):
    from ._creation import ones
    return ones(shape, dtype)


def repeat(a, repeats, axis=None):
    """Each element k times: a broadcast product with ones (exact for every
    value: x * 1 is x, -0.0 and nan included), then a reshape."""
    a = asarray(a)
    if not isinstance(repeats, (int, float, _np.integer, _np.floating, _np.bool_)):
        r = _np.asarray(repeats.__array__() if isinstance(repeats, ndarray) else repeats)
        if r.ndim > 1:
            raise ValueError("setting an array element with a sequence. The requested array would exceed the "
                             "maximum number of dimension of 1.")
        repeats = r.item() if r.size == 1 else r.astype(_np.int64)  # NumPy casts counts unsafely
    if axis is None:
        a, ax = (ndarray(a._materialize().reshape((a.size,))) if a.ndim != 1 else a), 0
    else:
        ax = _axis(axis, a.ndim)
    if isinstance(repeats, _np.ndarray):  # one count per element along the axis
        n = a.shape[ax]
        if repeats.shape != (n,):
            raise ValueError(f"operands could not be broadcast together with shape ({n},) ({repeats.size},)")
        if (repeats < 0).any():
            raise ValueError("repeats may not contain negative values.")
        from ._creation import arange
        from ._select import take
        from ._sorting import cumsum, searchsorted
        ends = cumsum(asarray(repeats))
        total = int(repeats.sum())
        src = searchsorted(ends, arange(total), side="right")  # each output element's source
        return take(a, src, axis=ax)
    k = int(repeats)  # NumPy casts the counts to intp unsafely (2.5 repeats twice)
    if k < 0:
        raise ValueError("negative dimensions are not allowed")
    key = (slice(None),) * (ax + 1) + (None,)
    wide = a[key] * _ones_like_dtype((k,) + (1,) * (a.ndim - ax - 1), a._dtype)
    shape = list(a.shape)
    shape[ax] *= k
    # a new array anyway (as in NumPy), so no copy warning: reshape directly
    return ndarray(wide._materialize().reshape(tuple(shape))) if wide.size else empty(tuple(shape), a._dtype)


def tile(a, reps):
    a = asarray(a)
    try:
        reps = tuple(reps)
    except TypeError:
        reps = (reps,)
    d = builtins.max(a.ndim, len(reps))
    if builtins.all(x == 1 for x in reps):  # NumPy's copy, whatever the counts' type
        return (a[(None,) * (d - a.ndim)] if a.ndim < d else a).copy()
    reps = tuple(operator.index(r) for r in reps)
    if builtins.any(r < 0 for r in reps):
        raise ValueError("negative dimensions are not allowed")
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
    k = operator.index(k)
    n, s = v.size, builtins.abs(k)
    m = n + s
    from ._pad import pad
    vp = pad(v, (0, s))  # D[i, i+k] = v[i] (by row) or D[i+s, i] = v[i] (by column)
    r, c = arange(m)[:, None], arange(m)[None, :]
    if k >= 0:
        return where((c - r) == s, vp[:, None], 0).astype(v._dtype)
    return where((r - c) == s, vp[None, :], 0).astype(v._dtype)


# ---- more shape manipulation ----
def moveaxis(a, source, destination):
    a = asarray(a)
    src = _axis_tuple(source, a.ndim, "source")
    dst = _axis_tuple(destination, a.ndim, "destination")
    if len(src) != len(dst):
        raise ValueError("`source` and `destination` arguments must have the same number of elements")
    order = [n for n in range(a.ndim) if n not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return a.transpose(order) if order != list(range(a.ndim)) else a


def rollaxis(a, axis, start=0):
    a = asarray(a)
    n = a.ndim
    ax = _axis(axis, n, "int")
    if start < 0:
        start += n  # NumPy adds ndim (not ndim + 1)
    if not 0 <= start < n + 1:
        raise _np.exceptions.AxisError(f"'start' arg requires {-n} <= start < {n + 1}, but {start} was passed in")
    if ax < start:
        start -= 1
    if ax == start:
        return a[...]
    start = operator.index(start)  # (NumPy's TypeError for a float, from list.insert)
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
    shape = tuple(operator.index(s) for s in (shape if _np.iterable(shape) else (shape,)))
    if builtins.any(s < 0 for s in shape):
        raise ValueError("all elements of broadcast shape must be non-negative")
    try:
        _np.broadcast_shapes(a.shape, shape)
        if len(shape) < a.ndim:
            raise ValueError
    except ValueError:
        raise ValueError(f"operands could not be broadcast together with remapped shapes [original->remapped]: "
                         f"{a.shape} and requested shape {shape}") from None
    from ._ndarray import _view_of
    v = _view_of(a, a._materialize().broadcast_to(shape))
    v._ro = True  # as NumPy's: writing would change several elements at once
    return v


def broadcast_arrays(*args, subok=False):
    arrs = [asarray(a) for a in args]
    shape = _np.broadcast_shapes(*[a.shape for a in arrs])
    if builtins.all(a.shape == shape for a in arrs):  # nothing to broadcast: the arrays themselves, as NumPy
        return tuple(arrs)
    out = []
    for a in arrs:
        v = broadcast_to(a, shape)
        ro = getattr(a, "_ro", False)
        if not ro or ro == "warn":  # (a read-only input's view stays read-only, as broadcast_to made it)
            # not broadcast: an ordinary view; broadcast: NumPy 2 still lets it be written, with a DeprecationWarning
            v._ro = False if a.shape == shape else "warn"
        out.append(v)
    return tuple(out)


def array_split(ary, indices_or_sections, axis=0):
    """NumPy's: sections (a count, int() of it) or split points (Python
    slices between them, so negative points count from the end)."""
    a = asarray(ary)
    n = a.shape[axis]  # (Python's errors for a bad axis, as NumPy's)
    ax = _axis(axis, a.ndim)
    try:
        k = len(indices_or_sections) + 1
        bounds = [0] + list(indices_or_sections) + [n]
    except TypeError:
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError("number sections must be larger than 0.") from None
        q, r = divmod(n, k)
        bounds = [0]
        for size in [q + 1] * r + [q] * (k - r):
            bounds.append(bounds[-1] + size)
    pre = (slice(None),) * ax
    return [a[pre + (slice(bounds[i], bounds[i + 1]),)] for i in range(k)]


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
    arrs = [atleast_3d(a) for a in _sequence(tup, "stack")]
    return concatenate(arrs, axis=2)


def column_stack(tup):
    arrs = []
    for a in _sequence(tup, "stack"):
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


def _in_order_of(arr, r):
    """r laid out as arr when arr is F-ordered (NumPy's delete and insert
    make their result in its order)."""
    f = arr.flags
    return r.copy(order="F") if f.f_contiguous and not f.c_contiguous and r.ndim > 1 else r


def delete(arr, obj, axis=None):
    """NumPy 2's delete: an integer (or a size-1 integer array) deletes one
    slab, a boolean array of the axis' length the slabs where it is True,
    other index arrays their entries (NumPy checks them, on the small
    replicated index array)."""
    from ._select import compress
    arr = asarray(arr)
    if axis is None:
        arr, axis = _flat(arr), 0
    ax = _axis(axis, arr.ndim, "int")
    n = arr.shape[ax]
    if isinstance(obj, slice):
        keep = _np.ones(n, dtype=bool)
        keep[obj] = False
        return _in_order_of(arr, compress(keep, arr, axis=ax))
    single = isinstance(obj, (int, _np.integer)) and not isinstance(obj, bool)
    if not single:
        was_array = isinstance(obj, (_np.ndarray, ndarray))
        obj = _np.asarray(obj.__array__() if isinstance(obj, ndarray) else obj)
        if obj.size == 0 and not was_array:
            obj = obj.astype(_np.intp)
        elif obj.size == 1 and obj.dtype.kind in "ui":
            obj, single = obj.item(), True
    if single:
        if obj < -n or obj >= n:
            raise IndexError(f"index {obj} is out of bounds for axis {ax} with size {n}")
        obj = int(obj) % n
        pre = (slice(None),) * ax
        return _in_order_of(arr, concatenate([arr[pre + (slice(None, obj),)], arr[pre + (slice(obj + 1, None),)]],
                                             axis=ax))
    if obj.dtype == bool:
        if obj.shape != (n,):
            raise ValueError("boolean array argument obj to delete must be one dimensional and match the axis "
                             f"length of {n}")
        keep = ~obj
    else:
        keep = _np.ones(n, dtype=bool)
        keep[obj,] = False  # NumPy's IndexError for bad indices
    return compress(keep, arr, axis=ax)


def insert(arr, obj, values, axis=None):
    """NumPy 2's insert: a boolean obj gives the positions where it is True
    (not 0 and 1); one index (a scalar, or an array of size 1) inserts all
    of values' slabs there; several indices one value each, in order."""
    arr = asarray(arr)
    if axis is None:
        arr, axis = _flat(arr), 0
    ax = _axis(axis, arr.ndim, "int")
    n = arr.shape[ax]
    if isinstance(obj, slice):
        indices = _np.arange(*obj.indices(n), dtype=_np.intp)
    else:
        indices = _np.array(obj.__array__() if isinstance(obj, ndarray) else obj)
        if indices.dtype == bool:
            if obj.ndim != 1:  # (NumPy's own AttributeError for a list)
                raise ValueError("boolean array argument obj to insert must be one dimensional")
            indices = _np.flatnonzero(indices)
        elif indices.ndim > 1:
            raise ValueError("index array argument obj to insert must be one dimensional or scalar")
    pre = (slice(None),) * ax
    from ._engine import _check_values_into
    _check_values_into(values, arr._dtype)  # NumPy's OverflowError for a Python int arr cannot hold
    vals = asarray(values).astype(arr._dtype)
    if indices.size == 1:
        index = indices.item()
        if index < -n or index > n:
            raise IndexError(f"index {obj} is out of bounds for axis {ax} with size {n}")
        if index < 0:
            index += n
        if vals.ndim < arr.ndim:
            vals = vals[(None,) * (arr.ndim - vals.ndim)]
        if indices.ndim == 0:  # values' first axis becomes the inserted slabs
            vals = moveaxis(vals, 0, ax)
        shape = list(arr.shape)
        shape[ax] = vals.shape[ax]
        v = broadcast_to(vals, tuple(shape))
        return _in_order_of(arr, concatenate([arr[pre + (slice(None, index),)], v, arr[pre + (slice(index, None),)]],
                                             axis=ax))
    if indices.size == 0 and not isinstance(obj, (_np.ndarray, ndarray)):
        indices = indices.astype(_np.intp)
    indices[indices < 0] += n
    numnew = len(indices)
    order = indices.argsort(kind="mergesort")
    indices[order] += _np.arange(numnew)
    old = _np.ones(n + numnew, dtype=bool)
    old[indices] = False  # NumPy's IndexError for an index out of bounds
    shape = list(arr.shape)
    shape[ax] = numnew
    v = broadcast_to(vals, tuple(shape))
    if numnew > 16:  # two scatters into the result
        shape[ax] = n + numnew
        new = empty(tuple(shape), arr._dtype)
        new[pre + (indices,)] = v
        new[pre + (old,)] = arr
        return _in_order_of(arr, new)
    pieces, prev = [], 0
    for j, k in enumerate(order):  # the old slabs before each new one, then it
        p = int(indices[k]) - j
        pieces += [arr[pre + (slice(prev, p),)], v[pre + (slice(int(k), int(k) + 1),)]]
        prev = p
    pieces.append(arr[pre + (slice(prev, None),)])
    return _in_order_of(arr, concatenate(pieces, axis=ax))


def resize(a, new_shape):
    from ._select import _cycle
    a = asarray(a)
    shape = (new_shape,) if isinstance(new_shape, (int, _np.integer)) else new_shape
    n = 1
    for d in shape:  # NumPy's loop and its errors
        n *= d
        if d < 0:
            raise ValueError("all elements of `new_shape` must be non-negative")
    shape = tuple(operator.index(d) for d in shape)
    if a.size == 0 or n == 0:
        return empty(shape, a._dtype)
    flat = _cycle(a, n, a._dtype)
    return _reshaped(flat, shape)


def rot90(m, k=1, axes=(0, 1)):
    """NumPy's steps and checks."""
    axes = tuple(axes)
    if len(axes) != 2:
        raise ValueError("len(axes) must be 2.")
    m = asarray(m)
    if axes[0] == axes[1] or builtins.abs(axes[0] - axes[1]) == m.ndim:
        raise ValueError("Axes must be different.")
    if axes[0] >= m.ndim or axes[0] < -m.ndim or axes[1] >= m.ndim or axes[1] < -m.ndim:
        raise ValueError(f"Axes={axes} out of range for array of ndim={m.ndim}.")
    # k as the installed NumPy reads it (a float k: its k == 3 branch up to
    # 2.4, int(k) with a DeprecationWarning from 2.5): its turn of a 2 x 2
    probe = _np.arange(4).reshape(2, 2)
    turned = _np.rot90(probe, k)
    k = next(j for j in range(4) if _np.array_equal(turned, _np.rot90(probe, j)))
    if k == 0:
        return m[...]
    if k == 2:
        return flip(flip(m, axes[0]), axes[1])
    perm = _np.arange(0, m.ndim)  # (NumPy's IndexError for a float axis)
    perm[axes[0]], perm[axes[1]] = perm[axes[1]], perm[axes[0]]
    perm = [int(p) for p in perm]
    if k == 1:
        return flip(m, axes[1]).transpose(perm)
    return flip(m.transpose(perm), axes[1])


def trim_zeros(filt, trim="fb", axis=None):
    """NumPy's trim_zeros: one any-reduction per trimmed axis finds its first
    and last nonzero index (NumPy's argwhere bounds, without the index list)."""
    from ._indexing import nonzero
    a = asarray(filt)
    trim = trim.lower()
    if trim not in {"fb", "bf", "f", "b"}:
        raise ValueError(f"unexpected character(s) in `trim`: {trim!r}")
    axes = tuple(range(a.ndim)) if axis is None else _axis_tuple(axis, a.ndim, "axis")
    if not axes:
        return filt
    sl = [slice(None)] * a.ndim
    for ax in axes:
        others = tuple(i for i in range(a.ndim) if i != ax)
        (nz,) = nonzero(a.any(axis=others) if others else a)
        if nz.size == 0:  # all zero: every trimmed axis empties, as NumPy's
            sl = [slice(0, 0) if i in axes else slice(None) for i in range(a.ndim)]
            break
        sl[ax] = slice(int(nz[0]) if "f" in trim else None,
                       int(nz[-1]) + 1 if "b" in trim else None)
    if a.ndim == 1 and not isinstance(filt, ndarray):
        return filt[sl[0]]  # NumPy keeps a list or tuple a list or tuple
    return a[tuple(sl)]


def unstack(x, /, *, axis=0):
    x = asarray(x)
    if x.ndim == 0:
        raise ValueError("Input array must be at least 1-d.")
    ax, = _axis_tuple(axis, x.ndim, "source")  # as NumPy's moveaxis
    return tuple(x[(slice(None),) * ax + (i,)] for i in range(x.shape[ax]))


def diagflat(v, k=0):
    v = asarray(v)
    return diag(_flat(v), operator.index(k))
