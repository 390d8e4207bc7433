"""CG as array code: the 2-d 5-point Poisson operator applied by slicing a
padded grid (zero boundary), the Jacobi preconditioner as its constant
scale 1/4, a fixed number of iterations. The same script runs on NumPy,
maniple.numpy (under mpiexec) and cuPyNumeric (its own process, Legate's
CPUs), so the suite can set the three side by side; maniple's C solver and
PETSc run the assembled matrix in bench_cg.py.

    python benchmarks/cg_arrays.py --backend numpy|maniple|cupynumeric [-G 2000] [--its 50]

Prints the final residual norm (the same for every backend up to rounding)
and 'throughput: X M row-iterations/s' over the timed iterations."""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps"))
import backend  # noqa: E402  (apps/backend.py: the array module by name)

p = argparse.ArgumentParser()
p.add_argument("--backend", choices=["numpy", "maniple", "cupynumeric"], default="numpy")
p.add_argument("-G", type=int, default=2000, help="interior points per side")
p.add_argument("--its", type=int, default=50, help="timed iterations (after 3 untimed)")
args = p.parse_args()
np, rank, size = backend.load(args.backend)
G = args.G


def laplacian(pp, out):
    """out = A p for p the interior of the padded pp (its frame stays 0)."""
    c = pp[1:-1, 1:-1]
    out[:] = 4.0 * c - pp[:-2, 1:-1] - pp[2:, 1:-1] - pp[1:-1, :-2] - pp[1:-1, 2:]


# right-hand side: a smooth bump, so that CG has work on every mode
x1 = (np.arange(G, dtype=np.float64) + 1.0) / (G + 1)
b = np.outer(np.sin(3.0 * x1), x1 * (1.0 - x1)) * 1e-3
x = np.zeros((G, G))
pp = np.zeros((G + 2, G + 2))  # the search direction, padded
p_ = pp[1:-1, 1:-1]
q = np.zeros((G, G))
r = b.copy()  # x = 0
z = 0.25 * r
p_[:] = z
rz = float((r * z).sum())


def step(rz):
    laplacian(pp, q)
    alpha = rz / float((p_ * q).sum())
    x[:] = x + alpha * p_
    r[:] = r - alpha * q
    z = 0.25 * r
    rz_new = float((r * z).sum())
    p_[:] = z + (rz_new / rz) * p_
    return rz_new


for _ in range(3):  # warm-up: plans, caches, the peer's task launches
    rz = step(rz)
t0 = time.perf_counter()
for _ in range(args.its):
    rz = step(rz)
t = time.perf_counter() - t0
rnorm = float(np.sqrt((r * r).sum()))
if rank == 0:
    print(f"cg_arrays {G}x{G}, {args.its} iterations, {args.backend} on {size} process(es)")
    print(f"residual norm: {rnorm:.6e}")
    print(f"throughput: {G * G * args.its / t / 1e6:.3f} M row-iterations/s ({t / args.its * 1e3:.2f} ms/iteration)")
