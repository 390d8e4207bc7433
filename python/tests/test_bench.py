"""The benchmark suite's own pieces (maniple.bench): the model's arithmetic
on hand-checked cases, the record schema, the JSON/CSV/PNG outputs of a
--quick --dry-run, and the parsers on real output of the C programs."""
import csv
import json
import math
import os
import subprocess
import sys
import tempfile

import pytest

from maniple.bench import counters, model, records, suite

import apptools

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.join(HERE, os.pardir, os.pardir)


def test_grid_and_halo():
    assert model.grid2(1) == (1, 1)
    assert model.grid2(8) == (2, 4)
    assert model.grid2(12) == (3, 4)
    assert model.grid2(7) == (1, 7)
    w = model.Workload("w", 10_000, 16.0, 1, 1, 2, 3, 0)
    assert model.halo(w, 1) == (0, 0.0)
    # 2 x 2 devices: one neighbour each way; a side of 100 points, 2 fields 3 wide
    assert model.halo(w, 4) == (2, 100 * 8.0 * 3 * 2)
    # 4 x 4: interior devices have 4 neighbours
    assert model.halo(w, 16)[0] == 4
    r = model.Workload("r", 10_000, 16.0, 1, 1, 1, 1, 0, layout="rows")
    # 1-d row blocks of the whole square grid (side sqrt(4e4) = 200)
    assert model.halo(r, 4) == (2, 200 * 8.0)
    assert model.halo(r, 2)[0] == 1


def test_step_time_by_hand():
    m = model.Machine("m", bw=1e9, per_node=4, lat_intra=1e-6, bw_intra=1e9, lat_inter=1e-5, bw_inter=1e8,
                      lat_reduce=2e-5, launch=3e-6)
    w = model.Workload("w", 1_000_000, 16.0, 2, 1, 1, 1, 2)
    # P = 4 (one node): memory 16e6/1e9, 2 launches, 2 messages of 1000*8 B, 2 allreduces of log2(4) steps
    t, parts = model.step_time(w, m, 4)
    assert parts["memory"] == pytest.approx(0.016)
    assert parts["launch"] == pytest.approx(6e-6)
    assert parts["halo"] == pytest.approx(2 * (1e-6 + 8000 / 1e9))
    assert parts["allreduce"] == pytest.approx(2 * 2 * 2e-5)
    assert t == pytest.approx(sum(parts.values()))
    # P = 16 crosses nodes: the inter-node link and 4 neighbours
    t16, p16 = model.step_time(w, m, 16)
    assert p16["halo"] == pytest.approx(4 * (1e-5 + 8000 / 1e8))
    assert p16["allreduce"] == pytest.approx(2 * 4 * 2e-5)
    # P = 1: memory and launches only; efficiency 1
    assert model.step_time(w, m, 1)[0] == pytest.approx(0.016 + 6e-6)
    pr = model.predict(w, m, [1, 4, 16])
    assert pr[0][2] == 1.0
    assert pr[1][1] == pytest.approx(1e6 / t)
    assert pr[2][2] == pytest.approx((0.016 + 6e-6) / t16)


def test_shared_bandwidth():
    # two cores reach 12 GB/s together; 8 ranks on them get an eighth each
    m = model.this_machine({1: 10e9, 2: 12e9, 8: 5e9}, 1e-6, 1e9, cores=2)
    assert model.bandwidth(m, 1) == 10e9
    assert model.bandwidth(m, 2) == 6e9
    assert model.bandwidth(m, 8) == pytest.approx(12e9 / 8)
    w = model.Workload("w", 1000, 16.0, 0, 0, 1, 1, 0)
    assert model.step_time(w, m, 8)[0] == pytest.approx(16e3 / (12e9 / 8))


def test_record_schema():
    r = records.record("heat", "c", 2, 2, "strong", 100, "points/s", [3.0, 1.0, 2.0], bytes_per_unit=16.0)
    assert (r["median"], r["min"], r["max"], r["runs"], r["per_rank"]) == (2.0, 1.0, 3.0, 3, 1.0)
    assert r["GBps"] == pytest.approx(32e-9) and not r["oversubscribed"]
    records.check(r)
    s = records.record("stream", "c", 2, 2, "weak", 1, "elements/s", [1e9], bytes_per_unit=24.0)
    records.attach_stream([r, s])
    assert r["fraction_of_stream"] == pytest.approx(32e-9 / 24.0)
    bad = dict(r, status="fine")
    with pytest.raises(ValueError, match="status 'fine'"):
        records.check(bad)
    with pytest.raises(ValueError, match="median"):
        records.check(dict(r, median=5.0))
    with pytest.raises(ValueError, match="fields"):
        records.check({k: v for k, v in r.items() if k != "unit"})
    gone = records.missing("cg", "petsc", 4, 2, "strong", "not installed", "why")
    assert gone["oversubscribed"] and gone["runs"] == 0
    records.check(gone)


