"""The distributions NumPy draws by rejection or by a search (gamma and
those made from it, Poisson, binomial, geometric), on the counter-based
stream of random.py, so every element is still a function of (seed,
call, flat index) and the same at any rank count.

Rejection goes in rounds: each round proposes a value for every element
from fresh draws (new calls of the stream) and an element keeps the
first proposal it accepts; rounds go on until every element has one (a
collective test per round). Searches (the inversion of a discrete
distribution function) step every unfinished element by one value per
pass. The algorithms: Marsaglia and Tsang's gamma (shape a < 1 through
a + 1 and u^(1/a)), Hormann's PTRS for Poisson means of 10 and more,
inversion below; binomials split by the order-statistic recursion (a
beta draw halves n) until the mean is small, then inverted."""
import math

import numpy as _np

from ._functions import UFUNCS as _U, all as _all, where as _where
from ._ndarray import ndarray

_SMALL = 10.0     # below this mean, Poisson and binomial draws are inverted


def _arr(x, shape):
    """x (a scalar or a maniple array broadcastable to shape) as a float64
    maniple array of shape"""
    from ._manipulation import broadcast_to
    from ._creation import full
    if isinstance(x, ndarray):
        return broadcast_to(x.astype("float64"), shape).copy()
    return full(shape, float(x), "float64")


def _fix(*arrays):
    """the loop's carried arrays evaluated now (each pass would otherwise
    add to one growing fused expression)"""
    for a in arrays:
        if isinstance(a, ndarray):  # (0-d results may be NumPy scalars)
            a._materialize()


# more rounds than any parameter in a sampler's range needs (each accepts
# with probability well above 1/2); beyond it, a clear error on every rank
# rather than a job that spins
MAX_ROUNDS = 200


def _rounds(shape, st, propose):
    """values drawn by rejection: propose(shape, st) -> (values, accepted)"""
    v, ok = propose(shape, st)
    rounds = 1
    while not bool(_all(ok)):
        rounds += 1
        if rounds > MAX_ROUNDS:
            raise RuntimeError(f"maniple.numpy.random: a rejection sampler accepted no value for some elements in "
                               f"{MAX_ROUNDS} rounds (a parameter outside the range it handles)")
        v2, ok2 = propose(shape, st)
        v = _where(ok, v, v2)
        ok = ok | ok2
        _fix(v, ok)
    return v


def standard_gamma(shape, st, a):
    """Gamma(a, 1) of the given shape (a: a scalar or an array of shape)"""
    from .random import _draw, _uniform01
    a0 = _arr(a, shape)
    odd = _U["logical_not"](_U["isfinite"](a0))  # NaN and inf shapes: NumPy's nan and inf, not drawn
    a = _where(odd, 1.0, a0)
    boost = a < 1.0
    aa = _where(boost, a + 1.0, a)
    d = aa - 1.0 / 3.0
    c = 1.0 / _U["sqrt"](9.0 * d)

    def propose(shape, st):
        x = _draw("normal", 0.0, 1.0, shape, st)
        u = _uniform01(shape, st)
        v = 1.0 + c * x
        v = v * v * v
        vp = _U["maximum"](v, 1e-300)
        with _np.errstate(divide="ignore", invalid="ignore"):
            # (d times one small term: no cancellation for large shapes)
            ok = (v > 0) & (_U["log"](_U["maximum"](u, 1e-300)) < 0.5 * x * x + d * (1.0 - vp + _U["log"](vp)))
        return d * vp, ok

    g = _rounds(shape, st, propose)
    if bool(boost.any()):
        u = _U["maximum"](_uniform01(shape, st), 1e-300)
        g = _where(boost, g * u ** (1.0 / _U["maximum"](a, 1e-300)), g)
    g = _where(a == 0, 0.0, g)
    return _where(odd, a0, g) if bool(odd.any()) else g


def _loggam(x):
    """log Gamma(x) for x >= 1 (an array): Stirling's series at x + 7,
    shifted back by the product x (x + 1) ... (x + 6)"""
    y = x + 7.0
    y2 = y * y
    s = (y - 0.5) * _U["log"](y) - y + 0.5 * math.log(2 * math.pi) + \
        (1.0 / 12 - (1.0 / 360 - (1.0 / 1260 - 1.0 / (1680 * y2)) / y2) / y2) / y
    p = x * (x + 1) * (x + 2) * (x + 3) * (x + 4) * (x + 5) * (x + 6)
    return s - _U["log"](p)


