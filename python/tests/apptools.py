"""Helpers for the tests of the apps in apps/: load a script as a module,
name a file that every rank names alike, and run a C app as a singleton."""
import importlib.util
import os
import subprocess

import maniple

APPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "apps")


def load(name):
    """apps/<name>.py as a module (its run() and main() are called directly)."""
    spec = importlib.util.spec_from_file_location(f"app_{name}", os.path.join(APPS, f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def shared_path(name):
    """A path every rank names alike, distinct per rank count."""
    d = os.environ.get("MN_TEST_TMP") or os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir)
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, f"app_{name}_np{maniple.size()}")


def c_program(var):
    """The built C app named by environment variable var (python/CMakeLists.txt
    sets it for the pytest ctests), or None."""
    exe = os.environ.get(var)
    return exe if exe and os.path.exists(exe) else None


def run_singleton(exe, args, timeout=120):
    """Run a C app as one process, with no trace of this mpiexec job in its
    environment (it would otherwise try to join it)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMPI_", "PMIX_", "PRTE_", "OPAL_", "PMI_", "HYDRA_"))}
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1")
    return subprocess.run([exe] + list(args), env=env, capture_output=True, text=True, timeout=timeout)
