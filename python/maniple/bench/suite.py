"""What the suite runs: every job with its command, its scaling label and
how its output becomes records. Sizes are per rank for weak scaling (the
global problem grows with the ranks) and global for strong scaling."""
import dataclasses
import json
import math
import os
import re
import sys
from dataclasses import dataclass, field

from . import records

# Minimal memory traffic per unit of work (bytes), the same figures the
# model uses: heat reads the old grid and writes the new one; swe reads
# h, hu, hv and b and writes h, hu, hv in each of its two RK stages;
# cavity makes nit pressure sweeps (read p and the source, write p) and one
# momentum update (read u, v, p, write u, v, and the source).
BYTES = {"heat": 16.0, "swe": 2 * 7 * 8.0, "stream": 24.0, "triad": 24.0, "stencil5": 16.0}


# suffix of the GPU column's implementations ("c/cuda", "maniple.numpy/cuda")
GPU = "/cuda"
# the seeds' stencil idiom's grid sides (issue 19's goals are stated at both)
IDIOM_SIZES = (2000, 4000)
IDIOM_WARM = 30  # untimed sweeps before the idiom's clock, every implementation alike (bench_numpy.py)
# dense_la.py workloads and their sizes (matrix order; samples for the regressions)
DENSE_LA = (("cg", 2000), ("jacobi", 2000), ("linreg", 100000), ("logreg", 100000),
            ("cholesky", 4000), ("solve", 4000), ("qr", 4000))
DENSE_FACTOR = ("cholesky", "solve", "qr")  # one factorisation per iteration


def cavity_bytes(nit):
    return 24.0 * nit + 64.0


@dataclass
class Job:
    bench: str
    impl: str
    ranks: int
    scaling: str          # weak | strong | serial
    size: int             # global units of work per run (points, cells, rows)
    unit: str
    cmd: list
    kind: str = "app"     # app: one rate per launch; program: JSON lines out
    variant: str = ""
    bytes_per_unit: float = None
    launcher: str = "mpi"
    env: dict = field(default_factory=dict)
    timeout: int = 600
    group: str = ""       # app jobs of one group run interleaved, run by run
    alt: list = None      # counters: the command with twice the steps
    steps: int = 0        # counters: steps (iterations) the first command takes

    def label(self):
        v = f" {self.variant}" if self.variant else ""
        return f"{self.bench}{v} {self.impl} x{self.ranks} ({self.scaling})"


def rate_from_app(text):
    """The first figure of an app's 'throughput: X M ...' line, per second."""
    m = re.search(r"^throughput:\D*?([0-9.]+(?:e[+-]?\d+)?) M", text, re.M)
    if not m:
        raise RuntimeError(f"no 'throughput: X M ...' line in the output: {text[-300:]!r}")
    return float(m.group(1)) * 1e6


def json_lines(text):
    return [json.loads(ln) for ln in text.splitlines() if ln.startswith("{")]


class Config:
    def __init__(self, build, quick, ranks, oversub, runs, python=None, cupynumeric_python=None, gpu=False):
        self.build, self.quick, self.ranks, self.oversub, self.runs = build, quick, ranks, oversub, runs
        self.gpu = gpu  # add the GPU column: maniple's own programs with MANIPLE_BACKEND=cuda
        self.python = python or sys.executable
        self.cpn = cupynumeric_python or os.path.join(".venv-cupynumeric", "bin", "python")
        self.pyenv = {"PYTHONPATH": os.path.join(os.path.abspath(build), "python")}

    def exe(self, *parts):
        return os.path.join(self.build, *parts)


def cpn_env(cfg, cpus):
    """cuPyNumeric on `cpus` CPUs and no GPU: Legate configured by hand
    (its automatic configuration wants more cores than 2), and the wheels'
    CUDA driver dependency met by tools/cuda_driver_stub.c where setup.sh
    built it (a driver that reports no device)."""
    env = {"LEGATE_AUTO_CONFIG": "0",
           "LEGATE_CONFIG": f"--cpus {cpus} --gpus 0 --omps 0 --utility 1 --sysmem 4000 "
                            "--logging gpu=none,threads=error"}
    stub = os.path.join(os.path.dirname(os.path.dirname(cfg.cpn)), "cuda-stub")
    if os.path.isdir(stub):
        env["LD_LIBRARY_PATH"] = stub + (":" + os.environ["LD_LIBRARY_PATH"] if os.environ.get("LD_LIBRARY_PATH") else "")
    return env


