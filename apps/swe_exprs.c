/* The scheme of swe_scheme.c as fused expressions over slices of padded
 * arrays, statement by statement as apps/swe.py writes it, for device
 * backends: each statement is one evaluation that runs where the values
 * are and brings remote neighbours itself, so the state never leaves the
 * device (the loops read it on the host). Every formula keeps the loops'
 * operations in their order, so both paths give the same bits.
 *
 * The loops' arrays still hold the initial state and the beds' host
 * copies, and take the state again when a check reads it (swex_sync). */
#include "swe_impl.h"
#include "common/expr.h"
#include <math.h>

/* a[r0 : r0 + nr, c0 : c0 + nc] */
static int at(ex *x, mn_array *a, int64_t r0, int64_t nr, int64_t c0, int64_t nc) {
  return ex_at(x, a, r0, r0 + nr, c0, c0 + nc);
}

/* ---- ghost cells ---- */
typedef struct {
  int64_t r0, nr, c0, nc;
} strip;

/* Cells k layers in from a side (k = 0, 1 interior; -1, -2 ghosts), over
 * the interior of the other axis */
static strip side_strip(const swe *s, int side, int64_t k) {
  const int64_t nx = s->nx, ny = s->ny;
  switch (side) {
  case SWE_WEST: return (strip){2, ny, 2 + k, 1};
  case SWE_EAST: return (strip){2, ny, nx + 1 - k, 1};
  case SWE_SOUTH: return (strip){2 + k, 1, 2, nx};
  default: return (strip){ny + 1 - k, 1, 2, nx};
  }
}

static int copy(mn_array *a, strip src, strip g) { return ex_copy(a, src.r0, src.c0, a, g.r0, g.c0, g.nr, g.nc); }

static int fill(mn_array *a, strip g, double v) { return ex_fill(a, g.r0, g.r0 + g.nr, g.c0, g.c0 + g.nc, v); }

/* a[g] = -a[src] */
static int negate(swe *s, mn_array *a, strip src, strip g) {
  ex x;
  ex_begin(&x, s->ctx);
  int node = ex_un(&x, MN_OP_NEG, at(&x, a, src.r0, src.nr, src.c0, src.nc));
  return ex_eval(&x, node, a, g.r0, g.r0 + g.nr, g.c0, g.c0 + g.nc);
}

/* w[g] = value + Bc[g]: a given depth over the bed */
static int over_bed(swe *s, mn_array *w, strip g, double value) {
  ex x;
  ex_begin(&x, s->ctx);
  int node = ex_add(&x, ex_s(&x, value), at(&x, s->Bc, g.r0, g.nr, g.c0, g.nc));
  return ex_eval(&x, node, w, g.r0, g.r0 + g.nr, g.c0, g.c0 + g.nc);
}

static int fill_ghosts(swe *s, mn_array **q) {
  static const int opposite[4] = {SWE_EAST, SWE_WEST, SWE_NORTH, SWE_SOUTH};
  for (int side = 0; side < 4; side++) {
    const swe_bc *b = &s->bc[side];
    int xside = side == SWE_WEST || side == SWE_EAST;
    mn_array *w = q[0], *nrm = xside ? q[1] : q[2], *tan = xside ? q[2] : q[1];
    double sign = (side == SWE_WEST || side == SWE_SOUTH) ? 1.0 : -1.0; /* inward */
    for (int64_t k = 0; k < 2; k++) {
      strip g = side_strip(s, side, -1 - k), src = side_strip(s, side, k);
      switch (b->kind) {
      case SWE_PERIODIC:
        src = side_strip(s, opposite[side], k);
        MN_CALL(copy(w, src, g));
        MN_CALL(copy(nrm, src, g));
        MN_CALL(copy(tan, src, g));
        break;
      case SWE_WALL:
        MN_CALL(copy(w, src, g));
        MN_CALL(negate(s, nrm, src, g));
        MN_CALL(copy(tan, src, g));
        break;
      case SWE_INFLOW: /* given discharge in, depth zero-gradient */
        MN_CALL(copy(w, src, g));
        MN_CALL(fill(nrm, g, sign * b->value));
        MN_CALL(fill(tan, g, 0.0));
        break;
      case SWE_OUTFLOW: /* zero gradient, or given depth */
        if (b->has_value) MN_CALL(over_bed(s, w, g, b->value));
        else MN_CALL(copy(w, src, g));
        MN_CALL(copy(nrm, src, g));
        MN_CALL(copy(tan, src, g));
        break;
      }
    }
  }
  return MN_SUCCESS;
}

