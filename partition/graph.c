/* Symmetrising a distributed graph: every edge u -> v also goes to v's
 * owner as v -> u (one all-to-all); rows are then sorted and deduplicated. */
#include "part_impl.h"
#include <stdlib.h>
#include <string.h>

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

int64_t mn_sort_unique(int64_t *v, int64_t n) {
  qsort(v, (size_t)n, sizeof(int64_t), cmp_i64);
  int64_t w = 0;
  for (int64_t k = 0; k < n; k++)
    if (k == 0 || v[k] != v[k - 1]) v[w++] = v[k];
  return w;
}

void mn_graph_free(mn_graph *g) {
  mn_free(g->rowptr);
  mn_free(g->adj);
  g->rowptr = g->adj = NULL;
}

/* Reverse edges (v, u) packed by the owner of v; self loops skipped. */
static int64_t *pack_reverse(mn_ctx *ctx, int64_t n, int64_t start, int64_t nlocal, const int64_t *rowptr,
                             const int64_t *adj, int64_t *cnt) {
  int P = ctx->size;
  int64_t m = rowptr[nlocal], *pos = cnt + P;
  int64_t *pk = mn_malloc(sizeof(int64_t) * 2 * (size_t)(m ? m : 1));
  if (!pk) return NULL;
  memset(cnt, 0, sizeof(int64_t) * (size_t)P);
  for (int64_t k = 0; k < nlocal; k++)
    for (int64_t e = rowptr[k]; e < rowptr[k + 1]; e++)
      if (adj[e] != start + k) cnt[mn_split_owner(n, P, adj[e])]++;
  mn_prefix(P, cnt, pos);
  for (int64_t k = 0; k < nlocal; k++)
    for (int64_t e = rowptr[k]; e < rowptr[k + 1]; e++)
      if (adj[e] != start + k) {
        int64_t *r = pk + 2 * pos[mn_split_owner(n, P, adj[e])]++;
        r[0] = adj[e];
        r[1] = start + k;
      }
  for (int q = 0; q < P; q++) cnt[q] *= 16;
  return pk;
}

/* Rows = own entries + received reverse entries, then sorted and made
 * unique in place (rowptr rewritten as rows shrink). */
static int merge(int64_t start, int64_t nlocal, const int64_t *rowptr, const int64_t *adj, const int64_t *rev,
                 int64_t nrev, mn_graph *g) {
  int64_t *rp = mn_calloc(sizeof(int64_t) * (size_t)(nlocal + 1));
  if (!rp) return MN_ERR(MN_ERR_MEM, "cannot allocate %lld row pointers", (long long)nlocal + 1);
  for (int64_t k = 0; k < nlocal; k++)
    for (int64_t e = rowptr[k]; e < rowptr[k + 1]; e++) rp[k + 1] += adj[e] != start + k;
  for (int64_t r = 0; r < nrev; r++) rp[rev[2 * r] - start + 1]++;
  for (int64_t k = 0; k < nlocal; k++) rp[k + 1] += rp[k];
  int64_t m = rp[nlocal], *a = mn_malloc(sizeof(int64_t) * (size_t)(m ? m : 1));
  int64_t *fill = malloc(sizeof(int64_t) * (size_t)(nlocal ? nlocal : 1));
  if (!a || !fill) {
    mn_free(rp); mn_free(a); free(fill);
    return MN_ERR(MN_ERR_MEM, "cannot allocate %lld symmetrised edges", (long long)m);
  }
  memcpy(fill, rp, sizeof(int64_t) * (size_t)nlocal);
  for (int64_t k = 0; k < nlocal; k++)
    for (int64_t e = rowptr[k]; e < rowptr[k + 1]; e++)
      if (adj[e] != start + k) a[fill[k]++] = adj[e];
  for (int64_t r = 0; r < nrev; r++) a[fill[rev[2 * r] - start]++] = rev[2 * r + 1];
  free(fill);
  int64_t w = 0;
  for (int64_t k = 0; k < nlocal; k++) {
    int64_t lo = rp[k], hi = rp[k + 1];
    qsort(a + lo, (size_t)(hi - lo), sizeof(int64_t), cmp_i64);
    rp[k] = w;
    for (int64_t e = lo; e < hi; e++)
      if (e == lo || a[e] != a[e - 1]) a[w++] = a[e];
  }
  rp[nlocal] = w;
  g->rowptr = rp;
  g->adj = a;
  return MN_SUCCESS;
}

