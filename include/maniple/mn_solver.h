/* maniple linear operators, preconditioners and Krylov solvers (solvers/
 * layer), for simulation codes as PETSc's KSP serves them: hand over an
 * operator and a right-hand side, get the solution, the iteration count,
 * the residual history and why it stopped. Every function is collective
 * over the context. Vectors are 1-d mn_arrays of the operator's size (any
 * layout; the default layout is the fast path). */
#ifndef MANIPLE_MN_SOLVER_H
#define MANIPLE_MN_SOLVER_H

#include "mn_array.h"
#include "mn_sparse.h"
#include "mn_stencil.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- operators ---- */
typedef struct mn_op_s mn_op;
/* y = A x for a user's operator; returns a maniple error code (0: fine).
 * Collective: every rank makes the same maniple calls (a rank that fails
 * still takes part, and raises its error with MN_CHECK / MN_ERR; the code
 * is agreed after the call). The solvers pass 1-d float64 vectors in the
 * default layout. Preconditioner shells have the same form (y = M^-1 x). */
typedef int (*mn_op_apply_fn)(void *user, const mn_array *x, mn_array *y);
/* Over a square CSR matrix (not copied: A must outlive the operator); its
 * diagonal is known. */
MN_EXTERN int mn_op_create_csr(const mn_csr *A, mn_op **op);
/* Matrix-free: n x n, values of dtype (float32 or float64; the solvers
 * work in float64), apply called with the user's data. */
MN_EXTERN int mn_op_create_shell(mn_ctx *ctx, int64_t n, mn_dtype dtype, mn_op_apply_fn apply, void *user, mn_op **op);
/* Matrix-free over a stencil (not copied: s must outlive the operator) on
 * a grid of grid's shape, split as grid is (its layout; its values, dtype
 * and halo do not matter). Vectors are 1-d of the grid's size, the grid
 * points in C order; the product moves x into a halo'd grid, applies the
 * stencil with its boundary conditions and moves the result into y. The
 * conditions must be homogeneous (Dirichlet values 0), else A x + g is
 * not linear: MN_ERR_ARG, at creation and at every product. The diagonal
 * is known (mn_stencil_diagonal), so Jacobi works. float32 or float64
 * (grid's dtype; float64 when grid is not a float array). */
MN_EXTERN int mn_op_create_stencil(mn_stencil *s, const mn_array *grid, mn_op **op);
/* Give a shell operator its diagonal (copied), for Jacobi preconditioning
 * and the Jacobi iteration (MN_ERR_ARG for a CSR or stencil operator). */
MN_EXTERN int mn_op_set_diagonal(mn_op *op, const mn_array *d);
MN_EXTERN int mn_op_apply(const mn_op *op, const mn_array *x, mn_array *y);
/* MN_ERR_NOTIMPL when the operator has no known diagonal. */
MN_EXTERN int mn_op_get_diagonal(const mn_op *op, mn_array *d);
MN_EXTERN int64_t mn_op_size(const mn_op *op);
MN_EXTERN int mn_op_destroy(mn_op **op);

/* ---- solvers ---- */
typedef enum {
  MN_KSP_CG = 0,     /* preconditioned conjugate gradients (two reductions per iteration) */
  MN_KSP_CG1,        /* CG with one fused reduction per iteration (Chronopoulos-Gear) */
  MN_KSP_JACOBI,     /* stationary: x += omega M^-1 (b - A x), M = D unless another pc is set */
  MN_KSP_BICGSTAB,
  MN_KSP_GMRES,      /* restarted GMRES(m), left preconditioned: tests ||M^-1 r|| <= rtol ||M^-1 b|| */
  MN_KSP_MINRES      /* symmetric A, SPD M: tests sqrt(r.M^-1 r) <= rtol sqrt(b.M^-1 b) */
} mn_ksp_type;

typedef enum {
  MN_PC_NONE = 0,
  MN_PC_JACOBI,          /* the operator's diagonal (a zero entry: MN_ERR_ARG naming the row) */
  MN_PC_BJACOBI_ILU0,    /* ILU(0) of each rank's diagonal block (CSR operators; zero pivot: MN_ERR_ARG) */
  MN_PC_BJACOBI_SGS,     /* one symmetric Gauss-Seidel sweep on each rank's block */
  MN_PC_SHELL,           /* the user's z = M^-1 r (mn_solver_set_pc_shell) */
  MN_PC_MATRIX           /* z = M r for a sparse M (mn_solver_set_pc_matrix) */
} mn_pc_type;

