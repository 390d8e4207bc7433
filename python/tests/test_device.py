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

# bytes of a reduction accumulator brought back from the device (mn_acc: a
# value, a complex value's imaginary part, an integer, an index, a count)
ACC = 40


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


def _cg(xp, apply, b, m):
    """The seeds' CG loop, m iterations of x with apply(p) = A p; returns
    x and the last r.r."""
    x = xp.zeros_like(b)
    r = b - apply(x)
    p = r.copy()
    rsold = r.dot(r)
    for _ in range(m):
        ap = apply(p)
        alpha = rsold / p.dot(ap)
        x = x + alpha * p
        r = r - alpha * ap
        rsnew = r.dot(r)
        p = r + (rsnew / rsold) * p
        rsold = rsnew
    return x, float(rsold)


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
        return _cg(xp, lap, b, m)

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
        assert calls <= 2 * m + 1 and nbytes <= ACC * calls * P, got
    else:  # and the one-element messages of the shifted views, staged (summed over the ranks)
        assert got["h2d"][1] <= m * 2 * 8 * P, got
        assert got["d2h"][1] <= ((2 * m + 1) * ACC + m * 2 * 8) * P, got
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
        assert got["h2d"] == (0, 0) and got["d2h"][0] <= 2 and got["d2h"][1] <= 2 * ACC * P, got
    ar, br, xr = numpy.asarray(a), numpy.asarray(b), numpy.asarray(x)
    assert abs(d - (ar.dot(br) + xr.dot(ar))) <= 1e-12 * abs(d)


def _laplacian(sp, n):
    return sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(n, n), format="csr")


def test_sparse_cg_loop(logging_on):
    """The seeds' CG loop with a maniple.sparse matrix (A @ p): the product
    runs on the device, so the steady state brings back the dot products'
    values and, without a CUDA-aware MPI, stages the product's ghost
    entries (one per neighbour), and copies nothing else."""
    import maniple.sparse as sp
    import scipy.sparse as ssp

    def cg(xp, A, b, m):
        return _cg(xp, lambda p: A @ p, b, m)

    n = 600
    A, Ar = _laplacian(sp, n), _laplacian(ssp, n)
    b, br = np.ones(n), numpy.ones(n)
    cg(np, A, b, 2)  # warm-up: the matrix moves to the device once
    maniple.log_reset()
    m = 10
    x, rs = cg(np, A, b, m)
    xr, rsr = cg(numpy, Ar, br, m)
    got = copies()
    P = maniple.size()
    if maniple.backend() == "cpu":
        assert got == NONE
    else:
        staged = 0 if P == 1 or MPI_DEVICE else 2 * 8 * P  # at most two ghosts a rank, per product
        assert got["h2d"][1] <= (m + 1) * staged, got
        assert got["d2h"][1] <= ((2 * m + 1) * ACC) * P + (m + 1) * staged, got
    assert numpy.allclose(numpy.asarray(x), xr, rtol=1e-10, atol=1e-12)
    assert abs(rs - rsr) <= 1e-8 * rsr


def test_sparse_linalg_cg(logging_on):
    """maniple.sparse.linalg.cg runs the C solver, whose vectors live on the
    device: 2 copies of sums per iteration, with the staged ghosts; the
    answer is SciPy's."""
    import maniple.sparse as sp
    import maniple.sparse.linalg as sla
    import scipy.sparse as ssp
    import scipy.sparse.linalg as ssla

    n = 300
    A, Ar = _laplacian(sp, n), _laplacian(ssp, n)
    b, br = np.ones(n), numpy.ones(n)
    sla.cg(A, b, rtol=1e-12)  # warm-up
    counts = []
    for its in (5, 15):
        maniple.log_reset()
        sla.cg(A, b, rtol=1e-30, maxiter=its)
        counts.append(copies())
    per = {k: ((counts[1][k][0] - counts[0][k][0]) / 10, (counts[1][k][1] - counts[0][k][1]) / 10)
           for k in ("h2d", "d2h")}
    P = maniple.size()
    if maniple.backend() == "cpu":
        assert per == {"h2d": (0, 0), "d2h": (0, 0)}
    elif P == 1 or MPI_DEVICE:  # p.Ap (8 bytes) and r.r with the update (16), on every rank
        assert per == {"h2d": (0, 0), "d2h": (2 * P, 24 * P)}, per
    else:
        assert per["d2h"][0] <= 3 * P and per["h2d"][0] <= P, per
    x, info = sla.cg(A, b, rtol=1e-12)
    xr, infor = ssla.cg(Ar, br, rtol=1e-12)
    assert info == 0 and infor == 0
    assert numpy.allclose(numpy.asarray(x), xr, rtol=1e-8, atol=1e-10)


