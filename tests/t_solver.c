/* Krylov methods and preconditioners against a dense direct solve in the
 * test: every method and preconditioner on 2-d and 3-d Poisson, GMRES and
 * BiCGStab on convection-diffusion, the stationary Jacobi iteration on a
 * diagonally dominant matrix, MINRES on an indefinite one, CG + Jacobi's
 * iteration count against a serial PCG run here, CG1 against CG,
 * vectors outside the default layout, a preconditioner kept between
 * solves until its matrix changes, and a sparse matrix as M. */
#include "mt_solver.h"

static const char *ksp_name[] = {"cg", "cg1", "jacobi", "bicgstab", "gmres", "minres"};
static const char *pc_name[] = {"none", "jacobi", "bjacobi_ilu0", "bjacobi_sgs", "shell"};

typedef struct {
  int64_t its;
  double rnorm, err;
  mn_stop_reason reason;
} outcome;

/* solve p with (method, pc), compare with the dense solution */
static outcome run(mn_ctx *ctx, const mt_prob *p, mn_ksp_type m, mn_pc_type pc, double rtol, const char *opts) {
  outcome o = {-1, -1, 1, MN_STOP_NONE};
  int64_t n = mt_n(p);
  mn_csr *A = mt_csr(ctx, p);
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *b = NULL, *x = NULL;
  T_OK(mn_op_create_csr(A, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  mt_set(b, mt_rhs);
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_method(s, m));
  T_OK(mn_solver_set_pc(s, pc));
  T_OK(mn_solver_set_tolerances(s, rtol, 0, 2000));
  if (opts) T_OK(mn_solver_set_options(s, opts));
  T_OK(mn_solver_solve(s, b, x));
  T_OK(mn_solver_get_result(s, &o.its, &o.rnorm, &o.reason));
  double *xs = mt_all(x), *bs = calloc((size_t)n + 1, sizeof(double)), *ref = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) bs[i] = mt_rhs(i);
  mt_dense_solve(p, bs, ref);
  o.err = mt_err(xs, ref, n);
  /* the history: its + 1 norms, the last one reported */
  int64_t nh;
  const double *h;
  T_OK(mn_solver_get_history(s, &nh, &h));
  T_CHECK(nh == o.its + 1 && h[nh - 1] == o.rnorm, "%s/%s: history of %lld norms for %lld iterations",
          ksp_name[m], pc_name[pc], (long long)nh, (long long)o.its);
  free(xs);
  free(bs);
  free(ref);
  mn_solver_destroy(&s);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_op_destroy(&op);
  mn_csr_destroy(&A);
  return o;
}

static void expect(mn_ctx *ctx, const char *what, const mt_prob *p, mn_ksp_type m, mn_pc_type pc, double tol) {
  outcome o = run(ctx, p, m, pc, 1e-10, NULL);
  T_CHECK(mn_stop_reason_converged(o.reason) && o.err <= tol,
          "%s, %s + %s: %s after %lld iterations, error %.3g (tol %g)", what, ksp_name[m], pc_name[pc],
          mn_stop_reason_name(o.reason), (long long)o.its, o.err, tol);
  if (getenv("MT_VERBOSE") && mt_rank == 0)
    printf("%s, %s + %s: %s, %lld iterations, error %.2g\n", what, ksp_name[m], pc_name[pc],
           mn_stop_reason_name(o.reason), (long long)o.its, o.err);
}

/* serial PCG with Jacobi, as the solver defines it; its history in h */
static int64_t serial_cg(const mt_prob *p, double rtol, double *h, int64_t maxh) {
  int64_t n = mt_n(p), c[8], k = 0;
  double v[8], *x = calloc((size_t)n, 8), *r = malloc((size_t)n * 8), *z = malloc((size_t)n * 8),
         *pp = malloc((size_t)n * 8), *q = malloc((size_t)n * 8), *dg = malloc((size_t)n * 8);
  double bb = 0, rz = 0, rr;
  for (int64_t i = 0; i < n; i++) {
    int m = mt_row(p, i, c, v);
    for (int j = 0; j < m; j++)
      if (c[j] == i) dg[i] = v[j];
    r[i] = mt_rhs(i);
    bb += r[i] * r[i];
    z[i] = r[i] / dg[i];
    pp[i] = z[i];
    rz += r[i] * z[i];
  }
  rr = bb;
  h[0] = sqrt(rr);
  while (sqrt(rr) > rtol * sqrt(bb) && k < maxh - 1) {
    mt_mult(p, pp, q);
    double pq = 0;
    for (int64_t i = 0; i < n; i++) pq += pp[i] * q[i];
    double a = rz / pq, rz1 = 0;
    rr = 0;
    for (int64_t i = 0; i < n; i++) {
      x[i] += a * pp[i];
      r[i] -= a * q[i];
      z[i] = r[i] / dg[i];
      rz1 += r[i] * z[i];
      rr += r[i] * r[i];
    }
    for (int64_t i = 0; i < n; i++) pp[i] = z[i] + rz1 / rz * pp[i];
    rz = rz1;
    h[++k] = sqrt(rr);
  }
  free(x); free(r); free(z); free(pp); free(q); free(dg);
  return k;
}

