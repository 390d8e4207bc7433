"""Starting one benchmark program: under mpiexec (ranks beyond the cores
are oversubscribed and unbound), with a hard timeout, returning its stdout.
A failure raises RuntimeError with the command and the end of stderr."""
import os
import subprocess

MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMP_NUM_THREADS": "1",
           "OMPI_MCA_btl_vader_single_copy_mechanism": "none", "PYTHONDONTWRITEBYTECODE": "1"}


def cores():
    """Cores this process may run on (what oversubscription is measured against)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:
        return os.cpu_count() or 1


def mpi_command(cmd, ranks, ncores, timeout):
    bind = ["--bind-to", "core"] if ranks <= ncores else ["--oversubscribe", "--bind-to", "none"]
    return ["timeout", "-k", "5", str(timeout), "mpiexec", "-n", str(ranks), *bind, *cmd]


def run(cmd, ranks, ncores, timeout, env=None, launcher="mpi"):
    """stdout of cmd at `ranks` ranks ('mpi'), or as given ('plain':
    a program that starts its own processes, e.g. cuPyNumeric's legate)."""
    full = mpi_command(cmd, ranks, ncores, timeout) if launcher == "mpi" else ["timeout", "-k", "5", str(timeout), *cmd]
    e = dict(os.environ, **MPI_ENV, **(env or {}))
    out = subprocess.run(full, env=e, capture_output=True, text=True)
    if out.returncode:
        why = "timed out" if out.returncode in (124, 137) else f"exit status {out.returncode}"
        raise RuntimeError(f"{' '.join(full)}: {why}: {(out.stderr or out.stdout)[-1500:].strip()}")
    return out.stdout
