"""The sparse classes' common base: a row-distributed CSR matrix
(maniple._core.Csr) whatever the format's name, and the methods of
scipy.sparse's arrays and matrices on it.

Storage: every maniple sparse matrix is the CSR of the matrix itself, its
rows split over the ranks as maniple's default 1-d layout splits them
(equal parts), values float64 or float32, each row's columns sorted and
without duplicates. The format (csr, csc, coo, dia) is a name that decides
the class of results and what `indptr`/`indices`/`row`/`col`/`offsets`
mean; it does not change where data lives. Results of products and
reductions are maniple.numpy arrays, distributed as maniple lays them out.
"""
import numpy as _np

from maniple import _core
from maniple.numpy._ndarray import _flat, _reshaped

from . import _dist

_FLOAT = ("float64", "float32")


# ---------------------------------------------------------------- dtypes ---
def value_dtype(dt, explicit):
    """The value dtype maniple stores for dt: float64 and float32 as they
    are; integer and boolean data become float64 when the dtype was not
    asked for (explicit False); anything else is a TypeError."""
    d = _np.dtype(dt)
    if d.name in _FLOAT:
        return d.name
    if d.kind in "biu" and not explicit:
        return "float64"
    if d.kind in "biu":
        raise TypeError(f"maniple.sparse holds float64 or float32 values, not {d.name} (integer and boolean data "
                        "given without dtype= are converted to float64)")
    raise TypeError(f"maniple.sparse holds float64 or float32 values, not {d.name}")


def _result_float(*dts):
    """NumPy's result dtype of values of these dtypes, which must be a
    float dtype maniple holds."""
    r = _np.result_type(*dts)
    return value_dtype(r, False)


# ---------------------------------------------------- local rows of a Csr ---
def local_rows(A):
    """This rank's rows of A: (row0, rowptr, cols, vals), NumPy arrays
    (int64 rowptr starting at 0, int64 global sorted columns, values).
    Local."""
    r0, nl, _ = A.local_rows()
    rp, c, v = A.get_rows()
    return (r0, _np.frombuffer(rp, _np.int64), _np.frombuffer(c, _np.int64), _np.frombuffer(v, A.dtype))


def local_coo(A):
    """This rank's entries of A as (rows, cols, vals) with global indices."""
    r0, rp, c, v = local_rows(A)
    rows = r0 + _np.repeat(_np.arange(len(rp) - 1, dtype=_np.int64), _np.diff(rp))
    return rows, c, v


def from_local_rows(shape, dtype, rowptr, cols, vals):
    """A Csr of shape from this rank's rows in CSR form (collective)."""
    return _core.csr_rows(int(shape[0]), int(shape[1]), dtype, _np.ascontiguousarray(rowptr, _np.int64),
                          _np.ascontiguousarray(cols, _np.int64), _np.ascontiguousarray(vals, dtype))


def from_local_coo(shape, dtype, rows, cols, vals):
    """A Csr of shape from triplets this rank holds (any rows; duplicates
    summed; collective). An index out of range is SciPy's ValueError, on
    every rank."""
    try:
        return _core.csr_coo(int(shape[0]), int(shape[1]), dtype, _np.ascontiguousarray(rows, _np.int64),
                             _np.ascontiguousarray(cols, _np.int64), _np.ascontiguousarray(vals, dtype))
    except IndexError as e:
        raise ValueError(str(e)) from None


def map_values(A, fn, dtype=None):
    """A new Csr with the same pattern and values fn(vals) (NumPy's
    arithmetic, element by element, so that results equal SciPy's)."""
    r0, rp, c, v = local_rows(A)
    w = _np.asarray(fn(v))
    dt = value_dtype(w.dtype, True) if dtype is None else dtype
    return from_local_rows(A.shape, dt, rp, c, w.astype(dt, copy=False))


# ------------------------------------------------------- building a Csr ---
def _isintlike(x):
    return isinstance(x, (int, _np.integer)) and not isinstance(x, (bool, _np.bool_))


def _isshape(x):
    return isinstance(x, tuple) and len(x) == 2 and all(_isintlike(v) for v in x)


def _check_shape(shape):
    if shape is None:
        return None
    shape = tuple(shape)
    if len(shape) != 2:
        raise ValueError(f"maniple.sparse holds 2-d matrices only, not shape {shape}")
    if not all(_isintlike(s) for s in shape):
        raise TypeError(f"invalid shape {shape}")
    m, n = int(shape[0]), int(shape[1])
    if m < 0 or n < 0:
        raise ValueError("'shape' elements cannot be negative")
    return m, n


