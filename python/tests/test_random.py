"""maniple.numpy.random on every rank under mpiexec -n 1, 2, 3.

Distributions: 10^5 draws at a fixed seed against the analytic distribution
function (Kolmogorov-Smirnov, scipy-free) and against NumPy's own sampler
(two-sample KS), and moments to a few standard errors.

Rank counts: the stream is a function of (seed, call, flat index) only. The
test recomputes it here with NumPy from that formula (Philox4x32-10, as the C
library's kernels/philox.h), on one process whatever the rank count: the
uniform draws must equal it bit for bit at -n 1, 2 and 3, the transformed
ones to rounding (the C library's libm and NumPy's may differ in the last
bit); and within one run, two layouts of the same draw (1-d and 2-d, split
differently across ranks) must agree bit for bit."""
import math

import numpy
import pytest

import maniple.numpy as np
from maniple.numpy import random as mrandom

N = 100_000
M32 = numpy.uint64(0xFFFFFFFF)


def philox(n, key):
    """The C library's Philox4x32-10 words for counters 0..n-1 under key."""
    ctr = numpy.arange(n, dtype=numpy.uint64)
    c0, c1 = ctr & M32, ctr >> numpy.uint64(32)
    c2 = numpy.zeros(n, numpy.uint64)
    c3 = numpy.zeros(n, numpy.uint64)
    k0, k1 = numpy.uint64(key & 0xFFFFFFFF), numpy.uint64(key >> 32)
    for _ in range(10):
        p0 = numpy.uint64(0xD2511F53) * c0
        p1 = numpy.uint64(0xCD9E8D57) * c2
        hi0, lo0 = p0 >> numpy.uint64(32), p0 & M32
        hi1, lo1 = p1 >> numpy.uint64(32), p1 & M32
        c0, c1, c2, c3 = hi1 ^ c1 ^ k0, lo1, hi0 ^ c3 ^ k1, lo0
        k0 = numpy.uint64((int(k0) + 0x9E3779B9) & 0xFFFFFFFF)
        k1 = numpy.uint64((int(k1) + 0xBB67AE85) & 0xFFFFFFFF)
    return c0, c1, c2, c3


def u01(a, b):
    x = ((a << numpy.uint64(21)) ^ (b >> numpy.uint64(11))) & numpy.uint64((1 << 53) - 1)
    return x.astype(numpy.float64) * (1.0 / 9007199254740992.0)


def ref_uniform(n, seed, call=0):
    w = philox(n, mrandom._key(seed, call))
    return u01(w[0], w[1])


def ref_normal(n, seed, call=0):
    w = philox(n, mrandom._key(seed, call))
    u1, u2 = u01(w[0], w[1]), u01(w[2], w[3])
    return numpy.sqrt(-2.0 * numpy.log(1.0 - u1)) * numpy.cos(6.283185307179586 * u2)


def openu(u):
    return numpy.maximum(u, 2.0 ** -54)


def stdexp(u):
    return -numpy.log1p(-u)


def phi(z):
    return 0.5 * (1.0 + numpy.vectorize(math.erf)(z / math.sqrt(2.0)))


def tri_cdf(x, a, c, b):
    return numpy.where(x <= c, (x - a) ** 2 / ((b - a) * (c - a)), 1 - (b - x) ** 2 / ((b - a) * (b - c)))