def _weak(n1, p):
    """Side of a square grid with p times the points of n1 x n1."""
    return int(round(n1 * math.sqrt(p)))


def app_jobs(cfg, name, n1, c_args, py_args, unit, bpu, c_oversub, py_oversub):
    """C, maniple.numpy at every rank count (strong: n1 fixed; weak: the
    grid grows with the ranks), NumPy and cuPyNumeric on one process."""
    script = os.path.join("apps", f"{name}.py")
    jobs = []

    def add(impl, p, scaling, n):
        on_gpu = impl.endswith(GPU)
        impl_cpu = impl[:-len(GPU)] if on_gpu else impl
        if impl_cpu == "c":
            cmd, env, launcher = [cfg.exe("apps", name), *c_args(n)], {}, "mpi"
        elif impl == "cupynumeric":  # one process on p of Legate's CPUs
            cmd = [cfg.cpn, script, *py_args(n), "--backend", "cupynumeric"]
            env, launcher = cpn_env(cfg, p), "plain"
        else:
            backend = "maniple" if impl_cpu == "maniple.numpy" else "numpy"
            cmd, env, launcher = [cfg.python, script, *py_args(n), "--backend", backend], cfg.pyenv, "mpi"
        if on_gpu:
            env = dict(env, MANIPLE_BACKEND="cuda")
        jobs.append(Job(name, impl, p, scaling, n * n, unit, cmd, bytes_per_unit=bpu, env=env, launcher=launcher,
                        group=name))

    for impl in ("c", "maniple.numpy"):
        over = c_oversub if impl == "c" else py_oversub
        for p in cfg.ranks + [q for q in cfg.oversub if q in over]:
            if p == 1:
                add(impl, 1, "serial", n1)
                continue
            add(impl, p, "weak", _weak(n1, p))
            if p in cfg.ranks:
                add(impl, p, "strong", n1)
    add("numpy", 1, "serial", n1)
    for p in cfg.ranks:
        add("cupynumeric", p, "serial" if p == 1 else "strong", n1)
    if cfg.gpu:  # the same programs, unchanged, on the CUDA backend
        add("c" + GPU, 1, "serial", n1)
        add("maniple.numpy" + GPU, 1, "serial", n1)
    return jobs


