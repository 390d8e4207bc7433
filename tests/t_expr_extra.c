/* mn_expr_eval_extra / mn_expr_reduce_extra: the stored nodes and the
 * result against a serial loop, extras on another distribution (stored
 * after, alone), an output view, and bad extras rejected on every rank. */
#include "mn_test.h"

enum { NY = 37, NX = 23 }; /* uneven splits at 2, 3, 4 ranks */

static double fx(int64_t i) { return 0.25 + (double)((i * 7919) % 101) / 50.0; }
static double fy(int64_t i) { return 1.5 - (double)((i * 104729) % 89) / 60.0; }

/* s = x*y; t = sqrt(s + 1); r = t*x - s */
static void build(mn_ctx *ctx, mn_array *x, mn_array *y, mn_expr **e, int *s, int *t, int *r) {
  int a, b, one, u;
  T_OK(mn_expr_create(ctx, e));
  T_OK(mn_expr_input(*e, x, &a));
  T_OK(mn_expr_input(*e, y, &b));
  T_OK(mn_expr_binary(*e, MN_OP_MUL, a, b, s));
  T_OK(mn_expr_scalar(*e, mn_scalar_f64(1.0), &one));
  T_OK(mn_expr_binary(*e, MN_OP_ADD, *s, one, &u));
  T_OK(mn_expr_unary(*e, MN_OP_SQRT, u, t));
  T_OK(mn_expr_binary(*e, MN_OP_MUL, *t, a, &u));
  T_OK(mn_expr_binary(*e, MN_OP_SUB, u, *s, r));
}

static void check(const mn_array *a, int which, const char *what) {
  double *v = mt_all(a);
  int bad = 0;
  for (int64_t i = 0; i < (int64_t)NY * NX && bad < 3; i++) {
    double s = fx(i) * fy(i), t = sqrt(s + 1), want = which == 0 ? s : which == 1 ? t : t * fx(i) - s;
    if (v[i] != want) { T_CHECK(0, "%s[%lld] = %.17g, serial loop %.17g", what, (long long)i, v[i], want); bad++; }
  }
  free(v);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int size = mn_ctx_size(ctx);
  int64_t shape[2] = {NY, NX};
  mn_array *x, *y, *out, *xs, *xt;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 0, &x));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 0, &y));
  mt_set(x, fx);
  mt_set(y, fy);
  mn_expr *e;
  int s, t, r;
  build(ctx, x, y, &e, &s, &t, &r);

  /* evaluation: r into out, s and t stored in the same pass */
  T_OK(mn_array_create_empty(ctx, MN_FLOAT64, 2, shape, &out));
  T_OK(mn_array_create_empty(ctx, MN_FLOAT64, 2, shape, &xs));
  T_OK(mn_array_create_empty(ctx, MN_FLOAT64, 2, shape, &xt));
  int nodes[2] = {s, t};
  mn_array *outs[2] = {xs, xt};
  T_OK(mn_expr_eval_extra(e, r, out, 2, nodes, outs));
  check(out, 2, "eval r");
  check(xs, 0, "eval extra s");
  check(xt, 1, "eval extra t");

  /* reduction: sum(t) with t stored */
  mn_array *xt2;
  T_OK(mn_array_create_empty(ctx, MN_FLOAT64, 2, shape, &xt2));
  mn_scalar sum;
  T_OK(mn_expr_reduce_extra(e, t, MN_RED_SUM, &sum, 1, &s, &xt2));
  double want = 0;
  for (int64_t i = 0; i < (int64_t)NY * NX; i++) want += sqrt(fx(i) * fy(i) + 1);
  T_CLOSE(mn_scalar_as_f64(sum), want, 1e-13); /* reduction order only */
  check(xt2, 0, "reduce extra s");

  /* an extra on another process grid (columns split instead of rows): correct, stored apart */
  mn_layout *lay;
  int dims[2] = {1, size};
  mn_array *xo;
  T_OK(mn_layout_create_block(ctx, 2, shape, dims, &lay));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &xo));
  T_OK(mn_expr_eval_extra(e, r, out, 1, &t, &xo));
  check(xo, 1, "extra on columns");
  check(out, 2, "eval r with an unaligned extra");

  /* bad extras, on every rank: wrong dtype, wrong shape, read by the expression, too many */
  mn_array *f32, *small;
  int64_t sshape[2] = {NY, NX - 1};
  T_OK(mn_array_create_empty(ctx, MN_FLOAT32, 2, shape, &f32));
  T_OK(mn_array_create_empty(ctx, MN_FLOAT64, 2, sshape, &small));
  int rc = mn_expr_eval_extra(e, r, out, 1, &t, &f32);
  T_CHECK(rc == MN_ERR_DTYPE && strstr(mn_ctx_errmsg(ctx), "extra output 0 is float32"), "dtype: %s %s",
          mn_err_name(rc), mn_ctx_errmsg(ctx));
  rc = mn_expr_eval_extra(e, r, out, 1, &t, &small);
  T_CHECK(rc == MN_ERR_SHAPE && strstr(mn_ctx_errmsg(ctx), "(37, 22)"), "shape: %s %s", mn_err_name(rc),
          mn_ctx_errmsg(ctx));
  rc = mn_expr_eval_extra(e, r, out, 1, &t, &x);
  T_CHECK(rc == MN_ERR_ARG && strstr(mn_ctx_errmsg(ctx), "read by the expression"), "aliased: %s %s",
          mn_err_name(rc), mn_ctx_errmsg(ctx));
  int many[17];
  mn_array *mo[17];
  for (int k = 0; k < 17; k++) { many[k] = t; mo[k] = xt; }
  rc = mn_expr_reduce_extra(e, t, MN_RED_SUM, &sum, 17, many, mo);
  T_CHECK(rc == MN_ERR_ARG && strstr(mn_ctx_errmsg(ctx), "17 extra outputs"), "count: %s %s", mn_err_name(rc),
          mn_ctx_errmsg(ctx));
  check(out, 2, "out after the rejected calls");

  mn_expr_destroy(&e);
  mn_array *all[] = {x, y, out, xs, xt, xt2, xo, f32, small};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) mn_array_destroy(&all[k]);
  mn_layout_destroy(&lay);
  return mt_finish(&ctx);
}
