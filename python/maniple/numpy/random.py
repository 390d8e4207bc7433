"""Random numbers from a counter-based generator: the same seed gives the
same array at any rank count. Streams are NumPy's distributions, not NumPy's
bit streams: maniple.numpy.random.rand(5) differs from numpy.random.rand(5)
in its values, not in its distribution.

Each element is a function of (seed, call, flat index) only: uniform and
normal draws come from the C library's Philox stream, and the other
distributions are element-wise transforms of one uniform (or normal) draw,
evaluated fused (inverse distribution functions). Parameters may be scalars
or arrays that broadcast, as in NumPy; with no size and scalar parameters
the result is a Python scalar, as NumPy's."""
import threading as _threading

import numpy as _np

from . import _warn
from ._bitgen import MT19937, PCG64, PCG64DXSM, SFC64, BitGenerator, Philox, SeedSequence  # noqa: F401

from ._creation import _dt, _shape, asarray, empty
from ._functions import UFUNCS as _U, any as _any, where as _where
from ._ndarray import ndarray

_state = {"seed": 0x5EED, "calls": 0}
_TINY = 2.0 ** -54  # stands in for a uniform draw of exactly 0 where 0 has no inverse


def _seed64(s, legacy):
    """The 64-bit seed of the counter-based stream for a NumPy seed, with
    NumPy's errors for a seed it refuses (a float, a negative int, and for
    numpy.random.seed one past 2**32 - 1). Integers keep their value."""
    if s is None:
        return 0x5EED
    if legacy:
        _np.random.RandomState().seed(s)  # (only NumPy's checks)
    else:
        if isinstance(s, _np.random.SeedSequence):
            s = s.entropy
        _np.random.SeedSequence(s)
    if isinstance(s, (int, _np.integer)):
        return int(s) & 0xFFFFFFFFFFFFFFFF
    import hashlib  # a sequence of ints: a digest of its values
    data = _np.asarray(s, dtype=object).ravel()
    return int.from_bytes(hashlib.blake2b(repr([int(x) for x in data]).encode(), digest_size=8).digest(), "little")


def _key(seed_value, calls):
    # each call draws from its own Philox key: splitmix64 of (seed, call)
    x = (seed_value * 0x9E3779B97F4A7C15 + calls + 1) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def _draw(kind, p1, p2, shape, st):
    a = empty(shape, "float64")
    a._arr.random(kind, _key(st["seed"], st["calls"]), float(p1), float(p2))
    st["calls"] += 1
    return a


def _scalar_out(r, scalar):
    """NumPy gives a Python scalar for no size and scalar parameters, and an
    array for a size (a 0-d one for size=(), where arithmetic on a 0-d
    array gave a NumPy scalar)."""
    return r.item() if scalar else _sized(r)


def _sized(r):
    return r if isinstance(r, ndarray) else asarray(r)


def _params(size, *ps):
    """(shape of the draw, parameters as operands, whether the result is a
    scalar): parameters broadcast to size, or give the shape without one."""
    shapes, ops = [], []
    for p in ps:
        if isinstance(p, ndarray):
            shapes.append(p.shape)
            ops.append(p)
        elif isinstance(p, (bool, int, float, _np.generic)):
            shapes.append(())
            ops.append(float(p))
        else:  # array-like: the same on every rank (SPMD)
            a = asarray(p)
            shapes.append(a.shape)
            ops.append(a if a.ndim else float(a.item()))
    pshape = _np.broadcast_shapes(*shapes) if shapes else ()
    if size is None:
        return pshape, ops, all(s == () for s in shapes)
    shape = _shape(size)
    if _np.broadcast_shapes(shape, pshape) != shape:
        raise ValueError("shape mismatch: objects cannot be broadcast to a single shape.  Mismatch is between "
                         f"arg 0 with shape {shape} and arg 1 with shape {pshape}.")
    return shape, ops, False


def _check(bad, message):
    """NumPy's ValueError when bad holds (for any element of an array)."""
    if bool(_any(bad)) if isinstance(bad, ndarray) else bool(bad):
        raise ValueError(message)


def _uniform01(shape, st):
    return _draw("uniform", 0.0, 1.0, shape, st)


def _open01(shape, st):
    """Uniform on the open interval (0, 1): the draw, with 0 moved up."""
    return _U["maximum"](_uniform01(shape, st), _TINY)


def _std_exponential(shape, st):
    return -_U["log1p"](-_uniform01(shape, st))  # inverse CDF; u < 1 keeps it finite


# ---- the distributions, each on a stream state st ----
def _float_dtype(dtype, name):
    """float64 or float32, as NumPy's Generator takes (its TypeError else)"""
    dt = _np.dtype(dtype)
    if dt not in (_np.float64, _np.float32):
        raise TypeError(f"Unsupported dtype {dt!r} for {name}")
    return dt.name


def _random(st, size, dtype="float64"):
    dtype = _float_dtype(dtype, "random")
    shape, _, scalar = _params(size)
    r = _uniform01(shape, st)
    return _scalar_out(r if _dt(dtype) == "float64" else r.astype(_dt(dtype)), scalar)


def _scalars(*ps):
    return not any(isinstance(p, ndarray) for p in ps)


