"""Sorting, searching, sets, cumulative operations and order statistics
against NumPy, on every rank under mpiexec -n 1, 2, 3."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp

from xp import SHAPES, check, data, raises_like

DTYPES = ["float64", "float32", "int64", "int32", "bool"]


@pytest.mark.parametrize("shape", [s for s in SHAPES if s])
@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_argsort_every_axis(shape, dtype):
    x = data(shape, dtype, seed=1, nan=True)
    for axis in list(range(-1, len(shape))) + [None]:
        check(lambda xp: xp.sort(xp.asarray(x), axis=axis))
        check(lambda xp: xp.argsort(xp.asarray(x), axis=axis, kind="stable"))


def test_sort_large_1d_across_ranks_and_in_place():
    x = data((5003,), "float64", seed=2, nan=True)
    check(lambda xp: xp.sort(xp.asarray(x)))
    check(lambda xp: xp.argsort(xp.asarray(x), kind="stable"))

    def inplace(xp):
        a = xp.asarray(data((6, 9), seed=3))
        a.sort(axis=0)
        b = xp.asarray(data((6, 9), seed=3))
        b.sort()
        return a, b
    check(inplace)


def test_partition_is_a_valid_partition():
    import maniple.numpy as mnp
    x = data((40,), seed=4)
    for k in (0, 17, 39):
        p = numpy.asarray(mnp.partition(mnp.asarray(x), k))
        assert p[k] == numpy.sort(x)[k] and (p[:k] <= p[k]).all() and (p[k + 1:] >= p[k]).all()
        i = numpy.asarray(mnp.argpartition(mnp.asarray(x), k))
        assert x[i[k]] == numpy.sort(x)[k]
    raises_like(lambda xp: xp.partition(xp.asarray(x), 40), ValueError)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_searchsorted_complex(dtype):
    """NumPy's complex order (real parts, then imaginary; NaNs last by
    kind), ties and every NaN kind, against a sorted array with repeats."""
    vals = numpy.array([0, 1, 1j, -1j, 1 + 1j, 2, numpy.nan, complex(numpy.nan, 1), complex(1, numpy.nan),
                        complex(numpy.nan, numpy.nan), complex(numpy.inf, 0), -numpy.inf])
    rng = numpy.random.default_rng(11)
    a = numpy.sort((rng.choice(vals, 23) + rng.integers(0, 2, 23)).astype(dtype))
    v = (rng.choice(vals, 14) + rng.integers(0, 2, 14)).astype(dtype)
    for side in ("left", "right"):
        check(lambda xp: xp.searchsorted(xp.asarray(a), xp.asarray(v.reshape(2, 7)), side=side))
        check(lambda xp: xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side))
        check(lambda xp: xp.searchsorted(xp.asarray(a[:0]), xp.asarray(v), side=side))
        check(lambda xp: xp.searchsorted(xp.asarray(a), 1 + 1j, side=side))


@pytest.mark.parametrize("dtype", ["float64", "int32"])
def test_searchsorted_lexsort_digitize(dtype):
    a = numpy.sort(data((50,), dtype, seed=5))
    v = data((3, 7), dtype, seed=6)
    for side in ("left", "right"):
        check(lambda xp: xp.searchsorted(xp.asarray(a), xp.asarray(v), side=side))
        check(lambda xp: xp.searchsorted(xp.asarray(a), 3, side=side))
    s = numpy.argsort(data((50,), dtype, seed=7), kind="stable")
    check(lambda xp: xp.searchsorted(xp.asarray(data((50,), dtype, seed=7)), xp.asarray(v), sorter=xp.asarray(s)))
    k1, k2 = data((30,), "int64", seed=8) % 3, data((30,), "float64", seed=9)
    check(lambda xp: xp.lexsort((xp.asarray(k2), xp.asarray(k1))))
    bins = numpy.array([-5.0, -1.0, 0.0, 2.5, 7.0])
    for right in (False, True):
        check(lambda xp: xp.digitize(xp.asarray(v.astype("float64")), xp.asarray(bins), right=right))
        check(lambda xp: xp.digitize(xp.asarray(v.astype("float64")), xp.asarray(bins[::-1].copy()), right=right))
    check(lambda xp: xp.searchsorted(xp.asarray(numpy.array([0.0, 1.0, numpy.nan])), xp.asarray([numpy.nan, 2.0])))


@pytest.mark.parametrize("shape", [(0,), (1,), (2,), (37,), (6, 7)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "bool"])
def test_unique(shape, dtype):
    x = data(shape, dtype, seed=10, nan=True)
    check(lambda xp: xp.unique(xp.asarray(x)))
    check(lambda xp: xp.unique(xp.asarray(x), return_index=True, return_inverse=True, return_counts=True))
    check(lambda xp: tuple(xp.unique_all(xp.asarray(x))))
    check(lambda xp: tuple(xp.unique_counts(xp.asarray(x))))
    # NumPy's order among equal NaNs is unspecified here (an unstable sort):
    # the values must match and the inverse must rebuild x
    import maniple.numpy as mnp
    v, inv = mnp.unique_inverse(mnp.asarray(x))
    numpy.testing.assert_array_equal(numpy.asarray(v), numpy.unique_inverse(x).values)
    numpy.testing.assert_array_equal(numpy.asarray(v)[numpy.asarray(inv)], x)
    # NumPy's unique_values may come unsorted (hashing); maniple's are sorted
    numpy.testing.assert_array_equal(numpy.asarray(mnp.unique_values(mnp.asarray(x))),
                                     numpy.sort(numpy.unique_values(x)))


def test_set_operations():
    a, b = data((23,), "int64", seed=11), data((17,), "int64", seed=12)
    for f in ("intersect1d", "union1d", "setdiff1d", "setxor1d"):
        check(lambda xp: getattr(xp, f)(xp.asarray(a), xp.asarray(b)))
    check(lambda xp: xp.isin(xp.asarray(data((4, 5), "int64", seed=13)), xp.asarray(b)))
    check(lambda xp: xp.isin(xp.asarray(data((4, 5), "int64", seed=13)), xp.asarray(b), invert=True))
    check(lambda xp: xp.isin(xp.asarray(data((6,), "float64", seed=14, nan=True)), xp.asarray([0.5, numpy.nan])))


@pytest.mark.parametrize("shape", [(0,), (2,), (11,), (7, 5), (3, 4, 5)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "int64", "bool"])
def test_cumulative(shape, dtype):
    x = data(shape, dtype, seed=15)
    tol = dict(rtol=1e-5) if dtype == "float32" else dict(rtol=1e-12)
    for axis in [None] + list(range(len(shape))):
        check(lambda xp: xp.cumsum(xp.asarray(x), axis=axis), **tol)
        check(lambda xp: xp.cumprod(xp.asarray(x) if dtype == "bool" else xp.asarray(x) % 3 - 1, axis=axis), **tol)
        if axis is not None:
            check(lambda xp: xp.cumulative_sum(xp.asarray(x), axis=axis, include_initial=True), **tol)
    check(lambda xp: xp.asarray(x).cumsum(dtype="float64"), **tol)


@pytest.mark.parametrize("dtype", ["float64", "float16", "complex128", "complex64"])
def test_scans_start_from_the_first_element(dtype):
    """Each line's first result is its first element, not identity op it:
    cumsum keeps -0.0, and cumprod of complex inf+3j is inf+3j (times
    1+0j it was inf+nanj), along every axis and over the ranks' blocks."""
    x = numpy.ones((3, 5), dtype)
    x[:, 0] = -0.0
    if "complex" in dtype:
        x[1, 0] = complex(numpy.inf, 3.0)
        x[2, 0] = complex(2.0, -numpy.inf)
    for axis in (None, 0, 1):
        for fn in ("cumsum", "cumprod"):
            got = numpy.asarray(getattr(mnp, fn)(mnp.asarray(x), axis=axis))
            want = getattr(numpy, fn)(x, axis=axis)
            numpy.testing.assert_array_equal(got, want)
            assert (numpy.signbit(got.real) == numpy.signbit(want.real)).all()