def _is_scipy_sparse(x):
    mod = type(x).__module__ or ""
    return mod.startswith("scipy.sparse") and hasattr(x, "tocsr") and hasattr(x, "nnz")


def _is_maniple_array(x):
    from maniple.numpy import ndarray
    return isinstance(x, ndarray)


def _index_array(x, what):
    a = _np.asarray(x)
    if a.size == 0:
        return a.astype(_np.int64).ravel()
    if a.dtype.kind not in "iu":
        raise TypeError(f"{what} indices must be integers, not {a.dtype}")
    return a.astype(_np.int64, copy=False).ravel()


def _coo_numpy(data, row, col, shape, dtype):
    data = _np.asarray(data)
    row, col = _index_array(row, "row"), _index_array(col, "column")
    data = data.ravel() if data.ndim else data.reshape(1)
    if not (len(row) == len(col) == len(data)):
        raise ValueError("all index and data arrays must have the same length")
    dt = value_dtype(dtype if dtype is not None else data.dtype, dtype is not None)
    if shape is None:
        if len(row) == 0:
            raise ValueError("cannot infer dimensions from zero sized index arrays")
        shape = (int(row.max()) + 1, int(col.max()) + 1)
    m, n = shape
    for axis, idx, dim in ((0, row, m), (1, col, n)):
        if len(idx):
            if idx.max() >= dim:
                raise ValueError(f"axis {axis} index {int(idx.max())} exceeds matrix dimension {dim}")
            if idx.min() < 0:
                raise ValueError(f"negative axis {axis} index: {int(idx.min())}")
    s, c = _dist.split(m)
    mine = (row >= s) & (row < s + c)  # each rank hands in the entries of its own rows
    return from_local_coo(shape, dt, row[mine], col[mine], data[mine].astype(dt))


def _coo_maniple(data, row, col, shape, dtype):
    """Triplets in maniple arrays: each rank takes its equal part of them
    (no rank gathers the whole)."""
    import maniple.numpy as mnp
    data, row, col = (_flat(mnp.asarray(x)) for x in (data, row, col))
    if not (row.shape == col.shape == data.shape):
        raise ValueError("all index and data arrays must have the same length")
    for what, x in (("row", row), ("column", col)):
        if x.dtype.kind not in "iu":
            raise TypeError(f"{what} indices must be integers, not {x.dtype}")
    dt = value_dtype(dtype if dtype is not None else data.dtype, dtype is not None)
    if shape is None:
        if row.size == 0:
            raise ValueError("cannot infer dimensions from zero sized index arrays")
        shape = (int(row.max()) + 1, int(col.max()) + 1)
    r, c, v = (_dist.my_rows_block(x) for x in (row, col, data))
    return from_local_coo(shape, dt, r, c, v.astype(dt))


def _compressed(data, indices, indptr, shape, dtype, csc):
    """(data, indices, indptr) of a CSR (or CSC: csc True) matrix that every
    rank holds: each rank hands in its own rows."""
    if any(_is_maniple_array(x) for x in (data, indices, indptr)):  # gathered: small inputs only
        data, indices, indptr = (_np.asarray(x) for x in (data, indices, indptr))
    data = _np.asarray(data).ravel()
    indices, indptr = _index_array(indices, "column" if not csc else "row"), _index_array(indptr, "pointer")
    dt = value_dtype(dtype if dtype is not None else data.dtype, dtype is not None)
    if shape is None:
        major = len(indptr) - 1
        if major < 0:
            raise ValueError("index pointer should have at least one entry")
        minor = int(indices.max()) + 1 if len(indices) else 0
        shape = (minor, major) if csc else (major, minor)
    major, minor = (shape[1], shape[0]) if csc else shape
    if len(indptr) != major + 1:
        raise ValueError(f"index pointer size {len(indptr)} should be {major + 1}")
    if indptr[0] != 0:
        raise ValueError("index pointer should start with 0")
    if len(indices) != len(data):
        raise ValueError("indices and data should have the same size")
    if indptr[-1] > len(indices):
        raise ValueError("Last value of index pointer should be less than the size of index and data arrays")
    if _np.any(_np.diff(indptr) < 0):
        raise ValueError("index pointer values must form a non-decreasing sequence")
    used = indices[:indptr[-1]]
    if len(used) and (used.max() >= minor or used.min() < 0):
        what = "row" if csc else "column"
        bad = int(used.max()) if used.max() >= minor else int(used.min())
        raise ValueError(f"{what} index {bad} out of range for {minor} {what}s")
    s, c = _dist.split(major)
    p = indptr[s:s + c + 1]
    C = from_local_rows((major, minor), dt, p - p[0], indices[p[0]:p[-1]], data[p[0]:p[-1]].astype(dt))
    return C.transpose() if csc else C


