/* The scheme of cavity_scheme.c as fused expressions over slices, the
 * course's NumPy statement by statement (apps/cavity.py), for device
 * backends: each update is one evaluation that runs on the device and
 * brings its remote neighbours itself, so the fields never leave device
 * memory (the loops read every field on the host). The arithmetic is the
 * loops' in the same order, so both paths give the same numbers.
 *
 * A sweep over columns [c0, c1) reads its left neighbours from columns
 * starting at l0 and its right ones from r0: the interior's l0 = c0 - 1,
 * r0 = c0 + 1; the channel's periodic columns 0 and nx-1 take theirs
 * from the other edge, as the course writes them. */
#include "cavity_impl.h"
#include "common/expr.h"

typedef struct {
  int64_t c0, c1, l0, r0;
} cols;

/* the column ranges one update covers: the interior, then on the channel
 * its wrapped edges; returns how many */
static int sweeps(const cav *c, cols k[3]) {
  const int64_t nx = c->o.nx;
  k[0] = (cols){1, nx - 1, 0, 2};
  if (!c->o.channel) return 1;
  k[1] = (cols){nx - 1, nx, nx - 2, 0};
  k[2] = (cols){0, 1, nx - 1, 1};
  return 3;
}

/* a at row offset di, column offset dj of the updated rows 1 .. ny-2 and columns k */
static int at(ex *x, const cav *c, mn_array *a, int di, int dj, const cols *k) {
  int64_t w = k->c1 - k->c0, s = dj < 0 ? k->l0 : dj > 0 ? k->r0 : k->c0;
  return ex_at(x, a, 1 + di, c->o.ny - 1 + di, s, s + w);
}

static int eval(ex *x, const cav *c, int node, mn_array *out, const cols *k) {
  return ex_eval(x, node, out, 1, c->o.ny - 1, k->c0, k->c1);
}

int cavx_build_b(cav *c) {
  const double rho = c->o.rho, dt = c->o.dt, dx = c->dx, dy = c->dy;
  mn_array *u = c->u[0], *v = c->v[0];
  cols ks[3];
  for (int n = sweeps(c, ks), q = 0; q < n; q++) {
    const cols *k = &ks[q];
    ex x;
    ex_begin(&x, c->ctx);
    int ux = ex_sub(&x, at(&x, c, u, 0, 1, k), at(&x, c, u, 0, -1, k));
    int vy = ex_sub(&x, at(&x, c, v, 1, 0, k), at(&x, c, v, -1, 0, k));
    int uy = ex_sub(&x, at(&x, c, u, 1, 0, k), at(&x, c, u, -1, 0, k));
    int vx = ex_sub(&x, at(&x, c, v, 0, 1, k), at(&x, c, v, 0, -1, k));
    int uxd = ex_div(&x, ux, ex_s(&x, 2 * dx)), vyd = ex_div(&x, vy, ex_s(&x, 2 * dy));
    int t1 = ex_mul(&x, ex_s(&x, 1 / dt), ex_add(&x, uxd, vyd));
    int t3 = ex_mul(&x, ex_s(&x, 2), ex_div(&x, ex_mul(&x, ex_div(&x, uy, ex_s(&x, 2 * dy)), vx), ex_s(&x, 2 * dx)));
    int all = ex_sub(&x, ex_sub(&x, ex_sub(&x, t1, ex_sq(&x, uxd)), t3), ex_sq(&x, vyd));
    MN_CALL(eval(&x, c, ex_mul(&x, ex_s(&x, rho), all), c->b, k));
  }
  return MN_SUCCESS;
}

/* the course's boundary statements, in its order, on the new pressure q */
static int pressure_bc(cav *c, mn_array *q) {
  const int64_t nx = c->o.nx, ny = c->o.ny;
  if (c->o.channel) {
    MN_CALL(ex_copy(q, ny - 2, 0, q, ny - 1, 0, 1, nx)); /* dp/dy = 0 at y = 2 */
    MN_CALL(ex_copy(q, 1, 0, q, 0, 0, 1, nx));           /* and at y = 0 */
    return MN_SUCCESS;
  }
  MN_CALL(ex_copy(q, 0, nx - 2, q, 0, nx - 1, ny, 1)); /* dp/dx = 0 at x = 2 */
  MN_CALL(ex_copy(q, 1, 0, q, 0, 0, 1, nx));           /* dp/dy = 0 at y = 0 */
  MN_CALL(ex_copy(q, 0, 1, q, 0, 0, ny, 1));           /* dp/dx = 0 at x = 0 */
  MN_CALL(ex_fill(q, ny - 1, ny, 0, nx, 0));           /* p = 0 under the lid */
  return MN_SUCCESS;
}

