/* The solver object: settings, results, the per-iteration test, and the
 * solve driver (argument checks, copies in and out of the default layout,
 * the preconditioner's set-up, the right-hand side's norm, dispatch). */
#include "solver_impl.h"
#include "spmd.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *mn_stop_reason_name(mn_stop_reason r) {
  static const char *names[] = {"none", "converged_rtol", "converged_atol", "converged_its", "diverged_maxit",
                                "diverged_breakdown", "diverged_indefinite", "diverged_nan", "stopped_by_monitor",
                                "diverged_stagnation"};
  return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "unknown";
}

int mn_stop_reason_converged(mn_stop_reason r) {
  return r == MN_CONVERGED_RTOL || r == MN_CONVERGED_ATOL || r == MN_CONVERGED_ITS;
}

int mn_solver_create(mn_ctx *ctx, mn_solver **s) {
  MN_CHECK(ctx && s, MN_ERR_ARG, "NULL context or output");
  mn_solver *t = calloc(1, sizeof *t);
  MN_CALL(mn_agree(ctx, t ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate a solver")));
  t->ctx = ctx;
  t->ksp = MN_KSP_CG;
  t->pct = MN_PC_NONE;
  t->rtol = 1e-8;
  t->atol = 0;
  t->maxit = 10000;
  t->restart = 30;
  t->omega = 1;
  *s = t;
  return MN_SUCCESS;
}

int mn_solver_destroy(mn_solver **s) {
  if (!s || !*s) return MN_SUCCESS;
  mni_sv_pc_reset(&(*s)->pc);
  free((*s)->hist);
  free(*s);
  *s = NULL;
  return MN_SUCCESS;
}

int mn_solver_set_operator(mn_solver *s, mn_op *A) {
  MN_CHECK(s && A, MN_ERR_ARG, "NULL solver or operator");
  MN_CHECK(A->ctx == s->ctx, MN_ERR_ARG, "the operator belongs to another context than the solver");
  s->A = A;
  return MN_SUCCESS;
}

int mn_solver_set_method(mn_solver *s, mn_ksp_type t) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  MN_CHECK(mni_sv_method_of(t), MN_ERR_ARG, "unknown method %d", (int)t);
  s->ksp = t;
  return MN_SUCCESS;
}

int mn_solver_set_pc(mn_solver *s, mn_pc_type t) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  MN_CHECK(t >= MN_PC_NONE && t <= MN_PC_SHELL, MN_ERR_ARG, "unknown preconditioner %d", (int)t);
  s->pct = t;
  return MN_SUCCESS;
}

int mn_solver_set_pc_shell(mn_solver *s, mn_op_apply_fn apply, void *user) {
  MN_CHECK(s && apply, MN_ERR_ARG, "NULL solver or preconditioner function");
  s->pc_fn = apply;
  s->pc_user = user;
  s->pct = MN_PC_SHELL;
  return MN_SUCCESS;
}

int mn_solver_set_pc_matrix(mn_solver *s, const mn_csr *M) {
  MN_CHECK(s && M, MN_ERR_ARG, "NULL solver or preconditioner matrix");
  s->pc_mat = M;
  s->pct = MN_PC_MATRIX;
  return MN_SUCCESS;
}

int mn_solver_set_tolerances(mn_solver *s, double rtol, double atol, int64_t maxit) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  MN_CHECK(rtol >= 0 && atol >= 0 && isfinite(rtol) && isfinite(atol), MN_ERR_ARG,
           "tolerances must be finite and >= 0 (rtol %g, atol %g)", rtol, atol);
  MN_CHECK(maxit >= 0, MN_ERR_ARG, "maxit %lld must be >= 0", (long long)maxit);
  s->rtol = rtol;
  s->atol = atol;
  s->maxit = maxit;
  return MN_SUCCESS;
}

int mn_solver_set_skip_test(mn_solver *s, int skip) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  s->skip = skip != 0;
  return MN_SUCCESS;
}

