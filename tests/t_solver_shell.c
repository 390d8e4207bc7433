/* Matrix-free operators and user preconditioners: a 1-d Laplacian written
 * with array views gives the CSR matrix's answer and iteration counts; a
 * shell wrapping the CSR product gives the CSR operator's answer with
 * every method; a diagonal given to a shell feeds Jacobi; a user's Jacobi
 * preconditioner matches the built-in one; the iterate the monitor takes
 * has the residual the monitor is given and ends as the solution; a
 * callback that fails on one rank fails the solve on every rank. */
#include "mt_solver.h"

/* y = T x, T = tridiag(-1, 2, -1), through views of x and y */
typedef struct { int64_t n; int fail_on; int calls; } lap; /* fail_on: a rank, or -1 */
static int lap_apply(void *u, const mn_array *xc, mn_array *y) {
  lap *l = u;
  int64_t n = l->n;
  mn_array *x = (mn_array *)xc, *xm = NULL, *xl = NULL, *xr = NULL, *ym = NULL, *x0 = NULL, *x1 = NULL, *y0 = NULL,
           *xe = NULL, *xe1 = NULL, *ye = NULL;
  l->calls++;
  mn_index mid[1] = {mn_slice(1, n - 1, 1)}, left[1] = {mn_slice(0, n - 2, 1)}, right[1] = {mn_slice(2, n, 1)};
  mn_index first[1] = {mn_slice(0, 1, 1)}, second[1] = {mn_slice(1, 2, 1)};
  mn_index last[1] = {mn_slice(n - 1, n, 1)}, before[1] = {mn_slice(n - 2, n - 1, 1)};
  MN_CALL(mn_array_index(x, 1, mid, &xm));
  MN_CALL(mn_array_index(x, 1, left, &xl));
  MN_CALL(mn_array_index(x, 1, right, &xr));
  MN_CALL(mn_array_index(y, 1, mid, &ym));
  MN_CALL(mn_array_binary(MN_OP_ADD, xl, xr, ym));     /* y[1:-1] = x[:-2] + x[2:] */
  MN_CALL(mn_array_axpby(2, xm, -1, ym, ym));          /* y[1:-1] = 2 x[1:-1] - y[1:-1] */
  MN_CALL(mn_array_index(x, 1, first, &x0));
  MN_CALL(mn_array_index(x, 1, second, &x1));
  MN_CALL(mn_array_index(y, 1, first, &y0));
  MN_CALL(mn_array_axpby(2, x0, -1, x1, y0));
  MN_CALL(mn_array_index(x, 1, last, &xe));
  MN_CALL(mn_array_index(x, 1, before, &xe1));
  MN_CALL(mn_array_index(y, 1, last, &ye));
  MN_CALL(mn_array_axpby(2, xe, -1, xe1, ye));
  mn_array *all[] = {xm, xl, xr, ym, x0, x1, y0, xe, xe1, ye};
  for (int i = 0; i < 10; i++) mn_array_destroy(&all[i]);
  /* a local failure, after the collective work every rank does */
  MN_CHECK(l->fail_on != mt_rank || l->calls < 3, MN_ERR_ARG, "the test's operator failed on rank %d", mt_rank);
  return MN_SUCCESS;
}

static mn_csr *tridiag(mn_ctx *ctx, int64_t n) {
  int64_t r0 = mn_split_start(n, mn_ctx_size(ctx), mt_rank), nl = mn_split_size(n, mn_ctx_size(ctx), mt_rank);
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *c = malloc(sizeof(int64_t) * (size_t)(3 * nl + 1));
  double *v = malloc(sizeof(double) * (size_t)(3 * nl + 1));
  rp[0] = 0;
  for (int64_t i = 0; i < nl; i++) {
    int64_t g = r0 + i, k = rp[i];
    if (g > 0) { c[k] = g - 1; v[k++] = -1; }
    c[k] = g; v[k++] = 2;
    if (g < n - 1) { c[k] = g + 1; v[k++] = -1; }
    rp[i + 1] = k;
  }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_rows(ctx, n, n, MN_FLOAT64, nl, rp, MN_INT64, c, v, &A));
  free(rp); free(c); free(v);
  return A;
}

typedef struct { int64_t its; mn_stop_reason why; double *x; } res;

static res solve(mn_ctx *ctx, mn_op *op, const char *opts, mn_solver *s0) {
  int64_t n = mn_op_size(op);
  mn_array *b = NULL, *x = NULL;
  mn_solver *s = s0;
  res r = {0, MN_STOP_NONE, NULL};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  mt_set(b, mt_rhs);
  if (!s) T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_options(s, opts));
  T_OK(mn_solver_solve(s, b, x));
  T_OK(mn_solver_get_result(s, &r.its, NULL, &r.why));
  r.x = mt_all(x);
  if (!s0) mn_solver_destroy(&s);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  return r;
}

