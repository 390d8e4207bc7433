/* GPU kernels of the CUDA backend, timed beside the device's own copy
 * (cudaMemcpy device to device, the GPU's STREAM copy) in the same run.
 * One rank, one device. Prints one line per kernel: median time of reps,
 * bytes moved per call, GB/s and the ratio to the copy's GB/s.
 *   bench_cuda [n_elements] [reps]   (defaults 2^26, 20)
 * Exits 77 with a message where no CUDA device is usable. */
#include "cuda/cuda_backend.h"
#include "cuda/stencil_cuda.h"
#include <cuda_runtime_api.h>
#include <maniple/maniple.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

#define MAXREP 200
static int reps = 20;
static double copy_gbs = 0, last_med = 0;

/* The named call, timed reps times after one warm-up, synchronised. */
#define TIME(name, bytes, call)                                              \
  do {                                                                       \
    double ts_[MAXREP];                                                      \
    if ((call) != 0) { fprintf(stderr, "%s: %s\n", name, mn_ctx_errmsg(NULL)); exit(1); } \
    cudaDeviceSynchronize();                                                 \
    for (int r_ = 0; r_ < reps; r_++) {                                      \
      double t0_ = now();                                                    \
      (void)(call);                                                          \
      cudaDeviceSynchronize();                                               \
      ts_[r_] = now() - t0_;                                                 \
    }                                                                        \
    qsort(ts_, (size_t)reps, sizeof(double), cmp);                           \
    double med_ = ts_[reps / 2], gbs_ = (double)(bytes) / med_ / 1e9;        \
    last_med = med_;                     \
    if (copy_gbs == 0) copy_gbs = gbs_;                                      \
    printf("%-34s %10.3f ms %9.1f MB %8.1f GB/s %6.2f x copy\n", name,     \
           med_ * 1e3, (double)(bytes) / 1e6, gbs_, gbs_ / copy_gbs);        \
  } while (0)

/* z = x + 2.5*y (long = 0) or z = sqrt(x*x + y*y)*0.5 + x through
 * maniple arrays on the device: one NVRTC-compiled kernel per statement */
static int fused(mn_expr *e, int root, mn_array *z) { return mn_expr_eval(e, root, z); }
static int build(mn_ctx *ctx, mn_array *x, mn_array *y, int lng, mn_expr **e, int *root) {
  int ix, iy, s, t, u, v;
  MN_CALL(mn_expr_create(ctx, e));
  MN_CALL(mn_expr_input(*e, x, &ix));
  MN_CALL(mn_expr_input(*e, y, &iy));
  if (!lng) {
    MN_CALL(mn_expr_scalar(*e, mn_scalar_f64(2.5), &s));
    MN_CALL(mn_expr_binary(*e, MN_OP_MUL, s, iy, &t));
    return mn_expr_binary(*e, MN_OP_ADD, ix, t, root);
  }
  MN_CALL(mn_expr_binary(*e, MN_OP_MUL, ix, ix, &s));
  MN_CALL(mn_expr_binary(*e, MN_OP_MUL, iy, iy, &t));
  MN_CALL(mn_expr_binary(*e, MN_OP_ADD, s, t, &u));
  MN_CALL(mn_expr_unary(*e, MN_OP_SQRT, u, &v));
  MN_CALL(mn_expr_scalar(*e, mn_scalar_f64(0.5), &s));
  MN_CALL(mn_expr_binary(*e, MN_OP_MUL, v, s, &t));
  return mn_expr_binary(*e, MN_OP_ADD, t, ix, root);
}

static int d2d(void *dst, const void *src, size_t n) {
  return cudaMemcpy(dst, src, n, cudaMemcpyDeviceToDevice) == cudaSuccess ? 0 : 1;
}

