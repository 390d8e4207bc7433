/* The order of each part's vertices, computed where the part will live:
 * every vertex goes to its part's rank with its neighbours in the same
 * part and whether it touches a lower part; that rank orders the part
 * breadth first from those touching a lower part (in old order), then the
 * pieces not reached, and sends each vertex its place back. Neighbours get
 * close new indices (the product reads x from cache), and the vertices a
 * part spills into the next rank's block (the equal split of the new
 * numbering) are those farthest from the lower parts, a compact piece.
 * Memory: the part's vertices and inner edges on its rank, O((n + m) / P). */
#include "part_impl.h"
#include <stdlib.h>
#include <string.h>

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Records for the parts' ranks, packed by part: id, touches a lower part,
 * count, then the neighbours in the same part. */
static int64_t *pack(const mn_graph *g, const int *part, const int64_t *npart, int P, int64_t *cnt) {
  int64_t nl = g->nlocal, *pos = cnt + P;
  memset(cnt, 0, sizeof(int64_t) * (size_t)P);
  for (int64_t k = 0; k < nl; k++) {
    int64_t same = 0;
    for (int64_t e = g->rowptr[k]; e < g->rowptr[k + 1]; e++) same += npart[e] == part[k];
    cnt[part[k]] += 3 + same;
  }
  int64_t total = mn_prefix(P, cnt, pos);
  int64_t *r = mn_malloc(sizeof(int64_t) * (size_t)(total ? total : 1));
  if (!r) return NULL;
  for (int64_t k = 0; k < nl; k++) {
    int64_t *w = r + pos[part[k]], same = 0, lower = 0;
    for (int64_t e = g->rowptr[k]; e < g->rowptr[k + 1]; e++) {
      if (npart[e] == part[k]) w[3 + same++] = g->adj[e];
      lower |= npart[e] < part[k];
    }
    w[0] = g->start + k;
    w[1] = lower;
    w[2] = same;
    pos[part[k]] += 3 + same;
  }
  for (int q = 0; q < P; q++) cnt[q] *= 8;
  return r;
}

/* The places of the nv vertices whose records are at rec + off[i] (ids
 * increasing: they arrive from lower ranks first, each in old order). */
static int order_part(const int64_t *rec, const int64_t *off, int64_t nv, int64_t *place) {
  int64_t *ids = malloc(sizeof(int64_t) * (size_t)(nv + 1)), *queue = malloc(sizeof(int64_t) * (size_t)(nv + 1));
  if (!ids || !queue) {
    free(ids); free(queue);
    return MN_ERR(MN_ERR_MEM, "cannot order a part of %lld vertices", (long long)nv);
  }
  for (int64_t i = 0; i < nv; i++) { ids[i] = rec[off[i]]; place[i] = -1; }
  int64_t placed = 0, head = 0, tail = 0;
  for (int64_t i = 0; i < nv; i++) /* seeds: touching a lower part */
    if (rec[off[i] + 1]) { place[i] = placed++; queue[tail++] = i; }
  for (int64_t t = 0;;) {
    while (head < tail) {
      const int64_t *r = rec + off[queue[head++]];
      for (int64_t j = 0; j < r[2]; j++) {
        const int64_t *f = bsearch(&r[3 + j], ids, (size_t)nv, sizeof(int64_t), cmp_i64);
        if (f && place[f - ids] < 0) { place[f - ids] = placed++; queue[tail++] = f - ids; }
      }
    }
    while (t < nv && place[t] >= 0) t++;
    if (t == nv) break;
    place[t] = placed++; /* the next piece not reached */
    queue[tail++] = t;
  }
  free(ids); free(queue);
  return MN_SUCCESS;
}

int mn_part_order(mn_ctx *ctx, const mn_graph *g, const int *part, int64_t *key) {
  int P = ctx->size, err = 0;
  int64_t nl = g->nlocal, m = g->rowptr[nl], nv = 0;
  int64_t *pv = mn_malloc(sizeof(int64_t) * (size_t)(nl ? nl : 1)), *np = mn_malloc(sizeof(int64_t) * (size_t)(m ? m : 1));
  int64_t *cnt = calloc(6 * (size_t)P, sizeof(int64_t)), *rec = NULL, *off = NULL, *place = NULL;
  char *rb = NULL, *ab = NULL;
  if (!pv || !np || !cnt) err = MN_ERR(MN_ERR_MEM, "cannot allocate the parts of %lld edge entries", (long long)m);
  err = mn_agree(ctx, err);
  for (int64_t k = 0; !err && k < nl; k++) pv[k] = part[k];
  if (!err) err = mn_graph_neighbour_values(ctx, g, pv, np);
  if (!err) {
    rec = pack(g, part, np, P, cnt);
    err = mn_agree(ctx, rec ? 0 : MN_ERR(MN_ERR_MEM, "cannot pack %lld vertices for their parts", (long long)nl));
  }
  mn_free(np);
  np = NULL;
  if (!err) err = mn_exchange(ctx, (char *)rec, cnt, &rb, cnt + 2 * P, cnt + 3 * P);
  mn_free(rec);
  if (!err) { /* this rank's part: walk the records, order them */
    const int64_t *r = (const int64_t *)rb;
    int64_t words = mn_prefix(P, cnt + 2 * P, cnt + 3 * P) / 8;
    for (int64_t w = 0; w < words; w += 3 + r[w + 2]) nv++;
    off = malloc(sizeof(int64_t) * (size_t)(nv + 1));
    place = mn_malloc(sizeof(int64_t) * (size_t)(nv + 1));
    if (!off || !place) err = MN_ERR(MN_ERR_MEM, "cannot order a part of %lld vertices", (long long)nv);
    for (int64_t w = 0, i = 0; !err && w < words; w += 3 + r[w + 2]) off[i++] = w;
    if (!err) err = order_part(r, off, nv, place);
    for (int q = 0; q < P; q++) { /* the reply: one place per vertex each rank sent, in its order */
      int64_t c = 0;
      for (int64_t w = cnt[3 * P + q] / 8; w < (cnt[3 * P + q] + cnt[2 * P + q]) / 8; w += 3 + r[w + 2]) c++;
      cnt[4 * P + q] = 8 * c;
    }
  }
  err = mn_agree(ctx, err);
  if (!err) err = mn_exchange(ctx, (char *)place, cnt + 4 * P, &ab, cnt, cnt + P);
  if (!err) { /* places from each part's rank, in the order this rank packed */
    const int64_t *a = (const int64_t *)ab;
    for (int q = 0; q < P; q++) cnt[P + q] /= 8;
    for (int64_t k = 0; k < nl; k++) key[k] = a[cnt[P + part[k]]++];
  }
  mn_free(pv); mn_free(np); free(cnt); mn_free(rb); mn_free(ab); free(off); mn_free(place);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
