/* Integer-array indexing: take and put by flat index. Each rank sends the
 * indices it needs to their owners (one all-to-all), owners answer with the
 * values (take) or write the values sent with them (put). */
#include "exchange.h"
#include "spmd.h"
#include "index_plan.h"
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* The least and greatest of n indices (0 and 0 when n is 0) */
MN_CLONES static void index_range(const int64_t *restrict ix, int64_t n, int64_t *lo, int64_t *hi) {
  int64_t l = 0, h = 0;
  for (int64_t k = 0; k < n; k++) {
    l = ix[k] < l ? ix[k] : l;
    h = ix[k] > h ? ix[k] : h;
  }
  *lo = l;
  *hi = h;
}

/* index_range's pass, with the wrapped indices (negative ones counted
 * from the end of size) at or past s1 counted: the second of two ranks' */
MN_CLONES static void range_count(const int64_t *restrict ix, int64_t n, int64_t size, int64_t s1, int64_t *lo,
                                  int64_t *hi, int64_t *ones) {
  int64_t l = 0, h = 0, c = 0;
  for (int64_t k = 0; k < n; k++) {
    int64_t v = ix[k], w = v < 0 ? v + size : v;
    l = v < l ? v : l;
    h = v > h ? v : h;
    c += w >= s1;
  }
  *lo = l;
  *hi = h;
  *ones = c;
}

/* Per-call buffers of n elements of es bytes from the pool: a loop's
 * takes and puts reuse warm pages instead of faulting in fresh ones
 * (measured: page faults were most of a 100,000-index take at 2 ranks). */
static void *tmp_take(int64_t n, size_t es) { return mn_pool_take((size_t)(n ? n : 1) * es); }
static void tmp_give(void *p, int64_t n, size_t es) { mn_pool_give(p, (size_t)(n ? n : 1) * es); }

/* NumPy's IndexError for the first of n indices outside [-size, size),
 * given their range (lo, hi): scanned for only when the range is out. */
static int bounds_error(const int64_t *ix, int64_t n, int64_t size, int64_t lo, int64_t hi) {
  for (int64_t k = 0; (lo < -size || hi >= size) && k < n; k++)
    if (ix[k] < -size || ix[k] >= size)
      return MN_ERR(MN_ERR_INDEX, "index %lld is out of bounds for axis 0 with size %lld", (long long)ix[k],
                    (long long)size);
  return MN_SUCCESS;
}

/* Bounds check of n indices against size, on this rank alone (callers
 * carry the error into their exchange, which agrees it). NumPy's
 * flat-index rule: [-size, size), a negative index counting from the
 * end. *wrapped is ix, or (some index negative) a new copy of it with
 * those counted from the start, for the caller to free (NULL: none). */
static int check_bounds(const int64_t *ix, int64_t n, int64_t size, int64_t **wrapped) {
  *wrapped = NULL;
  int64_t lo, hi; /* one vectorised pass; the offender is looked for only when there is one */
  index_range(ix, n, &lo, &hi);
  MN_CALL(bounds_error(ix, n, size, lo, hi));
  if (lo < 0) {
    *wrapped = tmp_take(n, 8);
    if (!*wrapped) return MN_ERR(MN_ERR_MEM, "cannot allocate %lld indices", (long long)n);
    for (int64_t k = 0; k < n; k++) (*wrapped)[k] = ix[k] < 0 ? ix[k] + size : ix[k];
  }
  return MN_SUCCESS;
}

/* The owner of flat index f under a row split (start: mn_rows_split's) */
static int row_owner(const int64_t *start, int P, int64_t f) {
  int lo = 0, hi = P - 1; /* the last q with start[q] <= f, skipping empty ranks */
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (start[mid] <= f) lo = mid;
    else hi = mid - 1;
  }
  return lo; /* (an empty rank's start equals the next one's: never the last) */
}

/* Owners and per-owner counts under a row split of few ranks: an index's
 * owner is the count of later starts at or below it. Vectorised passes
 * (AVX2 compares 64-bit integers), no branch on random indices. */
MN_CLONES static void owners_few(const int64_t *start, int P, const int64_t *restrict ix, int64_t n,
                                 int64_t *restrict own, int64_t *cnt) {
  int64_t s1 = start[1];
  for (int64_t k = 0; k < n; k++) own[k] = ix[k] >= s1;
  for (int q = 2; q < P; q++) {
    int64_t s = start[q];
    for (int64_t k = 0; k < n; k++) own[k] += ix[k] >= s;
  }
  for (int q = 0; q < P; q++) {
    int64_t c = 0;
    for (int64_t k = 0; k < n; k++) c += own[k] == q;
    cnt[q] = c;
  }
}

/* Owner rank of each index; per-owner counts; order[k] = position of
 * index k when packed by owner (stable within an owner), the owners in
 * rank order; with self_last this rank's own indices go last, so that
 * with this rank's count taken as 0 they never pass through the
 * exchange. start: x's row
 * split (owners by search), or NULL (by the layout, element by element). */
