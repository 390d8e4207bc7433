"""Edge cases of advanced indexing and the selection functions against
NumPy (found in review), on every rank under mpiexec -n 1, 2, 3."""
import re
import numpy
import pytest

import maniple.numpy as mnp
from xp import check, data, raises_like


def test_repeated_index_from_a_2d_index_array_last_wins():
    """The value last in C order wins, whatever the blocks of the index."""
    idx = numpy.full((2, 9), 1)
    idx[0, 8] = idx[1, 0] = 0
    rng = numpy.random.default_rng(3)
    idx2 = rng.integers(0, 13, size=(6, 7))

    def run(xp):
        x = xp.zeros(5)
        x[xp.asarray(idx)] = xp.asarray(numpy.arange(18.0).reshape(2, 9))
        y = xp.zeros((13, 2))
        y[xp.asarray(idx2), 1] = xp.asarray(numpy.arange(42.0).reshape(6, 7))
        z = xp.zeros(13)
        xp.put(z, xp.asarray(idx2), xp.asarray(numpy.arange(42.0).reshape(6, 7)))
        return x, y, z
    check(run)


@pytest.mark.parametrize("key", [True, False, (True, [1, 2]), (False, slice(1, 3)), (Ellipsis, True), (True, 2)])
def test_boolean_scalar_keys(key):
    check(lambda xp: xp.asarray(data((7, 5), seed=1))[key])


def test_boolean_scalar_and_0d_keys():
    check(lambda xp: xp.asarray(data((7,), seed=1))[xp.asarray(True)])
    check(lambda xp: xp.asarray(data((7,), seed=1))[xp.asarray(False)])
    check(lambda xp: xp.asarray(3.0)[xp.asarray(True)])
    check(lambda xp: xp.asarray(3.0)[True])

    def run(xp):
        x = xp.asarray(data((4, 3), seed=2))
        x[True] = 1.5
        y = xp.asarray(data((4, 3), seed=2))
        y[False] = 1.5
        z = xp.asarray(data((4, 3), seed=2))
        z[xp.asarray(True), 1] = xp.arange(3.0)
        return x, y, z
    check(run)


def test_index_arrays_that_do_not_broadcast_raise_index_error():
    x = data((7, 5))
    raises_like(lambda xp: xp.asarray(x)[[0, 1, 2], [1, 2]], IndexError,
                r"shape mismatch: indexing arrays could not be broadcast together with shapes \(3,\) \(2,\)")
    raises_like(lambda xp: xp.take_along_axis(xp.asarray(x), xp.asarray(numpy.zeros((3, 1), int)), axis=1),
                IndexError, "shape mismatch")


def test_index_arrays_broadcasting_too_large_raise_value_error():
    """They broadcast, but to more elements than an index holds: NumPy's
    ValueError, for reading and writing, and the array unchanged."""
    import maniple.numpy as mnp
    i = numpy.zeros(7132, int)  # 7132**5 > 2**63
    for xp in (numpy, mnp):
        a = xp.ones((3,) * 5)
        with pytest.raises(ValueError, match="too large"):
            a[xp.ix_(i, i, i, i, i)]
        with pytest.raises(ValueError, match="too large"):
            a[xp.ix_(i, i, i, i, i)] = 0
        assert float(a.sum()) == 243.0


def test_along_axis_none_takes_one_dimension():
    """NumPy 2: with axis=None the indices address the flattened array, in
    one dimension (it was a silent flat take of 2-d indices)."""
    x = data((7, 5))
    idx = numpy.asarray([[0, 3], [34, 1]])
    raises_like(lambda xp: xp.take_along_axis(xp.asarray(x), xp.asarray(idx), axis=None), ValueError,
                "when axis=None, `indices` must have a single dimension")
    raises_like(lambda xp: xp.put_along_axis(xp.asarray(x), xp.asarray(idx), 1.0, axis=None), ValueError,
                "when axis=None, `indices` must have a single dimension")
    raises_like(lambda xp: xp.take_along_axis(xp.asarray(x), xp.asarray([1.0, 2.0]), axis=None), IndexError,
                "must be an integer array")
    check(lambda xp: xp.take_along_axis(xp.asarray(x), xp.asarray(idx[1]), axis=None))

    def put(xp):
        a = xp.asarray(x)
        xp.put_along_axis(a, xp.asarray(idx[1]), -2.0, axis=None)
        return a
    check(put)