static void check_counts(mn_ctx *ctx, int64_t nx, int64_t ny, double pert) {
  mt_prob p = {MT_POISSON2, nx, ny, 1, pert};
  double rtol = 1e-8, h[4000];
  int64_t ks = serial_cg(&p, rtol, h, 4000);
  double tol = rtol * h[0];
  /* a count is rank-independent only away from the threshold */
  T_CHECK(h[ks - 1] > 1.02 * tol && h[ks] < 0.98 * tol,
          "%lldx%lld: the serial history crosses rtol too closely (%g, %g for %g)", (long long)nx, (long long)ny,
          h[ks - 1], h[ks], tol);
  outcome o = run(ctx, &p, MN_KSP_CG, MN_PC_JACOBI, rtol, NULL);
  T_CHECK(o.reason == MN_CONVERGED_RTOL && o.its == ks, "%lldx%lld CG+Jacobi: %lld iterations (%s), serial %lld",
          (long long)nx, (long long)ny, (long long)o.its, mn_stop_reason_name(o.reason), (long long)ks);
  T_CHECK(fabs(o.rnorm - h[ks]) <= 1e-6 * h[ks], "final residual %.17g, serial %.17g", o.rnorm, h[ks]);
  if (getenv("MT_VERBOSE") && mt_rank == 0)
    printf("CG+Jacobi %lldx%lld at %d ranks: %lld iterations\n", (long long)nx, (long long)ny, mn_ctx_size(ctx),
           (long long)o.its);
  /* CG1: the same solution, a similar count */
  outcome o1 = run(ctx, &p, MN_KSP_CG1, MN_PC_JACOBI, rtol, NULL);
  T_CHECK(o1.reason == MN_CONVERGED_RTOL && llabs(o1.its - ks) <= 2 && o1.err <= 1e-6,
          "CG1: %s after %lld iterations (CG %lld), error %.3g", mn_stop_reason_name(o1.reason), (long long)o1.its,
          (long long)ks, o1.err);
}

/* b as a 2-d grid array and x as a strided view: copied in and out */
static void check_layouts(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 9, 7, 1, 0};
  int64_t n = 63, shp[2] = {7, 9}, big = 2 * n;
  mn_csr *A = mt_csr(ctx, &p);
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *b = NULL, *xb = NULL, *x = NULL, *b1 = NULL;
  T_OK(mn_op_create_csr(A, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b1));
  mt_set(b1, mt_rhs);
  T_OK(mn_array_reshape(b1, 2, shp, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT32, 1, &big, 0, &xb));
  mn_index every2[1] = {mn_slice(1, MN_NONE, 2)};
  T_OK(mn_array_index(xb, 1, every2, &x));
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_options(s, "-solver cg -pc jacobi -rtol 1e-10"));
  T_OK(mn_solver_solve(s, b, x));
  mn_stop_reason why;
  T_OK(mn_solver_get_result(s, NULL, NULL, &why));
  double *xs = mt_all(xb), bs[63] = {0}, ref[63] = {0};
  for (int64_t i = 0; i < n; i++) bs[i] = mt_rhs(i);
  mt_dense_solve(&p, bs, ref);
  double e = 0;
  for (int64_t i = 0; i < n; i++) {
    e = fmax(e, fabs(xs[2 * i + 1] - ref[i]) / (1 + fabs(ref[i])));
    T_CHECK(xs[2 * i] == 0, "the view's gaps were written: %g at %lld", xs[2 * i], (long long)(2 * i));
  }
  T_CHECK(why == MN_CONVERGED_RTOL && e < 1e-6, "views and 2-d b: %s, error %g", mn_stop_reason_name(why), e);
  free(xs);
  mn_solver_destroy(&s);
  mn_array_destroy(&x);
  mn_array_destroy(&xb);
  mn_array_destroy(&b);
  mn_array_destroy(&b1);
  mn_op_destroy(&op);
  mn_csr_destroy(&A);
}

