"""maniple.sparse.linalg: scipy.sparse.linalg's iterative solvers (cg,
bicgstab, gmres, minres) over maniple's C Krylov solvers, LinearOperator,
aslinearoperator, norm, and spsolve (a direct solve gathered to rank 0,
for small systems). Change `scipy.sparse.linalg` to
`maniple.sparse.linalg`; results are maniple.numpy arrays."""
from ._dsolve import spsolve
from ._interface import IdentityOperator, LinearOperator, MatrixLinearOperator, aslinearoperator
from ._isolve import PRECONDITIONERS, bicgstab, cg, gmres, minres
from ._norm import norm

__all__ = ["LinearOperator", "aslinearoperator", "cg", "bicgstab", "gmres", "minres", "norm", "spsolve"]


def __getattr__(name):
    try:
        import scipy.sparse.linalg as _s
    except ImportError:
        _s = None
    if _s is not None and hasattr(_s, name):
        raise AttributeError(f"maniple.sparse.linalg does not implement scipy.sparse.linalg.{name} "
                             "(it has cg, bicgstab, gmres, minres, LinearOperator, aslinearoperator, norm, spsolve)")
    raise AttributeError(f"module 'maniple.sparse.linalg' has no attribute {name!r}")
