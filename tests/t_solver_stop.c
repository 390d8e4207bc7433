/* Every stop reason produced on purpose (indefinite matrix and
 * preconditioner, NaN in b and during a solve, maxit, skip_test, a
 * monitor, breakdowns of BiCGStab and GMRES, b = 0, atol), claims of
 * convergence the true residual does not bear out, and the errors
 * every rank must return alike: sizes, options, settings that differ
 * between ranks, zero diagonals and pivots, preconditioners that do not
 * fit the operator. */
#include "mt_solver.h"

typedef struct {
  mn_ctx *ctx;
  mn_csr *A;
  mn_op *op;
  mn_solver *s;
  mn_array *b, *x;
  int64_t n;
} rig;

static rig make(mn_ctx *ctx, const mt_prob *p) {
  rig r = {ctx, mt_csr(ctx, p), NULL, NULL, NULL, NULL, mt_n(p)};
  T_OK(mn_op_create_csr(r.A, &r.op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &r.n, 0, &r.b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &r.n, 0, &r.x));
  mt_set(r.b, mt_rhs);
  T_OK(mn_solver_create(ctx, &r.s));
  T_OK(mn_solver_set_operator(r.s, r.op));
  return r;
}

static void drop(rig *r) {
  mn_solver_destroy(&r->s);
  mn_array_destroy(&r->b);
  mn_array_destroy(&r->x);
  mn_op_destroy(&r->op);
  mn_csr_destroy(&r->A);
}

/* solve from x = 0 with these options; the reason and iteration count */
static mn_stop_reason solve(rig *r, const char *opts, int64_t *its) {
  mn_stop_reason why = MN_STOP_NONE;
  T_OK(mn_array_fill(r->x, mn_scalar_f64(0)));
  T_OK(mn_solver_set_options(r->s, opts));
  T_OK(mn_solver_solve(r->s, r->b, r->x));
  T_OK(mn_solver_get_result(r->s, its, NULL, &why));
  return why;
}

static const char *methods[] = {"cg", "cg1", "jacobi", "bicgstab", "gmres", "minres"};

#define T_REASON(got, want, ...) T_CHECK((got) == (want), "%s, expected %s: %s", mn_stop_reason_name(got), \
                                         mn_stop_reason_name(want), __VA_ARGS__)

