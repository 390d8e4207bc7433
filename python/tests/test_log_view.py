"""maniple's profiling log from Python: maniple.log_view() counts of a known
sequence of maniple.numpy operations (calls, bytes and messages computed
here from the sizes), and MANIPLE_LOG_VIEW=1 printing the table at exit
(a script run as a singleton)."""
import os
import re
import subprocess
import sys

import numpy
import pytest

import maniple
import maniple.numpy as mnp

KINDS = ("eval", "reduce", "allreduce", "plan_begin", "plan_end", "halo", "stencil", "spmv",
         "solve", "sv_setup", "sv_op", "sv_pc", "sv_dot", "sv_update", "bcast", "h2d", "d2h")
FIELDS = {"calls", "time", "time_max", "imbalance", "mem_bytes", "messages", "msg_bytes", "allreduces"}


def sane(d):
    assert set(d) == set(KINDS)
    for kind, row in d.items():
        assert set(row) == FIELDS, kind
        assert row["time"] >= 0 and row["time_max"] >= row["time"] * (1 - 1e-12), (kind, row)
        assert row["imbalance"] >= 1 - 1e-12, (kind, row)
        assert min(row["calls"], row["mem_bytes"], row["messages"], row["msg_bytes"], row["allreduces"]) >= 0


def kernel_bytes(d, kind):
    """A kind's bytes without the copies between host and device made
    inside it (inclusive counts; none on the cpu backend)."""
    return d[kind]["mem_bytes"] - d["h2d"]["mem_bytes"] - d["d2h"]["mem_bytes"]


def test_counts_of_known_operations(logging_on, deferred):
    n, P = 1000, maniple.size()
    x, y, out = mnp.ones(n), mnp.arange(n, dtype=float), mnp.empty(n)
    numpy.asarray(x), numpy.asarray(y)  # x and y computed before the count starts
    maniple.log_reset()
    for k in range(4):  # one fused evaluation each: x and y read, out written
        out[:] = x + k * y
    d = maniple.log_view()
    sane(d)
    assert d["eval"]["calls"] == 4 and kernel_bytes(d, "eval") == 4 * 3 * 8 * n
    assert d["reduce"]["calls"] == 0 and d["eval"]["messages"] == 0  # aligned: nothing moves
    sums = [float((x * y).sum()) for _ in range(3)]  # one reduction each, x and y read
    d = maniple.log_view()
    assert sums == [float(numpy.arange(n, dtype=float).sum())] * 3
    # (on a device, each brings its accumulator back: a copy nested in it, counted in it too)
    assert d["reduce"]["calls"] == 3 and d["reduce"]["mem_bytes"] == 3 * 2 * 8 * n + d["d2h"]["mem_bytes"]
    # a reduction's partials are combined over the ranks: allreduces only when there are some
    assert (d["reduce"]["allreduces"] >= 3) if P > 1 else (d["allreduce"]["calls"] == 0)
    maniple.log_reset()
    out[1:] = x[:-1]  # shifted by one: each rank but the last sends its last element on
    d = maniple.log_view()
    sane(d)
    assert d["eval"]["calls"] == 1
    assert d["eval"]["messages"] == P - 1 and d["eval"]["msg_bytes"] == 8 * (P - 1)
    assert d["plan_begin"]["messages"] == P - 1
    numpy.testing.assert_array_equal(numpy.asarray(out)[1:], numpy.ones(n - 1))


def test_off_counts_nothing():
    maniple.log_reset()
    a = mnp.arange(100.0)
    float((a * 2).sum())
    d = maniple.log_view()
    sane(d)
    assert all(row["calls"] == 0 for row in d.values()), d


SCRIPT = """
import maniple.numpy as np
x = np.ones(500)
y = np.arange(500.0)
for k in range(3):
    print("sum", float((x + k * y).sum()))
{tail}
"""