def test_reshape_loop(logging_on):
    """A loop that goes between a 1-d vector and a 2-d grid (the seeds'
    matrix-free operators do): the flat moves are kept by the context, so
    after the first pass no collective runs, and on a device they move the
    values there (messages staged at more ranks, nothing else)."""
    m, n = 30, 40
    v, vr = np.arange(m * n) * 0.5, numpy.arange(m * n) * 0.5

    def step(xp, v):
        g = xp.zeros((m + 2, n + 2))
        g[1:-1, 1:-1] = v.reshape((m, n))
        y = 4 * g[1:-1, 1:-1] - g[0:-2, 1:-1] - g[2:, 1:-1]
        return y.reshape(m * n)

    step(np, v)._materialize()  # warm-up: the moves are planned
    maniple.log_reset()
    for _ in range(3):
        v = step(np, v)
        vr = step(numpy, vr)
    v._materialize()
    d = maniple.log_view()
    assert d["allreduce"]["calls"] == 0 and all(d[k]["allreduces"] == 0 for k in d), d["allreduce"]
    got = copies()
    if maniple.size() == 1 or maniple.backend() == "cpu" or MPI_DEVICE:
        assert got == NONE, got
    else:
        assert got["h2d"][1] == got["d2h"][1] and got["h2d"][0] > 0, got
    assert numpy.array_equal(numpy.asarray(v), vr)


def test_shared_values(logging_on):
    """Values that several live arrays share (the engine stores them as
    extra outputs of one pass, as swe's fluxes do): on a device each extra
    is evaluated there apart, so a step copies nothing; the values equal
    NumPy's."""
    n = 200 * 200  # above GROUP_MIN: the shared evaluation
    assert n >= np._engine.GROUP_MIN if hasattr(np, "_engine") else True

    def step(xp, a, b):
        h = xp.maximum(a - b, 0.0)
        u = xp.sqrt(9.81 * h)
        p = h * u + 0.5 * u * u
        q = h * u - 0.25 * u
        return p, q, float((p * q).sum())

    a0 = numpy.linspace(0.0, 2.0, n).reshape(200, 200)
    b0 = numpy.full((200, 200), 0.5)
    a, b = np.asarray(a0), np.asarray(b0)
    step(np, a, b)  # warm-up
    maniple.log_reset()
    p, q, s = step(np, a, b)
    p._materialize()
    q._materialize()
    got = copies()
    pr, qr, sr = step(numpy, a0, b0)
    if maniple.backend() == "cpu":
        assert got == NONE
    else:  # the sum's accumulator, one per rank
        assert got["h2d"] == (0, 0) and got["d2h"][0] <= 1 and got["d2h"][1] <= ACC * maniple.size(), got
    assert numpy.allclose(numpy.asarray(p), pr, rtol=1e-14) and numpy.allclose(numpy.asarray(q), qr, rtol=1e-14)
    assert abs(s - sr) <= 1e-12 * abs(sr)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "bool"])
def test_axis_reductions(logging_on, dtype):
    """Reductions along an axis run where the array is: along the axis the
    ranks do not split (1), each rank's rows stay on the device and no
    value is copied; along the split axis (0) at more ranks, only the
    partials (32 bytes a cell of each rank's projection) come back to the
    host to be merged. Equal to NumPy's."""
    m, n = 37, 29
    ref = (numpy.arange(m * n).reshape(m, n) * 7919 % 7 - 3).astype(dtype)
    x = np.asarray(ref)
    x._materialize()
    P = maniple.size()
    ops = ("sum", "max", "argmin", "prod") if dtype != "bool" else ("sum", "any", "all", "argmax")
    for axis, cells in ((1, m), (0, n)):
        for op in ops:
            maniple.log_reset()
            r = getattr(x, op)(axis=axis)
            r._materialize()
            got = copies()
            if maniple.backend() == "cpu" or axis == 1 or P == 1:
                assert got == NONE, (op, axis, got)
            else:
                assert got["h2d"] == (0, 0) and got["d2h"][0] <= 1 and got["d2h"][1] <= ACC * cells * P, (op, axis, got)
            want = getattr(ref, op)(axis=axis)
            assert r.dtype == want.dtype, (op, axis)
            # float sums and products differ from NumPy's by order alone
            tol = {"float32": 1e-6, "float64": 1e-14}.get(dtype, 0)
            assert numpy.allclose(numpy.asarray(r), want, rtol=tol, atol=0), (op, axis)
