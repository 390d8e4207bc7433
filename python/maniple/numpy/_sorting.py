"""Sorting, searching, set operations and order statistics over the C sort
(stable: equal elements keep their order, so argsort and unique's indices
do not depend on the rank count) and searchsorted."""
import builtins
import numpy as _np

from maniple import _core

from . import _warn
from ._creation import arange, asarray, empty, full
from ._functions import _axis, _axis_tuple, _out_dtype, _warn_each, _warn_where, where as _where3, UFUNCS as _U
from ._indexing import nonzero
from ._dtypes import COMPLEX as _COMPLEX, FLOATS as _FLOATS, INTS as _INTS, sum_dtype as _sum_dtype
from ._engine import _assign, _flush
from ._ndarray import ndarray, _flat, _part_of, _reshaped


def _complex_order(a, ax):
    """The positions that sort complex a along ax as NumPy does: by the
    real parts, then the imaginary ones; then those with a NaN imaginary
    part (by their real parts), a NaN real part (by their imaginary parts),
    both NaN. Three stable sorts, least significant key first."""
    from ._select import take_along_axis
    re, im = _part_of(a, "real"), _part_of(a, "imag")
    nre, nim = _U["isnan"](re), _U["isnan"](im)
    group = nre.astype("int8") * 2 + nim.astype("int8")
    keys = [_where3(nim, 0.0, im), _where3(nre, 0.0, re), group]
    p = None
    for k in keys:
        k = k if p is None else take_along_axis(k, p, ax)
        q = ndarray(_core.sort(k._materialize(), ax, False, True)[1])
        p = q if p is None else take_along_axis(p, q, ax)
    return p


def _sorted(a, axis, values=True, perm=False, how="int"):
    a = asarray(a)
    if axis is None:
        a, axis = _flat(a), 0
    if a.ndim == 0:
        raise _np.exceptions.AxisError(axis, 0)
    ax = _axis(axis, a.ndim, how)
    if a._dtype in _COMPLEX:
        from ._select import take_along_axis
        p = _complex_order(a, ax)
        return (take_along_axis(a, p, ax) if values else None), (p if perm else None)
    s, p = _core.sort(a._materialize(), ax, values, perm)
    return (ndarray(s) if s is not None else None), (ndarray(p) if p is not None else None)


def sort(a, axis=-1, kind=None, order=None, stable=None):
    if order is not None:
        raise NotImplementedError("maniple.numpy: sort with order= (structured arrays) is not supported")
    return _sorted(a, axis)[0]


def argsort(a, axis=-1, kind=None, order=None, stable=None):
    if order is not None:
        raise NotImplementedError("maniple.numpy: argsort with order= (structured arrays) is not supported")
    a = asarray(a)
    if a.ndim == 0:  # NumPy argsorts a 0-d array as one of shape (1,)
        a = _reshaped(a, (1,))
    return _sorted(a, axis, values=False, perm=True, how="index")[1]


def sort_complex(a):
    """a sorted (lexicographically, as NumPy's complex order), as a complex
    array: complex64 for 8- and 16-bit integers, else complex128."""
    b = sort(a)
    if b._dtype in _COMPLEX:
        return b
    return b.astype("complex64" if b._dtype in ("int8", "int16", "uint8", "uint16") else "complex128")


def partition(a, kth, axis=-1, kind="introselect", order=None):
    """A full sort is a valid partition for every kth."""
    a = asarray(a)
    _check_kth(a, kth, axis)
    return sort(a, axis)


def argpartition(a, kth, axis=-1, kind="introselect", order=None):
    a = asarray(a)
    if a.ndim == 0:  # as argsort
        a = _reshaped(a, (1,))
    _check_kth(a, kth, axis)
    return argsort(a, axis)


def _check_kth(a, kth, axis):
    n = a.size if axis is None else a.shape[_axis(axis, a.ndim, "int")]
    ks = _np.atleast_1d(kth.__array__() if isinstance(kth, ndarray) else kth)
    if ks.dtype.kind not in "iu":
        raise TypeError("Partition index must be integer")
    if n == 0:  # NumPy checks no kth along an empty axis
        return
    for k in ks:
        k = int(k) + n if k < 0 else int(k)
        if not 0 <= k < n:
            raise ValueError(f"kth(={k}) out of bounds ({n})")


def lexsort(keys, axis=-1):
    keys = [asarray(k) for k in keys]
    if not keys:
        raise TypeError("need sequence of keys with len > 0 in lexsort")
    if builtins.any(k.ndim != 1 for k in keys) or axis not in (-1, 0):
        raise NotImplementedError("maniple.numpy: lexsort of 1-d keys only")
    # stable sorts from the least significant key to the most
    perm = argsort(keys[0])
    for k in keys[1:]:
        perm = perm[argsort(k[perm])]
    return perm


def searchsorted(a, v, side="left", sorter=None):
    if side not in ("left", "right"):
        raise ValueError(f"side must be 'left' or 'right' (got '{side}')")
    a = asarray(a)
    if a.ndim != 1:
        raise ValueError("object too deep for desired array")
    if sorter is not None:
        sorter = asarray(sorter)
        if sorter.ndim != 1:
            raise TypeError("could not parse sorter argument")
        if sorter._dtype not in _INTS:
            raise TypeError("sorter must only contain integers")
        if sorter.size != a.size:
            raise ValueError("sorter.size must equal a.size")
        if sorter.size and (int(sorter.min()) < 0 or int(sorter.max()) >= a.size):
            raise ValueError("Sorter index out of range.")
        a = a[sorter]
    scalar = not isinstance(v, ndarray) and _np.ndim(v) == 0
    v = asarray(v)
    dt = str(_np.result_type(_np.dtype(a._dtype), _np.dtype(v._dtype)))
    a, v = a.astype(dt, copy=False), v.astype(dt, copy=False)
    if dt in _COMPLEX:
        out = _searchsorted_complex(a, _flat(v), side == "right").reshape(v.shape)
    else:
        out = empty(v.shape, "int64")
        _core.searchsorted(a._materialize(), v._materialize(), side == "right", out._arr)
    return out[()] if scalar else out