def _uniform(st, low, high, size):
    shape, (lo, hi), scalar = _params(size, low, high)
    if _scalars(lo, hi):  # the C stream applies scalar parameters itself
        return _scalar_out(_draw("uniform", lo, hi, shape, st), scalar)
    return _scalar_out(lo + (hi - lo) * _uniform01(shape, st), scalar)


def _normal(st, loc, scale, size):
    shape, (mu, sigma), scalar = _params(size, loc, scale)
    _check(sigma < 0, "scale < 0")
    if _scalars(mu, sigma):
        return _scalar_out(_draw("normal", mu, sigma, shape, st), scalar)
    return _scalar_out(mu + sigma * _draw("normal", 0.0, 1.0, shape, st), scalar)


def _standard_normal(st, size, dtype="float64"):
    dtype = _float_dtype(dtype, "standard_normal")
    shape, _, scalar = _params(size)
    r = _draw("normal", 0.0, 1.0, shape, st)
    return _scalar_out(r if _dt(dtype) == "float64" else r.astype(_dt(dtype)), scalar)


def _standard_exponential(st, size, dtype="float64"):
    dtype = _float_dtype(dtype, "standard_exponential")
    shape, _, scalar = _params(size)
    r = _std_exponential(shape, st)
    return _scalar_out(r if _dt(dtype) == "float64" else r.astype(_dt(dtype)), scalar)


def _exponential(st, scale, size):
    shape, (b,), scalar = _params(size, scale)
    _check(b < 0, "scale < 0")
    return _scalar_out(b * _std_exponential(shape, st), scalar)


def _laplace(st, loc, scale, size):
    shape, (mu, b), scalar = _params(size, loc, scale)
    _check(b < 0, "scale < 0")
    u = _open01(shape, st)
    return _scalar_out(_where(u < 0.5, mu + b * _U["log"](2.0 * u), mu - b * _U["log"](2.0 - 2.0 * u)), scalar)


def _logistic(st, loc, scale, size):
    shape, (mu, s), scalar = _params(size, loc, scale)
    _check(s < 0, "scale < 0")
    u = _open01(shape, st)
    return _scalar_out(mu + s * _U["log"](u / (1.0 - u)), scalar)


def _gumbel(st, loc, scale, size):
    shape, (mu, b), scalar = _params(size, loc, scale)
    _check(b < 0, "scale < 0")
    return _scalar_out(mu - b * _U["log"](-_U["log"](_open01(shape, st))), scalar)


def _rayleigh(st, scale, size):
    shape, (s,), scalar = _params(size, scale)
    _check(s < 0, "scale < 0")
    return _scalar_out(s * _U["sqrt"](2.0 * _std_exponential(shape, st)), scalar)


def _weibull(st, a, size):
    shape, (k,), scalar = _params(size, a)
    _check(k < 0, "a < 0")
    e = _std_exponential(shape, st)
    # a == 0 gives 0, as NumPy's does
    r = _where(k == 0, 0.0, e ** (1.0 / _U["maximum"](k, _TINY))) if isinstance(k, ndarray) else (
        0.0 * e if k == 0 else e ** (1.0 / k))
    return _scalar_out(r, scalar)


def _pareto(st, a, size):
    shape, (k,), scalar = _params(size, a)
    _check(k <= 0, "a <= 0")
    return _scalar_out(_U["expm1"](_std_exponential(shape, st) / k), scalar)


def _lognormal(st, mean, sigma, size):
    shape, (mu, s), scalar = _params(size, mean, sigma)
    _check(s < 0, "sigma < 0")
    return _scalar_out(_U["exp"](mu + s * _draw("normal", 0.0, 1.0, shape, st)), scalar)


def _standard_cauchy(st, size):
    shape, _, scalar = _params(size)
    return _scalar_out(_U["tan"](_np.pi * (_open01(shape, st) - 0.5)), scalar)


def _power(st, a, size):
    shape, (k,), scalar = _params(size, a)
    _check(k <= 0, "a <= 0")
    return _scalar_out(_uniform01(shape, st) ** (1.0 / k), scalar)


def _triangular(st, left, mode, right, size):
    shape, (lo, c, hi), scalar = _params(size, left, mode, right)
    _check(lo > c, "left > mode")
    _check(c > hi, "mode > right")
    _check(lo == hi, "left == right")
    u = _uniform01(shape, st)
    base = hi - lo
    ratio = (c - lo) / base
    below = lo + _U["sqrt"](u * ((c - lo) * base))
    above = hi - _U["sqrt"]((1.0 - u) * ((hi - c) * base))
    return _scalar_out(_where(u <= ratio, below, above), scalar)