def test_assignment_values_checked_when_nothing_is_selected():
    x = data((7, 5))

    def empty_mask(xp):
        a = xp.asarray(x)
        a[a > 100] = xp.asarray([1.0, 2.0])

    def empty_list(xp):
        a = xp.asarray(x)
        a[[]] = xp.asarray([1.0, 2.0, 3.0])
    raises_like(empty_mask, ValueError)
    raises_like(empty_list, ValueError, r"value array of shape \(3,\) could not be broadcast")

    def ok(xp):
        a = xp.asarray(x)
        a[a > 100] = xp.asarray([1.0])             # broadcasts to (0,)
        a[[0, 1]] = xp.ones((1, 2, 5))             # a leading axis of extent 1 is dropped
        a[[]] = 7.0
        return a
    check(ok)

    def bad_lead(xp):
        a = xp.asarray(x)
        a[[0, 1]] = xp.ones((2, 2, 5))
    raises_like(bad_lead, ValueError, "shape mismatch")


def test_selection_functions_return_numpy_scalars_for_scalar_input():
    x = data((7, 5), seed=1)
    check(lambda xp: xp.take(xp.asarray(x), xp.asarray(2)))
    check(lambda xp: xp.choose(1, [10, 20]))
    check(lambda xp: xp.choose(xp.asarray(1), [10, 20]))
    check(lambda xp: xp.ravel_multi_index((1, 2), (7, 5)))
    check(lambda xp: xp.ravel_multi_index((numpy.int64(1), 2), (7, 5)))
    check(lambda xp: xp.ravel_multi_index(([1], 2), (7, 5)))
    check(lambda xp: xp.unravel_index(xp.asarray(3), (7, 5)))


def test_ravel_multi_index_takes_integer_coordinates():
    for mi in (([1.5], [2]), (1.0, 2), ([], []), ([], ["abc"])):
        raises_like(lambda xp: xp.ravel_multi_index(mi, (3, 3)), TypeError, "indices")
    check(lambda xp: xp.ravel_multi_index(([True], [1]), (3, 3)))
    check(lambda xp: xp.ravel_multi_index((xp.asarray(numpy.zeros(0, bool)), xp.asarray(numpy.zeros(0, int))),
                                          (3, 3)))


def test_empty_index_lists_are_integer():
    x = data((7, 5), seed=1)
    check(lambda xp: xp.take(xp.asarray(x), []))
    check(lambda xp: xp.take(xp.asarray(x), [], axis=1))
    check(lambda xp: xp.ix_([]))
    check(lambda xp: xp.ix_([1.0]))

    def run(xp):
        a = xp.asarray(x)
        xp.put(a, [], [])
        xp.put(a, [3], [])            # empty values: nothing is put
        xp.putmask(a, a > 0, [])
        return a
    check(run)


def test_place_putmask_extract_sizes():
    x = data((7, 5), seed=1)

    def same_size(xp):
        a, b = xp.asarray(x), xp.asarray(x)
        xp.place(a, xp.asarray(x.reshape(35) > 0), [1.0, 2.0])   # same size, another shape
        xp.putmask(b, xp.asarray(x.reshape(5, 7) > 0), [1.0, 2.0])
        return a, b
    check(same_size)
    raises_like(lambda xp: xp.place(xp.asarray(x), numpy.ones(3, bool), [1.0]), ValueError,
                "place: mask and data must be the same size")
    raises_like(lambda xp: xp.putmask(xp.asarray(x), numpy.ones(5, bool), 1.0), ValueError,
                "putmask: mask and data must be the same size")
    raises_like(lambda xp: xp.putmask([1.0, 2.0], [True, False], 3.0), TypeError, "first argument must be an array")
    raises_like(lambda xp: xp.place([1.0, 2.0], [True, False], [3.0]), TypeError)
    raises_like(lambda xp: xp.extract(numpy.ones(40), xp.asarray(x)), IndexError,
                "index 35 is out of bounds for axis 0 with size 35")
    check(lambda xp: xp.extract(numpy.r_[numpy.ones(35), numpy.zeros(5)], xp.asarray(x)))
    check(lambda xp: xp.extract([1, 0, 1], xp.asarray(x)))


