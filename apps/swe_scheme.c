/* The swe scheme on this rank's block: Kurganov-Petrova (2007) central-upwind
 * fluxes with generalised-minmod reconstruction of w = h + b, their
 * correction at dry faces, desingularised velocities, and SSP-RK2. The state
 * lives in maniple arrays of shape (ny, nx) with a halo of 2; a reusable halo
 * plan per array fills ghosts between ranks (and across periodic sides), and
 * the boundary ranks fill the other ghosts. Every expression is written as in
 * apps/swe.py, in the same order, so both give the same bits. */
#include "swe_impl.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* numpy.maximum / minimum on numbers (no NaN here): a where a and b are
 * equal (-0.0 and 0.0), as NumPy's. Written b first, so that GCC makes
 * each one vmaxpd / vminpd rather than a compare and a blend. */
static inline double mx(double a, double b) { return b > a ? b : a; }
static inline double mn(double a, double b) { return b < a ? b : a; }

#define BED(s, j, i) (s)->bed[((j) + 2) * ((s)->n[1] + 4) + (i) + 2]
#define BFX(s, j, i) (s)->bfx[((j) + 2) * ((s)->n[1] + 5) + (i) + 2]
#define BFY(s, j, i) (s)->bfy[((j) + 2) * ((s)->n[1] + 4) + (i) + 2]

/* n rounded up so that arrays n elements apart start 320 bytes apart
 * modulo 4 KiB: row buffers of 512 cells (4 KiB) side by side had every
 * component at the same offset within a page, and the loads of one
 * loop waited on stores to the others (4K aliasing) */
static int64_t spread(int64_t n) { return n + ((40 - n % 512) + 512) % 512; }

double swe_time(const swe *s) { return s->t; }
long swe_steps(const swe *s) { return s->steps; }
int64_t swe_nx(const swe *s) { return s->nx; }
int64_t swe_ny(const swe *s) { return s->ny; }
double swe_mass0(const swe *s) { return s->mass0; }
mn_array *swe_hu(swe *s) { return s->exprs ? s->Wi[1] : s->u[1]; }
mn_array *swe_hv(swe *s) { return s->exprs ? s->Wi[2] : s->u[2]; }
int swe_exprs(const swe *s) { return s->exprs; }

/* ---- bed: vertices mirrored (wrapped if periodic) past the boundary ---- */
static int64_t vmap(int64_t g, int64_t n, int periodic) {
  if (g < 0) return periodic ? n + g : -g;
  if (g > n) return periodic ? g - n : 2 * n - g;
  return g;
}

double swe_vertex(const swe *s, int64_t gj, int64_t gi) {
  int64_t i = vmap(gi, s->nx, s->bc[SWE_WEST].kind == SWE_PERIODIC);
  int64_t j = vmap(gj, s->ny, s->bc[SWE_SOUTH].kind == SWE_PERIODIC);
  return swe_bed(s->c, (double)i * s->dx, (double)j * s->dy);
}

static void bed_setup(swe *s) {
  int64_t n0 = s->n[0], n1 = s->n[1];
  for (int64_t j = -2; j < n0 + 3; j++)
    for (int64_t i = -2; i < n1 + 3; i++) {
      int64_t gj = s->lo[0] + j, gi = s->lo[1] + i;
      double v00 = swe_vertex(s, gj, gi);
      if (j < n0 + 2) BFX(s, j, i) = 0.5 * (v00 + swe_vertex(s, gj + 1, gi));
      if (i < n1 + 2) BFY(s, j, i) = 0.5 * (v00 + swe_vertex(s, gj, gi + 1));
      if (j < n0 + 2 && i < n1 + 2)
        BED(s, j, i) = 0.25 * (v00 + swe_vertex(s, gj, gi + 1) + swe_vertex(s, gj + 1, gi) + swe_vertex(s, gj + 1, gi + 1));
    }
}

