"""Arrays on a device backend: the steady state of a time loop copies no
array between host and device (the log's "h2d" and "d2h"), and the values
equal NumPy's. make test runs this file on the CPU backend, where nothing
is ever copied, and under MANIPLE_BACKEND=emulated, where new arrays live in
device memory. The loops below run on the device (the idiom's write through
a view it reads shifted goes through a device temporary); at more ranks the
shifted views' messages are packed and unpacked on the device and staged
through host buffers for MPI, so those bytes alone are copied."""
import os

import numpy
import pytest

import maniple
import maniple.numpy as np


def copies():
    d = maniple.log_view()
    return {k: (d[k]["calls"], d[k]["mem_bytes"]) for k in ("h2d", "d2h")}


NONE = {"h2d": (0, 0), "d2h": (0, 0)}
# MPI takes device buffers (a CUDA-aware MPI, or the emulated one): no staging
MPI_DEVICE = os.environ.get("MANIPLE_MPI_DEVICE") == "1"


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
    m = 6
    sweeps(np, grid, m)
    sweeps(numpy, ref, m)
    got = copies()
    if maniple.size() == 1 or maniple.backend() == "cpu" or MPI_DEVICE:
        assert got == NONE
    else:  # the messages alone, staged: north's and south's rows from the
        # neighbours, on every rank (the log sums the ranks)
        row = n * 8
        assert got["h2d"][1] == got["d2h"][1], got
        assert 0 < got["h2d"][1] <= m * 2 * row * maniple.size(), got
    maniple.log_reset()
    # a scalar asked for copies that element alone
    v = float(grid[1, 1])
    got = copies()
    assert got["h2d"] == (0, 0) and got["d2h"][1] <= 8, got
    assert v == ref[1, 1]
    assert numpy.allclose(numpy.asarray(grid), ref, rtol=1e-15, atol=0)


def test_cg_iteration(logging_on):
    """The seeds' CG loop on a matrix-free 1-d Laplacian: the steady state
    brings back the two dot products' values alone (a few bytes each, on a
    device backend), and the iterates equal NumPy's to rounding."""
    def lap(p):
        ap = 2.0 * p
        ap[1:] -= p[:-1]
        ap[:-1] -= p[1:]
        return ap

    def cg(xp, b, m):
        x = xp.zeros_like(b)
        r = b - lap(x)
        p = r.copy()
        rsold = r.dot(r)
        for _ in range(m):
            ap = lap(p)
            alpha = rsold / p.dot(ap)
            x = x + alpha * p
            r = r - alpha * ap
            rsnew = r.dot(r)
            p = r + (rsnew / rsold) * p
            rsold = rsnew
        return x, float(rsold)

    n = 500
    b, br = np.ones(n), numpy.ones(n)
    cg(np, b, 2)  # warm-up: plans, kernels
    maniple.log_reset()
    m = 12
    x, rs = cg(np, b, m)
    xr, rsr = cg(numpy, br, m)
    got = copies()
    P = maniple.size()
    if maniple.backend() == "cpu":
        assert got == NONE
    elif P == 1 or MPI_DEVICE:  # the dot products' accumulators alone (bytes summed over the ranks)
        assert got["h2d"] == (0, 0), got
        calls, nbytes = got["d2h"]
        assert calls <= 2 * m + 1 and nbytes <= 32 * calls * P, got
    else:  # and the one-element messages of the shifted views, staged (summed over the ranks)
        assert got["h2d"][1] <= m * 2 * 8 * P, got
        assert got["d2h"][1] <= ((2 * m + 1) * 32 + m * 2 * 8) * P, got
    assert numpy.allclose(numpy.asarray(x), xr, rtol=1e-10, atol=1e-12)
    assert abs(rs - rsr) <= 1e-8 * rsr


def test_random_dot(logging_on):
    """The seeds' dot product of random vectors: made on the device, and
    only the value comes back; equal to NumPy's over the same values."""
    n = 4000
    maniple.log_reset()
    np.random.seed(7)
    a, b = np.random.rand(n), np.random.rand(n)
    x = np.arange(n, dtype=np.float64) * 0.5
    d = np.dot(a, b) + float(np.dot(x, a))
    got = copies()
    P = maniple.size()
    if maniple.backend() == "cpu":
        assert got == NONE
    else:  # two accumulators per rank, nothing else
        assert got["h2d"] == (0, 0) and got["d2h"][0] <= 2 and got["d2h"][1] <= 2 * 32 * P, got
    ar, br, xr = numpy.asarray(a), numpy.asarray(b), numpy.asarray(x)
    assert abs(d - (ar.dot(br) + xr.dot(ar))) <= 1e-12 * abs(d)
