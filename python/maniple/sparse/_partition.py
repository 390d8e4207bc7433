"""maniple's own additions (not in SciPy): partitioning a square matrix's
graph and renumbering the matrix by the partition, over the C library's
Csr.partition and Csr.permute."""
from maniple import _core

from ._base import _spbase


def _need(what):
    if not hasattr(_core.Csr, what):
        raise NotImplementedError(f"maniple.sparse: this build's C library has no Csr.{what}")


class Partition:
    """A partition of a square matrix's rows (and columns): to_new(x) and
    to_old(x) renumber 1-d maniple.numpy arrays of the row count, quality()
    gives edge_cut, ghost_min, ghost_max, ghost_total and imbalance."""

    def __init__(self, handle, n):
        self._p, self._n = handle, n

    def _move(self, x, fn):
        import maniple.numpy as mnp
        x = mnp.asarray(x)
        if x.shape != (self._n,):
            raise ValueError(f"a partition of {self._n} rows renumbers 1-d arrays of {self._n}, not {x.shape}")
        out = mnp.empty((self._n,), x.dtype)
        fn(x._materialize(), out._materialize())
        return out

    def to_new(self, x):
        """x (old numbering) in the new numbering."""
        return self._move(x, self._p.to_new)

    def to_old(self, x):
        """x (new numbering) back in the old numbering."""
        return self._move(x, self._p.to_old)

    def quality(self):
        return dict(self._p.quality())


def partition(A, kind="graph"):
    """The partition of square A's symmetrised graph: "graph" (METIS up to
    MANIPLE_PART_SERIAL_MAX rows, default 2**20, or at one rank; PT-Scotch
    above, on every rank), "metis" (gathered on rank 0), "ptscotch" (where
    the rows lie) or "equal" (the identity)."""
    _need("partition")
    if not isinstance(A, _spbase):
        raise TypeError("partition needs a maniple sparse matrix")
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"partition needs a square matrix, not shape {A.shape}")
    return Partition(A._A.partition(kind), A.shape[0])


def permute(A, part):
    """A renumbered by part: B[new(i), new(j)] = A[i, j], a CSR of A's
    family."""
    _need("permute")
    if not isinstance(part, Partition):
        raise TypeError("permute needs a Partition from maniple.sparse.partition")
    return A._like(A._A.permute(part._p), "csr")