/* ---- ghost cells on the domain's non-periodic sides ---- */
static void fill_side(swe *s, double **q, int side) {
  const swe_bc *b = &s->bc[side];
  int xside = side == SWE_WEST || side == SWE_EAST;
  int64_t len = xside ? s->n[0] : s->n[1], last = xside ? s->n[1] - 1 : s->n[0] - 1;
  double *w = q[0], *nrm = xside ? q[1] : q[2], *tan = xside ? q[2] : q[1];
  double sign = (side == SWE_WEST || side == SWE_SOUTH) ? 1.0 : -1.0; /* inward */
  for (int64_t m = 0; m < len; m++)
    for (int k = 0; k < 2; k++) {
      int64_t gc, sc; /* ghost and source positions along the normal */
      if (side == SWE_WEST || side == SWE_SOUTH) { gc = -1 - k; sc = k; }
      else { gc = last + 1 + k; sc = last - k; }
      int64_t g = xside ? m * s->rs + gc : gc * s->rs + m;
      int64_t src = xside ? m * s->rs + sc : sc * s->rs + m;
      double bg = xside ? BED(s, m, gc) : BED(s, gc, m);
      switch (b->kind) {
      case SWE_WALL: w[g] = w[src]; nrm[g] = -nrm[src]; tan[g] = tan[src]; break;
      case SWE_INFLOW: w[g] = w[src]; nrm[g] = sign * b->value; tan[g] = 0.0; break;
      case SWE_OUTFLOW:
        w[g] = b->has_value ? b->value + bg : w[src];
        nrm[g] = nrm[src];
        tan[g] = tan[src];
        break;
      default: break;
      }
    }
}

static int fill_ghosts(swe *s, double **q, mn_plan **p) {
  for (int v = 0; v < NV; v++) MN_CALL(mn_plan_begin(p[v]));
  for (int v = 0; v < NV; v++) MN_CALL(mn_plan_end(p[v]));
  int at[4] = {s->lo[1] == 0, s->lo[1] + s->n[1] == s->nx, s->lo[0] == 0, s->lo[0] + s->n[0] == s->ny};
  for (int side = 0; side < 4; side++)
    if (at[side] && s->bc[side].kind != SWE_PERIODIC) fill_side(s, q, side);
  return MN_SUCCESS;
}

/* ---- reconstruction and fluxes ---- */
static inline void recon(double th, double ql, double qc, double qr, double *plus, double *minus) {
  double a = th * (qc - ql), b = 0.5 * (qr - ql), c = th * (qr - qc);
  double sl = mx(mn(mn(a, b), c), 0.0) + mn(mx(mx(a, b), c), 0.0);
  *plus = qc + 0.5 * sl;
  *minus = qc - 0.5 * sl;
}

/* GCC vectorises the row loops below (sqrt, divisions and the selects
 * included) where they are compiled for AVX-512 or AVX2: target clones,
 * chosen at load time. No FMA (-ffp-contract=off: apps/CMakeLists.txt), so
 * every value keeps the rounding apps/swe.py's has. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define SWE_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SWE_CLONES
#endif

/* Face values of n cells along a row, plus and minus (each stored apart,
 * so that the loops vectorise): w, with KP's correction at faces where it
 * would fall below the bed (bm, bp: the bed at each cell's minus and plus
 * faces), and a discharge q. d = stride to the next cell along the axis.
 * (Two loops: GCC vectorised neither clone of the one loop that did both.) */
SWE_CLONES static void recon_w_row(int64_t n, int64_t d, double th, const double *w, const double *restrict bm,
                                   const double *restrict bp, double *restrict r0, double *restrict r1) {
  for (int64_t i = 0; i < n; i++) {
    double wc = w[i], wp, wm, b0 = bm[i], b1 = bp[i];
    recon(th, w[i - d], wc, w[i + d], &wp, &wm);
    /* (every value made, then selected: the loop vectorises) */
    double cp = 2.0 * wc - b1, cm = 2.0 * wc - b0;
    double p0 = wm < b0 ? cm : wp, p1 = wm < b0 ? b0 : wm;
    r0[i] = wp < b1 ? b1 : p0;
    r1[i] = wp < b1 ? cp : p1;
  }
}

SWE_CLONES static void recon_q_row(int64_t n, int64_t d, double th, const double *q, double *restrict rp,
                                   double *restrict rm) {
  for (int64_t i = 0; i < n; i++) recon(th, q[i - d], q[i], q[i + d], &rp[i], &rm[i]);
}

/* w's, the normal discharge's and the tangential one's face values (r) */
static void recon_row(int64_t n, int64_t d, double th, const double *w, const double *qn, const double *qt,
                      const double *bm, const double *bp, double *const r[NREC]) {
  recon_w_row(n, d, th, w, bm, bp, r[0], r[1]);
  recon_q_row(n, d, th, qn, r[2], r[3]);
  recon_q_row(n, d, th, qt, r[4], r[5]);
}

/* KP's desingularised velocity q / h (0 where h is 0), from the common
 * denominator r = sqrt(h^4 + max(h^4, eps)) of a side's two velocities:
 * one square root for both (GCC merged the two that apps/swe.py writes) */
