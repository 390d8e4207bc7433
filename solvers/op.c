/* Linear operators: what every kind shares (checks, the diagonal a shell
 * may be given, the product on work vectors); each kind fills a table of
 * its own (op_csr.c, op_shell.c, stencil_op.c). */
#include "solver_impl.h"
#include "spmd.h"
#include <stdlib.h>

int mni_sv_op_new(mn_ctx *ctx, int64_t n, mn_dtype dtype, const mni_sv_op_ops *ops, void *data, mn_op **op) {
  mn_op *o = calloc(1, sizeof *o);
  int err = mn_agree(ctx, o ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate an operator"));
  if (err) {
    if (ops->destroy) ops->destroy(data);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  o->ctx = ctx;
  o->n = n;
  o->dtype = dtype;
  o->ops = ops;
  o->data = data;
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
  MN_CHECK(!op->ops->diagonal, MN_ERR_ARG, "a %s operator's diagonal is the %s's; only shell operators take one",
           op->ops->name, op->ops->owner);
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

int mn_op_apply(const mn_op *op, const mn_array *x, mn_array *y) {
  MN_CHECK(op, MN_ERR_ARG, "NULL operator");
  MN_SPMD(op ? op->ctx : NULL, "mn_op_apply", mn_spmd_int(S, "n", op->n), mn_spmd_array(S, "x", x),
          mn_spmd_array(S, "y", y));
  MN_CALL(check_vec(op, x, "x"));
  MN_CALL(check_vec(op, y, "y"));
  MN_CALL(op->ops->apply(op, x, y));
  return MN_SUCCESS;
}

int mn_op_get_diagonal(const mn_op *op, mn_array *d) {
  MN_CHECK(op, MN_ERR_ARG, "NULL operator");
  MN_SPMD(op ? op->ctx : NULL, "mn_op_get_diagonal", mn_spmd_int(S, "n", op->n), mn_spmd_array(S, "d", d));
  MN_CALL(check_vec(op, d, "diagonal"));
  MN_CHECK(op->ops->diagonal || op->diag, MN_ERR_NOTIMPL,
           "the shell operator has no known diagonal (give it one with mn_op_set_diagonal)");
  if (op->ops->diagonal) MN_CALL(op->ops->diagonal(op, d));
  else MN_CALL(mn_array_copy(op->diag, d));
  return MN_SUCCESS;
}

int64_t mn_op_size(const mn_op *op) { return op ? op->n : -1; }

int mn_op_destroy(mn_op **op) {
  if (!op || !*op) return MN_SUCCESS;
  mn_array_destroy(&(*op)->diag);
  if ((*op)->ops->destroy) (*op)->ops->destroy((*op)->data);
  free(*op);
  *op = NULL;
  return MN_SUCCESS;
}

static int sv_apply(mn_solver *s, const mn_wvec *x, mn_wvec *y, double *xy) {
  const mn_op *A = s->A;
  if (A->ops->apply_local && A->dtype == MN_FLOAT64) MN_CALL(A->ops->apply_local(A, s->dv, x->v, y->v, xy));
  else {
    mni_sv_dev(s, x);
    MN_CALL(mn_op_apply(A, x->a, y->a));
    mni_sv_dev(s, y);
    if (xy) *xy = mni_k_dot(s->dv, s->nloc, x->v, y->v);
  }
  return MN_SUCCESS;
}

int mni_sv_apply(mn_solver *s, const mn_wvec *x, mn_wvec *y, double *xy) {
  mn_log_begin(s->ctx, MN_LOG_SV_OP);
  int err = sv_apply(s, x, y, xy);
  mn_log_end(s->ctx, MN_LOG_SV_OP, 0); /* the SpMV or stencil inside counts it */
  return err;
}
