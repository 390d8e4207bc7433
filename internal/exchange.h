/* Private: data-dependent all-to-all exchanges (take, put, sort, compress),
 * where who sends what to whom is known only at run time. */
#ifndef MANIPLE_EXCHANGE_H
#define MANIPLE_EXCHANGE_H
#include "expr_impl.h"
#include <maniple/mn_select.h>
#include <maniple/mn_sort.h>

/* Every rank sends scount[q] bytes (at sbuf + sdisp[q], sdisp the prefix
 * sums of scount) to rank q. On return *rbuf holds what each rank q sent
 * here at rdisp[q], rcount[q] bytes; it comes from the buffer pool: the
 * caller gives it back with mn_pool_give(rbuf, max(total, 1)) so that a
 * loop's exchanges reuse warm pages, or frees it with mn_free. Failures
 * are agreed, so every rank returns the same code. */
int mn_exchange(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char **rbuf, int64_t *rcount,
                int64_t *rdisp);
/* The same, with err: this rank's error so far (every rank still calls),
 * received into the caller's block into (cap bytes) when what arrives
 * fits (*rbuf is then into, not to be given back), else as above. err
 * travels in the counts' all-to-all, so a caller's local failures
 * (allocations, bounds) need no agreement of their own; when any rank
 * failed, every rank returns the first failing rank's error and nothing
 * is sent. */
int mn_exchange_into(mn_ctx *ctx, int err, const char *sbuf, const int64_t *scount, char *into, size_t cap,
                     char **rbuf, int64_t *rcount, int64_t *rdisp);
/* mn_exchange_into in its two phases. Counts: the all-to-all of scount
 * into rcount (rdisp: their prefix sums), carrying err as above and a
 * mark: *all_marked (when not NULL) is 1 on every rank when every rank
 * marked (a plan kept by every rank, take's; no reduction of its own).
 * Move: the payloads, into into when they fit (cap bytes) else a pool
 * buffer, whose allocation is agreed. */
int mn_exchange_counts(mn_ctx *ctx, int err, int mark, const int64_t *scount, int64_t *rcount, int64_t *rdisp,
                       int *all_marked);
int mn_exchange_move(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char *into, size_t cap, char **rbuf,
                     const int64_t *rcount, const int64_t *rdisp);
/* The payloads alone, every count already known on both sides, into the
 * caller's block into: no collective, nothing to agree. */
int mn_exchange_known(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char *into, const int64_t *rcount,
                      const int64_t *rdisp);
/* Ranks up to which exchanges keep their counts on the stack. */
enum { MN_SMALLP = 64 };
/* k * size counts, zeroed: stack (k * MN_SMALLP of them, the caller's)
 * when the ranks are few, else allocated, a failure agreed (every rank
 * gets NULL and *err alike). Release with mn_counts_free. */
int64_t *mn_counts(mn_ctx *ctx, int64_t *stack, int k, int *err);
void mn_counts_free(int64_t *c, int64_t *stack);

/* Exclusive prefix sums of n counts into disp; returns the total. */
int64_t mn_prefix(int n, const int64_t *count, int64_t *disp);

/* 1 on every rank when a and b are base arrays of one shape whose blocks
 * are the same on every rank (local parts correspond element-wise). */
int mn_same_blocks(const mn_array *a, const mn_array *b);
/* A base array of dtype t holding a, in like's blocks when like is given;
 * a itself when it qualifies. *own says whether the caller destroys it. */
int mn_as_base(const mn_array *a, mn_dtype t, const mn_array *like, mn_array **b, int *own);
/* Dense copy (mn_malloc) of this rank's part of a; count in *n. */
char *mn_local_dense(const mn_array *a, int64_t *n);
/* Store a dense copy back into this rank's part of a. */
void mn_local_store(mn_array *a, const char *d);

/* Odometer over a strided box: advance index i (extents cnt, element
 * strides st) and return the element offset of the next element. */
static inline int64_t mn_box_step(int nd, const int64_t *cnt, const int64_t *st, int64_t *i, int64_t off) {
  for (int d = nd - 1; d >= 0; d--) {
    if (++i[d] < cnt[d]) return off + st[d];
    off -= (cnt[d] - 1) * st[d];
    i[d] = 0;
  }
  return off;
}

/* Base coordinates of flat (C-order) element f of array a's view shape. */
static inline void mn_flat_to_base(const mn_array *a, int64_t f, int64_t *g) {
  const mn_map *m = &a->map;
  for (int d = 0; d < m->bndim; d++) g[d] = m->fixed[d];
  for (int k = m->ndim - 1; k >= 0; k--) {
    int64_t i = m->shape[k] ? f % m->shape[k] : 0;
    f = m->shape[k] ? f / m->shape[k] : 0;
    if (m->bax[k] >= 0) g[m->bax[k]] = m->start[k] + m->step[k] * i;
  }
}
#endif
