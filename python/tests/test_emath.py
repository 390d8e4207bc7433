"""maniple.numpy.emath against numpy.emath: complex results where NumPy's
go complex (decided over the whole array, the same on every rank)."""
import numpy
import pytest

import maniple.numpy as mnp
from xp import check

DATA = [numpy.array([-1.0, 4.0, 0.25]), numpy.array([1.0, 4.0]), numpy.array([-2, 3], "int8"),
        numpy.array([-2, 3], "int64"), numpy.array([-1.5, 2.0], "float32"), numpy.array([0.5, -0.5]),
        numpy.array([2.0, 0.5]), numpy.array([-1 + 0j, 4j]), numpy.array([3, 2], "uint8"), numpy.array([True, False]),
        numpy.arange(-6.0, 7.0)]


def _em(xp):
    return numpy.emath if xp is numpy else mnp.emath


@pytest.mark.parametrize("k", range(len(DATA)))
@pytest.mark.parametrize("name", ["sqrt", "log", "log2", "log10", "arccos", "arcsin", "arctanh"])
def test_unary(name, k):
    with numpy.errstate(all="ignore"):
        check(lambda xp: getattr(_em(xp), name)(xp.asarray(DATA[k])), rtol=2e-6, atol=1e-15)


@pytest.mark.parametrize("k", range(6))
@pytest.mark.parametrize("p", [0.5, 2, -1, "array"])
def test_power_and_logn(k, p):
    with numpy.errstate(all="ignore"):
        if p == "array":
            check(lambda xp: _em(xp).power(xp.asarray(DATA[k]), xp.asarray(numpy.array([-1]))), rtol=2e-6)
        else:
            check(lambda xp: _em(xp).power(xp.asarray(DATA[k]), p), rtol=2e-6)
        check(lambda xp: _em(xp).logn(2, xp.asarray(DATA[k])), rtol=2e-6)


def test_scalars_are_numpys():
    assert mnp.emath.sqrt(-1) == numpy.emath.sqrt(-1) == 1j
    assert mnp.emath.logn(2, -4) == numpy.emath.logn(2, -4)


def test_numpy_polynomial_takes_maniple_arrays():
    """np.polynomial is NumPy's package; fits gather, *val stays distributed."""
    x = mnp.linspace(0, 1, 50)
    y = 3 * x ** 2 - x + 0.5
    p = mnp.polynomial.Polynomial.fit(x, y, 2)
    numpy.testing.assert_allclose(p.convert().coef, [0.5, -1.0, 3.0], atol=1e-10)
    v = mnp.polynomial.polynomial.polyval(x, [1.0, 2.0, 3.0])
    assert isinstance(v, mnp.ndarray)
    xs = numpy.linspace(0, 1, 50)
    numpy.testing.assert_allclose(numpy.asarray(v), 1 + 2 * xs + 3 * xs ** 2, rtol=1e-14)
