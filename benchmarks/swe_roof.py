"""The op-mix roof of the C swe (apps/swe_scheme.c): the cell updates per
second this core could reach if it did nothing but the scheme's arithmetic
at the vector throughput it gives each class of operation, measured here
(benchmarks/roof.c, in cache, the same AVX-512/AVX2 clones as the app).

One cell update (one SSP-RK2 step of one cell) does, counted from the
code (docs/benchmarks.md):
- 16 square roots: 4 face fluxes (x and y, two stages), 4 each (the
  velocities' denominator on each side, 2 wave speeds);
- 36 divisions: 5 a face flux (4 velocities, 1/(a+ - a-)), 8 a dU/dt;
- 597 other operations (additions, multiplications, min/max, compares,
  selects): 76 a face flux, 57 a cell's reconstruction along one axis,
  21 a dU/dt, 23 the two stages.
The roof is compute only: max(time of the square roots and divisions,
time of the others), the two classes on separate units (an upper bound on
speed: memory traffic, about 350 bytes a cell update, is not in it).
Prints one JSON line: per repetition, the roof in cell updates/s.

    python benchmarks/swe_roof.py BUILD [reps]"""
import ctypes
import json
import os
import sys
import time

import numpy

SQRT, DIV, OTHER = 16, 36, 597
BUILD = sys.argv[1] if len(sys.argv) > 1 else "build"
REPS = int(sys.argv[2]) if len(sys.argv) > 2 else 7
roof = ctypes.CDLL(os.path.join(BUILD, "benchmarks", "libmn_roof.so"))
for f, k in ((roof.mn_roof_sqrt, 2), (roof.mn_roof_div, 3), (roof.mn_roof_muladd, 2)):
    f.argtypes = [ctypes.c_int64, ctypes.c_int64] + [ctypes.c_void_p] * k
    f.restype = None
n, inner = 2048, 4000  # 16 KiB an array: in L1
a = numpy.linspace(0.1, 0.45, n)  # (the values stay between 0.1 and 2: no overflow, no subnormals)
x, y = numpy.empty(n), numpy.empty(n)


def ns_per(call, ops):
    """Best of 3 timings of one call of inner passes: ns an element and operation."""
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - t0)
    return best / inner / n / ops * 1e9


rates, last = [], {}
for _ in range(REPS):
    x[:] = 2.0
    ts = ns_per(lambda: roof.mn_roof_sqrt(n, inner, x.ctypes.data, y.ctypes.data), 1)
    x[:] = 2.0
    td = ns_per(lambda: roof.mn_roof_div(n, inner, a.ctypes.data, x.ctypes.data, y.ctypes.data), 1)
    x[:] = 0.5
    tm = ns_per(lambda: roof.mn_roof_muladd(n, inner, x.ctypes.data, y.ctypes.data), 11)
    cell = max(SQRT * ts + DIV * td, OTHER * tm)
    rates.append(1e9 / cell)
    last = dict(sqrt_ns=ts, div_ns=td, op_ns=tm, cell_ns=cell)
print(json.dumps(dict(bench="swe_roof", rates=rates, counts=dict(sqrt=SQRT, div=DIV, other=OTHER), **last)),
      flush=True)