# name -> (maniple call, NumPy Generator call, analytic CDF, reference from
# the uniform u (or the normal z) of the first draw, mean, variance)
DISTS = {
    "random_sample": (lambda r, n: r.random_sample(n), lambda g, n: g.random(n), lambda x: x,
                      lambda u, z: u, 0.5, 1 / 12),
    "standard_exponential": (lambda r, n: r.standard_exponential(n), lambda g, n: g.standard_exponential(n),
                             lambda x: 1 - numpy.exp(-x), lambda u, z: stdexp(u), 1.0, 1.0),
    "exponential": (lambda r, n: r.exponential(2.5, n), lambda g, n: g.exponential(2.5, n),
                    lambda x: 1 - numpy.exp(-x / 2.5), lambda u, z: 2.5 * stdexp(u), 2.5, 6.25),
    "standard_normal": (lambda r, n: r.standard_normal(n), lambda g, n: g.standard_normal(n), phi,
                        lambda u, z: z, 0.0, 1.0),
    "laplace": (lambda r, n: r.laplace(1.0, 2.0, n), lambda g, n: g.laplace(1.0, 2.0, n),
                lambda x: numpy.where(x < 1, 0.5 * numpy.exp((x - 1) / 2), 1 - 0.5 * numpy.exp(-(x - 1) / 2)),
                lambda u, z: numpy.where(openu(u) < 0.5, 1 + 2 * numpy.log(2 * openu(u)),
                                         1 - 2 * numpy.log(2 - 2 * openu(u))), 1.0, 8.0),
    "logistic": (lambda r, n: r.logistic(-1.0, 0.5, n), lambda g, n: g.logistic(-1.0, 0.5, n),
                 lambda x: 1 / (1 + numpy.exp(-(x + 1) / 0.5)),
                 lambda u, z: -1 + 0.5 * numpy.log(openu(u) / (1 - openu(u))), -1.0, 0.25 * math.pi ** 2 / 3),
    "gumbel": (lambda r, n: r.gumbel(0.5, 1.5, n), lambda g, n: g.gumbel(0.5, 1.5, n),
               lambda x: numpy.exp(-numpy.exp(-(x - 0.5) / 1.5)),
               lambda u, z: 0.5 - 1.5 * numpy.log(-numpy.log(openu(u))), 0.5 + 1.5 * 0.5772156649015329,
               math.pi ** 2 / 6 * 2.25),
    "rayleigh": (lambda r, n: r.rayleigh(2.0, n), lambda g, n: g.rayleigh(2.0, n),
                 lambda x: 1 - numpy.exp(-x ** 2 / 8), lambda u, z: 2.0 * numpy.sqrt(2.0 * stdexp(u)),
                 2.0 * math.sqrt(math.pi / 2), (4 - math.pi) / 2 * 4),
    "weibull": (lambda r, n: r.weibull(1.5, n), lambda g, n: g.weibull(1.5, n),
                lambda x: 1 - numpy.exp(-x ** 1.5), lambda u, z: stdexp(u) ** (1 / 1.5),
                math.gamma(1 + 1 / 1.5), math.gamma(1 + 2 / 1.5) - math.gamma(1 + 1 / 1.5) ** 2),
    "pareto": (lambda r, n: r.pareto(10.0, n), lambda g, n: g.pareto(10.0, n),
               lambda x: 1 - (1 + x) ** -10.0, lambda u, z: numpy.expm1(stdexp(u) / 10.0), 1 / 9, 10 / 648),
    "lognormal": (lambda r, n: r.lognormal(0.5, 0.25, n), lambda g, n: g.lognormal(0.5, 0.25, n),
                  lambda x: phi((numpy.log(x) - 0.5) / 0.25), lambda u, z: numpy.exp(0.5 + 0.25 * z),
                  math.exp(0.5 + 0.25 ** 2 / 2), (math.exp(0.25 ** 2) - 1) * math.exp(1 + 0.25 ** 2)),
    "standard_cauchy": (lambda r, n: r.standard_cauchy(n), lambda g, n: g.standard_cauchy(n),
                        lambda x: 0.5 + numpy.arctan(x) / math.pi,
                        lambda u, z: numpy.tan(math.pi * (openu(u) - 0.5)), None, None),
    "power": (lambda r, n: r.power(3.0, n), lambda g, n: g.power(3.0, n), lambda x: x ** 3.0,
              lambda u, z: u ** (1 / 3.0), 0.75, 3 / 80),
    "triangular": (lambda r, n: r.triangular(-1.0, 0.5, 2.0, n), lambda g, n: g.triangular(-1.0, 0.5, 2.0, n),
                   lambda x: tri_cdf(x, -1.0, 0.5, 2.0),
                   lambda u, z: numpy.where(u <= 0.5, -1 + numpy.sqrt(u * 4.5), 2 - numpy.sqrt((1 - u) * 4.5)),
                   0.5, (1 + 0.25 + 4 - (-0.5) - (-2) - 1.0) / 18),
}
GENERATOR_HAS = set(DISTS) - {"random_sample"}


def ks(sample, cdf):
    x = numpy.sort(sample)
    f = cdf(x)
    i = numpy.arange(1, len(x) + 1)
    return max(numpy.max(i / len(x) - f), numpy.max(f - (i - 1) / len(x)))


def ks2(a, b):
    a, b = numpy.sort(a), numpy.sort(b)
    allv = numpy.concatenate([a, b])
    return numpy.max(numpy.abs(numpy.searchsorted(a, allv, side="right") / len(a)
                               - numpy.searchsorted(b, allv, side="right") / len(b)))


@pytest.mark.parametrize("name", sorted(DISTS))
def test_distribution(name):
    draw, npdraw, cdf, _, mean, var = DISTS[name]
    np.random.seed(20240611)
    x = numpy.asarray(draw(np.random, N))
    assert x.shape == (N,) and x.dtype == numpy.float64 and numpy.isfinite(x).all()
    crit = 1.95 / math.sqrt(N)  # KS at the 0.1% level
    assert ks(x, cdf) < crit
    assert ks2(x, npdraw(numpy.random.default_rng(7), N)) < 1.95 * math.sqrt(2 / N)
    if mean is not None:
        assert abs(x.mean() - mean) < 5 * math.sqrt(var / N)
        assert abs(x.var() / var - 1) < 0.05


@pytest.mark.parametrize("name", sorted(GENERATOR_HAS))
def test_generator_has_the_same_distributions(name):
    draw, _, cdf, ref, _, _ = DISTS[name]
    g = np.random.default_rng(99)
    x = numpy.asarray(draw(g, 20_000))
    assert ks(x, cdf) < 1.95 / math.sqrt(20_000)
    # a Generator's first draw is the global stream's first draw after seed()
    np.random.seed(99)
    numpy.testing.assert_array_equal(x, numpy.asarray(draw(np.random, 20_000)))


