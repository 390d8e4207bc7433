"""bincount, histogram and histogram_bin_edges (native: a distributed sort
and searchsorted of NumPy's edges) against NumPy run in the test, on every
rank under mpiexec -n 1, 2, 3. Counts are exact integers, so they are
compared exactly; weighted ones sum in the input's order, as NumPy's, so
they agree bit for bit below NumPy's 65536-element blocks (checked with a
small tolerance where NumPy's cumulative path rounds otherwise);
data-chosen bins are the announced fallback and must agree too."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from xp import check, raises_like

R = numpy.random.default_rng(11)
X = R.integers(0, 9, 50)
A = R.standard_normal(100)


@pytest.mark.parametrize("dt", ["int64", "int32", "uint8", "int16", "bool"])
def test_bincount(dt):
    x = X.astype(dt)
    check(lambda xp: xp.bincount(xp.asarray(x)))
    check(lambda xp: xp.bincount(xp.asarray(x), minlength=15))


def test_bincount_edges():
    check(lambda xp: xp.bincount(xp.asarray(numpy.array([], "int64")), minlength=3))
    check(lambda xp: xp.bincount(xp.asarray(numpy.array([], "int64"))))
    check(lambda xp: xp.bincount(xp.asarray(numpy.array([7]))))
    raises_like(lambda xp: xp.bincount(xp.asarray(numpy.array([1, -1]))), ValueError)
    raises_like(lambda xp: xp.bincount(xp.asarray(numpy.array([1.5]))), TypeError)
    raises_like(lambda xp: xp.bincount(xp.asarray(X), minlength=-1), ValueError)
    raises_like(lambda xp: xp.bincount(xp.asarray(X.reshape(5, 10))), ValueError)


@pytest.mark.parametrize("x", [[], [1.0, 2.0], (1, 2), [True, False], [[1]], [3, 0, 3]], ids=str)
def test_bincount_of_sequences(x):
    """A sequence converts to intp as in NumPy: [] is empty, floats are
    truncated with NumPy 2.1's DeprecationWarning, nested is an error."""
    def run(xp):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = xp.bincount(x, minlength=2)
        return r, [str(k.message) for k in w]
    try:
        want, wmsg = run(numpy)
    except ValueError as e:
        raises_like(lambda xp: xp.bincount(x), ValueError, str(e).split(".")[0])
        return
    got, gmsg = run(mnp)
    assert gmsg == wmsg
    check(lambda xp: want if xp is numpy else got)


def test_bincount_of_an_array_like():
    """An object whose __array__ makes an array of the module in use (a
    script's class after its import changed), as NumPy's gh-28354 test."""
    def run(xp):
        class A:
            def __array__(self, dtype=None, copy=None):
                return xp.array([0, 1, 1, 3, 2, 1, 7], dtype=xp.uint64)
        return xp.bincount(A()), xp.bincount(A(), minlength=10)
    check(run)


@pytest.mark.parametrize("dt", ["uint64", "uint32", "uint16"])
def test_bincount_of_unsigned(dt):
    """uint64 wraps to intp as NumPy casts it (2**63 becomes negative)."""
    check(lambda xp: xp.bincount(xp.asarray(X.astype(dt))))
    raises_like(lambda xp: xp.bincount(xp.asarray(numpy.array([2**63], "uint64"))), ValueError, "negative")


@pytest.mark.parametrize("bins", [10, 7, 1, [-3, -1, 0, 0.5, 2, 3]])
@pytest.mark.parametrize("data", ["float64", "float32", "int", "nan"])
def test_histogram(bins, data):
    a = {"float64": A, "float32": A.astype("float32"), "int": X, "nan": numpy.where(A > 1.5, numpy.nan, A)}[data]
    if data == "nan" and not numpy.ndim(bins):
        bins_range = {"range": (-2.0, 2.0)}  # NaNs have no range: NumPy raises without one
    else:
        bins_range = {}
    check(lambda xp: xp.histogram(xp.asarray(a), bins, **bins_range))
    check(lambda xp: xp.histogram(xp.asarray(a), bins, range=(-1, 1)))
    check(lambda xp: xp.histogram(xp.asarray(a), bins, density=True, **bins_range), rtol=1e-14)
    check(lambda xp: xp.histogram_bin_edges(xp.asarray(a), bins, **bins_range))


