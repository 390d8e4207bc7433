/* Moving a vector between the old and the new numbering: each element goes
 * to the owner of its index in the other numbering, in one all-to-all.
 * Only values travel: the receiver knows where the t-th value it gets
 * lands (recv_new / recv_old, set at creation). */
#include "part_impl.h"
#include <stdlib.h>
#include <string.h>

/* A 1-d base array on a block layout is split as the partition's blocks. */
static int equal_split_base(const mn_array *a, mn_dtype t) {
  return !a->is_view && a->dtype == t && a->buf->lay->kind == MN_LAYOUT_BLOCK;
}

static int check(const mn_partition *p, const mn_array *x, const char *what) {
  MN_CHECK(x, MN_ERR_ARG, "%s is NULL", what);
  MN_CHECK(x->ctx == p->ctx, MN_ERR_ARG, "%s belongs to another context than the partition", what);
  if (x->map.ndim != 1 || x->map.shape[0] != p->n) {
    char s[128];
    mn_shape_str(x->map.ndim, x->map.shape, s, sizeof s);
    return MN_ERR(MN_ERR_SHAPE, "%s has shape %s, but the partition has %lld vertices", what, s, (long long)p->n);
  }
  return MN_SUCCESS;
}

static int move(const mn_partition *p, int to_new, const mn_array *src, mn_array *dst) {
  MN_CHECK(p, MN_ERR_ARG, "NULL partition");
  MN_CALL(check(p, src, to_new ? "x_old" : "x_new"));
  MN_CALL(check(p, dst, to_new ? "x_new" : "x_old"));
  mn_ctx *ctx = p->ctx;
  int P = ctx->size, err = 0;
  mn_dtype t = src->dtype;
  size_t es = mn_dtype_size(t);
  const int64_t *dest = to_new ? p->new_of_old : p->old_of_new, *land = to_new ? p->recv_new : p->recv_old;
  mn_array *S = (mn_array *)src, *D = dst;
  if (!equal_split_base(src, t)) { /* into the equal split first */
    MN_CALL(mn_array_create_empty(ctx, t, 1, &p->n, &S));
    MN_CALLG(err, mn_array_copy(src, S), done);
  }
  int64_t nl = 0, *cnt = calloc(4 * (size_t)P, sizeof(int64_t));
  char *loc = mn_local_dense(S, &nl), *pk = mn_malloc(es * (size_t)(nl ? nl : 1)), *rb = NULL;
  char *out = mn_malloc(es * (size_t)(nl ? nl : 1));
  if (!cnt || !loc || !pk || !out) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld elements to move", (long long)nl);
  err = mn_agree(ctx, err);
  if (!err) { /* values packed by destination rank, in index order */
    int64_t *pos = cnt + P;
    for (int64_t k = 0; k < nl; k++) cnt[mn_split_owner(p->n, P, dest[k])]++;
    mn_prefix(P, cnt, pos);
    for (int64_t k = 0; k < nl; k++) {
      int64_t at = pos[mn_split_owner(p->n, P, dest[k])]++;
      memcpy(pk + es * (size_t)at, loc + es * (size_t)k, es);
    }
    for (int q = 0; q < P; q++) cnt[q] *= (int64_t)es;
    err = mn_exchange(ctx, pk, cnt, &rb, cnt + 2 * P, cnt + 3 * P);
  }
  if (!err) {
    for (int64_t k = 0; k < nl; k++) memcpy(out + es * (size_t)land[k], rb + es * (size_t)k, es);
    if (!equal_split_base(dst, t)) err = mn_array_create_empty(ctx, t, 1, &p->n, &D);
    err = mn_agree(ctx, err);
  }
  if (!err) {
    mn_local_store(D, out);
    if (D != dst) err = mn_array_copy(D, dst);
  }
  free(cnt); mn_free(loc); mn_free(pk); mn_free(rb); mn_free(out);
done:
  if (S != src) mn_array_destroy(&S);
  if (D != dst) mn_array_destroy(&D);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_partition_to_new(const mn_partition *p, const mn_array *x_old, mn_array *x_new) {
  MN_CALL(move(p, 1, x_old, x_new));
  return MN_SUCCESS;
}

int mn_partition_to_old(const mn_partition *p, const mn_array *x_new, mn_array *x_old) {
  MN_CALL(move(p, 0, x_new, x_old));
  return MN_SUCCESS;
}