static inline double velocity(double h, double q, double r) { return sqrt(2.0) * h * q / r; }

static inline double vel_root(double h, double eps) {
  double h4 = h * h * h * h;
  return sqrt(h4 + mx(h4, eps));
}

/* Central-upwind fluxes over n faces: between the plus values (wL, nL, tL)
 * of the cell before each face and the minus values (wR, nR, tR) of the
 * cell after it, over a face of bed b; spd: the larger one-sided speed. */
SWE_CLONES static void flux_row(int64_t n, const double *restrict wL_, const double *restrict wR_,
                                const double *restrict nL, const double *restrict nR, const double *restrict tL_,
                                const double *restrict tR_, const double *restrict b, double eps,
                                double *restrict f0, double *restrict f1, double *restrict f2,
                                double *restrict spd) {
  const double G = SWE_G;
  for (int64_t i = 0; i < n; i++) {
    double wL = wL_[i], wR = wR_[i];
    double hL = mx(wL - b[i], 0.0), hR = mx(wR - b[i], 0.0);
    double rL = vel_root(hL, eps), rR = vel_root(hR, eps);
    double uL = velocity(hL, nL[i], rL), uR = velocity(hR, nR[i], rR);
    double vL = velocity(hL, tL_[i], rL), vR = velocity(hR, tR_[i], rR);
    double qL = hL * uL, qR = hR * uR, tL = hL * vL, tR = hR * vR;
    double cL = sqrt(G * hL), cR = sqrt(G * hR);
    double ap = mx(mx(uR + cR, uL + cL), 0.0);
    double am = mn(mn(uR - cR, uL - cL), 0.0);
    double inv = 1.0 / mx(ap - am, TINY);
    double diff = ap * am * inv;
    f0[i] = (ap * qL - am * qR) * inv + diff * (wR - wL);
    f1[i] = (ap * (qL * uL + 0.5 * G * hL * hL) - am * (qR * uR + 0.5 * G * hR * hR)) * inv + diff * (qR - qL);
    f2[i] = (ap * (qL * vL) - am * (qR * vR)) * inv + diff * (tR - tL);
    spd[i] = mx(ap, -am);
  }
}

/* dU/dt of one row of n cells from its x-face fluxes (fx at the cells'
 * west faces, one more at the end), y-face fluxes (fy at the south faces,
 * fn at the north ones), depth from w and the bed, and the bed's
 * differences across each cell. */
SWE_CLONES static void rhs_row(int64_t n, double dx, double dy, const double *restrict w,
                               const double *restrict bed, const double *restrict bx, const double *restrict by,
                               const double *restrict byn, const double *const fx[3], const double *const fs[3],
                               const double *const fn[3], double *restrict l0, double *restrict l1,
                               double *restrict l2) {
  const double G = SWE_G;
  const double *restrict x0 = fx[0], *restrict x1 = fx[1], *restrict x2 = fx[2];
  const double *restrict s0 = fs[0], *restrict s1 = fs[1], *restrict s2 = fs[2];
  const double *restrict n0 = fn[0], *restrict n1 = fn[1], *restrict n2 = fn[2];
  for (int64_t i = 0; i < n; i++) {
    double h = w[i] - bed[i];
    double dBx = bx[i + 1] - bx[i], dBy = byn[i] - by[i];
    l0[i] = -(x0[i + 1] - x0[i]) / dx - (n0[i] - s0[i]) / dy;
    l1[i] = -(x1[i + 1] - x1[i]) / dx - (n1[i] - s1[i]) / dy - G * h * dBx / dx;
    l2[i] = -(x2[i + 1] - x2[i]) / dx - (n2[i] - s2[i]) / dy - G * h * dBy / dy;
  }
}

/* max(m, x[0..n-1]), in 8 lanes (vectorised; the same value in any order
 * for numbers) */
SWE_CLONES static double row_max(int64_t n, const double *restrict x, double m) {
  double p[8] = {m, m, m, m, m, m, m, m};
  int64_t i = 0;
  for (; i + 8 <= n; i += 8)
    for (int k = 0; k < 8; k++) p[k] = mx(p[k], x[i + k]);
  for (; i < n; i++) p[0] = mx(p[0], x[i]);
  for (int k = 1; k < 8; k++) p[0] = mx(p[0], p[k]);
  return p[0];
}

/* The NREC components of a row buffer r whose components lie m apart */
static void components(double *r, int64_t m, double *rk[NREC]) {
  for (int k = 0; k < NREC; k++) rk[k] = r + k * m;
}

