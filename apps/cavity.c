/* cavity: lid-driven cavity and channel flow ("12 steps to Navier-Stokes",
 * steps 11 and 12) in C over maniple (the twin of apps/cavity.py;
 * docs/apps.md).
 *
 *   mpiexec -n 4 ./cavity --case cavity --nx 41 --ny 41 --nt 500 --nit 50
 *   mpiexec -n 2 ./cavity --case channel --save out/channel --check
 *
 * Prints max |u|, max |v|, the velocity at the centre, the centreline's
 * range and the throughput. --save PREFIX writes PREFIX_u.npy, _v.npy and
 * _p.npy; --check also verifies the flow's expected shape and, on more
 * than one rank or with the expressions' scheme, that the reference run
 * (one rank, loops on the host) gives the same fields.
 * Exit status: 0, 1 when a check fails, 2 on bad input (every rank reports it). */
#include "cavity.h"
#include "common/cli.h"
#include "common/copies.h"
#include "common/picture.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
  "usage: cavity [--case cavity|channel] [--nx N] [--ny N] [--nt STEPS] [--nit SWEEPS] [--dt DT]\n"
  "              [--rho RHO] [--nu NU] [--tol TOL] [--perturb A] [--scheme auto|loops|exprs]\n"
  "              [--save PREFIX] [--png PATH] [--check] [-log_view]\n"
  "  defaults: 41 x 41, nit 50, rho 1, nu 0.1; cavity nt 500, dt 0.001; channel dt 0.01, F 1,\n"
  "  until the relative change of sum(u) is below tol 1e-3 (nt caps the steps);\n"
  "  scheme: loops over each rank's block, or fused expressions (which run on a\n"
  "  device backend's device); auto: expressions on a device backend\n" APP_LOG_VIEW_HELP;

typedef struct {
  cav_opts o;
  const char *kase, *save, *png, *scheme;
  int check;
} args;

typedef struct {
  double umax, vmax, uc, vc, line_min, line_max;
} figures;

static int get(mn_array *a, int64_t i, int64_t j, double *x) {
  const int64_t idx[2] = {i, j};
  mn_scalar s;
  MN_CALL(mn_array_get(a, idx, &s));
  *x = s.v.f;
  return MN_SUCCESS;
}