def _integers(st, low, high, size, dtype, name="randint"):
    """Integers in [low, high): the bounds truncated and checked against
    dtype as NumPy does, with its messages."""
    dt = _np.dtype(dtype)
    if dt.kind not in "biu":
        raise TypeError(f"Unsupported dtype {dt!r} for {name}")
    if high is None:
        low, high = 0, low
    info = (0, 1) if dt.kind == "b" else (_np.iinfo(dt).min, _np.iinfo(dt).max)
    if _np.ndim(low) or _np.ndim(high):
        return _array_integers(st, low, high, size, dt, info)
    low, high = int(low), int(high)  # NumPy truncates float bounds (NaN: its ValueError)
    if low < info[0]:
        raise ValueError(f"low is out of bounds for {dt}")
    if high - 1 > info[1]:
        raise ValueError(f"high is out of bounds for {dt}")
    if high <= low:
        raise ValueError("low >= high")
    shape = () if size is None else _shape(size)
    if -_EXACT <= low and high <= _EXACT:  # every value and step exact in float64
        u = _draw("uniform", low, high, shape, st)
        return _U["floor"](u).astype(_dt(dtype, "int64"))
    return _wide_integers(shape, st, low, high - low, dt)


_EXACT = 2 ** 53


def _array_integers(st, low, high, size, dt, info):
    """Integers in [low, high) for bounds that broadcast (NumPy's Generator
    takes arrays): one uniform draw scaled per element, floored, and kept
    below high where rounding reached it."""
    shape, (lo, hi), _ = _params(size, low, high)
    lo, hi = _U["trunc"](lo), _U["trunc"](hi)  # NumPy truncates float bounds
    _check(lo < info[0], f"low is out of bounds for {dt}")
    _check(hi - 1 > info[1], f"high is out of bounds for {dt}")
    _check(hi <= lo, "low >= high")
    if bool(_any((_U["absolute"](lo) > _EXACT) | (_U["absolute"](hi) > _EXACT))):
        raise NotImplementedError("maniple.numpy: integers with array bounds beyond 2**53 in magnitude")
    r = _U["floor"](lo + _uniform01(shape, st) * (hi - lo))
    return _U["minimum"](r, hi - 1).astype(dt)


def _wide_integers(shape, st, low, n, dt):
    """Integers in [low, low + n) beyond float64's exact range (64-bit
    dtypes only): words of (n - 1).bit_length() uniform bits, from two
    32-bit halves of uniform draws, kept when below n (at least half are),
    then shifted by low modulo 2**64 as NumPy's bounded integers wrap."""
    from ._random_rejection import _rounds
    bits = (n - 1).bit_length()
    limit = _np.uint64(n - 1)

    def propose(shape, st):
        hi = _U["floor"](_draw("uniform", 0.0, 2.0 ** 32, shape, st)).astype("uint64")
        lo = _U["floor"](_draw("uniform", 0.0, 2.0 ** 32, shape, st)).astype("uint64")
        w = ((hi << _np.uint64(32)) | lo) >> _np.uint64(64 - bits)
        return w, w <= limit

    w = _rounds(shape, st, propose)
    r = w + _np.uint64(low % 2 ** 64)  # wraps modulo 2**64
    return r if dt == _np.uint64 else r.astype(dt)


# ---- the distributions drawn by rejection or search, and sampling ----
def _standard_gamma(st, k, size, dtype="float64"):
    from . import _random_rejection as _rej
    dtype = _float_dtype(dtype, "standard_gamma")
    shape, (k,), scalar = _params(size, k)
    _check(k < 0, "shape < 0")
    r = _rej.standard_gamma(shape, st, k)
    return _scalar_out(r if dtype == "float64" else r.astype(dtype), scalar)


def _gamma(st, k, scale, size):
    from . import _random_rejection as _rej
    shape, (k, s), scalar = _params(size, k, scale)
    _check(k < 0, "shape < 0")
    _check(s < 0, "scale < 0")
    return _scalar_out(s * _rej.standard_gamma(shape, st, k), scalar)


def _chi2(shape, st, df):
    from . import _random_rejection as _rej
    return 2.0 * _rej.standard_gamma(shape, st, df / 2.0)


def _beta(st, a, b, size):
    from . import _random_rejection as _rej
    shape, (a, b), scalar = _params(size, a, b)
    _check(a <= 0, "a <= 0")
    _check(b <= 0, "b <= 0")
    ga, gb = _rej.standard_gamma(shape, st, a), _rej.standard_gamma(shape, st, b)
    den = ga + gb
    # both underflowed (tiny a and b): 0 or 1 with NumPy's limiting odds
    tie = _where(_uniform01(shape, st) * (a + b) < a, 1.0, 0.0)
    with _np.errstate(invalid="ignore"):
        r = _where(den > 0, ga / _where(den > 0, den, 1.0), _where(_U["isnan"](den), _np.nan, tie))
    return _scalar_out(r, scalar)


def _chisquare(st, df, size):
    shape, (df,), scalar = _params(size, df)
    _check(df <= 0, "df <= 0")
    return _scalar_out(_chi2(shape, st, df), scalar)


def _standard_t(st, df, size):
    shape, (df,), scalar = _params(size, df)
    _check(df <= 0, "df <= 0")
    z = _draw("normal", 0.0, 1.0, shape, st)
    return _scalar_out(z / _U["sqrt"](_chi2(shape, st, df) / df), scalar)


def _f(st, dfnum, dfden, size):
    shape, (a, b), scalar = _params(size, dfnum, dfden)
    _check(a <= 0, "dfnum <= 0")
    _check(b <= 0, "dfden <= 0")
    return _scalar_out((_chi2(shape, st, a) / a) / (_chi2(shape, st, b) / b), scalar)


