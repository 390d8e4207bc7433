/* The METIS step: the symmetrised graph is gathered on rank 0 (one record
 * per rank through mn_exchange, which splits large messages),
 * METIS_PartGraphKway cuts it into as many parts as ranks, and each rank
 * gets back the parts of its vertices (ordered within them by order.c). Rank 0 holds the whole graph
 * meanwhile: this is where the method stops scaling (docs/design.md). */
#include "part_impl.h"
#include <stdlib.h>
#include <string.h>
#ifdef MANIPLE_HAVE_METIS
#include <metis.h>
#endif

int mn_metis_available(void) {
#ifdef MANIPLE_HAVE_METIS
  return MN_SUCCESS;
#else
  return MN_ERR(MN_ERR_NOTIMPL, "MN_PART_METIS: this maniple was built without METIS (metis.h and libmetis "
                                "were not found at configure time; install libmetis-dev and reconfigure), "
                                "use MN_PART_EQUAL");
#endif
}

#ifdef MANIPLE_HAVE_METIS
/* fixed, so that a graph gets the same parts on every run */
#define MN_METIS_SEED 20240611

static const char *status_name(int s) {
  switch (s) {
  case METIS_OK: return "METIS_OK";
  case METIS_ERROR_INPUT: return "METIS_ERROR_INPUT";
  case METIS_ERROR_MEMORY: return "METIS_ERROR_MEMORY";
  case METIS_ERROR: return "METIS_ERROR";
  default: return "an unknown METIS status";
  }
}

/* Rank 0: METIS's arrays from the record of each rank q (int64 at
 * rec + off[q]): degrees, weights (has_w), then neighbours. */
static int run(int P, int64_t n, int64_t m, int has_w, const int64_t *rec, const int64_t *off, idx_t *part) {
  idx_t *xadj = malloc(sizeof(idx_t) * (size_t)(n + 1)), *adjncy = malloc(sizeof(idx_t) * (size_t)(m ? m : 1));
  idx_t *w = has_w ? malloc(sizeof(idx_t) * (size_t)n) : NULL;
  if (!xadj || !adjncy || (has_w && !w)) {
    free(xadj); free(adjncy); free(w);
    return MN_ERR(MN_ERR_MEM, "cannot allocate the METIS graph (%lld vertices, %lld edge entries) on rank 0",
                  (long long)n, (long long)m);
  }
  xadj[0] = 0;
  for (int q = 0; q < P; q++) {
    int64_t s = mn_split_start(n, P, q), nl = mn_split_size(n, P, q);
    const int64_t *deg = rec + off[q], *nb = deg + nl * (1 + has_w);
    for (int64_t k = 0; k < nl; k++) {
      xadj[s + k + 1] = xadj[s + k] + (idx_t)deg[k];
      if (has_w) w[s + k] = (idx_t)deg[nl + k];
    }
    for (idx_t e = xadj[s]; e < xadj[s + nl]; e++) adjncy[e] = (idx_t)nb[e - xadj[s]];
  }
  idx_t opt[METIS_NOPTIONS], nv = (idx_t)n, ncon = 1, np = P, cut = 0;
  METIS_SetDefaultOptions(opt);
  opt[METIS_OPTION_NUMBERING] = 0;
  opt[METIS_OPTION_SEED] = MN_METIS_SEED;
  int st = METIS_PartGraphKway(&nv, &ncon, xadj, adjncy, w, NULL, NULL, &np, NULL, NULL, opt, &cut, part);
  free(xadj); free(adjncy); free(w);
  if (st != METIS_OK)
    return MN_ERR(st == METIS_ERROR_INPUT ? MN_ERR_ARG : st == METIS_ERROR_MEMORY ? MN_ERR_MEM : MN_ERR_BACKEND,
                  "METIS_PartGraphKway (%lld vertices, %lld edge entries, %d parts) returned %s (%d)",
                  (long long)n, (long long)m, P, status_name(st), st);
  for (int64_t i = 0; i < n; i++)
    if (part[i] < 0 || part[i] >= P)
      return MN_ERR(MN_ERR_BACKEND, "METIS_PartGraphKway put vertex %lld in part %lld, outside [0, %d)",
                    (long long)i, (long long)part[i], P);
  return MN_SUCCESS;
}

