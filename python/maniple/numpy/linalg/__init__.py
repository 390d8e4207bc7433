"""maniple.numpy.linalg.

Norms are native: fused reductions over the distributed array (vector norms
of any order along any axes, and the matrix norms 'fro', 1, -1, inf, -inf).

cholesky, solve, inv, det, slogdet, lstsq (full column rank), qr, eigh,
eigvalsh, svd and svdvals run on every rank (ScaLAPACK) for matrices of at
least 512 rows and columns at 2 or more ranks (_factor.py). The other
factorizations and solvers (eig, eigvals, lstsq of a rank-deficient or wide
matrix, pinv, tensorinv, tensorsolve) and the small cases are gathered;
matrix_rank, cond and the matrix norms 2, -2 and 'nuc' read the singular
values of svdvals (on every rank when large):
the matrix is gathered to one rank, NumPy's LAPACK runs there, and the
results come back to every rank (arrays scattered into maniple arrays,
scalars broadcast). NumPy's errors, LinAlgError included, are raised on every
rank with NumPy's message. That suits small dense matrices; it does not scale
(one rank holds and factors the whole matrix). eig and eigvals give NumPy's
dtypes (complex where the eigenvalues are). The norms of a complex array are
those of its absolute values (but the spectral ones, gathered as they are).

outer, tensordot, trace, vecdot, cross, matrix_power and multi_dot are
native: distributed products (matmul, tensordot) and fused expressions."""
import numpy as _np

from .. import _fallback, _root
from .._creation import asarray, zeros
from .._functions import UFUNCS as _U, _axis, max as _max, min as _min, sum as _sum
from .._products import matmul, outer as _outer, tensordot, trace as _trace, vecdot as _vecdot
from .._manipulation import matrix_transpose
from .._ndarray import ndarray, _scalar

LinAlgError = _np.linalg.LinAlgError

_GATHERED = ["eig", "eigvals", "pinv", "tensorinv",
             "tensorsolve"]


def _gathered(name):
    np_f = getattr(_np.linalg, name)

    def f(*args, **kwargs):
        return _root.call(np_f, args, kwargs)

    f.__name__ = f.__qualname__ = name
    f.__doc__ = (f"numpy.linalg.{name}, gathered: NumPy's LAPACK on one rank, the results on every rank "
                 f"(for small dense matrices).\n\n{np_f.__doc__ or ''}")
    f.__wrapped__ = np_f  # NumPy's signature for inspect and help()
    f._mn_kind = "gathered"
    return f


for _name in _GATHERED:
    globals()[_name] = _gathered(_name)
del _name
from ._factor import cholesky, det, eigh, eigvalsh, inv, lstsq, qr, slogdet, solve, svd, svdvals  # noqa: E402


# ---- norms (native) ----
_inf = _np.inf


def _float(x):
    """x as the float array its norms are computed on: |x| for complex
    (float32 for complex64, as NumPy), integers and bool as float64, float16
    as it is (NumPy's float16 norms are float16)."""
    x = asarray(x)
    if x._dtype in ("complex64", "complex128"):
        return abs(x)
    return x if x._dtype in ("float16", "float32", "float64") else x.astype("float64")


def _keep(r, ndim, axes, dtype):
    """r with the reduced axes back, of extent one (keepdims)."""
    if ndim == 0:  # nothing to put back: NumPy keeps the scalar
        return r
    if not isinstance(r, ndarray):
        return asarray(_np.full((1,) * ndim, r, dtype=dtype))
    return r[tuple(None if d in axes else slice(None) for d in range(ndim))]


def _reduce(op, x, axes, empty_ok):
    """op over the given axes (all of them: a scalar), one axis at a time,
    the highest first so that the others keep their numbers. empty_ok: an
    empty extent gives 0 (NumPy's max with initial=0), else NumPy's error."""
    if len(axes) == x.ndim:
        if x.size == 0:
            if not empty_ok:
                raise ValueError("zero-size array to reduction operation minimum which has no identity")
            return _scalar(0, x._dtype)
        return op(x)
    for ax in sorted(axes, reverse=True):
        if x.shape[ax] == 0:
            if not empty_ok:
                raise ValueError("zero-size array to reduction operation minimum which has no identity")
            x = zeros(x.shape[:ax] + x.shape[ax + 1:], x._dtype)
        else:
            x = op(x, axis=ax)
    return x


