"""Announced fallbacks: NumPy functions maniple.numpy does not implement
natively yet, run by NumPy on one rank (see _root). The first call of each
warns (UserWarning) that its arrays are gathered to one rank.

Only pure functions are on the list: they return new arrays or scalars and
never write into their arguments nor return views of them (a gathered copy
could not keep either promise). Left out on purpose: in-place writers
(fill_diagonal, place, put, putmask, put_along_axis, copyto, nan_to_num with
copy=False), functions returning views or their argument (diagonal, real,
imag, moveaxis, broadcast_to, the split family, rot90, ix_, trim_zeros,
einsum, atleast_3d, asarray-like conversions), functions calling user code
(apply_along_axis, piecewise, vectorize, fromfunction: the code would run on
one rank only) and those whose results maniple cannot hold at all
(sort_complex). Arrays in a result that maniple cannot hold
(longdouble ones, for instance) come back as NumPy arrays, the same on every
rank; complex ones (fft's) are maniple arrays."""

import numpy as _np

from . import _root, _warn
from ._engine import _assign
from ._ndarray import ndarray

# namespace ("" = numpy itself) -> NumPy names
FALLBACKS = {
    "": [
        # element-wise
        "acosh", "arccosh", "arcsinh", "arctanh", "asinh", "atanh", "cbrt", "deg2rad", "degrees", "rad2deg",
        "radians", "exp2", "fabs", "fmod", "float_power", "gcd", "lcm", "heaviside", "ldexp", "logaddexp",
        "logaddexp2", "nextafter", "signbit", "spacing", "divmod", "frexp", "modf", "conj", "conjugate",
        "isneginf", "isposinf", "iscomplex", "isreal", "i0", "sinc", "angle", "fix", "around",
        # statistics and histograms
        "average", "median", "percentile", "quantile", "std", "var", "ptp", "nanargmax", "nanargmin",
        "nancumprod", "nancumsum", "nanmax", "nanmean", "nanmedian", "nanmin", "nanpercentile", "nanprod",
        "nanquantile", "nanstd", "nansum", "nanvar", "cov", "corrcoef", "histogram", "histogram2d",
        "histogramdd", "histogram_bin_edges", "bincount", "digitize",
        # cumulative, differences, signals
        "cumsum", "cumprod", "cumulative_sum", "cumulative_prod", "diff", "ediff1d", "gradient", "trapezoid",
        "unwrap", "interp", "convolve", "correlate",
        # sorting, searching, sets, selection
        "sort", "argsort", "partition", "argpartition", "searchsorted", "lexsort", "unique", "unique_all",
        "unique_counts", "unique_inverse", "unique_values", "intersect1d", "union1d", "setdiff1d", "setxor1d",
        "isin", "nonzero", "argwhere", "flatnonzero", "extract", "compress", "take", "take_along_axis",
        "choose", "select", "array_equiv",
        # products
        "outer", "inner", "tensordot", "kron", "cross", "trace", "vecdot", "matvec", "vecmat",
        # construction
        "append", "insert", "delete", "resize", "column_stack", "dstack", "block", "diagflat", "tri", "tril",
        "triu", "vander", "indices", "diag_indices", "diag_indices_from", "tril_indices", "tril_indices_from",
        "triu_indices", "triu_indices_from", "ravel_multi_index", "unravel_index", "geomspace", "logspace",
        "bartlett", "blackman", "hamming", "hanning", "kaiser",
    ],
    "linalg": ["cross", "matrix_power", "multi_dot", "outer", "tensordot", "trace", "vecdot"],
}

_warned = set()


def _announce(qualname):
    if qualname not in _warned:
        _warned.add(qualname)
        _warn.warn(f"maniple.numpy: numpy.{qualname} is not implemented natively; its arrays are gathered "
                      "to one rank and NumPy runs there (an announced fallback: it does not scale)",
                      UserWarning)


def make(qualname, np_func):
    """maniple.numpy's stand-in for NumPy's np_func, run on one rank."""

    def fallback(*args, **kwargs):
        _announce(qualname)
        out = kwargs.pop("out", None)
        if isinstance(np_func, _np.ufunc) and len(args) > np_func.nin:  # ufuncs take out positionally too
            args, out = args[:np_func.nin], args[np_func.nin:]
        if isinstance(out, tuple) and len(out) == 1:
            out = out[0]
        if out is not None and not isinstance(out, ndarray):
            raise TypeError(f"maniple.numpy.{qualname}: out must be a maniple array")
        r = _root.call(np_func, args, kwargs)
        if out is None:
            return r
        if not isinstance(r, ndarray):  # a scalar or a NumPy-only array
            from ._creation import asarray
            r = asarray(r)
        if r.shape != out.shape:
            raise ValueError(f"maniple.numpy.{qualname}: out has shape {out.shape}, the result {r.shape}")
        _assign(out._materialize(), r, same_kind=True)
        return out

    name = getattr(np_func, "__name__", qualname.rsplit(".", 1)[-1])
    fallback.__name__ = fallback.__qualname__ = name
    fallback.__doc__ = (f"numpy.{qualname}, computed by NumPy on one rank (announced fallback: the arrays are "
                        f"gathered there, the result comes back to every rank).\n\n{np_func.__doc__ or ''}")
    fallback._mn_kind = "fallback"
    return fallback


def install(namespace, space=""):
    """Define the fallbacks of one NumPy namespace in a module's globals,
    leaving every name maniple already implements natively as it is."""
    src = _np
    for part in filter(None, space.split(".")):
        src = getattr(src, part)
    for name in FALLBACKS.get(space, []):
        if name in namespace or not hasattr(src, name):
            continue
        namespace[name] = make(f"{space}.{name}" if space else name, getattr(src, name))