int cavx_pressure(cav *c) {
  const double dx2 = c->dx2, dy2 = c->dy2;
  mn_array *p = c->p[0];
  cols ks[3];
  for (int n = sweeps(c, ks), q = 0; q < n; q++) {
    const cols *k = &ks[q];
    ex x;
    ex_begin(&x, c->ctx);
    int h = ex_mul(&x, ex_add(&x, at(&x, c, p, 0, 1, k), at(&x, c, p, 0, -1, k)), ex_s(&x, dy2));
    int w = ex_mul(&x, ex_add(&x, at(&x, c, p, 1, 0, k), at(&x, c, p, -1, 0, k)), ex_s(&x, dx2));
    int src = ex_mul(&x, ex_s(&x, dx2 * dy2 / (2 * (dx2 + dy2))), at(&x, c, c->b, 0, 0, k));
    MN_CALL(eval(&x, c, ex_sub(&x, ex_div(&x, ex_add(&x, h, w), ex_s(&x, 2 * (dx2 + dy2))), src), c->p[1], k));
  }
  return pressure_bc(c, c->p[1]);
}

/* f's new values, f being u (along x: ax = 1) or v: the loops' velocity() */
static int momentum(cav *c, mn_array *f, int ax, const cols *k, mn_array *out) {
  const double dt = c->o.dt, dx = c->dx, dy = c->dy, rho = c->o.rho, nu = c->o.nu;
  mn_array *un = c->u[0], *vn = c->v[0], *p = c->p[0];
  ex x;
  ex_begin(&x, c->ctx);
  int fc = at(&x, c, f, 0, 0, k);
  int uc = f == un ? fc : at(&x, c, un, 0, 0, k), vc = f == vn ? fc : at(&x, c, vn, 0, 0, k);
  int a1 = ex_mul(&x, ex_div(&x, ex_mul(&x, uc, ex_s(&x, dt)), ex_s(&x, dx)), ex_sub(&x, fc, at(&x, c, f, 0, -1, k)));
  int a2 = ex_mul(&x, ex_div(&x, ex_mul(&x, vc, ex_s(&x, dt)), ex_s(&x, dy)), ex_sub(&x, fc, at(&x, c, f, -1, 0, k)));
  int dp = ax ? ex_sub(&x, at(&x, c, p, 0, 1, k), at(&x, c, p, 0, -1, k))
              : ex_sub(&x, at(&x, c, p, 1, 0, k), at(&x, c, p, -1, 0, k));
  int a3 = ex_mul(&x, ex_s(&x, dt / (2 * rho * (ax ? dx : dy))), dp);
  int lx = ex_add(&x, ex_sub(&x, at(&x, c, f, 0, 1, k), ex_mul(&x, ex_s(&x, 2), fc)), at(&x, c, f, 0, -1, k));
  int ly = ex_add(&x, ex_sub(&x, at(&x, c, f, 1, 0, k), ex_mul(&x, ex_s(&x, 2), fc)), at(&x, c, f, -1, 0, k));
  int a4 = ex_mul(&x, ex_s(&x, nu),
                  ex_add(&x, ex_mul(&x, ex_s(&x, dt / c->dx2), lx), ex_mul(&x, ex_s(&x, dt / c->dy2), ly)));
  int r = ex_add(&x, ex_sub(&x, ex_sub(&x, ex_sub(&x, fc, a1), a2), a3), a4);
  if (ax && c->o.channel) r = ex_add(&x, r, ex_s(&x, c->o.F * dt));
  MN_CALL(eval(&x, c, r, out, k));
  return MN_SUCCESS;
}

int cavx_velocity(cav *c) {
  const int64_t nx = c->o.nx, ny = c->o.ny;
  mn_array *u = c->u[1], *v = c->v[1];
  cols ks[3];
  int n = sweeps(c, ks);
  for (int q = 0; q < n; q++) MN_CALL(momentum(c, c->u[0], 1, &ks[q], u));
  for (int q = 0; q < n; q++) MN_CALL(momentum(c, c->v[0], 0, &ks[q], v));
  MN_CALL(ex_fill(u, 0, 1, 0, nx, 0)); /* walls at rest */
  MN_CALL(ex_fill(v, 0, 1, 0, nx, 0));
  MN_CALL(ex_fill(v, ny - 1, ny, 0, nx, 0));
  if (c->o.channel) return ex_fill(u, ny - 1, ny, 0, nx, 0);
  MN_CALL(ex_fill(u, 0, ny, 0, 1, 0));
  MN_CALL(ex_fill(u, 0, ny, nx - 1, nx, 0));
  MN_CALL(ex_fill(v, 0, ny, 0, 1, 0));
  MN_CALL(ex_fill(v, 0, ny, nx - 1, nx, 0));
  return ex_fill(u, ny - 1, ny, 0, nx, 1); /* the lid, corners included */
}