/* the printed figures; line: u on the vertical centreline x = 1 */
static int summarise(cav *c, const cav_opts *o, figures *f) {
  mn_scalar s;
  MN_CALL(mn_array_reduce(MN_RED_MAXABS, cav_u(c), &s));
  f->umax = s.v.f;
  MN_CALL(mn_array_reduce(MN_RED_MAXABS, cav_v(c), &s));
  f->vmax = s.v.f;
  MN_CALL(get(cav_u(c), o->ny / 2, o->nx / 2, &f->uc));
  MN_CALL(get(cav_v(c), o->ny / 2, o->nx / 2, &f->vc));
  mn_array *line = NULL;
  const mn_index col[2] = {mn_all(), mn_at(o->nx / 2)};
  MN_CALL(mn_array_index(cav_u(c), 2, col, &line));
  int err = mn_array_reduce(MN_RED_MIN, line, &s);
  f->line_min = s.v.f;
  if (!err) err = mn_array_reduce(MN_RED_MAX, line, &s);
  f->line_max = s.v.f;
  mn_array_destroy(&line);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

static int save(cav *c, const char *prefix) {
  char path[4096];
  mn_array *f[3] = {cav_u(c), cav_v(c), cav_p(c)};
  const char *names[3] = {"u", "v", "p"};
  for (int k = 0; k < 3; k++) {
    snprintf(path, sizeof path, "%s_%s.npy", prefix, names[k]);
    MN_CALL(mn_array_save_npy(f[k], path));
  }
  return MN_SUCCESS;
}

/* the speed sqrt(u^2 + v^2), y up */
static int picture(cav *c, const char *path, const cav_opts *o, int rank) {
  mn_array *speed = NULL;
  MN_CALL(app_speed(cav_u(c), cav_v(c), &speed));
  int err = app_picture(speed, path, 1);
  mn_array_destroy(&speed);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  if (rank == 0) printf("picture: %s (speed, %ldx%ld, y up)\n", path, o->nx, o->ny);
  return MN_SUCCESS;
}

/* The flow's expected shape: the cavity's centreline u changes sign (the
 * lid drags the top forward, the return flow runs below); the channel's
 * profile approaches Poiseuille's parabola u = F/(2 nu) y (2 - y), here
 * compared in shape (u / max u against y (2 - y)) because the course stops
 * before the steady state. */
static int shape_check(cav *c, const cav_opts *o, const figures *f, long steps, int rank, int *ok) {
  if (o->channel && steps >= o->nt) { /* stopped by --nt: no steady shape to expect */
    if (rank == 0) printf("check: profile shape not checked (stopped at --nt %ld before --tol %g)\n", o->nt, o->tol);
    return MN_SUCCESS;
  }
  if (!o->channel) {
    *ok = f->line_min < 0 && f->line_max > 0;
    if (rank == 0)
      printf("check: centreline u changes sign (min %.4f, max %.4f) %s\n", f->line_min, f->line_max,
             *ok ? "PASS" : "FAIL");
    return MN_SUCCESS;
  }
  double worst = 0, dy = 2 / (double)(o->ny - 1);
  for (int64_t i = 0; i < o->ny; i++) {
    double x = 0, y = (double)i * dy;
    MN_CALL(get(cav_u(c), i, o->nx / 2, &x));
    worst = fmax(worst, fabs(x / f->line_max - y * (2 - y)));
  }
  *ok = f->line_max > 0 && worst < 0.05;
  if (rank == 0)
    printf("check: profile shape vs Poiseuille max |u/max u - y(2-y)| = %.4f (tol 0.05), max u %.4f of %.4f %s\n",
           worst, f->line_max, o->F / (2 * o->nu), *ok ? "PASS" : "FAIL");
  return MN_SUCCESS;
}

/* Rank 0 reruns the case alone with the host's loops and compares the
 * fields: neither the split nor the scheme's rendering (expressions on the
 * device) may change the answer. */
static int ref_check(mn_ctx *ctx, cav *c, const cav_opts *o, long steps, int *ok) {
  int rank = mn_ctx_rank(ctx), err = 0;
  int64_t n = o->nx * o->ny;
  double diff = 0;
  long steps1 = steps;
  mn_ctx *self = NULL;
  cav *c1 = NULL;
  double *all = NULL;
  cav_opts o1 = *o;
  o1.scheme = CAV_LOOPS;
  if (rank == 0) { /* the reference run first; its errors are then shared */
    all = malloc(sizeof(double) * (size_t)(2 * n));
    err = all ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld doubles for the reference check", (long long)(2 * n));
    if (!err) err = mn_ctx_create(MPI_COMM_SELF, MN_BACKEND_CPU, &self);
    if (!err) err = cav_create(self, &o1, &c1);
    if (!err) err = cav_run(c1, &steps1);
  }
  MPI_Bcast(&err, 1, MPI_INT, 0, mn_ctx_comm(ctx));
  mn_array *f[3] = {cav_u(c), cav_v(c), cav_p(c)};
  for (int k = 0; k < 3 && !err; k++) {
    err = mn_array_gather(f[k], 0, all);
    if (!err && rank == 0) {
      mn_array *g[3] = {cav_u(c1), cav_v(c1), cav_p(c1)};
      err = mn_array_gather(g[k], 0, all + n);
      for (int64_t q = 0; !err && q < n; q++) diff = fmax(diff, fabs(all[q] - all[n + q]));
    }
    MPI_Bcast(&err, 1, MPI_INT, 0, mn_ctx_comm(ctx));
  }
  cav_destroy(&c1);
  mn_ctx_destroy(&self);
  free(all);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MPI_Bcast(&diff, 1, MPI_DOUBLE, 0, mn_ctx_comm(ctx));
  MPI_Bcast(&steps1, 1, MPI_LONG, 0, mn_ctx_comm(ctx));
  *ok = diff <= 1e-12 && steps1 == steps;
  if (rank == 0)
    printf("check: %d ranks (%s) against 1 (loops): max |difference| = %.3e, steps %ld and %ld %s\n",
           mn_ctx_size(ctx), cav_exprs(c) ? "expressions" : "loops", diff, steps, steps1, *ok ? "PASS" : "FAIL");
  return MN_SUCCESS;
}

static int body(mn_ctx *ctx, const args *a, int *ok) {
  int rank = mn_ctx_rank(ctx);
  const cav_opts *o = &a->o;
  cav *c = NULL;
  long steps = 0;
  figures f;
  *ok = 1;
  MPI_Barrier(mn_ctx_comm(ctx));
  double t0 = MPI_Wtime();
  MN_CALL(cav_create(ctx, o, &c));
  /* the copies a device run makes, counted over its steps (one rank) */
  app_copies cp;
  app_copies_start(ctx, a->check && cav_exprs(c) && mn_ctx_backend(ctx) != MN_BACKEND_CPU && mn_ctx_size(ctx) == 1,
                   &cp);
  int err = cav_run(c, &steps);
  app_copies_stop(ctx, &cp);
  if (!err) err = summarise(c, o, &f); /* its reductions also wait for the last step */
  double secs = fmax(MPI_Wtime() - t0, 1e-9);
  if (!err && rank == 0) {
    double pts = (double)(o->nx * o->ny) * (double)steps;
    printf("cavity: case %s, %ldx%ld, %ld steps, nit %ld, C on %d rank(s)\n", o->channel ? "channel" : "cavity",
           o->nx, o->ny, steps, o->nit, mn_ctx_size(ctx));
    printf("max |u| = %.12e, max |v| = %.12e\n", f.umax, f.vmax);
    printf("centre (x = 1, y = 1): u = %.12e, v = %.12e\n", f.uc, f.vc);
    printf("centreline x = 1: min u = %.6e, max u = %.6e\n", f.line_min, f.line_max);
    printf("throughput: %.3f M points/s (time steps), %.3f M points/s (pressure sweeps), %.3f ms/step\n",
           pts / secs / 1e6, pts * (double)o->nit / secs / 1e6, 1e3 * secs / (double)(steps > 0 ? steps : 1));
  }
  if (!err && a->save) err = save(c, a->save);
  if (!err && a->png) err = picture(c, a->png, o, rank);
  int ok1 = 1, ok2 = 1, ok3 = 1;
  if (!err) err = app_copies_check(ctx, &cp, steps, cav_u(c), "check", &ok3);
  if (!err && a->check) err = shape_check(c, o, &f, steps, rank, &ok1);
  if (!err && a->check && (mn_ctx_size(ctx) > 1 || cav_exprs(c))) err = ref_check(ctx, c, o, steps, &ok2);
  *ok = ok1 && ok2 && ok3;
  cav_destroy(&c);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = app_start(&argc, &argv, "cavity");
  args a = {.o = {.nx = 41, .ny = 41, .nit = 50, .rho = 1, .nu = 0.1, .F = 1, .tol = 1e-3}, .kase = "cavity",
            .scheme = "auto"};
  const app_opt opts[] = {
    APP_OPT("--case", APP_STR, &a.kase),
    APP_OPT("--nx", APP_INT, &a.o.nx),
    APP_OPT("--ny", APP_INT, &a.o.ny),
    APP_OPT("--nt", APP_INT, &a.o.nt),
    APP_OPT("--nit", APP_INT, &a.o.nit),
    APP_OPT("--dt", APP_REAL, &a.o.dt),
    APP_OPT("--rho", APP_REAL, &a.o.rho),
    APP_OPT("--nu", APP_REAL, &a.o.nu),
    APP_OPT("--tol", APP_REAL, &a.o.tol),
    APP_OPT("--perturb", APP_REAL, &a.o.perturb),
    APP_OPT("--scheme", APP_STR, &a.scheme),
    APP_OPT("--save", APP_STR, &a.save),
    APP_OPT("--png", APP_STR, &a.png),
    APP_OPT("--check", APP_SET, &a.check)};
  const int nopts = (int)(sizeof opts / sizeof *opts);
  /* first for --case, whose defaults the second pass may then override:
   * the course's 500 steps of 0.001 (cavity), steps of 0.01 until tol (channel) */
  int status = 0, ok = 1, err = app_parse(argc, argv, opts, nopts);
  if (!err && strcmp(a.kase, "cavity") && strcmp(a.kase, "channel"))
    err = MN_ERR(MN_ERR_ARG, "--case '%s' is not one of cavity, channel", a.kase);
  if (!err) {
    a.o.channel = !strcmp(a.kase, "channel");
    a.o.nt = a.o.channel ? 100000 : 500;
    a.o.dt = a.o.channel ? 0.01 : 0.001;
    err = app_parse(argc, argv, opts, nopts);
  }
  if (!err) err = app_scheme(a.scheme, &a.o.scheme);
  if (err == -1) {
    if (mn_ctx_rank(ctx) == 0) fputs(usage, stdout);
  } else {
    if (!err) err = mn_log_view_from_args(ctx, argc, argv);
    if (!err) err = body(ctx, &a, &ok);
    if (err) app_report("cavity", ctx, err == MN_ERR_ARG);
    status = err == MN_ERR_ARG ? 2 : err ? 1 : ok ? 0 : 1;
  }
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return status;
}