/* a float32 matrix: the generic product, preconditioners from its values
 * (the answer is that of a matrix rounded to float32: 1e-5) */
static void check_float32(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 10, 9, 1, 0.3};
  int64_t n = mt_n(&p);
  mn_csr *A = mt_csr(ctx, &p), *A32 = NULL;
  T_OK(mn_csr_copy(A, MN_FLOAT32, &A32));
  double bs[90], ref[90] = {0};
  for (int64_t i = 0; i < n; i++) bs[i] = mt_rhs(i);
  mt_dense_solve(&p, bs, ref);
  const char *opts[] = {"-solver cg -pc jacobi", "-solver gmres -pc bjacobi_ilu0", "-solver cg1 -pc bjacobi_sgs"};
  for (int k = 0; k < 3; k++) {
    mn_op *op = NULL;
    mn_solver *s = NULL;
    mn_array *b = NULL, *x = NULL;
    T_OK(mn_op_create_csr(A32, &op));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
    mt_set(b, mt_rhs);
    T_OK(mn_solver_create(ctx, &s));
    T_OK(mn_solver_set_operator(s, op));
    T_OK(mn_solver_set_options(s, opts[k]));
    /* rtol 1e-6 is within float32's reach; 1e-10 is not, and the true
     * residual says so (the recurrence alone would claim it) */
    const char *tol[] = {"-rtol 1e-6", "-rtol 1e-10"};
    for (int t = 0; t < 2; t++) {
      T_OK(mn_array_fill(x, mn_scalar_f64(0)));
      T_OK(mn_solver_set_options(s, tol[t]));
      T_OK(mn_solver_solve(s, b, x));
      mn_stop_reason why;
      T_OK(mn_solver_get_result(s, NULL, NULL, &why));
      double *xs = mt_all(x);
      T_CHECK(why == (t ? MN_DIVERGED_STAGNATION : MN_CONVERGED_RTOL) && mt_err(xs, ref, n) < 1e-5,
              "float32 matrix, %s %s: %s, error %g", opts[k], tol[t], mn_stop_reason_name(why), mt_err(xs, ref, n));
      free(xs);
    }
    mn_solver_destroy(&s);
    mn_array_destroy(&b);
    mn_array_destroy(&x);
    mn_op_destroy(&op);
  }
  mn_csr_destroy(&A32);
  mn_csr_destroy(&A);
}

/* A solver keeps its preconditioner's set-up between solves while the
 * matrix is unchanged (no set-up work at the second solve) and makes it
 * again after the matrix changes: then the same iterates, bit for bit, as
 * a new solver's, and x solves the changed system. */
static double scale_of(int64_t i) { return 1.0 + 0.5 * (double)(i % 3); }

static void solve_into(mn_solver *s, mn_array *b, mn_array *x, int64_t *its, double **xs) {
  T_OK(mn_array_fill(x, mn_scalar_f64(0)));
  T_OK(mn_solver_solve(s, b, x));
  T_OK(mn_solver_get_result(s, its, NULL, NULL));
  *xs = mt_all(x);
}

