"""bincount, histogram and histogram_bin_edges (native: a distributed sort
and searchsorted of NumPy's edges) against NumPy run in the test, on every
rank under mpiexec -n 1, 2, 3. Counts are exact integers, so they are
compared exactly; weighted counts and data-chosen bins are the announced
fallback and must agree too."""
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
        check(lambda xp: xp.histogram(xp.asarray(A), 6, weights=xp.asarray(A * A)))
        check(lambda xp: xp.bincount(xp.asarray(X), weights=xp.asarray(A[:50])))
    raises_like(lambda xp: xp.histogram(xp.asarray(numpy.array([1.0, numpy.inf])), 3), ValueError)
    raises_like(lambda xp: xp.histogram(xp.asarray(A), 3, range=(2, 1)), ValueError)
    raises_like(lambda xp: xp.histogram(xp.asarray(A), [3, 2, 1]), ValueError)