def _poisson(st, lam, size):
    from . import _random_rejection as _rej
    shape, (lam,), scalar = _params(size, lam)
    _check(~(lam >= 0) if isinstance(lam, ndarray) else not lam >= 0, "lam < 0 or lam is NaN")
    _check(lam > 9.223372006484771e18, "lam value too large")
    return _scalar_out(_rej.poisson(shape, st, lam), scalar)


def _binomial(st, n, p, size):
    from . import _random_rejection as _rej
    shape, (n, p), scalar = _params(size, n, p)
    n = n.astype("int64").astype("float64") if isinstance(n, ndarray) else float(int(n))  # NumPy truncates n
    _check(n < 0, "n < 0")
    _check(~((p >= 0) & (p <= 1)) if isinstance(p, ndarray) else not 0 <= p <= 1, "p < 0, p > 1 or p is NaN")
    return _scalar_out(_rej.binomial(shape, st, n, p), scalar)


def _hypergeometric(st, ngood, nbad, nsample, size, legacy):
    from . import _random_rejection as _rej
    shape, (ngood, nbad, nsample), scalar = _params(size, ngood, nbad, nsample)
    ngood, nbad, nsample = (x.astype("int64").astype("float64") if isinstance(x, ndarray) else float(int(x))
                            for x in (ngood, nbad, nsample))  # NumPy truncates them
    _check(ngood < 0, "ngood < 0")
    _check(nbad < 0, "nbad < 0")
    _check(nsample < 1, "nsample < 1 or nsample is NaN") if legacy else _check(nsample < 0, "nsample < 0")
    _check(ngood + nbad < nsample, "ngood + nbad < nsample")
    if not legacy:
        _check((ngood >= 1e9) | (nbad >= 1e9) if isinstance(ngood, ndarray) or isinstance(nbad, ndarray)
               else ngood >= 1e9 or nbad >= 1e9, "both ngood and nbad must be less than 1000000000")
    return _scalar_out(_rej.hypergeometric(shape, st, ngood, nbad, nsample), scalar)


def _bad_p(p):
    return ~((p > 0) & (p <= 1)) if isinstance(p, ndarray) else not 0 < p <= 1


def _geometric(st, p, size):
    shape, (p,), scalar = _params(size, p)
    _check(_bad_p(p), "p <= 0, p > 1 or p contains NaNs")
    e = _std_exponential(shape, st)
    with _np.errstate(divide="ignore"):
        k = _U["ceil"](-e / _U["log1p"](-_U["minimum"](p, 1.0 - 1e-16)))
    k = _U["minimum"](_U["maximum"](k, 1.0), 9.2233720368547e18)  # NumPy's INT64_MAX for tiny p
    r = _where(k >= 9.2233720368547e18, _np.iinfo(_np.int64).max, _where(p == 1, 1.0, k).astype("int64"))
    return _scalar_out(r.astype("int64"), scalar)


def _negative_binomial(st, n, p, size):
    from . import _random_rejection as _rej
    shape, (n, p), scalar = _params(size, n, p)
    _check(n <= 0, "n <= 0")
    _check(_U["isnan"](n) if isinstance(n, ndarray) else n != n, "n must not be NaN")
    _check(_bad_p(p), "p <= 0, p > 1 or p contains NaNs")
    with _np.errstate(divide="ignore", invalid="ignore"):
        _check((1.0 - p) / p * (n + 10.0 * _U["sqrt"](n) if isinstance(n, ndarray) else n + 10.0 * n ** 0.5)
               > 9.223372006484771e18, "n too large or p too small, see Generator.negative_binomial Notes")
    y = _rej.standard_gamma(shape, st, n) * ((1.0 - p) / p)
    return _scalar_out(_rej.poisson(shape, st, y), scalar)


def _wald(st, mean, scale, size):
    shape, (mu, lam), scalar = _params(size, mean, scale)
    _check(mu <= 0, "mean <= 0")
    _check(lam <= 0, "scale <= 0")
    z = _draw("normal", 0.0, 1.0, shape, st)
    y = mu * z * z
    x = mu - 2.0 * mu * y / (y + _U["sqrt"](y * (y + 4.0 * lam)))  # (no cancellation for large mean / scale)
    u = _uniform01(shape, st)
    return _scalar_out(_where(u <= mu / (mu + x), x, mu * mu / x), scalar)


def _noncentral_chi2(shape, st, df, nonc):
    """NumPy's three cases: chi2(df) when nonc = 0, chi2(df - 1) + (z +
    sqrt(nonc))^2 when df > 1, else chi2(df + 2 Poisson(nonc / 2))"""
    from . import _random_rejection as _rej
    bad = _U["isnan"](nonc)
    nonc = _where(bad, 0.0, nonc)  # (NaN: NumPy's nan, not drawn)
    z = _draw("normal", 0.0, 1.0, shape, st) + _U["sqrt"](nonc)
    above = _chi2(shape, st, _U["maximum"](df - 1.0, 1e-300) if isinstance(df, ndarray) else max(df - 1.0, 1e-300))
    # the Poisson draw only where its branch is used (a huge mean elsewhere would overflow it)
    i = _rej.poisson(shape, st, _where((df > 1) | (nonc == 0), 0.0, _U["minimum"](nonc / 2.0, 1e18)))
    below = _chi2(shape, st, df + 2.0 * i)
    r = _where(nonc == 0, _chi2(shape, st, df), _where(df > 1, above + z * z, below))
    return _where(bad, _np.nan, r)


