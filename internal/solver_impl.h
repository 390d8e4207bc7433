/* Private: operators, preconditioners and the solver object (solvers/
 * layer, see include/maniple/mn_solver.h). Methods work on the local
 * blocks of float64 work vectors in the default 1-d layout, so every
 * vector of one solve has the same nloc elements on a rank, in the order
 * the CSR's rows are. */
#ifndef MANIPLE_SOLVER_IMPL_H
#define MANIPLE_SOLVER_IMPL_H
#include "csr_shared.h"
#include "mn_impl.h"
#include "kernels/sv.h"
#include "kernels/tri.h"
#include <maniple/mn_solver.h>

/* What one kind of operator provides (op_csr.c, op_shell.c, stencil_op.c):
 * a new kind is one file that fills this table and a create function. */
typedef struct {
  const char *name, *owner; /* "CSR", "matrix": for messages */
  /* y = A x (x and y checked: 1-d arrays of the operator's size) */
  int (*apply)(const mn_op *op, const mn_array *x, mn_array *y);
  /* d = diag(A); NULL when the kind has none (a shell: the one given with
   * mn_op_set_diagonal, if any) */
  int (*diagonal)(const mn_op *op, mn_array *d);
  /* y = A x on the local blocks of float64 work vectors, *xy (if not
   * NULL) the local x.y, fused; NULL: apply, then a separate dot. dv: the
   * context when x and y are device memory (sv kernels' dv), else NULL */
  int (*apply_local)(const mn_op *op, mn_ctx *dv, const double *x, double *y, double *xy);
  void (*destroy)(void *data); /* the kind's data */
} mni_sv_op_ops;

struct mn_op_s {
  mn_ctx *ctx;
  int64_t n;
  mn_dtype dtype;
  const mni_sv_op_ops *ops;
  void *data;             /* the kind's: the matrix, the stencil's grids, the user's function */
  mn_array *diag;         /* shell: the diagonal given, else NULL */
};

/* A new operator of kind ops over data (which it then owns: destroyed by
 * ops->destroy on error too); allocation agreed. */
int mni_sv_op_new(mn_ctx *ctx, int64_t n, mn_dtype dtype, const mni_sv_op_ops *ops, void *data, mn_op **op);
/* The matrix of a CSR operator, else NULL (block preconditioners need it). */
const mn_csr *mni_sv_op_csr(const mn_op *op);

/* A work vector: a default-layout float64 array and its local block, on
 * the side the solve runs (device memory when the solver's dv is set). */
typedef struct {
  mn_array *a;
  double *v;
} mn_wvec;

typedef struct mni_pc_dev_s mni_pc_dev; /* pc_block_dev.c */

/* A preconditioner set up for one solve. */
typedef struct {
  mn_pc_type type;
  int64_t n;              /* local rows */
  double *dinv;           /* JACOBI, SGS: 1 / a_ii of my rows (JACOBI: dw's block) */
  mn_wvec dw;             /* JACOBI: the vector holding them, on the solve's side */
  const int64_t *ptr;     /* SGS, ILU0: my diagonal block's pattern */
  const int32_t *col;
  double *val;            /* its values (ILU0: the factors, unit L) */
  int64_t *dpos;          /* position of a_ii in each row */
  mni_pc_dev *dev;        /* SGS, ILU0 on a device solve: all of the above there */
  mn_op_apply_fn fn;      /* SHELL */
  void *user;
  const mn_csr *mat;      /* MATRIX: M, or its float64 copy (own) */
  mn_csr *own;
  /* what it was made for, kept between solves while all of it holds */
  uint64_t state;         /* the operator's contents, and M's (0: not kept) */
  const mn_op *op;
  const mn_csr *asked_mat;
  mn_pc_type asked;
  mn_ksp_type ksp;
  mn_ctx *dv;
} mn_pc;

struct mn_solver_s {
  mn_ctx *ctx;
  mn_op *A;
  mn_ksp_type ksp;
  mn_pc_type pct;
  mn_op_apply_fn pc_fn;
  void *pc_user;
  const mn_csr *pc_mat;   /* MATRIX: M */
  double rtol, atol, omega;
  int64_t maxit;
  int restart, skip;
  mn_monitor_fn mon;
  void *mon_user;
  /* one solve */
  int64_t nloc;
  double bnorm;           /* the norm tests are relative to */
  mn_pc pc;
  mn_ctx *dv;             /* the context when the solve runs on its device (kernels' dv), else NULL */
  const mn_wvec *cur;     /* the iterate, during a solve (mn_solver_get_iterate) */
  int64_t it0;            /* iterations of earlier runs of this solve (restarts after a claim the
                             true residual did not bear out) */
  /* results */
  int64_t its;
  double rnorm;
  mn_stop_reason reason;
  double *hist;
  int64_t nhist, hcap;
};

