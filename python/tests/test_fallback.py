"""Announced fallbacks (maniple.numpy._fallback) against NumPy, on every rank
under mpiexec -n 1, 2, 3: each allow-listed function on maniple arrays gives
NumPy's result (maniple arrays where maniple can hold the dtype), NumPy's
errors are raised on every rank, and the first call warns."""
import warnings

import numpy
import pytest

import maniple
import maniple.numpy as np
from maniple.numpy import _fallback

inf, nan = numpy.inf, numpy.nan
X = numpy.array([0.5, -1.25, 2.0, 3.5, -0.75, 1.0, 4.25])
XS = numpy.sort(X)
XI = numpy.array([3, 1, 4, 1, 5, 9, 2, 6])
XN = numpy.array([0.5, nan, 2.0, -3.5, nan, 1.0])
XE = numpy.array([-inf, -1.5, 0.0, 2.5, inf])
M = numpy.arange(12.0).reshape(4, 3) ** 1.5 - 3
S = numpy.array([[4.0, 1, 0.5], [1, 3, 0.2], [0.5, 0.2, 2]])
P = numpy.array([1.0, -3, 2])

# qualified name -> (args, kwargs); NumPy arrays here become maniple arrays
# (in lists and tuples too) for the maniple call
CASES = {
    "acosh": ((1 + abs(X),), {}), "arccosh": ((1 + abs(X),), {}), "arcsinh": ((X,), {}), "asinh": ((X,), {}),
    "arctanh": ((X / 5,), {}), "atanh": ((X / 5,), {}), "cbrt": ((X,), {}), "deg2rad": ((X,), {}),
    "degrees": ((X,), {}), "rad2deg": ((X,), {}), "radians": ((X,), {}), "exp2": ((X,), {}), "fabs": ((X,), {}),
    "fmod": ((X, 0.75), {}), "float_power": ((abs(X), 1.5), {}), "gcd": ((XI, 6), {}), "lcm": ((XI, 6), {}),
    "heaviside": ((X, 0.5), {}), "ldexp": ((X, XI[:7]), {}), "logaddexp": ((X, X[::-1].copy()), {}),
    "logaddexp2": ((X, X[::-1].copy()), {}), "nextafter": ((X, 10.0), {}), "signbit": ((X,), {}),
    "spacing": ((X,), {}), "divmod": ((X, 0.75), {}), "frexp": ((X,), {}), "modf": ((X,), {}),
    "conj": ((X,), {}), "conjugate": ((X,), {}), "isneginf": ((XE,), {}), "isposinf": ((XE,), {}),
    "iscomplex": ((X,), {}), "isreal": ((X,), {}), "i0": ((X,), {}), "sinc": ((X,), {}), "angle": ((X,), {}),
    "fix": ((X,), {}), "around": ((X * 1.37, 1), {}),
    "average": ((M,), {"axis": 0, "weights": numpy.array([1.0, 2, 3, 4])}), "median": ((M,), {"axis": 1}),
    "percentile": ((X, 30), {}), "quantile": ((X, [0.25, 0.75]), {}), "std": ((M,), {"axis": 0, "ddof": 1}),
    "var": ((M,), {}), "ptp": ((M,), {"axis": 1}), "nanargmax": ((XN,), {}), "nanargmin": ((XN,), {}),
    "nancumprod": ((XN,), {}), "nancumsum": ((XN,), {}), "nanmax": ((XN,), {}), "nanmean": ((XN,), {}),
    "nanmedian": ((XN,), {}), "nanmin": ((XN,), {}), "nanpercentile": ((XN, 40), {}), "nanprod": ((XN,), {}),
    "nanquantile": ((XN, 0.4), {}), "nanstd": ((XN,), {}), "nansum": ((XN,), {}), "nanvar": ((XN,), {}),
    "cov": ((M.T,), {}), "corrcoef": ((M.T,), {}), "histogram": ((X,), {"bins": 4}),
    "histogram2d": ((X, X[::-1].copy()), {"bins": 3}), "histogramdd": ((M,), {"bins": 2}),
    "histogram_bin_edges": ((X,), {"bins": 5}), "bincount": ((XI,), {}), "digitize": ((X, [0.0, 1.0, 2.5]), {}),
    "cumsum": ((M,), {"axis": 0}), "cumprod": ((X,), {}), "cumulative_sum": ((X,), {}),
    "cumulative_prod": ((M,), {"axis": 1}), "diff": ((M,), {"axis": 1}), "ediff1d": ((X,), {}),
    "gradient": ((M,), {}), "trapezoid": ((X,), {}), "unwrap": ((X * 3,), {}),
    "interp": ((X, [-2.0, 0, 5], [0.0, 1, 3]), {}), "convolve": ((X, [1.0, 2, 1]), {}),
    "correlate": ((X, [1.0, 0.5]), {"mode": "full"}),
    "sort": ((M,), {"axis": 0}), "argsort": ((X,), {}), "partition": ((X, 3), {}), "argpartition": ((X, 3), {}),
    "searchsorted": ((XS, X), {}), "lexsort": (((XI[:7], X),), {}), "unique": ((XI,), {}),
    "unique_all": ((XI,), {}), "unique_counts": ((XI,), {}), "unique_inverse": ((XI,), {}),
    "unique_values": ((XI,), {}), "intersect1d": ((XI, [1, 2, 3, 10]), {}), "union1d": ((XI, [0, 10]), {}),
    "setdiff1d": ((XI, [1, 9]), {}), "setxor1d": ((XI, [1, 10]), {}), "isin": ((XI, [1, 5]), {}),
    "nonzero": ((M > 0,), {}), "argwhere": ((M > 0,), {}), "flatnonzero": ((X > 0,), {}),
    "extract": ((X > 0, X), {}), "compress": (([True, False, True], M), {"axis": 1}),
    "take": ((X, [0, 2, 4]), {}), "take_along_axis": ((M, numpy.argsort(M, axis=0)), {"axis": 0}),
    "choose": ((XI[:4] % 2, (X[:4], X[3:])), {}), "select": (([X > 1, X < 0], [X, -X], 0.0), {}),
    "array_equiv": ((X, X), {}),
    "outer": ((X, X[:3]), {}), "inner": ((M, M), {}), "tensordot": ((M, M.T), {"axes": 1}),
    "kron": ((S, [[1.0, 2.0]]), {}), "cross": (([1.0, 2, 3], [4.0, 5, 6]), {}), "trace": ((S,), {}),
    "vecdot": ((M, M), {}), "matvec": ((S, S[0]), {}), "vecmat": ((S[0], S), {}),
    "append": ((X, [1.0, 2.0]), {}), "insert": ((X, 2, 9.5), {}), "delete": ((X, [0, 3]), {}),
    "resize": ((X, (3, 4)), {}), "column_stack": (((X, X),), {}), "dstack": (((M, M),), {}),
    "block": (([[S, S], [S, S]],), {}), "diagflat": ((X[:3],), {}), "tri": ((3, 4), {}), "tril": ((M,), {}),
    "triu": ((M, 1), {}), "vander": ((X[:4], 3), {}), "indices": (((2, 3),), {}), "diag_indices": ((3,), {}),
    "diag_indices_from": ((S,), {}), "tril_indices": ((3,), {}), "tril_indices_from": ((S,), {}),
    "triu_indices": ((3, 1), {}), "triu_indices_from": ((S,), {}),
    "ravel_multi_index": ((([0, 1, 2], [1, 0, 2]), (3, 4)), {}), "unravel_index": (([5, 7], (3, 4)), {}),
    "geomspace": ((1, 1000, 4), {}), "logspace": ((0, 2, 5), {}), "bartlett": ((5,), {}),
    "blackman": ((5,), {}), "hamming": ((5,), {}), "hanning": ((5,), {}), "kaiser": ((5, 2.0), {}),
    "linalg.cross": (([1.0, 2, 3], [4.0, 5, 6]), {}), "linalg.matrix_power": ((S, 3), {}),
    "linalg.multi_dot": (([S, S, S],), {}), "linalg.outer": ((X, X[:2]), {}), "linalg.tensordot": ((S, S), {}),
    "linalg.trace": ((S,), {}), "linalg.vecdot": ((M, M), {}),
}


