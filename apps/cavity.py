#!/usr/bin/env python3
"""cavity: incompressible Navier-Stokes on a square, as Lorena Barba's "12
steps to Navier-Stokes" writes it: lid-driven cavity flow (step 11) and
channel flow, periodic in x and driven by a source term F (step 12).

    python apps/cavity.py --case cavity --backend numpy
    mpiexec -n 3 python apps/cavity.py --case channel --backend maniple --png u.png

The code is the course's NumPy, whole-array: slices such as p[1:-1, 2:],
boundary conditions by slice assignment, the periodic wrap of step 12 as
explicit column slices (u[1:-1, -1] next to u[1:-1, 0]), nit Jacobi-like
sweeps of the pressure Poisson equation per time step. Only the array
module is chosen at run time (--backend numpy or maniple), so both backends
run this same code. apps/cavity.c is the same scheme in C; docs/apps.md
describes the cases, flags and checks.
"""
import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import backend  # noqa: E402

CASES = ("cavity", "channel")
# the course's parameters; the channel takes a 10x larger dt, as step 12 does
DEFAULTS = dict(cavity=dict(nt=500, dt=0.001), channel=dict(nt=100000, dt=0.01))


def check_input(case, nx, ny, nt, nit, dt, rho, nu, tol):
    """Bad input is a ValueError naming the value (raised on every rank)."""
    if case not in CASES:
        raise ValueError(f"--case {case!r} is not one of {', '.join(CASES)}")
    if nx < 3 or ny < 3:
        raise ValueError(f"grid {nx} x {ny} is smaller than the 3-point stencil: "
                         "--nx and --ny must be at least 3")
    if nt < 0:
        raise ValueError(f"--nt {nt} is negative")
    if nit < 0:
        raise ValueError(f"--nit {nit} is negative")
    for name, val in (("dt", dt), ("rho", rho), ("nu", nu), ("tol", tol)):
        if not val > 0:
            raise ValueError(f"--{name} {val:g} must be positive")


# ---- step 11: lid-driven cavity ----
def build_up_b(b, rho, dt, u, v, dx, dy):
    b[1:-1, 1:-1] = (rho * (1 / dt *
                    ((u[1:-1, 2:] - u[1:-1, 0:-2]) /
                     (2 * dx) + (v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy)) -
                    ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx))**2 -
                      2 * ((u[2:, 1:-1] - u[0:-2, 1:-1]) / (2 * dy) *
                           (v[1:-1, 2:] - v[1:-1, 0:-2]) / (2 * dx)) -
                          ((v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy))**2))
    return b


def pressure_poisson(p, dx, dy, b, nit):
    for q in range(nit):
        pn = p.copy()
        p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, 0:-2]) * dy**2 +
                          (pn[2:, 1:-1] + pn[0:-2, 1:-1]) * dx**2) /
                          (2 * (dx**2 + dy**2)) -
                          dx**2 * dy**2 / (2 * (dx**2 + dy**2)) *
                          b[1:-1, 1:-1])
        p[:, -1] = p[:, -2]  # dp/dx = 0 at x = 2
        p[0, :] = p[1, :]    # dp/dy = 0 at y = 0
        p[:, 0] = p[:, 1]    # dp/dx = 0 at x = 0
        p[-1, :] = 0         # p = 0 at y = 2
    return p


def cavity_flow(np, nt, u, v, dt, dx, dy, p, rho, nu, nit):
    b = np.zeros(u.shape)
    for n in range(nt):
        un = u.copy()
        vn = v.copy()
        b = build_up_b(b, rho, dt, u, v, dx, dy)
        p = pressure_poisson(p, dx, dy, b, nit)
        u[1:-1, 1:-1] = (un[1:-1, 1:-1] -
                         un[1:-1, 1:-1] * dt / dx *
                        (un[1:-1, 1:-1] - un[1:-1, 0:-2]) -
                         vn[1:-1, 1:-1] * dt / dy *
                        (un[1:-1, 1:-1] - un[0:-2, 1:-1]) -
                         dt / (2 * rho * dx) * (p[1:-1, 2:] - p[1:-1, 0:-2]) +
                         nu * (dt / dx**2 *
                        (un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, 0:-2]) +
                         dt / dy**2 *
                        (un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[0:-2, 1:-1])))
        v[1:-1, 1:-1] = (vn[1:-1, 1:-1] -
                         un[1:-1, 1:-1] * dt / dx *
                        (vn[1:-1, 1:-1] - vn[1:-1, 0:-2]) -
                         vn[1:-1, 1:-1] * dt / dy *
                        (vn[1:-1, 1:-1] - vn[0:-2, 1:-1]) -
                         dt / (2 * rho * dy) * (p[2:, 1:-1] - p[0:-2, 1:-1]) +
                         nu * (dt / dx**2 *
                        (vn[1:-1, 2:] - 2 * vn[1:-1, 1:-1] + vn[1:-1, 0:-2]) +
                         dt / dy**2 *
                        (vn[2:, 1:-1] - 2 * vn[1:-1, 1:-1] + vn[0:-2, 1:-1])))
        u[0, :] = 0
        u[:, 0] = 0
        u[:, -1] = 0
        u[-1, :] = 1  # the lid moves with velocity 1
        v[0, :] = 0
        v[-1, :] = 0
        v[:, 0] = 0
        v[:, -1] = 0
    return u, v, p, nt


