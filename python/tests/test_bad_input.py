"""Bad input raises NumPy's exception type, with a message naming the
offending value, on every rank (each rank runs these tests), and leaves the
inputs unchanged."""
import numpy
import pytest

import maniple.numpy as mnp
from xp import data

X = data((4, 5), seed=1)
V = data((7,), seed=2)

CASES = [
    # shape mismatch in broadcasting
    ("add", lambda xp: xp.asarray(X) + xp.asarray(V), ValueError, r"broadcast"),
    ("where", lambda xp: xp.where(xp.asarray(X) > 0, xp.asarray(X), xp.asarray(V)), ValueError, r"broadcast"),
    ("clip", lambda xp: xp.clip(xp.asarray(X), xp.asarray(V), 1.0), ValueError, r"broadcast"),
    ("concatenate", lambda xp: xp.concatenate([xp.asarray(X), xp.asarray(V)]), ValueError, r"dimension"),
    ("stack", lambda xp: xp.stack([xp.asarray(X), xp.asarray(X[:3])]), ValueError, r"same shape"),
    ("setitem", lambda xp: xp.asarray(X).__setitem__(slice(None), xp.asarray(V)), ValueError, r"broadcast"),
    ("matmul", lambda xp: xp.asarray(X) @ xp.asarray(X), ValueError, r"size 4 is different from 5"),
    # invalid axis
    ("sum", lambda xp: xp.sum(xp.asarray(X), axis=2), numpy.exceptions.AxisError, r"axis 2 is out of bounds"),
    ("sort", lambda xp: xp.sort(xp.asarray(X), axis=-3), numpy.exceptions.AxisError, r"axis -3 is out of bounds"),
    ("cumsum", lambda xp: xp.cumsum(xp.asarray(X), axis=5), numpy.exceptions.AxisError, r"axis 5"),
    ("argmax", lambda xp: xp.argmax(xp.asarray(X), axis=2), numpy.exceptions.AxisError, r"axis 2"),
    ("concat_axis", lambda xp: xp.concatenate([xp.asarray(X)], axis=3), numpy.exceptions.AxisError, r"axis 3"),
    ("expand_dims", lambda xp: xp.expand_dims(xp.asarray(X), 4), numpy.exceptions.AxisError, r"axis 4"),
    ("take_axis", lambda xp: xp.take(xp.asarray(X), [0], axis=2), numpy.exceptions.AxisError, r"axis 2"),
    ("std_axis", lambda xp: xp.std(xp.asarray(X), axis=(0, 3)), numpy.exceptions.AxisError, r"axis 3"),
    ("squeeze", lambda xp: xp.squeeze(xp.asarray(X), axis=0), ValueError, r"size not equal to one"),
    # index out of bounds
    ("getitem", lambda xp: xp.asarray(X)[4], IndexError, r"index 4 is out of bounds for axis 0 with size 4"),
    ("getitem2", lambda xp: xp.asarray(X)[0, -6], IndexError, r"index -6 is out of bounds for axis 1 with size 5"),
    ("fancy", lambda xp: xp.asarray(X)[[0, 9]], IndexError, r"index 9 is out of bounds for axis 0 with size 4"),
    ("mask", lambda xp: xp.asarray(X)[xp.asarray(V) > 0], IndexError, r"boolean index did not match"),
    ("take", lambda xp: xp.take(xp.asarray(V), [7]), IndexError, r"index 7 is out of bounds"),
    ("too_many", lambda xp: xp.asarray(X)[0, 0, 0], IndexError, r"too many indices"),
    # bad dtype
    ("bitwise", lambda xp: xp.asarray(X) & xp.asarray(X), TypeError, r"bitwise_and"),
    ("index_float", lambda xp: xp.asarray(V)[xp.asarray(V)], IndexError, r"integer"),
    ("same_kind", lambda xp: xp.asarray(V.astype("int64")).__iadd__(0.5), TypeError, r"same_kind"),
    # a mask of the array's rank takes 0-d or 1-d values, whatever their shape
    ("mask_2d_values", lambda xp: xp.asarray(X).__setitem__(xp.asarray(X) > 0, xp.zeros((1, 20))), TypeError,
     r"requires a 0 or 1-dimensional input, input has 2 dimensions"),
    ("mask_2d_list", lambda xp: xp.asarray(X).__setitem__(xp.asarray(X) > 9, [[1.0]]), TypeError,
     r"requires a 0 or 1-dimensional input"),
    # fill takes a scalar (or a 0-d array)
    ("fill_array", lambda xp: xp.asarray(X).fill(xp.asarray(X)[0]), ValueError, r"with a sequence"),
    ("fill_list", lambda xp: xp.asarray(X).fill([1.0]), ValueError, r"with a sequence"),
    # a reduction's out must be an array (a[0] is a scalar)
    ("out_scalar", lambda xp: xp.add.reduce(xp.asarray(V), out=xp.asarray(V)[0]), TypeError,
     r"return arrays must be of ArrayType"),
    ("out_list", lambda xp: xp.asarray(X).sum(axis=0, out=[0.0] * 5), TypeError, r"return arrays must be of ArrayType"),
]

