"""CSR and CSC's shared attributes: data, indices and indptr, gathered."""
import numpy as _np

from ._base import _cls, _spbase
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

    # ---- indexing (read-only) ----
    def __getitem__(self, key):
        """SciPy's reading of ints, slices, Ellipsis and 1-d integer or
        boolean arrays on either axis: a scalar for two ints, else the rows
        and columns chosen, in this format (a *_matrix keeps an int's axis
        at length 1). Computed as selection products P A Q (distributed
        sparse products): each call costs about as much as a matrix product
        of the chosen rows, far more than SciPy's for single elements.
        Not there: a 1-d result (a *_array with one int), element pairs
        (two index arrays), None and assignment."""
        m, n = self.shape
        rows, cols = _index_pair(key)
        ri, rk = _axis_index(rows, m)
        ci, ck = _axis_index(cols, n)
        if rk == "int" and ck == "int":
            return self._select(ri, ci).toarray()[0, 0]
        if rk == "array" and ck == "array":
            raise NotImplementedError("maniple.sparse: indexing with two index arrays (element pairs) is not "
                                      "implemented; index the rows and the columns one after the other")
        if self._is_array and "int" in (rk, ck):
            raise NotImplementedError("maniple.sparse: an int index of a sparse array gives a 1-d sparse array in "
                                      "SciPy, which maniple.sparse does not have; use a slice (A[i:i+1]) instead")
        return self._select(ri, ci)

    def _select(self, ri, ci):
        """The rows ri and columns ci (NumPy int arrays, or None for all) as
        a matrix of self's family and format."""
        A = self._A
        if ri is not None:
            A = _picker(ri, A.shape[0], A.dtype).matmul(A)
        if ci is not None:
            A = A.matmul(_picker(ci, A.shape[1], A.dtype, True))
        return self._like(A)


def _picker(idx, size, dt, cols=False):
    """The len(idx) x size matrix of dtype dt with a 1 at (t, idx[t]) (P A:
    A's rows idx), or with cols its transpose, built as such (A Q: A's
    columns idx)."""
    t = _np.arange(len(idx))
    rc, shape = ((idx, t), (size, len(idx))) if cols else ((t, idx), (len(idx), size))
    return _cls("csr", True)((_np.ones(len(idx), dt), rc), shape=shape)._A


def _index_pair(key):
    """key as (rows, cols) of a 2-d matrix, Ellipsis filled in."""
    if not isinstance(key, tuple):
        key = (key,)
    if sum(k is Ellipsis for k in key) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    i = next((j for j, k in enumerate(key) if k is Ellipsis), None)
    if i is not None:
        key = key[:i] + (slice(None),) * (3 - len(key)) + key[i + 1:]
    if len(key) > 2:
        raise IndexError(f"too many indices for a 2-d sparse matrix: {key!r}")
    return (key + (slice(None),) * (2 - len(key)))


def _axis_index(k, size):
    """One axis's index: (None, 'all') for every element, (indices, 'int'
    | 'slice' | 'array') else, with SciPy's IndexError out of range."""
    from maniple.numpy import ndarray
    if isinstance(k, slice):
        if k == slice(None):
            return None, "all"
        return _np.arange(size)[k], "slice"
    if isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_)):
        i = int(k)
        if not -size <= i < size:
            raise IndexError(f"index ({i}) out of range")
        return _np.array([i % size]), "int"
    if isinstance(k, ndarray):
        k = _np.asarray(k)  # (the same on every rank)
    if isinstance(k, (list, tuple, _np.ndarray)):
        a = _np.asarray(k)
        if a.dtype == bool:
            if a.ndim != 1 or a.shape[0] != size:
                raise IndexError(f"bool index has shape {a.shape} instead of ({size},)")
            return _np.nonzero(a)[0], "array"
        if a.size == 0:
            a = a.astype(_np.int64)
        if a.dtype.kind not in "iu" or a.ndim != 1:
            raise IndexError(f"maniple.sparse indexes with 1-d integer or boolean arrays, not {a.dtype} of "
                             f"shape {a.shape}")
        bad = (a < -size) | (a >= size)
        if bad.any():
            raise IndexError(f"index ({int(a[bad][0])}) out of range")
        return a.astype(_np.int64) % max(size, 1), "array"
    raise IndexError(f"only integers, slices, Ellipsis and 1-d integer or boolean arrays index a sparse matrix, "
                     f"not {k!r}")
