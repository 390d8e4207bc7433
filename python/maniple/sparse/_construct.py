"""Functions that build sparse matrices: eye, identity, diags, spdiags,
kron, kronsum, random, block matrices, tril and triu. Each rank makes the
entries of its own rows, or of its own rows of the operands, so nothing is
made twice; kron gathers its second operand to every rank."""
import numpy as _np

from . import _dist
from ._base import _cls, _spbase
from ._build import _check_shape, _is_scipy_sparse
from ._local import from_local_coo, from_local_rows, local_coo, value_dtype


def _is_sparray(x):
    if isinstance(x, _spbase):
        return x._is_array
    return _is_scipy_sparse(x) and type(x).__name__.endswith("_array")


def _as_sparse(x, is_array=True):
    """x as a maniple sparse matrix (dense and SciPy inputs converted)."""
    if isinstance(x, _spbase):
        return x
    return _cls("csr", is_array)(x)


def _result(A, fmt, is_array):
    return _cls(fmt, is_array)._new(A)


def _dt(dtype, default="float64"):
    return default if dtype is None else value_dtype(dtype, True)


# ---------------------------------------------------------------- eye ---
def _eye(m, n, k, dtype, format, is_array):
    m = int(m)
    n = m if n is None else int(n)
    _check_shape((m, n))
    dt = _dt(dtype)
    k = int(k)
    if not -m <= k <= n:
        raise ValueError(f"Offset {k} (index 0) out of bounds")
    s, c = _dist.split(m)
    rows = _np.arange(s, s + c, dtype=_np.int64)
    cols = rows + int(k)
    ok = (cols >= 0) & (cols < n)
    rowptr = _np.concatenate([[0], _np.cumsum(ok)]).astype(_np.int64)
    A = from_local_rows((m, n), dt, rowptr, cols[ok], _np.ones(int(ok.sum()), dt))
    return _result(A, format or "dia", is_array)


def eye(m, n=None, k=0, dtype=float, format=None):
    """The identity's k-th diagonal as a sparse matrix (SciPy's eye)."""
    return _eye(m, n, k, dtype, format, False)


def eye_array(m, n=None, *, k=0, dtype=float, format=None):
    """As eye, a sparse array."""
    return _eye(m, n, k, dtype, format, True)


def identity(n, dtype="d", format=None):
    return _eye(n, n, 0, dtype, format, False)


# -------------------------------------------------------------- diags ---
_NOVALUE = object()


def _diags(diagonals, offsets, shape, format, dtype, is_array):
    if _np.ndim(offsets) == 0:
        if len(diagonals) == 0 or _np.ndim(diagonals[0]) == 0:
            diagonals = [_np.atleast_1d(_np.asarray(diagonals))]
        else:
            raise ValueError("Different number of diagonals and offsets.")
        offsets = [offsets]
    offsets = [int(k) for k in _np.atleast_1d(offsets)]
    diagonals = [_np.atleast_1d(_np.asarray(d)) for d in diagonals]
    if len(diagonals) != len(offsets):
        raise ValueError("Different number of diagonals and offsets.")
    if len(set(offsets)) != len(offsets):
        raise ValueError("offset array contains duplicate values")
    if shape is None:
        m = len(diagonals[0]) + abs(offsets[0])
        shape = (m, m)
    m, n = _check_shape(shape)
    if dtype is _NOVALUE:  # SciPy 1.17's default: NumPy's common_type (integers give float64, bool raises)
        dt = value_dtype(_np.common_type(*diagonals), False)
        if any(d.dtype.kind in "iu" for d in diagonals):
            import warnings
            warnings.warn(f"Input has data type {_np.result_type(*diagonals)}, but the output has been cast to "
                          f"{dt}.  In the future, the output data type will match the input. To avoid this "
                          "warning, set the `dtype` parameter to `None` to have the output dtype match the input, "
                          "or set it to the desired output data type.", FutureWarning, stacklevel=3)
    elif dtype is None:
        dt = value_dtype(_np.result_type(*[d.dtype for d in diagonals]), False)
    else:
        dt = value_dtype(dtype, True)
    s, c = _dist.split(m)
    my = _np.arange(s, s + c, dtype=_np.int64)
    rows, cols, vals = [], [], []
    for i, (d, k) in enumerate(zip(diagonals, offsets)):
        length = max(0, min(m + min(k, 0), n - max(k, 0)))
        if d.ndim != 1:
            raise ValueError("each diagonal must be 1-d")
        if len(d) != 1 and len(d) < length:
            raise ValueError(f"Diagonal length (index {i}: {len(d)} at offset {k}) does not agree with array "
                             f"size ({m}, {n}).")
        j = my + k
        pos = my if k >= 0 else j
        ok = (j >= 0) & (j < n) & (pos < length)
        rows.append(my[ok])
        cols.append(j[ok])
        vals.append(_np.broadcast_to(d, (1,))[_np.zeros(int(ok.sum()), _np.int64)] if len(d) == 1 else d[pos[ok]])
    rows = _np.concatenate(rows) if rows else _np.zeros(0, _np.int64)
    cols = _np.concatenate(cols) if cols else _np.zeros(0, _np.int64)
    vals = _np.concatenate(vals).astype(dt) if vals else _np.zeros(0, dt)
    keep = vals != 0  # SciPy's conversions of a dia matrix drop its zeros
    A = from_local_coo((m, n), dt, rows[keep], cols[keep], vals[keep])
    return _result(A, format or "dia", is_array)


