"""COOrdinate arrays and matrices: held as the row-distributed CSR, so
duplicates are summed at construction (SciPy's coo keeps them until
sum_duplicates; here nnz counts distinct entries) and row, col and data
come in row-major order."""
import numpy as _np

from ._base import _spbase, register, sparray, spmatrix


class _coo_base(_spbase):
    __slots__ = ()
    _format = "coo"

    def _gathered(self):
        r, c, v = self._gather_coo()
        it = self._index_dtype()
        return r.astype(it), c.astype(it), v

    @property
    def row(self):
        """Row indices (NumPy), gathered to every rank."""
        return self._gathered()[0]

    @property
    def col(self):
        """Column indices (NumPy), gathered to every rank."""
        return self._gathered()[1]

    @property
    def data(self):
        """Values (NumPy), gathered to every rank (a copy)."""
        return self._gathered()[2]

    @property
    def coords(self):
        """(row, col) (NumPy), gathered to every rank."""
        r, c, _ = self._gathered()
        return r, c


@register
class coo_array(_coo_base, sparray):
    """A COO sparse array (SciPy's coo_array), held as a row-distributed
    CSR: coo_array((data, (row, col)), shape=(M, N)) sums duplicates at
    once."""
    __slots__ = ()


@register
class coo_matrix(spmatrix, _coo_base):
    """coo_array with SciPy's matrix semantics."""
    __slots__ = ()


def isspmatrix_coo(x):
    return isinstance(x, coo_matrix)