def _searchsorted_complex(a, v, right):
    """NumPy's complex order has no one-number key: v and a sorted together
    (stably, v first for 'left' so that it goes before equal values of a,
    last for 'right'); each v's place there less the v's before it counts
    the elements of (sorted) a before it."""
    from ._manipulation import concatenate
    m, n = v.size, a.size
    p = _complex_order(concatenate([a, v] if right else [v, a]), 0)
    isv = (p >= n) if right else (p < m)
    before = arange(n + m) - (isv.astype("int64").cumsum() - 1)  # a's before each merged place
    out = empty((m,), "int64")
    if m:
        own = p[isv]
        out[own - n if right else own] = before[isv]
    return out


# ---- unique and set operations ----
# NumPy's own result types, so that isinstance checks keep working
_z = _np.zeros(1)
UniqueAllResult = type(_np.unique_all(_z))
UniqueCountsResult = type(_np.unique_counts(_z))
UniqueInverseResult = type(_np.unique_inverse(_z))
del _z


def _first_flags(s, equal_nan=True):
    """True where a sorted 1-d array starts a run of equal values."""
    from ._manipulation import concatenate
    if s.size == 0:
        return empty((0,), "bool")
    head = full((1,), True, "bool")
    new = s[1:] != s[:-1]
    if equal_nan and (s._dtype in _FLOATS or s._dtype in _COMPLEX):  # NaNs sort last, so they collapse into one
        new = _U["logical_and"](new, _U["logical_not"](_U["logical_and"](_U["isnan"](s[1:]), _U["isnan"](s[:-1]))))
    return concatenate([head, new])


def unique(ar, return_index=False, return_inverse=False, return_counts=False, axis=None, *, equal_nan=True,
           sorted=True):
    ar = asarray(ar)
    if axis is not None:
        return _unique_axis(ar, axis, return_index, return_inverse, return_counts, equal_nan)
    flat = _flat(ar)
    need_perm = return_index or return_inverse
    s, p = _sorted(flat, 0, True, need_perm)
    flags = _first_flags(s, equal_nan)
    fm = flags._materialize()
    u = ndarray(_core.compress(s._materialize(), fm))
    if not need_perm and not return_counts and equal_nan and ar._dtype in _COMPLEX and u.size and bool(_U["isnan"](u[-1])):
        # NumPy's hash path keeps the first NaN in the input's order (its sort path, the first sorted)
        u[-1] = flat[int(_U["isnan"](flat).argmax())]
    extra = _unique_extras(flags, p, ar.shape, return_index, return_inverse, return_counts)
    if not extra:
        return u
    return (u,) + tuple(extra)


def _unique_extras(flags, perm, shape, return_index, return_inverse, return_counts, starts=None):
    """unique's index, inverse (in shape) and counts, from the flags marking
    each run's first sorted element and the sorting permutation perm; starts
    (the flagged positions) when the caller has them already."""
    from ._manipulation import concatenate
    n = flags.size
    fm = flags._materialize()
    extra = []
    if return_index:
        extra.append(ndarray(_core.compress(perm._materialize(), fm)))
    if return_inverse:
        rank = cumsum(flags.astype("int64")) - 1  # each sorted element's unique value
        inv = empty((n,), "int64")
        if n:
            _core.put(inv._arr, perm._materialize(), asarray(rank)._materialize())
        extra.append(inv if tuple(shape) == (n,) else _reshaped(inv, shape))
    if return_counts:
        if starts is None:
            starts = ndarray(_core.compress(arange(n)._materialize(), fm))
        ends = concatenate([starts[1:], full((1,), n, "int64")]) if starts.size else starts
        extra.append((ends - starts).copy())
    return extra


def _unique_axis(ar, axis, return_index, return_inverse, return_counts, equal_nan):
    """unique subarrays along axis, as NumPy's: each is one row of the array
    moved and flattened, rows ordered lexicographically (a lexsort of the
    columns, the first most significant) and kept where they differ from the
    previous row. NaNs compare unequal here, as in NumPy's structured rows."""
    from ._manipulation import concatenate, moveaxis
    from ._select import take
    if isinstance(axis, (bool, _np.bool_)) or not isinstance(axis, (int, _np.integer)):
        raise TypeError(f"integer argument expected, got {type(axis).__name__}")
    if ar.ndim == 0:
        raise _np.exceptions.AxisError(axis, 0)
    ax = _axis(axis, ar.ndim)
    if ar.ndim == 1:  # NumPy's flat unique, equal_nan and all
        return unique(ar, return_index, return_inverse, return_counts, equal_nan=equal_nan)
    moved = moveaxis(ar, ax, 0)
    n, rest = moved.shape[0], moved.shape[1:]
    m = int(_np.prod(rest))
    if n and not m:  # empty subarrays: all equal, one of them
        u = moveaxis(empty((1,) + tuple(rest), ar._dtype), 0, ax)
        extra = [v for v, want in ((full((1,), 0, "int64"), return_index), (full((n,), 0, "int64"), return_inverse),
                                   (full((1,), n, "int64"), return_counts)) if want]
        return u if not extra else (u,) + tuple(extra)
    rows = moved.reshape(n, m)
    order = lexsort([rows[:, j] for j in builtins.range(m - 1, -1, -1)]) if n else arange(0)
    srt = take(rows, order, axis=0)
    head = full((builtins.min(n, 1),), True, "bool")
    flags = concatenate([head, (srt[1:] != srt[:-1]).any(axis=1)]) if n else empty((0,), "bool")
    keep = ndarray(_core.compress(arange(n)._materialize(), flags._materialize()))
    u = moveaxis(take(srt, keep, axis=0).reshape((keep.size,) + tuple(rest)), 0, ax)
    extra = _unique_extras(flags, order, (n,), return_index, return_inverse, return_counts, keep)
    return u if not extra else (u,) + tuple(extra)


