"""The OpenBLAS kernel set, chosen before the C library loads OpenBLAS.

OpenBLAS picks its kernels by CPU model when it loads. Debian 12's 0.3.21
does not know recent Xeons and falls back to its SSE3 ("Prescott") kernels,
5x slower for dgemm on such a machine. Unless the user set
OPENBLAS_CORETYPE, the kernels are chosen here by instruction set: AVX-512
(F, DQ, BW, VL, CD) or AVX2 with FMA, each of which OpenBLAS's own
detection would pick on CPUs it knows. The variable is set only while the
extension loads, so NumPy's own OpenBLAS, loaded later, keeps its
detection."""
import contextlib
import os

AVX512 = {"avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512cd"}


def cpu_flags(path="/proc/cpuinfo"):
    try:
        with open(path) as f:
            for line in f:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def coretype(flags):
    """OpenBLAS's name of the kernel set for these CPU flags; None: leave
    OpenBLAS's own detection alone."""
    if AVX512 <= flags:
        return "SKYLAKEX"
    if {"avx2", "fma"} <= flags:
        return "HASWELL"
    return None


@contextlib.contextmanager
def chosen():
    """OPENBLAS_CORETYPE set (unless the user set it) for the duration."""
    if "OPENBLAS_CORETYPE" in os.environ:
        yield
        return
    core = coretype(cpu_flags())
    if core:
        os.environ["OPENBLAS_CORETYPE"] = core
    try:
        yield
    finally:
        if core:
            os.environ.pop("OPENBLAS_CORETYPE", None)
