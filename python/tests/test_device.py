"""Arrays on a device backend: the steady state of a time loop copies no
array between host and device (the log's "h2d" and "d2h"), and the values
equal NumPy's. make test runs this file on the CPU backend, where nothing
is ever copied, and under MANIPLE_BACKEND=emulated, where new arrays live in
device memory. At one rank the loops below run on the device (the idiom's
write through a view it reads shifted goes through a device temporary); at
more ranks the shifted views need messages, which run on the host for now
(docs/design.md, "Backends and memory spaces"), and the values stay there."""
import numpy
import pytest

import maniple
import maniple.numpy as np


def copies():
    d = maniple.log_view()
    return {k: (d[k]["calls"], d[k]["mem_bytes"]) for k in ("h2d", "d2h")}


NONE = {"h2d": (0, 0), "d2h": (0, 0)}


def test_update_loop(logging_on):
    n = 3000
    x, y = np.zeros(n), np.ones(n)
    xr, yr = numpy.zeros(n), numpy.ones(n)
    for k in range(2):  # warm-up: plans, pools
        x[:] = x + 0.5 * y
        xr[:] = xr + 0.5 * yr
    x._materialize()
    maniple.log_reset()
    for k in range(5):
        x[:] = x + 0.25 * k * y
        xr[:] = xr + 0.25 * k * yr
        x._materialize()
    assert copies() == NONE
    assert numpy.array_equal(numpy.asarray(x), xr)


def test_stencil_idiom(logging_on):
    """The seeds' idiom: temporaries, a scaling and a write through a view."""
    def sweeps(xp, grid, m):
        center, north, south = grid[1:-1, 1:-1], grid[0:-2, 1:-1], grid[2:, 1:-1]
        east, west = grid[1:-1, 2:], grid[1:-1, 0:-2]
        for _ in range(m):
            average = center + north + east + west + south
            average = 0.2 * average
            center[:] = average
            if xp is np:
                grid._materialize()

    n = 40
    grid, ref = np.zeros((n + 2, n + 2)), numpy.zeros((n + 2, n + 2))
    grid[0, :] = 1.0
    ref[0, :] = 1.0
    sweeps(np, grid, 2)  # warm-up
    sweeps(numpy, ref, 2)
    maniple.log_reset()
    sweeps(np, grid, 6)
    sweeps(numpy, ref, 6)
    assert copies() == NONE
    # a scalar asked for copies that element alone
    v = float(grid[1, 1])
    got = copies()
    assert got["h2d"] == (0, 0) and got["d2h"][1] <= 8, got
    assert v == ref[1, 1]
    assert numpy.allclose(numpy.asarray(grid), ref, rtol=1e-15, atol=0)
