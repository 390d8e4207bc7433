"""LinearOperator and aslinearoperator as scipy.sparse.linalg has them: an
object with a shape, a dtype and a product, whose vectors are maniple.numpy
arrays (distributed), so the solvers call it back once per iteration.

A user's matvec may return a maniple or a NumPy array; a NumPy result must
be the same on every rank (each rank keeps its share)."""
import numbers

import numpy as _np

import maniple.numpy as _mnp


def _vec(x, n, what):
    """x as a maniple 1-d or (n, 1) array, its shape checked."""
    x = x if isinstance(x, _mnp.ndarray) else _mnp.asarray(x)
    if x.shape not in ((n,), (n, 1)):
        raise ValueError(f"{what}: dimension mismatch, operand of shape {x.shape} for an operator with {n} columns")
    return x


def _shaped(y, m, like):
    """y (maniple or NumPy) as a maniple array of the shape NumPy's product
    with an operand shaped `like` has: (m,) or (m, 1)."""
    y = y if isinstance(y, _mnp.ndarray) else _mnp.asarray(_np.asarray(y))
    return y.reshape((m,) if len(like) == 1 else (m, 1))


class LinearOperator:
    """A linear operator given by its products. Subclass it and define
    _matvec (and _rmatvec, _matmat, _adjoint as needed), or call
    LinearOperator(shape, matvec, rmatvec=None, matmat=None, dtype=None,
    rmatmat=None). Without dtype, one product with a zero vector finds it."""
    ndim = 2
    __array_ufunc__ = None  # `x @ op` and `x * op` come to us

    def __new__(cls, *args, **kwargs):
        if cls is LinearOperator:
            return super().__new__(_CustomLinearOperator)
        obj = super().__new__(cls)
        if type(obj)._matvec is LinearOperator._matvec and type(obj)._matmat is LinearOperator._matmat:
            raise TypeError("a LinearOperator subclass must define _matvec or _matmat")
        return obj

    def __init__(self, dtype, shape):
        shape = tuple(shape)
        if len(shape) != 2 or not all(isinstance(s, numbers.Integral) and s >= 0 for s in shape):
            raise ValueError(f"invalid shape {shape!r} (must be 2-d, non-negative integers)")
        self.shape = (int(shape[0]), int(shape[1]))
        self.dtype = None if dtype is None else _np.dtype(dtype)

    def _init_dtype(self):
        if self.dtype is None:
            # SciPy tries int8 zeros; maniple's smallest integer is int32
            self.dtype = _np.dtype(self.matvec(_mnp.zeros(self.shape[1], dtype=_np.int32)).dtype)

    # ---- what subclasses define ----
    def _matvec(self, x):
        return self.matmat(x.reshape(-1, 1))

    def _matmat(self, X):
        cols = [self.matvec(X[:, j]).reshape(-1, 1) for j in range(X.shape[1])]
        return _mnp.hstack(cols) if cols else _mnp.zeros((self.shape[0], 0), dtype=self.dtype)

    def _rmatvec(self, x):
        if type(self)._adjoint is LinearOperator._adjoint:
            raise NotImplementedError("rmatvec is not defined for this operator")
        return self.H.matvec(x)

    def _rmatmat(self, X):
        if type(self)._adjoint is LinearOperator._adjoint:
            cols = [self.rmatvec(X[:, j]).reshape(-1, 1) for j in range(X.shape[1])]
            return _mnp.hstack(cols) if cols else _mnp.zeros((self.shape[1], 0), dtype=self.dtype)
        return self.H.matmat(X)

    def _adjoint(self):
        return _AdjointLinearOperator(self)

    def _transpose(self):
        return _TransposedLinearOperator(self)

    # ---- products ----
    def matvec(self, x):
        x = _vec(x, self.shape[1], "matvec")
        return _shaped(self._matvec(x), self.shape[0], x.shape)

    def rmatvec(self, x):
        x = _vec(x, self.shape[0], "rmatvec")
        return _shaped(self._rmatvec(x), self.shape[1], x.shape)

    def matmat(self, X):
        X = X if isinstance(X, _mnp.ndarray) else _mnp.asarray(X)
        if X.ndim != 2 or X.shape[0] != self.shape[1]:
            raise ValueError(f"matmat: dimension mismatch, operand of shape {X.shape} for shape {self.shape}")
        return self._matmat(X)

    def rmatmat(self, X):
        X = X if isinstance(X, _mnp.ndarray) else _mnp.asarray(X)
        if X.ndim != 2 or X.shape[0] != self.shape[0]:
            raise ValueError(f"rmatmat: dimension mismatch, operand of shape {X.shape} for shape {self.shape}")
        return self._rmatmat(X)

    def __call__(self, x):
        return self * x

    def dot(self, x):
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(self, x)
        if _np.isscalar(x):
            return _ScaledLinearOperator(self, x)
        x = x if isinstance(x, _mnp.ndarray) else _mnp.asarray(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1):
            return self.matvec(x)
        if x.ndim == 2:
            return self.matmat(x)
        raise ValueError(f"expected a 1-d or 2-d array or matrix, got shape {x.shape}")

    def __mul__(self, x):
        return self.dot(x)

    def __matmul__(self, x):
        if _np.isscalar(x):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.dot(x)

    def __rmatmul__(self, x):
        if _np.isscalar(x):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self._rdot(x)

    def __rmul__(self, x):
        if _np.isscalar(x):
            return _ScaledLinearOperator(self, x)
        return self._rdot(x)

    def _rdot(self, x):
        """x @ A = (A^T x^T)^T"""
        if isinstance(x, LinearOperator):
            return _ProductLinearOperator(x, self)
        x = x if isinstance(x, _mnp.ndarray) else _mnp.asarray(x)
        if x.ndim == 1 or (x.ndim == 2 and x.shape[0] == 1):
            return self.T.matvec(x.reshape(-1)).reshape(x.shape[:-1] + (self.shape[1],))
        if x.ndim == 2:
            return self.T.matmat(x.T).T
        raise ValueError(f"expected a 1-d or 2-d array or matrix, got shape {x.shape}")

    def __truediv__(self, s):
        if not _np.isscalar(s):
            raise ValueError("a LinearOperator can only be divided by a scalar")
        return _ScaledLinearOperator(self, 1.0 / s)

    def __pow__(self, p):
        if not (isinstance(p, numbers.Integral) and p >= 0):
            return NotImplemented
        return _PowerLinearOperator(self, int(p))

    def __add__(self, B):
        return _SumLinearOperator(self, B) if isinstance(B, LinearOperator) else NotImplemented

    def __neg__(self):
        return _ScaledLinearOperator(self, -1)

    def __sub__(self, B):
        return self + (-B) if isinstance(B, LinearOperator) else NotImplemented

    def adjoint(self):
        """The conjugate transpose, as a LinearOperator."""
        return self._adjoint()

    def transpose(self):
        return self._transpose()

    H = property(adjoint)
    T = property(transpose)

    def __repr__(self):
        dt = "unspecified dtype" if self.dtype is None else f"dtype={self.dtype}"
        return f"<{self.shape[0]}x{self.shape[1]} {type(self).__name__} with {dt}>"


