"""Helpers for the tests of the apps in apps/: load a script as a module,
name a file that every rank names alike, and run a C app as a singleton."""
import importlib.util
import os
import subprocess
import tempfile

import maniple

APPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "apps")


def load(name):
    """apps/<name>.py as a module (its run() and main() are called directly)."""
    spec = importlib.util.spec_from_file_location(f"app_{name}", os.path.join(APPS, f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def shared_path(name):
    """A path every rank names alike, distinct per session (conftest.py) and rank count."""
    d = (os.environ.get("MANIPLE_PYTEST_TMP") or os.environ.get("MANIPLE_TEST_TMP")
         or os.path.join(tempfile.gettempdir(), "maniple_apps"))
    os.makedirs(d, exist_ok=True)
    return os.path.join(d, f"app_{name}_np{maniple.size()}")


def c_program(var):
    """The built C app named by environment variable var (python/CMakeLists.txt
    sets it for the pytest ctests), or None."""
    exe = os.environ.get(var)
    return exe if exe and os.path.exists(exe) else None


def run_singleton(exe, args, timeout=120, extra_env=None):
    """Run a C app as one process, with no trace of this mpiexec job in its
    environment (it would otherwise try to join it)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMPI_", "PMIX_", "PRTE_", "OPAL_", "PMI_", "HYDRA_"))}
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1")
    env.update(extra_env or {})
    return subprocess.run([exe] + list(args), env=env, capture_output=True, text=True, timeout=timeout)


def decode_png(path):
    """(ny, nx, 3) pixels of an 8-bit RGB PNG whose rows are unfiltered (as
    both apps/picture.py and apps/common/png.c write them), checking the
    signature and every chunk's CRC."""
    import struct
    import zlib

    import numpy
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, size = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n:pos + 12 + n])[0] == zlib.crc32(kind + body) & 0xFFFFFFFF, kind
        if kind == b"IHDR":
            size = struct.unpack(">II", body[:8])
            assert body[8:] == b"\x08\x02\x00\x00\x00"
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    nx, ny = size
    rows = numpy.frombuffer(zlib.decompress(idat), numpy.uint8).reshape(ny, 1 + 3 * nx)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(ny, nx, 3)