/* The y-face values of cell row j (-1..n0) into ring slot (j + 1) & 1 */
static void recon_y(swe *s, double **q, int64_t j) {
  const int64_t n1 = s->n[1], c = j * s->rs;
  double *rk[NREC];
  components(s->recy + ((j + 1) & 1) * n1, s->mys, rk);
  recon_row(n1, s->rs, s->theta, q[0] + c, q[2] + c, q[1] + c, &BFY(s, j, 0), &BFY(s, j + 1, 0), rk);
}

/* The fluxes of w, hv, hu over y-face row f (between cell rows f - 1 and
 * f, ring slots f & 1 and (f + 1) & 1) into fy's slot f & 1; returns the
 * largest speed and sp's (stage 0) */
static double flux_y(swe *s, int64_t f, double sp, int stage) {
  const int64_t n1 = s->n[1], m = s->mys, oL = (f & 1) * n1, oR = ((f + 1) & 1) * n1;
  const double *r = s->recy;
  double *spd = s->spd;
  flux_row(n1, r + oL, r + m + oR, r + 2 * m + oL, r + 3 * m + oR, r + 4 * m + oL, r + 5 * m + oR, &BFY(s, f, 0),
           s->eps, s->fy[0] + oL, s->fy[2] + oL, s->fy[1] + oL, spd);
  return stage ? sp : row_max(n1, spd, sp);
}

/* SSP-RK2 over a row of n cells, from dU/dt l: stage 1, q1 = q + dt l;
 * stage 2, q = q/2 + (q1 + dt l)/2. w no lower than the bed: round-off
 * must not leave a negative depth. */
SWE_CLONES static void stage1_row(int64_t n, double dt, const double *restrict q0, const double *restrict qa,
                                  const double *restrict qb, const double *restrict l0, const double *restrict la,
                                  const double *restrict lb, const double *restrict bed, double *restrict o0,
                                  double *restrict oa, double *restrict ob) {
  for (int64_t i = 0; i < n; i++) {
    o0[i] = mx(q0[i] + dt * l0[i], bed[i]);
    oa[i] = qa[i] + dt * la[i];
    ob[i] = qb[i] + dt * lb[i];
  }
}

SWE_CLONES static void stage2_row(int64_t n, double dt, double *restrict q0, double *restrict qa,
                                  double *restrict qb, const double *restrict p0, const double *restrict pa,
                                  const double *restrict pb, const double *restrict l0, const double *restrict la,
                                  const double *restrict lb, const double *restrict bed) {
  for (int64_t i = 0; i < n; i++) {
    q0[i] = mx(0.5 * q0[i] + 0.5 * (p0[i] + dt * l0[i]), bed[i]);
    qa[i] = 0.5 * qa[i] + 0.5 * (pa[i] + dt * la[i]);
    qb[i] = 0.5 * qb[i] + 0.5 * (pb[i] + dt * lb[i]);
  }
}

/* dU/dt of a stage's state, in one sweep over the rows: row j's x-faces,
 * the y-faces above it and its dU/dt, so that the face values and fluxes
 * live in row buffers (a ring of two rows along y) that stay in cache.
 * Stage 0 (of q): dU/dt into s->rhs, and the global largest speeds along
 * x and y (ax, ay), which set the step. Stage 1 (of q1): each row's dU/dt
 * into a row buffer and straight into stage 2's update of q, with the
 * step dt; no speeds (the step is set), so no reduction. */