@pytest.mark.parametrize("name", sorted(DISTS))
def test_values_follow_the_single_rank_formula(name):
    """The same values at any rank count: the draw equals the formula
    computed here on one process (uniform bit for bit)."""
    draw, _, _, ref, _, _ = DISTS[name]
    n = 1001
    np.random.seed(5)
    x = numpy.asarray(draw(np.random, n))
    want = ref(ref_uniform(n, 5), ref_normal(n, 5))
    if name == "random_sample":
        numpy.testing.assert_array_equal(x, want)
    else:  # (log and exp within a few ULP of NumPy's; logistic's loc cancels
        # against the log near 0, leaving a few ULP of loc, absolute)
        numpy.testing.assert_allclose(x, want, rtol=1e-13, atol=1e-15 if name == "logistic" else 1e-300)


@pytest.mark.parametrize("name", sorted(DISTS))
def test_layout_does_not_change_values(name):
    draw = DISTS[name][0]
    np.random.seed(11)
    a = numpy.asarray(draw(np.random, 7 * 13))
    np.random.seed(11)
    b = numpy.asarray(draw(np.random, (7, 13)))
    numpy.testing.assert_array_equal(a, b.ravel())


def test_rand_and_normal_follow_the_formula():
    np.random.seed(3)
    numpy.testing.assert_array_equal(numpy.asarray(np.random.rand(4, 5)), ref_uniform(20, 3).reshape(4, 5))
    numpy.testing.assert_allclose(numpy.asarray(np.random.normal(1.0, 2.0, 50)), 1.0 + 2.0 * ref_normal(50, 3, 1),
                                  rtol=1e-13)


def test_sizes_smaller_than_the_rank_count_and_empty():
    for n in (0, 1, 2):
        np.random.seed(1)
        x = numpy.asarray(np.random.exponential(1.0, n))
        numpy.testing.assert_allclose(x, stdexp(ref_uniform(n, 1)), rtol=1e-13)


def test_scalars_without_size():
    np.random.seed(0)
    for v in (np.random.exponential(), np.random.laplace(), np.random.standard_cauchy(), np.random.rand(),
              np.random.triangular(0, 1, 2), np.random.default_rng(1).gumbel()):
        assert type(v) is float
    assert type(np.random.randint(5)) is int
    assert type(np.random.default_rng(1).integers(5)) is numpy.int64


def test_array_parameters_broadcast():
    scale = numpy.array([0.5, 1.0, 4.0])
    np.random.seed(8)
    x = np.random.exponential(scale)
    assert isinstance(x, np.ndarray) and x.shape == (3,)
    numpy.testing.assert_allclose(numpy.asarray(x), scale * stdexp(ref_uniform(3, 8)), rtol=1e-13)
    np.random.seed(8)
    y = np.random.laplace(np.asarray([0.0, 10.0]), 1.0, size=(4, 2))
    assert y.shape == (4, 2)
    with pytest.raises(ValueError, match="shape mismatch"):
        np.random.exponential(scale, size=(2, 2))
    with pytest.raises(ValueError, match="scale < 0"):
        np.random.exponential(np.asarray([1.0, -1.0]))


def test_weibull_of_zero_is_zero():
    numpy.testing.assert_array_equal(numpy.asarray(np.random.weibull(0, 5)), numpy.zeros(5))
    r = np.random.weibull(np.asarray([0.0, 2.0]), (3, 2))
    assert (numpy.asarray(r)[:, 0] == 0).all() and (numpy.asarray(r)[:, 1] > 0).all()


@pytest.mark.parametrize("call", [
    ("exponential", (-1.0,)), ("laplace", (0.0, -1.0)), ("logistic", (0.0, -1.0)), ("gumbel", (0.0, -1.0)),
    ("rayleigh", (-1.0,)), ("weibull", (-1.0,)), ("pareto", (0.0,)), ("lognormal", (0.0, -1.0)),
    ("power", (0.0,)), ("triangular", (1.0, 0.0, 2.0)), ("triangular", (0.0, 3.0, 2.0)),
    ("triangular", (1.0, 1.0, 1.0)), ("normal", (0.0, -1.0)),
])
def test_bad_parameters_raise_numpy_errors(call):
    name, args = call
    for ours, theirs in ((np.random, numpy.random), (np.random.default_rng(0), numpy.random.default_rng(0))):
        with pytest.raises(ValueError) as want:
            getattr(theirs, name)(*args)
        with pytest.raises(ValueError, match=str(want.value)):
            getattr(ours, name)(*args)


def test_random_integers_is_deprecated_and_inclusive():
    with pytest.warns(DeprecationWarning, match=r"Please call randint\(1, 6 \+ 1\) instead"):
        x = numpy.asarray(np.random.random_integers(6, size=60_000))
    assert x.min() == 1 and x.max() == 6 and x.dtype == numpy.int64
    counts = numpy.bincount(x, minlength=7)[1:]
    assert numpy.all(numpy.abs(counts - 10_000) < 5 * math.sqrt(10_000 * 5 / 6))
    with pytest.warns(DeprecationWarning, match=r"randint\(-2, 2 \+ 1\)"):
        y = numpy.asarray(np.random.random_integers(-2, 2, size=1000))
    assert set(numpy.unique(y)) == {-2, -1, 0, 1, 2}


def test_aliases_of_random():
    for name in ("random_sample", "ranf", "sample"):
        np.random.seed(4)
        numpy.testing.assert_array_equal(numpy.asarray(getattr(np.random, name)(10)), ref_uniform(10, 4))
    np.random.seed(4)
    numpy.testing.assert_allclose(numpy.asarray(np.random.standard_normal(3)), ref_normal(3, 4), rtol=1e-13)


