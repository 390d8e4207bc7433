/* Linear-combination fusion: a left-deep chain of float adds and subtracts
 * of terms (optionally each scaled by a scalar), optionally scaled or
 * divided by a scalar at the end, runs as one pass instead of one pass per
 * operation. The arithmetic is the same as NumPy's operation by operation
 * (multiplying by +-1 is exact), so results are bit-identical. */
#include "fuse.h"
#include <string.h>


static int scalar_of(const mn_expr *e, int j, double *v) {
  const mn_node *n = &e->v[j];
  if (n->kind != MN_N_SCALAR) return 0;
  *v = n->s.v.f;
  return 1;
}

/* the leaf and coefficient of one term: x, s*x, x*s or -x */
static void term(const mn_expr *e, const int *uses, int j, double sign, int *leaf, double *coef) {
  const mn_node *n = &e->v[j];
  double s;
  if (uses[j] == 1 && n->kind == MN_N_BINARY && n->op == MN_OP_MUL && mn_is_float(n->ct)) {
    if (scalar_of(e, n->a, &s)) { *leaf = n->b; *coef = sign * s; return; }
    if (scalar_of(e, n->b, &s)) { *leaf = n->a; *coef = sign * s; return; }
  }
  if (uses[j] == 1 && n->kind == MN_N_UNARY && n->op == MN_OP_NEG && mn_is_float(n->ct)) {
    *leaf = n->a; *coef = -sign; return;
  }
  *leaf = j;
  *coef = sign;
}

static int is_chain(const mn_expr *e, int j, mn_dtype t) {
  const mn_node *n = &e->v[j];
  return n->kind == MN_N_BINARY && (n->op == MN_OP_ADD || n->op == MN_OP_SUB) && n->ct == t;
}

/* Flatten the left-deep chain at j into lc (terms in evaluation order).
 * links counts the chain nodes taken so far, this one included; a chain of
 * L links has L + 1 terms, so at most MN_LC_MAX - 1 links are taken and a
 * longer chain's lower part stays a term (it fuses on its own). */
static void flatten(const mn_expr *e, const int *uses, int j, mn_dtype t, mn_lincomb *lc, int *absorbed, int links) {
  const mn_node *n = &e->v[j];
  int left = n->a;
  if (is_chain(e, left, t) && uses[left] == 1 && links + 1 <= MN_LC_MAX - 1) {
    absorbed[left] = 1;
    flatten(e, uses, left, t, lc, absorbed, links + 1);
  } else {
    term(e, uses, left, 1.0, &lc->term[lc->n], &lc->coef[lc->n]);
    if (lc->term[lc->n] != left) absorbed[left] = 1;
    lc->n++;
  }
  term(e, uses, n->b, n->op == MN_OP_SUB ? -1.0 : 1.0, &lc->term[lc->n], &lc->coef[lc->n]);
  if (lc->term[lc->n] != n->b) absorbed[n->b] = 1;
  lc->n++;
}

int mn_fuse_node(const mn_expr *e, const int *uses, int j, mn_lincomb *lc, int *absorbed) {
  const mn_node *n = &e->v[j];
  memset(lc, 0, sizeof *lc);
  if (n->kind != MN_N_BINARY || !mn_is_float(n->ct) || n->dtype != n->ct) return 0;
  mn_dtype t = n->ct;
  int chain = j;
  double s;
  if ((n->op == MN_OP_MUL || n->op == MN_OP_DIV) && (n->op == MN_OP_DIV ? 0 : scalar_of(e, n->a, &s)) &&
      is_chain(e, n->b, t) && uses[n->b] == 1) {
    lc->post_op = 1; lc->post = s; chain = n->b;
  } else if ((n->op == MN_OP_MUL || n->op == MN_OP_DIV) && scalar_of(e, n->b, &s) && is_chain(e, n->a, t) &&
             uses[n->a] == 1) {
    lc->post_op = n->op == MN_OP_MUL ? 1 : 2; lc->post = s; chain = n->a;
  } else if (!is_chain(e, j, t)) {
    return 0;
  }
  if (chain != j) absorbed[chain] = 1;
  flatten(e, uses, chain, t, lc, absorbed, 1);
  lc->unit = 1;
  for (int q = 0; q < lc->n; q++) lc->unit &= lc->coef[q] == 1.0;
  return 1;
}
