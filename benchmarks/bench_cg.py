"""The PETSc comparison: CG with a Jacobi preconditioner on the 2-d 5-point
Poisson matrix (G x G grid), exactly `its` iterations with no convergence
test, at 1 and 2 ranks: maniple (bench_cg), maniple.sparse.linalg.cg called
as SciPy's is (M=diags(1 / A.diagonal())) and PETSc (bench_cg_petsc, when
built) interleaved round by round, and SciPy's cg on one rank; the STREAM
triad on one core in each round for scale. Each program times every solve
after a warm-up one; medians pool the solves of every round.

    python benchmarks/bench_cg.py [G=2000] [its=200] [rounds=3] [reps=3] [build] [--scipy-only]

--scipy-only times just SciPy's solve (reps of them) for python -m maniple.bench;
--maniple-scipy-style is what mpiexec runs for the maniple.sparse row.

One JSON line per (implementation, ranks), then the maniple/PETSc ratios."""
import ctypes
import json
import os
import statistics
import subprocess
import sys
import time

import numpy

G = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
ITS = int(sys.argv[2]) if len(sys.argv) > 2 else 200
ROUNDS = int(sys.argv[3]) if len(sys.argv) > 3 else 3
REPS = int(sys.argv[4]) if len(sys.argv) > 4 else 3
BUILD = sys.argv[5] if len(sys.argv) > 5 else "build"
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1",
           OMPI_MCA_btl_vader_single_copy_mechanism="none")
PROGRAMS = {"maniple": os.path.join(BUILD, "benchmarks", "bench_cg"),
            "petsc": os.path.join(BUILD, "benchmarks", "bench_cg_petsc")}


def run(impl, np_):
    py = impl not in PROGRAMS  # this file's maniple.sparse row
    prog = [sys.executable, os.path.abspath(__file__)] if py else [PROGRAMS[impl]]
    cmd = ["timeout", "-k", "5", "600", "mpiexec", "-n", str(np_), "--bind-to", "core", *prog,
           str(G), str(ITS)] + ([str(ROUNDS), str(REPS), BUILD, "--maniple-scipy-style"] if py else [str(REPS)])
    out = subprocess.run(cmd, env=ENV, capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed ({out.returncode}): {out.stderr[-2000:]}")
    line = [ln for ln in out.stdout.splitlines() if ln.startswith("{")][-1]
    return json.loads(line)


def scipy_cg(reps=1):
    import scipy.sparse as sp
    import scipy.sparse.linalg as sla
    t = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(G, G))
    A = sp.csr_array(sp.kronsum(t, t))
    A.indices = A.indices.astype(numpy.int32)
    b = numpy.ones(G * G)
    dinv = 1.0 / A.diagonal()
    M = sla.LinearOperator(A.shape, matvec=lambda r: dinv * r, dtype=float)
    times = []
    for _ in range(reps + 1):  # the first solve warms up
        t0 = time.perf_counter()
        sla.cg(A, b, rtol=0.0, atol=0.0, maxiter=ITS, M=M)  # never converges: exactly ITS iterations
        times.append(time.perf_counter() - t0)
    return times[1:] if reps > 1 else times[-1]


def maniple_scipy_style():
    """maniple.sparse.linalg.cg with a sparse diagonal M, as a SciPy user
    writes it; each rank times the solves, rank 0 prints them"""
    import scipy.sparse as sp
    import maniple
    import maniple.numpy as mnp
    import maniple.sparse as msp
    import maniple.sparse.linalg as mla
    t = sp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(G, G))
    A = msp.csr_array(sp.csr_array(sp.kronsum(t, t)))
    b = mnp.ones(G * G)
    M = msp.diags_array(1.0 / A.diagonal())
    times = []
    for _ in range(REPS + 1):  # the first solve warms up
        t0 = time.perf_counter()
        mla.cg(A, b, rtol=0.0, atol=0.0, maxiter=ITS, M=M)  # never converges: exactly ITS iterations
        times.append(time.perf_counter() - t0)
    if maniple.rank() == 0:
        print(json.dumps({"bench": "cg_jacobi_poisson", "impl": "maniple_scipy_style", "ranks": maniple.size(), "G": G,
                          "iterations": ITS, "times_s": times[1:]}))


