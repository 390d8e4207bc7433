/* The PT-Scotch step: the symmetrised graph stays distributed (each rank
 * passes its own rows, which PT-Scotch reads in place: its 64-bit build's
 * SCOTCH_Num is int64_t) and SCOTCH_dgraphPart cuts it into as many parts
 * as ranks (ordered within them by order.c). No rank holds more than its
 * rows and PT-Scotch's working share (measured: docs/design.md). */
#include "part_impl.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef MANIPLE_HAVE_PTSCOTCH
#include <ptscotch.h>
#endif

int mn_ptscotch_available(void) {
#ifdef MANIPLE_HAVE_PTSCOTCH
  return MN_SUCCESS;
#else
  return MN_ERR(MN_ERR_NOTIMPL, "MN_PART_PTSCOTCH: this maniple was built without PT-Scotch (the 64-bit "
                                "ptscotch.h and libptscotch.a of scotch-int64 were not found at configure time; "
                                "install libptscotch-dev and reconfigure), use MN_PART_METIS or MN_PART_EQUAL");
#endif
}

#ifdef MANIPLE_HAVE_PTSCOTCH
/* fixed, so that a graph gets the same parts on every run */
#define MN_SCOTCH_SEED 20240611
/* the load imbalance PT-Scotch may leave, enforced (SCOTCH_STRATBALANCE):
 * the renumbering cuts the parts into equal blocks, so every vertex over
 * the mean spills into a neighbouring block. On the shuffled 512 x 512
 * Laplacian this gave ghosts within 0.93-1.15x of METIS's at 2-32 ranks,
 * where SCOTCH_STRATQUALITY gave up to 1.28x (docs/design.md) */
#define MN_SCOTCH_IMBALANCE 0.01

static int run(mn_ctx *ctx, const mn_graph *g, const int64_t *vwgt, int *part) {
  int P = ctx->size, err = 0;
  int64_t nl = g->nlocal, m = g->rowptr[nl];
  SCOTCH_Num *pt = malloc(sizeof(SCOTCH_Num) * (size_t)(nl + 1));
  MN_CALL(mn_agree(ctx, pt ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld parts", (long long)nl)));
  /* a context of our own, deterministic and with a fixed seed: the same
   * graph gets the same parts on every run (the global random state does
   * not reach SCOTCH_dgraphPart's threads) */
  SCOTCH_Context sctx;
  SCOTCH_Dgraph grf, bound;
  SCOTCH_Strat strat;
  SCOTCH_stratInit(&strat);
  SCOTCH_contextInit(&sctx);
  int st = SCOTCH_dgraphInit(&grf, ctx->comm), step = 0, bnd = 0;
  /* PT-Scotch reads the rows in place and writes nothing to them */
  if (!st && ++step)
    st = SCOTCH_dgraphBuild(&grf, 0, nl, nl, (SCOTCH_Num *)g->rowptr, (SCOTCH_Num *)g->rowptr + 1,
                            (SCOTCH_Num *)vwgt, NULL, m, m, (SCOTCH_Num *)g->adj, NULL, NULL);
  if (!st && ++step) {
    st = SCOTCH_contextOptionSetNum(&sctx, SCOTCH_OPTIONNUMDETERMINISTIC, 1);
    if (!st) st = SCOTCH_contextOptionSetNum(&sctx, SCOTCH_OPTIONNUMRANDOMFIXEDSEED, 1);
    if (!st) st = SCOTCH_contextRandomClone(&sctx);
    if (!st) SCOTCH_contextRandomSeed(&sctx, MN_SCOTCH_SEED);
    if (!st) st = SCOTCH_dgraphInit(&bound, ctx->comm);
    if (!st) bnd = 1, st = SCOTCH_contextBindDgraph(&sctx, &grf, &bound);
  }
  if (!st && ++step) st = SCOTCH_stratDgraphMapBuild(&strat, SCOTCH_STRATBALANCE, P, P, MN_SCOTCH_IMBALANCE);
  if (!st && ++step) st = SCOTCH_dgraphPart(&bound, P, &strat, pt);
  static const char *what[] = {"SCOTCH_dgraphInit", "SCOTCH_dgraphBuild", "setting up a SCOTCH_Context",
                               "SCOTCH_stratDgraphMapBuild", "SCOTCH_dgraphPart"};
  if (st)
    err = MN_ERR(MN_ERR_BACKEND, "%s (%lld vertices, %lld local edge entries on rank %d, %d parts) returned %d; "
                 "PT-Scotch printed the cause on stderr", what[step], (long long)g->n, (long long)m, ctx->rank, P, st);
  for (int64_t k = 0; !err && k < nl; k++) {
    if (pt[k] < 0 || pt[k] >= P)
      err = MN_ERR(MN_ERR_BACKEND, "SCOTCH_dgraphPart put vertex %lld in part %lld, outside [0, %d)",
                   (long long)(g->start + k), (long long)pt[k], P);
    else part[k] = (int)pt[k];
  }
  if (bnd) SCOTCH_dgraphExit(&bound);
  SCOTCH_dgraphExit(&grf);
  SCOTCH_contextExit(&sctx);
  SCOTCH_stratExit(&strat);
  free(pt);
  MN_CALL(mn_agree(ctx, err));
  return MN_SUCCESS;
}
#endif

int mn_ptscotch_parts(mn_ctx *ctx, const mn_graph *g, const int64_t *vwgt, int has_w, int *part) {
  int P = ctx->size;
#ifdef MANIPLE_HAVE_PTSCOTCH
  /* with no more vertices than parts every vertex is a part of its own */
  if (g->n <= P && P > 1) {
    for (int64_t k = 0; k < g->nlocal; k++) part[k] = (int)(g->start + k);
    return MN_SUCCESS;
  }
  if (P > 1) {
    /* the total weight must fit SCOTCH_Num; weights all zero say nothing
     * about balance: balance vertex counts then */
    double w = 0, tot = 0;
    for (int64_t k = 0; has_w && k < g->nlocal; k++) w += (double)vwgt[k];
    MN_MPI(mn_allreduce(ctx, &w, &tot, 1, MPI_DOUBLE, MPI_SUM));
    MN_CHECK(tot < 0x1p62, MN_ERR_NOTIMPL, "PT-Scotch counts in int64: the total vertex weight %.0f is too large",
             tot);
    MN_CALL(run(ctx, g, has_w && tot > 0 ? vwgt : NULL, part));
  } else {
    for (int64_t k = 0; k < g->nlocal; k++) part[k] = 0;
  }
  return MN_SUCCESS;
#else
  (void)P; (void)g; (void)vwgt; (void)has_w; (void)part;
  return mn_ptscotch_available();
#endif
}
