"""einsum and fancy indexing: maniple.numpy beside NumPy, in one run.

    mpiexec -n P python benchmarks/bench_select.py [reps] [build] [warm]

Issue 22's cases: einsum contractions (matrix product, matrix-vector, a
batched contraction, a trace, a transposed copy) and integer-array
indexing (a[idx] and a[idx] = v on a 1-d array, whole rows M[idx] of a 2-d
one); and an array of 10^6 points (shape (n, 3)): row sums, the index of
each row's largest value, and a strided view's values (rows too short for
a pass each). maniple.numpy runs on every rank, NumPy on rank 0 (one process);
each repetition runs both in turn, so the machine's noise falls on both
alike, and the STREAM triad is measured in the same run. Each case runs
warm times (default 10) untimed first, for both: this machine's fresh pages
run slower for the first tens of uses (a 1000^2 transposed copy took 2-4 ms
in its first calls and 1.0-1.2 after, NumPy's alike). One JSON line per
case: medians, minima and maxima of reps, in seconds per call."""
import ctypes
import json
import os
import statistics
import sys
import time

import numpy

import maniple
import maniple.numpy as mnp

REPS = int(sys.argv[1]) if len(sys.argv) > 1 else 7
BUILD = sys.argv[2] if len(sys.argv) > 2 else "build"
WARM = int(sys.argv[3]) if len(sys.argv) > 3 else 10
rank, size = maniple.rank(), maniple.size()
rng = numpy.random.default_rng(0)


def done(x):
    """x computed (and the ranks agreed) before the clock stops: its first
    element read (not through ravel(), which copies a 2-d maniple array:
    8 MB more than NumPy's view for the transposed copy)."""
    if isinstance(x, mnp.ndarray):
        float(x[(0,) * x.ndim]) if x.size else mnp.zeros(size).sum()
    else:
        float(numpy.asarray(x)[(0,) * numpy.ndim(x)]) if numpy.size(x) else None


A, B = rng.random((1000, 1000)), rng.random((1000, 1000))
v = rng.random(1000)
X = rng.random((200, 100, 100))
big = rng.random(2_000_000)
rows = rng.random((200_000, 16))
idx = rng.integers(0, big.size, 100_000)
ridx = rng.integers(0, rows.shape[0], 20_000)
pts = rng.random((1_000_000, 3))
M = {k: mnp.asarray(x) for k, x in (("A", A), ("B", B), ("v", v), ("X", X), ("big", big), ("rows", rows),
                                    ("idx", idx), ("ridx", ridx), ("pts", pts))}
N = dict(A=A, B=B, v=v, X=X, big=big.copy(), rows=rows, idx=idx, ridx=ridx, pts=pts)


def put(d):
    d["big"][d["idx"]] = 1.0
    return d["big"]


# (name, elements of work, the call on a namespace of arrays)
CASES = [
    ("einsum ij,jk->ik", 1000 ** 3, lambda xp, d: xp.einsum("ij,jk->ik", d["A"], d["B"])),
    ("einsum ij,j->i", 1000 ** 2, lambda xp, d: xp.einsum("ij,j->i", d["A"], d["v"])),
    ("einsum ijk,jk->i", X.size, lambda xp, d: xp.einsum("ijk,jk->i", d["X"], d["X"][0])),
    ("einsum ii->", 1000, lambda xp, d: xp.einsum("ii->", d["A"])),
    ("einsum ij->ji copy", 1000 ** 2, lambda xp, d: xp.einsum("ij->ji", d["A"]).copy()),
    ("a[idx] 1-d", idx.size, lambda xp, d: d["big"][d["idx"]]),
    ("a[idx] = 1.0 1-d", idx.size, lambda xp, d: put(d)),
    ("M[idx] rows", ridx.size * rows.shape[1], lambda xp, d: d["rows"][d["ridx"]]),
    ("points.sum(axis=1)", pts.size, lambda xp, d: d["pts"].sum(axis=1)),
    ("points.argmax(axis=1)", pts.size, lambda xp, d: d["pts"].argmax(axis=1)),
    ("points[::2] + 1", pts.size // 2, lambda xp, d: d["pts"][::2] + 1),
]


def triad_gbps():
    roof = ctypes.CDLL(os.path.join(BUILD, "benchmarks", "libmn_roof.so"))
    roof.mn_roof_triad.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                                   ctypes.c_double]
    n = 20_000_000
    a, b, c = numpy.zeros(n), numpy.ones(n), numpy.ones(n)
    ts = []
    for _ in range(REPS):
        mnp.zeros(size).sum()  # every rank at once
        t = time.perf_counter()
        roof.mn_roof_triad(n, a.ctypes.data, b.ctypes.data, c.ctypes.data, 3.0)
        ts.append(time.perf_counter() - t)
    return 24.0 * n / statistics.median(ts) / 1e9


def main():
    gb = triad_gbps()
    if rank == 0:
        print(json.dumps(dict(bench="stream_triad", impl="c_loop", ranks=size, GBps=gb)))
    for name, work, fn in CASES:
        for _ in range(WARM):  # plans and kernels made once, pages warm
            done(fn(mnp, M))
            if rank == 0:
                done(fn(numpy, N))
        tm, tn = [], []
        for _ in range(REPS):
            mnp.zeros(size).sum()
            t = time.perf_counter()
            done(fn(mnp, M))
            tm.append(time.perf_counter() - t)
            if rank == 0:
                t = time.perf_counter()
                done(fn(numpy, N))
                tn.append(time.perf_counter() - t)
        if rank == 0:
            for impl, ts in (("maniple.numpy", tm), ("numpy", tn)):
                print(json.dumps(dict(bench="select", case=name, impl=impl, ranks=size if impl != "numpy" else 1,
                                      work=work, median_s=statistics.median(ts), min_s=min(ts), max_s=max(ts),
                                      reps=REPS)))
            sys.stdout.flush()


main()
