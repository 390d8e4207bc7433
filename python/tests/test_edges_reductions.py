"""Edge cases of reductions and differences against NumPy (found in
review), on every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

from xp import check, data, raises_like


def test_sum_prod_with_an_explicit_dtype_keep_it():
    x = numpy.arange(-5, 7, dtype=numpy.int32).reshape(3, 4)
    big = numpy.full((3, 4), 2**30, dtype=numpy.int64)
    for dt in ("int32", "int64", "bool"):
        check(lambda xp: xp.sum(xp.asarray(x), dtype=dt))
        check(lambda xp: xp.sum(xp.asarray(x), axis=0, dtype=dt))
        check(lambda xp: xp.prod(xp.asarray(x), axis=1, dtype=dt))
    check(lambda xp: xp.sum(xp.asarray(big), dtype="int32"))          # wraps, as NumPy's int32 accumulation
    check(lambda xp: xp.sum(xp.asarray(big), axis=0, dtype="int32"))
    check(lambda xp: xp.prod(xp.asarray(big), dtype="int32"))
    check(lambda xp: xp.trace(xp.asarray(x), dtype="int32"))
    check(lambda xp: xp.cumsum(xp.asarray(x), axis=1, dtype="bool"))
    check(lambda xp: xp.cumprod(xp.asarray(x), axis=0, dtype="bool"))
