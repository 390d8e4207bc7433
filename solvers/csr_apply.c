/* The CSR product on the local blocks of work vectors, with x.y summed in
 * the same pass: the diagonal block's rows while the ghost values travel,
 * then the off-diagonal part of only the rows that have one. */
#include "solver_impl.h"
#include "kernels/csr.h"

static int csr_apply(const mn_op *op, const double *x, double *y, double *xy);

int mni_sv_csr_apply(const mn_op *op, const double *x, double *y, double *xy) {
  mn_log_begin(op->ctx, MN_LOG_SPMV);
  int err = csr_apply(op, x, y, xy);
  mn_log_end(op->ctx, MN_LOG_SPMV, err || !mn_log_on(op->ctx) ? 0 : mn_csr_log_bytes(op->A));
  return err;
}

static int csr_apply(const mn_op *op, const double *x, double *y, double *xy) {
  const mn_csr *A = op->A;
  const int64_t n = A->nlocal, *dptr = A->dptr;
  const int32_t *dcol = A->dcol;
  const double *dval = A->dval;
  MN_CALL(mn_plan_begin_mem(A->ghost, (char *)x, NULL));
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s) if (n > 20000)
  for (int64_t i = 0; i < n; i++) {
    double v = mni_k_csr_row_f64(dptr[i], dptr[i + 1], dcol, dval, x);
    y[i] = v;
    s += x[i] * v;
  }
  MN_CALL(mn_plan_end(A->ghost));
  const int64_t nb = op->nbrow, *brow = op->brow, *optr = A->optr;
  const int32_t *ocol = A->ocol;
  const double *oval = A->oval, *g = (const double *)A->ghost->recvbuf;
#pragma omp parallel for schedule(static) reduction(+ : s) if (nb > 20000)
  for (int64_t b = 0; b < nb; b++) {
    int64_t i = brow[b];
    double v = mni_k_csr_row_f64(optr[i], optr[i + 1], ocol, oval, g);
    y[i] += v;
    s += x[i] * v;
  }
  if (xy) *xy = s;
  return MN_SUCCESS;
}
