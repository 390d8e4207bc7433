"""maniple.numpy against NumPy on the seeds' stencil idiom (fixed N: strong
scaling) and on small-array overhead, in one run. One JSON line per
configuration; each stencil timing includes creating the grid.

    mpiexec -n P python benchmarks/bench_numpy.py [N] [iterations] [reps]

NumPy runs on rank 0 only (it is one process); maniple on all ranks."""
import json
import statistics
import sys
import time

import numpy

import maniple
import maniple.numpy as mnp

N = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
I = int(sys.argv[2]) if len(sys.argv) > 2 else 10
REPS = int(sys.argv[3]) if len(sys.argv) > 3 else 5
rank, size = maniple.rank(), maniple.size()


def stencil(xp, n, iters):
    grid = xp.zeros((n + 2, n + 2))
    grid[:, 0] = -273.15
    grid[:, -1] = -273.15
    grid[-1, :] = -273.15
    grid[0, :] = 40.0
    center, north, east = grid[1:-1, 1:-1], grid[0:-2, 1:-1], grid[1:-1, 2:]
    west, south = grid[1:-1, 0:-2], grid[2:, 1:-1]
    for _ in range(iters):
        average = center + north + east + west + south
        average = 0.2 * average
        center[:] = average
    return float(center[n // 2, n // 2])


def timed(fn, reps, sync=None):
    ts = []
    for _ in range(reps):
        if sync:
            sync()
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts), min(ts), max(ts)


def barrier():
    mnp.zeros(size).sum()  # a collective: every rank leaves together


def emit(**kw):
    if rank == 0:
        print(json.dumps(kw), flush=True)


# the stencil: maniple on all ranks, NumPy on rank 0 (same run)
med, lo, hi = timed(lambda: stencil(mnp, N, I), REPS, barrier)
emit(bench="stencil_idiom", impl="maniple.numpy", ranks=size, N=N, iterations=I, median_s=med, min_s=lo, max_s=hi,
     Mpts_per_s=N * N * I / med / 1e6)
if rank == 0:
    med_np, lo_np, hi_np = timed(lambda: stencil(numpy, N, I), REPS)
    emit(bench="stencil_idiom", impl="numpy", ranks=1, N=N, iterations=I, median_s=med_np, min_s=lo_np,
         max_s=hi_np, Mpts_per_s=N * N * I / med_np / 1e6, maniple_speedup=med_np / med)

# small arrays: c = a + b on 1000 float64, evaluated
a, b = mnp.ones(1000), mnp.ones(1000)
na, nb = numpy.ones(1000), numpy.ones(1000)


def small():
    for _ in range(1000):
        (a + b)._materialize()


def small_np():
    for _ in range(1000):
        na + nb


med, lo, hi = timed(small, REPS, barrier)
med_np, _, _ = timed(small_np, REPS)
emit(bench="small_add_1000", impl="maniple.numpy", ranks=size, us_per_op=med * 1e3, numpy_us_per_op=med_np * 1e3,
     ratio_to_numpy=med / med_np)
