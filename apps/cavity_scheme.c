/* The course's scheme over maniple arrays with one-cell halos: each rank
 * updates its block with plain loops that read neighbours from the halo,
 * and halos are refreshed by reusable exchange plans (periodic in x for
 * the channel). Every update is written as apps/cavity.py writes it, term
 * by term in the same order, so the two give the same numbers; and the
 * boundary conditions are set from values each rank holds, so the answer
 * does not depend on how the grid is split.
 *
 * Pressure boundaries: the course sets them by slice copies in sequence
 * (cavity: p[:, -1] = p[:, -2], p[0, :] = p[1, :], p[:, 0] = p[:, 1],
 * p[-1, :] = 0), which makes every boundary point a copy of one updated
 * interior point at most one cell away (a corner takes its diagonal
 * neighbour). After the halo exchange every rank holds those sources for
 * its block and its halo, so it sets the boundary points of both: one
 * exchange per pressure sweep instead of one per slice copy. */
#include "cavity_impl.h"
#include "common/cli.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const double PI = 3.14159265358979323846; /* numpy.pi */

/* This rank's block of a 2-d array: element (i, j) (global indices, the
 * halo included) is AT(g, i, j). */
typedef struct {
  double *d;
  int64_t s, lo0, lo1, n0, n1;
} blk;
#define AT(g, i, j) (g).d[((i) - (g).lo0) * (g).s + ((j) - (g).lo1)]

static blk blk_in(const mn_local *pl) {
  const mn_local l = *pl;
  blk g = {0};
  if (!l.data) return g;
  g.d = l.data;
  g.s = l.stride[0];
  g.lo0 = l.lo[0];
  g.lo1 = l.lo[1];
  g.n0 = l.count[0];
  g.n1 = l.count[1];
  return g;
}

static blk blk_of(mn_array *a) {
  mn_local l;
  mn_array_local(a, &l);
  return blk_in(&l);
}

static int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
static int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
static double sq(double x) { return x * x; } /* NumPy's x**2 */

/* The updated points of this rank: rows 1 .. ny-2; columns 1 .. nx-2 (cavity)
 * or all of them (channel, whose wrap the periodic halo provides). [r0, r1) x [c0, c1). */
static void region(const cav *c, const blk *g, int64_t *r0, int64_t *r1, int64_t *c0, int64_t *c1) {
  int64_t edge = c->o.channel ? 0 : 1;
  *r0 = imax(g->lo0, 1);
  *r1 = imin(g->lo0 + g->n0, c->o.ny - 1);
  *c0 = imax(g->lo1, edge);
  *c1 = imin(g->lo1 + g->n1, c->o.nx - edge);
}

static int exchange(mn_plan *p) {
  MN_CALL(mn_plan_begin(p));
  MN_CALL(mn_plan_end(p));
  return MN_SUCCESS;
}

static void build_b(cav *c) {
  blk u = blk_of(c->u[0]), v = blk_of(c->v[0]), b = blk_of(c->b);
  const double rho = c->o.rho, dt = c->o.dt, dx = c->dx, dy = c->dy;
  int64_t r0, r1, c0, c1;
  region(c, &u, &r0, &r1, &c0, &c1);
  for (int64_t i = r0; i < r1; i++)
    for (int64_t j = c0; j < c1; j++) {
      double ux = AT(u, i, j + 1) - AT(u, i, j - 1), vy = AT(v, i + 1, j) - AT(v, i - 1, j);
      double uy = AT(u, i + 1, j) - AT(u, i - 1, j), vx = AT(v, i, j + 1) - AT(v, i, j - 1);
      AT(b, i, j) = rho * (1 / dt * (ux / (2 * dx) + vy / (2 * dy)) - sq(ux / (2 * dx)) -
                           2 * (uy / (2 * dy) * vx / (2 * dx)) - sq(vy / (2 * dy)));
    }
}

/* q's interior from p (the old values, as pn in the course) and b */
static void pressure_sweep(cav *c) {
  blk p = blk_of(c->p[0]), q = blk_of(c->p[1]), b = blk_of(c->b);
  const double dx2 = c->dx2, dy2 = c->dy2;
  int64_t r0, r1, c0, c1;
  region(c, &p, &r0, &r1, &c0, &c1);
  for (int64_t i = r0; i < r1; i++)
    for (int64_t j = c0; j < c1; j++)
      AT(q, i, j) = ((AT(p, i, j + 1) + AT(p, i, j - 1)) * dy2 + (AT(p, i + 1, j) + AT(p, i - 1, j)) * dx2) /
                        (2 * (dx2 + dy2)) -
                    dx2 * dy2 / (2 * (dx2 + dy2)) * AT(b, i, j);
}

