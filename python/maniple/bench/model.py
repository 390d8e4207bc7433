"""The performance model (docs/scaling.md): time per step on P devices as

    T(P) = B n / bw  +  k L  +  h (m a + m s / beta)  +  r ceil(log2 P) a_r  +  c a_c + C n / beta_c

for n points per device: B bytes moved per point and step, k kernel
passes of launch cost L, h halo exchanges of m messages of s bytes on the
slowest link (latency a, bandwidth beta), r allreduces, a tree of log2 P
latencies, and on a GPU c copies between host and device beyond the
allreduces' own sums (latency a_c) moving C bytes per point over the
host link (beta_c). Where maniple overlaps the halo with the interior (the
C stencils, the SpMV) the first and third terms become their maximum. GPU
predictions take their counts from the emulated device (counters.py).

    python -m maniple.bench.model [--machine h100|v100-summit] [--results DIR] [--out DIR]

prints the predictions from 1 to 4096 devices, validates the model on this
machine against a suite run (benchmarks/results) and draws scaling_model.png."""
import argparse
import json
import math
import os
from dataclasses import dataclass

from . import records
from .report import find

SIZES = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096]


@dataclass(frozen=True)
class Machine:
    name: str
    bw: float            # sustained memory bandwidth per device, B/s
    per_node: int        # devices sharing the fast link
    lat_intra: float     # message latency inside a node, s
    bw_intra: float      # point-to-point bandwidth inside a node, B/s
    lat_inter: float     # between nodes
    bw_inter: float
    lat_reduce: float    # one step of an allreduce tree (sync of device and host included), s
    launch: float        # one kernel pass (launch and scheduling), s
    shared: tuple = ()   # ((ranks, aggregate B/s), ...): devices that share memory (CPU cores)
    write_allocate: bool = False  # a store first reads its cache line (CPUs; not GPUs' full-sector writes)
    copy_lat: float = 0.0  # one copy between host and device, waited for, s (0: no device)
    bw_copy: float = math.inf  # the host link, B/s
    device: bool = False   # a GPU: its inputs are the emulated device's counts


# Stated parameters (not measured here): H100 SXM HBM3 3.35 TB/s at 85%
# sustained; DGX H100 nodes of 8 GPUs on NVLink 4 (450 GB/s a direction,
# 300 GB/s assumed point to point); one 400 Gb/s NDR InfiniBand port per GPU;
# a waited-for copy to or from the host 10 us, PCIe 5 x16 at 50 GB/s.
H100 = Machine("H100 SXM, 8 per node, NVLink 4 + NDR InfiniBand", bw=0.85 * 3.35e12, per_node=8,
               lat_intra=3e-6, bw_intra=300e9, lat_inter=5e-6, bw_inter=45e9, lat_reduce=8e-6, launch=5e-6,
               copy_lat=10e-6, bw_copy=50e9, device=True)
# Summit (where the Legate Sparse / PETSc CG points were measured): V100
# 900 GB/s, 6 per node on NVLink 2 (50 GB/s), dual EDR InfiniBand per node.
V100 = Machine("V100 (Summit), 6 per node, NVLink 2 + EDR InfiniBand", bw=0.85 * 900e9, per_node=6,
               lat_intra=5e-6, bw_intra=50e9, lat_inter=8e-6, bw_inter=4e9, lat_reduce=10e-6, launch=8e-6,
               copy_lat=10e-6, bw_copy=40e9, device=True)
MACHINES = {"h100": H100, "v100-summit": V100}


@dataclass(frozen=True)
class Workload:
    name: str
    points: int          # per device (weak scaling)
    bytes_per_point: float
    passes: float        # kernel passes per step
    exchanges: float     # halo exchanges per step
    fields: int          # fields per exchange
    width: int           # halo width
    allreduces: float    # per step
    layout: str = "2d"   # 2d: square blocks, 4 neighbours; rows: 1-d row blocks of a square grid
    overlap: bool = False  # halo messages travel while the interior is computed
    written: float = 0.0   # of bytes_per_point, those stored (read again where stores allocate)
    copies: float = 0.0    # host-device copies per step beyond the allreduces' sums
    copy_bytes_per_point: float = 0.0


