"""Edge cases of advanced indexing and the selection functions against
NumPy (found in review), on every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

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
