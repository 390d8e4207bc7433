#include "expr.h"

static int fail(ex *x, int err) {
  if (!x->err) x->err = err;
  return -1;
}

void ex_begin(ex *x, mn_ctx *ctx) {
  *x = (ex){0};
  x->err = mn_expr_create(ctx, &x->e);
}

static int slice(mn_array *a, int64_t r0, int64_t r1, int64_t c0, int64_t c1, mn_array **v) {
  const mn_index idx[2] = {mn_slice(r0, r1, 1), mn_slice(c0, c1, 1)};
  return mn_array_index(a, 2, idx, v);
}

int ex_at(ex *x, mn_array *a, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  if (x->err) return -1;
  if (x->nv == EX_MAXVIEWS) return fail(x, MN_ERR(MN_ERR_ARG, "more than %d slices in one formula", EX_MAXVIEWS));
  mn_array *v = NULL;
  int node = 0, err = slice(a, r0, r1, c0, c1, &v);
  if (err) return fail(x, err);
  x->views[x->nv++] = v;
  err = mn_expr_input(x->e, v, &node);
  return err ? fail(x, err) : node;
}

int ex_s(ex *x, double s) {
  int node = 0;
  if (x->err) return -1;
  int err = mn_expr_scalar(x->e, mn_scalar_f64(s), &node);
  return err ? fail(x, err) : node;
}

int ex_where(ex *x, int cond, int a, int b) {
  int node = 0;
  if (x->err) return -1;
  int err = mn_expr_ternary(x->e, MN_OP_WHERE, cond, a, b, &node);
  return err ? fail(x, err) : node;
}

int ex_bin(ex *x, mn_binary_op op, int a, int b) {
  int node = 0;
  if (x->err) return -1;
  int err = mn_expr_binary(x->e, op, a, b, &node);
  return err ? fail(x, err) : node;
}

int ex_add(ex *x, int a, int b) { return ex_bin(x, MN_OP_ADD, a, b); }
int ex_sub(ex *x, int a, int b) { return ex_bin(x, MN_OP_SUB, a, b); }
int ex_mul(ex *x, int a, int b) { return ex_bin(x, MN_OP_MUL, a, b); }
int ex_div(ex *x, int a, int b) { return ex_bin(x, MN_OP_DIV, a, b); }

int ex_un(ex *x, mn_unary_op op, int a) {
  int node = 0;
  if (x->err) return -1;
  int err = mn_expr_unary(x->e, op, a, &node);
  return err ? fail(x, err) : node;
}

int ex_sq(ex *x, int a) { return ex_un(x, MN_OP_SQUARE, a); }

int ex_in(ex *x, const mn_array *a) {
  int node = 0;
  if (x->err) return -1;
  int err = mn_expr_input(x->e, a, &node);
  return err ? fail(x, err) : node;
}

int ex_end(ex *x) {
  mn_expr_destroy(&x->e); /* before the views it reads */
  for (int k = 0; k < x->nv; k++) mn_array_destroy(&x->views[k]);
  x->nv = 0;
  return x->err;
}

int ex_eval(ex *x, int node, mn_array *out, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
  mn_array *v = NULL;
  if (!x->err) x->err = slice(out, r0, r1, c0, c1, &v);
  if (!x->err) x->err = mn_expr_eval(x->e, node, v);
  mn_array_destroy(&v);
  int err = ex_end(x);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int ex_fill(mn_array *a, int64_t r0, int64_t r1, int64_t c0, int64_t c1, double value) {
  mn_array *v = NULL;
  int err = slice(a, r0, r1, c0, c1, &v);
  if (!err) err = mn_array_fill(v, mn_scalar_f64(value));
  mn_array_destroy(&v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int ex_copy(mn_array *src, int64_t sr0, int64_t sc0, mn_array *dst, int64_t dr0, int64_t dc0, int64_t n0, int64_t n1) {
  mn_array *s = NULL, *d = NULL;
  int err = slice(src, sr0, sr0 + n0, sc0, sc0 + n1, &s);
  if (!err) err = slice(dst, dr0, dr0 + n0, dc0, dc0 + n1, &d);
  if (!err) err = mn_array_copy(s, d);
  mn_array_destroy(&s);
  mn_array_destroy(&d);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