/* ---- the central-upwind fluxes along one axis ---- */
typedef struct {
  ex *x;
  int axis; /* 1: along x (faces (ny, nx + 1)), 0: along y */
  int64_t n, m; /* cells along, interior cells across */
} dir;

/* Padded cells off .. off + n along the axis (n + 1 of them, one per
 * face), the interior across */
static int cells(const dir *d, mn_array *a, int64_t off) {
  return d->axis ? at(d->x, a, 2, d->m, off, d->n + 1) : at(d->x, a, off, d->n + 1, 2, d->m);
}

static int sc(const dir *d, double v) { return ex_s(d->x, v); }
static int mx(const dir *d, int a, int b) { return ex_bin(d->x, MN_OP_MAXIMUM, a, b); }
static int mn(const dir *d, int a, int b) { return ex_bin(d->x, MN_OP_MINIMUM, a, b); }
static int add(const dir *d, int a, int b) { return ex_add(d->x, a, b); }
static int sub(const dir *d, int a, int b) { return ex_sub(d->x, a, b); }
static int mul(const dir *d, int a, int b) { return ex_mul(d->x, a, b); }
static int dv(const dir *d, int a, int b) { return ex_div(d->x, a, b); }

/* Face values of the cells at off (plus side, minus side) from
 * generalised-minmod slopes */
static void recon(const swe *s, const dir *d, mn_array *q, int64_t off, int *plus, int *minus) {
  int ql = cells(d, q, off - 1), qc = cells(d, q, off), qr = cells(d, q, off + 1);
  int a = mul(d, sc(d, s->theta), sub(d, qc, ql)), b = mul(d, sc(d, 0.5), sub(d, qr, ql));
  int c = mul(d, sc(d, s->theta), sub(d, qr, qc));
  int sl = add(d, mx(d, mn(d, mn(d, a, b), c), sc(d, 0.0)), mn(d, mx(d, mx(d, a, b), c), sc(d, 0.0)));
  int half = mul(d, sc(d, 0.5), sl);
  *plus = add(d, qc, half);
  *minus = sub(d, qc, half);
}

/* KP's desingularised q / h, 0 where h is 0 */
static int velocity(const swe *s, const dir *d, int h, int q) {
  int h4 = mul(d, mul(d, mul(d, h, h), h), h);
  return dv(d, mul(d, mul(d, sc(d, sqrt(2.0)), h), q), ex_un(d->x, MN_OP_SQRT, add(d, h4, mx(d, h4, sc(d, s->eps)))));
}

/* The fluxes on the n + 1 faces of an axis into out[0..2] (w, normal,
 * tangential), and the largest one-sided speed (where speed is not NULL:
 * a global reduction). Face f lies between the padded cells L = f + 1 and
 * R = f + 2. */
