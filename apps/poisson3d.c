/* Solve the 3-d Poisson problem -Laplace(u) = f on the unit cube (7-point
 * stencil, zero boundary values, n^3 interior unknowns) for a known u, so
 * the answer can be checked: b = A u, solve A x = b, report the
 * iterations, why the solver stopped, the residual and max |x - u|.
 *
 *   mpiexec -n 2 build/apps/poisson3d -n 32 -solver cg -pc jacobi -rtol 1e-8
 *
 * Every argument but -n N and -log_view (the profiling table, docs/profiling.md)
 * goes to mn_solver_set_options. Exit status 0
 * when the solver converged. */
#include <maniple/maniple.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* u at grid point g: smooth, zero on the boundary, and no eigenvector of
 * the discrete Laplacian (which would make the solve too easy) */
static double exact(int64_t g, int64_t n) {
  double h = 1.0 / (double)(n + 1);
  double x = h * (double)(g % n + 1), y = h * (double)((g / n) % n + 1), z = h * (double)(g / (n * n) + 1);
  return 64 * x * (1 - x) * y * (1 - y) * z * (1 - z) * exp(x + 2 * y - z);
}

/* my rows of the 7-point matrix (scaled by h^2: 6 on the diagonal) */
static int assemble(mn_ctx *ctx, int64_t n, mn_csr **A) {
  int64_t N = n * n * n, P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t r0 = mn_split_start(N, (int)P, (int)me), nl = mn_split_size(N, (int)P, (int)me);
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *col = malloc(sizeof(int64_t) * (size_t)(7 * nl + 1));
  double *val = malloc(sizeof(double) * (size_t)(7 * nl + 1));
  int err = rp && col && val ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld rows", (long long)nl);
  for (int64_t i = 0; !err && i < nl; i++) {
    int64_t g = r0 + i, x = g % n, y = (g / n) % n, z = g / (n * n), k = i ? rp[i] : 0;
    const int64_t nb[6] = {z > 0 ? g - n * n : -1, y > 0 ? g - n : -1, x > 0 ? g - 1 : -1,
                           x < n - 1 ? g + 1 : -1, y < n - 1 ? g + n : -1, z < n - 1 ? g + n * n : -1};
    if (!i) rp[0] = 0;
    for (int q = 0; q < 6; q++)
      if (nb[q] >= 0) { col[k] = nb[q]; val[k++] = -1; }
    col[k] = g;
    val[k++] = 6;
    rp[i + 1] = k;
  }
  if (!err) err = mn_csr_create_rows(ctx, N, N, MN_FLOAT64, nl, rp, MN_INT64, col, val, A);
  free(rp);
  free(col);
  free(val);
  return err;
}

static int run(mn_ctx *ctx, int64_t n, const char *opts) {
  int64_t N = n * n * n, its;
  mn_csr *A = NULL;
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *u = NULL, *b = NULL, *x = NULL, *r = NULL;
  double rnorm, bnorm, rtrue, err;
  mn_stop_reason why;
  MN_CALL(assemble(ctx, n, &A));
  MN_CALL(mn_op_create_csr(A, &op));
  MN_CALL(mn_array_create(ctx, MN_FLOAT64, 1, &N, 0, &u));
  MN_CALL(mn_array_create(ctx, MN_FLOAT64, 1, &N, 0, &b));
  MN_CALL(mn_array_create(ctx, MN_FLOAT64, 1, &N, 0, &x));
  MN_CALL(mn_array_create(ctx, MN_FLOAT64, 1, &N, 0, &r));
  mn_local l; /* u on my part of the grid */
  MN_CALL(mn_array_local(u, &l));
  for (int64_t i = 0; i < (l.data ? l.count[0] : 0); i++) ((double *)l.data)[i] = exact(l.lo[0] + i, n);
  MN_CALL(mn_csr_spmv(A, u, b)); /* the right-hand side that u solves */
  MN_CALL(mn_solver_create(ctx, &s));
  MN_CALL(mn_solver_set_operator(s, op));
  MN_CALL(mn_solver_set_options(s, opts));
  double t0 = MPI_Wtime();
  MN_CALL(mn_solver_solve(s, b, x));
  MN_CALL(mn_ctx_wait(ctx));
  double t = MPI_Wtime() - t0;
  MN_CALL(mn_solver_get_result(s, &its, &rnorm, &why));
  /* the true residual and the error, computed independently of the solver */
  MN_CALL(mn_csr_spmv(A, x, r));
  MN_CALL(mn_array_axpby(1, b, -1, r, r));
  MN_CALL(mn_array_norm(r, 2, &rtrue));
  MN_CALL(mn_array_norm(b, 2, &bnorm));
  MN_CALL(mn_array_axpby(1, x, -1, u, r));
  MN_CALL(mn_array_norm(r, INFINITY, &err));
  if (mn_ctx_rank(ctx) == 0) {
    printf("poisson3d: n = %lld (%lld unknowns), %d ranks, options \"%s\"\n", (long long)n, (long long)N,
           mn_ctx_size(ctx), opts);
    printf("iterations %lld, %s, residual %.3e (relative %.3e), max |x - u| %.3e, %.3f s\n", (long long)its,
           mn_stop_reason_name(why), rtrue, rtrue / bnorm, err, t);
  }
  mn_solver_destroy(&s);
  mn_op_destroy(&op);
  mn_csr_destroy(&A);
  mn_array_destroy(&u);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_array_destroy(&r);
  return mn_stop_reason_converged(why) ? MN_SUCCESS : -1;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  mn_ctx *ctx = NULL;
  if (mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_DEFAULT, &ctx)) {
    fprintf(stderr, "poisson3d: %s\n", mn_ctx_errmsg(NULL));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  int64_t n = 32;
  char opts[1024] = "";
  for (int i = 1; i < argc; i++) { /* -n N and -log_view here, the rest for the solver */
    if (mn_log_is_flag(argv[i])) continue;
    if (!strcmp(argv[i], "-n") && i + 1 < argc) {
      char *end;
      n = strtoll(argv[++i], &end, 10);
      if (*end || n < 1) {
        if (mn_ctx_rank(ctx) == 0) fprintf(stderr, "poisson3d: -n needs a positive integer, got '%s'\n", argv[i]);
        MPI_Finalize();
        return 2;
      }
    } else if (strlen(opts) + strlen(argv[i]) + 2 < sizeof opts) {
      strcat(opts, *opts ? " " : "");
      strcat(opts, argv[i]);
    }
  }
  int rc = mn_log_view_from_args(ctx, argc, argv);
  if (!rc) rc = run(ctx, n, *opts ? opts : "-solver cg -pc jacobi -rtol 1e-8");
  if (rc > 0 && mn_ctx_rank(ctx) == 0) fprintf(stderr, "poisson3d: %s\n", mn_ctx_errmsg(ctx));
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return rc ? 1 : 0;
}
