/* Operators over a square CSR matrix: the product and the diagonal are the
 * matrix's, and on work vectors the product fuses x.y (sparse/spmv.c). */
#include "solver_impl.h"

static int csr_apply(const mn_op *op, const mn_array *x, mn_array *y) {
  return mn_csr_spmv((const mn_csr *)op->data, x, y);
}

static int csr_diagonal(const mn_op *op, mn_array *d) { return mn_csr_diagonal((const mn_csr *)op->data, d); }

/* on a device solve the product runs there, and x.y is one more pass */
static int csr_apply_local(const mn_op *op, mn_ctx *dv, const double *x, double *y, double *xy) {
  const mn_csr *A = op->data;
  if (!dv) return mni_csr_spmv_dot(A, x, y, xy);
  mn_log_begin(op->ctx, MN_LOG_SPMV);
  mni_csr_product_dev(A, (const char *)x, (char *)y);
  mn_log_end(op->ctx, MN_LOG_SPMV, mn_log_on(op->ctx) ? mn_csr_log_bytes(A) : 0);
  if (xy) *xy = mni_k_dot(dv, mn_split_size(op->n, op->ctx->size, op->ctx->rank), x, y);
  return MN_SUCCESS;
}

/* the matrix stays the caller's: nothing to destroy */
static const mni_sv_op_ops csr_ops = {"CSR", "matrix", csr_apply, csr_diagonal, csr_apply_local, NULL};

const mn_csr *mni_sv_op_csr(const mn_op *op) { return op->ops == &csr_ops ? (const mn_csr *)op->data : NULL; }

int mn_op_create_csr(const mn_csr *A, mn_op **op) {
  MN_CHECK(A && op, MN_ERR_ARG, "NULL matrix or output");
  int64_t nr, nc;
  mn_csr_shape(A, &nr, &nc);
  MN_CHECK(nr == nc, MN_ERR_SHAPE, "an operator needs a square matrix, got %lld x %lld", (long long)nr,
           (long long)nc);
  mn_dtype t = mn_csr_dtype(A);
  MN_CHECK(t == MN_FLOAT64 || t == MN_FLOAT32, MN_ERR_DTYPE,
           "the solvers take a float64 or float32 matrix, not %s", mn_dtype_name(t));
  MN_CALL(mni_sv_op_new(mn_csr_ctx(A), nr, t, &csr_ops, (void *)A, op));
  return MN_SUCCESS;
}
