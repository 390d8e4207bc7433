/* CG + Jacobi on the 2-d 5-point Poisson matrix (m x m grid), a fixed
 * number of iterations with no convergence test (PETSc's -ksp_type cg
 * -pc_type jacobi -ksp_max_it N -ksp_convergence_test skip -ksp_norm_type
 * none), each solve timed whole (the preconditioner's set-up included; the
 * median of reps after one warm-up solve), as bench_cg_petsc times PETSc. At one rank the
 * same iteration written as PETSc sequences it (product, p.q, two axpys,
 * z = D^-1 r, r.z, p = z + beta p: one pass each) in plain C runs beside
 * it, as the unfused reference. One JSON line per configuration.
 * Usage: bench_cg [m=2000] [iterations=200] [repeats=3] [rtol]: with rtol,
 * one solve to that tolerance instead, printing its iteration count. */
#include <maniple/maniple.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { int e_ = (x); if (e_) { fprintf(stderr, "%s failed: %s\n", #x, mn_ctx_errmsg(NULL)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

static mn_csr *poisson(mn_ctx *ctx, int64_t m) {
  int64_t n = m * m, P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t r0 = mn_split_start(n, (int)P, (int)me), nl = mn_split_size(n, (int)P, (int)me);
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *c = malloc(sizeof(int64_t) * (size_t)(5 * nl + 1));
  double *v = malloc(sizeof(double) * (size_t)(5 * nl + 1));
  rp[0] = 0;
  for (int64_t i = 0; i < nl; i++) {
    int64_t g = r0 + i, x = g % m, y = g / m, k = rp[i];
    if (y > 0) { c[k] = g - m; v[k++] = -1; }
    if (x > 0) { c[k] = g - 1; v[k++] = -1; }
    c[k] = g; v[k++] = 4;
    if (x < m - 1) { c[k] = g + 1; v[k++] = -1; }
    if (y < m - 1) { c[k] = g + m; v[k++] = -1; }
    rp[i + 1] = k;
  }
  mn_csr *A = NULL;
  CK(mn_csr_create_rows(ctx, n, n, MN_FLOAT64, nl, rp, MN_INT64, c, v, &A));
  free(rp); free(c); free(v);
  return A;
}

/* the unfused sequence, serial: CSR arrays of the whole matrix */
static double unfused(int64_t m, int its) {
  int64_t n = m * m, *rp = malloc(sizeof(int64_t) * (size_t)(n + 1));
  int32_t *c = malloc(sizeof(int32_t) * (size_t)(5 * n));
  double *v = malloc(sizeof(double) * (size_t)(5 * n)), *x = calloc((size_t)n, 8), *r = malloc((size_t)n * 8),
         *z = malloc((size_t)n * 8), *p = malloc((size_t)n * 8), *q = malloc((size_t)n * 8), *d = malloc((size_t)n * 8);
  rp[0] = 0;
  for (int64_t g = 0; g < n; g++) {
    int64_t xx = g % m, y = g / m, k = rp[g];
    if (y > 0) { c[k] = (int32_t)(g - m); v[k++] = -1; }
    if (xx > 0) { c[k] = (int32_t)(g - 1); v[k++] = -1; }
    c[k] = (int32_t)g; v[k++] = 4;
    if (xx < m - 1) { c[k] = (int32_t)(g + 1); v[k++] = -1; }
    if (y < m - 1) { c[k] = (int32_t)(g + m); v[k++] = -1; }
    rp[g + 1] = k;
    r[g] = 1; d[g] = 0.25; z[g] = 0.25; p[g] = 0.25;
  }
  double rz = 0.25 * (double)n, t0 = MPI_Wtime();
  for (int it = 0; it < its; it++) {
    double pq = 0, rz1 = 0;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
      double s = 0;
      for (int64_t k = rp[i]; k < rp[i + 1]; k++) s += v[k] * p[c[k]];
      q[i] = s;
    }
#pragma omp parallel for schedule(static) reduction(+ : pq)
    for (int64_t i = 0; i < n; i++) pq += p[i] * q[i];
    double a = rz / pq;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) x[i] += a * p[i];
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) r[i] -= a * q[i];
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) z[i] = d[i] * r[i];
#pragma omp parallel for schedule(static) reduction(+ : rz1)
    for (int64_t i = 0; i < n; i++) rz1 += r[i] * z[i];
    double b = rz1 / rz;
    rz = rz1;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) p[i] = z[i] + b * p[i];
  }
  double t = MPI_Wtime() - t0;
  if (x[n / 2] != x[n / 2]) t = -1; /* keep the result alive */
  free(rp); free(c); free(v); free(x); free(r); free(z); free(p); free(q); free(d);
  return t;
}

