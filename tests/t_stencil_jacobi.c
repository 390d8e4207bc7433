/* Weighted Jacobi sweeps: against serial sweeps on the gathered grid
 * (constant and variable centre, every boundary kind, float32 and float64,
 * odd and even sweep counts), and converging on Poisson problems whose
 * discrete solution is known (one sine or cosine mode per axis), with the
 * error against the continuous solution falling as h^2. */
#include "st_ref.h"

static const double PI = 3.14159265358979323846;

/* u <- u + omega (f - A u) / D, sweeps times, serially */
static void ref_jacobi(st_ref *r, const int64_t *shape, double *u, const double *f, double omega, int sweeps) {
  int64_t n = 1;
  for (int d = 0; d < r->nd; d++) n *= shape[d];
  double *au = malloc(sizeof(double) * (size_t)n), *dg = malloc(sizeof(double) * (size_t)n);
  st_ref_diag(r, n, dg);
  for (int k = 0; k < sweeps; k++) {
    st_ref_apply(r, shape, u, au, NULL);
    for (int64_t i = 0; i < n; i++) u[i] += omega / dg[i] * (f[i] - au[i]);
  }
  free(au);
  free(dg);
}

static void check_sweeps(mn_ctx *ctx, mn_stencil *s, const char *name, const int64_t *shape, int halo, mn_dtype t,
                         const double *coef, int coef_pt) {
  int nd = mn_stencil_ndim(s);
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  double *g = malloc(sizeof(double) * (size_t)n), *fg = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) { g[i] = st_rand(51, i); fg[i] = st_rand(52, i); }
  mn_array *u = NULL, *f = NULL, *f32 = NULL;
  T_OK(mn_array_create(ctx, t, nd, shape, halo, &u));
  T_OK(mn_array_create(ctx, t, nd, shape, 0, &f));
  T_OK(mn_array_create(ctx, MN_FLOAT32, nd, shape, 1, &f32)); /* another dtype: copied inside */
  static const mn_bc_kind kinds[4] = {MN_BC_DIRICHLET, MN_BC_DIRICHLET_FACE, MN_BC_NEUMANN, MN_BC_PERIODIC};
  for (int c = 0; u && f && f32 && c < 4; c++) {
    for (int d = 0; d < nd; d++) {
      mn_bc_kind lo = kinds[(c + d) % 4], hi = kinds[(c + 2 * d + 1) % 4];
      if (lo == MN_BC_PERIODIC || hi == MN_BC_PERIODIC) {
        T_OK(mn_stencil_set_bc(s, d, 0, MN_BC_PERIODIC, 0));
      } else {
        T_OK(mn_stencil_set_bc(s, d, 0, lo, 0.5 - d));
        T_OK(mn_stencil_set_bc(s, d, 1, hi, 1.5 + d));
      }
    }
    st_ref r;
    st_ref_from(&r, s);
    if (coef) r.coef[coef_pt] = coef;
    for (int sweeps = 0; sweeps <= 3; sweeps++) {
      const mn_array *rhs = c % 2 ? f32 : f;
      st_set(u, g);
      st_set((mn_array *)rhs, fg);
      double *ug = mt_all(u), *fv = mt_all(rhs);
      T_OK(mn_stencil_jacobi(s, u, rhs, 0.8, sweeps));
      ref_jacobi(&r, shape, ug, fv, 0.8, sweeps);
      double *got = mt_all(u);
      char what[160];
      snprintf(what, sizeof what, "%s %s, bcs %d, %d sweeps%s", name, mn_dtype_name(t), c, sweeps,
               c % 2 ? " (float32 f)" : "");
      st_compare(what, n, got, ug, NULL, t == MN_FLOAT32 ? 1e-4 : 1e-12);
      free(got);
      free(ug);
      free(fv);
    }
  }
  mn_array_destroy(&u);
  mn_array_destroy(&f);
  mn_array_destroy(&f32);
  free(g);
  free(fg);
}

static void check_all_sweeps(mn_ctx *ctx) {
  int64_t s2[2] = {13, 7}, s3[3] = {9, 10, 11};
  double h[3] = {0.5, 0.25, 0.2};
  for (int ti = 0; ti < 2; ti++) {
    mn_dtype t = ti ? MN_FLOAT32 : MN_FLOAT64;
    mn_stencil *s = NULL;
    T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &s));
    if (s) check_sweeps(ctx, s, "2-d 5-point", s2, 1, t, NULL, 0);
    mn_stencil_destroy(&s);
    T_OK(mn_stencil_create_laplacian(ctx, 2, 9, h, &s));
    if (s) check_sweeps(ctx, s, "2-d 9-point", s2, 2, t, NULL, 0);
    mn_stencil_destroy(&s);
    T_OK(mn_stencil_create_laplacian(ctx, 3, 7, h, &s));
    if (s) check_sweeps(ctx, s, "3-d 7-point", s3, 1, t, NULL, 0);
    mn_stencil_destroy(&s);
    T_OK(mn_stencil_create_laplacian(ctx, 3, 27, h, &s));
    if (s) check_sweeps(ctx, s, "3-d 27-point", s3, 1, t, NULL, 0);
    mn_stencil_destroy(&s);
    /* a random stencil whose centre appears twice, reach 2 */
    int off[14] = {0, 0, 2, -1, 0, 0, -1, 1, 0, -2, 1, 1, -1, 0};
    double w[7] = {-3.0, 0.4, -1.5, 0.3, 0.2, -0.1, 0.35};
    T_OK(mn_stencil_create(ctx, 2, 7, off, w, &s));
    if (s) check_sweeps(ctx, s, "2-d random", s2, 2, t, NULL, 0);
    mn_stencil_destroy(&s);
    /* variable centre coefficient */
    double *c = malloc(sizeof(double) * 91);
    for (int64_t i = 0; i < 91; i++) c[i] = -30 + 5 * st_rand(53, i);
    mn_array *ca = NULL;
    T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &s));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 0, &ca));
    if (s && ca) {
      st_set(ca, c);
      T_OK(mn_stencil_set_coefficient(s, 0, ca));
      check_sweeps(ctx, s, "2-d variable centre", s2, 1, t, c, 0);
    }
    mn_array_destroy(&ca);
    mn_stencil_destroy(&s);
    free(c);
  }
  /* above the threading threshold (the row shares and the copy back) */
  int64_t big[2] = {211, 173};
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &s));
  if (s) check_sweeps(ctx, s, "large 2-d 5-point", big, 1, MN_FLOAT64, NULL, 0);
  mn_stencil_destroy(&s);
}

