/* Partitions: input checks, the renumbering by (part, old index), and the
 * inverse permutation, all without arrays of the graph's size on a rank. */
#include "part_impl.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

/* Checks of this rank's arguments (no communication). */
static int check_local(mn_ctx *ctx, mn_part_kind kind, int64_t n, int64_t nlocal, const int64_t *rowptr,
                       const int64_t *adj, const int64_t *vwgt) {
  int P = ctx->size, me = ctx->rank;
  if (kind == MN_PART_METIS) MN_CALL(mn_metis_available());
  if (kind == MN_PART_PTSCOTCH) MN_CALL(mn_ptscotch_available());
  MN_CHECK(n >= 0, MN_ERR_ARG, "the graph has n = %lld vertices, a negative count", (long long)n);
  int64_t want = mn_split_size(n, P, me);
  MN_CHECK(nlocal == want, MN_ERR_ARG,
           "nlocal = %lld on rank %d, but the equal split of n = %lld vertices over %d ranks gives it %lld "
           "(vertices %lld to %lld)", (long long)nlocal, me, (long long)n, P, (long long)want,
           (long long)mn_split_start(n, P, me), (long long)(mn_split_start(n, P, me) + want - 1));
  MN_CHECK(rowptr, MN_ERR_ARG, "rowptr is NULL on rank %d (it has nlocal + 1 = %lld entries)", me,
           (long long)nlocal + 1);
  MN_CHECK(rowptr[0] == 0, MN_ERR_ARG, "rowptr[0] = %lld on rank %d, expected 0", (long long)rowptr[0], me);
  for (int64_t k = 0; k < nlocal; k++)
    MN_CHECK(rowptr[k + 1] >= rowptr[k], MN_ERR_ARG,
             "rowptr decreases on rank %d: rowptr[%lld] = %lld, rowptr[%lld] = %lld", me, (long long)k,
             (long long)rowptr[k], (long long)k + 1, (long long)rowptr[k + 1]);
  MN_CHECK(adj || rowptr[nlocal] == 0, MN_ERR_ARG, "adj is NULL on rank %d but rowptr[%lld] = %lld", me,
           (long long)nlocal, (long long)rowptr[nlocal]);
  int64_t start = mn_split_start(n, P, me), wsum = 0;
  for (int64_t k = 0; k < nlocal; k++)
    for (int64_t e = rowptr[k]; e < rowptr[k + 1]; e++)
      MN_CHECK(adj[e] >= 0 && adj[e] < n, MN_ERR_INDEX,
               "adj[%lld] = %lld (a neighbour of vertex %lld, on rank %d) is outside [0, %lld)", (long long)e,
               (long long)adj[e], (long long)(start + k), me, (long long)n);
  for (int64_t k = 0; vwgt && k < nlocal; k++) {
    MN_CHECK(vwgt[k] >= 0, MN_ERR_ARG, "vwgt[%lld] = %lld (vertex %lld, on rank %d) is negative", (long long)k,
             (long long)vwgt[k], (long long)(start + k), me);
    MN_CHECK(!__builtin_add_overflow(wsum, vwgt[k], &wsum), MN_ERR_ARG,
             "the vertex weights on rank %d overflow int64 at vwgt[%lld] = %lld", me, (long long)k,
             (long long)vwgt[k]);
  }
  return MN_SUCCESS;
}

/* Arguments that must agree between ranks; *has_w: weights were given. */
static int check_collective(mn_ctx *ctx, mn_part_kind kind, int64_t n, int64_t nlocal, const int64_t *vwgt,
                            int *has_w) {
  int64_t v[6] = {n, -n, kind, -(int64_t)kind, nlocal && vwgt, nlocal && !vwgt}, r[6];
  MN_MPI(mn_allreduce(ctx, v, r, 6, MPI_INT64_T, MPI_MAX));
  MN_CHECK(r[0] == -r[1], MN_ERR_ARG, "n differs between ranks: from %lld to %lld", (long long)-r[1], (long long)r[0]);
  MN_CHECK(r[2] == -r[3], MN_ERR_ARG, "the partition kind differs between ranks: from %lld to %lld",
           (long long)-r[3], (long long)r[2]);
  MN_CHECK(!(r[4] && r[5]), MN_ERR_ARG, "vwgt is given on some ranks and NULL on others that hold vertices");
  *has_w = (int)r[4];
  return MN_SUCCESS;
}

/* new index = vertices of lower parts anywhere + vertices of the same part
 * on lower ranks (an exclusive scan) + those before it on this rank. */