def _noncentral_chisquare(st, df, nonc, size):
    shape, (df, nonc), scalar = _params(size, df, nonc)
    _check(df <= 0, "df <= 0")
    _check(nonc < 0, "nonc < 0")
    return _scalar_out(_noncentral_chi2(shape, st, df, nonc), scalar)


def _noncentral_f(st, dfnum, dfden, nonc, size):
    shape, (a, b, nonc), scalar = _params(size, dfnum, dfden, nonc)
    _check(a <= 0, "dfnum <= 0")
    _check(b <= 0, "dfden <= 0")
    _check(nonc < 0, "nonc < 0")
    return _scalar_out(_noncentral_chi2(shape, st, a, nonc) * b / (_chi2(shape, st, b) * a), scalar)


def _multinomial(st, n, pvals, size):
    """NumPy's conditional binomials: category j gets B(n left, p_j / p left)"""
    from . import _random_rejection as _rej
    from ._manipulation import stack
    pv = _np.asarray(pvals, dtype=_np.float64)
    if pv.ndim != 1:
        raise ValueError("object too deep for desired array" if pv.ndim > 1 else "pvals must be 1-d")
    n = int(n)
    if n < 0:
        raise ValueError("n < 0")
    if ((pv < 0) | (pv > 1) | _np.isnan(pv)).any():
        raise ValueError("pvals < 0, pvals > 1 or pvals contains NaNs")
    if pv[:-1].sum() > 1.0 + 1e-12:
        raise ValueError("sum(pvals[:-1]) > 1.0")
    shape = () if size is None else _shape(size)
    left, pleft, cols = float(n), 1.0, []
    for p in pv[:-1]:
        q = min(max(p / pleft, 0.0), 1.0) if pleft > 0 else 0.0
        x = _rej.binomial(shape, st, left, q).astype("float64")
        cols.append(x)
        left = left - x
        pleft -= p
    if not isinstance(left, ndarray):  # (one category: all n there)
        from ._creation import full
        left = full(shape, left, "float64")
    cols.append(left)
    return stack(cols, axis=-1).astype("int64")


def _vonmises(st, mu, kappa, size):
    from . import _random_rejection as _rej
    shape, (mu, kappa), scalar = _params(size, mu, kappa)
    _check(kappa < 0, "kappa < 0")
    return _scalar_out(_rej.vonmises(shape, st, mu, kappa), scalar)


def _zipf(st, a, size):
    from . import _random_rejection as _rej
    shape, (a,), scalar = _params(size, a)
    _check(~(a > 1) if isinstance(a, ndarray) else not a > 1, "a <= 1 or a is NaN")
    return _scalar_out(_rej.zipf(shape, st, a), scalar)


def _logseries(st, p, size):
    from . import _random_rejection as _rej
    shape, (p,), scalar = _params(size, p)
    _check(~((p >= 0) & (p < 1)) if isinstance(p, ndarray) else not 0 <= p < 1, "p < 0, p >= 1 or p is NaN")
    return _scalar_out(_rej.logseries(shape, st, p), scalar)


def _dirichlet(st, alpha, size):
    from . import _random_rejection as _rej
    from ._manipulation import broadcast_to
    al = _np.asarray(alpha, dtype=_np.float64)
    if al.ndim != 1:
        raise ValueError("object of too small depth for desired array" if al.ndim == 0 else "alpha must be 1-d")
    if (al < 0).any() or _np.isnan(al).any():
        raise ValueError("alpha < 0")
    shape = (() if size is None else _shape(size)) + (len(al),)
    if len(al) and al.max() == 0:  # (NumPy's zeros for an all-zero alpha)
        from ._creation import zeros
        return zeros(shape, "float64")
    if len(al) and al.max() < 0.1:
        return _dirichlet_sticks(st, al, shape)
    g = _rej.standard_gamma(shape, st, broadcast_to(asarray(al), shape))
    s = g.sum(axis=-1, keepdims=True)
    with _np.errstate(invalid="ignore"):
        return _where(s > 0, g / _where(s > 0, s, 1.0), 0.0)  # (all-zero alpha: zeros, as NumPy)


def _dirichlet_sticks(st, al, shape):
    """small alpha (all below 0.1, where the gammas underflow together):
    NumPy's stick-breaking, x_j = (what is left) * Beta(alpha_j, sum of the
    alphas after j)"""
    from ._manipulation import stack
    from ._creation import full
    rest = _np.cumsum(al[::-1])[::-1]
    left = full(shape[:-1], 1.0, "float64")
    cols = []
    for j in range(len(al) - 1):
        if al[j] == 0 or rest[j + 1] == 0:
            v = full(shape[:-1], 1.0 if rest[j + 1] == 0 and al[j] > 0 else 0.0, "float64")
        else:
            v = _beta(st, al[j], rest[j + 1], shape[:-1] or None)
            v = v if isinstance(v, ndarray) else full((), v, "float64")
        cols.append(left * v)
        left = left * (1.0 - v)
    cols.append(left)
    return stack(cols, axis=-1)


