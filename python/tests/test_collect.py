"""Reshape links (maniple.numpy._views) held by a reference cycle, under
mpiexec -n 1, 2, 3. A write into a linked array copies into the other side
(a collective) while that side is alive. Python's cycle collector runs
when a rank's own allocations pass a threshold, so a rank that allocates
more (rank 0 here, as output or owner-only work does) would free the cycle
first and stop copying alone: a hang, or an error under MANIPLE_CHECKS=1.
maniple runs the collector at points every rank passes alike instead
(_collect), with no message: these tests also count the allreduces."""
import gc
import weakref

import numpy
import pytest

import maniple
import maniple.numpy as mnp
from maniple import _core
from maniple.numpy import _collect, _views

N = 400


def churn():
    """Allocations on rank 0 alone: its collector's thresholds pass there only."""
    if maniple.rank() == 0:
        junk = [[] for _ in range(50000)]
        del junk


def cycle(obj):
    """A reference cycle holding obj, unreachable once the caller drops it."""
    c = [obj]
    c.append(c)
    return c


@pytest.fixture
def checked(request):
    was = _core.checks()
    _core.set_checks(request.param)
    gc.enable()
    yield
    _core.set_checks(was)
    gc.collect()


def allreduces():
    return maniple.log_view()["allreduce"]["calls"]


@pytest.mark.parametrize("checked", [False, True], indirect=True)
def test_result_held_by_a_cycle(checked):
    ref = numpy.arange(float(N))
    a = mnp.arange(float(N))
    b = a.reshape(N // 4, 4)
    c = cycle(b)
    del b, c
    churn()
    maniple.log_reset()
    a[0] = 5.0  # copies into b wherever b is alive: on every rank alike
    ref[0] = 5.0
    assert allreduces() == 0
    numpy.testing.assert_array_equal(numpy.asarray(a * 2.0), ref * 2.0)
    gc.collect()  # every rank frees b here
    a[1] = 6.0
    ref[1] = 6.0
    numpy.testing.assert_array_equal(numpy.asarray(a), ref)
    assert a._arr.base not in _views.linked


@pytest.mark.parametrize("checked", [False, True], indirect=True)
def test_source_held_by_a_cycle(checked):
    ref = numpy.arange(float(N)).reshape(N // 4, 4)
    a = mnp.arange(float(N))
    b = a.reshape(N // 4, 4)
    c = cycle(a)
    del a, c
    churn()
    maniple.log_reset()
    b[0, 0] = 5.0
    ref[0, 0] = 5.0
    assert allreduces() == 0
    numpy.testing.assert_array_equal(numpy.asarray(b), ref)
    numpy.testing.assert_array_equal(numpy.asarray(b.sum(axis=0)), ref.sum(axis=0))


@pytest.mark.parametrize("checked", [False, True], indirect=True)
def test_temporary_held_by_a_cycle(checked):
    """A reshape of a temporary makes no link; one whose storage a cycle
    also holds is no temporary until the cycle is freed: the ranks agree."""
    ref = numpy.arange(float(N)).reshape(N // 4, 4)
    mnp.arange(4.0).reshape(2, 2)  # the schedule is maniple's from here on

    def make():
        t = mnp.arange(float(N)) + 0.0
        t._materialize()
        cycle(t._arr)
        churn()
        return t

    r = make().reshape(N // 4, 4)
    r[0, 0] = 5.0
    ref[0, 0] = 5.0
    numpy.testing.assert_array_equal(numpy.asarray(r), ref)
    numpy.testing.assert_array_equal(numpy.asarray(r.sum(axis=0)), ref.sum(axis=0))


def test_schedule_frees_cycles_and_gives_the_collector_back():
    """With more than one rank the collector is maniple's from the first
    reshape: cycles are freed within a middle period of writes, and the
    collector is given back once no link is alive. One rank keeps Python's."""
    gc.enable()
    a = mnp.arange(float(N))
    b = a.reshape(N // 4, 4)

    class Box:
        pass

    box = Box()
    box.me = box
    gone = weakref.ref(box)
    del box
    assert gc.isenabled() == (maniple.size() == 1)
    del b
    for i in range(2 * _collect.MIDDLE):
        a[0] = float(i)
    if maniple.size() > 1:  # one rank: Python's thresholds, in allocations
        assert gone() is None
    assert gc.isenabled()
    assert not _views.linked
    numpy.testing.assert_array_equal(numpy.asarray(a)[:2], [2.0 * _collect.MIDDLE - 1, 1.0])


def test_a_program_that_turns_the_collector_back_on():
    """gc.enable() in the program: the next write collects in full on every
    rank alike and takes the schedule back; values stay NumPy's."""
    ref = numpy.arange(float(N))
    a = mnp.arange(float(N))
    b = a.reshape(N // 4, 4)
    gc.enable()
    c = cycle(b)
    del b, c
    churn()
    a[2] = 7.0
    ref[2] = 7.0
    assert gc.isenabled() == (maniple.size() == 1)
    numpy.testing.assert_array_equal(numpy.asarray(a), ref)
    gc.enable()