/* new index = the vertices of lower parts + the place within the part */
static int renumber(mn_ctx *ctx, int64_t nlocal, const int *part, const int64_t *key, int64_t *new_of_old) {
  int P = ctx->size;
  int64_t *c = calloc(2 * (size_t)P, sizeof(int64_t));
  MN_CALL(mn_agree(ctx, c ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %d part counts", 2 * P)));
  int64_t *base = c + P;
  for (int64_t k = 0; k < nlocal; k++) c[part[k]]++;
  int rc = mn_allreduce(ctx, c, base, P, MPI_INT64_T, MPI_SUM);
  for (int64_t s = 0, p = 0; p < P; p++) { int64_t t = base[p]; base[p] = s; s += t; }
  for (int64_t k = 0; k < nlocal; k++) new_of_old[k] = base[part[k]] + key[k];
  free(c);
  MN_CHECK(rc == MPI_SUCCESS, MN_ERR_MPI, "MPI_Allreduce of the part counts failed");
  return MN_SUCCESS;
}

/* inv of a permutation of 0..n-1 given by its equal-split blocks: each
 * pair (fwd[k], start + k) goes to the owner of fwd[k]. */
static int invert(mn_ctx *ctx, int64_t n, int64_t start, int64_t nlocal, const int64_t *fwd, int64_t *inv) {
  int P = ctx->size, err = 0;
  int64_t *cnt = calloc(4 * (size_t)P, sizeof(int64_t));
  int64_t *pk = mn_malloc(sizeof(int64_t) * 2 * (size_t)(nlocal ? nlocal : 1));
  char *rb = NULL;
  if (!cnt || !pk) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld index pairs", (long long)nlocal);
  err = mn_agree(ctx, err);
  if (!err) {
    int64_t *pos = cnt + P;
    for (int64_t k = 0; k < nlocal; k++) cnt[mn_split_owner(n, P, fwd[k])]++;
    mn_prefix(P, cnt, pos);
    for (int64_t k = 0; k < nlocal; k++) {
      int64_t *r = pk + 2 * pos[mn_split_owner(n, P, fwd[k])]++;
      r[0] = fwd[k];
      r[1] = start + k;
    }
    for (int q = 0; q < P; q++) cnt[q] *= 16;
    err = mn_exchange(ctx, (char *)pk, cnt, &rb, cnt + 2 * P, cnt + 3 * P);
  }
  if (!err) {
    const int64_t *r = (const int64_t *)rb;
    for (int64_t t = 0; t < nlocal; t++) inv[r[2 * t] - start] = r[2 * t + 1];
  }
  free(cnt); mn_free(pk); mn_free(rb);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

typedef struct { int64_t v, i; } pair;
static int cmp_pair(const void *a, const void *b) {
  int64_t x = ((const pair *)a)->v, y = ((const pair *)b)->v;
  return (x > y) - (x < y);
}

/* Positions of v's entries in increasing order of value: an element moved
 * by one all-to-all arrives from lower ranks first, each in increasing
 * index order, so the t-th one received lands at out[t]. */
static int argsort(const int64_t *v, int64_t n, int64_t *out) {
  pair *s = malloc(sizeof(pair) * (size_t)(n ? n : 1));
  MN_CHECK(s, MN_ERR_MEM, "cannot allocate %lld sort pairs", (long long)n);
  for (int64_t k = 0; k < n; k++) s[k] = (pair){v[k], k};
  qsort(s, (size_t)n, sizeof(pair), cmp_pair);
  for (int64_t k = 0; k < n; k++) out[k] = s[k].i;
  free(s);
  return MN_SUCCESS;
}

/* Permutations, receive orders and quality of a partition whose vertex
 * parts are known (part NULL: the identity). */
static int build(mn_partition *p, const mn_graph *g, const int *part, const int64_t *key, const int64_t *vwgt) {
  mn_ctx *ctx = p->ctx;
  int64_t nl = p->nlocal;
  if (part) {
    MN_CALL(renumber(ctx, nl, part, key, p->new_of_old));
    MN_CALL(invert(ctx, p->n, p->start, nl, p->new_of_old, p->old_of_new));
  } else {
    for (int64_t k = 0; k < nl; k++) p->new_of_old[k] = p->old_of_new[k] = p->start + k;
  }
  int err = argsort(p->old_of_new, nl, p->recv_new);
  if (!err) err = argsort(p->new_of_old, nl, p->recv_old);
  MN_CALL(mn_agree(ctx, err));
  MN_CALL(mn_partition_measure(ctx, g, p->new_of_old, vwgt, &p->q));
  return MN_SUCCESS;
}

/* MN_PART_GRAPH as the partitioner it stands for (the same on every rank
 * where n and the environment agree, which check_collective verifies). */
static mn_part_kind resolve(mn_ctx *ctx, mn_part_kind kind, int64_t n) {
  if (kind != MN_PART_GRAPH) return kind;
  int metis = 0, scotch = 0;
#ifdef MANIPLE_HAVE_METIS
  metis = 1;
#endif
#ifdef MANIPLE_HAVE_PTSCOTCH
  scotch = 1;
#endif
  if (!metis && !scotch) return MN_PART_METIS; /* rejected with METIS's message */
  int serial = ctx->size == 1 || n <= ctx->part_serial_max;
  return (serial && metis) || !scotch ? MN_PART_METIS : MN_PART_PTSCOTCH;
}

int mn_partition_create(mn_ctx *ctx, mn_part_kind kind, int64_t n, int64_t nlocal, const int64_t *rowptr,
                        const int64_t *adj, const int64_t *vwgt, mn_partition **p) {
  MN_CHECK(ctx && p, MN_ERR_ARG, "NULL context or output pointer");
  *p = NULL;
  MN_SPMD(ctx, "mn_partition_create", mn_spmd_int(S, "kind", kind), mn_spmd_int(S, "n", n));
  int has_w = 0, err = 0;
  MN_CHECK(kind >= MN_PART_EQUAL && kind <= MN_PART_GRAPH, MN_ERR_ARG,
           "partition kind %d is none of MN_PART_EQUAL (0), MN_PART_METIS (1), MN_PART_PTSCOTCH (2) and "
           "MN_PART_GRAPH (3)", (int)kind);
  kind = resolve(ctx, kind, n);
  MN_CALL(mn_agree(ctx, check_local(ctx, kind, n, nlocal, rowptr, adj, vwgt)));
  MN_CALL(check_collective(ctx, kind, n, nlocal, vwgt, &has_w));
  mn_partition *r = calloc(1, sizeof *r);
  size_t sz = sizeof(int64_t) * (size_t)(nlocal ? nlocal : 1);
  int graph = kind != MN_PART_EQUAL;
  int *part = graph ? malloc(sizeof(int) * (size_t)(nlocal ? nlocal : 1)) : NULL;
  int64_t *key = graph ? malloc(sizeof(int64_t) * (size_t)(nlocal ? nlocal : 1)) : NULL;
  if (r) {
    *r = (mn_partition){ctx, kind, n, mn_split_start(n, ctx->size, ctx->rank), nlocal,
                        mn_malloc(sz), mn_malloc(sz), mn_malloc(sz), mn_malloc(sz), {0}};
  }
  if (!r || !r->new_of_old || !r->old_of_new || !r->recv_new || !r->recv_old || (graph && (!part || !key)))
    err = MN_ERR(MN_ERR_MEM, "cannot allocate a partition of %lld local vertices", (long long)nlocal);
  err = mn_agree(ctx, err);
  mn_graph g = {0};
  if (!err) err = mn_graph_symmetrize(ctx, n, nlocal, rowptr, adj, &g);
  if (!err && kind == MN_PART_METIS) err = mn_metis_parts(ctx, &g, has_w ? vwgt : NULL, has_w, part);
  if (!err && kind == MN_PART_PTSCOTCH) err = mn_ptscotch_parts(ctx, &g, has_w ? vwgt : NULL, has_w, part);
  if (!err && graph) err = mn_part_order(ctx, &g, part, key);
  if (!err) err = build(r, &g, part, key, has_w ? vwgt : NULL);
  mn_graph_free(&g);
  free(part);
  free(key);
  if (err) {
    mn_partition_destroy(&r);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  *p = r;
  return MN_SUCCESS;
}

int mn_partition_destroy(mn_partition **p) {
  if (!p || !*p) return MN_SUCCESS;
  mn_partition *r = *p;
  mn_free(r->new_of_old); mn_free(r->old_of_new); mn_free(r->recv_new); mn_free(r->recv_old);
  free(r);
  *p = NULL;
  return MN_SUCCESS;
}

const int64_t *mn_partition_new_of_old(const mn_partition *p) { return p ? p->new_of_old : NULL; }
const int64_t *mn_partition_old_of_new(const mn_partition *p) { return p ? p->old_of_new : NULL; }

int mn_partition_get_quality(const mn_partition *p, mn_partition_quality *q) {
  MN_CHECK(p && q, MN_ERR_ARG, "NULL partition or quality pointer");
  *q = p->q;
  return MN_SUCCESS;
}