static void bucket(const mn_array *x, const int64_t *start, const int64_t *restrict ix, int64_t n,
                   int64_t *restrict own, int64_t *cnt, int64_t *restrict order, int self_last) {
  int P = x->ctx->size;
  int64_t g[MN_MAXDIM], *pos = cnt + P;
  memset(cnt, 0, sizeof(int64_t) * 2 * (size_t)P);
  int small = start && P <= 16;
  if (small) owners_few(start, P, ix, n, own, cnt);
  else if (start)
    for (int64_t k = 0; k < n; k++) own[k] = row_owner(start, P, ix[k]);
  else
    for (int64_t k = 0; k < n; k++) {
      mn_flat_to_base(x, ix[k], g);
      own[k] = mn_layout_owner(x->buf->lay, g);
    }
  if (!small)
    for (int64_t k = 0; k < n; k++) cnt[own[k]]++;
  int me = self_last ? x->ctx->rank : P; /* P: none last */
  if (me == P) mn_prefix(P, cnt, pos);
  else {
    int64_t mine = cnt[me];
    cnt[me] = 0;
    pos[me] = mn_prefix(P, cnt, pos);
    cnt[me] = mine;
  }
  if (P == 2) { /* one counter in a register (pos[own[k]]++ waits on the store before it) */
    int64_t ones = 0, p0 = pos[0], p1 = pos[1];
    for (int64_t k = 0; k < n; k++) {
      int64_t o = own[k], m = -o; /* selected by mask: a branch would mispredict on random owners */
      order[k] = ((p1 + ones) & m) | ((p0 + k - ones) & ~m);
      ones += o;
    }
  } else
    for (int64_t k = 0; k < n; k++) order[k] = pos[own[k]]++;
}

/* Two ranks, x split by rows (s1: the second rank's first flat index):
 * every index's slot in one pass, the other rank's indices first (in my
 * order), then mine, with req[slot] the index wrapped; bucket and the
 * packing take five passes over the indices for this. The bounds are
 * checked from a counting pass's range first. *nother: the other rank's
 * count. */
static int slots2(const int64_t *restrict ix, int64_t n, int64_t size, int64_t s1, int me, int64_t *restrict order,
                  int64_t *restrict req, int64_t *nother) {
  int64_t lo, hi, ones;
  range_count(ix, n, size, s1, &lo, &hi, &ones);
  MN_CALL(bounds_error(ix, n, size, lo, hi));
  *nother = me ? n - ones : ones;
  int64_t r = 0, m = *nother, mine = me;
  for (int64_t k = 0; k < n; k++) {
    int64_t v = ix[k], w = v + ((v >> 63) & size); /* (the sign mask: no branch on random signs) */
    int64_t other = (int64_t)(w >= s1) ^ mine, mask = -other;
    int64_t slot = (r & mask) | (m & ~mask); /* selected by mask: owners of random indices are random */
    order[k] = slot;
    req[slot] = w;
    r += other;
    m += 1 - other;
  }
  return MN_SUCCESS;
}

/* BODY(ES) with ES a constant for the common element sizes, so that each
 * element moves by one load and store, not a memcpy call (es: the size) */
#define MN_BY_SIZE(es, BODY)                                                            \
  switch (es) {                                                                         \
  case 8: BODY(8) break;                                                                \
  case 4: BODY(4) break;                                                                \
  case 2: BODY(2) break;                                                                \
  case 1: BODY(1) break;                                                                \
  case 16: BODY(16) break;                                                              \
  default: BODY((int64_t)(es))                                                          \
  }

/* the element at flat index ix[k] of the dense block d = vals[k], in k
 * order (a repeated index keeps its last value, as NumPy's put) */
/* Random stores wait in the store buffer for their lines, a few dozen at
 * most: the line AHEAD indices on is asked for first (for writing). */
enum { AHEAD = 16 };
#define MN_SCATTER_RUN(ES)                                                              \
  for (int64_t k = 0; k < n; k++) {                                                     \
    if (k + AHEAD < n) __builtin_prefetch(d + (ES) * ix[k + AHEAD], 1);                 \
    memcpy(d + (ES) * ix[k], vals + (ES) * k, (ES));                                    \
  }
static void scatter_run(char *d, const int64_t *ix, int64_t n, size_t es, const char *vals) {
  MN_BY_SIZE(es, MN_SCATTER_RUN)
}

/* out[k] = the element at flat index ix[k] - first of the dense block d */
#define MN_GATHER_RUN(ES)                                                               \
  for (int64_t k = 0; k < n; k++) {                                                     \
    if (k + AHEAD < n) __builtin_prefetch(d + (ES) * (ix[k + AHEAD] - first));          \
    memcpy(out + (ES) * k, d + (ES) * (ix[k] - first), (ES));                           \
  }
static void gather_run(const char *d, int64_t first, const int64_t *ix, int64_t n, size_t es, char *out) {
  MN_BY_SIZE(es, MN_GATHER_RUN)
}

/* Records (flat index, value) of 8 + es bytes: index k's goes to slot
 * order[k] (pack), and each record's value to the dense block d starting
 * at flat index first (scatter, in record order). */
#define MN_PACK(ES)                                                                    \
  for (int64_t k = 0; k < n; k++) {                                                    \
    char *r = rec + order[k] * (8 + (ES));                                             \
    memcpy(r, &ix[k], 8);                                                              \
    memcpy(r + 8, vals + k * (ES), (ES));                                              \
  }
static void pack_records(char *rec, const int64_t *order, const int64_t *ix, const char *vals, int64_t n, size_t es) {
  MN_BY_SIZE(es, MN_PACK)
}
#define MN_SCATTER(ES)                                                                 \
  for (int64_t k = 0; k < m; k++) {                                                    \
    const char *r = rec + k * (8 + (ES));                                              \
    int64_t f, fa;                                                                     \
    if (k + AHEAD < m) {                                                               \
      memcpy(&fa, r + AHEAD * (8 + (ES)), 8);                                          \
      __builtin_prefetch(d + (fa - first) * (ES), 1);                                  \
    }                                                                                  \
    memcpy(&f, r, 8);                                                                  \
    memcpy(d + (f - first) * (ES), r + 8, (ES));                                       \
  }
