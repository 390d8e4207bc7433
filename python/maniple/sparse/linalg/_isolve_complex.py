"""cg (Hermitian positive definite A), bicgstab and gmres for complex
systems, written over maniple.numpy vectors: the C solvers are real, so
a complex A, b or x0 comes here. Every vector operation and inner product
is a distributed maniple one (the inner products conjugate their first
argument, as NumPy's vdot); the small GMRES least-squares problem is the
same NumPy arithmetic on every rank, since the inner products are.

Stopping and info follow the real solvers: 0 converged on ||b - A x|| <=
max(rtol ||b||, atol); maxiter when the iterations ran out; -10 breakdown
(a zero divisor), -20 a CG operator that is not positive definite, -30
NaN or Inf in the residual."""
import math

import numpy as _np

import maniple.numpy as _mnp

from ._interface import aslinearoperator, _is_scipy_sparse, _is_sparse


def is_complex(A, b, x0):
    """Whether the system is complex (A's or b's dtype; a complex x0 for a
    real system is cast to it, with NumPy's ComplexWarning, as SciPy does)."""
    dts = [getattr(A, "dtype", None), _dtype_of(b)]
    return any(d is not None and _np.dtype(d).kind == "c" for d in dts)


def _dtype_of(v):
    return v.dtype if hasattr(v, "dtype") else _np.asarray(v).dtype


def _vector(v, n, what, shape, dt):
    v = v if isinstance(v, _mnp.ndarray) else _mnp.asarray(_np.asarray(v))
    if v.shape not in ((n,), (n, 1)):
        raise ValueError(f"shapes of A {shape} and {what} {v.shape} are incompatible")
    return v.reshape(n).astype(dt, copy=True)


def _operator(name, A):
    """(n, dtype, A's product) of a sparse matrix or anything aslinearoperator takes"""
    if _is_scipy_sparse(A):
        import maniple.sparse as _sp
        A = _sp.csr_array(A)
    if _is_sparse(A):
        if A.ndim != 2 or A.shape[0] != A.shape[1]:
            raise ValueError(f"expected square matrix, but got shape={A.shape}")
        return A.shape[0], _np.dtype(A.dtype), lambda v: A @ v
    op = aslinearoperator(A)
    if op.shape[0] != op.shape[1]:
        raise ValueError(f"expected square matrix, but got shape={op.shape}")
    n = op.shape[0]
    dt = _np.dtype(op.dtype if op.dtype is not None else _np.complex128)
    return n, dt, lambda v: _as_maniple(op.matvec(v), n)


def _as_maniple(y, n):
    y = y if isinstance(y, _mnp.ndarray) else _mnp.asarray(_np.asarray(y))
    return y.reshape(n)


def _preconditioner(name, M, A, n):
    """M's product (None: the identity)"""
    if M is None:
        return None
    if isinstance(M, str):
        if M != "jacobi":
            raise ValueError(f"{name}: preconditioner {M!r} takes a real matrix; for a complex system maniple has "
                             "'jacobi', or pass M as a matrix or LinearOperator")
        if not (_is_sparse(A) or _is_scipy_sparse(A)):
            raise ValueError(f"{name}: preconditioner 'jacobi' needs a sparse matrix (a LinearOperator has no diagonal)")
        d = _mnp.asarray(A.diagonal())
        bad = _mnp.logical_not(_mnp.isfinite(d)) | (d == 0)
        if bool(bad.any()):
            i = int(_mnp.argmax(bad))
            raise ValueError(f"{name}: Jacobi needs a finite, nonzero diagonal: row {i} has {complex(d[i])}")
        return lambda v: v / d
    if _is_sparse(M) or _is_scipy_sparse(M):
        import maniple.sparse as _sp
        Ms = M if _is_sparse(M) else _sp.csr_array(M)
        if Ms.ndim != 2 or tuple(Ms.shape) != (n, n):
            raise ValueError(f"shapes of A {(n, n)} and M {tuple(Ms.shape)} are incompatible")
        return lambda v: Ms @ v
    Mop = aslinearoperator(M)
    if Mop.shape != (n, n):
        raise ValueError(f"shapes of A {(n, n)} and M {Mop.shape} are incompatible")
    return lambda v: _as_maniple(Mop.matvec(v), n)


def _setup(name, A, b, x0, M):
    n, adt, op = _operator(name, A)
    dt = _np.result_type(adt, _dtype_of(b), _np.complex64)
    dt = _np.dtype(_np.complex64) if dt == _np.complex64 else _np.dtype(_np.complex128)
    b = _vector(b, n, "b", (n, n), dt)
    x = _mnp.zeros(n, dtype=dt) if x0 is None else _vector(x0, n, "x0", (n, n), dt)
    prec = _preconditioner(name, M, A, n)
    return n, op, prec or (lambda v: v), b, x


def _norm(v):
    return float(_mnp.linalg.norm(v))


def _bad(v):
    return not math.isfinite(v)


def _iterated(x, r, tol, callback):
    """After an iteration: the callback, then info when the solve stops
    here (0 converged, -30 NaN or Inf), else None"""
    rn = _norm(r)
    if callback is not None:
        callback(x)
    if _bad(rn):
        return -30
    return 0 if rn <= tol else None