def test_integers_endpoint():
    x = numpy.asarray(np.random.default_rng(2).integers(3, size=3000, endpoint=True))
    assert set(numpy.unique(x)) == {0, 1, 2, 3}
    y = numpy.asarray(np.random.default_rng(2).integers(-1, 1, size=3000, endpoint=True))
    assert set(numpy.unique(y)) == {-1, 0, 1}


def test_integers_with_array_bounds():
    """Bounds that broadcast (NumPy's Generator and randint take arrays):
    each column stays in its own range and hits every value; a size that
    the bounds cannot broadcast to, and low >= high anywhere, are NumPy's
    ValueErrors"""
    g = np.random.default_rng(11)
    hi = numpy.array([1, 3, 7])
    x = numpy.asarray(g.integers(numpy.array([0, 1, 2]), np.asarray(hi), size=(4000, 3)))
    assert x.shape == (4000, 3) and x.dtype == numpy.int64
    for j, (lo_j, hi_j) in enumerate(zip([0, 1, 2], hi)):
        assert set(numpy.unique(x[:, j])) == set(range(lo_j, hi_j))
    y = g.integers([0, 10], [2, 12])  # no size: the bounds' shape
    assert y.shape == (2,) and 0 <= int(y[0]) < 2 and 10 <= int(y[1]) < 12
    z = numpy.asarray(g.integers(0, [2, 4], size=(3, 2), endpoint=True))
    assert z.max(axis=0).tolist() <= [2, 4] and z.min() >= 0
    assert np.random.randint([0, 5], [1, 6]).tolist() == [0, 5]
    with pytest.raises(ValueError, match="low >= high"):
        g.integers(numpy.array([3, 1]), 2)
    with pytest.raises(ValueError, match="shape mismatch"):
        g.integers(0, [2, 3], size=(3,))
    with pytest.raises(ValueError, match="high is out of bounds for uint8"):
        g.integers(0, [2, 300], dtype="uint8")


def test_integers_beyond_float64_range():
    """Bounds beyond 2**53 draw whole 64-bit words (float64 would give
    multiples of a power of two there, and could reach high): every value
    in range, every low bit used, each value hit in a narrow range at
    2**53 and at int64's top, the full int64 and uint64 ranges with both
    halves, and the same values in any layout (a 1-d and a 2-d draw)"""
    g = np.random.default_rng(7)
    a = numpy.asarray(g.integers(0, 2**62, 30000))
    assert a.dtype == numpy.int64 and a.min() >= 0 and a.max() < 2**62
    for bit in range(3):  # the low bits are fair coins (float64 would leave them 0)
        assert abs(((a >> bit) & 1).mean() - 0.5) < 0.02
    assert abs(a.mean() / 2.0**61 - 1.0) < 0.02
    c = numpy.asarray(g.integers(2**53, 2**53 + 10, 3000))
    assert set(numpy.unique(c) - 2**53) == set(range(10))
    e = numpy.asarray(g.integers(2**63 - 5, 2**63 - 1, 3000, dtype="int64", endpoint=True))
    assert set(numpy.unique(e) - (2**63 - 5)) == set(range(5))
    b = numpy.asarray(g.integers(-2**63, 2**63 - 1, 30000, endpoint=True))
    assert abs((b < 0).mean() - 0.5) < 0.02 and abs((b & 1).mean() - 0.5) < 0.02
    u = numpy.asarray(g.integers(0, 2**64, 30000, dtype="uint64"))
    assert u.dtype == numpy.uint64 and abs((u >= 2**63).mean() - 0.5) < 0.02
    r = numpy.asarray(np.random.RandomState(3).randint(-2**62, 2**62, 5000))
    assert r.min() >= -2**62 and r.max() < 2**62 and abs((r & 1).mean() - 0.5) < 0.05
    flat = numpy.asarray(np.random.default_rng(11).integers(1, 3 * 2**60, 600))
    grid = numpy.asarray(np.random.default_rng(11).integers(1, 3 * 2**60, (20, 30)))
    numpy.testing.assert_array_equal(grid.ravel(), flat)


def test_float_dtypes_only_where_numpy_takes_them():
    """Generator.random, standard_normal and standard_exponential take
    float64 and float32 alone: another dtype is NumPy's TypeError"""
    for f in ("random", "standard_normal", "standard_exponential"):
        for dt in (int, "int32", "complex128", "float16"):
            with pytest.raises(TypeError, match="Unsupported dtype"):
                getattr(numpy.random.default_rng(0), f)(3, dtype=dt)
            with pytest.raises(TypeError, match="Unsupported dtype"):
                getattr(mrandom.default_rng(0), f)(3, dtype=dt)
        assert getattr(mrandom.default_rng(0), f)(3, dtype="float32").dtype == numpy.float32