static void scatter_records(char *d, int64_t first, const char *rec, int64_t m, size_t es) {
  MN_BY_SIZE(es, MN_SCATTER)
}

/* the lines of the es bytes at p asked for (random rows wait on memory,
 * one or two lines each: asked AHEAD rows on, their loads overlap) */
static inline void prefetch_span(const char *p, size_t es) {
  __builtin_prefetch(p);
  if (es > 64) __builtin_prefetch(p + es - 1);
}

/* dst's k-th row of rb bytes = src's row ix[k] - first, for k < n */
static void copy_rows(char *dst, const char *src, const int64_t *ix, int64_t first, int64_t n, size_t rb) {
  for (int64_t k = 0; k < n; k++) {
    if (k + AHEAD < n) prefetch_span(src + (ix[k + AHEAD] - first) * (int64_t)rb, rb);
    memcpy(dst + k * (int64_t)rb, src + (ix[k] - first) * (int64_t)rb, rb);
  }
}

/* out[k] = index k's element of es bytes: from my block d (flat index
 * first at its start) when I own it, else the answer at order[k] of rval.
 * The source is chosen without a branch (owners of random indices are
 * random; gcc makes ?: a branch here). take_rows passes whole rows. */
#define MN_UNPACK(ES)                                                                  \
  for (int64_t k = 0; k < n; k++) {                                                    \
    if (k + AHEAD < n && own[k + AHEAD] == me) prefetch_span(d + (ix[k + AHEAD] - first) * (ES), (ES)); \
    int64_t m = -(int64_t)(own[k] == me);                                              \
    const char *b = (const char *)(((uintptr_t)d & (uintptr_t)m) | ((uintptr_t)rval & ~(uintptr_t)m)); \
    int64_t at = ((ix[k] - first) & m) | (order[k] & ~m);                              \
    memcpy(out + k * (ES), b + at * (ES), (ES));                                       \
  }
static void unpack_take(char *out, const int64_t *own, int me, const int64_t *ix, int64_t first, const char *d,
                        const int64_t *order, const char *rval, int64_t n, size_t es) {
  MN_BY_SIZE(es, MN_UNPACK)
}

/* This rank's part of a base array, dense: its storage when that is dense
 * already, else a copy (*copy, to mn_free). */
static char *local_read_dense(const mn_array *a, int64_t *n, char **copy) {
  mn_local l;
  mn_array_local_read(a, 0, &l);
  *copy = NULL;
  if (l.data && mn_strides_dense(a->map.ndim, l.count, l.stride)) {
    *n = mn_box_size(a->map.ndim, l.count);
    return l.data;
  }
  return *copy = mn_local_dense(a, n);
}

/* whether a and b hold their values in one storage (a reshape's alias too) */
static int same_storage(const mn_array *a, const mn_array *b) {
  const mn_buf *p = a->buf->store ? a->buf->store : a->buf, *q = b->buf->store ? b->buf->store : b->buf;
  return p == q;
}

