"""complex64 and complex128 through ufuncs, NumPy 2's promotion (weak
Python complex scalars included), casts, reductions, indexing, products and
.npy files, against NumPy run in the test, on every rank under mpiexec -n
1, 2, 3. Arithmetic on the half-integer data is exact, so it is compared
bit for bit; division and the transcendental functions within a few ulps
(libm's and the textbook formulas may round differently)."""
import os
import warnings

import numpy
import pytest

import maniple
import maniple.numpy as mnp
from maniple import _core
from xp import check, compare, data, raises_like

CPX = ["complex64", "complex128"]
REAL = ["bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
        "float64"]
TOL = {"complex64": 5e-6, "complex128": 1e-13}


def cdata(shape, dt, seed=0):
    """Half-integers in both parts, the same on every rank."""
    return (data(shape, "float64", seed) + 1j * data(shape, "float64", seed + 7)).astype(dt)


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "equal", "not_equal", "less", "less_equal",
                                "greater", "greater_equal", "maximum", "minimum", "fmax", "fmin"])
def test_binary_exact(dt, op):
    x, y = cdata((7, 5), dt), cdata((7, 5), dt, 1)
    y[0, :2] = x[0, :2]  # ties for the comparisons
    check(lambda xp: getattr(xp, op)(xp.asarray(x), xp.asarray(y)))


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("op", ["divide", "power", "float_power"])
def test_binary_rounded(dt, op):
    x, y = cdata((7, 5), dt), cdata((7, 5), dt, 1)
    if op == "divide":
        y[y == 0] = 1
    else:
        y = (numpy.arange(35).reshape(7, 5) % 5 - 2 + 0.5j * (numpy.arange(35).reshape(7, 5) % 2)).astype(dt)
        x[x == 0] = 1 + 1j
    check(lambda xp: getattr(xp, op)(xp.asarray(x), xp.asarray(y)), rtol=TOL[dt])


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("op", ["negative", "positive", "conjugate", "square", "absolute", "isnan", "isinf",
                                "isfinite", "logical_not", "real", "imag"])
def test_unary_exact(dt, op):
    x = cdata((7, 5), dt)
    x[0, 0], x[0, 1], x[0, 2] = complex(numpy.nan, 1), complex(1, numpy.inf), 0
    rtol = TOL[dt] if op == "absolute" else 0.0
    check(lambda xp: getattr(xp, op)(xp.asarray(x)), rtol=rtol)


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("op", ["sqrt", "exp", "log", "log2", "log10", "sin", "cos", "tan", "sinh", "cosh", "tanh",
                                "reciprocal", "sign", "angle", "exp2", "expm1", "log1p", "rint", "arcsin",
                                "arccos", "arctan", "arcsinh", "arccosh", "arctanh"])
def test_unary_rounded(dt, op):
    x = cdata((7, 5), dt) / 4
    x[x == 0] = 0.5 - 0.25j
    with numpy.errstate(all="ignore"):
        check(lambda xp: getattr(xp, op)(xp.asarray(x)), rtol=TOL[dt], atol=TOL[dt])


# on the cuts (the real axis beyond +-1, the imaginary one beyond +-i) with
# either zero, near 0 (no cancellation), near the branch points and far out
CUTS = [2 + 0j, complex(2, -0.0), -3 + 0j, complex(-3, -0.0), 5j, -5j, complex(-0.0, 5), complex(0.0, -5),
        complex(-0.0, -5), 1e-9 + 1e-12j, -1e-12 + 3e-9j, 0.3j, 1 + 0j, -1 + 0j, 0.999 + 1e-8j, 1 + 1e-8j,
        1e5 + 1e5j, -3e7 + 2j, 0.5 + 0.25j, -0.7 - 0.2j, 0j, complex(-0.0, -0.0)]


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("op", ["arcsin", "arccos", "arctan", "arcsinh", "arccosh", "arctanh"])
def test_inverse_functions_on_their_cuts(dt, op):
    """Kahan's formulas against NumPy (C99's functions): each part within
    a few ulps of the value's size, and the zero signs that pick a cut's
    side the same."""
    x = numpy.array(CUTS, dt)
    if op in ("arctanh", "arctan"):  # their poles (+-1, +-i): NumPy's inf parts are compared apart
        x = x[numpy.abs(x) != 1]
    want = getattr(numpy, op)(x)
    got = numpy.asarray(getattr(mnp, op)(mnp.asarray(x)))
    assert got.dtype == want.dtype
    scale = numpy.maximum(numpy.abs(want), numpy.finfo(dt).tiny)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert numpy.all(numpy.abs(g - w) <= 8 * numpy.finfo(dt).eps * scale), (op, x, g, w)
        assert numpy.array_equal(numpy.signbit(g[w == 0]), numpy.signbit(w[w == 0])), (op, x, g, w)


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("other", REAL + CPX)
def test_promotion(dt, other):
    x = cdata((7, 5), dt)
    y = data((7, 5), other, 2)
    check(lambda xp: xp.asarray(x) + xp.asarray(y))
    check(lambda xp: xp.asarray(y) * xp.asarray(x))


