"""MANIPLE_CHECKS: rank-divergent global arguments raise on every rank,
naming the call and the argument (the SPMD contract, docs/python.md).
Without the check these calls abort in MPI, give wrong values or hang; at
one rank there is nothing to compare."""
import contextlib

import numpy
import pytest

import maniple
import maniple.numpy as np
from maniple import _core

R, LAST = maniple.rank(), maniple.size() - 1


@contextlib.contextmanager
def checks():
    was = _core.checks()
    _core.set_checks(True)
    try:
        yield
    finally:
        _core.set_checks(was)


def divergent(msg):
    """pytest.raises on every rank at size > 1; nothing at one rank"""
    if maniple.size() == 1:
        return contextlib.nullcontext()
    return pytest.raises(ValueError, match=msg)


def test_shape_per_rank_is_named():
    with checks():
        with divergent(r"MANIPLE_CHECKS: mn_array_create: argument 'shape' differs between ranks: "
                       rf"rank 0 passes \(1000,\), rank {LAST} passes \(1007,\)"):
            np.zeros(1000 + 7 * (R == LAST))


def test_equal_arguments_compute_as_numpy():
    with checks():
        a = np.arange(1000.0)
        b = (a[2:] + a[:-2]) * 0.5
        numpy.testing.assert_array_equal(numpy.asarray(b), (numpy.arange(998.0) + 1.0))
        assert float(a @ a) == float(numpy.arange(1000.0) @ numpy.arange(1000.0))


def test_index_scalar_and_file_per_rank():
    a = np.arange(30.0)
    with checks():
        with divergent("mn_array_index: argument 'index' differs"):
            a[3 if R == LAST else 2:]
        with divergent("argument 'value' differs"):
            a.fill(2.0 if R == LAST else 1.0)
        if maniple.size() > 1:  # found before the file is looked for
            with divergent("mn_array_load_npy: argument 'path' differs"):
                np.load(f"no_such_file_{int(R == LAST)}.npy")
    if maniple.size() > 1:  # the refused fill changed nothing
        numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(30.0))


def test_different_calls_are_named():
    a = np.arange(10.0)
    with checks():
        with divergent("the ranks make different calls"):
            if R == LAST:
                np.zeros(3)
            else:
                float(a.sum())


def test_python_level_collective():
    with checks():
        _core.check_args("frontend.call", {"what": "x"})
        with divergent("frontend.call: argument 'what' differs"):
            _core.check_args("frontend.call", {"what": "y" if R == LAST else "x"})
