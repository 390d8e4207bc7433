#!/usr/bin/env python3
"""swe: the 2-d shallow-water equations (TorchSWE's equations) with
Kurganov-Petrova's well-balanced, positivity-preserving central-upwind
scheme (2007), generalised-minmod reconstruction of w = h + b, SSP-RK2 and a
CFL-adaptive time step.

    python apps/swe.py --case lake --backend numpy
    mpiexec -n 4 python apps/swe.py --case mass --nx 256 --ny 256 --png h.png

One code path for both backends: the array module is chosen at startup
(--backend numpy imports NumPy, --backend maniple imports maniple.numpy) and
everything below is whole-array NumPy (slices, maximum, where, sqrt). Ghost
cells are two layers of padding filled by slice assignment, so under maniple
the halo traffic and the global max for the time step follow from the
slicing and the reductions. docs/apps.md describes the equations, flags,
cases and checks; apps/swe.c is the same scheme in C.
"""
import argparse
import math
import os
import sys
import time

import numpy  # plain NumPy: reference solutions and checks on gathered arrays

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import backend  # noqa: E402
import picture  # noqa: E402
import swe_exact  # noqa: E402

G = 9.81
TINY = 1e-300  # a+ - a- is 0 only where a+ = a- = 0, and then the flux is 0
SQRT2 = math.sqrt(2.0)
SIDES = ("west", "east", "south", "north")

# Each case: domain, default grid and time, boundaries (west,east,south,north)
# and its check. A channel (ly None) has square cells: ly = ny * dx.
CASES = {
    "dambreak1d": dict(lx=10.0, ly=None, nx=200, ny=2, t_end=0.5, bc="outflow,outflow,wall,wall",
                       hl=1.0, hr=0.5, check="dambreak"),
    "ritter": dict(lx=10.0, ly=None, nx=200, ny=2, t_end=0.5, bc="outflow,outflow,wall,wall",
                   hl=1.0, hr=0.0, check="dambreak"),
    "lake": dict(lx=1.0, ly=1.0, nx=50, ny=50, t_end=0.5, bc="wall", check="lake"),
    "bump": dict(lx=25.0, ly=None, nx=100, ny=2, t_end=60.0, bc="inflow:4.42,outflow:2,wall,wall", check="bump"),
    "mass": dict(lx=1.0, ly=1.0, nx=64, ny=64, t_end=0.25, bc="wall", check="mass"),
    "dambreak2d": dict(lx=2.0, ly=2.0, nx=100, ny=100, t_end=0.2, bc="wall", hl=2.0, hr=0.5, check="mass"),
}


class InputError(ValueError):
    """Bad input: raised on every rank (the values it names are global)."""