# the array-API forms count every NaN as distinct
def unique_values(x):
    return unique(x, equal_nan=False)


def unique_counts(x):
    return UniqueCountsResult(*unique(x, return_counts=True, equal_nan=False))


def unique_inverse(x):
    return UniqueInverseResult(*unique(x, return_inverse=True, equal_nan=False))


def unique_all(x):
    return UniqueAllResult(*unique(x, return_index=True, return_inverse=True, return_counts=True, equal_nan=False))


def isin(element, test_elements, assume_unique=False, invert=False, *, kind=None):
    if kind not in (None, "sort", "table"):
        raise ValueError(f"Invalid kind: {kind!r}. Please use None, 'sort' or 'table'.")
    element = asarray(element)
    t = asarray(test_elements)
    if kind == "table" and not (_np.dtype(element._dtype).kind in "biu" and _np.dtype(t._dtype).kind in "biu"):
        raise ValueError("The 'table' method is only supported for boolean or integer arrays. Please select "
                         "'sort' or None for kind.")
    t = _flat(t)
    if t.size == 0:
        return full(element.shape, bool(invert), "bool")
    if kind == "table":  # NumPy's table refuses a range of test values its dtype cannot hold (ar2 - min(ar2))
        tdt = "uint8" if t._dtype == "bool" else t._dtype
        if int(t.max()) - int(t.min()) > _np.iinfo(tdt).max:
            raise RuntimeError("You have specified kind='table', but the range of values in `ar2` or `ar1` exceed the "
                               "maximum integer of the datatype. Please set `kind` to None or 'sort'.")
    dt = str(_np.result_type(_np.dtype(element._dtype), _np.dtype(t._dtype)))
    ts = sort(t.astype(dt, copy=False))
    e = element.astype(dt, copy=False)
    pos = searchsorted(ts, e)
    from ._select import take
    hit = take(ts, pos.clip(0, ts.size - 1) if isinstance(pos, ndarray) else builtins.min(pos, ts.size - 1))
    found = _U["logical_and"](hit == e, pos < ts.size)
    r = _U["logical_not"](found) if invert else found
    return r.copy() if isinstance(r, ndarray) else asarray(r)  # (a 0-d array for a scalar element, as NumPy)


def intersect1d(ar1, ar2, assume_unique=False, return_indices=False):
    from ._manipulation import concatenate
    if return_indices:
        return _intersect_indices(ar1, ar2, assume_unique)
    a, b = (_flat(asarray(ar1)), _flat(asarray(ar2))) if assume_unique else (unique(ar1), unique(ar2))
    aux = sort(concatenate([a, b]))
    if aux.size < 2:
        return aux[:0]
    return _compressed(aux[:-1], aux[1:] == aux[:-1])


def _compressed(x, mask):
    return ndarray(_core.compress(x._materialize(), mask._materialize() if mask._expr is None else mask.copy()._arr))


def _intersect_indices(ar1, ar2, assume_unique):
    """NumPy's intersect1d with return_indices: the common values and where
    each first occurs in ar1 and ar2 (a stable sort of both, side by side)."""
    from ._manipulation import concatenate
    from ._select import take
    if assume_unique:
        a, b = _flat(asarray(ar1)), _flat(asarray(ar2))
    else:
        (a, ia), (b, ib) = unique(ar1, return_index=True), unique(ar2, return_index=True)
    aux = concatenate([a, b])
    order = argsort(aux, kind="stable")
    aux = take(aux, order)
    if aux.size < 2:
        none = empty((0,), "int64")
        return aux[:0], none, none.copy()
    same = aux[1:] == aux[:-1]
    i1, i2 = _compressed(order[:-1], same), _compressed(order[1:], same) - a.size
    if not assume_unique:
        i1, i2 = take(ia, i1), take(ib, i2)
    return _compressed(aux[:-1], same), i1, i2


def union1d(ar1, ar2):
    from ._manipulation import concatenate
    return unique(concatenate([_flat(asarray(ar1)), _flat(asarray(ar2))]))


def setdiff1d(ar1, ar2, assume_unique=False):
    a = _flat(asarray(ar1)) if assume_unique else unique(ar1)
    keep = isin(a, ar2, invert=True)
    return ndarray(_core.compress(a._materialize(), keep._materialize()))


def setxor1d(ar1, ar2, assume_unique=False):
    from ._manipulation import concatenate
    a, b = (_flat(asarray(ar1)), _flat(asarray(ar2))) if assume_unique else (unique(ar1), unique(ar2))
    aux = sort(concatenate([a, b]))
    if aux.size == 0:
        return aux
    t = full((1,), True, "bool")
    flag = concatenate([t, aux[1:] != aux[:-1], t])
    keep = _U["logical_and"](flag[1:], flag[:-1]).copy()
    return ndarray(_core.compress(aux._materialize(), keep._materialize()))


