"""--dry-run: each job's output made up in the format its program prints,
so that parsing, records, tables and plots all run in seconds. Every
record it yields says 'dry run'; none is a measurement."""
import json


def _rate(job):
    # a made-up rate that grows with the ranks: the plots get lines
    return 100.0 * job.ranks ** 0.9


def output(job):
    if job.kind == "app":
        return f"{job.bench}: dry run\nthroughput: {_rate(job):.3f} M {job.unit}\n"
    if job.bench == "core":
        e, reps = job.size, int(job.cmd[-1])
        lines = []
        for impl, t in (("stream_c_loop", 1.0), ("stream_c_loop_nt", 1.1), ("maniple", 1.2),
                        ("maniple_views", 0.9), ("fused_c_loop", 0.6), ("fused_c_loop_nt", 0.7)):
            lines.append(dict(bench="x", impl=impl, ranks=job.ranks, elements=e, median_s=t * 1e-2 / job.ranks,
                              min_s=0.9 * t * 1e-2 / job.ranks, max_s=1.2 * t * 1e-2 / job.ranks, reps=reps,
                              stream_triad_GBps=20.0 * job.ranks))
        return "\n".join(json.dumps(d) for d in lines) + "\n"
    if job.bench == "spmv":
        rows = job.size
        out = [dict(bench="stream_triad", impl="c_loop", ranks=job.ranks, GBps=20.0)]
        for num in ("natural", "shuffled"):
            for part in ("equal", "metis"):
                out.append(dict(bench="spmv_poisson", numbering=num, partition=part, ranks=job.ranks, rows=rows,
                                median_s=1e-2, min_s=9e-3, max_s=2e-2, GBps=10.0))
        if job.ranks == 1:
            out.append(dict(bench="spmv_poisson", numbering="natural", partition="-", impl="scipy", ranks=1,
                            median_s=2e-2, GBps=5.0))
        return "\n".join(json.dumps(d) for d in out) + "\n"
    if job.bench == "numpy":
        n = int(job.cmd[2])
        out = [dict(bench="stencil_idiom", impl=i, ranks=job.ranks if i != "numpy" else 1, N=n, iter_median_s=t,
                    iter_min_s=0.9 * t, iter_max_s=1.2 * t) for i, t in (("maniple.numpy", 2e-3), ("numpy", 8e-3),
                                                                         ("c_fused_sweep", 1e-3))]
        out.append(dict(bench="small_add_1000", impl="maniple.numpy", ranks=job.ranks, us_per_op=5.0,
                        numpy_us_per_op=1.0, ratio_to_numpy=5.0))
        return "".join(json.dumps(d) + "\n" for d in out)
    if job.bench == "select":
        out = [dict(bench="stream_triad", impl="c_loop", ranks=job.ranks, GBps=20.0)]
        for case in ("einsum ij,j->i", "a[idx] 1-d"):
            for impl, t in (("maniple.numpy", 2e-4 / job.ranks), ("numpy", 1e-4)):
                out.append(dict(bench="select", case=case, impl=impl, ranks=job.ranks if impl != "numpy" else 1,
                                work=1000, median_s=t, min_s=0.9 * t, max_s=1.2 * t, reps=3))
        return "".join(json.dumps(d) + "\n" for d in out)
    if job.bench == "swe_roof":
        return json.dumps(dict(bench="swe_roof", rates=[1e8, 1.1e8, 0.9e8], counts=dict(sqrt=16, div=36, other=597),
                               sqrt_ns=0.2, div_ns=0.1, op_ns=0.01, cell_ns=10.0)) + "\n"
    if job.bench == "pingpong":
        return "".join(json.dumps(dict(bench="pingpong", bytes=b, median_s=t, min_s=0.9 * t, max_s=1.5 * t, reps=7))
                       + "\n" for b, t in ((8, 1e-6), (1 << 22, 5e-4)))
    # [program, G, its, ...] or [python, bench_cg.py, G, its, ...]
    its = int(job.cmd[3]) if job.cmd[1].endswith(".py") else int(job.cmd[2])
    return json.dumps(dict(bench="cg_jacobi_poisson", impl=job.impl, ranks=job.ranks, iterations=its,
                           times_s=[0.5, 0.45, 0.55, 0.5, 0.6])) + "\n"
