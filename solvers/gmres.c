/* Restarted GMRES(m), left preconditioned: Arnoldi with modified
 * Gram-Schmidt (one reduction per projection, as MGS orders them), the
 * Hessenberg matrix reduced by Givens rotations as it grows, so the
 * preconditioned residual norm |g[j+1]| is known after every iteration
 * without forming x. A column that the rotations reduce to a pivot below
 * 1e-13 of its norm (H singular to working precision) is a breakdown,
 * unless the residual is already at round-off (the Krylov space is
 * exhausted: the exact solution, as a zero new Arnoldi vector with a
 * nonzero pivot is). A
 * claim of convergence is checked against the true residual by the
 * caller (solver.c). */
#include "solver_impl.h"
#include <math.h>
#include <stdlib.h>

typedef struct {
  int m;
  double *H; /* (m + 1) x m, column j at H + j (m + 1) */
  double *c, *sn, *g, *y;
} arnoldi;

#define HH(a, i, j) ((a)->H[(i) + (int64_t)(j) * ((a)->m + 1)])

/* x += V y, y solving the leading k x k triangle of H against g */
static void update_x(mn_ctx *dv, const arnoldi *a, int k, mn_wvec *V, mn_wvec *x, int64_t n) {
  for (int i = k - 1; i >= 0; i--) {
    double t = a->g[i];
    for (int l = i + 1; l < k; l++) t -= HH(a, i, l) * a->y[l];
    a->y[i] = t / HH(a, i, i);
  }
  const double *v[64];
  for (int j0 = 0; j0 < k; j0 += 64) { /* in groups, each one pass over x */
    int kk = k - j0 < 64 ? k - j0 : 64;
    for (int j = 0; j < kk; j++) v[j] = V[j0 + j].v;
    mni_k_combine(dv, n, kk, v, a->y + j0, x->v);
  }
}

/* r = M^-1 (b - A x) into z, using q; returns ||r|| through *nrm */
static int residual(mn_solver *s, const mn_wvec *b, const mn_wvec *x, mn_wvec *q, mn_wvec *z, double *nrm) {
  MN_CALL(mni_sv_apply(s, x, q, NULL));
  double rr;
  MN_SV_UPDATE(s, 3, rr = mni_k_residual(s->dv, s->nloc, b->v, q->v, q->v));
  if (s->pc.type != MN_PC_NONE) {
    MN_CALL(mni_sv_pc_apply(s, q, z));
    rr = mni_k_dot(s->dv, s->nloc, z->v, z->v);
  } else MN_SV_UPDATE(s, 2, mni_k_copy(s->dv, s->nloc, q->v, z->v));
  MN_CALL(mni_sv_allsum(s->ctx, 1, &rr));
  *nrm = sqrt(rr);
  return MN_SUCCESS;
}