static int rhs(swe *s, int stage, double dt, double *ax, double *ay) {
  double **q = stage ? s->q1 : s->q;
  MN_CALL(fill_ghosts(s, q, stage ? s->p1 : s->p));
  const int64_t n0 = s->n[0], n1 = s->n[1], rs = s->rs, m = s->mxs;
  double sp[2] = {0.0, 0.0}, *spd = s->spd, *r = s->recx, *rk[NREC];
  components(r, m, rk);
  if (n0 > 0) {
    recon_y(s, q, -1);
    recon_y(s, q, 0);
    sp[1] = flux_y(s, 0, sp[1], stage);
  }
  for (int64_t j = 0; j < n0; j++) {
    recon_y(s, q, j + 1); /* the y-faces above row j */
    sp[1] = flux_y(s, j + 1, sp[1], stage);
    int64_t c = j * rs - 1; /* along x: cells -1..n1, faces 0..n1 */
    recon_row(n1 + 2, 1, s->theta, q[0] + c, q[1] + c, q[2] + c, &BFX(s, j, -1), &BFX(s, j, 0), rk);
    flux_row(n1 + 1, r, r + m + 1, r + 2 * m, r + 3 * m + 1, r + 4 * m, r + 5 * m + 1, &BFX(s, j, 0), s->eps,
             s->fx[0], s->fx[1], s->fx[2], spd);
    if (!stage) sp[0] = row_max(n1 + 1, spd, sp[0]);
    int64_t oS = (j & 1) * n1, oN = ((j + 1) & 1) * n1, o = j * rs;
    const double *fx[3] = {s->fx[0], s->fx[1], s->fx[2]};
    const double *fs[3] = {s->fy[0] + oS, s->fy[1] + oS, s->fy[2] + oS};
    const double *fn[3] = {s->fy[0] + oN, s->fy[1] + oN, s->fy[2] + oN};
    double *L[3] = {s->rhs[0] + j * n1, s->rhs[1] + j * n1, s->rhs[2] + j * n1};
    if (stage) for (int v = 0; v < NV; v++) L[v] = s->lrow + v * spread(n1);
    rhs_row(n1, s->dx, s->dy, q[0] + o, &BED(s, j, 0), &BFX(s, j, 0), &BFY(s, j, 0), &BFY(s, j + 1, 0), fx, fs, fn,
            L[0], L[1], L[2]);
    if (stage)
      stage2_row(n1, dt, s->q[0] + o, s->q[1] + o, s->q[2] + o, q[0] + o, q[1] + o, q[2] + o, L[0], L[1], L[2],
                 &BED(s, j, 0));
  }
  if (stage) return MN_SUCCESS;
  double gsp[2];
  MPI_Allreduce(sp, gsp, 2, MPI_DOUBLE, MPI_MAX, mn_ctx_comm(s->ctx));
  *ax = gsp[0];
  *ay = gsp[1];
  return MN_SUCCESS;
}

static int advance(swe *s, double dt, double *taken) {
  s->t += dt;
  s->steps++;
  if (taken) *taken = dt;
  return MN_SUCCESS;
}

int swe_step(swe *s, double cfl, double dt, double t_end, double *taken) {
  double ax, ay;
  if (s->exprs) MN_CALL(swex_fluxes(s, 0, &ax, &ay));
  else MN_CALL(rhs(s, 0, 0.0, &ax, &ay));
  double limit = cfl * fmin(ax > 0 ? s->dx / ax : INFINITY, ay > 0 ? s->dy / ay : INFINITY);
  if (dt <= 0) dt = limit;
  else
    MN_CHECK(dt <= limit, MN_ERR_ARG, "--dt %g violates the CFL condition at t = %g: the stable limit is %g (cfl %g)",
             dt, s->t, limit, cfl);
  if (t_end > 0 && s->t + dt > t_end) dt = t_end - s->t;
  MN_CHECK(isfinite(dt), MN_ERR_ARG, "no wave moves (all cells dry): no time step from cfl %g; give --dt", cfl);
  if (s->exprs) {
    MN_CALL(swex_update(s, 0, dt));
    MN_CALL(swex_fluxes(s, 1, NULL, NULL)); /* the step is set: no speeds */
    MN_CALL(swex_update(s, 1, dt));
    return advance(s, dt, taken);
  }
  const int64_t n0 = s->n[0], n1 = s->n[1], rs = s->rs;
  double **q = s->q, **q1 = s->q1, **L = s->rhs;
  for (int64_t j = 0; j < n0; j++) {
    int64_t o = j * rs, c = j * n1;
    stage1_row(n1, dt, q[0] + o, q[1] + o, q[2] + o, L[0] + c, L[1] + c, L[2] + c, &BED(s, j, 0), q1[0] + o,
               q1[1] + o, q1[2] + o);
  }
  MN_CALL(rhs(s, 1, dt, NULL, NULL)); /* and stage 2 */
  return advance(s, dt, taken);
}

/* the volume of the loops' arrays (current on their path, or after a sync) */
static int mass_of_loops(swe *s, double *m) {
  double loc = 0.0, tot;
  for (int64_t j = 0; j < s->n[0]; j++)
    for (int64_t i = 0; i < s->n[1]; i++) loc += s->q[0][j * s->rs + i] - BED(s, j, i);
  MPI_Allreduce(&loc, &tot, 1, MPI_DOUBLE, MPI_SUM, mn_ctx_comm(s->ctx));
  *m = tot * s->dx * s->dy;
  return MN_SUCCESS;
}

