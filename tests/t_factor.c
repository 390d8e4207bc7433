#define _POSIX_C_SOURCE 200809L /* setenv */
/* Dense factorisations (ScaLAPACK) against serial loops in this file:
 * Cholesky-Banachiewicz, Gaussian elimination with partial pivoting, and
 * modified Gram-Schmidt, for float32, float64, complex64 and complex128;
 * sizes from 1 x 1 to several 64 x 64 blocks per rank; a default array, a
 * transposed view (column split) and an array with a halo as inputs; a
 * wide and a tall QR; and the errors (shape, dtype, not positive definite,
 * singular) on every rank. eigh and svd are checked by their defining
 * identities (residuals, orthonormality, trace and Frobenius norm, order).
 * Also the block-cyclic round trip alone, and matmul on the grid (p?gemm)
 * against a triple loop. */
#include "mn_test.h"
#include "block_cyclic.h"
#ifdef MT_HAVE_SCALAPACK
#include "scalapack.h"
#endif
#include <complex.h>
#include <maniple/mn_linalg.h>

typedef double complex cplx;
static int cx(mn_dtype t) { return t == MN_COMPLEX64 || t == MN_COMPLEX128; }
static double tol_of(mn_dtype t) { return t == MN_FLOAT32 || t == MN_COMPLEX64 ? 2e-4 : 1e-10; }

/* a pseudo-random entry in [-1, 1), imaginary part for complex dtypes */
static cplx entry(int64_t i, int64_t j, int seed, mn_dtype t) {
  uint64_t h = (uint64_t)(i * 1000003 + j * 7919 + seed * 104729) + 0x9e3779b97f4a7c15ULL; /* splitmix64 */
  h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
  h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
  h ^= h >> 31;
  double re = (double)(h >> 11) / 9007199254740992.0 * 2 - 1;
  double im = (double)((h * 2862933555777941757ULL) >> 11) / 9007199254740992.0 * 2 - 1;
  return cx(t) ? re + I * im : re;
}

/* raw values of t from complex doubles, and back */
static void *pack(mn_dtype t, const cplx *v, int64_t n) {
  size_t es = mn_dtype_size(t);
  char *raw = malloc((size_t)(n ? n : 1) * es);
  for (int64_t k = 0; k < n; k++) {
    if (t == MN_FLOAT32) ((float *)raw)[k] = (float)creal(v[k]);
    else if (t == MN_FLOAT64) ((double *)raw)[k] = creal(v[k]);
    else if (t == MN_COMPLEX64) { ((float *)raw)[2 * k] = (float)creal(v[k]); ((float *)raw)[2 * k + 1] = (float)cimag(v[k]); }
    else { ((double *)raw)[2 * k] = creal(v[k]); ((double *)raw)[2 * k + 1] = cimag(v[k]); }
  }
  return raw;
}

static cplx *values(const mn_array *a) {
  mn_dtype t = mn_array_dtype(a);
  int64_t n = mn_array_size(a);
  size_t es = mn_dtype_size(t);
  char *raw = malloc((size_t)(n ? n : 1) * es);
  cplx *v = malloc(sizeof(cplx) * (size_t)(n ? n : 1));
  T_OK(mn_array_gather(a, 0, raw));
  MPI_Bcast(raw, (int)((size_t)n * es), MPI_BYTE, 0, MPI_COMM_WORLD);
  for (int64_t k = 0; k < n; k++) {
    if (t == MN_FLOAT32) v[k] = ((float *)raw)[k];
    else if (t == MN_FLOAT64) v[k] = ((double *)raw)[k];
    else if (t == MN_COMPLEX64) v[k] = ((float *)raw)[2 * k] + I * ((float *)raw)[2 * k + 1];
    else v[k] = ((double *)raw)[2 * k] + I * ((double *)raw)[2 * k + 1];
  }
  free(raw);
  return v;
}

/* kind 0: a default array; 1: the transpose of a base (column split);
 * 2: an array with a halo. *keep is the base to destroy with it. */
