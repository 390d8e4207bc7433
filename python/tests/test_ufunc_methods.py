"""maniple's ufuncs as NumPy's (issue 14 item 18): objects with nin, nout,
identity and the methods reduce, accumulate, outer, at and reduceat, called
as mnp.add.reduce(...) or as NumPy's own np.add.reduce(maniple_array); a
NumPy array as out= (it receives the whole result, on every rank); and
`value in array`. NumPy runs beside maniple in each test."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from maniple.numpy import _fallback
from xp import check, compare, data, raises_like
from test_numpy_args import same_error

X = data((4, 5), seed=1)
I32 = data((4, 5), "int32", seed=2)
B = data((4, 5), "bool", seed=3)


def _fresh(name):
    """The fallback warning for name comes again (it warns once per name)."""
    _fallback._warned.discard(name)


# ---- NumPy arrays as out= ----
def test_numpy_out_of_a_numpy_ufunc_on_a_maniple_array():
    want = numpy.add(X, 1)
    out = numpy.zeros((4, 5))
    r = numpy.add(mnp.asarray(X), 1, out=out)
    assert r is out
    numpy.testing.assert_array_equal(out, want)


def test_numpy_out_of_a_maniple_ufunc():
    out = numpy.zeros((4, 5))
    r = mnp.add(mnp.asarray(X), 1, out=out)
    assert r is out
    numpy.testing.assert_array_equal(out, X + 1)
    out32 = numpy.zeros((4, 5), numpy.float32)
    assert mnp.multiply(mnp.asarray(X), 2.0, out=out32) is out32  # same_kind: float64 into float32
    numpy.testing.assert_array_equal(out32, (X * 2.0).astype(numpy.float32))
    o = numpy.zeros(5)
    mnp.sqrt(mnp.asarray(numpy.abs(X[0])), out=o)
    numpy.testing.assert_array_equal(o, numpy.sqrt(numpy.abs(X[0])))
    o = numpy.zeros((2, 4, 5))  # out's shape broadcasts the result, as NumPy's
    mnp.add(mnp.asarray(X), 1, o)
    numpy.testing.assert_array_equal(o, numpy.add(X, 1, numpy.zeros((2, 4, 5))))


def test_numpy_outs_of_two_output_ufuncs():
    q, r = numpy.zeros((4, 5)), numpy.zeros((4, 5))
    got = numpy.divmod(mnp.asarray(X), 3.0, out=(q, r))
    assert got[0] is q and got[1] is r
    wq, wr = numpy.divmod(X, 3.0)
    numpy.testing.assert_array_equal(q, wq)
    numpy.testing.assert_array_equal(r, wr)
    m, e = numpy.zeros((4, 5)), numpy.zeros((4, 5), numpy.int32)
    mnp.frexp(mnp.asarray(X), m, e)
    numpy.testing.assert_array_equal(m, numpy.frexp(X)[0])
    numpy.testing.assert_array_equal(e, numpy.frexp(X)[1])


def test_numpy_out_casting_error_as_numpy():
    same_error(lambda xp: numpy.add(xp.asarray(X), 0.5, out=numpy.zeros((4, 5), numpy.int64)))
    same_error(lambda xp: xp.add(xp.asarray(X), 0.5, out=numpy.zeros((4, 5), numpy.int64)))


def test_maniple_out_casting_error_names_the_ufunc():
    same_error(lambda xp: xp.add(xp.asarray(X), 0.5, out=xp.zeros((4, 5), numpy.int64)))
    same_error(lambda xp: xp.asarray(I32).__iadd__(0.5))


# ---- `in` ----
@pytest.mark.parametrize("value", [X[1, 2], 1000.0, -0.0, numpy.nan, [X[0, 0]] * 5])
def test_contains_is_numpys(value):
    assert (value in mnp.asarray(X)) == (value in X)
    assert (value in mnp.asarray(X[0])) == (value in X[0])


def test_contains_other_dtypes():
    assert (True in mnp.asarray(B)) == (True in B)
    assert (3 in mnp.asarray(I32)) == (3 in I32)
    assert (100 in mnp.asarray(I32)) == (100 in I32)
    assert (1.0 in mnp.asarray(numpy.float64(1.0))) is True


# ---- the ufunc objects ----
def test_ufunc_attributes_are_numpys():
    for name in ("add", "subtract", "sqrt", "maximum", "logical_and", "divmod", "frexp", "modf", "conjugate",
                 "power", "isnan", "arctan2"):
        u, n = getattr(mnp, name), getattr(numpy, name)
        assert isinstance(u, mnp.ufunc), name
        assert (u.__name__, u.nin, u.nout, u.nargs, u.identity) == (n.__name__, n.nin, n.nout, n.nargs, n.identity)
        assert repr(u) == repr(n)
    assert mnp.abs is mnp.absolute and mnp.divide is mnp.true_divide and mnp.conj is mnp.conjugate


# ---- reduce ----
REDUCE_OK = {
    "add": lambda xp: xp.add.reduce(xp.asarray(X)),
    "add_axis1": lambda xp: xp.add.reduce(xp.asarray(X), axis=1),
    "add_none": lambda xp: xp.add.reduce(xp.asarray(X), axis=None),
    "add_tuple": lambda xp: xp.add.reduce(xp.asarray(X), axis=(0, 1)),
    "add_empty_tuple": lambda xp: xp.add.reduce(xp.asarray(I32), axis=()),
    "add_int32": lambda xp: xp.add.reduce(xp.asarray(I32)),
    "add_int32_dtype": lambda xp: xp.add.reduce(xp.asarray(I32), dtype="int32"),
    "add_bool": lambda xp: xp.add.reduce(xp.asarray(B), axis=None),
    "add_keepdims": lambda xp: xp.add.reduce(xp.asarray(X), axis=1, keepdims=True),
    "add_initial": lambda xp: xp.add.reduce(xp.asarray(I32), axis=0, initial=5),
    "add_empty": lambda xp: xp.add.reduce(xp.asarray(numpy.zeros((0, 3)))),
    "add_0d": lambda xp: xp.add.reduce(xp.asarray(numpy.float64(3.5))),
    "add_list": lambda xp: xp.add.reduce([1, 2, 3]),
    "multiply": lambda xp: xp.multiply.reduce(xp.asarray(I32), axis=1),
    "maximum": lambda xp: xp.maximum.reduce(xp.asarray(X), axis=None),
    "maximum_bool": lambda xp: xp.maximum.reduce(xp.asarray(B)),
    "maximum_initial": lambda xp: xp.maximum.reduce(xp.asarray(X), axis=1, initial=2.5),
    "maximum_empty_initial": lambda xp: xp.maximum.reduce(xp.asarray(numpy.zeros((0, 3))), initial=3.0),
    "minimum_nan": lambda xp: xp.minimum.reduce(xp.asarray(data((4, 5), nan=True))),
    "logical_and": lambda xp: xp.logical_and.reduce(xp.asarray(X)),
    "logical_or": lambda xp: xp.logical_or.reduce(xp.asarray(I32), axis=1),
    "logical_and_empty": lambda xp: xp.logical_and.reduce(xp.asarray(numpy.zeros(0))),
}


@pytest.mark.parametrize("name", sorted(REDUCE_OK))
def test_reduce_native(name):
    check(REDUCE_OK[name])


def test_reduce_through_numpys_ufunc():
    check(lambda xp: numpy.add.reduce(xp.asarray(X), axis=1))
    check(lambda xp: numpy.maximum.reduce(xp.asarray(I32), axis=None))
    check(lambda xp: numpy.logical_or.reduce(xp.asarray(B), axis=0, keepdims=True))
    out = numpy.zeros(5)
    assert numpy.add.reduce(mnp.asarray(X), out=out) is out
    numpy.testing.assert_array_equal(out, numpy.add.reduce(X))
    o = mnp.zeros(4, numpy.int32)
    assert mnp.add.reduce(mnp.asarray(I32), axis=1, out=o) is o
    numpy.testing.assert_array_equal(numpy.asarray(o), numpy.add.reduce(I32, axis=1, out=numpy.zeros(4, numpy.int32)))


def test_reduce_errors_as_numpy():
    same_error(lambda xp: xp.sqrt.reduce(xp.asarray(X)))
    same_error(lambda xp: xp.maximum.reduce(xp.asarray(numpy.zeros((0, 3))), axis=0))
    same_error(lambda xp: xp.add.reduce(xp.asarray(X), axis=0.5))
    same_error(lambda xp: xp.add.reduce(xp.asarray(X), axis=(0, 0)))
    same_error(lambda xp: xp.add.reduce(xp.asarray(X), axis=2))
    _fresh("subtract.reduce")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        same_error(lambda xp: xp.subtract.reduce(xp.asarray(X), axis=(0, 1)))


def test_reduce_of_other_ufuncs_is_the_announced_fallback():
    _fresh("subtract.reduce")
    with pytest.warns(UserWarning, match="numpy.subtract.reduce is not implemented natively"):
        got = mnp.subtract.reduce(mnp.asarray(X), axis=1)
    compare(got, numpy.subtract.reduce(X, axis=1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(lambda xp: xp.add.reduce(xp.asarray(X), axis=0, where=numpy.array([True, False, True, True, False])))
        check(lambda xp: numpy.true_divide.reduce(xp.asarray(X + 10), axis=1))
        check(lambda xp: xp.power.reduce(xp.asarray(abs(I32)), axis=1))
        check(lambda xp: xp.logical_xor.reduce(xp.asarray(B)))
        check(lambda xp: xp.maximum.reduce(xp.asarray(I32), dtype="int64"))


# ---- accumulate ----
ACC_OK = {
    "add": lambda xp: xp.add.accumulate(xp.asarray(X)),
    "add_axis1": lambda xp: xp.add.accumulate(xp.asarray(X), axis=1),
    "add_int32": lambda xp: xp.add.accumulate(xp.asarray(I32)),
    "add_bool": lambda xp: xp.add.accumulate(xp.asarray(B)),
    "add_dtype": lambda xp: xp.add.accumulate(xp.asarray(I32), dtype="float64"),
    "multiply": lambda xp: xp.multiply.accumulate(xp.asarray(I32), axis=1),
    "numpy_add": lambda xp: numpy.add.accumulate(xp.asarray(X), axis=-1),
}


@pytest.mark.parametrize("name", sorted(ACC_OK))
def test_accumulate(name):
    check(ACC_OK[name])


def test_accumulate_errors_and_fallback():
    same_error(lambda xp: xp.add.accumulate(xp.asarray(X), axis=None))
    same_error(lambda xp: xp.add.accumulate(xp.asarray(numpy.float64(3.0))))
    same_error(lambda xp: xp.sqrt.accumulate(xp.asarray(X)))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(lambda xp: xp.maximum.accumulate(xp.asarray(X), axis=1))
        check(lambda xp: numpy.minimum.accumulate(xp.asarray(I32)))


# ---- outer ----
def test_outer():
    check(lambda xp: xp.add.outer(xp.asarray(X[0]), xp.asarray(X[1, :3])))
    check(lambda xp: xp.multiply.outer(xp.asarray(I32), xp.asarray([1.5, 2.0])))
    check(lambda xp: xp.add.outer([1, 2], [3, 4, 5]))
    check(lambda xp: numpy.subtract.outer(xp.asarray(X[:2]), xp.asarray(X[0])))
    check(lambda xp: xp.maximum.outer(xp.asarray(X[0]), 2.0))
    check(lambda xp: xp.divmod.outer(xp.asarray(X[0]), xp.asarray([2.0, 3.0])))
    same_error(lambda xp: xp.sqrt.outer(xp.asarray(X), xp.asarray(X)))
    same_error(lambda xp: xp.subtract.outer(xp.asarray(B[0]), xp.asarray(B[0])))


# ---- reduceat ----
@pytest.mark.parametrize("op", ["add", "multiply", "maximum", "minimum", "logical_or", "bitwise_xor"])
@pytest.mark.parametrize("shape,idx,axis", [((50,), [0, 7, 8, 30], 0), ((50,), [3, 49], 0), ((41,), [0], 0),
                                            ((7, 9), [0, 2, 5], 1), ((7, 9), [1, 4], 0), ((3, 4, 10), [2, 3, 9], -1),
                                            ((23, 3), [0, 1, 2], 1), ((5, 6), [4], 0)])
def test_reduceat_native(op, shape, idx, axis):
    """Strictly increasing indices run on every rank with no warning (each
    rank reduces whole segments with NumPy's own reduceat, so the values are
    NumPy's bit for bit, float sums included), along any axis; the elements
    before the first index of each row belong to no segment"""
    kind = "bool" if op == "logical_or" else "int64" if op == "bitwise_xor" else "float64"
    x = data(shape, kind, seed=4)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)  # not the fallback
        check(lambda xp: getattr(xp, op).reduceat(xp.asarray(x), idx, axis=axis), rtol=0, atol=0)
        check(lambda xp: getattr(numpy, op).reduceat(xp.asarray(x), numpy.array(idx), axis=axis), rtol=0, atol=0)
    check(lambda xp: xp.add.reduceat(xp.asarray(data((30,), "int8", seed=5)), [0, 10], dtype="int16"))
    check(lambda xp: xp.add.reduceat(xp.asarray(data((30,), "bool", seed=6)), [0, 10]))  # NumPy's int result


@pytest.mark.parametrize("where", [10, 60, 99])
def test_reduceat_integer_power_error_raises_on_every_rank(where):
    """A negative integer exponent inside one rank's segments raised there
    alone, and the other ranks waited in the next collective (a hang):
    NumPy's ValueError on every rank, wherever it lies."""
    x = numpy.arange(1, 101, dtype=numpy.int64) % 3 + 1
    x[where] = -1
    raises_like(lambda xp: xp.power.reduceat(xp.asarray(x), [0, 50]), ValueError,
                "Integers to negative integer powers are not allowed")
    x[where] = 2
    check(lambda xp: xp.power.reduceat(xp.asarray(x), [0, 50, 51]))


def test_reduceat_unsorted_indices_are_the_announced_fallback():
    _fresh("add.reduceat")
    with pytest.warns(UserWarning, match="numpy.add.reduceat"):
        got = mnp.add.reduceat(mnp.arange(8), [0, 4, 1, 5])
    compare(got, numpy.add.reduceat(numpy.arange(8), [0, 4, 1, 5]))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        check(lambda xp: numpy.maximum.reduceat(xp.asarray(X), [2, 0], axis=1))
    same_error(lambda xp: xp.sqrt.reduceat(xp.asarray(X), [0]))
    same_error(lambda xp: xp.add.reduceat(xp.asarray(X), [0, 5], axis=1))
    same_error(lambda xp: xp.add.reduceat(xp.asarray(X), [-1], axis=1))


# ---- at ----
def _at(fn, x):
    """fn(xp, a) changes a in place (and returns None) in both modules."""
    want = x.copy()
    assert fn(numpy, want) is None
    got = mnp.asarray(x)
    assert fn(mnp, got) is None
    compare(got, want)


AT = {
    "add_repeated_exact": (lambda xp, a: xp.add.at(a, [0, 0, 2, 0], [1e16, 1.0, 2.0, -1e16]),
                           numpy.array([1.0, 2.0, 3.0])),
    "add_scalar": (lambda xp, a: xp.add.at(a, [0, 1, 1, 4, -1], 0.1), data((6,))),
    "add_int32_float_values": (lambda xp, a: xp.add.at(a, [0, 1, 1], 1.5), data((5,), "int32")),
    "add_int32_wide_values": (lambda xp, a: xp.add.at(a, [0, 0], numpy.array([2 ** 40, 1])), data((5,), "int32")),
    "add_float32_weak": (lambda xp, a: xp.add.at(a, [0, 0, 0], 0.1), data((3,), "float32")),
    "add_2d_tuple": (lambda xp, a: xp.add.at(a, (0, [0, 0]), 1), data((2, 3))),
    "add_2d_row": (lambda xp, a: xp.add.at(a, 0, 1), data((2, 3))),
    "add_2d_slice": (lambda xp, a: xp.add.at(a, (slice(None), [0, 0]), [[1], [2]]), data((2, 3))),
    "add_2d_arrays": (lambda xp, a: xp.add.at(a, ([0, 1, 1, 0], [2, 0, 0, 2]), [1.0, 2.0, 3.0, 4.0]), data((2, 3))),
    "add_bool_mask": (lambda xp, a: xp.add.at(a, numpy.array([True, False, True, False, False]), 10),
                      data((5,), "int64")),
    "add_maniple_indices": (lambda xp, a: xp.add.at(a, xp.asarray([3, 3, 1]), xp.asarray([1.0, 2.0, 3.0])),
                            data((5,))),
    "subtract": (lambda xp, a: xp.subtract.at(a, [1, 1, 1], [0.5, 0.25, 0.125]), data((4,))),
    "multiply": (lambda xp, a: xp.multiply.at(a, [2, 2, 0], 3), data((4,), "int64")),
    "maximum": (lambda xp, a: xp.maximum.at(a, [0, 0, 1], [7, 3, -1]), numpy.arange(5.0)),
    "negative_unary": (lambda xp, a: xp.negative.at(a, [0, 0, 1]), numpy.arange(5.0)),
    "numpy_ufunc": (lambda xp, a: numpy.add.at(a, [1, 1, 2], 1), data((4,), "int32")),
    "empty_indices": (lambda xp, a: xp.add.at(a, [], 1), data((4,))),
    "view": (lambda xp, a: xp.add.at(a[1::2], [0, 0, 1], 1.0), data((6,))),
    # a Python int the dtype cannot hold: NumPy's at takes it as a 64-bit int and wraps (maniple raised)
    "int8_python_int_wraps": (lambda xp, a: xp.add.at(a, [0, 2, 2], 1000), data((4,), "int8")),
    "uint8_negative_wraps": (lambda xp, a: xp.add.at(a, [1], -1), numpy.zeros(3, numpy.uint8)),
    "uint8_past_int64_wraps": (lambda xp, a: xp.add.at(a, [0], 2 ** 63 + 5), numpy.zeros(3, numpy.uint8)),
}


@pytest.mark.parametrize("name", sorted(AT))
def test_at_unbuffered(name):
    fn, x = AT[name]
    _at(fn, x)


def test_at_many_repeats_falls_back_announced():
    idx = numpy.zeros(200, dtype=int)
    idx[::7] = 3
    vals = data((200,), seed=7) / 7.0
    _fresh("add.at")
    with pytest.warns(UserWarning, match="numpy.add.at"):
        _at(lambda xp, a: xp.add.at(a, idx, vals if xp is numpy else xp.asarray(vals)), data((5,)))


def test_at_errors_as_numpy():
    for fn in [lambda xp: xp.add.at(xp.arange(5), [9], 1),
               lambda xp: xp.add.at(xp.arange(5), [0, 1], [1, 2, 3]),
               lambda xp: xp.add.at(xp.arange(5), [0]),
               lambda xp: xp.negative.at(xp.arange(5), [0], 1)]:
        same_error(fn)
    a = mnp.arange(5)
    with pytest.raises(IndexError):
        mnp.add.at(a, [1, 7], 1)
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(5))  # unchanged


def test_at_on_a_numpy_array_with_maniple_values():
    a, want = numpy.arange(5.0), numpy.arange(5.0)
    numpy.add.at(want, [1, 1], [2.0, 3.0])
    mnp.add.at(a, mnp.asarray([1, 1]), mnp.asarray([2.0, 3.0]))
    numpy.testing.assert_array_equal(a, want)


def test_coverage_counts_ufunc_native():
    from maniple.numpy import coverage
    assert coverage.classify("ufunc") == "native"
    assert coverage.classify("add") == "native"