int mn_solver_set_restart(mn_solver *s, int m) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  MN_CHECK(m >= 1 && m <= 10000, MN_ERR_ARG, "restart %d must be in [1, 10000]", m);
  s->restart = m;
  return MN_SUCCESS;
}

int mn_solver_set_omega(mn_solver *s, double omega) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  MN_CHECK(omega > 0 && isfinite(omega), MN_ERR_ARG, "omega %g must be finite and > 0", omega);
  s->omega = omega;
  return MN_SUCCESS;
}

int mn_solver_set_monitor(mn_solver *s, mn_monitor_fn fn, void *user) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  s->mon = fn;
  s->mon_user = user;
  return MN_SUCCESS;
}

int mn_solver_get_result(const mn_solver *s, int64_t *iterations, double *rnorm, mn_stop_reason *reason) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  if (iterations) *iterations = s->its;
  if (rnorm) *rnorm = s->rnorm;
  if (reason) *reason = s->reason;
  return MN_SUCCESS;
}

int mn_solver_get_history(const mn_solver *s, int64_t *n, const double **norms) {
  MN_CHECK(s && n && norms, MN_ERR_ARG, "NULL solver or output");
  *n = s->nhist;
  *norms = s->hist;
  return MN_SUCCESS;
}

/* ---- during a solve ---- */

static int push_history(mn_solver *s, double rnorm) {
  if (s->nhist == s->hcap) { /* grows at the same iteration on every rank */
    int64_t cap = s->hcap ? 2 * s->hcap : 64;
    double *h = realloc(s->hist, sizeof(double) * (size_t)cap);
    MN_CALL(mn_agree(s->ctx, h ? 0 : MN_ERR(MN_ERR_MEM, "cannot grow the residual history to %lld", (long long)cap)));
    s->hist = h;
    s->hcap = cap;
  }
  s->hist[s->nhist++] = rnorm;
  return MN_SUCCESS;
}

/* The test on a residual norm: NaN, rtol, atol (MN_STOP_NONE: go on). */
static mn_stop_reason converged(const mn_solver *s, double rnorm) {
  if (mni_sv_bad(rnorm)) return MN_DIVERGED_NAN;
  if (rnorm <= s->rtol * s->bnorm) return MN_CONVERGED_RTOL;
  if (rnorm <= s->atol) return MN_CONVERGED_ATOL;
  return MN_STOP_NONE;
}

int mni_sv_stop(mn_solver *s, int64_t it, mn_stop_reason r) {
  s->its = s->it0 + it;
  s->reason = r;
  return 1;
}

int mni_sv_test(mn_solver *s, int64_t it, double rnorm, int *err) {
  it += s->it0; /* a restarted run counts on from the earlier ones */
  s->its = it;
  if (!s->skip) {
    s->rnorm = rnorm;
    if (it > 0 && it == s->it0 && s->nhist) s->hist[s->nhist - 1] = rnorm; /* a restart's true residual */
    else if ((*err = push_history(s, rnorm))) return 1;
  }
  int stop = 0;
  if (s->mon) { /* the user's answer may differ between ranks: agree */
    int mine = s->mon(s->mon_user, it, s->skip ? NAN : rnorm) != 0;
    stop = mine;
    if (s->ctx->size > 1) mn_allreduce(s->ctx, &mine, &stop, 1, MPI_INT, MPI_MAX);
  }
  it -= s->it0; /* mni_sv_stop adds it0 */
  if (s->skip) {
    if (stop) return mni_sv_stop(s, it, MN_STOPPED_BY_MONITOR);
    return s->it0 + it >= s->maxit ? mni_sv_stop(s, it, MN_CONVERGED_ITS) : 0;
  }
  mn_stop_reason r = converged(s, rnorm);
  if (r != MN_STOP_NONE) return mni_sv_stop(s, it, r);
  if (stop) return mni_sv_stop(s, it, MN_STOPPED_BY_MONITOR);
  if (s->it0 + it >= s->maxit) return mni_sv_stop(s, it, MN_DIVERGED_MAXIT);
  return 0;
}

