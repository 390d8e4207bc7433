/* Matrix-free stencil operators (mn_op_create_stencil) against the CSR
 * matrix of the same operator, assembled here row by row from the
 * stencil's points and the documented boundary conventions: equal
 * products (also against the serial padded-grid reference of st_ref.h),
 * equal diagonals, and CG on either giving the same solution in the same
 * number of iterations (+-1), without and with Jacobi. 2-d and 3-d,
 * uneven splits, a slab process grid whose blocks line up with the
 * vectors', every boundary kind, a variable centre coefficient, float32,
 * and vectors that are views. */
#include "st_ref.h"
#include <maniple/mn_solver.h>

typedef struct {
  const char *name;
  int nd, npts;
  int64_t shape[3];
  mn_dtype dtype;
  int slabs;              /* process grid P x 1 (x 1) */
  int varcentre;          /* the centre weight becomes an array */
  mn_bc_kind bc[3][2];
} tcase;

/* where a read at t lands on an axis of extent n, and its factor */
static int64_t land(mn_bc_kind lo, mn_bc_kind hi, int64_t t, int64_t n, double *f) {
  if (t >= 0 && t < n) return t;
  mn_bc_kind k = t < 0 ? lo : hi;
  if (k == MN_BC_PERIODIC) return (t + n) % n;
  if (k == MN_BC_DIRICHLET) { *f = 0; return 0; }
  if (k == MN_BC_DIRICHLET_FACE) *f = -*f;
  return t < 0 ? -t - 1 : 2 * n - 1 - t;
}

/* the CSR of the operator: my rows of the split, as triplets */
static mn_csr *assemble(mn_ctx *ctx, const st_ref *r, const int64_t *shape, int64_t n) {
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t r0 = mn_split_start(n, P, me), nl = mn_split_size(n, P, me), k = 0;
  int64_t *ri = malloc(sizeof(int64_t) * (size_t)(nl * r->npts + 1)), *ci = malloc(sizeof(int64_t) * (size_t)(nl * r->npts + 1));
  double *v = malloc(sizeof(double) * (size_t)(nl * r->npts + 1));
  for (int64_t i = r0; i < r0 + nl; i++) {
    int64_t g[3], rr = i;
    for (int d = r->nd - 1; d >= 0; d--) { g[d] = rr % shape[d]; rr /= shape[d]; }
    for (int q = 0; q < r->npts; q++) {
      double f = 1;
      int64_t col = 0;
      for (int d = 0; d < r->nd; d++)
        col = col * shape[d] + land(r->kind[d][0], r->kind[d][1], g[d] + r->off[q * r->nd + d], shape[d], &f);
      if (f == 0) continue;
      ri[k] = i;
      ci[k] = col;
      v[k++] = f * (r->coef[q] ? r->coef[q][i] : r->w[q]);
    }
  }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_coo(ctx, n, n, MN_FLOAT64, k, MN_INT64, ri, ci, v, &A));
  free(ri);
  free(ci);
  free(v);
  return A;
}

static mn_array *vec(mn_ctx *ctx, int64_t n) {
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &a));
  return a;
}

/* CG on op and on the CSR: same solution, iterations within one */
static void cg_compare(mn_ctx *ctx, const tcase *c, mn_op *op, mn_op *cop, const mn_array *b, int64_t n,
                       const char *pc) {
  char opts[128];
  snprintf(opts, sizeof opts, "-solver cg -pc %s -rtol 1e-10 -maxit 2000", pc);
  mn_array *x[2] = {vec(ctx, n), vec(ctx, n)};
  mn_op *ops[2] = {op, cop};
  int64_t its[2] = {0, 0};
  mn_stop_reason why[2];
  double rn;
  for (int i = 0; i < 2; i++) {
    mn_solver *s = NULL;
    T_OK(mn_solver_create(ctx, &s));
    T_OK(mn_solver_set_operator(s, ops[i]));
    T_OK(mn_solver_set_options(s, opts));
    T_OK(mn_solver_solve(s, b, x[i]));
    T_OK(mn_solver_get_result(s, &its[i], &rn, &why[i]));
    mn_solver_destroy(&s);
  }
  T_CHECK(why[0] == MN_CONVERGED_RTOL && why[1] == MN_CONVERGED_RTOL, "%s, pc %s: stop reasons %s and %s", c->name, pc,
          mn_stop_reason_name(why[0]), mn_stop_reason_name(why[1]));
  T_CHECK(llabs((long long)(its[0] - its[1])) <= 1, "%s, pc %s: %lld iterations on the stencil, %lld on the CSR",
          c->name, pc, (long long)its[0], (long long)its[1]);
  double *a = mt_all(x[0]), *e = mt_all(x[1]);
  st_compare(c->name, n, a, e, NULL, 1e-8);
  free(a);
  free(e);
  mn_array_destroy(&x[0]);
  mn_array_destroy(&x[1]);
}