def test_putmask_casts_array_values_safely():
    """An array's values go in by the 'safe' rule (int64 into bool or
    int32, complex into float: TypeError, the array unchanged); a list's,
    a scalar's and a safe array's are cast, as NumPy's."""
    bits, ints = numpy.array([True, False, True]), numpy.array([1, 2, 3], numpy.int32)
    for dst, vals, what in [(bits, numpy.array([0, 2, 0]), "array data"), (ints, numpy.array([7, 8, 9]), "array data"),
                            (ints, numpy.array(7), "scalar"), (numpy.zeros(3), numpy.zeros(3, complex), "array data"),
                            (ints, numpy.array([7, 8], numpy.uint32), "array data")]:
        def bad(xp, dst=dst, vals=vals):
            a = xp.array(dst)
            try:
                xp.putmask(a, xp.array([True, True, False]), xp.array(vals))
            finally:
                assert (numpy.asarray(a) == dst).all()
        raises_like(bad, TypeError, f"Cannot cast {what} from dtype\\('{vals.dtype}'\\) to "
                                    f"dtype\\('{dst.dtype}'\\) according to the rule 'safe'")

    def ok(xp):
        a, b, c = xp.array(ints), xp.array(ints), xp.zeros(3)
        xp.putmask(a, a > 1, [1.5, 2.5])
        xp.putmask(b, b > 1, xp.array([7, 8], numpy.int16))
        xp.putmask(c, c == 0, xp.array([1, 2], numpy.int64))
        xp.putmask(b, b > 7, numpy.float64(1.5))
        return a, b, c
    check(ok)


WRITERS = [("copyto", lambda xp, a, v: xp.copyto(a, v)),
           ("put", lambda xp, a, v: xp.put(a, xp.asarray([0, 5, 9]), v[:3])),
           ("place", lambda xp, a, v: xp.place(a, v > 0, v[:4])),
           ("putmask", lambda xp, a, v: xp.putmask(a, v < 0, v)),
           ("put_along_axis", lambda xp, a, v: xp.put_along_axis(a, xp.asarray([[1], [0], [2]]), -7.0, 1)),
           ("fill_diagonal", lambda xp, a, v: xp.fill_diagonal(a, v[:2], wrap=True))]


@pytest.mark.parametrize("k", range(len(WRITERS)))
def test_writers_into_numpy_arrays(k):
    """copyto, put, place, putmask, put_along_axis and fill_diagonal write
    into a NumPy array given to them as NumPy does, with maniple values
    (gathered); each rank's NumPy array is its own."""
    v = data((3, 4), seed=21)
    for xp in (numpy, mnp):
        a = numpy.zeros((3, 4))
        WRITERS[k][1](xp, a, xp.asarray(v))
        if xp is numpy:
            want = a
    numpy.testing.assert_array_equal(a, want)


def test_take_into_out_checks_its_dtype():
    """NumPy reads out as the array's dtype ('safe'), then casts into it."""
    x = data((6,), seed=5)
    check(lambda xp: (lambda o: (xp.take(xp.asarray(x), [0, 4], out=o), o)[1])(xp.zeros(2, "float32")), rtol=1e-6)
    xi = (x * 10).astype("int64")
    check(lambda xp: (lambda o: (xp.take(xp.asarray(xi), [0, 4], out=o), o)[1])(xp.zeros(2, "int8")))
    raises_like(lambda xp: xp.take(xp.asarray(xi), [0, 4], out=xp.zeros(2)), TypeError,
                "Cannot cast array data from dtype.'float64'. to dtype.'int64'. according to the rule 'safe'")


def test_take_from_a_0d_array():
    """NumPy takes from a 0-d array as from a 1-d one of its element, along
    axis 0 or -1 as along None."""
    for axis in (None, 0, -1):
        check(lambda xp: xp.take(xp.asarray(5.0), [0, -1], axis=axis))
        check(lambda xp: xp.asarray(5.0).take(0, axis=axis))
    raises_like(lambda xp: xp.take(xp.asarray(5.0), [0], axis=1), numpy.exceptions.AxisError)


def test_take_along_axis_needs_integer_indices():
    raises_like(lambda xp: xp.take_along_axis(xp.asarray(data((7, 5))), xp.asarray([[0.0]]), axis=1), IndexError,
                "`indices` must be an integer array")


@pytest.mark.parametrize("fn", ["tril", "triu"])
def test_tril_triu_of_1d_broadcast_over_rows(fn):
    check(lambda xp: getattr(xp, fn)(xp.asarray(data((4,), "int32", seed=2)), 1))
    check(lambda xp: getattr(xp, fn)(xp.asarray(data((4,), seed=2))))
    raises_like(lambda xp: getattr(xp, fn)(xp.asarray(3.0)), TypeError)


@pytest.mark.parametrize("dtype", ["uint8", "int16", "uint32", "uint64", "int8"])
def test_other_numpy_integer_index_dtypes(dtype):
    x = data((7, 5), seed=4)
    check(lambda xp: xp.asarray(x)[numpy.array([1, 3], dtype=dtype)])
    check(lambda xp: xp.asarray(x)[:, numpy.array([4, 0], dtype=dtype)])

    def run(xp):
        a = xp.asarray(x)
        a[numpy.array([1, 1], dtype=dtype)] = 5.0
        return a
    check(run)