def diags_array(diagonals, /, *, offsets=0, shape=None, format=None, dtype=_NOVALUE):
    """A sparse array from diagonals (SciPy's diags_array); integer
    diagonals give float64 (with SciPy's FutureWarning) unless dtype is
    given (None: the diagonals' own)."""
    return _diags(diagonals, offsets, shape, format, dtype, True)


def diags(diagonals, offsets=0, shape=None, format=None, dtype=_NOVALUE):
    """As diags_array, a sparse matrix."""
    return _diags(diagonals, offsets, shape, format, dtype, False)


def spdiags(data, diags, m=None, n=None, format=None):
    """A sparse matrix from the rows of data (data[i, j] at (j - diags[i],
    j)), as SciPy's spdiags."""
    data = _np.asarray(data)
    if m is None and n is None:
        m = n = data.shape[-1] if data.ndim else 1
    elif n is None:
        m, n = m
    from ._dia import dia_matrix
    r = dia_matrix((data, diags), shape=(m, n))
    return r if format in (None, "dia") else r.asformat(format)


# ------------------------------------------------------------- kron ---
def kron(A, B, format=None):
    """The Kronecker product: each rank forms the rows that its rows of A
    give; B is gathered to every rank. The result is CSR (SciPy gives BSR
    or COO)."""
    is_array = _is_sparray(A) or _is_sparray(B)
    A, B = _as_sparse(A), _as_sparse(B)
    (m, n), (p, q) = A.shape, B.shape
    dt = value_dtype(_np.result_type(A.dtype, B.dtype), False)
    ra, ca, va = local_coo(A._A)
    rb, cb, vb = B._gather_coo()
    nb = len(vb)
    rows = (_np.repeat(ra, nb) * p + _np.tile(rb, len(va)))
    cols = (_np.repeat(ca, nb) * q + _np.tile(cb, len(va)))
    vals = _np.repeat(va.astype(dt), nb) * _np.tile(vb.astype(dt), len(va))
    C = from_local_coo((m * p, n * q), dt, rows, cols, vals)
    return _result(C, format or "csr", is_array)


def kronsum(A, B, format=None):
    """kron(I_n, A) + kron(B, I_m) for square A (m x m) and B (n x n)."""
    is_array = _is_sparray(A) or _is_sparray(B)
    A, B = _as_sparse(A, is_array), _as_sparse(B, is_array)
    if A.shape[0] != A.shape[1]:
        raise ValueError("A is not square")
    if B.shape[0] != B.shape[1]:
        raise ValueError("B is not square")
    dt = value_dtype(_np.result_type(A.dtype, B.dtype), False)
    L = kron(_eye(B.shape[0], None, 0, dt, "csr", is_array), A)
    R = kron(B, _eye(A.shape[0], None, 0, dt, "csr", is_array))
    return (L + R).asformat(format or "csr")


# ------------------------------------------------------------ random ---
def _rng(rng):
    """A NumPy generator with the same state on every rank: an int seed
    (or a Generator or RandomState that the script seeded alike on every
    rank, SPMD) is used as it is; with none, rank 0 draws a seed for all."""
    if rng is None:
        seed = _dist.bcast_obj(int(_np.random.SeedSequence().generate_state(1)[0]) if _dist.rank() == 0 else None)
        return _np.random.default_rng(seed)
    if isinstance(rng, (_np.random.Generator, _np.random.RandomState)):
        return rng
    return _np.random.default_rng(rng)