def _vector(x, ord, axes, keepdims):
    """Vector norm of x (float) over axes (normalised), as NumPy's norm."""
    dt = x._dtype
    if isinstance(ord, str):
        raise ValueError(f"Invalid norm order '{ord}' for vectors")
    if ord == _inf:
        r = _reduce(_max, abs(x), axes, True)
    elif ord == -_inf:
        r = _reduce(_min, abs(x), axes, False)
    elif ord == 0:
        r = _reduce(_sum, (x != 0).astype(dt), axes, True)
    elif ord == 1:
        r = _reduce(_sum, abs(x), axes, True)
    elif ord is None or ord == 2:
        r = _U["sqrt"](_reduce(_sum, x * x, axes, True))
    else:
        p = float(ord)
        r = _reduce(_sum, abs(x) ** p, axes, True) ** (1.0 / p)
    r = _cast(r, dt)
    return _keep(r, x.ndim, axes, dt) if keepdims else r


def _cast(r, dt):
    if isinstance(r, ndarray):
        return r if r._dtype == dt else r.astype(dt)
    return _scalar(r, dt)


def _axes(axis, ndim):
    axes = tuple(_axis(a, ndim) for a in axis)
    if len(set(axes)) != len(axes):
        raise ValueError("repeated axis")
    return axes


def _matrix(x, ord, row, col, keepdims, src=None):
    """Matrix norm over the axes (row, col), as NumPy's norm; src: the
    array itself where x is its absolute value (complex)."""
    if row == col:
        raise ValueError("Duplicate axes given.")
    dt = x._dtype
    if ord in (2, -2, "nuc"):  # from the singular values (svdvals: on every rank when large)
        m = x if src is None else src
        if m.ndim != 2 or m.size == 0:
            return _root.call(_np.linalg.norm, (m,), {"ord": ord, "axis": (row, col), "keepdims": keepdims})
        sv = svdvals(m)  # (those of the transpose are the same)
        r = _cast(sv.max() if ord == 2 else sv.min() if ord == -2 else sv.sum(), dt)
        return _keep(r, 2, (0, 1), dt) if keepdims else r
    if ord in (None, "fro", "f"):
        r = _U["sqrt"](_reduce(_sum, x * x, (row, col), True))
    elif ord in (1, -1, _inf, -_inf):
        # column sums then the extreme over rows (1, -1), or the reverse
        first, second = (row, col) if ord in (1, -1) else (col, row)
        s = _reduce(_sum, abs(x), (first,), True)
        if second > first:
            second -= 1
        r = _reduce(_max if ord > 0 else _min, s, (second,), ord > 0)
    else:
        raise ValueError("Invalid norm order for matrices.")
    r = _cast(r, dt)
    return _keep(r, x.ndim, (row, col), dt) if keepdims else r


def norm(x, ord=None, axis=None, keepdims=False):
    """numpy.linalg.norm: vector norms and the matrix norms 'fro', 1, -1,
    inf, -inf natively; 2, -2 and 'nuc' gathered (singular values)."""
    src = asarray(x)
    if src._dtype == "float16":  # (a bad axis: NumPy's AxisError first)
        two = (axis is None and src.ndim == 2) or (isinstance(axis, tuple) and len(axis) == 2)
        _no_half_svd(two and src.ndim >= 2 and ord in (2, -2, "nuc"))
    x = _float(src)
    nd = x.ndim
    if axis is None:
        if ord is None or (isinstance(ord, str) and ord in ("f", "fro") and nd == 2) or (ord == 2 and nd == 1):
            r = _cast(_U["sqrt"](_sum(x * x)), x._dtype)
            return _keep(r, nd, tuple(range(nd)), x._dtype) if keepdims else r
        axis = tuple(range(nd))
    elif not isinstance(axis, tuple):
        try:
            axis = (int(axis),)
        except Exception as e:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from e
    if len(axis) == 1:
        return _vector(x, ord, (_axis(axis[0], nd),), keepdims)
    if len(axis) == 2:
        return _matrix(x, ord, _axis(axis[0], nd), _axis(axis[1], nd), keepdims, src)
    raise ValueError("Improper number of dimensions to norm.")