static void run(mn_ctx *ctx, const tcase *c) {
  int nd = c->nd, P = mn_ctx_size(ctx);
  int64_t n = 1;
  double h[3];
  for (int d = 0; d < nd; d++) {
    n *= c->shape[d];
    h[d] = 1.0 / (double)(c->shape[d] + 1);
  }
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, nd, c->npts, h, &s));
  if (!s) return;
  T_OK(mn_stencil_scale(s, -1)); /* -Laplacian: SPD */
  for (int d = 0; d < nd; d++)
    for (int side = 0; side < 2; side++) T_OK(mn_stencil_set_bc(s, d, side, c->bc[d][side], 0));
  double *cf = NULL;
  mn_array *carr = NULL;
  if (c->varcentre) { /* centre weight + a positive field: Jacobi then differs from scaling */
    double w[27];
    int off[27 * 3], centre = 0;
    T_OK(mn_stencil_get_points(s, off, w));
    while (off[centre * nd] || off[centre * nd + 1] || (nd == 3 && off[centre * nd + 2])) centre++;
    cf = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) cf[i] = w[centre] * (1.0 + 2.0 * (1.0 + st_rand(7, i)));
    T_OK(mn_array_create(ctx, MN_FLOAT64, nd, c->shape, 0, &carr));
    st_set(carr, cf);
    T_OK(mn_stencil_set_coefficient(s, centre, carr));
  }
  st_ref r;
  st_ref_from(&r, s);
  if (c->varcentre)
    for (int k = 0; k < r.npts; k++) {
      int zero = 1;
      for (int d = 0; d < nd; d++) zero &= r.off[k * nd + d] == 0;
      if (zero) r.coef[k] = cf;
    }

  /* the template: the process grid, and the dtype */
  mn_array *tmpl = NULL;
  if (c->slabs) {
    int dims[3] = {P, 1, 1};
    mn_layout *lay = NULL;
    T_OK(mn_layout_create_block(ctx, nd, c->shape, dims, &lay));
    T_OK(mn_array_create_on(lay, c->dtype, 0, &tmpl));
    mn_layout_destroy(&lay);
  } else {
    T_OK(mn_array_create(ctx, c->dtype, nd, c->shape, 0, &tmpl));
  }
  mn_op *op = NULL, *cop = NULL;
  T_OK(mn_op_create_stencil(s, tmpl, &op));
  mn_array_destroy(&tmpl); /* the operator keeps only its layout */
  mn_csr *A = assemble(ctx, &r, c->shape, n);
  if (!op || !A) goto out;
  T_OK(mn_op_create_csr(A, &cop));
  T_CHECK(mn_op_size(op) == n, "%s: operator size %lld, expected %lld", c->name, (long long)mn_op_size(op),
          (long long)n);

  /* products */
  double *xg = malloc(sizeof(double) * (size_t)n), *want = malloc(sizeof(double) * (size_t)n),
         *scale = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) xg[i] = st_rand(3, i);
  st_ref_apply(&r, c->shape, xg, want, scale);
  mn_array *x = vec(ctx, n), *y = vec(ctx, n), *yc = vec(ctx, n);
  st_set(x, xg);
  T_OK(mn_op_apply(op, x, y));
  T_OK(mn_op_apply(cop, x, yc));
  double *got = mt_all(y), *gotc = mt_all(yc), tol = c->dtype == MN_FLOAT32 ? 1e-5 : 1e-13;
  char what[160];
  snprintf(what, sizeof what, "%s: stencil operator against the serial reference", c->name);
  st_compare(what, n, got, want, scale, tol);
  snprintf(what, sizeof what, "%s: assembled CSR against the serial reference", c->name);
  st_compare(what, n, gotc, want, scale, 1e-13);
  free(got);
  free(gotc);

  /* views as x and y: every other element of longer vectors */
  int64_t n2 = 2 * n;
  mn_array *x2 = vec(ctx, n2), *y2 = vec(ctx, n2), *xv = NULL, *yv = NULL;
  mn_index every2 = mn_slice(0, n2, 2);
  T_OK(mn_array_index(x2, 1, &every2, &xv));
  T_OK(mn_array_index(y2, 1, &every2, &yv));
  T_OK(mn_array_copy(x, xv));
  T_OK(mn_op_apply(op, xv, yv));
  got = mt_all(yv);
  snprintf(what, sizeof what, "%s: stencil operator on views", c->name);
  st_compare(what, n, got, want, scale, tol);
  free(got);

  /* diagonals */
  mn_array *d = vec(ctx, n), *dc = vec(ctx, n);
  T_OK(mn_op_get_diagonal(op, d));
  T_OK(mn_op_get_diagonal(cop, dc));
  got = mt_all(d);
  gotc = mt_all(dc);
  snprintf(what, sizeof what, "%s: diagonal against the CSR's", c->name);
  st_compare(what, n, got, gotc, NULL, c->dtype == MN_FLOAT32 ? 1e-6 : 1e-14);
  free(got);
  free(gotc);

  /* CG (float64 operators: a float32 one rounds each product) */
  if (c->dtype == MN_FLOAT64) {
    cg_compare(ctx, c, op, cop, y, n, "none");
    cg_compare(ctx, c, op, cop, y, n, "jacobi");
  }
  free(xg);
  free(want);
  free(scale);
  mn_array *all[] = {x, y, yc, x2, y2, xv, yv, d, dc};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) mn_array_destroy(&all[k]);
