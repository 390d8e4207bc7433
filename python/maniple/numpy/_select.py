"""Selection by position or condition: nonzero and friends, take/put,
compress/extract/place/putmask, take/put_along_axis, select/choose, and
triangles and index helpers. Everything is built on advanced indexing
(_indexing), fused element-wise expressions and the C take/put/compress."""
import builtins

import numpy as _np

from maniple import _core

from ._creation import arange, asarray, empty, zeros, _shape as _shape_of
from ._functions import _axis, where as _where3
from ._indexing import nonzero
from ._dtypes import INTEGER as _INTEGER, INTS as _INTS, check_cast
from ._engine import _assign, _check_values_into, _flush, _wrote
from ._ndarray import ndarray, _flat, _reshaped
from ._views import _cstrides
from ._root import into_numpy as _into_numpy


def _index_of(indices, unsafe=False, rule="safe"):
    """indices as an integer (or bool) maniple array. unsafe: take's and
    put's conversion (Python floats truncated, NaN NumPy's ValueError; a
    float array is refused)."""
    if not isinstance(indices, ndarray):
        y = _np.asarray(indices)
        if y.size == 0 and y.dtype.kind == "f":
            indices = _np.zeros(y.shape, _np.int64)  # [] indexes nothing
        elif unsafe and y.dtype.kind == "f" and not isinstance(indices, _np.ndarray):
            # NumPy converts Python numbers to intp one by one (int() of each)
            if _np.isnan(y).any():
                raise ValueError("cannot convert float NaN to integer")
            indices = y.astype(_np.int64)
        elif y.dtype.kind in "iu" and y.dtype.name not in ("int32", "int64"):
            from ._indexing import _as_index
            return _as_index(y)  # other NumPy integer dtypes as int64
    a = asarray(indices)
    if a._dtype not in _INTEGER:
        raise TypeError(f"Cannot cast array data from dtype('{a._dtype}') to dtype('int64') according to the "
                        f"rule '{rule}'")
    return a


def _is_scalar(x):
    """A Python or NumPy scalar, or a 0-d array: NumPy then returns scalars."""
    return x.ndim == 0 if isinstance(x, ndarray) else _np.ndim(x) == 0


def _flat_indices(ind, n, mode, unsafe=False, rule="safe"):
    """Flat indices as int64 after mode 'raise' (checked), 'wrap' or 'clip'."""
    ind = _index_of(ind, unsafe, rule).astype("int64")
    if mode == "wrap":
        return ind % n if n else ind
    if mode == "clip":
        return ind.clip(0, builtins.max(n - 1, 0)) if hasattr(ind, "clip") else _where3(ind < 0, 0, ind)
    if mode != "raise":
        raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got '{mode}')")
    if ind.size:
        lo, hi = int(ind.min()), int(ind.max())
        if lo < -n or hi >= n:
            bad = hi if hi >= n else lo
            raise IndexError(f"index {bad} is out of bounds for axis 0 with size {n}")
        if lo < 0:
            ind = _where3(ind < 0, ind + n, ind)
    return ind


def take(a, indices, axis=None, out=None, mode="raise"):
    a = asarray(a)
    scalar = _is_scalar(indices)
    if axis is None or a.ndim == 0:  # (NumPy takes from a 0-d array as from its one element along axis 0 or -1)
        if axis is not None:
            _axis(axis, 1)
        flat = _flat(a)
        idx = _flat_indices(indices, a.size, mode, True, "same_kind")
        r = empty(idx.shape, a._dtype)
        if r.size:
            ia = empty(idx.shape, "int64")
            _assign(ia._arr, idx)
            _core.take(flat._materialize(), ia._arr, r._arr)
    else:
        ax = _axis(axis, a.ndim)
        idx = _flat_indices(indices, a.shape[ax], mode, True, "same_kind")
        r = a[(slice(None),) * ax + (idx,)]
    if scalar and isinstance(r, ndarray) and r.ndim == 0:
        r = r[()]
    if out is not None:
        check_cast(out.dtype, a.dtype, "safe")  # NumPy's check (out read as a's dtype), then any cast
        _assign(out._materialize(), r)
        return out
    return r