static mn_array *matrix(mn_ctx *ctx, mn_dtype t, int64_t m, int64_t n, const cplx *v, int kind, mn_array **keep) {
  mn_array *a = NULL;
  *keep = NULL;
  cplx *w = malloc(sizeof(cplx) * (size_t)(m * n > 0 ? m * n : 1));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) w[kind == 1 ? j * m + i : i * n + j] = v[i * n + j];
  void *raw = pack(t, w, m * n);
  int64_t sh[2] = {m, n}, st[2] = {n, m};
  T_OK(mn_array_create(ctx, t, 2, kind == 1 ? st : sh, kind == 2 ? 1 : 0, kind == 1 ? keep : &a));
  T_OK(mn_array_scatter(kind == 1 ? *keep : a, 0, raw));
  if (kind == 1) T_OK(mn_array_transpose(*keep, NULL, &a));
  free(raw);
  free(w);
  return a;
}

static void close_to(const char *what, mn_dtype t, const cplx *got, const cplx *want, int64_t n, double scale) {
  double worst = 0;
  int64_t at = 0;
  for (int64_t k = 0; k < n; k++) {
    double e = cabs(got[k] - want[k]);
    if (!(e <= worst)) { worst = e; at = k; }
  }
  T_CHECK(worst <= tol_of(t) * scale, "%s %s: error %.3g at %lld (got %g%+gi, expected %g%+gi)", what,
          mn_dtype_name(t), worst, (long long)at, creal(got[at]), cimag(got[at]), creal(want[at]), cimag(want[at]));
}

static void test_cholesky(mn_ctx *ctx, mn_dtype t, int64_t n, int kind) {
  cplx *A = malloc(sizeof(cplx) * (size_t)(n * n)), *L = calloc((size_t)(n * n), sizeof(cplx));
  for (int64_t i = 0; i < n; i++) /* Hermitian, diagonally dominant */
    for (int64_t j = 0; j <= i; j++) {
      A[i * n + j] = i == j ? n + 1.0 + creal(entry(i, j, 1, t)) : entry(i, j, 1, t);
      A[j * n + i] = conj(A[i * n + j]);
    }
  for (int64_t j = 0; j < n; j++) { /* the serial reference */
    cplx s = A[j * n + j];
    for (int64_t k = 0; k < j; k++) s -= L[j * n + k] * conj(L[j * n + k]);
    L[j * n + j] = csqrt(s);
    for (int64_t i = j + 1; i < n; i++) {
      cplx r = A[i * n + j];
      for (int64_t k = 0; k < j; k++) r -= L[i * n + k] * conj(L[j * n + k]);
      L[i * n + j] = r / L[j * n + j];
    }
  }
  for (int64_t i = 0; i < n; i++) /* garbage above the diagonal: only the lower triangle is read */
    for (int64_t j = i + 1; j < n; j++) A[i * n + j] = 1e3;
  mn_array *keep, *a = matrix(ctx, t, n, n, A, kind, &keep), *l = NULL;
  T_OK(mn_array_cholesky(a, &l));
  if (l) {
    cplx *got = values(l);
    close_to("cholesky", t, got, L, n * n, sqrt((double)n));
    free(got);
  }
  mn_array_destroy(&l); mn_array_destroy(&a); mn_array_destroy(&keep);
  free(A); free(L);
}

/* x = A^-1 B by Gaussian elimination with partial pivoting (A, B overwritten) */
static void ref_solve(int64_t n, int64_t k, cplx *A, cplx *B) {
  for (int64_t c = 0; c < n; c++) {
    int64_t p = c;
    for (int64_t i = c + 1; i < n; i++)
      if (cabs(A[i * n + c]) > cabs(A[p * n + c])) p = i;
    for (int64_t j = 0; j < n; j++) { cplx s = A[c * n + j]; A[c * n + j] = A[p * n + j]; A[p * n + j] = s; }
    for (int64_t j = 0; j < k; j++) { cplx s = B[c * k + j]; B[c * k + j] = B[p * k + j]; B[p * k + j] = s; }
    for (int64_t i = c + 1; i < n; i++) {
      cplx f = A[i * n + c] / A[c * n + c];
      for (int64_t j = c; j < n; j++) A[i * n + j] -= f * A[c * n + j];
      for (int64_t j = 0; j < k; j++) B[i * k + j] -= f * B[c * k + j];
    }
  }
  for (int64_t c = n - 1; c >= 0; c--)
    for (int64_t j = 0; j < k; j++) {
      cplx s = B[c * k + j];
      for (int64_t i = c + 1; i < n; i++) s -= A[c * n + i] * B[i * k + j];
      B[c * k + j] = s / A[c * n + c];
    }
}

