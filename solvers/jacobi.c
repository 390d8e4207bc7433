/* The stationary iteration x += omega M^-1 (b - A x): weighted Jacobi
 * with M = D (the preconditioner none or jacobi), or Richardson with any
 * other preconditioner (bjacobi_sgs: block symmetric Gauss-Seidel). The
 * residual's norm is computed every iteration, skip_test or not: it is
 * this method's only check against NaN. */
#include "solver_impl.h"
#include <math.h>

static int solve_jacobi(mn_solver *s, const mn_wvec *b, mn_wvec *x) {
  const int64_t n = s->nloc;
  mn_wvec v[3];
  MN_CALL(mni_sv_vecs(s, 3, v));
  mn_wvec *r = &v[0], *z = &v[1], *q = &v[2];
  int err = 0;
  for (int64_t k = 0;; k++) {
    MN_CALLG(err, mni_sv_apply(s, x, q, NULL), done);
    double rr;
    MN_SV_UPDATE(s, 3, rr = mni_k_residual(s->dv, n, b->v, q->v, r->v));
    MN_CALLG(err, mni_sv_allsum(s->ctx, 1, &rr), done);
    if (s->skip && mni_sv_bad(rr)) { mni_sv_stop(s, k, MN_DIVERGED_NAN); break; }
    if (mni_sv_test(s, k, sqrt(rr), &err)) break;
    MN_CALLG(err, mni_sv_pc_apply(s, r, z), done);
    MN_SV_UPDATE(s, 3, mni_k_axpy(s->dv, n, s->omega, z->v, x->v));
  }
done:
  mni_sv_vecs_free(3, v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

const mni_sv_method mni_sv_method_jacobi = {"jacobi", solve_jacobi, MNI_SV_NORM_R, MN_PC_JACOBI};
