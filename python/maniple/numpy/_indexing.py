"""Advanced indexing: integer-array and boolean-mask keys, as NumPy defines
them. Basic parts of the key (slices, newaxis) are applied first as a view;
the advanced parts then become one flat index per result element, computed
as a fused expression, and the elements move with one all-to-all
(_core.take / _core.put). x[mask] with a mask of x's shape compresses
directly, and x[mask] = scalar is a fused where(), with no communication."""
import builtins

import numpy as _np

from maniple import _core

from ._dtypes import INTEGER as _INTEGER, INTS as _INTS
from ._engine import _assign, _check_values_into, _compile, _flush, _wrote
from ._ndarray import _np_shape, ndarray


def _is_advanced(k):
    if isinstance(k, ndarray):
        return k.ndim > 0 or k._dtype == "bool"
    if isinstance(k, (list, _np.ndarray)):
        return True
    return isinstance(k, (bool, _np.bool_))


def is_advanced_key(key):
    if isinstance(key, tuple):
        return builtins.any(_is_advanced(k) for k in key)
    return _is_advanced(key)


def _as_index(k):
    """An integer or boolean maniple array from an index item."""
    from ._creation import asarray
    if isinstance(k, ndarray):
        a = k
    else:
        y = _np.asarray(k)
        if y.size == 0 and y.dtype.kind == "f":  # [] indexes nothing
            y = y.astype(_np.int64)
        if y.dtype.kind in "iu" and y.dtype.name not in ("int32", "int64"):
            # other NumPy integer indices (uint8, int16, uint64, ...) as int64: exact, but
            # a uint64 past int64's range is out of bounds of any array
            if y.dtype == _np.uint64 and y.size and int(y.max()) > _np.iinfo(_np.int64).max:
                raise IndexError(f"index {int(y.max())} is out of bounds (larger than any array)")
            y = y.astype(_np.int64)
        if y.dtype.kind not in "biu":
            raise IndexError(f"arrays used as indices must be of integer (or boolean) type, not {y.dtype}")
        a = asarray(y)
    if a._dtype not in _INTEGER:
        raise IndexError(f"arrays used as indices must be of integer (or boolean) type, not {a._dtype}")
    return a


def _expand(x, key):
    """Key items with Ellipsis expanded and booleans turned into the integer
    arrays of their true positions (numpy.nonzero), one per axis they span."""
    if not isinstance(key, tuple):
        key = (key,)
    if builtins.sum(1 for k in key if k is Ellipsis) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    items = []
    for k in key:
        if k is None or k is Ellipsis or isinstance(k, slice):
            items.append(k)
        elif isinstance(k, (bool, _np.bool_)) or (isinstance(k, ndarray) and k.ndim == 0 and k._dtype == "bool"):
            # a 0-d boolean index: a new axis of extent 1 (True) or 0 (False)
            items.append(("bool0", bool(k)))
        elif isinstance(k, (int, _np.integer)) or (isinstance(k, ndarray) and k.ndim == 0 and k._dtype != "bool"):
            items.append(("int", int(k)))
        else:
            a = _as_index(k)
            items.append(("bool", a) if a._dtype == "bool" else ("arr", a))
    span = builtins.sum(1 if (isinstance(k, tuple) and k[0] not in ("bool", "bool0")) or isinstance(k, slice)
                        else (k[1].ndim if isinstance(k, tuple) and k[0] == "bool" else 0) for k in items)
    if span > x.ndim:
        raise IndexError(f"too many indices for array: array is {x.ndim}-dimensional, but {span} were indexed")
    out, axis = [], 0
    for k in items:
        if k is Ellipsis:
            for _ in range(x.ndim - span):
                out.append(slice(None))
                axis += 1
            if x.ndim == span:  # no axes, yet it parts advanced indices on either side, as in NumPy
                out.append(("gap",))
        elif isinstance(k, slice):
            out.append(k)
            axis += 1
        elif k is None or k[0] == "bool0":
            out.append(k)
        elif k[0] == "bool":
            m = k[1]
            want = x.shape[axis:axis + m.ndim]
            for d in range(m.ndim):
                if m.shape[d] != want[d]:
                    raise IndexError(f"boolean index did not match indexed array along axis {axis + d}; size of "
                                     f"axis is {want[d]} but size of corresponding boolean axis is {m.shape[d]}")
            out.extend(("arr", p) for p in nonzero(m))
            axis += m.ndim
        else:
            out.append(k)
            axis += 1
    while axis < x.ndim:  # trailing axes taken whole
        out.append(slice(None))
        axis += 1
    return out


def _check_bounds(a, n, axis):
    """NumPy's IndexError for an index of a outside [-n, n) on axis; -1 when
    some index is negative, else 0. One fused reduction: the largest of
    (negative) + 2 (out of bounds) over the indices."""
    if a._expr is not None:  # computed once (and kept: rng.integers' result, say), not per read below
        a._materialize()
    if not a.size:
        return 0
    code = int(((a < 0).astype("int8") + 2 * ((a >= n) | (a < -n)).astype("int8")).max())
    if code >= 2:  # (the error's own path: the offending index for the message)
        lo, hi = int(a.min()), int(a.max())
        raise IndexError(f"index {hi if hi >= n else lo} is out of bounds for axis {axis} with size {n}")
    return -code


