"""The seed's heat stencil, unchanged but for the import (--backend numpy runs
NumPy itself, --backend cupynumeric the peer). Prints the result and the
throughput."""
import argparse
import time

parser = argparse.ArgumentParser()
parser.add_argument("--backend", choices=["maniple", "numpy", "cupynumeric"], default="maniple")
parser.add_argument("-N", type=int, default=1000)
parser.add_argument("-I", type=int, default=100)
parser.add_argument("-W", type=int, default=0, help="sweeps run before the clock starts (bench_numpy.py's warm)")
args = parser.parse_args()

if args.backend == "maniple":
    import maniple
    import maniple.numpy as np
    rank, size = maniple.rank(), maniple.size()
elif args.backend == "cupynumeric":  # the peer: one process, Legate's CPUs
    import cupynumeric as np
    rank, size = 0, 1
else:
    import numpy as np
    rank, size = 0, 1

N, I = args.N, args.I


def initialize(N):
    print("Initializing stencil grid...") if rank == 0 else None
    grid = np.zeros((N + 2, N + 2))
    grid[:, 0] = -273.15
    grid[:, -1] = -273.15
    grid[-1, :] = -273.15
    grid[0, :] = 40.0
    return grid


def run_stencil():
    grid = initialize(N)
    center = grid[1:-1, 1:-1]
    north = grid[0:-2, 1:-1]
    east = grid[1:-1, 2:]
    west = grid[1:-1, 0:-2]
    south = grid[2:, 1:-1]
    for i in range(args.W):
        average = center + north + east + west + south
        average = 0.2 * average
        center[:] = average
    float(center[0, 0])  # the warm sweeps are done before the clock starts
    t0 = time.perf_counter()
    for i in range(I):
        average = center + north + east + west + south
        average = 0.2 * average
        center[:] = average
    mean = float(center.mean())  # a value is needed: everything has run
    return mean, time.perf_counter() - t0


mean, t = run_stencil()
if rank == 0:
    print(f"heat stencil {N}x{N}, {I} iterations, {args.backend} on {size} rank(s)")
    print(f"mean interior temperature: {mean:.6f}")
    print(f"throughput: {N * N * I / t / 1e6:.1f} M points/s ({t:.3f} s)")
