/* maniple structured-grid stencils (stencils/ layer): y = A u on halo'd
 * block-distributed grids, with the halo messages travelling while the
 * interior points are computed, and weighted-Jacobi sweeps. Every function
 * is collective over the stencil's context. */
#ifndef MANIPLE_MN_STENCIL_H
#define MANIPLE_MN_STENCIL_H

#include "mn_array.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mn_stencil_s mn_stencil;

/* Boundary conditions, per axis side, as values written into the ghost
 * cells of a physical boundary before the boundary strips are computed.
 * Ghost layer k = 1, 2, ... outside the grid mirrors interior point k-1
 * (the reflection across the face half a cell out). */
typedef enum {
  MN_BC_DIRICHLET = 0,  /* ghost = value: the ghost point is the boundary
                           point (vertex-centred grids); the default, value 0 */
  MN_BC_DIRICHLET_FACE, /* value imposed on the face: ghost = 2 value - mirror
                           (cell-centred grids) */
  MN_BC_NEUMANN,        /* zero gradient on the face: ghost = mirror */
  MN_BC_PERIODIC        /* both sides of the axis; ghosts from the halo plan */
} mn_bc_kind;
MN_EXTERN const char *mn_bc_name(mn_bc_kind k);

/* Any constant-coefficient stencil: npts points, point k at offsets
 * offsets[k*nd .. k*nd+nd-1] with weight weights[k]:
 *   y(x) = sum_k weights[k] u(x + offsets[k]).
 * The reach on an axis is the largest |offset| there; grids need at least
 * that halo and extent. 1 <= nd <= MN_MAXDIM. */
MN_EXTERN int mn_stencil_create(mn_ctx *ctx, int nd, int npts, const int *offsets, const double *weights,
                      mn_stencil **s);
/* The Laplacian (the operator itself, negative definite: scale by -1 for
 * -Laplacian) with grid spacings h[0..nd-1]: (nd, npts) = (1, 3), (2, 5),
 * (3, 7) are the sums of second differences D_i = [1 -2 1] / h_i^2;
 * (2, 9) and (3, 27) are sum_i D_i prod_{j != i} M_j with M = [1 10 1] / 12,
 * in 2-d Collatz's Mehrstellen operator, (1/6h^2) [1 4 1; 4 -20 4; 1 4 1]
 * for equal spacings, in 3-d (1/48h^2) [-200 centre, 20 faces, 6 edges,
 * 1 corners]. All second order. */
MN_EXTERN int mn_stencil_create_laplacian(mn_ctx *ctx, int nd, int npts, const double *h, mn_stencil **s);
MN_EXTERN int mn_stencil_destroy(mn_stencil **s);

MN_EXTERN int mn_stencil_ndim(const mn_stencil *s);
MN_EXTERN int mn_stencil_npts(const mn_stencil *s);
/* Offsets (npts*nd) and constant weights (npts), either may be NULL. */
MN_EXTERN int mn_stencil_get_points(const mn_stencil *s, int *offsets, double *weights);
/* Largest |offset| over all axes. */
MN_EXTERN int mn_stencil_reach(const mn_stencil *s);

/* Multiply every weight (and coefficient array) by alpha. */
MN_EXTERN int mn_stencil_scale(mn_stencil *s, double alpha);
/* Variable coefficient: point `point`'s weight becomes the array c (the
 * grid's shape, any layout and dtype), y(x) = ... + c(x) u(x + o_point) + ...
 * c is copied (later changes to c do not reach the stencil); c = NULL
 * restores the constant weight. */
MN_EXTERN int mn_stencil_set_coefficient(mn_stencil *s, int point, const mn_array *c);

/* Boundary condition of axis `axis`, side 0 (low) or 1 (high). Periodic
 * must be set on both sides of an axis (setting it on one sets both;
 * setting another kind on one side of a periodic axis makes the other
 * side Dirichlet 0). value is ignored for Neumann and periodic. */
MN_EXTERN int mn_stencil_set_bc(mn_stencil *s, int axis, int side, mn_bc_kind kind, double value);
MN_EXTERN int mn_stencil_get_bc(const mn_stencil *s, int axis, int side, mn_bc_kind *kind, double *value);

/* y = A u on all of u's points. u: a float32 or float64 base array with
 * halo >= the reach (mn_array_create(ctx, dtype, nd, shape, halo, &u));
 * its ghost cells are overwritten (exchange and boundary values). y: u's
 * shape, any layout, dtype or view (other than a base array of u's layout
 * and dtype, it is computed into a temporary and copied). */
MN_EXTERN int mn_stencil_apply(mn_stencil *s, mn_array *u, mn_array *y);
/* Several fields on one grid (same shape, dtype and layout): every halo
 * exchange is started before any interior work. */
MN_EXTERN int mn_stencil_apply_many(mn_stencil *s, int nf, mn_array *const *u, mn_array *const *y);
/* The diagonal of A as a linear operator on a grid of d's shape (any
 * layout, float dtype): the factor of u(x) in (A u)(x), the boundary
 * conditions included. A Neumann or face-Dirichlet ghost that mirrors x
 * adds its weight (times +1 or -1), a periodic wrap onto x adds it, a
 * Dirichlet ghost holds a constant and adds nothing; elsewhere it is the
 * centre weight (or coefficient). What Jacobi preconditioning of a
 * matrix-free stencil operator needs (mn_op_create_stencil). */
MN_EXTERN int mn_stencil_diagonal(mn_stencil *s, mn_array *d);
/* sweeps of weighted Jacobi, u <- u + omega D^-1 (f - A u), D the centre
 * weight (the sum of the zero-offset points' weights, or coefficient
 * arrays). f has u's shape (any layout). A work array is allocated inside. */
MN_EXTERN int mn_stencil_jacobi(mn_stencil *s, mn_array *u, const mn_array *f, double omega, int sweeps);

#ifdef __cplusplus
}
#endif
#endif