/* -Laplace u = f with one mode per axis: kind per axis 0 vertex-centred
 * Dirichlet sin(pi x), 1 cell-centred Dirichlet-face sin(pi x), 2 cell-
 * centred Neumann cos(pi x), 3 periodic sin(2 pi x). Returns the max error
 * against the continuous solution; checks the discrete one. */
static double poisson(mn_ctx *ctx, int nd, const int64_t *shape, const int *kind, int sweeps, double omega) {
  double h[3], lam = 0, lamc = 0;
  int64_t n = 1;
  for (int d = 0; d < nd; d++) {
    n *= shape[d];
    double m = (double)shape[d];
    h[d] = kind[d] == 0 ? 1 / (m + 1) : 1 / m;
    double k = kind[d] == 3 ? 2 * PI : PI, sn = sin(k * h[d] / 2);
    lam += 4 / (h[d] * h[d]) * sn * sn; /* the discrete eigenvalue of the mode */
    lamc += k * k;
  }
  double *mode = malloc(sizeof(double) * (size_t)n), *fg = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) {
    int64_t r = i;
    mode[i] = 1;
    for (int d = nd - 1; d >= 0; d--) {
      double j = (double)(r % shape[d]);
      r /= shape[d];
      double x = kind[d] == 0 ? (j + 1) * h[d] : kind[d] == 3 ? j * h[d] : (j + 0.5) * h[d];
      mode[i] *= kind[d] == 0 ? sin(PI * x) : kind[d] == 1 ? sin(PI * x) : kind[d] == 2 ? cos(PI * x) : sin(2 * PI * x);
    }
    fg[i] = lamc * mode[i];
  }
  mn_stencil *s = NULL;
  mn_array *u = NULL, *f = NULL;
  double err = INFINITY;
  T_OK(mn_stencil_create_laplacian(ctx, nd, nd == 2 ? 5 : 7, h, &s));
  T_OK(mn_array_create(ctx, MN_FLOAT64, nd, shape, 1, &u));
  T_OK(mn_array_create(ctx, MN_FLOAT64, nd, shape, 0, &f));
  if (s && u && f) {
    static const mn_bc_kind bk[4] = {MN_BC_DIRICHLET, MN_BC_DIRICHLET_FACE, MN_BC_NEUMANN, MN_BC_PERIODIC};
    T_OK(mn_stencil_scale(s, -1));
    for (int d = 0; d < nd; d++) {
      T_OK(mn_stencil_set_bc(s, d, 0, bk[kind[d]], 0));
      if (kind[d] != 3) T_OK(mn_stencil_set_bc(s, d, 1, bk[kind[d]], 0));
    }
    st_set(f, fg);
    T_OK(mn_stencil_jacobi(s, u, f, omega, sweeps));
    double *got = mt_all(u), dmax = 0;
    err = 0;
    for (int64_t i = 0; i < n; i++) {
      dmax = fmax(dmax, fabs(got[i] - lamc / lam * mode[i]));
      err = fmax(err, fabs(got[i] - mode[i]));
    }
    T_CHECK(dmax < 1e-8, "%d-d Poisson (%lld points): %d sweeps leave %g from the discrete solution", nd,
            (long long)n, sweeps, dmax);
    free(got);
  }
  mn_stencil_destroy(&s);
  mn_array_destroy(&u);
  mn_array_destroy(&f);
  free(mode);
  free(fg);
  return err;
}

static void check_poisson(mn_ctx *ctx) {
  /* vertex-centred Dirichlet, 2-d: h = 1/12 and 1/24, second order */
  int k2[2] = {0, 0};
  int64_t a[2] = {11, 11}, b[2] = {23, 23};
  double e1 = poisson(ctx, 2, a, k2, 800, 1.0), e2 = poisson(ctx, 2, b, k2, 2900, 1.0);
  T_CHECK(e1 < 1e-2 && e2 < e1, "Poisson errors %g (h = 1/12), %g (h = 1/24)", e1, e2);
  T_CHECK(e1 / e2 > 3.6 && e1 / e2 < 4.4, "Poisson error ratio %g at half the spacing, expected 4 (second order)",
          e1 / e2);
  /* 3-d: periodic x, Neumann y, Dirichlet-face z, cell-centred */
  int k3[3] = {3, 2, 1};
  int64_t c[3] = {8, 6, 7};
  double e3 = poisson(ctx, 3, c, k3, 900, 0.9);
  T_CHECK(e3 < 0.1, "3-d mixed Poisson error %g", e3);
  /* 2-d Neumann x Dirichlet-face: converges to its discrete solution too */
  int k4[2] = {2, 1};
  int64_t d[2] = {10, 9};
  poisson(ctx, 2, d, k4, 600, 1.0);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  check_all_sweeps(ctx);
  check_poisson(ctx);
  return mt_finish(&ctx);
}
