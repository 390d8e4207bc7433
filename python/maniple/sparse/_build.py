"""The Csr for a sparse constructor's arguments, in SciPy's forms: another
sparse matrix (maniple's or SciPy's), a shape, (data, (row, col)) triplets
in NumPy or maniple arrays, (data, indices, indptr) of a CSR or CSC,
(data, offsets) of a DIA, or a dense matrix. Each rank hands in the
entries of its own rows."""
import numpy as _np

from maniple.numpy._ndarray import _flat, _reshaped

from . import _dist
from ._local import from_local_coo, from_local_rows, value_dtype


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
        raise ValueError("maniple.sparse does not support dtype object (object arrays cannot be sparse matrices)")
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
    if getattr(type(arg1), "_mn_sparse", False):  # a maniple sparse matrix (_base._spbase)
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