@pytest.mark.parametrize("dt,s", [(dt, s) for dt in REAL + CPX for s in (2, 2.5, 1.5j, 2 - 0.5j, True)
                                  if dt in CPX or isinstance(s, complex)])
def test_weak_scalars(dt, s):
    """NEP 50: a Python complex keeps a float array's precision (float32
    * 1j is complex64), and Python numbers take a complex array's dtype."""
    x = cdata((7, 5), dt) if dt in CPX else data((7, 5), dt)
    with numpy.errstate(all="ignore"):
        check(lambda xp: xp.asarray(x) * s)
        check(lambda xp: s - xp.asarray(x))


@pytest.mark.parametrize("dt", CPX)
def test_reductions(dt):
    x = cdata((7, 5), dt)
    tol = TOL[dt]
    check(lambda xp: xp.sum(xp.asarray(x)), rtol=tol)
    check(lambda xp: xp.asarray(x).sum(axis=0), rtol=tol)
    check(lambda xp: xp.asarray(x).sum(axis=1, keepdims=True), rtol=tol)
    check(lambda xp: xp.prod(xp.asarray(x[:2, :3])), rtol=tol)
    check(lambda xp: xp.prod(xp.asarray(x[:, :3]) / 4, axis=1), rtol=tol)
    check(lambda xp: xp.mean(xp.asarray(x)), rtol=tol)
    check(lambda xp: xp.mean(xp.asarray(x), axis=0), rtol=tol)
    check(lambda xp: xp.var(xp.asarray(x)), rtol=tol)
    check(lambda xp: xp.std(xp.asarray(x), axis=1), rtol=tol)
    check(lambda xp: xp.any(xp.asarray(x)))
    check(lambda xp: xp.all(xp.asarray(x)))
    check(lambda xp: xp.asarray(x).any(axis=0))
    check(lambda xp: xp.sum(xp.zeros((0, 3), dt)))
    check(lambda xp: xp.prod(xp.zeros((0,), dt)))
    # NumPy's lexicographic order; ties of the real part decided by the imaginary one
    y = x.copy()
    y[3, :] = y[3, 0].real + 1j * numpy.arange(5)
    y[1, 1] = y.real.max() + 1j * y.imag.min()
    for f in ("max", "min", "argmax", "argmin", "ptp"):
        check(lambda xp: getattr(xp, f)(xp.asarray(y)))
        check(lambda xp: getattr(xp, f)(xp.asarray(y), axis=0))
    check(lambda xp: xp.cumsum(xp.asarray(x), axis=0), rtol=tol)
    check(lambda xp: xp.cumsum(xp.asarray(x)), rtol=tol)
    check(lambda xp: xp.cumprod(xp.asarray(x[:, :2]) / 4, axis=0), rtol=tol)
    z = y.copy()
    z[2, 2] = complex(numpy.nan, 0)
    check(lambda xp: xp.max(xp.asarray(z), axis=1))
    check(lambda xp: xp.argmin(xp.asarray(z)))


@pytest.mark.parametrize("dt", CPX)
def test_products(dt):
    a, b = cdata((7, 5), dt), cdata((5, 4), dt, 3)
    v, w = cdata((9,), dt, 4), cdata((9,), dt, 5)
    tol = TOL[dt]
    check(lambda xp: xp.asarray(a) @ xp.asarray(b), rtol=tol)
    check(lambda xp: xp.matmul(xp.asarray(a), xp.asarray(b[:, 0])), rtol=tol)
    check(lambda xp: xp.dot(xp.asarray(v), xp.asarray(w)), rtol=tol)
    check(lambda xp: xp.vdot(xp.asarray(v), xp.asarray(w)), rtol=tol)
    check(lambda xp: xp.vdot(xp.asarray(a), xp.asarray(a)), rtol=tol)
    check(lambda xp: xp.asarray(a) @ xp.asarray(data((5, 3), "float64", 6)), rtol=tol)