def digitize(x, bins, right=False):
    bins = asarray(bins)
    if not isinstance(x, (bool, int, float, complex, _np.generic)):  # Python and NumPy scalars give a scalar
        x = asarray(x)
    if _np.dtype(x._dtype if isinstance(x, ndarray) else _np.asarray(x).dtype).kind == "c":
        raise TypeError("x may not be complex")
    if bins.ndim != 1:
        raise ValueError("object of too small depth for desired array" if bins.ndim == 0 else
                         "object too deep for desired array")
    decreasing = False
    if bins.size > 1:
        # NumPy's test: the first pair that differs sets the direction
        # (a NaN there means decreasing); no later pair may go against it
        lo, hi = bins[:-1], bins[1:]
        (differ,) = nonzero(hi != lo)
        if differ.size:
            i = int(differ[0])
            decreasing = not bool(bins[i] < bins[i + 1])
            against = (lo < hi) if decreasing else (lo > hi)
            if bool(against.any()):
                raise ValueError("bins must be monotonically increasing or decreasing")
    side = "left" if right else "right"
    r = (bins.size - searchsorted(bins[::-1], x, side=side)) if decreasing else searchsorted(bins, x, side=side)
    if isinstance(r, ndarray) and r._expr is not None:
        r = r.copy()
    return r


# ---- cumulative operations ----
def _scan(op, a, axis, dtype, out, how="scan"):
    a = asarray(a)
    if a.ndim == 0:  # NumPy scans a 0-d array as one of shape (1,)
        a = _reshaped(a, (1,))
    if axis is None:
        a, ax = _flat(a), 0
    else:
        ax = _axis(axis, a.ndim, how)
    dtype = _out_dtype(op, a, dtype, out)  # NumPy's partial results: in out's dtype where a casts to it safely
    if dtype is None:
        dt = _sum_dtype(a._dtype)
    else:
        from ._creation import _dt
        dt = _dt(dtype)
    r = empty(a.shape, dt) if out is None else out
    if out is not None and out.shape != a.shape:
        raise ValueError(f"provided out has shape {out.shape}, the result has shape {a.shape}")
    if out is not None and out._dtype != dt and a.size:  # NumPy's: the partial results in dt, then cast into out
        _assign(r._materialize(), _scan(op, a, ax, dt, None))
        return r
    if a.size and dt == "bool":  # logical or/and: counted in int64, then tested
        t = _scan(op, a.astype("bool"), ax, "int64", None)
        _assign(r._materialize(), t != 0)
    elif a.size:
        src = a if a._dtype == dt else a.astype(dt)
        target = r._materialize()
        _flush(target.base)
        _core.scan(op, src._materialize(), ax, target)
    return r


def cumsum(a, axis=None, dtype=None, out=None):
    return _scan("sum", a, axis, dtype, out)


def cumprod(a, axis=None, dtype=None, out=None):
    return _scan("prod", a, axis, dtype, out)


