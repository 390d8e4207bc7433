"""convolve, correlate, unwrap, interp, polyval, cov and corrcoef, native
now, against NumPy run in the test, on every rank under mpiexec -n 1, 2, 3.
The element-wise ones add their terms in NumPy's order (within an ulp: a GPU
fuses multiply-adds); cov
and corrcoef multiply distributed matrices, so within rounding."""
import numpy
import pytest

import maniple.numpy as mnp
from xp import check, raises_like

R = numpy.random.default_rng(7)
A = R.standard_normal(23)
V = R.standard_normal(5)
C = A[:7] + 1j * A[7:14]
CV = V + 0.5j * V[::-1]
LONG = R.standard_normal(40)  # more terms than one fused pass takes


@pytest.mark.parametrize("mode", ["full", "same", "valid"])
@pytest.mark.parametrize("pair", ["real", "swapped", "int", "complex", "complex swapped", "long", "scalar"])
def test_convolve_correlate(mode, pair):
    a, v = {"real": (A, V), "swapped": (V, A), "int": (numpy.arange(10), numpy.array([1, -2, 3])),
            "complex": (C, CV), "complex swapped": (CV, C), "long": (A, LONG), "scalar": (A, numpy.array([2.5]))}[pair]
    # a pass per 16 terms sums in another grouping; NumPy's complex dot products (BLAS) in another order;
    # on a GPU nvcc fuses a*b + c into one rounding (fma), so even the short real sums agree to an ulp only
    tol = 1e-13 if pair in ("long", "complex", "complex swapped") else 0.0 if pair == "int" else 1e-15
    check(lambda xp: xp.convolve(xp.asarray(a), xp.asarray(v), mode), rtol=tol, atol=tol)
    check(lambda xp: xp.correlate(xp.asarray(a), xp.asarray(v), mode), rtol=tol, atol=tol)


def test_convolve_errors():
    for xp in (numpy, mnp):
        with pytest.raises(ValueError):
            xp.convolve(xp.asarray(A), xp.asarray(numpy.array([])))
        with pytest.raises(ValueError):
            xp.convolve(xp.asarray(A), xp.asarray(V), "middle")
    # NumPy's integer modes 0, 1, 2 and its errors for other modes
    for mode, name in ((0, "valid"), (1, "same"), (2, "full"), (numpy.int8(2), "full")):
        check(lambda xp: xp.convolve(xp.asarray(A), xp.asarray(V), mode) - xp.convolve(xp.asarray(A), xp.asarray(V), name))
        check(lambda xp: xp.correlate(xp.asarray(A), xp.asarray(V), mode=mode))
    for f in ("convolve", "correlate"):
        for mode, exc, msg in (("v", ValueError, "Use one of 'valid', 'same', or 'full'"),
                               ("Same", ValueError, "Use one of"),
                               (-1, ValueError, "integer convolve/correlate mode must be 0, 1, or 2"),
                               (3, ValueError, "must be 0, 1, or 2"),
                               (None, TypeError, "convolve/correlate mode not understood"),
                               (True, TypeError, "mode not understood")):
            raises_like(lambda xp: getattr(xp, f)(xp.asarray(A), xp.asarray(V), mode), exc, msg)


def test_unwrap():
    ph = numpy.cumsum(R.standard_normal(30)) * 2
    check(lambda xp: xp.unwrap(xp.asarray(ph)))
    check(lambda xp: xp.unwrap(xp.asarray(ph), discont=4.0))
    check(lambda xp: xp.unwrap(xp.asarray(ph.reshape(5, 6)), axis=0, period=3))
    check(lambda xp: xp.unwrap(xp.asarray(numpy.array([0, 1, 6, 12, 2, 13])), period=5))
    check(lambda xp: xp.unwrap(xp.asarray(numpy.array([0.0, numpy.pi, 2 * numpy.pi, -numpy.pi]))))


XP = numpy.array([0.0, 1.0, 1.5, 4.0, 4.0, 7.0])
FP = numpy.array([1.0, -2.0, 3.0, 0.5, 2.0, 8.0])
X = numpy.array([-1.0, 0.0, 0.3, 1.0, 1.2, 4.0, 5.0, 7.0, 8.0, numpy.nan, 2.2, numpy.inf])


