"""Dense linear algebra as scripts write it (issue 22): the seeds' CG loop
on a dense SPD matrix, Jacobi, linear and logistic regression as
cuPyNumeric's example programs write them, and the dense factorisations
(cholesky, solve, qr of an n x n matrix: one per iteration). The same code runs on NumPy,
maniple.numpy (under mpiexec) and cuPyNumeric; set OPENBLAS_NUM_THREADS=1 so
every package's BLAS runs on one core.

    python benchmarks/dense_la.py cg|jacobi|linreg|logreg|cholesky|solve|qr --backend numpy|maniple|cupynumeric [-n N] [--its K]

Prints a check value (the same for every backend up to rounding),
'time: X ms/iteration' (the timed iterations' mean, up to a value read
back at the end, since cuPyNumeric runs ahead of the script) and
'throughput: X M row-iterations/s' (matrix rows or samples per second)."""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "apps"))
import backend  # noqa: E402  (apps/backend.py: the array module by name)

p = argparse.ArgumentParser()
FACTOR = ("cholesky", "solve", "qr")
p.add_argument("workload", choices=["cg", "jacobi", "linreg", "logreg", *FACTOR])
p.add_argument("--backend", choices=["numpy", "maniple", "cupynumeric"], default="numpy")
p.add_argument("-n", type=int, default=None, help="matrix order (cg, jacobi, factorisations) or samples (linreg, logreg)")
p.add_argument("-f", type=int, default=32, help="features (linreg, logreg)")
p.add_argument("--its", type=int, default=50, help="timed iterations (after 3 untimed; 1 for the factorisations)")
args = p.parse_args()
np, rank, size = backend.load(args.backend)
w = args.workload
n = args.n or (2000 if w in ("cg", "jacobi") else 4000 if w in FACTOR else 100000)

# inputs from a formula of the index, so every package sees the same numbers
if w in FACTOR:  # symmetric and diagonally dominant: positive definite
    i = np.arange(n, dtype=np.float64)
    M = np.sin(np.outer(i + 1.0, i + 2.0) * 1e-3)
    A = 0.5 * (M + M.T) + n * np.eye(n)
    b = np.cos(i * 0.01)
elif w in ("cg", "jacobi"):
    i = np.arange(n, dtype=np.float64)
    M = np.sin(np.outer(i + 1.0, i + 2.0) * 1e-3)
    if w == "cg":  # SPD, condition number about 500: far from converged after 50 iterations
        A = 2.01 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1) + (1e-3 / n) * (M + M.T)
    else:  # strictly diagonally dominant, as jacobi.py makes it
        A = M + n * np.eye(n)
    b = np.cos(i * 0.01)
else:
    i = np.arange(n, dtype=np.float64)
    j = np.arange(args.f, dtype=np.float64)
    X = np.sin(np.outer(i + 1.0, j + 1.0) * 1e-2)
    wt = np.cos(j)
    target = X.dot(wt) + 0.01 * np.sin(i)
    if w == "logreg":
        target = (target > 0).astype(np.float64)


def cg_setup():
    x = np.zeros_like(b)
    r = b - A.dot(x)
    return {"x": x, "r": r, "p": r, "rs": r.dot(r)}


def cg_step(s):  # the seeds' loop body
    Ap = A.dot(s["p"])
    alpha = s["rs"] / (s["p"].dot(Ap))
    s["x"] = s["x"] + alpha * s["p"]
    s["r"] = s["r"] - alpha * Ap
    rsnew = s["r"].dot(s["r"])
    s["p"] = s["r"] + (rsnew / s["rs"]) * s["p"]
    s["rs"] = rsnew


def jacobi_setup():  # cuPyNumeric's examples/jacobi.py
    d = np.diag(A)
    return {"x": np.zeros(A.shape[1]), "d": d, "R": A - np.diag(d)}


def jacobi_step(s):
    s["x"] = (b - np.dot(s["R"], s["x"])) / s["d"]


def reg_setup():  # cuPyNumeric's examples/linreg.py and logreg.py
    return {"w": np.zeros(X.shape[1])}


def linreg_step(s):
    error = np.dot(X, s["w"]) - target
    gradient = -(1.0 / len(X)) * error.dot(X)
    s["w"] += 1e-3 * gradient


def logreg_step(s):
    predictions = 1.0 / (1.0 + np.exp(-np.dot(X, s["w"])))
    gradient = np.dot(target - predictions, X)
    s["w"] += 1e-5 * gradient


def factor_step(s):  # the result's last row (a value read back depends on all of it)
    if w == "cholesky":
        s["x"] = np.linalg.cholesky(A)[n - 1]
    elif w == "solve":
        s["x"] = np.linalg.solve(A, b)
    else:
        s["x"] = np.abs(np.diagonal(np.linalg.qr(A)[1]))


setup = {"cg": cg_setup, "jacobi": jacobi_setup, "linreg": reg_setup, "logreg": reg_setup}.get(w, dict)
step = {"cg": cg_step, "jacobi": jacobi_step, "linreg": linreg_step, "logreg": logreg_step}.get(w, factor_step)
s = setup()
for _ in range(1 if w in FACTOR else 3):
    step(s)
v = s["x"] if "x" in s else s["w"]
float(v.sum())  # (cuPyNumeric runs ahead of the script: wait for the warm-up)
t0 = time.perf_counter()
for _ in range(args.its):
    step(s)
v = s["x"] if "x" in s else s["w"]
check = float(np.sqrt((v * v).sum()))  # inside the timing: the last step has finished
t = (time.perf_counter() - t0) / args.its
if rank == 0:
    print(f"dense_la {w} n={n}, {args.its} iterations, {args.backend} on {size} process(es)")
    print(f"check: {check:.12e}")
    print(f"time: {t * 1e3:.4f} ms/iteration")
    print(f"throughput: {n / t / 1e6:.6g} M row-iterations/s")