def test_nan_cumulative():
    x = data((4, 6), "float64", seed=16, nan=True)
    check(lambda xp: xp.nancumsum(xp.asarray(x), axis=1), rtol=1e-12)
    check(lambda xp: xp.nancumprod(xp.asarray(x) % 2, axis=0), rtol=1e-12)


@pytest.mark.parametrize("shape", [(1,), (2,), (9,), (6, 7), (3, 4, 5)])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_median_percentile_quantile(shape, dtype):
    x = data(shape, dtype, seed=17)
    tol = dict(rtol=1e-6 if dtype == "float32" else 1e-14, atol=1e-6)
    axes = [None] + list(range(len(shape))) + ([(0, 1)] if len(shape) > 2 else [])
    for axis in axes:
        check(lambda xp: xp.median(xp.asarray(x), axis=axis), **tol)
        check(lambda xp: xp.percentile(xp.asarray(x), 30, axis=axis), **tol)
        check(lambda xp: xp.quantile(xp.asarray(x), [0.0, 0.25, 0.5, 1.0], axis=axis), **tol)
        for m in ("lower", "higher", "nearest", "midpoint"):
            check(lambda xp: xp.quantile(xp.asarray(x), 0.4, axis=axis, method=m), **tol)
    check(lambda xp: xp.median(xp.asarray(x), axis=0, keepdims=True), **tol)