int main(int argc, char **argv) {
  int64_t n = argc > 1 ? atoll(argv[1]) : (int64_t)1 << 26;
  if (argc > 2) reps = atoi(argv[2]);
  if (n < 1024 || reps < 1 || reps > MAXREP) { fprintf(stderr, "bench_cuda: bad n %lld or reps %d\n", (long long)n, reps); return 2; }
  int count = 0;
  const char *why = "";
  mn_cuda_device_count(&count, &why);
  if (count == 0) { printf("SKIP: %s\n", why); return 77; }
  struct cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("device %s, %d SMs; n = %lld float64, %d reps, median\n", p.name, p.multiProcessorCount, (long long)n, reps);
  size_t nb = (size_t)n * 8;
  void *a, *b, *c, *o;
  if (mn_cuda_malloc(&a, nb) || mn_cuda_malloc(&b, nb) || mn_cuda_malloc(&c, nb) || mn_cuda_malloc(&o, nb)) {
    fprintf(stderr, "bench_cuda: %s\n", mn_ctx_errmsg(NULL));
    return 1;
  }
  double *h = malloc(nb);
  for (int64_t i = 0; i < n; i++) h[i] = 1.0 + 1e-3 * (double)(i % 1000);
  mn_cuda_memcpy_h2d(a, h, nb);
  mn_cuda_memcpy_h2d(b, h, nb);
  mn_cuda_memcpy_h2d(c, h, nb);
  double r = 0;
  TIME("cudaMemcpy D2D (copy)", 2 * nb, d2d(o, a, nb));
  TIME("mn_cuda_binary add", 3 * nb, mn_cuda_binary(MN_OP_ADD, MN_FLOAT64, n, a, b, o));
  TIME("mn_cuda_ternary fma (triad)", 4 * nb, mn_cuda_ternary(MN_OP_FMA, MN_FLOAT64, n, a, b, c, o));
  TIME("mn_cuda_unary sqrt", 2 * nb, mn_cuda_unary(MN_OP_SQRT, MN_FLOAT64, n, a, o));
  TIME("mn_cuda_cast float64->float32", 12 * (size_t)n, mn_cuda_cast(MN_FLOAT64, MN_FLOAT32, n, a, o));
  TIME("mn_cuda_axpy (cuBLAS)", 3 * nb, mn_cuda_axpy(MN_FLOAT64, n, 0.5, a, o));
  TIME("mn_cuda_dot (cuBLAS)", 2 * nb, mn_cuda_dot(MN_FLOAT64, n, a, b, &r));
  /* 2-d 5-point Jacobi sweep over the interior of an m x m grid that fits n */
  int64_t m = (int64_t)sqrt((double)n);
  mni_st_cuda_box bx;
  memset(&bx, 0, sizeof bx);
  bx.nd = 2; bx.npts = 5; bx.relax = 1; bx.nctr = 1; bx.ctr[0] = 2;
  bx.cnt[0] = bx.cnt[1] = m - 2;
  bx.ust[0] = bx.yst[0] = bx.fst[0] = m;
  bx.ust[1] = bx.yst[1] = bx.fst[1] = 1;
  int64_t off[5] = {-m, -1, 0, 1, m};
  double w[5] = {-1, -1, 4, -1, -1};
  for (int k = 0; k < 5; k++) { bx.off[k] = off[k]; bx.w[k] = w[k]; }
  bx.omega = 1.0; bx.wd = 0.25;
  int64_t org = m + 1, pts = (m - 2) * (m - 2);
  char name[64];
  snprintf(name, sizeof name, "stencil 5-pt Jacobi %lldx%lld", (long long)m, (long long)m);
  TIME(name, 3 * 8 * (size_t)pts,
       mn_cuda_stencil_box(MN_FLOAT64, &bx, (char *)a + 8 * org, (char *)o + 8 * org, (char *)b + 8 * org));
  printf("stencil: %.2f G points/s\n", (double)pts / last_med / 1e9);
  /* fused expressions of maniple arrays on a CUDA context */
  mn_ctx *ctx = NULL;
  mn_array *x = NULL, *y = NULL, *z = NULL;
  if (mn_ctx_create(MPI_COMM_NULL, MN_BACKEND_CUDA, &ctx) || mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x) ||
      mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &y) || mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &z) ||
      mn_array_fill(x, mn_scalar_f64(1.5)) || mn_array_fill(y, mn_scalar_f64(-0.5))) {
    fprintf(stderr, "bench_cuda: %s\n", mn_ctx_errmsg(NULL));
    return 1;
  }
  for (int lng = 0; lng < 2; lng++) {
    mn_expr *e = NULL;
    int root = 0;
    if (build(ctx, x, y, lng, &e, &root)) { fprintf(stderr, "bench_cuda: %s\n", mn_ctx_errmsg(NULL)); return 1; }
    TIME(lng ? "maniple z = sqrt(x*x+y*y)*0.5 + x" : "maniple z = x + 2.5*y (NVRTC)", 3 * nb, fused(e, root, z));
    mn_expr_destroy(&e);
  }
  mn_scalar s0;
  mn_array_get(z, (int64_t[]){n - 1}, &s0); /* the long one: sqrt(2.5)*0.5 + 1.5 */
  printf("fused check: z[n-1] = %.15g (want %.15g)\n", s0.v.f, sqrt(2.5) * 0.5 + 1.5);
  mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&z);
  mn_ctx_destroy(&ctx);
  mn_cuda_free(a); mn_cuda_free(b); mn_cuda_free(c); mn_cuda_free(o);
  free(h);
  return r > 0 ? 0 : 1;
}
