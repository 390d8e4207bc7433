#!/usr/bin/env python3
"""poisson: -lap(u) = f on the unit square (2-d) or cube (3-d) with u = 0 on
the boundary, for the manufactured solution u = prod_d sin(pi x_d) exp(c_d x_d)
(c = 1, -1/2, 1/3; not an eigenvector of the discrete Laplacian, so CG has
work to do), solved by CG twice: matrix-free (a LinearOperator whose matvec
applies the 5- or 7-point stencil by array slicing) and assembled (the
sparse matrix from kron and diags). Both give the same answer; the error
against u over several grids gives the order of convergence (2 expected).

    python apps/poisson.py --dim 2 --n 127
    mpiexec -n 4 python apps/poisson.py --dim 3 --n 31 --backend maniple --pc jacobi --png u.png

One code path for both backends: --backend numpy imports numpy, scipy.sparse
and scipy.sparse.linalg, --backend maniple imports maniple.numpy,
maniple.sparse and maniple.sparse.linalg; nothing else differs. apps/poisson.c
is the same program over maniple's C API (docs/apps.md).
"""
import argparse
import math
import os
import sys
import time
import warnings

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

C = (1.0, -0.5, 1.0 / 3.0)  # exp(c_d x_d) factors of the manufactured solution
ORDER_TOL = 0.2             # the observed order must be within 2 +- this


class InputError(ValueError):
    """Bad input: raised on every rank (the values it names are global)."""


def load_backend(name):
    """(np, sp, spla, rank, size): the array, sparse and solver modules."""
    if name == "maniple":
        import maniple
        import maniple.numpy as np
        import maniple.sparse as sp
        import maniple.sparse.linalg as spla
        # the script never writes through a reshape, so maniple's copies are fine
        warnings.filterwarnings("ignore", message="maniple.numpy: reshape")
        return np, sp, spla, maniple.rank(), maniple.size()
    import numpy as np
    import scipy.sparse as sp
    import scipy.sparse.linalg as spla
    # plain NumPy runs whole on every rank; only rank 0 prints
    return np, sp, spla, int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0"))), 1


def check_grid(n, dim):
    if dim not in (2, 3):
        raise InputError(f"--dim {dim}: 2 or 3")
    if n < 3:
        raise InputError(f"grid smaller than the stencil: --n {n} gives {n} points per side, "
                         f"the {2 * dim + 1}-point stencil spans 3")


def manufactured(np, n, dim):
    """u and f = -lap(u) at the n^dim interior points (h = 1/(n+1))."""
    h = 1.0 / (n + 1)
    x = np.linspace(h, 1.0 - h, n)
    g, g2 = [], []  # each factor and its second derivative, broadcast along its axis
    for d in range(dim):
        shape = [1] * dim
        shape[d] = n
        xd = x.reshape(shape)
        s, e, c = np.sin(math.pi * xd), np.exp(C[d] * xd), C[d]
        g.append(s * e)
        g2.append(((c * c - math.pi ** 2) * s + 2 * c * math.pi * np.cos(math.pi * xd)) * e)
    u = g[0]
    for d in range(1, dim):
        u = u * g[d]
    f = 0.0
    for d in range(dim):
        t = g2[d]
        for e in range(dim):
            if e != d:
                t = t * g[e]
        f = f - t
    return u, f


def stencil_operator(np, spla, n, dim):
    """-lap_h as a LinearOperator: the (2 dim + 1)-point stencil by slicing
    a zero-padded copy of the grid (the zeros are the boundary values)."""
    h2 = (1.0 / (n + 1)) ** 2
    N, shape = n ** dim, (n,) * dim
    inner = (slice(1, -1),) * dim

    def matvec(x):
        p = np.zeros((n + 2,) * dim)
        p[inner] = x.reshape(shape)
        y = (2 * dim) * p[inner]
        for d in range(dim):
            lo, hi = list(inner), list(inner)
            lo[d], hi[d] = slice(0, -2), slice(2, None)
            y = y - p[tuple(lo)] - p[tuple(hi)]
        return (y / h2).reshape(N)

    return spla.LinearOperator((N, N), matvec=matvec, dtype=np.float64)


def laplacian_matrix(sp, n, dim):
    """-lap_h assembled: kron sums of the 1-d second difference."""
    h2 = (1.0 / (n + 1)) ** 2
    T = sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(n, n)) / h2
    I = sp.identity(n)
    if dim == 2:
        A = sp.kron(T, I) + sp.kron(I, T)
    else:
        A = sp.kron(sp.kron(T, I), I) + sp.kron(sp.kron(I, T), I) + sp.kron(sp.kron(I, I), T)
    return A.tocsr()


def jacobi(np, spla, diag, N):
    """M = D^-1 as an operator (SciPy's cg takes no preconditioner name)."""
    dinv = 1.0 / diag
    return spla.LinearOperator((N, N), matvec=lambda r: dinv * r, dtype=np.float64)


def cg(spla, A, b, rtol, M):
    """(x, iterations, seconds); iterations counted by the callback."""
    its = [0]

    def count(xk):
        its[0] += 1

    t0 = time.perf_counter()
    x, info = spla.cg(A, b, rtol=rtol, atol=0.0, maxiter=20 * b.shape[0], M=M, callback=count)
    t = time.perf_counter() - t0
    if info != 0:
        raise RuntimeError(f"CG did not converge (info = {info}) after {its[0]} iterations")
    return x, its[0], t


