"""Compressed Sparse Row arrays and matrices."""
from ._base import register, sparray, spmatrix
from ._compressed import _cs_base


class _csr_base(_cs_base):
    __slots__ = ()
    _format = "csr"


@register
class csr_array(_csr_base, sparray):
    """A row-distributed CSR sparse array (SciPy's csr_array): each rank
    holds its equal part of the rows. Constructors as SciPy's:
    csr_array(D) for a dense NumPy, list or maniple.numpy array D,
    csr_array(S) for a maniple or SciPy sparse matrix, csr_array((M, N)),
    csr_array((data, (row, col)), shape=(M, N)) and
    csr_array((data, indices, indptr), shape=(M, N)). NumPy inputs must be
    the same on every rank; maniple.numpy inputs are distributed. Integer
    and boolean data become float64 (maniple holds float64 or float32)."""
    __slots__ = ()


@register
class csr_matrix(spmatrix, _csr_base):
    """csr_array with SciPy's matrix semantics (`*` is the matrix product)."""
    __slots__ = ()


def isspmatrix_csr(x):
    return isinstance(x, csr_matrix)
