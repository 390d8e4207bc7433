/* The 2-d 5-point Laplacian through mn_stencil_apply and one weighted
 * Jacobi sweep through mn_stencil_jacobi, each beside a hand-written C loop
 * doing the same on a plain padded array (restrict pointers, OpenMP over
 * rows, contiguous rows), in the same run, interleaved repetition by
 * repetition. Strong scaling: an N x N grid over all ranks; the hand loops
 * run on a block of a rank's size. One JSON line per variant; GB/s count
 * the minimal traffic (apply: read u, write y; sweep: read u and f, write
 * the new u). Usage: bench_stencil [N [reps]]. */
#include <maniple/maniple.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#define CK(x) do { int e_ = (x); if (e_) { fprintf(stderr, "%s failed: %s\n", #x, mn_ctx_errmsg(NULL)); \
    MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

/* y = (north + south + west + east - 4 centre) / h^2 over the m x n interior */
static void hand_apply(int64_t m, int64_t n, const double *restrict x, double *restrict y, double ih2) {
  int64_t w = n + 2;
#pragma omp parallel for schedule(static) if (m * n >= 32768)
  for (int64_t i = 1; i <= m; i++) {
    const double *restrict xc = x + i * w;
    double *restrict yr = y + i * w;
    for (int64_t j = 1; j <= n; j++)
      yr[j] = (xc[j - w] + xc[j + w] + xc[j - 1] + xc[j + 1] - 4 * xc[j]) * ih2;
  }
}

/* new = u + omega / D (f - A u), D = -4 / h^2 */
static void hand_jacobi(int64_t m, int64_t n, const double *restrict x, const double *restrict f,
                        double *restrict y, double ih2, double omega) {
  int64_t w = n + 2;
  double wd = omega / (-4 * ih2);
#pragma omp parallel for schedule(static) if (m * n >= 32768)
  for (int64_t i = 1; i <= m; i++) {
    const double *restrict xc = x + i * w, *restrict fr = f + (i - 1) * n;
    double *restrict yr = y + i * w;
    for (int64_t j = 1; j <= n; j++) {
      double au = (xc[j - w] + xc[j + w] + xc[j - 1] + xc[j + 1] - 4 * xc[j]) * ih2;
      yr[j] = xc[j] + wd * (fr[j - 1] - au);
    }
  }
}

#define TIMED(ctx, out, body) do { mn_ctx_wait(ctx); MPI_Barrier(mn_ctx_comm(ctx)); double t0_ = MPI_Wtime(); body; \
    mn_ctx_wait(ctx); double t_ = MPI_Wtime() - t0_; MPI_Allreduce(&t_, &(out), 1, MPI_DOUBLE, MPI_MAX, mn_ctx_comm(ctx)); } while (0)

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  mn_ctx *ctx;
  CK(mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_DEFAULT, &ctx));
  int64_t N = argc > 1 ? atoll(argv[1]) : 2000;
  int reps = argc > 2 ? atoi(argv[2]) : 21;
  int64_t shape[2] = {N, N};
  double h = 1.0 / (double)(N + 1), ih2 = 1 / (h * h);
  mn_stencil *lap;
  double hh[2] = {h, h};
  CK(mn_stencil_create_laplacian(ctx, 2, 5, hh, &lap));
  mn_array *u, *y, *f;
  CK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 1, &u));
  CK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 1, &y));
  CK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 0, &f));
  CK(mn_array_random(u, MN_RANDOM_UNIFORM, 1, 0.0, 1.0));
  CK(mn_array_fill(f, mn_scalar_f64(1.0)));
  /* the hand loops get a rank's block: its rows, all columns */
  mn_local l;
  CK(mn_array_local(u, &l));
  int64_t m = l.count[0], n = l.count[1], w = n + 2;
  double *x = malloc(sizeof(double) * (size_t)((m + 2) * w)), *x2 = malloc(sizeof(double) * (size_t)((m + 2) * w));
  double *fh = malloc(sizeof(double) * (size_t)(m * n));
  for (int64_t i = 0; i < (m + 2) * w; i++) x[i] = x2[i] = (double)(i % 13) * 0.1;
  for (int64_t i = 0; i < m * n; i++) fh[i] = 1;

  enum { V_APPLY, V_HAND, V_JACOBI, V_JACOBI10, V_HAND_JACOBI, NV };
  const char *names[NV] = {"mn_stencil_apply", "hand loop", "mn_stencil_jacobi, 1 sweep a call",
                           "mn_stencil_jacobi, 10 sweeps a call (per sweep)", "hand Jacobi sweep"};
  const char *bench[NV] = {"laplace5_apply", "laplace5_apply", "laplace5_jacobi", "laplace5_jacobi",
                           "laplace5_jacobi"};
  double bytes[NV] = {16, 16, 24, 24, 24};
  double *t[NV];
  for (int v = 0; v < NV; v++) t[v] = malloc(sizeof(double) * (size_t)reps);
  for (int r = 0; r <= reps; r++) { /* r = 0 warms up (plans, pages) */
    double dt[NV];
    TIMED(ctx, dt[V_APPLY], CK(mn_stencil_apply(lap, u, y)));
    TIMED(ctx, dt[V_HAND], hand_apply(m, n, x, x2, ih2));
    TIMED(ctx, dt[V_JACOBI], CK(mn_stencil_jacobi(lap, u, f, 0.8, 1)));
    TIMED(ctx, dt[V_JACOBI10], CK(mn_stencil_jacobi(lap, u, f, 0.8, 10)));
    dt[V_JACOBI10] /= 10;
    TIMED(ctx, dt[V_HAND_JACOBI], hand_jacobi(m, n, x, fh, x2, ih2, 0.8));
    for (int v = 0; v < NV && r > 0; v++) t[v][r - 1] = dt[v];
  }
  int threads = 1;
#ifdef _OPENMP
  threads = omp_get_max_threads();
#endif
  for (int v = 0; v < NV && mn_ctx_rank(ctx) == 0; v++) {
    qsort(t[v], (size_t)reps, sizeof(double), cmpd);
    double med = t[v][reps / 2];
    printf("{\"bench\": \"%s\", \"impl\": \"%s\", \"ranks\": %d, \"threads\": %d, \"N\": %lld, \"median_s\": %.6g, "
           "\"min_s\": %.6g, \"GBps\": %.4g}\n",
           bench[v], names[v], mn_ctx_size(ctx), threads, (long long)N, med, t[v][0],
           (double)N * (double)N * bytes[v] / med / 1e9);
  }
  for (int v = 0; v < NV; v++) free(t[v]);
  free(x); free(x2); free(fh);
  mn_array_destroy(&u); mn_array_destroy(&y); mn_array_destroy(&f);
  mn_stencil_destroy(&lap);
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return 0;
}
