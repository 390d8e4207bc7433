/* poisson: -lap(u) = f on the unit square (2-d) or cube (3-d), u = 0 on the
 * boundary, for the manufactured u = prod_d sin(pi x_d) exp(c_d x_d), solved
 * by CG matrix-free (mn_op_create_stencil over the 5- or 7-point Laplacian)
 * and assembled (the CSR matrix of the same operator), on grids n,
 * (n+1)/2 - 1, ... for the order of convergence. The twin of
 * apps/poisson.py (docs/apps.md); apps/poisson3d.c is the minimal CSR
 * example of docs/solvers.md.
 *
 *   mpiexec -n 4 ./poisson --dim 3 --n 31 --pc jacobi --png u.png
 *
 * Exit status: 0 when the checks pass (order 2 +- 0.2, matrix-free ==
 * assembled), 1 when one fails, 2 on bad input (on every rank). */
#include "common/png.h"
#include "common/cli.h"
#include <maniple/maniple.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ORDER_TOL 0.2

typedef struct {
  long dim, n, levels;
  double rtol;
  int jacobi; /* --pc: 0 none, 1 jacobi */
  const char *png;
} args;

typedef struct {
  int64_t n, N, its_mf, its_as;
  double h, t_mf, t_as, err_max, err_rms, diff;
} level;

static const double C[3] = {1.0, -0.5, 1.0 / 3.0}; /* the exp(c_d x_d) factors */
static const double PI = 3.14159265358979323846;

static const char usage[] =
  "usage: poisson [--dim 2|3] [--n N] [--levels L] [--rtol R] [--pc none|jacobi] [--png PATH] [-log_view]\n"
  APP_LOG_VIEW_HELP;

/* u and f = -lap(u) at the point x */
static void manufactured(int dim, const double *x, double *u, double *f) {
  double g[3], g2[3];
  for (int d = 0; d < dim; d++) {
    double s = sin(PI * x[d]), e = exp(C[d] * x[d]), c = C[d];
    g[d] = s * e;
    g2[d] = ((c * c - PI * PI) * s + 2 * c * PI * cos(PI * x[d])) * e;
  }
  *u = 1;
  *f = 0;
  for (int d = 0; d < dim; d++) {
    *u *= g[d];
    double t = g2[d];
    for (int e = 0; e < dim; e++)
      if (e != d) t *= g[e];
    *f -= t;
  }
}

/* the worst code over the ranks, so that all go on or all stop (the
 * failing rank's message is in its context) */
static int agree(mn_ctx *ctx, int err) {
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, mn_ctx_comm(ctx));
  return err;
}

/* my part of the 1-d vectors u and b = f (grid points in C order) */
static int fill(mn_array *u, mn_array *b, int dim, int64_t n) {
  mn_local lu, lb;
  MN_CALL(mn_array_local(u, &lu));
  MN_CALL(mn_array_local(b, &lb));
  double h = 1.0 / (double)(n + 1);
  for (int64_t i = 0; i < (lu.data ? lu.count[0] : 0); i++) {
    int64_t q = lu.lo[0] + i;
    double x[3];
    for (int d = dim - 1; d >= 0; d--) {
      x[d] = h * (double)(q % n + 1);
      q /= n;
    }
    manufactured(dim, x, (double *)lu.data + i, (double *)lb.data + i);
  }
  return MN_SUCCESS;
}

/* my rows of -lap_h: 2 dim / h^2 on the diagonal, -1 / h^2 to each neighbour */
static int assemble(mn_ctx *ctx, int dim, int64_t n, mn_csr **A) {
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t N = dim == 2 ? n * n : n * n * n, r0 = mn_split_start(N, P, me), nl = mn_split_size(N, P, me);
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *col = malloc(sizeof(int64_t) * (size_t)(7 * nl + 1));
  double *val = malloc(sizeof(double) * (size_t)(7 * nl + 1)), h2 = 1.0 / (double)((n + 1) * (n + 1));
  int err = rp && col && val ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld rows", (long long)nl);
  if (!err) rp[0] = 0;
  for (int64_t i = 0; !err && i < nl; i++) {
    int64_t g = r0 + i, k = rp[i], stride = 1, q = g;
    for (int d = dim - 1; d >= 0; d--, stride *= n, q /= n) { /* the two neighbours along axis d */
      int64_t c = q % n;
      if (c > 0) { col[k] = g - stride; val[k++] = -1 / h2; }
      if (c < n - 1) { col[k] = g + stride; val[k++] = -1 / h2; }
    }
    col[k] = g;
    val[k++] = 2 * dim / h2;
    rp[i + 1] = k;
  }
  err = agree(ctx, err);
  if (!err) err = mn_csr_create_rows(ctx, N, N, MN_FLOAT64, nl, rp, MN_INT64, col, val, A);
  free(rp);
  free(col);
  free(val);
  return err;
}

