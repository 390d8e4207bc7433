"""SpMV on the 2-d 5-point Poisson matrix (G x G grid), in its natural
numbering and with the numbering shuffled, partitioned equally and by
METIS, beside SciPy (rank 0) and the STREAM triad, in one run.

    mpiexec -n P python benchmarks/bench_spmv.py [G] [reps] [build]

GB/s count the minimal traffic of y = A x: values (8 B) and 32-bit column
indices (4 B) per entry, the row pointers (8 B per row), x read once and y
written once (8 B each per row). One JSON line per configuration."""
import ctypes
import json
import os
import statistics
import sys
import time

import numpy

import maniple
import maniple.numpy as mnp
from maniple import _core

G = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 15
BUILD = sys.argv[3] if len(sys.argv) > 3 else "build"
rank, size = maniple.rank(), maniple.size()
n = G * G

roof = ctypes.CDLL(os.path.join(BUILD, "benchmarks", "libmn_roof.so"))
roof.mn_roof_triad.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double]


def barrier():
    mnp.zeros(size).sum()


def slowest(t):
    return float(mnp.asarray(numpy.full(size, t)).max()) if size > 1 else t


def emit(**kw):
    if rank == 0:
        print(json.dumps(kw), flush=True)


def split(n, p, r):
    q, m = divmod(n, p)
    return r * q + min(r, m), q + (r < m)


def poisson_rows(rows, perm=None, inv=None):
    """The 5-point rows `rows` (new numbering) as CSR: with a shuffle, new
    row k is old row inv[k] and old column j becomes perm[j]."""
    old = rows if inv is None else inv[rows]
    a, b = old // G, old % G
    nb = numpy.stack([old - G, old - 1, old, old + 1, old + G], axis=1)
    ok = numpy.stack([a > 0, b > 0, numpy.ones(len(old), bool), b < G - 1, a < G - 1], axis=1)
    vals = numpy.where(nb == old[:, None], 4.0, -1.0)[ok]
    cols = nb[ok] if perm is None else perm[nb[ok]]
    rowptr = numpy.zeros(len(rows) + 1, numpy.int64)
    rowptr[1:] = numpy.cumsum(ok.sum(axis=1))
    return rowptr, cols.astype(numpy.int64), vals


def timed_spmv(A):
    x, y = mnp.ones(n), mnp.zeros(n)
    xa, ya = x._materialize(), y._materialize()
    A.spmv(xa, ya)  # warm
    ts = []
    for _ in range(REPS):
        barrier()
        t0 = time.perf_counter()
        A.spmv(xa, ya)
        ts.append(slowest(time.perf_counter() - t0))
    return ts


# STREAM triad, every rank at once
nt = 20_000_000
ta, tb, tc = numpy.zeros(nt), numpy.ones(nt), numpy.ones(nt)
roof.mn_roof_triad(nt, ta.ctypes.data, tb.ctypes.data, tc.ctypes.data, 3.0)
tri = []
for _ in range(7):
    barrier()
    t0 = time.perf_counter()
    roof.mn_roof_triad(nt, ta.ctypes.data, tb.ctypes.data, tc.ctypes.data, 3.0)
    tri.append(slowest(time.perf_counter() - t0))
stream = nt * size * 24 / statistics.median(tri) / 1e9
del ta, tb, tc
emit(bench="stream_triad", impl="c_loop", ranks=size, GBps=stream)

s0, nl = split(n, size, rank)
mine = numpy.arange(s0, s0 + nl)
rng = numpy.random.default_rng(7)  # the same shuffle on every rank
perm = rng.permutation(n)
inv = numpy.empty(n, numpy.int64)
inv[perm] = numpy.arange(n)

cases = [("natural", _core.csr_rows(n, n, "float64", *poisson_rows(mine)))]
cases.append(("shuffled", _core.csr_rows(n, n, "float64", *poisson_rows(mine, perm, inv))))
del perm, inv
results = {}
for name, A in cases:
    parts = [("equal", A)]
    if hasattr(A, "partition"):
        p = A.partition("metis")
        parts.append(("metis", A.permute(p)))
    for part, M in parts:
        ts = timed_spmv(M)
        m = statistics.median(ts)
        nnz = M.nnz
        gbs = (nnz * 12 + n * 8 * 3) / m / 1e9
        ghost = slowest(M.ghosts()[0])
        results[(name, part)] = m
        emit(bench="spmv_poisson", numbering=name, partition=part, ranks=size, G=G, rows=n, nnz=nnz, median_s=m,
             min_s=min(ts), max_s=max(ts), GBps=gbs, fraction_of_stream=gbs / stream, max_ghost_columns=int(ghost))

# SciPy on rank 0 (one process), natural numbering
if rank == 0:
    import scipy.sparse as ss
    rp, c, v = poisson_rows(numpy.arange(n))
    B = ss.csr_array((v, c.astype(numpy.int32), rp), shape=(n, n))
    xs = numpy.ones(n)
    B @ xs
    ts = []
    for _ in range(REPS):
        t0 = time.perf_counter()
        B @ xs
        ts.append(time.perf_counter() - t0)
    m = statistics.median(ts)
    gbs = (B.nnz * 12 + n * 8 * 3) / m / 1e9
    emit(bench="spmv_poisson", numbering="natural", partition="-", impl="scipy", ranks=1, G=G, median_s=m,
         GBps=gbs, fraction_of_stream=gbs / stream,
         maniple_speedup=m / results[("natural", "equal")])
