"""Dense factorisations on every rank: cholesky, solve, inv, det, slogdet,
lstsq (full column rank), qr, eigh, eigvalsh, svd and svdvals of large matrices run through ScaLAPACK in the C library (block-cyclic over all
ranks); small ones, one-rank runs and the cases below go to NumPy's LAPACK on
one rank (gathered), which is faster there. The crossover, DISTRIBUTED_MIN,
was measured at 2 ranks (docs/python.md)."""
import numpy as _np

from maniple import _core

from .. import _root
from .._ndarray import ndarray

DISTRIBUTED_MIN = 512  # the smaller side of the matrix from which all ranks take part
# eigenvectors and singular vectors: ScaLAPACK's p?syev and p?gesvd took
# 3.0x and 2.5x NumPy's one-rank time at n = 2000 on 2 ranks, so they run
# on every rank only where one rank's memory is the limit (a 512 MB matrix)
VECTORS_MIN = 8192
_FLOATS = ("float32", "float64", "complex64", "complex128")
_state = {"native": None}  # None: not tried yet; False: this build has no ScaLAPACK


def _dtype(*xs):
    """NumPy's linalg result dtype for these inputs, or None where NumPy
    itself should answer (float16, objects, strings)."""
    dts = [x.dtype for x in xs]
    if any(d.kind not in "biufc" or d == _np.float16 for d in dts):
        return None
    if any(d.kind == "c" for d in dts):
        return "complex64" if all(d in (_np.float32, _np.complex64) for d in dts) else "complex128"
    return "float32" if all(d == _np.float32 for d in dts) else "float64"


def _use(*xs, side, least=None):
    """Run on every rank? Needs maniple arrays, several ranks, a large matrix
    (least rows and columns, DISTRIBUTED_MIN by default) and a dtype LAPACK
    takes."""
    if _state["native"] is False or _core.size() == 1 or side < (DISTRIBUTED_MIN if least is None else least):
        return None
    if not all(isinstance(x, ndarray) for x in xs):
        return None
    return _dtype(*xs)


def _call(what, *xs):
    try:
        r = _core.factor(what, *[x._materialize() for x in xs])
    except NotImplementedError:  # no ScaLAPACK in this build: gathered from now on
        _state["native"] = False
        return None
    _state["native"] = True
    return r


def _square(a):
    return isinstance(a, ndarray) and a.ndim == 2 and a.shape[0] == a.shape[1]


def cholesky(a, /, *, upper=False):
    dt = _use(a, side=a.shape[0] if _square(a) else 0)
    r = _call("cholesky", a.astype(dt, copy=False)) if dt else None
    if r is None:
        return _root.call(_np.linalg.cholesky, (a,), {"upper": upper})
    L = ndarray(r)
    if not upper:
        return L
    return L.T.conj() if dt.startswith("complex") else L.T


def solve(a, b):
    fits = _square(a) and isinstance(b, ndarray) and b.ndim in (1, 2) and b.shape[0] == a.shape[0]
    dt = _use(a, b, side=a.shape[0] if fits else 0)
    r = _call("solve", a.astype(dt, copy=False), b.astype(dt, copy=False)) if dt else None
    if r is None:
        return _root.call(_np.linalg.solve, (a, b), {})
    return ndarray(r)


def inv(a):
    dt = _use(a, side=a.shape[0] if _square(a) else 0)
    r = _call("inv", a.astype(dt, copy=False)) if dt else None
    if r is None:
        return _root.call(_np.linalg.inv, (a,), {})
    return ndarray(r)


def qr(a, mode="reduced"):
    fits = isinstance(a, ndarray) and a.ndim == 2 and mode in ("reduced", "r")
    dt = _use(a, side=min(a.shape) if fits else 0)
    r = _call("qr" if mode == "reduced" else "qr_r", a.astype(dt, copy=False)) if dt else None
    if r is None:
        return _root.call(_np.linalg.qr, (a,), {"mode": mode})
    if mode == "r":
        return ndarray(r)
    return _np.linalg._linalg.QRResult(ndarray(r[0]), ndarray(r[1]))


def _slogdet_parts(a):
    """(sign, log |det|) as NumPy's scalars, from the LU factors on every
    rank, or None where the gathered path answers."""
    dt = _use(a, side=a.shape[0] if _square(a) else 0)
    r = _call("slogdet", a.astype(dt, copy=False)) if dt else None
    if r is None:
        return None
    real = _np.float32 if dt in ("float32", "complex64") else _np.float64
    sign = _np.dtype(dt).type(complex(r[0], r[1]) if dt.startswith("complex") else r[0])
    return sign, real(r[2])


def slogdet(a):
    r = _slogdet_parts(a)
    if r is None:
        return _root.call(_np.linalg.slogdet, (a,), {})
    return _np.linalg._linalg.SlogdetResult(*r)


def det(a):
    """NumPy's det: sign * exp(log |det|)."""
    r = _slogdet_parts(a)
    if r is None:
        return _root.call(_np.linalg.det, (a,), {})
    return r[0] * _np.exp(r[1])


def _uplo(UPLO):
    u = str(UPLO).upper()
    return u if u in ("L", "U") else None