/* CG to rtol on op; the iterations and seconds */
static int cg(mn_ctx *ctx, mn_op *op, const mn_array *b, mn_array *x, const args *a, int64_t *its, double *secs) {
  char opts[128];
  snprintf(opts, sizeof opts, "-solver cg -pc %s -rtol %.17g -atol 0 -maxit %lld", a->jacobi ? "jacobi" : "none",
           a->rtol, (long long)(20 * mn_op_size(op)));
  mn_solver *s = NULL;
  double rnorm;
  mn_stop_reason why = MN_STOP_NONE;
  MN_CALL(mn_solver_create(ctx, &s));
  int err = mn_solver_set_operator(s, op);
  if (!err) err = mn_solver_set_options(s, opts);
  double t0 = MPI_Wtime();
  if (!err) err = mn_solver_solve(s, b, x);
  if (!err) err = mn_ctx_wait(ctx);
  *secs = MPI_Wtime() - t0;
  if (!err) err = mn_solver_get_result(s, its, &rnorm, &why);
  mn_solver_destroy(&s);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MN_CHECK(mn_stop_reason_converged(why), MN_ERR_ARG, "CG did not converge (%s) after %lld iterations",
           mn_stop_reason_name(why), (long long)*its);
  return MN_SUCCESS;
}

