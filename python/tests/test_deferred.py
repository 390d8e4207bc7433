"""Deferred evaluation keeps NumPy's eager values when pending results are
shared between consumers (a costly shared value is computed once, a cheap
one recomputed), when a pending value is updated in place after others
used it, and when the storage it reads is written; against NumPy, on every
rank under mpiexec -n 1, 2, 3."""
import numpy
import numpy.testing as nt

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


def test_costly_shared_value_is_evaluated_once():
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