def grid2(p):
    """The most square px x py = p."""
    px = int(math.isqrt(p))
    while p % px:
        px -= 1
    return px, p // px


def halo(w, p):
    """(messages, bytes per message) a device sends in one exchange."""
    if p == 1:
        return 0, 0.0
    if w.layout == "rows":  # a row of the whole square grid each way
        side = math.sqrt(w.points * p)
        return min(p - 1, 2), side * 8.0 * w.width * w.fields
    px, py = grid2(p)
    side = math.sqrt(w.points)
    return min(px - 1, 2) + min(py - 1, 2), side * 8.0 * w.width * w.fields


def bandwidth(m, p):
    """Memory bandwidth one of p devices gets (shared: the aggregate the
    busy cores reach, split over all p ranks)."""
    if not m.shared:
        return m.bw
    agg = dict(m.shared)
    k = max(q for q in agg if q <= p) if any(q <= p for q in agg) else min(agg)
    return agg[k] / p


def step_time(w, m, p):
    """Seconds per step on each of p devices, and its parts."""
    msgs, size = halo(w, p)
    inter = p > m.per_node
    lat, bw = (m.lat_inter, m.bw_inter) if inter else (m.lat_intra, m.bw_intra)
    b = w.bytes_per_point + (w.written if m.write_allocate else 0.0)
    parts = {"memory": b * w.points / bandwidth(m, p), "launch": w.passes * m.launch,
             "halo": w.exchanges * msgs * (lat + size / bw),
             "allreduce": w.allreduces * math.ceil(math.log2(p)) * (m.lat_reduce if inter or not m.shared
                                                                    else m.lat_intra) if p > 1 else 0.0,
             "copies": w.copies * m.copy_lat + w.copy_bytes_per_point * w.points / m.bw_copy}
    if w.overlap:  # the messages hide behind the memory time, or it behind them
        return max(parts["memory"], parts["halo"]) + parts["launch"] + parts["allreduce"], parts
    return sum(parts.values()), parts


def predict(w, m, sizes=SIZES):
    """[(P, points/s per device, efficiency against P = 1)]."""
    t1 = step_time(w, m, 1)[0]
    return [(p, w.points / step_time(w, m, p)[0], t1 / step_time(w, m, p)[0]) for p in sizes]


# What maniple runs per step, from the -log_view counters of a suite run
# (meta.json "counters", counters.py: 2 ranks, per step) where there is
# one; otherwise the figures measured on 2026-11-26, the same way. Heat:
# the C app's mn_stencil sweep (16 B/point, 1 pass, 1 halo exchange
# overlapped, no allreduce). CG + Jacobi (C solver): 180 B per row and
# iteration, 3 passes, 1 exchange overlapped by the SpMV, 2 allreduces;
# CG1 (Chronopoulos-Gear) has 1. SWE and the cavity as maniple.numpy runs
# them: passes, bytes, messages and allreduces per step as counted (since
# the evaluator stopped agreeing on errors in the steady state, only
# reductions' allreduces are left: 2 for swe, the first stage's maxima
# that set the step, since the second stage stopped asking for its own
# (2026-12-07); none for the cavity).
DEFAULTS = {
    "heat_c": dict(passes=1, bytes_per_point=16.1, messages_per_rank=1, bytes_per_message=4096, allreduces=0,
                   reduce_allreduces=0),
    "cg": dict(passes=3, bytes_per_point=180.0, messages_per_rank=1, bytes_per_message=3200, allreduces=2,
               reduce_allreduces=0),
    "swe": dict(passes=86, bytes_per_point=2816, messages_per_rank=15, bytes_per_message=2044, allreduces=2,
                reduce_allreduces=2),
    "cavity": dict(passes=315, bytes_per_point=3599, messages_per_rank=57, bytes_per_message=2035, allreduces=0,
                   reduce_allreduces=0),
}
COUNTED_SIDE = {"heat_c": 512, "cg": 400, "swe": 256, "cavity": 256}  # grid side of the counted runs


