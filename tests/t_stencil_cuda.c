/* CUDA stencil kernel on device buffers against host loops: the 9- and
 * 27-point Laplacians and the 1-d 3-point one on padded grids, a variable coefficient and a Jacobi
 * update, float32 and float64. Skips (77) where no CUDA device is usable. */
#include "mn_test.h"
#include <float.h>
#ifdef MANIPLE_HAVE_CUDA
#include "cuda/cuda_backend.h"
#include "cuda/stencil_cuda.h"

/* One box: the interior of a grid of extents n padded by 1 (nd 1 to 3),
 * random values; y = A u, or the Jacobi update with f when relax. */
static void run_box(mn_ctx *ctx, int nd, int npts, mn_dtype t, int variable, int relax) {
  int64_t n[3] = {37, 23, 11}, p[3], st[3], total = 1, inner = 1;
  for (int d = 0; d < nd; d++) { p[d] = n[d] + 2; total *= p[d]; inner *= n[d]; }
  for (int d = nd - 1, s = 1; d >= 0; d--) { st[d] = s; s *= (int)p[d]; }
  double h[3] = {0.5, 0.25, 1.0};
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, nd, npts, h, &s));
  if (!s) return;
  int off[27 * 3];
  double w[27];
  mn_stencil_get_points(s, off, w);
  mn_stencil_destroy(&s);
  mni_st_cuda_box b;
  memset(&b, 0, sizeof b);
  b.nd = nd;
  b.npts = npts;
  b.relax = relax;
  b.omega = 0.7;
  int64_t origin = 0;
  for (int d = 0; d < nd; d++) {
    b.cnt[d] = n[d];
    b.ust[d] = b.yst[d] = b.fst[d] = b.cst[d] = st[d];
    origin += st[d];
  }
  double dsum = 0;
  for (int k = 0; k < npts; k++) {
    int64_t o = 0, zero = 1;
    for (int d = 0; d < nd; d++) { o += off[k * nd + d] * st[d]; zero &= off[k * nd + d] == 0; }
    b.off[k] = o;
    b.w[k] = w[k];
    if (zero) { b.ctr[b.nctr++] = k; dsum += w[k]; }
  }
  b.wd = b.omega / dsum;
  size_t es = mn_dtype_size(t), nb = (size_t)total * es;
  double *u = malloc(sizeof(double) * (size_t)total), *f = malloc(sizeof(double) * (size_t)total);
  double *c = malloc(sizeof(double) * (size_t)total), *want = malloc(sizeof(double) * (size_t)total);
  char *hu = malloc(nb), *hf = malloc(nb), *hc = malloc(nb), *hy = malloc(nb);
  for (int64_t i = 0; i < total; i++) {
    u[i] = sin(0.37 * (double)i);
    f[i] = cos(0.11 * (double)i);
    c[i] = variable ? -30 + sin(0.05 * (double)i) : w[b.ctr[0]];
    if (t == MN_FLOAT32) {
      ((float *)hu)[i] = (float)u[i]; ((float *)hf)[i] = (float)f[i]; ((float *)hc)[i] = (float)c[i];
      u[i] = ((float *)hu)[i]; f[i] = ((float *)hf)[i]; c[i] = ((float *)hc)[i];
    } else {
      ((double *)hu)[i] = u[i]; ((double *)hf)[i] = f[i]; ((double *)hc)[i] = c[i];
    }
  }
  /* host reference over the interior */
  for (int64_t q = 0; q < inner; q++) {
    int64_t r = q, at = 0;
    for (int d = nd - 1; d >= 0; d--) { at += (r % n[d] + 1) * st[d]; r /= n[d]; }
    double a = 0, dg = 0;
    for (int k = 0; k < npts; k++) {
      double wk = variable && k == b.ctr[0] ? c[at] : w[k];
      a += wk * u[at + b.off[k]];
      if (k == b.ctr[0]) dg = wk;
    }
    want[q] = relax ? u[at] + b.omega / dg * (f[at] - a) : a;
  }
  void *du = NULL, *df = NULL, *dc = NULL, *dy = NULL;
  T_OK(mn_cuda_malloc(&du, nb));
  T_OK(mn_cuda_malloc(&df, nb));
  T_OK(mn_cuda_malloc(&dc, nb));
  T_OK(mn_cuda_malloc(&dy, nb));
  if (du && df && dc && dy) {
    T_OK(mn_cuda_memcpy_h2d(du, hu, nb));
    T_OK(mn_cuda_memcpy_h2d(df, hf, nb));
    T_OK(mn_cuda_memcpy_h2d(dc, hc, nb));
    if (variable) b.c[b.ctr[0]] = (const char *)dc + origin * (int64_t)es;
    T_OK(mn_cuda_stencil_box(t, &b, (const char *)du + origin * (int64_t)es, (char *)dy + origin * (int64_t)es,
                             (const char *)df + origin * (int64_t)es));
    T_OK(mn_cuda_memcpy_d2h(hy, dy, nb));
    int64_t bad = 0, first = -1;
    double tol = t == MN_FLOAT32 ? 1e-5 : 1e-12;
    for (int64_t q = 0; q < inner; q++) {
      int64_t r = q, at = 0;
      for (int d = nd - 1; d >= 0; d--) { at += (r % n[d] + 1) * st[d]; r /= n[d]; }
      double got = t == MN_FLOAT32 ? (double)((float *)hy)[at] : ((double *)hy)[at];
      if (!(fabs(got - want[q]) <= tol * (1 + fabs(want[q])) * 64)) { bad++; if (first < 0) first = q; }
    }
    T_CHECK(bad == 0, "CUDA %d-d %d-point %s%s%s: %lld of %lld points differ (first %lld)", nd, npts,
            mn_dtype_name(t), variable ? " variable" : "", relax ? " Jacobi" : "", (long long)bad, (long long)inner,
            (long long)first);
  }
  mn_cuda_free(du); mn_cuda_free(df); mn_cuda_free(dc); mn_cuda_free(dy);
  free(u); free(f); free(c); free(want); free(hu); free(hf); free(hc); free(hy);
}

static void run_device(mn_ctx *ctx) {
  for (int ti = 0; ti < 2; ti++) {
    mn_dtype t = ti ? MN_FLOAT32 : MN_FLOAT64;
    run_box(ctx, 2, 9, t, 0, 0);
    run_box(ctx, 2, 5, t, 0, 0); /* the constant cross: the column-marching kernel */
    run_box(ctx, 3, 27, t, 0, 0);
    run_box(ctx, 2, 5, t, 1, 0);
    run_box(ctx, 2, 5, t, 0, 1);
    run_box(ctx, 3, 7, t, 1, 1);
    run_box(ctx, 1, 3, t, 0, 1); /* a point count the kernel does not unroll */
    run_box(ctx, 1, 3, t, 1, 0);
  }
  mni_st_cuda_box big;
  memset(&big, 0, sizeof big);
  big.nd = 4;
  big.npts = 1;
  int e = mn_cuda_stencil_box(MN_FLOAT64, &big, NULL, NULL, NULL);
  T_CHECK(e == MN_ERR_NOTIMPL, "a 4-d box returned %s, expected MN_ERR_NOTIMPL", mn_err_name(e));
}
#endif

int main(void) { return mt_cuda_main(MT_CUDA_FN(run_device)); }
