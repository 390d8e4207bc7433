"""Random numbers from a counter-based generator: the same seed gives the
same array at any rank count. Streams are NumPy's distributions, not NumPy's
bit streams: maniple.numpy.random.rand(5) differs from numpy.random.rand(5)
in its values, not in its distribution."""
import numpy as _np

from ._creation import _dt, _shape, empty
from ._ndarray import _binary, _unary

_state = {"seed": 0x5EED, "calls": 0}


def seed(s=None):
    """Seed the global stream (every rank must call it alike)."""
    _state["seed"] = 0x5EED if s is None else int(s) & 0xFFFFFFFFFFFFFFFF
    _state["calls"] = 0


def _key(seed_value, calls):
    # each call draws from its own Philox key: splitmix64 of (seed, call)
    x = (seed_value * 0x9E3779B97F4A7C15 + calls + 1) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return x ^ (x >> 31)


def _draw(kind, p1, p2, size, dtype, st):
    a = empty(() if size is None else _shape(size), dtype)
    a._arr.random(kind, _key(st["seed"], st["calls"]), float(p1), float(p2))
    st["calls"] += 1
    return a


def rand(*shape):
    return _draw("uniform", 0.0, 1.0, shape, "float64", _state)


def randn(*shape):
    return _draw("normal", 0.0, 1.0, shape, "float64", _state)


def random(size=None):
    return _draw("uniform", 0.0, 1.0, size, "float64", _state)


random_sample = random


def uniform(low=0.0, high=1.0, size=None):
    return _draw("uniform", low, high, size, "float64", _state)


def normal(loc=0.0, scale=1.0, size=None):
    if scale < 0:
        raise ValueError("scale < 0")
    return _draw("normal", loc, scale, size, "float64", _state)


def _integers(low, high, size, dtype, st):
    if high is None:
        low, high = 0, low
    if high <= low:
        raise ValueError("high <= low")
    u = _draw("uniform", low, high, size, "float64", st)
    return _unary("floor", u).astype(_dt(dtype, "int64"))


def randint(low, high=None, size=None, dtype="int64"):
    return _integers(low, high, size, dtype, _state)


class Generator:
    """numpy.random.Generator's common methods on a counter-based stream."""

    def __init__(self, seed_value=None):
        self._st = {"seed": 0x5EED if seed_value is None else int(seed_value) & 0xFFFFFFFFFFFFFFFF, "calls": 0}

    def random(self, size=None, dtype="float64"):
        return _draw("uniform", 0.0, 1.0, size, _dt(dtype), self._st)

    def uniform(self, low=0.0, high=1.0, size=None):
        return _draw("uniform", low, high, size, "float64", self._st)

    def normal(self, loc=0.0, scale=1.0, size=None):
        if scale < 0:
            raise ValueError("scale < 0")
        return _draw("normal", loc, scale, size, "float64", self._st)

    def standard_normal(self, size=None, dtype="float64"):
        return _draw("normal", 0.0, 1.0, size, _dt(dtype), self._st)

    def integers(self, low, high=None, size=None, dtype="int64", endpoint=False):
        if endpoint:
            high = (low if high is None else high) + 1 if high is not None else low + 1
        return _integers(low, high, size, dtype, self._st)


def default_rng(seed_value=None):
    return Generator(seed_value)


del _binary, _np