/* k right-hand sides as (n, k), or 1-d when vec; k == n with inv: inv(A) */
static void test_solve(mn_ctx *ctx, mn_dtype t, int64_t n, int64_t k, int vec, int inv, int kind) {
  if (inv) k = n;
  cplx *A = malloc(sizeof(cplx) * (size_t)(n * n)), *A2 = malloc(sizeof(cplx) * (size_t)(n * n));
  cplx *B = malloc(sizeof(cplx) * (size_t)(n * k > 0 ? n * k : 1)), *X = malloc(sizeof(cplx) * (size_t)(n * k > 0 ? n * k : 1));
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) A[i * n + j] = entry(i, j, 2, t) + (i == j ? 3.0 : 0.0); /* pivots needed */
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < k; j++) B[i * k + j] = inv ? (i == j) : entry(i, j, 3, t);
  memcpy(A2, A, sizeof(cplx) * (size_t)(n * n));
  memcpy(X, B, sizeof(cplx) * (size_t)(n * k));
  ref_solve(n, k, A2, X);
  mn_array *keep, *a = matrix(ctx, t, n, n, A, kind, &keep), *b = NULL, *x = NULL;
  if (!inv) {
    void *raw = pack(t, B, n * k);
    int64_t sh[2] = {n, k};
    T_OK(mn_array_create(ctx, t, vec ? 1 : 2, sh, 0, &b));
    T_OK(mn_array_scatter(b, 0, raw));
    free(raw);
  }
  T_OK(inv ? mn_array_inv(a, &x) : mn_array_solve(a, b, &x));
  if (x) {
    T_CHECK(mn_array_ndim(x) == (vec ? 1 : 2), "solve: %d-d result", mn_array_ndim(x));
    cplx *got = values(x);
    close_to(inv ? "inv" : "solve", t, got, X, n * k, 10 * (double)n);
    free(got);
  }
  mn_array_destroy(&x); mn_array_destroy(&b); mn_array_destroy(&a); mn_array_destroy(&keep);
  free(A); free(A2); free(B); free(X);
}

/* slogdet against Gaussian elimination with partial pivoting here; a
 * singular matrix (its last column zero: exactly singular in any
 * elimination) gives sign 0 and -inf */
static void test_slogdet(mn_ctx *ctx, mn_dtype t, int64_t n, int kind, int singular) {
  cplx *A = malloc(sizeof(cplx) * (size_t)(n * n)), *U = malloc(sizeof(cplx) * (size_t)(n * n));
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++) A[i * n + j] = entry(i, j, 4, t) + (i == j ? 1.0 : 0.0);
  if (singular)
    for (int64_t i = 0; i < n; i++) A[i * n + n - 1] = 0;
  memcpy(U, A, sizeof(cplx) * (size_t)(n * n));
  cplx sign = 1;
  double logsum = 0;
  for (int64_t c = 0; c < n; c++) { /* U in place, the swaps' and the diagonal's signs */
    int64_t p = c;
    for (int64_t i = c + 1; i < n; i++)
      if (cabs(U[i * n + c]) > cabs(U[p * n + c])) p = i;
    if (p != c) {
      sign = -sign;
      for (int64_t j = 0; j < n; j++) { cplx x = U[c * n + j]; U[c * n + j] = U[p * n + j]; U[p * n + j] = x; }
    }
    cplx d = U[c * n + c];
    if (cabs(d) == 0) { sign = 0; logsum = -INFINITY; break; }
    sign *= d / cabs(d);
    logsum += log(cabs(d));
    for (int64_t i = c + 1; i < n; i++) {
      cplx f = U[i * n + c] / d;
      for (int64_t j = c; j < n; j++) U[i * n + j] -= f * U[c * n + j];
    }
  }
  mn_array *keep, *a = matrix(ctx, t, n, n, A, kind, &keep);
  double sg[2], ld;
  T_OK(mn_array_slogdet(a, sg, &ld));
  double tol = tol_of(t) * 10 * (double)n;
  if (singular) {
    T_CHECK(sg[0] == 0 && sg[1] == 0 && isinf(ld) && ld < 0, "slogdet %s singular: sign %g%+gi, log %g",
            mn_dtype_name(t), sg[0], sg[1], ld);
  } else {
    T_CHECK(cabs(sg[0] + sg[1] * I - sign) <= tol && fabs(ld - logsum) <= tol * (1 + fabs(logsum)),
            "slogdet %s n=%lld: sign %g%+gi, log %.12g; expected %g%+gi, %.12g", mn_dtype_name(t), (long long)n,
            sg[0], sg[1], ld, creal(sign), cimag(sign), logsum);
  }
  mn_array_destroy(&a); mn_array_destroy(&keep);
  free(A); free(U);
}