def inputs(counted=None, device=False):
    """DEFAULTS, replaced by what a suite run counted (where it counted);
    with device, by the emulated device's counts where there are some."""
    c = {k: dict(v, copies=0.0, copy_bytes_per_point=0.0) for k, v in DEFAULTS.items()}
    counted = counted or {}
    for k in c:
        for v in (counted.get(k), counted.get(k + "@device") if device else None):
            if v and "error" not in v and v.get("bytes_per_point", 0) > 0:
                c[k].update(v)
    return c


def workloads(counted=None, device=False):
    c = inputs(counted, device)

    def extra(k):  # copies beyond the allreduces' sums (those are in the allreduce latency)
        return dict(copies=max(0.0, c[k].get("copies", 0.0) - c[k]["allreduces"]),
                    copy_bytes_per_point=c[k].get("copy_bytes_per_point", 0.0))

    def fields(k):  # rows of the counted grid one message carries: fields x width
        return max(1, round(c[k]["bytes_per_message"] / (8 * COUNTED_SIDE[k])))

    h, g, sw, cv = c["heat_c"], c["cg"], c["swe"], c["cavity"]
    return {
        "heat": Workload("heat stencil (C)", 12_264_004, h["bytes_per_point"], h["passes"], 1, 1, 1,
                         h["allreduces"], overlap=True, **extra("heat_c")),
        "cg": Workload("CG + Jacobi", 6000 * 6000, g["bytes_per_point"], g["passes"], 1, 1, 1, g["allreduces"],
                       layout="rows", overlap=True, **extra("cg")),
        "cg1": Workload("CG1, single reduction", 6000 * 6000, g["bytes_per_point"], g["passes"], 1, 1, 1, 1,
                        layout="rows", overlap=True, **extra("cg")),
        "swe": Workload("shallow water (maniple.numpy)", 4096 * 4096, sw["bytes_per_point"], sw["passes"],
                        sw["messages_per_rank"], fields("swe"), 1, sw["allreduces"], **extra("swe")),
        "channel": Workload("cavity/channel (maniple.numpy)", 12_264_004, cv["bytes_per_point"], cv["passes"],
                            cv["messages_per_rank"], fields("cavity"), 1, cv["allreduces"], **extra("cavity")),
        # what-if: only the allreduces the reductions need (what is counted now; kept for older suite runs)
        "swe0": Workload("swe, reductions' allreduces only (what-if)", 4096 * 4096, sw["bytes_per_point"],
                         sw["passes"], sw["messages_per_rank"], fields("swe"), 1, sw["reduce_allreduces"],
                         **extra("swe")),
        "channel0": Workload("channel, reductions' allreduces only (what-if)", 12_264_004, cv["bytes_per_point"],
                             cv["passes"], cv["messages_per_rank"], fields("cavity"), 1, cv["reduce_allreduces"],
                             **extra("cavity")),
    }


# Published points (NVIDIA's cuPyNumeric blog and README; Legate Sparse's SC'23
# artefacts, results/summit): (P, per-device value)
ANCHORS = {
    "heat": ("cuPyNumeric stencil, 12.3 M points/GPU: flat to 1024 GPUs", [(1, 1.0), (1024, 1.0)], "efficiency"),
    "channel": ("cuPyNumeric CFD port: 153 -> 104 M points/s per GPU", [(1, 153e6), (2048, 104e6)], "rate"),
    "cg": ("Legate Sparse CG, 6000^2/GPU (Summit): 76.0 -> 49.6 it/s", [(1, 76.0), (192, 49.6)], "its"),
    "cg_petsc": ("PETSc CG aijcusparse (Summit): 89.7 -> 81.3 it/s", [(1, 89.7), (192, 81.3)], "its"),
}