def _no_half_svd(svd):
    """The matrix norms NumPy takes from singular values: its linalg refuses float16."""
    if svd:
        raise TypeError("array type float16 is unsupported in linalg")


def vector_norm(x, /, *, axis=None, keepdims=False, ord=2):
    """numpy.linalg.vector_norm over all elements or any axes, natively."""
    x = _float(x)
    if axis is None:
        axes = tuple(range(x.ndim))
    elif isinstance(axis, tuple):
        axes = _axes(axis, x.ndim)
    else:
        axes = (_axis(axis, x.ndim),)
    return _vector(x, ord, axes, keepdims)


def matrix_norm(x, /, *, keepdims=False, ord="fro"):
    """numpy.linalg.matrix_norm over the last two axes."""
    src = asarray(x)
    if src._dtype == "float16":
        _no_half_svd(src.ndim >= 2 and ord in (2, -2, "nuc"))
    x = _float(src)
    return _matrix(x, ord, _axis(-2, x.ndim), _axis(-1, x.ndim), keepdims, src)


def matrix_rank(A, tol=None, hermitian=False, *, rtol=None):
    """numpy.linalg.matrix_rank: the singular values above the tolerance
    (svdvals, or |eigvalsh| for hermitian: on every rank when large)."""
    if not isinstance(A, ndarray) or A.ndim != 2 or A.size == 0:
        return _root.call(_np.linalg.matrix_rank, (A,), {"tol": tol, "hermitian": hermitian, "rtol": rtol})
    sv = abs(eigvalsh(A)) if hermitian else svdvals(A)
    if tol is None:
        rtol = max(A.shape) * _np.finfo(sv.dtype).eps if rtol is None else rtol
        tol = sv.max() * rtol
    return _np.intp(int((sv > tol).sum()))


def cond(x, p=None):
    """numpy.linalg.cond of a matrix: the ratio of its extreme singular
    values (p None, 2, -2), else norm(x, p) * norm(inv(x), p), infinite
    for a singular matrix, as NumPy's."""
    if not isinstance(x, ndarray) or x.ndim != 2 or x.size == 0 or (p not in (None, 2, -2) and x.shape[0] != x.shape[1]):
        return _root.call(_np.linalg.cond, (x,), {"p": p})
    with _np.errstate(all="ignore"):
        if p in (None, 2, -2):
            sv = svdvals(x)
            hi, lo = sv.max(), sv.min()
            r = hi / lo if p != -2 else lo / hi
        else:
            try:
                r = norm(x, p) * norm(inv(x), p)
            except LinAlgError:  # singular: NumPy's inverse is infinite there
                r = _np.inf
            r = _np.float32(r) if x._dtype in ("float32", "complex64") else _np.float64(r)
    if _np.isnan(r) and not bool(_U["isnan"](x).any()):
        r = type(r)(_np.inf)
    return r


# ---- products (native) ----
def outer(x1, x2, /):
    """numpy.linalg.outer: of 1-d arrays only."""
    x1, x2 = asarray(x1), asarray(x2)
    if x1.ndim != 1 or x2.ndim != 1:
        raise ValueError(f"Input arrays must be one-dimensional, but they are x1.ndim={x1.ndim} and "
                         f"x2.ndim={x2.ndim}.")
    return _outer(x1, x2)


