"""The cycle collector's schedule with more than one rank.

Whether an array is still held decides collective work: a reshape link
(_views) copies into its other side while both are alive, and a write
into a linked array makes every rank copy alike only if every rank holds
the same arrays. Reference counts are the same on every rank (SPMD), but
an array inside a reference cycle lives until Python's cycle collector
runs, and the collector runs when a rank's own count of allocations
passes a threshold: ranks that allocate differently (output on rank 0,
owner-only branches) free the same cycle at different points, and would
then copy on some ranks alone (a hang).

So from the first reshape on, with more than one rank, maniple runs the
collector itself at points every rank passes alike: one full collection
first (every rank frees what it still owes), then the collector's own
thresholds counted in writes and reshapes instead of allocations (a young
collection every 100, a middle one every 1000, a full one every 10000).
No message is sent. The collector is given back at a middle collection
that finds no link alive. A program that turns the collector off itself keeps its own
schedule; one that turns it back on gets a full collection at the next
tick, on every rank alike.
"""
import gc

from maniple import _core

_state = {"many": None, "ours": False, "ticks": 0}

YOUNG, MIDDLE, FULL = 100, 1000, 10000


def _many():
    m = _state["many"]
    if m is None:
        m = _state["many"] = _core.size() > 1
    return m


def _take():
    gc.collect()  # every rank frees its pending cycles here, alike
    gc.disable()
    _state["ours"], _state["ticks"] = True, 0


def before_reshape():
    """Called first in a reshape (before it counts references): from here
    on, what each rank holds is decided alike."""
    if not _many():
        return
    if gc.isenabled():
        _take()
    elif _state["ours"]:
        _tick()


def tick(links_alive):
    """Called at every write: one step of the collector's schedule."""
    if _state["ours"]:
        _tick(links_alive)


def _tick(links_alive=True):
    if gc.isenabled():  # the program turned it back on
        _take()
        return
    t = _state["ticks"] = _state["ticks"] + 1
    if t % YOUNG:
        return
    if t % FULL == 0:
        gc.collect(2)
    elif t % MIDDLE == 0:
        gc.collect(1)
        if not links_alive:  # nothing depends on liveness: give it back
            _state["ours"] = False
            gc.enable()
    else:
        gc.collect(0)