def this_machine(stream, pingpong_lat, pingpong_bw, cores):
    """This machine from a suite run: the STREAM triad measured at each rank
    count (busy cores share it) and the ping-pong between two ranks."""
    return Machine(f"this machine ({cores} cores, measured)", bw=max(stream.values()), per_node=1 << 30,
                   lat_intra=pingpong_lat, bw_intra=pingpong_bw, lat_inter=pingpong_lat, bw_inter=pingpong_bw,
                   lat_reduce=pingpong_lat, launch=0.0, write_allocate=True,
                   shared=tuple(sorted((p, s) for p, s in stream.items() if p <= cores)))


def validate(recs, cores, counted=None):
    """Model against measured per-rank throughput: heat C weak scaling at
    every rank count run and CG strong scaling, with the bytes, passes and
    allreduces counted, and the stores' write-allocate reads (8 B a point
    for heat's new grid, 24 B a row for CG's x, r and p).
    [(case, P, predicted, measured, relative error)]."""
    c = inputs(counted)
    stream = {r["ranks"]: r["median"] * 24.0 for r in recs
              if r["bench"] == "stream" and r["variant"] == "reference" and r["median"]}
    pl = find(recs, "pingpong", "mpi", 2, variant="8B")
    pb = find(recs, "pingpong", "mpi", 2, variant="4194304B")
    if not stream or not pl or not pb:
        return []
    m = this_machine(stream, pl["seconds"], pb["median"], cores)
    out = []
    ok = ("ok", "dry run")
    for r in sorted((r for r in recs if r["bench"] == "heat" and r["impl"] == "c" and r["status"] in ok
                     and r["scaling"] in ("serial", "weak")), key=lambda r: r["ranks"]):
        p = r["ranks"]
        h = c["heat_c"]
        w = Workload("heat", r["size"] // p, h["bytes_per_point"], 0, 1, 1, 1, h["allreduces"], overlap=True,
                     written=8.0)
        pred = w.points / step_time(w, m, p)[0]
        out.append(("heat C (weak)", p, pred, r["per_rank"], pred / r["per_rank"] - 1))
    for r in sorted((r for r in recs if r["bench"] == "cg" and r["impl"] == "maniple" and r["status"] in ok),
                    key=lambda r: r["ranks"]):
        p = r["ranks"]
        rows = int(r["variant"].split("=")[1]) ** 2  # variant G=<grid side>
        g = c["cg"]
        w = Workload("cg", rows / p, g["bytes_per_point"], 0, 1, 1, 1, g["allreduces"], layout="rows", overlap=True,
                     written=24.0)
        pred = rows / p / step_time(w, m, p)[0]
        out.append(("CG + Jacobi (strong)", p, pred, r["per_rank"], pred / r["per_rank"] - 1))
    return out


def table(m, ws):
    lines = [f"weak-scaling predictions on {m.name}", f"{'P':>6} " + " ".join(f"{k:>22}" for k in ws)]
    preds = {k: predict(w, m) for k, w in ws.items()}
    for i, p in enumerate(SIZES):
        lines.append(f"{p:>6} " + " ".join(f"{preds[k][i][1] / 1e6:>11.1f} M/s {preds[k][i][2]:>6.3f}" for k in ws))
    lines.append("(per device: M points/s (CG: M row-iterations/s), then efficiency against 1 device)")
    return "\n".join(lines), preds


def anchor_efficiency(key):
    _, pts, _ = ANCHORS[key]
    return [(p, v / pts[0][1]) for p, v in pts]