/* This rank's record for rank 0: degrees, weights, neighbours. */
static int64_t *pack(const mn_graph *g, const int64_t *vwgt, int has_w, int64_t *len) {
  int64_t nl = g->nlocal, m = g->rowptr[nl];
  *len = nl * (1 + has_w) + m;
  int64_t *r = mn_malloc(sizeof(int64_t) * (size_t)(*len ? *len : 1));
  if (!r) return NULL;
  for (int64_t k = 0; k < nl; k++) r[k] = g->rowptr[k + 1] - g->rowptr[k];
  if (has_w && nl) memcpy(r + nl, vwgt, sizeof(int64_t) * (size_t)nl); /* vwgt may be NULL where nl = 0 */
  memcpy(r + nl * (1 + has_w), g->adj, sizeof(int64_t) * (size_t)m);
  return r;
}

static int gather_partition_scatter(mn_ctx *ctx, const mn_graph *g, const int64_t *vwgt, int has_w, int *part) {
  int P = ctx->size, err = 0;
  int64_t n = g->n, len = 0, *cnt = calloc(4 * (size_t)P, sizeof(int64_t)), *rec = pack(g, vwgt, has_w, &len);
  idx_t *all = NULL;
  char *rb = NULL, *pb = NULL;
  if (!cnt || !rec) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld graph entries for METIS", (long long)len);
  err = mn_agree(ctx, err);
  if (!err) {
    cnt[0] = 8 * len;
    err = mn_exchange(ctx, (char *)rec, cnt, &rb, cnt + 2 * P, cnt + 3 * P);
  }
  mn_free(rec);
  rec = NULL;
  if (!err && ctx->rank == 0) {
    int64_t total = mn_prefix(P, cnt + 2 * P, cnt + 3 * P) / 8;
    for (int q = 0; q < P; q++) cnt[3 * P + q] /= 8;
    all = malloc(sizeof(idx_t) * (size_t)n);
    if (!all) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld parts on rank 0", (long long)n);
    else err = run(P, n, total - n * (1 + has_w), has_w, (const int64_t *)rb, cnt + 3 * P, all);
  }
  mn_free(rb);
  rb = NULL;
  err = mn_agree(ctx, err);
  if (!err) { /* rank 0 sends each rank the parts of its block */
    for (int q = 0; q < P; q++) cnt[q] = ctx->rank == 0 ? mn_split_size(n, P, q) * (int64_t)sizeof(idx_t) : 0;
    err = mn_exchange(ctx, all ? (char *)all : (char *)cnt, cnt, &pb, cnt + 2 * P, cnt + 3 * P);
  }
  for (int64_t k = 0; !err && k < g->nlocal; k++) part[k] = (int)((const idx_t *)pb)[k];
  free(cnt); mn_free(pb); free(all);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
#endif

int mn_metis_parts(mn_ctx *ctx, const mn_graph *g, const int64_t *vwgt, int has_w, int *part) {
  int P = ctx->size;
  /* METIS fails on one part or no vertices; with no more vertices than
   * parts every vertex is a part of its own */
  if (P == 1 || g->n <= P) {
    for (int64_t k = 0; k < g->nlocal; k++) part[k] = P == 1 ? 0 : (int)(g->start + k);
    return MN_SUCCESS;
  }
#ifdef MANIPLE_HAVE_METIS
  /* METIS counts in idx_t; the sums are doubles so that they cannot wrap */
  double loc[2] = {(double)g->rowptr[g->nlocal], 0}, tot[2];
  for (int64_t k = 0; k < g->nlocal; k++) loc[1] += has_w ? (double)vwgt[k] : 1.0;
  MN_MPI(mn_allreduce(ctx, loc, tot, 2, MPI_DOUBLE, MPI_SUM));
  MN_CHECK(g->n <= IDX_MAX && tot[0] <= (double)IDX_MAX && tot[1] <= (double)IDX_MAX, MN_ERR_NOTIMPL,
           "METIS here counts in %d-bit integers (IDX_MAX %lld) but the graph has %lld vertices, %.0f edge "
           "entries and total vertex weight %.0f", IDXTYPEWIDTH, (long long)IDX_MAX, (long long)g->n, tot[0], tot[1]);
  /* weights all zero say nothing about balance (and make METIS print
   * failed bisections): balance vertex counts then */
  if (tot[1] == 0) has_w = 0;
  MN_CALL(gather_partition_scatter(ctx, g, vwgt, has_w, part));
  return MN_SUCCESS;
#else
  (void)vwgt; (void)has_w;
  return mn_metis_available();
#endif
}