static void test_qr(mn_ctx *ctx, mn_dtype t, int64_t m, int64_t n, int kind) {
  int64_t k = m < n ? m : n;
  cplx *A = malloc(sizeof(cplx) * (size_t)(m * n)), *Q = calloc((size_t)(m * k), sizeof(cplx));
  cplx *R = calloc((size_t)(k * n), sizeof(cplx));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) A[i * n + j] = entry(i, j, 4, t);
  /* modified Gram-Schmidt on the first k columns (independent here), then
   * R's other columns as Q^H A: R's diagonal real positive */
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < k; j++) Q[i * k + j] = A[i * n + j];
  for (int64_t j = 0; j < k; j++) {
    double nr = 0;
    for (int64_t i = 0; i < m; i++) nr += creal(Q[i * k + j] * conj(Q[i * k + j]));
    R[j * n + j] = sqrt(nr);
    for (int64_t i = 0; i < m; i++) Q[i * k + j] /= sqrt(nr);
    for (int64_t c = j + 1; c < k; c++) {
      cplx d = 0;
      for (int64_t i = 0; i < m; i++) d += conj(Q[i * k + j]) * Q[i * k + c];
      R[j * n + c] = d;
      for (int64_t i = 0; i < m; i++) Q[i * k + c] -= d * Q[i * k + j];
    }
  }
  for (int64_t j = 0; j < k; j++)
    for (int64_t c = k; c < n; c++) {
      cplx d = 0;
      for (int64_t i = 0; i < m; i++) d += conj(Q[i * k + j]) * A[i * n + c];
      R[j * n + c] = d;
    }
  mn_array *keep, *a = matrix(ctx, t, m, n, A, kind, &keep), *q = NULL, *r = NULL;
  T_OK(mn_array_qr(a, &q, &r));
  if (q && r) {
    const int64_t *qs = mn_array_shape(q), *rs = mn_array_shape(r);
    T_CHECK(qs[0] == m && qs[1] == k && rs[0] == k && rs[1] == n, "qr: shapes (%lld, %lld) (%lld, %lld)",
            (long long)qs[0], (long long)qs[1], (long long)rs[0], (long long)rs[1]);
    cplx *gq = values(q), *gr = values(r);
    /* LAPACK's R may differ from the reference by a unit factor per row
     * (and Q per column): take it out before comparing */
    for (int64_t j = 0; j < k; j++) {
      cplx u = cabs(gr[j * n + j]) > 0 ? gr[j * n + j] / cabs(gr[j * n + j]) : 1;
      for (int64_t c = 0; c < n; c++) gr[j * n + c] /= u;
      for (int64_t i = 0; i < m; i++) gq[i * k + j] *= u;
    }
    close_to("qr r", t, gr, R, k * n, sqrt((double)m));
    close_to("qr q", t, gq, Q, m * k, 10 * sqrt((double)m));
    free(gq); free(gr);
  }
  mn_array *r_only = NULL;
  T_OK(mn_array_qr(a, NULL, &r_only));
  mn_array_destroy(&r_only);
  mn_array_destroy(&q); mn_array_destroy(&r); mn_array_destroy(&a); mn_array_destroy(&keep);
  free(A); free(Q); free(R);
}