def lookup(module, qualname):
    for part in qualname.split("."):
        module = getattr(module, part)
    return module


def to_maniple(obj):
    if isinstance(obj, numpy.ndarray) and obj.dtype.kind != "c":
        return np.asarray(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_maniple(x) for x in obj)
    if isinstance(obj, dict):
        return {k: to_maniple(v) for k, v in obj.items()}
    return obj


def arrays_in(obj):
    if isinstance(obj, numpy.ndarray):
        yield obj
    elif isinstance(obj, (list, tuple)):
        for x in obj:
            yield from arrays_in(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            yield from arrays_in(x)


def same(got, want):
    """got (maniple's result) equals want (NumPy's), structure, types and dtypes."""
    if isinstance(want, numpy.ndarray):
        assert isinstance(got, np.ndarray), f"{type(got)} instead of a maniple array"
        assert got.shape == want.shape and got.dtype == want.dtype
        numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-12, atol=1e-12, equal_nan=True)
    elif isinstance(want, (tuple, list)):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
    else:
        assert type(got) is type(want)
        if isinstance(want, (float, numpy.floating)) and numpy.isnan(want):
            assert numpy.isnan(got)
        elif isinstance(want, (float, numpy.floating, complex, numpy.complexfloating)):
            # a float reduction: its order (pairwise units, rank count) may differ, as for arrays
            numpy.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)
        else:
            assert got == want


def fallback_names():
    return [f"{space}.{n}" if space else n for space, names in _fallback.FALLBACKS.items() for n in names]


def test_every_allow_listed_name_has_a_case():
    assert sorted(fallback_names()) == sorted(CASES)


def test_fallbacks_are_installed_where_maniple_has_no_native_name():
    assert all(getattr(lookup(np, n), "_mn_kind", "native") in ("fallback", "native") for n in CASES)
    assert getattr(np.polyfit, "_mn_kind", None) is None and getattr(np.fft.fft, "_mn_kind", None) is None  # native now
    assert np.linalg.tensorsolve._mn_kind == "gathered" and getattr(np.linalg.multi_dot, "_mn_kind", None) is None