# drawn by rejection or by search (_random_rejection): two-sample KS
# against NumPy's Generator, and moments
REJECTION = [("standard_gamma", (0.3,)), ("standard_gamma", (7.5,)), ("gamma", (2.0, 3.0)), ("beta", (0.5, 2.0)),
             ("chisquare", (3.0,)), ("standard_t", (4.0,)), ("f", (3.0, 7.0)), ("poisson", (0.5,)),
             ("poisson", (10.0,)), ("poisson", (250.0,)), ("binomial", (10, 0.3)), ("binomial", (1000, 0.9)),
             ("binomial", (123456, 0.37)), ("geometric", (0.2,)), ("negative_binomial", (3.5, 0.4)),
             ("wald", (2.0, 1.5)), ("noncentral_chisquare", (3.0, 2.0)), ("noncentral_chisquare", (0.5, 1.5)),
             ("noncentral_f", (3.0, 7.0, 1.5)), ("vonmises", (0.5, 2.0)), ("vonmises", (2.5, 40.0)),
             ("vonmises", (1.0, 5e6)), ("zipf", (3.5,)), ("logseries", (0.5,)), ("logseries", (0.99,)),
             ("hypergeometric", (5, 5, 3)), ("hypergeometric", (100, 200, 50)), ("hypergeometric", (1000, 30, 900)),
             ("hypergeometric", (3, 1000, 999)), ("hypergeometric", (10 ** 6, 2 * 10 ** 6, 4000))]


@pytest.mark.parametrize("name,args", REJECTION)
def test_rejection_and_search_distributions(name, args):
    n = 50_000
    x = numpy.asarray(getattr(mrandom.default_rng(17), name)(*args, size=n))
    y = getattr(numpy.random.default_rng(17), name)(*args, size=n)
    assert x.dtype == y.dtype and x.shape == (n,)
    assert ks2(x, y) < 1.95 * math.sqrt(2 / n)
    assert abs(x.mean() - y.mean()) < 6 * math.sqrt(y.var() / n) + 1e-12
    # the same values in another layout (each element a function of its flat index)
    z = numpy.asarray(getattr(mrandom.default_rng(17), name)(*args, size=(250, 200)))
    assert numpy.array_equal(z.ravel(), x)
    # array parameters broadcast
    a = [arg * numpy.ones(3) if isinstance(arg, float) else arg for arg in args]
    assert numpy.asarray(getattr(np.random, name)(*[np.asarray(v) if isinstance(v, numpy.ndarray) else v
                                                    for v in a], size=(4, 3))).shape == (4, 3)


def test_rejection_errors_and_scalars():
    for name, args, msg in (("standard_gamma", (-1,), "shape < 0"), ("gamma", (1, -1), "scale < 0"),
                            ("beta", (0, 1), "a <= 0"), ("chisquare", (0,), "df <= 0"), ("f", (1, 0), "dfden"),
                            ("poisson", (-1,), "lam < 0"), ("poisson", (1e19,), "too large"),
                            ("binomial", (-1, 0.5), "n < 0"), ("binomial", (3, 1.5), "p < 0"),
                            ("geometric", (0,), "p <= 0"), ("negative_binomial", (0, 0.5), "n <= 0"),
                            ("wald", (1, 0), "scale <= 0"), ("standard_t", (0,), "df <= 0"),
                            ("vonmises", (0, -1), "kappa < 0"), ("zipf", (1,), "a <= 1"),
                            ("logseries", (1,), "p >= 1"), ("hypergeometric", (-1, 5, 2), "ngood < 0"),
                            ("hypergeometric", (5, -1, 2), "nbad < 0"), ("hypergeometric", (5, 5, -1), "nsample < 0"),
                            ("hypergeometric", (5, 5, 11), r"ngood \+ nbad < nsample"),
                            ("hypergeometric", (10 ** 9, 5, 1), "less than 1000000000")):
        for g in (numpy.random.default_rng(0), mrandom.default_rng(0)):
            with pytest.raises(ValueError, match=msg):
                getattr(g, name)(*args)
    for g in (numpy.random.RandomState(0), mrandom.RandomState(0)):  # the legacy API: nsample >= 1
        with pytest.raises(ValueError, match="nsample < 1"):
            g.hypergeometric(5, 5, 0)
    assert int(mrandom.default_rng(1).hypergeometric(5, 5, 0)) == 0
    for name, args in (("poisson", (3.0,)), ("binomial", (5, 0.5)), ("gamma", (2.0,)), ("geometric", (0.5,)),
                       ("hypergeometric", (5, 6, 4))):
        assert type(getattr(np.random, name)(*args)) is type(getattr(numpy.random, name)(*args))
    # edges: p = 1 and p = 0, lam = 0, shape 0
    g = mrandom.default_rng(2)
    assert (numpy.asarray(g.binomial(7, 1.0, size=50)) == 7).all() and (numpy.asarray(g.binomial(7, 0.0, 5)) == 0).all()
    assert (numpy.asarray(g.poisson(0.0, size=20)) == 0).all() and (numpy.asarray(g.geometric(1.0, 9)) == 1).all()
    assert (numpy.asarray(g.standard_gamma(0.0, 9)) == 0).all()


