"""Edge cases of the shape functions against NumPy (found in review), on
every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

from xp import check, data, raises_like

X3 = data((2, 3, 4))


@pytest.mark.parametrize("axis,start", [(0, -3), (2, -1), (1, -2), (0, 3), (2, 0)])
def test_rollaxis_negative_start(axis, start):
    check(lambda xp: xp.rollaxis(xp.asarray(X3), axis, start))


def test_rollaxis_bad_start():
    raises_like(lambda xp: xp.rollaxis(xp.asarray(X3), 0, -4), numpy.exceptions.AxisError, "'start' arg")


@pytest.mark.parametrize("points", [[-2, 3], [5, 2], [2, 9], [-1, 10], [0]])
def test_split_points_are_python_slice_bounds(points):
    check(lambda xp: xp.split(xp.asarray(data((7, 5))), points))
    check(lambda xp: xp.array_split(xp.asarray(data((5,))), points))


def test_column_stack_of_scalars():
    check(lambda xp: xp.column_stack([1.0, 2.0]))
    check(lambda xp: xp.column_stack([1.0, xp.asarray([2.0])]))


def test_block_checks_its_nesting():
    a = data((2,))
    raises_like(lambda xp: xp.block([[xp.asarray(a)], xp.asarray(a)]), ValueError, "List depths are mismatched")
    raises_like(lambda xp: xp.block([[xp.asarray(a)], []]), ValueError, r"List at arrays\[1\] cannot be empty")
    raises_like(lambda xp: xp.block((xp.asarray(a), xp.asarray(a))), TypeError, "arrays is a tuple")
    raises_like(lambda xp: xp.block([[1.0, 2.0], (3.0, 4.0)]), TypeError, r"arrays\[1\] is a tuple")
    check(lambda xp: xp.block([[1.0, 2.0], [3.0, 4.0]]))
    check(lambda xp: xp.block(xp.asarray(data((2, 3)))))


def test_delete_and_insert_index_forms():
    x = data((7, 5))
    check(lambda xp: xp.delete(xp.asarray(x), [], axis=0))
    check(lambda xp: xp.insert(xp.asarray(x), xp.asarray([1, 3]), 5.0, axis=1))
    check(lambda xp: xp.insert(xp.asarray(x[0]), xp.asarray(2), 5.0))
    raises_like(lambda xp: xp.delete(xp.asarray(x[0]), [True, False]), ValueError,
                "boolean array argument obj to delete must be one dimensional and match the axis length of 5")
    raises_like(lambda xp: xp.delete(xp.asarray(x[0]), [1.0]), IndexError)


def test_expand_dims_and_roll_with_several_axes():
    x = data((7, 5))
    check(lambda xp: xp.expand_dims(xp.asarray(x), (0, 2)))
    check(lambda xp: xp.expand_dims(xp.asarray(x), (-1, 0)))
    raises_like(lambda xp: xp.expand_dims(xp.asarray(x), (0, 0)), ValueError, "repeated axis")
    raises_like(lambda xp: xp.expand_dims(xp.asarray(x), (0, 4)), numpy.exceptions.AxisError)
    check(lambda xp: xp.roll(xp.asarray(x), (1, 2), axis=(0, 1)))
    check(lambda xp: xp.roll(xp.asarray(x), (1, 2), axis=0))
    check(lambda xp: xp.roll(xp.asarray(x), 1, axis=(0, 1)))
    check(lambda xp: xp.roll(xp.asarray(x), (-1, -7), axis=(0, -1)))
    raises_like(lambda xp: xp.roll(xp.asarray(x), (1, 2), axis=(0, 1, 1)), ValueError)


def test_trim_zeros_checks_trim():
    raises_like(lambda xp: xp.trim_zeros(xp.asarray([0.0, 1.0]), "fbx"), ValueError, "unexpected character")


def test_fliplr_and_flipud_need_their_dimensions():
    raises_like(lambda xp: xp.fliplr(xp.arange(5.0)), ValueError, "Input must be >= 2-d")
    raises_like(lambda xp: xp.flipud(xp.asarray(3.0)), ValueError, "Input must be >= 1-d")
    check(lambda xp: xp.fliplr(xp.asarray(X3)))
    check(lambda xp: xp.flipud(xp.arange(5.0)))