def test_non_integer_index_arrays_name_their_dtype():
    x = data((7, 5))
    raises_like(lambda xp: xp.asarray(x)[numpy.array([1.0])], IndexError, "integer .or boolean. type, not float64")
    raises_like(lambda xp: xp.asarray(x)[numpy.array([1j])], IndexError, "complex128")
    raises_like(lambda xp: xp.asarray(x)[numpy.array([2**63 + 5], dtype=numpy.uint64)], IndexError, "out of bounds")


def test_take_put_with_other_numpy_integer_indices():
    x = data((7, 5), seed=4)
    idx = numpy.array([1, 3, 34], dtype=numpy.uint8)
    check(lambda xp: xp.take(xp.asarray(x), idx))
    check(lambda xp: xp.take(xp.asarray(x), idx[:2], axis=0))

    def run(xp):
        a = xp.asarray(x)
        xp.put(a, idx, [1.0, 2.0, 3.0])
        return a
    check(run)


def test_values_repeated_cyclically_over_many_elements():
    """putmask, place, resize and put repeat short values with one take
    (not one concatenation per repeat)."""
    def run(xp):
        a = xp.zeros(20000)
        xp.putmask(a, a == 0, [1.0, 2.0, 3.0])
        b = xp.zeros((30, 70))
        xp.place(b, xp.asarray(data((30, 70), seed=5)) > 0, [1.0, 2.0])
        c = xp.zeros(500)
        xp.put(c, xp.arange(0, 500, 3), [7.0, 8.0])
        return a, b, c, xp.resize(xp.asarray([1, 2, 3]), (30, 70)), xp.resize(xp.asarray([1, 2, 3]), (2,))
    check(run)


_BOUNDS = [-7, -6, -5, -1, 0, 1, 4, 5, 6, None]


@pytest.mark.parametrize("step", [-7, -3, -2, -1, None, 1, 2, 3, 7])
def test_every_slice_of_a_short_axis(step):
    """Each start/stop around and beyond the axis: an empty slice with a
    negative step from below the axis (a[-6:-6:-3] of 5) had read from the
    last element on ([4, 1] for []). Reads, writes and a mixed advanced key."""
    a, b = numpy.arange(5), numpy.arange(30).reshape(5, 6)

    def run(xp):
        x, y = xp.asarray(a), xp.asarray(b)
        out = []
        for start in _BOUNDS:
            for stop in _BOUNDS:
                sl = slice(start, stop, step)
                out += [x[sl], y[1:, sl]]
                if stop in (-6, None):
                    out.append(y[xp.asarray([0, 2]), sl])
                    z = y.copy()
                    z[sl, ::-2] = -1
                    out.append(z)
        return out
    check(run)


def test_float_slice_bounds_and_prepended_ones():
    """A float slice bound is Python's TypeError, unless another index is
    of a wrong type (then NumPy's IndexError wins, whatever the order); a
    value with extra leading length-1 axes assigns as NumPy's does; a value
    that does not fit an advanced index names both shapes as NumPy writes them"""
    a = numpy.arange(12.0).reshape(3, 4)
    raises_like(lambda xp: xp.asarray(a)[0.0:], TypeError, "slice indices must be integers")
    raises_like(lambda xp: xp.asarray(a)[:, 1:2.5], TypeError, "slice indices must be integers")
    raises_like(lambda xp: xp.asarray(a)[0.0:, 0.0], IndexError, "only integers, slices")
    raises_like(lambda xp: xp.asarray(a)[0.0, 0.0:], IndexError, "only integers, slices")

    def prepend(xp):
        b = xp.zeros((3, 2))
        b[...] = xp.asarray(data((1, 3, 2), seed=4))
        b[1:] = xp.asarray(data((1, 1, 2, 2), seed=5))
        b[[0, 2], :] = xp.asarray(data((1, 2, 2), seed=6))
        return b
    check(prepend)
    raises_like(lambda xp: xp.zeros((3, 2)).__setitem__(Ellipsis, xp.ones((2, 3, 2))), ValueError, "could not broadcast")
    raises_like(lambda xp: xp.zeros((5, 4, 6)).__setitem__(([0, 1, 2], slice(None), [0, 1, 2]), xp.ones((100, 100))),
                ValueError, re.escape("value array of shape (100,100) could not be broadcast to indexing result of shape (3,4)"))


