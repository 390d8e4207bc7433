/* Formulas over 2-d array slices as maniple fused expressions, for the
 * apps' device paths: each update is one evaluation, which runs where the
 * arrays' values are (the device on a device backend) and brings remote
 * neighbours itself. Errors are sticky: after the first failure every
 * call returns -1 and ex_eval reports the error, so a formula reads as
 * nested calls with one check at the end. */
#ifndef APP_EXPR_H
#define APP_EXPR_H

#include <maniple/maniple.h>

enum { EX_MAXVIEWS = 32 };

typedef struct {
  mn_expr *e;
  int err;
  int nv;
  mn_array *views[EX_MAXVIEWS];
} ex;

/* A fresh expression on ctx (check with ex_eval or ex_end). */
void ex_begin(ex *x, mn_ctx *ctx);
/* The node of a[r0:r1, c0:c1] (non-negative bounds). */
int ex_at(ex *x, mn_array *a, int64_t r0, int64_t r1, int64_t c0, int64_t c1);
int ex_s(ex *x, double s);
int ex_bin(ex *x, mn_binary_op op, int a, int b);
int ex_where(ex *x, int cond, int a, int b);
int ex_add(ex *x, int a, int b);
int ex_sub(ex *x, int a, int b);
int ex_mul(ex *x, int a, int b);
int ex_div(ex *x, int a, int b);
int ex_un(ex *x, mn_unary_op op, int a);
int ex_sq(ex *x, int a); /* NumPy's a**2: a*a */
/* The node of the whole of a */
int ex_in(ex *x, const mn_array *a);
/* out[r0:r1, c0:c1] = node; releases the expression and its views. */
int ex_eval(ex *x, int node, mn_array *out, int64_t r0, int64_t r1, int64_t c0, int64_t c1);
/* Releases without evaluating; returns the sticky error. */
int ex_end(ex *x);

/* a[r0:r1, c0:c1] = value; dst[...] = src[...] on two slices of one shape */
int ex_fill(mn_array *a, int64_t r0, int64_t r1, int64_t c0, int64_t c1, double value);
int ex_copy(mn_array *src, int64_t sr0, int64_t sc0, mn_array *dst, int64_t dr0, int64_t dc0, int64_t n0, int64_t n1);

#endif