int swe_mass(swe *s, double *m) {
  if (s->exprs) MN_CALL(swex_sync(s));
  return mass_of_loops(s, m);
}

int swe_depth(swe *s, mn_array **h) {
  if (s->exprs) MN_CALL(swex_sync(s));
  MN_CALL(mn_array_create_on(mn_array_layout(s->u[0]), MN_FLOAT64, 0, h));
  mn_local loc;
  MN_CALL(mn_array_local(*h, &loc));
  double *d = loc.data;
  for (int64_t j = 0; j < s->n[0]; j++)
    for (int64_t i = 0; i < s->n[1]; i++)
      d[j * loc.stride[0] + i * loc.stride[1]] = s->q[0][j * s->rs + i] - BED(s, j, i);
  return MN_SUCCESS;
}

/* ---- the checks (as check() in apps/swe.py) ---- */
int swe_check(swe *s, swe_result *r) {
  memset(r, 0, sizeof *r);
  if (s->exprs) MN_CALL(swex_sync(s));
  MPI_Comm comm = mn_ctx_comm(s->ctx);
  const int64_t n0 = s->n[0], n1 = s->n[1], rs = s->rs;
  double e[2] = {0.0, 0.0}, ge[2];
  switch (s->c->check) {
  case SWE_CHECK_DAMBREAK:
    for (int64_t j = 0; j < n0; j++)
      for (int64_t i = 0; i < n1; i++) {
        double x = ((double)(s->lo[1] + i) + 0.5) * s->dx;
        e[0] += fabs(s->q[0][j * rs + i] - BED(s, j, i) - swe_dambreak_depth(x, s->t, 5.0, s->hl, s->hr));
      }
    MPI_Allreduce(e, ge, 1, MPI_DOUBLE, MPI_SUM, comm);
    r->error = ge[0] / (double)(s->nx * s->ny);
    r->tol = s->hl / (double)s->nx; /* first order at the shock and the front */
    snprintf(r->name, sizeof r->name, "%s dam break L1(h)", s->hr == 0.0 ? "ritter" : "stoker");
    r->ok = r->error < r->tol;
    return MN_SUCCESS;
  case SWE_CHECK_LAKE:
    for (int64_t j = 0; j < n0; j++)
      for (int64_t i = 0; i < n1; i++) {
        int64_t o = j * rs + i;
        e[0] = mx(e[0], mx(fabs(s->q[0][o] - mx(BED(s, j, i), 1.0)), mx(fabs(s->q[1][o]), fabs(s->q[2][o]))));
      }
    MPI_Allreduce(e, ge, 1, MPI_DOUBLE, MPI_MAX, comm);
    r->error = ge[0];
    r->tol = 1e-12;
    snprintf(r->name, sizeof r->name, "lake at rest max(|w - w0|, |hu|, |hv|)");
    r->ok = r->error < r->tol;
    return MN_SUCCESS;
  case SWE_CHECK_BUMP: {
    MN_CHECK(s->bc[SWE_WEST].kind == SWE_INFLOW && s->bc[SWE_EAST].kind == SWE_OUTFLOW && s->bc[SWE_EAST].has_value,
             MN_ERR_ARG, "the bump check needs an inflow:q west and an outflow:h east boundary");
    double q = s->bc[SWE_WEST].value, hout = s->bc[SWE_EAST].value;
    for (int64_t j = 0; j < n0; j++)
      for (int64_t i = 0; i < n1; i++) {
        int64_t o = j * rs + i;
        double b = BED(s, j, i);
        e[0] = mx(e[0], fabs(s->q[0][o] - b - swe_bernoulli_depth(b, q, hout)));
        e[1] = mx(e[1], fabs(s->q[1][o] - q));
      }
    MPI_Allreduce(e, ge, 2, MPI_DOUBLE, MPI_MAX, comm);
    r->error = ge[0];
    r->error_q = ge[1];
    r->tol = 0.5 / (double)s->nx; /* first order: the bed's slope jumps at x = 8 and 12 */
    snprintf(r->name, sizeof r->name, "bump vs Bernoulli max|h - hB| (max|hu - %g| = %.3e)", q, ge[1]);
    r->ok = r->error < r->tol && r->error_q < 5.0 * r->tol;
    return MN_SUCCESS;
  }
  default: {
    double m;
    MN_CALL(mass_of_loops(s, &m)); /* synced above */
    r->error = fabs(m - s->mass0) / s->mass0;
    r->tol = 1e-13;
    snprintf(r->name, sizeof r->name, "relative mass drift");
    r->ok = r->error < r->tol;
    return MN_SUCCESS;
  }
  }
}