static int cmpd(const void *a, const void *b) {
  double u = *(const double *)a, w = *(const double *)b;
  return (u > w) - (u < w);
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int64_t m = argc > 1 ? atoll(argv[1]) : 2000;
  int its = argc > 2 ? atoi(argv[2]) : 200, reps = argc > 3 ? atoi(argv[3]) : 3;
  mn_ctx *ctx = NULL;
  CK(mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_DEFAULT, &ctx));
  int64_t n = m * m;
  mn_csr *A = poisson(ctx, m);
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *b = NULL, *x = NULL;
  CK(mn_op_create_csr(A, &op));
  CK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  CK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  CK(mn_array_fill(b, mn_scalar_f64(1)));
  CK(mn_solver_create(ctx, &s));
  CK(mn_solver_set_operator(s, op));
  char opts[100];
  if (argc > 4) { /* to a tolerance: the count */
    snprintf(opts, sizeof opts, "-solver cg -pc jacobi -maxit 100000 -rtol %s", argv[4]);
    CK(mn_solver_set_options(s, opts));
    CK(mn_solver_solve(s, b, x));
    int64_t k;
    double rn;
    mn_stop_reason why;
    CK(mn_solver_get_result(s, &k, &rn, &why));
    if (mn_ctx_rank(ctx) == 0)
      printf("{\"bench\": \"cg_jacobi_count\", \"grid\": %lld, \"ranks\": %d, \"rtol\": %s, \"iterations\": %lld, "
             "\"reason\": \"%s\", \"rnorm\": %.6e}\n", (long long)m, mn_ctx_size(ctx), argv[4], (long long)k,
             mn_stop_reason_name(why), rn);
    reps = 0;
  }
  snprintf(opts, sizeof opts, "-solver cg -pc jacobi -maxit %d -skip_test", its);
  CK(mn_solver_set_options(s, opts));
  /* the first solve warms up (page faults of the work vectors), as the
   * PETSc peer's; then reps solves, each timed on the slowest rank */
  double *t = malloc(sizeof(double) * (size_t)(reps + 1)), best_ref = 1e30;
  for (int r = 0; r <= reps && reps > 0; r++) {
    CK(mn_array_fill(x, mn_scalar_f64(0)));
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime();
    CK(mn_solver_solve(s, b, x));
    CK(mn_ctx_wait(ctx));
    double dt = MPI_Wtime() - t0, tmax;
    MPI_Allreduce(&dt, &tmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (r) t[r - 1] = tmax;
    if (r && mn_ctx_size(ctx) == 1) {
      double tr = unfused(m, its);
      if (tr < best_ref) best_ref = tr;
    }
  }
  if (mn_ctx_rank(ctx) == 0 && reps > 0) {
    qsort(t, (size_t)reps, sizeof(double), cmpd);
    double med = reps % 2 ? t[reps / 2] : 0.5 * (t[reps / 2 - 1] + t[reps / 2]);
    printf("{\"bench\": \"cg_jacobi_poisson\", \"impl\": \"maniple\", \"ranks\": %d, \"G\": %lld, "
           "\"iterations\": %d, \"median_s\": %.6g, \"min_s\": %.6g, \"max_s\": %.6g, \"ms_per_iteration\": %.6g, "
           "\"times_s\": [", mn_ctx_size(ctx), (long long)m, its, med, t[0], t[reps - 1], 1e3 * med / its);
    for (int r = 0; r < reps; r++) printf("%s%.6g", r ? ", " : "", t[r]);
    printf("]");
    if (mn_ctx_size(ctx) == 1) printf(", \"unfused_c_ms_per_iteration_best\": %.6g", 1e3 * best_ref / its);
    printf("}\n");
  }
  free(t);
  mn_solver_destroy(&s);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_op_destroy(&op);
  mn_csr_destroy(&A);
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return 0;
}
