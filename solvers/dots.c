/* Several dot products in one pass over the vectors and one
 * MPI_Allreduce of the partial sums: the reductions a Krylov iteration
 * needs, fused so that it waits on the network once. */
#include "solver_impl.h"

static int allsum(mn_ctx *ctx, int k, double *v) {
  MN_CHECK(k >= 1 && k <= 16, MN_ERR_ARG, "%d sums at once (1 to 16)", k);
  if (ctx->size == 1) return MN_SUCCESS;
  double in[16];
  for (int j = 0; j < k; j++) in[j] = v[j];
  MN_MPI(mn_allreduce(ctx, in, v, k, MPI_DOUBLE, MPI_SUM));
  return MN_SUCCESS;
}

/* logged as one sv_dot (nested in mni_sv_dots, counted once) */
int mni_sv_allsum(mn_ctx *ctx, int k, double *v) {
  mn_log_begin(ctx, MN_LOG_SV_DOT);
  int err = allsum(ctx, k, v);
  mn_log_end(ctx, MN_LOG_SV_DOT, 0);
  return err;
}

static int dots(mn_ctx *ctx, mn_ctx *dv, int64_t n, int k, const double *const *x, const double *const *y,
                double *out) {
  MN_CHECK(k >= 1 && k <= 8, MN_ERR_ARG, "%d dot products at once (1 to 8)", k);
  if (dv) {
    mni_sv_job j = {.kind = MNI_SV_DOTS, .k = k, .n = n};
    for (int q = 0; q < k; q++) { j.v[2 * q] = (double *)x[q]; j.v[2 * q + 1] = (double *)y[q]; }
    mni_sv_launch(dv, &j, out);
    MN_CALL(mni_sv_allsum(ctx, k, out));
    return MN_SUCCESS;
  }
  double acc[8] = {0};
#pragma omp parallel for schedule(static) reduction(+ : acc[:8]) if (n > 20000)
  for (int64_t i = 0; i < n; i++)
    for (int j = 0; j < k; j++) acc[j] += x[j][i] * y[j][i];
  for (int j = 0; j < k; j++) out[j] = acc[j];
  MN_CALL(mni_sv_allsum(ctx, k, out));
  return MN_SUCCESS;
}

int mni_sv_dots(mn_ctx *ctx, mn_ctx *dv, int64_t n, int k, const double *const *x, const double *const *y,
                double *out) {
  mn_log_begin(ctx, MN_LOG_SV_DOT);
  int err = dots(ctx, dv, n, k, x, y, out);
  mn_log_end(ctx, MN_LOG_SV_DOT, err ? 0 : 2 * (int64_t)k * n * 8);
  return err;
}
