"""Run by ctest venv_import: the .venv's interpreter, with no PYTHONPATH,
imports maniple from the build tree (tools/venv_link.py) and computes the
same as NumPy, alone or under mpiexec. Not collected by pytest."""
import pathlib
import sys

import numpy

import maniple.numpy as mnp
import maniple.sparse.linalg  # noqa: F401

tree = pathlib.Path(sys.argv[1]).resolve()
where = pathlib.Path(mnp.__file__).resolve()
assert tree in where.parents, f"maniple.numpy imported from {where}, not from the build tree {tree}"
x = mnp.arange(1000, dtype=float)
got = float((x[1:] * x[:-1]).sum())
ref = float((numpy.arange(1000.0)[1:] * numpy.arange(1000.0)[:-1]).sum())
assert got == ref, (got, ref)
print("venv_import: ok", got)