static void same(const res *a, const res *b, int64_t n, const char *what) {
  T_CHECK(a->why == MN_CONVERGED_RTOL && b->why == a->why && llabs(a->its - b->its) <= 1 + b->its / 20 && mt_err(a->x, b->x, n) < 1e-8,
          "%s: %s in %lld vs %s in %lld, difference %g", what, mn_stop_reason_name(a->why), (long long)a->its,
          mn_stop_reason_name(b->why), (long long)b->its, mt_err(a->x, b->x, n));
  free(a->x);
  free(b->x);
}

static int csr_apply(void *u, const mn_array *x, mn_array *y) { return mn_csr_spmv((const mn_csr *)u, x, y); }

/* z = r / 4, the 2-d Poisson diagonal */
static int quarter(void *u, const mn_array *r, mn_array *z) {
  (void)u;
  return mn_array_axpby(0.25, r, 0, r, z);
}

/* The monitor takes the iterate and checks the norm it is given against
 * the true residual of that iterate, computed serially. */
typedef struct {
  mn_solver *s;
  const mt_prob *p;
  mn_array *xk;
  double *b, *last, worst;
  int64_t n, calls;
  int err;
} watch;

static int watch_monitor(void *u, int64_t it, double rnorm) {
  watch *w = u;
  (void)it;
  if ((w->err = mn_solver_get_iterate(w->s, w->xk))) return 1;
  double *x = mt_all(w->xk), *y = malloc(sizeof(double) * (size_t)w->n), rr = 0, bb = 0;
  mt_mult(w->p, x, y);
  for (int64_t i = 0; i < w->n; i++) {
    rr += (w->b[i] - y[i]) * (w->b[i] - y[i]);
    bb += w->b[i] * w->b[i];
  }
  w->worst = fmax(w->worst, fabs(sqrt(rr) - rnorm) / sqrt(bb));
  free(w->last);
  w->last = x;
  free(y);
  w->calls++;
  return 0;
}