def test_nan_order_statistics():
    x = data((5, 8), "float64", seed=18, nan=True)
    x[2] = numpy.nan
    with numpy.errstate(all="ignore"):
        import warnings
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(lambda xp: xp.median(xp.asarray(x), axis=1), rtol=1e-14)
            check(lambda xp: xp.nanmedian(xp.asarray(x), axis=1), rtol=1e-14)
            check(lambda xp: xp.nanmedian(xp.asarray(x[:, :3])), rtol=1e-14)
            check(lambda xp: xp.nanpercentile(xp.asarray(x), 75, axis=1), rtol=1e-14)
            check(lambda xp: xp.nanquantile(xp.asarray(x), 0.1, axis=0), rtol=1e-14)
    raises_like(lambda xp: xp.quantile(xp.asarray(x), 1.5), ValueError, "range")


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64"])
def test_weighted_quantile_inverted_cdf(dtype):
    """NumPy 2's weights= (method inverted_cdf): weights of a's shape or of
    the reduced axes', zero weights (leading ones never chosen), several q,
    keepdims, several axes, NaN lines; NumPy's errors"""
    rng = numpy.random.default_rng(5)
    a = rng.integers(0, 10, size=(6, 7)).astype(dtype)
    w = rng.integers(1, 4, size=(6, 7)).astype("float64")
    w[0, 0] = 0
    w[1, :3] = 0
    w[:2, 4] = 0
    w1 = rng.random(7)
    for q in (0, 0.3, 0.5, 1.0, [0.1, 0.5, 0.9]):
        for kw in (dict(axis=None), dict(axis=0), dict(axis=1), dict(axis=-1, keepdims=True), dict(axis=(0, 1))):
            check(lambda xp: xp.quantile(xp.asarray(a), q, method="inverted_cdf", weights=xp.asarray(w), **kw))
        check(lambda xp: xp.quantile(xp.asarray(a), q, axis=1, method="inverted_cdf", weights=w1))
        check(lambda xp: xp.percentile(xp.asarray(a), numpy.multiply(q, 100), axis=0, method="inverted_cdf",
                                       weights=xp.asarray(w)))
    if dtype != "int64":
        b = a.copy()
        b[2, 3] = numpy.nan
        b[4, :] = numpy.nan
        with numpy.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NumPy's all-NaN slice warning
            for q in (0.2, 0.5, 1.0):
                check(lambda xp: xp.quantile(xp.asarray(b), q, axis=1, method="inverted_cdf", weights=w))
                check(lambda xp: xp.nanquantile(xp.asarray(b), q, axis=1, method="inverted_cdf", weights=w))
                check(lambda xp: xp.nanpercentile(xp.asarray(b), 100 * q, axis=0, method="inverted_cdf", weights=w))
            check(lambda xp: xp.nanquantile(xp.asarray(b), [0.3, 0.7], method="inverted_cdf", weights=w))
    A = lambda xp: xp.asarray(a)  # noqa: E731
    for kw in ({}, {"axis": 0}, {"axis": 1, "keepdims": True}, {"keepdims": True}):  # q = []: an empty first axis
        check(lambda xp: xp.quantile(A(xp), [], method="inverted_cdf", weights=xp.asarray(w), **kw))
        check(lambda xp: xp.quantile(A(xp), [], **kw))
    raises_like(lambda xp: xp.quantile(A(xp), 0.5, weights=w), ValueError, "inverted_cdf")
    raises_like(lambda xp: xp.quantile(A(xp), 0.5, method="inverted_cdf", weights=-w), ValueError, "non-negative")
    raises_like(lambda xp: xp.quantile(A(xp), 0.5, method="inverted_cdf", weights=w1), TypeError, "Axis")
    raises_like(lambda xp: xp.quantile(A(xp), 0.5, axis=0, method="inverted_cdf", weights=w1), ValueError, "Shape")
    with numpy.errstate(invalid="ignore"):  # NumPy's 0 / 0 on the way
        raises_like(lambda xp: xp.quantile(A(xp), 0.5, axis=1, method="inverted_cdf", weights=0 * w), ValueError, "zero")


