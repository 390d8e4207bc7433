"""Deferred evaluation keeps NumPy's eager values when pending results are
shared between consumers (a costly shared value is computed once, a cheap
one recomputed), when a pending value is updated in place after others
used it, and when the storage it reads is written; against NumPy, on every
rank under mpiexec -n 1, 2, 3."""
import numpy
import numpy.testing as nt
import pytest

import maniple.numpy as mnp
from maniple import _core
import maniple.numpy._ndarray as nd


def both(body):
    """body(xp) with NumPy and maniple.numpy; results compared gathered."""
    want, got = body(numpy), body(mnp)
    for w, g in zip(want, got):
        nt.assert_allclose(numpy.asarray(g), w, rtol=1e-14, atol=0)


def data(xp, shape=(7, 9), seed=0):
    rng = numpy.random.default_rng(seed)
    return xp.asarray(rng.random(shape) + 0.5), xp.asarray(rng.random(shape) + 0.5)


def test_shared_costly_value_three_consumers():
    def body(xp):
        a, b = data(xp)
        x = xp.sqrt(a * b) / (a + 1.0)  # costly: computed once when shared
        y = x * 2.0
        z = x + a
        w = xp.maximum(x, 0.9) - b
        return y, z, w, x
    both(body)


def test_costly_shared_value_is_evaluated_once(deferred):
    if nd._GROUP_MIN <= 40 * 50:
        pytest.skip("MANIPLE_GROUP_MIN: these arrays take the large arrays' path (tested below)")
    a, b = data(mnp, (40, 50))
    calls = []
    real = nd._core.eval_tree

    def counting(tree, shape, dtype):
        calls.append(shape)
        return real(tree, shape, dtype)
    nd._core.eval_tree = counting
    try:
        x = mnp.sqrt(a * b) / (a + 1.0)
        ys = [x * 2.0, x + b, x - a]
        for y in ys:
            y._materialize()
        assert len(calls) == 4, f"{len(calls)} evaluations: x once and its three consumers expected"
        # a cheap shared value is recomputed inside each consumer
        calls.clear()
        c = a + b
        zs = [c * 2.0, c - 1.0]
        for z in zs:
            z._materialize()
        assert len(calls) == 2
    finally:
        nd._core.eval_tree = real
    want_x = numpy.sqrt(numpy.asarray(a) * numpy.asarray(b)) / (numpy.asarray(a) + 1.0)
    nt.assert_allclose(numpy.asarray(ys[1]), want_x + numpy.asarray(b), rtol=1e-14)


def test_inplace_on_shared_pending_value():
    def body(xp):
        a, b = data(xp)
        x = xp.exp(a) * b
        y = x * 3.0       # the value before the update
        x += 1.0
        z = x * 3.0       # after
        x *= a
        return y, z, x
    both(body)


def test_write_into_storage_read_by_shared_values():
    def body(xp):
        a, b = data(xp)
        x = xp.sqrt(a) + xp.sqrt(b)
        y = x * 2.0
        a[1:4, :] = 0.0   # y and x keep the old a
        b[...] = -b
        z = x - 1.0
        return y, z, x, a, b
    both(body)


def test_shared_value_assigned_into_its_own_input():
    """center[:] = average with average shared by another consumer: both
    keep the values from before the write."""
    def body(xp):
        g = xp.asarray(numpy.arange(64.0).reshape(8, 8))
        c, n, s = g[1:-1, 1:-1], g[:-2, 1:-1], g[2:, 1:-1]
        avg = xp.sqrt(c + n + s)
        other = avg * 2.0
        c[:] = avg
        return g, other, avg
    both(body)


def test_same_operand_twice_and_chains():
    def body(xp):
        a, b = data(xp, (5, 6), 3)
        x = xp.sqrt(a + b)
        sq = x * x
        chain = x
        for k in range(12):
            chain = chain * 0.5 + x / (k + 1.0)
        return sq, chain
    both(body)


def test_float32_and_int_shared():
    def body(xp):
        a = xp.asarray(numpy.arange(1, 31, dtype=numpy.float32).reshape(5, 6))
        i = xp.asarray(numpy.arange(30, dtype=numpy.int64).reshape(5, 6))
        x = xp.sqrt(a) / a
        u = x + 1.0
        v = x * a
        j = (i * 7) // 3
        k = j % 5 + j
        return u, v, k
    both(body)


# ---- large arrays (nd._GROUP_MIN elements and more): shared values are
# decided when evaluated, and one pass computes every array that shares them

BIG = (190, 230)  # 43700 elements, uneven splits at 2 and 3 ranks


