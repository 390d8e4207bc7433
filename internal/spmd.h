/* MANIPLE_CHECKS=1: every collective entry point describes its global
 * arguments (shapes, dtypes, slices, axes, scalars, file names), the ranks
 * compare one hash of them (one allreduce), and a difference is
 * MN_ERR_ARG on every rank naming the call and the first argument that
 * differs, with its value on two ranks. Off (the default), an entry point
 * pays one predictable branch. Private to the library. */
#ifndef MANIPLE_SPMD_H
#define MANIPLE_SPMD_H

#include "mn_impl.h"

enum { MN_SPMD_ARGS = 12, MN_SPMD_TEXT = 72 };
typedef struct {
  const char *fn;
  int n;
  struct {
    const char *name;
    uint64_t h;
    char text[MN_SPMD_TEXT]; /* the value, for the message */
  } a[MN_SPMD_ARGS];
} mn_spmd;

void mn_spmd_int(mn_spmd *s, const char *name, int64_t v);
void mn_spmd_f64(mn_spmd *s, const char *name, double v);
void mn_spmd_str(mn_spmd *s, const char *name, const char *v);
void mn_spmd_shape(mn_spmd *s, const char *name, int nd, const int64_t *shape);
void mn_spmd_ints(mn_spmd *s, const char *name, int n, const int *v);
void mn_spmd_dtype(mn_spmd *s, const char *name, mn_dtype t);
void mn_spmd_scalar(mn_spmd *s, const char *name, mn_scalar v);
/* an array argument: dtype, shape, how it views its base, the base's layout */
void mn_spmd_array(mn_spmd *s, const char *name, const mn_array *a);
void mn_spmd_bytes(mn_spmd *s, const char *name, const void *p, size_t n, const char *text);
void mn_spmd_index(mn_spmd *s, const char *name, int n, const mn_index *idx);
/* an expression program (every node, inputs described as arrays) and the node asked for */
void mn_spmd_expr(mn_spmd *s, const char *name, const mn_expr *e, int node);
/* a sparse matrix by its global description */
void mn_spmd_matrix(mn_spmd *s, const char *name, mn_dtype t, int64_t m, int64_t n, int64_t nnz);
/* Compare across ctx's ranks (an allreduce the profiling log does not
 * count); MN_ERR_ARG naming the difference, the same on every rank. */
int mn_spmd_check(mn_ctx *ctx, mn_spmd *s);

/* MN_SPMD(ctx, "mn_array_fill", mn_spmd_array(S, "a", a), mn_spmd_scalar(S, "value", v));
 * returns from the caller on a difference. S names the record. */
#define MN_SPMD(ctx, fname, ...)                        \
  do {                                                  \
    mn_ctx *mn_c_ = (ctx);                              \
    if (mn_c_ && mn_c_->checks) {                       \
      mn_spmd mn_s_ = {(fname), 0, {{0, 0, {0}}}};      \
      mn_spmd *S = &mn_s_;                              \
      __VA_ARGS__;                                      \
      MN_CALL(mn_spmd_check(mn_c_, S));                 \
    }                                                   \
  } while (0)

#endif