def _multivariate_normal(st, mean, cov, size=None, check_valid="warn", tol=1e-8):
    """NumPy's: the SVD of cov, x = z (sqrt(s) v) + mean (z standard normal)"""
    mean, cov = _np.array(mean), _np.array(cov)
    shape = [] if size is None else list(_shape(size))
    if mean.ndim != 1:
        raise ValueError("mean must be 1 dimensional")
    if cov.ndim != 2 or cov.shape[0] != cov.shape[1]:
        raise ValueError("cov must be 2 dimensional and square")
    if mean.shape[0] != cov.shape[0]:
        raise ValueError("mean and cov must have same length")
    k = mean.shape[0]
    final = tuple(shape) + (k,)
    u, s, v = _np.linalg.svd(cov.astype(_np.double))
    if check_valid != "ignore":
        if check_valid not in ("warn", "raise"):
            raise ValueError("check_valid must equal 'warn', 'raise', or 'ignore'")
        if not _np.allclose(_np.dot(v.T * s, v), cov, rtol=tol, atol=tol):
            if check_valid == "raise":
                raise ValueError("covariance is not symmetric positive-semidefinite.")
            _warn.warn("covariance is not symmetric positive-semidefinite.", RuntimeWarning)
    n = int(_np.prod(shape, dtype=_np.int64))
    z = _draw("normal", 0.0, 1.0, (n, k), st)
    x = z @ asarray(_np.sqrt(s)[:, None] * v) + asarray(mean.astype(_np.double))
    return x.reshape(final)


def _permutation_of(n, st):
    """a uniformly random permutation of range(n): the order of n uniform
    draws (a stable sort, so the same at any rank count)"""
    from ._sorting import argsort
    return argsort(_uniform01((n,), st), kind="stable")


def _permutation(st, x):
    from ._select import take
    if isinstance(x, (int, _np.integer)):
        return _permutation_of(int(x), st)
    a = asarray(x)
    if a.ndim < 1:
        raise IndexError("x must be an integer or at least 1-dimensional")
    return take(a, _permutation_of(a.shape[0], st), axis=0)


def _shuffle(st, x):
    """x's first axis shuffled in place (a maniple array, or a NumPy one)"""
    from ._select import take
    a = asarray(x)
    if a.ndim < 1:
        raise TypeError("_shuffle: x must be a sequence or an array with at least one dimension")
    r = take(a, _permutation_of(a.shape[0], st), axis=0)
    if isinstance(x, ndarray):
        x[...] = r
    elif isinstance(x, _np.ndarray):
        x[...] = _np.asarray(r)
    else:  # a list or another mutable sequence
        x[:] = _np.asarray(r).tolist()


def _choice(st, a, size=None, replace=True, p=None, shuffle=True, rows=False):
    """rows: a's first axis is sampled (Generator's), else a must be 1-d"""
    from ._select import take
    from ._sorting import searchsorted
    pop = isinstance(a, (int, _np.integer))
    if pop:
        n = int(a)
        if n < 0 or (n == 0 and (size is None or _np.prod(size) != 0)):
            raise ValueError("a must be a positive integer unless no samples are taken")
    else:
        a = asarray(a)
        if a.ndim != 1 and not (rows and a.ndim > 1):
            raise ValueError("a must be 1-dimensional")
        n = a.shape[0]
    shape = () if size is None else _shape(size)
    m = int(_np.prod(shape, dtype=_np.int64))
    if n == 0 and m:
        raise ValueError("'a' cannot be empty unless no samples are taken")
    if p is not None:
        p = _np.asarray(p, dtype=_np.float64)
        if p.ndim != 1:
            raise ValueError("'p' must be 1-dimensional")
        if p.size != n:
            raise ValueError("'a' and 'p' must have same size")
        if (p < 0).any() or _np.isnan(p).any():
            raise ValueError("probabilities are not non-negative")
        if abs(p.sum() - 1) > _np.sqrt(_np.finfo(_np.float64).eps):
            raise ValueError("probabilities do not sum to 1")
    if replace:
        if p is None:
            idx = _integers(st, 0, n, shape, "int64") if n else empty(shape, "int64")
        else:
            cdf = _np.cumsum(p)
            cdf /= cdf[-1]
            idx = _U["minimum"](searchsorted(asarray(cdf), _uniform01(shape, st), side="right"), n - 1)
    else:
        if m > n:
            raise ValueError("Cannot take a larger sample than population when replace is False")
        if p is None:
            idx = _permutation_of(n, st)[:m].reshape(shape)
        else:
            if _np.count_nonzero(p > 0) < m:
                raise ValueError("Fewer non-zero entries in p than size")
            from ._sorting import argsort
            # the m largest u^(1/p): weighted sampling without replacement
            with _np.errstate(divide="ignore"):
                keys = _U["log"](_open01((n,), st)) / asarray(p)
            idx = argsort(-keys, kind="stable")[:m].reshape(shape)
    r = idx if pop else take(a, idx, axis=0)
    if size is None:
        return r.item() if pop else r[()]
    return _sized(r)


