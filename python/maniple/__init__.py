"""maniple: distributed arrays over MPI with NumPy's semantics.

The NumPy-compatible module (maniple.numpy) is being built on maniple._core,
the extension that wraps the C library.
"""
import atexit

from . import _core

__all__ = ["init", "rank", "size"]


def init(comm=None):
    """Start maniple on an mpi4py communicator, or MPI_COMM_WORLD (a single
    process when not launched by mpiexec). Later calls do nothing."""
    _core.init(None if comm is None else comm.py2f())


def rank():
    init()
    return _core.rank()


def size():
    init()
    return _core.size()


atexit.register(_core.finalize)