def test_interp():
    check(lambda xp: xp.interp(xp.asarray(X), xp.asarray(XP), xp.asarray(FP)))
    check(lambda xp: xp.interp(xp.asarray(X), XP, FP, left=-9, right=9))
    check(lambda xp: xp.interp(xp.asarray(X.reshape(3, 4)), XP, FP))
    check(lambda xp: xp.interp(xp.asarray(X), XP, FP + 1j * FP[::-1], left=1j))
    check(lambda xp: xp.interp(xp.asarray(X[:9]), XP[[0, 1, 2, 3, 5]], FP[[0, 1, 2, 3, 5]], period=5))
    check(lambda xp: xp.interp(xp.asarray(X), XP[:1], FP[:1]))
    check(lambda xp: xp.interp(xp.asarray(X.astype("float32")), XP.astype("int32"), FP))
    assert mnp.interp(2.5, XP, FP) == numpy.interp(2.5, XP, FP)
    for xp in (numpy, mnp):
        with pytest.raises(ValueError):
            xp.interp(xp.asarray(X), xp.asarray(XP), xp.asarray(FP[:3]))
        with pytest.raises(ValueError):
            xp.interp(xp.asarray(X), xp.asarray(XP[:0]), xp.asarray(FP[:0]))
        for x, pts in ((X + 1j, XP), (X, XP + 0j)):  # complex points (values may be complex)
            with pytest.raises(TypeError, match="Cannot cast array data from dtype.'complex128'. to dtype.'float64'."):
                xp.interp(xp.asarray(x), xp.asarray(pts), xp.asarray(FP))


def test_polyval():
    check(lambda xp: xp.polyval([3, 0, -2.5, 1], xp.asarray(X[:9])))
    check(lambda xp: xp.polyval(xp.asarray(numpy.array([3, 0, -2, 1])), xp.asarray(numpy.arange(10))))
    check(lambda xp: xp.polyval([1j, 2], xp.asarray(X[:9])))


Xm = R.standard_normal((3, 8))
Ym = R.standard_normal((2, 8))
FW = numpy.array([1, 2, 1, 3, 1, 1, 2, 1])
AW = numpy.linspace(0.5, 2, 8)


@pytest.mark.parametrize("kw", [{}, {"bias": True}, {"ddof": 3}, {"fweights": FW}, {"aweights": AW},
                                {"fweights": FW, "aweights": AW, "ddof": 1}, {"dtype": "float32"}])
def test_cov(kw):
    check(lambda xp: xp.cov(xp.asarray(Xm), **kw), rtol=1e-5 if kw.get("dtype") else 1e-12)


def test_cov_shapes_and_dtypes():
    check(lambda xp: xp.cov(xp.asarray(Xm.T), rowvar=False), rtol=1e-12)
    check(lambda xp: xp.cov(xp.asarray(Xm), xp.asarray(Ym)), rtol=1e-12)
    check(lambda xp: xp.cov(xp.asarray(Xm[0])), rtol=1e-12)
    check(lambda xp: xp.cov(xp.asarray(numpy.arange(10).reshape(2, 5))), rtol=1e-12)
    check(lambda xp: xp.cov(xp.asarray(Xm + 1j * Xm[::-1])), rtol=1e-12, atol=1e-14)
    check(lambda xp: xp.corrcoef(xp.asarray(Xm)), rtol=1e-12, atol=1e-14)
    check(lambda xp: xp.corrcoef(xp.asarray(Xm), xp.asarray(Ym)), rtol=1e-12, atol=1e-14)
    check(lambda xp: xp.corrcoef(xp.asarray(Xm[0])))
    check(lambda xp: xp.corrcoef(xp.asarray(Xm + 1j * Xm[::-1])), rtol=1e-12, atol=1e-14)
    for xp in (numpy, mnp):
        with pytest.raises(ValueError):
            xp.cov(xp.asarray(numpy.ones((2, 2, 2))))
        with pytest.raises(RuntimeError):
            xp.cov(xp.asarray(Xm), fweights=FW[:3])
        with pytest.raises(TypeError):
            xp.cov(xp.asarray(Xm), fweights=FW + 0.5)
