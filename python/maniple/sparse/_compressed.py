"""CSR and CSC's shared attributes: data, indices and indptr, gathered."""
import numpy as _np

from ._base import _spbase
from ._local import local_rows
from . import _dist


class _cs_base(_spbase):
    __slots__ = ()

    def _gather_compressed(self):
        """(data, indices, indptr) of the whole matrix in this format, on
        every rank (CSC: those of the transpose's rows)."""
        A = self._A.transpose() if self._format == "csc" else self._A
        parts = _dist.allgather_obj(local_rows(A)[1:])
        it = self._index_dtype()
        off, ptrs = 0, [_np.zeros(1, it)]
        for rp, _, _ in parts:
            ptrs.append((rp[1:] + off).astype(it))
            off += int(rp[-1])
        indptr = _np.concatenate(ptrs)
        indices = _np.concatenate([p[1] for p in parts]).astype(it)
        data = _np.concatenate([p[2] for p in parts]).astype(self.dtype)
        return data, indices, indptr

    @property
    def data(self):
        """The stored values (NumPy), gathered to every rank: a copy, so
        writing into it does not change the matrix."""
        return self._gather_compressed()[0]

    @property
    def indices(self):
        """The column (CSC: row) indices (NumPy), gathered to every rank."""
        return self._gather_compressed()[1]

    @property
    def indptr(self):
        """The index pointer (NumPy), gathered to every rank."""
        return self._gather_compressed()[2]
