/* Private: linear-combination fusion of expression nodes. */
#ifndef MANIPLE_FUSE_H
#define MANIPLE_FUSE_H
#include "expr_impl.h"

enum { MN_LC_MAX = 8 };
typedef struct {
  int n;                    /* terms */
  int term[MN_LC_MAX];      /* leaf nodes, in evaluation order */
  double coef[MN_LC_MAX];   /* +-1 or +-scalar */
  int unit;                 /* every coefficient is exactly 1 */
  int post_op;              /* 0 none, 1 multiply, 2 divide */
  double post;
} mn_lincomb;

/* If node j heads a fusable chain, fill lc, mark the nodes it swallows in
 * absorbed[] and return 1. uses[] counts references among live nodes. */
int mn_fuse_node(const mn_expr *e, const int *uses, int j, mn_lincomb *lc, int *absorbed);
/* out[i] = post(sum_j coef[j] * p[j][i]) in evaluation order; nt writes
 * out with non-temporal stores (see stream.h). */
void mn_lincomb_run(mn_dtype t, int64_t n, const mn_lincomb *lc, const void *const *p, void *out, int nt);
#endif