def _poisson_search(lam, shape, st):
    """inversion: the least k with P(X <= k) >= u, one k per pass"""
    from .random import _uniform01
    u = _uniform01(shape, st)
    p = _U["exp"](-lam)
    f = p
    k = _arr(0.0, shape)
    todo = u > f
    while bool(todo.any()):
        k = _where(todo, k + 1.0, k)
        p = _where(todo, p * lam / _U["maximum"](k, 1.0), p)
        f = _where(todo, f + p, f)
        todo = todo & (u > f) & (p > 0)
        _fix(k, p, f, todo)
    return k


def _poisson_ptrs(lam, shape, st):
    """Hormann's transformed rejection with squeeze (means >= 10)"""
    from .random import _uniform01
    lam = _U["maximum"](lam, _SMALL)
    slam = _U["sqrt"](lam)
    loglam = _U["log"](lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    invalpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)

    def propose(shape, st):
        U = _uniform01(shape, st) - 0.5
        V = _U["maximum"](_uniform01(shape, st), 1e-300)
        us = 0.5 - _U["absolute"](U)
        k = _U["floor"]((2 * a / us + b) * U + lam + 0.43)
        quick = (us >= 0.07) & (V <= vr)
        kk = _U["maximum"](k, 0.0)
        with _np.errstate(divide="ignore", invalid="ignore"):
            slow = (k >= 0) & ~((us < 0.013) & (V > us)) & (
                _U["log"](V) + _U["log"](invalpha) - _U["log"](a / (us * us) + b)
                <= -lam + kk * loglam - _loggam(kk + 1))
        return kk, quick | slow

    return _rounds(shape, st, propose)


def poisson(shape, st, lam):
    lam = _arr(lam, shape)
    small = lam < _SMALL
    k = _poisson_search(_where(small, lam, 0.0), shape, st)
    if bool((~small).any()):
        k = _where(small, k, _poisson_ptrs(lam, shape, st))
    return k.astype("int64")


def _binomial_search(n, p, shape, st):
    """inversion for p <= 1/2: x steps up while u exceeds the cdf"""
    from .random import _uniform01
    q = 1.0 - p
    s = p / _U["maximum"](q, 1e-300)
    a = (n + 1) * s
    r = q ** n
    u = _uniform01(shape, st)
    x = _arr(0.0, shape)
    todo = (u > r) & (n > 0)
    while bool(todo.any()):
        u = _where(todo, u - r, u)
        x = _where(todo, x + 1.0, x)
        with _np.errstate(divide="ignore", invalid="ignore"):
            r = _where(todo, r * (a / x - s), r)
        todo = todo & (u > r) & (x < n)
        _fix(u, x, r, todo)
    return x


def binomial(shape, st, n, p):
    """X ~ B(n, p): while the mean is large, the order-statistic recursion
    (B ~ Beta(i, n + 1 - i) for i = (n + 1) // 2: X = i + B(n - i,
    (p - B) / (1 - B)) when B <= p, else B(i - 1, p / B)), then inversion
    (by the symmetry X = n - B(n, 1 - p) for p > 1/2)"""
    n, p = _arr(n, shape), _arr(p, shape)
    acc = _arr(0.0, shape)
    big = n * _U["minimum"](p, 1.0 - p) >= _SMALL
    while bool(big.any()):
        i = _U["floor"]((n + 1) / 2)
        g1 = standard_gamma(shape, st, _where(big, i, 1.0))
        g2 = standard_gamma(shape, st, _where(big, n + 1 - i, 1.0))
        bb = g1 / (g1 + g2)
        low = bb <= p
        with _np.errstate(divide="ignore", invalid="ignore"):
            pn = _where(low, (p - bb) / (1 - bb), p / bb)
        acc = _where(big & low, acc + i, acc)
        n = _where(big, _where(low, n - i, i - 1), n)
        p = _where(big, _U["minimum"](_U["maximum"](pn, 0.0), 1.0), p)
        big = big & (n * _U["minimum"](p, 1.0 - p) >= _SMALL)
        _fix(acc, n, p, big)
    flip = p > 0.5
    x = _binomial_search(n, _where(flip, 1.0 - p, p), shape, st)
    return (acc + _where(flip, n - x, x)).astype("int64")