@_into_numpy("put")
def put(a, ind, v, mode="raise"):
    """a.flat[ind] = v, with v repeated as needed (in place)."""
    from ._ndarray import _check_writable
    if isinstance(a, ndarray):
        _check_writable(a)
    if not isinstance(a, ndarray):
        raise TypeError("put: first argument must be a maniple array")
    idx = _flat(_flat_indices(ind, a.size, mode, True))
    if idx.size == 0 or asarray(v).size == 0:  # nothing to put (NumPy ignores empty values)
        return
    vals = _cycle(v, idx.size, a._dtype)
    flat_view = a._materialize()
    ia = empty(idx.shape, "int64")
    _assign(ia._arr, idx)
    base = flat_view if a.ndim == 1 else None
    if base is None:  # put into an N-d array through its flat order
        r = _flat(a)
        _core.put(r._materialize(), ia._arr, vals._materialize())
        _flush(flat_view.base)
        _assign(flat_view, _reshaped(r, a.shape))
        return
    _flush(flat_view.base)
    _core.put(flat_view, ia._arr, vals._materialize())
    _wrote(flat_view.base)


def _cycle(v, n, dtype):
    """v (scalar or array) repeated cyclically to n elements of dtype."""
    _check_values_into(v, dtype)  # NumPy's errors for a Python int dtype cannot hold
    v = asarray(v).astype(dtype)
    if v.ndim != 1:
        v = _flat(v) if v.ndim else _reshaped(v, (1,))
    if v.size == n:
        return v
    if v.size == 0:
        if n:
            raise ValueError("cannot put a non-empty array of values from an empty sequence")
        return v
    if n <= v.size:
        return v[:n].copy()
    # element k is v[k % len(v)]: one take, however many repeats
    r = empty((n,), dtype)
    ia = empty((n,), "int64")
    _assign(ia._arr, arange(n) % v.size)
    _core.take(v._materialize(), ia._arr, r._arr)
    return r


def compress(condition, a, axis=None, out=None):
    a = asarray(a)
    cond = asarray(condition)
    if cond.ndim != 1:
        raise ValueError("condition must be a 1-d array")
    if axis is None:
        a, ax = _flat(a), 0
    else:
        ax = _axis(axis, a.ndim)
    n = a.shape[ax]
    if cond.size > n:  # entries past the end may only be False (NumPy's IndexError for the first True)
        (past,) = nonzero(cond[n:] != 0 if cond._dtype != "bool" else cond[n:])
        if past.size:
            raise IndexError(f"index {int(past[0]) + n} is out of bounds for axis {ax} with size {n}")
        cond = cond[:n]
    pre = (slice(None),) * ax
    sub = a[pre + (slice(0, cond.size),)]
    (pos,) = nonzero(cond != 0 if cond._dtype != "bool" else cond)
    r = sub[pre + (pos,)]
    if out is not None:
        _assign(out._materialize(), r)
        return out
    return r


def extract(condition, arr):
    arr = asarray(arr)
    cond = asarray(condition)
    flat = _flat(arr)
    m = _flat(cond)
    m = m != 0 if m._dtype != "bool" else m
    if m.size > flat.size:  # true positions past the end of arr are out of bounds
        (past,) = nonzero(m[flat.size:])
        if past.size:
            raise IndexError(f"index {int(past[0]) + flat.size} is out of bounds for axis 0 with size {flat.size}")
        m = m[:flat.size]
    if m.size != flat.size:  # a shorter condition selects among the first len(condition)
        return compress(m, flat)
    return ndarray(_core.compress(flat._materialize(), m._materialize()))


def flatnonzero(a):
    a = asarray(a)
    return nonzero(_flat(a))[0]


def argwhere(a):
    from ._manipulation import stack
    a = asarray(a)
    if a.ndim == 0:
        return zeros((1 if bool(a) else 0, 0), "int64")
    return stack(nonzero(a), axis=1)


def _same_size_mask(a, mask, name):
    """mask as bool of a's shape: NumPy needs only the same size."""
    if not isinstance(a, ndarray):
        raise TypeError(f"{name}: first argument must be an array")
    m = asarray(mask)
    if m.size != a.size:
        raise ValueError(f"{name}: mask and data must be the same size")
    m = m != 0 if m._dtype != "bool" else m
    return _reshaped(_flat(m), a.shape) if m.shape != a.shape else m


