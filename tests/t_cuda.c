/* CUDA backend: element-wise kernels and cuBLAS on device buffers, checked
 * against serial host loops. Skips (77) where no CUDA device is usable. */
#include "mn_test.h"
#include "cuda/cuda_backend.h"
#ifdef MANIPLE_HAVE_CUDA
#include "cuda/csr_cuda.h"
#endif
#include <float.h>

#ifdef MANIPLE_HAVE_CUDA
static void run_csr(void);
static double val_a(int64_t i) { return 1.0 + 0.25 * (double)(i % 97); }
static double val_b(int64_t i) { return 2.0 + (double)(i % 7) * 0.5; } /* never 0 */

/* Report the first mismatch and the count; tol is relative. */
static void compare(const char *what, int64_t n, const double *got,
                    const double *want, double tol) {
  int64_t bad = 0, first = -1;
  for (int64_t i = 0; i < n; i++) {
    double d = fabs(got[i] - want[i]);
    if (!(d <= tol * fabs(want[i]))) { if (first < 0) first = i; bad++; }
  }
  T_CHECK(bad == 0, "%s: %lld of %lld elements differ; first at i=%lld: got %.17g, expected %.17g (rel tol %g)",
          what, (long long)bad, (long long)n, (long long)first,
          first >= 0 ? got[first] : 0.0, first >= 0 ? want[first] : 0.0, tol);
}

/* Host values to/from a buffer of dtype t (float32 or float64). */
static void pack(mn_dtype t, int64_t n, const double *v, void *buf) {
  for (int64_t i = 0; i < n; i++) {
    if (t == MN_FLOAT32) ((float *)buf)[i] = (float)v[i];
    else ((double *)buf)[i] = v[i];
  }
}
static void unpack(mn_dtype t, int64_t n, const void *buf, double *v) {
  for (int64_t i = 0; i < n; i++)
    v[i] = t == MN_FLOAT32 ? (double)((const float *)buf)[i] : ((const double *)buf)[i];
}

static void run_dtype(mn_dtype t, int64_t n) {
  const char *tn = mn_dtype_name(t);
  size_t es = mn_dtype_size(t), nb = (size_t)n * es;
  /* results must be exact up to rounding in t; the ops are IEEE on both */
  double tol = t == MN_FLOAT32 ? 2 * FLT_EPSILON : 2 * DBL_EPSILON;
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n);
  double *want = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)n);
  char *ha = malloc(nb), *hb = malloc(nb), *ho = malloc(nb);
  void *da = NULL, *db = NULL, *dout = NULL;
  char what[128];
  /* values are rounded to t first, so the host loop sees the device inputs */
  for (int64_t i = 0; i < n; i++) { a[i] = val_a(i); b[i] = val_b(i); }
  pack(t, n, a, ha); pack(t, n, b, hb);
  unpack(t, n, ha, a); unpack(t, n, hb, b);
  T_OK(mn_cuda_malloc(&da, nb));
  T_OK(mn_cuda_malloc(&db, nb));
  T_OK(mn_cuda_malloc(&dout, nb));
  if (!da || !db || !dout) goto done;
  T_OK(mn_cuda_memcpy_h2d(da, ha, nb));
  T_OK(mn_cuda_memcpy_h2d(db, hb, nb));

  static const int ops[3] = {MN_OP_ADD, MN_OP_MUL, MN_OP_DIV};
  for (int k = 0; k < 3; k++) {
    int op = ops[k];
    memset(ho, 0, nb);
    T_OK(mn_cuda_binary(op, t, n, da, db, dout));
    T_OK(mn_cuda_memcpy_d2h(ho, dout, nb));
    unpack(t, n, ho, got);
    for (int64_t i = 0; i < n; i++) {
      if (t == MN_FLOAT32) {
        float x = (float)a[i], y = (float)b[i];
        want[i] = op == MN_OP_ADD ? x + y : op == MN_OP_MUL ? x * y : x / y;
      } else {
        want[i] = op == MN_OP_ADD ? a[i] + b[i] : op == MN_OP_MUL ? a[i] * b[i] : a[i] / b[i];
      }
    }
    snprintf(what, sizeof what, "mn_cuda_binary(%s, %s)", mn_binary_name(op), tn);
    compare(what, n, got, want, tol);
  }

  T_OK(mn_cuda_unary(MN_OP_SQRT, t, n, da, dout));
  T_OK(mn_cuda_memcpy_d2h(ho, dout, nb));
  unpack(t, n, ho, got);
  for (int64_t i = 0; i < n; i++)
    want[i] = t == MN_FLOAT32 ? (double)sqrtf((float)a[i]) : sqrt(a[i]);
  snprintf(what, sizeof what, "mn_cuda_unary(sqrt, %s)", tn);
  compare(what, n, got, want, tol);

  /* dot: float32 cuBLAS accumulates in float, so allow n roundings */
  double dot = -1, ref = 0;
  for (int64_t i = 0; i < n; i++) ref += a[i] * b[i];
  T_OK(mn_cuda_dot(t, n, da, db, &dot));
  T_CLOSE(dot, ref, t == MN_FLOAT32 ? (double)n * FLT_EPSILON : 1e-12);

  /* nrm2 of a, then y = 2*a + b in dout */
  double nrm = -1, ref2 = 0;
  for (int64_t i = 0; i < n; i++) ref2 += a[i] * a[i];
  T_OK(mn_cuda_nrm2(t, n, da, &nrm));
  T_CLOSE(nrm, sqrt(ref2), t == MN_FLOAT32 ? (double)n * FLT_EPSILON : 1e-12);
  T_OK(mn_cuda_memcpy_h2d(dout, hb, nb));
  T_OK(mn_cuda_axpy(t, n, 2.0, da, dout));
  T_OK(mn_cuda_memcpy_d2h(ho, dout, nb));
  unpack(t, n, ho, got);
  for (int64_t i = 0; i < n; i++) want[i] = 2.0 * a[i] + b[i];
  snprintf(what, sizeof what, "mn_cuda_axpy(%s, alpha=2)", tn);
  compare(what, n, got, want, 2 * tol);