def test_flat_iterator_index_rules():
    """NumPy 2.4's: one index, no None, no list of bools (a bool array is a
    mask), no 0-d assignment; these were read as other indices."""
    x = data((3, 3), "int64")
    for key in (None, (1, 2), [True, True]):
        raises_like(lambda xp: xp.asarray(x).flat[key], IndexError, "")

        def put(xp):
            xp.asarray(x).flat[key] = 5
        raises_like(put, IndexError, "")

    def zero_d(xp):
        xp.asarray(x).flat[()] = 5
    raises_like(zero_d, IndexError, "0-D index")
    for key in ((), (1,), [True, 1], Ellipsis, slice(2, 5), numpy.asarray([True, False] * 4 + [True])):
        check(lambda xp: xp.asarray(x).flat[key])

        def put(xp):
            a = xp.asarray(x)
            a.flat[key] = -1
            return a
        if not (isinstance(key, tuple) and not key):
            check(put)


@pytest.mark.parametrize("key", [(slice(None), 0, Ellipsis, [2, 3]), (slice(None), [0, 1], Ellipsis, 2),
                                 (slice(None), [True, False, True], Ellipsis, 1), ([0, 1], Ellipsis, 0),
                                 (Ellipsis, [0, 1], 0), ([0, 1], 0, Ellipsis), (0, Ellipsis, [1, 2]),
                                 (slice(None), [[0], [2]], Ellipsis, [1, 3])])
def test_an_ellipsis_of_no_axes_parts_advanced_indices(key):
    """An Ellipsis between advanced indices parts them even where it stands
    for no axes, so NumPy puts their axes first; they were taken as
    adjacent (their axes left in place), and writes went to the wrong
    elements."""
    x = data((2, 3, 4), "int64")
    check(lambda xp: xp.asarray(x)[key])
    shape = x[key].shape

    def put(xp):
        a = xp.array(x)
        a[key] = xp.arange(int(numpy.prod(shape))).reshape(shape)
        return a
    check(put)

    def add(xp):
        a = xp.array(x)
        a[key] += 100
        return a
    check(add)


def test_a_value_of_the_adjacent_shape_does_not_fit_parted_indices():
    """a[:, [0, 1], ..., 0] on (4, 3, 2) is (2, 4): a (4, 2) value is NumPy's
    shape mismatch (it was written)."""
    def put(xp):
        a = xp.asarray(data((4, 3, 2), "int64"))
        a[:, [0, 1], ..., 0] = xp.arange(8).reshape(4, 2)
    raises_like(put, ValueError, "shape mismatch")


@pytest.mark.parametrize("vals", [0, [7, 8], [1, 2, 3, 4, 5, 6, 7]])
def test_flat_assignment_through_a_maniple_mask(vals):
    """a.flat[a > 0] = v writes where the mask is True, v cycled; a maniple
    mask was read as the indices 0 and 1."""
    x = data((3, 4), "int64", seed=2)

    def put(xp):
        a = xp.array(x)
        a.flat[(a > 0).ravel()] = vals
        return a
    check(put)

    def put1(xp):
        a = xp.array(x.ravel())
        a.flat[a > 0] = vals
        return a
    check(put1)


def test_flat_mask_of_another_size_or_ndim_raises():
    x = data((6,), "int64")
    for m in (numpy.array([True, False]), numpy.ones((2, 3), bool)):
        def put(xp):
            a = xp.array(x)
            a.flat[xp.asarray(m)] = 1
        raises_like(put, IndexError, "boolean index did not match|too many indices")


def test_compress_condition_longer_than_the_axis():
    """Entries past the axis's end may be False (NumPy ignores them); the
    first True there is its IndexError."""
    x = data((3, 2), "int64")
    check(lambda xp: xp.compress([0, 1, 0, 0], xp.asarray(x), axis=0))
    check(lambda xp: xp.compress([1, 0, 0, 0, 0, 0, 0, 0], xp.asarray(x)))
    raises_like(lambda xp: xp.compress([0, 1, 0, 1], xp.asarray(x), axis=0), IndexError, "index 3 is out of bounds")


def test_flat_assigned_whole_stepped_and_copied():
    """a.flat = v (every element, v cycled), next(a.flat) and a.flat.copy(),
    as NumPy's flatiter (no setter, no next and no copy before)."""
    def run(xp):
        a = xp.arange(6).reshape(2, 3)
        a.flat = 3
        b = xp.arange(6.0).reshape(2, 3)
        b.flat = [1, 2, 4, 5]
        f = xp.arange(5).flat
        first = (next(f), next(f))
        return a, b, xp.asarray(first), xp.arange(6).reshape(2, 3).T.flat.copy()
    check(run)