def test_choice_permutation_shuffle():
    g = mrandom.default_rng(4)
    p = numpy.array([0.1, 0.0, 0.6, 0.3])
    x = numpy.asarray(g.choice(4, size=40_000, p=p))
    assert x.dtype == numpy.int64 and numpy.abs(numpy.bincount(x, minlength=4) / 40_000 - p).max() < 0.012
    a = numpy.arange(10.0) * 3
    s = numpy.asarray(g.choice(np.asarray(a), size=(3, 3), replace=False))
    assert s.shape == (3, 3) and len(set(s.ravel())) == 9 and set(s.ravel()) <= set(a)
    w = numpy.asarray(mrandom.RandomState(1).choice(4, size=3, replace=False, p=p))
    assert len(set(w)) == 3 and 1 not in w  # a zero weight is never drawn without replacement
    # weighted without replacement: the first pick follows p
    first = [int(numpy.asarray(mrandom.default_rng(k).choice(4, 2, replace=False, p=p))[0]) for k in range(400)]
    assert abs(first.count(2) / 400 - 0.6) < 0.1
    perm = numpy.asarray(g.permutation(1000))
    assert sorted(perm) == list(range(1000)) and not numpy.array_equal(perm, numpy.arange(1000))
    m = numpy.arange(20).reshape(10, 2)
    pm = numpy.asarray(g.permutation(np.asarray(m)))
    assert sorted(map(tuple, pm)) == sorted(map(tuple, m))
    y = np.arange(50)
    g.shuffle(y)
    assert sorted(numpy.asarray(y)) == list(range(50))
    z = numpy.arange(50)
    np.random.shuffle(z)  # a NumPy array, in place
    assert sorted(z) == list(range(50)) and not numpy.array_equal(z, numpy.arange(50))
    assert isinstance(g.choice(5), int) and numpy.asarray(g.choice(5, 0)).shape == (0,)
    for xp in (numpy, np):
        for bad, msg in (((5, 6, False), "larger sample"), ((4, 2, True, [0.5, 0.5]), "same size"),
                         ((2, 2, True, [0.7, 0.7]), "sum to 1"), ((2, 2, True, [1.5, -0.5]), "non-negative"),
                         ((0, 3), "positive")):
            with pytest.raises(ValueError, match=msg):
                xp.random.default_rng(0).choice(*bad)
        with pytest.raises(ValueError, match="1-dimensional"):  # the legacy API's rule
            xp.random.RandomState(0).choice(xp.ones((2, 2)))
    rows = numpy.asarray(g.choice(np.asarray(m), 4))  # Generator: rows of a 2-d a
    assert rows.shape == (4, 2) and all(tuple(r) in set(map(tuple, m)) for r in rows)


def test_random_state_and_global_state():
    a = numpy.asarray(mrandom.RandomState(3).rand(5, 2))
    assert numpy.array_equal(a, numpy.asarray(mrandom.RandomState(3).rand(5, 2)))
    rs = mrandom.RandomState(9)
    rs.randn(4)
    st = rs.get_state()
    b = numpy.asarray(rs.poisson(3.0, 6))
    rs.set_state(st)
    assert numpy.array_equal(numpy.asarray(rs.poisson(3.0, 6)), b)
    np.random.seed(5)
    c = numpy.asarray(np.random.permutation(30))
    np.random.seed(5)
    assert numpy.array_equal(numpy.asarray(np.random.permutation(30)), c)
    with pytest.raises(ValueError):
        rs.set_state(("MT19937", 1))
    assert len(rs.bytes(7)) == 7 and isinstance(rs.randint(3), int)


def test_dirichlet_and_multivariate_normal():
    g = mrandom.default_rng(6)
    d = numpy.asarray(g.dirichlet([1.0, 2.0, 3.0], size=20_000))
    assert d.shape == (20_000, 3) and numpy.allclose(d.sum(axis=1), 1)
    assert numpy.abs(d.mean(axis=0) - [1 / 6, 2 / 6, 3 / 6]).max() < 0.01
    cov = numpy.array([[2.0, 0.6], [0.6, 1.0]])
    x = numpy.asarray(g.multivariate_normal([1.0, -2.0], cov, size=(20_000,)))
    assert x.shape == (20_000, 2)
    assert numpy.abs(x.mean(axis=0) - [1, -2]).max() < 0.05 and numpy.abs(numpy.cov(x.T) - cov).max() < 0.08
    assert numpy.asarray(g.multivariate_normal([0.0, 0, 0], numpy.eye(3), size=(4, 5))).shape == (4, 5, 3)
    for xp in (numpy, np):
        with pytest.warns(RuntimeWarning, match="positive-semidefinite"):
            xp.random.default_rng(0).multivariate_normal([0.0, 0], [[1.0, 2], [2, 1]])
        with pytest.raises(ValueError, match="same length"):
            xp.random.default_rng(0).multivariate_normal([0.0, 0, 0], numpy.eye(2))
        with pytest.raises(ValueError, match="alpha < 0"):
            xp.random.default_rng(0).dirichlet([1.0, -1.0])


def test_multinomial():
    g = mrandom.default_rng(2)
    m = numpy.asarray(g.multinomial(20, [0.2, 0.5, 0.3], size=30_000))
    assert m.shape == (30_000, 3) and m.dtype == numpy.int64 and (m.sum(axis=1) == 20).all()
    assert numpy.abs(m.mean(axis=0) - [4, 10, 6]).max() < 0.06
    assert numpy.asarray(g.multinomial(5, [1.0])).tolist() == [5]
    assert numpy.asarray(mrandom.RandomState(0).multinomial(3, [0.7, 0.7])).sum() == 3  # NumPy's remainder rule
    for xp in (numpy, np):
        for args, msg in (((-1, [0.5, 0.5]), "n < 0"), ((3, [1.5, -0.5]), "pvals < 0"),
                          ((3, [0.8, 0.8, 0.1]), "sum")):
            with pytest.raises(ValueError, match=msg):
                xp.random.default_rng(0).multinomial(*args)