# ---- step 12: channel flow, periodic in x ----
def build_up_b_periodic(np, rho, dt, dx, dy, u, v):
    b = np.zeros_like(u)
    b[1:-1, 1:-1] = (rho * (1 / dt * ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx) +
                                      (v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy)) -
                            ((u[1:-1, 2:] - u[1:-1, 0:-2]) / (2 * dx))**2 -
                            2 * ((u[2:, 1:-1] - u[0:-2, 1:-1]) / (2 * dy) *
                                 (v[1:-1, 2:] - v[1:-1, 0:-2]) / (2 * dx)) -
                            ((v[2:, 1:-1] - v[0:-2, 1:-1]) / (2 * dy))**2))
    # periodic BC pressure @ x = 2
    b[1:-1, -1] = (rho * (1 / dt * ((u[1:-1, 0] - u[1:-1, -2]) / (2 * dx) +
                                    (v[2:, -1] - v[0:-2, -1]) / (2 * dy)) -
                          ((u[1:-1, 0] - u[1:-1, -2]) / (2 * dx))**2 -
                          2 * ((u[2:, -1] - u[0:-2, -1]) / (2 * dy) *
                               (v[1:-1, 0] - v[1:-1, -2]) / (2 * dx)) -
                          ((v[2:, -1] - v[0:-2, -1]) / (2 * dy))**2))
    # periodic BC pressure @ x = 0
    b[1:-1, 0] = (rho * (1 / dt * ((u[1:-1, 1] - u[1:-1, -1]) / (2 * dx) +
                                   (v[2:, 0] - v[0:-2, 0]) / (2 * dy)) -
                         ((u[1:-1, 1] - u[1:-1, -1]) / (2 * dx))**2 -
                         2 * ((u[2:, 0] - u[0:-2, 0]) / (2 * dy) *
                              (v[1:-1, 1] - v[1:-1, -1]) / (2 * dx)) -
                         ((v[2:, 0] - v[0:-2, 0]) / (2 * dy))**2))
    return b


def pressure_poisson_periodic(p, dx, dy, b, nit):
    for q in range(nit):
        pn = p.copy()
        p[1:-1, 1:-1] = (((pn[1:-1, 2:] + pn[1:-1, 0:-2]) * dy**2 +
                          (pn[2:, 1:-1] + pn[0:-2, 1:-1]) * dx**2) /
                         (2 * (dx**2 + dy**2)) -
                         dx**2 * dy**2 / (2 * (dx**2 + dy**2)) * b[1:-1, 1:-1])
        # periodic BC pressure @ x = 2
        p[1:-1, -1] = (((pn[1:-1, 0] + pn[1:-1, -2]) * dy**2 +
                        (pn[2:, -1] + pn[0:-2, -1]) * dx**2) /
                       (2 * (dx**2 + dy**2)) -
                       dx**2 * dy**2 / (2 * (dx**2 + dy**2)) * b[1:-1, -1])
        # periodic BC pressure @ x = 0
        p[1:-1, 0] = (((pn[1:-1, 1] + pn[1:-1, -1]) * dy**2 +
                       (pn[2:, 0] + pn[0:-2, 0]) * dx**2) /
                      (2 * (dx**2 + dy**2)) -
                      dx**2 * dy**2 / (2 * (dx**2 + dy**2)) * b[1:-1, 0])
        # wall boundary conditions, pressure
        p[-1, :] = p[-2, :]  # dp/dy = 0 at y = 2
        p[0, :] = p[1, :]    # dp/dy = 0 at y = 0
    return p