@_into_numpy("place")
def place(arr, mask, vals):
    """arr[mask] = vals, vals repeated as needed (in place)."""
    from ._ndarray import _check_writable
    if isinstance(arr, ndarray):
        _check_writable(arr)
    m = _same_size_mask(arr, mask, "place")
    n = int(m.sum())
    if n == 0:
        return
    _check_values_into(vals, arr._dtype)
    vals = asarray(vals)
    if vals.size == 0:
        raise ValueError("Cannot insert from an empty array!")
    arr[m] = _cycle(vals, n, arr._dtype)


@_into_numpy("putmask")
def putmask(a, mask, values):
    """a.flat[k] = values.flat[k % len(values)] where mask.flat[k] (in place)."""
    from ._ndarray import _check_writable
    if isinstance(a, ndarray):
        _check_writable(a)
    m = _same_size_mask(a, mask, "putmask")
    if isinstance(values, (_np.ndarray, ndarray)) and not _np.can_cast(values.dtype, a._dtype, "safe"):
        # an array's values go in by the 'safe' rule, as NumPy's (a list's and a scalar's are cast)
        what = "scalar" if values.ndim == 0 else "array data"
        raise TypeError(f"Cannot cast {what} from dtype('{values.dtype}') to dtype('{a._dtype}') according to the "
                        f"rule 'safe'")
    if asarray(values).size == 0:  # NumPy ignores empty values
        return
    if isinstance(values, (bool, int, float, complex, _np.generic)):
        _check_values_into(values, a._dtype)
        _assign(a._materialize(), _where3(m, values, a).astype(a._dtype))
        return
    v = _reshaped(_cycle(values, a.size, a._dtype), a.shape)
    _assign(a._materialize(), _where3(m, v, a).astype(a._dtype))


def _along_axis_key(arr, indices, axis):
    idx = asarray(indices)
    if idx._dtype not in _INTS:
        raise IndexError("`indices` must be an integer array")
    if axis is None:
        return None, idx
    ax = _axis(axis, arr.ndim, "int")
    if idx.ndim != arr.ndim:
        raise ValueError("`indices` and `arr` must have the same number of dimensions")
    key = []
    for d in range(arr.ndim):
        if d == ax:
            key.append(idx)
        else:
            shape = [1] * arr.ndim
            shape[d] = arr.shape[d]
            key.append(arange(arr.shape[d])[tuple(slice(None) if i == d else None for i in range(arr.ndim))])
    return tuple(key), idx


def _along_flat(indices):
    """NumPy 2's rule for axis=None: the indices of the flattened array,
    in one dimension."""
    if _np.ndim(indices) != 1:
        raise ValueError("when axis=None, `indices` must have a single dimension.")


def take_along_axis(arr, indices, axis=-1):
    arr = asarray(arr)
    if axis is None:
        _along_flat(indices)
        arr, axis = arr.ravel(), 0
    key, _ = _along_axis_key(arr, indices, axis)
    return arr[key]


@_into_numpy("put_along_axis")
def put_along_axis(arr, indices, values, axis):
    from ._ndarray import _check_writable
    if isinstance(arr, ndarray):
        _check_writable(arr)
    if axis is None:
        _along_flat(indices)
        _along_axis_key(asarray(arr).ravel(), indices, 0)  # (NumPy's index checks)
        return put(arr, indices, values)
    key, _ = _along_axis_key(arr, indices, axis)
    arr[key] = values


def select(condlist, choicelist, default=0):
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    if not condlist:
        raise ValueError("select with an empty condition list is not possible")
    conds = [asarray(c) for c in condlist]
    for i, c in enumerate(conds):
        if c._dtype != "bool":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    r = default
    for c, v in zip(reversed(conds), reversed(list(choicelist))):
        r = _where3(c, v, r)
    return r.copy() if isinstance(r, ndarray) and r._expr is not None else asarray(r)


