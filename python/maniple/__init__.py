"""maniple: distributed arrays over MPI with NumPy's semantics.

The NumPy-compatible module (maniple.numpy) is being built on maniple._core,
the extension that wraps the C library.
"""
import atexit
import os
import sys

from . import _core

__all__ = ["init", "rank", "size"]


def init(comm=None):
    """Start maniple on an mpi4py communicator, or MPI_COMM_WORLD (a single
    process when not launched by mpiexec). Later calls do nothing.
    MANIPLE_LIMIT_STDOUT=1 keeps standard output to rank 0, so that a script
    prints once."""
    _core.init(None if comm is None else comm.py2f())
    if os.environ.get("MANIPLE_LIMIT_STDOUT", "0") not in ("", "0") and _core.rank() != 0:
        sys.stdout.flush()
        sys.stdout = open(os.devnull, "w")


def rank():
    init()
    return _core.rank()


def size():
    init()
    return _core.size()


atexit.register(_core.finalize)
