"""cg, bicgstab, gmres and minres with SciPy's signatures and returns
(x, info), run by maniple's C Krylov solvers (solvers/): the iterations,
reductions and preconditioners are C; Python is called only for a user's
operator, preconditioner or callback. The C solvers are real: a complex
system (A, b or x0 complex) goes to cg, bicgstab and gmres written over
maniple vectors (_isolve_complex), and minres refuses it.

A maniple sparse matrix goes to the C solver as it is (with partition=
"graph", "metis", "ptscotch" or "equal", its renumbered copy, b and x moved there and back).
A SciPy sparse matrix is made a maniple one first (every rank must pass
the same). Anything else goes through aslinearoperator and is called back.

info: 0 converged; maxiter when the iterations ran out or the true residual
stopped decreasing above the tolerance (SciPy's
convention); negative when the method stopped early: -10 breakdown (a
zero divisor), -20 an indefinite operator or preconditioner met by CG,
-30 NaN or Inf in the residual. x is a maniple.numpy array."""
import math
import numbers

import numpy as _np

import maniple.numpy as _mnp
from maniple import _core

from ._interface import LinearOperator, aslinearoperator, _is_scipy_sparse, _is_sparse
from . import _isolve_complex as _cplx

# maniple's own extension: M may name a C preconditioner
PRECONDITIONERS = ("jacobi", "bjacobi_ilu0", "bjacobi_sgs")

_NEGATIVE = {"diverged_breakdown": -10, "diverged_indefinite": -20, "diverged_nan": -30}


def _check_tol(name, value, what):
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} called with invalid {what}: {value!r} (need a finite number >= 0)")
    return float(value)


def _check_maxiter(name, maxiter, default):
    if maxiter is None:
        return default
    if isinstance(maxiter, bool) or not isinstance(maxiter, numbers.Integral) or maxiter < 1:
        raise ValueError(f"{name} called with invalid maxiter: {maxiter!r} (need an integer >= 1)")
    return int(maxiter)


def _float_dtype(*dts):
    dt = _np.result_type(*dts)
    if dt.kind == "c":
        raise TypeError(f"maniple's minres is real: complex dtype {dt} is not supported (cg, bicgstab and gmres "
                        "solve complex systems)")
    return _np.dtype(_np.float32) if dt == _np.float32 else _np.dtype(_np.float64)


def _as_vector(v, n, what, A_shape, dtype):
    """v as a fresh maniple 1-d array of dtype (a copy: the solver writes it)."""
    v = v if isinstance(v, _mnp.ndarray) else _mnp.asarray(_np.asarray(v))
    if v.shape not in ((n,), (n, 1)):
        raise ValueError(f"shapes of A {A_shape} and {what} {v.shape} are incompatible")
    return v.reshape(n).astype(dtype, copy=True)


