"""What maniple does per step, read from its -log_view table (the
MANIPLE_LOG_VIEW=1 counters, docs/profiling.md): kernel passes, bytes the
kernels move per point, messages and their bytes, allreduces, and copies
between host and device. Each program runs at 2 ranks for s and for 2s
steps; the difference divided by s leaves out the set-up. Each runs on the
CPU backend and again on the emulated device (variant "<name>@device",
with MPI taking device buffers as on a GPU cluster), which runs the code
path a GPU would, so the model predicts GPUs from the latter. The model
takes these as its measured inputs."""
import re

ROW = re.compile(r"^(\w+)\s+(\d+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\d+)\s+(\S+)\s+(\d+)\s*$", re.M)
RANKS = 2


def parse_table(text):
    """{kind: {calls, mem_bytes, messages, msg_bytes, allreduces}} from the table."""
    out = {}
    for m in ROW.finditer(text):
        if m.group(1) == "Event":
            continue
        out[m.group(1)] = dict(calls=int(m.group(2)), mem_bytes=float(m.group(6)) * 1e6, messages=int(m.group(8)),
                               msg_bytes=float(m.group(9)) * 1e6, allreduces=int(m.group(10)))
    if not out:
        raise RuntimeError(f"no -log_view table in the output: {text[-300:]!r}")
    return out


def per_step(short, long_, steps, points, passes_from):
    """Per step (and per point for bytes), from the tables of s and 2s steps.
    Messages are per rank; allreduces are what each rank issues, and
    reduce_allreduces those inside reductions (the ones a result needs)."""
    def d(kind, key):
        return (long_.get(kind, {}).get(key, 0) - short.get(kind, {}).get(key, 0)) / steps
    passes = sum(d(k, "calls") for k in passes_from)
    mem = sum(d(k, "mem_bytes") for k in passes_from)
    msgs = d("plan_begin", "messages") or d("sv_op", "messages") or d("stencil", "messages")
    mbytes = d("plan_begin", "msg_bytes") or d("sv_op", "msg_bytes") or d("stencil", "msg_bytes")
    return dict(passes=passes, bytes_per_point=mem / points, messages_per_rank=msgs / RANKS,
                bytes_per_message=mbytes / msgs if msgs else 0.0, allreduces=d("allreduce", "calls"),
                reduce_allreduces=d("reduce", "allreduces"), copies=d("h2d", "calls") + d("d2h", "calls"),
                copy_bytes_per_point=(d("h2d", "mem_bytes") + d("d2h", "mem_bytes")) / points)


# the maniple.numpy apps counted, and the flag that sets their steps
APPS = {"heat": "--iterations", "swe": "--steps", "cavity": "--nt"}
# per counted program: the log kinds whose calls are kernel passes
PASSES = {"heat": ("eval", "reduce"), "swe": ("eval", "reduce"), "cavity": ("eval", "reduce"), "heat_c": ("stencil",),
          "cg": ("sv_op", "sv_update", "sv_pc")}
DEVICE = "@device"  # the variant suffix of a count on the emulated device
DEVICE_ENV = {"MANIPLE_BACKEND": "emulated", "MANIPLE_MPI_DEVICE": "1"}


def passes_of(variant):
    return PASSES[variant.split(DEVICE)[0]]


def fake_table(steps):
    """A table in the format mn_log_view prints (for --dry-run)."""
    rows = [("eval", 10 * steps, 8.0 * steps, 4 * steps, 0.1 * steps, 2 * steps),
            ("reduce", steps, 1.0 * steps, 0, 0.0, steps), ("allreduce", 3 * steps, 0.0, 0, 0.0, 3 * steps),
            ("plan_begin", 4 * steps, 1.0 * steps, 4 * steps, 0.1 * steps, 0),
            ("stencil", steps, 4.0 * steps, 2 * steps, 0.01 * steps, steps),
            ("sv_op", steps, 5.0 * steps, 2 * steps, 0.01 * steps, 0), ("d2h", 2 * steps, 0.001 * steps, 0, 0.0, 0)]
    lines = ["Event           Calls    Time(s)     Max(s)  Ratio    Mem(MB)     GB/s      Msgs      MsgMB   Allred"]
    for k, c, mb, msg, mmb, ar in rows:
        lines.append(f"{k:<12}{c:>9}  1.000e-03  1.000e-03   1.00 {mb:>10.3f}     1.00 {msg:>9} {mmb:>10.3f} {ar:>8}")
    return "\n".join(lines) + "\n"