/* The pressure boundary points of q's block and halo, from their sources
 * (see the top of this file); q's halo has just been exchanged. */
static void pressure_bc(cav *c, mn_array *qa) {
  blk q = blk_of(qa);
  if (!q.d) return;
  const int64_t nx = c->o.nx, ny = c->o.ny, wrap = c->o.channel;
  int64_t r0 = imax(q.lo0 - 1, 0), r1 = imin(q.lo0 + q.n0 + 1, ny);
  int64_t c0 = wrap ? q.lo1 - 1 : imax(q.lo1 - 1, 0), c1 = wrap ? q.lo1 + q.n1 + 1 : imin(q.lo1 + q.n1 + 1, nx);
  for (int64_t i = r0; i < r1; i++)
    for (int64_t j = c0; j < c1; j++) {
      if (wrap) { /* dp/dy = 0 on the walls; the columns are periodic */
        if (i == 0) AT(q, i, j) = AT(q, 1, j);
        else if (i == ny - 1) AT(q, i, j) = AT(q, ny - 2, j);
        continue;
      }
      int64_t si = i == 0 ? 1 : i, sj = j == 0 ? 1 : j == nx - 1 ? nx - 2 : j;
      if (i == ny - 1) AT(q, i, j) = 0; /* p = 0 under the lid */
      else if (si != i || sj != j) AT(q, i, j) = AT(q, si, sj);
    }
}

/* u[1], v[1] from u[0], v[0] (un, vn in the course) and p */
static void velocity(cav *c) {
  blk un = blk_of(c->u[0]), vn = blk_of(c->v[0]), u = blk_of(c->u[1]), v = blk_of(c->v[1]), p = blk_of(c->p[0]);
  const double dt = c->o.dt, dx = c->dx, dy = c->dy, dx2 = c->dx2, dy2 = c->dy2, rho = c->o.rho, nu = c->o.nu;
  const double F = c->o.F;
  int64_t r0, r1, c0, c1;
  region(c, &u, &r0, &r1, &c0, &c1);
  for (int64_t i = r0; i < r1; i++)
    for (int64_t j = c0; j < c1; j++) {
      double uc = AT(un, i, j), vc = AT(vn, i, j);
      double nu_u = uc - uc * dt / dx * (uc - AT(un, i, j - 1)) - vc * dt / dy * (uc - AT(un, i - 1, j)) -
                    dt / (2 * rho * dx) * (AT(p, i, j + 1) - AT(p, i, j - 1)) +
                    nu * (dt / dx2 * (AT(un, i, j + 1) - 2 * uc + AT(un, i, j - 1)) +
                          dt / dy2 * (AT(un, i + 1, j) - 2 * uc + AT(un, i - 1, j)));
      AT(u, i, j) = c->o.channel ? nu_u + F * dt : nu_u;
      AT(v, i, j) = vc - uc * dt / dx * (vc - AT(vn, i, j - 1)) - vc * dt / dy * (vc - AT(vn, i - 1, j)) -
                    dt / (2 * rho * dy) * (AT(p, i + 1, j) - AT(p, i - 1, j)) +
                    nu * (dt / dx2 * (AT(vn, i, j + 1) - 2 * vc + AT(vn, i, j - 1)) +
                          dt / dy2 * (AT(vn, i + 1, j) - 2 * vc + AT(vn, i - 1, j)));
    }
}

/* walls at rest, the cavity's lid (the top row) moving at 1 */
static void velocity_bc(cav *c) {
  blk u = blk_of(c->u[1]), v = blk_of(c->v[1]);
  const int64_t nx = c->o.nx, ny = c->o.ny;
  for (int64_t i = u.lo0; i < u.lo0 + u.n0; i++)
    for (int64_t j = u.lo1; j < u.lo1 + u.n1; j++) {
      int wall = i == 0 || i == ny - 1 || (!c->o.channel && (j == 0 || j == nx - 1));
      if (!wall) continue;
      AT(u, i, j) = !c->o.channel && i == ny - 1 ? 1 : 0;
      AT(v, i, j) = 0;
    }
}

static void swap(mn_array **a, mn_plan **p) {
  mn_array *t = a[0];
  a[0] = a[1];
  a[1] = t;
  mn_plan *q = p[0];
  p[0] = p[1];
  p[1] = q;
}

