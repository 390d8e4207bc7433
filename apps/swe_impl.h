/* The swe solver's state, shared by its two renderings of the scheme:
 * loops over each rank's block with a halo of 2 (swe_scheme.c, the CPU's)
 * and fused expressions over slices of padded arrays (swe_exprs.c, a
 * device backend's, as apps/swe.py writes them). */
#ifndef SWE_IMPL_H
#define SWE_IMPL_H

#include "swe.h"

#define NV 3           /* w, hu, hv */
#define TINY 1e-300    /* a+ - a- is 0 only where a+ = a- = 0, and then the flux is 0 */
#define NREC 6         /* w, normal, tangential discharge: plus and minus face values */

struct swe_s {
  mn_ctx *ctx;
  const swe_case *c;
  int64_t nx, ny;
  double dx, dy, eps, theta, hl, hr;
  swe_bc bc[4];
  mn_array *u[NV], *u1[NV]; /* state and RK stage */
  mn_plan *p[NV], *p1[NV];
  int64_t lo[2], n[2];      /* my block: rows lo[0] + [0, n[0]), columns lo[1] + [0, n[1]) */
  int64_t rs;               /* row stride of the state blocks */
  double *q[NV], *q1[NV];   /* at my cell (0, 0) */
  double *bed, *bfx, *bfy;  /* cells, west faces, south faces, with 2 ghosts */
  /* row buffers of the rows' sweep (swe_scheme.c's rhs): face values
   * (each component's apart) and fluxes of one row along x, of a ring of
   * two rows along y; a row's face speeds */
  double *recx, *recy, *fx[NV], *fy[NV], *spd;
  int64_t mxs, mys; /* recx's and recy's component strides */
  double *fxb, *fyb, *rhsb; /* the blocks fx, fy and rhs lie in */
  double *rhs[NV]; /* stage 1's dU/dt (the step is known only after it) */
  double *lrow;    /* stage 2's, one row (used as soon as made) */
  double t, mass0;
  long steps;
  /* the expressions' path: state, stage and beds on (ny + 4) x (nx + 4)
   * padded cells (Bfx one column more, Bfy one row), the interior at
   * [2, ny + 2) x [2, nx + 2); fluxes on the faces of the interior */
  int exprs;
  mn_array *W[NV], *W1[NV], *Bc, *Bfx, *Bfy;
  mn_array *Wi[NV];        /* W's interior (views) */
  mn_array *F[NV], *G[NV]; /* (ny, nx + 1) x-faces, (ny + 1, nx) y-faces: w, hu, hv */
};

/* The expressions' path (swe_exprs.c) */
int swex_setup(swe *s);    /* the padded arrays from the loops' initial state */
int swex_destroy(swe *s);
/* The fluxes of stage state W (0) or W1 (1), and the largest speeds
 * (where ax and ay are not NULL: a global reduction each) */
int swex_fluxes(swe *s, int stage, double *ax, double *ay);
/* stage 0: W1 = W + dt L(W); stage 1: W = W/2 + (W1 + dt L(W1))/2 */
int swex_update(swe *s, int stage, double dt);
/* The loops' arrays take the state (for the checks, which read the host) */
int swex_sync(swe *s);
/* The bed's vertex at global vertex (gj, gi), mirrored or wrapped past the boundary */
double swe_vertex(const swe *s, int64_t gj, int64_t gi);

#endif
