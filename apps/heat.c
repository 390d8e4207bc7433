/* heat: the seeds' 5-point averaging stencil in C over maniple's stencil
 * layer (the twin of apps/heat.py; docs/apps.md).
 *
 *   mpiexec -n 4 ./heat --n 4000 --iterations 100 [--save grid.npy] [--png heat.png] [--check]
 *
 * The Python script updates the interior of an (N+2)^2 padded grid from its
 * old values (NumPy evaluates `average` before `center[:] = average`), with
 * the outer rows and columns fixed. Here the N x N interior is a halo'd
 * grid, the fixed rows and columns are Dirichlet ghost values, and each
 * iteration is one stencil application u -> w (0.2 times the five points)
 * with the grids swapped: the same Jacobi sweep, halo messages overlapped
 * with the interior. The sums differ from NumPy's only in rounding order.
 *
 * --check compares the result with a plain serial loop over the padded grid
 * (rank 0, in NumPy's order of operations).
 * Exit status: 0, 1 when the check fails, 2 on bad input (every rank
 * reports it). */
#include "common/cli.h"
#include "common/picture.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define T_NORTH 40.0    /* row 0 of the padded grid */
#define T_OTHER -273.15 /* the other three sides */

static const char usage[] =
  "usage: heat [--n N] [--iterations I] [--save PATH.npy] [--png PATH] [--check] [-log_view]\n"
  "  N x N interior points (grid N+2 square), I Jacobi sweeps of the 5-point average\n" APP_LOG_VIEW_HELP;

typedef struct {
  long n, iterations;
  const char *save, *png;
  int check;
} args;

static int check(mn_ctx *ctx, const args *a) {
  MN_CHECK(a->n >= 1, MN_ERR_ARG,
           "--n %ld is too small: the grid needs N >= 1 interior points (the 5-point stencil spans 3 points per axis)",
           a->n);
  /* every rank's block must hold at least the one-cell halo */
  const int64_t sh[2] = {a->n, a->n};
  int dims[2];
  MN_CALL(mn_grid_dims(mn_ctx_size(ctx), 2, sh, dims));
  MN_CHECK(a->n >= dims[0] && a->n >= dims[1], MN_ERR_ARG,
           "--n %ld is too small for %d ranks: the %d x %d process grid needs N >= %d", a->n, mn_ctx_size(ctx),
           dims[0], dims[1], dims[0] > dims[1] ? dims[0] : dims[1]);
  return MN_SUCCESS;
}

/* the seed's stencil: average of the centre and its four neighbours, with
 * the padded grid's fixed rows and columns as Dirichlet ghost values */
static int make_stencil(mn_ctx *ctx, mn_stencil **s) {
  const int off[10] = {0, 0, -1, 0, 0, 1, 0, -1, 1, 0}; /* centre, north, east, west, south */
  const double w[5] = {0.2, 0.2, 0.2, 0.2, 0.2};
  MN_CALL(mn_stencil_create(ctx, 2, 5, off, w, s));
  MN_CALL(mn_stencil_set_bc(*s, 0, 0, MN_BC_DIRICHLET, T_NORTH));
  MN_CALL(mn_stencil_set_bc(*s, 0, 1, MN_BC_DIRICHLET, T_OTHER));
  MN_CALL(mn_stencil_set_bc(*s, 1, 0, MN_BC_DIRICHLET, T_OTHER));
  MN_CALL(mn_stencil_set_bc(*s, 1, 1, MN_BC_DIRICHLET, T_OTHER));
  return MN_SUCCESS;
}

/* The padded grid of the Python script: the sides as heat.py's initialize
 * sets them (row 0 last, so its corners are 40), the interior from u. */
static int padded(mn_array *u, int64_t n, mn_array **g) {
  const int64_t sh[2] = {n + 2, n + 2};
  mn_array *top = NULL, *in = NULL;
  MN_CALL(mn_array_create(mn_array_ctx(u), MN_FLOAT64, 2, sh, 0, g));
  mn_index row0[1] = {mn_at(0)}, mid[2] = {mn_slice(1, -1, 1), mn_slice(1, -1, 1)};
  int err = mn_array_fill(*g, mn_scalar_f64(T_OTHER));
  if (!err) err = mn_array_index(*g, 1, row0, &top);
  if (!err) err = mn_array_fill(top, mn_scalar_f64(T_NORTH));
  if (!err) err = mn_array_index(*g, 2, mid, &in);
  if (!err) err = mn_array_copy(u, in);
  mn_array_destroy(&top);
  mn_array_destroy(&in);
  if (err) {
    mn_array_destroy(g);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}

/* heat.py's sweeps as plain loops on rank 0: average = c + n + e + w + s,
 * average = 0.2 * average, then the interior copied in (Jacobi). */
static void serial(int64_t n, long iterations, double *x, double *avg) {
  const int64_t m = n + 2;
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < m; j++) x[i * m + j] = i == 0 ? T_NORTH : i == m - 1 || j == 0 || j == m - 1 ? T_OTHER : 0;
  for (long k = 0; k < iterations; k++) {
    for (int64_t i = 1; i <= n; i++)
      for (int64_t j = 1; j <= n; j++) {
        const double *c = x + i * m + j;
        avg[i * m + j] = 0.2 * (c[0] + c[-m] + c[1] + c[-1] + c[m]);
      }
    for (int64_t i = 1; i <= n; i++) memcpy(x + i * m + 1, avg + i * m + 1, sizeof(double) * (size_t)n);
  }
}