static int check_args(const mn_array *x, const mn_array *idx, const mn_array *other, const char *what) {
  MN_CHECK(x && idx && other, MN_ERR_ARG, "NULL array");
  MN_CHECK(x->ctx == idx->ctx && x->ctx == other->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  MN_CHECK(mn_is_int(idx->dtype), MN_ERR_DTYPE,
           "indices must be integers, got dtype %s", mn_dtype_name(idx->dtype));
  int same = idx->map.ndim == other->map.ndim;
  for (int d = 0; same && d < idx->map.ndim; d++) same = idx->map.shape[d] == other->map.shape[d];
  if (!same) {
    char a[128], b[128];
    mn_shape_str(idx->map.ndim, idx->map.shape, a, sizeof a);
    mn_shape_str(other->map.ndim, other->map.shape, b, sizeof b);
    return MN_ERR(MN_ERR_SHAPE, "indices have shape %s but %s has shape %s", a, what, b);
  }
  return MN_SUCCESS;
}

int mn_array_take(const mn_array *x, const mn_array *idx, mn_array *out) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_take", mn_spmd_array(S, "x", x), mn_spmd_array(S, "idx", idx),
          mn_spmd_array(S, "out", out));
  MN_CALL(check_args(x, idx, out, "the output"));
  mn_ctx *ctx = x->ctx;
  int P = ctx->size, own_i = 0, own_o = 0, err = 0;
  size_t es = mn_dtype_size(x->dtype);
  mn_array *I = NULL, *O = NULL;
  O = out; /* the result goes straight into out when out is a base of x's dtype */
  if (out->is_view || out->dtype != x->dtype) {
    MN_CALL(mn_array_create_like(out, x->dtype, &O));
    own_o = 1;
  }
  MN_CALLG(err, mn_as_base(idx, MN_INT64, O, &I, &own_i), done);
  /* errors of this rank alone (allocations, bounds) travel in the first
   * exchange's counts: no agreement of their own */
  int64_t n = 0, m = 0, cstack[6 * MN_SMALLP], *cn = mn_counts(ctx, cstack, 6, &err);
  if (!cn) goto done;
  int64_t *rc = cn + 2 * P, *gc = cn + 4 * P;
  int64_t *ix_copy = NULL, *ix = (int64_t *)local_read_dense(I, &n, (char **)&ix_copy);
  int64_t *order = tmp_take(n, 8), *own = tmp_take(n, 8), *wrap = NULL, *start = malloc(sizeof(int64_t) * (size_t)(P + 1));
  char *req = tmp_take(n, 8), *val = tmp_take(n, es), *comb = P > 1 ? tmp_take(n, es) : NULL, *rreq = NULL, *rval = NULL, *ans = NULL;
  int64_t nreq = 0, nval = 0; /* bytes received by the exchanges (what goes back to the pool) */
  if (!ix || !order || !own || !req || !val || (P > 1 && !comb) || !start)
    err = MN_ERR(MN_ERR_MEM, "cannot allocate take buffers for %lld indices", (long long)n);
  /* a row split: owners by search, and my elements read straight from my
   * dense block (one rank: no exchange at all; two: slots2) */
  int split = start && mn_rows_split(x, start); /* (global metadata: alike on every rank) */
  mn_local xl = {0};
  int direct = 0;
  if (split) {
    mn_array_local_read(x, 0, &xl);
    direct = !xl.data || mn_strides_dense(x->map.ndim, xl.count, xl.stride);
  }
  int two = split && direct && P == 2;
  /* a plan kept from a take with the same indices (whether every rank
   * has one travels in the first exchange's counts) */
  int keep = split && direct && P > 1 && P <= MN_SMALLP;
  int hit = keep && !err && mn_index_plan_match(ctx->take_plan, P, ix, n, mn_array_size(x), start, es);
  const int64_t *key = ix;
  if (!err && !two && !hit) err = check_bounds(ix, n, mn_array_size(x), &wrap);
  if (wrap) ix = wrap;
  if (split && direct && P == 1) { /* into O's storage where that is dense */
    if (!err) {
      mn_local ol;
      mn_array_local_in(O, 0, &ol);
      int dense = ol.data && mn_strides_dense(O->map.ndim, ol.count, ol.stride);
      gather_run(xl.data, 0, ix, n, es, dense ? ol.data : val);
      if (!dense) mn_local_store(O, val);
      if (O != out) err = mn_array_copy(O, out);
    }
    goto cleanup;
  }
  /* direct: my own elements are read straight from my block, never sent */
  int me = ctx->rank, mine = split && direct;
  int64_t nmine = 0; /* my own indices: the last nmine of req, in my order */
  mn_index_plan *pl = ctx->take_plan;
  if (!err && hit) {
    memcpy(cn, pl->cnt, sizeof(int64_t) * (size_t)P);
    nmine = pl->nmine;
  } else if (!err && two) {
    int64_t nother = 0;
    err = slots2(ix, n, mn_array_size(x), start[1], me, order, (int64_t *)req, &nother);
    cn[1 - me] = err ? 0 : nother * 8;
    cn[me] = 0;
    nmine = n - nother;
  } else if (!err) {
    bucket(x, split ? start : NULL, ix, n, own, cn, order, mine);
    for (int64_t k = 0; k < n; k++) ((int64_t *)req)[order[k]] = ix[k];
    if (mine) { nmine = cn[me]; cn[me] = 0; }
    for (int q = 0; q < P; q++) cn[q] *= 8;
  } else
    for (int q = 0; q < P; q++) cn[q] = 0;
  int all = 0; /* every rank kept a plan for these indices */
  err = mn_exchange_counts(ctx, err, hit, cn, rc, rc + P, &all);
  if (!err && all) { /* the kept plan: answers only (its buffers: no allocation, nothing to agree) */
    mn_buf_host(x->buf, 0);
    gather_run(xl.data, start[me], pl->rreq, pl->m, es, pl->recv);
    err = mn_exchange_known(ctx, pl->recv, pl->cnt + P, pl->send, pl->cnt + 2 * P, pl->cnt + 3 * P);
  } else if (!err) {
    if (hit) { /* mine kept, another rank's not: my slots as kept */
      memcpy(order, pl->order, sizeof(int64_t) * (size_t)n);
      memcpy(req, pl->req, sizeof(int64_t) * (size_t)n);
    }
    err = mn_exchange_move(ctx, req, cn, NULL, 0, &rreq, rc, rc + P);
  }
  if (!err && !all) { /* answer the requests for my elements, in the order asked */
    int64_t g[MN_MAXDIM];
    nreq = rc[P - 1] + rc[2 * P - 1];
    m = nreq / 8;
    ans = tmp_take(m, es);
    int lerr = ans ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld answers", (long long)m);
    if (ans) {
      mn_buf_host(x->buf, 0);
      if (mine) gather_run(xl.data, start[me], (const int64_t *)rreq, m, es, ans);
      else
        for (int64_t k = 0; k < m; k++) {
          mn_flat_to_base(x, ((int64_t *)rreq)[k], g);
          memcpy(ans + k * (int64_t)es, mn_buf_ptr(x->buf, g), es);
        }
    }
    for (int q = 0; q < P; q++) rc[q] = ans ? rc[q] / 8 * (int64_t)es : 0;
    /* the others' answers land at the start of comb (mine follow them) */
    err = mn_exchange_into(ctx, lerr, ans, rc, mine ? comb : NULL, (size_t)n * es, &rval, gc, gc + P);
    if (!err) nval = mn_prefix(P, gc, gc + P);
  }
  if (!err) { /* into O's storage where that is dense (and not x's) */
    mn_local ol;
    mn_array_local_in(O, 0, &ol);
    int dense = ol.data && O->buf != x->buf && mn_strides_dense(O->map.ndim, ol.count, ol.stride);
    char *dst = dense ? ol.data : val;
    /* the kept plan's slots and answers, or this take's */
    const int64_t *ord = all ? pl->order : order, *rq = all ? pl->req : (const int64_t *)req;
    char *cb = all ? pl->send : comb, *rv = all ? pl->send : rval;
    if (mine) { /* answers in request order (the others', then mine), then out[k] = comb[order[k]]:
                 * two tight gathers keep more random reads in flight than one loop choosing its source */
      int64_t nr = n - nmine;
      if (rv != cb) memcpy(cb, rv, (size_t)nr * es);
      gather_run(xl.data, start[me], rq + nr, nmine, es, cb + nr * (int64_t)es);
      gather_run(cb, 0, ord, n, es, dst);
    } else
      gather_run(rv, 0, ord, n, es, dst);
    if (!dense) mn_local_store(O, val);
    if (O != out) err = mn_array_copy(O, out);
  }
  if (!err && keep && !all) { /* this take's plan kept for the next (its buffers handed over) */
    mn_index_plan *np = rval == comb ? mn_index_plan_reset(&ctx->take_plan, P, key, n, mn_array_size(x), start, es)
                                     : NULL;
    if (np) {
      np->m = m;
      np->nmine = nmine;
      memcpy(np->cnt, cn, sizeof(int64_t) * (size_t)P);
      memcpy(np->cnt + P, rc, sizeof(int64_t) * (size_t)P);
      memcpy(np->cnt + 2 * P, gc, sizeof(int64_t) * 2 * (size_t)P);
      np->order = order; np->req = (int64_t *)req; np->rreq = (int64_t *)rreq; np->recv = ans; np->send = comb;
      order = NULL; req = NULL; rreq = NULL; ans = NULL; comb = NULL; rval = NULL;
    }
  }