static int fluxes(swe *s, int axis, mn_array **q, mn_array **out, double *speed) {
  const double G = SWE_G;
  ex x;
  ex_begin(&x, s->ctx);
  dir d = {&x, axis, axis ? s->nx : s->ny, axis ? s->ny : s->nx};
  mn_array *w = q[0], *qn = axis ? q[1] : q[2], *qt = axis ? q[2] : q[1], *Bf = axis ? s->Bfx : s->Bfy;
  int wpL, wmL, wpR, wmR, qnpL, qnmL, qnpR, qnmR, qtpL, qtmL, qtpR, qtmR;
  recon(s, &d, w, 1, &wpL, &wmL);
  recon(s, &d, w, 2, &wpR, &wmR);
  recon(s, &d, qn, 1, &qnpL, &qnmL);
  recon(s, &d, qn, 2, &qnpR, &qnmR);
  recon(s, &d, qt, 1, &qtpL, &qtmL);
  recon(s, &d, qt, 2, &qtpR, &qtmR);
  (void)qnmL, (void)qnpR, (void)qtmL, (void)qtpR;
  /* KP's correction: face depths stay >= 0 when the cell's depth is */
  int wcL = cells(&d, w, 1), wcR = cells(&d, w, 2);
  int BmL = cells(&d, Bf, 1), Bface = cells(&d, Bf, 2), BpR = cells(&d, Bf, 3); /* Bp of L = Bm of R = Bface */
  int two = sc(&d, 2.0);
  int wL = ex_where(&x, ex_bin(&x, MN_OP_LT, wpL, Bface), Bface,
                    ex_where(&x, ex_bin(&x, MN_OP_LT, wmL, BmL), sub(&d, mul(&d, two, wcL), BmL), wpL));
  int wR = ex_where(&x, ex_bin(&x, MN_OP_LT, wpR, BpR), sub(&d, mul(&d, two, wcR), BpR),
                    ex_where(&x, ex_bin(&x, MN_OP_LT, wmR, Bface), Bface, wmR));
  int hL = mx(&d, sub(&d, wL, Bface), sc(&d, 0.0)), hR = mx(&d, sub(&d, wR, Bface), sc(&d, 0.0));
  int uL = velocity(s, &d, hL, qnpL), uR = velocity(s, &d, hR, qnmR);
  int vL = velocity(s, &d, hL, qtpL), vR = velocity(s, &d, hR, qtmR);
  int qL = mul(&d, hL, uL), qR = mul(&d, hR, uR), tL = mul(&d, hL, vL), tR = mul(&d, hR, vR);
  int cL = ex_un(&x, MN_OP_SQRT, mul(&d, sc(&d, G), hL)), cR = ex_un(&x, MN_OP_SQRT, mul(&d, sc(&d, G), hR));
  int ap = mx(&d, mx(&d, add(&d, uR, cR), add(&d, uL, cL)), sc(&d, 0.0));
  int am = mn(&d, mn(&d, sub(&d, uR, cR), sub(&d, uL, cL)), sc(&d, 0.0));
  int inv = dv(&d, sc(&d, 1.0), mx(&d, sub(&d, ap, am), sc(&d, TINY)));
  int diff = mul(&d, mul(&d, ap, am), inv);
  int Fw = add(&d, mul(&d, sub(&d, mul(&d, ap, qL), mul(&d, am, qR)), inv), mul(&d, diff, sub(&d, wR, wL)));
  int pL = add(&d, mul(&d, qL, uL), mul(&d, mul(&d, sc(&d, 0.5 * G), hL), hL));
  int pR = add(&d, mul(&d, qR, uR), mul(&d, mul(&d, sc(&d, 0.5 * G), hR), hR));
  int Fn = add(&d, mul(&d, sub(&d, mul(&d, ap, pL), mul(&d, am, pR)), inv), mul(&d, diff, sub(&d, qR, qL)));
  int Ft = add(&d, mul(&d, sub(&d, mul(&d, ap, mul(&d, qL, vL)), mul(&d, am, mul(&d, qR, vR))), inv),
               mul(&d, diff, sub(&d, tR, tL)));
  int sp = mx(&d, ap, ex_un(&x, MN_OP_NEG, am));
  mn_scalar r = {0};
  if (!x.err && speed) {
    const int xn[3] = {Fw, Fn, Ft};
    x.err = mn_expr_reduce_extra(x.e, sp, MN_RED_MAX, &r, 3, xn, out);
  } else if (!x.err) {
    const int xn[2] = {Fn, Ft};
    x.err = mn_expr_eval_extra(x.e, Fw, out[0], 2, xn, out + 1);
  }
  int err = ex_end(&x);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  if (speed) *speed = r.v.f;
  return MN_SUCCESS;
}

