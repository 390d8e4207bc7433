/* maniple layouts (partition/ layer): how a global N-d index space is split
 * over the ranks of a context. */
#ifndef MANIPLE_MN_LAYOUT_H
#define MANIPLE_MN_LAYOUT_H

#include "mn_core.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Equal split of n items over p parts (PETSc's rule): part r gets
 * n/p + (r < n%p) items, so sizes differ by at most one. */
MN_EXTERN int64_t mn_split_size(int64_t n, int p, int r);
MN_EXTERN int64_t mn_split_start(int64_t n, int p, int r);
/* The part that owns item i (0 <= i < n). */
MN_EXTERN int mn_split_owner(int64_t n, int p, int64_t i);

/* Process-grid dims for nranks over ndim axes: MPI_Dims_create's factors,
 * the largest to the first axis, unless a later one is more than twice as
 * long (then to the longest). Axes of extent 1 get 1. */
MN_EXTERN int mn_grid_dims(int nranks, int ndim, const int64_t *shape, int *dims);

typedef struct mn_layout_s mn_layout;

typedef enum {
  MN_LAYOUT_BLOCK = 0, /* box per rank on a process grid */
  MN_LAYOUT_ROOT = 1   /* everything on one rank (gather/scatter target) */
} mn_layout_kind;

/* Block layout of shape over a process grid. dims may be NULL (chosen by
 * mn_grid_dims); otherwise prod(dims) must equal the context size. */
MN_EXTERN int mn_layout_create_block(mn_ctx *ctx, int ndim, const int64_t *shape,
                           const int *dims, mn_layout **lay);
/* Everything on rank root. */
MN_EXTERN int mn_layout_create_root(mn_ctx *ctx, int ndim, const int64_t *shape,
                          int root, mn_layout **lay);
MN_EXTERN int mn_layout_destroy(mn_layout **lay);

MN_EXTERN int mn_layout_ndim(const mn_layout *lay);
MN_EXTERN const int64_t *mn_layout_shape(const mn_layout *lay);
MN_EXTERN mn_layout_kind mn_layout_get_kind(const mn_layout *lay);
/* Process-grid dims (all 1 for a root layout). */
MN_EXTERN const int *mn_layout_dims(const mn_layout *lay);
/* The box [lo, hi) that rank owns. */
MN_EXTERN void mn_layout_box(const mn_layout *lay, int rank, int64_t *lo, int64_t *hi);
/* Number of items rank owns. */
MN_EXTERN int64_t mn_layout_local_size(const mn_layout *lay, int rank);
/* Rank that owns global index idx (ndim coordinates). */
MN_EXTERN int mn_layout_owner(const mn_layout *lay, const int64_t *idx);

#ifdef __cplusplus
}
#endif
#endif