class Passes:
    """Counts fused passes over the data (every evaluation entry point)."""
    def __init__(self):
        self.n = 0

    def __enter__(self):
        self.real = {k: getattr(_core, k) for k in ("eval_tree", "evaluate", "reduce")}
        fake = type("C", (), {k: staticmethod(getattr(_core, k)) for k in dir(_core) if not k.startswith("__")})
        for k, f in self.real.items():
            setattr(fake, k, staticmethod(self.wrap(f)))
        self.mods = [nd, fn]
        self.saved = [m._core for m in self.mods]
        for m in self.mods:
            m._core = fake
        return self

    def wrap(self, f):
        def w(*a):
            self.n += 1
            self.extras = len(a[2]) if len(a) > 2 else 0
            return f(*a)
        return w

    def __exit__(self, *exc):
        for m, c in zip(self.mods, self.saved):
            m._core = c


import maniple.numpy._functions as fn  # noqa: E402


def flux(xp, a, b):
    """Three results sharing costly values (as a flux's Fw, Fn, Ft), and
    the wave-speed bound over them."""
    u = xp.sqrt(a) / (b + 1.0)
    c = xp.sqrt(9.81 * b)
    ap = xp.maximum(u + c, 0.0)
    am = xp.minimum(u - c, 0.0)
    inv = 1.0 / xp.maximum(ap - am, 1e-12)
    f1 = (ap * a - am * b) * inv
    f2 = (ap * a * u - am * b * u) * inv + ap * am * inv * (b - a)
    f3 = (ap * u - am * u) * inv
    return f1, f2, f3, ap, am


def test_large_siblings_share_one_pass():
    a, b = data(mnp, BIG)
    na, nb = numpy.asarray(a), numpy.asarray(b)
    want = flux(numpy, na, nb)
    f1, f2, f3, ap, am = flux(mnp, a, b)
    del ap, am
    with Passes() as p:
        f1._materialize()
    assert p.n == 1, f"{p.n} passes: f1, f2 and f3 share values and should take one"
    assert f2._expr is None and f3._expr is None, "the siblings were not computed with f1"
    for g, w in zip((f1, f2, f3), want):
        nt.assert_allclose(numpy.asarray(g), w, rtol=1e-14)


def test_large_reduction_stores_results_and_held_values_at_their_second_pass():
    a, b = data(mnp, BIG)
    na, nb = numpy.asarray(a), numpy.asarray(b)
    want = flux(numpy, na, nb)
    f1, f2, f3, ap, am = flux(mnp, a, b)
    with Passes() as p:
        s = float(mnp.maximum(ap, -am).max())
    assert p.n == 1 and p.extras == 3, (p.n, p.extras)
    assert all(x._expr is None for x in (f1, f2, f3)), "a result was left pending"
    # ap and am, which the pass read, a function's temporaries may hold:
    # not stored yet (as u, c and inv, which f1-f3 read)
    assert ap._expr is not None and am._expr is not None
    assert s == float(numpy.maximum(want[3], -want[4]).max())
    with Passes() as p:
        r = (f1 + f2 + f3 + ap)._materialize()
    assert p.n == 1 and ap._expr is None, "ap, computed a second time, was not stored"
    with Passes() as p:
        r2 = (ap * 2.0)._materialize()
    assert p.n == 1
    for g, w in zip((f1, f2, f3, ap, am), want):
        nt.assert_allclose(numpy.asarray(g), w, rtol=1e-14)
    nt.assert_allclose(numpy.asarray(mnp.ndarray(r)), want[0] + want[1] + want[2] + want[3], rtol=1e-14)
    nt.assert_allclose(numpy.asarray(mnp.ndarray(r2)), 2.0 * want[3], rtol=1e-14)


def test_large_reduction_over_shifted_views_stores_its_results():
    """swe's wave-speed bound: its operands are views a row apart, which on
    more ranks lie apart, so the pass cannot reduce and store at once; on
    the CPU the bound's value is computed first, in a pass that stores
    f1-f3, then reduced (two passes there, one at 1 rank). A device's pass
    stores none of them there (they read arrays laid out apart)."""
    split = _core.size() > 1 and _core.backend() == "cpu"
    a0, b0 = data(mnp, (BIG[0] + 1, BIG[1]))
    a, b = a0[1:], b0[:-1]
    want = flux(numpy, numpy.asarray(a), numpy.asarray(b))
    f1, f2, f3, ap, am = flux(mnp, a, b)
    with Passes() as p:
        s = float(mnp.maximum(ap, -am).max())
    assert p.n == (2 if split else 1), p.n
    assert all((x._expr is None) == (split or _core.size() == 1) for x in (f1, f2, f3)), "stored or not"
    assert s == float(numpy.maximum(want[3], -want[4]).max())
    for g, w in zip((f1, f2, f3, ap, am), want):
        nt.assert_allclose(numpy.asarray(g), w, rtol=1e-14)