/* max |X^H X - I| over a r x c matrix's columns (gram of columns) */
static double orth_err(const cplx *X, int64_t r, int64_t c, int rows) {
  double worst = 0;
  for (int64_t a = 0; a < (rows ? r : c); a++)
    for (int64_t b = 0; b < (rows ? r : c); b++) {
      cplx d = 0;
      for (int64_t i = 0; i < (rows ? c : r); i++)
        d += rows ? X[a * c + i] * conj(X[b * c + i]) : conj(X[i * c + a]) * X[i * c + b];
      double e = cabs(d - (a == b ? 1.0 : 0.0));
      if (!(e <= worst)) worst = e;
    }
  return worst;
}

/* eigh: H v = v w for the Hermitian H whose lower (or upper) triangle a
 * holds (junk in the other), v orthonormal, w ascending, and the trace and
 * Frobenius norm of H equal to sum w and sum w^2 */
static void test_eigh(mn_ctx *ctx, mn_dtype t, int64_t n, int kind, int lower) {
  cplx *A = malloc(sizeof(cplx) * (size_t)(n * n)), *H = malloc(sizeof(cplx) * (size_t)(n * n));
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j <= i; j++) {
      cplx h = entry(i, j, 5, t) + (i == j ? conj(entry(i, j, 5, t)) : 0);
      H[i * n + j] = h;
      H[j * n + i] = conj(h);
    }
  for (int64_t i = 0; i < n; i++)
    for (int64_t j = 0; j < n; j++)
      A[i * n + j] = (lower ? j <= i : j >= i) ? H[i * n + j] : entry(i, j, 9, t);
  mn_array *keep, *a = matrix(ctx, t, n, n, A, kind, &keep), *w = NULL, *v = NULL, *w2 = NULL;
  T_OK(mn_array_eigh(a, lower, &w, &v));
  T_OK(mn_array_eigh(a, lower, &w2, NULL));
  mn_dtype rt = t == MN_FLOAT32 || t == MN_COMPLEX64 ? MN_FLOAT32 : MN_FLOAT64;
  if (w && v && w2) {
    T_CHECK(mn_array_dtype(w) == rt && mn_array_dtype(v) == t, "eigh %s: dtypes %s, %s", mn_dtype_name(t),
            mn_dtype_name(mn_array_dtype(w)), mn_dtype_name(mn_array_dtype(v)));
    cplx *gw = values(w), *gv = values(v), *gw2 = values(w2), *R = malloc(sizeof(cplx) * (size_t)(n * n));
    double tr = 0, fro = 0, sw = 0, sw2 = 0;
    for (int64_t i = 0; i < n; i++) {
      tr += creal(H[i * n + i]);
      sw += creal(gw[i]);
      sw2 += creal(gw[i]) * creal(gw[i]);
      T_CHECK(i == 0 || creal(gw[i - 1]) <= creal(gw[i]), "eigh %s: w not ascending at %lld", mn_dtype_name(t),
              (long long)i);
      for (int64_t j = 0; j < n; j++) {
        fro += creal(H[i * n + j] * conj(H[i * n + j]));
        cplx d = 0;
        for (int64_t k = 0; k < n; k++) d += H[i * n + k] * gv[k * n + j];
        R[i * n + j] = d - gv[i * n + j] * creal(gw[j]);
      }
    }
    cplx zero = 0;
    double scale = 10 * (double)n;
    for (int64_t k = 0; k < n * n; k++) close_to("eigh residual H v - v w", t, &R[k], &zero, 1, scale);
    T_CHECK(orth_err(gv, n, n, 0) <= tol_of(t) * scale, "eigh %s: v not orthonormal (%.3g)", mn_dtype_name(t),
            orth_err(gv, n, n, 0));
    T_CHECK(fabs(tr - sw) <= tol_of(t) * scale * (1 + fabs(tr)), "eigh %s: trace %g, sum of w %g", mn_dtype_name(t),
            tr, sw);
    T_CHECK(fabs(fro - sw2) <= tol_of(t) * scale * fro, "eigh %s: |H|_F^2 %g, sum of w^2 %g", mn_dtype_name(t), fro,
            sw2);
    close_to("eigh values only", t, gw2, gw, n, 10);
    free(gw); free(gv); free(gw2); free(R);
  }
  mn_array_destroy(&w); mn_array_destroy(&v); mn_array_destroy(&w2); mn_array_destroy(&a); mn_array_destroy(&keep);
  free(A); free(H);
}