def channel_flow(np, nt, u, v, dt, dx, dy, p, rho, nu, nit, F, tol):
    """Step until the relative change of sum(u) is below tol (at most nt steps)."""
    udiff = 1
    stepcount = 0
    while udiff > tol and stepcount < nt:
        un = u.copy()
        vn = v.copy()
        b = build_up_b_periodic(np, rho, dt, dx, dy, u, v)
        p = pressure_poisson_periodic(p, dx, dy, b, nit)
        u[1:-1, 1:-1] = (un[1:-1, 1:-1] -
                         un[1:-1, 1:-1] * dt / dx *
                        (un[1:-1, 1:-1] - un[1:-1, 0:-2]) -
                         vn[1:-1, 1:-1] * dt / dy *
                        (un[1:-1, 1:-1] - un[0:-2, 1:-1]) -
                         dt / (2 * rho * dx) *
                        (p[1:-1, 2:] - p[1:-1, 0:-2]) +
                         nu * (dt / dx**2 *
                        (un[1:-1, 2:] - 2 * un[1:-1, 1:-1] + un[1:-1, 0:-2]) +
                         dt / dy**2 *
                        (un[2:, 1:-1] - 2 * un[1:-1, 1:-1] + un[0:-2, 1:-1])) +
                         F * dt)
        v[1:-1, 1:-1] = (vn[1:-1, 1:-1] -
                         un[1:-1, 1:-1] * dt / dx *
                        (vn[1:-1, 1:-1] - vn[1:-1, 0:-2]) -
                         vn[1:-1, 1:-1] * dt / dy *
                        (vn[1:-1, 1:-1] - vn[0:-2, 1:-1]) -
                         dt / (2 * rho * dy) *
                        (p[2:, 1:-1] - p[0:-2, 1:-1]) +
                         nu * (dt / dx**2 *
                        (vn[1:-1, 2:] - 2 * vn[1:-1, 1:-1] + vn[1:-1, 0:-2]) +
                         dt / dy**2 *
                        (vn[2:, 1:-1] - 2 * vn[1:-1, 1:-1] + vn[0:-2, 1:-1])))
        # periodic BC u @ x = 2
        u[1:-1, -1] = (un[1:-1, -1] - un[1:-1, -1] * dt / dx *
                      (un[1:-1, -1] - un[1:-1, -2]) -
                       vn[1:-1, -1] * dt / dy *
                      (un[1:-1, -1] - un[0:-2, -1]) -
                       dt / (2 * rho * dx) *
                      (p[1:-1, 0] - p[1:-1, -2]) +
                       nu * (dt / dx**2 *
                      (un[1:-1, 0] - 2 * un[1:-1, -1] + un[1:-1, -2]) +
                       dt / dy**2 *
                      (un[2:, -1] - 2 * un[1:-1, -1] + un[0:-2, -1])) + F * dt)
        # periodic BC u @ x = 0
        u[1:-1, 0] = (un[1:-1, 0] - un[1:-1, 0] * dt / dx *
                     (un[1:-1, 0] - un[1:-1, -1]) -
                      vn[1:-1, 0] * dt / dy *
                     (un[1:-1, 0] - un[0:-2, 0]) -
                      dt / (2 * rho * dx) *
                     (p[1:-1, 1] - p[1:-1, -1]) +
                      nu * (dt / dx**2 *
                     (un[1:-1, 1] - 2 * un[1:-1, 0] + un[1:-1, -1]) +
                      dt / dy**2 *
                     (un[2:, 0] - 2 * un[1:-1, 0] + un[0:-2, 0])) + F * dt)
        # periodic BC v @ x = 2
        v[1:-1, -1] = (vn[1:-1, -1] - un[1:-1, -1] * dt / dx *
                      (vn[1:-1, -1] - vn[1:-1, -2]) -
                       vn[1:-1, -1] * dt / dy *
                      (vn[1:-1, -1] - vn[0:-2, -1]) -
                       dt / (2 * rho * dy) *
                      (p[2:, -1] - p[0:-2, -1]) +
                       nu * (dt / dx**2 *
                      (vn[1:-1, 0] - 2 * vn[1:-1, -1] + vn[1:-1, -2]) +
                       dt / dy**2 *
                      (vn[2:, -1] - 2 * vn[1:-1, -1] + vn[0:-2, -1])))
        # periodic BC v @ x = 0
        v[1:-1, 0] = (vn[1:-1, 0] - un[1:-1, 0] * dt / dx *
                     (vn[1:-1, 0] - vn[1:-1, -1]) -
                      vn[1:-1, 0] * dt / dy *
                     (vn[1:-1, 0] - vn[0:-2, 0]) -
                      dt / (2 * rho * dy) *
                     (p[2:, 0] - p[0:-2, 0]) +
                      nu * (dt / dx**2 *
                     (vn[1:-1, 1] - 2 * vn[1:-1, 0] + vn[1:-1, -1]) +
                      dt / dy**2 *
                     (vn[2:, 0] - 2 * vn[1:-1, 0] + vn[0:-2, 0])))
        # wall BC: u, v = 0 @ y = 0, 2
        u[0, :] = 0
        u[-1, :] = 0
        v[0, :] = 0
        v[-1, :] = 0

        udiff = (np.sum(u) - np.sum(un)) / np.sum(u)
        stepcount += 1
    return u, v, p, stepcount