def cumulative_sum(x, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative("sum", x, axis, dtype, out, include_initial)


def cumulative_prod(x, *, axis=None, dtype=None, out=None, include_initial=False):
    return _cumulative("prod", x, axis, dtype, out, include_initial)


def _cumulative(op, x, axis, dtype, out, include_initial):
    from ._manipulation import concatenate
    x = asarray(x)
    if x.ndim == 0:
        x = _reshaped(x, (1,))
    if axis is None:
        if x.ndim > 1:
            raise ValueError("For arrays which have more than one dimension ``axis`` argument is required.")
        axis = 0
    r = _scan(op, x, axis, dtype, None if include_initial else out, "index")
    if include_initial:
        ax = _axis(axis, x.ndim)
        shape = list(x.shape)
        shape[ax] = 1
        r = concatenate([full(tuple(shape), 0 if op == "sum" else 1, r._dtype), r], axis=ax)
        if out is not None:
            _assign(out._materialize(), r)
            return out
    return r


def nancumsum(a, axis=None, dtype=None, out=None):
    a = asarray(a)
    if a._dtype in _FLOATS + _COMPLEX:
        a = _where3(_U["isnan"](a), 0, a).astype(a._dtype)
    return cumsum(a, axis, dtype, out)


def nancumprod(a, axis=None, dtype=None, out=None):
    a = asarray(a)
    if a._dtype in _FLOATS + _COMPLEX:
        a = _where3(_U["isnan"](a), 1, a).astype(a._dtype)
    return cumprod(a, axis, dtype, out)


# ---- order statistics ----
def _reduce_axis_arg(a, axis):
    a = asarray(a)
    if axis is None:
        return _flat(a), 0, None
    axes = list(_axis_tuple(axis, a.ndim))  # NumPy's _ureduce
    if len(axes) == 1:
        return a, axes[0], axes
    # the reduced axes moved last and merged into one
    from ._manipulation import moveaxis
    rest = [d for d in range(a.ndim) if d not in axes]
    m = moveaxis(a, axes, list(range(len(rest), a.ndim)))
    m = _reshaped(m, tuple(a.shape[d] for d in rest) + (int(_np.prod([a.shape[d] for d in axes])),))
    return m, m.ndim - 1, axes


def _keep(r, a, axes, keepdims):
    if not keepdims:
        return r
    shape = list(a.shape)
    for d in (range(a.ndim) if axes is None else axes):
        shape[d] = 1
    return _reshaped(asarray(r), tuple(shape))


_METHODS = ("linear", "lower", "higher", "nearest", "midpoint", "inverted_cdf", "averaged_inverted_cdf",
            "closest_observation", "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
            "normal_unbiased")


def _lerp(a, b, t):
    """NumPy's _lerp: a + (b - a) t, computed from the nearer end."""
    d = b - a
    return _where3(t >= 0.5, b - d * (1 - t), a + d * t)


_DISCRETE = ("lower", "higher", "nearest", "inverted_cdf", "closest_observation")
# Hyndman and Fan's continuous methods as NumPy writes them: the virtual
# index n q + alpha + q (1 - alpha - beta) - 1
_HF = {"interpolated_inverted_cdf": (0.0, 1.0), "hazen": (0.5, 0.5), "weibull": (0.0, 0.0),
       "median_unbiased": (1.0 / 3, 1.0 / 3), "normal_unbiased": (3.0 / 8, 3.0 / 8)}
_BY_POSITIONS = tuple(_HF) + ("inverted_cdf", "closest_observation", "averaged_inverted_cdf")  # _hf_positions'


def _hf_positions(method, nf, qq):
    """(lower index, upper index, weight) of quantile qq for the methods
    past NumPy's default five, nf the count (a float, or an array per
    line): NumPy's virtual index, its bounds and its gamma."""
    arr = isinstance(nf, ndarray)
    fl = _U["floor"] if arr else _np.floor
    wh = _where3 if arr else _np.where
    if arr:  # per-line counts: computed here, once (the steps below read them many times)
        nf = nf.copy()
    if method in ("inverted_cdf", "closest_observation"):  # an order statistic
        idx = nf * qq - 1 - (0.5 if method == "closest_observation" else 0.0)
        prev = fl(idx)
        g = idx - prev
        keep = (g == 0) if method == "inverted_cdf" else ((g == 0) & (prev % 2 == 1))
        k = wh(keep, prev, prev + 1)
        k = wh(k < 0, 0.0, wh(k > nf - 1, nf - 1, k))
        return (k.copy(), k.copy(), 0.0) if arr else (k, k, 0.0)
    if method == "averaged_inverted_cdf":
        vi = nf * qq - 1
    else:
        alpha, beta = _HF[method]
        vi = nf * qq + (alpha + qq * (1 - alpha - beta)) - 1
    prev = fl(vi)
    g = vi - prev
    if method == "averaged_inverted_cdf":
        g = wh(g == 0, 0.5, 1.0)
    below, above = vi < 0, vi >= nf - 1
    lo = wh(below, 0.0, wh(above, nf - 1, prev))
    hi = wh(below, 0.0, wh(above, nf - 1, prev + 1))
    return (lo.copy(), hi.copy(), g.copy() if isinstance(g, ndarray) else g) if arr else (lo, hi, g)


def _quantile_sorted(s, ax, q, method, nan_aware, rdt):
    """Quantiles q (fractions, a float or 1-d array) of s sorted along ax,
    as dtype rdt."""
    from ._select import take_along_axis
    n = s.shape[ax]
    qa = _np.asarray(q, dtype=_np.float64)
    fdt = s._dtype if s._dtype in _FLOATS else "float64"
    if nan_aware:
        cnt = _U["logical_not"](_U["isnan"](s)).sum(axis=ax, keepdims=True) if fdt == s._dtype else \
            full(s.shape[:ax] + (1,) + s.shape[ax + 1:], n, "int64")
        last = (cnt - 1).astype("float64")
        _warn_where(cnt == 0, "All-NaN slice encountered")
    else:
        cnt = None
        last = float(n - 1)
    outs = []
    for qq in _np.atleast_1d(qa):
        if method in _BY_POSITIONS:
            outs.append(_quantile_hf(s, ax, n, float(qq), method, cnt, last, fdt, rdt, nan_aware))
            continue
        vi = last * float(qq)
        if isinstance(vi, ndarray):
            lo = _U["floor"](vi)
            frac = vi - lo
            lo_i = lo.astype("int64").clip(0, builtins.max(n - 1, 0))
            # the next value, but never past the last non-NaN one
            hi_i = _U["minimum"](lo_i + 1, _U["maximum"](cnt - 1, 0))
            x0 = take_along_axis(s, lo_i, ax)
            x1 = take_along_axis(s, hi_i, ax)
        else:
            lo = _np.floor(vi)
            frac = vi - lo
            key = (slice(None),) * ax
            x0 = s[key + (slice(int(lo), int(lo) + 1),)]
            x1 = s[key + (slice(builtins.min(int(lo) + 1, n - 1), builtins.min(int(lo) + 1, n - 1) + 1),)]
        cdt = rdt if rdt in _FLOATS else fdt  # interpolated in the result's precision
        if method not in _DISCRETE and fdt == s._dtype:
            x0, x1 = x0.astype(cdt), x1.astype(cdt)  # integers stay: their difference is exact, as NumPy's
        if method == "lower":
            r = x0
        elif method == "higher":
            r = _where3(frac > 0, x1, x0) if isinstance(frac, ndarray) else (x1 if frac > 0 else x0)
        elif method == "nearest":
            # round half to even on the virtual index, as NumPy
            up = (frac > 0.5) | ((frac == 0.5) & (lo % 2 == 1)) if isinstance(frac, ndarray) else \
                (frac > 0.5 or (frac == 0.5 and int(lo) % 2 == 1))
            r = _where3(up, x1, x0) if isinstance(up, ndarray) else (x1 if up else x0)
        else:  # linear, or midpoint: NumPy's weight 0.5 (0 on a whole virtual index)
            if method == "midpoint":
                frac = _where3(frac > 0, 0.5, 0.0) if isinstance(frac, ndarray) else (0.5 if frac > 0 else 0.0)
            t = frac.astype(cdt) if isinstance(frac, ndarray) else _np.dtype(cdt).type(frac)
            r = _lerp(x0, x1, t)
        outs.append(_nan_result(r, s, ax, n, cnt, fdt, rdt, nan_aware))
    return outs


def _nan_result(r, s, ax, n, cnt, fdt, rdt, nan_aware):
    """Quantile r of s (sorted along ax) as rdt, NaN where NumPy gives NaN:
    a NaN in the line (sorted last), or a line of NaNs only (nan-aware)."""
    if not nan_aware and fdt == s._dtype and n:
        tail = s[(slice(None),) * ax + (slice(n - 1, n),)]
        r = _where3(_U["isnan"](tail), _np.nan, r)
    if nan_aware and cnt is not None:
        r = _where3(cnt == 0, _np.nan, r)
    return asarray(r).astype(rdt)


def _quantile_hf(s, ax, n, qq, method, cnt, last, fdt, rdt, nan_aware):
    """One quantile of s sorted along ax by the methods of _hf_positions."""
    from ._select import take_along_axis
    lo, hi, g = _hf_positions(method, last + 1, qq)
    if isinstance(lo, ndarray):
        x0 = take_along_axis(s, lo.astype("int64").clip(0, builtins.max(n - 1, 0)), ax)
        x1 = take_along_axis(s, hi.astype("int64").clip(0, builtins.max(n - 1, 0)), ax)
    else:
        key = (slice(None),) * ax
        x0 = s[key + (slice(int(lo), int(lo) + 1),)]
        x1 = s[key + (slice(int(hi), int(hi) + 1),)]
    if method in _DISCRETE:
        r = x0
    else:
        cdt = rdt if rdt in _FLOATS else fdt
        if fdt == s._dtype:
            x0, x1 = x0.astype(cdt), x1.astype(cdt)
        t = g.astype(cdt) if isinstance(g, ndarray) else _np.dtype(cdt).type(g)
        r = _lerp(x0, x1, t)
    return _nan_result(r, s, ax, n, cnt, fdt, rdt, nan_aware)


def _q_values(q, scale):
    """q (percentiles: divided by 100) as NumPy, checked: in [0, 1] (0-d or
    1-d here: _q_nd flattens the others)"""
    if isinstance(q, ndarray):
        q = q.__array__()
    qn = _np.asanyarray(q) if scale == 1.0 else _np.true_divide(q, scale)
    if qn.dtype.kind not in "biuf" or not bool(((qn >= 0) & (qn <= 1)).all()):
        raise ValueError("Quantiles must be in the range [0, 1]" if scale == 1.0 else
                         "Percentiles must be in the range [0, 100]")
    return qn


def _quantile(a, q, axis, out, method, keepdims, nan_aware, scale=1.0):
    from ._manipulation import stack
    a0 = asarray(a)
    if a0._dtype in _COMPLEX:  # NumPy's error (complex values sort, but have no quantiles)
        raise TypeError("a must be an array of real numbers")
    if method not in _METHODS:
        raise ValueError(f"{method!r} is not a valid method. Use one of: {_METHODS}")
    qn = _q_values(q, scale)
    qa = qn.astype(_np.float64)
    if nan_aware and a0._dtype == "bool" and a0.size == 0:  # as an integer's nothing (no bool subtraction)
        a0 = a0.astype("int64")
    if method == "linear" and qn.dtype.kind in "biu":  # whole-number virtual indices: elements, exactly
        method = "lower"
    if method in _DISCRETE:
        rdt = a0._dtype
    else:  # NumPy's promotion with the interpolation weight (a Python float q is weak)
        if a0._dtype == "bool":
            raise TypeError("numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the "
                            "`^` operator, or the logical_xor function instead.")
        weak = type(q) in (int, float)
        rdt = str(_np.result_type(_np.dtype(a0._dtype), 0.5 if weak else qn.dtype))
    if nan_aware and a0.size == 0:  # NumPy's answer: nanmean's (its warning, shape and dtype; q unused)
        from ._reductions import nanmean
        return nanmean(a0, axis, out=out, keepdims=keepdims)
    m, ax, axes = _reduce_axis_arg(a0, axis)
    if m.shape[ax] == 0:
        raise IndexError("index -1 is out of bounds for axis 0 with size 0")
    if m.ndim == 1 and not nan_aware:  # a few elements of the sorted values: selected, not sorted
        s = _Picked(m, _positions(m.shape[0], qa, method))
    else:
        s = sort(m, axis=ax)
    outs = _quantile_sorted(s, ax, qa, method, nan_aware, rdt)
    res = []
    for r in outs:
        r = r[(slice(None),) * ax + (0,)] if r.ndim else r
        res.append(_keep(r, a0, axes, keepdims))
    r = res[0] if qa.ndim == 0 else _stack_q(res, a0, axes, keepdims, rdt)
    if out is not None and method not in _DISCRETE and not nan_aware and not _np.can_cast(r.dtype, out.dtype,
                                                                                          "same_kind"):
        from ._functions import _cast_error  # NumPy's interpolation adds into out: same_kind (its nan* forms cast)
        raise _cast_error("add", r.dtype, out.dtype)
    return _finish(r, out)


def _positions(n, qa, method):
    """The positions of the sorted values _quantile_sorted reads for the
    quantiles qa of n values (with no NaN counting), and the last."""
    pos = {n - 1}
    for qq in _np.atleast_1d(qa):
        if method in _BY_POSITIONS:
            lo, hi, _g = _hf_positions(method, float(n), float(qq))
            pos.update((int(lo), int(hi)))
        else:
            lo = int(_np.floor(float(n - 1) * float(qq)))
            pos.update((lo, builtins.min(lo + 1, n - 1)))
    return sorted(p for p in pos if 0 <= p < n)


class _Picked:
    """The sorted 1-d array as _quantile_sorted reads it (its shape, dtype
    and single elements by slice), holding only the positions it reads:
    selected in C without sorting (mn_array_order_stats)."""
    ndim = 1

    def __init__(self, m, pos):
        self.shape, self._dtype = m.shape, m._dtype
        vals = _np.frombuffer(_core.order_stats(m._materialize(), pos), dtype=m._dtype)
        self._at = dict(zip(pos, vals))

    def __getitem__(self, key):
        sl = key[-1]
        return asarray(_np.asarray([self._at[sl.start]], dtype=self._dtype))


def _stack_q(res, a0, axes, keepdims, dtype):
    """The results for each q, stacked on a new first axis (q = []: none)."""
    from ._manipulation import stack
    if res:
        return stack(res)
    red = range(a0.ndim) if axes is None else axes
    shape = tuple(1 if d in red else s for d, s in enumerate(a0.shape)) if keepdims else \
        tuple(s for d, s in enumerate(a0.shape) if d not in red)
    return empty((0,) + shape, dtype)


def _finish(r, out):
    """A 0-d result as NumPy's scalar, or the result written into out."""
    if out is not None:
        _assign(out._materialize(), r)
        return out
    if isinstance(r, ndarray) and r.ndim == 0:
        r = r[()]
    return r


def _weighted_quantile(a, q, axis, out, method, keepdims, weights, scale, nan_aware=False):
    """NumPy's weighted inverted_cdf: the first sorted element whose share
    of the cumulative weight reaches q (a count of the cdf below q along
    the axis, where NumPy searches each line). nan_aware: NaNs weigh
    nothing (NumPy drops them), an all-NaN line gives NaN."""
    from ._manipulation import broadcast_to, stack
    from ._select import take_along_axis
    if method != "inverted_cdf":
        raise ValueError(f"Only method 'inverted_cdf' supports weights. Got: {method}.")
    a0 = asarray(a)
    if a0._dtype in _COMPLEX:
        raise TypeError("a must be an array of real numbers")
    qn = _q_values(q, scale)
    w = asarray(weights)
    if w.shape != a0.shape:  # NumPy's _weights_are_valid: the reduced axes' shape, broadcast
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        axes = _axis_tuple(axis, a0.ndim)
        if w.shape != tuple(a0.shape[d] for d in axes):
            raise ValueError("Shape of weights must be consistent with shape of a along specified axis.")
        from ._manipulation import transpose
        w = transpose(w, tuple(int(i) for i in _np.argsort(axes)))
        w = broadcast_to(_reshaped(w, tuple(s if d in axes else 1 for d, s in enumerate(a0.shape))), a0.shape)
    if bool(_U["less"](w, 0).any()):
        raise ValueError("Weights must be non-negative.")
    m, ax, axes = _reduce_axis_arg(a0, axis)
    wm = _reduce_axis_arg(w, axis)[0]
    if nan_aware and m._dtype in _FLOATS:
        wm = _where3(_U["isnan"](m), 0, wm)
    n = m.shape[ax]
    perm = argsort(m, axis=ax)
    s = take_along_axis(m, perm, ax)
    cdf = cumsum(take_along_axis(wm, perm, ax), axis=ax, dtype="float64")
    last = (slice(None),) * ax + (slice(n - 1, n),)
    allnan = _U["isnan"](s[(slice(None),) * ax + (slice(0, 1),)]) if nan_aware and s._dtype in _FLOATS else None
    with _np.errstate(invalid="ignore", divide="ignore"):
        cdf = cdf / cdf[last]
    bad = _U["isnan"](cdf[last])
    if allnan is not None:
        bad = _U["logical_and"](bad, _U["logical_not"](allnan))
    if bool(bad.any()):
        raise ValueError("Weights included NaN, inf or were all zero.")
    if qn.dtype.kind == "f":
        cdf = cdf.astype(str(qn.dtype))
    cdf = _where3(cdf == 0, -1, cdf).astype(cdf._dtype)  # leading zero weights: not chosen for q = 0
    nans = _U["isnan"](s[last]) if s._dtype in _FLOATS else None
    if nan_aware:
        nans = allnan  # (s[0] is NaN there, so the NaN is taken from s[last] as well)
    res = []
    for qi in _np.atleast_1d(qn):
        idx = _U["less"](cdf, qi).sum(axis=ax, keepdims=True)  # searchsorted(cdf, qi, 'left') along each line
        r = take_along_axis(s, _U["minimum"](idx, n - 1), ax)
        if nans is not None:
            r = _where3(nans, s[last], r)
        r = asarray(r)[(slice(None),) * ax + (0,)]
        res.append(_keep(r, a0, axes, keepdims))
    r = res[0] if qn.ndim == 0 else _stack_q(res, a0, axes, keepdims, s._dtype)
    if out is None:
        return asarray(r)  # NumPy's weighted path gives a 0-d array, not a scalar
    return _finish(r, out)


def _q_nd(fn, a, q, out, axis, method, keepdims, weights, interpolation):
    """fn for a q of more than one dimension: its values flattened, the
    results' first axis shaped as q (NumPy's result: q's shape first)."""
    qa = _np.asarray(q.__array__() if isinstance(q, ndarray) else q)
    r = fn(a, qa.reshape(-1), axis, None, False, method, keepdims, weights=weights, interpolation=interpolation)
    return _finish(_reshaped(asarray(r), qa.shape + tuple(r.shape[1:])), out)


def _one_q_axis(q):
    return _np.ndim(q.__array__() if isinstance(q, ndarray) else q) <= 1


def quantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
             interpolation=None):
    if not _one_q_axis(q):
        return _q_nd(quantile, a, q, out, axis, method, keepdims, weights, interpolation)
    if weights is not None:
        return _weighted_quantile(a, q, axis, out, interpolation or method, keepdims, weights, 1.0)
    return _quantile(a, q, axis, out, interpolation or method, keepdims, False)


def percentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *, weights=None,
               interpolation=None):
    if not _one_q_axis(q):
        return _q_nd(percentile, a, q, out, axis, method, keepdims, weights, interpolation)
    if weights is not None:
        return _weighted_quantile(a, q, axis, out, interpolation or method, keepdims, weights, 100.0)
    return _quantile(a, q, axis, out, interpolation or method, keepdims, False, scale=100.0)


def nanquantile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                weights=None, interpolation=None):
    if not _one_q_axis(q):
        return _q_nd(nanquantile, a, q, out, axis, method, keepdims, weights, interpolation)
    if weights is not None:
        return _weighted_quantile(a, q, axis, out, interpolation or method, keepdims, weights, 1.0, True)
    return _quantile(a, q, axis, out, interpolation or method, keepdims, True)


def nanpercentile(a, q, axis=None, out=None, overwrite_input=False, method="linear", keepdims=False, *,
                  weights=None, interpolation=None):
    if not _one_q_axis(q):
        return _q_nd(nanpercentile, a, q, out, axis, method, keepdims, weights, interpolation)
    if weights is not None:
        return _weighted_quantile(a, q, axis, out, interpolation or method, keepdims, weights, 100.0, True)
    return _quantile(a, q, axis, out, interpolation or method, keepdims, True, scale=100.0)