def choose(a, choices, out=None, mode="raise"):
    a = _index_of(a).astype("int64")
    n = len(choices)
    if mode == "wrap":
        a = a % n
    elif mode == "clip":
        a = a.clip(0, n - 1)
    elif a.size:
        lo, hi = int(a.min()), int(a.max())
        if lo < 0 or hi >= n:
            raise ValueError("invalid entry in choice array")
    r = choices[n - 1]
    for i in range(n - 2, -1, -1):
        r = _where3(a == i, choices[i], r)
    r = asarray(r) if not isinstance(r, ndarray) else r
    if r.shape != a.shape:
        r = r + zeros(a.shape, r._dtype)
    if out is not None:
        _assign(out._materialize(), r)
        return out
    if r.ndim == 0:
        return r[()]
    return r.copy() if r._expr is not None else r


# ---- triangles and index helpers ----
def _tri_mask(N, M=None, k=0):
    """NumPy's tri as a bool mask, the way NumPy builds it: row i against
    arange(-k, M - k) in an integer dtype, so a float N, M or k gives
    NumPy's result (tri(3, k=0.5) is all True: arange(-0.5, 2.5, int) is
    0, 0, 0)."""
    if M is None:
        M = N
    r = arange(N, dtype="int64")
    c = arange(-k, M - k, dtype="int64")
    return r[:, None] >= c[None, :]


def tri(N, M=None, k=0, dtype=float, *, like=None):
    from ._creation import _dt
    return _tri_mask(N, M, k).astype(_dt(dtype))


def _tri_input(m):
    """m and the shape of its triangle mask: a 1-d m is broadcast over the
    rows of a square result, as in NumPy."""
    m = asarray(m)
    if m.ndim == 0:
        raise TypeError("tril/triu: the input must be at least 1-d (NumPy: tri() missing 1 required positional "
                        "argument: 'N')")
    return m, (m.shape[-2:] if m.ndim > 1 else (m.shape[0], m.shape[0]))


def tril(m, k=0):
    m, (r, c) = _tri_input(m)
    return _where3(_tri_mask(r, c, k), m, 0).astype(m._dtype)


def triu(m, k=0):
    m, (r, c) = _tri_input(m)
    return _where3(_tri_mask(r, c, k - 1), 0, m).astype(m._dtype)


def tril_indices(n, k=0, m=None):
    return nonzero(_tri_mask(n, m, k))


def triu_indices(n, k=0, m=None):
    return nonzero(~_tri_mask(n, m, k - 1))


def tril_indices_from(arr, k=0):
    if asarray(arr).ndim != 2:
        raise ValueError("input array must be 2-d")
    return tril_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def triu_indices_from(arr, k=0):
    if asarray(arr).ndim != 2:
        raise ValueError("input array must be 2-d")
    return triu_indices(arr.shape[-2], k=k, m=arr.shape[-1])


def mask_indices(n, mask_func, k=0):
    from ._creation import ones
    return nonzero(mask_func(ones((n, n), "int64"), k) != 0)


def diag_indices(n, ndim=2):
    idx = arange(n)
    return (idx,) * ndim


def diag_indices_from(arr):
    arr = asarray(arr)
    if arr.ndim < 2:
        raise ValueError("input array must be at least 2-d")
    if builtins.any(s != arr.shape[0] for s in arr.shape):
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(arr.shape[0], arr.ndim)


@_into_numpy("fill_diagonal")
def fill_diagonal(a, val, wrap=False):
    """In place, as numpy.fill_diagonal: a.flat[:end:step] = val."""
    from ._ndarray import _check_writable
    if isinstance(a, ndarray):
        _check_writable(a)
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    if a.ndim == 2:
        step = a.shape[1] + 1
        end = a.size if wrap else builtins.min(a.size, a.shape[1] * a.shape[1])
    else:
        if builtins.any(s != a.shape[0] for s in a.shape):
            raise ValueError("All dimensions of input must be of equal length")
        step = 1 + int(_np.cumprod(a.shape[:-1]).sum())
        end = a.size
    idx = arange(0, end, step)
    if idx.size:
        put(a, idx, val)


def _order_strides(shape, order):
    """Element strides of shape in C or F order (NumPy's two)."""
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    return _cstrides(tuple(shape)) if order == "C" else _cstrides(tuple(shape)[::-1])[::-1]


_INTP_MAX = _np.iinfo(_np.intp).max


def _too_big(shape):
    size = 1
    for n in shape:
        size *= n
    return size > _INTP_MAX


