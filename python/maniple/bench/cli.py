"""python -m maniple.bench [--quick] [--dry-run] [--only NAMES] [--out DIR]

Runs the suite (see suite.py), then writes results.jsonl, results.csv,
the PNG plots and a summary table to --out (default benchmarks/results)."""
import argparse
import os
import subprocess
import sys
import time

from . import counters, dryrun, launch, records, report, suite

CUPYNUMERIC_HINT = "pip install nvidia-cupynumeric into .venv-cupynumeric (tools/setup.sh bench does)"


class Progress:
    """One line on stderr: a bar, the count, the job, the elapsed time."""

    def __init__(self, total, quiet=False):
        self.total, self.done, self.t0, self.quiet = total, 0, time.time(), quiet
        self.tty = sys.stderr.isatty()

    def step(self, label):
        self.done += 1
        if self.quiet:
            return
        k = 30 * self.done // max(self.total, 1)
        el = int(time.time() - self.t0)
        line = f"[{'#' * k}{'.' * (30 - k)}] {self.done}/{self.total} {el // 60}:{el % 60:02d} {label}"
        sys.stderr.write(("\r\033[K" if self.tty else "") + line + ("" if self.tty else "\n"))
        sys.stderr.flush()

    def close(self):
        if self.tty and not self.quiet:
            sys.stderr.write("\n")


def probe_cupynumeric(cfg):
    """'' when cuPyNumeric imports, else why not (the exact error)."""
    if not os.path.exists(cfg.cpn):
        return f"not installed: {cfg.cpn} is absent ({CUPYNUMERIC_HINT})"
    out = subprocess.run(["timeout", "120", cfg.cpn, "-c", "import cupynumeric"], capture_output=True, text=True,
                         env=dict(os.environ, **suite.cpn_env(cfg, 1)))
    if out.returncode:
        err = [ln for ln in out.stderr.strip().splitlines() if ln.strip()]
        return "cannot run here: " + (err[-1] if err else f"exit status {out.returncode}")
    return ""


def unavailable(job, cfg, cpn_error):
    """Why a peer's job cannot run, or ''."""
    if job.impl == "cupynumeric":
        return cpn_error
    if job.launcher == "mpi" and not os.path.exists(job.cmd[0]):
        if job.impl == "petsc":
            return ("not installed: bench_cg_petsc not built (Debian's petsc-dev absent when CMake ran; "
                    "make bench installs it)")
        return f"not built: {job.cmd[0]}"
    return ""


def count(job, cfg, dry, ncores):
    """The per-step counters of a counters job (see counters.py)."""
    if dry:
        short, long_ = counters.fake_table(job.steps), counters.fake_table(2 * job.steps)
    else:
        short, long_ = (launch.run(c, job.ranks, ncores, job.timeout, job.env) for c in (job.cmd, job.alt))
    return counters.per_step(counters.parse_table(short), counters.parse_table(long_), job.steps, job.size,
                             counters.passes_of(job.variant))


def execute(jobs, cfg, dry, ncores, progress, counted):
    recs = []
    cpn_error = "" if dry else probe_cupynumeric(cfg)

    def one(job):
        if dry:
            return dryrun.output(job)
        return launch.run(job.cmd, job.ranks, ncores, job.timeout, job.env, job.launcher)

    def fail(job, why):
        status = "not installed" if why.startswith("not installed") else "failed"
        recs.append(records.missing(job.bench, job.impl, job.ranks, ncores, job.scaling, status, why))

    i = 0
    while i < len(jobs):
        job = jobs[i]
        if job.kind == "counters":
            try:
                counted[job.variant] = count(job, cfg, dry, ncores)
            except (RuntimeError, KeyError, ValueError) as e:
                counted[job.variant] = {"error": str(e)[-500:]}
            progress.step(f"counters {job.variant}")
            i += 1
            continue
        if job.kind == "program":
            why = "" if dry else unavailable(job, cfg, cpn_error)
            if why:
                fail(job, why)
            else:
                try:
                    got = suite.records_of(job, one(job), ncores)
                    recs += got
                except (RuntimeError, KeyError, ValueError) as e:
                    fail(job, str(e))
            progress.step(job.label())
            i += 1
            continue
        # a group of app jobs: run r of every job, then run r + 1 (noise falls alike)
        end = i
        while end < len(jobs) and jobs[end].kind == "app" and jobs[end].group == job.group:
            end += 1
        group, i = jobs[i:end], end
        rates = {id(j): [] for j in group}
        errors = {}
        for j in group:
            why = "" if dry else unavailable(j, cfg, cpn_error)
            if why:
                errors[id(j)] = why
        for r in range(cfg.runs):
            for j in group:
                if id(j) not in errors:
                    try:
                        rates[id(j)].append(suite.rate_from_app(one(j)))
                    except RuntimeError as e:
                        errors[id(j)] = str(e)
                progress.step(f"{j.label()} run {r + 1}/{cfg.runs}")
        for j in group:
            if id(j) in errors:
                fail(j, errors[id(j)])
            else:
                recs.append(records.record(j.bench, j.impl, j.ranks, ncores, j.scaling, j.size, j.unit, rates[id(j)],
                                           variant=j.variant, bytes_per_unit=j.bytes_per_unit))
    if dry:
        for r in recs:
            r["status"] = "dry run" if r["status"] == "ok" else r["status"]
    return records.attach_stream(recs)