done:
  T_OK(mn_cuda_free(da));
  T_OK(mn_cuda_free(db));
  T_OK(mn_cuda_free(dout));
  free(a); free(b); free(want); free(got); free(ha); free(hb); free(ho);
}

static void run_device(mn_ctx *ctx) {
  /* odd sizes, different per rank: partial blocks and tails */
  int64_t n = 100003 + 37 * (int64_t)mn_ctx_rank(ctx);
  run_dtype(MN_FLOAT64, n);
  run_dtype(MN_FLOAT32, n);

  /* float64 -> float32 cast, and the (op, type) pairs without a kernel */
  int64_t m = 1000;
  double h[1000];
  float f[1000];
  void *d64 = NULL, *d32 = NULL;
  for (int64_t i = 0; i < m; i++) h[i] = 0.1 * (double)i - 7.3;
  T_OK(mn_cuda_malloc(&d64, sizeof h));
  T_OK(mn_cuda_malloc(&d32, sizeof f));
  if (d64 && d32) {
    T_OK(mn_cuda_memcpy_h2d(d64, h, sizeof h));
    T_OK(mn_cuda_cast(MN_FLOAT64, MN_FLOAT32, m, d64, d32));
    T_OK(mn_cuda_memcpy_d2h(f, d32, sizeof f));
    for (int64_t i = 0; i < m; i++)
      if (f[i] != (float)h[i]) {
        T_CHECK(0, "mn_cuda_cast(float64 -> float32) at i=%lld: got %.9g, expected %.9g",
                (long long)i, (double)f[i], (double)(float)h[i]);
        break;
      }
    int e = mn_cuda_binary(MN_OP_DIV, MN_INT32, m, d32, d32, d32);
    T_CHECK(e == MN_ERR_DTYPE, "mn_cuda_binary(true_divide, int32) returned %s, expected MN_ERR_DTYPE",
            mn_err_name(e));
    e = mn_cuda_unary(MN_OP_SQRT, MN_INT64, m, d64, d64);
    T_CHECK(e == MN_ERR_DTYPE, "mn_cuda_unary(sqrt, int64) returned %s, expected MN_ERR_DTYPE",
            mn_err_name(e));
    e = mn_cuda_dot(MN_INT32, m, d32, d32, &(double){0});
    T_CHECK(e == MN_ERR_DTYPE, "mn_cuda_dot(int32) returned %s, expected MN_ERR_DTYPE",
            mn_err_name(e));
  }
  T_OK(mn_cuda_free(d64));
  T_OK(mn_cuda_free(d32));
  run_csr();
}
#endif