static void check_kept_setup(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 14, 11, 1, 0.3};
  int64_t n = mt_n(&p);
  const char *opts[] = {"-solver cg -pc jacobi", "-solver gmres -pc bjacobi_ilu0", "-solver cg1 -pc bjacobi_sgs"};
  for (int k = 0; k < 3; k++) {
    mn_csr *A = mt_csr(ctx, &p);
    mn_op *op = NULL;
    mn_solver *s = NULL, *fresh = NULL;
    mn_array *b = NULL, *x = NULL, *l = NULL, *r = NULL;
    T_OK(mn_op_create_csr(A, &op));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &l));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &r));
    mt_set(b, mt_rhs);
    mt_set(l, scale_of);
    T_OK(mn_solver_create(ctx, &s));
    T_OK(mn_solver_set_operator(s, op));
    T_OK(mn_solver_set_options(s, opts[k]));
    T_OK(mn_solver_set_tolerances(s, 1e-10, 0, 2000));
    int64_t i1, i2, i3, i4;
    double *x1, *x2, *x3, *x4;
    mn_log_stats st;
    T_OK(mn_log_enable(ctx));
    solve_into(s, b, x, &i1, &x1);
    T_OK(mn_log_get(ctx, MN_LOG_SV_SETUP, &st));
    int64_t made = st.mem_bytes + st.allreduces;
    T_OK(mn_log_reset(ctx));
    solve_into(s, b, x, &i2, &x2);
    T_OK(mn_log_get(ctx, MN_LOG_SV_SETUP, &st));
    T_CHECK(made > 0 && st.calls == 1 && st.mem_bytes == 0 && st.allreduces == 0,
            "%s: the second solve set up again (%lld bytes, %lld allreduces; the first: %lld)", opts[k],
            (long long)st.mem_bytes, (long long)st.allreduces, (long long)made);
    T_CHECK(i1 == i2 && memcmp(x1, x2, sizeof(double) * (size_t)n) == 0, "%s: a second solve gave %lld iterations, "
            "the first %lld (or another x)", opts[k], (long long)i2, (long long)i1);
    /* rows and columns scaled unevenly: D^-1 and the factors change */
    T_OK(mn_csr_diag_scale(A, l, l));
    T_OK(mn_log_reset(ctx));
    solve_into(s, b, x, &i3, &x3);
    T_OK(mn_log_get(ctx, MN_LOG_SV_SETUP, &st));
    T_CHECK(st.mem_bytes + st.allreduces > 0, "%s: no set-up after the matrix changed", opts[k]);
    T_OK(mn_log_disable(ctx));
    T_OK(mn_solver_create(ctx, &fresh));
    T_OK(mn_solver_set_operator(fresh, op));
    T_OK(mn_solver_set_options(fresh, opts[k]));
    T_OK(mn_solver_set_tolerances(fresh, 1e-10, 0, 2000));
    solve_into(fresh, b, x, &i4, &x4);
    T_CHECK(i3 == i4 && memcmp(x3, x4, sizeof(double) * (size_t)n) == 0,
            "%s after diag_scale: %lld iterations with the kept solver, %lld with a new one (or another x)", opts[k],
            (long long)i3, (long long)i4);
    /* and x3 solves L A L x = b: |b - A' x3| small against |b| */
    T_OK(mn_array_scatter(x, 0, x3));
    T_OK(mn_csr_spmv(A, x, r));
    double *ax = mt_all(r), res = 0, bb = 0;
    for (int64_t i = 0; i < n; i++) {
      res += (ax[i] - mt_rhs(i)) * (ax[i] - mt_rhs(i));
      bb += mt_rhs(i) * mt_rhs(i);
    }
    T_CHECK(sqrt(res) < 1e-8 * sqrt(bb), "%s after diag_scale: |b - A x| / |b| = %g", opts[k], sqrt(res / bb));
    free(x1); free(x2); free(x3); free(x4); free(ax);
    mn_solver_destroy(&fresh);
    mn_solver_destroy(&s);
    mn_array_destroy(&b); mn_array_destroy(&x); mn_array_destroy(&l); mn_array_destroy(&r);
    mn_op_destroy(&op);
    mn_csr_destroy(&A);
  }
}

/* M for mn_solver_set_pc_matrix: diag(1 / a_ii) (off = 0), or that plus
 * off on the first neighbours (symmetric, diagonally dominant: SPD), as
 * the dtype given */
static mn_csr *pc_mat(mn_ctx *ctx, const mt_prob *p, double off, mn_dtype t) {
  int64_t n = mt_n(p), P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t r0 = mn_split_start(n, (int)P, (int)me), nl = mn_split_size(n, (int)P, (int)me);
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *cols = malloc(sizeof(int64_t) * (size_t)(3 * nl + 1));
  double *vals = malloc(sizeof(double) * (size_t)(3 * nl + 1)), v[8];
  int64_t c[8];
  rp[0] = 0;
  for (int64_t i = 0; i < nl; i++) {
    int64_t g = r0 + i, k = rp[i], m = mt_row(p, g, c, v);
    double d = 0;
    for (int q = 0; q < m; q++)
      if (c[q] == g) d = v[q];
    if (off != 0 && g > 0) { cols[k] = g - 1; vals[k++] = off; }
    cols[k] = g;
    vals[k++] = t == MN_FLOAT32 ? (double)(float)(1.0 / d) : 1.0 / d;
    if (off != 0 && g < n - 1) { cols[k] = g + 1; vals[k++] = off; }
    rp[i + 1] = k;
  }
  mn_csr *M = NULL, *Mt = NULL;
  T_OK(mn_csr_create_rows(ctx, n, n, MN_FLOAT64, nl, rp, MN_INT64, cols, vals, &M));
  free(rp); free(cols); free(vals);
  if (t == MN_FLOAT64) return M;
  T_OK(mn_csr_copy(M, t, &Mt));
  mn_csr_destroy(&M);
  return Mt;
}