def test_histogram_edges_and_fallbacks():
    check(lambda xp: xp.histogram(xp.asarray(numpy.ones(5)), 3))
    check(lambda xp: xp.histogram(xp.asarray(numpy.array([])), 3))
    check(lambda xp: xp.histogram(xp.asarray(A.reshape(10, 10)), 5))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # the fallback's announcement
        check(lambda xp: xp.histogram(xp.asarray(A), "auto"))
    raises_like(lambda xp: xp.histogram(xp.asarray(numpy.array([1.0, numpy.inf])), 3), ValueError)
    raises_like(lambda xp: xp.histogram(xp.asarray(A), 3, range=(2, 1)), ValueError)
    raises_like(lambda xp: xp.histogram(xp.asarray(A), [3, 2, 1]), ValueError)


@pytest.mark.parametrize("wdt", ["float64", "float32", "int64", "complex128"])
def test_weighted_bincount_and_histogram(wdt):
    """native: each rank's weights summed into their bins' owners in the
    input's order (NumPy's bincount order); NumPy's dtypes and errors"""
    w = (R.standard_normal(100) * 10).astype(wdt) if wdt != "complex128" else R.standard_normal(100) + 1j
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback announcement
        if wdt != "complex128":
            check(lambda xp: xp.bincount(xp.asarray(X), weights=xp.asarray(w[:50])))
            check(lambda xp: xp.bincount(xp.asarray(X), weights=w[:50], minlength=12))
        a = numpy.where(A > 1.8, numpy.nan, A)
        for bins, rng in ((10, (-2.0, 2.0)), (7, (-1, 1)), ([-3, -1, 0, 0.5, 2, 3], None)):
            # float32: NumPy's array-bin path sums a float32 cumsum, maniple in float64 (then float32)
            tol = 1e-6 if wdt == "float32" else 1e-13
            check(lambda xp: xp.histogram(xp.asarray(a), bins, range=rng, weights=xp.asarray(w)), rtol=tol)
            check(lambda xp: xp.histogram(xp.asarray(a), bins, range=rng, weights=w, density=True), rtol=tol)
    raises_like(lambda xp: xp.bincount(xp.asarray(X), weights=xp.asarray(w[:49])),
                TypeError if wdt == "complex128" else ValueError)
    raises_like(lambda xp: xp.histogram(xp.asarray(A), 5, weights=xp.asarray(w[:50])), ValueError)
    # the weights' shape, not just their count, must be a's
    raises_like(lambda xp: xp.histogram(xp.asarray(A[:60].reshape(6, 10)), 5, weights=xp.asarray(w[:60])), ValueError,
                "same shape")
    if wdt == "complex128":
        raises_like(lambda xp: xp.bincount(xp.asarray(X), weights=xp.asarray(w[:50])), TypeError)