cleanup:
  free(start);
  mn_free(ix_copy);
  if (wrap) tmp_give(wrap, n, 8);
  mn_counts_free(cn, cstack);
  tmp_give(order, n, 8); tmp_give(own, n, 8); tmp_give(req, n, 8); tmp_give(val, n, es); tmp_give(comb, n, es);
  tmp_give(ans, m, es);
  if (rreq) tmp_give(rreq, nreq, 1);
  if (rval && rval != comb) tmp_give(rval, nval, 1);
done:
  if (own_i) mn_array_destroy(&I);
  if (own_o) mn_array_destroy(&O);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_array_put(mn_array *x, const mn_array *idx, const mn_array *v) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_put", mn_spmd_array(S, "x", x), mn_spmd_array(S, "idx", idx),
          mn_spmd_array(S, "v", v));
  MN_CALL(check_args(x, idx, v, "the values"));
  if (idx->map.ndim > 1) {
    /* a repeated index keeps the value last in C order, which is rank
     * order only in 1-d: both go 1-d first */
    int64_t n = mn_array_size(idx);
    mn_array *i1 = NULL, *v1 = NULL;
    int err = mn_array_reshape(idx, 1, &n, &i1);
    if (!err) err = mn_array_reshape(v, 1, &n, &v1);
    if (!err) err = mn_array_put(x, i1, v1);
    mn_array_destroy(&i1);
    mn_array_destroy(&v1);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    return MN_SUCCESS;
  }
  mn_ctx *ctx = x->ctx;
  int P = ctx->size, own_i = 0, own_v = 0, err = 0;
  size_t es = mn_dtype_size(x->dtype), rs = 8 + es;
  mn_array *I = NULL, *V = NULL;
  MN_CALL(mn_as_base(idx, MN_INT64, NULL, &I, &own_i));
  MN_CALLG(err, mn_as_base(v, x->dtype, I, &V, &own_v), done);
  /* errors of this rank alone (allocations, bounds) travel in the
   * exchange's counts: no agreement of their own */
  int64_t n = 0, nv = 0, nrec = 0, cstack[4 * MN_SMALLP], *cn = mn_counts(ctx, cstack, 4, &err);
  if (!cn) goto done;
  int64_t *rc = cn + 2 * P;
  /* indices and values read in place where dense, unless x's storage
   * (written below while they are read) */
  char *ix_copy = NULL, *vals_copy = NULL;
  int64_t *ix = (int64_t *)(same_storage(I, x) ? (ix_copy = mn_local_dense(I, &n)) : local_read_dense(I, &n, &ix_copy));
  char *vals = same_storage(V, x) ? (vals_copy = mn_local_dense(V, &nv)) : local_read_dense(V, &nv, &vals_copy);
  int64_t *start = malloc(sizeof(int64_t) * (size_t)(P + 1));
  char *rec = tmp_take(n, rs), *rrec = NULL;
  int64_t *order = tmp_take(n, 8), *own = tmp_take(n, 8);
  if (!ix || !vals || !rec || !order || !own || !start)
    err = MN_ERR(MN_ERR_MEM, "cannot allocate put buffers for %lld indices", (long long)n);
  int64_t *wrap = NULL, *ix0 = ix;
  if (!err) err = check_bounds(ix, n, mn_array_size(x), &wrap);
  if (wrap) ix = wrap;
  /* a row split: owners by search, my elements written straight into my
   * dense block (p0: its first element) */
  int split = start && mn_rows_split(x, start);
  char *p0 = NULL;
  if (split) {
    mn_local l;
    mn_array_local_in(x, 0, &l);
    if (l.data && mn_strides_dense(x->map.ndim, l.count, l.stride)) p0 = l.data;
  }
  if (p0 && P == 1) { /* in index order: the last of a repeated index wins, as NumPy */
    if (!err) scatter_run(p0, ix, n, es, vals);
    goto cleanup;
  }
  /* a plan kept from a put with the same indices (whether every rank has
   * one travels in the exchange's counts) */
  int keep = p0 && P > 1 && P <= MN_SMALLP;
  mn_index_plan *pl = ctx->put_plan;
  int hit = keep && !err && mn_index_plan_match(pl, P, ix0, n, mn_array_size(x), start, rs);
  /* p0: my own records stay here (packed last, never sent) */
  int me = ctx->rank;
  int64_t mine = 0, mine_at = 0, m = 0, below = 0;
  if (!err) { /* records (flat index, value), packed by owner in my order */
    if (hit) {
      memcpy(cn, pl->cnt, sizeof(int64_t) * (size_t)P);
      mine = pl->nmine;
      mine_at = n - mine;
    } else {
      bucket(x, split ? start : NULL, ix, n, own, cn, order, p0 != NULL);
      if (p0) {
        mine = cn[me];
        mine_at = n - mine;
        cn[me] = 0;
      }
      for (int q = 0; q < P; q++) cn[q] *= (int64_t)rs;
    }
    pack_records(rec, hit ? pl->order : order, ix, vals, n, es);
  } else
    for (int q = 0; q < P; q++) cn[q] = 0;
  int all = 0; /* every rank kept a plan for these indices: the records' counts known */
  err = mn_exchange_counts(ctx, err, hit, cn, rc, rc + P, &all);
  char *got = NULL; /* the records received */
  if (!err && all) {
    err = mn_exchange_known(ctx, rec, cn, pl->recv, pl->cnt + P, pl->cnt + 2 * P);
    got = pl->recv;
    m = pl->m;
    below = pl->below;
  } else if (!err) {
    err = mn_exchange_move(ctx, rec, cn, NULL, 0, &rrec, rc, rc + P);
    got = rrec;
    nrec = rc[P - 1] + rc[2 * P - 1];
    m = nrec / (int64_t)rs;
    below = rc[P + me] / (int64_t)rs;
  }
  if (!err) { /* senders in rank order, each in its own order: the last wins */
    int64_t g[MN_MAXDIM], f;
    mn_buf_host(x->buf, 1);
    if (p0) { /* lower ranks' records, mine, then higher ranks' */
      int64_t first = start[me];
      scatter_records(p0, first, got, below, es);
      scatter_records(p0, first, rec + mine_at * (int64_t)rs, mine, es);
      scatter_records(p0, first, got + below * (int64_t)rs, m - below, es);
    } else
      for (int64_t k = 0; k < m; k++) {
        const char *r = got + k * (int64_t)rs;
        memcpy(&f, r, 8);
        mn_flat_to_base(x, f, g);
        memcpy(mn_buf_ptr(x->buf, g), r + 8, es);
      }
  }
  if (!err && keep && !all) { /* this put's plan kept for the next (its buffers handed over) */
    if (hit) memcpy(order, pl->order, sizeof(int64_t) * (size_t)n); /* (mine was kept, another rank's not) */
    mn_index_plan *np = mn_index_plan_reset(&ctx->put_plan, P, ix0, n, mn_array_size(x), start, rs);
    if (np) {
      np->m = m;
      np->nmine = mine;
      np->below = below;
      memcpy(np->cnt, cn, sizeof(int64_t) * (size_t)P);
      memcpy(np->cnt + P, rc, sizeof(int64_t) * 2 * (size_t)P);
      np->order = order; np->recv = rrec;
      order = NULL; rrec = NULL;
    }
  }
