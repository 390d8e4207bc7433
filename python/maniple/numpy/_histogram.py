"""bincount, histogram and histogram_bin_edges: each rank counts its own
elements (NumPy's bincount and histogram on its part, between the global
edges) and the counts are summed over the ranks, so they are exact and the
same at any rank count. Weighted ones
add each rank's weights into their bins' owners (the sparse assembly,
which sums repeated indices in the input's order, as NumPy's bincount
does). The edges are NumPy's, made from the data's range (a distributed
min and max) and, for bins named by an estimator ('auto', 'fd', ...),
NumPy's widths from distributed reductions; 'stone' is an announced
fallback (NumPy on one rank)."""
import operator

import numpy as _np

from . import _warn
from ._creation import _via_array_method, asarray, zeros
from ._dtypes import check_cast
from ._ndarray import _part_of, ndarray
from ._root import everywhere as _host  # bins, range: NumPy's edge code takes them whole


def _fallback(name):
    from . import _fallback as fb
    return fb.make(name, getattr(_np, name))


def _mine(x, dtype):
    """this rank's part of 1-d x as NumPy, from a fresh copy in the default
    layout (so arrays of one length line up element for element)"""
    c = asarray(x).astype(dtype, copy=True)
    return _np.frombuffer(c._materialize().local_values()[1], dtype=dtype)


def _add_at(n, idx, w):
    """float64 sums of the weights w at the indices idx (both 1-d maniple
    arrays of one length) into n bins, in the input's order"""
    from maniple.sparse import _dist
    return _dist.vector(n, _mine(idx, "int64"), _mine(w, "float64"), "float64")


def _summed(local):
    """Every rank's counts (1-d NumPy int64 arrays of one length) summed
    over the ranks, as a distributed array: exact, so the same at any rank
    count."""
    from maniple import _core
    from ._ndarray import _reshaped
    if _core.size() == 1:
        return asarray(local)
    every = ndarray(_core.concat_local("int64", _np.ascontiguousarray(local, dtype=_np.int64).tobytes()))
    return _reshaped(every, (_core.size(), local.shape[0])).sum(axis=0)


def bincount(x, weights=None, minlength=0):
    """numpy.bincount of non-negative integers (weighted: float64 sums)."""
    x = _via_array_method(x)  # (an array-like whose __array__ makes a maniple array)
    if not isinstance(x, (ndarray, _np.ndarray)):
        # a sequence converts to intp as NumPy converts it: floats truncated,
        # with NumPy 2.1's deprecation warning; [] is an empty int array
        v = _np.asarray(x)
        if v.ndim > 1:
            raise ValueError("setting an array element with a sequence. The requested array would exceed the "
                             "maximum number of dimension of 1.")
        if v.dtype.kind == "f" and v.size:
            _warn.warn("Non-integer input passed to bincount. In a future version of NumPy, this will be an "
                          "error. (Deprecated NumPy 2.1)", DeprecationWarning)
        x = asarray(v.astype(_np.intp) if v.dtype.kind in "fb" or v.size == 0 else v)
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else "object of too small depth for "
                         "desired array")
    if x.dtype != _np.uint64:  # (uint64 wraps, as in NumPy)
        check_cast(x.dtype, _np.intp, "safe")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    if weights is not None:
        w = asarray(weights)
        check_cast(w.dtype, _np.float64, "safe")
        if w.shape != x.shape:
            raise ValueError("The weights and list don't have the same length.")
    xi = x.astype("int64")
    if x.shape[0] == 0:
        return zeros(minlength, "int64" if weights is None else "float64")
    lo, hi = int(xi.min()), int(xi.max())
    if lo < 0:
        raise ValueError("'list' argument must have no negative elements")
    n = max(hi + 1, minlength)
    if weights is not None:
        return _add_at(n, xi, w)
    return _summed(_np.bincount(_mine(xi, "int64"), minlength=n))  # each rank counts its part


def _ptp(x):
    hi, lo = x.max(), x.min()
    return int(hi) - int(lo) if _np.dtype(x.dtype).kind in "biu" else hi - lo


def _fd(x):
    from ._sorting import percentile
    q75, q25 = (float(v) for v in _np.asarray(percentile(x, [75, 25])))
    return 2.0 * (q75 - q25) * x.size ** (-1.0 / 3.0)


def _doane(x):
    if x.size > 2:
        sg1 = _np.sqrt(6.0 * (x.size - 2) / ((x.size + 1.0) * (x.size + 3)))
        sigma = float(x.std())
        if sigma > 0.0:
            g1 = float((((x - x.mean()) / sigma) ** 3).mean())
            return _ptp(x) / (1.0 + _np.log2(x.size) + _np.log2(1.0 + abs(g1) / sg1))
    return 0.0


def _auto(x):
    sqrt_bw = _ptp(x) / _np.sqrt(x.size)
    return min(max(_fd(x), sqrt_bw / 2), _ptp(x) / (_np.log2(x.size) + 1.0))