/* svd: u diag(s) vt = a, u and vt orthonormal, s descending and >= 0,
 * the values alone the same */
static void test_svd(mn_ctx *ctx, mn_dtype t, int64_t m, int64_t n, int kind) {
  int64_t k = m < n ? m : n;
  cplx *A = malloc(sizeof(cplx) * (size_t)(m * n + 1));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) A[i * n + j] = entry(i, j, 6, t);
  mn_array *keep, *a = matrix(ctx, t, m, n, A, kind, &keep), *u = NULL, *s = NULL, *vt = NULL, *s2 = NULL;
  T_OK(mn_array_svd(a, &u, &s, &vt));
  T_OK(mn_array_svd(a, NULL, &s2, NULL));
  if (u && s && vt && s2) {
    const int64_t *us = mn_array_shape(u), *vs = mn_array_shape(vt);
    T_CHECK(us[0] == m && us[1] == k && vs[0] == k && vs[1] == n && mn_array_size(s) == k,
            "svd: shapes (%lld, %lld) (%lld) (%lld, %lld)", (long long)us[0], (long long)us[1],
            (long long)mn_array_size(s), (long long)vs[0], (long long)vs[1]);
    cplx *gu = values(u), *gs = values(s), *gv = values(vt), *gs2 = values(s2);
    cplx *B = malloc(sizeof(cplx) * (size_t)(m * n + 1));
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        cplx d = 0;
        for (int64_t c = 0; c < k; c++) d += gu[i * k + c] * creal(gs[c]) * gv[c * n + j];
        B[i * n + j] = d;
      }
    for (int64_t c = 0; c < k; c++)
      T_CHECK(creal(gs[c]) >= 0 && (c == 0 || creal(gs[c]) <= creal(gs[c - 1])), "svd %s: s not descending at %lld",
              mn_dtype_name(t), (long long)c);
    double scale = 10 * (double)(m > n ? m : n);
    close_to("svd u s vt", t, B, A, m * n, scale);
    T_CHECK(orth_err(gu, m, k, 0) <= tol_of(t) * scale && orth_err(gv, k, n, 1) <= tol_of(t) * scale,
            "svd %s: u or vt not orthonormal (%.3g, %.3g)", mn_dtype_name(t), orth_err(gu, m, k, 0),
            orth_err(gv, k, n, 1));
    close_to("svd values only", t, gs2, gs, k, 10);
    free(gu); free(gs); free(gv); free(gs2); free(B);
  }
  mn_array_destroy(&u); mn_array_destroy(&s); mn_array_destroy(&vt); mn_array_destroy(&s2);
  mn_array_destroy(&a); mn_array_destroy(&keep);
  free(A);
}

/* an array into a block-cyclic grid and back, at a window offset */
static void test_round_trip(mn_ctx *ctx, int64_t m, int64_t n, int64_t nb, int64_t r0, int64_t c0, int kind) {
  int P = mn_ctx_size(ctx), pc = P % 2 ? 1 : 2, *rank_of = malloc(sizeof(int) * (size_t)P);
  for (int q = 0; q < P; q++) rank_of[q] = P - 1 - q; /* not the identity */
  mn_bc g;
  T_OK(mn_bc_init(&g, ctx, m + r0, n + c0, nb, P / pc, pc, rank_of));
  cplx *v = malloc(sizeof(cplx) * (size_t)(m * n > 0 ? m * n : 1));
  for (int64_t k = 0; k < m * n; k++) v[k] = (double)k;
  mn_array *keep, *a = matrix(ctx, MN_FLOAT64, m, n, v, kind, &keep), *b = NULL;
  double *loc = calloc((size_t)(g.lm * g.ln > 0 ? g.lm * g.ln : 1), sizeof(double));
  T_OK(mn_bc_from_array(&g, a, r0, c0, (char *)loc));
  /* each local element is its global flat index in a, or 0 outside the window */
  for (int64_t li = 0; li < g.lm; li++)
    for (int64_t lj = 0; lj < g.ln; lj++) {
      int64_t gi = (li / nb * g.pr + g.myr) * nb + li % nb, gj = (lj / nb * g.pc + g.myc) * nb + lj % nb;
      int in = gi >= r0 && gj >= c0;
      double want = in ? (double)((gi - r0) * n + gj - c0) : 0;
      T_CHECK(loc[li * g.ln + lj] == want, "block-cyclic (%lld, %lld) holds %g, expected %g", (long long)gi,
              (long long)gj, loc[li * g.ln + lj], want);
      if (loc[li * g.ln + lj] != want) { li = g.lm; break; }
    }
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, (int64_t[]){m, n}, 0, &b));
  T_OK(mn_bc_to_array(&g, (char *)loc, r0, c0, b));
  cplx *got = values(b);
  close_to("round trip", MN_FLOAT64, got, v, m * n, 0);
  free(got); free(loc); free(v); free(rank_of);
  mn_array_destroy(&a); mn_array_destroy(&b); mn_array_destroy(&keep);
  mn_bc_free(&g);
}

