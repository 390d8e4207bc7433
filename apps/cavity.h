/* The "12 steps to Navier-Stokes" flows in C over maniple arrays (the twin
 * of apps/cavity.py): lid-driven cavity (step 11) and channel flow periodic
 * in x (step 12) on the 2 x 2 square, fields indexed [y][x]. */
#ifndef APP_CAVITY_H
#define APP_CAVITY_H

#include <maniple/maniple.h>

/* How the scheme runs: loops over each rank's block (the host's), or
 * fused expressions over slices (which run on a device backend's device);
 * AUTO picks by the context's backend. Both give the same numbers. */
enum { CAV_AUTO = 0, CAV_LOOPS, CAV_EXPRS };

typedef struct {
  int channel;           /* 0: cavity, 1: channel */
  long nx, ny, nt, nit;  /* nt: steps (channel: at most, until tol) */
  double dt, rho, nu, F; /* F: the channel's source term */
  double tol;            /* channel: stop when (sum u - sum un) / sum u <= tol */
  double perturb;        /* initial v amplitude (0: the course's rest state) */
  int scheme;            /* CAV_AUTO, CAV_LOOPS or CAV_EXPRS */
} cav_opts;

typedef struct cav_s cav;

/* Checks the options (MN_ERR_ARG naming the value, the same on every
 * rank) and sets up the initial state. */
int cav_create(mn_ctx *ctx, const cav_opts *o, cav **c);
int cav_destroy(cav **c);
/* Runs the case: nt steps, or for the channel until the change is below
 * tol; *steps gets the number taken. */
int cav_run(cav *c, long *steps);
/* The current fields (halo'd arrays owned by c). */
mn_array *cav_u(cav *c);
mn_array *cav_v(cav *c);
mn_array *cav_p(cav *c);
/* 1 when c runs the scheme as expressions */
int cav_exprs(const cav *c);

#endif