class _Stream:
    """The distributions NumPy's RandomState and Generator share, on a
    counter-based stream of their own (self._st)."""

    def uniform(self, low=0.0, high=1.0, size=None):
        return _uniform(self._st, low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return _normal(self._st, loc, scale, size)

    def exponential(self, scale=1.0, size=None):
        return _exponential(self._st, scale, size)

    def laplace(self, loc=0.0, scale=1.0, size=None):
        return _laplace(self._st, loc, scale, size)

    def logistic(self, loc=0.0, scale=1.0, size=None):
        return _logistic(self._st, loc, scale, size)

    def gumbel(self, loc=0.0, scale=1.0, size=None):
        return _gumbel(self._st, loc, scale, size)

    def rayleigh(self, scale=1.0, size=None):
        return _rayleigh(self._st, scale, size)

    def weibull(self, a, size=None):
        return _weibull(self._st, a, size)

    def pareto(self, a, size=None):
        return _pareto(self._st, a, size)

    def lognormal(self, mean=0.0, sigma=1.0, size=None):
        return _lognormal(self._st, mean, sigma, size)

    def standard_cauchy(self, size=None):
        return _standard_cauchy(self._st, size)

    def power(self, a, size=None):
        return _power(self._st, a, size)

    def triangular(self, left, mode, right, size=None):
        return _triangular(self._st, left, mode, right, size)

    def gamma(self, shape, scale=1.0, size=None):
        return _gamma(self._st, shape, scale, size)

    def beta(self, a, b, size=None):
        return _beta(self._st, a, b, size)

    def chisquare(self, df, size=None):
        return _chisquare(self._st, df, size)

    def standard_t(self, df, size=None):
        return _standard_t(self._st, df, size)

    def f(self, dfnum, dfden, size=None):
        return _f(self._st, dfnum, dfden, size)

    def poisson(self, lam=1.0, size=None):
        return _poisson(self._st, lam, size)

    def binomial(self, n, p, size=None):
        return _binomial(self._st, n, p, size)

    def geometric(self, p, size=None):
        return _geometric(self._st, p, size)

    def negative_binomial(self, n, p, size=None):
        return _negative_binomial(self._st, n, p, size)

    def wald(self, mean, scale, size=None):
        return _wald(self._st, mean, scale, size)

    def noncentral_chisquare(self, df, nonc, size=None):
        return _noncentral_chisquare(self._st, df, nonc, size)

    def noncentral_f(self, dfnum, dfden, nonc, size=None):
        return _noncentral_f(self._st, dfnum, dfden, nonc, size)

    def multinomial(self, n, pvals, size=None):
        return _multinomial(self._st, n, pvals, size)

    def vonmises(self, mu, kappa, size=None):
        return _vonmises(self._st, mu, kappa, size)

    def zipf(self, a, size=None):
        return _zipf(self._st, a, size)

    def logseries(self, p, size=None):
        return _logseries(self._st, p, size)

    def dirichlet(self, alpha, size=None):
        return _dirichlet(self._st, alpha, size)

    def multivariate_normal(self, mean, cov, size=None, check_valid="warn", tol=1e-8):
        return _multivariate_normal(self._st, mean, cov, size, check_valid, tol)

    def permutation(self, x):
        return _permutation(self._st, x)

    def shuffle(self, x):
        return _shuffle(self._st, x)

    def bytes(self, length):
        """length random bytes (the same on every rank)"""
        r = _integers(self._st, 0, 256, (int(length),), "uint8")
        return _np.asarray(r).tobytes()


class RandomState(_Stream):
    """numpy.random.RandomState's methods (the legacy API) on a
    counter-based stream: numpy.random's functions are those of one
    global instance, as in NumPy. get_state gives an opaque tuple that
    set_state takes back."""

    def __init__(self, seed=None):
        if isinstance(seed, BitGenerator):  # its stream, shared
            self._st, self._bg = seed._st, seed
        else:
            self._st, self._bg = {"seed": _seed64(seed, True), "calls": 0}, None

    @property
    def _bit_generator(self):
        """The MT19937 sharing this stream (NumPy's legacy bit generator)."""
        if self._bg is None:
            bg = self._bg = MT19937.__new__(MT19937)
            bg._st, bg._seed_seq, bg.lock = self._st, SeedSequence(self._st["seed"]), _threading.Lock()
        return self._bg

    def seed(self, seed=None):
        self._st["seed"] = _seed64(seed, True)
        self._st["calls"] = 0

    def get_state(self, legacy=True):
        return ("maniple-philox", self._st["seed"], self._st["calls"])

    def set_state(self, state):
        if not (isinstance(state, tuple) and len(state) == 3 and state[0] == "maniple-philox"):
            raise ValueError("state must be a tuple from maniple.numpy.random's get_state")
        self._st["seed"], self._st["calls"] = int(state[1]), int(state[2])

    def rand(self, *shape):
        return _random(self._st, shape or None)

    def randn(self, *shape):
        return _standard_normal(self._st, shape or None)

    def random_sample(self, size=None):
        return _random(self._st, size)

    random = ranf = sample = random_sample

    def standard_normal(self, size=None):
        return _standard_normal(self._st, size)

    def standard_exponential(self, size=None):
        return _standard_exponential(self._st, size)

    def standard_gamma(self, shape, size=None):
        return _standard_gamma(self._st, shape, size)

    def randint(self, low, high=None, size=None, dtype="int64"):
        r = _integers(self._st, low, high, size, dtype)
        return int(r.item()) if size is None and r.ndim == 0 else _sized(r)

    def random_integers(self, low, high=None, size=None):
        """Deprecated in NumPy: integers in [low, high] (high included),
        or [1, low] with no high."""
        if high is None:
            _warn.warn(f"This function is deprecated. Please call randint(1, {low} + 1) instead",
                          DeprecationWarning)
            low, high = 1, low
        else:
            _warn.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) instead",
                          DeprecationWarning)
        return self.randint(low, int(high) + 1, size)

    def choice(self, a, size=None, replace=True, p=None):
        return _choice(self._st, a, size, replace, p)

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return _hypergeometric(self._st, ngood, nbad, nsample, size, True)


