"""A caught error leaves no reference cycle through maniple's frames, on
every rank under mpiexec -n 1, 2, 3. A cycle would keep the arrays of the
frames the error passed through alive until a garbage collection, which
comes at a different moment on each rank; a pending array alive on some
ranks only is stored by a shared pass there and not elsewhere, and the
ranks' calls part (the divergence MANIPLE_CHECKS=1 reported at stop 33).
The garbage collector is off in these tests, so only reference counts
free anything: what survives was held by a cycle."""
import gc
import weakref

import numpy
import pytest

import maniple
import maniple.numpy as mnp
import maniple.sparse as msp
from maniple import _core
from maniple.numpy import _engine


def missing_text():
    mnp.loadtxt("/nonexistent-dir/maniple-missing.txt")


def singular_gathered():
    mnp.linalg.inv(mnp.zeros((3, 3)))  # NumPy raises on the root; the others raise its copy


def nonsquare_gathered():
    mnp.linalg.inv(mnp.ones((2, 3)))


def missing_npz():
    msp.load_npz("/nonexistent-dir/maniple-missing.npz")


@pytest.mark.parametrize("fail", [missing_text, singular_gathered, nonsquare_gathered, missing_npz])
def test_a_caught_error_frees_the_frames_arrays(fail):
    t = mnp.arange(float(_engine.GROUP_MIN)) * 2.0  # pending and large: a shared pass's candidate
    refs = []

    def work():
        b = t + 1.0  # shares t's value with what comes next
        refs.append(weakref.ref(b))
        fail()

    gc.collect()
    gc.disable()
    try:
        try:
            work()
        except Exception:
            pass
        else:
            raise AssertionError(f"{fail.__name__} raised nothing")
        assert refs[0]() is None, "the frame's pending array outlived the caught error"
        c = t - 1.0  # a pass that would store b with it, had b survived on some ranks
        assert float(c.sum()) == float(numpy.sum(numpy.arange(float(_engine.GROUP_MIN)) * 2.0 - 1.0))
    finally:
        gc.enable()


@pytest.mark.parametrize("checks", [False, True])
@pytest.mark.parametrize("reads", ["whole arrays", "shifted views"])
def test_a_value_alive_on_one_rank_only(reads, checks):
    """A pending array b that one rank still holds (as a cycle that rank
    has not collected yet would) and the others dropped: a pass that shares
    a value with it may store it there and not elsewhere. The ranks must
    still send the same messages and compute the same answer, and
    MANIPLE_CHECKS must see the same calls. With whole arrays, z reads b's
    value afterwards beside a misaligned view (its program must stay the
    same on every rank); with shifted views, b reads a misaligned array of
    its own (storing it would add messages on one rank)."""
    n = 2 * _engine.GROUP_MIN
    u = mnp.arange(float(n + 2))
    ref_u = numpy.arange(float(n + 2))
    v = mnp.arange(float(n + 3))[1:]  # a view: its elements sit one place off u's
    ref_v = numpy.arange(float(n + 3))[1:]
    z = None
    if reads == "whole arrays":
        t, ref_t = u * 2.0 + mnp.ones(n + 2), ref_u * 2.0 + 1.0
        b = t + 1.0  # pending, sharing t's value
        z, ref_z = b * 2.0 + v, (ref_t + 1.0) * 2.0 + ref_v
    else:  # each rank reads its neighbour's elements
        t, ref_t = u[2:] - u[:-2] * 0.5, ref_u[2:] - ref_u[:-2] * 0.5
        far = mnp.arange(float(n + 8))[6:]  # rank 0 would need rank 1's elements of it
        b = t + far[:n]
    held = [b] if maniple.rank() == 0 else []
    del b
    was = _core.checks()
    _core.set_checks(checks)
    try:
        c = t * 3.0 - 1.0
        assert float(c.sum()) == pytest.approx(float((ref_t * 3.0 - 1.0).sum()), rel=1e-13)
        d = t - 2.0
        d[...] = d * 0.5  # an assignment's pass
        numpy.testing.assert_allclose(numpy.asarray(d), (ref_t - 2.0) * 0.5, rtol=1e-15)
        e = t * t  # a materialised pass
        numpy.testing.assert_allclose(numpy.asarray(e), ref_t * ref_t, rtol=1e-15)
        if z is not None:
            w = z[1:] * t[:-1] + z[:-1]
            numpy.testing.assert_allclose(numpy.asarray(w), ref_z[1:] * ref_t[:-1] + ref_z[:-1], rtol=1e-15)
    finally:
        _core.set_checks(was)
    held.clear()


