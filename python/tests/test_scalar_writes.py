"""Python and NumPy scalars written into arrays (copyto, fill, full,
assignment, where) against NumPy, on every rank under mpiexec -n 1, 2, 3:
the values, and NumPy's errors for what a dtype cannot hold."""
import re
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from xp import check, raises_like

DTYPES = ["bool", "uint8", "int8", "int64", "uint64", "float16", "float32", "float64", "complex64"]
VALUES = [True, 5, 300, -1, 2 ** 63, 2 ** 64, 1.5, 1e300, 1j, numpy.float64(2.5), numpy.int64(3),
          numpy.float32(1.5)]


def _copyto(xp, dtype, v, casting, where):
    a = xp.zeros(5, dtype)
    w = True if where is None else xp.asarray(where)
    xp.copyto(a, v, casting=casting, where=w)
    return a


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("casting", ["same_kind", "safe", "unsafe"])
def test_copyto_a_scalar(dtype, casting):
    """NumPy 2's rules: a Python scalar of the array's kind or a lower one
    passes any casting (an integer must fit the dtype, even unsafe); a
    NumPy scalar is cast as its dtype says; the message names the scalar's
    dtype."""
    for v in VALUES:
        for where in (None, [True, False, True, True, False]):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                try:
                    want = _copyto(numpy, dtype, v, casting, where)
                except (TypeError, OverflowError) as e:
                    with pytest.raises(type(e), match=re.escape(str(e))):
                        _copyto(mnp, dtype, v, casting, where)
                    continue
                got = _copyto(mnp, dtype, v, casting, where)
            numpy.testing.assert_array_equal(got.__array__(), want, err_msg=f"{dtype} {v!r} {casting} {where}")
            assert got.dtype == want.dtype


def test_python_int_past_int64_into_float_arrays():
    """2**63 and up were written as their int64 bits: -9.2e18."""
    big = 2 ** 63 + 2 ** 11

    def run(xp):
        a, b, c, d = xp.zeros(7), xp.zeros(7), xp.zeros(7, "float32"), xp.zeros(7, "complex64")
        a[:] = big
        b[xp.asarray([True, False] * 3 + [True])] = big
        b[xp.asarray([1, 3])] = 2 ** 64 - 1
        c.fill(big)
        d[2:] = big
        return a, b, c, d, xp.full(3, big, dtype=float), xp.where(xp.asarray([True, False, True]), big, xp.zeros(3)), \
            xp.full(3, 2 ** 64 - 1, dtype="uint64")
    check(run)


def test_python_ints_past_int64_in_uint64_arange_and_where():
    big = 2 ** 63
    check(lambda xp: xp.arange(big, big + 5, dtype="uint64"))
    check(lambda xp: xp.arange(2 ** 64 - 7, 2 ** 64 - 1, 2, dtype="uint64"))
    c = numpy.array([True, False, True])
    check(lambda xp: xp.where(xp.asarray(c), big, 0))  # (NumPy's int64: the bits of 2**63)
    check(lambda xp: xp.where(xp.asarray(c), big, xp.zeros(3, "uint64")))
    check(lambda xp: xp.where(xp.asarray(c), big, xp.zeros(3)))


def test_python_int_past_uint64():
    """A float array takes it as a Python float does; an integer array
    raises NumPy's OverflowError (its C long message first)."""
    def run(xp):
        a, b = xp.zeros(4), xp.zeros(4, "complex128")
        a[1:] = 2 ** 64
        a[0] = -2 ** 63 - 1
        b.fill(3 ** 50)
        return a, b, xp.full(2, 2 ** 70, dtype="float32")
    check(run)
    for dt, v in (("int64", 2 ** 63), ("uint64", 2 ** 64), ("int8", 2 ** 64), ("uint8", 300), ("int64", -2 ** 63 - 1)):
        for write in (lambda a: a.fill(v), lambda a: a.__setitem__(slice(None), v), lambda a: a.__setitem__(0, v)):
            with pytest.raises(OverflowError) as e:
                write(numpy.zeros(3, dt))
            with pytest.raises(OverflowError, match=re.escape(str(e.value))):
                write(mnp.zeros(3, dt))


def test_full_of_a_python_int_past_c_long():
    for dt in ("bool", "int8", "uint64", "float32"):
        for v in (2 ** 63, 2 ** 64, -2 ** 63 - 1):
            try:
                want = numpy.full(2, v, dt)
            except OverflowError as e:
                with pytest.raises(OverflowError, match=re.escape(str(e))):
                    mnp.full(2, v, dt)
                with pytest.raises(OverflowError, match=re.escape(str(e))):
                    mnp.full_like(mnp.zeros(2), v, dt)
                continue
            numpy.testing.assert_array_equal(mnp.full(2, v, dt).__array__(), want)


