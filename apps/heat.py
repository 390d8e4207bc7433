#!/usr/bin/env python3
"""heat: the seeds' 5-point averaging stencil (cuNumeric/Legate article) on
an (N+2) x (N+2) grid whose outer rows and columns are fixed boundary values.

    python apps/heat.py --n 1000 --iterations 100 --backend numpy
    mpiexec -n 4 python apps/heat.py --n 4000 --backend maniple --png heat.png

The whole-array code below is the seed's, unchanged: five views of one
padded grid and `center[:] = average`. NumPy evaluates the right-hand side
into temporaries before writing, so every sweep reads only old values (a
Jacobi sweep). maniple.numpy defers the two lines and evaluates them fused,
one pass over memory, with the halo rows exchanged once. apps/heat.c is the
same computation in C over maniple's stencil layer; docs/apps.md says more.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import backend  # noqa: E402


def check_input(n, iterations):
    """Bad input is a ValueError naming the value (raised on every rank)."""
    if n < 1:
        raise ValueError(f"--n {n} is too small: the grid needs N >= 1 interior points "
                         "(the 5-point stencil spans 3 points per axis)")
    if iterations < 0:
        raise ValueError(f"--iterations {iterations} is negative")


def initialize(np, n):
    grid = np.zeros((n + 2, n + 2))
    grid[:, 0] = -273.15
    grid[:, -1] = -273.15
    grid[-1, :] = -273.15
    grid[0, :] = 40.0
    return grid


def run(np, n, iterations):
    """The seed's sweep, `iterations` times; returns the padded grid."""
    check_input(n, iterations)
    grid = initialize(np, n)

    center = grid[1:-1, 1:-1]
    north = grid[0:-2, 1:-1]
    east = grid[1:-1, 2:]
    west = grid[1:-1, 0:-2]
    south = grid[2:, 1:-1]

    for i in range(iterations):
        average = center + north + east + west + south
        average = 0.2 * average
        center[:] = average
    return grid


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--n", type=int, default=1000, help="interior points per axis (grid is N+2 square)")
    p.add_argument("--iterations", type=int, default=100)
    p.add_argument("--backend", choices=backend.CHOICES, default="numpy")
    p.add_argument("--png", help="write the final grid as a PNG picture")
    a = p.parse_args(argv)
    np, rank, size = backend.load(a.backend)
    say = backend.printer(rank)
    try:
        t0 = time.perf_counter()
        grid = run(np, a.n, a.iterations)
        checksum = float(grid.sum())  # also waits for the last sweep
        secs = max(time.perf_counter() - t0, 1e-9)
        backend.check_finite(a.iterations, u=checksum)
    except ValueError as e:
        return backend.error_exit("heat", e)
    say(f"heat: N = {a.n}, {a.iterations} iterations, {a.backend} on {size} rank(s)")
    say(f"checksum: {checksum:.12e}")
    say(f"throughput: {a.n * a.n * a.iterations / secs / 1e6:.2f} M points/s ({secs:.3f} s with grid creation)")
    if a.png:
        backend.write_picture(a.png, grid)
        say(f"picture: {a.png} ({a.n + 2}x{a.n + 2} grid)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