# ---- boundary conditions ----
def parse_bc(text):
    """'KIND' for every side or 'W,E,S,N'; KIND is periodic, wall,
    outflow[:h] (zero gradient, or given depth h) or inflow:q (discharge q
    into the domain). Returns four (kind, value) pairs."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) == 1:
        parts *= 4
    if len(parts) != 4:
        raise InputError(f"--bc {text!r}: give one kind or four (west,east,south,north)")
    out = []
    for side, p in zip(SIDES, parts):
        kind, _, val = p.partition(":")
        if kind not in ("periodic", "wall", "outflow", "inflow"):
            raise InputError(f"--bc: {side} boundary {p!r} is not periodic, wall, outflow[:h] or inflow:q")
        if kind == "inflow" and not val:
            raise InputError(f"--bc: {side} inflow needs its discharge, as inflow:4.42")
        if val and kind in ("periodic", "wall"):
            raise InputError(f"--bc: {side} boundary {p!r} takes no value")
        try:
            v = float(val) if val else None
        except ValueError:
            raise InputError(f"--bc: {side} boundary value {val!r} is not a number") from None
        if kind == "outflow" and v is not None and not v >= 0:
            raise InputError(f"--bc: {side} outflow depth {v} is negative")
        out.append((kind, v))
    for a, b, axis in ((0, 1, "x"), (2, 3, "y")):
        if (out[a][0] == "periodic") != (out[b][0] == "periodic"):
            raise InputError(f"--bc: periodic along {axis} needs both {SIDES[a]} and {SIDES[b]} periodic")
    return out


class Solver:
    """State on (ny + 4) x (nx + 4) padded cell arrays, row j along y and
    column i along x; interior cells are [2:-2, 2:-2]."""

    def __init__(self, np, case="lake", nx=None, ny=None, theta=1.3, bc=None, hl=None, hr=None):
        if case not in CASES:
            raise InputError(f"--case {case!r} is not one of {', '.join(CASES)}")
        c = dict(CASES[case])
        nx = c["nx"] if nx is None else int(nx)
        ny = c["ny"] if ny is None else int(ny)
        if nx < 2 or ny < 2:
            raise InputError(f"grid {nx} x {ny} is too small: the 2-ghost-cell stencil needs nx >= 2 and ny >= 2")
        if not 1.0 <= theta <= 2.0:
            raise InputError(f"--theta {theta} is outside [1, 2] (generalised minmod)")
        self.np, self.case, self.nx, self.ny, self.theta = np, case, nx, ny, float(theta)
        self.dx = c["lx"] / nx
        self.dy = c["ly"] / ny if c["ly"] else self.dx
        self.eps = max(self.dx, self.dy) ** 4  # KP's desingularisation scale
        self.bc = parse_bc(bc if bc is not None else c["bc"])
        self.hl = c.get("hl") if hl is None else float(hl)
        self.hr = c.get("hr") if hr is None else float(hr)
        self.check_kind = c["check"]
        self._bed()
        self._initial()
        self.t, self.steps = 0.0, 0
        self.mass0 = self.mass()

    # -- geometry: bed at vertices, averaged to faces and cells --
    def _bed(self):
        np, nx, ny, dx, dy = self.np, self.nx, self.ny, self.dx, self.dy
        X, Y = np.meshgrid(np.arange(nx + 1) * dx, np.arange(ny + 1) * dy)
        v = np.zeros((ny + 5, nx + 5))
        v[2:ny + 3, 2:nx + 3] = bed(np, self.case, X, Y)
        # ghost vertices mirror the interior (wrap when periodic), so that a
        # wall sees a symmetric bed and the ghost cells a consistent one
        per_x, per_y = self.bc[0][0] == "periodic", self.bc[2][0] == "periodic"
        for k in (1, 2):
            v[:, 2 - k:3 - k] = v[:, nx + 2 - k:nx + 3 - k] if per_x else v[:, 2 + k:3 + k]
            v[:, nx + 2 + k:nx + 3 + k] = v[:, 2 + k:3 + k] if per_x else v[:, nx + 2 - k:nx + 3 - k]
        for k in (1, 2):
            v[2 - k:3 - k, :] = v[ny + 2 - k:ny + 3 - k, :] if per_y else v[2 + k:3 + k, :]
            v[ny + 2 + k:ny + 3 + k, :] = v[2 + k:3 + k, :] if per_y else v[ny + 2 - k:ny + 3 - k, :]
        self.Bc = 0.25 * (v[:-1, :-1] + v[:-1, 1:] + v[1:, :-1] + v[1:, 1:])
        self.Bfx = 0.5 * (v[:-1, :] + v[1:, :])  # [j, i]: west face of cell (j, i)
        self.Bfy = 0.5 * (v[:, :-1] + v[:, 1:])  # [j, i]: south face of cell (j, i)

    def _initial(self):
        np, nx, ny = self.np, self.nx, self.ny
        X, Y = np.meshgrid((np.arange(nx + 4) - 1.5) * self.dx, (np.arange(ny + 4) - 1.5) * self.dy)
        w, hu, hv = initial(np, self.case, X, Y, self.Bc, self.hl, self.hr)
        hmin = float((w - self.Bc)[2:-2, 2:-2].min())
        if hmin < 0:
            raise InputError(f"initial depth is negative: min h = {hmin:g} (case {self.case})")
        self.w, self.hu, self.hv = w, hu, hv
        self.w1, self.hu1, self.hv1 = np.zeros_like(w), np.zeros_like(w), np.zeros_like(w)

    # -- ghost cells --
    def _strip(self, side, k):
        """Cells k layers in from a side (k = 0, 1 interior; -1, -2 ghosts),
        over the interior of the other axis."""
        nx, ny = self.nx, self.ny
        if side == "west":
            return slice(2, ny + 2), slice(2 + k, 3 + k)
        if side == "east":
            return slice(2, ny + 2), slice(nx + 1 - k, nx + 2 - k)
        if side == "south":
            return slice(2 + k, 3 + k), slice(2, nx + 2)
        return slice(ny + 1 - k, ny + 2 - k), slice(2, nx + 2)

    def fill_ghosts(self, w, hu, hv):
        opposite = {"west": "east", "east": "west", "south": "north", "north": "south"}
        for s, (kind, val) in zip(SIDES, self.bc):
            normal, tangent = (hu, hv) if s in ("west", "east") else (hv, hu)
            sign = 1.0 if s in ("west", "south") else -1.0  # inward normal
            for k in (0, 1):
                g, src = self._strip(s, -1 - k), self._strip(s, k)
                if kind == "periodic":
                    src = self._strip(opposite[s], k)
                    w[g], normal[g], tangent[g] = w[src], normal[src], tangent[src]
                elif kind == "wall":
                    w[g], normal[g], tangent[g] = w[src], -normal[src], tangent[src]
                elif kind == "inflow":  # given discharge in, depth zero-gradient
                    w[g], normal[g], tangent[g] = w[src], sign * val, 0.0
                else:  # outflow: zero gradient, or given depth
                    w[g] = w[src] if val is None else val + self.Bc[g]
                    normal[g], tangent[g] = normal[src], tangent[src]

    # -- the central-upwind fluxes along one axis --
    def _cells(self, axis, lo, hi):
        """Padded cells lo..hi-1 along axis, interior rows/columns across."""
        if axis == 1:
            return slice(2, self.ny + 2), slice(lo, hi)
        return slice(lo, hi), slice(2, self.nx + 2)

    @staticmethod
    def _along(axis, lo, hi):
        return (slice(None), slice(lo, hi)) if axis == 1 else (slice(lo, hi), slice(None))

    def _recon(self, q, axis, n):
        """Face values (plus side, minus side) of cells 1..n+2 along axis from
        generalised-minmod slopes."""
        np, th = self.np, self.theta
        qc, ql, qr = q[self._cells(axis, 1, n + 3)], q[self._cells(axis, 0, n + 2)], q[self._cells(axis, 2, n + 4)]
        a, b, c = th * (qc - ql), 0.5 * (qr - ql), th * (qr - qc)
        s = np.maximum(np.minimum(np.minimum(a, b), c), 0.0) + np.minimum(np.maximum(np.maximum(a, b), c), 0.0)
        return qc + 0.5 * s, qc - 0.5 * s

    def _velocity(self, h, q):
        """KP's desingularised q / h, which is 0 where h is 0."""
        np = self.np
        h4 = h * h * h * h
        return SQRT2 * h * q / np.sqrt(h4 + np.maximum(h4, self.eps))

    def fluxes(self, axis, w, qn, qt, speed=True):
        """Numerical fluxes (of w, normal and tangential discharge) on the
        n+1 faces along axis, and (speed) the largest wave speed there."""
        np = self.np
        n = self.nx if axis == 1 else self.ny
        Bf = self.Bfx if axis == 1 else self.Bfy
        wc = w[self._cells(axis, 1, n + 3)]
        wp, wm = self._recon(w, axis, n)
        Bp, Bm = Bf[self._cells(axis, 2, n + 4)], Bf[self._cells(axis, 1, n + 3)]
        # KP's correction: face depths stay >= 0 when the cell's depth is
        lowp, lowm = wp < Bp, wm < Bm
        wp, wm = (np.where(lowp, Bp, np.where(lowm, 2.0 * wc - Bm, wp)),
                  np.where(lowp, 2.0 * wc - Bp, np.where(lowm, Bm, wm)))
        qnp, qnm = self._recon(qn, axis, n)
        qtp, qtm = self._recon(qt, axis, n)
        left, right = self._along(axis, 0, n + 1), self._along(axis, 1, n + 2)
        Bface = Bf[self._cells(axis, 2, n + 3)]
        wL, wR = wp[left], wm[right]
        hL, hR = np.maximum(wL - Bface, 0.0), np.maximum(wR - Bface, 0.0)
        uL, uR = self._velocity(hL, qnp[left]), self._velocity(hR, qnm[right])
        vL, vR = self._velocity(hL, qtp[left]), self._velocity(hR, qtm[right])
        qL, qR = hL * uL, hR * uR
        tL, tR = hL * vL, hR * vR
        cL, cR = np.sqrt(G * hL), np.sqrt(G * hR)
        ap = np.maximum(np.maximum(uR + cR, uL + cL), 0.0)
        am = np.minimum(np.minimum(uR - cR, uL - cL), 0.0)
        inv = 1.0 / np.maximum(ap - am, TINY)
        diff = ap * am * inv
        Fw = (ap * qL - am * qR) * inv + diff * (wR - wL)
        Fn = (ap * (qL * uL + 0.5 * G * hL * hL) - am * (qR * uR + 0.5 * G * hR * hR)) * inv + diff * (qR - qL)
        Ft = (ap * (qL * vL) - am * (qR * vR)) * inv + diff * (tR - tL)
        return Fw, Fn, Ft, float(np.maximum(ap, -am).max()) if speed else None

    def rhs(self, w, hu, hv, speeds=True):
        """dU/dt on the interior cells, and the largest speeds along x and y
        (None where not asked for: the second stage's step is already set,
        and a speed is a global reduction)."""
        nx, ny, dx, dy = self.nx, self.ny, self.dx, self.dy
        self.fill_ghosts(w, hu, hv)
        Fw, Fu, Fv, ax = self.fluxes(1, w, hu, hv, speeds)
        Gw, Gv, Gu, ay = self.fluxes(0, w, hv, hu, speeds)
        I = (slice(2, ny + 2), slice(2, nx + 2))
        h = w[I] - self.Bc[I]
        e, wst = (slice(None), slice(1, nx + 1)), (slice(None), slice(0, nx))
        n, s = (slice(1, ny + 1), slice(None)), (slice(0, ny), slice(None))
        dBx = self.Bfx[2:ny + 2, 3:nx + 3] - self.Bfx[2:ny + 2, 2:nx + 2]
        dBy = self.Bfy[3:ny + 3, 2:nx + 2] - self.Bfy[2:ny + 2, 2:nx + 2]
        Lw = -(Fw[e] - Fw[wst]) / dx - (Gw[n] - Gw[s]) / dy
        Lu = -(Fu[e] - Fu[wst]) / dx - (Gu[n] - Gu[s]) / dy - G * h * dBx / dx
        Lv = -(Fv[e] - Fv[wst]) / dx - (Gv[n] - Gv[s]) / dy - G * h * dBy / dy
        return (Lw, Lu, Lv), ax, ay

    # -- time stepping --
    def stable_dt(self, ax, ay, cfl):
        lim = min(self.dx / ax if ax > 0 else math.inf, self.dy / ay if ay > 0 else math.inf)
        return cfl * lim

    def step(self, cfl=0.25, dt=None, t_end=None):
        """One SSP-RK2 (Heun) step; returns the dt taken. A fixed dt above the
        stable limit is an error (every rank sees the same global limit)."""
        np = self.np
        I = (slice(2, self.ny + 2), slice(2, self.nx + 2))
        (Lw, Lu, Lv), ax, ay = self.rhs(self.w, self.hu, self.hv)
        limit = self.stable_dt(ax, ay, cfl)
        if dt is None:
            dt = limit
        elif dt > limit:
            raise InputError(f"--dt {dt:g} violates the CFL condition at t = {self.t:g}: "
                             f"the stable limit is {limit:g} (cfl {cfl:g})")
        if t_end is not None and self.t + dt > t_end:
            dt = t_end - self.t
        if not math.isfinite(dt):
            raise InputError(f"no wave moves (all cells dry): no time step from cfl {cfl:g}; give --dt")
        Bc = self.Bc[I]
        # max(w, B): round-off must not leave a negative depth behind
        self.w1[I] = np.maximum(self.w[I] + dt * Lw, Bc)
        self.hu1[I] = self.hu[I] + dt * Lu
        self.hv1[I] = self.hv[I] + dt * Lv
        (Lw, Lu, Lv), _, _ = self.rhs(self.w1, self.hu1, self.hv1, speeds=False)
        self.w[I] = np.maximum(0.5 * self.w[I] + 0.5 * (self.w1[I] + dt * Lw), Bc)
        self.hu[I] = 0.5 * self.hu[I] + 0.5 * (self.hu1[I] + dt * Lu)
        self.hv[I] = 0.5 * self.hv[I] + 0.5 * (self.hv1[I] + dt * Lv)
        self.t += dt
        self.steps += 1
        return dt

    def run(self, t_end, cfl=0.25, dt=None, steps=None):
        """Advance to t_end (or exactly `steps` steps); returns wall seconds."""
        if not cfl > 0:
            raise InputError(f"--cfl {cfl} must be positive")
        if dt is not None and not dt > 0:
            raise InputError(f"--dt {dt} must be positive")
        t0 = time.perf_counter()
        if steps is not None:
            for _ in range(steps):
                self.step(cfl, dt)
        else:
            while self.t < t_end:
                self.step(cfl, dt, t_end)
        self.mass()  # a reduction: pending work has run
        return time.perf_counter() - t0

    # -- results --
    def interior(self, a):
        return a[2:self.ny + 2, 2:self.nx + 2]

    def depth(self):
        return self.interior(self.w) - self.interior(self.Bc)

    def mass(self):
        return float(self.depth().sum()) * self.dx * self.dy

    def fields(self):
        """h, hu, hv gathered as NumPy arrays (ny, nx)."""
        return (backend.host(self.depth()), backend.host(self.interior(self.hu)),
                backend.host(self.interior(self.hv)))

    def centres(self):
        return ((numpy.arange(self.nx) + 0.5) * self.dx, (numpy.arange(self.ny) + 0.5) * self.dy)


