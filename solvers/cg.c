/* Preconditioned conjugate gradients: CG (two reductions per iteration,
 * p.Ap then r.z with r.r) and CG1, Chronopoulos and Gear's variant whose
 * r.u, w.u and r.r (w = A u) go in one reduction per iteration. With the
 * Jacobi preconditioner the update, z = D^-1 r and the dots are one pass,
 * and p.Ap is summed inside the product. */
#include "solver_impl.h"
#include <math.h>

/* r.z after an update: stop on NaN or a preconditioner that is not
 * positive; r.z = 0 is a zero residual only when no norm says otherwise */
static int check_rz(mn_solver *s, int64_t it, double rz) {
  if (mni_sv_bad(rz)) return mni_sv_stop(s, it, MN_DIVERGED_NAN);
  if (rz <= 0) return mni_sv_stop(s, it, rz == 0 && s->skip ? MN_CONVERGED_ATOL : MN_DIVERGED_INDEFINITE);
  return 0;
}

/* z = M^-1 r and the local r.z (and r.r into rr, when not NULL: one pass,
 * one copy of the sums on a device), unless the update did it (Jacobi) or
 * z is r */
static int precondition(mn_solver *s, const mn_wvec *r, mn_wvec *z, double *rz, double *rr) {
  if (s->pc.type == MN_PC_JACOBI || z == r) return MN_SUCCESS;
  MN_CALL(mni_sv_pc_apply(s, r, z));
  if (!rr) {
    *rz = mni_k_dot(s->dv, s->nloc, r->v, z->v);
    return MN_SUCCESS;
  }
  double o[2];
  mni_k_dot2(s->dv, s->nloc, r->v, z->v, r->v, r->v, o);
  *rz = o[0];
  *rr = o[1];
  return MN_SUCCESS;
}

/* a preconditioner other than Jacobi's (a separate pass after the update) */
static int other_pc(const mn_solver *s) { return s->pc.type != MN_PC_NONE && s->pc.type != MN_PC_JACOBI; }