def vonmises(shape, st, mu, kappa):
    """Best and Fisher's rejection on the wrapped Cauchy; a uniform angle
    for kappa below 1e-8, a wrapped normal above 1e6 (as NumPy)"""
    from .random import _draw, _uniform01
    mu, kappa = _arr(mu, shape), _arr(kappa, shape)
    # the loop for kappa in [1e-8, 1e6] alone: elsewhere (and NaN) its
    # acceptance test degenerates, and NumPy takes another path
    k = _where((kappa >= 1e-8) & (kappa <= 1e6), kappa, 1.0)
    r = 1.0 + _U["sqrt"](1.0 + 4.0 * k * k)
    rho = (r - _U["sqrt"](2.0 * r)) / (2.0 * k)
    s = _where(k < 1e-5, 1.0 / k + k, (1.0 + rho * rho) / (2.0 * rho))

    def propose(shape, st):
        z = _U["cos"](math.pi * _uniform01(shape, st))
        w = (1.0 + s * z) / (s + z)
        y = k * (s - w)
        v = _U["maximum"](_uniform01(shape, st), 1e-300)
        with _np.errstate(divide="ignore", invalid="ignore"):
            ok = (y * (2.0 - y) - v >= 0) | (_U["log"](y / v) + 1.0 - y >= 0)
        return w, ok

    w = _rounds(shape, st, propose)
    ang = _U["arccos"](_U["minimum"](_U["maximum"](w, -1.0), 1.0))
    ang = _where(_uniform01(shape, st) < 0.5, -ang, ang)
    wide = mu + _U["sqrt"](1.0 / _U["maximum"](kappa, 1e6)) * _draw("normal", 0.0, 1.0, shape, st)
    flat = math.pi * (2.0 * _uniform01(shape, st) - 1.0)
    x = _where(kappa > 1e6, wide, mu + ang)
    x = _where(_U["isnan"](kappa), _np.nan, x)
    # into [-pi, pi], keeping the sign as NumPy's fmod does
    m = _U["fmod"](_U["absolute"](x) + math.pi, 2 * math.pi) - math.pi
    x = _where(x < 0, -m, m)
    return _where(kappa < 1e-8, flat + 0 * mu, x)


def zipf(shape, st, a):
    """Devroye's rejection: X = floor(U^(-1/(a-1))), kept with probability
    from the ratio of the zeta and the bounding densities"""
    from .random import _uniform01
    a0 = _arr(a, shape)
    a = _U["minimum"](a0, 1024.0)  # (2^(a-1) overflows above; NumPy's value there is 1)
    am1 = a - 1.0
    b = 2.0 ** am1
    umin = 9.223372036854775807e18 ** (-am1)  # U above it keeps X below 2^63: no round wasted near a = 1

    def propose(shape, st):
        w = _uniform01(shape, st)
        u = w * umin + (1.0 - w)
        v = _uniform01(shape, st)
        with _np.errstate(over="ignore", divide="ignore", invalid="ignore"):
            x = _U["floor"](u ** (-1.0 / am1))
            fine = (x >= 1) & (x <= 9.2e18)
            xs = _where(fine, x, 1.0)
            t = (1.0 + 1.0 / xs) ** am1
            ok = fine & (v * xs * (t - 1.0) / (b - 1.0) <= t / b)
        return xs, ok

    x = _rounds(shape, st, propose)
    return _where(a0 >= 1025.0, 1.0, x).astype("int64")


def logseries(shape, st, p):
    """Kemp's second accelerated generator (two uniforms; the rare draws of
    value below 1 drawn again)"""
    from .random import _uniform01
    p = _arr(p, shape)
    r = _U["log1p"](-p)

    def propose(shape, st):
        v = _uniform01(shape, st)
        u = _uniform01(shape, st)
        q = -_U["expm1"](r * u)
        with _np.errstate(divide="ignore", invalid="ignore"):
            tail = _U["floor"](1.0 + _U["log"](v) / _U["log"](q))
        low = v <= q * q
        x = _where(v >= p, 1.0, _where(low, tail, _where(v >= q, 1.0, 2.0)))
        ok = (v >= p) | ~low | ((tail >= 1) & (v > 0))
        return _where(ok, x, 1.0), ok

    return _rounds(shape, st, propose).astype("int64")