class _CustomLinearOperator(LinearOperator):
    def __init__(self, shape, matvec, rmatvec=None, matmat=None, dtype=None, rmatmat=None):
        super().__init__(dtype, shape)
        self.args = ()
        self._fm, self._frm, self._fmm, self._frmm = matvec, rmatvec, matmat, rmatmat
        self._init_dtype()

    def _matvec(self, x):
        return self._fm(x)

    def _matmat(self, X):
        return self._fmm(X) if self._fmm is not None else super()._matmat(X)

    def _rmatvec(self, x):
        if self._frm is None:
            raise NotImplementedError("rmatvec is not defined for this operator")
        return self._frm(x)

    def _rmatmat(self, X):
        return self._frmm(X) if self._frmm is not None else super()._rmatmat(X)

    def _adjoint(self):
        return _CustomLinearOperator((self.shape[1], self.shape[0]), self._frm, self._fm,
                                     self._frmm, self.dtype, self._fmm)


class _AdjointLinearOperator(LinearOperator):
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A, self.args = A, (A,)

    def _matvec(self, x):
        return self.A._rmatvec(x)

    def _rmatvec(self, x):
        return self.A._matvec(x)

    def _matmat(self, X):
        return self.A._rmatmat(X)

    def _rmatmat(self, X):
        return self.A._matmat(X)

    def _adjoint(self):
        return self.A


