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
import warnings

import numpy as _np

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


def seed(s=None):
    """Seed the global stream (every rank must call it alike)."""
    _state["seed"] = _seed64(s, True)
    _state["calls"] = 0


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
    """NumPy gives a Python scalar for no size and scalar parameters."""
    return r.item() if scalar else r


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
    low, high = int(low), int(high)  # NumPy truncates float bounds (NaN: its ValueError)
    info = (0, 1) if dt.kind == "b" else (_np.iinfo(dt).min, _np.iinfo(dt).max)
    if low < info[0]:
        raise ValueError(f"low is out of bounds for {dt}")
    if high - 1 > info[1]:
        raise ValueError(f"high is out of bounds for {dt}")
    if high <= low:
        raise ValueError("low >= high")
    shape = () if size is None else _shape(size)
    u = _draw("uniform", low, high, shape, st)
    return _U["floor"](u).astype(_dt(dtype, "int64"))


# ---- the global stream (numpy.random's functions) ----
def rand(*shape):
    return _random(_state, shape or None)


def randn(*shape):
    return _standard_normal(_state, shape or None)


def random(size=None):
    return _random(_state, size)


random_sample = ranf = sample = random


def uniform(low=0.0, high=1.0, size=None):
    return _uniform(_state, low, high, size)


def normal(loc=0.0, scale=1.0, size=None):
    return _normal(_state, loc, scale, size)


def standard_normal(size=None):
    return _standard_normal(_state, size)


def standard_exponential(size=None):
    return _standard_exponential(_state, size)


def exponential(scale=1.0, size=None):
    return _exponential(_state, scale, size)


def laplace(loc=0.0, scale=1.0, size=None):
    return _laplace(_state, loc, scale, size)


def logistic(loc=0.0, scale=1.0, size=None):
    return _logistic(_state, loc, scale, size)


def gumbel(loc=0.0, scale=1.0, size=None):
    return _gumbel(_state, loc, scale, size)


def rayleigh(scale=1.0, size=None):
    return _rayleigh(_state, scale, size)


def weibull(a, size=None):
    return _weibull(_state, a, size)


def pareto(a, size=None):
    return _pareto(_state, a, size)


def lognormal(mean=0.0, sigma=1.0, size=None):
    return _lognormal(_state, mean, sigma, size)


def standard_cauchy(size=None):
    return _standard_cauchy(_state, size)


def power(a, size=None):
    return _power(_state, a, size)


def triangular(left, mode, right, size=None):
    return _triangular(_state, left, mode, right, size)


def randint(low, high=None, size=None, dtype="int64"):
    r = _integers(_state, low, high, size, dtype)
    return int(r.item()) if size is None else r


def random_integers(low, high=None, size=None):
    """Deprecated in NumPy: integers in [low, high] (high included), or
    [1, low] with no high."""
    if high is None:
        warnings.warn(f"This function is deprecated. Please call randint(1, {low} + 1) instead",
                      DeprecationWarning, stacklevel=2)
        low, high = 1, low
    else:
        warnings.warn(f"This function is deprecated. Please call randint({low}, {high} + 1) instead",
                      DeprecationWarning, stacklevel=2)
    return randint(low, int(high) + 1, size)


class Generator:
    """numpy.random.Generator's methods on a counter-based stream."""

    def __init__(self, seed_value=None):
        self._st = {"seed": _seed64(seed_value, False), "calls": 0}

    def random(self, size=None, dtype="float64"):
        return _random(self._st, size, dtype)

    def uniform(self, low=0.0, high=1.0, size=None):
        return _uniform(self._st, low, high, size)

    def normal(self, loc=0.0, scale=1.0, size=None):
        return _normal(self._st, loc, scale, size)

    def standard_normal(self, size=None, dtype="float64"):
        return _standard_normal(self._st, size, dtype)

    def standard_exponential(self, size=None, dtype="float64"):
        return _standard_exponential(self._st, size, dtype)

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

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        if endpoint:  # [0, low] or [low, high]
            low, high = (0, low + 1) if high is None else (low, high + 1)
        r = _integers(self._st, low, high, size, dtype, "integers")
        return r.dtype.type(r.item()) if size is None else r


def default_rng(seed_value=None):
    if isinstance(seed_value, Generator):  # NumPy returns the generator itself
        return seed_value
    return Generator(seed_value)