@pytest.mark.parametrize("name", sorted(CASES))
def test_fallback_matches_numpy(name):
    f = lookup(np, name)
    # a name maniple comes to implement natively replaces its fallback; the
    # comparison with NumPy below then checks the native one
    assert getattr(f, "_mn_kind", "native") in ("fallback", "native")
    args, kwargs = CASES[name]
    before = [a.copy() for a in arrays_in((args, kwargs))]
    want = lookup(numpy, name)(*args, **kwargs)
    if name == "unique_values":  # NumPy may hash (any order); maniple sorts
        want = numpy.sort(want)
    # the list's promise: NumPy's result is new (no views of the arguments)
    # and the arguments are left as they were
    for r in arrays_in(want):
        for a in arrays_in((args, kwargs)):
            assert not numpy.shares_memory(r, a), f"numpy.{name} returned a view"
    for a, b in zip(arrays_in((args, kwargs)), before):
        numpy.testing.assert_array_equal(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        got = f(*to_maniple(args), **to_maniple(kwargs))
    same(got, want)


def test_first_call_warns_once():
    _fallback._warned.discard("histogram")  # (bins='stone', a scan of histograms: a fallback)
    x = np.asarray(X)
    with pytest.warns(UserWarning, match=r"numpy\.histogram is not implemented natively; its arrays are "
                                         r"gathered to one rank"):
        np.histogram(x, bins="stone")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        np.histogram(x, bins="stone")  # once per function


def test_numpy_functions_route_to_fallbacks():
    """NumPy's own functions called on maniple arrays (__array_function__,
    __array_ufunc__) run the fallback and give maniple arrays."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        r = numpy.polyval(np.asarray(P), np.asarray(X))
        assert isinstance(r, np.ndarray)
        numpy.testing.assert_allclose(numpy.asarray(r), numpy.polyval(P, X))
        r = numpy.cbrt(np.asarray(X))
        assert isinstance(r, np.ndarray)
        numpy.testing.assert_allclose(numpy.asarray(r), numpy.cbrt(X))
        h, edges = numpy.histogram(np.asarray(X), bins=3)
        assert isinstance(h, np.ndarray) and isinstance(edges, np.ndarray)
        numpy.testing.assert_array_equal(numpy.asarray(h), numpy.histogram(X, bins=3)[0])
        f = numpy.fft.rfft(np.asarray(X))
        assert isinstance(f, np.ndarray) and f.dtype == numpy.complex128  # a maniple array


@pytest.mark.parametrize("n", [0, 1, 2, 5])
@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64"])
def test_small_and_empty_arrays(n, dtype):
    """Sizes 0, 1 and smaller than the rank count; NumPy's dtypes kept."""
    x = (numpy.arange(n)[::-1] * 3 % 7).astype(dtype)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        for name in ("sort", "cumsum", "argsort", "diff", "unique"):
            same(getattr(np, name)(np.asarray(x)), getattr(numpy, name)(x))
        same(np.fft.fftshift(np.asarray(x)), numpy.fft.fftshift(x))
        same(np.outer(np.asarray(x), np.asarray(x)), numpy.outer(x, x))


def test_out_argument():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        out = np.zeros(X.shape)
        r = np.cumsum(np.asarray(X), out=out)
        assert r is out
        numpy.testing.assert_allclose(numpy.asarray(out), numpy.cumsum(X))
        out = np.zeros(X.shape)
        np.cbrt(np.asarray(X), out)  # ufuncs take out positionally
        numpy.testing.assert_allclose(numpy.asarray(out), numpy.cbrt(X))


def test_numpy_errors_on_every_rank():
    """NumPy raises on one rank; every rank raises the same type and message."""
    x = np.asarray(X)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(TypeError, match="expected x and y to have same length"):
            np.polyfit(x, np.asarray(X[:3]), 1)
        with pytest.raises(ValueError, match="monotonic"):
            np.digitize(x, np.asarray([1.0, 0.0, 2.0]))
        with pytest.raises(numpy.exceptions.AxisError):
            np.cumsum(x, axis=3)
        with pytest.raises(ValueError):  # no maniple arrays: every rank computes
            np.fft.fftfreq(-1)
        # every rank is still in step afterwards
        assert float(np.sum(x)) == pytest.approx(X.sum())


def test_rank_count_does_not_change_results():
    x = np.arange(23) * 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        r = np.cumsum(x)
    want = numpy.cumsum(numpy.arange(23) * 0.5)
    numpy.testing.assert_array_equal(numpy.asarray(r), want)
    assert maniple.size() >= 1


def test_names_maniple_implements_stay_native():
    import maniple.numpy.linalg as la
    for name in ("sum", "concatenate", "where", "reshape", "sqrt", "matrix_transpose"):
        assert getattr(getattr(np, name), "_mn_kind", None) is None
    assert getattr(la.norm, "_mn_kind", None) is None
