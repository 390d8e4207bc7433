/* laplace_image: the seeds' reconstruction of an image from its Laplacian,
 * over maniple's C API (the twin of apps/laplace_image.py; docs/apps.md).
 * B = the 5-point Laplacian of a PGM picture (zero outside it); the picture
 * is recovered from B by Jacobi sweeps in float32 (mn_stencil_jacobi, which
 * alternates between two grids as the seed swaps X and X2; X starts from
 * B) and by CG in float64 on -lap(X) = -B over the matrix-free stencil
 * operator. Prints the errors against the original, the sweeps and
 * iterations each needed, and a throughput line.
 *
 *   mpiexec -n 4 ./laplace_image --iterations 25000 --png recon.png
 *
 * Exit status: 0 when the Jacobi error decreases and CG's max error is
 * below 1e-3, 1 when not, 2 on bad input (on every rank). */
#include "common/pgm.h"
#include "common/png.h"
#include "common/cli.h"
#include <maniple/maniple.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RECOVERED 0.5 /* max error below this: rounding gives the 8-bit picture back */
#define CG_TOL 1e-3

typedef struct {
  const char *image, *png, *pgm;
  long iterations, every;
  double rtol;
} args;

static const char usage[] = "usage: laplace_image [--image PATH.pgm] [--iterations N] [--every K] [--rtol R]\n"
                            "                     [--png PATH] [--pgm PREFIX] [-log_view]\n"
                            APP_LOG_VIEW_HELP;

static int agree(mn_ctx *ctx, int err) { /* all go on or all stop */
  MPI_Allreduce(MPI_IN_PLACE, &err, 1, MPI_INT, MPI_MAX, mn_ctx_comm(ctx));
  return err;
}

/* max and rms of x - ref (float64 grids; e is work space) */
static int errors(const mn_array *x, const mn_array *ref, mn_array *e, double *emax, double *erms) {
  double l2;
  MN_CALL(mn_array_axpby(1, x, -1, ref, e));
  MN_CALL(mn_array_norm(e, INFINITY, emax));
  MN_CALL(mn_array_norm(e, 2, &l2));
  *erms = l2 / sqrt((double)mn_array_size(e));
  return MN_SUCCESS;
}

/* the whole of a grid as float64 on rank 0 (NULL elsewhere) */
static int gather(const mn_array *a, double **out) {
  mn_ctx *ctx = mn_array_ctx(a);
  int64_t N = mn_array_size(a);
  mn_array *t = NULL;
  *out = mn_ctx_rank(ctx) == 0 ? malloc(sizeof(double) * (size_t)N) : NULL;
  int err = agree(ctx, mn_ctx_rank(ctx) == 0 && !*out ? MN_ERR(MN_ERR_MEM, "cannot allocate a picture") : 0);
  if (!err) err = mn_array_create(ctx, MN_FLOAT64, mn_array_ndim(a), mn_array_shape(a), 0, &t);
  if (!err) err = mn_array_copy(a, t);
  if (!err) err = mn_array_gather(t, 0, *out);
  mn_array_destroy(&t);
  return err;
}

/* original | Laplacian | Jacobi | CG in grey, side by side, 2 white columns
 * between; the reconstructions on the original's scale */
static int montage(const char *path, double *const *p, int64_t m, int64_t n) {
  double lo = INFINITY, hi = -INFINITY, blo = INFINITY, bhi = -INFINITY;
  for (int64_t k = 0; k < m * n; k++) {
    lo = fmin(lo, p[0][k]);
    hi = fmax(hi, p[0][k]);
    blo = fmin(blo, p[1][k]);
    bhi = fmax(bhi, p[1][k]);
  }
  int64_t W = 4 * n + 6;
  unsigned char *rgb = malloc((size_t)(W * m * 3));
  MN_CHECK(rgb, MN_ERR_MEM, "cannot allocate a %lld x %lld picture", (long long)W, (long long)m);
  memset(rgb, 255, (size_t)(W * m * 3));
  for (int q = 0; q < 4; q++) {
    double a = q == 1 ? blo : lo, b = q == 1 ? bhi : hi;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        double t = b > a ? (p[q][i * n + j] - a) / (b - a) : 0.0;
        t = isfinite(t) ? (t < 0 ? 0 : t > 1 ? 1 : t) : 0;
        unsigned char *px = rgb + 3 * (i * W + q * (n + 2) + j);
        px[0] = px[1] = px[2] = (unsigned char)nearbyint(255 * t);
      }
  }
  int err = app_png_write_rgb(path, rgb, W, m);
  free(rgb);
  return err;
}

typedef struct {
  mn_stencil *lap, *neg;            /* the Laplacian (h = 1) and -Laplacian */
  mn_array *img, *blur, *X;         /* float32: the picture (halo 1), B, Jacobi's X (halo 1) */
  mn_array *ref, *x64, *e, *b, *x;  /* float64: the picture, X converted, work, -B, CG's x */
  mn_op *op;
} state;

