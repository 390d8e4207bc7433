"""vectorize against numpy.vectorize run in the test, at 1, 2 and 3 ranks:
broadcasting, keyword and excluded arguments, several outputs, otypes,
the decorator form, 0-d and empty inputs, and an exception raised on one
rank's elements raised on every rank."""
import math

import numpy
import pytest
import scipy.special

import maniple.numpy as mnp
from xp import data


def same(got, want):
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w)
        return
    assert isinstance(got, mnp.ndarray)
    g = numpy.asarray(got)
    assert g.dtype == want.dtype and g.shape == want.shape and numpy.array_equal(g, want), (g, want)


def f(x, y=2.0):
    return x * y + 1 if x > 0 else -x


def both(fn, *args, wrap=(), **kw):
    """fn vectorized by both modules, called with args (positions in wrap
    become maniple arrays for maniple's call)"""
    want = numpy.vectorize(fn, **kw)(*args)
    margs = [mnp.asarray(a) if i in wrap else a for i, a in enumerate(args)]
    same(mnp.vectorize(fn, **kw)(*margs), want)


def test_vectorize_as_numpy():
    x = numpy.linspace(-3, 3, 37).reshape(37, 1)
    y = numpy.arange(5.0)
    both(f, x, y, wrap=(0, 1))
    both(f, x, y, wrap=(0,))
    both(lambda a, b: (a + b, a > b), x, y, wrap=(0,))
    both(f, x, 2, wrap=(0,), otypes=[numpy.float32])
    both(lambda s, k: s * k, numpy.arange(6), 3, wrap=(0,), excluded={1})
    both(math.gamma, numpy.arange(1.0, 9), wrap=(0,))
    both(lambda v: complex(v, -v), numpy.arange(7), wrap=(0,))
    both(f, 3.0)
    same(mnp.vectorize(f)(mnp.asarray(x), y=3), numpy.vectorize(f)(x, y=3))

    @mnp.vectorize
    def h(v):
        return v % 3 == 0
    same(h(mnp.arange(10)), numpy.vectorize(lambda v: v % 3 == 0)(numpy.arange(10)))
    same(mnp.vectorize(otypes=["d"])(lambda v: v / 2)(mnp.arange(5)), numpy.arange(5) / 2)


def test_vectorize_edges_and_errors():
    for xp in (numpy, mnp):
        with pytest.raises(ValueError, match="size 0"):
            xp.vectorize(f)(xp.zeros(0))
    same(mnp.vectorize(f, otypes="d")(mnp.zeros((0, 3))), numpy.vectorize(f, otypes="d")(numpy.zeros((0, 3))))

    def bad(v):
        if v == 7:
            raise KeyError("seven")
        return v
    with pytest.raises(KeyError, match="seven"):  # on every rank, wherever element 7 lives
        mnp.vectorize(bad)(mnp.arange(10))
    s = mnp.vectorize(str)(mnp.arange(3))  # str outputs: NumPy's array (test_vectorize_with_object_or_str...)
    assert type(s) is numpy.ndarray and s.tolist() == ["0", "1", "2"]
    for xp in (numpy, mnp):
        with pytest.raises(ValueError, match="not a valid gufunc signature"):
            xp.vectorize(f, signature="(n)->(n")
        with pytest.raises(TypeError, match="wrong number of positional arguments"):
            xp.vectorize(numpy.sum, signature="(n),(n)->()")(xp.ones(3))


def test_vectorize_attributes_as_numpy():
    """otypes may be set after construction (a string of type characters);
    the object carries the function's name."""
    def double(x):
        return 2 * x
    f, g = mnp.vectorize(double), numpy.vectorize(double)
    f.otypes = g.otypes = "i"
    same(f(mnp.arange(5)), g(numpy.arange(5)))
    assert f.__name__ == g.__name__ == "double"
    same(f(mnp.zeros((0, 5), dtype=int)), g(numpy.zeros((0, 5), dtype=int)))