@pytest.mark.parametrize("dtype", ["int64", "float64", "float32", "complex128", "bool", "uint8"])
def test_unique_along_an_axis(dtype):
    """unique rows/columns/subarrays as NumPy's (lexicographic order; index,
    inverse and counts), on every rank at 1-3 ranks."""
    base = numpy.array([[1, 0, 0], [1, 0, 0], [2, 3, 4], [0, 1, 2], [2, 3, 4], [1, 0, 1], [0, 1, 2]])
    x = (base * 0.5 - 0.5).astype(dtype) if dtype != "bool" else base > 1
    for axis in (0, 1, -1):
        check(lambda xp: xp.unique(xp.asarray(x), axis=axis, return_index=True, return_inverse=True,
                                   return_counts=True))
    cube = numpy.stack([x, x[::-1]], axis=2)
    check(lambda xp: xp.unique(xp.asarray(cube), axis=2, return_inverse=True))
    check(lambda xp: xp.unique(xp.asarray(cube), axis=0, return_counts=True))


def test_unique_along_an_axis_edges():
    y = numpy.array([[numpy.nan, 1.0], [numpy.nan, 1.0], [0.0, -0.0], [-0.0, 0.0]])
    check(lambda xp: xp.unique(xp.asarray(y), axis=0, return_counts=True))  # NaN rows differ, -0.0 == 0.0
    v = numpy.array([numpy.nan, 0, 0, numpy.nan])
    check(lambda xp: xp.unique(xp.asarray(v), axis=0))  # 1-d: NumPy's flat unique, NaNs equal
    check(lambda xp: xp.unique(xp.asarray(v), axis=-1, equal_nan=False))
    z = numpy.empty((2, 0), "int8")
    check(lambda xp: xp.unique(xp.asarray(z), axis=0, return_index=True, return_inverse=True, return_counts=True))
    check(lambda xp: xp.unique(xp.asarray(numpy.zeros((0, 3))), axis=0, return_inverse=True))
    raises_like(lambda xp: xp.unique(xp.asarray(v), axis=0.0), TypeError, "integer argument expected")
    raises_like(lambda xp: xp.unique(xp.asarray(y), axis=2), numpy.exceptions.AxisError)


def test_intersect1d_with_indices():
    a = numpy.array([5, 1, 3, 3, 7, numpy.nan, 2, 11, 1])
    b = numpy.array([3, 9, 1, 1, numpy.nan, 5, 0, 2])
    check(lambda xp: xp.intersect1d(xp.asarray(a), xp.asarray(b), return_indices=True))
    check(lambda xp: xp.intersect1d(xp.asarray(b[:4].reshape(2, 2)), xp.asarray(a), return_indices=True))
    check(lambda xp: xp.intersect1d(xp.asarray([4, 1, 3, 8]), xp.asarray([3, 1, 8, 0]), assume_unique=True,
                                    return_indices=True))
    check(lambda xp: xp.intersect1d(xp.asarray([4]), xp.asarray(numpy.array([], "int64")), return_indices=True))


@pytest.mark.filterwarnings("ignore:invalid value")
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int16", "uint8"])
def test_order_statistics_of_large_arrays_are_selected(dtype):
    """Whole-array medians and quantiles of more elements than the selection
    gathers at once (mn_array_order_stats' radix passes), with duplicates,
    and a NaN, -0.0 and infinities in the floats."""
    rng = numpy.random.default_rng(21)
    x = (rng.standard_normal(150_001) * 40).astype(dtype)
    if dtype.startswith("float"):
        x[7], x[8], x[9] = -0.0, numpy.inf, -numpy.inf
    for a in (x, x.reshape(1, -1)[:, ::3]):
        check(lambda xp: xp.median(xp.asarray(a)))
        check(lambda xp: xp.quantile(xp.asarray(a), [0.0, 0.1, 0.5, 0.731, 1.0]), rtol=1e-6)
        check(lambda xp: xp.percentile(xp.asarray(a), 33.3, method="nearest"))
        check(lambda xp: xp.quantile(xp.asarray(a), 0.9, method="median_unbiased"), rtol=1e-6)
    if dtype.startswith("float"):
        x[1234] = numpy.nan
        check(lambda xp: xp.median(xp.asarray(x)))
        check(lambda xp: xp.quantile(xp.asarray(x), [0.2, 0.5]))
