"""The array module an app runs on, chosen once at startup: --backend numpy
imports NumPy, --backend maniple imports maniple.numpy (cupynumeric and cupy,
the peers, likewise); the app's code is the same for all. Plain NumPy under mpiexec runs the whole problem on every
rank, and only rank 0 prints."""
import math
import os
import sys


CHOICES = ("numpy", "maniple", "cupynumeric", "cupy")


def load(name):
    """(array module, rank, size) for backend name 'numpy', 'maniple',
    'cupynumeric' (the peer, run by its own launcher as one process) or
    'cupy' (the GPU peer, one process on one GPU)."""
    if name == "maniple":
        import maniple
        import maniple.numpy as mnp
        return mnp, maniple.rank(), maniple.size()
    if name == "numpy":
        import numpy
        return numpy, int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0"))), 1
    if name == "cupynumeric":
        import cupynumeric
        return cupynumeric, 0, 1
    if name == "cupy":
        import cupy
        return cupy, 0, 1
    raise ValueError(f"--backend {name!r} is not one of {', '.join(CHOICES)}")


def host(x):
    """x as a NumPy array: CuPy's arrays refuse numpy.asarray (they copy
    with .get()); NumPy's and maniple's take it."""
    if type(x).__module__.split(".")[0] == "cupy":  # not cupynumeric's, which NumPy takes
        return x.get()
    import numpy
    return numpy.asarray(x)


def printer(rank):
    """print on rank 0, nothing elsewhere."""
    if rank == 0:
        return print
    return lambda *a, **k: None


def error_exit(prog, err):
    """Bad input: every rank reports it (the values are global, so every
    rank finds the same error) and the exit status is 2."""
    print(f"{prog}: error: {err}", file=sys.stderr, flush=True)
    return 2


def check_finite(step, **sums):
    """ValueError when a field's sum is NaN or Inf: the run blew up by
    `step` (as apps/common/cli.c's app_finite; the sums are global, so every
    rank raises)."""
    for name, value in sums.items():
        if not math.isfinite(value):
            raise ValueError(f"the solution blew up: {name} holds NaN or Inf after step {step} "
                             "(unstable parameters: a smaller --dt?)")


PICTURE_MIN = 400  # pixels across, at least: small grids are magnified


def write_picture(path, field, **kw):
    """apps/picture.py's write_png, imported only when a picture is asked
    for; collective (a maniple array is gathered), rank 0 writes. A small
    grid gets k x k pixels a point, as apps/common/picture.c draws it."""
    import numpy
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from picture import write_png
    a = numpy.asarray(field, dtype=float)
    k = max(1, -(-PICTURE_MIN // max(a.shape)))
    write_png(path, numpy.repeat(numpy.repeat(a, k, axis=0), k, axis=1), **kw)
