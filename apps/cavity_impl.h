/* The cavity solver's state, shared by its two renderings of the scheme:
 * loops over each rank's block with one-cell halos (cavity_scheme.c, the
 * CPU's) and fused expressions over slices (cavity_exprs.c, a device
 * backend's, where the loops would pull every field back to the host). */
#ifndef APP_CAVITY_IMPL_H
#define APP_CAVITY_IMPL_H

#include "cavity.h"

struct cav_s {
  mn_ctx *ctx;
  cav_opts o;
  int exprs; /* 1: cavity_exprs.c's path */
  double dx, dy, dx2, dy2;
  mn_array *u[2], *v[2], *p[2], *b; /* [0]: current, [1]: being computed */
  mn_plan *pu[2], *pv[2], *pp[2];   /* halo plans, loops only */
};

/* One time step's parts on the expressions' path, as the loops' */
int cavx_build_b(cav *c);
int cavx_pressure(cav *c); /* p[1] from p[0] and b, boundaries included */
int cavx_velocity(cav *c); /* u[1], v[1] from u[0], v[0] and p[0], walls included */

#endif
