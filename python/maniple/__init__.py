"""maniple: distributed arrays over MPI with NumPy's semantics.

maniple.numpy and maniple.sparse are drop-in modules for NumPy and
scipy.sparse code, built on maniple._core, the extension that wraps the C
library.
"""
import atexit
import os
import sys

from . import _blas_env

with _blas_env.chosen():  # (OpenBLAS reads it once, as the extension loads it)
    from . import _core

__all__ = ["init", "rank", "size", "sync", "log_enable", "log_reset", "log_view", "log_print"]


def init(comm=None):
    """Start maniple on an mpi4py communicator, or MPI_COMM_WORLD (a single
    process when not launched by mpiexec). Later calls do nothing.
    MANIPLE_LIMIT_STDOUT=1 keeps standard output to rank 0, so that a script
    prints once."""
    global _started
    if _started:  # (every array creation calls this: a flag, not the environment, each time)
        return
    _core.init(None if comm is None else comm.py2f())
    _started = True
    if os.environ.get("MANIPLE_LIMIT_STDOUT", "0") not in ("", "0") and _core.rank() != 0:
        sys.stdout.flush()
        sys.stdout = open(os.devnull, "w")


_started = False


def rank():
    init()
    return _core.rank()


def size():
    init()
    return _core.size()


def backend():
    """Where new arrays live: "cpu" (host memory), "cuda" (a GPU's memory)
    or "emulated" (the emulated device of the tests); MANIPLE_BACKEND picks
    it."""
    init()
    return _core.backend()


def sync():
    """Raise, on every rank, an error that some rank met where the ranks did
    not communicate (an allocation in a repeated statement); such an error
    is otherwise raised at the next reduction or agreement. Collective: one
    allreduce (none at one rank). See docs/design.md, "Errors"."""
    init()
    _core.sync()


def log_enable(on=True):
    """Start (collective) or stop maniple's profiling log (docs/profiling.md).
    MANIPLE_LOG_VIEW=1 starts it at init and prints the table at exit."""
    init()
    _core.log_enable(on)


def log_reset():
    """Zero the profiling log's counters (this rank)."""
    init()
    _core.log_reset()


def log_view():
    """The profiling log over all ranks (collective): {kind: {"calls",
    "time" (mean over ranks, seconds, inclusive), "time_max", "imbalance"
    (time_max / time), "mem_bytes", "messages", "msg_bytes" (sums over
    ranks), "allreduces"}} for every kind, zeros when logging is off.
    Pending maniple.numpy expressions are not evaluated by this call."""
    init()
    return _core.log_view()


def log_print():
    """Print the profiling table on rank 0 (collective)."""
    init()
    sys.stdout.flush()
    _core.log_print()


# An uncaught exception may have stopped some ranks only: the summary at
# exit, a collective, is then skipped rather than risked.
_uncaught = False
_excepthook = sys.excepthook


def _note_uncaught(*args):
    global _uncaught
    _uncaught = True
    _excepthook(*args)


sys.excepthook = _note_uncaught


def _finalize():
    try:
        sys.stdout.flush()  # the table (C stdio) after what the script printed
    except Exception:
        pass
    _core.finalize(_uncaught)


atexit.register(_finalize)
