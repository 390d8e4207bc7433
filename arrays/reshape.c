/* Reshape: elements keep their flat C-order index, moving between the
 * blocks of the old and the new shape by a flat move (flatmove.c) the
 * context keeps, so a loop's reshapes plan once, agree on nothing after,
 * and run on the side the values are on. */
#include "expr_impl.h"
#include "flatmove.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

/* a 0-d array or a 0-d view's value into dst (one element: any shapes) */
static int one_element(const mn_array *src, mn_array *dst) {
  int64_t z[MN_MAXDIM] = {0};
  mn_scalar v;
  MN_CALL(mn_array_get(src, z, &v));
  MN_CALL(mn_array_fill(dst, v));
  return MN_SUCCESS;
}

/* 1 when a's layout splits axis 0 alone (block, every other axis whole) */
static int rows_only(const mn_array *a) {
  const mn_layout *l = a->buf->lay;
  int ok = l->kind == MN_LAYOUT_BLOCK && l->ndim >= 1;
  for (int d = 1; ok && d < l->ndim; d++) ok = l->dims[d] == 1;
  return ok;
}

/* The target: with rows, when the source (made base) splits its rows
 * alone and the first extent stays, rows split the same way (the same
 * block of axis 0 on every rank: the flat move sends nothing); else the
 * default layout. Every element is written after: no zeroing. */
static int target(const mn_array *from, int ndim, const int64_t *shape, int rows, mn_array **t) {
  mn_ctx *ctx = from->ctx;
  if (!rows || ndim < 1 || from->map.ndim < 1 || shape[0] != from->map.shape[0] || !rows_only(from))
    return mn_array_create_empty(ctx, from->dtype, ndim, shape, t);
  int dims[MN_MAXDIM];
  for (int d = 0; d < ndim; d++) dims[d] = d ? 1 : ctx->size;
  mn_layout *lay = NULL;
  MN_CALL(mn_layout_create_block(ctx, ndim, shape, dims, &lay));
  int err = mni_array_create_on_empty(lay, from->dtype, t);
  mn_layout_destroy(&lay);
  return err;
}

/* 1 when the rows-kept reshape of base array a to shape can share a's
 * storage: each rank's block is then, byte for byte, a's (the same rows,
 * every other axis whole, no halo), and on a CPU backend nothing moves
 * storage. Global metadata alone: every rank decides alike. */
static int aliasable(const mn_array *a, int ndim, const int64_t *shape) {
  return !a->ctx->ops->dev_alloc && !a->is_view && !a->buf->halo && ndim >= 1 &&
         a->map.ndim >= 1 && shape[0] == a->map.shape[0] && rows_only(a) && a->buf->lay->kind == MN_LAYOUT_BLOCK;
}

/* That reshape: a's rows split alike over a layout of the new shape, the
 * storage shared (no copy, no message). */
static int alias_rows(const mn_array *a, int ndim, const int64_t *shape, mn_array **t) {
  mn_ctx *ctx = a->ctx;
  int dims[MN_MAXDIM];
  for (int d = 0; d < ndim; d++) dims[d] = d ? 1 : ctx->size;
  mn_layout *lay = NULL;
  MN_CALL(mn_layout_create_block(ctx, ndim, shape, dims, &lay));
  int err = mni_array_create_alias(lay, a, t);
  mn_layout_destroy(&lay);
  return err;
}

static int reshape(const mn_array *src, int ndim, const int64_t *shape, int rows, mn_array **dst) {
  MN_CHECK(src && dst && (ndim == 0 || shape), MN_ERR_ARG, "NULL array, shape or output");
  *dst = NULL;
  mn_ctx *ctx = src->ctx;
  int64_t n = 1;
  for (int d = 0; d < ndim && d < MN_MAXDIM; d++) n *= shape[d] >= 0 ? shape[d] : 0;
  int bad = ndim < 0 || ndim > MN_MAXDIM || n != mn_array_size(src);
  for (int d = 0; !bad && d < ndim; d++) bad = shape[d] < 0;
  if (bad) { /* global metadata: every rank finds it, with no agreement */
    char a[128] = "(?)", b[128] = "(?)";
    if (ndim >= 0 && ndim <= MN_MAXDIM) mn_shape_str(ndim, shape, b, sizeof b);
    mn_shape_str(src->map.ndim, src->map.shape, a, sizeof a);
    return MN_ERR(MN_ERR_SHAPE, "cannot reshape array of size %lld and shape %s into shape %s",
                  (long long)mn_array_size(src), a, b);
  }
  mn_array *s = NULL, *t = NULL; /* every element of both is written below: no zeroing */
  int err = 0;
  if (ndim == 0 || src->map.ndim == 0) {
    MN_CALL(mn_array_create_empty(ctx, src->dtype, ndim, shape, &t));
    err = one_element(src, t);
  } else {
    const mn_array *from = src; /* a view is made a base array first */
    if (src->is_view) {
      err = mn_array_create_empty(ctx, src->dtype, src->map.ndim, src->map.shape, &s);
      if (!err) err = mn_array_copy(src, s);
      from = s;
    }
    if (!err && rows && aliasable(from, ndim, shape)) {
      err = alias_rows(from, ndim, shape, &t);
    } else {
      if (!err) err = target(from, ndim, shape, rows, &t);
      mn_flatmove *fm = NULL;
      if (!err) err = mn_flatmove_kept(from, t, &fm);
      if (!err) err = mn_flatmove_run(fm, from, t);
    }
  }
  mn_array_destroy(&s);
  if (err) { mn_array_destroy(&t); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *dst = t;
  return MN_SUCCESS;
}

int mn_array_reshape(const mn_array *src, int ndim, const int64_t *shape, mn_array **dst) {
  MN_SPMD(src ? src->ctx : NULL, "mn_array_reshape", mn_spmd_array(S, "src", src),
          mn_spmd_shape(S, "shape", ndim, shape));
  return reshape(src, ndim, shape, 0, dst);
}

int mn_array_reshape_rows(const mn_array *src, int ndim, const int64_t *shape, mn_array **dst) {
  MN_SPMD(src ? src->ctx : NULL, "mn_array_reshape_rows", mn_spmd_array(S, "src", src),
          mn_spmd_shape(S, "shape", ndim, shape));
  return reshape(src, ndim, shape, 1, dst);
}

int mn_array_copy_flat(const mn_array *src, mn_array *dst) {
  MN_CHECK(src && dst, MN_ERR_ARG, "NULL array");
  MN_SPMD(src ? src->ctx : NULL, "mn_array_copy_flat", mn_spmd_array(S, "src", src), mn_spmd_array(S, "dst", dst));
  mn_array *t = NULL;
  MN_CALL(mn_array_reshape(src, dst->map.ndim, dst->map.shape, &t));
  int err = mn_array_copy(t, dst);
  mn_array_destroy(&t);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
