"""Edge cases of sorting, searching, sets, scans and order statistics
against NumPy (found in review), on every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

from xp import check, data, raises_like

DTYPES = ["float64", "float32", "int64", "int32", "bool"]


@pytest.mark.parametrize("shape,axis", [((9, 1), 0), ((9, 1), -2), ((1, 1, 11), 2), ((11, 1, 1), 0)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_when_the_other_axes_have_extent_one(shape, axis, dtype):
    """Lines along the sort axis must stay whole on one rank."""
    x = data(shape, dtype, seed=5, nan=True)
    check(lambda xp: xp.sort(xp.asarray(x), axis=axis))
    check(lambda xp: xp.argsort(xp.asarray(x), axis=axis, kind="stable"))


@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantile_result_dtypes_follow_numpy(fn):
    s = 100 if "perc" in fn else 1
    f32, i32, b = (data((5,), dt, seed=6) for dt in ("float32", "int32", "bool"))
    q = getattr(numpy, "float32")
    for a, qq, method in [(f32, q(0.3 * s), "linear"), (f32, q(0.3 * s), "midpoint"), (f32, 0.3 * s, "midpoint"),
                          (f32, [0.3 * s], "linear"), (f32, 30 if s == 100 else 0.3, "linear"),
                          (i32, q(0.3 * s), "linear"), (i32, q(0.3 * s), "nearest"), (i32, 1 * s, "linear"),
                          (i32, numpy.int64(1 * s), "linear"), (i32, [0, 1 * s], "linear"), (b, 1 * s, "lower"),
                          (b, 0.5 * s, "higher")]:
        check(lambda xp: getattr(xp, fn)(xp.asarray(a), qq, method=method), rtol=1e-6)
    check(lambda xp: getattr(xp, fn)(xp.asarray(data((4, 3), seed=7)), xp.asarray([0.1 * s, 0.9 * s]), axis=0),
          rtol=1e-12)


@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantiles_of_a_q_of_several_dimensions(fn):
    """The result's first axes are q's shape (it was NotImplementedError)."""
    s = 100 if "perc" in fn else 1
    x = data((6, 5), seed=9, nan=fn.startswith("nan"))
    q = numpy.asarray([[0.1, 0.5], [0.9, 0.25], [1.0, 0.0]]) * s
    for axis in (None, 0, 1):
        check(lambda xp: getattr(xp, fn)(xp.asarray(x), q, axis=axis), rtol=1e-12)
    check(lambda xp: getattr(xp, fn)(xp.asarray(x), q, axis=1, keepdims=True, method="nearest"))

    def into(xp):
        out = xp.zeros((3, 2, 5))
        r = getattr(xp, fn)(xp.asarray(x), q, axis=0, out=out)
        return r is out, out
    check(into, rtol=1e-12)
    raises_like(lambda xp: getattr(xp, fn)(xp.asarray(x), q * 3), ValueError, "must be in the range")


@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantile_bad_arguments_raise_as_numpy(fn):
    s = 100 if "perc" in fn else 1
    x = data((7, 5), seed=8)
    raises_like(lambda xp: getattr(xp, fn)(xp.asarray(x), numpy.nan), ValueError, "must be in the range")
    raises_like(lambda xp: getattr(xp, fn)(xp.asarray(x), 1.5 * s), ValueError, "must be in the range")
    raises_like(lambda xp: getattr(xp, fn)(xp.asarray(x), 0.5 * s, method="foo"), ValueError,
                "'foo' is not a valid method")
    raises_like(lambda xp: getattr(xp, fn)(xp.asarray(data((5,), "bool")), 0.5 * s), TypeError, "boolean subtract")


@pytest.mark.filterwarnings("ignore:All-NaN")
def test_nanquantile_top_quantile_ignores_the_nans():
    x = data((7, 5), seed=0, nan=True)
    check(lambda xp: xp.nanquantile(xp.asarray(x), [0.0, 0.5, 1.0], axis=0))
    check(lambda xp: xp.nanpercentile(xp.asarray(x), 100.0, axis=1))
    check(lambda xp: xp.nanquantile(xp.asarray(numpy.array([1.0, numpy.nan])), 1.0))


@pytest.mark.filterwarnings("ignore")
def test_order_statistics_of_empty_slices():
    z = numpy.zeros((0, 3))
    # (NumPy's median of an empty slice also warns "invalid value" from its
    # mean of nothing; maniple's gives only "Mean of empty slice")
    for fn in ("median", "nanmedian"):
        check(lambda xp: getattr(xp, fn)(xp.asarray(numpy.zeros(0))), fpe=False)
        check(lambda xp: getattr(xp, fn)(xp.asarray(z), axis=0), fpe=False)
        check(lambda xp: getattr(xp, fn)(xp.asarray(z), axis=1), fpe=False)
        check(lambda xp: getattr(xp, fn)(xp.asarray(z.astype("float32")), axis=0, keepdims=True), fpe=False)
        check(lambda xp: getattr(xp, fn)(xp.asarray(z.astype("int32")), axis=0), fpe=False)
    check(lambda xp: xp.nanquantile(xp.asarray(z), 0.5, axis=0), fpe=False)
    check(lambda xp: xp.quantile(xp.asarray(z), 0.5, axis=1), fpe=False)
    raises_like(lambda xp: xp.quantile(xp.asarray(z), 0.5, axis=0), IndexError)


def test_digitize_scalars_and_nan_bins():
    x = data((7, 5), seed=9, nan=True)
    check(lambda xp: xp.digitize(1.0, [0.0, 2.0]))
    check(lambda xp: xp.digitize(1.0, [2.0, 0.0]))
    for bins in ([0.0, 2.0, numpy.nan], [2.0, 2.0, 0.0], [2.0, 2.0], [numpy.nan, 2.0, 0.0]):
        check(lambda xp: xp.digitize(xp.asarray(x), bins))
        check(lambda xp: xp.digitize(xp.asarray(x), bins, right=True))
    raises_like(lambda xp: xp.digitize(xp.asarray(x), [numpy.nan, 0.0, 2.0]), ValueError, "monotonically")
    raises_like(lambda xp: xp.digitize(xp.asarray(x), [0.0, 2.0, 1.0]), ValueError, "monotonically")


def test_scans_of_0d_arrays():
    check(lambda xp: xp.cumsum(xp.asarray(3.0), axis=0))
    check(lambda xp: xp.cumprod(xp.asarray(3), axis=-1))
    check(lambda xp: xp.cumulative_sum(xp.asarray(3.0)))
    check(lambda xp: xp.cumulative_prod(xp.asarray(3.0), include_initial=True))


@pytest.mark.filterwarnings("ignore:invalid value")
@pytest.mark.parametrize("method", ["linear", "midpoint"])
def test_quantile_interpolation_as_numpy(method):
    """Integers interpolate from their exact difference; midpoint is NumPy's
    lerp with weight 0.5 (no overflow of x0 + x1)."""
    big = numpy.array([2**53 + 1, 2**53 + 3, 2**60 + 7], dtype=numpy.int64)
    check(lambda xp: xp.quantile(xp.asarray(big), [0.25, 0.5, 0.8], method=method))
    check(lambda xp: xp.nanquantile(xp.asarray(big), [0.25, 0.5, 0.8], method=method))
    check(lambda xp: xp.percentile(xp.asarray(big[:2]), 50, method=method))
    check(lambda xp: xp.quantile(xp.asarray([1e308, 1.7e308]), 0.5, method=method))
    check(lambda xp: xp.quantile(xp.asarray([1.0, numpy.inf, -numpy.inf]), [0.0, 0.2, 0.5, 0.7], method=method))
    f32 = numpy.array([[0.1, 0.7, 0.3, numpy.nan]], numpy.float32)
    check(lambda xp: xp.quantile(xp.asarray(f32[:, :3]), 0.3, axis=1, method=method))
    check(lambda xp: xp.nanquantile(xp.asarray(f32), 0.3, axis=1, method=method))


def test_searchsorted_checks_sorter():
    a = data((5,), seed=2)
    check(lambda xp: xp.searchsorted(xp.asarray(a), [1.0, -2.0], sorter=numpy.argsort(a)))
    raises_like(lambda xp: xp.searchsorted(xp.asarray(a), 1.0, sorter=[0, 1]), ValueError,
                "sorter.size must equal a.size")
    raises_like(lambda xp: xp.searchsorted(xp.asarray(a), 1.0, sorter=[0, 1, 2, 3, 9]), ValueError,
                "Sorter index out of range")
    raises_like(lambda xp: xp.searchsorted(xp.asarray(a), 1.0, sorter=[0.0, 1, 2, 3, 4]), TypeError, "integers")


def test_median_axis_as_a_list():
    check(lambda xp: xp.median(xp.asarray(data((3, 4, 5))), axis=[0, 2]))


def test_argsort_of_0d():
    for axis in (-1, 0, None):
        check(lambda xp: xp.argsort(xp.asarray(3.0), axis=axis))
    check(lambda xp: xp.argpartition(xp.asarray(3.0), 0))
    raises_like(lambda xp: xp.argsort(xp.asarray(3.0), axis=1), numpy.exceptions.AxisError)
    raises_like(lambda xp: xp.sort(xp.asarray(3.0)), numpy.exceptions.AxisError)


@pytest.mark.filterwarnings("ignore:All-NaN")
@pytest.mark.parametrize("method", ["inverted_cdf", "averaged_inverted_cdf", "closest_observation",
                                    "interpolated_inverted_cdf", "hazen", "weibull", "median_unbiased",
                                    "normal_unbiased"])
@pytest.mark.parametrize("fn", ["quantile", "nanquantile", "percentile", "nanpercentile"])
def test_quantile_every_method_as_numpy(method, fn):
    """Hyndman and Fan's other methods: NumPy's virtual indices, bounds and
    weights, on floats (NaNs for the nan-functions), integers, every axis,
    a scalar q and several, the ends 0 and 1 included."""
    s = 100 if "perc" in fn else 1
    x = data((7, 9), seed=9, nan=fn.startswith("nan"))
    qs = [0.0, 0.01 * s, 0.1 * s, 0.5 * s, 0.77 * s, 0.99 * s, 1.0 * s]
    for a in (x, data((7, 9), "int64", seed=10)):
        for axis in (None, 0, 1):
            check(lambda xp: getattr(xp, fn)(xp.asarray(a), 0.3 * s, axis=axis, method=method), rtol=1e-12)
            check(lambda xp: getattr(xp, fn)(xp.asarray(a), qs, axis=axis, method=method), rtol=1e-12)


@pytest.mark.parametrize("shape,axis", [((3, 3), 0), ((3, 3), 1), ((3, 3), None), ((4, 3, 2), (0, 2)), ((2,), 0)])
def test_nanmedian_warns_once_per_all_nan_slice(shape, axis):
    """NumPy's nanmedian warns once for each all-NaN slice (once in all
    without an axis); a rank warns of the slices it holds."""
    import warnings
    import maniple
    x = data(shape, seed=3)
    x[..., :2] = numpy.nan  # all-NaN slices along the last axis, some along the others
    x.reshape(-1)[::5] = numpy.nan
    counts = []
    for xp in (numpy, __import__("maniple.numpy").numpy):
        with warnings.catch_warnings(record=True) as r:
            warnings.simplefilter("always")
            xp.nanmedian(xp.asarray(x), axis=axis)
        counts.append(sum("All-NaN slice" in str(w.message) for w in r))
    check(lambda xp: xp.nanmedian(xp.asarray(x), axis=axis), fpe=False)
    assert counts[0] >= (axis is not None)
    assert counts[1] == counts[0] if maniple.size() == 1 else counts[1] <= counts[0], counts


@pytest.mark.parametrize("shape,axis", [((0, 3), 0), ((0, 3), None), ((0, 3), 1), ((3, 0), 1), ((0,), 0)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32"])
@pytest.mark.parametrize("fn,q", [("nanpercentile", 40), ("nanquantile", [0.1, 0.5]), ("nanmedian", None)])
def test_nan_order_statistics_of_empty_arrays_are_nanmeans(shape, axis, dtype, fn, q):
    """NumPy returns nanmean of an empty array (its warning, shape and dtype; q unused)."""
    import warnings
    args = () if q is None else (q,)
    seen = []
    for xp in (numpy, __import__("maniple.numpy").numpy):
        with warnings.catch_warnings(record=True) as r:
            warnings.simplefilter("always")
            getattr(xp, fn)(xp.zeros(shape, dtype), *args, axis=axis)
        seen.append(sorted(str(w.message) for w in r))
    assert seen[0] == seen[1]
    check(lambda xp: getattr(xp, fn)(xp.zeros(shape, dtype), *args, axis=axis), fpe=False)
