"""Allreduces per step in the steady state, at 2 and 4 ranks, from the
MANIPLE_LOG_VIEW=1 table of s and of 2s steps (the difference leaves out
the set-up), as the benchmark's counters take them:

- the seeds' stencil idiom (average = center + north + east + west + south;
  average = 0.2 * average; center[:] = average): none;
- maniple.numpy heat: none;
- swe: only its own reductions' (the CFL time step);
- cavity: none (the script asks for no reduction in a step);

and every message a step sends is a halo, at most two rows of the grid
(no array is redistributed: the fields, their faces and their interiors
share one process grid).

    python steady_counts.py MPIEXEC [MPIEXEC_FLAGS...]
Run by ctest (steady_counts); exits 1 with the counts when one is off."""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def idiom(n, steps):
    """The seeds' stencil idiom, steps iterations (run under mpiexec)."""
    import maniple.numpy as np
    grid = np.zeros((n + 2, n + 2))
    grid[0, :] = 1.0
    center = grid[1:-1, 1:-1]
    north, east = grid[0:-2, 1:-1], grid[1:-1, 2:]
    west, south = grid[1:-1, 0:-2], grid[2:, 1:-1]
    for _ in range(steps):
        average = center + north + east + west + south
        average = 0.2 * average
        center[:] = average
    float(grid[n // 2, n // 2])  # forces the last sweep


def run(mpiexec, np_, argv, timeout=300):
    from maniple.bench.counters import parse_table
    env = dict(os.environ, MANIPLE_LOG_VIEW="1", OMP_NUM_THREADS="1")
    cmd = [*mpiexec[:1], "-n", str(np_), *mpiexec[1:], sys.executable, *argv]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)
    if out.returncode:
        raise SystemExit(f"{' '.join(cmd)} failed ({out.returncode}):\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    return parse_table(out.stdout + out.stderr)


def per_step(mpiexec, np_, argv, flag, s):
    """(allreduces, of them in reductions, reductions, bytes per message) a
    step; flag "": the steps are the last positional argument (the idiom)."""
    def steps(k):
        return argv + ([flag, str(k)] if flag else [str(k)])
    a, b = run(mpiexec, np_, steps(s)), run(mpiexec, np_, steps(2 * s))

    def d(kind, field):
        return (b.get(kind, {}).get(field, 0) - a.get(kind, {}).get(field, 0)) / s
    msgs = d("plan_begin", "messages")
    return (d("allreduce", "calls"), d("reduce", "allreduces"), d("reduce", "calls"),
            d("plan_begin", "msg_bytes") / msgs if msgs else 0.0)


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--idiom":
        idiom(int(sys.argv[2]), int(sys.argv[3]))
        return 0
    mpiexec = sys.argv[1:]
    apps = os.path.join(ROOT, "apps")
    cases = [  # name, argv, step flag, s, allowed: "none" or "reductions", grid side
        ("seeds' stencil idiom", [__file__, "--idiom", "64"], "", 5, "none", 64),
        ("heat", [os.path.join(apps, "heat.py"), "--n", "96", "--backend", "maniple"], "--iterations", 3, "none", 96),
        ("swe", [os.path.join(apps, "swe.py"), "--case", "dambreak2d", "--nx", "64", "--ny", "64", "--backend",
                 "maniple"], "--steps", 3, "reductions", 64),
        ("cavity", [os.path.join(apps, "cavity.py"), "--nx", "48", "--ny", "48", "--nit", "20", "--dt", "1e-5",
                    "--backend", "maniple"], "--nt", 2, "none", 48),
    ]
    bad = 0
    for np_ in (2, 4):
        for name, argv, flag, s, allowed, side in cases:
            ar, red_ar, reds, per_msg = per_step(mpiexec, np_, argv, flag, s)
            want = red_ar if allowed == "reductions" else 0.0
            halo = 2 * 8 * (side + 5)  # two rows of the widest (padded) array
            ok = ar == want and (allowed == "none" or reds > 0) and 0 < per_msg <= halo
            bad += not ok
            print(f"{name} at {np_} ranks: {ar:g} allreduces a step, {red_ar:g} in {reds:g} reductions"
                  f" (allowed: {allowed}); {per_msg:.0f} bytes a message (halo bound {halo})"
                  f" {'ok' if ok else 'WRONG'}", flush=True)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
