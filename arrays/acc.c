/* Reduction accumulators: combined over the ranks in rank order, so the
 * result is the same on every rank and at every thread count. */
#include "acc.h"
#include "mn_impl.h"
#include "kernels/half.h"
#include <stdlib.h>
#include <string.h>

/* A rank's partial and its deferred error (mn_defer), which rides along;
 * op and t let the MPI reduction operator merge it */
typedef struct {
  mn_acc a;
  int deferred, op, t;
} accmsg;

/* inout = in (lower ranks) then inout (higher ranks): MPI's order for an
 * operator that is not commutative */
static void merge_msgs(void *in, void *inout, int *len, MPI_Datatype *dt) {
  (void)dt;
  accmsg *x = in, *y = inout;
  for (int k = 0; k < *len; k++) {
    mn_acc r = x[k].a;
    mn_acc_merge((mn_reduce_op)x[k].op, (mn_dtype)x[k].t, &r, &y[k].a);
    y[k].a = r;
    y[k].deferred = x[k].deferred ? x[k].deferred : y[k].deferred;
  }
}

/* one message type and operator for the process (MPI frees them at
 * MPI_Finalize); calls are serialised (MPI_THREAD_SERIALIZED) */
static MPI_Datatype msg_type = MPI_DATATYPE_NULL;
static MPI_Op msg_op = MPI_OP_NULL;

/* Combine per-rank accumulators in rank order, identically on every rank:
 * up to ctx->acc_gather_max ranks every rank gathers every partial and
 * merges them left to right (one MPI_Allgather); above, MPI_Allreduce with
 * an operator that is not commutative merges them in rank order along a
 * tree, O(log P) instead of O(P) per reduction (the grouping differs, so
 * the last bits may). */
int mn_acc_allreduce(mn_ctx *ctx, mn_reduce_op op, mn_dtype t, mn_acc *acc) {
  if (ctx->size == 1) return mn_deferred_take(ctx);
  accmsg mine = {*acc, ctx->deferred, (int)op, (int)t}, res;
  int tree = ctx->size > ctx->acc_gather_max, rc = MPI_SUCCESS, any = 0;
  accmsg *all = tree ? NULL : malloc(sizeof(accmsg) * (size_t)ctx->size);
  MN_CHECK(tree || all, MN_ERR_MEM, "cannot allocate %d accumulators", ctx->size);
  if (tree && msg_op == MPI_OP_NULL) {
    rc = MPI_Type_contiguous((int)sizeof(accmsg), MPI_BYTE, &msg_type);
    if (rc == MPI_SUCCESS) rc = MPI_Type_commit(&msg_type);
    if (rc == MPI_SUCCESS) rc = MPI_Op_create(merge_msgs, 0, &msg_op);
    MN_CHECK(rc == MPI_SUCCESS, MN_ERR_MPI, "cannot create the MPI operator of reduction partials");
  }
  /* an allreduce in effect (ranks' partials merged in rank order): logged as one */
  mn_log_begin(ctx, MN_LOG_ALLREDUCE);
  if (ctx->log) ctx->log->allreduces++;
  if (tree) rc = MPI_Allreduce(&mine, &res, 1, msg_type, msg_op, ctx->comm);
  else rc = MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, ctx->comm);
  mn_log_end(ctx, MN_LOG_ALLREDUCE, 0);
  if (rc != MPI_SUCCESS) {
    free(all);
    return MN_ERR(MN_ERR_MPI, "%s of reduction partials failed", tree ? "MPI_Allreduce" : "MPI_Allgather");
  }
  mn_acc r;
  if (tree) {
    r = res.a;
    any = res.deferred != 0;
  } else {
    mn_acc_init(op, t, &r);
    for (int q = 0; q < ctx->size; q++) {
      mn_acc_merge(op, t, &r, &all[q].a);
      any |= all[q].deferred != 0;
    }
    free(all);
  }
  /* every rank saw it: raise the first one everywhere, with its message */
  if (any) return mn_agree(ctx, MN_SUCCESS);
  *acc = r;
  return MN_SUCCESS;
}

int mn_acc_to_scalar(mn_reduce_op op, mn_dtype t, const mn_acc *acc, mn_scalar *res) {
  mn_dtype rt = mn_reduce_result(op, t);
  int isf = mn_is_float(t);
  if (mn_reduce_needs_data(op))
    MN_CHECK(acc->has > 0, MN_ERR_SHAPE, "zero-size array to reduction operation %s which has no identity",
             mn_reduce_name(op));
  if (op == MN_RED_ARGMIN || op == MN_RED_ARGMAX) { *res = mn_scalar_typed(MN_INT64, 0); res->v.i = acc->idx; return MN_SUCCESS; }
  res->dtype = rt;
  res->weak = 0;
  res->im = 0;
  if (rt == MN_COMPLEX64) { res->v.f = (float)acc->f; res->im = (float)acc->g; }
  else if (rt == MN_COMPLEX128) { res->v.f = acc->f; res->im = acc->g; }
  else if (rt == MN_BOOL) res->v.i = acc->i != 0;
  else if (rt == MN_FLOAT32) res->v.f = (float)acc->f;
  else if (rt == MN_FLOAT16) res->v.f = mn_h2d(mn_d2h(acc->f));
  else if (rt == MN_FLOAT64) res->v.f = acc->f;
  else if (isf) res->v.i = (int64_t)acc->f;
  else res->v.i = mn_int_wrap(rt, acc->i);
  return MN_SUCCESS;
}