class _Problem:
    """The operator as the C solver takes it, and the numbering it works in."""

    def __init__(self, name, A, shift):
        if _is_scipy_sparse(A):
            import maniple.sparse as _sp
            A = _sp.csr_array(A)
        self.part = None
        if _is_sparse(A):
            if A.ndim != 2 or A.shape[0] != A.shape[1]:
                raise ValueError(f"expected square matrix, but got shape={A.shape}")
            ints = A.dtype.kind in "biu"  # the C solvers are float: an integer or bool matrix as float64
            if shift:
                import maniple.sparse as _sp
                A = (A.astype(_np.float64) if ints else A) - shift * _sp.eye_array(A.shape[0], format="csr")
                ints = False
            self.shape, self.dtype = A.shape, _np.dtype(_np.float64 if ints else A.dtype)
            self.csr = A._A if A._Ap is None else A._Ap
            if ints:  # converted once and kept with A while it is unchanged (solves in a loop)
                self.csr = A._in_dtype(self.csr, "float64")
            self.part = A._part
            self.op = None
        else:
            op = aslinearoperator(A)
            if op.shape[0] != op.shape[1]:
                raise ValueError(f"expected square matrix, but got shape={op.shape}")
            if shift:
                op = op - shift * _IdentityLike(op)
            self.shape, self.dtype = op.shape, _np.dtype(op.dtype if op.dtype is not None else _np.float64)
            self.csr, self.op = None, op
        self.n = self.shape[0]
        self.name = name

    def to_solver(self, v):
        """a maniple 1-d array (user's numbering) -> a _core array in the solver's"""
        c = v._materialize()
        if self.part is None:
            return c
        out = _core.create((self.n,), c.dtype)
        self.part.to_new(c, out)
        return out

    def to_user(self, c):
        """a _core array in the solver's numbering -> a maniple array in the user's"""
        if self.part is None:
            return _mnp.ndarray(c)
        out = _core.create((self.n,), c.dtype)
        self.part.to_old(c, out)
        return _mnp.ndarray(out)

    def copy_into(self, y, result):
        """write a user's result (user's numbering) into the C vector y"""
        r = result if isinstance(result, _mnp.ndarray) else _mnp.asarray(_np.asarray(result))
        r = r.reshape(self.n)
        if self.part is None:
            _mnp.ndarray(y)[...] = r
        else:
            self.part.to_new(r.astype(y.dtype)._materialize(), y)

    def shell(self, f):
        """a C-callable f(x, y) around y = f(x), x and y in the solver's numbering"""
        def apply(x, y):
            self.copy_into(y, f(self.to_user(x)))
        return apply