cleanup:
  free(start);
  mn_free(ix_copy); mn_free(vals_copy);
  if (wrap) tmp_give(wrap, n, 8);
  mn_counts_free(cn, cstack);
  tmp_give(rec, n, rs); tmp_give(order, n, 8); tmp_give(own, n, 8);
  if (rrec) tmp_give(rrec, nrec, 1);
done:
  if (own_i) mn_array_destroy(&I);
  if (own_v) mn_array_destroy(&V);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* take_rows' requests of nr rows gi (x split by rows at xs, in
 * elements): each row's owner and slot, the row numbers by slot (mine
 * last, never sent), and the bytes for each rank (cnt) */
static void row_requests(const mn_array *x, const int64_t *gi, int64_t nr, int64_t row, const int64_t *xs,
                         int64_t *fi, int64_t *own, int64_t *cnt, int64_t *order, int64_t *req) {
  int P = x->ctx->size;
  for (int64_t r = 0; r < nr; r++) fi[r] = gi[r] * row; /* a row's first element owns it */
  bucket(x, xs, fi, nr, own, cnt, order, 1);
  for (int64_t r = 0; r < nr; r++) req[order[r]] = gi[r];
  cnt[x->ctx->rank] = 0;
  for (int q = 0; q < P; q++) cnt[q] *= 8;
}

/* Rows of x to this rank's rows of out (both split by rows, dense here):
 * gi holds the indices of this rank's rows of out (wrapped), xs/os the
 * row splits in elements. lerr: this rank's error so far, carried into the
 * first exchange (which agrees it). */