def _flat_index(v, adv, orig_axes, parted=False):
    """Per result element, the flat index into view v: (result shape, node).
    parted: the advanced indices are not adjacent in the key (their axes
    then lead the result, as NumPy puts them)."""
    from ._creation import arange
    from ._functions import where
    arrs = [a for _, a in adv]
    try:
        bshape = _np.broadcast_shapes(*[a.shape for a in arrs])
    except ValueError as e:
        if "too large" in str(e):  # they broadcast, to more elements than an index holds: NumPy's ValueError
            raise ValueError("iterator is too large: the indexing arrays broadcast to more than 2**63 "
                             "elements") from None
        shapes = " ".join(_np_shape(a.shape) for a in arrs)
        raise IndexError(f"shape mismatch: indexing arrays could not be broadcast together with shapes {shapes}") \
            from None
    axes = [ax for ax, _ in adv]
    consecutive = not parted and axes == list(range(axes[0], axes[0] + len(axes)))
    rest = [d for d in range(v.ndim) if d not in axes]
    if consecutive:
        lead = [d for d in rest if d < axes[0]]
        trail = [d for d in rest if d > axes[0]]
    else:
        lead, trail = [], rest
    shape = tuple(v.shape[d] for d in lead) + tuple(bshape) + tuple(v.shape[d] for d in trail)
    nd, nb = len(shape), len(bshape)
    strides, s = [0] * v.ndim, 1
    for d in range(v.ndim - 1, -1, -1):
        strides[d] = s
        s *= v.shape[d]
    flat = None
    # one index array into a 1-d array's axis 0: the flat indices themselves,
    # which take and put check (negative ones counted from the end) in C,
    # with NumPy's message: no reduction here
    alone = len(adv) == 1 and v.ndim == 1 and orig_axes[0] == 0
    for ax, a in adv:
        n = v.shape[ax]
        lo = 0 if alone else _check_bounds(a, n, orig_axes[ax])
        a = a.astype("int64", copy=False)
        if lo < 0:
            a = where(a < 0, a + n, a)
        key = (None,) * len(lead) + (None,) * (nb - a.ndim) + (slice(None),) * a.ndim + (None,) * len(trail)
        term = a if len(key) == a.ndim else a[key]  # (v[idx] on 1-d v: the indices themselves)
        term = term * strides[ax] if strides[ax] != 1 else term
        flat = term if flat is None else flat + term
    for pos, d in enumerate(lead + trail):
        at = pos if pos < len(lead) else pos + nb
        key = tuple(slice(None) if i == at else None for i in range(nd))
        flat = flat + arange(v.shape[d])[key] * strides[d]
    return shape, flat


def _split(x, key):
    """(view of x after the basic part, advanced [(view axis, int array)],
    original axis of each view axis)."""
    items = _expand(x, key)
    basic, adv, orig, axis, vaxis = [], [], [], 0, 0
    parted = gap = False  # an Ellipsis of no axes between advanced indices
    for k in items:
        if isinstance(k, tuple) and k[0] == "gap":
            gap = bool(adv)
            continue
        if isinstance(k, tuple) and k[0] != "bool0" and adv and gap:
            parted = True
        if k is None:
            basic.append(None)
            orig.append(None)
            vaxis += 1
        elif isinstance(k, slice):
            basic.append(k)
            orig.append(axis)
            axis += 1
            vaxis += 1
        elif k[0] == "bool0":
            from ._creation import asarray
            basic.append(None)
            adv.append((vaxis, asarray(_np.zeros(1 if k[1] else 0, _np.int64))))
            orig.append(None)
            vaxis += 1
        else:
            a = k[1]
            if k[0] == "int":
                from ._creation import asarray
                n = x.shape[axis]
                if not -n <= k[1] < n:
                    raise IndexError(f"index {k[1]} is out of bounds for axis {axis} with size {n}")
                a = asarray(_np.int64(k[1] % n))
            basic.append(slice(None))
            adv.append((vaxis, a))
            orig.append(axis)
            axis += 1
            vaxis += 1
    v = x[tuple(basic)] if basic else x
    return v, adv, orig, parted


def _index_array(shape, flat):
    """The flat indices as a concrete int64 array of the result's shape."""
    from ._creation import empty
    if flat._expr is None and flat._dtype == "int64" and flat._shape == tuple(shape) and not flat._arr.is_view:
        return flat._arr  # (read only: take and put do not write their indices)
    idx = empty(shape, "int64")
    _assign(idx._arr, flat)
    return idx._arr


def _int_key_1d(x, key):
    """x[idx] with x 1-d and idx a maniple integer array: take checks the
    indices (negative ones counted from the end) in C, with NumPy's
    message, so no index arithmetic is built here (a loop's a[idx])."""
    return len(x._shape) == 1 and isinstance(key, ndarray) and key._dtype in _INTS and len(key._shape) > 0


