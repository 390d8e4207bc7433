/* Test matrices for the solver tests, defined row by row so that every
 * rank assembles its own rows and the test can also build the serial
 * (dense) reference: 2-d and 3-d Poisson, upwind convection-diffusion,
 * a nonsymmetric diagonally dominant matrix, shifted Poisson (indefinite)
 * and a diagonal one. */
#ifndef MT_SOLVER_H
#define MT_SOLVER_H
#include "mn_test.h"

typedef enum { MT_POISSON2, MT_POISSON3, MT_CONVDIFF, MT_DIAGDOM, MT_SHIFTED, MT_DIAG } mt_kind;
typedef struct {
  mt_kind kind;
  int64_t nx, ny, nz;
  double c; /* convection (CONVDIFF), shift (SHIFTED), perturbation of the diagonal (POISSON2) */
} mt_prob;

static inline int64_t mt_n(const mt_prob *p) { return p->nx * p->ny * (p->kind == MT_POISSON3 ? p->nz : 1); }

static inline double mt_hash(int64_t i, int64_t j) { /* deterministic in [0, 1) */
  uint64_t h = (uint64_t)(i * 1000003 + j) * 0x9E3779B97F4A7C15ULL;
  h ^= h >> 29;
  h *= 0xBF58476D1CE4E5B9ULL;
  h ^= h >> 32;
  return (double)(h >> 11) / 9007199254740992.0;
}

/* row i: its columns (ascending) and values; returns the count */
static inline int mt_row(const mt_prob *p, int64_t i, int64_t *cols, double *vals) {
  int k = 0;
#define MT_PUT(c_, v_) do { cols[k] = (c_); vals[k] = (v_); k++; } while (0)
  if (p->kind == MT_DIAG) {
    MT_PUT(i, p->c == (double)i ? 0.0 : 1.0 + (double)(i % 5)); /* a zero at row c */
    return k;
  }
  if (p->kind == MT_POISSON3) {
    int64_t nx = p->nx, ny = p->ny, nz = p->nz, x = i % nx, y = (i / nx) % ny, z = i / (nx * ny);
    if (z > 0) MT_PUT(i - nx * ny, -1.0);
    if (y > 0) MT_PUT(i - nx, -1.0);
    if (x > 0) MT_PUT(i - 1, -1.0);
    MT_PUT(i, 6.0);
    if (x < nx - 1) MT_PUT(i + 1, -1.0);
    if (y < ny - 1) MT_PUT(i + nx, -1.0);
    if (z < nz - 1) MT_PUT(i + nx * ny, -1.0);
    return k;
  }
  int64_t nx = p->nx, ny = p->ny, x = i % nx, y = i / nx;
  double w = -1, e = -1, s = -1, nn = -1, d = 4;
  if (p->kind == MT_POISSON2) d += p->c * (double)(i % 7); /* Jacobi then has work to do */
  if (p->kind == MT_CONVDIFF) { w -= p->c; s -= 0.5 * p->c; d += 1.5 * p->c; } /* upwind, flow to +x +y */
  if (p->kind == MT_SHIFTED) d -= p->c;
  if (p->kind == MT_DIAGDOM) {
    w = -mt_hash(i, 1); e = -2 * mt_hash(i, 2); s = -mt_hash(i, 3); nn = -0.5 * mt_hash(i, 4);
    d = 4.5 + mt_hash(i, 5);
  }
  if (y > 0) MT_PUT(i - nx, s);
  if (x > 0) MT_PUT(i - 1, w);
  MT_PUT(i, d);
  if (x < nx - 1) MT_PUT(i + 1, e);
  if (y < ny - 1) MT_PUT(i + nx, nn);
#undef MT_PUT
  return k;
}

/* the rank's own rows of the problem */
static mn_csr *mt_csr(mn_ctx *ctx, const mt_prob *p) {
  int64_t n = mt_n(p), P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t r0 = mn_split_start(n, (int)P, (int)me), nl = mn_split_size(n, (int)P, (int)me);
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *cols = malloc(sizeof(int64_t) * (size_t)(7 * nl + 1));
  double *vals = malloc(sizeof(double) * (size_t)(7 * nl + 1));
  rp[0] = 0;
  for (int64_t i = 0; i < nl; i++) rp[i + 1] = rp[i] + mt_row(p, r0 + i, cols + rp[i], vals + rp[i]);
  mn_csr *A = NULL;
  T_OK(mn_csr_create_rows(ctx, n, n, MN_FLOAT64, nl, rp, MN_INT64, cols, vals, &A));
  free(rp);
  free(cols);
  free(vals);
  return A;
}

/* y = A x, serially */
static inline void mt_mult(const mt_prob *p, const double *x, double *y) {
  int64_t c[8];
  double v[8];
  for (int64_t i = 0; i < mt_n(p); i++) {
    int k = mt_row(p, i, c, v);
    y[i] = 0;
    for (int q = 0; q < k; q++) y[i] += v[q] * x[c[q]];
  }
}

/* x = A^-1 b by Gaussian elimination with partial pivoting (small n) */
static inline void mt_dense_solve(const mt_prob *p, const double *b, double *x) {
  int64_t n = mt_n(p), c[8];
  double v[8], *a = calloc((size_t)(n * n), sizeof(double)), *r = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) {
    int k = mt_row(p, i, c, v);
    for (int q = 0; q < k; q++) a[i * n + c[q]] = v[q];
    r[i] = b[i];
  }
  for (int64_t j = 0; j < n; j++) {
    int64_t piv = j;
    for (int64_t i = j + 1; i < n; i++)
      if (fabs(a[i * n + j]) > fabs(a[piv * n + j])) piv = i;
    if (piv != j) {
      for (int64_t l = 0; l < n; l++) { double t = a[j * n + l]; a[j * n + l] = a[piv * n + l]; a[piv * n + l] = t; }
      double t = r[j]; r[j] = r[piv]; r[piv] = t;
    }
    for (int64_t i = j + 1; i < n; i++) {
      double f = a[i * n + j] / a[j * n + j];
      if (f == 0) continue;
      for (int64_t l = j; l < n; l++) a[i * n + l] -= f * a[j * n + l];
      r[i] -= f * r[j];
    }
  }
  for (int64_t i = n - 1; i >= 0; i--) {
    double t = r[i];
    for (int64_t l = i + 1; l < n; l++) t -= a[i * n + l] * x[l];
    x[i] = t / a[i * n + i];
  }
  free(a);
  free(r);
}

/* a smooth right-hand side, the same at any rank count */
static inline double mt_rhs(int64_t i) { return 1.0 + sin(0.37 * (double)i) + 0.25 * (double)(i % 3); }

/* max |x - ref| / max |ref| */
static inline double mt_err(const double *x, const double *ref, int64_t n) {
  double e = 0, m = 0;
  for (int64_t i = 0; i < n; i++) {
    e = fmax(e, fabs(x[i] - ref[i]));
    m = fmax(m, fabs(ref[i]));
  }
  return e / (m > 0 ? m : 1);
}
#endif