static void reasons(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 10, 9, 1, 0.2};
  rig r = make(ctx, &p);
  char o[200];
  int64_t its, nh;
  const double *h;
  for (int m = 0; m < 6; m++) {
    /* maxit: that many iterations, their norms kept */
    snprintf(o, sizeof o, "-solver %s -pc jacobi -rtol 1e-12 -maxit 4", methods[m]);
    T_REASON(solve(&r, o, &its), MN_DIVERGED_MAXIT, o);
    T_OK(mn_solver_get_history(r.s, &nh, &h));
    T_CHECK(its == 4 && nh == 5, "%s: %lld iterations, %lld norms", o, (long long)its, (long long)nh);
    /* skip_test: exactly maxit, no norms */
    snprintf(o, sizeof o, "-solver %s -pc jacobi -rtol 0 -atol 0 -maxit 7 -skip_test", methods[m]);
    T_REASON(solve(&r, o, &its), MN_CONVERGED_ITS, o);
    T_OK(mn_solver_get_history(r.s, &nh, &h));
    T_CHECK(its == 7 && nh == 0, "%s: %lld iterations, %lld norms", o, (long long)its, (long long)nh);
    T_OK(mn_solver_set_skip_test(r.s, 0));
  }
  /* skip_test computes the same iterates as the tested run */
  double *x1, *x2;
  T_REASON(solve(&r, "-solver cg -pc jacobi -rtol 0 -maxit 9", &its), MN_DIVERGED_MAXIT, "cg, 9");
  x1 = mt_all(r.x);
  T_REASON(solve(&r, "-skip_test", &its), MN_CONVERGED_ITS, "cg, 9, skip");
  T_OK(mn_solver_set_skip_test(r.s, 0));
  x2 = mt_all(r.x);
  T_CHECK(mt_err(x2, x1, r.n) < 1e-12, "skip_test changed the iterates by %g", mt_err(x2, x1, r.n));
  free(x1);
  free(x2);
  /* atol alone; an exact initial guess; b = 0 with a nonzero guess */
  double rn;
  T_REASON(solve(&r, "-solver cg -rtol 0 -atol 1e-3 -maxit 1000", &its), MN_CONVERGED_ATOL, "atol");
  T_OK(mn_solver_get_result(r.s, NULL, &rn, NULL));
  T_CHECK(rn <= 1e-3 && its > 0, "atol: %lld iterations, residual %g", (long long)its, rn);
  T_OK(mn_solver_set_tolerances(r.s, 1e-3, 0, 1000));
  T_OK(mn_solver_solve(r.s, r.b, r.x)); /* from the solution just found */
  T_OK(mn_solver_get_result(r.s, &its, NULL, NULL));
  T_CHECK(its == 0, "a converged guess took %lld iterations", (long long)its);
  mn_array *z = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &r.n, 0, &z));
  T_OK(mn_array_fill(r.x, mn_scalar_f64(3)));
  for (int m = 0; m < 6; m++) {
    T_OK(mn_solver_set_method(r.s, (mn_ksp_type)m));
    T_OK(mn_solver_solve(r.s, z, r.x));
    mn_stop_reason why;
    T_OK(mn_solver_get_result(r.s, &its, &rn, &why));
    double *xv = mt_all(r.x), mx = 0;
    for (int64_t i = 0; i < r.n; i++) mx = fmax(mx, fabs(xv[i]));
    T_CHECK(mn_stop_reason_converged(why) && its == 0 && rn == 0 && mx == 0, "b = 0 with %s: %s, %lld its, x %g",
            methods[m], mn_stop_reason_name(why), (long long)its, mx);
    free(xv);
  }
  /* NaN in b: stopped at once, with every method and under skip_test */
  double nan = NAN;
  int64_t at = r.n - 1;
  mn_index one[1] = {mn_slice(at, at + 1, 1)};
  mn_array *tail = NULL;
  T_OK(mn_array_index(z, 1, one, &tail));
  T_OK(mn_array_fill(tail, mn_scalar_f64(nan)));
  for (int m = 0; m < 6; m++)
    for (int skip = 0; skip < 2; skip++) {
      T_OK(mn_solver_set_method(r.s, (mn_ksp_type)m));
      T_OK(mn_solver_set_skip_test(r.s, skip));
      T_OK(mn_solver_solve(r.s, z, r.x));
      mn_stop_reason why;
      T_OK(mn_solver_get_result(r.s, &its, NULL, &why));
      T_REASON(why, MN_DIVERGED_NAN, methods[m]);
    }
  T_OK(mn_solver_set_skip_test(r.s, 0));
  mn_array_destroy(&tail);
  mn_array_destroy(&z);
  drop(&r);
}

/* a monitor: records what it sees, asks to stop at iteration 3 (on rank
 * 0 only: the answer is agreed) */
typedef struct { int64_t calls, last; double norms[16]; } seen;
static int stop_at_3(void *u, int64_t it, double rnorm) {
  seen *s = u;
  if (s->calls < 16) s->norms[s->calls] = rnorm;
  s->calls++;
  s->last = it;
  return it >= 3 && mt_rank == 0;
}

static void monitor(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 10, 9, 1, 0};
  rig r = make(ctx, &p);
  for (int m = 0; m < 6; m++) {
    seen s = {0, -1, {0}};
    char o[100];
    int64_t its, nh;
    const double *h;
    T_OK(mn_solver_set_monitor(r.s, stop_at_3, &s));
    snprintf(o, sizeof o, "-solver %s -pc jacobi -rtol 1e-12 -maxit 100", methods[m]);
    T_REASON(solve(&r, o, &its), MN_STOPPED_BY_MONITOR, o);
    T_OK(mn_solver_get_history(r.s, &nh, &h));
    T_CHECK(its == 3 && s.calls == 4 && s.last == 3 && nh == 4, "%s: %lld iterations, %lld calls", o, (long long)its,
            (long long)s.calls);
    for (int64_t k = 0; k < nh && k < 4; k++) T_CHECK(s.norms[k] == h[k], "%s: monitor saw %g, history %g", o, s.norms[k], h[k]);
  }
  T_OK(mn_solver_set_monitor(r.s, NULL, NULL));
  drop(&r);
}