def _median(a, axis, out, keepdims, nan_aware):
    """The middle element, or the mean of the two middle ones, as NumPy."""
    from ._select import take_along_axis
    a0 = asarray(a)
    if nan_aware and a0.size == 0:  # NumPy's answer: nanmean's
        from ._reductions import nanmean
        return nanmean(a0, axis, out=out, keepdims=keepdims)
    m, ax, axes = _reduce_axis_arg(a0, axis)
    n = m.shape[ax]
    fdt = m._dtype if m._dtype in _FLOATS or m._dtype in _COMPLEX else "float64"
    if n == 0:
        if m.size == 0 and builtins.all(d > 0 for i, d in enumerate(m.shape) if i != ax):
            _warn.warn("Mean of empty slice", RuntimeWarning)
            if not nan_aware:  # median's mean then divides 0 by 0, as NumPy's
                from ._functions import _fp_event
                _fp_event("invalid", "scalar divide" if m.ndim == 1 else "divide")
        nan = complex(_np.nan, _np.nan) if fdt in _COMPLEX else _np.nan  # NumPy's mean of nothing
        r = full(m.shape[:ax] + m.shape[ax + 1:], nan, fdt)
        return _finish(_keep(r, a0, axes, keepdims), out)
    if m.ndim == 1 and not nan_aware and m._dtype not in _COMPLEX:  # selected, not sorted
        s = _Picked(m, sorted({(n - 1) // 2, n // 2, n - 1}))
    else:
        s = sort(m, axis=ax)
    key = (slice(None),) * ax
    if nan_aware and fdt == s._dtype:
        cnt = _U["logical_not"](_U["isnan"](s)).sum(axis=ax, keepdims=True)
        none = cnt == 0
        if axes is not None and m.ndim > 1:  # NumPy's nanmedian warns once per all-NaN slice
            _warn_each(none, "All-NaN slice encountered")
        else:
            _warn_where(none, "All-NaN slice encountered")
        lo = ((cnt - 1) // 2).clip(0, n - 1)
        hi = (cnt // 2).clip(0, n - 1)
        x0, x1 = take_along_axis(s, lo, ax).astype(fdt), take_along_axis(s, hi, ax).astype(fdt)
        r = _where3(lo == hi, x0, (x0 + x1) / 2)
        r = _where3(none, _np.nan, r)
    else:
        x0 = s[key + (slice((n - 1) // 2, (n - 1) // 2 + 1),)].astype(fdt)
        x1 = s[key + (slice(n // 2, n // 2 + 1),)].astype(fdt)
        r = x0 if n % 2 else (x0 + x1) / 2
        if fdt == s._dtype:  # a NaN sorts last: the result is it (NumPy's nan check)
            last = s[key + (slice(n - 1, n),)]
            r = _where3(_U["isnan"](last), last, r)
    r = asarray(r).astype(fdt)[key + (0,)]
    return _finish(_keep(r, a0, axes, keepdims), out)


def median(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _median(a, axis, out, keepdims, False)


def nanmedian(a, axis=None, out=None, overwrite_input=False, keepdims=False):
    return _median(a, axis, out, keepdims, True)
