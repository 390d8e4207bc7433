"""maniple.sparse: scipy.sparse over row-distributed matrices. Change
`import scipy.sparse as sp` to `import maniple.sparse as sp` and run the
script under `mpiexec -n N`: every rank runs it (SPMD).

Every matrix, whatever its format's name (csr, csc, coo, dia), is held as
the CSR of the matrix, its rows split over the ranks in equal parts (as
maniple.numpy splits a 1-d array of the row count), values of SciPy's
dtypes but longdouble (bool, the integers, float32, float64, complex64,
complex128): integer data keep their dtype, as SciPy's. NumPy inputs must be the same on
every rank, each of which keeps its own rows; maniple.numpy inputs are
distributed. Products and reductions give maniple.numpy arrays. What is
gathered to every rank (data, indices, indptr, row, col, str(), kron's
second operand, find, nonzero) says so in its docstring; docs/python.md
lists the rest. A scipy.sparse name maniple.sparse lacks is an
AttributeError saying so, never a silent fallback to SciPy.
"""
from maniple import init as _init

from ._base import sparray, spmatrix
from ._coo import coo_array, coo_matrix, isspmatrix_coo
from ._construct import (block_array, block_diag, bmat, diags, diags_array, eye, eye_array, find, hstack,
                         identity, issparse, isspmatrix, isspmatrix_bsr, isspmatrix_dok, isspmatrix_lil, kron,
                         kronsum, permute_dims, rand, random, random_array, spdiags, swapaxes, tril, triu, vstack)
from ._csc import csc_array, csc_matrix, isspmatrix_csc
from ._csr import csr_array, csr_matrix, isspmatrix_csr
from ._dia import dia_array, dia_matrix, isspmatrix_dia
from ._matrix_io import load_npz, save_npz
from ._partition import Partition, partition, permute
from . import linalg


class SparseWarning(Warning):
    pass


class SparseEfficiencyWarning(SparseWarning):
    pass


_init()

# scipy.sparse names left out on purpose, and why
_WITHHELD = {
    "bsr_array": "maniple holds every matrix as a row-distributed CSR (use csr_array)",
    "bsr_matrix": "maniple holds every matrix as a row-distributed CSR (use csr_matrix)",
    "lil_array": "incremental construction by element assignment is not implemented (build from triplets)",
    "lil_matrix": "incremental construction by element assignment is not implemented (build from triplets)",
    "dok_array": "incremental construction by element assignment is not implemented (build from triplets)",
    "dok_matrix": "incremental construction by element assignment is not implemented (build from triplets)",
    "expand_dims": "maniple.sparse holds 2-d matrices only",
    "csgraph": "scipy.sparse.csgraph is not part of maniple.sparse",
}


def __getattr__(name):
    """A scipy.sparse name maniple.sparse lacks is an AttributeError saying
    so (no fallback to SciPy on gathered data)."""
    if name in _WITHHELD:
        raise AttributeError(f"maniple.sparse does not implement scipy.sparse.{name}: {_WITHHELD[name]}")
    try:
        import scipy.sparse as _scipy_sparse
        in_scipy = hasattr(_scipy_sparse, name)
    except ImportError:  # without SciPy, every public name is taken for one of its
        in_scipy = not name.startswith("_")
    if in_scipy:
        raise AttributeError(f"maniple.sparse does not implement scipy.sparse.{name} yet; see "
                             "`python -m maniple.sparse.coverage` for what is implemented")
    raise AttributeError(f"module 'maniple.sparse' has no attribute '{name}'")