# NumPy's bin-width estimators, on distributed reductions ('stone', which
# scans histograms of every bin count, stays NumPy's)
_WIDTHS = {"sqrt": lambda x: _ptp(x) / _np.sqrt(x.size), "sturges": lambda x: _ptp(x) / (_np.log2(x.size) + 1.0),
           "rice": lambda x: _ptp(x) / (2.0 * x.size ** (1.0 / 3)),
           "scott": lambda x: (24.0 * _np.pi ** 0.5 / x.size) ** (1.0 / 3.0) * float(x.std()),
           "doane": _doane, "fd": _fd, "auto": _auto}


def _estimated_bins(a, name, range):
    """NumPy's number of equal bins for a string estimator, and its range"""
    if range is not None:
        first, last = range
        if first > last:
            raise ValueError("max must be larger than min in range parameter.")
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"supplied range of [{first}, {last}] is not finite")
    elif a.size == 0:
        first, last = 0, 1
    else:
        first, last = a.min(), a.max()
        if not (_np.isfinite(first) and _np.isfinite(last)):
            raise ValueError(f"autodetected range of [{first}, {last}] is not finite")
    if first == last:
        first, last = first - 0.5, last + 0.5
    if range is not None:
        keep = (a >= first) & (a <= last)
        if not bool(keep.all()):
            a = a[keep]
    if a.size == 0:
        return 1, (first, last)
    width = _WIDTHS[name](a)
    if not width:
        return 1, (first, last)
    if _np.dtype(a.dtype).kind in "iu" and width < 1:
        width = 1
    ints = all(isinstance(v, (int, _np.integer)) for v in (first, last))
    delta = int(last) - int(first) if ints else last - first  # (NumPy's subtraction without wrapping)
    return int(_np.ceil(delta / width)), (first, last)


def _uint8_of_bool(a):
    """NumPy's histogram takes bool data as uint8, saying so"""
    if a.dtype == _np.bool_:
        _warn.warn(f"Converting input from {a.dtype} to {_np.uint8} for compatibility.", RuntimeWarning)
        return a.astype("uint8")
    return a


