"""DIAgonal arrays and matrices, for construction: held as the
row-distributed CSR (without the zeros a DIA matrix would store), so
nnz counts the CSR's entries."""
import numpy as _np

from ._base import _spbase, register, sparray, spmatrix


class _dia_base(_spbase):
    __slots__ = ()
    _format = "dia"

    def _gathered(self):
        r, c, v = self._gather_coo()
        offsets = _np.unique(c - r).astype(_np.int32)
        data = _np.zeros((len(offsets), self.shape[1]), self.dtype)
        data[_np.searchsorted(offsets, c - r), c] = v
        return offsets, data

    @property
    def offsets(self):
        """The stored diagonals' offsets (NumPy), gathered to every rank."""
        return self._gathered()[0]

    @property
    def data(self):
        """The diagonals (NumPy, one row per offset, column-aligned as
        SciPy's), gathered to every rank."""
        return self._gathered()[1]


@register
class dia_array(_dia_base, sparray):
    """A DIA sparse array (SciPy's dia_array) for construction:
    dia_array((data, offsets), shape=(M, N)); held as a row-distributed
    CSR."""
    __slots__ = ()


@register
class dia_matrix(spmatrix, _dia_base):
    """dia_array with SciPy's matrix semantics."""
    __slots__ = ()


def isspmatrix_dia(x):
    return isinstance(x, dia_matrix)