static int negate(void *u, const mn_array *x, mn_array *y) {
  (void)u;
  return mn_array_axpby(-1, x, 0, x, y);
}

static int identity(void *u, const mn_array *x, mn_array *y) {
  (void)u;
  return mn_array_copy(x, y);
}

static int zero(void *u, const mn_array *x, mn_array *y) {
  (void)u;
  (void)x;
  return mn_array_fill(y, mn_scalar_f64(0));
}

/* a diagonal operator (5 distinct values) that gives NaN from its fifth
 * product on: before any method could have converged */
typedef struct { int calls; mn_csr *D; } later;
static int nan_later(void *u, const mn_array *x, mn_array *y) {
  later *l = u;
  if (++l->calls > 4) return mn_array_fill(y, mn_scalar_f64(NAN));
  return mn_csr_spmv(l->D, x, y);
}

static void breakdowns(mn_ctx *ctx) {
  /* symmetric indefinite: CG stops, MINRES solves it */
  mt_prob p = {MT_SHIFTED, 10, 9, 1, 6.0};
  rig r = make(ctx, &p);
  int64_t its;
  T_REASON(solve(&r, "-solver cg -pc none -rtol 1e-8 -maxit 500", &its), MN_DIVERGED_INDEFINITE, "cg, A - 6 I");
  T_REASON(solve(&r, "-solver cg1", &its), MN_DIVERGED_INDEFINITE, "cg1, A - 6 I");
  T_REASON(solve(&r, "-solver minres", &its), MN_CONVERGED_RTOL, "minres, A - 6 I");
  drop(&r);
  /* SPD A, negative preconditioner */
  mt_prob q = {MT_POISSON2, 10, 9, 1, 0};
  r = make(ctx, &q);
  T_OK(mn_solver_set_pc_shell(r.s, negate, NULL));
  T_REASON(solve(&r, "-solver cg -rtol 1e-8", &its), MN_DIVERGED_INDEFINITE, "cg, M = -I");
  T_REASON(solve(&r, "-solver cg1", &its), MN_DIVERGED_INDEFINITE, "cg1, M = -I");
  T_REASON(solve(&r, "-solver minres", &its), MN_DIVERGED_INDEFINITE, "minres, M = -I");
  drop(&r);
  /* A = 0: BiCGStab's rhat.v and GMRES's first column vanish */
  int64_t n = 50;
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *b = NULL, *x = NULL;
  T_OK(mn_op_create_shell(ctx, n, MN_FLOAT64, zero, NULL, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  mt_set(b, mt_rhs);
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  rig z = {ctx, NULL, op, s, b, x, n};
  T_REASON(solve(&z, "-solver bicgstab", &its), MN_DIVERGED_BREAKDOWN, "bicgstab, A = 0");
  T_CHECK(its == 0, "bicgstab broke down after %lld iterations", (long long)its);
  T_REASON(solve(&z, "-solver gmres", &its), MN_DIVERGED_BREAKDOWN, "gmres, A = 0");
  T_REASON(solve(&z, "-solver cg", &its), MN_DIVERGED_INDEFINITE, "cg, A = 0");
  /* A = I under skip_test: GMRES's second Arnoldi vector is zero or
   * round-off, the exact solve after one iteration (or two, when the
   * round-off is normalised into a direction); skip_test has no tolerance
   * to check it against and keeps it */
  mn_op *eye = NULL;
  T_OK(mn_op_create_shell(ctx, n, MN_FLOAT64, identity, NULL, &eye));
  T_OK(mn_solver_set_operator(s, eye));
  T_REASON(solve(&z, "-solver gmres -pc none -rtol 0 -atol 0 -maxit 10 -skip_test", &its), MN_CONVERGED_ATOL,
           "gmres, A = I, skip_test");
  double *xi = mt_all(x), *bi = mt_all(b);
  T_CHECK(its >= 1 && its <= 2 && mt_err(xi, bi, n) < 1e-13, "gmres on A = I: %lld iterations under skip_test, "
          "error %g", (long long)its, mt_err(xi, bi, n));
  free(xi);
  free(bi);
  T_OK(mn_solver_set_skip_test(s, 0));
  T_OK(mn_solver_set_operator(s, op));
  mn_op_destroy(&eye);
  /* NaN produced mid-solve is caught, with or without norms */
  mt_prob dg = {MT_DIAG, n, 1, 1, -1};
  later l = {0, mt_csr(ctx, &dg)};
  mn_op *bad = NULL;
  T_OK(mn_op_create_shell(ctx, n, MN_FLOAT64, nan_later, &l, &bad));
  T_OK(mn_csr_diagonal(l.D, x));
  T_OK(mn_op_set_diagonal(bad, x));
  T_OK(mn_solver_set_operator(s, bad));
  for (int m = 0; m < 6; m++)
    for (int skip = 0; skip < 2; skip++) {
      char o[100];
      snprintf(o, sizeof o, "-solver %s -pc none -rtol 1e-30 -maxit 20 -omega 0.5", methods[m]);
      l.calls = 0;
      T_OK(mn_solver_set_skip_test(s, skip));
      T_REASON(solve(&z, o, &its), MN_DIVERGED_NAN, o);
    }
  mn_op_destroy(&bad);
  mn_csr_destroy(&l.D);
  mn_solver_destroy(&s);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_op_destroy(&op);
}

/* y = f D x with D diagonal (values 1..5): f changes when the monitor sees
 * a residual that passes the test, so the x a method returns does not
 * solve the operator the true residual is checked with */
typedef struct { mn_csr *D; double f, tol; int mode, flips; } drift;
static int drifting(void *u, const mn_array *x, mn_array *y) {
  drift *d = u;
  MN_CALL(mn_csr_spmv(d->D, x, y));
  return mn_array_axpby(d->f, y, 0, y, y);
}
static int flip_on_claim(void *u, int64_t it, double rnorm) {
  drift *d = u;
  (void)it;
  if (rnorm <= d->tol) { /* the same residual on every rank: the same flip */
    d->f = d->mode == 0 ? 2.0 : (d->f == 1.0 ? 1.5 : 1.0); /* 0: to 2 D for good; 1: 1 <-> 1.5 */
    d->flips++;
  }
  return 0;
}
/* y = sum(x) on every row: ones(n, n), singular */
static int ones_op(void *u, const mn_array *x, mn_array *y) {
  (void)u;
  mn_scalar sum;
  MN_CALL(mn_array_reduce(MN_RED_SUM, x, &sum));
  return mn_array_fill(y, mn_scalar_f64(mn_scalar_as_f64(sum)));
}
static double mt_index(int64_t i) { return (double)i; }

static double true_residual(mn_op *op, const mn_array *b, mn_array *x) {
  mn_array *r = NULL;
  double nr;
  T_OK(mn_array_create_like(b, MN_NDTYPE, &r));
  T_OK(mn_op_apply(op, x, r));
  T_OK(mn_array_axpby(1, b, -1, r, r));
  T_OK(mn_array_norm(r, 2, &nr));
  mn_array_destroy(&r);
  return nr;
}

/* A claim of convergence holds only if the true residual bears it out. */
static void false_claims(mn_ctx *ctx) {
  int64_t n = 40, its;
  mt_prob dg = {MT_DIAG, n, 1, 1, -1};
  drift d = {mt_csr(ctx, &dg), 1.0, 0, 0, 0};
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *b = NULL, *x = NULL, *dv = NULL;
  T_OK(mn_op_create_shell(ctx, n, MN_FLOAT64, drifting, &d, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &dv));
  T_OK(mn_csr_diagonal(d.D, dv));
  T_OK(mn_op_set_diagonal(op, dv));
  mt_set(b, mt_rhs);
  double bn;
  T_OK(mn_array_norm(b, 2, &bn));
  d.tol = 1e-8 * bn;
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_monitor(s, flip_on_claim, &d));
  rig z = {ctx, NULL, op, s, b, x, n};
  double *bv = mt_all(b), *dd = mt_all(dv), *ref = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) ref[i] = bv[i] / (2 * dd[i]);
  for (int m = 0; m < 6; m++) {
    char o[120];
    snprintf(o, sizeof o, "-solver %s -pc none -rtol 1e-8 -maxit 400 -omega 0.5", methods[m]);
    /* the operator doubles at the first claim: the check finds x wrong,
     * the restart solves 2 D x = b */
    d.f = 1.0, d.mode = 0, d.flips = 0;
    T_REASON(solve(&z, o, &its), MN_CONVERGED_RTOL, o);
    double *xv = mt_all(x), e = mt_err(xv, ref, n), rn;
    T_OK(mn_solver_get_result(s, NULL, &rn, NULL));
    T_CHECK(d.flips >= 1 && e < 1e-6 && true_residual(op, b, x) <= 1e-8 * bn,
            "%s: %d flips, error %g against b / 2D, true residual %g", o, d.flips, e, true_residual(op, b, x));
    free(xv);
    /* 1 <-> 1.5 at every claim: restarts stop helping, stagnation */
    d.f = 1.0, d.mode = 1, d.flips = 0;
    T_REASON(solve(&z, o, &its), MN_DIVERGED_STAGNATION, o);
    T_CHECK(d.flips == 2, "%s: %d flips before stopping", o, d.flips);
  }
  /* ones(n, n) x = 0, 1, 2, ...: singular and inconsistent; no method may
   * claim convergence, GMRES keeps its least-squares progress */
  mn_op *one = NULL;
  T_OK(mn_op_create_shell(ctx, n, MN_FLOAT64, ones_op, NULL, &one));
  T_OK(mn_array_fill(dv, mn_scalar_f64(1)));
  T_OK(mn_op_set_diagonal(one, dv));
  T_OK(mn_solver_set_operator(s, one));
  T_OK(mn_solver_set_monitor(s, NULL, NULL));
  mt_set(b, mt_index);
  T_OK(mn_array_norm(b, 2, &bn));
  for (int m = 0; m < 6; m++) {
    char o[120];
    snprintf(o, sizeof o, "-solver %s -pc none -rtol 1e-8 -maxit 200 -omega 0.5", methods[m]);
    mn_stop_reason why = solve(&z, o, &its);
    double tr = true_residual(one, b, x);
    T_CHECK(!mn_stop_reason_converged(why), "%s on ones(n, n): %s, true residual %g", o, mn_stop_reason_name(why), tr);
    /* GMRES and MINRES keep the least-squares x: ||b - mean(b)|| */
    double least = 0, mean = (double)(n - 1) / 2;
    for (int64_t i = 0; i < n; i++) least += ((double)i - mean) * ((double)i - mean);
    least = sqrt(least);
    if (m >= 4) T_CHECK(fabs(tr - least) <= 1e-6 * least, "%s on ones(n, n): true residual %g, least squares %g",
                        methods[m], tr, least);
    if (m == 5) T_REASON(why, MN_DIVERGED_STAGNATION, "minres on ones(n, n)");
  }
  free(bv);
  free(dd);
  free(ref);
  mn_solver_destroy(&s);
  mn_op_destroy(&one);
  mn_op_destroy(&op);
  mn_csr_destroy(&d.D);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_array_destroy(&dv);
}

