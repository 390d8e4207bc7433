"""Compressed Sparse Column arrays and matrices: held, as every maniple
sparse matrix, as the row-distributed CSR of the matrix; indptr and
indices are the CSC ones (those of the transpose's rows)."""
from ._base import register, sparray, spmatrix
from ._compressed import _cs_base


class _csc_base(_cs_base):
    __slots__ = ()
    _format = "csc"


@register
class csc_array(_csc_base, sparray):
    """A CSC sparse array (SciPy's csc_array), held as a row-distributed
    CSR; (data, indices, indptr) input is read as CSC."""
    __slots__ = ()


@register
class csc_matrix(spmatrix, _csc_base):
    """csc_array with SciPy's matrix semantics."""
    __slots__ = ()


def isspmatrix_csc(x):
    return isinstance(x, csc_matrix)
