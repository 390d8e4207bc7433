/* What stencils/ offers the layers above it (solvers/) beyond the public
 * API, without showing its struct (stencil_impl.h is stencils/' own). */
#ifndef MANIPLE_STENCIL_SHARED_H
#define MANIPLE_STENCIL_SHARED_H
#include <maniple/mn_stencil.h>

mn_ctx *mni_st_ctx(const mn_stencil *s);
/* Largest |offset| along axis d (mn_stencil_reach: over all axes). */
int mni_st_axis_reach(const mn_stencil *s, int d);
/* Check u (and y, f when given) as grids for s, locally: MN_ERR_SHAPE for a
 * grid smaller than the stencil or mismatched shapes. Not agreed. */
int mni_st_check_grid(const mn_stencil *s, const mn_array *u);
#endif