def steps(jobs, runs):
    return sum(runs if j.kind == "app" else 1 for j in jobs)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m maniple.bench", description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="small sizes: the whole suite in about 3 minutes")
    p.add_argument("--dry-run", action="store_true", help="run nothing: made-up outputs through every later step")
    p.add_argument("--only", help="comma-separated benches: core, pingpong, heat, swe, swe_roof, cavity, numpy, "
                   "cg_arrays, dense_cg, dense_jacobi, dense_linreg, dense_logreg, dense_cholesky, dense_solve, dense_qr, spmv, cg, "
                   "counters (--list shows them)")
    p.add_argument("--ranks", default="1,2", help="rank counts measured as speed (default 1,2)")
    p.add_argument("--oversub", default="4,8", help="oversubscribed rank counts: communication overhead only")
    p.add_argument("--runs", type=int, default=5, help="launches per app job (median, min, max); at least 5")
    p.add_argument("--gpu", choices=("auto", "yes", "no"), default="auto",
                   help="the GPU column (maniple's programs with MANIPLE_BACKEND=cuda): auto = when a GPU is found")
    p.add_argument("--build", default="build")
    p.add_argument("--out", default=os.path.join("benchmarks", "results"))
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--list", action="store_true", help="print the jobs and their commands, then stop")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    a = p.parse_args(argv)
    if a.runs < 5 and not a.dry_run:
        p.error(f"--runs {a.runs}: medians need at least 5 runs")
    try:
        ranks = [int(x) for x in a.ranks.split(",") if x]
        oversub = [int(x) for x in a.oversub.split(",") if x]
    except ValueError:
        p.error(f"--ranks {a.ranks!r} / --oversub {a.oversub!r}: comma-separated integers expected")
    ncores = launch.cores()
    gpu = a.gpu == "yes" or (a.gpu == "auto" and bool(report.gpu_found()))
    cfg = suite.Config(a.build, a.quick, ranks, [q for q in oversub if q > ncores], a.runs, gpu=gpu)
    jobs = suite.plan(cfg)
    if a.only:
        want = set(a.only.split(","))
        known = {j.bench for j in jobs}
        if want - known:
            p.error(f"--only {a.only!r}: unknown {sorted(want - known)}; known {sorted(known)}")
        jobs = [j for j in jobs if j.bench in want]
    if a.list:
        for j in jobs:
            cmd = launch.mpi_command(j.cmd, j.ranks, ncores, j.timeout) if j.launcher == "mpi" else j.cmd
            print(f"{j.label():45s} {' '.join(cmd)}")
        return 0
    if not a.dry_run:
        for x in (cfg.exe("benchmarks", "bench_core"), cfg.exe("apps", "heat")):
            if not os.path.exists(x):
                p.error(f"{x} is not built: run make bench (or cmake --build {a.build}) first")
    os.makedirs(a.out, exist_ok=True)
    prog = Progress(steps(jobs, cfg.runs), a.quiet)
    t0 = time.time()
    counted = {}
    recs = execute(jobs, cfg, a.dry_run, ncores, prog, counted)
    prog.close()
    meta = dict(cores=ncores, quick=a.quick, dry_run=a.dry_run, seconds=round(time.time() - t0, 1),
                date=time.strftime("%Y-%m-%d %H:%M"), gpu=report.gpu_status(gpu), counters=counted)
    report.write_all(a.out, recs, meta, plots=not a.no_plots)
    print(report.summary(recs, meta))
    # peers may be absent, and the GPU column fails until device arrays exist
    bad = [r for r in recs if r["status"] == "failed" and r["impl"] not in ("cupynumeric", "petsc")
           and not r["impl"].endswith(suite.GPU)]
    return 1 if bad else 0