# ---- cases: bed and initial state (backend arrays, whole-array style) ----
def bed(np, case, X, Y):
    """Bed elevation at the vertices X, Y."""
    if case == "bump":  # Delestre's (SWASHES) bump
        return np.where((X > 8.0) & (X < 12.0), 0.2 - 0.05 * (X - 10.0) * (X - 10.0), 0.0)
    if case in ("lake", "mass"):  # a smooth polynomial mound, below the surface
        r2 = ((X - 0.5) * (X - 0.5) + (Y - 0.5) * (Y - 0.5)) / 0.09
        m = np.maximum(1.0 - r2, 0.0)
        return 0.5 * m * m
    return 0.0 * X


def initial(np, case, X, Y, Bc, hl, hr):
    """w, hu, hv on the padded cells (ghosts are filled before use)."""
    hu, hv = np.zeros(X.shape), np.zeros(X.shape)
    if case in ("dambreak1d", "ritter"):
        return np.where(X < 5.0, hl, hr) + Bc, hu, hv
    if case == "dambreak2d":
        r2 = (X - 1.0) * (X - 1.0) + (Y - 1.0) * (Y - 1.0)
        return np.where(r2 < 0.25 * 0.25, hl, hr) + Bc, hu, hv
    if case == "lake":
        return np.maximum(Bc, 1.0), hu, hv
    if case == "bump":  # w = 2 and the inflow's discharge everywhere: a short transient
        return np.maximum(Bc, 2.0), hu + 4.42, hv
    # mass: a hump of water over the mound
    r2 = ((X - 0.3) * (X - 0.3) + (Y - 0.6) * (Y - 0.6)) / 0.04
    m = np.maximum(1.0 - r2, 0.0)
    return 1.0 + 0.1 * m * m + 0.0 * X, hu, hv