/* ---- operators on work vectors ---- */
/* y = s->A x; *xy (if not NULL) = the local part of x.y. */
int mni_sv_apply(mn_solver *s, const mn_wvec *x, mn_wvec *y, double *xy);
/* A user's function (shell operator or preconditioner), its code agreed. */
int mni_sv_call_user(mn_ctx *ctx, mn_op_apply_fn fn, void *user, const mn_array *x, mn_array *y);

/* ---- preconditioners (pc.c, pc_block.c) ---- */
int mni_sv_pc_setup(mn_solver *s);
void mni_sv_pc_reset(mn_pc *pc);
/* z = M^-1 r (z may not alias r) */
int mni_sv_pc_apply(mn_solver *s, const mn_wvec *r, mn_wvec *z);
int mni_sv_pc_block_setup(mn_solver *s);
void mni_sv_pc_block_apply(const mn_pc *pc, const double *r, double *z);
/* the block factors moved to the solve's device, their sweeps' levels
 * with them; z = M^-1 r there; the release (pc_block_dev.c) */
int mni_sv_pc_dev_setup(mn_solver *s);
void mni_sv_pc_dev_apply(mn_solver *s, const double *r, double *z);
void mni_sv_pc_dev_drop(mn_pc *pc);

/* ---- reductions (dots.c) ---- */
/* out[j] = sum over ranks of x[j].y[j], j < k <= 8: one pass, one
 * MPI_Allreduce. */
int mni_sv_dots(mn_ctx *ctx, mn_ctx *dv, int64_t n, int k, const double *const *x, const double *const *y,
                double *out);
/* v[0..k) summed over ranks in one MPI_Allreduce */
int mni_sv_allsum(mn_ctx *ctx, int k, double *v);

/* ---- the profiling log's solver phases ---- */
/* stmt (local kernels over nvec vectors of the solve's length) logged as
 * kind ev: vector updates, or the local part of dot products */
#define MN_SV_LOG(s, ev, nvec, stmt) \
  do { mn_log_begin((s)->ctx, (ev)); stmt; \
       mn_log_end((s)->ctx, (ev), (int64_t)(nvec) * 8 * (s)->nloc); } while (0)
#define MN_SV_UPDATE(s, nvec, stmt) MN_SV_LOG(s, MN_LOG_SV_UPDATE, nvec, stmt)

/* ---- local kernels (kernels.c) ----
 * dv: the context when the vectors are device memory (a device solve:
 * each kernel is one launch through its backend, sv_dev.c), else NULL. */
void mni_sv_launch(mn_ctx *dv, const mni_sv_job *j, double *out);
/* a job with up to two scalars; returns its first sum */
double mni_sv_run1(mn_ctx *dv, int kind, int64_t n, int flags, double a0, double a1, double *const *v, int nv);
double mni_k_dot(mn_ctx *dv, int64_t n, const double *x, const double *y);
/* out[0] = x.y, out[1] = u.v in one pass (local parts) */
void mni_k_dot2(mn_ctx *dv, int64_t n, const double *x, const double *y, const double *u, const double *v,
                double out[2]);
void mni_k_copy(mn_ctx *dv, int64_t n, const double *x, double *y);
void mni_k_axpy(mn_ctx *dv, int64_t n, double a, const double *x, double *y);          /* y += a x */
void mni_k_aypx(mn_ctx *dv, int64_t n, double a, const double *x, double *y);          /* y = x + a y */
void mni_k_waxpy(mn_ctx *dv, int64_t n, double a, const double *x, const double *y, double *w); /* w = a x + y */
void mni_k_scale(mn_ctx *dv, int64_t n, double a, double *x);
void mni_k_mul(mn_ctx *dv, int64_t n, const double *d, const double *x, double *y);   /* y = d x */
/* r = b - q; returns the local r.r */
double mni_k_residual(mn_ctx *dv, int64_t n, const double *b, const double *q, double *r);
/* CG: x += a p, r -= a q; with dinv also z = dinv r, out[0] = r.z; with
 * rr also out[1] = r.r (local parts) */
void mni_k_cg_update(mn_ctx *dv, int64_t n, double a, const double *p, const double *q, double *x, double *r, const double *dinv,
                    double *z, int rr, double *out);