static int apply_mat(void *user, const mn_array *r, mn_array *z) { return mn_csr_spmv((const mn_csr *)user, r, z); }

/* one solve of p by opts with M as the preconditioner matrix (M NULL:
 * opts' own; shell: M applied through a user function) */
static double *pc_solve(mn_ctx *ctx, const mt_prob *p, const char *opts, const mn_csr *M, int shell, int64_t *its,
                        int64_t *pc_calls) {
  int64_t n = mt_n(p);
  mn_csr *A = mt_csr(ctx, p);
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *b = NULL, *x = NULL;
  T_OK(mn_op_create_csr(A, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  mt_set(b, mt_rhs);
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_options(s, opts));
  T_OK(mn_solver_set_tolerances(s, 1e-10, 0, 2000));
  if (M && shell) T_OK(mn_solver_set_pc_shell(s, apply_mat, (void *)M));
  else if (M) T_OK(mn_solver_set_pc_matrix(s, M));
  T_OK(mn_log_enable(ctx));
  T_OK(mn_log_reset(ctx));
  T_OK(mn_solver_solve(s, b, x));
  mn_log_stats st;
  T_OK(mn_log_get(ctx, MN_LOG_SV_PC, &st));
  T_OK(mn_log_disable(ctx));
  if (pc_calls) *pc_calls = st.calls;
  mn_stop_reason why;
  T_OK(mn_solver_get_result(s, its, NULL, &why));
  T_CHECK(why == MN_CONVERGED_RTOL, "%s with a preconditioner matrix: %s", opts, mn_stop_reason_name(why));
  double *xs = mt_all(x);
  mn_solver_destroy(&s);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_op_destroy(&op);
  mn_csr_destroy(&A);
  return xs;
}

/* mn_solver_set_pc_matrix: a diagonal M is Jacobi's fused scale (the
 * same iterates, bit for bit, as -pc jacobi when M = diag(1 / a_ii)); any
 * other M its product, as a shell applying it; float32 M as its float64
 * copy; a matrix of another size refused at the solve */
static void check_pc_matrix(mn_ctx *ctx) {
  mt_prob p = {MT_POISSON2, 13, 11, 1, 0.3};
  int64_t n = mt_n(&p), i1, i2;
  const char *meth[] = {"-solver cg", "-solver gmres", "-solver bicgstab", "-solver jacobi"};
  mn_csr *D = pc_mat(ctx, &p, 0, MN_FLOAT64), *G = pc_mat(ctx, &p, 0.01, MN_FLOAT64);
  mn_csr *G32 = pc_mat(ctx, &p, 0.01, MN_FLOAT32), *G32w = NULL;
  T_OK(mn_csr_copy(G32, MN_FLOAT64, &G32w));
  for (int m = 0; m < 4; m++) {
    char jac[64];
    snprintf(jac, sizeof jac, "%s -pc jacobi", meth[m]);
    int64_t ca, cb;
    double *a = pc_solve(ctx, &p, jac, NULL, 0, &i1, &ca), *b = pc_solve(ctx, &p, meth[m], D, 0, &i2, &cb);
    T_CHECK(i1 == i2 && !memcmp(a, b, sizeof(double) * (size_t)n) && ca == cb,
            "%s: M = diag(1 / a_ii) took %lld iterations and %lld separate applications, -pc jacobi %lld and %lld "
            "(or another x)", meth[m], (long long)i2, (long long)cb, (long long)i1, (long long)ca);
    free(a); free(b);
    if (m == 3) break; /* the stationary iteration needs a diagonally dominant M A: the diagonal one only */
    const mn_csr *gen[2][2] = {{G, G}, {G32, G32w}};
    for (int g = 0; g < 2; g++) {
      double *c = pc_solve(ctx, &p, meth[m], gen[g][0], 0, &i1, NULL),
             *d = pc_solve(ctx, &p, meth[m], gen[g][1], 1, &i2, NULL);
      double e = 0, nn = 0;
      for (int64_t i = 0; i < n; i++) { e = fmax(e, fabs(c[i] - d[i])); nn = fmax(nn, fabs(d[i])); }
      T_CHECK(i1 == i2 && e <= 1e-12 * nn, "%s: a %s M in C took %lld iterations, through a shell %lld; |dx| %g",
              meth[m], g ? "float32" : "float64", (long long)i1, (long long)i2, e);
      free(c); free(d);
    }
  }
  /* another size: refused at the solve, on every rank */
  mt_prob q = {MT_POISSON2, 5, 5, 1, 0};
  mn_csr *A = mt_csr(ctx, &p), *W = pc_mat(ctx, &q, 0, MN_FLOAT64);
  mn_op *op = NULL;
  mn_solver *s = NULL;
  mn_array *b = NULL, *x = NULL;
  T_OK(mn_op_create_csr(A, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_pc_matrix(s, W));
  T_EXPECT(mn_solver_solve(s, b, x), MN_ERR_SHAPE, "a 25 x 25 M for a 143 x 143 operator", "25 x 25", "143 x 143");
  mn_solver_destroy(&s);
  mn_array_destroy(&b); mn_array_destroy(&x);
  mn_op_destroy(&op);
  mn_csr_destroy(&A); mn_csr_destroy(&W);
  mn_csr_destroy(&D); mn_csr_destroy(&G); mn_csr_destroy(&G32); mn_csr_destroy(&G32w);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  mt_prob p2 = {MT_POISSON2, 12, 10, 1, 0}, p3 = {MT_POISSON3, 6, 5, 4, 0};
  mt_prob cd = {MT_CONVDIFF, 11, 10, 1, 3.0}, dd = {MT_DIAGDOM, 10, 9, 1, 0};
  mt_prob sh = {MT_SHIFTED, 9, 8, 1, 2.7};
  /* SPD: every method with every preconditioner */
  for (int m = MN_KSP_CG; m <= MN_KSP_MINRES; m++) {
    if (m == MN_KSP_JACOBI) continue;
    for (int pc = MN_PC_NONE; pc <= MN_PC_BJACOBI_SGS; pc++) {
      expect(ctx, "2-d Poisson", &p2, m, pc, 1e-7);
      expect(ctx, "3-d Poisson", &p3, m, pc, 1e-7);
    }
  }
  /* nonsymmetric */
  for (int pc = MN_PC_NONE; pc <= MN_PC_BJACOBI_SGS; pc++) {
    expect(ctx, "convection-diffusion", &cd, MN_KSP_GMRES, pc, 1e-7);
    expect(ctx, "convection-diffusion", &cd, MN_KSP_BICGSTAB, pc, 1e-7);
    expect(ctx, "diagonally dominant", &dd, MN_KSP_GMRES, pc, 1e-7);
  }
  /* GMRES restarted often still converges */
  outcome g = run(ctx, &cd, MN_KSP_GMRES, MN_PC_NONE, 1e-10, "-restart 5");
  T_CHECK(g.reason == MN_CONVERGED_RTOL && g.err < 1e-7, "GMRES(5): %s, error %g", mn_stop_reason_name(g.reason), g.err);
  /* the stationary iteration: weighted Jacobi, and Richardson with SGS */
  expect(ctx, "diagonally dominant", &dd, MN_KSP_JACOBI, MN_PC_NONE, 1e-7);
  expect(ctx, "diagonally dominant", &dd, MN_KSP_JACOBI, MN_PC_BJACOBI_SGS, 1e-7);
  outcome j = run(ctx, &dd, MN_KSP_JACOBI, MN_PC_JACOBI, 1e-10, "-omega 0.8");
  T_CHECK(j.reason == MN_CONVERGED_RTOL && j.err < 1e-7, "Jacobi, omega 0.8: %s, error %g",
          mn_stop_reason_name(j.reason), j.err);
  /* symmetric indefinite: MINRES, also with a positive preconditioner */
  expect(ctx, "shifted Poisson", &sh, MN_KSP_MINRES, MN_PC_NONE, 1e-7);
  /* fewer rows than ranks: some ranks own nothing */
  mt_prob tiny = {MT_POISSON2, 3, 1, 1, 0.3};
  for (int m = MN_KSP_CG; m <= MN_KSP_MINRES; m++)
    for (int pc = MN_PC_NONE; pc <= MN_PC_BJACOBI_SGS; pc++)
      if (m != MN_KSP_JACOBI || pc != MN_PC_BJACOBI_ILU0) expect(ctx, "3 x 3", &tiny, m, pc, 1e-7);
  /* rank-independent counts */
  check_counts(ctx, 20, 20, 0.3);
  check_counts(ctx, 33, 17, 0.1);
  check_counts(ctx, 50, 40, 0.0);
  check_layouts(ctx);
  check_float32(ctx);
  check_kept_setup(ctx);
  check_pc_matrix(ctx);
  return mt_finish(&ctx);
}
