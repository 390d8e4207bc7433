/* Linear operators: over a square CSR matrix (the product and diagonal
 * are the matrix's), over a stencil (stencil_op.c), or matrix-free (the
 * user's product, and a diagonal the user may give). */
#include "solver_impl.h"
#include "spmd.h"
#include <stdlib.h>

int mn_op_create_csr(const mn_csr *A, mn_op **op) {
  MN_CHECK(A && op, MN_ERR_ARG, "NULL matrix or output");
  MN_CHECK(A->nrows == A->ncols, MN_ERR_SHAPE, "an operator needs a square matrix, got %lld x %lld",
           (long long)A->nrows, (long long)A->ncols);
  mn_op *o = calloc(1, sizeof *o);
  int64_t nb = 0;
  for (int64_t i = 0; i < A->nlocal; i++) nb += A->optr[i + 1] > A->optr[i];
  int64_t *brow = o ? malloc(sizeof(int64_t) * (size_t)(nb + 1)) : NULL;
  int err = mn_agree(A->ctx, brow ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate an operator"));
  if (err) {
    free(o);
    free(brow);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  /* the rows the ghost values reach: only those need a second pass */
  nb = 0;
  for (int64_t i = 0; i < A->nlocal; i++)
    if (A->optr[i + 1] > A->optr[i]) brow[nb++] = i;
  o->ctx = A->ctx;
  o->n = A->nrows;
  o->dtype = A->dtype;
  o->A = A;
  o->brow = brow;
  o->nbrow = nb;
  *op = o;
  return MN_SUCCESS;
}

int mn_op_create_shell(mn_ctx *ctx, int64_t n, mn_dtype dtype, mn_op_apply_fn apply, void *user, mn_op **op) {
  MN_CHECK(ctx && apply && op, MN_ERR_ARG, "NULL context, apply function or output");
  MN_SPMD(ctx, "mn_op_create_shell", mn_spmd_int(S, "n", n), mn_spmd_dtype(S, "dtype", dtype));
  MN_CHECK(n >= 0, MN_ERR_SHAPE, "operator size %lld must be >= 0", (long long)n);
  MN_CHECK(mn_is_float(dtype), MN_ERR_DTYPE, "an operator's dtype is float32 or float64, got %s",
           mn_dtype_name(dtype));
  mn_op *o = calloc(1, sizeof *o);
  MN_CALL(mn_agree(ctx, o ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate an operator")));
  o->ctx = ctx;
  o->n = n;
  o->dtype = dtype;
  o->fn = apply;
  o->user = user;
  *op = o;
  return MN_SUCCESS;
}

static int check_vec(const mn_op *op, const mn_array *v, const char *what) {
  MN_CHECK(v, MN_ERR_ARG, "NULL %s", what);
  MN_CHECK(mn_array_ctx(v) == op->ctx, MN_ERR_ARG, "%s belongs to another context than the operator", what);
  MN_CHECK(mn_array_ndim(v) == 1 && mn_array_shape(v)[0] == op->n, MN_ERR_SHAPE,
           "%s must be 1-d of %lld elements for a %lld x %lld operator, got %d-d of %lld", what, (long long)op->n,
           (long long)op->n, (long long)op->n, mn_array_ndim(v), (long long)mn_array_size(v));
  return MN_SUCCESS;
}

int mn_op_set_diagonal(mn_op *op, const mn_array *d) {
  MN_CHECK(op, MN_ERR_ARG, "NULL operator");
  MN_SPMD(op ? op->ctx : NULL, "mn_op_set_diagonal", mn_spmd_int(S, "n", op->n), mn_spmd_array(S, "d", d));
  MN_CHECK(!op->A && !op->st, MN_ERR_ARG, "a %s operator's diagonal is the %s's; only shell operators take one",
           op->A ? "CSR" : "stencil", op->A ? "matrix" : "stencil");
  MN_CALL(check_vec(op, d, "diagonal"));
  mn_array *c = NULL;
  MN_CALL(mn_array_create(op->ctx, MN_FLOAT64, 1, &op->n, 0, &c));
  int err = mn_array_copy(d, c);
  if (err) {
    mn_array_destroy(&c);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  mn_array_destroy(&op->diag);
  op->diag = c;
  return MN_SUCCESS;
}

/* the user's function, its code agreed (it may fail on one rank only);
 * its message is the one it raised (MN_CHECK, MN_ERR) */
int mni_sv_call_user(mn_ctx *ctx, mn_op_apply_fn fn, void *user, const mn_array *x, mn_array *y) {
  int err = fn(user, x, y);
  if (err) err = mn_trace(err, __FILE__, __LINE__, __func__);
  return mn_agree(ctx, err);
}

int mn_op_apply(const mn_op *op, const mn_array *x, mn_array *y) {
  MN_CHECK(op, MN_ERR_ARG, "NULL operator");
  MN_SPMD(op ? op->ctx : NULL, "mn_op_apply", mn_spmd_int(S, "n", op->n), mn_spmd_array(S, "x", x),
          mn_spmd_array(S, "y", y));
  MN_CALL(check_vec(op, x, "x"));
  MN_CALL(check_vec(op, y, "y"));
  if (op->A) MN_CALL(mn_csr_spmv(op->A, x, y));
  else if (op->st) MN_CALL(mni_sv_stencil_apply(op, x, y));
  else MN_CALL(mni_sv_call_user(op->ctx, op->fn, op->user, x, y));
  return MN_SUCCESS;
}

int mn_op_get_diagonal(const mn_op *op, mn_array *d) {
  MN_CHECK(op, MN_ERR_ARG, "NULL operator");
  MN_SPMD(op ? op->ctx : NULL, "mn_op_get_diagonal", mn_spmd_int(S, "n", op->n), mn_spmd_array(S, "d", d));
  MN_CALL(check_vec(op, d, "diagonal"));
  MN_CHECK(op->A || op->st || op->diag, MN_ERR_NOTIMPL,
           "the shell operator has no known diagonal (give it one with mn_op_set_diagonal)");
  if (op->A) MN_CALL(mn_csr_diagonal(op->A, d));
  else if (op->st) MN_CALL(mni_sv_stencil_diagonal(op, d));
  else MN_CALL(mn_array_copy(op->diag, d));
  return MN_SUCCESS;
}

int64_t mn_op_size(const mn_op *op) { return op ? op->n : -1; }

int mn_op_destroy(mn_op **op) {
  if (!op || !*op) return MN_SUCCESS;
  mn_array_destroy(&(*op)->diag);
  mni_sv_stencil_free(&(*op)->st);
  free((*op)->brow);
  free(*op);
  *op = NULL;
  return MN_SUCCESS;
}

static int sv_apply(const mn_op *A, const mn_wvec *x, mn_wvec *y, double *xy) {
  if (A->A && A->A->dtype == MN_FLOAT64) MN_CALL(mni_sv_csr_apply(A, x->v, y->v, xy));
  else {
    MN_CALL(mn_op_apply(A, x->a, y->a));
    if (xy) *xy = mni_k_dot(mn_split_size(A->n, A->ctx->size, A->ctx->rank), x->v, y->v);
  }
  return MN_SUCCESS;
}

int mni_sv_apply(const mn_op *A, const mn_wvec *x, mn_wvec *y, double *xy) {
  mn_log_begin(A->ctx, MN_LOG_SV_OP);
  int err = sv_apply(A, x, y, xy);
  mn_log_end(A->ctx, MN_LOG_SV_OP, 0); /* the SpMV or stencil inside counts it */
  return err;
}
