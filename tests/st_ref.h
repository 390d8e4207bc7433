/* Serial stencil reference for the stencil tests: the whole grid in one
 * padded buffer, ghosts filled by the boundary conditions as the library
 * documents them (periodic wrap first, then the physical axes in order,
 * each over the other axes' ghost ranges), then plain loops. */
#ifndef MANIPLE_ST_REF_H
#define MANIPLE_ST_REF_H
#include "mn_test.h"
#include <maniple/mn_stencil.h>

typedef struct {
  int nd, npts;
  int off[64 * 3];
  double w[64];
  const double *coef[64]; /* global C-order coefficient arrays, or NULL */
  mn_bc_kind kind[3][2];
  double val[3][2];
} st_ref;

static inline void st_ref_from(st_ref *r, const mn_stencil *s) {
  memset(r, 0, sizeof *r);
  r->nd = mn_stencil_ndim(s);
  r->npts = mn_stencil_npts(s);
  mn_stencil_get_points(s, r->off, r->w);
  for (int d = 0; d < r->nd; d++)
    for (int side = 0; side < 2; side++) mn_stencil_get_bc(s, d, side, &r->kind[d][side], &r->val[d][side]);
}

static inline void st_decode(int nd, const int64_t *P, const int *reach, int64_t q, int64_t *g) {
  for (int d = nd - 1; d >= 0; d--) { g[d] = q % P[d] - reach[d]; q /= P[d]; }
}
static inline int64_t st_pad(int nd, const int64_t *P, const int *reach, const int64_t *g) {
  int64_t o = 0;
  for (int d = 0; d < nd; d++) o = o * P[d] + g[d] + reach[d];
  return o;
}
static inline int64_t st_flat(int nd, const int64_t *n, const int64_t *g) {
  int64_t o = 0;
  for (int d = 0; d < nd; d++) o = o * n[d] + g[d];
  return o;
}

/* y = A u and, in scale, sum_k |w_k u_k| (for tolerances) */
static inline void st_ref_apply(const st_ref *r, const int64_t *shape, const double *u, double *y, double *scale) {
  int nd = r->nd, reach[3] = {0, 0, 0};
  for (int k = 0; k < r->npts; k++)
    for (int d = 0; d < nd; d++) {
      int o = abs(r->off[k * nd + d]);
      if (o > reach[d]) reach[d] = o;
    }
  int64_t P[3] = {1, 1, 1}, n[3] = {1, 1, 1}, tot = 1, ntot = 1;
  for (int d = 0; d < nd; d++) {
    n[d] = shape[d];
    P[d] = shape[d] + 2 * reach[d];
    tot *= P[d];
    ntot *= n[d];
  }
  double *p = malloc(sizeof(double) * (size_t)tot);
  for (int64_t q = 0; q < tot; q++) {
    int64_t g[3];
    st_decode(nd, P, reach, q, g);
    int inside = 1, wrap = 1;
    for (int d = 0; d < nd; d++) {
      if (g[d] >= 0 && g[d] < n[d]) continue;
      inside = 0;
      if (r->kind[d][0] != MN_BC_PERIODIC) wrap = 0;
      else g[d] = (g[d] + n[d]) % n[d];
    }
    p[q] = inside || wrap ? u[st_flat(nd, n, g)] : NAN;
  }
  for (int d = 0; d < nd; d++) {
    if (r->kind[d][0] == MN_BC_PERIODIC) continue;
    for (int64_t q = 0; q < tot; q++) {
      int64_t g[3], m[3];
      st_decode(nd, P, reach, q, g);
      int side = g[d] < 0 ? 0 : g[d] >= n[d] ? 1 : -1;
      if (side < 0) continue;
      memcpy(m, g, sizeof m);
      m[d] = side ? 2 * n[d] - 1 - g[d] : -1 - g[d];
      double v = r->val[d][side], mv = p[st_pad(nd, P, reach, m)];
      mn_bc_kind k = r->kind[d][side];
      p[q] = k == MN_BC_DIRICHLET ? v : k == MN_BC_DIRICHLET_FACE ? 2 * v - mv : mv;
    }
  }
  for (int64_t i = 0; i < ntot; i++) {
    int64_t g[3], h[3], rr = i;
    for (int d = nd - 1; d >= 0; d--) { g[d] = rr % n[d]; rr /= n[d]; }
    double s = 0, a = 0;
    for (int k = 0; k < r->npts; k++) {
      for (int d = 0; d < nd; d++) h[d] = g[d] + r->off[k * nd + d];
      double w = r->coef[k] ? r->coef[k][i] : r->w[k];
      double t = w * p[st_pad(nd, P, reach, h)];
      s += t;
      a += fabs(t);
    }
    y[i] = s;
    if (scale) scale[i] = a;
  }
  free(p);
}

/* The centre weight D at every point (sum of the zero-offset points). */
static inline void st_ref_diag(const st_ref *r, int64_t ntot, double *d) {
  for (int64_t i = 0; i < ntot; i++) {
    d[i] = 0;
    for (int k = 0; k < r->npts; k++) {
      int zero = 1;
      for (int e = 0; e < r->nd; e++) zero &= r->off[k * r->nd + e] == 0;
      if (zero) d[i] += r->coef[k] ? r->coef[k][i] : r->w[k];
    }
  }
}

/* Set a grid from a global double buffer every rank holds. */
static inline void st_set(mn_array *a, const double *g) {
  int64_t n = mn_array_size(a);
  if (mn_array_dtype(a) == MN_FLOAT32) {
    float *f = malloc(sizeof(float) * (size_t)(n ? n : 1));
    for (int64_t i = 0; i < n; i++) f[i] = (float)g[i];
    T_OK(mn_array_set_global(a, f));
    free(f);
  } else {
    T_OK(mn_array_set_global(a, g));
  }
}

/* Compare got to want within tol * (scale + 1e-300); report the first miss. */
static inline void st_compare(const char *what, int64_t n, const double *got, const double *want, const double *scale,
                              double tol) {
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    double lim = tol * (scale ? scale[i] + 1.0 : 1.0 + fabs(want[i]));
    if (!(fabs(got[i] - want[i]) <= lim)) { if (first < 0) first = i; bad++; }
  }
  T_CHECK(bad == 0, "%s: %lld of %lld points differ; first at flat %lld: got %.17g, expected %.17g", what,
          (long long)bad, (long long)n, (long long)first, first >= 0 ? got[first] : 0.0,
          first >= 0 ? want[first] : 0.0);
}

/* Deterministic pseudo-random values in [-1, 1) from (seed, i). */
static inline double st_rand(uint64_t seed, int64_t i) {
  uint64_t x = seed * 0x9E3779B97F4A7C15ull + (uint64_t)i * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  x ^= x >> 31; x *= 0xBF58476D1CE4E5B9ull; x ^= x >> 29; x *= 0x94D049BB133111EBull; x ^= x >> 32;
  return (double)(x >> 11) / 9007199254740992.0 * 2.0 - 1.0;
}
#endif