static int check(mn_ctx *ctx, const cav_opts *o) {
  MN_CHECK(o->nx >= 3 && o->ny >= 3, MN_ERR_ARG,
           "grid %ld x %ld is smaller than the 3-point stencil: --nx and --ny must be at least 3", o->nx, o->ny);
  const int64_t sh[2] = {o->ny, o->nx}; /* every rank's block must hold the one-cell halo */
  int dims[2];
  MN_CALL(mn_grid_dims(mn_ctx_size(ctx), 2, sh, dims));
  MN_CHECK(o->ny >= dims[0] && o->nx >= dims[1], MN_ERR_ARG,
           "grid %ld x %ld is too small for %d ranks: the %d x %d process grid needs nx >= %d, ny >= %d", o->nx,
           o->ny, mn_ctx_size(ctx), dims[1], dims[0], dims[1], dims[0]);
  MN_CHECK(o->nt >= 0, MN_ERR_ARG, "--nt %ld is negative", o->nt);
  MN_CHECK(o->nit >= 0, MN_ERR_ARG, "--nit %ld is negative", o->nit);
  MN_CHECK(o->dt > 0, MN_ERR_ARG, "--dt %g must be positive", o->dt);
  MN_CHECK(o->rho > 0, MN_ERR_ARG, "--rho %g must be positive", o->rho);
  MN_CHECK(o->nu > 0, MN_ERR_ARG, "--nu %g must be positive", o->nu);
  MN_CHECK(o->tol > 0, MN_ERR_ARG, "--tol %g must be positive", o->tol);
  return MN_SUCCESS;
}

/* rest (p = 0 in the cavity, 1 in the channel), v perturbed on request */
static int initial(cav *c) {
  MN_CALL(mn_array_fill(c->p[0], mn_scalar_f64(c->o.channel ? 1.0 : 0.0)));
  if (c->exprs && c->o.perturb == 0) return MN_SUCCESS; /* v is zero */
  /* the expressions' path writes v on the host too (the host's sin, so the
   * two paths start alike) without pinning it, then moves it to the device */
  mn_local l;
  if (c->exprs) MN_CALL(mn_array_local_host(c->v[0], &l));
  blk v = c->exprs ? blk_in(&l) : blk_of(c->v[0]);
  const int64_t nx = c->o.nx, ny = c->o.ny;
  for (int64_t i = imax(v.lo0, 1); i < imin(v.lo0 + v.n0, ny - 1); i++)
    for (int64_t j = v.lo1; j < v.lo1 + v.n1; j++)
      AT(v, i, j) = c->o.perturb * sin(PI * (double)i / (double)(ny - 1)) * sin(2 * PI * (double)j / (double)nx);
  if (c->exprs && mn_ctx_backend(c->ctx) != MN_BACKEND_CPU) return mn_array_local_device(c->v[0], &l);
  if (c->exprs) return MN_SUCCESS;
  MN_CALL(exchange(c->pu[0]));
  MN_CALL(exchange(c->pv[0]));
  MN_CALL(exchange(c->pp[0]));
  return MN_SUCCESS;
}

static int setup(cav *c) {
  const int64_t sh[2] = {c->o.ny, c->o.nx};
  const int periodic[2] = {0, c->o.channel}, halo = !c->exprs;
  MN_CALL(mn_array_create(c->ctx, MN_FLOAT64, 2, sh, halo, &c->u[0]));
  mn_layout *lay = mn_array_layout(c->u[0]);
  for (int k = 0; k < 2; k++) {
    if (k) MN_CALL(mn_array_create_on(lay, MN_FLOAT64, halo, &c->u[k]));
    MN_CALL(mn_array_create_on(lay, MN_FLOAT64, halo, &c->v[k]));
    MN_CALL(mn_array_create_on(lay, MN_FLOAT64, halo, &c->p[k]));
    if (!halo) continue;
    MN_CALL(mn_plan_create_halo(c->u[k], periodic, &c->pu[k]));
    MN_CALL(mn_plan_create_halo(c->v[k], periodic, &c->pv[k]));
    MN_CALL(mn_plan_create_halo(c->p[k], periodic, &c->pp[k]));
  }
  MN_CALL(mn_array_create_on(lay, MN_FLOAT64, 0, &c->b));
  MN_CALL(initial(c));
  return MN_SUCCESS;
}