def cg(A, b, x0, rtol, atol, maxiter, M, callback):
    n, op, prec, b, x = _setup("cg", A, b, x0, M)
    if _norm(b) == 0:  # SciPy's answer for b = 0, whatever x0
        return _mnp.zeros(n, dtype=b.dtype), 0
    maxiter = 10 * n if maxiter is None else maxiter
    tol = max(rtol * _norm(b), atol)
    r = b - op(x)
    rn = _norm(r)
    if rn <= tol:
        return x, 0
    z = prec(r)
    p = z.copy()
    rz = _mnp.vdot(r, z)
    for _ in range(maxiter):
        q = op(p)
        pq = _mnp.vdot(p, q)
        if pq.real <= 0 or rz.real <= 0:
            return x, (-30 if _bad(abs(pq)) else -20)
        alpha = rz / pq
        x += alpha * p
        r -= alpha * q
        done = _iterated(x, r, tol, callback)
        if done is not None:
            return x, done
        z = prec(r)
        rz_new = _mnp.vdot(r, z)
        p = z + (rz_new / rz) * p
        rz = rz_new
    return x, maxiter


def bicgstab(A, b, x0, rtol, atol, maxiter, M, callback):
    n, op, prec, b, x = _setup("bicgstab", A, b, x0, M)
    if _norm(b) == 0:  # SciPy's answer for b = 0, whatever x0
        return _mnp.zeros(n, dtype=b.dtype), 0
    maxiter = 10 * n if maxiter is None else maxiter
    tol = max(rtol * _norm(b), atol)
    r = b - op(x)
    if _norm(r) <= tol:
        return x, 0
    rhat = r.copy()
    rho_prev = alpha = omega = None
    p = v = None
    for _ in range(maxiter):
        rho = _mnp.vdot(rhat, r)
        if rho == 0:
            return x, -10
        if p is None:
            p = r.copy()
        else:
            if omega == 0:
                return x, -10
            p = r + ((rho / rho_prev) * (alpha / omega)) * (p - omega * v)
        ph = prec(p)
        v = op(ph)
        rv = _mnp.vdot(rhat, v)
        if rv == 0:
            return x, -10
        alpha = rho / rv
        s = r - alpha * v
        sn = _norm(s)
        if _bad(sn):
            return x, -30
        if sn <= tol:
            x += alpha * ph
            if callback is not None:
                callback(x)
            return x, 0
        sh = prec(s)
        t = op(sh)
        tt = _mnp.vdot(t, t)
        if tt == 0:
            return x, -10
        omega = _mnp.vdot(t, s) / tt
        x += alpha * ph + omega * sh
        r = s - omega * t
        done = _iterated(x, r, tol, callback)
        if done is not None:
            return x, done
        rho_prev = rho
    return x, maxiter


def gmres(A, b, x0, rtol, atol, restart, maxiter, M, callback, callback_type):
    """Restarted GMRES, preconditioned on the right (its residual estimate
    is the true residual's; each cycle ends on the true one). maxiter
    cycles of restart inner iterations (inner iterations in all with
    callback_type 'legacy' and a callback, as SciPy counts)."""
    n, op, prec, b, x = _setup("gmres", A, b, x0, M)
    if _norm(b) == 0:  # SciPy's answer for b = 0, whatever x0
        return _mnp.zeros(n, dtype=b.dtype), 0
    bnorm = _norm(b)
    tol = max(rtol * bnorm, atol)
    inner_left = maxiter if (callback is not None and callback_type == "legacy") else maxiter * restart
    scale = bnorm or 1.0
    r = b - op(x)
    beta = _norm(r)
    while inner_left > 0:
        if _bad(beta):
            return x, -30
        if beta <= tol:
            return x, 0
        m = min(restart, inner_left)
        V = [r / beta]
        H = _np.zeros((m + 1, m), dtype=_np.complex128)
        cs = _np.zeros(m)
        sn = _np.zeros(m, dtype=_np.complex128)
        g = _np.zeros(m + 1, dtype=_np.complex128)
        g[0] = beta
        Z = []
        k = 0
        for j in range(m):
            Z.append(prec(V[j]))
            w = op(Z[j])
            for i in range(j + 1):  # modified Gram-Schmidt
                H[i, j] = _mnp.vdot(V[i], w)
                w = w - H[i, j] * V[i]
            hn = _norm(w)
            H[j + 1, j] = hn
            for i in range(j):  # the earlier rotations
                t = cs[i] * H[i, j] + sn[i] * H[i + 1, j]
                H[i + 1, j] = -_np.conj(sn[i]) * H[i, j] + cs[i] * H[i + 1, j]
                H[i, j] = t
            a, c = H[j, j], H[j + 1, j]
            d = math.hypot(abs(a), abs(c))
            if d == 0:
                cs[j], sn[j] = 1.0, 0.0
            elif a == 0:
                cs[j], sn[j] = 0.0, _np.conj(c) / abs(c)
            else:
                cs[j], sn[j] = abs(a) / d, (a / abs(a)) * _np.conj(c) / d
            H[j, j] = cs[j] * a + sn[j] * c
            H[j + 1, j] = 0
            g[j + 1] = -_np.conj(sn[j]) * g[j]
            g[j] = cs[j] * g[j]
            k = j + 1
            inner_left -= 1
            if callback is not None and callback_type != "x":
                callback(abs(g[j + 1]) / scale)
            if abs(g[j + 1]) <= tol or H[j, j] == 0 or hn == 0 or _bad(hn):
                break  # converged, a breakdown, or the exact solution (hn 0)
            V.append(w / hn)
        if k and H[k - 1, k - 1] == 0:  # a breakdown: the column before it
            k -= 1
        y = _np.linalg.solve(_np.triu(H[:k, :k]), g[:k]) if k else _np.zeros(0)
        for i in range(k):
            x += complex(y[i]) * Z[i]
        if callback is not None and callback_type == "x":
            callback(x)
        r = b - op(x)
        beta = _norm(r)
    if _bad(beta):
        return x, -30
    return x, 0 if beta <= tol else maxiter