/* one restart cycle from V[0] = r / beta; returns 1 when the solve stops */
static int cycle(mn_solver *s, arnoldi *a, mn_wvec *x, mn_wvec *V, mn_wvec *q, int64_t *it,
                 double beta, int *err) {
  const int64_t n = s->nloc;
  for (int i = 0; i <= a->m; i++) a->g[i] = 0;
  a->g[0] = beta;
  for (int j = 0; j < a->m; j++) {
    mn_wvec *w = &V[j + 1];
    (*it)++;
    if (s->pc.type == MN_PC_NONE) *err = mni_sv_apply(s, &V[j], w, NULL);
    else if (!(*err = mni_sv_apply(s, &V[j], q, NULL))) *err = mni_sv_pc_apply(s, q, w);
    for (int i = 0; i <= j && !*err; i++) {
      double h = mni_k_dot(s->dv, n, w->v, V[i].v);
      if (!(*err = mni_sv_allsum(s->ctx, 1, &h))) {
        HH(a, i, j) = h;
        MN_SV_UPDATE(s, 3, mni_k_axpy(s->dv, n, -h, V[i].v, w->v));
      }
    }
    double hn = *err ? 0 : mni_k_dot(s->dv, n, w->v, w->v);
    if (*err || (*err = mni_sv_allsum(s->ctx, 1, &hn))) return 1;
    hn = sqrt(hn);
    double col = hn * hn; /* the new column's norm, to judge its pivot against */
    for (int i = 0; i <= j; i++) col += HH(a, i, j) * HH(a, i, j);
    col = sqrt(col);
    if (mni_sv_bad(hn) || mni_sv_bad(HH(a, j, j))) return mni_sv_stop(s, *it - 1, MN_DIVERGED_NAN); /* x as at the restart */
    if (hn > 0) MN_SV_UPDATE(s, 2, mni_k_scale(s->dv, n, 1.0 / hn, w->v));
    for (int i = 0; i < j; i++) { /* the earlier rotations, on the new column */
      double t = a->c[i] * HH(a, i, j) + a->sn[i] * HH(a, i + 1, j);
      HH(a, i + 1, j) = -a->sn[i] * HH(a, i, j) + a->c[i] * HH(a, i + 1, j);
      HH(a, i, j) = t;
    }
    double d = hypot(HH(a, j, j), hn);
    if (d <= 1e-13 * col) { /* H is (numerically) singular: keep what the first j columns give (a
                               solve through this pivot would throw x far off). With the residual
                               already at round-off of the cycle's start, that is the exact
                               solution (the Krylov space is exhausted); else the system is
                               singular and inconsistent */
      MN_SV_UPDATE(s, j + 2, update_x(s->dv, a, j, V, x, n));
      return mni_sv_stop(s, *it - 1, fabs(a->g[j]) <= 1e-13 * beta ? MN_CONVERGED_ATOL : MN_DIVERGED_BREAKDOWN);
    }
    a->c[j] = HH(a, j, j) / d;
    a->sn[j] = hn / d;
    HH(a, j, j) = d;
    a->g[j + 1] = -a->sn[j] * a->g[j];
    a->g[j] = a->c[j] * a->g[j];
    int stop = mni_sv_test(s, *it, fabs(a->g[j + 1]), err);
    if (!stop && hn == 0) stop = mni_sv_stop(s, *it, MN_CONVERGED_ATOL); /* exact (skip_test) */
    if (stop || j == a->m - 1) {
      if (!*err) MN_SV_UPDATE(s, j + 3, update_x(s->dv, a, j + 1, V, x, n));
      return stop;
    }
  }
  return 0;
}

static int solve_gmres(mn_solver *s, const mn_wvec *b, mn_wvec *x) {
  int m = s->restart;
  if (m > s->maxit - s->it0 && s->maxit - s->it0 > 0) m = (int)(s->maxit - s->it0);
  arnoldi a = {m, calloc((size_t)(m + 1) * (size_t)m, sizeof(double)), calloc((size_t)m, sizeof(double)),
               calloc((size_t)m, sizeof(double)), calloc((size_t)(m + 1), sizeof(double)),
               calloc((size_t)(m + 1), sizeof(double))};
  mn_wvec *V = calloc((size_t)(m + 2), sizeof(mn_wvec));
  int err = mn_agree(s->ctx, a.H && a.c && a.sn && a.g && a.y && V ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate GMRES(%d)", m));
  if (!err) err = mni_sv_vecs(s, m + 2, V); /* V[0..m], and q */
  if (err) goto out;
  mn_wvec *q = &V[m + 1];
  double beta;
  if (s->pc.type != MN_PC_NONE) { /* the test is on preconditioned norms: ||M^-1 b|| */
    MN_CALLG(err, mni_sv_pc_apply(s, b, q), done);
    double bb = mni_k_dot(s->dv, s->nloc, q->v, q->v);
    MN_CALLG(err, mni_sv_allsum(s->ctx, 1, &bb), done);
    s->bnorm = sqrt(bb);
  }
  MN_CALLG(err, residual(s, b, x, q, &V[0], &beta), done);
  int64_t it = 0;
  if (mni_sv_test(s, 0, beta, &err)) goto done;
  for (;;) {
    if (beta == 0) { mni_sv_stop(s, it, MN_CONVERGED_ATOL); break; } /* exact, under skip_test */
    MN_SV_UPDATE(s, 2, mni_k_scale(s->dv, s->nloc, 1.0 / beta, V[0].v));
    if (cycle(s, &a, x, V, q, &it, beta, &err)) break;
    MN_CALLG(err, residual(s, b, x, q, &V[0], &beta), done);
  }
done:
  mni_sv_vecs_free(m + 2, V);
out:
  free(a.H);
  free(a.c);
  free(a.sn);
  free(a.g);
  free(a.y);
  free(V);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

const mni_sv_method mni_sv_method_gmres = {"gmres", solve_gmres, MNI_SV_NORM_PR, MN_PC_NONE};
