"""The sparse classes' common base: a row-distributed CSR matrix
(maniple._core.Csr) whatever the format's name, and the methods of
scipy.sparse's arrays and matrices on it. Constructors' arguments become
that Csr in _build; _local holds the value dtypes and a Csr's local rows.

Storage: every maniple sparse matrix is the CSR of the matrix itself, its
rows split over the ranks as maniple's default 1-d layout splits them
(equal parts), values of any numeric dtype but float16, each row's columns sorted and
without duplicates. The format (csr, csc, coo, dia) is a name that decides
the class of results and what `indptr`/`indices`/`row`/`col`/`offsets`
mean; it does not change where data lives. Results of products and
reductions are maniple.numpy arrays, distributed as maniple lays them out.
"""
import numpy as _np

from maniple import _core

from . import _dist
from ._build import _is_scipy_sparse, _isintlike, build
from ._local import _result_dtype, from_local_rows, local_coo, local_rows, map_values, sum_dtype, value_dtype

# the partitioners of partition= (maniple's keyword; _partition.py)
PARTITIONS = ("graph", "metis", "ptscotch", "equal")


_CLASSES = {}  # (format, is_array) -> class


def _cls(fmt, is_array):
    return _CLASSES[(fmt, is_array)]


def _scalar_like(x):
    return isinstance(x, (int, float, complex, bool, _np.generic)) or (isinstance(x, _np.ndarray) and x.ndim == 0)


_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column", "coo": "COOrdinate",
          "dia": "DIAgonal"}