def plot(path, m, ws, preds, checks):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axs = plt.subplots(1, 2, figsize=(12, 4.5))
    ax = axs[0]
    colors = dict(heat="tab:blue", cg="tab:orange", cg1="tab:red", swe="tab:green", channel="tab:purple",
                  swe0="tab:olive", channel0="tab:pink")
    for k, pr in preds.items():
        ax.plot([p for p, _, _ in pr], [e for _, _, e in pr], "--" if k.endswith("0") else "-", color=colors[k],
                label=f"model: {ws[k].name}")
    for key, col, mk in (("heat", "tab:blue", "s"), ("channel", "tab:purple", "D"), ("cg", "tab:orange", "^"),
                         ("cg_petsc", "k", "v")):
        pts = anchor_efficiency(key)
        ax.plot([p for p, _ in pts], [e for _, e in pts], mk, color=col, ms=7, ls=":", label=ANCHORS[key][0])
    ax.set_xscale("log", base=2)
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("GPUs (weak scaling)")
    ax.set_ylabel("efficiency: per-GPU throughput / 1 GPU")
    ax.set_title(f"model on {m.name}\nbeside the published peer points (their own hardware)", fontsize=9)
    ax.legend(fontsize=6, loc="lower left")
    ax = axs[1]
    if checks:
        for case, mk in (("heat C (weak)", "o"), ("CG + Jacobi (strong)", "s")):
            c = [x for x in checks if x[0] == case]
            if c:
                ax.plot([x[1] for x in c], [x[3] / 1e6 for x in c], mk, label=f"{case}: measured")
                ax.plot([x[1] for x in c], [x[2] / 1e6 for x in c], mk + "--", mfc="none", label=f"{case}: model")
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("ranks on this machine (beyond the cores: oversubscribed)")
        ax.set_ylabel("M units/s per rank")
        ax.legend(fontsize=7)
        ax.set_title("validation on this machine", fontsize=9)
    else:
        ax.text(0.5, 0.5, "no suite results to validate against:\nrun python -m maniple.bench first",
                ha="center", transform=ax.transAxes)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def main(argv=None):
    p = argparse.ArgumentParser(prog="python -m maniple.bench.model", description=__doc__.split("\n\n")[0])
    p.add_argument("--machine", choices=sorted(MACHINES), default="h100")
    p.add_argument("--results", default=os.path.join("benchmarks", "results"), help="a suite run to validate against")
    p.add_argument("--out", help="where scaling_model.png and model.json go (default: --results)")
    a = p.parse_args(argv)
    m = MACHINES[a.machine]
    path = os.path.join(a.results, "results.jsonl")
    checks, meta = [], {}
    if os.path.exists(path):
        with open(os.path.join(a.results, "meta.json")) as f:
            meta = json.load(f)
    cnt = meta.get("counters") or {}
    ws = workloads(cnt, m.device)
    on_dev = m.device and any(k.endswith("@device") and "error" not in v for k, v in cnt.items())
    print("inputs per step: " + ("counted in that suite run" if cnt else "the defaults in model.py")
          + (", on the emulated device (the code a GPU runs)" if on_dev else ""))
    for k, w in ws.items():
        print(f"  {w.name:40s} {w.bytes_per_point:8.1f} B/point {w.passes:6.0f} passes {w.exchanges:5.0f} exchanges "
              f"{w.allreduces:6.0f} allreduces {w.copies:5.0f} more copies {w.copy_bytes_per_point:6.2f} B/point")
    text, preds = table(m, ws)
    print(text)
    if meta:
        checks = validate(records.read_jsonl(path), meta["cores"], meta.get("counters"))
        if meta.get("dry_run"):
            print("(validating against a DRY RUN: made-up figures)")
    print("\nvalidation on this machine (model / measured - 1):")
    for case, pr, pred, meas, err in checks:
        print(f"  {case:22s} P={pr}: model {pred / 1e6:9.2f} M/s, measured {meas / 1e6:9.2f} M/s, error {err:+.1%}")
    if checks:
        worst = max(abs(x[4]) for x in checks)
        print(f"  largest error {worst:.1%} over {len(checks)} points")
    else:
        print(f"  nothing to validate: {path} is missing or has no heat/CG/STREAM/ping-pong records")
    out = a.out or a.results
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "model.json"), "w") as f:
        json.dump({"machine": m.name, "predictions": {k: pr for k, pr in preds.items()},
                   "validation": [dict(case=c, ranks=r, model=x, measured=y, error=e) for c, r, x, y, e in checks]},
                  f, indent=1)
    plot(os.path.join(out, "scaling_model.png"), m, ws, preds, checks)
    return 0


if __name__ == "__main__":
    import sys
    sys.exit(main())
