/* swe: the shallow-water application in C over maniple (the twin of
 * apps/swe.py; docs/apps.md). Runs a case, prints its check and the
 * throughput, and can write the depth as a PNG and the fields as .npy.
 *
 *   mpiexec -n 4 ./swe --case lake --nx 200 --ny 200 --png h.png
 *
 * Exit status: 0 when the check passes, 1 when it fails, 2 on bad input
 * (the same on every rank: every decision is made on global values). */
#include "swe.h"
#include "common/png.h"
#include "common/cli.h"
#include "common/copies.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  swe_opts o;
  double t_end, cfl, dt;
  long steps, nx, ny; /* copied to o's int64_t */
  int converge, reference;
  const char *png, *save, *scheme;
} args;

static const char usage[] =
  "usage: swe [--case NAME] [--nx N] [--ny N] [--t-end T | --steps N] [--cfl C] [--dt DT]\n"
  "           [--theta TH] [--bc KIND|W,E,S,N] [--hl H] [--hr H] [--converge] [--png PATH] [--save PREFIX]\n"
  "           [--scheme auto|loops|exprs] [--reference] [-log_view]\n"
  "  cases: %s\n"
  "  KIND: periodic, wall, outflow[:h], inflow:q\n"
  "  scheme: loops over each rank's block, or fused expressions (which run on a device\n"
  "  backend's device); auto: expressions on a device backend. --reference: compare\n"
  "  the fields with a run of the loops on the CPU\n"
  APP_LOG_VIEW_HELP;

/* Run to t_end (or a fixed number of steps); wall seconds in *secs. */
static int run(mn_ctx *ctx, swe *s, const args *a, double t_end, double dt, long steps, double *secs) {
  MN_CALL(mn_ctx_wait(ctx)); /* a GPU runs the kernels after the launches return */
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  if (steps >= 0)
    for (long k = 0; k < steps; k++) MN_CALL(swe_step(s, a->cfl, dt, -1.0, NULL));
  else
    while (swe_time(s) < t_end) MN_CALL(swe_step(s, a->cfl, dt, t_end, NULL));
  MN_CALL(mn_ctx_wait(ctx));
  *secs = fmax(MPI_Wtime() - t0, 1e-9);
  return MN_SUCCESS;
}