int mn_graph_symmetrize(mn_ctx *ctx, int64_t n, int64_t nlocal, const int64_t *rowptr, const int64_t *adj,
                        mn_graph *g) {
  int P = ctx->size, err = 0;
  int64_t start = mn_split_start(n, P, ctx->rank);
  *g = (mn_graph){n, start, nlocal, NULL, NULL};
  int64_t *cnt = malloc(sizeof(int64_t) * 4 * (size_t)P), *pk = NULL;
  char *rb = NULL;
  if (cnt) pk = pack_reverse(ctx, n, start, nlocal, rowptr, adj, cnt);
  if (!cnt || !pk) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld reverse edges", (long long)rowptr[nlocal]);
  err = mn_agree(ctx, err);
  if (!err) err = mn_exchange(ctx, (char *)pk, cnt, &rb, cnt + 2 * P, cnt + 3 * P);
  mn_free(pk);
  if (!err) {
    int64_t nrev = mn_prefix(P, cnt + 2 * P, cnt + 3 * P) / 16;
    err = mn_agree(ctx, merge(start, nlocal, rowptr, adj, (const int64_t *)rb, nrev, g));
  }
  free(cnt);
  mn_free(rb);
  if (err) { mn_graph_free(g); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

/* out[e] = val of neighbour adj[e]: local ones read here, remote ones
 * asked of their owners once each, with two all-to-alls. */
int mn_graph_neighbour_values(mn_ctx *ctx, const mn_graph *g, const int64_t *val, int64_t *out) {
  int P = ctx->size, err = 0;
  int64_t n = g->n, lo = g->start, hi = g->start + g->nlocal, m = g->rowptr[g->nlocal], nr = 0;
  int64_t *rq = mn_malloc(sizeof(int64_t) * (size_t)(m ? m : 1)), *cnt = calloc(6 * (size_t)P, sizeof(int64_t));
  char *rb = NULL, *ab = NULL;
  if (!rq || !cnt) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld neighbour requests", (long long)m);
  err = mn_agree(ctx, err);
  if (!err) {
    for (int64_t e = 0; e < m; e++)
      if (g->adj[e] < lo || g->adj[e] >= hi) rq[nr++] = g->adj[e];
    nr = mn_sort_unique(rq, nr); /* sorted, hence grouped by owner in rank order */
    for (int64_t k = 0; k < nr; k++) cnt[mn_split_owner(n, P, rq[k])] += 8;
    err = mn_exchange(ctx, (char *)rq, cnt, &rb, cnt + P, cnt + 2 * P);
  }
  if (!err) { /* answer in the order asked; the answers retrace the requests */
    int64_t na = mn_prefix(P, cnt + P, cnt + 2 * P) / 8, *a = (int64_t *)rb;
    for (int64_t k = 0; k < na; k++) a[k] = val[a[k] - lo];
    err = mn_exchange(ctx, rb, cnt + P, &ab, cnt + 3 * P, cnt + 4 * P);
  }
  if (!err) {
    const int64_t *ans = (const int64_t *)ab;
    for (int64_t e = 0; e < m; e++) {
      int64_t v = g->adj[e];
      if (v >= lo && v < hi) { out[e] = val[v - lo]; continue; }
      const int64_t *f = bsearch(&v, rq, (size_t)nr, sizeof(int64_t), cmp_i64);
      out[e] = ans[f - rq];
    }
  }
  mn_free(rq); free(cnt); mn_free(rb); mn_free(ab);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