static int take_rows_split(const mn_array *x, const int64_t *gi, const int64_t *xs, const int64_t *os, mn_array *out,
                           int lerr) {
  mn_ctx *ctx = x->ctx;
  int P = ctx->size, me = ctx->rank, err = lerr;
  int64_t row = 1;
  for (int d = 1; d < x->map.ndim; d++) row *= x->map.shape[d];
  size_t rb = (size_t)row * mn_dtype_size(x->dtype);
  mn_local xl, ol;
  mn_array_local_read(x, 0, &xl);
  mn_array_local_in(out, 0, &ol);
  int64_t nr = row ? (os[me + 1] - os[me]) / row : 0;
  char *od = ol.data;
  const char *xd = xl.data;
  if (P == 1) {
    if (!err) copy_rows(od, xd, gi, 0, nr, rb);
    return err;
  }
  /* requests (row numbers) packed by owner, answered with the rows; my
   * own rows are copied here, never sent. A plan kept from a call with
   * the same rows (whether every rank has one travels in the first
   * exchange's counts) sends the answers alone. */
  int64_t cstack[6 * MN_SMALLP], *cnt = mn_counts(ctx, cstack, 6, &err);
  if (!cnt) return mn_trace(err, __FILE__, __LINE__, __func__);
  int64_t *rcnt = cnt + 2 * P, *gcnt = cnt + 4 * P, nreq = 0, nans = 0, m = 0;
  int64_t *order = tmp_take(nr, 8), *req = tmp_take(nr, 8), *own = tmp_take(nr, 8), *fi = tmp_take(nr, 8);
  char *rreq = NULL, *ans = NULL, *rans = NULL, *comb = tmp_take(nr, rb);
  if (!err && (!order || !req || !own || !fi || !comb))
    err = MN_ERR(MN_ERR_MEM, "cannot allocate row requests for %lld rows", (long long)nr);
  int64_t first = row ? xs[me] / row : 0;
  int keep = P <= MN_SMALLP, all = 0;
  mn_index_plan *pl = ctx->rows_plan;
  int hit = keep && !err && mn_index_plan_match(pl, P, gi, nr, x->map.shape[0], xs, rb);
  if (!err && hit) memcpy(cnt, pl->cnt, sizeof(int64_t) * (size_t)P);
  if (!err && !hit) row_requests(x, gi, nr, row, xs, fi, own, cnt, order, req);
  err = mn_exchange_counts(ctx, err, hit, cnt, rcnt, rcnt + P, &all);
  /* mine kept, another rank's not: the requests made again (the same counts as sent) */
  if (!err && hit && !all) row_requests(x, gi, nr, row, xs, fi, own, cnt, order, req);
  if (!err && all) {
    copy_rows(pl->recv, xd, pl->rreq, first, pl->m, rb);
    err = mn_exchange_known(ctx, pl->recv, pl->cnt + P, pl->send, pl->cnt + 2 * P, pl->cnt + 3 * P);
    if (!err) unpack_take(od, pl->req, me, gi, first, xd, pl->order, pl->send, nr, rb);
  } else if (!err) {
    err = mn_exchange_move(ctx, (const char *)req, cnt, NULL, 0, &rreq, rcnt, rcnt + P);
    if (!err) {
      nreq = rcnt[P - 1] + rcnt[2 * P - 1];
      m = nreq / 8;
      ans = tmp_take(m, rb);
      int aerr = ans ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld rows", (long long)m);
      if (ans) copy_rows(ans, xd, (const int64_t *)rreq, first, m, rb);
      for (int q = 0; q < P; q++) rcnt[q] = ans ? rcnt[q] / 8 * (int64_t)rb : 0;
      err = mn_exchange_into(ctx, aerr, ans, rcnt, comb, (size_t)(nr ? nr : 1) * rb, &rans, gcnt, gcnt + P);
      if (!err) nans = mn_prefix(P, gcnt, gcnt + P);
    }
    if (!err) unpack_take(od, own, me, gi, first, xd, order, rans, nr, rb);
    if (!err && keep && rans == comb) { /* this call's plan kept for the next (its buffers handed over) */
      mn_index_plan *np = mn_index_plan_reset(&ctx->rows_plan, P, gi, nr, x->map.shape[0], xs, rb);
      if (np) {
        np->m = m;
        memcpy(np->cnt, cnt, sizeof(int64_t) * (size_t)P);
        memcpy(np->cnt + P, rcnt, sizeof(int64_t) * (size_t)P);
        memcpy(np->cnt + 2 * P, gcnt, sizeof(int64_t) * 2 * (size_t)P);
        np->order = order; np->req = own; np->rreq = (int64_t *)rreq; np->recv = ans; np->send = comb;
        order = own = NULL; rreq = ans = comb = rans = NULL;
      }
    }
  }
  mn_counts_free(cnt, cstack);
  tmp_give(fi, nr, 8); tmp_give(order, nr, 8); tmp_give(req, nr, 8); tmp_give(own, nr, 8); tmp_give(ans, m, rb);
  if (rreq) tmp_give(rreq, nreq, 1);
  if (rans && rans != comb) tmp_give(rans, nans, 1);
  tmp_give(comb, nr, rb);
  return err;
}

/* a base array with no halo, or a view of all of one in its own order
 * (Python's M[idx] passes one): dense on every rank, from metadata alone */
static int whole_dense(const mn_array *a) {
  const mn_map *m = &a->map;
  if (a->buf->halo) return 0;
  if (!a->is_view) return 1;
  if (m->ndim != m->bndim || m->ndim != a->buf->lay->ndim) return 0;
  for (int d = 0; d < m->ndim; d++)
    if (m->bax[d] != d || m->start[d] != 0 || m->step[d] != 1 || m->shape[d] != a->buf->lay->shape[d]) return 0;
  return 1;
}

static int dense_here(const mn_array *a) {
  mn_local l;
  mn_array_local_read(a, 0, &l);
  return !l.data || mn_strides_dense(a->map.ndim, l.count, l.stride);
}