static int write_png(swe *s, const char *path, int rank) {
  mn_array *h = NULL;
  MN_CALL(swe_depth(s, &h));
  int64_t nx = swe_nx(s), ny = swe_ny(s);
  double *buf = rank == 0 ? malloc(sizeof(double) * (size_t)(nx * ny)) : NULL;
  int ok = rank != 0 || buf;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int err = ok ? mn_array_gather(h, 0, buf) : MN_ERR(MN_ERR_MEM, "cannot allocate %lld doubles for the picture",
                                                          (long long)(nx * ny));
  mn_array_destroy(&h);
  if (!err && rank == 0) err = app_png_write_field(path, buf, nx, ny, 1);
  MPI_Bcast(&err, 1, MPI_INT, 0, MPI_COMM_WORLD);
  free(buf);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

static int save(swe *s, const char *prefix) {
  char path[4096];
  mn_array *h = NULL;
  MN_CALL(swe_depth(s, &h));
  mn_array *f[3] = {h, swe_hu(s), swe_hv(s)};
  const char *names[3] = {"h", "hu", "hv"};
  int err = 0;
  for (int k = 0; k < 3 && !err; k++) {
    snprintf(path, sizeof path, "%s_%s.npy", prefix, names[k]);
    err = mn_array_save_npy(f[k], path);
  }
  mn_array_destroy(&h);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* The same case on the same ranks with the host's loops on the CPU: the
 * scheme's rendering (expressions, the device) must not change the fields. */
static int reference(mn_ctx *ctx, swe *s, const args *a, double t_end, int *ok) {
  int rank = mn_ctx_rank(ctx);
  int64_t n = swe_nx(s) * swe_ny(s);
  swe_opts o = a->o;
  o.scheme = SWE_LOOPS;
  mn_ctx *cpu = NULL;
  swe *r = NULL;
  mn_array *h[2] = {NULL, NULL};
  double secs, diff = 0, *buf = rank == 0 ? malloc(sizeof(double) * (size_t)(2 * n)) : NULL;
  int okb = rank != 0 || buf;
  MPI_Bcast(&okb, 1, MPI_INT, 0, mn_ctx_comm(ctx));
  int err = okb ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld doubles for the reference", (long long)(2 * n));
  if (!err) err = mn_ctx_create(mn_ctx_comm(ctx), MN_BACKEND_CPU, &cpu);
  if (!err) err = swe_create(cpu, &o, &r);
  if (!err) err = run(cpu, r, a, t_end, a->dt, a->steps, &secs);
  if (!err) err = swe_depth(s, &h[0]);
  if (!err) err = swe_depth(r, &h[1]);
  for (int k = 0; k < 3 && !err; k++) {
    mn_array *f[2] = {k == 0 ? h[0] : k == 1 ? swe_hu(s) : swe_hv(s), k == 0 ? h[1] : k == 1 ? swe_hu(r) : swe_hv(r)};
    err = mn_array_gather(f[0], 0, buf);
    if (!err) err = mn_array_gather(f[1], 0, rank == 0 ? buf + n : NULL);
    for (int64_t q = 0; !err && rank == 0 && q < n; q++) diff = fmax(diff, fabs(buf[q] - buf[n + q]));
  }
  long steps = r ? swe_steps(r) : 0;
  mn_array_destroy(&h[0]);
  mn_array_destroy(&h[1]);
  swe_destroy(&r);
  mn_ctx_destroy(&cpu);
  free(buf);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MPI_Bcast(&diff, 1, MPI_DOUBLE, 0, mn_ctx_comm(ctx));
  *ok = diff <= 1e-12 && steps == swe_steps(s);
  if (rank == 0)
    printf("reference: %s against the loops on the CPU: max |difference| of h, hu, hv = %.3e, steps %ld and %ld %s\n",
           swe_exprs(s) ? "expressions" : "loops", diff, swe_steps(s), steps, *ok ? "PASS" : "FAIL");
  return MN_SUCCESS;
}

static int closed(const char *bc) { /* only walls and periodic sides: mass is conserved */
  return !strstr(bc, "inflow") && !strstr(bc, "outflow");
}

static int body(mn_ctx *ctx, const args *a, int *ok) {
  int rank = mn_ctx_rank(ctx);
  swe *s = NULL, *fine = NULL;
  MN_CALL(swe_create(ctx, &a->o, &s));
  const swe_case *c = swe_case_find(a->o.case_name ? a->o.case_name : "dambreak1d");
  if (a->converge && c->check != SWE_CHECK_DAMBREAK && c->check != SWE_CHECK_BUMP) {
    swe_destroy(&s);
    MN_CHECK(0, MN_ERR_ARG, "--converge needs a case whose error drops with resolution (dambreak1d, ritter, bump), "
             "not %s", c->name);
  }
  double t_end = a->t_end > 0 ? a->t_end : c->t_end, secs, m;
  swe_result r = {0}, r2 = {0};
  /* on a device backend at one rank (no staged messages) the expressions'
   * steps may copy between host and device only reductions' accumulators */
  app_copies cp;
  int ok_copies = 1;
  app_copies_start(
    ctx, a->reference && swe_exprs(s) && mn_ctx_backend(ctx) != MN_BACKEND_CPU && mn_ctx_size(ctx) == 1, &cp);
  int err = run(ctx, s, a, t_end, a->dt, a->steps, &secs);
  app_copies_stop(ctx, &cp);
  if (!err) err = app_copies_check(ctx, &cp, swe_steps(s), swe_hu(s), "reference", &ok_copies);
  if (!err) err = swe_check(s, &r);
  if (!err && a->converge) { /* twice the resolution (a channel keeps its rows) */
    swe_opts o = a->o;
    o.nx = 2 * swe_nx(s);
    o.ny = c->ly > 0 ? 2 * swe_ny(s) : swe_ny(s);
    double secs2;
    err = swe_create(ctx, &o, &fine);
    if (!err) err = run(ctx, fine, a, t_end, a->dt / 2, a->steps >= 0 ? 2 * a->steps : -1, &secs2);
    if (!err) err = swe_check(fine, &r2);
  }
  if (!err) err = swe_mass(s, &m);
  if (!err && rank == 0) {
    int size = mn_ctx_size(ctx);
    long steps = swe_steps(s);
    printf("swe %s %lldx%lld, %ld steps to t = %.6g, C on %d rank(s)\n", c->name, (long long)swe_nx(s),
           (long long)swe_ny(s), steps, swe_time(s), size);
    printf("check: %s = %.3e (tol %.1e) %s\n", r.name, r.error, r.tol, r.ok ? "PASS" : "FAIL");
    if (fine) {
      int dropped = r2.error < 0.8 * r.error;
      printf("check: at %lld cells %.3e (ratio %.2f) %s\n", (long long)swe_nx(fine), r2.error, r.error / r2.error,
             dropped && r2.ok ? "PASS" : "FAIL");
    }
    if (closed(a->o.bc ? a->o.bc : c->bc)) printf("mass drift: %.3e\n", fabs(m - swe_mass0(s)) / swe_mass0(s));
    double cells = (double)(swe_nx(s) * swe_ny(s));
    printf("throughput: %.3f M cell updates/s, %.3f ms/step\n", cells * (double)steps / secs / 1e6,
           1e3 * secs / (double)(steps > 0 ? steps : 1));
  }
  int ok_ref = 1;
  if (!err && a->reference) err = reference(ctx, s, a, t_end, &ok_ref);
  *ok = !err && r.ok && ok_ref && ok_copies && (!fine || (r2.error < 0.8 * r.error && r2.ok));
  if (!err && a->png) {
    err = write_png(s, a->png, rank);
    if (!err && rank == 0)
      printf("picture: %s (depth h, %lldx%lld)\n", a->png, (long long)swe_nx(s), (long long)swe_ny(s));
  }
  if (!err && a->save) err = save(s, a->save);
  swe_destroy(&fine);
  swe_destroy(&s);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = app_start(&argc, &argv, "swe");
  int rank = mn_ctx_rank(ctx), ok = 0, status;
  args a = {.o = {.theta = 1.3, .hl = NAN, .hr = NAN}, .nx = -1, .ny = -1, /* -1, NaN: the case's */
            .t_end = -1.0, .cfl = 0.25 /* KP's positivity bound in 2-d */, .steps = -1, .scheme = "auto"};
  const app_opt opts[] = {
    APP_OPT("--case", APP_STR, &a.o.case_name),
    APP_OPT("--bc", APP_STR, &a.o.bc),
    APP_OPT("--png", APP_STR, &a.png),
    APP_OPT("--save", APP_STR, &a.save),
    APP_BOUNDED("--nx", APP_INT, &a.nx, APP_NONNEG),
    APP_BOUNDED("--ny", APP_INT, &a.ny, APP_NONNEG),
    APP_BOUNDED("--steps", APP_INT, &a.steps, APP_NONNEG),
    APP_BOUNDED("--t-end", APP_REAL, &a.t_end, APP_POS),
    APP_BOUNDED("--cfl", APP_REAL, &a.cfl, APP_POS),
    APP_BOUNDED("--dt", APP_REAL, &a.dt, APP_POS),
    APP_OPT("--theta", APP_REAL, &a.o.theta),
    APP_OPT("--hl", APP_REAL, &a.o.hl),
    APP_OPT("--hr", APP_REAL, &a.o.hr),
    APP_OPT("--converge", APP_SET, &a.converge),
    APP_OPT("--scheme", APP_STR, &a.scheme),
    APP_OPT("--reference", APP_SET, &a.reference)};
  int err = app_parse(argc, argv, opts, (int)(sizeof opts / sizeof *opts));
  a.o.nx = a.nx;
  a.o.ny = a.ny;
  if (!err) err = app_scheme(a.scheme, &a.o.scheme);
  if (err == -1) {
    if (rank == 0) printf(usage, swe_case_names());
    status = 0;
  } else {
    if (!err) err = mn_log_view_from_args(ctx, argc, argv);
    if (!err) err = body(ctx, &a, &ok);
    if (err && rank == 0) app_report("swe", ctx, err == MN_ERR_ARG);
    status = err ? 2 : ok ? 0 : 1;
  }
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return status;
}