def _dense_block(block, shape, dt):
    """A Csr of shape from this rank's block of rows of a dense matrix."""
    nz = _np.nonzero(block)
    rowptr = _np.zeros(block.shape[0] + 1, _np.int64)
    _np.cumsum(_np.bincount(nz[0], minlength=block.shape[0]), out=rowptr[1:])
    return from_local_rows(shape, dt, rowptr, nz[1], block[nz].astype(dt))


def _dense(x, shape, dtype, matrix):
    if _is_maniple_array(x):
        if x.ndim == 1 and matrix:
            x = _reshaped(x, (1, x.shape[0]))
        if x.ndim != 2:
            raise ValueError(f"maniple.sparse holds 2-d matrices only, not {x.ndim}-d arrays")
        if shape is not None and shape != x.shape:
            raise ValueError(f"shape {shape} does not match the array's {x.shape}")
        dt = value_dtype(dtype if dtype is not None else x.dtype, dtype is not None)
        return _dense_block(_dist.my_rows_block(x), x.shape, dt)
    a = _np.asarray(x)
    if a.dtype == object:
        raise TypeError("unsupported matrix type: object arrays cannot be sparse matrices")
    if matrix and a.ndim < 2:
        a = a.reshape((1, -1)) if a.ndim == 1 else a.reshape((1, 1))
    if a.ndim != 2:
        raise ValueError(f"maniple.sparse holds 2-d matrices only, not {a.ndim}-d arrays")
    if shape is not None and shape != a.shape:
        raise ValueError(f"shape {shape} does not match the array's {a.shape}")
    dt = value_dtype(dtype if dtype is not None else a.dtype, dtype is not None)
    s, c = _dist.split(a.shape[0])
    return _dense_block(a[s:s + c], a.shape, dt)


def _dia(data, offsets, shape, dtype):
    data = _np.atleast_1d(_np.asarray(data))
    if data.ndim == 1:
        data = data.reshape(1, -1)
    offsets = _np.atleast_1d(_np.asarray(offsets)).astype(_np.int64).ravel()
    if data.ndim != 2 or len(offsets) != data.shape[0]:
        raise ValueError(f"number of diagonals ({data.shape[0]}) does not match the number of offsets "
                         f"({len(offsets)})")
    if len(_np.unique(offsets)) != len(offsets):
        raise ValueError("offset array contains duplicate values")
    if shape is None:
        raise ValueError("expected a shape argument")
    dt = value_dtype(dtype if dtype is not None else data.dtype, dtype is not None)
    m, n = shape
    s, c = _dist.split(m)
    rows, cols, vals = [], [], []
    my = _np.arange(s, s + c, dtype=_np.int64)
    for d, k in enumerate(offsets):  # data[d, j] sits at (j - k, j)
        j = my + k
        ok = (j >= 0) & (j < min(n, data.shape[1]))
        rows.append(my[ok])
        cols.append(j[ok])
        vals.append(data[d, j[ok]])
    rows, cols = _np.concatenate(rows), _np.concatenate(cols)
    vals = _np.concatenate(vals).astype(dt) if vals else _np.zeros(0, dt)
    keep = vals != 0  # SciPy's conversions drop the zeros a dia matrix stores
    return from_local_coo(shape, dt, rows[keep], cols[keep], vals[keep])