def test_parameters_at_the_edges_as_numpy():
    """NaN and inf parameters give NumPy's nan and inf (not a rejection
    loop that never ends), huge ones NumPy's limits, and the samplers that
    cancel or underflow keep their distribution"""
    g = mrandom.default_rng(0)
    nan, inf = float("nan"), float("inf")
    for name, args, want in (("standard_gamma", (nan,), nan), ("standard_gamma", (inf,), inf), ("beta", (nan, 1), nan),
                             ("chisquare", (nan,), nan), ("standard_t", (nan,), nan), ("vonmises", (0, nan), nan),
                             ("noncentral_chisquare", (3, nan), nan), ("vonmises", (0, inf), 0.0),
                             ("zipf", (1100,), 1)):
        r = numpy.asarray(getattr(g, name)(*args, size=4))
        w = getattr(numpy.random.default_rng(0), name)(*args, size=4)
        assert r.dtype == w.dtype and numpy.array_equal(r, numpy.full(4, want, w.dtype), equal_nan=True), (name, r)
    assert numpy.isfinite(numpy.asarray(g.noncentral_chisquare(3, 1e20, size=4))).all()
    assert numpy.abs(numpy.asarray(g.vonmises(0, 1e20, size=4))).max() < 1e-9
    assert (numpy.asarray(g.geometric(1e-300, size=3)) == numpy.iinfo(numpy.int64).max).all()
    for a in ((1e8, 1.0), (1.0, 1e-10)):  # wald without cancellation: positive, NumPy's median
        x, y = numpy.asarray(g.wald(*a, size=20000)), numpy.random.default_rng(1).wald(*a, size=20000)
        assert (x > 0).all() and abs(numpy.median(x) / numpy.median(y) - 1) < 0.1
    x = numpy.asarray(g.standard_gamma(1e17, size=20000))  # sd sqrt(a), no cancellation
    assert abs(x.std() / math.sqrt(1e17) - 1) < 0.05
    z = numpy.asarray(g.zipf(1.0001, size=200))  # no wasted rounds near a = 1
    assert (z >= 1).all()
    d = numpy.asarray(g.dirichlet([1e-3, 1e-3], size=20000))  # small alpha: stick-breaking, no NaN rows
    assert not numpy.isnan(d).any() and numpy.allclose(d.sum(axis=1), 1) and abs((d[:, 0] < 0.5).mean() - 0.5) < 0.02
    assert numpy.asarray(g.dirichlet([0.0, 0.0])).tolist() == [0.0, 0.0]
    for xp in (numpy, np):
        with pytest.raises(ValueError, match="n too large"):
            xp.random.default_rng(0).negative_binomial(1e10, 1e-9)
        with pytest.raises(ValueError, match="NaN"):
            xp.random.default_rng(0).negative_binomial(nan, 0.5)
    lst = [1, 2, 3, 4, 5]
    g.shuffle(lst)  # a list, in place
    assert sorted(lst) == [1, 2, 3, 4, 5]
    assert numpy.asarray(g.choice(0, size=(0,))).shape == (0,)


def test_hypergeometric_array_parameters_and_bounds():
    """Each element within its own bounds, with NumPy's mean, for array
    parameters that mix the inversion and the ratio-of-uniforms paths."""
    good = numpy.array([0, 3, 40, 500, 7000])
    bad = numpy.array([9, 1000, 35, 20, 9000])
    sample = numpy.array([4, 999, 60, 510, 8000])
    x = numpy.asarray(mrandom.default_rng(5).hypergeometric(np.asarray(good), bad, sample, size=(4000, 5)))
    assert x.dtype == numpy.int64 and x.shape == (4000, 5)
    assert (x >= numpy.maximum(0, sample - bad)).all() and (x <= numpy.minimum(sample, good)).all()
    mean = sample * good / (good + bad)
    var = sample * good * bad * (good + bad - sample) / ((good + bad) ** 2 * numpy.maximum(good + bad - 1, 1))
    assert (numpy.abs(x.mean(axis=0) - mean) <= 6 * numpy.sqrt(var / 4000) + 1e-12).all()


