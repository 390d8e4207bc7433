/* Order statistics without sorting: the values at given positions of x's
 * sorted values, by a radix selection on NumPy's order keys (sort_key.h).
 * Each pass histograms the next 8 key bits of the elements still in play,
 * under each target's key prefix, with one allreduce of the counts; the
 * elements in play are copied out only once they shrink, and the last few
 * (at most CUT over all ranks) are gathered to every rank and sorted there.
 * Memory traffic is a few passes over x, where sorting is a dozen. */
#include <maniple/mn_sort.h>
#include "exchange.h"
#include "spmd.h"
#include "sort_key.h"
#include <stdlib.h>
#include <string.h>

#define CUT 65536
typedef struct { uint64_t key, raw; } cand;

static int cmp_cand(const void *a, const void *b) {
  uint64_t x = ((const cand *)a)->key, y = ((const cand *)b)->key;
  return (x > y) - (x < y);
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* index of p in the sorted distinct prefixes u (n of them), or -1 */
static int find(const uint64_t *u, int n, uint64_t p) {
  int lo = 0, hi = n - 1;
  while (lo <= hi) {
    int mid = (lo + hi) / 2;
    if (u[mid] == p) return mid;
    if (u[mid] < p) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* The distinct values of pre (n of them) into u, sorted; returns how many. */
static int distinct(const uint64_t *pre, int n, uint64_t *u) {
  int nu = 0;
  memcpy(u, pre, sizeof(uint64_t) * (size_t)n);
  qsort(u, (size_t)n, sizeof(uint64_t), cmp_u64);
  for (int i = 0; i < n; i++)
    if (!nu || u[nu - 1] != u[i]) u[nu++] = u[i];
  return nu;
}

/* The elements in play: all of this rank's (c == NULL: their keys, and
 * the values dense at x) or the copied list c. */
typedef struct {
  size_t es;
  const char *x;
  uint64_t *keys;
  int64_t n;
  cand *c;
} pool;

/* Visit each element in play: KEY, and RAW (its bits) when used. */
#define FOR_EACH(P, KEY, RAW, BODY)                                                                             \
  do {                                                                                                        \
    for (int64_t e_ = 0; e_ < (P)->n; e_++) {                                                                 \
      uint64_t KEY = (P)->c ? (P)->c[e_].key : (P)->keys[e_];                                                 \
      uint64_t RAW = 0;                                                                                       \
      if ((P)->c) RAW = (P)->c[e_].raw;                                                                       \
      else memcpy(&RAW, (P)->x + e_ * (int64_t)(P)->es, (P)->es);                                             \
      (void)RAW;                                                                                              \
      BODY                                                                                                    \
    }                                                                                                         \
  } while (0)

int mn_array_order_stats(const mn_array *x, int npos, const int64_t *pos, void *vals) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_order_stats", mn_spmd_array(S, "x", x), mn_spmd_int(S, "npos", npos));
  mn_ctx *ctx = x->ctx;
  int64_t N = mn_array_size(x);
  if (x->dtype == MN_COMPLEX64 || x->dtype == MN_COMPLEX128)
    return MN_ERR(MN_ERR_DTYPE, "order statistics of %s: complex values have no single key", mn_dtype_name(x->dtype));
  for (int i = 0; i < npos; i++)
    if (pos[i] < 0 || pos[i] >= N)
      return MN_ERR(MN_ERR_INDEX, "position %lld is out of bounds for %lld sorted elements", (long long)pos[i],
                    (long long)N);
  if (!npos) return MN_SUCCESS;
  /* this rank's values, dense (a copy where its block is strided), and their keys */
  pool P = {mn_dtype_size(x->dtype), NULL, NULL, 0, NULL};
  mn_local l;
  char *copy = NULL;
  MN_CALL(mn_array_local_read(x, 0, &l));
  P.n = l.data ? mn_box_size(l.ndim, l.count) : 0;
  if (P.n && !mn_strides_dense(l.ndim, l.count, l.stride)) copy = mn_local_dense(x, &P.n);
  P.x = copy ? copy : l.data;
  P.keys = mn_malloc(sizeof(uint64_t) * (size_t)(P.n + 1));
  for (int64_t i = 0; P.keys && P.x && i < P.n; i++) P.keys[i] = mni_sort_key((int)x->dtype, P.x + i * (int64_t)P.es);
  /* per target: key prefix (the top depth bits) and the elements below it */
  /* u: the distinct prefixes (nu of them, sorted), un: the next round's */
  uint64_t *pre = calloc((size_t)npos, sizeof(uint64_t)), *u = malloc(sizeof(uint64_t) * (size_t)npos);
  uint64_t *un = malloc(sizeof(uint64_t) * (size_t)npos);
  int64_t *below = calloc((size_t)npos, sizeof(int64_t)), *hist = NULL, *ghist = NULL;
  cand *all = NULL;
  int err = pre && u && un && below && P.keys && (P.x || !P.n) ? 0 :
            MN_ERR(MN_ERR_MEM, "cannot allocate %d order statistics of %lld elements", npos, (long long)P.n);
  int depth = 0, nu = err ? 0 : distinct(pre, npos, u);
  int64_t total = N; /* elements in play, over all ranks */
  /* total and depth are global, so every rank runs the same rounds; an
   * allocation failed on one rank is agreed at the top of the next round
   * (or after the last), so no rank waits in a histogram's allreduce */
  while (total > CUT && depth < 64) {
    free(hist);
    hist = err ? NULL : calloc((size_t)nu * 512, sizeof(int64_t));
    if (!err && !hist) err = MN_ERR(MN_ERR_MEM, "cannot allocate a histogram of %d prefixes", nu);
    err = mn_agree(ctx, err);
    if (err) break;
    ghist = hist + (size_t)nu * 256;
    int shift = 56 - depth;
    if (nu == 1 && !P.c) { /* one prefix over the keys: the common case, a tight loop */
      uint64_t want = u[0];
      for (int64_t e = 0; e < P.n; e++) {
        uint64_t key = P.keys[e];
        if (!depth || key >> (64 - depth) == want) hist[(key >> shift) & 255]++;
      }
    } else
      FOR_EACH(&P, key, raw, {
        int j = depth ? find(u, nu, key >> (64 - depth)) : 0;
        if (j >= 0) hist[j * 256 + ((key >> shift) & 255)]++;
      });
    if (MPI_Allreduce(hist, ghist, nu * 256, MPI_INT64_T, MPI_SUM, ctx->comm) != MPI_SUCCESS) {
      err = MN_ERR(MN_ERR_MPI, "MPI_Allreduce of an order statistics histogram failed");
      break;
    }
    for (int i = 0; i < npos; i++) { /* the digit holding each target */
      const int64_t *h = ghist + find(u, nu, pre[i]) * 256;
      int d = 0;
      while (below[i] + h[d] <= pos[i]) below[i] += h[d++];
      pre[i] = (pre[i] << 8) | (uint64_t)d;
    }
    /* what stays in play: the elements under the targets' new prefixes */
    int nn = distinct(pre, npos, un);
    int64_t mine = 0;
    total = 0;
    for (int j = 0; j < nn; j++) {
      int64_t at = find(u, nu, un[j] >> 8) * 256 + (int64_t)(un[j] & 255);
      total += ghist[at];
      mine += hist[at];
    }
    uint64_t *t = u;
    u = un;
    un = t;
    nu = nn;
    depth += 8;
    if (2 * mine <= P.n || total <= CUT || depth == 64) { /* copy out what stays */
      cand *c = mn_malloc(sizeof(cand) * (size_t)(mine ? mine : 1));
      if (!c) { err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld candidates", (long long)mine); continue; }
      int64_t k = 0;
      FOR_EACH(&P, key, raw, {
        if (find(u, nu, key >> (64 - depth)) >= 0) { c[k].key = key; c[k].raw = raw; k++; }
      });
      mn_free(P.c);
      mn_free(P.keys);
      P.keys = NULL;
      P.c = c;
      P.n = k;
    }
  }
  err = mn_agree(ctx, err);
  if (!err) { /* the rest on every rank: all of it, or one of each key once the keys are whole */
    int Pn = ctx->size;
    int64_t keep = 0;
    cand *mine = mn_malloc(sizeof(cand) * (size_t)(P.n + 1));
    if (mine)
      FOR_EACH(&P, key, raw, {
        if (!depth || find(u, nu, key >> (64 - depth)) >= 0) {
          int seen = 0;
          for (int64_t q = 0; depth == 64 && q < keep && !seen; q++) seen = mine[q].key == key;
          if (!seen) { mine[keep].key = key; mine[keep].raw = raw; keep++; }
        }
      });
    int *cnt = malloc(sizeof(int) * (size_t)Pn * 2);
    int me = (int)(keep * (int64_t)sizeof(cand)), nall = 0;
    err = mine && cnt ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld candidates", (long long)P.n);
    err = mn_agree(ctx, err);
    if (!err && MPI_Allgather(&me, 1, MPI_INT, cnt, 1, MPI_INT, ctx->comm) != MPI_SUCCESS)
      err = MN_ERR(MN_ERR_MPI, "MPI_Allgather of candidate counts failed");
    if (!err) {
      int *disp = cnt + Pn;
      for (int q = 0; q < Pn; q++) { disp[q] = nall; nall += cnt[q]; }
      all = mn_malloc((size_t)nall + 1);
      if (!all) err = MN_ERR(MN_ERR_MEM, "cannot allocate %d bytes of candidates", nall);
      else if (MPI_Allgatherv(mine, me, MPI_BYTE, all, cnt, disp, MPI_BYTE, ctx->comm) != MPI_SUCCESS)
        err = MN_ERR(MN_ERR_MPI, "MPI_Allgatherv of candidates failed");
    }
    if (!err) {
      int64_t na = nall / (int64_t)sizeof(cand);
      qsort(all, (size_t)na, sizeof(cand), cmp_cand);
      for (int i = 0; i < npos; i++) {
        /* the first candidate of target i's prefix, then its place among them */
        uint64_t lo = depth ? pre[i] << (64 - depth) : 0;
        if (depth == 64) lo = pre[i];
        int64_t a = 0, b = na;
        while (a < b) { int64_t mid = (a + b) / 2; if (all[mid].key < lo) a = mid + 1; else b = mid; }
        int64_t at = depth == 64 ? a : a + (pos[i] - below[i]);
        memcpy((char *)vals + (size_t)i * P.es, &all[at].raw, P.es);
      }
    }
    free(cnt);
    mn_free(mine);
  }
  mn_free(all);
  mn_free(P.c);
  mn_free(P.keys);
  mn_free(copy);
  free(pre);
  free(u);
  free(un);
  free(below);
  free(hist);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}