def build(arg1, shape, dtype, copy, fmt, matrix):
    """The Csr for a constructor's arguments (SciPy's forms)."""
    shape = _check_shape(shape)
    if isinstance(arg1, _spbase):
        A = arg1._A
        if shape is not None and shape != arg1.shape:
            raise ValueError(f"shape {shape} does not match the matrix's {arg1.shape}")
        dt = A.dtype if dtype is None else value_dtype(dtype, True)
        return A.copy(dt) if (copy or dt != A.dtype) else A
    if _is_scipy_sparse(arg1):
        s = arg1.tocsr()
        if s.ndim != 2:
            raise ValueError("maniple.sparse holds 2-d matrices only")
        if shape is not None and shape != s.shape:
            raise ValueError(f"shape {shape} does not match the matrix's {s.shape}")
        return _compressed(s.data, s.indices, s.indptr, s.shape, dtype, False)
    if isinstance(arg1, tuple):
        if _isshape(arg1):
            m, n = _check_shape(arg1)
            dt = "float64" if dtype is None else value_dtype(dtype, True)
            return from_local_rows((m, n), dt, _np.zeros(_dist.split(m)[1] + 1, _np.int64), [], [])
        if fmt == "dia" and len(arg1) == 2:
            return _dia(arg1[0], arg1[1], shape, dtype)
        if len(arg1) == 2 and isinstance(arg1[1], tuple) and len(arg1[1]) == 2:
            data, (row, col) = arg1
            if any(_is_maniple_array(x) for x in (data, row, col)):
                return _coo_maniple(data, row, col, shape, dtype)
            return _coo_numpy(data, row, col, shape, dtype)
        if len(arg1) == 3 and fmt in ("csr", "csc"):
            return _compressed(arg1[0], arg1[1], arg1[2], shape, dtype, fmt == "csc")
        if len(arg1) == 2 and fmt == "coo" and _np.ndim(arg1[1]) == 2:  # (data, coords)
            return _coo_numpy(arg1[0], arg1[1][0], arg1[1][1], shape, dtype)
        raise TypeError(f"unrecognized {fmt}_array constructor input: a tuple of {len(arg1)} items")
    return _dense(arg1, shape, dtype, matrix)


# ---------------------------------------------------------------- classes ---
_CLASSES = {}  # (format, is_array) -> class


def _cls(fmt, is_array):
    return _CLASSES[(fmt, is_array)]


def _scalar_like(x):
    return isinstance(x, (int, float, bool, _np.generic)) or (isinstance(x, _np.ndarray) and x.ndim == 0)


_NAMES = {"csr": "Compressed Sparse Row", "csc": "Compressed Sparse Column", "coo": "COOrdinate",
          "dia": "DIAgonal"}