static void state_free(state *s) {
  mn_array **a[] = {&s->img, &s->blur, &s->X, &s->ref, &s->x64, &s->e, &s->b, &s->x};
  for (size_t k = 0; k < sizeof a / sizeof *a; k++) mn_array_destroy(a[k]);
  mn_op_destroy(&s->op);
  mn_stencil_destroy(&s->lap);
  mn_stencil_destroy(&s->neg);
}

static int setup(mn_ctx *ctx, state *s, const double *pix, int64_t m, int64_t n) {
  int64_t shape[2] = {m, n}, N = m * n;
  double h[2] = {1, 1};
  float *f = malloc(sizeof(float) * (size_t)N);
  MN_CALL(agree(ctx, f ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate a %lld x %lld image", (long long)m, (long long)n)));
  for (int64_t k = 0; k < N; k++) f[k] = (float)pix[k];
  int err = mn_stencil_create_laplacian(ctx, 2, 5, h, &s->lap);
  if (!err) err = mn_stencil_create_laplacian(ctx, 2, 5, h, &s->neg);
  if (!err) err = mn_stencil_scale(s->neg, -1); /* SPD for CG; both Dirichlet 0: zero outside the picture */
  if (!err) err = mn_array_create(ctx, MN_FLOAT32, 2, shape, 1, &s->img);
  if (!err) err = mn_array_set_global(s->img, f);
  if (!err) err = mn_array_create(ctx, MN_FLOAT32, 2, shape, 0, &s->blur);
  if (!err) err = mn_stencil_apply(s->lap, s->img, s->blur);
  if (!err) err = mn_array_create(ctx, MN_FLOAT32, 2, shape, 1, &s->X);
  mn_array **g64[] = {&s->ref, &s->x64, &s->e, &s->b, &s->x};
  for (int k = 0; k < 5 && !err; k++) err = mn_array_create(ctx, MN_FLOAT64, 2, shape, 0, g64[k]);
  if (!err) err = mn_array_copy(s->img, s->ref);
  if (!err) err = mn_array_binary_scalar(MN_OP_MUL, s->blur, mn_scalar_f64(-1), 0, s->b);
  if (!err) err = mn_op_create_stencil(s->neg, s->ref, &s->op);
  free(f);
  return err;
}

/* the seed's loop: X = B, then sweeps in chunks of `every`, the error after each */
static int jacobi(state *s, const args *a, int rank, int *decreasing, double *secs) {
  double first = 0, last = INFINITY, emax = 0, erms = 0;
  long reached = -1, done = 0;
  *decreasing = 1;
  *secs = 0;
  MN_CALL(mn_array_copy(s->blur, s->X));
  if (rank == 0) printf("jacobi (float32, X and X2 swapped each sweep, as the seed):\n%9s %11s %11s\n", "sweeps",
                        "max error", "rms error");
  while (done < a->iterations) {
    long k = a->every < a->iterations - done ? a->every : a->iterations - done;
    double t0 = MPI_Wtime();
    MN_CALL(mn_stencil_jacobi(s->lap, s->X, s->blur, 1.0, (int)k));
    *secs += MPI_Wtime() - t0;
    done += k;
    MN_CALL(mn_array_copy(s->X, s->x64));
    MN_CALL(errors(s->x64, s->ref, s->e, &emax, &erms));
    if (rank == 0) printf("%9ld %11.4e %11.4e\n", done, emax, erms);
    if (done == k) first = emax;
    else if (emax > last * 1.0001 + 1e-4) *decreasing = 0; /* float32 noise allowed */
    last = emax;
    if (reached < 0 && emax < RECOVERED) reached = done;
  }
  if (!(last < first)) *decreasing = 0;
  if (rank == 0) {
    printf("jacobi: %ld sweeps, max error %.4e, rms error %.4e; ", done, emax, erms);
    if (reached > 0) printf("max error < %g (the picture back by rounding) after %ld sweeps\n", RECOVERED, reached);
    else printf("max error not yet < %g\n", RECOVERED);
  }
  return MN_SUCCESS;
}

static int body(mn_ctx *ctx, const args *a, int *ok) {
  int rank = mn_ctx_rank(ctx);
  int64_t m = 0, n = 0;
  int maxval = 0, dec = 0;
  double *pix = NULL, tj = 0, tc = 0, emax = 0, erms = 0, rnorm;
  int err = agree(ctx, app_pgm_read(a->image, &n, &m, &maxval, &pix)); /* every rank reads the file */
  if (!err && (m < 3 || n < 3))
    err = MN_ERR(MN_ERR_ARG, "%s: image %lld x %lld is smaller than the 5-point stencil (3 x 3)", a->image,
                 (long long)m, (long long)n);
  if (err) {
    free(pix);
    return err;
  }
  state s;
  memset(&s, 0, sizeof s);
  err = setup(ctx, &s, pix, m, n);
  if (!err && rank == 0) printf("laplace_image %s: %lld x %lld, C on %d rank(s)\n", a->image, (long long)m,
                                (long long)n, mn_ctx_size(ctx));
  if (!err) err = jacobi(&s, a, rank, &dec, &tj);
  /* CG on -lap(x) = -B, b and x given as the 2-d grids they are */
  mn_solver *sv = NULL;
  int64_t its = 0;
  mn_stop_reason why = MN_STOP_NONE;
  char opts[96];
  snprintf(opts, sizeof opts, "-solver cg -rtol %.17g -atol 0 -maxit %lld", a->rtol, (long long)(10 * m * n));
  if (!err) err = mn_solver_create(ctx, &sv);
  if (!err) err = mn_solver_set_operator(sv, s.op);
  if (!err) err = mn_solver_set_options(sv, opts);
  double t0 = MPI_Wtime();
  if (!err) err = mn_solver_solve(sv, s.b, s.x);
  tc = MPI_Wtime() - t0;
  if (!err) err = mn_solver_get_result(sv, &its, &rnorm, &why);
  mn_solver_destroy(&sv);
  if (!err && !mn_stop_reason_converged(why))
    err = MN_ERR(MN_ERR_ARG, "CG did not converge (%s) after %lld iterations", mn_stop_reason_name(why),
                 (long long)its);
  if (!err) err = errors(s.x, s.ref, s.e, &emax, &erms);
  int good = emax < CG_TOL;
  *ok = dec && good;
  if (!err && rank == 0) {
    printf("cg (float64, matrix-free): %lld iterations to rtol %g, max error %.4e, rms error %.4e\n", (long long)its,
           a->rtol, emax, erms);
    printf("throughput: jacobi %.3f M point-updates/s (%.3f s), cg %.3f M unknown-iterations/s (%.3f s)\n",
           (double)(m * n) * (double)a->iterations / fmax(tj, 1e-9) / 1e6, tj,
           (double)(m * n) * (double)its / fmax(tc, 1e-9) / 1e6, tc);
    printf("checks: jacobi error decreasing %s, cg max error %.2e < %g %s\n", dec ? "PASS" : "FAIL", emax, CG_TOL,
           good ? "PASS" : "FAIL");
  }
  double *p[4] = {NULL, NULL, NULL, NULL};
  if (!err && (a->png || a->pgm)) {
    const mn_array *src[4] = {s.img, s.blur, s.X, s.x};
    for (int q = 0; q < 4 && !err; q++) err = gather(src[q], &p[q]);
  }
  if (!err && a->png) {
    err = agree(ctx, rank == 0 ? montage(a->png, p, m, n) : 0);
    if (!err && rank == 0)
      printf("picture: %s (original | Laplacian | Jacobi | CG, %lld x %lld each)\n", a->png, (long long)m,
             (long long)n);
  }
  if (!err && a->pgm) {
    char pj[1024], pc[1024];
    snprintf(pj, sizeof pj, "%s_jacobi.pgm", a->pgm);
    snprintf(pc, sizeof pc, "%s_cg.pgm", a->pgm);
    int e = 0;
    if (rank == 0) e = app_pgm_write(pj, p[2], n, m);
    if (rank == 0 && !e) e = app_pgm_write(pc, p[3], n, m);
    err = agree(ctx, e);
    if (!err && rank == 0) printf("pgm: %s, %s\n", pj, pc);
  }
  for (int q = 0; q < 4; q++) free(p[q]);
  free(pix);
  state_free(&s);
  return err;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = app_start(&argc, &argv, "laplace_image");
  int rank = mn_ctx_rank(ctx), ok = 0, status;
  args a = {.image = APP_DATA_DIR "/shapes.pgm", .iterations = 25000, .every = 1000, .rtol = 1e-10};
  const app_opt opts[] = {APP_OPT("--image", APP_STR, &a.image),
                          APP_BOUNDED("--iterations", APP_INT, &a.iterations, APP_POS),
                          APP_BOUNDED("--every", APP_INT, &a.every, APP_POS),
                          APP_BOUNDED("--rtol", APP_REAL, &a.rtol, APP_UNIT),
                          APP_OPT("--png", APP_STR, &a.png),
                          APP_OPT("--pgm", APP_STR, &a.pgm)};
  int err = app_parse(argc, argv, opts, (int)(sizeof opts / sizeof *opts));
  if (!err && a.iterations > 2000000000L) /* mn_stencil_jacobi counts its sweeps in an int */
    err = MN_ERR(MN_ERR_ARG, "--iterations %ld must be at most 2000000000", a.iterations);
  if (err == -1) {
    if (rank == 0) printf("%s", usage);
    status = 0;
  } else {
    if (!err) err = mn_log_view_from_args(ctx, argc, argv);
    if (!err) err = body(ctx, &a, &ok);
    int input = err == MN_ERR_ARG || err == MN_ERR_FORMAT || err == MN_ERR_IO; /* a flag, or the picture named */
    if (err && rank == 0) app_report("laplace_image", ctx, input);
    status = err ? 2 : ok ? 0 : 1;
  }
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return status;
}