class _spbase:
    """What csr/csc/coo/dia arrays and matrices share (see the module doc)."""

    _mn_sparse = True
    __array_priority__ = 10.1
    __array_ufunc__ = None  # NumPy operators defer to ours; NumPy functions refuse sparse operands
    _format = "csr"
    _is_array = True
    __slots__ = ("_A", "maxprint", "_part", "_Ap", "_cast")

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None, partition=None):
        """partition="graph", "metis", "ptscotch" or "equal" (maniple's own
        keyword; square matrices; "graph" is METIS up to about a million
        rows, PT-Scotch above: docs/python.md): products with vectors run on a copy renumbered by that
        partition of the matrix's graph, the vectors moved to the new
        numbering and back, so results come in the user's numbering."""
        self._A = build(arg1, shape, dtype, copy, self._format, not self._is_array)
        self.maxprint = 50 if maxprint is None else maxprint
        self._part = self._Ap = self._cast = None
        if partition is not None:
            if partition not in PARTITIONS:
                raise ValueError(f"partition must be 'graph', 'metis', 'ptscotch' or 'equal', not {partition!r}")
            if self._A.shape[0] != self._A.shape[1]:
                raise ValueError(f"partition needs a square matrix, not shape {tuple(self._A.shape)}")
            self._part = self._A.partition(partition)
            self._Ap = self._A.permute(self._part)

    @classmethod
    def _new(cls, A):
        o = cls.__new__(cls)
        o._A = A
        o.maxprint = 50
        o._part = o._Ap = o._cast = None
        return o

    def _replace(self, A):
        """A in place of the matrix's values: the renumbered copy made again
        with the same partition, the cast copy dropped."""
        self._A = A
        self._cast = None
        if self._part is not None:
            self._Ap = A.permute(self._part)

    def _in_dtype(self, A, dt):
        """A (self._A or self._Ap) with values of dtype dt: itself, or a copy
        kept while A is the same, so an integer matrix times float vectors
        in a loop converts once (the copy costs A's memory again)"""
        if A.dtype == dt:
            return A
        c = self._cast
        if c is not None and c[0] is A and c[1] == dt:
            return c[2]
        C = A.copy(dt)
        self._cast = (A, dt, C)
        return C

    @property
    def partition_quality(self):
        """Edge cut, ghost columns per rank (min, max, total) and load
        imbalance of the partition the matrix was built with (None: none)."""
        return None if self._part is None else self._part.quality()

    def _like(self, A, fmt=None):
        """A result of self's family (array or matrix), in format fmt."""
        return _cls(fmt or self._format, self._is_array)._new(A)

    # ---- attributes ----
    @property
    def format(self):
        return self._format

    @property
    def shape(self):
        return tuple(self._A.shape)

    @property
    def ndim(self):
        return 2

    @property
    def dtype(self):
        return _np.dtype(self._A.dtype)

    @property
    def nnz(self):
        """Stored entries over every rank."""
        return int(self._A.nnz)

    @property
    def size(self):
        return self.nnz

    @property
    def T(self):
        return self.transpose()

    @property
    def has_sorted_indices(self):
        """Always True: maniple keeps each row's columns sorted."""
        return True

    @has_sorted_indices.setter
    def has_sorted_indices(self, value):
        pass

    @property
    def has_canonical_format(self):
        """Always True: maniple keeps rows sorted and duplicates summed."""
        return True

    @has_canonical_format.setter
    def has_canonical_format(self, value):
        pass

    @property
    def real(self):
        """The real parts, at every stored entry (SciPy keeps the zeros)."""
        return self._map(_np.real) if self.dtype.kind == "c" else self.copy()

    @property
    def imag(self):
        """The imaginary parts, at every stored entry (SciPy keeps the zeros)."""
        return self._map(_np.imag if self.dtype.kind == "c" else _np.zeros_like)

    def _pruned(self):
        self._A.eliminate_zeros()
        return self

    def __len__(self):
        raise TypeError("sparse array length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0 and bool(self.count_nonzero())
        raise ValueError("The truth value of an array with more than one element is ambiguous. "
                         "Use a.any() or a.all().")

    def __repr__(self):
        kind = "array" if self._is_array else "matrix"
        extra = ""
        if self._format == "dia":  # SciPy names the diagonals a DIA matrix holds
            r, c, _ = local_coo(self._A)
            offsets = set()
            for part in _dist.allgather_obj(_np.unique(c - r)):
                offsets.update(part.tolist())
            extra = f" ({len(offsets)} diagonals)"
        return (f"<{_NAMES[self._format]} sparse {kind} of dtype '{self.dtype}'\n"
                f"\twith {self.nnz} stored elements{extra} and shape {self.shape}>")

    def __str__(self):
        """Gathers the stored entries (on every rank) to print them."""
        r, c, v = self._gather_coo()
        n = len(v)
        head = repr(self) + "\n  Coords\tValues\n"
        idx = range(n) if n <= self.maxprint else \
            list(range(self.maxprint // 2)) + [None] + list(range(n - self.maxprint // 2, n))
        lines = ["  :\t:" if k is None else f"  ({r[k]}, {c[k]})\t{v[k]}" for k in idx]
        return head + "\n".join(lines)

    def __getattr__(self, name):
        if name.startswith("_"):
            raise AttributeError(name)
        raise AttributeError(f"maniple.sparse: {type(self).__name__}.{name} is not implemented "
                             "(see `python -m maniple.sparse.coverage`)")

    # ---- gathering (every rank gets the whole) ----
    def _gather_coo(self):
        """Every stored entry (rows, cols, vals) in row-major order, on every
        rank: NumPy arrays."""
        parts = _dist.allgather_obj(local_coo(self._A))
        r = _np.concatenate([p[0] for p in parts]).astype(_np.int64)
        c = _np.concatenate([p[1] for p in parts]).astype(_np.int64)
        v = _np.concatenate([p[2] for p in parts]).astype(self.dtype)
        return r, c, v

    def _index_dtype(self):
        big = max(self.shape + (self.nnz,))
        return _np.int32 if big <= _np.iinfo(_np.int32).max else _np.int64

    # ---- conversions ----
    def asformat(self, format, copy=False):
        if format is None or format == self._format:
            return self.copy() if copy else self
        if format not in _NAMES:
            raise NotImplementedError(f"maniple.sparse has no {format} format (csr, csc, coo and dia are there)")
        return self._like(self._A.copy(None) if copy else self._A, format)

    def tocsr(self, copy=False):
        return self.asformat("csr", copy)

    def tocsc(self, copy=False):
        return self.asformat("csc", copy)

    def tocoo(self, copy=False):
        return self.asformat("coo", copy)

    def todia(self, copy=False):
        return self.asformat("dia", copy)

    def toarray(self, order=None, out=None):
        """The dense matrix as a maniple.numpy array (distributed: each
        stored entry goes to the rank owning its element)."""
        r, c, v = local_coo(self._A)
        d = _dist.dense(self.shape, r, c, v, self._A.dtype)
        if out is not None:
            out[...] = d
            return out
        return d

    def todense(self, order=None, out=None):
        """As toarray(): a 2-d maniple.numpy array (SciPy's *_matrix gives
        an np.matrix, which maniple does not have)."""
        return self.toarray(order, out)

    def copy(self):
        return self._like(self._A.copy(None))

    def astype(self, dtype, casting="unsafe", copy=True):
        dt = value_dtype(dtype, True)
        if dt == self._A.dtype and not copy:
            return self
        return self._like(self._A.copy(dt))

    def transpose(self, axes=None, copy=False):
        if axes is not None and tuple(axes) != (1, 0):
            raise ValueError("Sparse arrays/matrices do not support an 'axes' parameter because swapping "
                             "dimensions is the only logical permutation.")
        fmt = {"csr": "csc", "csc": "csr"}.get(self._format, self._format)
        return self._like(self._A.transpose(), fmt)

    def conjugate(self, copy=True):
        if self.dtype.kind == "c":
            return self._map(_np.conjugate)
        return self.copy() if copy else self

    conj = conjugate

    # ---- canonical-format no-ops ----
    def sort_indices(self):
        """Nothing to do: maniple keeps each row's columns sorted."""

    def sorted_indices(self):
        return self.copy()

    def sum_duplicates(self):
        """Nothing to do: maniple sums duplicates when it assembles."""

    def prune(self):
        """Nothing to do: maniple keeps no spare storage."""

    def check_format(self, full_check=False):
        """Nothing to check: maniple builds only canonical CSR."""

    def eliminate_zeros(self):
        """Drop stored zeros (in this matrix only: matrices made from it
        without a copy keep theirs)."""
        A = self._A.copy(None)
        A.eliminate_zeros()
        self._replace(A)

    # ---- element-wise maps of the stored values ----
    def _map(self, fn, dtype=None):
        return self._like(map_values(self._A, fn, dtype))

    def __abs__(self):
        return self._map(_np.abs)

    def __neg__(self):
        if self.dtype == _np.bool_:
            raise NotImplementedError("negating a boolean sparse array is not supported")
        return self._map(_np.negative)

    def __pos__(self):
        return self.copy()

    def power(self, n, dtype=None):
        """Element-wise power of the stored entries (as SciPy's)."""
        if not _scalar_like(n):
            raise NotImplementedError("input is not scalar")
        if n == 0:
            raise NotImplementedError("zero power is not supported as it would densify the matrix.\n"
                                      "Use `np.ones(A.shape, dtype=A.dtype)` for this case.")
        dt = None if dtype is None else value_dtype(dtype, True)
        return self._map(lambda v: _np.power(v if dt is None else v.astype(dt), n))

    # ---- reductions ----
    def count_nonzero(self, axis=None):
        if axis is not None:
            raise NotImplementedError("maniple.sparse: count_nonzero(axis=...) is not implemented")
        _, _, v = local_coo(self._A)
        return _np.intp(sum(_dist.allgather_obj(int(_np.count_nonzero(v)))))

    def _axis(self, axis):
        if axis is None:
            return None
        if isinstance(axis, tuple):
            if sorted(a % 2 if _isintlike(a) and -2 <= a < 2 else 9 for a in axis) == [0, 1]:
                return None
            raise ValueError("axis out of range for ndim")
        if not _isintlike(axis):
            raise TypeError("axis must be an integer")
        if not -2 <= axis < 2:
            raise ValueError("axis out of range for ndim")
        return int(axis) % 2

    def _axis_result(self, vec, axis):
        """A 1-d result of a reduction over axis: 1-d for arrays; (1, n) or
        (m, 1) for matrices (SciPy gives an np.matrix)."""
        return vec

    def sum(self, axis=None, dtype=None, out=None):
        """The sum: a NumPy scalar (axis None, the same on every rank) or a
        maniple.numpy array (axis 0 or 1)."""
        axis = self._axis(axis)
        dt = _np.dtype(sum_dtype(self.dtype) if dtype is None else dtype)  # int64 for the narrow integers and bool
        if axis is None:
            _, _, v = local_coo(self._A)
            parts = _dist.allgather_obj(v.sum(dtype=dt))
            s = _np.sum(_np.asarray(parts, dtype=dt), dtype=dt) if parts else dt.type(0)
            r = dt.type(s)
            return r
        from maniple.numpy import ndarray
        n = self.shape[1 - axis]
        try:  # summed in dt where maniple holds it (integers wrap in their own dtype)
            A = self._A if dt == self.dtype else self._A.copy(value_dtype(dt))
        except ValueError:
            A = self._A
        vec = _core.create((n,), A.dtype)
        A.sum(axis, vec)
        res = ndarray(vec)
        if res.dtype != dt:
            res = res.astype(dt)
        res = self._axis_result(res, axis)
        if out is not None:
            out[...] = res
            return out
        return res

    def mean(self, axis=None, dtype=None, out=None):
        axis = self._axis(axis)
        m, n = self.shape
        count = m * n if axis is None else (m if axis == 0 else n)
        res_dt = _np.dtype(dtype) if dtype is not None else \
            (_np.dtype(_np.float64) if self.dtype.kind in "biu" else self.dtype)  # SciPy: integers' mean is float64
        s = self.sum(axis, dtype=res_dt)
        if axis is None:
            with _np.errstate(divide="ignore", invalid="ignore"):
                return res_dt.type(s / res_dt.type(count))
        r = s / res_dt.type(count)
        r = r.astype(res_dt) if r.dtype != res_dt else r
        if out is not None:
            out[...] = r
            return out
        return r

    def _extreme(self, which, axis, out=None, explicit=False):
        """explicit: the stored values only (0 when there are none, as SciPy)"""
        if out is not None:
            raise ValueError("Sparse min/max does not support an 'out' parameter.")
        axis = self._axis(axis)
        if axis is not None:
            raise NotImplementedError(f"maniple.sparse: {which}(axis=...) is not implemented")
        m, n = self.shape
        if m * n == 0:
            raise ValueError("zero-size array to reduction operation found")
        _, _, v = local_coo(self._A)
        fn = {"max": _np.max, "min": _np.min, "nanmax": _np.nanmax, "nanmin": _np.nanmin}[which]
        part = fn(v) if len(v) else None
        vals = [p for p in _dist.allgather_obj(part) if p is not None]
        if self.nnz < m * n and not explicit:
            vals.append(self.dtype.type(0))
        if not vals:
            return self.dtype.type(0)
        with _np.errstate(invalid="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                return self.dtype.type(fn(_np.asarray(vals, dtype=self.dtype)))

    def max(self, axis=None, out=None, *, explicit=False):
        return self._extreme("max", axis, out, explicit)

    def min(self, axis=None, out=None, *, explicit=False):
        return self._extreme("min", axis, out, explicit)

    def nanmax(self, axis=None, out=None, *, explicit=False):
        return self._extreme("nanmax", axis, out, explicit)

    def nanmin(self, axis=None, out=None, *, explicit=False):
        return self._extreme("nanmin", axis, out, explicit)

    def _argextreme(self, which, axis, out=None, explicit=False):
        """The flat (C-order) index of the first largest (smallest) element,
        implicit zeros included, as SciPy's argmax/argmin with axis None;
        with explicit, SciPy's index among the stored entries (their order
        in data) of the first extreme stored value."""
        if out is not None:
            raise ValueError(f"Sparse {which} does not support an 'out' parameter.")
        if explicit and self._axis(axis) is None and self.nnz == 0:
            raise ValueError(f"Cannot apply {which} to zero matrix when explicit=True.")
        if self._axis(axis) is not None:
            raise NotImplementedError(f"maniple.sparse: {which}(axis=...) is not implemented")
        m, n = self.shape
        if m * n == 0:
            raise ValueError(f"Cannot apply {which} along a zero-sized dimension.")
        r0, rp, c, v = local_rows(self._A)
        better = _np.greater if which == "argmax" else _np.less
        best = None  # (value, flat index) of my stored entries
        if len(v):
            k = int(_np.argmax(v) if which == "argmax" else _np.argmin(v))  # first in C order
            rows = r0 + _np.repeat(_np.arange(len(rp) - 1), _np.diff(rp))
            best = (v[k], int(rows[k]) * n + int(c[k]), k)
        gap = None  # my first implicit zero's flat index
        full = _np.flatnonzero(_np.diff(rp) < n)
        if len(full):
            i = int(full[0])
            cols = c[rp[i]:rp[i + 1]]
            j = int(_np.flatnonzero(cols != _np.arange(len(cols)))[0]) if _np.any(cols != _np.arange(len(cols))) \
                else len(cols)
            gap = (r0 + i) * n + j
        parts = _dist.allgather_obj((best, gap, len(v)))
        before = _np.cumsum([0] + [cnt for _, _, cnt in parts])  # stored entries on the lower ranks
        cands = [(b[0], b[2] + int(before[r]) if explicit else b[1]) for r, (b, _, _) in enumerate(parts)
                 if b is not None]
        gaps = [g for _, g, _ in parts if g is not None]
        if gaps and not explicit:
            cands.append((self.dtype.type(0), min(gaps)))
        value, index = cands[0]
        for v2, i2 in cands[1:]:
            if better(v2, value) or (v2 == value and i2 < index):
                value, index = v2, i2
        return _np.int64(index) if explicit else int(index)  # (the types SciPy returns)

    def argmax(self, axis=None, out=None, *, explicit=False):
        return self._argextreme("argmax", axis, out, explicit)

    def argmin(self, axis=None, out=None, *, explicit=False):
        return self._argextreme("argmin", axis, out, explicit)

    def _elementwise_extreme(self, other, fn):
        B = self._check_other_sparse(other)
        if B is None:
            if _scalar_like(other) and fn(0, other) == 0:  # zeros stay zeros
                return self._map(lambda v: fn(v, other))._pruned()
            raise NotImplementedError("maniple.sparse: maximum/minimum with a dense operand or with a scalar that "
                                      "would fill the zeros is not implemented")
        if B.shape != self.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {B.shape}")
        dt = _result_dtype(self.dtype, B.dtype)
        n = max(self.shape[1], 1)
        r0, rpa, ca, va = local_rows(self._A)
        _, rpb, cb, vb = local_rows(B._A)
        ka = _np.repeat(_np.arange(len(rpa) - 1), _np.diff(rpa)) * n + ca
        kb = _np.repeat(_np.arange(len(rpb) - 1), _np.diff(rpb)) * n + cb
        keys = _np.union1d(ka, kb)
        x = _np.zeros(len(keys), dt)
        y = _np.zeros(len(keys), dt)
        x[_np.searchsorted(keys, ka)] = va
        y[_np.searchsorted(keys, kb)] = vb
        w = fn(x, y)
        keep = w != 0
        rows = keys[keep] // n
        rowptr = _np.zeros(len(rpa), _np.int64)
        _np.cumsum(_np.bincount(rows, minlength=len(rpa) - 1), out=rowptr[1:])
        return self._like(from_local_rows(self.shape, dt, rowptr, keys[keep] % n, w[keep]), "csr")

    def maximum(self, other):
        """Element-wise maximum with a sparse matrix of the same shape (or a
        scalar <= 0)."""
        return self._elementwise_extreme(other, _np.maximum)

    def minimum(self, other):
        """Element-wise minimum with a sparse matrix of the same shape (or a
        scalar >= 0)."""
        return self._elementwise_extreme(other, _np.minimum)

    def diagonal(self, k=0):
        """The k-th diagonal as a maniple.numpy 1-d array."""
        import maniple.numpy as mnp
        m, n = self.shape
        k = int(k)
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        if length == 0:
            return mnp.zeros((0,), self._A.dtype)
        if k == 0:
            from maniple.numpy import ndarray
            d = _core.create((length,), self._A.dtype)
            self._A.diagonal(d)
            return ndarray(d)
        r, c, v = local_coo(self._A)
        on = (c - r) == k
        return _dist.vector(length, r[on] if k > 0 else c[on], v[on], self._A.dtype)

    def trace(self, offset=0):
        # SciPy's: the diagonal's sum, with NumPy's sum dtype (int32 and bool sum in int64)
        d = self.diagonal(offset)
        return d.sum() if d.shape[0] else _np.zeros(0, self.dtype).sum()

    def nonzero(self):
        """(rows, cols) of the nonzero stored entries: NumPy arrays, on
        every rank."""
        r, c, v = self._gather_coo()
        nz = v != 0
        return r[nz], c[nz]

    # ---- products ----
    def _check_other_sparse(self, other):
        if isinstance(other, _spbase):
            return other
        if _is_scipy_sparse(other):
            return _cls("csr", self._is_array)(other)
        return None

    def _matmul_sparse(self, B):
        if self.shape[1] != B.shape[0]:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={self.shape[1]}),"
                             f"(k={B.shape[0]},m)->(n,m)")
        dt = _result_dtype(self.dtype, B.dtype)
        A1 = self._A if self._A.dtype == dt else self._A.copy(dt)
        B1 = B._A if B._A.dtype == dt else B._A.copy(dt)
        return self._like(A1.matmul(B1), "csr")

    def _matmul_dense(self, x):
        import maniple.numpy as mnp
        from maniple.numpy import ndarray
        x = x if isinstance(x, ndarray) else mnp.asarray(_np.asarray(x))
        m, n = self.shape
        if x.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if x.ndim > 2:
            raise ValueError("could not interpret dimensions")
        if x.shape[0] != n:
            sig = f"(k={x.shape[0]},1?)" if x.ndim == 1 else f"(k={x.shape[0]},m)"
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={n}),{sig}->(n,{'1?' if x.ndim == 1 else 'm'})")
        dt = _result_dtype(self.dtype, x.dtype)
        if x.ndim == 1 and self._Ap is not None:  # renumbered: there and back
            Ap = self._in_dtype(self._Ap, dt)
            xn, yn, y = _core.create((n,), dt), _core.create((m,), dt), _core.create((m,), dt)
            self._part.to_new(x._materialize(), xn)
            Ap.spmv(xn, yn)
            self._part.to_old(yn, y)
        elif x.ndim == 1:
            y = _core.create((m,), dt)
            self._in_dtype(self._A, dt).spmv(x._materialize(), y)
        else:
            y = _core.create((m, x.shape[1]), dt)
            self._in_dtype(self._A, dt).spmm(x._materialize(), y)
        return ndarray(y)

    def _rmatmul_dense(self, x):
        import maniple.numpy as mnp
        from maniple.numpy import ndarray
        x = x if isinstance(x, ndarray) else mnp.asarray(_np.asarray(x))
        m, n = self.shape
        if x.ndim == 0:
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        if x.ndim > 2:
            raise ValueError("could not interpret dimensions")
        if x.shape[-1] != m:
            raise ValueError(f"matmul: dimension mismatch with signature (n,k={x.shape[-1]}),(k={m},m)->(n,m)")
        dt = _result_dtype(self.dtype, x.dtype)
        A = self._in_dtype(self._A, dt)
        if x.ndim == 1:
            y = _core.create((n,), dt)
            A.spmv_t(x._materialize(), y)
            return ndarray(y)
        At = A.transpose()  # x A = (A^T x^T)^T
        y = _core.create((n, x.shape[0]), dt)
        At.spmm(x.T.copy()._materialize(), y)
        return ndarray(y).T.copy()

    def _matmul(self, other):
        B = self._check_other_sparse(other)
        if B is not None:
            return self._matmul_sparse(B)
        if _scalar_like(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._matmul_dense(other)

    def __matmul__(self, other):
        return self._matmul(other)

    def __rmatmul__(self, other):
        B = self._check_other_sparse(other)
        if B is not None:
            return B._matmul_sparse(self)
        if _scalar_like(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._rmatmul_dense(other)

    def dot(self, other):
        if _scalar_like(other):
            return self._mul_scalar(other)
        return self._matmul(other)

    # ---- element-wise arithmetic ----
    def _mul_scalar(self, s):
        if isinstance(s, _np.ndarray):
            s = s[()]
        return self._map(lambda v: v * s)

    def multiply(self, other):
        """Element-wise product: with a scalar, a sparse matrix of the same
        shape, or a dense array broadcast to this shape (the dense array's
        values at the stored entries are fetched by their rows' owners)."""
        if _scalar_like(other):
            return self._mul_scalar(other)
        B = self._check_other_sparse(other)
        m, n = self.shape
        if B is not None:
            if B.shape != self.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and {B.shape}")
            dt = _result_dtype(self.dtype, B.dtype)
            r0, rpa, ca, va = local_rows(self._A)
            _, rpb, cb, vb = local_rows(B._A)
            ka = _np.repeat(_np.arange(len(rpa) - 1), _np.diff(rpa)) * max(n, 1) + ca
            kb = _np.repeat(_np.arange(len(rpb) - 1), _np.diff(rpb)) * max(n, 1) + cb
            k, ia, ib = _np.intersect1d(ka, kb, assume_unique=True, return_indices=True)
            v = va[ia].astype(dt) * vb[ib].astype(dt)
            keep = v != 0
            rows = k[keep] // max(n, 1)
            rowptr = _np.zeros(len(rpa), _np.int64)
            _np.cumsum(_np.bincount(rows, minlength=len(rpa) - 1), out=rowptr[1:])
            return self._like(from_local_rows(self.shape, dt, rowptr, k[keep] % max(n, 1), v[keep]), "csr")
        from maniple.numpy import ndarray
        if isinstance(other, ndarray):
            x = other
            try:
                shape = _np.broadcast_shapes(x.shape, self.shape)
            except ValueError:
                raise ValueError(f"inconsistent shapes {self.shape} and {x.shape}") from None
            if shape != self.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and {x.shape}")
            import maniple.numpy as mnp
            block = _dist.my_rows_block(mnp.broadcast_to(x, self.shape), m) if x.shape != self.shape else \
                _dist.my_rows_block(x, m)
            xdt = x.dtype
        else:
            a = _np.asarray(other)
            if a.dtype == object:
                raise TypeError(f"unsupported operand type {type(other).__name__}")
            try:
                shape = _np.broadcast_shapes(a.shape, self.shape)
            except ValueError:
                raise ValueError(f"inconsistent shapes {self.shape} and {a.shape}") from None
            if shape != self.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and {a.shape}")
            s, c = _dist.split(m)
            block = _np.broadcast_to(a, self.shape)[s:s + c]
            xdt = a.dtype
        dt = _result_dtype(self.dtype, xdt)
        r0, rp, c, v = local_rows(self._A)
        lr = _np.repeat(_np.arange(len(rp) - 1), _np.diff(rp))
        w = v.astype(dt) * _np.asarray(block[lr, c]).astype(dt) if len(v) else _np.zeros(0, dt)
        return self._like(from_local_rows(self.shape, dt, rp, c, w), "coo")

    def _add(self, other, sign):
        B = self._check_other_sparse(other)
        if B is not None:
            if B.shape != self.shape:
                raise ValueError(f"inconsistent shapes {self.shape} and {B.shape}" if sign > 0 else
                                 "inconsistent shapes")
            dt = _result_dtype(self.dtype, B.dtype)
            A1 = self._A if self._A.dtype == dt else self._A.copy(dt)
            B1 = B._A if B._A.dtype == dt else B._A.copy(dt)
            # (SciPy's sparse sum stores only its nonzero results: A - A holds nothing)
            return self._like(A1.add(1.0, float(sign), B1), "csr")._pruned()
        if _scalar_like(other):
            if other == 0:
                return self.copy()
            raise NotImplementedError("adding a nonzero scalar to a sparse array is not supported")
        from maniple.numpy import ndarray
        import maniple.numpy as mnp
        x = other if isinstance(other, ndarray) else mnp.asarray(_np.asarray(other))
        try:
            shape = _np.broadcast_shapes(x.shape, self.shape)
        except ValueError:
            raise ValueError(f"inconsistent shapes {self.shape} and {x.shape}") from None
        if shape != self.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {x.shape}")
        dt = _result_dtype(self.dtype, x.dtype)
        d = self.toarray()
        d = d if d.dtype == dt else d.astype(dt)
        return d + x if sign > 0 else d - x

    def __add__(self, other):
        return self._add(other, 1)

    def __radd__(self, other):
        return self._add(other, 1)

    def __sub__(self, other):
        return self._add(other, -1)

    def __rsub__(self, other):
        r = (-self)._add(other, 1)
        return r

    def _mul(self, other):
        """`*` of sparse arrays: element-wise (SciPy's *_array)."""
        if _scalar_like(other):
            return self._mul_scalar(other)
        return self.multiply(other)

    def __mul__(self, other):
        return self._mul(other)

    def __rmul__(self, other):
        if _scalar_like(other):
            return self._mul_scalar(other)
        return self._rmul(other)

    def _rmul(self, other):
        return self.multiply(other)

    def __truediv__(self, other):
        if _scalar_like(other):
            if other == 0:
                raise ZeroDivisionError("division by zero")
            s = other[()] if isinstance(other, _np.ndarray) else other
            r = 1.0 / s  # as SciPy: float64 values (complex ones as they are) times the reciprocal
            if _np.can_cast(self.dtype, _np.float64):
                return self._map(lambda v: v.astype(_np.float64) * r)
            return self._map(lambda v: v * r)
        raise NotImplementedError("maniple.sparse: division by a matrix is not implemented")

    def __rtruediv__(self, other):
        raise NotImplementedError("maniple.sparse: division by a sparse matrix is not implemented")

    def __pow__(self, other):
        return self.power(other)

    def __eq__(self, other):
        raise NotImplementedError("maniple.sparse: comparisons of sparse matrices are not implemented")

    __ne__ = __lt__ = __le__ = __gt__ = __ge__ = __eq__
    __hash__ = None

    def __iadd__(self, other):
        return NotImplemented

    def __isub__(self, other):
        return NotImplemented

    def __imul__(self, other):
        if _scalar_like(other):
            self._scale_in_place(other[()] if isinstance(other, _np.ndarray) else other)
            return self
        return NotImplemented

    def __itruediv__(self, other):
        if _scalar_like(other):
            s = other[()] if isinstance(other, _np.ndarray) else other
            self._scale_in_place(1.0 / s)  # as SciPy: times the reciprocal
            return self
        return NotImplemented

    def _scale_in_place(self, s):
        """The stored values times s in place, as SciPy's `data *= s`: the
        dtype stays, and NumPy's in-place rules apply (an int matrix /= 2
        or times a float raises NumPy's casting error). The error depends
        on the dtype and s alone, so every rank raises it, before any work."""
        dt = self.dtype
        _np.multiply(_np.ones(1, dt), s, out=_np.ones(1, dt))

        def scaled(v):
            out = v.copy()
            _np.multiply(out, s, out=out)
            return out
        self._replace(map_values(self._A, scaled))


def _add_ufunc_methods():
    """SciPy's element-wise methods that keep zeros zero (f(0) == 0): they
    map the stored values."""
    for name in ("sin", "tan", "arcsin", "arctan", "sinh", "tanh", "arcsinh", "arctanh", "rint", "sign", "expm1",
                 "log1p", "deg2rad", "rad2deg", "floor", "ceil", "trunc", "sqrt"):
        fn = getattr(_np, name)

        def method(self, _fn=fn):
            return self._map(_fn)
        method.__name__ = name
        method.__doc__ = f"Element-wise {name} of the stored values (NumPy's {name})."
        setattr(_spbase, name, method)


_add_ufunc_methods()


class sparray:
    """The base of maniple's sparse arrays (SciPy's sparray)."""
    __slots__ = ()
    _is_array = True


class spmatrix:
    """The base of maniple's sparse matrices (SciPy's spmatrix): `*` is the
    matrix product, `**` the matrix power, sums along an axis are 2-d."""
    __slots__ = ()
    _is_array = False

    def _mul(self, other):
        if _scalar_like(other):
            return self._mul_scalar(other)
        return self._matmul(other)

    def _rmul(self, other):
        return self.__rmatmul__(other)

    def __pow__(self, n):
        m, k = self.shape
        if m != k:
            raise TypeError("sparse matrix is not square")
        if not _isintlike(n):
            raise ValueError("exponent must be an integer")
        if n < 0:
            raise ValueError("exponent must be >= 0")
        from ._construct import eye
        if n == 0:
            return eye(m, dtype=self.dtype, format="csr")
        result, base, e = None, self.tocsr(), int(n)
        while e:
            if e & 1:
                result = base if result is None else result @ base
            e >>= 1
            if e:
                base = base @ base
        return result

    def _axis_result(self, vec, axis):
        from maniple.numpy import ndarray
        n = vec.shape[0]
        return ndarray(vec._materialize().reshape((1, n) if axis == 0 else (n, 1)))

    def getnnz(self, axis=None):
        if axis is not None:
            raise NotImplementedError("maniple.sparse: getnnz(axis=...) is not implemented")
        return self.nnz

    def getH(self):
        """The conjugate transpose."""
        return self.transpose().conjugate()

    def get_shape(self):
        return self.shape

    def getformat(self):
        return self.format

    def getmaxprint(self):
        return self.maxprint

    def asfptype(self):
        return self.copy()


def register(cls):
    _CLASSES[(cls._format, cls._is_array)] = cls
    return cls