class _spbase:
    """What csr/csc/coo/dia arrays and matrices share (see the module doc)."""

    _mn_sparse = True
    __array_priority__ = 10.1
    __array_ufunc__ = None  # NumPy operators defer to ours; NumPy functions refuse sparse operands
    _format = "csr"
    _is_array = True
    __slots__ = ("_A", "maxprint", "_part", "_Ap")

    def __init__(self, arg1, shape=None, dtype=None, copy=False, *, maxprint=None, partition=None):
        """partition="equal" or "metis" (maniple's own keyword; square
        matrices): products with vectors run on a copy renumbered by that
        partition of the matrix's graph, the vectors moved to the new
        numbering and back, so results come in the user's numbering."""
        self._A = build(arg1, shape, dtype, copy, self._format, not self._is_array)
        self.maxprint = 50 if maxprint is None else maxprint
        self._part = self._Ap = None
        if partition is not None:
            if partition not in ("equal", "metis"):
                raise ValueError(f"partition must be 'equal' or 'metis', not {partition!r}")
            if self._A.shape[0] != self._A.shape[1]:
                raise ValueError(f"partition needs a square matrix, not shape {tuple(self._A.shape)}")
            self._part = self._A.partition(partition)
            self._Ap = self._A.permute(self._part)

    @classmethod
    def _new(cls, A):
        o = cls.__new__(cls)
        o._A = A
        o.maxprint = 50
        o._part = o._Ap = None
        return o

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
        return self.copy()

    @property
    def imag(self):
        return self._like(map_values(self._A, _np.zeros_like), self._format)._pruned()

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
        self._A = A

    # ---- element-wise maps of the stored values ----
    def _map(self, fn, dtype=None):
        return self._like(map_values(self._A, fn, dtype))

    def __abs__(self):
        return self._map(_np.abs)

    def __neg__(self):
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
        dt = self.dtype if dtype is None else _np.dtype(dtype)
        if axis is None:
            _, _, v = local_coo(self._A)
            parts = _dist.allgather_obj(v.sum(dtype=dt))
            s = _np.sum(_np.asarray(parts, dtype=dt), dtype=dt) if parts else dt.type(0)
            r = dt.type(s)
            return r
        from maniple.numpy import ndarray
        n = self.shape[1 - axis]
        vec = _core.create((n,), self._A.dtype)
        self._A.sum(axis, vec)
        res = ndarray(vec)
        if dt != self.dtype:
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
        res_dt = self.dtype if dtype is None else _np.dtype(dtype)
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

    def _extreme(self, which, axis, out=None):
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
        if self.nnz < m * n:
            vals.append(self.dtype.type(0))
        with _np.errstate(invalid="ignore"):
            import warnings
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                return self.dtype.type(fn(_np.asarray(vals, dtype=self.dtype)))

    def max(self, axis=None, out=None, *, explicit=False):
        return self._extreme("max", axis)

    def min(self, axis=None, out=None, *, explicit=False):
        return self._extreme("min", axis)

    def nanmax(self, axis=None, out=None, *, explicit=False):
        return self._extreme("nanmax", axis)

    def nanmin(self, axis=None, out=None, *, explicit=False):
        return self._extreme("nanmin", axis)

    def _argextreme(self, which, axis):
        """The flat (C-order) index of the first largest (smallest) element,
        implicit zeros included, as SciPy's argmax/argmin with axis None."""
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
            best = (v[k], int(rows[k]) * n + int(c[k]))
        gap = None  # my first implicit zero's flat index
        full = _np.flatnonzero(_np.diff(rp) < n)
        if len(full):
            i = int(full[0])
            cols = c[rp[i]:rp[i + 1]]
            j = int(_np.flatnonzero(cols != _np.arange(len(cols)))[0]) if _np.any(cols != _np.arange(len(cols))) \
                else len(cols)
            gap = (r0 + i) * n + j
        parts = _dist.allgather_obj((best, gap))
        cands = [b for b, _ in parts if b is not None]
        gaps = [g for _, g in parts if g is not None]
        if gaps:
            cands.append((self.dtype.type(0), min(gaps)))
        value, index = cands[0]
        for v2, i2 in cands[1:]:
            if better(v2, value) or (v2 == value and i2 < index):
                value, index = v2, i2
        return _np.intp(index)

    def argmax(self, axis=None, out=None, *, explicit=False):
        return self._argextreme("argmax", axis)

    def argmin(self, axis=None, out=None, *, explicit=False):
        return self._argextreme("argmin", axis)

    def _elementwise_extreme(self, other, fn):
        B = self._check_other_sparse(other)
        if B is None:
            if _scalar_like(other) and fn(0, other) == 0:  # zeros stay zeros
                return self._map(lambda v: fn(v, other))._pruned()
            raise NotImplementedError("maniple.sparse: maximum/minimum with a dense operand or with a scalar that "
                                      "would fill the zeros is not implemented")
        if B.shape != self.shape:
            raise ValueError(f"inconsistent shapes {self.shape} and {B.shape}")
        dt = _result_float(self.dtype, B.dtype)
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
        d = self.diagonal(offset)
        return self.dtype.type(d.sum()) if d.shape[0] else self.dtype.type(0)

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
        dt = _result_float(self.dtype, B.dtype)
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
        dt = _result_float(self.dtype, x.dtype)
        A = self._A if self._A.dtype == dt else self._A.copy(dt)
        if x.ndim == 1 and self._Ap is not None:  # renumbered: there and back
            Ap = self._Ap if self._Ap.dtype == dt else self._Ap.copy(dt)
            xn, yn, y = _core.create((n,), dt), _core.create((m,), dt), _core.create((m,), dt)
            self._part.to_new(x._materialize(), xn)
            Ap.spmv(xn, yn)
            self._part.to_old(yn, y)
        elif x.ndim == 1:
            y = _core.create((m,), dt)
            A.spmv(x._materialize(), y)
        else:
            y = _core.create((m, x.shape[1]), dt)
            A.spmm(x._materialize(), y)
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
        dt = _result_float(self.dtype, x.dtype)
        A = self._A if self._A.dtype == dt else self._A.copy(dt)
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
            dt = _result_float(self.dtype, B.dtype)
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
        dt = _result_float(self.dtype, xdt)
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
            dt = _result_float(self.dtype, B.dtype)
            A1 = self._A if self._A.dtype == dt else self._A.copy(dt)
            B1 = B._A if B._A.dtype == dt else B._A.copy(dt)
            return self._like(A1.add(1.0, float(sign), B1), "csr")
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
        dt = _result_float(self.dtype, x.dtype)
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
            r = 1.0 / s  # as SciPy: float64 values times the reciprocal
            return self._map(lambda v: v.astype(_np.float64) * r)
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
            self._A = self._mul_scalar(other)._A
            return self
        return NotImplemented

    def __itruediv__(self, other):
        if _scalar_like(other):
            self._A = self.__truediv__(other)._A
            return self
        return NotImplemented


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
        return self.transpose()

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