def test_histogram2d_histogramdd():
    """native: per-dimension bins by searchsorted, one flat bincount"""
    x, y, z, w = R.standard_normal(300), 2 * R.standard_normal(300), R.random(300), R.random(300)
    xn = x.copy()
    xn[7] = numpy.nan
    X3 = numpy.stack([x, y, z], axis=1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        check(lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y)))
        check(lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=[5, 7], range=[(-2, 2), (-3, 3)]))
        check(lambda xp: xp.histogram2d(xp.asarray(xn), xp.asarray(y), bins=6, range=[(-3, 3), (-6, 6)],
                                        weights=xp.asarray(w), density=True), rtol=1e-13)
        check(lambda xp: xp.histogram2d(xp.asarray(y), xp.asarray(z), bins=[numpy.array([-3, 0, 3.0]),
                                                                            numpy.array([0, 0.2, 1])]))
        check(lambda xp: xp.histogram2d(xp.asarray(y), xp.asarray(z), bins=numpy.array([-3, 0, 0.5, 3.0])))
        check(lambda xp: xp.histogramdd(xp.asarray(X3), bins=(3, 4, 5), range=[(-3, 3), (-5, 5), (0, 1)]))
        check(lambda xp: xp.histogramdd([xp.asarray(x), xp.asarray(y), xp.asarray(z)],
                                        bins=[numpy.array([-2, 0, 1, 2.0]), 3, [0, 0.5, 1]], weights=xp.asarray(w),
                                        range=[None, (-4, 4), None]), rtol=1e-14)
        check(lambda xp: xp.histogramdd(xp.asarray(X3), bins=4, density=True), rtol=1e-13)
    raises_like(lambda xp: xp.histogram2d(xp.asarray(xn), xp.asarray(y)), ValueError)
    raises_like(lambda xp: xp.histogramdd(xp.asarray(X3), bins=(3, 4)), ValueError)


@pytest.mark.parametrize("bins", ["auto", "fd", "doane", "scott", "rice", "sturges", "sqrt"])
def test_estimated_bins_native(bins):
    """NumPy's bin-width estimators on distributed reductions (std,
    percentiles, min and max): the same edges and counts, no fallback"""
    datas = [R.standard_normal(1000), R.integers(0, 50, 777), R.random(3), numpy.full(10, 5.0), numpy.array([1.0]),
             R.standard_normal(100) ** 3, R.integers(0, 3, 200).astype(numpy.uint8)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for d in datas:
            for rng in (None, (-1, 1)):
                check(lambda xp: xp.histogram_bin_edges(xp.asarray(d), bins, rng), rtol=1e-12)
                check(lambda xp: xp.histogram(xp.asarray(d), bins, rng), rtol=1e-12)
    raises_like(lambda xp: xp.histogram(xp.asarray(datas[0]), bins, weights=xp.asarray(datas[0])), TypeError,
                "weighted")
    raises_like(lambda xp: xp.histogram(xp.asarray(datas[0]), "nope"), ValueError, "estimator")
    b = R.random(50) > 0.3  # bool data: NumPy's uint8, with its RuntimeWarning
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        check(lambda xp: xp.histogram(xp.asarray(b), bins))
    with pytest.warns(RuntimeWarning, match="Converting input from bool"):
        check(lambda xp: xp.histogram_bin_edges(xp.asarray(b), bins, (0, 1)))


def test_bins_and_range_given_as_module_arrays():
    """bins made with the module itself (xp.arange, xp.linspace), as scripts
    write them: NumPy's edge code got maniple arrays and handed them back
    through __array_function__ without end (RecursionError)."""
    x, y = A, 2 * R.standard_normal(100)
    check(lambda xp: xp.histogram(xp.asarray(x), bins=xp.arange(-3, 4)))
    # NumPy differences a cumulative sum of the weights for array bins: within rounding of the total
    check(lambda xp: xp.histogram(xp.asarray(x), bins=xp.linspace(-2, 2, 9), weights=xp.asarray(y)), atol=1e-12)
    check(lambda xp: xp.histogram_bin_edges(xp.asarray(x), bins=xp.arange(5.0)))
    check(lambda xp: xp.histogram(xp.asarray(x), 4, range=(xp.asarray(-1.0), xp.asarray(1.0))))
    check(lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y), bins=[xp.arange(-3, 4), xp.linspace(-5, 5, 4)]))
    check(lambda xp: xp.histogramdd(xp.stack([xp.asarray(x), xp.asarray(y)], axis=1), bins=[xp.arange(-4, 5)] * 2))
    raises_like(lambda xp: xp.histogram2d(xp.asarray(x), xp.asarray(y[:99])), ValueError,
                "x and y must have the same length")