def _random(shape, density, format, dtype, rng, sampler, is_array):
    m, n = _check_shape(shape)
    if not 0 <= density <= 1:
        raise ValueError("density expected to be 0 <= density <= 1")
    dt = _dt(dtype)
    g = _rng(rng)
    mn = m * n
    k = int(round(density * mn))
    pos = g.choice(mn, size=k, replace=False) if k else _np.zeros(0, _np.int64)
    if sampler is not None:
        vals = _np.asarray(sampler(k))
    elif _np.dtype(dt).kind in "iu":  # over the dtype's range, as SciPy draws integers
        info = _np.iinfo(dt)
        vals = g.integers(info.min, info.max, size=k, dtype=dt, endpoint=True)
    elif _np.dtype(dt).kind == "c":
        vals = g.uniform(size=k) + 1j * g.uniform(size=k)
    else:
        vals = g.uniform(size=k) if dt != "bool" else _np.ones(k, bool)
    pos = _np.asarray(pos, dtype=_np.int64)
    rows, cols = pos // max(n, 1), pos % max(n, 1)
    s, c = _dist.split(m)
    mine = (rows >= s) & (rows < s + c)
    A = from_local_coo((m, n), dt, rows[mine], cols[mine], vals[mine].astype(dt))
    return _result(A, format or "coo", is_array)


def random_array(shape, *, density=0.01, format="coo", dtype=None, rng=None, data_sampler=None, random_state=None):
    """A random sparse array: round(density * m * n) distinct positions,
    uniform [0, 1) values (or data_sampler(k)). With the same seed every
    rank draws the same matrix and keeps its rows; the values differ from
    SciPy's for the same seed."""
    return _random(shape, density, format, dtype, rng if rng is not None else random_state, data_sampler, True)


def random(m, n, density=0.01, format="coo", dtype=None, rng=None, data_rvs=None, *, random_state=None):
    """As random_array, a sparse matrix (SciPy's random)."""
    return _random((m, n), density, format, dtype, rng if rng is not None else random_state, data_rvs, False)


def rand(m, n, density=0.01, format="coo", dtype=None, rng=None, *, random_state=None):
    return _random((m, n), density, format, dtype, rng if rng is not None else random_state, None, False)


# ------------------------------------------------------- block matrices ---
def _grid(blocks):
    if isinstance(blocks, _np.ndarray) and blocks.dtype == object:
        blocks = blocks.tolist()
    if not isinstance(blocks, (list, tuple)) or not all(isinstance(r, (list, tuple)) for r in blocks):
        raise ValueError("blocks must be 2-D")
    if len(blocks) == 0 or len(blocks[0]) == 0:
        raise ValueError("blocks must not be empty")
    if len({len(r) for r in blocks}) != 1:
        raise ValueError("blocks must be 2-D: every row of blocks must have the same length")
    return [list(r) for r in blocks]


def _bmat(blocks, format, dtype, is_array, default_fmt=None):
    grid = _grid(blocks)
    is_array = is_array or any(_is_sparray(b) for r in grid for b in r if b is not None)
    grid = [[None if b is None else _as_sparse(b, is_array) for b in r] for r in grid]
    nr, nc = len(grid), len(grid[0])
    heights, widths = [None] * nr, [None] * nc
    for i in range(nr):
        for j in range(nc):
            b = grid[i][j]
            if b is None:
                continue
            if heights[i] is None:
                heights[i] = b.shape[0]
            elif heights[i] != b.shape[0]:
                raise ValueError(f"blocks[{i},:] has incompatible row dimensions. Got blocks[{i},{j}].shape[0] == "
                                 f"{b.shape[0]}, expected {heights[i]}.")
            if widths[j] is None:
                widths[j] = b.shape[1]
            elif widths[j] != b.shape[1]:
                raise ValueError(f"blocks[:,{j}] has incompatible column dimensions. Got blocks[{i},{j}].shape[1] "
                                 f"== {b.shape[1]}, expected {widths[j]}.")
    heights = [h or 0 for h in heights]
    widths = [w or 0 for w in widths]
    r0 = _np.concatenate([[0], _np.cumsum(heights)]).astype(_np.int64)
    c0 = _np.concatenate([[0], _np.cumsum(widths)]).astype(_np.int64)
    present = [b for r in grid for b in r if b is not None]
    if dtype is not None:
        dt = value_dtype(dtype, True)
    elif present:
        dt = value_dtype(_np.result_type(*[b.dtype for b in present]), False)
    else:
        dt = "float64"
    rows, cols, vals = [], [], []
    for i in range(nr):
        for j in range(nc):
            b = grid[i][j]
            if b is None:
                continue
            r, c, v = local_coo(b._A)
            rows.append(r + r0[i])
            cols.append(c + c0[j])
            vals.append(v.astype(dt))
    cat = (lambda xs, t: _np.concatenate(xs) if xs else _np.zeros(0, t))
    A = from_local_coo((int(r0[-1]), int(c0[-1])), dt, cat(rows, _np.int64), cat(cols, _np.int64), cat(vals, dt))
    if format is None:
        full = len(present) == nr * nc  # SciPy's CSR path takes grids without None blocks
        format = default_fmt or ("csr" if full and all(b.format == "csr" for b in present) else "coo")
    return _result(A, format, is_array)


