/* Quality of a renumbering under the ownership it gives (the equal split
 * of the new numbering): edge cut, ghost vertices per rank, imbalance. */
#include "part_impl.h"
#include <stdlib.h>
#include <string.h>

/* Ghosts of each rank R: neighbours of R's new vertices owned elsewhere.
 * Each rank sends R the distinct ones it sees; R counts the union. */
static int count_ghosts(mn_ctx *ctx, const mn_graph *g, const int64_t *new_of_old, const int64_t *nnew,
                        int64_t *ghosts) {
  int P = ctx->size, err = 0;
  int64_t n = g->n, m = g->rowptr[g->nlocal];
  int64_t *pk = mn_malloc(sizeof(int64_t) * (size_t)(m ? m : 1)), *cnt = calloc(4 * (size_t)P, sizeof(int64_t));
  char *rb = NULL;
  if (!pk || !cnt) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld ghost candidates", (long long)m);
  err = mn_agree(ctx, err);
  if (!err) {
    int64_t *pos = cnt + P;
    for (int pass = 0; pass < 2; pass++) { /* count, then pack by owner */
      if (pass) mn_prefix(P, cnt, pos);
      for (int64_t k = 0; k < g->nlocal; k++) {
        int R = mn_split_owner(n, P, new_of_old[k]);
        for (int64_t e = g->rowptr[k]; e < g->rowptr[k + 1]; e++)
          if (mn_split_owner(n, P, nnew[e]) != R) {
            if (pass) pk[pos[R]++] = nnew[e];
            else cnt[R]++;
          }
      }
    }
    int64_t w = 0, s = 0; /* each owner's list made unique, compacted in place */
    for (int q = 0; q < P; q++) {
      int64_t u = mn_sort_unique(pk + s, cnt[q]);
      memmove(pk + w, pk + s, sizeof(int64_t) * (size_t)u);
      s += cnt[q];
      w += u;
      cnt[q] = 8 * u;
    }
    err = mn_exchange(ctx, (char *)pk, cnt, &rb, cnt + 2 * P, cnt + 3 * P);
  }
  if (!err) *ghosts = mn_sort_unique((int64_t *)rb, mn_prefix(P, cnt + 2 * P, cnt + 3 * P) / 8);
  mn_free(pk); free(cnt); mn_free(rb);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_partition_measure(mn_ctx *ctx, const mn_graph *g, const int64_t *new_of_old, const int64_t *vwgt,
                         mn_partition_quality *q) {
  int P = ctx->size, err = 0;
  int64_t n = g->n, m = g->rowptr[g->nlocal], cut = 0, ghosts = 0, mine = 0;
  int64_t *nnew = mn_malloc(sizeof(int64_t) * (size_t)(m ? m : 1)), *w = calloc((size_t)P, sizeof(int64_t));
  if (!nnew || !w) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld neighbour indices", (long long)m);
  err = mn_agree(ctx, err);
  if (!err) err = mn_graph_neighbour_values(ctx, g, new_of_old, nnew);
  if (!err) err = count_ghosts(ctx, g, new_of_old, nnew, &ghosts);
  if (!err) { /* each undirected edge once, from its lower old end */
    for (int64_t k = 0; k < g->nlocal; k++) {
      int R = mn_split_owner(n, P, new_of_old[k]);
      w[R] += vwgt ? vwgt[k] : 1;
      for (int64_t e = g->rowptr[k]; e < g->rowptr[k + 1]; e++)
        cut += g->adj[e] > g->start + k && mn_split_owner(n, P, nnew[e]) != R;
    }
    int64_t mx[3], sm[3];
    int rc = MPI_Reduce_scatter_block(w, &mine, 1, MPI_INT64_T, MPI_SUM, ctx->comm);
    int64_t a[3] = {ghosts, -ghosts, mine}, b[3] = {cut, ghosts, mine};
    if (rc == MPI_SUCCESS) rc = mn_allreduce(ctx, a, mx, 3, MPI_INT64_T, MPI_MAX);
    if (rc == MPI_SUCCESS) rc = mn_allreduce(ctx, b, sm, 3, MPI_INT64_T, MPI_SUM);
    if (rc != MPI_SUCCESS) err = MN_ERR(MN_ERR_MPI, "reducing the partition quality failed");
    else {
      *q = (mn_partition_quality){sm[0], -mx[1], mx[0], sm[1], 1.0};
      if (sm[2] > 0) q->imbalance = (double)mx[2] / ((double)sm[2] / P);
    }
  }
  mn_free(nnew); free(w);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
