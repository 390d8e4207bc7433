/* Private: expression nodes, shared by the builder and the evaluator. */
#ifndef MANIPLE_EXPR_IMPL_H
#define MANIPLE_EXPR_IMPL_H
#include "mn_impl.h"

typedef enum { MN_N_INPUT, MN_N_SCALAR, MN_N_UNARY, MN_N_BINARY, MN_N_TERNARY, MN_N_CAST } mn_nkind;

typedef struct {
  mn_nkind kind;
  int op;
  int a, b, c;        /* argument nodes, already of dtype ct */
  mn_dtype dtype;     /* result */
  mn_dtype ct;        /* compute dtype */
  int weak;           /* a Python-literal scalar (or made only of them) */
  int ndim;
  int64_t shape[MN_MAXDIM];
  const mn_array *arr;
  mn_scalar s;
} mn_node;

/* how many of a, b, c node d reads */
static inline int mn_node_arity(const mn_node *d) {
  return d->kind == MN_N_TERNARY ? 3 : d->kind == MN_N_BINARY ? 2 : d->kind == MN_N_UNARY || d->kind == MN_N_CAST ? 1 : 0;
}

struct mn_expr_s {
  mn_ctx *ctx;
  int n, cap;
  mn_node *v;
};

void mn_shape_str(int nd, const int64_t *s, char *buf, size_t n);
int mn_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b,
                        int *nd, int64_t *out);
#endif
