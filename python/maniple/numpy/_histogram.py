"""bincount, histogram and histogram_bin_edges: counts from a distributed
sort and searchsorted of the bin edges (NumPy's cumulative-histogram
method), so they are exact and the same at any rank count. The edges are
NumPy's, made from the data's range (a distributed min and max); weighted
counts, and bins chosen from the data's spread ('auto', 'fd', ...), are
announced fallbacks (NumPy on one rank)."""
import operator

import numpy as _np

from ._creation import arange, asarray, zeros


def _fallback(name):
    from . import _fallback as fb
    return fb.make(name, getattr(_np, name))


def bincount(x, weights=None, minlength=0):
    """numpy.bincount of non-negative integers; weights: the fallback."""
    if weights is not None:
        return _fallback("bincount")(x, weights, minlength)
    x = asarray(x)
    if x.ndim != 1:
        raise ValueError("object too deep for desired array" if x.ndim > 1 else "object of too small depth for "
                         "desired array")
    if not _np.can_cast(x.dtype, _np.intp, "safe"):
        raise TypeError(f"Cannot cast array data from dtype('{x.dtype}') to dtype('int64') according to the rule "
                        "'safe'")
    minlength = operator.index(minlength)
    if minlength < 0:
        raise ValueError("'minlength' must not be negative")
    from ._reductions import diff
    from ._sorting import searchsorted, sort
    xi = x.astype("int64")
    if x.shape[0] == 0:
        return zeros(minlength, "int64")
    lo, hi = int(xi.min()), int(xi.max())
    if lo < 0:
        raise ValueError("'list' argument must have no negative elements")
    n = max(hi + 1, minlength)
    cum = searchsorted(sort(xi), arange(n + 1, dtype="int64"), side="left")
    return diff(cum)


def _edges(a, bins, range):
    """NumPy's bin edges for a with int or array bins, from a's range (a
    distributed min and max, passed as the range NumPy would find); None
    where NumPy needs the data itself (string bins)."""
    if isinstance(bins, str):
        return None
    if range is None and a.size and _np.ndim(bins) == 0:
        lo, hi = a.min(), a.max()
        if not (_np.isfinite(lo) and _np.isfinite(hi)):
            raise ValueError(f"autodetected range of [{lo}, {hi}] is not finite")
        range = (lo, hi)
    return _np.histogram_bin_edges(_np.empty(0, a.dtype), bins, range)


def histogram_bin_edges(a, bins=10, range=None, weights=None):
    a = asarray(a).ravel()
    e = _edges(a, bins, range)
    if e is None:
        return _fallback("histogram_bin_edges")(a, bins, range, weights)
    return asarray(e)


def histogram(a, bins=10, range=None, density=None, weights=None):
    """numpy.histogram: counts of sorted a between the edges (the last
    bin closed), exact integers; density divides by the widths and total."""
    a = asarray(a).ravel()
    if weights is not None:
        return _fallback("histogram")(a, bins, range, density, weights)
    e = _edges(a, bins, range)
    if e is None:
        return _fallback("histogram")(a, bins, range, density, weights)
    from ._manipulation import concatenate
    from ._reductions import diff
    from ._sorting import searchsorted, sort
    edges = asarray(e)
    ct = str(_np.result_type(a.dtype, e.dtype))  # searchsorted compares in the common type
    sa, ev = sort(a.astype(ct)), edges.astype(ct)
    cum = concatenate((searchsorted(sa, ev[:-1], side="left"), searchsorted(sa, ev[-1:], side="right")))
    n = diff(cum)
    if density:
        db = _np.diff(e).astype(float)
        return n / asarray(db) / n.sum(), edges
    return n, edges