class _TransposedLinearOperator(LinearOperator):
    """A^T x = conj(A^H conj(x))"""
    def __init__(self, A):
        super().__init__(A.dtype, (A.shape[1], A.shape[0]))
        self.A, self.args = A, (A,)

    def _matvec(self, x):
        return _mnp.conj(self.A._rmatvec(_mnp.conj(x)))

    def _rmatvec(self, x):
        return _mnp.conj(self.A._matvec(_mnp.conj(x)))

    def _matmat(self, X):
        return _mnp.conj(self.A._rmatmat(_mnp.conj(X)))

    def _rmatmat(self, X):
        return _mnp.conj(self.A._matmat(_mnp.conj(X)))

    def _transpose(self):
        return self.A


def _common_dtype(*ops):
    dts = [o.dtype for o in ops if o.dtype is not None]
    return _np.result_type(*dts) if dts else None


class _SumLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape != B.shape:
            raise ValueError(f"cannot add {A} and {B}: shape mismatch")
        super().__init__(_common_dtype(A, B), A.shape)
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(x) + self.args[1].matvec(x)

    def _rmatvec(self, x):
        return self.args[0].rmatvec(x) + self.args[1].rmatvec(x)

    def _matmat(self, X):
        return self.args[0].matmat(X) + self.args[1].matmat(X)

    def _rmatmat(self, X):
        return self.args[0].rmatmat(X) + self.args[1].rmatmat(X)

    def _adjoint(self):
        return self.args[0].H + self.args[1].H


class _ProductLinearOperator(LinearOperator):
    def __init__(self, A, B):
        if A.shape[1] != B.shape[0]:
            raise ValueError(f"cannot multiply {A} and {B}: shape mismatch")
        super().__init__(_common_dtype(A, B), (A.shape[0], B.shape[1]))
        self.args = (A, B)

    def _matvec(self, x):
        return self.args[0].matvec(self.args[1].matvec(x))

    def _rmatvec(self, x):
        return self.args[1].rmatvec(self.args[0].rmatvec(x))

    def _matmat(self, X):
        return self.args[0].matmat(self.args[1].matmat(X))

    def _rmatmat(self, X):
        return self.args[1].rmatmat(self.args[0].rmatmat(X))

    def _adjoint(self):
        return self.args[1].H * self.args[0].H


class _ScaledLinearOperator(LinearOperator):
    def __init__(self, A, alpha):
        dt = _np.result_type(A.dtype if A.dtype is not None else _np.float64, type(alpha))
        super().__init__(dt, A.shape)
        self.args = (A, alpha)

    def _matvec(self, x):
        return self.args[1] * self.args[0].matvec(x)

    def _rmatvec(self, x):
        return _np.conj(self.args[1]) * self.args[0].rmatvec(x)

    def _matmat(self, X):
        return self.args[1] * self.args[0].matmat(X)

    def _rmatmat(self, X):
        return _np.conj(self.args[1]) * self.args[0].rmatmat(X)

    def _adjoint(self):
        return _ScaledLinearOperator(self.args[0].H, _np.conj(self.args[1]))


