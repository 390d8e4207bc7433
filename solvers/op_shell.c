/* Matrix-free operators: the user's product, and a diagonal the user may
 * give (mn_op_set_diagonal). */
#include "solver_impl.h"
#include "spmd.h"
#include <stdlib.h>

typedef struct {
  mn_op_apply_fn fn;
  void *user;
} shell;

/* the user's function, its code agreed (it may fail on one rank only);
 * its message is the one it raised (MN_CHECK, MN_ERR) */
int mni_sv_call_user(mn_ctx *ctx, mn_op_apply_fn fn, void *user, const mn_array *x, mn_array *y) {
  int err = fn(user, x, y);
  if (err) err = mn_trace(err, __FILE__, __LINE__, __func__);
  return mn_agree(ctx, err);
}

static int shell_apply(const mn_op *op, const mn_array *x, mn_array *y) {
  const shell *sh = op->data;
  return mni_sv_call_user(op->ctx, sh->fn, sh->user, x, y);
}

static const mni_sv_op_ops shell_ops = {"shell", "user", shell_apply, NULL, NULL, free};

int mn_op_create_shell(mn_ctx *ctx, int64_t n, mn_dtype dtype, mn_op_apply_fn apply, void *user, mn_op **op) {
  MN_CHECK(ctx && apply && op, MN_ERR_ARG, "NULL context, apply function or output");
  MN_SPMD(ctx, "mn_op_create_shell", mn_spmd_int(S, "n", n), mn_spmd_dtype(S, "dtype", dtype));
  MN_CHECK(n >= 0, MN_ERR_SHAPE, "operator size %lld must be >= 0", (long long)n);
  MN_CHECK(mn_is_float(dtype), MN_ERR_DTYPE, "an operator's dtype is float32 or float64, got %s",
           mn_dtype_name(dtype));
  shell *sh = malloc(sizeof *sh);
  MN_CALL(mn_agree(ctx, sh ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate an operator")));
  sh->fn = apply;
  sh->user = user;
  MN_CALL(mni_sv_op_new(ctx, n, dtype, &shell_ops, sh, op));
  return MN_SUCCESS;
}