def triad():
    roof = ctypes.CDLL(os.path.join(BUILD, "benchmarks", "libmn_roof.so"))
    roof.mn_roof_triad.argtypes = [ctypes.c_int64, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_double]
    n = 20_000_000
    a, b, c = numpy.zeros(n), numpy.ones(n), numpy.ones(n)
    best = 1e30
    for _ in range(5):
        t0 = time.perf_counter()
        roof.mn_roof_triad(n, a.ctypes.data, b.ctypes.data, c.ctypes.data, 3.0)
        best = min(best, time.perf_counter() - t0)
    return 24 * n / best / 1e9


def main():
    if "--maniple-scipy-style" in sys.argv:
        maniple_scipy_style()
        return
    if "--scipy-only" in sys.argv:  # the suite's SciPy peer: REPS timed solves
        print(json.dumps({"bench": "cg_jacobi_poisson", "impl": "scipy", "ranks": 1, "G": G, "iterations": ITS,
                          "times_s": scipy_cg(max(REPS, 2))}))
        return
    have = {k: os.path.exists(p) for k, p in PROGRAMS.items()}
    if not have["maniple"]:
        sys.exit(f"bench_cg.py: {PROGRAMS['maniple']} is not built")
    times = {}
    extra = {}
    stream, scipy_t = [], []
    for rnd in range(ROUNDS):
        stream.append(triad())
        order = ["maniple", "maniple_scipy_style", "petsc"] if rnd % 2 == 0 else ["petsc", "maniple_scipy_style",
                                                                                    "maniple"]
        for np_ in (1, 2):
            for impl in order:
                if not have.get(impl, True):
                    continue
                r = run(impl, np_)
                times.setdefault((impl, np_), []).extend(r["times_s"])
                if "unfused_c_ms_per_iteration_best" in r:
                    extra.setdefault("unfused", []).append(r["unfused_c_ms_per_iteration_best"])
        scipy_t.append(scipy_cg())
    gbs = statistics.median(stream)
    med = {}
    for (impl, np_), ts in sorted(times.items()):
        med[(impl, np_)] = statistics.median(ts)
        print(json.dumps({"bench": "cg_jacobi_poisson", "impl": impl, "ranks": np_, "G": G, "iterations": ITS,
                          "solves": len(ts), "median_ms_per_iteration": 1e3 * med[(impl, np_)] / ITS,
                          "min_ms_per_iteration": 1e3 * min(ts) / ITS, "max_ms_per_iteration": 1e3 * max(ts) / ITS}))
    print(json.dumps({"bench": "cg_jacobi_poisson", "impl": "scipy", "ranks": 1, "G": G, "iterations": ITS,
                      "solves": len(scipy_t), "median_ms_per_iteration": 1e3 * statistics.median(scipy_t) / ITS,
                      "min_ms_per_iteration": 1e3 * min(scipy_t) / ITS, "max_ms_per_iteration": 1e3 * max(scipy_t) / ITS}))
    if extra:
        print(json.dumps({"bench": "cg_jacobi_poisson", "impl": "unfused_c_loop", "ranks": 1, "G": G,
                          "median_ms_per_iteration": statistics.median(extra["unfused"])}))
    # CG + Jacobi moves about 8 vectors and the matrix (12 B per entry, 5 per row) per iteration
    print(json.dumps({"bench": "stream_triad", "impl": "c_loop", "ranks": 1, "GBps": gbs}))
    for np_ in (1, 2):
        row = {"bench": "cg_ratio", "ranks": np_, "G": G}
        if ("petsc", np_) in med:
            row["maniple_over_petsc"] = med[("maniple", np_)] / med[("petsc", np_)]
            row["maniple_scipy_style_over_petsc"] = med[("maniple_scipy_style", np_)] / med[("petsc", np_)]
        else:
            row["petsc"] = "not built (Debian's petsc-dev absent when CMake ran)"
        if np_ == 1:
            row["scipy_over_maniple"] = statistics.median(scipy_t) / med[("maniple", 1)]
        print(json.dumps(row))


if __name__ == "__main__":
    main()