# ---- checks ----
def check(sim):
    """The case's check: a dict of measured errors, the tolerance and ok."""
    h, hu, hv = sim.fields()
    x, _ = sim.centres()
    kind = sim.check_kind
    if kind == "dambreak":
        he, _ = swe_exact.dambreak(x, sim.t, 5.0, sim.hl, sim.hr, G)
        l1 = float(numpy.mean(numpy.abs(h - he[None, :])))
        tol = sim.hl / sim.nx  # first order at the shock and the front
        return dict(name=f"{'ritter' if sim.hr == 0 else 'stoker'} dam break L1(h)", error=l1, tol=tol, ok=l1 < tol)
    if kind == "lake":
        w, b = backend.host(sim.interior(sim.w)), backend.host(sim.interior(sim.Bc))
        dev = float(max(numpy.abs(w - numpy.maximum(b, 1.0)).max(), numpy.abs(hu).max(), numpy.abs(hv).max()))
        return dict(name="lake at rest max(|w - w0|, |hu|, |hv|)", error=dev, tol=1e-12, ok=dev < 1e-12)
    if kind == "bump":
        if sim.bc[0][0] != "inflow" or sim.bc[1][0] != "outflow" or sim.bc[1][1] is None:
            raise InputError("the bump check needs an inflow:q west and an outflow:h east boundary")
        q, hout = sim.bc[0][1], sim.bc[1][1]
        b = backend.host(sim.interior(sim.Bc))
        hb = swe_exact.bernoulli(b, q, hout, G)
        eh, eq = float(numpy.abs(h - hb).max()), float(numpy.abs(hu - q).max())
        tol = 0.5 / sim.nx  # first order: the bed's slope jumps at x = 8 and 12
        return dict(name=f"bump vs Bernoulli max|h - hB| (max|hu - {q:g}| = {eq:.3e})", error=eh, tol=tol,
                    ok=eh < tol and eq < 5.0 * tol, error_q=eq)
    drift = abs(sim.mass() - sim.mass0) / sim.mass0
    return dict(name="relative mass drift", error=drift, tol=1e-13, ok=drift < 1e-13)


