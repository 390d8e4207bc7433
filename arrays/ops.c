/* One-shot element-wise operations, copies and fills, each a small fused
 * expression. */
#include "expr_impl.h"
#include "spmd.h"
#include <math.h>

/* Run a block that builds and evaluates a temporary expression e_. */
#define WITH_EXPR(ctx, ...) do { \
    mn_expr *e_; MN_CALL(mn_expr_create((ctx), &e_)); \
    int err_ = 0; __VA_ARGS__; \
    mn_expr_destroy(&e_); \
    if (err_) return mn_trace(err_, __FILE__, __LINE__, __func__); \
  } while (0)
#define TRY(x) do { if (!err_) err_ = (x); } while (0)

static int same_ctx(const mn_array *a, const mn_array *b) {
  MN_CHECK(a && b, MN_ERR_ARG, "NULL array");
  MN_CHECK(a->ctx == b->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  return MN_SUCCESS;
}

int mn_array_unary(mn_unary_op op, const mn_array *x, mn_array *out) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_unary", mn_spmd_int(S, "op", op), mn_spmd_array(S, "x", x),
          mn_spmd_array(S, "out", out));
  MN_CALL(same_ctx(x, out));
  WITH_EXPR(x->ctx, {
    int a = 0, r = 0;
    TRY(mn_expr_input(e_, x, &a));
    TRY(op == MN_OP_CAST ? mn_expr_cast(e_, a, out->dtype, &r) : mn_expr_unary(e_, op, a, &r));
    TRY(mn_expr_eval(e_, r, out));
  });
  return MN_SUCCESS;
}

int mn_array_binary(mn_binary_op op, const mn_array *x, const mn_array *y, mn_array *out) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_binary", mn_spmd_int(S, "op", op), mn_spmd_array(S, "x", x),
          mn_spmd_array(S, "y", y), mn_spmd_array(S, "out", out));
  MN_CALL(same_ctx(x, out));
  MN_CALL(same_ctx(y, out));
  WITH_EXPR(x->ctx, {
    int a = 0, b = 0, r = 0;
    TRY(mn_expr_input(e_, x, &a));
    TRY(mn_expr_input(e_, y, &b));
    TRY(mn_expr_binary(e_, op, a, b, &r));
    TRY(mn_expr_eval(e_, r, out));
  });
  return MN_SUCCESS;
}

int mn_array_binary_scalar(mn_binary_op op, const mn_array *x, mn_scalar s, int scalar_first,
                           mn_array *out) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_binary_scalar", mn_spmd_int(S, "op", op), mn_spmd_array(S, "x", x),
          mn_spmd_scalar(S, "s", s), mn_spmd_int(S, "scalar_first", scalar_first), mn_spmd_array(S, "out", out));
  MN_CALL(same_ctx(x, out));
  WITH_EXPR(x->ctx, {
    int a = 0, b = 0, r = 0;
    TRY(mn_expr_input(e_, x, &a));
    TRY(mn_expr_scalar(e_, s, &b));
    TRY(scalar_first ? mn_expr_binary(e_, op, b, a, &r) : mn_expr_binary(e_, op, a, b, &r));
    TRY(mn_expr_eval(e_, r, out));
  });
  return MN_SUCCESS;
}

int mn_array_where(const mn_array *cond, const mn_array *x, const mn_array *y, mn_array *out) {
  MN_SPMD(cond ? cond->ctx : NULL, "mn_array_where", mn_spmd_array(S, "cond", cond), mn_spmd_array(S, "x", x),
          mn_spmd_array(S, "y", y), mn_spmd_array(S, "out", out));
  MN_CALL(same_ctx(cond, out));
  MN_CALL(same_ctx(x, out));
  MN_CALL(same_ctx(y, out));
  WITH_EXPR(x->ctx, {
    int c = 0, a = 0, b = 0, r = 0;
    TRY(mn_expr_input(e_, cond, &c));
    TRY(mn_expr_input(e_, x, &a));
    TRY(mn_expr_input(e_, y, &b));
    TRY(mn_expr_ternary(e_, MN_OP_WHERE, c, a, b, &r));
    TRY(mn_expr_eval(e_, r, out));
  });
  return MN_SUCCESS;
}

int mn_array_axpby(double alpha, const mn_array *x, double beta, const mn_array *y, mn_array *out) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_axpby", mn_spmd_f64(S, "alpha", alpha), mn_spmd_array(S, "x", x),
          mn_spmd_f64(S, "beta", beta), mn_spmd_array(S, "y", y), mn_spmd_array(S, "out", out));
  MN_CALL(same_ctx(x, out));
  MN_CALL(same_ctx(y, out));
  WITH_EXPR(x->ctx, {
    int a = 0, b = 0, sa = 0, sb = 0, ax = 0, by = 0, r = 0;
    TRY(mn_expr_input(e_, x, &a));
    TRY(mn_expr_input(e_, y, &b));
    TRY(mn_expr_scalar(e_, mn_scalar_f64(alpha), &sa));
    TRY(mn_expr_scalar(e_, mn_scalar_f64(beta), &sb));
    if (beta == 1.0) { TRY(mn_expr_binary(e_, MN_OP_MUL, sa, a, &ax)); TRY(mn_expr_binary(e_, MN_OP_ADD, b, ax, &r)); }
    else if (alpha == 1.0) { TRY(mn_expr_binary(e_, MN_OP_MUL, sb, b, &by)); TRY(mn_expr_binary(e_, MN_OP_ADD, a, by, &r)); }
    else {
      TRY(mn_expr_binary(e_, MN_OP_MUL, sa, a, &ax));
      TRY(mn_expr_binary(e_, MN_OP_MUL, sb, b, &by));
      TRY(mn_expr_binary(e_, MN_OP_ADD, ax, by, &r));
    }
    TRY(mn_expr_eval(e_, r, out));
  });
  return MN_SUCCESS;
}

