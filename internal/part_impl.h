/* Private: the partition object and the steps that build it. */
#ifndef MANIPLE_PART_IMPL_H
#define MANIPLE_PART_IMPL_H
#include "exchange.h"
#include <maniple/mn_partition.h>

/* This rank's vertices are the block [start, start + nlocal) of the equal
 * split, in the old numbering and in the new one alike. */
struct mn_partition_s {
  mn_ctx *ctx;
  mn_part_kind kind;
  int64_t n, start, nlocal;
  int64_t *new_of_old, *old_of_new;
  /* where each received element lands when moving a vector: to_new's t-th
   * received value is new vertex start + recv_new[t] (to_old: recv_old) */
  int64_t *recv_new, *recv_old;
  mn_partition_quality q;
};

/* This rank's rows of a symmetrised graph: global neighbour indices,
 * sorted, without duplicates or self loops. */
typedef struct {
  int64_t n, start, nlocal;
  int64_t *rowptr, *adj;
} mn_graph;

/* Adds the reverse of every edge (one all-to-all), drops self loops and
 * duplicates. Input already checked. */
int mn_graph_symmetrize(mn_ctx *ctx, int64_t n, int64_t nlocal, const int64_t *rowptr, const int64_t *adj,
                        mn_graph *g);
void mn_graph_free(mn_graph *g);
/* out[e] = val[] of neighbour g->adj[e] (val: one per local vertex, read
 * on each neighbour's owner; two all-to-alls). */
int mn_graph_neighbour_values(mn_ctx *ctx, const mn_graph *g, const int64_t *val, int64_t *out);
/* Sorts v and drops repeats; returns the new count. */
int64_t mn_sort_unique(int64_t *v, int64_t n);
/* key[k]: the place of local vertex k within its part part[k] (0 .. P-1),
 * computed on the part's rank: breadth first from the part's vertices that
 * touch a lower part, in old order (order.c). */
int mn_part_order(mn_ctx *ctx, const mn_graph *g, const int *part, int64_t *key);

/* MN_ERR_NOTIMPL (local, no communication) when built without METIS. */
int mn_metis_available(void);
/* Part (0 .. P-1) of each of this rank's vertices; vwgt NULL on every
 * rank or on none (NULL where nlocal = 0 is fine). */
int mn_metis_parts(mn_ctx *ctx, const mn_graph *g, const int64_t *vwgt, int has_w, int *part);

/* The same from PT-Scotch, the graph left distributed. */
int mn_ptscotch_available(void);
int mn_ptscotch_parts(mn_ctx *ctx, const mn_graph *g, const int64_t *vwgt, int has_w, int *part);

/* Edge cut, ghosts and imbalance of g under the ownership that the equal
 * split of the new numbering gives (vwgt NULL: weights 1). */
int mn_partition_measure(mn_ctx *ctx, const mn_graph *g, const int64_t *new_of_old, const int64_t *vwgt,
                         mn_partition_quality *q);
#endif