class _PowerLinearOperator(LinearOperator):
    def __init__(self, A, p):
        if A.shape[0] != A.shape[1]:
            raise ValueError(f"a power of {A} needs a square operator")
        super().__init__(A.dtype, A.shape)
        self.args = (A, p)

    def _power(self, f, x):
        for _ in range(self.args[1]):
            x = f(x)
        return x if self.args[1] else x.copy()

    def _matvec(self, x):
        return self._power(self.args[0].matvec, x)

    def _rmatvec(self, x):
        return self._power(self.args[0].rmatvec, x)

    def _matmat(self, X):
        return self._power(self.args[0].matmat, X)

    def _rmatmat(self, X):
        return self._power(self.args[0].rmatmat, X)

    def _adjoint(self):
        return _PowerLinearOperator(self.args[0].H, self.args[1])


class MatrixLinearOperator(LinearOperator):
    """A matrix (maniple sparse, maniple or NumPy dense, SciPy sparse) as an
    operator. Dense NumPy and SciPy sparse matrices are first made maniple
    ones (every rank must pass the same one)."""
    def __init__(self, A):
        A = _as_maniple_matrix(A)
        super().__init__(A.dtype, A.shape)
        self.A, self.args = A, (A,)
        self._AH = None

    def _matvec(self, x):
        return self.A @ x

    def _matmat(self, X):
        return self.A @ X

    def _rmatvec(self, x):
        return self.H.matvec(x)

    def _rmatmat(self, X):
        return self.H.matmat(X)

    def _adjoint(self):
        if self._AH is None:
            self._AH = _AdjointMatrixOperator(self)
        return self._AH


class _AdjointMatrixOperator(MatrixLinearOperator):
    def __init__(self, M):
        A = M.A
        AH = A.conj().T if _is_sparse(A) else _mnp.conj(A).T
        LinearOperator.__init__(self, A.dtype, AH.shape)
        self.A, self.args, self._AH = AH, (AH,), M


class IdentityOperator(LinearOperator):
    def __init__(self, shape, dtype=None):
        super().__init__(dtype, shape)

    def _matvec(self, x):
        return x

    def _rmatvec(self, x):
        return x

    def _matmat(self, X):
        return X

    def _rmatmat(self, X):
        return X

    def _adjoint(self):
        return self


def _is_sparse(A):
    return getattr(A, "_mn_sparse", False)


def _is_scipy_sparse(A):
    return type(A).__module__.startswith("scipy.sparse") and hasattr(A, "tocsr")


def _as_maniple_matrix(A):
    import maniple.sparse as _sp
    if _is_sparse(A) or isinstance(A, _mnp.ndarray):
        return A
    if _is_scipy_sparse(A):
        return _sp.csr_array(A)
    A = _mnp.asarray(_np.asarray(A))
    if A.ndim != 2:
        raise ValueError(f"expected a 2-d matrix, got shape {A.shape}")
    return A


def aslinearoperator(A):
    """A as a LinearOperator: an operator as it is; a maniple or SciPy
    sparse matrix, a maniple or NumPy 2-d array; or anything with `shape`
    and `matvec` (and optionally rmatvec, matmat, rmatmat, dtype)."""
    if isinstance(A, LinearOperator):
        return A
    if _is_sparse(A) or _is_scipy_sparse(A) or isinstance(A, (_mnp.ndarray, _np.ndarray)):
        return MatrixLinearOperator(A)
    if hasattr(A, "shape") and hasattr(A, "matvec"):
        return LinearOperator(A.shape, A.matvec, rmatvec=getattr(A, "rmatvec", None),
                              matmat=getattr(A, "matmat", None), dtype=getattr(A, "dtype", None),
                              rmatmat=getattr(A, "rmatmat", None))
    raise TypeError(f"type not understood: {type(A).__name__} cannot be made a LinearOperator")
