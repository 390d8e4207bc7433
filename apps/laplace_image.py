#!/usr/bin/env python3
"""laplace_image: the seeds' reconstruction of an image from its Laplacian.
The 5-point Laplacian B of a grey-level picture (zero outside it) is
computed; the picture is then recovered from B alone, by Jacobi sweeps in
float32 exactly as the seed writes them (X and X2 swapped each sweep, X
starting from B), and by CG in float64 on -lap(X) = -B with the stencil as
a LinearOperator. Prints the errors against the original, the sweeps and
iterations each method needed, and a throughput line.

    python apps/laplace_image.py --iterations 20000
    mpiexec -n 4 python apps/laplace_image.py --backend maniple --png recon.png

One code path for both backends: --backend numpy imports numpy and
scipy.sparse.linalg, --backend maniple imports maniple.numpy and
maniple.sparse.linalg; nothing else differs. apps/laplace_image.c is the
same program over maniple's C API (docs/apps.md).
"""
import argparse
import os
import sys
import time
import warnings

import numpy  # plain NumPy: the file's pixels, and the picture of gathered arrays

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pgm  # noqa: E402

DEFAULT_IMAGE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "shapes.pgm")
RECOVERED = 0.5    # max error below this: rounding gives the 8-bit picture back
CG_TOL = 1e-3      # CG's max error must be below this (far below RECOVERED)


class InputError(ValueError):
    """Bad input: raised on every rank (the values it names are global)."""


def load_backend(name):
    """(np, spla, rank, size): the array and solver modules."""
    if name == "maniple":
        import maniple
        import maniple.numpy as np
        import maniple.sparse.linalg as spla
        # the script never writes through a reshape, so maniple's copies are fine
        warnings.filterwarnings("ignore", message="maniple.numpy: reshape")
        return np, spla, maniple.rank(), maniple.size()
    import numpy as np
    import scipy.sparse.linalg as spla
    # plain NumPy runs whole on every rank; only rank 0 prints
    return np, spla, int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0"))), 1


def read_image(path):
    """The picture's pixels (plain NumPy, every rank reads the file)."""
    try:
        img = pgm.read_pgm(path)
    except pgm.PGMError as e:
        raise InputError(str(e)) from None
    m, n = img.shape
    if m < 3 or n < 3:
        raise InputError(f"{path}: image {m} x {n} is smaller than the 5-point stencil (3 x 3)")
    return img


def laplacian(np, img):
    """B = the 5-point Laplacian of the picture in float32, zero outside it."""
    m, n = img.shape
    p = np.zeros((m + 2, n + 2), dtype="float32")
    p[1:-1, 1:-1] = img
    return p[0:-2, 1:-1] + p[2:, 1:-1] + p[1:-1, 0:-2] + p[1:-1, 2:] - 4 * p[1:-1, 1:-1]


def jacobi_cpu_mat(ap, a, b):  # the seed's sweep, as written there
    ap[1:-1, 1:-1] = 0.25 * (a[0:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 0:-2] + a[1:-1, 2:] - b)


def errors(np, x, img):
    """(max, rms) of x - img, in float64"""
    e = x.astype(np.float64) - img
    return float(np.abs(e).max()), float(np.sqrt(np.mean(e * e)))


def jacobi(np, blur, img, iterations, every):
    """The seed's loop; the errors every `every` sweeps. Returns (X, rows of
    (sweeps, max error, rms error), seconds in the sweeps)."""
    m, n = blur.shape
    X = np.zeros((m + 2, n + 2), dtype="float32")
    X[1:-1, 1:-1] = blur
    X2 = np.copy(X)
    rows, secs, done = [], 0.0, 0
    while done < iterations:
        k = min(every, iterations - done)
        t0 = time.perf_counter()
        for i in range(k):
            jacobi_cpu_mat(X2, X, blur)
            X, X2 = X2, X
        secs += time.perf_counter() - t0
        done += k
        rows.append((done,) + errors(np, X[1:-1, 1:-1], img))
    return X[1:-1, 1:-1], rows, secs


def cg(np, spla, blur, rtol):
    """-lap(x) = -B by CG in float64, the stencil applied by slicing.
    Returns (x, iterations, seconds)."""
    m, n = blur.shape
    N = m * n

    def matvec(v):
        p = np.zeros((m + 2, n + 2))
        p[1:-1, 1:-1] = v.reshape((m, n))
        y = 4 * p[1:-1, 1:-1] - p[0:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, 0:-2] - p[1:-1, 2:]
        return y.reshape(N)

    A = spla.LinearOperator((N, N), matvec=matvec, dtype=np.float64)
    b = -blur.astype(np.float64).reshape(N)
    its = [0]

    def count(xk):
        its[0] += 1

    t0 = time.perf_counter()
    x, info = spla.cg(A, b, rtol=rtol, atol=0.0, maxiter=10 * N, callback=count)
    secs = time.perf_counter() - t0
    if info != 0:
        raise RuntimeError(f"CG did not converge (info = {info}) after {its[0]} iterations")
    return x.reshape((m, n)), its[0], secs