#ifdef MT_HAVE_SCALAPACK
/* matmul on the grid (MANIPLE_SUMMA_MIN_BYTES=0 here) against a serial
 * triple loop, with a transposed operand and a cast into out */
static void test_matmul_grid(mn_ctx *ctx, mn_dtype t, int64_t m, int64_t k, int64_t n, int kind, mn_dtype ot) {
  cplx *A = malloc(sizeof(cplx) * (size_t)(m * k)), *B = malloc(sizeof(cplx) * (size_t)(k * n));
  cplx *C = calloc((size_t)(m * n), sizeof(cplx));
  for (int64_t i = 0; i < m * k; i++) A[i] = entry(i / k, i % k, 5, t);
  for (int64_t i = 0; i < k * n; i++) B[i] = entry(i / n, i % n, 6, t);
  for (int64_t i = 0; i < m; i++)
    for (int64_t p = 0; p < k; p++)
      for (int64_t j = 0; j < n; j++) C[i * n + j] += A[i * k + p] * B[p * n + j];
  mn_array *ka, *kb, *a = matrix(ctx, t, m, k, A, kind, &ka), *b = matrix(ctx, t, k, n, B, 0, &kb), *c = NULL;
  T_OK(mn_array_create(ctx, ot, 2, (int64_t[]){m, n}, 0, &c));
  T_CHECK(mn_matmul_grid_wanted(a, b) == (mn_ctx_size(ctx) > 1), "matmul of %s on the grid: not taken",
          mn_dtype_name(t));
  T_OK(mn_array_matmul(a, b, c));
  cplx *got = values(c);
  close_to("matmul on the grid", ot, got, C, m * n, (double)k);
  free(got); free(A); free(B); free(C);
  mn_array_destroy(&a); mn_array_destroy(&b); mn_array_destroy(&c); mn_array_destroy(&ka); mn_array_destroy(&kb);
}
#endif

static void test_errors(mn_ctx *ctx) {
  mn_array *a = NULL, *b = NULL, *x = NULL, *keep = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, (int64_t[]){4, 3}, 0, &a));
  T_EXPECT(mn_array_cholesky(a, &x), MN_ERR_SHAPE, "cholesky of 4 x 3", "square", "(4, 3)");
  T_EXPECT(mn_array_inv(a, &x), MN_ERR_SHAPE, "inv of 4 x 3", "square", "(4, 3)");
  mn_array_destroy(&a);
  T_OK(mn_array_create(ctx, MN_INT64, 2, (int64_t[]){3, 3}, 0, &a));
  T_EXPECT(mn_array_cholesky(a, &x), MN_ERR_DTYPE, "cholesky of int64", "int64");
  mn_array_destroy(&a);
  int64_t n = 100;
  cplx *v = calloc((size_t)(n * n), sizeof(cplx));
  for (int64_t i = 0; i < n; i++) v[i * n + i] = i == 70 ? -1.0 : 1.0; /* indefinite, on one rank's blocks */
  a = matrix(ctx, MN_FLOAT64, n, n, v, 0, &keep);
  T_EXPECT(mn_array_cholesky(a, &x), MN_ERR_LINALG, "cholesky of an indefinite matrix", "not positive definite");
  T_CHECK(x == NULL, "a failed cholesky left a result");
  mn_array_destroy(&a);
  v[70 * n + 70] = 0; /* singular */
  a = matrix(ctx, MN_FLOAT64, n, n, v, 0, &keep);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_EXPECT(mn_array_solve(a, b, &x), MN_ERR_LINALG, "solve with a singular matrix", "Singular matrix");
  T_EXPECT(mn_array_inv(a, &x), MN_ERR_LINALG, "inv of a singular matrix", "Singular matrix");
  mn_array_destroy(&b);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, (int64_t[]){n + 1}, 0, &b));
  T_EXPECT(mn_array_solve(a, b, &x), MN_ERR_SHAPE, "solve with 101 rows of b", "101");
  mn_array_destroy(&b);
  T_OK(mn_array_create(ctx, MN_FLOAT32, 1, &n, 0, &b));
  T_EXPECT(mn_array_solve(a, b, &x), MN_ERR_DTYPE, "solve with a float32 b", "float32");
  mn_array_destroy(&b); mn_array_destroy(&a);
  free(v);
}