static void check_iterates(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 9, 8, 1, 0};
  mn_csr *A = mt_csr(ctx, &p);
  mn_op *op = NULL;
  mn_solver *s = NULL;
  int64_t n = mt_n(&p);
  mn_array *b = NULL, *x = NULL;
  T_OK(mn_op_create_csr(A, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  mt_set(b, mt_rhs);
  watch w = {NULL, &p, NULL, mt_all(b), NULL, 0, n, 0, 0};
  int64_t shape2[2] = {8, 9};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, shape2, 0, &w.xk)); /* any layout */
  T_OK(mn_solver_create(ctx, &s));
  w.s = s;
  int err = mn_solver_get_iterate(s, w.xk);
  T_CHECK(err == MN_ERR_ARG, "an iterate outside a solve: %s", mn_err_name(err));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_monitor(s, watch_monitor, &w));
  const char *opts[] = {"-solver cg -rtol 1e-10", "-solver cg1 -pc none -rtol 1e-10",
                        "-solver bicgstab -rtol 1e-10", "-solver minres -rtol 1e-10", "-solver jacobi -rtol 1e-6"};
  for (int i = 0; i < 5; i++) {
    T_OK(mn_array_fill(x, mn_scalar_f64(0)));
    w.calls = 0;
    w.worst = 0;
    T_OK(mn_solver_set_options(s, opts[i]));
    T_OK(mn_solver_solve(s, b, x));
    int64_t its;
    T_OK(mn_solver_get_result(s, &its, NULL, NULL));
    double *xv = mt_all(x);
    T_CHECK(w.calls == its + 1 && mt_err(w.last, xv, n) == 0, "%s: %lld monitor calls for %lld iterations, "
            "last iterate off by %g", opts[i], (long long)w.calls, (long long)its, mt_err(w.last, xv, n));
    T_CHECK(w.worst < 1e-8, "%s: the monitor's norm is %g (relative) from the iterate's residual", opts[i], w.worst);
    free(xv);
  }
  mn_array *wrong = NULL;
  int64_t m = n - 1;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &wrong));
  mn_array *keep = w.xk;
  w.xk = wrong;
  T_OK(mn_array_fill(x, mn_scalar_f64(0)));
  T_OK(mn_solver_solve(s, b, x));
  mn_stop_reason why;
  T_OK(mn_solver_get_result(s, NULL, NULL, &why));
  T_CHECK(w.err == MN_ERR_ARG && why == MN_STOPPED_BY_MONITOR && strstr(mn_ctx_errmsg(ctx), "71 elements, not 72"),
          "a wrong-sized iterate: %s, %s, %s", mn_err_name(w.err), mn_stop_reason_name(why), mn_ctx_errmsg(ctx));
  free(w.last);
  free(w.b);
  mn_array_destroy(&wrong);
  mn_array_destroy(&keep);
  mn_solver_destroy(&s);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_op_destroy(&op);
  mn_csr_destroy(&A);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  /* the 1-d Laplacian, matrix-free and as a matrix */
  int64_t n = 100;
  lap l = {n, -1, 0};
  mn_csr *T = tridiag(ctx, n);
  mn_op *free_op = NULL, *csr_op = NULL;
  T_OK(mn_op_create_shell(ctx, n, MN_FLOAT64, lap_apply, &l, &free_op));
  T_OK(mn_op_create_csr(T, &csr_op));
  T_CHECK(mn_op_size(free_op) == n && mn_op_size(csr_op) == n, "sizes");
  mn_array *d = NULL, *e = NULL, *f = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &d));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &e));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &f));
  mt_set(d, mt_rhs);
  T_OK(mn_op_apply(free_op, d, e));
  T_OK(mn_op_apply(csr_op, d, f));
  double *ev = mt_all(e), *fv = mt_all(f);
  T_CHECK(mt_err(ev, fv, n) < 1e-15, "matrix-free product differs by %g", mt_err(ev, fv, n));
  free(ev); free(fv);
  int err = mn_op_get_diagonal(free_op, d);
  T_CHECK(err == MN_ERR_NOTIMPL, "a shell's unknown diagonal: %s", mn_err_name(err));
  err = mn_op_set_diagonal(csr_op, d);
  T_CHECK(err == MN_ERR_ARG, "setting a CSR operator's diagonal: %s", mn_err_name(err));
  T_OK(mn_op_get_diagonal(csr_op, d));
  T_OK(mn_op_set_diagonal(free_op, d));
  T_OK(mn_array_fill(d, mn_scalar_f64(0))); /* the copy is the operator's */
  T_OK(mn_op_get_diagonal(free_op, e));
  double *dv = mt_all(e);
  T_CHECK(dv[0] == 2 && dv[n - 1] == 2, "the shell's diagonal: %g %g", dv[0], dv[n - 1]);
  free(dv);
  const char *opts[] = {"-solver cg -pc none -rtol 1e-10", "-solver cg -pc jacobi -rtol 1e-10",
                        "-solver cg1 -pc jacobi -rtol 1e-10", "-solver minres -pc jacobi -rtol 1e-10",
                        "-solver gmres -pc jacobi -rtol 1e-10 -restart 200", "-solver bicgstab -pc none -rtol 1e-10"};
  for (int i = 0; i < 6; i++) {
    res a = solve(ctx, free_op, opts[i], NULL), b = solve(ctx, csr_op, opts[i], NULL);
    same(&a, &b, n, opts[i]);
  }
  /* a shell wrapping a 2-d matrix's product: every method, as the CSR */
  mt_prob p = {MT_CONVDIFF, 9, 8, 1, 1.0};
  mn_csr *C = mt_csr(ctx, &p);
  mn_op *wrap = NULL, *direct = NULL;
  T_OK(mn_op_create_shell(ctx, mt_n(&p), MN_FLOAT64, csr_apply, C, &wrap));
  T_OK(mn_op_create_csr(C, &direct));
  const char *nonsym[] = {"-solver gmres -pc none -rtol 1e-10", "-solver bicgstab -pc none -rtol 1e-10"};
  for (int i = 0; i < 2; i++) {
    res a = solve(ctx, wrap, nonsym[i], NULL), b = solve(ctx, direct, nonsym[i], NULL);
    same(&a, &b, mt_n(&p), nonsym[i]);
  }
  /* the user's Jacobi against the built-in one */
  mt_prob q = {MT_POISSON2, 9, 8, 1, 0};
  mn_csr *P = mt_csr(ctx, &q);
  mn_op *pop = NULL;
  mn_solver *s = NULL;
  T_OK(mn_op_create_csr(P, &pop));
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_pc_shell(s, quarter, NULL));
  res a = solve(ctx, pop, "-solver cg -rtol 1e-10", s), b = solve(ctx, pop, "-solver cg -pc jacobi -rtol 1e-10", NULL);
  same(&a, &b, mt_n(&q), "shell preconditioner");
  a = solve(ctx, pop, "-solver gmres -pc shell -rtol 1e-10", s);
  b = solve(ctx, pop, "-solver gmres -pc jacobi -rtol 1e-10", NULL);
  same(&a, &b, mt_n(&q), "shell preconditioner, GMRES");
  mn_solver_destroy(&s);
  check_iterates(ctx);
  /* the operator fails on the last rank only: every rank gets the error */
  l.fail_on = mn_ctx_size(ctx) - 1;
  l.calls = 0;
  mn_array *bb = NULL, *xx = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &bb));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &xx));
  mt_set(bb, mt_rhs);
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, free_op));
  err = mn_solver_solve(s, bb, xx);
  T_CHECK(err == MN_ERR_ARG && strstr(mn_ctx_errmsg(ctx), "failed on rank"), "a failing callback: %s, %s",
          mn_err_name(err), mn_ctx_errmsg(ctx));
  mn_solver_destroy(&s);
  mn_array_destroy(&bb);
  mn_array_destroy(&xx);
  mn_op_destroy(&pop);
  mn_csr_destroy(&P);
  mn_op_destroy(&wrap);
  mn_op_destroy(&direct);
  mn_csr_destroy(&C);
  mn_array_destroy(&d);
  mn_array_destroy(&e);
  mn_array_destroy(&f);
  mn_op_destroy(&free_op);
  mn_op_destroy(&csr_op);
  mn_csr_destroy(&T);
  return mt_finish(&ctx);
}
