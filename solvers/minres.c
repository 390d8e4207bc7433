/* MINRES (Paige and Saunders) for symmetric, possibly indefinite A with a
 * symmetric positive definite preconditioner M: the Lanczos process in
 * the M^-1 inner product, its tridiagonal matrix reduced by Givens
 * rotations, x updated along the direction vectors w as it goes. It
 * tracks the residual's M^-1 norm (||r|| without a preconditioner); two
 * reductions per iteration (v.Av, then r.M^-1 r). Paige and Saunders'
 * ||A r|| estimate stops it at a least-squares solution of a singular
 * inconsistent system (stagnation). */
#include "solver_impl.h"
#include <math.h>

/* y = M^-1 r (a copy without preconditioner) and r.y summed */
static int precondition(mn_solver *s, const mn_wvec *r, mn_wvec *y, double *ry) {
  MN_CALL(mni_sv_pc_apply(s, r, y));
  *ry = mni_k_dot(s->dv, s->nloc, r->v, y->v);
  MN_CALL(mni_sv_allsum(s->ctx, 1, ry));
  return MN_SUCCESS;
}

static int solve_minres(mn_solver *s, const mn_wvec *b, mn_wvec *x) {
  const int64_t n = s->nloc;
  mn_wvec vec[7];
  MN_CALL(mni_sv_vecs(s, 7, vec));
  mn_wvec *r1 = &vec[0], *r2 = &vec[1], *y = &vec[2], *v = &vec[3], *w = &vec[4], *w1 = &vec[5], *w2 = &vec[6];
  int err = 0;
  double beta1;
  if (s->pc.type != MN_PC_NONE) { /* the test is on M^-1 norms: sqrt(b.M^-1 b) */
    double bb;
    MN_CALLG(err, precondition(s, b, y, &bb), done);
    if (mni_sv_bad(bb) || bb < 0) { mni_sv_stop(s, 0, bb < 0 ? MN_DIVERGED_INDEFINITE : MN_DIVERGED_NAN); goto done; }
    s->bnorm = sqrt(bb);
  }
  MN_CALLG(err, mni_sv_apply(s, x, y, NULL), done);
  MN_SV_UPDATE(s, 3, mni_k_residual(s->dv, n, b->v, y->v, r1->v));
  MN_CALLG(err, precondition(s, r1, y, &beta1), done);
  if (mni_sv_bad(beta1)) { mni_sv_stop(s, 0, MN_DIVERGED_NAN); goto done; }
  if (beta1 < 0) { mni_sv_stop(s, 0, MN_DIVERGED_INDEFINITE); goto done; }
  beta1 = sqrt(beta1);
  if (mni_sv_test(s, 0, beta1, &err)) goto done;
  MN_SV_UPDATE(s, 2, mni_k_copy(s->dv, n, r1->v, r2->v));
  double oldb = 0, beta = beta1, dbar = 0, epsln = 0, phibar = beta1, cs = -1, sn = 0, tnorm2 = 0;
  for (int64_t k = 1;; k++) {
    if (beta == 0) { mni_sv_stop(s, k - 1, MN_CONVERGED_ATOL); break; } /* exact, under skip_test */
    MN_SV_UPDATE(s, 2, mni_k_axpby(s->dv, n, 1.0 / beta, y->v, 0.0, y->v, v->v));
    MN_CALLG(err, mni_sv_apply(s, v, y, NULL), done);
    if (k >= 2) MN_SV_UPDATE(s, 3, mni_k_axpy(s->dv, n, -beta / oldb, r1->v, y->v));
    double alfa = mni_k_dot(s->dv, n, v->v, y->v);
    MN_CALLG(err, mni_sv_allsum(s->ctx, 1, &alfa), done);
    MN_SV_UPDATE(s, 3, mni_k_axpy(s->dv, n, -alfa / beta, r2->v, y->v));
    mn_wvec *t = r1; /* r1 = r2, r2 = y, y = M^-1 r2 */
    r1 = r2;
    r2 = y;
    y = t;
    double bb;
    MN_CALLG(err, precondition(s, r2, y, &bb), done);
    if (mni_sv_bad(bb) || mni_sv_bad(alfa)) { mni_sv_stop(s, k - 1, MN_DIVERGED_NAN); break; }
    if (bb < 0) { mni_sv_stop(s, k - 1, MN_DIVERGED_INDEFINITE); break; }
    oldb = beta;
    beta = sqrt(bb);
    tnorm2 += alfa * alfa + oldb * oldb + beta * beta; /* ||T_k||_F^2: ||A|| estimated */
    /* the previous rotation on the new column, then a new one */
    double oldeps = epsln, delta = cs * dbar + sn * alfa, gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    /* ||A r|| / (||A|| ||r||) at the current x: at round-off r is orthogonal
     * to A's range, x a least-squares solution of a singular inconsistent
     * system, and no iteration can reduce ||r||: stagnation, not
     * convergence (x would only drift along A's null space) */
    if (hypot(gbar, dbar) <= 1e-14 * sqrt(tnorm2)) { mni_sv_stop(s, k - 1, MN_DIVERGED_STAGNATION); break; }
    double gamma = hypot(gbar, beta);
    if (gamma == 0) { mni_sv_stop(s, k - 1, MN_DIVERGED_BREAKDOWN); break; }
    cs = gbar / gamma;
    sn = beta / gamma;
    double phi = cs * phibar;
    phibar = sn * phibar;
    mn_wvec *wn = w1; /* w1 = w2, w2 = w, w = (v - oldeps w1 - delta w2) / gamma: into the old w1 */
    MN_SV_UPDATE(s, 7, mni_k_minres_w(s->dv, n, oldeps, delta, 1.0 / gamma, phi, v->v, w2->v, w->v, wn->v, x->v));
    w1 = w2;
    w2 = w;
    w = wn;
    if (mni_sv_test(s, k, fabs(phibar), &err)) break;
  }
done:
  mni_sv_vecs_free(7, vec);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

const mni_sv_method mni_sv_method_minres = {"minres", solve_minres, MNI_SV_NORM_RPR, MN_PC_NONE};
