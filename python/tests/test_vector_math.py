"""exp, log and tanh of float64 and float32, and sin and cos of float32,
run through glibc's libmvec where the CPU has AVX2 (arrays/kernels_vec.h):
values within a few ULP of NumPy's (float64 sin and cos are libm's, as
NumPy's: equal), independent of block and rank boundaries, and NumPy's
warnings for overflow, underflow, division by zero and invalid arguments."""
import warnings

import numpy
import pytest

import maniple
import maniple.numpy as mnp
from maniple import _core

ON_HOST = _core.backend() == "cpu"  # device kernels raise no floating-point exceptions

FUNCS = ["exp", "log", "sin", "cos", "tanh"]


def maxulp(f, dt):
    return 0 if dt == "float64" and f in ("sin", "cos") else 8  # (libm's, as NumPy's)
COMMON = [numpy.nan, numpy.inf, -numpy.inf, 0.0, -0.0, 1.0, -1.0, 1e-310, -1e-310, 1e-40, 3.0e38, -3.0e38, 1e300]
SPECIAL = {
    "exp": COMMON + [710.0, -746.0, -740.0, 709.7, -1000.0, 700.0, -700.0, 88.8, -104.0, 80.0, -80.0],
    "log": COMMON + [2.5e-308, 1.7e308, 1e38, 2e-38],
    "sin": COMMON + [1e5, -1e5, 1e22, 3.141592653589793, 1e-300],
    "cos": COMMON + [1e5, 1e22, 1.5707963267948966],
    "tanh": COMMON + [1e30, 20.0, -20.0, 1e-300],
}


def ulp_close(got, want, dt, maxulp):
    got, want = numpy.asarray(got), numpy.asarray(want)
    assert got.dtype == want.dtype
    assert numpy.array_equal(numpy.isnan(got), numpy.isnan(want))
    ok = ~numpy.isnan(want)
    numpy.testing.assert_array_max_ulp(got[ok], want[ok], maxulp=maxulp, dtype=dt)


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("f", FUNCS)
def test_specials_and_warnings_as_numpy(f, dt):
    for v in SPECIAL[f] + [SPECIAL[f]]:
        def run(xp):
            with warnings.catch_warnings(record=True) as w, numpy.errstate(all="warn"):
                warnings.simplefilter("always")
                x = numpy.atleast_1d(numpy.asarray(v, dtype="float64")).astype(dt)
                r = numpy.asarray(getattr(xp, f)(xp.asarray(x)))
            return r, sorted({str(m.message) for m in w if issubclass(m.category, RuntimeWarning)})
        with numpy.errstate(all="ignore"):
            got, gw = run(mnp)
            want, ww = run(numpy)
        ulp_close(got, want, numpy.dtype(dt), maxulp(f, dt))
        # (at more ranks each reports its own elements' exceptions: among NumPy's;
        # NumPy's float32 SIMD exp and cos raise underflow for a subnormal
        # argument, where libm and maniple raise nothing)
        sub = numpy.asarray(v, dtype="float64")
        sub = numpy.any((sub != 0) & (numpy.abs(sub) < numpy.finfo(dt).tiny))
        if ON_HOST and not (dt == "float32" and sub and f in ("exp", "cos")):
            assert (gw == ww if maniple.size() == 1 else set(gw) <= set(ww)), (f, dt, v, gw, ww)


@pytest.mark.parametrize("dt", ["float64", "float32"])
@pytest.mark.parametrize("f", FUNCS)
def test_values_do_not_depend_on_blocks(f, dt):
    """The same arguments at different offsets (and so different block and
    rank boundaries, and vector tails) give bit-identical values; NumPy's
    within a few ULP, inside a fused expression too."""
    lo = 1e-3 if f == "log" else -30.0
    x = numpy.linspace(lo, 30.0, 10007).astype(dt)
    fn = getattr(mnp, f)
    a = numpy.asarray(fn(mnp.asarray(x)))
    b = numpy.asarray(fn(mnp.asarray(numpy.concatenate([x[:3], x]))))[3:]
    assert numpy.array_equal(a, b)
    ulp_close(a, getattr(numpy, f)(x), numpy.dtype(dt), maxulp(f, dt))
    m = mnp.asarray(x)
    fused = numpy.asarray(2 * fn(m) + m)
    ref = numpy.asarray(2 * getattr(numpy, f)(x) + x)
    numpy.testing.assert_allclose(fused, ref, rtol=1e-5 if dt == "float32" else 1e-13,
                                  atol=1e-5 if dt == "float32" else 1e-13)