def singleton(tail="", **env_extra):
    """The script as one process, with no trace of this mpiexec job in its
    environment (it would otherwise try to join it)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMPI_", "PMIX_", "PRTE_", "OPAL_", "PMI_", "HYDRA_", "MANIPLE_LOG"))}
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1", **env_extra)
    return subprocess.run([sys.executable, "-c", SCRIPT.format(tail=tail)], env=env, capture_output=True,
                          text=True, timeout=120)


def test_table_at_exit():
    r = singleton(MANIPLE_LOG_VIEW="1", MANIPLE_EAGER_MAX="0")  # (x * y).sum() fused: one pass
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "maniple -log_view" in out and "inclusive" in out, out
    assert out.index("sum") < out.index("maniple -log_view"), out  # after what the script printed
    rows = {m.group(1): m.group(2).split() for m in re.finditer(r"^(\w+) +(\d.*)$", out, re.M)}
    assert int(rows["reduce"][0]) == 3, out
    assert "allreduce" not in rows and "spmv" not in rows, out  # one rank, no product: no rows
    # calls, time, max, ratio, Mem(MB): three reductions of two float64 vectors (and,
    # on a device backend, the copies to the host made inside them: inclusive)
    copied, want = sum(float(rows[k][4]) for k in ("h2d", "d2h") if k in rows), 3 * 2 * 8 * 500 * 1e-6
    assert want * (1 - 1e-3) <= float(rows["reduce"][4]) <= (want + copied) * (1 + 1e-3), out


def test_no_table_without_the_variable():
    r = singleton()
    assert r.returncode == 0, r.stderr
    assert "sum" in r.stdout and "log_view" not in r.stdout, r.stdout


def test_no_table_after_an_uncaught_exception():
    r = singleton(tail="raise ValueError('boom')", MANIPLE_LOG_VIEW="1")
    assert r.returncode != 0 and "boom" in r.stderr
    assert "maniple -log_view" not in r.stdout and "uncaught exception" in r.stderr, (r.stdout, r.stderr)


def test_the_modules_own_broadcast_is_counted(logging_on):
    """_core.bcast (objects sent from one rank, as the gathered fallbacks
    do) goes through the library's mn_ctx_bcast, counted: the root's
    verdict and length, then the bytes (two broadcasts, one allreduce that
    agrees the receivers' allocation); the same bytes on every rank."""
    payload = bytes(range(200)) * 5
    got = maniple._core.bcast(payload if maniple.rank() == 0 else b"", 0)
    assert got == payload
    d = maniple.log_view()
    sane(d)
    assert d["bcast"]["calls"] == 2
    assert d["bcast"]["mem_bytes"] >= len(payload) * maniple.size()
    assert d["allreduce"]["calls"] == 1


def test_views_make_no_collective(logging_on):
    """Creating views (slices, integer indices, transposes, broadcasts)
    agrees nothing across the ranks: their errors follow from the global
    shapes and indices, which every rank holds alike."""
    ref = numpy.arange(12 * 10, dtype=float).reshape(12, 10)
    g = mnp.asarray(ref)
    numpy.asarray(g)
    maniple.log_reset()
    views = []
    for _ in range(5):
        views = [g[1:-1, 1:-1], g[0:-2, 1:-1], g[2:, ::2], g[3], g.T, mnp.broadcast_to(g[0], (4, 10))]
    d = maniple.log_view()
    sane(d)
    assert d["allreduce"]["calls"] == 0, d["allreduce"]
    refs = [ref[1:-1, 1:-1], ref[0:-2, 1:-1], ref[2:, ::2], ref[3], ref.T, numpy.broadcast_to(ref[0], (4, 10))]
    for v, r in zip(views, refs):
        numpy.testing.assert_array_equal(numpy.asarray(v), r)


def test_stencil_idiom_steady_state_no_collective(logging_on):
    """The seeds' stencil idiom: after the first sweep has built its plans,
    a sweep (views, a fused expression written through a view) makes no
    allreduce at any rank count; the values are NumPy's."""
    n = 40
    ref = numpy.fromfunction(lambda i, j: numpy.sin(0.1 * i) + numpy.cos(0.07 * j), (n, n))
    grid = mnp.asarray(ref)

    def sweep(g, xp):
        center = g[1:-1, 1:-1]
        north, south, east, west = g[0:-2, 1:-1], g[2:, 1:-1], g[1:-1, 2:], g[1:-1, 0:-2]
        center[:] = 0.2 * (center + north + south + east + west)

    sweep(grid, mnp)
    sweep(ref, numpy)
    numpy.asarray(grid)
    maniple.log_reset()
    for _ in range(10):
        sweep(grid, mnp)
        sweep(ref, numpy)
    d = maniple.log_view()
    sane(d)
    assert d["allreduce"]["calls"] == 0, d["allreduce"]
    assert d["eval"]["calls"] >= 10, d["eval"]
    numpy.testing.assert_allclose(numpy.asarray(grid), ref, rtol=1e-13, atol=0)


def test_sync_raises_nothing_when_all_is_well(logging_on):
    """maniple.sync() is the explicit point where an error kept on one
    rank would be raised on all (one allreduce); with none, it returns."""
    maniple.sync()
    maniple.log_reset()
    maniple.sync()
    d = maniple.log_view()
    assert d["allreduce"]["calls"] == (1 if maniple.size() > 1 else 0), d["allreduce"]


def test_integer_array_key_agrees_in_its_exchanges(logging_on):
    """v[idx], v[idx] = 1.0 and M[idx] carry the errors met on one rank in
    their exchanges' counts, and a take, put or row take with the indices
    of the one before reuses its kept plan and buffers (nothing to
    allocate, so nothing to agree): no allreduce (7, 5 and 9 a statement
    before)."""
    P = maniple.size()
    v = mnp.arange(1000.0)
    k = mnp.asarray(numpy.random.default_rng(0).integers(-1000, 1000, 300))
    want = numpy.arange(1000.0)[numpy.asarray(k)]
    r = v[k]
    numpy.testing.assert_array_equal(numpy.asarray(r), want)
    maniple.log_reset()
    for _ in range(5):
        r = v[k]
    taken = maniple.log_view()["allreduce"]["calls"]
    v[k] = 1.0  # (the first put makes the plan: 1 allreduce, its receive buffer's)
    maniple.log_reset()
    for _ in range(5):
        v[k] = 1.0
    put = maniple.log_view()["allreduce"]["calls"]
    M = mnp.arange(3000.0).reshape(1000, 3)
    rows = M[k]  # (the first take of these rows makes the plan)
    maniple.log_reset()
    for _ in range(5):
        rows = M[k]
    by_rows = maniple.log_view()["allreduce"]["calls"]
    assert taken == 0 and put == 0 and by_rows == 0, (taken, put, by_rows)
    numpy.testing.assert_array_equal(numpy.asarray(rows), numpy.arange(3000.0).reshape(1000, 3)[numpy.asarray(k)])
    numpy.testing.assert_array_equal(numpy.asarray(r), want)
    numpy.testing.assert_array_equal(numpy.asarray(v)[numpy.asarray(k)], numpy.ones(300))
