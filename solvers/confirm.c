/* A method's claim of convergence is checked against the true residual
 * b - A x of the x it returns, in the norm the method tests: recurrences
 * drift from the truth in floating point, and on a singular or nearly
 * singular system (GMRES on an inconsistent one) they can report a small
 * residual for an x whose true residual is huge. */
#include "solver_impl.h"
#include <math.h>

/* In the method's norm: ||r||, ||M^-1 r|| or sqrt(r.M^-1 r). */
int mni_sv_true_norm(mn_solver *s, const mn_wvec *b, const mn_wvec *x, double *nrm) {
  mn_wvec w[2];
  MN_CALL(mni_sv_vecs(s, 2, w));
  int err = mni_sv_apply(s, x, &w[0], NULL);
  double rr = 0;
  if (!err) MN_SV_UPDATE(s, 3, rr = mni_k_residual(s->dv, s->nloc, b->v, w[0].v, w[0].v));
  mni_sv_norm norm = mni_sv_method_of(s->ksp)->norm;
  int pre = s->pc.type != MN_PC_NONE && norm != MNI_SV_NORM_R;
  if (!err && pre) {
    err = mni_sv_pc_apply(s, &w[0], &w[1]);
    if (!err) rr = norm == MNI_SV_NORM_PR ? mni_k_dot(s->dv, s->nloc, w[1].v, w[1].v) : mni_k_dot(s->dv, s->nloc, w[0].v, w[1].v);
  }
  if (!err) err = mni_sv_allsum(s->ctx, 1, &rr);
  mni_sv_vecs_free(2, w);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  *nrm = rr >= 0 ? sqrt(rr) : NAN;
  return MN_SUCCESS;
}
