"""The suite's outputs: results.jsonl, results.csv, meta.json, the plots
and the summary table of headline ratios."""
import json
import os
import shutil
import subprocess

from . import records
from .suite import DENSE_FACTOR, DENSE_LA, IDIOM_SIZES


def gpu_found():
    """The first line of nvidia-smi -L, or '' when there is no GPU."""
    smi = shutil.which("nvidia-smi")
    if smi:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True)
        if out.returncode == 0 and "GPU" in out.stdout:
            return out.stdout.strip().splitlines()[0]
    return ""


def gpu_status(ran):
    """The GPU column: what this run had and did."""
    found = gpu_found()
    if found:
        did = "rows marked /cuda ran with MANIPLE_BACKEND=cuda" if ran else "the GPU rows were left out (--gpu no)"
        return f"GPU present ({found}): {did}"
    did = "the GPU rows ran to record why they cannot" if ran else "no GPU figures (nothing was run on a GPU)"
    return f"no GPU on this machine: {did}"


def find(recs, bench, impl, ranks, scaling=None, variant=None):
    for r in recs:
        if (r["bench"], r["impl"], r["ranks"]) == (bench, impl, ranks) and r["status"] in ("ok", "dry run") \
                and r["median"] and (scaling is None or r["scaling"] == scaling) \
                and (variant is None or r["variant"] == variant):
            return r
    return None


def ratio(a, b):
    return a["median"] / b["median"] if a and b else None