/* ---- creation ---- */
/* Process grid: maniple's choice, else all ranks along the longer axis, so
 * that every rank owns at least 2 cells along each split axis (the halo). */
static int choose_dims(mn_ctx *ctx, int64_t ny, int64_t nx, int *dims) {
  int size = mn_ctx_size(ctx);
  int64_t shape[2] = {ny, nx};
  MN_CALL(mn_grid_dims(size, 2, shape, dims));
  if (ny / dims[0] >= 2 && nx / dims[1] >= 2) return MN_SUCCESS;
  dims[0] = nx >= ny ? 1 : size;
  dims[1] = nx >= ny ? size : 1;
  MN_CHECK(ny / dims[0] >= 2 && nx / dims[1] >= 2, MN_ERR_ARG,
           "grid %lld x %lld is too small for %d ranks: the 2-ghost-cell stencil needs at least 2 cells per rank "
           "along each split axis",
           (long long)nx, (long long)ny, size);
  return MN_SUCCESS;
}

static int create_state(swe *s) {
  int dims[2];
  MN_CALL(choose_dims(s->ctx, s->ny, s->nx, dims));
  int64_t shape[2] = {s->ny, s->nx};
  mn_layout *lay = NULL;
  MN_CALL(mn_layout_create_block(s->ctx, 2, shape, dims, &lay));
  int periodic[2] = {s->bc[SWE_SOUTH].kind == SWE_PERIODIC, s->bc[SWE_WEST].kind == SWE_PERIODIC};
  int err = 0;
  for (int v = 0; v < NV && !err; v++) {
    err = mn_array_create_on(lay, MN_FLOAT64, 2, &s->u[v]);
    if (!err) err = mn_array_create_on(lay, MN_FLOAT64, 2, &s->u1[v]);
    if (!err) err = mn_plan_create_halo(s->u[v], periodic, &s->p[v]);
    if (!err) err = mn_plan_create_halo(s->u1[v], periodic, &s->p1[v]);
  }
  mn_layout_destroy(&lay);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  mn_local loc;
  for (int v = 0; v < NV; v++) {
    MN_CALL(mn_array_local(s->u[v], &loc));
    s->q[v] = loc.data;
    MN_CALL(mn_array_local(s->u1[v], &loc));
    s->q1[v] = loc.data;
  }
  for (int d = 0; d < 2; d++) { s->lo[d] = loc.lo[d]; s->n[d] = loc.count[d]; }
  s->rs = loc.stride[0];
  MN_CHECK(loc.stride[1] == 1, MN_ERR_ARG, "unexpected column stride %lld", (long long)loc.stride[1]);
  return MN_SUCCESS;
}

static int alloc_local(swe *s) {
  int64_t n0 = s->n[0], n1 = s->n[1];
  int64_t cells = spread(n0 * n1);
  s->mxs = spread(n1 + 2);
  s->mys = spread(2 * n1);
  s->bed = malloc(sizeof(double) * (size_t)((n0 + 4) * (n1 + 4)));
  s->bfx = malloc(sizeof(double) * (size_t)((n0 + 4) * (n1 + 5)));
  s->bfy = malloc(sizeof(double) * (size_t)((n0 + 5) * (n1 + 4)));
  s->recx = malloc(sizeof(double) * NREC * (size_t)s->mxs); /* one row */
  s->recy = malloc(sizeof(double) * NREC * (size_t)s->mys); /* a ring of two rows */
  s->spd = malloc(sizeof(double) * (size_t)(n1 + 1));
  s->lrow = malloc(sizeof(double) * NV * (size_t)spread(n1)); /* stage 2's dU/dt of one row */
  s->fxb = malloc(sizeof(double) * NV * (size_t)spread(n1 + 1)); /* one row */
  s->fyb = malloc(sizeof(double) * NV * (size_t)spread(2 * n1)); /* a ring of two */
  s->rhsb = malloc(sizeof(double) * NV * (size_t)cells);
  int ok = s->bed && s->bfx && s->bfy && s->recx && s->recy && s->spd && s->lrow && s->fxb && s->fyb && s->rhsb;
  for (int v = 0; v < NV && ok; v++) {
    s->fx[v] = s->fxb + v * spread(n1 + 1);
    s->fy[v] = s->fyb + v * spread(2 * n1);
    s->rhs[v] = s->rhsb + v * cells;
  }
  int all;
  MPI_Allreduce(&ok, &all, 1, MPI_INT, MPI_MIN, mn_ctx_comm(s->ctx));
  MN_CHECK(all, MN_ERR_MEM, "cannot allocate the local work arrays (%lld x %lld cells on some rank)",
           (long long)n0, (long long)n1);
  return MN_SUCCESS;
}