def picture_of(sim, path):
    h, _, _ = sim.fields()
    picture.write_png(path, h, origin="lower")


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--case", default="dambreak1d", help=", ".join(CASES))
    p.add_argument("--nx", type=int)
    p.add_argument("--ny", type=int)
    p.add_argument("--t-end", type=float, help="final time (default: the case's)")
    p.add_argument("--steps", type=int, help="take exactly this many steps instead")
    p.add_argument("--cfl", type=float, default=0.25, help="dt = cfl min(dx/ax, dy/ay) (KP's 2-d positivity bound: 0.25)")
    p.add_argument("--dt", type=float, help="fixed time step (an error when above the CFL limit)")
    p.add_argument("--theta", type=float, default=1.3, help="generalised minmod parameter in [1, 2]")
    p.add_argument("--bc", help="boundaries: KIND or W,E,S,N; KIND = periodic, wall, outflow[:h], inflow:q")
    p.add_argument("--hl", type=float, help="dam-break depth upstream / inside")
    p.add_argument("--hr", type=float, help="dam-break depth downstream / outside")
    p.add_argument("--converge", action="store_true", help="also run at twice the resolution; the error must drop")
    p.add_argument("--backend", choices=backend.CHOICES, default="numpy")
    p.add_argument("--png", help="write the depth h as a PNG picture")
    p.add_argument("--save", help="write h, hu, hv as PREFIX_h.npy, PREFIX_hu.npy, PREFIX_hv.npy")
    a = p.parse_args(argv)
    np, rank, size = backend.load(a.backend)
    say = print if rank == 0 else (lambda *x, **k: None)
    try:
        if a.steps is not None and a.steps < 0:
            raise InputError(f"--steps {a.steps} is negative")
        if a.t_end is not None and not a.t_end > 0:
            raise InputError(f"--t-end {a.t_end} must be positive")
        if a.converge and CASES.get(a.case, {}).get("check") not in ("dambreak", "bump"):
            raise InputError(f"--converge needs a case whose error drops with resolution (dambreak1d, ritter, bump), "
                             f"not {a.case}")
        sim = Solver(np, a.case, a.nx, a.ny, a.theta, a.bc, a.hl, a.hr)
        t_end = CASES[a.case]["t_end"] if a.t_end is None else a.t_end
        secs = sim.run(t_end, a.cfl, a.dt, a.steps)
        res = check(sim)
        fine = None
        if a.converge:
            channel = CASES[a.case]["ly"] is None  # rows stay alike: keep ny
            sim2 = Solver(np, a.case, 2 * sim.nx, sim.ny if channel else 2 * sim.ny, a.theta, a.bc, a.hl, a.hr)
            sim2.run(t_end, a.cfl, None if a.dt is None else a.dt / 2, None if a.steps is None else 2 * a.steps)
            fine = check(sim2)
    except InputError as e:
        say(f"swe: error: {e}", file=sys.stderr)
        return 2
    cells, secs = sim.nx * sim.ny, max(secs, 1e-9)
    say(f"swe {a.case} {sim.nx}x{sim.ny}, {sim.steps} steps to t = {sim.t:.6g}, {a.backend} on "
        f"{size} rank(s)")
    say(f"check: {res['name']} = {res['error']:.3e} (tol {res['tol']:.1e}) {'PASS' if res['ok'] else 'FAIL'}")
    ok = res["ok"]
    if fine is not None:
        dropped = fine["error"] < 0.8 * res["error"]
        say(f"check: at {2 * sim.nx} cells {fine['error']:.3e} (ratio {res['error'] / fine['error']:.2f}) "
            f"{'PASS' if dropped and fine['ok'] else 'FAIL'}")
        ok = ok and dropped and fine["ok"]
    if all(k in ("wall", "periodic") for k, _ in sim.bc):  # closed: mass is conserved
        say(f"mass drift: {abs(sim.mass() - sim.mass0) / sim.mass0:.3e}")
    say(f"throughput: {cells * sim.steps / secs / 1e6:.3f} M cell updates/s, {1e3 * secs / max(sim.steps, 1):.3f} ms/step")
    if a.png:
        picture_of(sim, a.png)
        say(f"picture: {a.png} (depth h, {sim.nx}x{sim.ny})")
    if a.save:  # maniple's save is collective; plain NumPy's is rank 0's alone
        for name, f in zip(("h", "hu", "hv"), (sim.depth(), sim.interior(sim.hu), sim.interior(sim.hv))):
            if a.backend == "maniple":
                np.save(f"{a.save}_{name}.npy", f)
            elif rank == 0:
                numpy.save(f"{a.save}_{name}.npy", f)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