static void errors(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 8, 7, 1, 0};
  rig r = make(ctx, &p);
  /* sizes */
  int64_t n1 = r.n + 1;
  mn_array *big = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n1, 0, &big));
  T_EXPECT(mn_solver_solve(r.s, big, r.x), MN_ERR_SHAPE, "b too long", "57");
  T_EXPECT(mn_solver_solve(r.s, r.b, big), MN_ERR_SHAPE, "x too long");
  T_EXPECT(mn_solver_solve(r.s, r.b, r.b), MN_ERR_ARG, "x is b", "storage");
  mn_array_destroy(&big);
  /* options */
  const char *bad[][2] = {{"-solver cgg", "cgg"}, {"-pc ilu", "ilu"}, {"-rtol 1e-8x", "1e-8x"}, {"-rtol", "needs"},
                          {"-maxit 3.5", "3.5"}, {"-maxit -1", "-1"}, {"-restart 0", "restart"}, {"-omega 0", "omega"},
                          {"-atol nan", "nan"}, {"-bogus 3", "-bogus"}, {"-skip_test yes", "yes"},
                          {"-pc shell", "shell"}, {"-rtol -1e-3", "-1e-3"}};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
    T_EXPECT(mn_solver_set_options(r.s, bad[i][0]), MN_ERR_ARG, bad[i][0], bad[i][1]);
  /* a bad string leaves the settings alone */
  int64_t its;
  T_OK(mn_solver_set_options(r.s, "  -solver\tgmres  -maxit 3 -rtol 1e-12 "));
  T_EXPECT(mn_solver_set_options(r.s, "-maxit 50 -solver nope"), MN_ERR_ARG, "partly bad", "nope");
  T_OK(mn_solver_solve(r.s, r.b, r.x));
  T_OK(mn_solver_get_result(r.s, &its, NULL, NULL));
  T_CHECK(its == 3, "a rejected string changed maxit: %lld iterations", (long long)its);
  /* settings that differ between ranks */
  if (mn_ctx_size(ctx) > 1) {
    T_EXPECT(mn_solver_set_options(r.s, mt_rank ? "-maxit 6" : "-maxit 5"), MN_ERR_ARG, "options per rank", "differ");
    T_OK(mn_solver_set_tolerances(r.s, 1e-8, 0, 10 + mt_rank));
    T_EXPECT(mn_solver_solve(r.s, r.b, r.x), MN_ERR_ARG, "maxit per rank", "differ");
    T_OK(mn_solver_set_tolerances(r.s, 1e-8, 0, 10));
  }
  /* still usable after all that */
  T_REASON(solve(&r, "-solver cg -pc jacobi -maxit 500", &its), MN_CONVERGED_RTOL, "after the errors");
  /* a shell operator has no blocks, and no diagonal unless given one */
  mn_op *sh = NULL;
  T_OK(mn_op_create_shell(ctx, r.n, MN_FLOAT64, negate, NULL, &sh));
  T_OK(mn_solver_set_operator(r.s, sh));
  T_OK(mn_solver_set_options(r.s, "-pc bjacobi_ilu0"));
  T_EXPECT(mn_solver_solve(r.s, r.b, r.x), MN_ERR_ARG, "ILU(0) of a shell", "CSR");
  T_OK(mn_solver_set_options(r.s, "-pc jacobi"));
  T_EXPECT(mn_solver_solve(r.s, r.b, r.x), MN_ERR_NOTIMPL, "Jacobi of a shell", "diagonal");
  T_OK(mn_solver_set_options(r.s, "-pc none -solver jacobi"));
  T_EXPECT(mn_solver_solve(r.s, r.b, r.x), MN_ERR_NOTIMPL, "Jacobi iteration on a shell", "diagonal");
  mn_op_destroy(&sh);
  drop(&r);
  /* a zero diagonal entry on the last rank's last row */
  mt_prob d = {MT_DIAG, 40, 1, 1, 39};
  r = make(ctx, &d);
  const char *pcs[][2] = {{"-pc jacobi", "row 39"}, {"-pc bjacobi_ilu0", "row 39"}, {"-pc bjacobi_sgs", "row 39"},
                          {"-pc none -solver jacobi", "row 39"}};
  for (int i = 0; i < 4; i++) {
    T_OK(mn_solver_set_options(r.s, pcs[i][0]));
    T_EXPECT(mn_solver_solve(r.s, r.b, r.x), MN_ERR_ARG, pcs[i][0], pcs[i][1]);
  }
  mn_solver *none = NULL;
  T_OK(mn_solver_create(ctx, &none));
  T_EXPECT(mn_solver_solve(none, r.b, r.x), MN_ERR_ARG, "no operator", "operator");
  mn_solver_destroy(&none);
  drop(&r);
  T_CHECK(!strcmp(mn_stop_reason_name(MN_DIVERGED_INDEFINITE), "diverged_indefinite") &&
              !mn_stop_reason_converged(MN_STOPPED_BY_MONITOR) && mn_stop_reason_converged(MN_CONVERGED_ITS),
          "reason names");
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  reasons(ctx);
  monitor(ctx);
  breakdowns(ctx);
  false_claims(ctx);
  errors(ctx);
  return mt_finish(&ctx);
}