#ifdef MANIPLE_HAVE_CUDA
/* the 1-d Laplacian (2 on the diagonal, -1 beside it) times x on the
 * device, by the shared row kernel and by cuSPARSE, against a host loop */
static void run_csr(void) {
  int64_t n = 1000, nnz = 3 * n - 2;
  int64_t *p64 = malloc(sizeof(int64_t) * (size_t)(n + 1));
  int32_t *p32 = malloc(sizeof(int32_t) * (size_t)(n + 1)), *col = malloc(sizeof(int32_t) * (size_t)nnz);
  double *val = malloc(sizeof(double) * (size_t)nnz), *x = malloc(sizeof(double) * (size_t)n);
  double *want = malloc(sizeof(double) * (size_t)n), *got = malloc(sizeof(double) * (size_t)n);
  int64_t k = 0;
  for (int64_t i = 0; i < n; i++) {
    p64[i] = k;
    p32[i] = (int32_t)k;
    x[i] = val_a(i);
    if (i > 0) { col[k] = (int32_t)(i - 1); val[k++] = -1; }
    col[k] = (int32_t)i; val[k++] = 2;
    if (i < n - 1) { col[k] = (int32_t)(i + 1); val[k++] = -1; }
  }
  p64[n] = p32[n] = (int32_t)k;
  for (int64_t i = 0; i < n; i++) {
    double s = 0;
    for (int64_t q = p64[i]; q < p64[i + 1]; q++) s += val[q] * x[col[q]];
    want[i] = s;
  }
  void *dp64, *dp32, *dc, *dv, *dx, *dy;
  T_OK(mn_cuda_malloc(&dp64, sizeof(int64_t) * (size_t)(n + 1)));
  T_OK(mn_cuda_malloc(&dp32, sizeof(int32_t) * (size_t)(n + 1)));
  T_OK(mn_cuda_malloc(&dc, sizeof(int32_t) * (size_t)nnz));
  T_OK(mn_cuda_malloc(&dv, sizeof(double) * (size_t)nnz));
  T_OK(mn_cuda_malloc(&dx, sizeof(double) * (size_t)n));
  T_OK(mn_cuda_malloc(&dy, sizeof(double) * (size_t)n));
  T_OK(mn_cuda_memcpy_h2d(dp64, p64, sizeof(int64_t) * (size_t)(n + 1)));
  T_OK(mn_cuda_memcpy_h2d(dp32, p32, sizeof(int32_t) * (size_t)(n + 1)));
  T_OK(mn_cuda_memcpy_h2d(dc, col, sizeof(int32_t) * (size_t)nnz));
  T_OK(mn_cuda_memcpy_h2d(dv, val, sizeof(double) * (size_t)nnz));
  T_OK(mn_cuda_memcpy_h2d(dx, x, sizeof(double) * (size_t)n));
  T_OK(mn_cuda_csr_rows(MN_FLOAT64, n, dp64, dc, dv, dx, dy, 0));
  T_OK(mn_cuda_memcpy_d2h(got, dy, sizeof(double) * (size_t)n));
  compare("csr row kernel", n, got, want, 4 * DBL_EPSILON);
  T_OK(mn_cusparse_spmv(MN_FLOAT64, n, n, nnz, dp32, dc, dv, dx, dy));
  T_OK(mn_cuda_memcpy_d2h(got, dy, sizeof(double) * (size_t)n));
  compare("cuSPARSE SpMV", n, got, want, 4 * DBL_EPSILON);
  mn_cuda_free(dp64); mn_cuda_free(dp32); mn_cuda_free(dc); mn_cuda_free(dv); mn_cuda_free(dx); mn_cuda_free(dy);
  free(p64); free(p32); free(col); free(val); free(x); free(want); free(got);
}
#endif

int main(void) { return mt_cuda_main(MT_CUDA_FN(run_device)); }