int mn_array_take_rows(const mn_array *x, const mn_array *idx, mn_array *out) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_take_rows", mn_spmd_array(S, "x", x), mn_spmd_array(S, "idx", idx),
          mn_spmd_array(S, "out", out));
  MN_CHECK(x && idx && out, MN_ERR_ARG, "NULL array");
  MN_CHECK(x->ctx == idx->ctx && x->ctx == out->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  MN_CHECK(mn_is_int(idx->dtype), MN_ERR_DTYPE, "indices must be integers, got dtype %s", mn_dtype_name(idx->dtype));
  MN_CHECK(idx->map.ndim == 1, MN_ERR_SHAPE, "take_rows takes a 1-d index array, got %d-d", idx->map.ndim);
  MN_CHECK(x->map.ndim >= 1, MN_ERR_SHAPE, "take_rows needs an array of at least 1 dimension, got 0-d");
  MN_CHECK(out->dtype == x->dtype, MN_ERR_DTYPE, "take_rows: out has dtype %s, x %s", mn_dtype_name(out->dtype),
           mn_dtype_name(x->dtype));
  int same = out->map.ndim == x->map.ndim && out->map.shape[0] == idx->map.shape[0];
  for (int d = 1; same && d < x->map.ndim; d++) same = out->map.shape[d] == x->map.shape[d];
  if (!same) {
    char so[128], sx[128];
    mn_shape_str(out->map.ndim, out->map.shape, so, sizeof so);
    mn_shape_str(x->map.ndim, x->map.shape, sx, sizeof sx);
    return MN_ERR(MN_ERR_SHAPE, "take_rows: out has shape %s, not (%lld,) + %s[1:]", so,
                  (long long)idx->map.shape[0], sx);
  }
  mn_ctx *ctx = x->ctx;
  int P = ctx->size, me = ctx->rank, err = 0;
  int64_t m = idx->map.shape[0], n0 = x->map.shape[0], row = 1;
  for (int d = 1; d < x->map.ndim; d++) row *= x->map.shape[d];
  mn_array *I = NULL;
  int own_i = 0;
  MN_CALL(mn_as_base(idx, MN_INT64, NULL, &I, &own_i));
  int64_t *xs = malloc(sizeof(int64_t) * 2 * (size_t)(P + 1)), *os = xs ? xs + P + 1 : NULL, *gi = NULL, ng = m;
  if (!xs) mn_oom_abort(ctx, sizeof(int64_t) * 2 * (size_t)(P + 1), "take_rows' row starts");
  int split = row > 0 && mn_rows_split(x, xs) && mn_rows_split(out, os);
  /* base arrays with no halo are dense on every rank: decided from the
   * metadata, with no message; views ask every rank */
  int all = split && whole_dense(x) && whole_dense(out);
  if (split && !all && P > 1) {
    int ok = dense_here(x) && dense_here(out);
    mn_allreduce(ctx, &ok, &all, 1, MPI_INT, MPI_MIN);
  } else if (split && !all)
    all = dense_here(x) && dense_here(out);
  /* the indices of this rank's rows of out, in rank order, when out is
   * split by rows (O(m / P) each): I's own block when I is split as those
   * rows (no message), else moved; otherwise every index on every rank */
  int lerr = 0;
  if (all) {
    ng = (os[me + 1] - os[me]) / row;
    gi = malloc(sizeof(int64_t) * (size_t)(ng ? ng : 1));
    int alike = !I->is_view && I->buf->lay->kind == MN_LAYOUT_BLOCK && I->buf->lay->ndim == 1 &&
                I->buf->lay->dims[0] == P;
    for (int q = 0; alike && q <= P; q++) alike = (q < P ? mn_split_start(m, P, q) : m) * row == os[q];
    if (alike) { /* (an allocation failure travels in take_rows_split's first exchange) */
      if (!gi) lerr = MN_ERR(MN_ERR_MEM, "cannot allocate %lld indices", (long long)ng);
      else if (ng) {
        int64_t b0 = mn_split_start(m, P, me);
        memcpy(gi, mn_buf_host(I->buf, 0) + mn_buf_off(I->buf, &b0) * 8, sizeof(int64_t) * (size_t)ng);
      }
    } else {
      err = mn_agree(ctx, gi ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld indices", (long long)ng));
      if (!err) err = mn_array_split_local(I, ng, gi);
    }
  } else {
    gi = malloc(sizeof(int64_t) * (size_t)(ng ? ng : 1));
    err = mn_agree(ctx, gi ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld indices", (long long)ng));
    if (!err) err = mn_array_allgather(I, gi);
  }
  /* split: each rank checks its own indices, and the error travels in
   * take_rows_split's first exchange; else every rank holds them all */
  for (int64_t k = 0; k < ng && !err && !lerr; k++) {
    if (gi[k] < -n0 || gi[k] >= n0)
      lerr = MN_ERR(MN_ERR_INDEX, "index %lld is out of bounds for axis 0 with size %lld", (long long)gi[k],
                    (long long)n0);
    else if (gi[k] < 0) gi[k] += n0;
  }
  if (!err && !all) err = lerr; /* the same indices, the same error, on every rank */
  if (!err) {
    if (all) err = take_rows_split(x, gi, xs, os, out, lerr);
    else { /* flat indices of out's elements, then the element take */
      mn_array *F = NULL;
      err = mn_array_create_like(out, MN_INT64, &F);
      if (!err) {
        mn_local fl;
        int64_t i[MN_MAXDIM] = {0}, off = 0;
        mn_array_local_in(F, 0, &fl);
        int nd = out->map.ndim;
        int64_t cs[MN_MAXDIM], total = fl.data ? mn_box_size(nd, fl.count) : 0;
        mn_dense_strides(nd, out->map.shape, cs);
        for (int64_t k = 0; k < total; k++) {
          int64_t f = gi[fl.lo[0] + i[0]] * row;
          for (int d = 1; d < nd; d++) f += (fl.lo[d] + i[d]) * cs[d];
          ((int64_t *)fl.data)[off] = f;
          off = mn_box_step(nd, fl.count, fl.stride, i, off);
        }
        err = mn_array_take(x, F, out);
      }
      mn_array_destroy(&F);
    }
  }
  free(gi);
  free(xs);
  if (own_i) mn_array_destroy(&I);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