# dtypes NumPy has and maniple arrays do not hold are NumPy arrays (test_unholdable.py), but
# not into a maniple out=: maniple alone refuses, naming them
MANIPLE_ONLY = [
    ("sum_out", lambda: mnp.sum(mnp.asarray(V), dtype=object, out=mnp.zeros(())), TypeError, r"object"),
    ("mean_out", lambda: mnp.mean(mnp.asarray(V), dtype="longdouble", out=mnp.zeros(())), TypeError, r"float128"),
]


@pytest.mark.parametrize("name,fn,exc,msg", MANIPLE_ONLY, ids=[c[0] for c in MANIPLE_ONLY])
def test_dtypes_maniple_lacks_are_refused(name, fn, exc, msg):
    with pytest.raises(exc, match=msg):
        fn()


@pytest.mark.parametrize("name,fn,exc,msg", CASES, ids=[c[0] for c in CASES])
def test_bad_input_raises_like_numpy_on_every_rank(name, fn, exc, msg):
    with pytest.raises(exc):
        fn(numpy)
    with pytest.raises(exc, match=msg):
        fn(mnp)


def test_failed_operations_leave_inputs_unchanged():
    a = mnp.asarray(X)
    for bad in (lambda: a.__setitem__([0, 9], 1.0), lambda: a.__setitem__(slice(None), mnp.asarray(V)),
                lambda: mnp.put(a, [3, 99], [1.0, 2.0]), lambda: a.__iadd__(mnp.asarray(V))):
        with pytest.raises((IndexError, ValueError)):
            bad()
        numpy.testing.assert_array_equal(numpy.asarray(a), X)


def test_scalars_integer_arrays_cannot_hold():
    for dt, v, exc in (("int32", 2 ** 40, OverflowError), ("int64", numpy.nan, ValueError),
                       ("int32", numpy.inf, OverflowError), ("int64", -2 ** 70, OverflowError)):
        for xp in (numpy, mnp):
            a = xp.zeros(4, dtype=dt)
            with pytest.raises(exc):
                a[1:] = v
            with pytest.raises(exc):
                a.fill(v)
        numpy.testing.assert_array_equal(numpy.asarray(a), numpy.zeros(4, dt))


def test_same_kind_allows_int64_into_int32_as_numpy():
    a, b = mnp.ones(3, dtype="int32"), mnp.ones(3, dtype="int64")
    a += b
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.full(3, 2, "int32"))


def test_broadcast_views_are_read_only():
    a = mnp.arange(4.0)
    b = mnp.broadcast_to(a, (3, 4))
    for bad in (lambda: b.__setitem__((0, 1), 99.0), lambda: b[1].__setitem__(0, 1.0), lambda: b.fill(0.0),
                lambda: b.__iadd__(1.0), lambda: mnp.add(a, 1.0, out=b), lambda: mnp.copyto(b, 1.0),
                lambda: mnp.put(b, [0], [1.0])):
        with pytest.raises(ValueError, match="read-only"):
            bad()
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(4.0))


def test_fill_takes_a_0d_array():
    for xp in (numpy, mnp):
        a = xp.zeros((3, 4))
        a.fill(xp.asarray(2.5))
        a.fill(numpy.asarray(1.5)[()] + xp.asarray(1.0))
        numpy.testing.assert_array_equal(numpy.asarray(a), numpy.full((3, 4), 2.5))