def test_dry_run_outputs():
    """--quick --dry-run: every job's made-up output through parsing,
    records, JSON lines, CSV, plots and the model, in seconds."""
    out = tempfile.mkdtemp(prefix="mn_bench_")
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    env = {k: v for k, v in env.items() if not k.startswith(("OMPI_", "PMIX_", "PRTE_", "OPAL_", "PMI_", "HYDRA_"))}
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    run = subprocess.run([sys.executable, "-m", "maniple.bench", "--quick", "--dry-run", "--gpu", "yes", "-q",
                          "--out", out],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "DRY RUN" in run.stdout and "GPU:" in run.stdout
    recs = records.read_jsonl(os.path.join(out, "results.jsonl"))
    benches = {r["bench"] for r in recs}
    assert {"stream", "triad", "stencil5", "heat", "swe", "cavity", "spmv", "cg", "pingpong", "small_add",
            "stencil_idiom", "cg_arrays", "dense_cg", "dense_jacobi", "dense_linreg", "dense_logreg",
            "dense_cholesky", "dense_solve", "dense_qr", "select"} <= benches
    assert all(r["status"] == "dry run" for r in recs)
    # cuPyNumeric, the peer, on 1 and 2 CPUs in every array-code benchmark
    assert {(r["bench"], r["ranks"]) for r in recs if r["impl"] == "cupynumeric"} == {
        (b, p) for b in ("heat", "swe", "cavity", "stencil_idiom", "cg_arrays", "dense_cg", "dense_jacobi",
                         "dense_linreg", "dense_logreg", "dense_cholesky", "dense_solve") for p in (1, 2)}
    assert len([r for r in recs if r["bench"] == "small_add"]) == 3  # maniple at 1 and 2 ranks, NumPy
    assert [r["ranks"] for r in recs if (r["bench"], r["impl"]) == ("swe", "op_mix_roof")] == [1]
    assert {(r["bench"], r["impl"]) for r in recs if r["impl"].endswith("/cuda")} == {
        (a, i + "/cuda") for a in ("heat", "swe", "cavity") for i in ("c", "maniple.numpy")}
    with open(os.path.join(out, "results.csv")) as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == len(recs) and list(rows[0]) == records.FIELDS
    assert [row["bench"] for row in rows] == [r["bench"] for r in recs]
    with open(os.path.join(out, "meta.json")) as f:
        meta = json.load(f)
    assert meta["dry_run"] and meta["headlines"]
    assert meta["headlines"]["swe: C / its op-mix roof (benchmarks/swe_roof.py), 1 rank"] > 0
    progs = {"heat", "swe", "cavity", "heat_c", "cg"}
    assert set(meta["counters"]) == progs | {k + "@device" for k in progs}  # the CPU path and the emulated device's
    assert all("error" not in c for c in meta["counters"].values()), meta["counters"]
    for png in ("scaling.png", "stream_fraction.png", "peers.png"):
        with open(os.path.join(out, png), "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
    mod = subprocess.run([sys.executable, "-m", "maniple.bench.model", "--results", out], capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=300)
    assert mod.returncode == 0, mod.stderr[-2000:]
    assert "largest error" in mod.stdout
    assert "on the emulated device (the code a GPU runs)" in mod.stdout  # the GPU predictions' inputs
    with open(os.path.join(out, "model.json")) as f:
        mj = json.load(f)
    assert len(mj["predictions"]["heat"]) == len(model.SIZES) and mj["validation"]


def test_model_copies():
    """On a GPU, copies between host and device beyond the allreduces' own
    sums cost their latency and bytes over the host link; the CPU machine
    has none. A device count replaces the CPU one for GPU predictions only."""
    w = model.Workload("t", 1 << 20, 16.0, 1, 1, 1, 1, 2, copies=3, copy_bytes_per_point=8.0)
    t, parts = model.step_time(w, model.H100, 1)
    assert parts["copies"] == 3 * model.H100.copy_lat + 8.0 * (1 << 20) / model.H100.bw_copy
    cpu = model.this_machine({1: 30e9}, 1e-6, 10e9, 2)
    assert model.step_time(w, cpu, 1)[1]["copies"] == 0.0
    counted = {"cg": dict(model.DEFAULTS["cg"], copies=0.0, copy_bytes_per_point=0.0),
               "cg@device": dict(model.DEFAULTS["cg"], copies=5.0, copy_bytes_per_point=1.5)}
    assert model.workloads(counted)["cg"].copies == 0
    dev = model.workloads(counted, device=True)["cg"]
    assert dev.copies == 5.0 - model.DEFAULTS["cg"]["allreduces"] and dev.copy_bytes_per_point == 1.5


def test_gpu_column():
    """The GPU column runs maniple's own programs unchanged, with
    MANIPLE_BACKEND=cuda; where that cannot run, the row keeps the
    program's exact refusal."""
    cfg = suite.Config("build", True, [1, 2], [], 5, gpu=True)
    jobs = suite.plan(cfg)
    gpu = [j for j in jobs if j.impl.endswith(suite.GPU)]
    assert len(gpu) == 6 and all(j.env.get("MANIPLE_BACKEND") == "cuda" and j.ranks == 1 for j in gpu)
    for j in gpu:
        cpu = [c for c in jobs if (c.bench, c.impl, c.ranks) == (j.bench, j.impl[:-len(suite.GPU)], 1)]
        assert len(cpu) == 1 and cpu[0].cmd == j.cmd and "MANIPLE_BACKEND" not in cpu[0].env
    assert not [j for j in suite.plan(suite.Config("build", True, [1], [], 5)) if j.impl.endswith(suite.GPU)]
    heat = apptools.c_program("MANIPLE_HEAT_EXE")
    if heat is None:
        pytest.skip("MANIPLE_HEAT_EXE not set (the C apps are not built)")
    run = apptools.run_singleton(heat, ["--n", "32", "--iterations", "2"], extra_env={"MANIPLE_BACKEND": "cuda"})
    if run.returncode == 0:  # a device and device arrays: the same figures line as on the CPU
        assert suite.rate_from_app(run.stdout) > 0
    else:  # no device
        assert "MN_ERR_BACKEND" in run.stderr, run.stderr
    bad = apptools.run_singleton(heat, ["--n", "32", "--iterations", "2"], extra_env={"MANIPLE_BACKEND": "tpu"})
    assert bad.returncode != 0 and "MANIPLE_BACKEND=tpu: expected cpu, cuda or emulated" in bad.stderr


def test_parsers_on_real_output():
    """The suite reads what the programs really print."""
    heat = apptools.c_program("MANIPLE_HEAT_EXE")
    if heat is None:
        pytest.skip("MANIPLE_HEAT_EXE not set (the C apps are not built)")
    run = apptools.run_singleton(heat, ["--n", "64", "--iterations", "3"])
    assert run.returncode == 0, run.stderr
    out = run.stdout
    line = [ln for ln in out.splitlines() if ln.startswith("throughput:")][0]
    assert suite.rate_from_app(out) == pytest.approx(float(line.split()[1]) * 1e6)
    core = os.path.join(os.path.dirname(os.path.dirname(heat)), "benchmarks", "bench_core")
    if not os.path.exists(core):
        pytest.skip("bench_core not built")
    job = suite.Job("core", "bench_core", 1, "weak", 1000, "elements", [core, "1000", "20", "5"], kind="program")
    run = apptools.run_singleton(core, ["1000", "20", "5"])
    assert run.returncode == 0, run.stderr
    recs = suite.records_of(job, run.stdout, 2)
    kinds = {(r["bench"], r["impl"]) for r in recs}
    assert {("stream", "c"), ("triad", "maniple"), ("stencil5", "fused_c"), ("stencil5", "maniple")} <= kinds
    for r in recs:
        records.check(r)
        assert r["runs"] == 5 and r["stream_GBps"] > 0 and math.isfinite(r["median"])
    assert sum(r["variant"] == "reference" for r in recs) == 1
    with pytest.raises(RuntimeError, match="throughput"):
        suite.rate_from_app("no figures here")


def test_swe_roof_on_real_output():
    """The C swe's op-mix roof: measured class times, the counts, and a
    rate that is the slower of the two classes of units."""
    heat = apptools.c_program("MANIPLE_HEAT_EXE")
    if heat is None:
        pytest.skip("MANIPLE_HEAT_EXE not set (the C apps are not built)")
    build = os.path.dirname(os.path.dirname(heat))
    if not os.path.exists(os.path.join(build, "benchmarks", "libmn_roof.so")):
        pytest.skip("the roof library is not built")
    run = subprocess.run([sys.executable, os.path.join(ROOT, "benchmarks", "swe_roof.py"), build, "2"],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    d = json.loads(run.stdout.splitlines()[-1])
    assert d["counts"] == dict(sqrt=16, div=36, other=597)
    cell = max(16 * d["sqrt_ns"] + 36 * d["div_ns"], 597 * d["op_ns"])
    assert d["cell_ns"] == pytest.approx(cell) and d["rates"][-1] == pytest.approx(1e9 / cell)
    assert all(0 < d[k] < 100 for k in ("sqrt_ns", "div_ns", "op_ns"))
    job = suite.Job("swe_roof", "op_mix_roof", 1, "serial", 1, "cells/s", [], kind="program")
    (r,) = suite.records_of(job, run.stdout, 2)
    records.check(r)
    assert (r["bench"], r["impl"], r["runs"]) == ("swe", "op_mix_roof", 2)
    assert r["median"] == pytest.approx(sorted(d["rates"])[0] / 2 + sorted(d["rates"])[1] / 2)


def test_counters_per_step():
    """Per-step figures are the difference of the s- and 2s-step tables / s."""
    short, long_ = counters.parse_table(counters.fake_table(3)), counters.parse_table(counters.fake_table(6))
    assert short["eval"]["calls"] == 30 and short["plan_begin"]["messages"] == 12
    d = counters.per_step(short, long_, 3, 1000, ("eval", "reduce"))
    assert d["passes"] == pytest.approx(11)             # 10 evals + 1 reduce a step
    assert d["bytes_per_point"] == pytest.approx(9e6 / 1000)
    assert d["messages_per_rank"] == pytest.approx(4 / counters.RANKS)
    assert d["bytes_per_message"] == pytest.approx(0.1e6 / 4)
    assert d["allreduces"] == pytest.approx(3)
    w = model.workloads({"swe": dict(d, bytes_per_message=8 * 256 * 3)})
    assert w["swe"].passes == pytest.approx(11) and w["swe"].fields == 3
    with pytest.raises(RuntimeError, match="log_view"):
        counters.parse_table("nothing")


def test_counters_from_real_table():
    """The parser reads the table heat -log_view really prints."""
    heat = apptools.c_program("MANIPLE_HEAT_EXE")
    if heat is None:
        pytest.skip("MANIPLE_HEAT_EXE not set (the C apps are not built)")
    t = {}
    for its in (3, 6):
        run = apptools.run_singleton(heat, ["--n", "64", "--iterations", str(its), "-log_view"])
        assert run.returncode == 0, run.stderr
        t[its] = counters.parse_table(run.stdout)
        assert t[its]["stencil"]["calls"] == its
    d = counters.per_step(t[3], t[6], 3, 64 * 64, ("stencil",))
    assert d["passes"] == pytest.approx(1.0)
    # one sweep reads the old grid and writes the new one: 16 B a point
    # (the boundary rows and columns are counted apart: within 5%)
    assert d["bytes_per_point"] == pytest.approx(16.0, rel=0.05)


def test_cuda_driver_stub():
    """tools/cuda_driver_stub.c, which lets cuPyNumeric's wheels run without
    a GPU: built as setup.sh builds it, it answers as CUDA documents a
    driver with no device (cuInit CUDA_ERROR_NO_DEVICE = 100, zero devices),
    and cuGetProcAddress returns its own entry points by name and, for any
    other name, a callable reporting no device (never NULL)"""
    import ctypes
    import shutil
    cc = shutil.which("cc") or shutil.which("gcc")
    if cc is None:
        pytest.skip("no C compiler")
    d = tempfile.mkdtemp(prefix="mn_stub_")
    so = os.path.join(d, "libcuda.so.1")
    subprocess.run([cc, "-O2", "-shared", "-fPIC", "-Wall", "-Wextra", "-Werror", "-Wl,-soname,libcuda.so.1", "-o", so,
                    os.path.join(ROOT, "tools", "cuda_driver_stub.c"), "-ldl"], check=True, timeout=120)
    lib = ctypes.CDLL(so)
    assert lib.cuInit(0) == 100
    n, v = ctypes.c_int(-1), ctypes.c_int(0)
    assert lib.cuDeviceGetCount(ctypes.byref(n)) == 0 and n.value == 0
    assert lib.cuDriverGetVersion(ctypes.byref(v)) == 0 and v.value >= 12000
    s = ctypes.c_char_p()
    assert lib.cuGetErrorName(100, ctypes.byref(s)) == 0 and s.value == b"CUDA_ERROR_NO_DEVICE"
    fn, found = ctypes.c_void_p(), ctypes.c_int(-1)
    assert lib.cuGetProcAddress_v2(b"cuDeviceGetCount", ctypes.byref(fn), 12000, 0, ctypes.byref(found)) == 0
    assert found.value == 0 and fn.value == ctypes.cast(lib.cuDeviceGetCount, ctypes.c_void_p).value
    assert lib.cuGetProcAddress(b"cuMemAllocAsync", ctypes.byref(fn), 12000, 0) == 0 and fn.value
    assert ctypes.CFUNCTYPE(ctypes.c_int)(fn.value)() == 100
    assert lib.cuGetProcAddress(None, ctypes.byref(fn), 12000, 0) == 1  # CUDA_ERROR_INVALID_VALUE