def test_bit_generators():
    """NumPy's bit generator classes: a Generator shares its bit
    generator's stream; PCG64 is default_rng's; each class its own stream;
    state, spawn, jumped and random_raw as NumPy's interface."""
    R = mrandom
    a = numpy.asarray(R.Generator(R.PCG64(11)).random(50))
    assert numpy.array_equal(a, numpy.asarray(R.default_rng(11).random(50)))
    streams = [numpy.asarray(R.Generator(c(11)).random(50)) for c in (R.PCG64, R.PCG64DXSM, R.Philox, R.SFC64,
                                                                       R.MT19937)]
    assert len({s.tobytes() for s in streams}) == 5
    bg = R.Philox(3)
    g1, g2 = R.Generator(bg), R.Generator(bg)  # one stream, shared
    x1, x2 = numpy.asarray(g1.random(5)), numpy.asarray(g2.random(5))
    assert not numpy.array_equal(x1, x2)
    st = bg.state
    assert st["bit_generator"] == "Philox" and g1.bit_generator is bg
    y = numpy.asarray(g1.normal(size=7))
    bg.state = st
    assert numpy.array_equal(numpy.asarray(g2.normal(size=7)), y)
    with pytest.raises(ValueError):
        bg.state = R.PCG64(1).state
    kids = R.default_rng(4).spawn(3)
    draws = [numpy.asarray(k.random(20)).tobytes() for k in kids]
    assert len(set(draws)) == 3
    assert draws == [numpy.asarray(k.random(20)).tobytes() for k in R.default_rng(4).spawn(3)]
    ss = numpy.random.SeedSequence(9)
    c0, c1 = ss.spawn(2)
    assert not numpy.array_equal(numpy.asarray(R.default_rng(c0).random(9)), numpy.asarray(R.default_rng(c1).random(9)))
    assert numpy.array_equal(numpy.asarray(R.default_rng(ss).random(9)), numpy.asarray(R.default_rng(9).random(9)))
    j = R.PCG64(2).jumped()
    assert not numpy.array_equal(numpy.asarray(R.Generator(j).random(9)), numpy.asarray(R.default_rng(2).random(9)))
    w = R.SFC64(1).random_raw(1000)
    assert w.dtype == numpy.uint64 and isinstance(R.SFC64(1).random_raw(), int)
    bits = numpy.unpackbits(numpy.asarray(w).view(numpy.uint8))
    assert abs(bits.mean() - 0.5) < 0.01
    with pytest.raises(TypeError):
        R.BitGenerator(1)
    rs = R.RandomState(R.MT19937(5))
    assert rs.random_sample(3).shape == (3,)
    old = R.get_bit_generator()
    try:
        R.set_bit_generator(R.PCG64(8))
        v = numpy.asarray(R.random(6))
        assert numpy.array_equal(v, numpy.asarray(R.default_rng(8).random(6)))
        assert isinstance(R.get_bit_generator(), R.PCG64)
    finally:
        R.set_bit_generator(old)


def test_default_rng_takes_seed_by_keyword():
    """NumPy's parameter name (it was seed_value here: a TypeError)."""
    a = numpy.asarray(np.random.default_rng(seed=7).random(5))
    numpy.testing.assert_array_equal(a, numpy.asarray(np.random.default_rng(7).random(5)))


def test_generator_permuted():
    """Each slice along axis shuffled on its own (NumPy's permuted): every
    row (or column) keeps its values, the flattened form all of them, and
    the order is that of uniform draws, the same at any rank count."""
    x = numpy.arange(60).reshape(6, 10) * 3
    g = mrandom.default_rng(7)
    r1 = numpy.asarray(g.permuted(np.asarray(x), axis=1))
    assert numpy.array_equal(numpy.sort(r1, axis=1), x) and not numpy.array_equal(r1, x)
    r0 = numpy.asarray(g.permuted(np.asarray(x), axis=0))
    assert numpy.array_equal(numpy.sort(r0, axis=0), x) and not numpy.array_equal(r0, x)
    rn = numpy.asarray(g.permuted(np.asarray(x)))
    assert rn.shape == x.shape and numpy.array_equal(numpy.sort(rn, axis=None), x.ravel())
    # the order of a second stream's uniform draws on the same seed
    h = mrandom.default_rng(7)
    keys = numpy.asarray(h.random(x.shape))
    assert numpy.array_equal(r1, numpy.take_along_axis(x, numpy.argsort(keys, axis=1, kind="stable"), axis=1))
    o = np.asarray(x)
    assert g.permuted(o, axis=1, out=o) is o and numpy.array_equal(numpy.sort(numpy.asarray(o), axis=1), x)
    for bad, exc in (((np.asarray(x),), dict(out=np.zeros((2, 2)))), ((np.asarray(x),), dict(axis=2)), ((5,), {})):
        with pytest.raises((ValueError, numpy.exceptions.AxisError, TypeError)):
            g.permuted(*bad, **exc)
        with pytest.raises((ValueError, numpy.exceptions.AxisError, TypeError)):
            numpy.random.default_rng(0).permuted(*[numpy.asarray(b) if isinstance(b, np.ndarray) else b for b in bad],
                                                 **{k: numpy.asarray(v) if isinstance(v, np.ndarray) else v
                                                    for k, v in exc.items()})


def test_size_empty_tuple_gives_a_0d_array():
    """size=() is an array of shape () in NumPy (size=None a scalar);
    integers, choice, randint and the distributions built by arithmetic on
    a 0-d draw gave NumPy scalars."""
    import maniple.numpy as mnp
    for m in (numpy, mnp):
        g, rs = m.random.default_rng(0), m.random.RandomState(0)
        fs = [lambda: g.integers(0, 5, size=()), lambda: g.choice(5, size=()), lambda: g.exponential(size=()),
              lambda: g.laplace(size=()), lambda: g.gamma(2.0, size=()), lambda: rs.randint(0, 5, size=()),
              lambda: g.integers(0, 5, size=(), endpoint=True), lambda: g.random(size=())]
        for f in fs:
            r = f()
            assert isinstance(r, numpy.ndarray if m is numpy else mnp.ndarray) and r.shape == (), (m.__name__, r)
        assert not isinstance(g.integers(0, 5), (numpy.ndarray, mnp.ndarray))
        assert not isinstance(g.exponential(), (numpy.ndarray, mnp.ndarray))
