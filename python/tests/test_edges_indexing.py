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