def bmat(blocks, format=None, dtype=None):
    """A sparse matrix from a 2-d grid of blocks (None for zeros)."""
    return _bmat(blocks, format, dtype, False)


def block_array(blocks, *, format=None, dtype=None):
    """As bmat, a sparse array."""
    return _bmat(blocks, format, dtype, True)


def hstack(blocks, format=None, dtype=None):
    blocks = list(blocks)
    if not blocks:
        raise ValueError("blocks must not be empty")
    try:
        return _bmat([blocks], format, dtype, False)
    except ValueError as e:
        if "incompatible row dimensions" in str(e):
            raise ValueError(f"Mismatching dimensions along axis 0: {sorted({b.shape[0] for b in blocks})}") \
                from None
        raise


def vstack(blocks, format=None, dtype=None):
    blocks = list(blocks)
    if not blocks:
        raise ValueError("blocks must not be empty")
    try:
        return _bmat([[b] for b in blocks], format, dtype, False)
    except ValueError as e:
        if "incompatible column dimensions" in str(e):
            raise ValueError(f"Mismatching dimensions along axis 1: {sorted({b.shape[1] for b in blocks})}") \
                from None
        raise


def block_diag(mats, format=None, dtype=None):
    """The matrices along the diagonal (dense ones converted)."""
    mats = list(mats)
    if not mats:
        raise ValueError("need at least one array to concatenate")
    is_array = any(_is_sparray(x) for x in mats)
    mats = [_as_sparse(x if _np.ndim(x) == 2 or isinstance(x, _spbase) or _is_scipy_sparse(x)
                       else _np.atleast_2d(_np.asarray(x)), is_array) for x in mats]
    grid = [[mats[i] if i == j else None for j in range(len(mats))] for i in range(len(mats))]
    # every row and column of the grid has its block, so empty blocks keep their extent
    return _bmat(grid, format, dtype, is_array, "coo")


# ------------------------------------------------------------ triangles ---
def _triangle(A, k, format, lower):
    is_array = _is_sparray(A)
    A = _as_sparse(A, is_array)
    r, c, v = local_coo(A._A)
    keep = (c - r <= k) if lower else (c - r >= k)
    C = from_local_coo(A.shape, A._A.dtype, r[keep], c[keep], v[keep])
    return _result(C, format or "coo", is_array)


def tril(A, k=0, format=None):
    """The lower triangle (below the k-th diagonal and on it)."""
    return _triangle(A, int(k), format, True)


def triu(A, k=0, format=None):
    """The upper triangle (above the k-th diagonal and on it)."""
    return _triangle(A, int(k), format, False)


def find(A):
    """(rows, cols, values) of A's nonzero entries: NumPy arrays, gathered
    to every rank."""
    A = _as_sparse(A)
    r, c, v = A._gather_coo()
    nz = v != 0
    return r[nz], c[nz], v[nz]


def swapaxes(A, axis1, axis2):
    a1, a2 = int(axis1) % 2, int(axis2) % 2
    return A.transpose() if a1 != a2 else A.copy()


def permute_dims(A, axes=None, copy=False):
    if axes is None or tuple(int(a) % 2 for a in axes) == (1, 0):
        return A.transpose()
    if tuple(int(a) % 2 for a in axes) == (0, 1):
        return A.copy() if copy else A
    raise ValueError(f"invalid axes {axes} for a 2-d sparse array")


# ------------------------------------------------------------ predicates ---
def issparse(x):
    """Whether x is a maniple sparse array or matrix."""
    return isinstance(x, _spbase)


def isspmatrix(x):
    """Whether x is a maniple sparse matrix (not an array), as SciPy's."""
    from ._base import spmatrix
    return isinstance(x, spmatrix)


def _never(x):
    """maniple has no such format: False."""
    return False


isspmatrix_bsr = isspmatrix_lil = isspmatrix_dok = _never