int cav_create(mn_ctx *ctx, const cav_opts *o, cav **out) {
  MN_CHECK(ctx && o && out, MN_ERR_ARG, "NULL argument");
  *out = NULL;
  MN_CALL(check(ctx, o));
  cav *c = calloc(1, sizeof *c);
  MN_CHECK(c, MN_ERR_MEM, "cannot allocate the solver");
  c->ctx = ctx;
  c->o = *o;
  c->exprs = o->scheme == CAV_EXPRS || (o->scheme == CAV_AUTO && mn_ctx_backend(ctx) != MN_BACKEND_CPU);
  c->dx = 2 / (double)(o->nx - 1);
  c->dy = 2 / (double)(o->ny - 1);
  c->dx2 = pow(c->dx, 2); /* Python's dx**2 */
  c->dy2 = pow(c->dy, 2);
  int err = setup(c);
  if (err) {
    cav_destroy(&c);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  *out = c;
  return MN_SUCCESS;
}

int cav_destroy(cav **pc) {
  if (!pc || !*pc) return MN_SUCCESS;
  cav *c = *pc;
  for (int k = 0; k < 2; k++) {
    mn_plan_destroy(&c->pu[k]);
    mn_plan_destroy(&c->pv[k]);
    mn_plan_destroy(&c->pp[k]);
    mn_array_destroy(&c->u[k]);
    mn_array_destroy(&c->v[k]);
    mn_array_destroy(&c->p[k]);
  }
  mn_array_destroy(&c->b);
  free(c);
  *pc = NULL;
  return MN_SUCCESS;
}

/* NaN or Inf in a field: the run blew up. One fused sum of u + v + p (one
 * allreduce); only when that is not finite, one per field to name it. */
static int finite(cav *c, long step) {
  mn_array *f[3] = {c->u[0], c->v[0], c->p[0]};
  const char *names[3] = {"u", "v", "p"};
  mn_expr *e = NULL;
  int in[3], uv, all;
  mn_scalar s;
  MN_CALL(mn_expr_create(mn_array_ctx(f[0]), &e));
  int err = 0;
  for (int k = 0; k < 3 && !err; k++) err = mn_expr_input(e, f[k], &in[k]);
  if (!err) err = mn_expr_binary(e, MN_OP_ADD, in[0], in[1], &uv);
  if (!err) err = mn_expr_binary(e, MN_OP_ADD, uv, in[2], &all);
  if (!err) err = mn_expr_reduce(e, all, MN_RED_SUM, &s);
  mn_expr_destroy(&e);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  if (isfinite(s.v.f)) return MN_SUCCESS;
  for (int k = 0; k < 3; k++) {
    MN_CALL(mn_array_reduce(MN_RED_SUM, f[k], &s));
    MN_CALL(app_finite(names[k], s.v.f, step));
  }
  return app_finite("u + v + p", NAN, step); /* each finite, their sum not: an overflow */
}

enum { CHECK_EVERY = 50 }; /* steps between blow-up checks: one fused sum, about a pass over 3 fields */

int cav_run(cav *c, long *steps) {
  MN_CHECK(c && steps, MN_ERR_ARG, "NULL argument");
  double udiff = 1;
  long n = 0;
  while (n < c->o.nt && (!c->o.channel || udiff > c->o.tol)) {
    if (n && n % CHECK_EVERY == 0) MN_CALL(finite(c, n));
    if (c->exprs) {
      MN_CALL(cavx_build_b(c));
      for (long q = 0; q < c->o.nit; q++, swap(c->p, c->pp)) MN_CALL(cavx_pressure(c));
      MN_CALL(cavx_velocity(c));
    } else {
      build_b(c);
      for (long q = 0; q < c->o.nit; q++) {
        pressure_sweep(c);
        MN_CALL(exchange(c->pp[1]));
        pressure_bc(c, c->p[1]);
        swap(c->p, c->pp);
      }
      velocity(c);
      velocity_bc(c);
      MN_CALL(exchange(c->pu[1]));
      MN_CALL(exchange(c->pv[1]));
    }
    swap(c->u, c->pu);
    swap(c->v, c->pv);
    if (c->o.channel) { /* the course's test: relative change of sum(u) */
      mn_scalar su, sun;
      MN_CALL(mn_array_reduce(MN_RED_SUM, c->u[0], &su));
      MN_CALL(mn_array_reduce(MN_RED_SUM, c->u[1], &sun));
      udiff = (su.v.f - sun.v.f) / su.v.f;
    }
    n++;
  }
  *steps = n;
  MN_CALL(finite(c, n)); /* a NaN udiff ends the channel's loop as if converged */
  return MN_SUCCESS;
}

mn_array *cav_u(cav *c) { return c->u[0]; }
mn_array *cav_v(cav *c) { return c->v[0]; }
mn_array *cav_p(cav *c) { return c->p[0]; }
int cav_exprs(const cav *c) { return c->exprs; }
