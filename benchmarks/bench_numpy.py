"""maniple.numpy against NumPy and the hand-fused C sweep, in one run.

    mpiexec -n P python benchmarks/bench_numpy.py [N] [iterations] [reps] [build] [warm]

1. The seeds' stencil idiom (N x N interior, fixed N: strong scaling):
   maniple.numpy on all ranks; NumPy on rank 0 (one process); the C sweep
   (benchmarks/roof.c through ctypes: y = 0.2*(x + neighbours) into a second
   grid, ping-pong) on every rank over that rank's share of the rows. Each
   makes its grids once and runs `warm` sweeps (default 30) untimed: on
   the virtual machines here a process's fresh pages run slower for the
   first tens of sweeps (measured at N=2000: 6-8 ms a sweep falling to
   3.5 for the C loop and maniple alike), so repetitions timed from fresh
   grids measured where each one was in that ramp. Then each repetition
   runs the three in turn, `iterations` sweeps each, so the machine's noise
   falls on all of them alike. Reported per iteration (the steady state)
   and in total (creation once, plus iterations times the median).
2. The STREAM triad, every rank at once, in the same run: the bandwidth
   reference (24 B per element).
3. Small arrays: c = a + b on 1,000 float64, evaluated, against NumPy.
One JSON line per configuration; medians, minima and maxima of reps."""
import ctypes
import json
import os
import statistics
import sys
import time

import numpy

import maniple
import maniple.numpy as mnp

N = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
ITERS = int(sys.argv[2]) if len(sys.argv) > 2 else 10
REPS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
BUILD = sys.argv[4] if len(sys.argv) > 4 else "build"
WARM = int(sys.argv[5]) if len(sys.argv) > 5 else 30
rank, size = maniple.rank(), maniple.size()

roof = ctypes.CDLL(os.path.join(BUILD, "benchmarks", "libmn_roof.so"))
roof.mn_roof_stencil.argtypes = [ctypes.c_int64, ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p]
roof.mn_roof_triad.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double]


def barrier():
    mnp.zeros(size).sum()  # a collective: every rank leaves together


def slowest(t):
    """The slowest rank's time (every rank gets it)."""
    return float(mnp.asarray(numpy.full(size, t)).max()) if size > 1 else t


