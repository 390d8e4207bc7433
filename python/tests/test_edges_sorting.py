"""Edge cases of sorting, searching, sets, scans and order statistics
against NumPy (found in review), on every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

from xp import check, data, raises_like

DTYPES = ["float64", "float32", "int64", "int32", "bool"]


@pytest.mark.parametrize("shape,axis", [((9, 1), 0), ((9, 1), -2), ((1, 1, 11), 2), ((11, 1, 1), 0)])
@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_when_the_other_axes_have_extent_one(shape, axis, dtype):
    """Lines along the sort axis must stay whole on one rank."""
    x = data(shape, dtype, seed=5, nan=True)
    check(lambda xp: xp.sort(xp.asarray(x), axis=axis))
    check(lambda xp: xp.argsort(xp.asarray(x), axis=axis, kind="stable"))