def ravel_multi_index(multi_index, dims, mode="raise", order="C"):
    dims = _shape_of(dims)
    if len(multi_index) != len(dims):
        raise ValueError(f"parameter multi_index must be a sequence of length {len(dims)}")
    if _too_big(dims):
        raise ValueError("invalid dims: array size defined by dims is larger than the maximum possible size.")
    if 0 in dims and builtins.any(_np.size(i) for i in multi_index):
        raise ValueError("cannot unravel if shape has zero entries (is empty).")
    for i in multi_index:  # NumPy's integer (or bool) coordinates
        if isinstance(i, (list, tuple)) and len(i) == 0:
            raise TypeError("indices must be integral: the provided empty sequence was inferred as float. Wrap it "
                            "with 'np.array(indices, dtype=np.intp)'")
        if (_np.dtype(i._dtype) if isinstance(i, ndarray) else _np.asarray(i).dtype).kind not in "iub":
            raise TypeError("only int indices permitted")
    modes = (mode,) * len(dims) if isinstance(mode, str) else tuple(mode)
    scalar = builtins.all(_is_scalar(i) for i in multi_index)
    flat = _np.intp(0)
    strides = _order_strides(dims, order)
    for d, (i, n, md) in enumerate(zip(multi_index, dims, modes)):
        i = _index_of(i).astype("int64")
        if md == "raise":
            if i.size and (int(i.min()) < 0 or int(i.max()) >= n):
                raise ValueError("invalid entry in coordinates array")
        elif md == "wrap":
            i = i % n
        elif md == "clip":
            i = i.clip(0, n - 1)
        flat = flat + i * strides[d]
    if scalar and isinstance(flat, ndarray):
        return flat[()]
    return flat.copy() if isinstance(flat, ndarray) and flat._expr is not None else flat


def unravel_index(indices, shape, order="C"):
    shape = _shape_of(shape)
    if isinstance(indices, (list, tuple)) and len(indices) == 0:
        raise TypeError("indices must be integral: the provided empty sequence was inferred as float. Wrap it "
                        "with 'np.array(indices, dtype=np.intp)'")
    if isinstance(indices, (ndarray, _np.ndarray)) and indices.dtype.kind not in "iub":
        raise TypeError("only int indices permitted")
    if _too_big(shape):
        raise ValueError("dimensions are too large; arrays and shapes with a total size greater than 'intp' are "
                         "not supported.")
    strides = _order_strides(shape, order)
    if _is_scalar(indices):
        if isinstance(indices, ndarray):
            indices = indices[()]
        return tuple(_np.int64(v) for v in _np.unravel_index(indices, shape, order=order))
    i = _index_of(indices).astype("int64")
    size = int(_np.prod(shape))
    if i.size and (int(i.min()) < 0 or int(i.max()) >= size):
        raise ValueError(f"index {int(i.max()) if int(i.max()) >= size else int(i.min())} is out of bounds for "
                         f"array with size {size}")
    if not shape:  # after the bounds, as NumPy
        raise ValueError("multiple indices are not supported for 0d arrays")
    out = []
    for d in range(len(shape)):
        out.append(((i // strides[d]) % shape[d]).copy())
    return tuple(out)


def indices(dimensions, dtype=int, sparse=False):
    from ._creation import _dt
    from ._manipulation import stack
    dims = _shape_of(tuple(dimensions))
    dt = _dt(dtype)
    parts = []
    for d, n in enumerate(dims):
        key = tuple(slice(None) if i == d else None for i in range(len(dims)))
        parts.append(arange(n, dtype=dt)[key])
    if sparse:
        return tuple(p.copy() for p in parts)
    shape = dims
    return stack([(p + zeros(shape, dt)) for p in parts]) if dims else empty((0,), dt)


def ix_(*args):
    out = []
    nd = len(args)
    for k, a in enumerate(args):
        if not isinstance(a, ndarray) and _np.size(a) == 0:
            a = _np.zeros(_np.shape(a), _np.int64)  # an empty sequence indexes nothing
        a = asarray(a)
        if a.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a._dtype == "bool":
            (a,) = nonzero(a)
        key = tuple(slice(None) if i == k else None for i in range(nd))
        out.append(a[key])
    return tuple(out)