@pytest.mark.parametrize("dt", CPX)
def test_indexing_and_parts(dt):
    x = cdata((7, 5), dt)
    check(lambda xp: xp.asarray(x)[2, 3])
    check(lambda xp: xp.asarray(x)[1:6:2, ::-2])
    check(lambda xp: xp.asarray(x)[xp.asarray(x.real > 0)])

    def setitems(xp):
        a = xp.asarray(x).copy()
        a[1, 2] = 3 - 4j
        a[0] = 2.5
        a[2:4, 1:3] = xp.asarray(x[:2, :2]) * 1j
        a[xp.asarray(x.imag < 0)] = 0
        return a
    check(setitems)

    def parts(xp):
        a = xp.asarray(x).copy()
        r, i = a.real.copy(), a.imag.copy()
        a.imag = xp.asarray(x.real)
        b = xp.asarray(x).copy()
        b.real = 7
        b.imag *= -1  # through the setter
        c = xp.asarray(x).copy()
        c.real[1:3] = 0  # into the part, which NumPy's view writes through
        c.imag[..., 0] = xp.asarray(x.real[:, 1])
        return r, i, a, b, c, a.conj(), xp.iscomplexobj(a), xp.isreal(a), xp.iscomplex(b)
    check(parts)
    # a real array's imag is read-only zeros, as NumPy's view
    raises_like(lambda xp: xp.asarray(x.real).imag.__setitem__(0, 1), ValueError, "read-only")
    check(lambda xp: xp.asarray(x.real).imag + 1)
    check(lambda xp: xp.where(xp.asarray(x.real > 0), xp.asarray(x), 1j))
    check(lambda xp: xp.real_if_close(xp.asarray(x)))
    check(lambda xp: xp.real_if_close(xp.asarray(x.real + 1e-20j).astype(dt)))
    check(lambda xp: xp.clip(xp.asarray(x), -2 + 1j, xp.asarray(x[0])))
    check(lambda xp: xp.full((3, 2), 1 - 2j, dt))
    check(lambda xp: xp.zeros((3, 2), dt) + xp.ones(2, dt))


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("to", REAL + CPX)
def test_casts(dt, to):
    x = cdata((7, 5), dt)
    x[0, 0] = 1j  # true as bool, 0 as a real number
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(lambda xp: xp.asarray(x).astype(to))
        check(lambda xp: xp.asarray(data((7, 5), to)).astype(dt))
    if to not in CPX and to != "bool":
        for xp in (numpy, mnp):
            with pytest.warns(numpy.exceptions.ComplexWarning):
                xp.asarray(x).astype(to)


@pytest.mark.parametrize("dt", CPX)
def test_npy_roundtrip(dt, tmp_path_factory):
    x = cdata((6, 4), dt)
    d = _core.bcast(str(tmp_path_factory.mktemp("cpx")).encode() if maniple.rank() == 0 else None, 0).decode()
    path = os.path.join(d, f"{dt}.npy")
    mnp.save(path, mnp.asarray(x))
    compare(mnp.load(path), x)  # collective: every rank has written its part before it returns
    numpy.testing.assert_array_equal(numpy.load(path), x)
    assert numpy.load(path).dtype == dt
    numpy.save(path + "2.npy", x) if maniple.rank() == 0 else None
    float(mnp.ones(3).sum())  # rank 0 has written
    compare(mnp.load(path + "2.npy"), x)


