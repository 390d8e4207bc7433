"""Functions made native from the announced fallbacks: logspace, geomspace,
vander, the window functions, fft's frequencies and shifts, array_equiv,
cross and linalg's outer, trace, vecdot, cross, tensordot, matrix_power
and multi_dot, against NumPy run in the test, on every rank under mpiexec
-n 1, 2, 3. They compute what NumPy computes in the same order, so on a
CPU most agree bit for bit; CUDA's cos and pow differ from the C library's
by an ulp (ULP below), and products of matrices agree within rounding."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from xp import check, compare


ULP = dict(rtol=2e-15)          # float64: CUDA's cos and pow against glibc's
ULP32 = dict(rtol=5e-7)         # float32: CUDA's powf is within 2 ulp


@pytest.mark.parametrize("M", [0, 1, 2, 7, 12, 5.0])
@pytest.mark.parametrize("f", ["hanning", "hamming", "blackman", "bartlett"])
def test_windows(f, M):
    check(lambda xp: getattr(xp, f)(M), **ULP)


@pytest.mark.parametrize("M", [0, 1, 2, 9])
def test_kaiser(M):
    check(lambda xp: xp.kaiser(M, 14.0), rtol=1e-14)  # i0's series and NumPy's Chebyshev sums agree to an ulp or two


@pytest.mark.parametrize("args", [(0, 3, 7), (0, 3, 7, False), (-2.0, 2.0, 5, True, 2), (1, 2, 1)])
def test_logspace(args):
    check(lambda xp: xp.logspace(*args), **ULP)
    check(lambda xp: xp.logspace(*args, dtype="float32"), **ULP32)


@pytest.mark.parametrize("args", [(1, 1000, 4), (-1000, -1, 5), (1, 256, 9), (2.0, 3.0, 6, False), (1, 10, 1)])
def test_geomspace(args):
    check(lambda xp: xp.geomspace(*args), **ULP)
    check(lambda xp: xp.geomspace(*args, dtype="float32"), **ULP32)
    with pytest.raises(ValueError, match="zero"):
        mnp.geomspace(0, 1)


@pytest.mark.parametrize("x", [[1.5, 2.0, -3.0, 5.0], [1, 2, 3, 4, 5], [2]])
@pytest.mark.parametrize("N,inc", [(None, False), (3, True), (0, False), (6, False)])
def test_vander(x, N, inc):
    check(lambda xp: xp.vander(xp.asarray(x), N, inc))


def test_vander_needs_1d():
    with pytest.raises(ValueError, match="one-dimensional"):
        mnp.vander(mnp.ones((2, 2)))


@pytest.mark.parametrize("n", [1, 2, 5, 8])
def test_fft_frequencies(n):
    check(lambda xp: xp.fft.fftfreq(n, 0.1))
    check(lambda xp: xp.fft.rfftfreq(n))
    check(lambda xp: xp.fft.rfftfreq(n, d=2))
    with pytest.raises(ValueError, match="integer"):
        mnp.fft.fftfreq(2.5)


@pytest.mark.parametrize("axes", [None, 0, 1, (0, 1)])
def test_fft_shifts(axes):
    y = numpy.arange(35.0).reshape(7, 5)
    check(lambda xp: xp.fft.fftshift(xp.asarray(y), axes=axes))
    check(lambda xp: xp.fft.ifftshift(xp.asarray(y), axes=axes))
    check(lambda xp: xp.fft.ifftshift(xp.fft.fftshift(xp.asarray(y), axes=axes), axes=axes))


def test_array_equiv():
    for a, b in [([1, 2], [[1, 2], [1, 2]]), ([1, 2], [[1, 2], [1, 3]]), ([1, 2], [1, 2, 3]), (3, [3, 3])]:
        assert mnp.array_equiv(mnp.asarray(a), mnp.asarray(b)) == numpy.array_equiv(a, b)


U = numpy.arange(12.0).reshape(4, 3) - 4
V = (numpy.arange(12.0)[::-1] * 0.5).reshape(4, 3)


def test_cross():
    check(lambda xp: xp.cross(xp.asarray(U), xp.asarray(V)))
    check(lambda xp: xp.cross(xp.asarray(U.T), xp.asarray(V.T), axis=0))
    check(lambda xp: xp.cross(xp.asarray(U.T), xp.asarray(V), axisa=0, axisc=0))
    check(lambda xp: xp.cross(xp.asarray(U.astype("int32")), xp.asarray(V.astype("int16"))))
    check(lambda xp: xp.linalg.cross(xp.asarray(U), xp.asarray(V)))
    # 2-vectors: deprecated in NumPy 2.0, refused from 2.5; maniple keeps NumPy 2.0's answer
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        for a, b in [(U[:, :2], V), (U, V[:, :2]), (U[:, :2], V[:, 1:])]:
            try:
                numpy.cross(a, b)
            except ValueError:
                continue  # this NumPy refuses them: nothing to compare with
            check(lambda xp: xp.cross(xp.asarray(a), xp.asarray(b)))
    for xp in (numpy, mnp):
        with pytest.raises(ValueError, match="incompatible dimensions|3-dimensional vectors"):  # NumPy 2.5's words
            xp.cross(xp.asarray(numpy.ones((2, 4))), xp.asarray(numpy.ones((2, 3))))
        with pytest.raises(ValueError):
            xp.linalg.cross(xp.asarray(U[:, :2]), xp.asarray(V))


def test_linalg_products():
    x = numpy.array([1.5, 2.0, -3.0, 5.0])
    t = numpy.arange(24.0).reshape(2, 3, 4)
    check(lambda xp: xp.linalg.outer(xp.asarray(x), xp.asarray(x[:3])))
    check(lambda xp: xp.linalg.trace(xp.asarray(t)))
    check(lambda xp: xp.linalg.trace(xp.asarray(t), offset=1))
    check(lambda xp: xp.linalg.vecdot(xp.asarray(U), xp.asarray(V)))
    check(lambda xp: xp.linalg.vecdot(xp.asarray(U), xp.asarray(V), axis=0))
    check(lambda xp: xp.linalg.tensordot(xp.asarray(U), xp.asarray(V), axes=([0], [0])))
    for xp in (numpy, mnp):
        with pytest.raises(ValueError, match="one-dimensional"):
            xp.linalg.outer(xp.asarray(U), xp.asarray(x))


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 7, -2])
def test_matrix_power(n):
    a = numpy.random.default_rng(0).standard_normal((4, 4)) + 3 * numpy.eye(4)
    check(lambda xp: xp.linalg.matrix_power(xp.asarray(a), n), rtol=1e-12)
    check(lambda xp: xp.linalg.matrix_power(xp.asarray(numpy.arange(9).reshape(3, 3) % 4), abs(n)))


def test_matrix_power_errors():
    for xp in (numpy, mnp):
        with pytest.raises(numpy.linalg.LinAlgError):
            xp.linalg.matrix_power(xp.ones((2, 3)), 2)
        with pytest.raises(TypeError):
            xp.linalg.matrix_power(xp.ones((2, 2)), 1.5)


def test_multi_dot():
    r = numpy.random.default_rng(3)
    a, b, c, d = r.standard_normal((6, 4)), r.standard_normal((4, 9)), r.standard_normal((9, 2)), r.standard_normal((2, 5))
    check(lambda xp: xp.linalg.multi_dot([xp.asarray(a), xp.asarray(b)]), rtol=1e-12)
    check(lambda xp: xp.linalg.multi_dot([xp.asarray(a), xp.asarray(b), xp.asarray(c), xp.asarray(d)]), rtol=1e-12)
    check(lambda xp: xp.linalg.multi_dot([xp.asarray(a[0]), xp.asarray(b), xp.asarray(c)]), rtol=1e-12)
    got = mnp.linalg.multi_dot([mnp.asarray(a[0]), mnp.asarray(b), mnp.asarray(c), mnp.asarray(d[:, 0])])
    compare(got, numpy.linalg.multi_dot([a[0], b, c, d[:, 0]]), rtol=1e-12)
    with pytest.raises(ValueError):
        mnp.linalg.multi_dot([mnp.asarray(a)])