def plan(cfg):
    """Every job of the suite, in the order it runs."""
    q = cfg.quick
    allr = sorted(set(cfg.ranks + cfg.oversub))
    jobs = []
    # STREAM triad, maniple's triad and its view stencil beside the fused C
    # loop: weak scaling, per rank n elements and an m x m block
    n, m, reps = (4_000_000, 800, 5) if q else (20_000_000, 2000, 7)
    for p in allr:
        jobs.append(Job("core", "bench_core", p, "weak", n * p, "elements",
                        [cfg.exe("benchmarks", "bench_core"), str(n), str(m), str(reps)], kind="program"))
    # message latency and bandwidth between two ranks (for the model)
    if max(allr) >= 2:
        jobs.append(Job("pingpong", "mpi", 2, "serial", 1, "messages/s",
                        [cfg.python, os.path.join("benchmarks", "pingpong.py"), "7"], kind="program", env=cfg.pyenv))
    hn, hit = (1000, 20) if q else (2000, 50)
    jobs += app_jobs(cfg, "heat", hn, lambda n: ["--n", str(n), "--iterations", str(hit)],
                     lambda n: ["--n", str(n), "--iterations", str(hit)], "points/s", BYTES["heat"],
                     c_oversub=cfg.oversub, py_oversub=cfg.oversub[:1])
    sn, st = (192, 4) if q else (512, 10)
    args = lambda n: ["--case", "dambreak2d", "--nx", str(n), "--ny", str(n), "--steps", str(st)]
    jobs += app_jobs(cfg, "swe", sn, args, args, "cells/s", BYTES["swe"], c_oversub=[], py_oversub=[])
    # the C swe's op-mix roof: its arithmetic at this core's measured vector throughput
    jobs.append(Job("swe_roof", "op_mix_roof", 1, "serial", 1, "cells/s",
                    [cfg.python, os.path.join("benchmarks", "swe_roof.py"), cfg.build, "3" if q else "7"],
                    kind="program", env=cfg.pyenv))
    cn, ct, nit = (160, 4, 20) if q else (512, 10, 50)
    # dt well inside the viscous limit nu dt / dx^2 < 1/4 on the largest grid
    dt = 0.05 * (2.0 / _weak(cn, max(allr))) ** 2 / 0.1
    args = lambda n: ["--nx", str(n), "--ny", str(n), "--nt", str(ct), "--nit", str(nit), "--dt", f"{dt:.3g}"]
    jobs += app_jobs(cfg, "cavity", cn, args, args, "points/s", cavity_bytes(nit), c_oversub=[], py_oversub=[])
    # the per-call cost on small arrays (c = a + b on 1000 elements) and the
    # seeds' stencil idiom, maniple.numpy beside NumPy and the fused C loop
    # (bench_numpy.py) at issue 19's sizes; cuPyNumeric on 1 and 2 CPUs
    sizes, nreps = ((500,), 5) if q else (IDIOM_SIZES, 7)
    for nn in sizes:
        for p in cfg.ranks:
            jobs.append(Job("numpy", "bench_numpy", p, "strong", nn * nn, "points/s",
                            [cfg.python, os.path.join("benchmarks", "bench_numpy.py"), str(nn), "10", str(nreps),
                             cfg.build, str(IDIOM_WARM)], kind="program", env=cfg.pyenv, variant=f"N={nn}"))
        for p in cfg.ranks:
            jobs.append(Job("stencil_idiom", "cupynumeric", p, "serial" if p == 1 else "strong", nn * nn, "points/s",
                            [cfg.cpn, os.path.join("benchmarks", "demo_stencil.py"), "-N", str(nn), "-I", "10",
                             "-W", str(IDIOM_WARM), "--backend", "cupynumeric"], variant=f"N={nn}", env=cpn_env(cfg, p), launcher="plain",
                            group=f"stencil_idiom N={nn}"))
    # CG written as array code (cg_arrays.py): NumPy, maniple.numpy and
    # cuPyNumeric run the same script
    g, its = (600, 20) if q else (2000, 50)
    cga = [os.path.join("benchmarks", "cg_arrays.py"), "-G", str(g), "--its", str(its), "--backend"]
    jobs.append(Job("cg_arrays", "numpy", 1, "serial", g * g, "row-iterations/s", [cfg.python, *cga, "numpy"],
                    launcher="plain", group="cg_arrays"))
    for p in cfg.ranks:
        jobs.append(Job("cg_arrays", "maniple.numpy", p, "serial" if p == 1 else "strong", g * g, "row-iterations/s",
                        [cfg.python, *cga, "maniple"], env=cfg.pyenv, group="cg_arrays"))
        jobs.append(Job("cg_arrays", "cupynumeric", p, "serial" if p == 1 else "strong", g * g, "row-iterations/s",
                        [cfg.cpn, *cga, "cupynumeric"], env=cpn_env(cfg, p), launcher="plain", group="cg_arrays"))
    # dense linear algebra as scripts write it (dense_la.py: the seeds' CG
    # loop, cuPyNumeric's jacobi, linreg and logreg), every package's BLAS
    # on one core
    blas1 = {"OPENBLAS_NUM_THREADS": "1"}  # (OMP_NUM_THREADS: launch.MPI_ENV)
    for w, n in DENSE_LA:
        n, its = (n // 4, 20) if q else (n, 50)
        if w in DENSE_FACTOR:  # seconds each: one timed after one untimed
            its = 1
        dla = [os.path.join("benchmarks", "dense_la.py"), w, "-n", str(n), "--its", str(its), "--backend"]
        jobs.append(Job(f"dense_{w}", "numpy", 1, "serial", n, "row-iterations/s", [cfg.python, *dla, "numpy"],
                        env=blas1, launcher="plain", group=f"dense_{w}"))
        for p in cfg.ranks:
            sc = "serial" if p == 1 else "strong"
            jobs.append(Job(f"dense_{w}", "maniple.numpy", p, sc, n, "row-iterations/s", [cfg.python, *dla, "maniple"],
                            env=dict(cfg.pyenv, **blas1), group=f"dense_{w}"))
            if w != "qr":  # (cuPyNumeric's qr on CPUs took 85-110 s at n = 4000, 15x NumPy: left out)
                jobs.append(Job(f"dense_{w}", "cupynumeric", p, sc, n, "row-iterations/s",
                                [cfg.cpn, *dla, "cupynumeric"], env=dict(cpn_env(cfg, p), **blas1), launcher="plain",
                                group=f"dense_{w}"))
    # einsum and fancy indexing (bench_select.py), maniple.numpy beside NumPy
    for p in cfg.ranks:
        jobs.append(Job("select", "bench_select", p, "strong", 1, "calls/s",
                        [cfg.python, os.path.join("benchmarks", "bench_select.py"), "3" if q else "7", cfg.build,
                         "2" if q else "10"],
                        kind="program", env=dict(cfg.pyenv, **blas1)))
    # SpMV (equal and METIS partitions, SciPy on rank 0) and CG + Jacobi
    # beside PETSc and SciPy: strong scaling on a G x G Poisson matrix
    g, sreps = (600, 7) if q else (2000, 15)
    for p in cfg.ranks:
        jobs.append(Job("spmv", "bench_spmv", p, "strong", g * g, "rows/s",
                        [cfg.python, os.path.join("benchmarks", "bench_spmv.py"), str(g), str(sreps), cfg.build],
                        kind="program", env=cfg.pyenv, timeout=900))
    g, its, creps = (600, 50, 5) if q else (2000, 200, 5)
    for p in cfg.ranks:
        for prog, impl in (("bench_cg", "maniple"), ("bench_cg_petsc", "petsc")):
            jobs.append(Job("cg", impl, p, "strong", g * g, "row-iterations/s",
                            [cfg.exe("benchmarks", prog), str(g), str(its), str(creps)], kind="program"))
        # maniple.sparse.linalg.cg called as SciPy's, M=diags(1 / A.diagonal())
        jobs.append(Job("cg", "maniple.sparse", p, "strong", g * g, "row-iterations/s",
                        [cfg.python, os.path.join("benchmarks", "bench_cg.py"), str(g), str(its), "1", str(creps),
                         cfg.build, "--maniple-scipy-style"], kind="program", env=cfg.pyenv))
    jobs.append(Job("cg", "scipy", 1, "serial", g * g, "row-iterations/s",
                    [cfg.python, os.path.join("benchmarks", "bench_cg.py"), str(g), str(its), "1", str(creps),
                     cfg.build, "--scipy-only"], kind="program", env=cfg.pyenv))
    jobs += counter_jobs(cfg)
    return jobs


def counter_jobs(cfg):
    """The -log_view counters per step of maniple.numpy's heat, swe and
    cavity and of the C CG solver, at 2 ranks: the model's inputs."""
    from .counters import APPS, DEVICE, DEVICE_ENV, RANKS
    env = dict(cfg.pyenv, MANIPLE_LOG_VIEW="1")
    grids = {"heat": (512, 5), "swe": (256, 3), "cavity": (256, 2)}
    extra = {"heat": [], "swe": ["--case", "dambreak2d"], "cavity": ["--nit", "50", "--dt", "1e-5"]}
    jobs = []
    for app, flag in APPS.items():
        n, st = grids[app]
        size = ["--n", str(n)] if app == "heat" else ["--nx", str(n), "--ny", str(n)]
        base = [cfg.python, os.path.join("apps", f"{app}.py"), *extra[app], *size, "--backend", "maniple"]
        jobs.append(Job("counters", "maniple.numpy", RANKS, "serial", n * n, "", base + [flag, str(st)],
                        kind="counters", variant=app, env=env, alt=base + [flag, str(2 * st)], steps=st))
    heat = [cfg.exe("apps", "heat"), "--n", "512", "-log_view", "--iterations"]
    jobs.append(Job("counters", "c", RANKS, "serial", 512 * 512, "", heat + ["5"], kind="counters", variant="heat_c",
                    alt=heat + ["10"], steps=5))
    g, its = 400, 20
    cg = [cfg.exe("benchmarks", "bench_cg"), str(g)]
    # bench_cg solves twice (a warm-up and one timed): 2 its iterations
    jobs.append(Job("counters", "maniple", RANKS, "serial", g * g, "", cg + [str(its), "1"], kind="counters",
                    variant="cg", env={"MANIPLE_LOG_VIEW": "1"}, alt=cg + [str(2 * its), "1"], steps=2 * its))
    # the same programs on the emulated device: what a GPU would run
    dev = [dataclasses.replace(j, variant=j.variant + DEVICE, env=dict(j.env or {}, **DEVICE_ENV)) for j in jobs]
    return jobs + dev


# ---- turning program output into records ----

def from_core(job, lines, ncores):
    """bench_core: the STREAM triad (the faster of its two store kinds is
    the reference), maniple's triad and stencil, the fused C loop."""
    out = []
    names = {"stream_c_loop": ("stream", "c"), "stream_c_loop_nt": ("stream", "c_nt"), "maniple": ("triad", "maniple"),
             "maniple_views": ("stencil5", "maniple"), "fused_c_loop": ("stencil5", "fused_c"),
             "fused_c_loop_nt": ("stencil5", "fused_c_nt")}
    best = {}
    for d in lines:
        bench, impl = names[d["impl"]]
        e = d["elements"]
        r = records.record(bench, impl, job.ranks, ncores, "weak", e, "elements/s",
                           [e / d["max_s"], e / d["median_s"], e / d["min_s"]], bytes_per_unit=BYTES[bench],
                           seconds=d["median_s"])
        r["runs"] = int(job.cmd[-1])  # bench_core repeats inside
        r["stream_GBps"] = d["stream_triad_GBps"]
        if bench == "stream":
            best.setdefault("s", []).append(r)
        out.append(r)
    # the reference STREAM row: whichever store kind was faster
    s = max(best.get("s", []), key=lambda r: r["median"], default=None)
    if s:
        s["variant"] = "reference"
    return out


def from_spmv(job, lines, ncores):
    out = []
    for d in lines:
        if d["bench"] != "spmv_poisson":
            continue
        rows = d.get("rows", job.size)
        impl = d.get("impl", "maniple")
        if impl != "maniple" and job.ranks > 1:  # SciPy (one process) is kept from the 1-rank run
            continue
        variant = f"{d['numbering']}/{d['partition']}" if impl == "maniple" else d["numbering"]
        t = [d.get("max_s", d["median_s"]), d["median_s"], d.get("min_s", d["median_s"])]
        bpu = d["GBps"] * 1e9 * d["median_s"] / rows
        r = records.record("spmv", impl, d["ranks"], ncores, "strong" if impl == "maniple" else "serial", rows,
                           "rows/s", [rows / x for x in t], variant=variant, bytes_per_unit=bpu, seconds=d["median_s"])
        r["runs"] = int(job.cmd[3])
        out.append(r)
    return out


def from_numpy(job, lines, ncores):
    """bench_numpy.py: the stencil idiom (per iteration) and c = a + b on
    1000 elements (operations per second), maniple.numpy beside NumPy."""
    out, reps = [], int(job.cmd[4])
    for d in lines:
        if d["bench"] == "stencil_idiom":
            if d["impl"] == "numpy" and job.ranks > 1:
                continue  # NumPy (one process) is kept from the 1-rank run
            pts = d["N"] ** 2
            impl = {"c_fused_sweep": "fused_c"}.get(d["impl"], d["impl"])
            rates = [pts / d["iter_max_s"], pts / d["iter_median_s"], pts / d["iter_min_s"]]
            r = records.record("stencil_idiom", impl, d["ranks"], ncores, "serial" if impl == "numpy" else "strong",
                               pts, "points/s", rates, variant=job.variant, bytes_per_unit=16.0,
                               seconds=d["iter_median_s"])
        elif d["bench"] == "small_add_1000":
            if job.cmd[2] not in ("500", str(IDIOM_SIZES[0])):
                continue  # every size's run measures it: one record is kept
            r = records.record("small_add", "maniple.numpy", d["ranks"], ncores, "strong", 1000, "elements/s",
                               [1000 / (d["us_per_op"] * 1e-6)], seconds=d["us_per_op"] * 1e-6)
            r["runs"] = reps
            out.append(r)
            if job.ranks > 1:
                continue
            r = records.record("small_add", "numpy", 1, ncores, "serial", 1000, "elements/s",
                               [1000 / (d["numpy_us_per_op"] * 1e-6)], seconds=d["numpy_us_per_op"] * 1e-6)
        else:
            continue
        r["runs"] = reps
        out.append(r)
    return out


def from_select(job, lines, ncores):
    """bench_select.py: each case's calls per second, maniple.numpy beside
    NumPy (kept from the 1-rank run), the case as the variant."""
    out = []
    gb = next((d["GBps"] for d in lines if d["bench"] == "stream_triad"), None)
    for d in lines:
        if d["bench"] != "select" or (d["impl"] == "numpy" and job.ranks > 1):
            continue
        r = records.record("select", d["impl"], d["ranks"], ncores, "serial" if d["impl"] == "numpy" else "strong",
                           1, "calls/s", [1 / d["max_s"], 1 / d["median_s"], 1 / d["min_s"]], variant=d["case"],
                           seconds=d["median_s"])
        r["runs"], r["stream_GBps"] = d["reps"], gb  # (the triad of the same run)
        out.append(r)
    return out


def from_pingpong(job, lines, ncores):
    """One-way message time as a rate: messages/s for 8 B, bytes/s for 4 MiB."""
    out = []
    for d in lines:
        small = d["bytes"] <= 8
        k = 1 if small else d["bytes"]
        r = records.record("pingpong", "mpi", job.ranks, ncores, "serial", k, "messages/s" if small else "bytes/s",
                           [k / d["max_s"], k / d["median_s"], k / d["min_s"]], variant=f"{d['bytes']}B",
                           seconds=d["median_s"])
        r["runs"] = d["reps"]
        out.append(r)
    return out


def from_swe_roof(job, lines, ncores):
    """The op-mix roof as a rate (cell updates/s) beside the swe records;
    the note keeps what it was made of."""
    d = lines[-1]
    note = "ns: sqrt {:.3g}, div {:.3g}, other op {:.3g}; counts {}".format(d["sqrt_ns"], d["div_ns"], d["op_ns"],
                                                                          d["counts"])
    return [records.record("swe", "op_mix_roof", 1, ncores, "serial", 1, "cells/s", d["rates"], note=note)]


def from_cg(job, lines, ncores):
    d = lines[-1]
    its = d["iterations"]
    rates = [job.size * its / t for t in d["times_s"]]  # job.size: rows
    # per iteration: the matrix (5 entries of 12 B per row), 8 B of row
    # pointer, and 8 vectors of 8 B touched by CG + Jacobi
    return [records.record("cg", job.impl, job.ranks, ncores, job.scaling, job.size * its, "row-iterations/s", rates,
                           bytes_per_unit=5 * 12 + 8 + 8 * 8, variant=f"G={math.isqrt(job.size)}")]


def records_of(job, text, ncores):
    """The records of a program job from its stdout."""
    lines = json_lines(text)
    if not lines:
        raise RuntimeError(f"{job.label()}: no JSON lines in the output: {text[-300:]!r}")
    if job.bench == "core":
        return from_core(job, lines, ncores)
    if job.bench == "spmv":
        return from_spmv(job, lines, ncores)
    if job.bench == "pingpong":
        return from_pingpong(job, lines, ncores)
    if job.bench == "swe_roof":
        return from_swe_roof(job, lines, ncores)
    if job.bench == "numpy":
        return from_numpy(job, lines, ncores)
    if job.bench == "select":
        return from_select(job, lines, ncores)
    return from_cg(job, lines, ncores)