def _need_square(a):
    """NumPy's error for a matrix that is not square, raised on every rank
    without gathering it"""
    if isinstance(a, ndarray) and a.ndim >= 2 and a.shape[-1] != a.shape[-2]:
        raise _np.linalg.LinAlgError("Last 2 dimensions of the array must be square")


def eigh(a, UPLO="L"):
    _need_square(a)
    dt = _use(a, side=a.shape[0] if _square(a) else 0, least=max(VECTORS_MIN, DISTRIBUTED_MIN)) if _uplo(UPLO) else None
    r = _call("eigh_" + _uplo(UPLO), a.astype(dt, copy=False)) if dt else None
    if r is None:
        return _root.call(_np.linalg.eigh, (a,), {"UPLO": UPLO})
    return _np.linalg._linalg.EighResult(ndarray(r[0]), ndarray(r[1]))


def eigvalsh(a, UPLO="L"):
    _need_square(a)
    dt = _use(a, side=a.shape[0] if _square(a) else 0) if _uplo(UPLO) else None
    r = _call("eigvalsh_" + _uplo(UPLO), a.astype(dt, copy=False)) if dt else None
    if r is None:
        return _root.call(_np.linalg.eigvalsh, (a,), {"UPLO": UPLO})
    return ndarray(r)


def svd(a, full_matrices=True, compute_uv=True, hermitian=False):
    # ScaLAPACK gives the reduced factors: complete ones only for a square a
    fits = (isinstance(a, ndarray) and a.ndim == 2 and not hermitian
            and (not compute_uv or not full_matrices or a.shape[0] == a.shape[1]))
    least = max(VECTORS_MIN, DISTRIBUTED_MIN) if compute_uv else None
    dt = _use(a, side=min(a.shape) if fits else 0, least=least)
    r = _call("svd" if compute_uv else "svdvals", a.astype(dt, copy=False)) if dt else None
    if r is None:
        return _root.call(_np.linalg.svd, (a,), {"full_matrices": full_matrices, "compute_uv": compute_uv,
                                                 "hermitian": hermitian})
    if not compute_uv:
        return ndarray(r)
    return _np.linalg._linalg.SVDResult(ndarray(r[0]), ndarray(r[1]), ndarray(r[2]))


def svdvals(x, /):
    return svd(x, compute_uv=False) if isinstance(x, ndarray) and x.ndim == 2 else _root.call(
        _np.linalg.svdvals, (x,), {})


def lstsq(a, b, rcond=None):
    """NumPy's lstsq. On every rank, for a tall or square matrix of full
    column rank (the rank counted from its singular values, as NumPy's):
    x from its QR factors (x = r^-1 q^H b), the residuals' squared norms
    from b - a x. A rank-deficient or wide matrix, whose answer is the
    minimum-norm one, is gathered (NumPy's SVD-based gelsd)."""
    fits = (isinstance(a, ndarray) and a.ndim == 2 and isinstance(b, ndarray) and b.ndim in (1, 2)
            and b.shape[0] == a.shape[0] and a.shape[0] >= a.shape[1] >= 1 and (b.ndim == 1 or b.shape[1] >= 1))
    dt = _use(a, b, side=a.shape[1] if fits else 0)
    if dt:  # cast once: the factorisations and the residuals read these values
        a_, b_ = a.astype(dt, copy=False), b.astype(dt, copy=False)
        a_._materialize(), b_._materialize()
    s = svd(a_, compute_uv=False) if dt else None
    if s is not None:
        m, n = a.shape
        cut = (_np.finfo(s.dtype).eps * max(m, n) if rcond is None else rcond) * float(s.max())
        rank = int((s > cut).sum())
        if rank == n:
            from .._products import matmul
            q, r = qr(a_)
            x = solve(r, matmul(q.T.conj() if dt.startswith("complex") else q.T, b_))
            if m > n:
                d = b_ - matmul(a_, x)
                d2 = (d.real * d.real + d.imag * d.imag) if dt.startswith("complex") else d * d
                res = d2.sum(axis=0)
                if b.ndim == 1:  # (a scalar sum: NumPy's residuals are then of shape (1,))
                    from .._creation import asarray
                    res = asarray(_np.asarray(res).reshape(1))
            else:
                from .._creation import empty
                res = empty((0,), s.dtype)
            return x, res, _np.int32(rank), s
    return _root.call(_np.linalg.lstsq, (a, b), {"rcond": rcond})


for _f, _np_f in ((cholesky, _np.linalg.cholesky), (solve, _np.linalg.solve), (inv, _np.linalg.inv),
                  (qr, _np.linalg.qr), (eigh, _np.linalg.eigh), (eigvalsh, _np.linalg.eigvalsh),
                  (svd, _np.linalg.svd), (svdvals, _np.linalg.svdvals)):
    _least = VECTORS_MIN if _f in (eigh, svd) else DISTRIBUTED_MIN
    _f.__doc__ = (f"numpy.linalg.{_f.__name__}: on every rank (ScaLAPACK) for matrices of at least "
                  f"{_least} rows and columns at 2 or more ranks"
                  + (f" ({DISTRIBUTED_MIN} with compute_uv=False)" if _f is svd else "")
                  + ", else NumPy's LAPACK on one rank."
                  f"\n\n{_np_f.__doc__ or ''}")
    _f.__wrapped__ = _np_f
del _f, _np_f, _least
