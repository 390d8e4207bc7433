/* Fresh storage for an evaluation that reads its own output shifted (the
 * Jacobi idiom `center[:] = 0.2 * (center + north + ...)`): the values are
 * computed into a new block while every input still reads the old one,
 * the elements not written are copied across, and the new block becomes
 * the storage. That is the hand-written loop's two grids, with the pool
 * keeping the spare: no temporary and no copy back, where banding (see
 * band_mode) pays an in-cache copy of every element. Only where no one
 * else holds a pointer into the old block. */
#include "mn_impl.h"
#include <string.h>

/* the buffer's storage may be replaced: host memory of the cpu backend,
 * its own (no reshape alias shares it), no pointer handed out, and large
 * enough to be worth it yet small enough that the pool keeps the spare
 * (else every evaluation would fault in fresh pages) */
int mn_buf_renewable(const mn_buf *b) {
  return b->host && !b->dev && !b->ops->dev_alloc && !b->pinned && !b->store && !b->aliases && !b->lost &&
         b->nbytes >= MN_RENEW_MIN && mn_pool_keeps(b->nbytes);
}

/* Copy from old to new every element of the allocation outside the box
 * (lo, cnt) of allocated indices: along each axis d, the slab before the
 * box and the slab after it, within the box on the axes before d and
 * whole on those after (disjoint, and together all of the outside). */
static void copy_outside(const mn_buf *b, const char *old, char *new_, const int64_t *lo, const int64_t *cnt) {
  int nd = b->ndim;
  size_t es = mn_dtype_size(b->dtype);
  int64_t slo[MN_MAXDIM], scnt[MN_MAXDIM];
  for (int d = 0; d < nd; d++)
    for (int side = 0; side < 2; side++) {
      int64_t off = 0;
      for (int k = 0; k < nd; k++) {
        slo[k] = k < d ? lo[k] : 0;
        scnt[k] = k < d ? cnt[k] : b->alen[k];
      }
      slo[d] = side ? lo[d] + cnt[d] : 0;
      scnt[d] = side ? b->alen[d] - slo[d] : lo[d];
      for (int k = 0; k < nd; k++) off += slo[k] * b->astride[k];
      mn_strided_copy(nd, scnt, es, old + off * (int64_t)es, b->astride, new_ + off * (int64_t)es, b->astride);
    }
}

int mn_buf_renew_box(const mn_buf *b, const mn_map *m, const int64_t *Rlo, const int64_t *Rcnt, int64_t *lo) {
  if (m->ndim != b->ndim || m->bndim != b->ndim || b->ndim == 0) return 0;
  int64_t wrote = 1;
  for (int k = 0; k < m->ndim; k++) {
    if (m->bax[k] != k || m->step[k] != 1) return 0;
    lo[k] = m->start[k] + Rlo[k] - b->alo[k];
    wrote *= Rcnt[k];
  }
  /* most of the block is written: the rest is a small copy */
  return (double)wrote * (double)mn_dtype_size(b->dtype) * 2 >= (double)b->nbytes;
}

char *mn_buf_renew_take(const mn_buf *b) { return mn_pool_take(b->nbytes); }

void mn_buf_renew_finish(mn_buf *b, char *fresh, const int64_t *lo, const int64_t *cnt, int keep) {
  if (!keep) {
    mn_pool_give(fresh, b->nbytes);
    return;
  }
  copy_outside(b, b->host, fresh, lo, cnt);
  mn_pool_give(b->host, b->nbytes);
  b->host = fresh;
}