int swex_fluxes(swe *s, int stage, double *ax, double *ay) {
  mn_array **q = stage ? s->W1 : s->W;
  MN_CALL(fill_ghosts(s, q));
  mn_array *fx[3] = {s->F[0], s->F[1], s->F[2]}, *fy[3] = {s->G[0], s->G[2], s->G[1]};
  MN_CALL(fluxes(s, 1, q, fx, ax));
  MN_CALL(fluxes(s, 0, q, fy, ay));
  return MN_SUCCESS;
}

/* ---- dU/dt and the SSP-RK2 stages ---- */
/* field v's dU/dt on the interior cells from the fluxes and (v > 0) the
 * bed's slope under depth h = w - Bc of state q */
static int rhs(ex *x, const swe *s, int v, mn_array **q) {
  const int64_t nx = s->nx, ny = s->ny;
  const double G = SWE_G, dx = s->dx, dy = s->dy;
  int fe = at(x, s->F[v], 0, ny, 1, nx), fw = at(x, s->F[v], 0, ny, 0, nx);
  int gn = at(x, s->G[v], 1, ny, 0, nx), gs = at(x, s->G[v], 0, ny, 0, nx);
  int L = ex_sub(x, ex_div(x, ex_un(x, MN_OP_NEG, ex_sub(x, fe, fw)), ex_s(x, dx)),
                 ex_div(x, ex_sub(x, gn, gs), ex_s(x, dy)));
  if (v == 0) return L;
  int h = ex_sub(x, at(x, q[0], 2, ny, 2, nx), at(x, s->Bc, 2, ny, 2, nx));
  int dB = v == 1 ? ex_sub(x, at(x, s->Bfx, 2, ny, 3, nx), at(x, s->Bfx, 2, ny, 2, nx))
                  : ex_sub(x, at(x, s->Bfy, 3, ny, 2, nx), at(x, s->Bfy, 2, ny, 2, nx));
  return ex_sub(x, L, ex_div(x, ex_mul(x, ex_mul(x, ex_s(x, G), h), dB), ex_s(x, v == 1 ? dx : dy)));
}

int swex_update(swe *s, int stage, double dt) {
  const int64_t nx = s->nx, ny = s->ny;
  for (int v = 0; v < NV; v++) {
    ex x;
    ex_begin(&x, s->ctx);
    int r;
    if (!stage) { /* W1 = W + dt L(W) */
      r = ex_add(&x, at(&x, s->W[v], 2, ny, 2, nx), ex_mul(&x, ex_s(&x, dt), rhs(&x, s, v, s->W)));
    } else { /* W = 0.5 W + 0.5 (W1 + dt L(W1)) */
      int w1 = ex_add(&x, at(&x, s->W1[v], 2, ny, 2, nx), ex_mul(&x, ex_s(&x, dt), rhs(&x, s, v, s->W1)));
      r = ex_add(&x, ex_mul(&x, ex_s(&x, 0.5), at(&x, s->W[v], 2, ny, 2, nx)), ex_mul(&x, ex_s(&x, 0.5), w1));
    }
    if (v == 0) r = ex_bin(&x, MN_OP_MAXIMUM, r, at(&x, s->Bc, 2, ny, 2, nx)); /* no negative depth */
    MN_CALL(ex_eval(&x, r, stage ? s->W[v] : s->W1[v], 2, ny + 2, 2, nx + 2));
  }
  return MN_SUCCESS;
}

/* ---- set-up ---- */
/* The padded bed arrays, written on the host through mn_array_local_host
 * (nothing pinned: the first kernel takes them to the device). off[0..1]:
 * the vertex offsets of the two corners averaged per axis (faces: 2, cells: 4) */