static int setup(swe *s, const swe_opts *o) {
  s->c = swe_case_find(o->case_name ? o->case_name : "dambreak1d");
  MN_CHECK(s->c, MN_ERR_ARG, "--case '%s' is not one of %s", o->case_name, swe_case_names());
  s->nx = o->nx < 0 ? s->c->nx : o->nx;
  s->ny = o->ny < 0 ? s->c->ny : o->ny;
  MN_CHECK(s->nx >= 2 && s->ny >= 2, MN_ERR_ARG,
           "grid %lld x %lld is too small: the 2-ghost-cell stencil needs nx >= 2 and ny >= 2", (long long)s->nx,
           (long long)s->ny);
  MN_CHECK(o->theta >= 1.0 && o->theta <= 2.0, MN_ERR_ARG, "--theta %g is outside [1, 2] (generalised minmod)",
           o->theta);
  s->theta = o->theta;
  s->dx = s->c->lx / (double)s->nx;
  s->dy = s->c->ly > 0 ? s->c->ly / (double)s->ny : s->dx;
  s->eps = pow(s->dx > s->dy ? s->dx : s->dy, 4.0); /* KP's desingularisation scale */
  s->hl = isnan(o->hl) ? s->c->hl : o->hl;
  s->hr = isnan(o->hr) ? s->c->hr : o->hr;
  MN_CALL(swe_parse_bc(o->bc ? o->bc : s->c->bc, s->bc));
  MN_CALL(create_state(s));
  MN_CALL(alloc_local(s));
  bed_setup(s);
  double hmin = INFINITY, ghmin;
  for (int64_t j = 0; j < s->n[0]; j++)
    for (int64_t i = 0; i < s->n[1]; i++) {
      double x = ((double)(s->lo[1] + i + 2) - 1.5) * s->dx, y = ((double)(s->lo[0] + j + 2) - 1.5) * s->dy;
      int64_t at = j * s->rs + i;
      swe_initial(s->c, s->hl, s->hr, x, y, BED(s, j, i), &s->q[0][at], &s->q[1][at], &s->q[2][at]);
      hmin = fmin(hmin, s->q[0][at] - BED(s, j, i));
    }
  MPI_Allreduce(&hmin, &ghmin, 1, MPI_DOUBLE, MPI_MIN, mn_ctx_comm(s->ctx));
  MN_CHECK(ghmin >= 0, MN_ERR_ARG, "initial depth is negative: min h = %g (case %s)", ghmin, s->c->name);
  MN_CALL(mass_of_loops(s, &s->mass0)); /* before the expressions' arrays take the state */
  if (s->exprs) MN_CALL(swex_setup(s));
  return MN_SUCCESS;
}

int swe_create(mn_ctx *ctx, const swe_opts *o, swe **out) {
  MN_CHECK(ctx && o && out, MN_ERR_ARG, "NULL context, options or output pointer");
  swe *s = calloc(1, sizeof *s);
  MN_CHECK(s, MN_ERR_MEM, "cannot allocate the swe state");
  s->ctx = ctx;
  s->exprs = o->scheme == SWE_EXPRS || (o->scheme == SWE_AUTO && mn_ctx_backend(ctx) != MN_BACKEND_CPU);
  int err = setup(s, o);
  if (err) {
    swe_destroy(&s);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  *out = s;
  return MN_SUCCESS;
}

int swe_destroy(swe **sp) {
  if (!sp || !*sp) return MN_SUCCESS;
  swe *s = *sp;
  swex_destroy(s);
  for (int v = 0; v < NV; v++) {
    mn_plan_destroy(&s->p[v]);
    mn_plan_destroy(&s->p1[v]);
    mn_array_destroy(&s->u[v]);
    mn_array_destroy(&s->u1[v]);
  }
  free(s->bed);
  free(s->bfx);
  free(s->bfy);
  free(s->recx);
  free(s->recy);
  free(s->fxb);
  free(s->fyb);
  free(s->rhsb);
  free(s->spd);
  free(s->lrow);
  free(s);
  *sp = NULL;
  return MN_SUCCESS;
}