class Idiom:
    """The seeds' idiom on one grid, made once: sweep(iters) times each."""

    def __init__(self, xp, n, sync):
        self.n, self.sync = n, sync
        sync()
        t0 = time.perf_counter()
        grid = xp.zeros((n + 2, n + 2))
        grid[:, 0] = -273.15
        grid[:, -1] = -273.15
        grid[-1, :] = -273.15
        grid[0, :] = 40.0
        self.views = grid[1:-1, 1:-1], grid[0:-2, 1:-1], grid[1:-1, 2:], grid[1:-1, 0:-2], grid[2:, 1:-1]
        float(self.views[0][0, 0])  # the grid exists everywhere before the clock moves on
        self.create = time.perf_counter() - t0
        self.grid = grid

    def sweep(self, iters):
        center, north, east, west, south = self.views
        n = self.n
        self.sync()
        ts = []
        for _ in range(iters):
            a = time.perf_counter()
            average = center + north + east + west + south
            average = 0.2 * average
            center[:] = average
            float(center[n // 2, n // 2])  # the iteration is done (and agreed) before the clock stops
            ts.append(time.perf_counter() - a)
        return ts


class CSweep:
    """The hand-fused sweep on this rank's rows (plus one halo row each side)."""

    def __init__(self, n, sync):
        self.n, self.sync = n, sync
        self.rows = n // size + (rank < n % size) + 2
        sync()
        t0 = time.perf_counter()
        self.x = numpy.zeros((self.rows, n + 2))
        self.y = numpy.zeros((self.rows, n + 2))
        self.x[:, 0] = self.x[:, -1] = -273.15
        self.y[:] = self.x
        self.create = time.perf_counter() - t0

    def sweep(self, iters):
        self.sync()
        ts = []
        for _ in range(iters):
            a = time.perf_counter()
            roof.mn_roof_stencil(self.rows, self.n + 2, self.x.ctypes.data, self.y.ctypes.data)
            ts.append(time.perf_counter() - a)
            self.x, self.y = self.y, self.x
        return ts


def emit(**kw):
    if rank == 0:
        print(json.dumps(kw), flush=True)


def summary(xs):
    return dict(median_s=statistics.median(xs), min_s=min(xs), max_s=max(xs))


def nosync():
    pass


# ---- STREAM triad, every rank at once ----
n_t = 20_000_000
ta, tb, tc = numpy.zeros(n_t), numpy.ones(n_t), numpy.ones(n_t)
roof.mn_roof_triad(n_t, ta.ctypes.data, tb.ctypes.data, tc.ctypes.data, 3.0)  # first touch
triad = []
for _ in range(7):
    barrier()
    t0 = time.perf_counter()
    roof.mn_roof_triad(n_t, ta.ctypes.data, tb.ctypes.data, tc.ctypes.data, 3.0)
    triad.append(slowest(time.perf_counter() - t0))
stream_gbs = n_t * size * 24 / statistics.median(triad) / 1e9
emit(bench="stream_triad", impl="c_loop", ranks=size, elements_per_rank=n_t, GBps=stream_gbs, **summary(triad))
del ta, tb, tc

# ---- the stencil idiom: maniple, NumPy (rank 0), C sweep, interleaved ----
runs = {"maniple.numpy": Idiom(mnp, N, barrier), "c_fused_sweep": CSweep(N, barrier)}
if rank == 0:
    runs["numpy"] = Idiom(numpy, N, nosync)
res = {k: ([slowest(r.create) if k != "numpy" else r.create], []) for k, r in runs.items()}
for k in ("maniple.numpy", "numpy", "c_fused_sweep"):  # (untimed: past the fresh pages' ramp)
    if k in runs:
        runs[k].sweep(WARM)
for _ in range(REPS):
    for k in ("maniple.numpy", "numpy", "c_fused_sweep"):
        if k in runs:
            it = runs[k].sweep(ITERS)
            res[k][1].append(statistics.median(it) if k == "numpy" else slowest(statistics.median(it)))
per = {k: statistics.median(v[1]) for k, v in res.items() if v[1]}
for impl, (cre, it) in res.items():
    if not it:
        continue
    m = statistics.median(it)
    total = statistics.median(cre) + ITERS * m
    line = dict(bench="stencil_idiom", impl=impl, ranks=size if impl != "numpy" else 1, N=N, iterations=ITERS,
                warm=WARM, iter_median_s=m, iter_min_s=min(it), iter_max_s=max(it), create_median_s=statistics.median(cre),
                total_s=total, Mpts_per_s=N * N / m / 1e6, GBps_16B_per_pt=N * N * 16 / m / 1e9,
                fraction_of_stream=N * N * 16 / m / 1e9 / stream_gbs)
    if impl == "maniple.numpy":
        line.update(speedup_vs_numpy_per_iter=per["numpy"] / m if "numpy" in per else None,
                    fraction_of_c_sweep=per["c_fused_sweep"] / m)
    emit(**line)

# ---- small arrays: c = a + b on 1,000 float64, evaluated ----
a, b = mnp.ones(1000), mnp.ones(1000)
na, nb = numpy.ones(1000), numpy.ones(1000)
small, small_np = [], []
for _ in range(REPS):
    barrier()
    t0 = time.perf_counter()
    for _ in range(2000):
        (a + b)._materialize()
    small.append(slowest((time.perf_counter() - t0) / 2000))
    t0 = time.perf_counter()
    for _ in range(2000):
        na + nb
    small_np.append((time.perf_counter() - t0) / 2000)
m, mn = statistics.median(small), statistics.median(small_np)
emit(bench="small_add_1000", impl="maniple.numpy", ranks=size, us_per_op=m * 1e6, numpy_us_per_op=mn * 1e6,
     ratio_to_numpy=m / mn)