def _edges(a, bins, range, weighted=False):
    """NumPy's bin edges for a, from a's range (a distributed min and max,
    passed as the range NumPy would find) and, for string bins, NumPy's
    width estimators on distributed reductions; None for 'stone' (NumPy's
    data-driven scan: the announced fallback)."""
    bins, range = _host(bins), _host(range)
    if isinstance(bins, str):
        if bins == "stone":
            return None
        if bins not in _WIDTHS:
            raise ValueError(f"{bins!r} is not a valid estimator for `bins`")
        if weighted:
            raise TypeError("Automated estimation of the number of bins is not supported for weighted data")
        n, range = _estimated_bins(a, bins, range)
        return _np.histogram_bin_edges(_np.empty(0, a.dtype), n, range)
    if range is None and a.size and _np.ndim(bins) == 0:
        lo, hi = a.min(), a.max()
        if not (_np.isfinite(lo) and _np.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
        range = (lo, hi)
    return _np.histogram_bin_edges(_np.empty(0, a.dtype), bins, range)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = _uint8_of_bool(asarray(a).ravel())
    e = _edges(a, bins, range, weights is not None)
    if e is None:
        return _fallback("histogram_bin_edges")(a, bins, range, weights)
    return asarray(e)


def _weighted_counts(a, w, e):
    """NumPy's weighted histogram: each value's bin from the edges (the
    last bin closed; values outside, and NaN, weigh nothing), the weights
    summed per bin in the input's order, in the weights' dtype"""
    from ._functions import where
    from ._sorting import searchsorted
    w = w.ravel()
    if w.shape != a.shape:
        raise ValueError("weights should have the same shape as a.")
    nb = len(e) - 1
    ct = str(_np.result_type(a.dtype, e.dtype))
    ac, ev = a.astype(ct), asarray(e).astype(ct)
    idx = searchsorted(ev, ac, side="right") - 1
    last = ac == e[-1]
    idx = where(last, nb - 1, idx)
    keep = (ac >= e[0]) & (ac <= e[-1])
    idx = where(keep, idx, 0)
    wdt = _np.dtype(w.dtype)
    if wdt.kind == "c":
        re = _add_at(nb, idx, where(keep, _part_of(w, "real"), 0))
        im = _add_at(nb, idx, where(keep, _part_of(w, "imag"), 0))
        return (re + 1j * im).astype(wdt.name)
    n = _add_at(nb, idx, where(keep, w.astype("float64"), 0))
    return n if wdt == _np.float64 else n.astype(wdt.name)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """numpy.histogram: counts of sorted a between the edges (the last
    bin closed), exact integers; density divides by the widths and total."""
    a = _uint8_of_bool(asarray(a))
    if weights is not None and _np.shape(weights) != a.shape:
        raise ValueError("weights should have the same shape as a.")
    a = a.ravel()
    e = _edges(a, bins, range, weights is not None)
    if e is None:
        return _fallback("histogram")(a, bins, range, density, weights)
    if weights is not None:
        n = _weighted_counts(a, asarray(weights), e)
        if density:
            db = _np.diff(e).astype(float)
            return n / asarray(db) / n.sum(), asarray(e)
        return n, asarray(e)
    edges = asarray(e)
    if a.dtype.kind in "biuf":  # each rank counts its part between NumPy's edges
        n = _summed(_np.histogram(_mine(a, a.dtype), e)[0])
    else:
        from ._manipulation import concatenate
        from ._reductions import diff
        from ._sorting import searchsorted, sort
        ct = str(_np.result_type(a.dtype, e.dtype))  # searchsorted compares in the common type
        sa, ev = sort(a.astype(ct)), edges.astype(ct)
        cum = concatenate((searchsorted(sa, ev[:-1], side="left"), searchsorted(sa, ev[-1:], side="right")))
        n = diff(cum)
    if density:
        db = _np.diff(e).astype(float)
        return n / asarray(db) / n.sum(), edges
    return n, edges


def histogramdd(sample, bins=10, range=None, density=None, weights=None):
    """numpy.histogramdd of an (N, D) array or a sequence of D 1-d arrays:
    NumPy's edges (from each column's distributed min and max when range
    is None), each sample's bin per dimension by searchsorted (values on
    the last edge in the last bin; outside, and NaN, dropped), then counts
    (or the weights summed in the input's order) over the flat bin index."""
    from ._functions import where
    from ._sorting import searchsorted
    if isinstance(sample, (list, tuple)):
        cols = [asarray(c).ravel() for c in sample]
    else:
        s = asarray(sample)
        if s.ndim == 1:
            cols = [s]
        elif s.ndim == 2:
            cols = [s[:, i] for i in builtins_range(s.shape[1])]
        else:
            raise ValueError(f"sample must be (N, D), not {s.ndim}-d")
    D = len(cols)
    N = cols[0].shape[0] if D else 0
    if any(c.shape[0] != N for c in cols):
        raise ValueError("all arrays in sample must have the same length")
    try:
        M = len(bins)
        if M != D:
            raise ValueError("The dimension of bins must be equal to the dimension of the sample x.")
    except TypeError:
        bins = D * [bins]
    if range is None:
        range = [None] * D
    elif len(range) != D:
        raise ValueError("range argument must have one entry per dimension")
    ranges = []
    for i, c in enumerate(cols):  # NumPy's edges need each column's extent only
        if _np.ndim(bins[i]) == 0 and range[i] is None and N:
            lo, hi = c.min(), c.max()
            if not (_np.isfinite(lo) and _np.isfinite(hi)):
                raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
            ranges.append((lo, hi))
        else:
            ranges.append(range[i])
    probe = [_np.empty(0, c.dtype) for c in cols]
    _, edges = _np.histogramdd(probe, _host(bins), _host(ranges))
    nbin = [len(e) + 1 for e in edges]  # with the two outlier bins
    xy = None
    for i, c in enumerate(cols):
        e = edges[i]
        ct = str(_np.result_type(c.dtype, e.dtype))
        cc = c.astype(ct)
        k = searchsorted(asarray(e).astype(ct), cc, side="right")
        k = where(cc == e[-1], k - 1, k)
        xy = k if xy is None else xy * nbin[i] + k
    total = int(_np.prod(nbin))
    if xy is None or N == 0:
        hist = zeros(total, "float64")
    elif weights is None:
        hist = bincount(xy, minlength=total).astype("float64")
    else:
        w = asarray(weights).ravel()
        if w.shape != (N,):
            raise ValueError("weights must have the same length as the sample")
        hist = bincount(xy, weights=w, minlength=total)
    hist = hist.reshape(tuple(nbin))[(slice(1, -1),) * D].copy()
    if density:
        s = hist.sum()
        for i in builtins_range(D):
            shape = [1] * D
            shape[i] = nbin[i] - 2
            hist = hist / asarray(_np.diff(edges[i]).reshape(shape))
        hist = hist / s
    return hist, [asarray(e) for e in edges]


def histogram2d(x, y, bins=10, range=None, density=None, weights=None):
    """numpy.histogram2d: histogramdd of (x, y), NumPy's reading of bins."""
    if len(x) != len(y):
        raise ValueError("x and y must have the same length.")
    try:
        N = len(bins)
    except TypeError:
        N = 1
    if N != 1 and N != 2:
        xedges = yedges = _np.asarray(bins)
        bins = [xedges, yedges]
    hist, edges = histogramdd([x, y], bins, range, density, weights)
    return hist, edges[0], edges[1]


builtins_range = __builtins__["range"] if isinstance(__builtins__, dict) else __builtins__.range
