/* Private: moving the elements of one base array into another of the same
 * size by flat C-order index (a reshape between two fixed layouts, planned
 * once and run many times without allocating), as a matrix-free operator
 * needs to go between a solver's 1-d vectors and a halo'd grid. */
#ifndef MANIPLE_FLATMOVE_H
#define MANIPLE_FLATMOVE_H
#include "mn_impl.h"

typedef struct mn_flatmove_s mn_flatmove;

/* Plan dst.flat[k] = src.flat[k] for base arrays src and dst of one size
 * and dtype (any shapes, block layouts, halos). Collective. */
int mn_flatmove_create(const mn_array *src, const mn_array *dst, mn_flatmove **fm);
/* Run it on src and dst, which must have the layouts, halos and dtype of
 * the arrays the plan was made for (MN_ERR_ARG otherwise; the check is
 * local and the same on every rank when the arrays are). Only dst's owned
 * elements are written. */
int mn_flatmove_run(mn_flatmove *fm, const mn_array *src, mn_array *dst);
void mn_flatmove_destroy(mn_flatmove **fm);
/* A flat move for arrays like src and dst, kept on their context (the
 * last MN_CTX_FMOVES made, found again by the layouts, halos and dtype):
 * the context owns it. Collective only when it is made; every rank finds
 * the same one, since the keys are global metadata. */
int mn_flatmove_kept(const mn_array *src, const mn_array *dst, mn_flatmove **fm);
/* the context's kept moves released (mn_ctx_destroy) */
void mn_flatmove_release_kept(mn_ctx *ctx);

#endif