@pytest.mark.parametrize("dt", CPX)
def test_refused_clearly(dt):
    """NumPy's own errors, on every rank, changing nothing."""
    x = mnp.asarray(cdata((7, 5), dt))
    raises_like(lambda xp: xp.floor(xp.asarray(cdata((3,), dt))), TypeError)
    raises_like(lambda xp: xp.asarray(cdata((3,), dt)) // 2, TypeError)
    raises_like(lambda xp: xp.bitwise_and(xp.asarray(cdata((3,), dt)), 1), TypeError)

    def into_real(xp):
        a = xp.zeros(3)
        a[...] = 1j
    raises_like(into_real, TypeError)
    compare(x, cdata((7, 5), dt))


def _with_nans(dt):
    """Ties, signed zeros and every kind of NaN, as NumPy orders them"""
    nan = numpy.nan
    z = numpy.array([3 + 1j, 1 + 2j, 1 + 1j, complex(nan, 1), complex(1, nan), complex(nan, nan), -0.0 + 1j, 1j,
                     2 - 1j, complex(0, nan), complex(nan, -3), 1 + 1j, -2.5 - 0.5j, complex(1, -0.0)])
    return z.astype(dt)


@pytest.mark.parametrize("dt", CPX)
def test_sort_argsort_unique_median(dt):
    """Lexicographic order with NumPy's NaN groups (real NaN after imaginary
    NaN after both finite), stable, along any axis, at any rank count"""
    z = _with_nans(dt)
    y = cdata((6, 5), dt, seed=3)
    y[2, 1] = complex(numpy.nan, 1)
    y[4, :] = y[4, 0]  # ties
    check(lambda xp: xp.sort(xp.asarray(z)))
    check(lambda xp: xp.argsort(xp.asarray(z), kind="stable"))
    check(lambda xp: xp.sort(xp.asarray(y), axis=0))
    check(lambda xp: xp.sort(xp.asarray(y), axis=1))
    check(lambda xp: xp.sort(xp.asarray(y), axis=None))
    check(lambda xp: xp.argsort(xp.asarray(y), axis=0, kind="stable"))
    check(lambda xp: xp.unique(xp.asarray(z)))
    check(lambda xp: xp.unique(xp.asarray(y)))
    check(lambda xp: xp.unique(xp.asarray(z), return_index=True, return_inverse=True, return_counts=True))
    check(lambda xp: xp.unique(xp.asarray(z), equal_nan=False))
    check(lambda xp: xp.median(xp.asarray(z)))
    check(lambda xp: xp.median(xp.asarray(z[:7])))
    check(lambda xp: xp.median(xp.asarray(y), axis=0))
    check(lambda xp: xp.median(xp.asarray(y), axis=1, keepdims=True))
    check(lambda xp: xp.sort_complex(xp.asarray(z)))
    check(lambda xp: xp.sort_complex(xp.asarray(numpy.array([3, -1, 2], dtype="int8"))))
    check(lambda xp: xp.sort_complex(xp.asarray(numpy.array([3.5, -1, 2]))))
    check(lambda xp: xp.sort_complex(xp.asarray(numpy.array([True, False]))))
    for f in ("median", "nanmedian"):  # the mean of nothing: nan+nanj
        with numpy.errstate(invalid="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            check(lambda xp: getattr(xp, f)(xp.asarray(numpy.zeros(0, complex))))
            check(lambda xp: getattr(xp, f)(xp.asarray(numpy.zeros((0, 3), complex)), axis=0))
    check(lambda xp: xp.partition(xp.asarray(z), 3)[3])
    check(lambda xp: xp.lexsort([xp.asarray(z.real), xp.asarray(z.imag)]))
    for f in ("quantile", "nanquantile"):  # complex values have no quantiles: NumPy's TypeError
        raises_like(lambda xp: getattr(xp, f)(xp.asarray(z), 0.5), TypeError)
    raises_like(lambda xp: xp.percentile(xp.asarray(y), 50, axis=0), TypeError)


def test_complex_arange():
    """NumPy's length rule for complex arguments (the shorter of the real
    and imaginary parts' counts) and a complex dtype's fill"""
    for args, kw in [((3 + 0j,), {}), ((0, 3 + 3j, 1 + 1j), {}), ((0, 2.5, 0.5), {"dtype": complex}),
                     ((7,), {"dtype": "complex64"}), ((1, 7, 1.5), {"dtype": "complex64"}),
                     ((-2 + 1j, 9 + 12j, 2 + 2j), {}), ((0, 10), {"dtype": "complex128"})]:
        check(lambda xp: xp.arange(*args, **kw))


@pytest.mark.parametrize("part", ["real", "imag"])
def test_parts_of_a_0d_complex_array(part):
    """A 0-d array's part is a 0-d array (it raised AttributeError), and
    writes through it reach the array."""
    def run(xp):
        y = xp.array(1 + 2j)
        p = getattr(xp, part)(y)
        out = [p, getattr(y, part)]  # views: they show the write below, in NumPy and here
        q = getattr(y, part)
        q[...] = 5
        return out + [y]
    got = check(run)
    assert got[0].ndim == 0


def _part_case(xp, k):
    a = xp.asarray(numpy.array([1 + 2j, 3 + 4j, 5 - 6j, -7 + 8j]))
    if k == "iadd":
        r = a.real
        r += 1
        return a, r
    if k == "out":
        r = a.real
        xp.add(r, 1, out=r)
        return a
    if k == "array_write_shows":
        r = a.real
        a[0] = 10
        return r
    if k == "imul_imag":
        i = a.imag
        i *= -1
        return a
    if k == "attribute_imul":
        a.imag *= -1
        return a
    if k == "whole_write_shows":
        i = a.imag
        a[...] = a * 2
        return i
    if k == "slice_of_part":
        r = a.real
        r[1:3] = 0
        return a
    if k == "view_of_part":
        r = a.real
        v = r[::2]
        v[...] = -1
        return a, r
    if k == "part_of_view":
        b = a[1:3]
        r = b.real
        r[...] = 9
        return a, b
    if k == "both_parts":
        r, i = a.real, a.imag
        r[0] = 100
        i[1] = 200
        return a, r, i
    if k == "setter_shows":
        r = a.real
        a.real = 0
        return r
    if k == "copy_is_not_a_view":
        r = a.real.copy()
        a[0] = 5
        return r
    if k == "complex64":
        a = a.astype("complex64")
        r = a.real
        r += 0.5
        return a, r
    if k == "transposed":
        m = xp.asarray(numpy.arange(12.0).reshape(3, 4) * (1 + 1j))
        r = m.T.real
        r[0, 1] = -5
        return m, r
    if k == "array_dropped":
        r = a.real
        del a
        return r


@pytest.mark.parametrize("k", ["iadd", "out", "array_write_shows", "imul_imag", "attribute_imul", "whole_write_shows",
                               "slice_of_part", "view_of_part", "part_of_view", "both_parts", "setter_shows",
                               "copy_is_not_a_view", "complex64", "transposed", "array_dropped"])
def test_parts_are_views(k):
    """.real and .imag of a complex array behave as NumPy's views: r += 1,
    out=r and writes into sub-views reach the array, and writes into the
    array show in parts taken before (they were copies: r += 1 was lost)."""
    check(lambda xp: _part_case(xp, k))


_INF, _NAN = numpy.inf, numpy.nan
_SPECIAL = numpy.array([complex(_INF, 0), complex(-_INF, 0), complex(0, _INF), complex(-0.0, -_INF), complex(_INF, 5),
                        complex(2, _INF), complex(_INF, _INF), complex(_INF, _NAN), complex(_NAN, 1), 0j,
                        complex(3, 4), complex(0, _NAN), complex(1, 0), complex(_NAN, 0), complex(1, 1), complex(-8, 6)])


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_special_values_as_numpy(dtype):
    """NaN parts make order comparisons false (0+nanj < 1 was True), sign of
    infinite parts is their unit, sqrt and small powers keep infinities as
    C99 and NumPy do, 0 ** b is 0 only for Re b > 0."""
    z = _SPECIAL.astype(dtype)
    with numpy.errstate(all="ignore"):
        for op in ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal", "maximum", "minimum",
                   "fmax", "fmin"):
            check(lambda xp: getattr(xp, op)(xp.asarray(z)[:, None], xp.asarray(z)[None, :]))
        check(lambda xp: xp.sign(xp.asarray(z)))
        check(lambda xp: xp.sqrt(xp.asarray(z[:10])))
        for p in (0, 1, 2, 3, -1, 0.5, 1 + 4j, -1 + 0j, 2j):
            zz = numpy.array([complex(0, _INF), complex(1, _INF), 1 + 2j, 0j], dtype)
            check(lambda xp: xp.asarray(zz) ** p, rtol=1e-5 if dtype == "complex64" else 1e-13)


@pytest.mark.parametrize("dt", CPX)
def test_products_round_as_the_formula_everywhere(dt):
    """x * y is (ac - bd, ad + bc), each operation rounded, at every
    element: the same whatever block an element falls in (a vector loop
    once fused the products into vfmaddsub on AVX-512 and its scalar tail
    did not). NumPy's own AVX-512 loop fuses them, so the reference is the
    formula in NumPy's real arithmetic, not NumPy's complex product."""
    rs = numpy.random.RandomState(7)
    n = 3001
    xn = (rs.standard_normal(n) + 1j * rs.standard_normal(n)).astype(dt)
    yn = (rs.standard_normal(n) + 1j * rs.standard_normal(n)).astype(dt)
    a, b, c, d = xn.real, xn.imag, yn.real, yn.imag
    want = numpy.empty(n, dt)
    want.real, want.imag = a * c - b * d, a * d + b * c
    x, y = mnp.asarray(xn), mnp.asarray(yn)
    numpy.testing.assert_array_equal(numpy.asarray(x * y), want)
    numpy.testing.assert_array_equal(numpy.asarray(x[3:] * y[3:]), want[3:])


# parts that reach every case of C99's Annex G (zeros of both signs, finite
# and infinite values, NaN) and the large ones where exp(x) alone overflows
# or 2 y does (the textbook formulas gave NaN there: tanh(800), tan(1e308j))
_EDGE = [0.0, -0.0, 1.0, -2.5, 0.5, 1e-300, 30.0, -40.0, 400.0, 800.0, -1000.0, 1e10, 1e20, -1e300, 1e308,
         _INF, -_INF, _NAN]


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("op", ["exp", "exp2", "log", "sqrt", "sin", "cos", "tan", "sinh", "cosh", "tanh", "arcsin",
                                "arccos", "arctan", "arcsinh", "arccosh", "arctanh", "log1p", "expm1"])
def test_elementary_functions_at_annex_g_values_and_large_arguments(dt, op):
    """NumPy's values (glibc's, Annex G's) at every pair of the parts
    above: NaN where NumPy's is NaN, else within a few ulps of the value's
    size, with the signs of zeros and infinities NumPy gives."""
    z = numpy.array([complex(a, b) for a in _EDGE for b in _EDGE], dt)
    with numpy.errstate(all="ignore"):
        want = getattr(numpy, op)(z)
        got = numpy.asarray(getattr(mnp, op)(mnp.asarray(z)))
    assert got.dtype == want.dtype
    eps = numpy.finfo(dt).eps
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        bad = (numpy.isnan(g) != numpy.isnan(w)) | ((g != w) & ~numpy.isnan(w) & ~(
            numpy.abs(g - w) <= 64 * eps * numpy.maximum(numpy.abs(w), numpy.finfo(dt).tiny)))
        bad |= ~numpy.isnan(w) & (numpy.signbit(g) != numpy.signbit(w))
        assert not bad.any(), (op, z[bad][:4], g[bad][:4], w[bad][:4])


@pytest.mark.parametrize("dt", CPX)
@pytest.mark.parametrize("op", ["tan", "tanh", "arctan", "arctanh"])
def test_near_the_poles(dt, op):
    """tanh near i pi/2 (the doubled-angle quotient cancelled: 1e-4 off in
    complex64) and atanh near -1 (log1p of nearly -1), and their rotations."""
    pts = [complex(6.4960955e-06, -1.5605385), complex(1e-7, numpy.pi / 2), complex(2e-3, 4.71247206),
           complex(-0.9971574, -1.9278807e-04), complex(-1.0097778, 5.8161993e-07), complex(-1.0012945, -1.9556293e-05)]
    z = numpy.array(pts + [complex(p.imag, p.real) for p in pts], dt)
    want = getattr(numpy, op)(z)
    got = numpy.asarray(getattr(mnp, op)(mnp.asarray(z)))
    err = numpy.maximum(numpy.abs(got.real - want.real), numpy.abs(got.imag - want.imag))
    assert numpy.all(err <= 64 * numpy.finfo(dt).eps * numpy.abs(want)), (op, z, got, want)


@pytest.mark.parametrize("dt", CPX)
def test_round_and_the_functions_without_complex_loops(dt):
    """np.round of a complex array rounds both parts (it raised KeyError);
    modf and frexp raise NumPy's TypeError (they raised KeyError)."""
    x = (cdata((7, 5), dt) * 1.2345).astype(dt)
    for d in (3, 1, 0, -1):
        check(lambda xp: xp.round(xp.asarray(x), d), rtol=TOL[dt])
    check(lambda xp: xp.asarray(x).round(2), rtol=TOL[dt])
    for f in ("modf", "frexp"):
        raises_like(lambda xp: getattr(xp, f)(xp.asarray(x)), TypeError)