int mni_sv_vecs(mn_solver *s, int k, mn_wvec *v) {
  int64_t n = s->A->n;
  memset(v, 0, sizeof(mn_wvec) * (size_t)k);
  for (int i = 0; i < k; i++) {
    int err = mn_array_create(s->ctx, MN_FLOAT64, 1, &n, 0, &v[i].a);
    if (err) {
      mni_sv_vecs_free(k, v);
      return mn_trace(err, __FILE__, __LINE__, __func__);
    }
    mn_local l;
    mn_array_local_in(v[i].a, s->dv != NULL, &l);
    v[i].v = l.data;
  }
  return MN_SUCCESS;
}

double *mni_sv_host(const mn_solver *s, const mn_wvec *w, int write) {
  if (!s->dv || !w->v) return w->v;
  const mn_buf *b = w->a->buf;
  size_t off = (size_t)((char *)w->v - b->dev);
  (void)mn_buf_dev(b, 1); /* a host copy made before the kernels' last writes is stale */
  return (double *)(mn_buf_host(b, write) + off);
}

void mni_sv_dev(const mn_solver *s, const mn_wvec *w) {
  if (s->dv) (void)mn_buf_dev(w->a->buf, 1);
}

void mni_sv_vecs_free(int k, mn_wvec *v) {
  for (int i = 0; i < k; i++) mn_array_destroy(&v[i].a);
}

/* a's local block when a is a float64 1-d base array in the default
 * layout (the CSR's rows), else NULL; on a device solve its device
 * block, when a's values may live there */
static double *direct(const mn_solver *s, const mn_array *a, int64_t n, int64_t start, int64_t len) {
  if (mn_array_is_view(a) || mn_array_dtype(a) != MN_FLOAT64 || mn_array_ndim(a) != 1 || mn_array_shape(a)[0] != n)
    return NULL;
  if (s->dv && !mn_buf_device_ok(a->buf)) return NULL;
  mn_local l;
  if (s->dv ? mn_array_local_in(a, 1, &l) : mn_array_local(a, &l)) return NULL;
  int64_t cnt = l.data ? l.count[0] : 0;
  if (cnt != len) return NULL;
  if (len == 0) return l.data ? l.data : (double *)a; /* any non-NULL: nothing is read */
  return l.lo[0] == start && l.stride[0] == 1 ? l.data : NULL;
}

/* dst (a work vector) = src of any layout, shape or float dtype */
static int copy_in(const mn_array *src, mn_wvec *dst) {
  if (mn_array_ndim(src) == 1) return mn_array_copy(src, dst->a);
  mn_array *flat = NULL;
  int64_t n = mn_array_size(src);
  MN_CALL(mn_array_reshape(src, 1, &n, &flat));
  int err = mn_array_copy(flat, dst->a);
  mn_array_destroy(&flat);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}

static int copy_out(const mn_solver *s, const mn_wvec *src, mn_array *dst) {
  mni_sv_dev(s, src);
  if (mn_array_ndim(dst) == 1) return mn_array_copy(src->a, dst);
  mn_array *shaped = NULL;
  MN_CALL(mn_array_reshape(src->a, mn_array_ndim(dst), mn_array_shape(dst), &shaped));
  int err = mn_array_copy(shaped, dst);
  mn_array_destroy(&shaped);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}

int mn_solver_get_iterate(const mn_solver *s, mn_array *x) {
  MN_CHECK(s && x, MN_ERR_ARG, "NULL solver or output");
  MN_CHECK(s->cur, MN_ERR_ARG, "mn_solver_get_iterate is for the monitor, during a solve");
  MN_CHECK(mn_array_size(x) == s->A->n, MN_ERR_ARG, "the iterate's array has %lld elements, not %lld",
           (long long)mn_array_size(x), (long long)s->A->n);
  MN_CALL(copy_out(s, s->cur, x));
  return MN_SUCCESS;
}