class _IdentityLike(LinearOperator):
    def __init__(self, op):
        super().__init__(op.dtype, op.shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x


def _run(name, method, A, b, x0, rtol, atol, maxit, M, monitor=None, shift=0.0, restart=None, dtype=None):
    """Set up and run one C solve; returns (problem, x in the solver's
    numbering as a _core array, result tuple, bnorm)."""
    P = _Problem(name, A, shift)
    bb = b if isinstance(b, _mnp.ndarray) else _mnp.asarray(_np.asarray(b))
    dt = dtype or _float_dtype(P.dtype, bb.dtype)
    b = _as_vector(bb, P.n, "b", P.shape, dt)
    x = _mnp.zeros(P.n, dtype=dt) if x0 is None else _as_vector(x0, P.n, "x0", P.shape, dt)
    opts = f"-solver {method}"
    pc_shell = pc_mat = None
    if M is None:
        pass
    elif isinstance(M, str):
        if M not in PRECONDITIONERS:
            raise ValueError(f"{name}: unknown preconditioner {M!r} (maniple's are {', '.join(PRECONDITIONERS)})")
        if M != "jacobi" and P.csr is None:
            raise ValueError(f"{name}: preconditioner {M!r} needs a sparse matrix, not a {type(A).__name__}")
        opts += f" -pc {M}"
    elif _is_sparse(M) or _is_scipy_sparse(M):
        # a sparse M runs in C (a diagonal one as the fused Jacobi scale)
        import maniple.sparse as _sp
        Ms = M if _is_sparse(M) else _sp.csr_array(M)
        Ms = Ms.astype(_np.float64) if Ms.dtype.kind in "biu" else Ms
        if Ms.ndim != 2 or tuple(Ms.shape) != P.shape:
            raise ValueError(f"shapes of A {P.shape} and M {tuple(Ms.shape)} are incompatible")
        pc_mat = Ms._A if P.part is None else Ms._A.permute(P.part)
    else:
        Mop = aslinearoperator(M)
        if Mop.shape != P.shape:
            raise ValueError(f"shapes of A {P.shape} and M {Mop.shape} are incompatible")
        pc_shell = P.shell(Mop.matvec)
    if restart is not None:
        opts += f" -restart {int(restart)}"
    if P.csr is not None:
        S = _core.solver(P.csr, P.n, dt.name, opts)
    else:
        S = _core.solver(P.shell(P.op.matvec), P.n, dt.name, opts)
        if M == "jacobi":
            raise ValueError(f"{name}: preconditioner 'jacobi' needs a sparse matrix (a LinearOperator has no diagonal)")
    if pc_shell is not None:
        S.set_pc_shell(pc_shell)
        S.set_options("-pc shell")
    if pc_mat is not None:
        S.set_pc_matrix(pc_mat)
    S.set_tolerances(rtol, atol, maxit)
    xc, bc = P.to_solver(x), P.to_solver(b)  # x is a fresh copy: the solver writes it
    if monitor is not None:
        S.set_monitor(monitor(S, P, xc))
    res = S.solve(bc, xc)
    return P, S, xc, bc, res


def _info(res, maxiter):
    its, rnorm, reason, converged = res
    if converged:
        return 0
    return _NEGATIVE.get(reason, maxiter)


def _x_monitor(callback):
    """monitor calling callback(xk) with the current iterate"""
    if callback is None:
        return None

    def make(S, P, xc):
        def mon(it, rnorm):
            if it == 0:  # SciPy calls back after iterations only
                return False
            cur = _core.create((P.n,), xc.dtype)
            S.iterate(cur)
            callback(P.to_user(cur))
            return False
        return mon
    return make


def _solve_x(name, method, A, b, x0, rtol, atol, maxiter, M, callback, shift=0.0):
    rtol = _check_tol(name, rtol, "rtol")
    atol = _check_tol(name, atol, "atol")
    n = _shape_n(A)
    maxit = _check_maxiter(name, maxiter, 10 * n)
    if name in ("cg", "bicgstab") and _cplx.is_complex(A, b, x0):
        return getattr(_cplx, name)(A, b, x0, rtol, atol, maxit, M, callback)
    P, S, xc, bc, res = _run(name, method, A, b, x0, rtol, atol, maxit, M, _x_monitor(callback), shift)
    return P.to_user(xc), _info(res, maxit)


def _shape_n(A):
    s = getattr(A, "shape", None)
    if s is None:
        s = _np.shape(A)
    if len(s) != 2:
        raise ValueError(f"expected a 2-d operator, got shape {tuple(s)}")
    return int(s[0])


def cg(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """Conjugate gradients for symmetric (Hermitian, when complex) positive
    definite A (SciPy's signature; a complex system runs in Python over
    maniple vectors, _isolve_complex). M: a preconditioner approximating A^-1 (matrix or
    LinearOperator), or maniple's name for a C one ('jacobi',
    'bjacobi_ilu0', 'bjacobi_sgs'). Stops when ||b - A x|| <=
    max(rtol ||b||, atol). callback(xk) after each iteration."""
    return _solve_x("cg", "cg", A, b, x0, rtol, atol, maxiter, M, callback)


def bicgstab(A, b, x0=None, *, rtol=1e-5, atol=0.0, maxiter=None, M=None, callback=None):
    """BiCGStab for general A (SciPy's signature; M and callback as cg's)."""
    return _solve_x("bicgstab", "bicgstab", A, b, x0, rtol, atol, maxiter, M, callback)


def minres(A, b, x0=None, *, rtol=1e-5, shift=0.0, maxiter=None, M=None, callback=None, show=False, check=False):
    """MINRES for symmetric (possibly indefinite) A - shift I (SciPy's
    signature). Stops when ||b - A x|| <= rtol ||b||. `check` is accepted
    and ignored (A's symmetry is not checked); `show` prints a summary on
    rank 0."""
    if isinstance(shift, bool) or not isinstance(shift, numbers.Real):
        raise ValueError(f"minres called with invalid shift: {shift!r}")
    x, info = _solve_x("minres", "minres", A, b, x0, rtol, 0.0, maxiter, M, callback, shift=float(shift))
    if show:
        print(f"minres: info = {info}")
    return x, info


def gmres(A, b, x0=None, *, rtol=1e-5, atol=0.0, restart=None, maxiter=None, M=None, callback=None,
          callback_type=None):
    """Restarted GMRES (SciPy's signature): restart (default 20) inner
    iterations per cycle, maxiter cycles (default 10 n; inner iterations
    with callback_type='legacy'). Left preconditioned; convergence is
    confirmed on the true residual ||b - A x|| <= max(rtol ||b||, atol).
    callback(pr_norm) gets the preconditioned residual norm over ||b||
    after each inner iteration ('pr_norm', 'legacy'), callback(xk) the
    iterate after each cycle ('x')."""
    rtol = _check_tol("gmres", rtol, "rtol")
    atol = _check_tol("gmres", atol, "atol")
    if callback_type is None:
        callback_type = "legacy"
    if callback_type not in ("x", "pr_norm", "legacy"):
        raise ValueError(f"Unknown callback_type: {callback_type!r}")
    n = _shape_n(A)
    if restart is not None and (isinstance(restart, bool) or not isinstance(restart, numbers.Integral) or restart < 1):
        raise ValueError(f"gmres called with invalid restart: {restart!r} (need an integer >= 1)")
    restart = max(1, min(20 if restart is None else int(restart), n))
    maxiter = _check_maxiter("gmres", maxiter, 10 * n)
    if _cplx.is_complex(A, b, x0):
        return _cplx.gmres(A, b, x0, rtol, atol, restart, maxiter, M, callback, callback_type)
    inner = maxiter if (callback is not None and callback_type == "legacy") else maxiter * restart
    bnorm = None
    if callback is not None and callback_type != "x":
        bb = b if isinstance(b, _mnp.ndarray) else _mnp.asarray(_np.asarray(b))
        bnorm = float(_mnp.linalg.norm(bb.astype(_np.float64))) or 1.0

    def monitor(S, P, xc):
        def mon(it, rnorm):
            if it > 0:  # SciPy calls back after inner iterations only
                callback(rnorm / bnorm)
            return False
        return mon

    if callback is not None and callback_type == "x":
        # one restart cycle per C solve, so each cycle's x is formed; the
        # callback gets it after each cycle, as SciPy's
        P, S, xc, bc, res = _run("gmres", "gmres", A, b, x0, rtol, atol, restart, M, restart=restart)
        used = res[0]
        while True:
            if res[0] > 0:
                callback(P.to_user(xc))
            if res[3] or res[2] != "diverged_maxit" or used >= inner:
                break
            S.set_tolerances(rtol, atol, min(restart, inner - used))
            res = S.solve(bc, xc)
            used += res[0]
    else:
        P, S, xc, bc, res = _run("gmres", "gmres", A, b, x0, rtol, atol, inner, M,
                                 monitor if callback is not None else None, restart=restart)
    info = _info(res, maxiter)
    if M is not None and info == 0:
        # left preconditioning tests M^-1 r: confirm on b - A x, and go on
        # with tighter tolerances while that is not there yet
        used, r_tol, a_tol = res[0], rtol, atol
        tol = max(atol, rtol * float(_mnp.linalg.norm(_mnp.ndarray(bc))))
        for _ in range(8):
            r = _true_residual(P, S, bc, xc)
            if r <= tol or used >= inner:
                break
            r_tol, a_tol = r_tol * max(0.01, 0.5 * tol / r), a_tol * max(0.01, 0.5 * tol / r)
            S.set_tolerances(r_tol, a_tol, inner - used)
            res = S.solve(bc, xc)
            used += res[0]
        info = 0 if _true_residual(P, S, bc, xc) <= tol else _info(res, maxiter) or maxiter
    return P.to_user(xc), info


def _true_residual(P, S, bc, xc):
    """||b - A x|| in the solver's numbering"""
    y = _core.create((P.n,), xc.dtype)
    S.apply(xc, y)
    return float(_mnp.linalg.norm(_mnp.ndarray(bc) - _mnp.ndarray(y)))