def diagonal(x, /, *, offset=0):
    """numpy.linalg.diagonal: the diagonals of the last two axes (a view)."""
    from .._products import diagonal as _diagonal
    return _diagonal(x, offset=offset, axis1=-2, axis2=-1)


def trace(x, /, *, offset=0, dtype=None):
    """numpy.linalg.trace: over the last two axes."""
    return _trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def vecdot(x1, x2, /, *, axis=-1):
    return _vecdot(x1, x2, axis=axis)


def cross(x1, x2, /, *, axis=-1):
    """numpy.linalg.cross: of 3-element vectors only."""
    from .._products import cross as _cross
    x1, x2 = asarray(x1), asarray(x2)
    if x1.shape[axis] != 3 or x2.shape[axis] != 3:
        raise ValueError(f"Both input arrays must be (arrays of) 3-dimensional vectors, but they are "
                         f"{x1.shape[axis]} and {x2.shape[axis]} dimensional instead.")
    return _cross(x1, x2, axis=axis)


def matrix_power(a, n):
    """numpy.linalg.matrix_power: NumPy's binary decomposition of n (the
    same products in the same order); inv (gathered) for n < 0."""
    import operator
    a = asarray(a)
    if a.ndim < 2:
        raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be at least two-dimensional")
    if a.shape[-1] != a.shape[-2]:
        raise LinAlgError("Last 2 dimensions of the array must be square")
    try:
        n = operator.index(n)
    except TypeError as e:
        raise TypeError("exponent must be an integer") from e
    if n == 0:
        from .._creation import eye
        r = zeros(a.shape, a._dtype)
        r[...] = eye(a.shape[-1], dtype=a._dtype)
        return r
    if n < 0:
        a = inv(a)  # noqa: F821 (gathered, defined above)
        n = abs(n)
    if n == 1:
        return a
    if n == 2:
        return matmul(a, a)
    if n == 3:
        return matmul(matmul(a, a), a)
    z = r = None
    while n > 0:
        z = a if z is None else matmul(z, z)
        n, bit = divmod(n, 2)
        if bit:
            r = z if r is None else matmul(r, z)
    return r


def multi_dot(arrays, *, out=None):
    """numpy.linalg.multi_dot: the chain in NumPy's order (the cheapest
    parenthesisation by shapes), each product a distributed matmul."""
    from .._functions import _with_out
    n = len(arrays)
    if n < 2:
        raise ValueError("Expecting at least two arrays.")
    arrays = [asarray(a) for a in arrays]
    first, last = arrays[0].ndim == 1, arrays[-1].ndim == 1
    if first:
        arrays[0] = arrays[0][None, :]
    if last:
        arrays[-1] = arrays[-1][:, None]
    for a in arrays:
        if a.ndim != 2:
            raise LinAlgError(f"{a.ndim}-dimensional array given. Array must be two-dimensional")
    if n == 2:
        r = matmul(arrays[0], arrays[1])
    else:
        dims = [a.shape[0] for a in arrays] + [arrays[-1].shape[1]]
        s = _chain_order(dims)
        r = _chain(arrays, s, 0, n - 1)
    if first and last:
        r = r[0, 0]
        return _with_out(r, out) if out is not None else r
    if first:
        r = r[0]
    elif last:
        r = r[:, 0]
    return _with_out(r, out) if out is not None else r


def _chain_order(p):
    """NumPy's dynamic programme for the cheapest order (Cormen's)."""
    n = len(p) - 1
    m = [[0] * n for _ in range(n)]
    s = [[0] * n for _ in range(n)]
    for ln in range(1, n):
        for i in range(n - ln):
            j = i + ln
            m[i][j] = _inf
            for k in range(i, j):
                q = m[i][k] + m[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if q < m[i][j]:
                    m[i][j] = q
                    s[i][j] = k
    return s


def _chain(arrays, s, i, j):
    if i == j:
        return arrays[i]
    return matmul(_chain(arrays, s, i, s[i][j]), _chain(arrays, s, s[i][j] + 1, j))


_fallback.install(globals(), "linalg")
del _fallback
