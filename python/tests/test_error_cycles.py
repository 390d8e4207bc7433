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

import maniple.numpy as mnp
import maniple.sparse as msp
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
