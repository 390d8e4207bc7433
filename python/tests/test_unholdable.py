"""Arrays of dtypes maniple arrays do not hold (object, str, datetime,
longdouble, ...) are NumPy's, the same on every rank: functions, ufuncs
and operators that meet one give NumPy's answer, maniple arrays where the
result's dtype is one maniple holds. Against NumPy, at 1, 2 and 3 ranks."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp

X = numpy.arange(12.0).reshape(3, 4) - 5


def same(got, want):
    """Equal values and dtype; maniple arrays exactly where maniple holds the dtype."""
    if isinstance(want, numpy.ndarray):
        holds = str(want.dtype) in mnp._creation._SUPPORTED
        assert isinstance(got, mnp.ndarray if holds else numpy.ndarray), (type(got), want.dtype)
        g = numpy.asarray(got)
        assert g.dtype == want.dtype and g.shape == want.shape
        numpy.testing.assert_array_equal(g, want)
    else:
        assert type(got) is type(want) and (got == want or (got != got and want != want)), (got, want)


def both(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # (float128's notice)
        same(fn(mnp), fn(numpy))


CREATE = [
    lambda xp: xp.zeros(3, dtype=object),
    lambda xp: xp.full((2, 2), "ab"),
    lambda xp: xp.array([0, 2 ** 64, 0]),  # NumPy infers object
    lambda xp: xp.array([[1, 2], [3]], dtype=object),
    lambda xp: xp.ones(4, dtype="longdouble") / 3,
    lambda xp: xp.asarray(numpy.ones(3, dtype="clongdouble")),
    lambda xp: xp.array(["2026-12-06", "2027-01-01"], dtype="datetime64[D]"),
    lambda xp: xp.asarray(X).astype(object),
    lambda xp: xp.asarray(X).astype(str),
    lambda xp: xp.asarray(X).astype("longdouble"),
    lambda xp: xp.arange(5, dtype="longdouble"),
]


@pytest.mark.parametrize("k", range(len(CREATE)))
def test_creation_gives_numpy_arrays(k):
    both(CREATE[k])


FUNCS = [
    lambda xp: xp.sum(xp.asarray(X).astype(object)),
    lambda xp: xp.sum(xp.asarray(X), dtype=object),
    lambda xp: xp.any(xp.asarray(X).astype(object), axis=0),
    lambda xp: xp.unique(xp.array(["b", "a", "b"])),
    lambda xp: xp.where(xp.asarray(X) > 0, xp.asarray(X).astype(object), 0),
    lambda xp: xp.concatenate([xp.asarray(X), xp.asarray(X).astype(object)]),
    lambda xp: xp.isnan(xp.asarray(X).astype("longdouble")),
    lambda xp: xp.mean(xp.asarray(X).astype("longdouble"), axis=1),
    lambda xp: xp.sort(xp.asarray(X).astype("longdouble"), axis=0),
    lambda xp: xp.nonzero(xp.asarray(X).astype(object))[1],
    lambda xp: xp.trim_zeros(xp.array([0, 0, 1, 2, 0]).astype(object)),
]


@pytest.mark.parametrize("k", range(len(FUNCS)))
def test_functions_hand_the_call_to_numpy(k):
    both(FUNCS[k])


OPS = [
    lambda xp: xp.asarray(X) + xp.asarray(X).astype(object),
    lambda xp: xp.asarray(X).astype(object) * xp.asarray(X),
    lambda xp: xp.asarray(X) * numpy.longdouble(2),
    lambda xp: xp.add(xp.asarray(X), xp.asarray(X).astype("longdouble")),
    lambda xp: xp.asarray(X) == xp.asarray(X).astype(object),
    lambda xp: xp.asarray(X)[0] == xp.array(["a", "b", "c", "d"]),  # no loop: unequal, as NumPy's operator
    lambda xp: xp.asarray(X)[0] != xp.array(["a", "b", "c", "d"]),
    lambda xp: xp.maximum(xp.asarray(X), xp.asarray(X).astype("longdouble")[::-1]),
]


@pytest.mark.parametrize("k", range(len(OPS)))
def test_operators_and_ufuncs_compute_with_numpy(k):
    both(OPS[k])


def test_assignment_casts_as_numpy():
    for value in (numpy.longdouble(7), numpy.array([1, 2, 3, 4], dtype=object), numpy.array(["1", "2", "3", "4"])):
        a, b = mnp.asarray(X), X.copy()
        a[1] = value
        b[1] = value
        same(a, b)
    a = mnp.asarray(X)
    with pytest.raises(ValueError):  # NumPy's own: the string is no number
        a[0] = numpy.array(["x", "y", "z", "w"])
    numpy.testing.assert_array_equal(numpy.asarray(a), X)


def test_numeric_dtypes_maniple_will_hold_warn():
    with pytest.warns(UserWarning, match="float128 arrays are NumPy arrays"):
        mnp.zeros(2, dtype="longdouble")
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # object arrays are NumPy's by design: no warning
        o = mnp.zeros(2, dtype=object)
        mnp.sum(o)  # (nothing gathered: no warning)


@pytest.mark.parametrize("call", [lambda: mnp.asarray(X).astype(object),
                                  lambda: mnp.asarray(X) + numpy.ones(4, dtype=object),
                                  lambda: mnp.concatenate([mnp.asarray(X), numpy.ones((1, 4), dtype=object)]),
                                  lambda: mnp.asarray(X[0]) + MA,
                                  lambda: mnp.add(mnp.asarray(X[0]), MA)])
def test_gathering_maniple_arrays_for_numpy_warns(call):
    """A hand-over that gathers maniple arrays says so at more than one rank:
    it does not scale (at one rank the gather moves nothing)."""
    import maniple
    if maniple.size() > 1:
        with pytest.warns(UserWarning, match="gathered to every rank"):
            call()
    else:
        with warnings.catch_warnings():
            warnings.filterwarnings("error", "maniple.numpy: .*gathered")
            call()


def test_maniple_out_is_refused():
    with pytest.raises(TypeError, match="object"):
        mnp.sum(mnp.asarray(X), dtype=object, out=mnp.zeros(()))


MA = numpy.ma.array([1.0, 2.0, 3.0, 4.0], mask=[0, 1, 0, 0])
MAT = numpy.matrix([[1.0, 2.0], [3.0, 4.0]])
B = numpy.array([[1.0, 0.0], [0.0, 2.0]])
SUBCLASS = [
    (lambda xp: xp.sum(MA), None),
    (lambda xp: xp.copy(MA, subok=True), None),
    (lambda xp: xp.asarray(X[0]) + MA, None),
    (lambda xp: MA * xp.asarray(X[0]), None),
    (lambda xp: xp.add(xp.asarray(X[0]), MA), None),
    (lambda xp: xp.asarray(X[0]) < MA, None),
    (lambda xp: xp.asarray(B) * MAT, None),  # a matrix product, as NumPy's operator defers to matrix
    (lambda xp: MAT * xp.asarray(B), None),
    (lambda xp: xp.multiply(xp.asarray(B), MAT), None),  # the ufunc multiplies elements
    (lambda xp: xp.asarray(B) ** 2, None),
]


@pytest.mark.parametrize("k", range(len(SUBCLASS)))
def test_numpy_subclasses_keep_their_rules(k):
    """Masked arrays and matrices (NumPy's subclasses) meet maniple arrays
    as they meet NumPy's: NumPy computes with their rules."""
    fn = SUBCLASS[k][0]
    got, want = fn(mnp), fn(numpy)
    assert type(got) is type(want) or (isinstance(got, mnp.ndarray) and type(want) is numpy.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(want))
    if isinstance(want, numpy.ma.MaskedArray):
        numpy.testing.assert_array_equal(got.mask, want.mask)


def test_datetime_helpers_are_numpy_own():
    """isnat and the business-day functions are NumPy's: datetime arrays are NumPy's."""
    d = mnp.array(["2026-12-06", "NaT"], dtype="datetime64[D]")
    e = numpy.array(["2026-12-06", "NaT"], dtype="datetime64[D]")
    numpy.testing.assert_array_equal(mnp.isnat(d), numpy.isnat(e))
    assert mnp.busday_count(d[:1], numpy.datetime64("2026-12-31")) == numpy.busday_count(e[:1], numpy.datetime64(
        "2026-12-31"))