/* CG1: p = u + beta p, s = w + beta s, x += a p, r -= a s; with dinv also
 * u = dinv r, out[0] = r.u; with rr out[1] = r.r */
void mni_k_cg1_update(mn_ctx *dv, int64_t n, double a, double beta, double *u, const double *w, double *p, double *s, double *x,
                     double *r, const double *dinv, int rr, double *out);
void mni_k_axpby(mn_ctx *dv, int64_t n, double a, const double *x, double b, const double *y, double *w); /* w = a x + b y */
/* BiCGStab: p = r + beta (p - omega v) */
void mni_k_bicg_p(mn_ctx *dv, int64_t n, double beta, double omega, const double *r, const double *v, double *p);
/* GMRES: x += sum_j y[j] v[j], j < k, in one pass */
void mni_k_combine(mn_ctx *dv, int64_t n, int k, const double *const *v, const double *y, double *x);
/* MINRES: w = (v - e w1 - d w2) g, x += phi w */
void mni_k_minres_w(mn_ctx *dv, int64_t n, double e, double d, double g, double phi, const double *v, const double *w1,
                   const double *w2, double *w, double *x);

/* ---- the solve's bookkeeping (solver.c) ---- */
/* After iteration it (0: the initial residual): record rnorm, call the
 * monitor, test for NaN, convergence and maxit. Returns 1 (s->reason set)
 * when the solve stops. With skip_test rnorm is not looked at: only the
 * monitor and the iteration count. *err: an error (agreed). */
int mni_sv_test(mn_solver *s, int64_t it, double rnorm, int *err);
/* Stop for a reason found by the method (breakdown, NaN in a dot, ...). */
int mni_sv_stop(mn_solver *s, int64_t it, mn_stop_reason r);
/* The true residual's norm ||b - A x||, in the norm the method tests
 * (confirm.c): GMRES ||M^-1 r||, MINRES sqrt(r.M^-1 r), others ||r||. */
int mni_sv_true_norm(mn_solver *s, const mn_wvec *b, const mn_wvec *x, double *nrm);
/* Equal on every rank when the settings are (solver.c). */
int mni_sv_settings_hash(const mn_solver *s);
static inline int mni_sv_bad(double v) { return !(v - v == 0); } /* NaN or Inf */

/* ---- methods ---- */
/* The norm a method's stopping test measures the residual in (the true
 * residual is checked in the same one, confirm.c). */
typedef enum {
  MNI_SV_NORM_R,   /* ||r|| */
  MNI_SV_NORM_PR,  /* ||M^-1 r|| (left-preconditioned GMRES) */
  MNI_SV_NORM_RPR  /* sqrt(r.M^-1 r) (MINRES) */
} mni_sv_norm;
/* A Krylov method (cg.c, jacobi.c, ...): a new one is a file that defines
 * its table and a line in methods.c. solve: x holds the guess; sets
 * s->its, s->rnorm, s->reason. */
typedef struct {
  const char *name;        /* as -solver names it */
  int (*solve)(mn_solver *s, const mn_wvec *b, mn_wvec *x);
  mni_sv_norm norm;
  mn_pc_type pc_default;   /* the preconditioner when MN_PC_NONE is set (Jacobi: D^-1) */
} mni_sv_method;
extern const mni_sv_method mni_sv_method_cg, mni_sv_method_cg1, mni_sv_method_jacobi, mni_sv_method_bicgstab,
    mni_sv_method_gmres, mni_sv_method_minres;
/* The method of an mn_ksp_type, NULL when there is none (methods.c). */
const mni_sv_method *mni_sv_method_of(mn_ksp_type t);
/* The names, in mn_ksp_type order, into names[] (at most max); returns
 * how many there are. */
int mni_sv_method_names(const char **names, int max);
/* k work vectors of the solve (zero), and their release */
int mni_sv_vecs(mn_solver *s, int k, mn_wvec *v);
void mni_sv_vecs_free(int k, mn_wvec *v);
/* w's block on the host, for code with no device version: read (write 0)
 * keeps the device copy current; after a write, mni_sv_dev moves it back
 * (each a counted copy on a device solve; w->v itself on a host one) */
double *mni_sv_host(const mn_solver *s, const mn_wvec *w, int write);
/* On a device solve, w's device block made the one current copy: after
 * host code or an array operation (mn_op_apply, a user's function)
 * changed w through its array, and before one reads w through it (the
 * kernels write the device block directly, so a host copy made earlier is
 * stale). Nothing on a host solve. */
void mni_sv_dev(const mn_solver *s, const mn_wvec *w);
#endif