/* one grid: both solves, the errors; the matrix-free solution in *keep */
static int solve(mn_ctx *ctx, const args *a, int64_t n, level *r, mn_array **keep) {
  int dim = (int)a->dim;
  int64_t shape[3] = {n, n, n}, N = dim == 2 ? n * n : n * n * n;
  double h[3] = {1.0 / (double)(n + 1), 1.0 / (double)(n + 1), 1.0 / (double)(n + 1)};
  mn_stencil *s = NULL;
  mn_csr *A = NULL;
  mn_op *mf = NULL, *as = NULL;
  mn_array *grid = NULL, *u = NULL, *b = NULL, *xm = NULL, *xa = NULL, *e = NULL;
  int err = mn_stencil_create_laplacian(ctx, dim, 2 * dim + 1, h, &s);
  if (!err) err = mn_stencil_scale(s, -1.0); /* -lap: SPD; the boundary is Dirichlet 0, the default */
  if (!err) err = mn_array_create(ctx, MN_FLOAT64, dim, shape, 0, &grid);
  if (!err) err = mn_op_create_stencil(s, grid, &mf);
  if (!err) err = assemble(ctx, dim, n, &A);
  if (!err) err = mn_op_create_csr(A, &as);
  mn_array **vs[5] = {&u, &b, &xm, &xa, &e};
  for (int k = 0; k < 5 && !err; k++) err = mn_array_create(ctx, MN_FLOAT64, 1, &N, 0, vs[k]);
  if (!err) err = fill(u, b, dim, n);
  if (!err) err = cg(ctx, mf, b, xm, a, &r->its_mf, &r->t_mf);
  if (!err) err = cg(ctx, as, b, xa, a, &r->its_as, &r->t_as);
  double l2 = 0;
  if (!err) err = mn_array_axpby(1, xm, -1, u, e);
  if (!err) err = mn_array_norm(e, INFINITY, &r->err_max);
  if (!err) err = mn_array_norm(e, 2, &l2);
  if (!err) err = mn_array_axpby(1, xm, -1, xa, e);
  if (!err) err = mn_array_norm(e, INFINITY, &r->diff);
  r->n = n;
  r->N = N;
  r->h = h[0];
  r->err_rms = l2 / sqrt((double)N);
  if (!err && keep) {
    mn_array_destroy(keep);
    *keep = xm;
    xm = NULL;
  }
  mn_op_destroy(&mf);
  mn_op_destroy(&as);
  mn_csr_destroy(&A);
  mn_stencil_destroy(&s);
  mn_array_destroy(&grid);
  for (int k = 0; k < 5; k++) mn_array_destroy(vs[k]);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* the solution (3-d: its middle z plane) as a picture, x across, y up */
static int picture(mn_ctx *ctx, const args *a, const mn_array *x, int64_t n) {
  int rank = mn_ctx_rank(ctx), err = 0;
  int64_t N = mn_array_size(x);
  double *all = rank == 0 ? malloc(sizeof(double) * (size_t)N) : NULL, *img = rank == 0 ? malloc(sizeof(double) * (size_t)(n * n)) : NULL;
  if (rank == 0 && (!all || !img)) err = MN_ERR(MN_ERR_MEM, "cannot allocate a %lld x %lld picture", (long long)n, (long long)n);
  err = agree(ctx, err);
  if (!err) err = mn_array_gather(x, 0, all);
  if (!err && rank == 0) {
    for (int64_t j = 0; j < n; j++)
      for (int64_t i = 0; i < n; i++) img[j * n + i] = a->dim == 2 ? all[i * n + j] : all[(i * n + j) * n + n / 2];
    err = app_png_write_field(a->png, img, n, n, 1);
  }
  free(all);
  free(img);
  return agree(ctx, err);
}

/* the checks between flags; each flag's own value is checked by app_parse */
static int check(args *a) {
  MN_CHECK(a->dim == 2 || a->dim == 3, MN_ERR_ARG, "--dim %ld: 2 or 3", a->dim);
  if (a->n < 0) a->n = a->dim == 2 ? 127 : 31; /* -1: not given */
  MN_CHECK(a->n >= 3, MN_ERR_ARG,
           "grid smaller than the stencil: --n %ld gives %ld points per side, the %ld-point stencil spans 3", a->n,
           a->n, 2 * a->dim + 1);
  return MN_SUCCESS;
}

static int body(mn_ctx *ctx, const args *a, int *ok) {
  int rank = mn_ctx_rank(ctx), nl = 0;
  int64_t ns[64];
  for (long k = a->levels - 1; k >= 0 && k < 62; k--) { /* coarsest first, each still holding the stencil */
    int64_t m = (a->n + 1) / ((int64_t)1 << k) - 1;
    if (m >= 3) ns[nl++] = m;
  }
  level r[64];
  mn_array *x = NULL;
  if (rank == 0) {
    printf("poisson %ld-d, n = %ld (%lld unknowns), C on %d rank(s), CG rtol %g, pc %s\n", a->dim, a->n,
           (long long)(a->dim == 2 ? a->n * a->n : a->n * a->n * a->n), mn_ctx_size(ctx), a->rtol,
           a->jacobi ? "jacobi" : "none");
    printf("%5s %10s %7s %7s %11s %11s %10s\n", "n", "h", "its mf", "its as", "max error", "rms error", "|mf - as|");
  }
  for (int k = 0; k < nl; k++) {
    MN_CALL(solve(ctx, a, ns[k], &r[k], k == nl - 1 ? &x : NULL));
    if (rank == 0)
      printf("%5lld %10.4e %7lld %7lld %11.4e %11.4e %10.2e\n", (long long)r[k].n, r[k].h, (long long)r[k].its_mf,
             (long long)r[k].its_as, r[k].err_max, r[k].err_rms, r[k].diff);
  }
  *ok = 1;
  if (nl > 1) {
    char om[256] = "", orms[256] = "";
    int good = 1;
    for (int k = 1; k < nl; k++) {
      double lh = log(r[k - 1].h / r[k].h), o = log(r[k - 1].err_max / r[k].err_max) / lh,
             o2 = log(r[k - 1].err_rms / r[k].err_rms) / lh;
      good &= fabs(o - 2) <= ORDER_TOL;
      snprintf(om + strlen(om), sizeof om - strlen(om), "%s%.3f", k > 1 ? " " : "", o);
      snprintf(orms + strlen(orms), sizeof orms - strlen(orms), "%s%.3f", k > 1 ? " " : "", o2);
    }
    *ok &= good;
    if (rank == 0)
      printf("order (max error): %s   (rms): %s   %s (2 +- %g)\n", om, orms, good ? "PASS" : "FAIL", ORDER_TOL);
  }
  const level *f = &r[nl - 1];
  int same = f->diff <= 1e-6 * f->err_max + 1e-12 && llabs((long long)(f->its_mf - f->its_as)) <= 1;
  *ok &= same;
  if (rank == 0) {
    printf("matrix-free == assembled: max |difference| %.2e, iterations %lld and %lld %s\n", f->diff,
           (long long)f->its_mf, (long long)f->its_as, same ? "PASS" : "FAIL");
    printf("throughput: matrix-free CG %.3f M unknown-iterations/s (%.3f s), assembled CG %.3f M "
           "unknown-iterations/s (%.3f s)\n",
           (double)f->N * (double)f->its_mf / fmax(f->t_mf, 1e-9) / 1e6, f->t_mf,
           (double)f->N * (double)f->its_as / fmax(f->t_as, 1e-9) / 1e6, f->t_as);
  }
  int err = 0;
  if (a->png) {
    err = picture(ctx, a, x, f->n);
    if (!err && rank == 0)
      printf("picture: %s (u, %lld x %lld%s)\n", a->png, (long long)f->n, (long long)f->n,
             a->dim == 2 ? "" : ", the middle z plane");
  }
  mn_array_destroy(&x);
  return err;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = app_start(&argc, &argv, "poisson");
  int rank = mn_ctx_rank(ctx), ok = 0, status;
  args a = {.dim = 2, .n = -1, .levels = 3, .rtol = 1e-10};
  const app_opt opts[] = {APP_OPT("--dim", APP_INT, &a.dim),
                          APP_BOUNDED("--n", APP_INT, &a.n, APP_NONNEG),
                          APP_BOUNDED("--levels", APP_INT, &a.levels, APP_POS),
                          APP_BOUNDED("--rtol", APP_REAL, &a.rtol, APP_UNIT),
                          APP_OPT("--png", APP_STR, &a.png),
                          APP_CHOOSE("--pc", &a.jacobi, "none|jacobi")};
  int err = app_parse(argc, argv, opts, (int)(sizeof opts / sizeof *opts));
  if (err == -1) {
    if (rank == 0) printf("%s", usage);
    status = 0;
  } else {
    if (!err) err = check(&a);
    if (!err) err = mn_log_view_from_args(ctx, argc, argv);
    if (!err) err = body(ctx, &a, &ok);
    if (err && rank == 0) app_report("poisson", ctx, err == MN_ERR_ARG);
    status = err ? 2 : ok ? 0 : 1;
  }
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return status;
}