static int check_serial(mn_ctx *ctx, mn_array *g, int64_t n, long iterations, int *ok) {
  const int64_t m = n + 2;
  int rank = mn_ctx_rank(ctx), err = 0;
  double *buf = NULL, diff = 0, scale = 0;
  if (rank == 0) {
    buf = malloc(sizeof(double) * (size_t)(3 * m * m));
    err = buf ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld doubles for the check", (long long)(3 * m * m));
  }
  MPI_Bcast(&err, 1, MPI_INT, 0, mn_ctx_comm(ctx));
  if (!err) err = mn_array_gather(g, 0, buf);
  if (err) {
    free(buf);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  if (rank == 0) {
    serial(n, iterations, buf + m * m, buf + 2 * m * m);
    for (int64_t q = 0; q < m * m; q++) {
      diff = fmax(diff, fabs(buf[q] - buf[m * m + q]));
      scale = fmax(scale, fabs(buf[m * m + q]));
    }
    *ok = diff <= 1e-12 * scale;
    printf("check: max |C - serial loop| = %.3e (tol %.1e) %s\n", diff, 1e-12 * scale, *ok ? "PASS" : "FAIL");
  }
  free(buf);
  MPI_Bcast(ok, 1, MPI_INT, 0, mn_ctx_comm(ctx));
  return MN_SUCCESS;
}

static int body(mn_ctx *ctx, const args *a, int *ok) {
  const int64_t n = a->n, sh[2] = {n, n};
  int rank = mn_ctx_rank(ctx), err;
  mn_stencil *s = NULL;
  mn_array *u = NULL, *w = NULL, *g = NULL;
  mn_scalar sum;
  MN_CALL(make_stencil(ctx, &s));
  err = mn_array_create(ctx, MN_FLOAT64, 2, sh, 1, &u);
  if (!err) err = mn_array_create_on(mn_array_layout(u), MN_FLOAT64, 1, &w); /* u's layout: swaps freely */
  if (!err) err = mn_ctx_wait(ctx); /* a GPU runs the kernels after the launches return */
  MPI_Barrier(mn_ctx_comm(ctx));
  double t0 = MPI_Wtime();
  for (long k = 0; !err && k < a->iterations; k++) {
    err = mn_stencil_apply(s, u, w);
    mn_array *t = u;
    u = w;
    w = t;
  }
  if (!err) err = mn_ctx_wait(ctx);
  MPI_Barrier(mn_ctx_comm(ctx));
  double secs = MPI_Wtime() - t0;
  if (!err) err = padded(u, n, &g);
  if (!err) err = mn_array_reduce(MN_RED_SUM, g, &sum);
  if (!err) err = app_finite("u", sum.v.f, a->iterations);
  if (!err && rank == 0) {
    double pts = (double)n * (double)n * (double)a->iterations, sec = secs > 1e-9 ? secs : 1e-9;
    printf("heat: N = %lld, %ld iterations, C on %d rank(s)\n", (long long)n, a->iterations, mn_ctx_size(ctx));
    printf("checksum: %.12e\n", sum.v.f);
    printf("throughput: %.2f M points/s (%.3f s, %.2f GB/s at 16 B per point)\n", pts / sec / 1e6, secs,
           16 * pts / sec / 1e9);
  }
  if (!err && a->save) err = mn_array_save_npy(g, a->save);
  if (!err && a->png) err = app_picture(g, a->png, 0); /* row 0 (the warm side) on top, as printed */
  if (!err && a->png && rank == 0) printf("picture: %s (%lldx%lld grid)\n", a->png, (long long)(n + 2), (long long)(n + 2));
  *ok = 1;
  if (!err && a->check) err = check_serial(ctx, g, n, a->iterations, ok);
  mn_array_destroy(&g);
  mn_array_destroy(&u);
  mn_array_destroy(&w);
  mn_stencil_destroy(&s);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = app_start(&argc, &argv, "heat");
  args a = {.n = 1000, .iterations = 100};
  const app_opt opts[] = {APP_OPT("--n", APP_INT, &a.n),
                          APP_BOUNDED("--iterations", APP_INT, &a.iterations, APP_NONNEG),
                          APP_OPT("--save", APP_STR, &a.save),
                          APP_OPT("--png", APP_STR, &a.png),
                          APP_OPT("--check", APP_SET, &a.check)};
  int status = 0, ok = 1, err = app_parse(argc, argv, opts, (int)(sizeof opts / sizeof *opts));
  if (err == -1) {
    if (mn_ctx_rank(ctx) == 0) fputs(usage, stdout);
  } else {
    if (!err) err = mn_log_view_from_args(ctx, argc, argv);
    if (!err) err = check(ctx, &a);
    if (!err) err = body(ctx, &a, &ok);
    if (err) app_report("heat", ctx, err == MN_ERR_ARG);
    status = err == MN_ERR_ARG ? 2 : err || !ok ? 1 : 0;
  }
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return status;
}
