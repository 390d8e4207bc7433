"""maniple.numpy.testing: NumPy's assertions take maniple arrays (gathered)
and fail where NumPy's fail on the same values, on every rank under
mpiexec -n 1, 2, 3; the other names are numpy.testing's."""
import numpy
import pytest

import maniple.numpy as mnp
from maniple.numpy import testing as mt

X = numpy.arange(12.0).reshape(3, 4) / 7


def test_assertions_pass_and_fail_as_numpy_on_maniple_arrays():
    a, b = mnp.asarray(X), mnp.asarray(X.copy())
    mt.assert_equal(a, b)
    mt.assert_equal([a, 1], [X, 1])
    mt.assert_equal({"k": a}, {"k": X})
    mt.assert_array_equal(a, X, strict=True)
    mt.assert_almost_equal(a, X + 1e-9)
    mt.assert_allclose(a, X * (1 + 1e-9), rtol=1e-8)
    mt.assert_array_less(a, a + 1)
    mt.assert_array_max_ulp(a, X)
    c = mnp.asarray(X)
    c[2, 3] = -1.0
    for fn in (mt.assert_equal, mt.assert_array_equal, mt.assert_almost_equal, mt.assert_allclose):
        with pytest.raises(AssertionError, match="Mismatched elements: 1 / 12"):
            fn(c, X)
    with pytest.raises(AssertionError):
        mt.assert_array_equal(a.astype("float32"), X, strict=True)  # dtype differs, as NumPy's


def test_array_likes_that_make_maniple_arrays():
    """An object whose __array__ makes a maniple array (a test's class after
    its import changed, as NumPy's gh-11772 test) compares by that array."""
    class Like:
        def __array__(self, dtype=None, copy=None):
            return mnp.asarray(X)
    mt.assert_array_equal(Like(), X)
    mt.assert_allclose(mnp.asarray(X), Like())
    mt.assert_array_equal(mnp.intersect1d(Like(), Like()), numpy.unique(X))
    with pytest.raises(AssertionError, match="Mismatched elements: 12 / 12"):
        mt.assert_array_equal(Like(), X + 1)
    masked = numpy.ma.array([1, 2, 3], mask=[0, 1, 0])  # NumPy's own array-likes as they are: the mask kept
    mt.assert_array_equal(masked, [1, 9, 3])
    numpy.testing.assert_array_equal(masked, [1, 9, 3])


def test_numpy_testing_alone_cannot_compare_maniple_arrays():
    """Why the module exists: numpy.testing.assert_equal asks == for a truth value."""
    with pytest.raises(ValueError, match="truth value"):
        numpy.testing.assert_equal(mnp.asarray(X), mnp.asarray(X))


def test_other_names_are_numpys():
    assert mt.assert_raises is numpy.testing.assert_raises
    assert mt.assert_warns is numpy.testing.assert_warns
    assert mnp.testing is mt


def test_numpy_testings_other_names_are_there():
    """Every name numpy.testing has (its private helpers too, which NumPy's
    own test files import) is there; an unknown one is an AttributeError."""
    import numpy.testing as nt
    import maniple.numpy.testing as mt
    from maniple.numpy.testing import _gen_alignment_data  # noqa: F401
    for name in dir(nt):
        assert getattr(mt, name) is not None
    assert mt.suppress_warnings is nt.suppress_warnings
    with pytest.raises(AttributeError, match="no_such_name"):
        mt.no_such_name
