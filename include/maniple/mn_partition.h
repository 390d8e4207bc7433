/* maniple graph partitioning and renumbering (partition/ layer). Every
 * function is collective over the context.
 *
 * A partition renumbers the rows of a distributed graph (or matrix) so that
 * the rows each rank owns under the equal split of the new numbering are,
 * as far as the equal sizes allow, one part: rows are ordered by
 * (part, old index) and cut into equal blocks. Vectors and matrices move to
 * the new numbering and back with one all-to-all. */
#ifndef MANIPLE_MN_PARTITION_H
#define MANIPLE_MN_PARTITION_H

#include "mn_array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mn_partition_s mn_partition;

/* MN_PART_EQUAL keeps the numbering (identity). MN_PART_METIS gathers the
 * graph on rank 0, runs METIS k-way into as many parts as ranks, and
 * scatters the result: rank 0 holds the whole graph (this stops scaling
 * when one rank cannot hold it). MN_PART_PTSCOTCH partitions the graph
 * where it lies with PT-Scotch (SCOTCH_dgraphPart): each rank holds its own
 * rows and PT-Scotch's share of the work. MN_PART_GRAPH chooses by size:
 * METIS up to MANIPLE_PART_SERIAL_MAX vertices (default 1048576) or at one
 * rank, PT-Scotch above (whichever of the two this build has). Memory per
 * rank of each: docs/design.md. */
typedef enum { MN_PART_EQUAL = 0, MN_PART_METIS = 1, MN_PART_PTSCOTCH = 2, MN_PART_GRAPH = 3 } mn_part_kind;

/* A partition of a graph of n vertices given as distributed CSR: this rank
 * holds vertices [mn_split_start(n, P, rank), + nlocal) with adjacency
 * rowptr (nlocal + 1) and adj (global vertex indices, int64; self loops
 * and asymmetric edges allowed: the graph is symmetrised first); vwgt
 * (nlocal int64 vertex weights, e.g. row nonzeros) may be NULL. */
MN_EXTERN int mn_partition_create(mn_ctx *ctx, mn_part_kind kind, int64_t n, int64_t nlocal, const int64_t *rowptr,
                        const int64_t *adj, const int64_t *vwgt, mn_partition **p);
MN_EXTERN int mn_partition_destroy(mn_partition **p);

/* new index of each of this rank's old vertices (nlocal entries) and old
 * index of each of its new ones (nlocal entries), both global. */
MN_EXTERN const int64_t *mn_partition_new_of_old(const mn_partition *p);
MN_EXTERN const int64_t *mn_partition_old_of_new(const mn_partition *p);

/* Quality over all ranks: edges cut (of the symmetrised graph, each once),
 * and per rank the ghost vertices it reads (neighbours it does not own in
 * the new numbering): min, max and total; load imbalance = max weight of a
 * rank / mean weight (1 is perfect). */
typedef struct {
  int64_t edge_cut;
  int64_t ghost_min, ghost_max, ghost_total;
  double imbalance;
} mn_partition_quality;
MN_EXTERN int mn_partition_get_quality(const mn_partition *p, mn_partition_quality *q);

/* x_new[new(i)] = x_old[i] and back (1-d arrays of n elements, any layouts). */
MN_EXTERN int mn_partition_to_new(const mn_partition *p, const mn_array *x_old, mn_array *x_new);
MN_EXTERN int mn_partition_to_old(const mn_partition *p, const mn_array *x_new, mn_array *x_old);

#ifdef __cplusplus
}
#endif
#endif