def test_large_held_value_computed_at_most_twice():
    a, b = data(mnp, BIG)
    x = mnp.sqrt(a * b) / (a + 1.0)  # costly and held
    y = x * 2.0
    with Passes() as p:
        y._materialize()
    assert p.n == 1 and x._expr is not None, "x was stored by its first pass"
    with Passes() as p:
        z = (x - b)._materialize()
    assert p.n == 1 and x._expr is None, "x was not stored by its second pass"
    wx = numpy.sqrt(numpy.asarray(a) * numpy.asarray(b)) / (numpy.asarray(a) + 1.0)
    nt.assert_allclose(numpy.asarray(y), 2.0 * wx, rtol=1e-14)
    nt.assert_allclose(numpy.asarray(mnp.ndarray(z)), wx - numpy.asarray(b), rtol=1e-14)
    # a loop over a held value: computed by its first two passes, then read
    x = mnp.sqrt(a * b) / (a + 1.0)
    sums = []
    with Passes() as p:
        for k in range(5):
            sums.append(float((x * float(k)).sum()))
            assert (x._expr is None) == (k >= 1), k
    assert p.n == 5
    nt.assert_allclose(sums, [float((wx * k).sum()) for k in range(5)], rtol=1e-12)


def test_large_assignment_into_view_and_ancestors():
    def body(xp):
        a, b = data(xp, BIG)
        out = xp.zeros((BIG[0] + 2, BIG[1] + 2))
        f1, f2, f3, ap, am = flux(xp, a, b)
        g = f1 * 2.0 + ap           # computed from f1: f1 is a part of it
        out[1:-1, 1:-1] = f2 - am   # a view: its stored values may lie elsewhere
        if xp is mnp:
            f1._materialize()  # f1 is a part of g, still pending
        h = f1
        return out, g, f3, h, ap, am
    both(body)


def test_large_inplace_after_sharing():
    def body(xp):
        a, b = data(xp, BIG)
        x = xp.exp(a) * b
        y = x * 3.0
        x += 1.0
        z = x * 3.0
        b[...] = 0.0  # writes storage the pending values read
        return y, z, x, b
    both(body)


def test_large_stencil_assignment_stores_nothing_else():
    """The seeds' sweep: the value assigned is alive, yet one pass writes
    only the target (no copy of the value on the side)."""
    g = mnp.asarray(numpy.random.default_rng(1).random((BIG[0] + 2, BIG[1] + 2)))
    ng = numpy.asarray(g).copy()
    for xp, grid in ((mnp, g), (numpy, ng)):
        c, n, s, e, w = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1], grid[1:-1, 2:], grid[1:-1, :-2]
        for _ in range(3):
            average = c + n + e + w + s
            average = 0.2 * average
            if xp is mnp:
                with Passes() as p:
                    c[:] = average
                assert p.n == 1 and p.extras == 0, f"{p.n} passes, {p.extras} values stored besides the grid"
            else:
                c[:] = average
    nt.assert_allclose(numpy.asarray(g), ng, rtol=1e-14)


@pytest.mark.parametrize("shape", [(7, 9), (300, 200)])  # small: eager below EAGER_MAX; large: deferred and shared
@pytest.mark.parametrize("write", ["inplace", "slice", "ufunc out", "view"])
def test_consumer_of_a_computed_value_keeps_it_after_a_write(shape, write):
    """y = x + 1 while x is pending reads x's value; x is then computed
    (x[0, 0]) and its storage written: y keeps the value from before the
    write, as in NumPy (y read the new x: the cell's consumers were never
    registered under x's storage)."""
    def body(xp):
        a, b = data(xp, shape)
        x = a * b  # reads no other pending value: computed alone, never with its consumers
        y = x + 1.0
        w = x * xp.ones((2,) + shape)  # another shape
        float(x[0, 0])
        if write == "inplace":
            x += 1.0
        elif write == "slice":
            x[1:3, :] = -5.0
        elif write == "ufunc out":
            xp.multiply(x, 3.0, out=x)
        else:
            x.T[:, 0] = 7.0
        return y, w, x
    both(body)


def test_computed_value_is_copied_for_live_consumers_only():
    """A write into a computed value's storage copies the old values for
    the consumers that still hold its cell, and copies nothing when none
    does."""
    import weakref
    for keep_y in (True, False):
        a, b = data(mnp, (300, 200))
        x = a * b
        y = x + 1.0
        float(x[0, 0])
        cell = weakref.ref(x._cell)
        if not keep_y:
            del y
        x[1:3, :] = -5.0  # into x's storage
        copied = cell().node.array.base != x._arr.base
        assert copied == keep_y, f"consumer alive: {keep_y}, old values copied: {copied}"
        want = numpy.asarray(a) * numpy.asarray(b)
        want[1:3, :] = -5.0
        nt.assert_allclose(numpy.asarray(x), want, rtol=1e-15)
        if keep_y:
            nt.assert_allclose(numpy.asarray(y), numpy.asarray(a) * numpy.asarray(b) + 1.0, rtol=1e-15)