int main(int argc, char **argv) {
  setenv("MANIPLE_SUMMA_MIN_BYTES", "0", 1); /* every 2-d float product on the grid */
  mn_ctx *ctx = mt_init(argc, argv);
  test_round_trip(ctx, 13, 9, 2, 0, 0, 0);
  test_round_trip(ctx, 13, 9, 4, 3, 5, 1);
  test_round_trip(ctx, 1, 7, 3, 2, 1, 2);
  test_round_trip(ctx, 0, 5, 3, 0, 0, 0);
#ifdef MT_HAVE_SCALAPACK
  mn_dtype ts[] = {MN_FLOAT64, MN_FLOAT32, MN_COMPLEX128, MN_COMPLEX64};
  for (int q = 0; q < 4; q++) {
    mn_dtype t = ts[q];
    for (int kind = 0; kind < (q % 2 ? 1 : 3); kind++) { /* every layout for the double dtypes */
      test_cholesky(ctx, t, kind ? 140 : 1, kind);
      test_solve(ctx, t, 140, 3, 0, 0, kind);
      test_qr(ctx, t, 140, 70, kind);
    }
    test_cholesky(ctx, t, 7, 0);
    test_solve(ctx, t, 7, 1, 1, 0, 0);
    test_solve(ctx, t, 130, 0, 0, 1, 1);
    test_qr(ctx, t, 70, 140, 0);
    test_qr(ctx, t, 1, 5, 0);
    test_slogdet(ctx, t, 140, q % 3, 0); /* several 64-row blocks: swaps across ranks */
    test_slogdet(ctx, t, 7, 0, 0);
    test_slogdet(ctx, t, 1, 0, 0);
    test_slogdet(ctx, t, 90, 0, 1);
    test_eigh(ctx, t, 90, q % 3, 1);
    test_eigh(ctx, t, 70, 0, 0);
    test_eigh(ctx, t, 1, 0, 1);
    test_eigh(ctx, t, 7, 0, 1); /* one block: the other ranks hold none */
    test_svd(ctx, t, 100, 70, q % 3);
    test_svd(ctx, t, 50, 90, 0);
    test_svd(ctx, t, 1, 4, 0);
    test_svd(ctx, t, 7, 5, 0);
  }
  for (int q = 0; q < 2; q++) { /* (matmul has no complex kernel) */
    test_matmul_grid(ctx, ts[q], 70, 130, 90, q + 1, ts[q]);
    test_matmul_grid(ctx, ts[q], 1, 5, 3, 0, ts[q]);
  }
  test_matmul_grid(ctx, MN_FLOAT64, 100, 30, 70, 2, MN_FLOAT32);
  test_errors(ctx);
#else
  mn_array *a = NULL, *l = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, (int64_t[]){2, 2}, 0, &a));
  T_EXPECT(mn_array_cholesky(a, &l), MN_ERR_NOTIMPL, "cholesky without ScaLAPACK", "ScaLAPACK");
  mn_array_destroy(&a);
#endif
  return mt_finish(&ctx);
}