@pytest.mark.parametrize("checks", [False, True])
@pytest.mark.parametrize("reads", ["whole arrays", "shifted views", "a shared value"])
def test_a_reader_alive_on_one_rank_only_at_a_write(reads, checks):
    """A pending array b reading u, held by one rank alone (as a cycle that
    rank has not collected yet would), when u is written: evaluating b
    there first would move its messages (or make its calls) on that rank
    alone, a hang or a MANIPLE_CHECKS error. Every reader alive everywhere
    keeps u's old values, and the ranks go on alike. (b itself is never
    read: any read of it would be a call of one rank alone.)"""
    n = 2 * _engine.GROUP_MIN + 5
    u = mnp.arange(float(n + 2))
    ref_u = numpy.arange(float(n + 2))
    if reads == "whole arrays":
        b = u * 2.0 + 1.0
    elif reads == "shifted views":  # each rank reads its neighbours' elements
        b = u[2:] - u[:-2] * 0.5
    else:
        s = u[1:] * u[:-1]
        b = s + 1.0
        keep, ref_keep = s * 3.0, ref_u[1:] * ref_u[:-1] * 3.0  # alive everywhere: shares s's cell with b
    live = mnp.sqrt(u[1:]) + u[:-1]  # alive everywhere: keeps the old values on every rank
    ref_live = numpy.sqrt(ref_u[1:]) + ref_u[:-1]
    held = [b] if maniple.rank() == 0 else []
    del b
    was = _core.checks()
    _core.set_checks(checks)
    try:
        u[1:-1] = u[2:] + u[:-2]  # a write with its own messages
        ref_u[1:-1] = ref_u[2:] + ref_u[:-2]
        u *= 0.5
        ref_u *= 0.5
        numpy.testing.assert_allclose(numpy.asarray(u), ref_u, rtol=1e-15)
        numpy.testing.assert_allclose(numpy.asarray(live), ref_live, rtol=1e-15)
        if reads == "a shared value":
            numpy.testing.assert_allclose(numpy.asarray(keep), ref_keep, rtol=1e-15)
        w = u[1:] - u[:-1] * 2.0
        assert float(w.sum()) == pytest.approx(float((ref_u[1:] - ref_u[:-1] * 2.0).sum()), rel=1e-13)
    finally:
        _core.set_checks(was)
    held.clear()


@pytest.mark.parametrize("checks", [False, True])
@pytest.mark.parametrize("reads", ["whole arrays", "shifted views"])
def test_no_value_stored_through_an_array_alive_on_one_rank(reads, checks):
    """z, alive on rank 0 alone, shares s with the root r and holds w: a
    pass for r that followed z's values would store w (alive everywhere)
    on rank 0 alone, and later work on w would part the ranks (w += 1 a
    pass on one rank and a new expression on the other; with shifted
    views, w's messages on one rank alone)."""
    n = 2 * _engine.GROUP_MIN + 5
    u = mnp.arange(1.0, n + 2.0)
    ref = numpy.arange(1.0, n + 2.0)
    if reads == "whole arrays":
        s, ref_s = u * u + 1.0, ref * ref + 1.0
        w, ref_w = mnp.sqrt(u), numpy.sqrt(ref)
    else:
        s, ref_s = u[1:] * u[:-1] + 1.0, ref[1:] * ref[:-1] + 1.0
        w, ref_w = mnp.sqrt(u[:-1]) + u[1:], numpy.sqrt(ref[:-1]) + ref[1:]
    z = s * w
    held = [z] if maniple.rank() == 0 else []
    del z
    was = _core.checks()
    _core.set_checks(checks)
    try:
        r = s + 2.0
        assert float(r.sum()) == pytest.approx(float((ref_s + 2.0).sum()), rel=1e-13)
        w += 1.0
        v = w[1:] * 2.0 + w[:-1]
        ref_w = ref_w + 1.0
        numpy.testing.assert_allclose(numpy.asarray(v), ref_w[1:] * 2.0 + ref_w[:-1], rtol=1e-14)
    finally:
        _core.set_checks(was)
    held.clear()