static int solve_cg(mn_solver *s, const mn_wvec *b, mn_wvec *x) {
  const int64_t n = s->nloc;
  const int none = s->pc.type == MN_PC_NONE, skip = s->skip;
  const double *dinv = s->pc.type == MN_PC_JACOBI ? s->pc.dinv : NULL;
  const int opc = other_pc(s);
  mn_wvec w[4];
  MN_CALL(mni_sv_vecs(s, 4, w));
  mn_wvec *r = &w[0], *z = none ? r : &w[1], *p = &w[2], *q = &w[3];
  int err = 0;
  double d[2], rz, pq;
  /* r = b - A x, z = M^-1 r */
  MN_CALLG(err, mni_sv_apply(s, x, q, NULL), done);
  MN_SV_UPDATE(s, 3, d[1] = mni_k_residual(s->dv, n, b->v, q->v, r->v));
  if (dinv) MN_SV_UPDATE(s, 3, mni_k_mul(s->dv, n, dinv, r->v, z->v));
  d[0] = none ? d[1] : dinv ? mni_k_dot(s->dv, n, r->v, z->v) : 0;
  MN_CALLG(err, precondition(s, r, z, &d[0], NULL), done);
  MN_CALLG(err, mni_sv_allsum(s->ctx, 2, d), done);
  rz = d[0];
  if (!skip && mni_sv_test(s, 0, sqrt(d[1]), &err)) goto done;
  if (check_rz(s, 0, rz) || (skip && mni_sv_test(s, 0, 0, &err))) goto done;
  MN_SV_UPDATE(s, 2, mni_k_copy(s->dv, n, z->v, p->v));
  for (int64_t k = 1;; k++) {
    MN_CALLG(err, mni_sv_apply(s, p, q, &pq), done);
    MN_CALLG(err, mni_sv_allsum(s->ctx, 1, &pq), done);
    if (mni_sv_bad(pq)) { mni_sv_stop(s, k - 1, MN_DIVERGED_NAN); break; }
    if (pq <= 0) { mni_sv_stop(s, k - 1, MN_DIVERGED_INDEFINITE); break; }
    double alpha = rz / pq;
    /* norms are wanted unless skip_test; without a preconditioner r.r is
     * r.z; another's pass computes r.r with r.z */
    MN_SV_UPDATE(s, dinv ? 8 : 6,
                 mni_k_cg_update(s->dv, n, alpha, p->v, q->v, x->v, r->v, dinv, z->v, (!skip || none) && !opc, d));
    if (none) d[0] = d[1];
    MN_CALLG(err, precondition(s, r, z, &d[0], opc && !skip ? &d[1] : NULL), done);
    MN_CALLG(err, mni_sv_allsum(s->ctx, skip || none ? 1 : 2, d), done);
    if (none) d[1] = d[0];
    if (!skip && mni_sv_test(s, k, sqrt(d[1]), &err)) break;
    if (check_rz(s, k, d[0]) || (skip && mni_sv_test(s, k, 0, &err))) break;
    double beta = d[0] / rz;
    rz = d[0];
    MN_SV_UPDATE(s, 3, mni_k_aypx(s->dv, n, beta, z->v, p->v));
  }
done:
  mni_sv_vecs_free(4, w);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

static int solve_cg1(mn_solver *s, const mn_wvec *b, mn_wvec *x) {
  const int64_t n = s->nloc;
  const int none = s->pc.type == MN_PC_NONE, skip = s->skip;
  const double *dinv = s->pc.type == MN_PC_JACOBI ? s->pc.dinv : NULL;
  const int opc = other_pc(s);
  mn_wvec v[5];
  MN_CALL(mni_sv_vecs(s, 5, v));
  mn_wvec *r = &v[0], *u = none ? r : &v[1], *w = &v[2], *p = &v[3], *sv = &v[4];
  int err = 0;
  double d[3]; /* r.u, u.w, r.r: summed together */
  MN_CALLG(err, mni_sv_apply(s, x, w, NULL), done);
  MN_SV_UPDATE(s, 3, d[2] = mni_k_residual(s->dv, n, b->v, w->v, r->v));
  if (dinv) MN_SV_UPDATE(s, 3, mni_k_mul(s->dv, n, dinv, r->v, u->v));
  d[0] = none ? d[2] : dinv ? mni_k_dot(s->dv, n, r->v, u->v) : 0;
  MN_CALLG(err, precondition(s, r, u, &d[0], NULL), done);
  MN_CALLG(err, mni_sv_apply(s, u, w, &d[1]), done);
  MN_CALLG(err, mni_sv_allsum(s->ctx, 3, d), done);
  if (!skip && mni_sv_test(s, 0, sqrt(d[2]), &err)) goto done;
  if (check_rz(s, 0, d[0]) || (skip && mni_sv_test(s, 0, 0, &err))) goto done;
  double gamma = d[0], delta = d[1], gprev = 1, aprev = 1;
  for (int64_t k = 1;; k++) {
    /* beta = gamma / gamma_prev; p.Ap = delta - beta gamma / alpha_prev */
    double beta = k == 1 ? 0 : gamma / gprev, pap = delta - (k == 1 ? 0 : beta * gamma / aprev);
    if (mni_sv_bad(pap)) { mni_sv_stop(s, k - 1, MN_DIVERGED_NAN); break; }
    if (pap <= 0) { mni_sv_stop(s, k - 1, MN_DIVERGED_INDEFINITE); break; }
    double alpha = gamma / pap;
    double o[2] = {0, 0}; /* r.u (Jacobi), r.r */
    MN_SV_UPDATE(s, dinv ? 12 : 10,
                 mni_k_cg1_update(s->dv, n, alpha, beta, u->v, w->v, p->v, sv->v, x->v, r->v, dinv,
                                  (!skip || none) && !opc, o));
    d[0] = none ? o[1] : o[0];
    d[2] = o[1];
    MN_CALLG(err, precondition(s, r, u, &d[0], opc && !skip ? &d[2] : NULL), done);
    MN_CALLG(err, mni_sv_apply(s, u, w, &d[1]), done);
    MN_CALLG(err, mni_sv_allsum(s->ctx, 3, d), done);
    if (!skip && mni_sv_test(s, k, sqrt(d[2]), &err)) break;
    if (check_rz(s, k, d[0]) || (skip && mni_sv_test(s, k, 0, &err))) break;
    gprev = gamma;
    aprev = alpha;
    gamma = d[0];
    delta = d[1];
  }
done:
  mni_sv_vecs_free(5, v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

const mni_sv_method mni_sv_method_cg = {"cg", solve_cg, MNI_SV_NORM_R, MN_PC_NONE};

const mni_sv_method mni_sv_method_cg1 = {"cg1", solve_cg1, MNI_SV_NORM_R, MN_PC_NONE};
