/* BiCGStab (van der Vorst), right preconditioned, so that the residual it
 * tracks is the true one: three reductions per iteration (rhat.v; t.s,
 * t.t, s.s; rhat.r, r.r). A zero rho, rhat.v or omega is a breakdown. */
#include "solver_impl.h"
#include <math.h>

static int converged(const mn_solver *s, double rnorm) {
  return !s->skip && (rnorm <= s->rtol * s->bnorm || rnorm <= s->atol);
}

static int solve_bicgstab(mn_solver *s, const mn_wvec *b, mn_wvec *x) {
  const int64_t n = s->nloc;
  const int none = s->pc.type == MN_PC_NONE;
  mn_wvec w[7];
  MN_CALL(mni_sv_vecs(s, 7, w));
  /* r holds s = r - alpha v until r = s - omega t */
  mn_wvec *r = &w[0], *rh = &w[1], *p = &w[2], *v = &w[3], *t = &w[4];
  mn_wvec *ph = none ? p : &w[5], *sh = none ? r : &w[6];
  int err = 0;
  MN_CALLG(err, mni_sv_apply(s, x, v, NULL), done);
  double rho;
  MN_SV_UPDATE(s, 3, rho = mni_k_residual(s->dv, n, b->v, v->v, r->v));
  MN_CALLG(err, mni_sv_allsum(s->ctx, 1, &rho), done);
  MN_SV_UPDATE(s, 2, mni_k_copy(s->dv, n, r->v, rh->v));
  if (mni_sv_test(s, 0, sqrt(rho), &err)) goto done;
  double rho_old = 1, alpha = 1, omega = 1;
  for (int64_t k = 1;; k++) {
    if (mni_sv_bad(rho)) { mni_sv_stop(s, k - 1, MN_DIVERGED_NAN); break; }
    if (rho == 0) { mni_sv_stop(s, k - 1, MN_DIVERGED_BREAKDOWN); break; }
    if (k == 1) MN_SV_UPDATE(s, 2, mni_k_copy(s->dv, n, r->v, p->v));
    else MN_SV_UPDATE(s, 4, mni_k_bicg_p(s->dv, n, (rho / rho_old) * (alpha / omega), omega, r->v, v->v, p->v));
    if (!none) MN_CALLG(err, mni_sv_pc_apply(s, p, ph), done);
    double rv;
    MN_CALLG(err, mni_sv_apply(s, ph, v, NULL), done);
    const double *x1[1] = {rh->v}, *y1[1] = {v->v};
    MN_CALLG(err, mni_sv_dots(s->ctx, s->dv, n, 1, x1, y1, &rv), done);
    if (mni_sv_bad(rv)) { mni_sv_stop(s, k - 1, MN_DIVERGED_NAN); break; }
    if (rv == 0) { mni_sv_stop(s, k - 1, MN_DIVERGED_BREAKDOWN); break; }
    alpha = rho / rv;
    MN_SV_UPDATE(s, 3, mni_k_axpy(s->dv, n, -alpha, v->v, r->v)); /* s */
    if (!none) MN_CALLG(err, mni_sv_pc_apply(s, r, sh), done);
    MN_CALLG(err, mni_sv_apply(s, sh, t, NULL), done);
    double d[3];
    const double *x3[3] = {t->v, t->v, r->v}, *y3[3] = {r->v, t->v, r->v};
    MN_CALLG(err, mni_sv_dots(s->ctx, s->dv, n, 3, x3, y3, d), done);
    if (mni_sv_bad(d[0]) || mni_sv_bad(d[1]) || mni_sv_bad(d[2])) { mni_sv_stop(s, k - 1, MN_DIVERGED_NAN); break; }
    if (converged(s, sqrt(d[2]))) { /* the half step is enough */
      MN_SV_UPDATE(s, 3, mni_k_axpy(s->dv, n, alpha, ph->v, x->v));
      mni_sv_test(s, k, sqrt(d[2]), &err);
      break;
    }
    if (d[1] == 0) { mni_sv_stop(s, k - 1, MN_DIVERGED_BREAKDOWN); break; }
    omega = d[0] / d[1];
    /* x += alpha ph + omega sh (sh before r changes: it may be r) */
    MN_SV_UPDATE(s, 9, {
      mni_k_axpy(s->dv, n, alpha, ph->v, x->v);
      mni_k_axpy(s->dv, n, omega, sh->v, x->v);
      mni_k_axpy(s->dv, n, -omega, t->v, r->v);
    });
    const double *x2[2] = {rh->v, r->v}, *y2[2] = {r->v, r->v};
    MN_CALLG(err, mni_sv_dots(s->ctx, s->dv, n, 2, x2, y2, d), done);
    rho_old = rho;
    rho = d[0];
    if (mni_sv_test(s, k, sqrt(d[1]), &err)) break;
    if (omega == 0) { mni_sv_stop(s, k, MN_DIVERGED_BREAKDOWN); break; }
    if (mni_sv_bad(rho)) { mni_sv_stop(s, k, MN_DIVERGED_NAN); break; }
  }
done:
  mni_sv_vecs_free(7, w);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

const mni_sv_method mni_sv_method_bicgstab = {"bicgstab", solve_bicgstab, MNI_SV_NORM_R, MN_PC_NONE};
