"""Compiled kernels (MANIPLE_JIT, docs/design.md "Compiled kernels") give
the interpreter's values bit for bit and NumPy's floating-point errors:
each statement runs with the kernels off and again compiled before it
runs ('sync'), and both are compared with NumPy."""
import numpy
import pytest

import maniple
import maniple.numpy as np
from maniple import _core

SHAPE = (61, 47)  # uneven splits at 2 and 3 ranks
# the compiled kernels are the CPU backend's (a device's are NVRTC's, and
# a device raises no floating-point flags)
pytestmark = pytest.mark.skipif(maniple.backend() != "cpu", reason="compiled CPU kernels: the cpu backend only")


@pytest.fixture
def modes():
    """Run f under 'off' then 'sync'; the mode before is restored."""
    old, _ = _core.jit()

    def both(f):
        out = []
        for m in ("off", "sync"):
            _core.jit(m)
            out.append(f())
        return out

    yield both
    _core.jit(old)


def _data(seed, lo=-1.0, hi=2.0, dtype="float64"):
    rs = numpy.random.RandomState(seed)
    return (lo + (hi - lo) * rs.random_sample(SHAPE)).astype(dtype)


def _same_bits(a, b):
    a, b = numpy.ascontiguousarray(a), numpy.ascontiguousarray(b)
    assert a.dtype == b.dtype and a.shape == b.shape
    assert a.tobytes() == b.tobytes()


def _velocity(xp, h, q):
    h4 = h * h * h * h
    return numpy.sqrt(2.0) * h * q / xp.sqrt(h4 + xp.maximum(h4, 1e-4))


def _flux(xp, h, q, b):
    """swe's central-upwind flux of one face: sqrt, division, maximum,
    minimum and where, with a shared velocity."""
    hp = xp.maximum(h - b, 0.0)
    u = _velocity(xp, hp, q)
    c = xp.sqrt(9.81 * hp)
    ap = xp.maximum(u + c, 0.0)
    am = xp.minimum(u - c, 0.0)
    inv = 1.0 / xp.maximum(ap - am, 1e-300)
    f = (ap * hp * u - am * q) * inv + ap * am * inv * (b - h)
    return xp.where(hp > 0.5, f, -f), float(xp.maximum(ap, -am).max())


def test_flux_matches_numpy_in_both(modes):
    hn, qn, bn = _data(1, 0.0, 2.0), _data(2), _data(3, 0.0, 0.5)
    want, wmax = _flux(numpy, hn, qn, bn)
    got = modes(lambda: _flux(np, np.asarray(hn), np.asarray(qn), np.asarray(bn)))
    for f, m in got:
        numpy.testing.assert_array_equal(numpy.asarray(f), want)
        assert m == wmax
    _same_bits(numpy.asarray(got[0][0]), numpy.asarray(got[1][0]))
    assert _core.jit()[1] > 0, "sync compiled no kernel"


@pytest.mark.parametrize("dtype", ["float32", "float64", "int32", "int64", "uint8", "complex128", "float16"])
def test_dtypes(modes, dtype):
    an, bn = _data(4, 0, 9, dtype), _data(5, 1, 7, dtype)
    with numpy.errstate(all="ignore"):
        want = (an * bn + an) - bn * bn
    got = modes(lambda: numpy.asarray((np.asarray(an) * np.asarray(bn) + np.asarray(an)) - np.asarray(bn) * np.asarray(bn)))
    for g in got:
        numpy.testing.assert_array_equal(g, want)
    _same_bits(*got)


def test_integer_division_by_zero_warns_in_both(modes):
    an, bn = _data(6, -9, 9, "int64"), _data(7, -3, 3, "int64")
    with numpy.errstate(divide="ignore"):
        want = an * bn // bn + an % bn
    for m in ("off", "sync"):
        _core.jit(m)
        with pytest.warns(RuntimeWarning, match="divide by zero"):
            g = np.asarray(an) * np.asarray(bn) // np.asarray(bn) + np.asarray(an) % np.asarray(bn)
            g = numpy.asarray(g)
        numpy.testing.assert_array_equal(g, want)


def test_nan_operands_of_comparisons_raise_nothing(modes):
    hn, qn = _data(8), _data(9)
    qn[::5, ::3] = numpy.nan
    want = numpy.minimum(numpy.maximum(hn * qn, hn), qn + 1.0) - hn
    with np.errstate(invalid="raise"):
        got = modes(lambda: numpy.asarray(np.minimum(np.maximum(np.asarray(hn) * np.asarray(qn), np.asarray(hn)),
                                                     np.asarray(qn) + 1.0) - np.asarray(hn)))
    for g in got:
        numpy.testing.assert_array_equal(g, want)
    _same_bits(*got)


def test_invalid_sqrt_raises_in_both():
    old, _ = _core.jit()
    try:
        hn = _data(10)
        for m in ("off", "sync"):
            _core.jit(m)
            h = np.asarray(hn)
            with np.errstate(invalid="raise"):
                with pytest.raises(FloatingPointError, match="invalid value"):
                    numpy.asarray(np.sqrt(h * 2.0 + 0.5) * h - h)
    finally:
        _core.jit(old)


def test_in_place_and_transposed(modes):
    xn, yn = _data(11), _data(12, 0.5, 2.0)
    sq = _data(13)[:47, :47]

    def f():
        x = np.asarray(xn)
        x[...] = x * 2.0 + np.asarray(yn) * np.asarray(yn) / x
        t = np.asarray(sq).T * np.asarray(sq) - np.asarray(sq).T
        return numpy.asarray(x), numpy.asarray(np.maximum(t, 0.25) * t)

    got = modes(f)
    with numpy.errstate(all="ignore"):
        w0 = xn * 2.0 + yn * yn / xn
        t = sq.T * sq - sq.T
        w1 = numpy.maximum(t, 0.25) * t
    for g0, g1 in got:
        numpy.testing.assert_array_equal(g0, w0)
        numpy.testing.assert_array_equal(g1, w1)


def test_mode_names():
    old, n = _core.jit()
    assert old in ("off", "auto", "sync") and n >= 0
    with pytest.raises(ValueError, match="'fast'"):
        _core.jit("fast")
    assert _core.jit(old)[0] == old
    assert maniple is not None