def solve(np, sp, spla, n, dim, rtol=1e-10, pc="none"):
    """One grid: both solves and their errors (a dict)."""
    check_grid(n, dim)
    N = n ** dim
    u, f = manufactured(np, n, dim)
    u, b = u.reshape(N), f.reshape(N)
    Amf, Aas = stencil_operator(np, spla, n, dim), laplacian_matrix(sp, n, dim)
    Mmf = Mas = None
    if pc == "jacobi":
        Mmf = jacobi(np, spla, np.full(N, 2 * dim * (n + 1) ** 2.0), N)
        Mas = jacobi(np, spla, Aas.diagonal(), N)
    xmf, its_mf, t_mf = cg(spla, Amf, b, rtol, Mmf)
    xas, its_as, t_as = cg(spla, Aas, b, rtol, Mas)
    e = xmf - u
    return dict(n=n, h=1.0 / (n + 1), N=N, its_mf=its_mf, its_as=its_as, t_mf=t_mf, t_as=t_as,
                err_max=float(np.abs(e).max()), err_rms=float(np.sqrt(np.mean(e * e))),
                diff=float(np.abs(xmf - xas).max()), x=xmf)


def grids(n, levels):
    """n and the coarser grids (n+1)/2^k - 1 that still hold the stencil,
    coarsest first."""
    out = []
    for k in range(levels):
        m = (n + 1) // 2 ** k - 1
        if m < 3:
            break
        out.append(m)
    return out[::-1]


def orders(rows, key="err_max"):
    """observed order between consecutive grids: log(e1/e2) / log(h1/h2)"""
    return [math.log(a[key] / b[key]) / math.log(a["h"] / b["h"]) for a, b in zip(rows, rows[1:])]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--dim", type=int, default=2, help="2 or 3")
    p.add_argument("--n", type=int, help="interior points per side of the finest grid (default 127 in 2-d, 31 in 3-d)")
    p.add_argument("--levels", type=int, default=3, help="grids for the order: n, (n+1)/2-1, ... (default 3)")
    p.add_argument("--rtol", type=float, default=1e-10, help="CG: ||r|| <= rtol ||b|| (default 1e-10)")
    p.add_argument("--pc", choices=["none", "jacobi"], default="none")
    p.add_argument("--backend", choices=["numpy", "maniple"], default="numpy")
    p.add_argument("--png", help="write the finest solution (3-d: its middle z plane) as a PNG picture")
    a = p.parse_args(argv)
    np, sp, spla, rank, size = load_backend(a.backend)
    say = print if rank == 0 else (lambda *x, **k: None)
    n = a.n if a.n is not None else (127 if a.dim == 2 else 31)
    try:
        check_grid(n, a.dim)
        if a.levels < 1:
            raise InputError(f"--levels {a.levels} must be at least 1")
        if not (0 < a.rtol < 1):
            raise InputError(f"--rtol {a.rtol} must be in (0, 1)")
    except InputError as e:
        say(f"poisson: error: {e}", file=sys.stderr)
        return 2
    say(f"poisson {a.dim}-d, n = {n} ({n ** a.dim} unknowns), {a.backend} on {size} rank(s), CG rtol {a.rtol:g}, "
        f"pc {a.pc}")
    say(f"{'n':>5} {'h':>10} {'its mf':>7} {'its as':>7} {'max error':>11} {'rms error':>11} {'|mf - as|':>10}")
    rows = []
    for m in grids(n, a.levels):
        r = solve(np, sp, spla, m, a.dim, a.rtol, a.pc)
        rows.append(r)
        say(f"{m:5d} {r['h']:10.4e} {r['its_mf']:7d} {r['its_as']:7d} {r['err_max']:11.4e} {r['err_rms']:11.4e} "
            f"{r['diff']:10.2e}")
    ok = True
    if len(rows) > 1:
        om, orms = orders(rows), orders(rows, "err_rms")
        good = all(abs(o - 2) <= ORDER_TOL for o in om)
        ok &= good
        say(f"order (max error): {' '.join(f'{o:.3f}' for o in om)}   (rms): {' '.join(f'{o:.3f}' for o in orms)}   "
            f"{'PASS' if good else 'FAIL'} (2 +- {ORDER_TOL})")
    fine = rows[-1]
    same = fine["diff"] <= 1e-6 * fine["err_max"] + 1e-12 and abs(fine["its_mf"] - fine["its_as"]) <= 1
    ok &= same
    say(f"matrix-free == assembled: max |difference| {fine['diff']:.2e}, iterations {fine['its_mf']} and "
        f"{fine['its_as']} {'PASS' if same else 'FAIL'}")
    N = fine["N"]
    say(f"throughput: matrix-free CG {N * fine['its_mf'] / max(fine['t_mf'], 1e-9) / 1e6:.3f} M unknown-iterations/s "
        f"({fine['t_mf']:.3f} s), assembled CG {N * fine['its_as'] / max(fine['t_as'], 1e-9) / 1e6:.3f} "
        f"M unknown-iterations/s ({fine['t_as']:.3f} s)")
    if a.png:
        import picture
        m = fine["n"]
        x = fine["x"].reshape((m,) * a.dim)
        picture.write_png(a.png, (x if a.dim == 2 else x[:, :, m // 2]).T, origin="lower")  # x across, y up
        say(f"picture: {a.png} (u, {m} x {m}{'' if a.dim == 2 else f', plane z = {m // 2}'})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