class Generator(_Stream):
    """numpy.random.Generator's methods on a counter-based stream."""

    def __init__(self, seed_value=None):
        bg = seed_value if isinstance(seed_value, BitGenerator) else PCG64(seed_value)
        self._bit_generator, self._st = bg, bg._st  # the stream is the bit generator's, shared

    @property
    def bit_generator(self):
        return self._bit_generator

    def spawn(self, n_children):
        """n_children independent generators (the bit generator's children)."""
        return [Generator(b) for b in self._bit_generator.spawn(n_children)]

    def hypergeometric(self, ngood, nbad, nsample, size=None):
        return _hypergeometric(self._st, ngood, nbad, nsample, size, False)

    def random(self, size=None, dtype="float64"):
        return _random(self._st, size, dtype)

    def standard_normal(self, size=None, dtype="float64"):
        return _standard_normal(self._st, size, dtype)

    def standard_exponential(self, size=None, dtype="float64"):
        return _standard_exponential(self._st, size, dtype)

    def standard_gamma(self, shape, size=None, dtype="float64"):
        return _standard_gamma(self._st, shape, size, dtype)

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        if endpoint:  # [0, low] or [low, high]
            def up(b):
                return b + 1 if _np.ndim(b) == 0 else asarray(b) + 1
            low, high = (0, up(low)) if high is None else (low, up(high))
        r = _integers(self._st, low, high, size, dtype, "integers")
        return r.dtype.type(r.item()) if size is None and r.ndim == 0 else _sized(r)

    def choice(self, a, size=None, replace=True, p=None, axis=0, shuffle=True):
        if axis != 0:
            raise NotImplementedError("maniple.numpy: Generator.choice along an axis other than 0")
        return _choice(self._st, a, size, replace, p, shuffle, rows=True)

    def permuted(self, x, *, axis=None, out=None):
        return _permuted(self._st, x, axis, out)


def _permuted(st, x, axis, out):
    """Generator.permuted: each slice along axis shuffled on its own (None:
    the flattened array), by the order of uniform draws (stable: the same
    at any rank count); out may be x (in place)."""
    from ._select import take, take_along_axis
    from ._sorting import argsort
    from ._functions import _axis
    a = asarray(x)
    if a.ndim == 0:
        raise TypeError("len() of unsized object")
    if out is not None and tuple(out.shape) != a.shape:
        raise ValueError("out must have the same shape as x")
    if axis is None:
        r = take(a.reshape(a.size), _permutation_of(a.size, st)).reshape(a.shape)
    else:
        ax = _axis(axis, a.ndim)
        r = take_along_axis(a, argsort(_uniform01(a.shape, st), axis=ax, kind="stable"), axis=ax)
    if out is None:
        return r
    out[...] = r
    return out


def default_rng(seed=None):
    if isinstance(seed, Generator):  # NumPy returns the generator itself
        return seed
    return Generator(seed)


# ---- the global stream: numpy.random's functions, one RandomState's ----
_global = RandomState()
_global._st = _state
_global._bg = None


def seed(s=None):
    """Seed the global stream (every rank must call it alike)."""
    _global.seed(s)


def get_bit_generator():
    """The bit generator of the global stream (numpy.random's functions)."""
    return _global._bit_generator


def set_bit_generator(bitgen):
    """numpy.random's functions draw from bitgen's stream from here on."""
    if not isinstance(bitgen, BitGenerator):
        raise TypeError("bitgen must be a BitGenerator")
    _global._st, _global._bg = bitgen._st, bitgen


for _name in ("rand", "randn", "random_sample", "random", "ranf", "sample", "uniform", "normal", "standard_normal",
              "standard_exponential", "exponential", "laplace", "logistic", "gumbel", "rayleigh", "weibull", "pareto",
              "lognormal", "standard_cauchy", "power", "triangular", "randint", "random_integers", "standard_gamma",
              "gamma", "beta", "chisquare", "standard_t", "f", "poisson", "binomial", "geometric",
              "negative_binomial", "wald", "dirichlet", "noncentral_chisquare", "noncentral_f", "multinomial",
              "vonmises", "zipf", "logseries", "multivariate_normal", "permutation", "shuffle", "choice", "hypergeometric",
              "bytes", "get_state", "set_state"):
    globals()[_name] = getattr(_global, _name)
del _name