@pytest.mark.parametrize("n", [1, 2, 7])
def test_vectorize_cache_calls_once_per_element(n):
    """cache=True: the call that finds the output types gives the first
    element's value, so the function runs once per element, summed over
    the ranks (every rank makes the first call; rank 0 keeps its value)."""
    from maniple import _core
    calls = [0]

    def sq(x):
        calls[0] += 1
        return x * x
    f = mnp.vectorize(sq)
    f.cache = True
    x = numpy.arange(n) - 2
    same(f(mnp.asarray(x)), x * x)
    total = int(mnp.asarray(numpy.full(_core.size(), calls[0])).sum())  # every rank's calls
    assert total == len(x) + _core.size() - 1, (total, len(x))


def test_vectorize_with_a_signature():
    """Generalized ufuncs: the loop dimensions broadcast, the core ones
    whole (the gathered arguments, NumPy's vectorize on every rank)."""
    a = numpy.arange(60.0).reshape(5, 3, 4)
    v = numpy.arange(4.0) - 1.5
    both(lambda m, x: m @ x, a, v, wrap=(0, 1), signature="(m,n),(n)->(m)")
    both(numpy.mean, a, wrap=(0,), signature="(n)->()")
    both(lambda x: (x.min(), x.max()), a, wrap=(0,), signature="(n)->(),()")
    both(lambda x, k: numpy.convolve(x, k), a[0], numpy.ones(2), wrap=(0,), signature="(n),(k)->(p)")
    both(numpy.sort, a, wrap=(0,), signature="(n)->(n)", otypes=[numpy.float32])


def test_vectorize_errors_that_do_not_pickle():
    """an exception whose class or arguments do not pickle, or whose
    constructor does not take its args, still raises on every rank"""
    import threading

    class Local(Exception):
        def __init__(self, a, b):
            super().__init__(f"{a}/{b}")

    def bad_lock(v):
        if v == 5:
            raise ValueError("locked", threading.Lock())
        return v

    def bad_local(v):
        if v == 5:
            raise Local(1, 2)
        return v
    with pytest.raises((ValueError, RuntimeError)):
        mnp.vectorize(bad_lock)(mnp.arange(9))
    with pytest.raises((Local, RuntimeError)):
        mnp.vectorize(bad_local)(mnp.arange(9))


FOREIGN = [
    ("erf", lambda xp, x: scipy.special.erf(x)),
    ("jv", lambda xp, x: scipy.special.jv(1, x)),  # a scalar with an array
    ("gamma", lambda xp, x: scipy.special.gamma(x + 1)),
    ("ellipj", lambda xp, x: scipy.special.ellipj(x, 0.5)[1]),  # several outputs
    ("broadcast", lambda xp, x: scipy.special.beta(x[:, :1] + 1, x[:1] + 2)),
    ("f32", lambda xp, x: scipy.special.erf(x.astype("float32"))),
    ("int", lambda xp, x: scipy.special.binom(xp.asarray(numpy.arange(10)), 3)),
    ("frompyfunc", lambda xp, x: numpy.frompyfunc(lambda v: v * 2 + 1, 1, 1)(x)),  # object: NumPy's array
]


@pytest.mark.parametrize("name,fn", FOREIGN, ids=[f[0] for f in FOREIGN])
def test_ufuncs_maniple_does_not_define_run_on_each_ranks_elements(name, fn):
    """scipy.special's ufuncs and frompyfunc's on maniple arrays, as on NumPy's."""
    x = data((7, 5), seed=41) + 1.5
    got, want = fn(mnp, mnp.asarray(x)), fn(numpy, x)
    if want.dtype == object:
        assert type(got) is numpy.ndarray
    else:
        assert isinstance(got, mnp.ndarray)
    assert numpy.asarray(got).dtype == want.dtype
    numpy.testing.assert_array_equal(numpy.asarray(got), want)


@pytest.mark.parametrize("call", [lambda xp, x: xp.vectorize(lambda v: str(v)[:3])(x),
                                  lambda xp, x: xp.vectorize(lambda v: v + 1, otypes=[object])(x),
                                  lambda xp, x: xp.vectorize(lambda v: len(v))(xp.array(["a", "bb", "ccc"]))])
def test_vectorize_with_object_or_str_values_is_numpys(call):
    """Outputs or inputs maniple does not hold: NumPy's vectorize, on every
    rank alike (NumPy arrays out where maniple cannot hold them)."""
    x = numpy.arange(5.0)
    got, want = call(mnp, mnp.asarray(x)), call(numpy, x)
    assert type(got) is (numpy.ndarray if want.dtype.kind in "OU" else mnp.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(got), want)