static int bed_array(swe *s, mn_array *a, int kind) {
  mn_local l;
  MN_CALL(mn_array_local_host(a, &l));
  double *d = l.data;
  for (int64_t j = 0; j < l.count[0]; j++)
    for (int64_t i = 0; i < l.count[1]; i++) {
      int64_t gj = l.lo[0] + j - 2, gi = l.lo[1] + i - 2;
      double v00 = swe_vertex(s, gj, gi), r;
      if (kind == 0)
        r = 0.25 * (v00 + swe_vertex(s, gj, gi + 1) + swe_vertex(s, gj + 1, gi) + swe_vertex(s, gj + 1, gi + 1));
      else if (kind == 1) r = 0.5 * (v00 + swe_vertex(s, gj + 1, gi)); /* west faces */
      else r = 0.5 * (v00 + swe_vertex(s, gj, gi + 1));                /* south faces */
      d[j * l.stride[0] + i * l.stride[1]] = r;
    }
  return MN_SUCCESS;
}

int swex_setup(swe *s) {
  const int64_t nx = s->nx, ny = s->ny, cell[2] = {ny + 4, nx + 4}, fxs[2] = {ny + 4, nx + 5},
                fys[2] = {ny + 5, nx + 4}, xf[2] = {ny, nx + 1}, yf[2] = {ny + 1, nx};
  for (int v = 0; v < NV; v++) {
    MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, 2, cell, 0, &s->W[v]));
    MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, 2, cell, 0, &s->W1[v]));
    MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, 2, xf, 0, &s->F[v]));
    MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, 2, yf, 0, &s->G[v]));
  }
  MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, 2, cell, 0, &s->Bc));
  MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, 2, fxs, 0, &s->Bfx));
  MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, 2, fys, 0, &s->Bfy));
  MN_CALL(bed_array(s, s->Bc, 0));
  MN_CALL(bed_array(s, s->Bfx, 1));
  MN_CALL(bed_array(s, s->Bfy, 2));
  for (int v = 0; v < NV; v++) { /* the initial state, once */
    ex x;
    ex_begin(&x, s->ctx);
    MN_CALL(ex_eval(&x, ex_in(&x, s->u[v]), s->W[v], 2, ny + 2, 2, nx + 2));
    const mn_index I[2] = {mn_slice(2, ny + 2, 1), mn_slice(2, nx + 2, 1)};
    MN_CALL(mn_array_index(s->W[v], 2, I, &s->Wi[v]));
  }
  if (mn_ctx_backend(s->ctx) == MN_BACKEND_CPU) return MN_SUCCESS;
  /* the host wrote them: to the device now, where the evaluations then run
   * (they follow the data) */
  mn_array *dev[5] = {s->W[0], s->W[1], s->W[2], s->Bfx, s->Bfy};
  mn_local l;
  MN_CALL(mn_array_local_device(s->Bc, &l));
  for (int k = 0; k < 5; k++) MN_CALL(mn_array_local_device(dev[k], &l));
  return MN_SUCCESS;
}

int swex_sync(swe *s) {
  for (int v = 0; v < NV; v++) {
    ex x;
    ex_begin(&x, s->ctx);
    int node = at(&x, s->W[v], 2, s->ny, 2, s->nx);
    if (!x.err) x.err = mn_expr_eval(x.e, node, s->u[v]);
    int err = ex_end(&x);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}

int swex_destroy(swe *s) {
  for (int v = 0; v < NV; v++) {
    mn_array_destroy(&s->Wi[v]);
    mn_array_destroy(&s->W[v]);
    mn_array_destroy(&s->W1[v]);
    mn_array_destroy(&s->F[v]);
    mn_array_destroy(&s->G[v]);
  }
  mn_array_destroy(&s->Bc);
  mn_array_destroy(&s->Bfx);
  mn_array_destroy(&s->Bfy);
  return MN_SUCCESS;
}
