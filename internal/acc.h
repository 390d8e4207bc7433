/* Reduction accumulators over the ranks (arrays/acc.c), for whole-array
 * reductions (eval.c) and reductions along axes (reduce_axis.c). */
#ifndef MANIPLE_ACC_H
#define MANIPLE_ACC_H
#include "kernels/table.h"

/* Combine per-rank accumulators in rank order, identically on every rank. */
int mn_acc_allreduce(mn_ctx *ctx, mn_reduce_op op, mn_dtype t, mn_acc *acc);
/* The reduction's value (NumPy's result dtype) from its accumulator. */
int mn_acc_to_scalar(mn_reduce_op op, mn_dtype t, const mn_acc *acc, mn_scalar *res);
#endif