/* A hash of the settings: they must agree between ranks, or ranks would
 * take different branches and wait on each other. */
int mni_sv_settings_hash(const mn_solver *s) {
  uint64_t w[10] = {(uint64_t)s->ksp, (uint64_t)s->pct, 0, 0, 0, (uint64_t)s->maxit, (uint64_t)s->restart,
                    (uint64_t)s->skip, (uint64_t)(s->mon != NULL), (uint64_t)(s->pc_fn != NULL) | (uint64_t)(s->pc_mat != NULL) << 1};
  memcpy(&w[2], &s->rtol, 8);
  memcpy(&w[3], &s->atol, 8);
  memcpy(&w[4], &s->omega, 8);
  uint64_t h = mn_hash(MN_HASH0, w, sizeof w);
  return (int)(h & 0x7fffffff);
}

static int check_args(const mn_solver *s, const mn_array *b, const mn_array *x) {
  MN_CHECK(s->A, MN_ERR_ARG, "the solver has no operator (mn_solver_set_operator)");
  MN_CHECK(b && x, MN_ERR_ARG, "NULL right-hand side or solution");
  MN_CHECK(mn_array_ctx(b) == s->ctx && mn_array_ctx(x) == s->ctx, MN_ERR_ARG,
           "b and x must belong to the solver's context");
  int64_t n = s->A->n;
  MN_CHECK(mn_array_size(b) == n && mn_array_size(x) == n, MN_ERR_SHAPE,
           "the operator is %lld x %lld but b has %lld elements and x %lld", (long long)n, (long long)n,
           (long long)mn_array_size(b), (long long)mn_array_size(x));
  MN_CHECK(mn_is_float(mn_array_dtype(b)) && mn_is_float(mn_array_dtype(x)), MN_ERR_DTYPE,
           "b and x must be float32 or float64, got %s and %s", mn_dtype_name(mn_array_dtype(b)),
           mn_dtype_name(mn_array_dtype(x)));
  MN_CHECK(mn_array_base_key(b) != mn_array_base_key(x), MN_ERR_ARG, "b and x share storage");
  MN_CHECK(s->pct != MN_PC_SHELL || s->pc_fn, MN_ERR_ARG,
           "preconditioner shell without a function (mn_solver_set_pc_shell)");
  MN_CHECK(s->pct != MN_PC_MATRIX || s->pc_mat, MN_ERR_ARG,
           "preconditioner matrix without a matrix (mn_solver_set_pc_matrix)");
  return MN_SUCCESS;
}

/* Run the method; when it claims convergence, check the true residual. A
 * claim it does not bear out restarts the method from x (the iterations
 * count on) while restarts still halve the true residual; the solve ends
 * at maxit (MN_DIVERGED_MAXIT), or when a restart did not
 * (MN_DIVERGED_STAGNATION). Costs one product per solve. */
static int run(mn_solver *s, const mn_wvec *b, mn_wvec *x) {
  double last = INFINITY;
  s->it0 = 0;
  for (;;) {
    MN_CALL(mni_sv_method_of(s->ksp)->solve(s, b, x));
    /* skip_test has no tolerance: its exact stops (a zero Krylov vector) stand */
    if (s->skip || (s->reason != MN_CONVERGED_RTOL && s->reason != MN_CONVERGED_ATOL)) break;
    double t;
    MN_CALL(mni_sv_true_norm(s, b, x, &t));
    mn_stop_reason r = converged(s, t);
    if (r == MN_CONVERGED_RTOL || r == MN_CONVERGED_ATOL) {
      s->reason = r;
      break;
    }
    s->rnorm = t;
    if (r == MN_DIVERGED_NAN || s->its >= s->maxit || !(t < 0.5 * last)) {
      s->reason = r == MN_DIVERGED_NAN ? r : s->its >= s->maxit ? MN_DIVERGED_MAXIT : MN_DIVERGED_STAGNATION;
      break;
    }
    last = t;
    s->it0 = s->its;
  }
  s->it0 = 0;
  return MN_SUCCESS;
}

