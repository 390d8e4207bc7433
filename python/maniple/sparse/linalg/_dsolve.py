"""spsolve: a direct solve by SciPy (SuperLU) on the root rank, the matrix
and right-hand side gathered there (the matrix to every rank, as the
gathered `data`/`indices`/`indptr` are). For small systems: it does not
scale; the iterative solvers do."""
import pickle

import numpy as _np

import maniple.numpy as _mnp
from maniple import _core

from ._interface import _is_scipy_sparse, _is_sparse

_ROOT = 0


def _scipy_matrix(A):
    import scipy.sparse as _sps
    if _is_sparse(A):  # gathered in its own format, so SciPy warns as it would
        if A.format == "csc":
            return _sps.csc_array(A._gather_compressed(), shape=A.shape)
        return _sps.csr_array(A.tocsr()._gather_compressed(), shape=A.shape)
    if _is_scipy_sparse(A):
        return A
    raise TypeError(f"spsolve needs a sparse matrix, not a {type(A).__name__}")


def _gathered_rhs(b):
    if _is_sparse(b):
        return _scipy_matrix(b), "sparse"
    if _is_scipy_sparse(b):
        return b, "sparse"
    if isinstance(b, _mnp.ndarray):
        from maniple.numpy import _root
        return _root.gather(b), "dense"
    return _np.asarray(b), "dense"


def spsolve(A, b, permc_spec=None, use_umfpack=True):
    """x with A x = b (SciPy's spsolve, run on rank 0). A square sparse
    matrix; b a vector, a dense matrix or a sparse matrix. x comes back as
    SciPy gives it: a vector or dense matrix as a maniple.numpy array, a
    sparse one as a maniple csr/csc array. SciPy's errors and warnings
    (a singular matrix gives NaN and MatrixRankWarning) come from rank 0;
    errors are raised on every rank."""
    import maniple.sparse as _sp
    import scipy.sparse.linalg as _spla
    As = _scipy_matrix(A)
    bs, kind = _gathered_rhs(b)
    root = _core.rank() == _ROOT
    if root:
        try:
            x = _spla.spsolve(As, bs, permc_spec=permc_spec, use_umfpack=use_umfpack)
            msg = ("ok", x)
        except Exception as e:  # every rank raises it
            msg = ("err", e)
    payload = pickle.loads(_core.bcast(pickle.dumps(msg) if root else None, _ROOT))
    if payload[0] == "err":
        raise payload[1]
    x = payload[1]
    if _is_scipy_sparse(x):  # SciPy's class: A's own if csr or csc, else (A converted) csc_array
        fmt = getattr(A, "format", None)
        family = "matrix" if fmt in ("csr", "csc") and _sp.isspmatrix(A) else "array"
        return getattr(_sp, f"{fmt if fmt in ('csr', 'csc') else 'csc'}_{family}")(x)
    return _mnp.asarray(x)
