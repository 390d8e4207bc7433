"""numpy.random's bit generator classes (PCG64, PCG64DXSM, Philox, SFC64,
MT19937) over maniple's one counter-based stream.

A bit generator holds a stream state (seed, calls) that the Generator or
RandomState made from it shares, as NumPy's do. Each class salts the seed,
so Philox(1) and PCG64(1) give different streams; PCG64 adds nothing, so
Generator(PCG64(s)) is default_rng(s), as in NumPy. The words are
maniple's, not those of NumPy's algorithm of that name. A seed of None is
maniple's fixed seed (every rank must draw alike), not OS entropy.
"""
import threading

import numpy as _np

SeedSequence = _np.random.SeedSequence
_MASK = 0xFFFFFFFFFFFFFFFF


def _mix(x):
    """splitmix64's finalizer: a 64-bit word to another, bijective."""
    x &= _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


def seed_words(seed):
    """The 64-bit stream seed of a NumPy seed: an int keeps its value, a
    SeedSequence its entropy's (a spawned child also its spawn key)."""
    from .random import _seed64
    if isinstance(seed, SeedSequence) and seed.spawn_key:
        base = _seed64(seed.entropy, False)
        for k in seed.spawn_key:
            base = _mix(base ^ _mix(int(k) + 0x9E3779B97F4A7C15))
        return base
    return _seed64(seed, False)


class BitGenerator:
    """numpy.random.BitGenerator: the base of the bit generator classes."""
    _SALT = None

    def __init__(self, seed=None):
        if self._SALT is None:
            raise TypeError("BitGenerator is a base class and cannot be instantized")
        if isinstance(seed, BitGenerator):
            raise TypeError("SeedSequence expects int or sequence of ints for entropy not " + repr(seed))
        self._seed_seq = seed if isinstance(seed, SeedSequence) else SeedSequence(0x5EED if seed is None else seed)
        w = seed_words(seed)
        self._st = {"seed": w if self._SALT == 0 else _mix(w ^ self._SALT), "calls": 0}
        self.lock = threading.Lock()

    @property
    def seed_seq(self):
        return self._seed_seq

    @property
    def state(self):
        return {"bit_generator": type(self).__name__, "state": {"seed": self._st["seed"], "calls": self._st["calls"]}}

    @state.setter
    def state(self, value):
        if not isinstance(value, dict) or value.get("bit_generator") != type(self).__name__:
            raise ValueError(f"state must be for a {type(self).__name__} PRNG")
        s = value["state"]
        self._st["seed"], self._st["calls"] = int(s["seed"]) & _MASK, int(s["calls"])

    def random_raw(self, size=None, output=True):
        """Uniform 64-bit words (uint64), the same on every rank."""
        from .random import _integers
        r = _integers(self._st, 0, 2 ** 64, size, "uint64", "random_raw")
        if not output:
            return None
        return int(r.item()) if size is None else r

    def spawn(self, n_children):
        """n_children independent bit generators of this class (the seed
        sequence's children)."""
        return [type(self)(s) for s in self._seed_seq.spawn(n_children)]

    def jumped(self, jumps=1):
        """A copy far along the stream: here, another stream of this seed."""
        j = int(jumps)
        if j < 0:
            raise ValueError("jumps must be positive")
        r = type(self).__new__(type(self))
        r._seed_seq, r.lock = self._seed_seq, threading.Lock()
        r._st = {"seed": _mix(self._st["seed"] ^ _mix(j + 0xD1B54A32D192ED03)), "calls": 0}
        return r

    def __repr__(self):
        return f"{type(self).__name__}(maniple)"


def _bit_generator(name, salt):
    cls = type(name, (BitGenerator,), {"_SALT": salt, "__doc__": f"numpy.random.{name} (maniple's stream, salted)."})
    cls.__module__ = "maniple.numpy.random"
    return cls


PCG64 = _bit_generator("PCG64", 0)
PCG64DXSM = _bit_generator("PCG64DXSM", 0x243F6A8885A308D3)
Philox = _bit_generator("Philox", 0x13198A2E03707344)
SFC64 = _bit_generator("SFC64", 0xA4093822299F31D0)
MT19937 = _bit_generator("MT19937", 0x082EFA98EC4E6C89)