def test_copyto_complex_into_real_unsafe_warns():
    for xp in (numpy, mnp):
        a = xp.zeros(3, "float32")
        with pytest.warns(numpy.exceptions.ComplexWarning):
            xp.copyto(a, 2 + 1j, casting="unsafe")
        numpy.testing.assert_array_equal(numpy.asarray(a.__array__() if xp is mnp else a), [2, 2, 2])


def test_ediff1d_edges_must_be_the_same_kind():
    raises_like(lambda xp: xp.ediff1d(xp.asarray(numpy.arange(5, dtype="uint8")), to_begin=[1]), TypeError,
                "dtype of `to_begin` must be compatible")
    check(lambda xp: xp.ediff1d(xp.asarray(numpy.arange(5, dtype="uint8")), to_end=xp.asarray([1], "uint8")))


def test_partition_along_an_empty_axis_takes_any_kth():
    check(lambda xp: xp.partition(xp.zeros((0, 3)), 0, axis=0))
    check(lambda xp: xp.partition(xp.zeros(0), 5))
    check(lambda xp: xp.argpartition(xp.zeros(0), -1))
    raises_like(lambda xp: xp.partition(xp.zeros(3), 3), ValueError)


@pytest.mark.parametrize("shape, axis", [((0,), None), ((0, 3), 0), ((0, 3), 1), ((2, 0), -1)])
def test_nanquantiles_of_an_empty_bool_array(shape, axis):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda xp: xp.nanpercentile(xp.zeros(shape, bool), 30, axis=axis))
        check(lambda xp: xp.nanquantile(xp.zeros(shape, bool), 0.3, axis=axis))


def _writes(xp, how, dtype, v):
    a = xp.arange(3, dtype=dtype)
    if how == "mask":
        a[a > 0] = v
    elif how == "slice":
        a[:] = v
    elif how == "index":
        a[[0, 1]] = v
    elif how == "put":
        xp.put(a, [0, 1], v)
    elif how == "place":
        xp.place(a, a > 0, v)
    elif how == "putmask":
        xp.putmask(a, a > 0, v)
    elif how == "insert":
        return xp.insert(a, 1, v)
    elif how == "pad":
        return xp.pad(a, 1, constant_values=v)
    return a


@pytest.mark.parametrize("how", ["mask", "slice", "index", "put", "place", "putmask", "insert", "pad"])
@pytest.mark.parametrize("dtype, v", [("int8", 1000), ("int8", [1000, 1]), ("uint8", -1), ("uint8", [300, 2]),
                                      ("int8", [float("nan"), 1]), ("int8", [100, -3]), ("uint8", 200)])
def test_python_ints_a_dtype_cannot_hold_raise_in_every_writer(how, dtype, v):
    """NumPy's OverflowError (ValueError for NaN) for a Python int, alone or
    in a list, that the array's dtype cannot hold: these writers wrapped it
    (1000 into int8 became -24). Values that fit are written alike."""
    if how in ("slice",) and isinstance(v, list) and len(v) != 3:
        v = v + [0]
    if how == "pad" and isinstance(v, list):
        v = v[0]
    try:
        want = _writes(numpy, how, dtype, v)
    except (OverflowError, ValueError) as e:
        raises_like(lambda xp: _writes(xp, how, dtype, v), type(e))
        return
    check(lambda xp: _writes(xp, how, dtype, v))


def test_one_flat_element_past_the_dtype():
    """a.flat[0] = 1000 into int8: NumPy's ValueError (it was wrapped)."""
    def put(xp):
        a = xp.arange(3, dtype="int8")
        a.flat[0] = 1000
    raises_like(put, ValueError, "Error setting single item")


@pytest.mark.parametrize("fill, dtype", [([1, 2, 3], None), ([[1], [2]], "float32"), ((1.5, 2.5, 3.5), None),
                                         (numpy.array([1, 2, 3], numpy.int8), None), ([1000, 1, 2], "int8")])
def test_full_of_an_array_of_values(fill, dtype):
    """np.full broadcasts an array-like fill value (copied unsafely, as
    NumPy's copyto); maniple raised 'unsupported scalar type list'."""
    check(lambda xp: xp.full((2, 3), fill, dtype))
    check(lambda xp: xp.full((2, 3), xp.asarray(numpy.asarray(fill)), dtype))
    raises_like(lambda xp: xp.full((2, 3), [1, 2]), ValueError, r"could not broadcast input array from shape \(2,\)")