def getitem(x, key):
    from ._creation import _unset
    if _int_key_1d(x, key):
        out = _unset(key._shape, x._dtype)
        if out.size:
            _core.take(x._materialize(), key._materialize(), out._arr)
        return out
    if isinstance(key, ndarray) and key._dtype == "bool" and key.shape == x.shape and x.ndim > 0:
        return ndarray(_core.compress(x._materialize(), key._materialize()))
    v, adv, orig, parted = _split(x, key)
    if len(adv) == 1 and adv[0][0] == 0 and adv[0][1].ndim == 1 and v.ndim >= 2:  # M[idx]: whole rows
        a = adv[0][1]
        out = _unset((a.shape[0],) + tuple(v.shape[1:]), x._dtype)
        if not out.size or orig[0] != 0:  # (else take_rows checks, with NumPy's message for axis 0)
            _check_bounds(a, v.shape[0], orig[0])
        if out.size:
            _core.take_rows(v._materialize(), a.astype("int64", copy=False)._materialize(), out._arr)
        return out
    shape, flat = _flat_index(v, adv, orig, parted)
    out = _unset(shape, x._dtype)
    if out.size:
        _core.take(v._materialize(), _index_array(shape, flat), out._arr)
    return out


def setitem(x, key, value):
    from ._creation import asarray
    from ._functions import where
    scalar = isinstance(value, (bool, int, float, complex, _np.generic))
    if scalar and _int_key_1d(x, key):
        if key.size:  # one value at integer positions of a 1-d array: the indices themselves
            _put(x, key._materialize(), key._shape, value)
        return
    if scalar and isinstance(key, ndarray) and key._dtype == "bool" and key.shape == x.shape:
        # element-wise, fused, no communication
        _check_values_into(value, x._dtype)
        target = x._materialize()
        _assign(target, where(key, value, x).astype(x._dtype))
        return
    v, adv, orig, parted = _split(x, key)
    shape, flat = _flat_index(v, adv, orig, parted)
    _check_values_into(value, x._dtype)
    vals = asarray(value)
    _full_mask_values(x, key, vals)
    vals = _fit_value(vals, shape)
    if not builtins.all(s > 0 for s in shape):
        return
    _put(v, _index_array(shape, flat), shape, value, None if scalar else vals)


def _put(v, idx, shape, value, vals=None):
    """v's elements at flat indices idx (a concrete int array of shape) =
    value, one scalar (a fill; NumPy's checks first), or else vals."""
    from ._creation import _unset
    full = _unset(shape, v._dtype)  # (every element written next)
    if vals is None:
        from ._engine import _check_scalar_into
        _check_scalar_into(value, v._dtype)
        full._arr.fill(value)
    else:
        _assign(full._arr, vals)
    target = v._materialize()
    _flush(target.base)
    _core.put(target, idx, full._arr)
    _wrote(target.base)


def _full_mask_values(x, key, vals):
    """NumPy's TypeError for values of more than one axis under a boolean
    mask of x's own rank (a[a > 0] = v: the values fill the selection in
    order, so v must be 0-d or 1-d, whatever its shape)."""
    k = key[0] if type(key) is tuple and len(key) == 1 else key
    if vals.ndim > 1 and isinstance(k, (ndarray, _np.ndarray)) and k.dtype == _np.bool_ and k.ndim == x.ndim >= 1:
        raise TypeError("NumPy boolean array indexing assignment requires a 0 or 1-dimensional input, input has "
                        f"{vals.ndim} dimensions")


def _fit_value(vals, shape):
    """vals checked to broadcast to shape (leading axes of extent 1 dropped,
    as NumPy's assignment does), on every rank alike."""
    try:
        b = _np.broadcast_shapes(vals.shape, shape)
    except ValueError:
        b = None
    extra = len(b) - len(shape) if b is not None else 0
    if b is None or b[extra:] != shape or builtins.any(d != 1 for d in b[:extra]):
        raise ValueError(f"shape mismatch: value array of shape {_np_shape(vals.shape)} could not be "
                         f"broadcast to indexing result of shape {_np_shape(shape)}")
    if vals.ndim > len(shape):
        from ._ndarray import _reshaped
        vals = _reshaped(vals, vals.shape[vals.ndim - len(shape):])
    return vals


def nonzero(a):
    """Indices of the non-zero elements, one int64 array per axis, in C order."""
    from ._creation import asarray, empty
    a = asarray(a)
    if a.ndim == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar).nonzero() "
                         "instead.")
    mask = (a != 0) if a._dtype != "bool" else a
    pos = empty(a.shape, "int64")
    pos._arr.arange(0.0, 1.0)  # each element's flat index
    flat = ndarray(_core.compress(pos._arr, mask._materialize()))
    if a.ndim == 1:
        return (flat,)
    out, s = [], 1
    strides = [0] * a.ndim
    for d in range(a.ndim - 1, -1, -1):
        strides[d] = s
        s *= a.shape[d]
    for d in range(a.ndim):
        out.append(((flat // strides[d]) % a.shape[d]).copy())
    return tuple(out)