def headlines(recs, ranks=(1, 2)):
    """(description, value) pairs: maniple against each peer and the roofs."""
    out = []
    for p in ranks:
        s = "serial" if p == 1 else "strong"
        for app in ("heat", "swe", "cavity"):
            m, c, n = find(recs, app, "maniple.numpy", p, s), find(recs, app, "c", p, s), find(recs, app, "numpy", 1)
            out.append((f"{app}: maniple.numpy / NumPy(1 process), {p} rank(s)", ratio(m, n)))
            out.append((f"{app}: maniple.numpy / C, {p} rank(s)", ratio(m, c)))
            if app == "heat" and c:
                out.append((f"heat: C fraction of STREAM, {p} rank(s)", c["fraction_of_stream"]))
            if app == "swe" and p == 1:  # issue 19: the C swe at least 0.5 of its op-mix roof
                out.append(("swe: C / its op-mix roof (benchmarks/swe_roof.py), 1 rank",
                            ratio(c, find(recs, "swe", "op_mix_roof", 1))))
        for app in ("heat", "swe", "cavity"):
            out.append((f"{app}: maniple.numpy / cuPyNumeric ({p} CPU), {p} rank(s)",
                        ratio(find(recs, app, "maniple.numpy", p, s), find(recs, app, "cupynumeric", p))))
        for n in IDIOM_SIZES:  # issue 19's goals: >= 0.9 of the fused C loop, >= 7x NumPy
            v = f"N={n}"
            m = find(recs, "stencil_idiom", "maniple.numpy", p, variant=v)
            out.append((f"stencil idiom {v}: maniple.numpy / fused C loop, {p} rank(s)",
                        ratio(m, find(recs, "stencil_idiom", "fused_c", p, variant=v))))
            out.append((f"stencil idiom {v}: maniple.numpy / NumPy(1 process), {p} rank(s)",
                        ratio(m, find(recs, "stencil_idiom", "numpy", 1, variant=v))))
            out.append((f"stencil idiom {v}: maniple.numpy / cuPyNumeric ({p} CPU), {p} rank(s)",
                        ratio(m, find(recs, "stencil_idiom", "cupynumeric", p, variant=v))))
        ca = find(recs, "cg_arrays", "maniple.numpy", p)
        out.append((f"cg as array code: maniple.numpy / NumPy(1 process), {p} rank(s)",
                    ratio(ca, find(recs, "cg_arrays", "numpy", 1))))
        out.append((f"cg as array code: maniple.numpy / cuPyNumeric ({p} CPU), {p} rank(s)",
                    ratio(ca, find(recs, "cg_arrays", "cupynumeric", p))))
        for w, _ in DENSE_LA:  # issue 22's goals: cg <= NumPy's time (1 rank), <= 0.6 of it (2); others >= 1x, 1.6x
            d = find(recs, f"dense_{w}", "maniple.numpy", p)
            out.append((f"dense {w}: maniple.numpy / NumPy(1 process), {p} rank(s)",
                        ratio(d, find(recs, f"dense_{w}", "numpy", 1))))
            out.append((f"dense {w}: maniple.numpy / cuPyNumeric ({p} CPU), {p} rank(s)",
                        ratio(d, find(recs, f"dense_{w}", "cupynumeric", p))))
            if w in DENSE_FACTOR and p > 1:  # goal: faster at 2 ranks than at 1
                out.append((f"dense {w}: maniple.numpy {p} ranks / 1 rank",
                            ratio(d, find(recs, f"dense_{w}", "maniple.numpy", 1))))
        for case in sorted({r["variant"] for r in recs if r["bench"] == "select" and r["impl"] == "maniple.numpy"}):
            out.append((f"{case}: maniple.numpy / NumPy(1 process), {p} rank(s)",  # issue 22: einsum >= 1/2, indexing >= 1/3
                        ratio(find(recs, "select", "maniple.numpy", p, variant=case),
                              find(recs, "select", "numpy", 1, variant=case))))
        sa = find(recs, "small_add", "maniple.numpy", p)
        out.append((f"c = a + b on 1000 elements: maniple.numpy / NumPy, {p} rank(s)",
                    ratio(sa, find(recs, "small_add", "numpy", 1))))
        st = find(recs, "stencil5", "maniple", p)
        roof = find(recs, "stencil5", "fused_c", p)
        out.append((f"stencil (C views): maniple / fused C loop, {p} rank(s)", ratio(st, roof)))
        sp = find(recs, "spmv", "maniple", p, variant="natural/equal")
        out.append((f"spmv: maniple / SciPy, {p} rank(s)", ratio(sp, find(recs, "spmv", "scipy", 1))))
        out.append((f"spmv: maniple fraction of STREAM, {p} rank(s)", sp["fraction_of_stream"] if sp else None))
        cg = find(recs, "cg", "maniple", p)
        out.append((f"cg: maniple / PETSc, {p} rank(s)", ratio(cg, find(recs, "cg", "petsc", p))))
        out.append((f"cg: maniple / SciPy, {p} rank(s)", ratio(cg, find(recs, "cg", "scipy", 1))))
        out.append((f"cg: maniple.sparse cg(M=diags(1/A.diagonal())) / PETSc, {p} rank(s)",
                    ratio(find(recs, "cg", "maniple.sparse", p), find(recs, "cg", "petsc", p))))
    for app in ("heat", "swe", "cavity"):  # the GPU column, where it ran
        for impl in ("c", "maniple.numpy"):
            g = find(recs, app, impl + "/cuda", 1)
            if g:
                out.append((f"{app}: {impl} on CUDA / on CPU, 1 rank", ratio(g, find(recs, app, impl, 1))))
    for p in sorted({r["ranks"] for r in recs if r["bench"] == "heat" and r["scaling"] == "weak"}):
        c1, cp = find(recs, "heat", "c", 1), find(recs, "heat", "c", p, "weak")
        tag = " (oversubscribed: communication overhead, not speed)" if cp and cp["oversubscribed"] else ""
        eff = cp["per_rank"] / c1["per_rank"] if c1 and cp else None
        out.append((f"heat C weak-scaling efficiency, {p} ranks{tag}", eff))
    return out


def summary(recs, meta):
    lines = [f"maniple.bench: {len(recs)} records in {meta['seconds']} s on {meta['cores']} cores"
             + (" (DRY RUN: made-up figures)" if meta["dry_run"] else ""), f"GPU: {meta['gpu']}",
             "Ratios are of throughput (medians): above 1, maniple is faster."]
    for d, v in headlines(recs):
        lines.append(f"  {d:70s} {'-' if v is None else f'{v:.3g}'}")
    for r in recs:
        if r["status"] in ("not installed", "failed"):
            last = r["note"].strip().splitlines()[-1] if r["note"].strip() else ""
            lines.append(f"  {r['bench']} {r['impl']} x{r['ranks']}: {r['status']}: {r['note'][:150]}"
                         + (f" ... {last[-200:]}" if last and last not in r["note"][:150] else ""))
    return "\n".join(lines)


def write_all(out, recs, meta, plots=True):
    records.write_jsonl(os.path.join(out, "results.jsonl"), recs)
    records.write_csv(os.path.join(out, "results.csv"), recs)
    meta = dict(meta, headlines={d: v for d, v in headlines(recs)})
    with open(os.path.join(out, "meta.json"), "w") as f:
        json.dump(meta, f, indent=1)
    if plots:
        from . import plots as pl
        pl.draw_all(out, recs, meta)