typedef enum {
  MN_STOP_NONE = 0,          /* not solved yet */
  MN_CONVERGED_RTOL,         /* ||r|| <= rtol ||b|| */
  MN_CONVERGED_ATOL,         /* ||r|| <= atol; b = 0 (x = 0) */
  MN_CONVERGED_ITS,          /* the iterations asked for, with no convergence test */
  MN_DIVERGED_MAXIT,         /* maxit reached without converging */
  MN_DIVERGED_BREAKDOWN,     /* a zero divisor (BiCGStab's rho or omega, GMRES's, ...) */
  MN_DIVERGED_INDEFINITE,    /* CG met p.Ap <= 0 (or a preconditioner that is not positive) */
  MN_DIVERGED_NAN,           /* NaN or Inf in the residual */
  MN_STOPPED_BY_MONITOR,     /* the monitor returned nonzero */
  MN_DIVERGED_STAGNATION     /* the method claimed convergence, the true residual b - A x was above the
                                tolerance, and restarting from x no longer reduced it (the accuracy
                                the operator allows, e.g. a float32 matrix under rtol 1e-10) */
} mn_stop_reason;
MN_EXTERN const char *mn_stop_reason_name(mn_stop_reason r);
/* 1 for the CONVERGED_* reasons, 0 for the others */
MN_EXTERN int mn_stop_reason_converged(mn_stop_reason r);

typedef struct mn_solver_s mn_solver;
/* Called with the initial residual (it = 0) and after every iteration with
 * the residual norm that the method tests (the preconditioned one for
 * GMRES, as PETSc's default; NaN under skip_test); a nonzero return on any
 * rank stops the solve on every rank (MN_STOPPED_BY_MONITOR). */
typedef int (*mn_monitor_fn)(void *user, int64_t it, double rnorm);

MN_EXTERN int mn_solver_create(mn_ctx *ctx, mn_solver **s);
MN_EXTERN int mn_solver_destroy(mn_solver **s);
/* The operator is not copied: it must outlive the solves. Settings must be
 * the same on every rank (checked at each solve: MN_ERR_ARG). */
MN_EXTERN int mn_solver_set_operator(mn_solver *s, mn_op *A);
MN_EXTERN int mn_solver_set_method(mn_solver *s, mn_ksp_type t);
MN_EXTERN int mn_solver_set_pc(mn_solver *s, mn_pc_type t);
MN_EXTERN int mn_solver_set_pc_shell(mn_solver *s, mn_op_apply_fn apply, void *user);
/* The preconditioner z = M r of a sparse matrix M approximating A^-1 (as
 * SciPy's M=), the operator's size and rows: its product, with no user
 * call per iteration; a diagonal M (every stored entry on the diagonal,
 * as diags(1 / A.diagonal()) gives) is the fused Jacobi scale by M's
 * diagonal. M is not copied: it must outlive the solves. */
MN_EXTERN int mn_solver_set_pc_matrix(mn_solver *s, const mn_csr *M);
/* rtol relative to ||b||, atol absolute, maxit iterations (defaults 1e-8,
 * 0, 10000). rtol = atol = 0 with skip_test: exactly maxit iterations. */
MN_EXTERN int mn_solver_set_tolerances(mn_solver *s, double rtol, double atol, int64_t maxit);
/* No convergence test and no residual norm (PETSc's -ksp_convergence_test
 * skip -ksp_norm_type none): exactly maxit iterations, MN_CONVERGED_ITS, no
 * history, rnorm NaN; the method's own dot products still catch NaN. */
MN_EXTERN int mn_solver_set_skip_test(mn_solver *s, int skip);
MN_EXTERN int mn_solver_set_restart(mn_solver *s, int m);       /* GMRES (default 30) */
MN_EXTERN int mn_solver_set_omega(mn_solver *s, double omega);  /* weighted Jacobi (default 1) */
MN_EXTERN int mn_solver_set_monitor(mn_solver *s, mn_monitor_fn fn, void *user);
/* PETSc-style options, e.g. "-solver cg -pc jacobi -rtol 1e-8 -atol 0
 * -maxit 200 -restart 30 -omega 0.8 -skip_test": names are cg, cg1,
 * jacobi, bicgstab, gmres, minres; none, jacobi, bjacobi_ilu0, bjacobi_sgs,
 * shell (after mn_solver_set_pc_shell), matrix (after mn_solver_set_pc_matrix).
 * An unknown option or value, or a
 * malformed number, is MN_ERR_ARG naming it (every rank), and nothing is
 * changed. */
MN_EXTERN int mn_solver_set_options(mn_solver *s, const char *options);
/* Solve A x = b; x holds the initial guess on entry. b and x: any arrays of
 * the operator's size (copied when not float64 1-d in the default layout).
 * Not converging is no error: see the stop reason. The preconditioner's
 * set-up is kept for the next solve while the operator (and M) is the same
 * CSR matrix with the same values, as PETSc's PCSetUp; else made anew. */
MN_EXTERN int mn_solver_solve(mn_solver *s, const mn_array *b, mn_array *x);
MN_EXTERN int mn_solver_get_result(const mn_solver *s, int64_t *iterations, double *rnorm, mn_stop_reason *reason);
/* From the monitor, during a solve (collective): the current iterate into
 * x (the operator's size, any layout). CG, CG1, Jacobi, BiCGStab and
 * MINRES update x every iteration; GMRES forms it at the end of each
 * restart cycle, so it gives the iterate of the last restart. */
MN_EXTERN int mn_solver_get_iterate(const mn_solver *s, mn_array *x);
/* Residual norms after each iteration (index 0: the initial residual),
 * valid until the next solve or destroy; none under skip_test. */
MN_EXTERN int mn_solver_get_history(const mn_solver *s, int64_t *n, const double **norms);

#ifdef __cplusplus
}
#endif
#endif