def _lnchoose(n, k):
    """log of n choose k (arrays, 0 <= k <= n)"""
    return _loggam(n + 1.0) - _loggam(k + 1.0) - _loggam(n - k + 1.0)


_HRUA_MIN = 10.0  # from this reduced sample size on, ratio of uniforms; below, inversion


def _hyper_search(g, b, m, shape, st):
    """inversion for small m: the number of the g kind in a sample of m from
    g + b, stepped up from its least value while u exceeds the cdf"""
    from .random import _uniform01
    k = _U["maximum"](m - b, 0.0)
    with _np.errstate(invalid="ignore", over="ignore"):
        p = _U["exp"](_lnchoose(g, k) + _lnchoose(b, m - k) - _lnchoose(g + b, m))
    u = _uniform01(shape, st)
    kmax = _U["minimum"](m, g)
    todo = (u > p) & (k < kmax)
    while bool(todo.any()):
        u = _where(todo, u - p, u)
        with _np.errstate(divide="ignore", invalid="ignore"):
            p = _where(todo, p * (g - k) * (m - k) / ((k + 1.0) * (b - m + k + 1.0)), p)
        k = _where(todo, k + 1.0, k)
        todo = todo & (u > p) & (k < kmax)
        _fix(u, p, k, todo)
    return k


def _hyper_hrua(g, b, m, shape, st):
    """Stadlober's ratio-of-uniforms with the hat of NumPy's HRUA (g the
    smaller kind, m at most half the population)"""
    from .random import _uniform01
    d1, d2 = 1.7155277699214135, 0.8989161620588988
    pop = g + b
    d4 = g / pop
    d6 = m * d4 + 0.5
    d7 = _U["sqrt"]((pop - m) * m * d4 * (1.0 - d4) / _U["maximum"](pop - 1.0, 1.0) + 0.5)
    d8 = d1 * d7 + d2
    d9 = _U["floor"]((m + 1.0) * (g + 1.0) / (pop + 2.0))
    d10 = _loggam(d9 + 1.0) + _loggam(g - d9 + 1.0) + _loggam(m - d9 + 1.0) + _loggam(b - m + d9 + 1.0)
    d11 = _U["minimum"](_U["minimum"](m, g) + 1.0, _U["floor"](d6 + 16.0 * d7))

    def propose(shape, st):
        x = _U["maximum"](_uniform01(shape, st), 1e-300)
        y = _uniform01(shape, st)
        w = d6 + d8 * (y - 0.5) / x
        inside = (w >= 0) & (w < d11)
        z = _U["floor"](_U["minimum"](_U["maximum"](w, 0.0), d11 - 1.0))
        t = d10 - (_loggam(z + 1.0) + _loggam(g - z + 1.0) + _loggam(m - z + 1.0) + _loggam(b - m + z + 1.0))
        with _np.errstate(divide="ignore", invalid="ignore"):
            ok = inside & ((x * (4.0 - x) - 3.0 <= t) | ((x * (x - t) < 1.0) & (2.0 * _U["log"](x) <= t)))
        return z, ok

    return _rounds(shape, st, propose)


def hypergeometric(shape, st, good, bad, sample):
    """The number of good items in a sample drawn without replacement: by
    symmetry from the smaller kind and the smaller of sample and its
    complement, then inversion (small samples) or HRUA"""
    good, bad, sample = _arr(good, shape), _arr(bad, shape), _arr(sample, shape)
    g, b = _U["minimum"](good, bad), _U["maximum"](good, bad)
    m = _U["minimum"](sample, good + bad - sample)
    big = m >= _HRUA_MIN
    z = _hyper_search(g, b, _where(big, 0.0, m), shape, st)
    if bool(big.any()):
        # elements off this path get parameters the hat handles (their draws are dropped)
        z = _where(big, _hyper_hrua(_where(big, g, 10.0), _where(big, b, 10.0), _where(big, m, 10.0), shape, st), z)
    z = _where(good > bad, m - z, z)
    return _where(m < sample, good - z, z).astype("int64")