int mn_array_copy(const mn_array *src, mn_array *dst) {
  MN_SPMD(src ? src->ctx : NULL, "mn_array_copy", mn_spmd_array(S, "src", src), mn_spmd_array(S, "dst", dst));
  MN_CALL(same_ctx(src, dst));
  WITH_EXPR(src->ctx, {
    int a = 0;
    TRY(mn_expr_input(e_, src, &a));
    TRY(mn_expr_eval(e_, a, dst));
  });
  return MN_SUCCESS;
}

int mn_array_fill(mn_array *a, mn_scalar value) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_fill", mn_spmd_array(S, "a", a), mn_spmd_scalar(S, "value", value));
  MN_CHECK(value.dtype >= 0 && value.dtype < MN_NDTYPE, MN_ERR_DTYPE, "fill value has unknown dtype code %d",
           (int)value.dtype);
  WITH_EXPR(a->ctx, {
    int s = 0;
    TRY(mn_expr_scalar(e_, value, &s));
    TRY(mn_expr_eval(e_, s, a));
  });
  return MN_SUCCESS;
}

int mn_array_reduce(mn_reduce_op op, const mn_array *x, mn_scalar *result) {
  MN_CHECK(x && result, MN_ERR_ARG, "NULL array or result");
  MN_SPMD(x ? x->ctx : NULL, "mn_array_reduce", mn_spmd_int(S, "op", op), mn_spmd_array(S, "x", x));
  WITH_EXPR(x->ctx, {
    int a = 0;
    TRY(mn_expr_input(e_, x, &a));
    TRY(mn_expr_reduce(e_, a, op, result));
  });
  return MN_SUCCESS;
}

int mn_array_dot(const mn_array *x, const mn_array *y, mn_scalar *result) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_dot", mn_spmd_array(S, "x", x), mn_spmd_array(S, "y", y));
  MN_CALL(same_ctx(x, y));
  MN_CHECK(result, MN_ERR_ARG, "NULL result");
  int same = x->map.ndim == y->map.ndim;
  for (int d = 0; same && d < x->map.ndim; d++) same = x->map.shape[d] == y->map.shape[d];
  if (!same) {
    char a[128], b[128];
    mn_shape_str(x->map.ndim, x->map.shape, a, sizeof a);
    mn_shape_str(y->map.ndim, y->map.shape, b, sizeof b);
    return MN_ERR(MN_ERR_SHAPE, "shapes %s and %s not aligned for dot", a, b);
  }
  WITH_EXPR(x->ctx, {
    int a = 0, b = 0, r = 0;
    TRY(mn_expr_input(e_, x, &a));
    TRY(mn_expr_input(e_, y, &b));
    TRY(mn_expr_binary(e_, MN_OP_MUL, a, b, &r));
    TRY(mn_expr_reduce(e_, r, MN_RED_SUM, result));
  });
  return MN_SUCCESS;
}

int mn_array_norm(const mn_array *x, double ord, double *result) {
  MN_CHECK(x && result, MN_ERR_ARG, "NULL array or result");
  MN_SPMD(x ? x->ctx : NULL, "mn_array_norm", mn_spmd_array(S, "x", x), mn_spmd_f64(S, "ord", ord));
  mn_reduce_op op;
  if (ord == 1) op = MN_RED_SUMABS;
  else if (ord == 2) op = MN_RED_SUMSQ;
  else if (isinf(ord) && ord > 0) op = MN_RED_MAXABS;
  else return MN_ERR(MN_ERR_ARG, "norm order %g not supported (use 1, 2 or INFINITY)", ord);
  mn_scalar s;
  if (op == MN_RED_MAXABS && mn_array_size(x) == 0) { *result = 0; return MN_SUCCESS; }
  /* integers are converted first, as NumPy does: int64 squares overflow */
  int isf = x->dtype == MN_FLOAT32 || x->dtype == MN_FLOAT64;
  WITH_EXPR(x->ctx, {
    int a = 0, c = 0;
    TRY(mn_expr_input(e_, x, &a));
    if (isf) c = a; else TRY(mn_expr_cast(e_, a, MN_FLOAT64, &c));
    TRY(mn_expr_reduce(e_, c, op, &s));
  });
  double v = mn_scalar_as_f64(s);
  *result = op == MN_RED_SUMSQ ? sqrt(v) : v;
  return MN_SUCCESS;
}