def decreasing(rows):
    """each checkpoint's max error at most the last one's (float32 noise allowed)"""
    return all(b[1] <= a[1] * 1.0001 + 1e-4 for a, b in zip(rows, rows[1:])) and rows[-1][1] < rows[0][1]


def montage(panels):
    """(array, lo, hi) pictures side by side, each scaled from [lo, hi]
    (None: its own range) to [0, 1], clipped (plain NumPy)"""
    out = []
    for p, lo, hi in panels:
        p = numpy.asarray(p, dtype=float)
        lo = p.min() if lo is None else lo
        hi = p.max() if hi is None else hi
        out.append(numpy.clip((p - lo) / (hi - lo), 0, 1) if hi > lo else numpy.zeros_like(p))
        out.append(numpy.ones((p.shape[0], 2)))
    return numpy.hstack(out[:-1])


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--image", default=DEFAULT_IMAGE, help="a binary PGM (P5) picture (default apps/data/shapes.pgm)")
    p.add_argument("--iterations", type=int, default=25000, help="Jacobi sweeps (default 25000)")
    p.add_argument("--every", type=int, default=1000, help="report the Jacobi error every this many sweeps")
    p.add_argument("--rtol", type=float, default=1e-10, help="CG: ||r|| <= rtol ||b|| (default 1e-10)")
    p.add_argument("--backend", choices=["numpy", "maniple"], default="numpy")
    p.add_argument("--png", help="write original | Laplacian | Jacobi | CG side by side as a PNG picture")
    p.add_argument("--pgm", help="write the reconstructions as PREFIX_jacobi.pgm and PREFIX_cg.pgm")
    a = p.parse_args(argv)
    np, spla, rank, size = load_backend(a.backend)
    say = print if rank == 0 else (lambda *x, **k: None)
    try:
        if a.iterations < 1:
            raise InputError(f"--iterations {a.iterations} must be at least 1")
        if a.every < 1:
            raise InputError(f"--every {a.every} must be at least 1")
        if not (0 < a.rtol < 1):
            raise InputError(f"--rtol {a.rtol} must be in (0, 1)")
        pix = read_image(a.image)
    except InputError as e:
        say(f"laplace_image: error: {e}", file=sys.stderr)
        return 2
    m, n = pix.shape
    img = np.asarray(pix.astype(numpy.float32))
    blur = laplacian(np, img)
    say(f"laplace_image {a.image}: {m} x {n}, {a.backend} on {size} rank(s)")
    say("jacobi (float32, X and X2 swapped each sweep, as the seed):")
    say(f"{'sweeps':>9} {'max error':>11} {'rms error':>11}")
    xj, rows, tj = jacobi(np, blur, img, a.iterations, a.every)
    for r in rows:
        say(f"{r[0]:9d} {r[1]:11.4e} {r[2]:11.4e}")
    reached = next((r[0] for r in rows if r[1] < RECOVERED), None)
    say(f"jacobi: {rows[-1][0]} sweeps, max error {rows[-1][1]:.4e}, rms error {rows[-1][2]:.4e}; "
        + (f"max error < {RECOVERED} (the picture back by rounding) after {reached} sweeps" if reached
           else f"max error not yet < {RECOVERED}"))
    xc, its, tc = cg(np, spla, blur, a.rtol)
    emax, erms = errors(np, xc, img)
    say(f"cg (float64, matrix-free): {its} iterations to rtol {a.rtol:g}, max error {emax:.4e}, rms error {erms:.4e}")
    say(f"throughput: jacobi {m * n * rows[-1][0] / max(tj, 1e-9) / 1e6:.3f} M point-updates/s ({tj:.3f} s), "
        f"cg {m * n * its / max(tc, 1e-9) / 1e6:.3f} M unknown-iterations/s ({tc:.3f} s)")
    dec, good = decreasing(rows), emax < CG_TOL
    say(f"checks: jacobi error decreasing {'PASS' if dec else 'FAIL'}, cg max error {emax:.2e} < {CG_TOL:g} "
        f"{'PASS' if good else 'FAIL'}")
    if a.png:
        import picture
        lo, hi = float(pix.min()), float(pix.max())  # the reconstructions on the original's scale
        picture.write_png(a.png, montage([(img, lo, hi), (blur, None, None), (xj, lo, hi), (xc, lo, hi)]), cmap="gray",
                          vmin=0, vmax=1)
        say(f"picture: {a.png} (original | Laplacian | Jacobi | CG, {m} x {n} each)")
    if a.pgm:
        pgm.write_pgm(f"{a.pgm}_jacobi.pgm", xj)
        pgm.write_pgm(f"{a.pgm}_cg.pgm", xc)
        say(f"pgm: {a.pgm}_jacobi.pgm, {a.pgm}_cg.pgm")
    return 0 if dec and good else 1


if __name__ == "__main__":
    sys.exit(main())
