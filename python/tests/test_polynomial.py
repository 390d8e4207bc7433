"""The polynomial functions against NumPy run in the test, at 1, 2 and 3
ranks. polyfit solves NumPy's scaled problem through a QR of each rank's
rows instead of one SVD: coefficients agree to rounding of the problem's
conditioning (1e-9 relative for these fits), singular values, rank and
residuals likewise; the rest compute what NumPy computes."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from xp import check, raises_like

R = numpy.random.default_rng(3)


def close(got, want, rtol):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            close(g, w, rtol)
        return
    if isinstance(want, numpy.ndarray):
        assert isinstance(got, mnp.ndarray), type(got)
        g = numpy.asarray(got)
        assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
        numpy.testing.assert_allclose(g, want, rtol=rtol, atol=rtol * max(1.0, numpy.abs(want).max(initial=0)))
    else:
        assert got == pytest.approx(want, rel=rtol), (got, want)


@pytest.mark.parametrize("n", [1, 2, 5, 40, 1001])
@pytest.mark.parametrize("deg", [0, 1, 3, 5])
def test_polyfit(n, deg):
    x = numpy.linspace(-2, 3, n)
    y = 0.5 * x ** 3 - x + 1 + 0.1 * R.standard_normal(n)
    y2 = numpy.stack([y, numpy.cos(x)], axis=1)
    w = R.random(n) + 0.5
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", numpy.exceptions.RankWarning)  # few points: both warn
        for yy in (y, y2):
            for kw in ({}, {"w": w}, {"full": True}, {"w": w, "full": True}, {"cov": "unscaled"}):
                if "cov" in kw and n <= deg + 1:  # the inverse of a singular matrix: rounding decides
                    continue
                try:
                    want = numpy.polyfit(x, yy, deg, **kw)
                except numpy.linalg.LinAlgError:  # cov of fewer points than coefficients: singular
                    with pytest.raises(numpy.linalg.LinAlgError):
                        mnp.polyfit(mnp.asarray(x), mnp.asarray(yy), deg, **kw)
                    continue
                close(mnp.polyfit(mnp.asarray(x), mnp.asarray(yy), deg, **{k: mnp.asarray(v) if k == "w" else v
                                                                           for k, v in kw.items()}), want, 1e-8)
            if n > deg + 1:
                close(mnp.polyfit(mnp.asarray(x), yy, deg, cov=True), numpy.polyfit(x, yy, deg, cov=True), 1e-8)
            else:
                # (a singular inverse first, or NumPy's "must exceed order": both ValueErrors)
                raises_like(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(yy), deg, cov=True), ValueError)


def test_polyfit_dtypes_and_warnings():
    x = numpy.arange(30)
    y = (x * 3 - 7) % 11
    check(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(y), 2), rtol=1e-9)       # integers: float64
    x32, y32 = x.astype("float32") / 10, (y / 7).astype("float32")
    check(lambda xp: xp.polyfit(xp.asarray(x32), xp.asarray(y32), 2), rtol=2e-3)   # float32 stays float32
    yc = y + 1j * x
    check(lambda xp: xp.polyfit(xp.asarray(x * 1.0), xp.asarray(yc), 3), rtol=1e-9)  # complex y
    # rank deficient (deg 3 through 2 distinct points): NumPy's RankWarning
    xs = numpy.array([1.0, 1, 2, 2, 2])
    for xp in (numpy, mnp):
        with pytest.warns(numpy.exceptions.RankWarning, match="poorly conditioned"):
            xp.polyfit(xp.asarray(xs), xp.asarray(xs * 2), 3)
    c, res, rank, s, rc = mnp.polyfit(mnp.asarray(xs), xs * 2, 3, full=True)
    assert rank == numpy.polyfit(xs, xs * 2, 3, full=True)[2] == 2
    for bad, exc, msg in (((x, y, -1), ValueError, "deg >= 0"), ((x.reshape(5, 6), y, 1), TypeError, "1D vector"),
                          ((x[:0], y[:0], 1), TypeError, "non-empty"), ((x, y[:29], 1), TypeError, "same length"),
                          ((x, y.reshape(30, 1, 1), 1), TypeError, "1D or 2D")):
        raises_like(lambda xp: xp.polyfit(xp.asarray(bad[0]), xp.asarray(bad[1]), bad[2]), exc, msg)
    raises_like(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(y), 1, w=xp.ones((30, 1))), TypeError, "1-d array")
    raises_like(lambda xp: xp.polyfit(xp.asarray(x), xp.asarray(y), 1, w=xp.ones(29)), TypeError, "same length")
    raises_like(lambda xp: xp.polyfit(xp.asarray(x * 1.0), xp.asarray(y * 1.0), 1, w=xp.ones(30) * 1j), TypeError,
                "Cannot cast")


def test_coefficient_arithmetic():
    ps = [numpy.array([1.0, -3, 2]), numpy.array([2, 5]), numpy.array([4.5]), numpy.array([1, 0, 0, -1, 7]),
          numpy.array([1 + 2j, -1])]
    for a in ps:
        for b in ps:
            for f in ("polyadd", "polysub", "polymul"):
                check(lambda xp: getattr(xp, f)(xp.asarray(a), xp.asarray(b)), rtol=1e-15)
        for m in (0, 1, 2, 5):
            check(lambda xp: xp.polyder(xp.asarray(a), m))
            check(lambda xp: xp.polyint(xp.asarray(a), m), rtol=1e-15)
        check(lambda xp: xp.polyint(xp.asarray(a), 2, k=[3, -1]), rtol=1e-15)
        check(lambda xp: xp.polyint(xp.asarray(a), 3, k=2), rtol=1e-15)
    check(lambda xp: xp.polyadd(3.0, xp.asarray(ps[0])))
    # polymul through poly1d's trimming, as NumPy: leading zeros dropped, nothing left is [0]
    for a, b in (([0, 0, 1, 2], [0, 3]), ([0, 0], [1, 2]), ([], [1.0, 2]), ([0.0], [0]), ([1, 2], [3])):
        check(lambda xp: xp.polymul(xp.asarray(numpy.array(a)), xp.asarray(numpy.array(b))))
    raises_like(lambda xp: xp.polymul(xp.ones((2, 2)), xp.ones(2)), ValueError, "1d only")
    raises_like(lambda xp: xp.polyder(xp.asarray(ps[0]), -1), ValueError, "positive")
    raises_like(lambda xp: xp.polyint(xp.asarray(ps[0]), -1), ValueError, "positive")
    raises_like(lambda xp: xp.polyint(xp.asarray(ps[0]), 3, k=[1, 2]), ValueError, "k must be")
    # a poly1d stays one (NumPy's answer)
    p1 = numpy.poly1d([1.0, 2])
    assert isinstance(mnp.polyadd(p1, p1), numpy.poly1d) and mnp.polyder(p1) == numpy.polyder(p1)


def test_gathered_coefficient_functions():
    u, v = numpy.array([1.0, -6, 11, -6, 2]), numpy.array([1.0, -1])
    q, r = mnp.polydiv(mnp.asarray(u), mnp.asarray(v))
    wq, wr = numpy.polydiv(u, v)
    close((q, r), (wq, wr), 1e-14)
    close(mnp.roots(mnp.asarray(u)), numpy.roots(u), 1e-12)
    close(mnp.poly(mnp.asarray([1.0, 2, 3])), numpy.poly([1.0, 2, 3]), 1e-14)
    S = numpy.array([[2.0, 1], [1, 3]])
    close(mnp.poly(mnp.asarray(S)), numpy.poly(S), 1e-13)
    assert mnp.roots._mn_kind == "gathered"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no fallback announcement
        mnp.polydiv(mnp.asarray(u), v)
    # a poly1d on either side gives maniple's poly1d quotient and remainder
    for a, b in (([1.0, 2, 3], mnp.poly1d([1.0, 2, 3])), (mnp.poly1d(u), list(v))):
        got = mnp.polydiv(a, b)
        want = numpy.polydiv(numpy.poly1d(a), numpy.poly1d(b))
        for g, w in zip(got, want):
            assert isinstance(g, mnp.poly1d)
            numpy.testing.assert_allclose(g.coeffs, w.coeffs, rtol=1e-14)


def test_poly1d_from_a_fit_evaluates_on_the_distributed_array():
    """The idiom p = poly1d(polyfit(x, y, deg)); p(x): the coefficients a
    short list on every rank, the evaluation on the distributed array."""
    x = numpy.linspace(-1.0, 2.0, 301)
    y = 0.5 * x ** 3 - x + 2.0 + 0.01 * numpy.sin(40 * x)
    p = mnp.poly1d(mnp.polyfit(mnp.asarray(x), mnp.asarray(y), 3))
    q = numpy.poly1d(numpy.polyfit(x, y, 3))
    assert isinstance(p, numpy.poly1d) and p.order == q.order == 3
    numpy.testing.assert_allclose(p.coeffs, q.coeffs, rtol=1e-9)
    got = p(mnp.asarray(x))
    assert isinstance(got, mnp.ndarray)
    numpy.testing.assert_allclose(numpy.asarray(got), q(x), rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose(numpy.asarray(p(x)), q(x), rtol=1e-12, atol=1e-12)  # a NumPy argument
    assert abs(p(1.5) - q(1.5)) < 1e-10
    assert str(mnp.poly1d([1.0, -2.0, 3.0])) == str(numpy.poly1d([1.0, -2.0, 3.0]))


@pytest.mark.parametrize("op", ["add", "sub", "mul", "neg", "pow", "div_scalar", "divmod", "deriv", "integ", "compose",
                                "roots", "from_roots", "poly_funcs"])
def test_poly1d_arithmetic_as_numpy(op):
    a, b = [2.0, -3.0, 0.5, 1.0], [1.0, 4.0]

    def run(xp):
        p, q = xp.poly1d(a), xp.poly1d(b)
        r = {"add": lambda: p + q, "sub": lambda: p - [1.0, 1.0], "mul": lambda: 2.0 * p * q, "neg": lambda: -p,
             "pow": lambda: q ** 3, "div_scalar": lambda: p / 4.0, "divmod": lambda: p / q,
             "deriv": lambda: p.deriv(2), "integ": lambda: p.integ(1, k=3.0), "compose": lambda: p(q),
             "roots": lambda: xp.poly1d(sorted(p.r, key=lambda z: (z.real, z.imag)), r=True),
             "from_roots": lambda: xp.poly1d([1.0, 2.0, -3.0], r=True),
             "poly_funcs": lambda: (xp.polyadd(p, q), xp.polymul(p, q), xp.polyder(p), xp.polyint(q))}[op]()
        return r if isinstance(r, tuple) else (r,)
    got, want = run(mnp), run(numpy)
    for g, w in zip(got, want):
        assert type(g) is mnp.poly1d, type(g)
        numpy.testing.assert_allclose(g.coeffs, w.coeffs, rtol=1e-12, atol=1e-12)


def test_get_include_is_numpys():
    assert mnp.get_include() == numpy.get_include()