def run(np, case="cavity", nx=41, ny=41, nt=None, nit=50, dt=None, rho=1.0, nu=0.1, F=1.0, tol=1e-3, perturb=0.0):
    """One case on the 2 x 2 square; returns dict(u, v, p, steps), the
    fields as arrays of np, indexed [y, x]. nt defaults to the case's (for
    the channel it caps the steps taken to reach tol). perturb: amplitude of
    an initial v, sin(pi y / 2) sin(2 pi j / nx), which makes the flow vary
    along x (the course starts at rest, where every column stays alike)."""
    nt = DEFAULTS.get(case, {}).get("nt", 0) if nt is None else nt
    dt = DEFAULTS.get(case, {}).get("dt", 1.0) if dt is None else dt
    check_input(case, nx, ny, nt, nit, dt, rho, nu, tol)
    dx = 2 / (nx - 1)
    dy = 2 / (ny - 1)
    u = np.zeros((ny, nx))
    v = np.zeros((ny, nx))
    if perturb:
        i, j = np.arange(1, ny - 1), np.arange(nx)
        v[1:-1, :] = perturb * np.sin(np.pi * i / (ny - 1))[:, None] * np.sin(2 * np.pi * j / nx)[None, :]
    if case == "cavity":
        p = np.zeros((ny, nx))
        u, v, p, steps = cavity_flow(np, nt, u, v, dt, dx, dy, p, rho, nu, nit)
    else:
        p = np.ones((ny, nx))
        u, v, p, steps = channel_flow(np, nt, u, v, dt, dx, dy, p, rho, nu, nit, F, tol)
    return dict(u=u, v=v, p=p, steps=steps)


def summary(np, f):
    """The printed figures (Python floats, the same on every rank)."""
    u, v = f["u"], f["v"]
    ny, nx = u.shape
    line = u[:, nx // 2]  # u on the vertical centreline x = 1
    return dict(umax=float(np.max(np.abs(u))), vmax=float(np.max(np.abs(v))),
                uc=float(u[ny // 2, nx // 2]), vc=float(v[ny // 2, nx // 2]),
                line_min=float(np.min(line)), line_max=float(np.max(line)))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--case", default="cavity", help="cavity (step 11) or channel (step 12)")
    p.add_argument("--nx", type=int, default=41)
    p.add_argument("--ny", type=int, default=41)
    p.add_argument("--nt", type=int, help="time steps (channel: at most; default 500 / 100000)")
    p.add_argument("--nit", type=int, default=50, help="pressure sweeps per time step")
    p.add_argument("--dt", type=float, help="time step (default 0.001 / 0.01)")
    p.add_argument("--rho", type=float, default=1.0)
    p.add_argument("--nu", type=float, default=0.1)
    p.add_argument("--tol", type=float, default=1e-3, help="channel: stop when the change of sum(u) / sum(u) <= tol")
    p.add_argument("--perturb", type=float, default=0.0, help="amplitude of an initial v varying along x")
    p.add_argument("--backend", choices=backend.CHOICES, default="numpy")
    p.add_argument("--png", help="write the speed sqrt(u^2 + v^2) as a PNG picture")
    a = p.parse_args(argv)
    np, rank, size = backend.load(a.backend)
    say = backend.printer(rank)
    try:
        t0 = time.perf_counter()
        f = run(np, a.case, a.nx, a.ny, a.nt, a.nit, a.dt, a.rho, a.nu, tol=a.tol, perturb=a.perturb)
        backend.check_finite(f["steps"], **{k: float(np.sum(f[k])) for k in ("u", "v", "p")})
        s = summary(np, f)  # its reductions also wait for the last step
        secs = max(time.perf_counter() - t0, 1e-9)
    except ValueError as e:
        return backend.error_exit("cavity", e)
    steps = f["steps"]
    say(f"cavity: case {a.case}, {a.nx}x{a.ny}, {steps} steps, nit {a.nit}, {a.backend} on {size} rank(s)")
    say(f"max |u| = {s['umax']:.12e}, max |v| = {s['vmax']:.12e}")
    say(f"centre (x = 1, y = 1): u = {s['uc']:.12e}, v = {s['vc']:.12e}")
    say(f"centreline x = 1: min u = {s['line_min']:.6e}, max u = {s['line_max']:.6e}")
    say(f"throughput: {a.nx * a.ny * steps / secs / 1e6:.3f} M points/s (time steps), "
        f"{a.nx * a.ny * steps * a.nit / secs / 1e6:.3f} M points/s (pressure sweeps), {1e3 * secs / max(steps, 1):.3f} ms/step")
    if a.png:
        speed = np.sqrt(f["u"] ** 2 + f["v"] ** 2)
        backend.write_picture(a.png, speed, origin="lower")
        say(f"picture: {a.png} (speed, {a.nx}x{a.ny}, y up)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