out:
  mn_op_destroy(&op);
  mn_op_destroy(&cop);
  mn_csr_destroy(&A);
  mn_stencil_destroy(&s);
  mn_array_destroy(&carr);
  free(cf);
}

#define DIR {MN_BC_DIRICHLET, MN_BC_DIRICHLET}
int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  const tcase cases[] = {
      {"2-d 5-point, Dirichlet, 13 x 9", 2, 5, {13, 9, 1}, MN_FLOAT64, 0, 0, {DIR, DIR, DIR}},
      {"2-d 9-point, Neumann low x, face Dirichlet high y, variable centre, 11 x 12", 2, 9, {11, 12, 1}, MN_FLOAT64, 0,
       1, {{MN_BC_NEUMANN, MN_BC_DIRICHLET}, {MN_BC_DIRICHLET, MN_BC_DIRICHLET_FACE}, DIR}},
      {"3-d 7-point, periodic z, slabs, 12 x 5 x 6", 3, 7, {12, 5, 6}, MN_FLOAT64, 1, 0,
       {DIR, DIR, {MN_BC_PERIODIC, MN_BC_PERIODIC}}},
      {"3-d 27-point, Dirichlet, variable centre, 6 x 7 x 5", 3, 27, {6, 7, 5}, MN_FLOAT64, 0, 1, {DIR, DIR, DIR}},
      {"2-d 5-point float32, Neumann high x, 10 x 8", 2, 5, {10, 8, 1}, MN_FLOAT32, 0, 0,
       {{MN_BC_DIRICHLET, MN_BC_NEUMANN}, DIR, DIR}},
  };
  for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) run(ctx, &cases[k]);
  return mt_finish(&ctx);
}
