"""PNG plots of a suite run (matplotlib, no display needed)."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from .report import find, ratio  # noqa: E402

SERIES = [("core", "stencil5", "fused_c"), ("core", "stencil5", "maniple"), ("core", "triad", "maniple"),
          ("heat", "heat", "c"), ("heat", "heat", "maniple.numpy"), ("swe", "swe", "c"),
          ("swe", "swe", "maniple.numpy"), ("cavity", "cavity", "c"), ("cavity", "cavity", "maniple.numpy")]


def _ok(r):
    return r["status"] in ("ok", "dry run") and r["median"]


def _title(ax, meta, text):
    ax.set_title(text + ("  [DRY RUN: made-up]" if meta["dry_run"] else ""), fontsize=10)


def _weak(recs, bench, impl):
    pts = sorted((r["ranks"], r["per_rank"], r["oversubscribed"]) for r in recs
                 if r["bench"] == bench and r["impl"] == impl and r["scaling"] in ("weak", "serial") and _ok(r))
    return pts


def scaling(out, recs, meta):
    fig, axs = plt.subplots(1, 2, figsize=(12, 4.5))
    for ax, kind in zip(axs, ("weak", "eff")):
        for _, bench, impl in SERIES:
            pts = _weak(recs, bench, impl)
            if len(pts) < 2:
                continue
            x = [p[0] for p in pts]
            y = [p[1] / 1e6 for p in pts] if kind == "weak" else [p[1] / pts[0][1] for p in pts]
            ax.plot(x, y, "o-", label=f"{bench} {impl}")
        ref = sorted((r["ranks"], r["per_rank"]) for r in recs
                     if r["bench"] == "stream" and r["variant"] == "reference" and _ok(r))
        if len(ref) > 1:  # what the memory bus allows: the ceiling of bandwidth-bound kernels
            y = [v / 1e6 for _, v in ref] if kind == "weak" else [v / ref[0][1] for _, v in ref]
            ax.plot([p for p, _ in ref], y, "k--", lw=1, label="STREAM triad (bandwidth ceiling)")
        over = [r["ranks"] for r in recs if r["oversubscribed"]]
        if over:
            ax.axvspan(meta["cores"] + 0.5, max(over) * 1.1, color="0.9", zorder=0)
            ax.text(meta["cores"] + 0.6, 0.97, "oversubscribed:\ncommunication overhead,\nnot speed", fontsize=7,
                    va="top", transform=ax.get_xaxis_transform())
        ax.set_xscale("log", base=2)
        ax.set_xlabel("ranks")
        if kind == "weak":
            ax.set_yscale("log")
            ax.set_ylabel("M units / s per rank")
            _title(ax, meta, "weak scaling: throughput per rank")
        else:
            ax.set_ylabel("per-rank throughput / 1 rank")
            _title(ax, meta, "weak-scaling efficiency")
    axs[1].legend(fontsize=7, loc="lower left")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "scaling.png"), dpi=110)
    plt.close(fig)


def stream_fraction(out, recs, meta):
    rows = [r for r in recs if _ok(r) and r["fraction_of_stream"] and not r["oversubscribed"]
            and r["bench"] != "stream" and r["scaling"] != "weak"]
    rows.sort(key=lambda r: (r["bench"], r["impl"], r["variant"], r["ranks"]))
    fig, ax = plt.subplots(figsize=(8, 0.28 * len(rows) + 1.2))
    labels = [f"{r['bench']} {r['impl']} {r['variant']} x{r['ranks']}".replace("  ", " ") for r in rows]
    ax.barh(range(len(rows)), [r["fraction_of_stream"] for r in rows], color="tab:blue")
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_yticks(range(len(rows)), labels, fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("fraction of the STREAM triad of the same run (minimal traffic)")
    _title(ax, meta, "how close to memory bandwidth")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "stream_fraction.png"), dpi=110)
    plt.close(fig)


def peers(out, recs, meta):
    pairs = []
    for p in (1, 2):
        s = "serial" if p == 1 else "strong"
        for app in ("heat", "swe", "cavity"):
            m = find(recs, app, "maniple.numpy", p, s)
            pairs.append((f"{app} x{p} vs numpy", ratio(m, find(recs, app, "numpy", 1))))
            # cuPyNumeric on as many CPUs as maniple has ranks (its 1-CPU run where that is all)
            cpn = find(recs, app, "cupynumeric", p) or find(recs, app, "cupynumeric", 1)
            pairs.append((f"{app} x{p} vs cupynumeric x{cpn['ranks'] if cpn else 1}", ratio(m, cpn)))
            pairs.append((f"{app} x{p} vs C (roof)", ratio(m, find(recs, app, "c", p, s))))
        sp = find(recs, "spmv", "maniple", p, variant="natural/equal")
        pairs.append((f"spmv x{p} vs SciPy", ratio(sp, find(recs, "spmv", "scipy", 1))))
        cg = find(recs, "cg", "maniple", p)
        pairs.append((f"cg x{p} vs PETSc x{p}", ratio(cg, find(recs, "cg", "petsc", p))))
        pairs.append((f"cg x{p} vs SciPy", ratio(cg, find(recs, "cg", "scipy", 1))))
    pairs = [(k, v) for k, v in pairs if v]
    fig, ax = plt.subplots(figsize=(8, 0.28 * len(pairs) + 1.2))
    ax.barh(range(len(pairs)), [v for _, v in pairs],
            color=["0.6" if "roof" in k else "tab:green" if v >= 1 else "tab:red" for k, v in pairs])
    ax.axvline(1.0, color="k", lw=0.8)
    ax.set_xscale("log")
    ax.set_yticks(range(len(pairs)), [k for k, _ in pairs], fontsize=7)
    ax.invert_yaxis()
    ax.set_xlabel("maniple throughput / peer throughput (>1: maniple faster)")
    gone = sorted({f"{r['impl']}: {r['status']}" + (" (" + r["note"].split(": ")[-1][:60] + ")" if r["note"] else "")
                   for r in recs if r["status"] in ("not installed", "failed")})
    if gone:
        ax.text(0.99, 0.01, "no bars for:\n" + "\n".join(gone), transform=ax.transAxes, ha="right", va="bottom",
                fontsize=6, color="0.3")
    _title(ax, meta, "maniple against each peer")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "peers.png"), dpi=110)
    plt.close(fig)


def draw_all(out, recs, meta):
    scaling(out, recs, meta)
    stream_fraction(out, recs, meta)
    peers(out, recs, meta)