/* b = 0 (x = 0, converged) or NaN in b: no iteration */
static int trivial(mn_solver *s, mn_wvec *x) {
  int err = 0;
  if (mni_sv_bad(s->bnorm)) {
    s->rnorm = s->bnorm;
    mni_sv_stop(s, 0, MN_DIVERGED_NAN);
    return 1;
  }
  if (s->bnorm > 0) return 0;
  memset(mni_sv_host(s, x, 1), 0, sizeof(double) * (size_t)s->nloc); /* (x may have a halo to keep) */
  mni_sv_dev(s, x);
  s->rnorm = 0;
  if (!s->skip && (err = push_history(s, 0))) return -err;
  mni_sv_stop(s, 0, MN_CONVERGED_ATOL);
  return 1;
}

static int solve(mn_solver *s, const mn_array *b, mn_array *x) {
  mn_ctx *ctx = s->ctx;
  MN_CALL(mn_agree(ctx, check_args(s, b, x)));
  int64_t n = s->A->n, start = mn_split_start(n, ctx->size, ctx->rank);
  s->nloc = mn_split_size(n, ctx->size, ctx->rank);
  /* one reduction: equal settings, and whether b and x are used in place */
  /* the vectors live where the backend's kernels do */
  s->dv = ctx->ops->sv ? ctx : NULL;
  mn_wvec bw = {(mn_array *)b, direct(s, b, n, start, s->nloc)}, xw = {x, direct(s, x, n, start, s->nloc)};
  int h = mni_sv_settings_hash(s), v[4] = {h, -h, bw.v != NULL, xw.v != NULL}, all[4];
  mn_allreduce(ctx, v, all, 4, MPI_INT, MPI_MIN);
  MN_CHECK(all[0] == -all[1], MN_ERR_ARG,
           "the solver's settings (method, preconditioner, tolerances, maxit, restart, omega, skip_test, monitor) "
           "differ between ranks");
  s->its = 0;
  s->rnorm = 0;
  s->reason = MN_STOP_NONE;
  s->nhist = 0;
  mn_wvec tmp[2] = {{0}};
  int err = 0;
  if (!all[2]) bw.v = NULL;
  if (!all[3]) xw.v = NULL;
  if (!bw.v || !xw.v) MN_CALL(mni_sv_vecs(s, 2, tmp));
  if (!bw.v) { bw = tmp[0]; MN_CALLG(err, copy_in(b, &bw), done); mni_sv_dev(s, &bw); }
  if (!xw.v) { xw = tmp[1]; MN_CALLG(err, copy_in(x, &xw), done); mni_sv_dev(s, &xw); }
  MN_CALLG(err, mni_sv_pc_setup(s), done);
  double bb = mni_k_dot(s->dv, s->nloc, bw.v, bw.v);
  MN_CALLG(err, mni_sv_allsum(ctx, 1, &bb), done);
  s->bnorm = sqrt(bb);
  int t = trivial(s, &xw);
  if (t < 0) err = -t;
  else if (!t) {
    s->cur = &xw;
    err = run(s, &bw, &xw);
    s->cur = NULL;
  }
  mni_sv_dev(s, &xw); /* x's values are its device block's */
  if (!err && xw.a != x) err = copy_out(s, &xw, x);
done:
  if (err) mni_sv_pc_reset(&s->pc); /* else kept for the next solve (pc.c) */
  mni_sv_vecs_free(2, tmp);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_solver_solve(mn_solver *s, const mn_array *b, mn_array *x) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  MN_SPMD(s ? s->ctx : NULL, "mn_solver_solve", mn_spmd_int(S, "settings", mni_sv_settings_hash(s)),
          mn_spmd_array(S, "b", b), mn_spmd_array(S, "x", x));
  mn_log_begin(s->ctx, MN_LOG_SOLVE);
  int err = solve(s, b, x);
  mn_log_end(s->ctx, MN_LOG_SOLVE, 0);
  return err;
}
