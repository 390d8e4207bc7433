/* Stencil application against serial loops on the gathered grid: the
 * Laplacians and random constant stencils in 1, 2 and 3 dimensions on
 * uneven splits, every boundary kind on every side, float32 and float64,
 * variable coefficients, several fields at once, and outputs that are
 * views, other layouts, other dtypes or the grid itself. */
#include "st_ref.h"

#define D MN_BC_DIRICHLET
#define F MN_BC_DIRICHLET_FACE
#define N MN_BC_NEUMANN
#define P MN_BC_PERIODIC
/* per axis: (low, high) */
static const mn_bc_kind opts[10][2] = {{D, D}, {F, F}, {N, N}, {P, P}, {D, F}, {D, N}, {F, D}, {F, N}, {N, D}, {N, F}};

static void set_bcs(mn_stencil *s, int nd, const int *choice) {
  for (int d = 0; d < nd; d++) {
    const mn_bc_kind *o = opts[choice[d]];
    if (o[0] == P) {
      T_OK(mn_stencil_set_bc(s, d, 0, P, 0));
      continue;
    }
    T_OK(mn_stencil_set_bc(s, d, 0, o[0], 0.75 + d));
    T_OK(mn_stencil_set_bc(s, d, 1, o[1], -1.25 + 0.5 * d));
  }
}

static double tol_of(mn_dtype t) { return t == MN_FLOAT32 ? 2e-5 : 1e-13; }

/* y = A u for every boundary choice in `choices` (ncomb x nd), u random. */
static void check_combos(mn_ctx *ctx, mn_stencil *s, const char *name, const int64_t *shape, int halo, mn_dtype t,
                         int ncomb, const int (*choices)[3]) {
  int nd = mn_stencil_ndim(s);
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  double *g = malloc(sizeof(double) * (size_t)n), *want = malloc(sizeof(double) * (size_t)n);
  double *scale = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) g[i] = st_rand(17, i) + 0.5;
  mn_array *u = NULL, *y = NULL;
  T_OK(mn_array_create(ctx, t, nd, shape, halo, &u));
  T_OK(mn_array_create(ctx, t, nd, shape, 0, &y));
  if (!u || !y) goto done;
  st_set(u, g);
  double *ug = mt_all(u); /* the values as stored (float32 rounded) */
  for (int c = 0; c < ncomb; c++) {
    set_bcs(s, nd, choices[c]);
    T_OK(mn_stencil_apply(s, u, y));
    st_ref r;
    st_ref_from(&r, s);
    st_ref_apply(&r, shape, ug, want, scale);
    double *got = mt_all(y);
    char what[200];
    snprintf(what, sizeof what, "%s %s halo %d, bcs (%s/%s, %s/%s, %s/%s)", name, mn_dtype_name(t), halo,
             mn_bc_name(opts[choices[c][0]][0]), mn_bc_name(opts[choices[c][0]][1]),
             nd > 1 ? mn_bc_name(opts[choices[c][1]][0]) : "-", nd > 1 ? mn_bc_name(opts[choices[c][1]][1]) : "-",
             nd > 2 ? mn_bc_name(opts[choices[c][2]][0]) : "-", nd > 2 ? mn_bc_name(opts[choices[c][2]][1]) : "-");
    st_compare(what, n, got, want, scale, tol_of(t));
    free(got);
  }
  /* u's owned values are left alone (only its ghosts are written) */
  double *after = mt_all(u);
  st_compare("grid unchanged by apply", n, after, ug, NULL, 0);
  free(after);
  free(ug);
done:
  mn_array_destroy(&u);
  mn_array_destroy(&y);
  free(g);
  free(want);
  free(scale);
}

/* every boundary choice on both axes (2-d), every choice on every axis
 * with shifted partners (3-d), every choice (1-d) */
static int all2[100][3], some3[12][3], all1[10][3];
static void make_choices(void) {
  for (int a = 0; a < 10; a++)
    for (int b = 0; b < 10; b++) { all2[a * 10 + b][0] = a; all2[a * 10 + b][1] = b; all2[a * 10 + b][2] = 0; }
  for (int c = 0; c < 10; c++) { some3[c][0] = c; some3[c][1] = (c + 3) % 10; some3[c][2] = (c + 7) % 10; }
  for (int d = 0; d < 3; d++) { some3[10][d] = 3; some3[11][d] = d == 1 ? 3 : 2; }
  for (int c = 0; c < 10; c++) { all1[c][0] = c; all1[c][1] = all1[c][2] = 0; }
}

/* the textbook weights of the equal-spacing box Laplacians */
static void check_weights(mn_ctx *ctx) {
  double h2[2] = {0.5, 0.5}, h3[3] = {0.25, 0.25, 0.25};
  mn_stencil *s = NULL;
  int off[27 * 3];
  double w[27];
  T_OK(mn_stencil_create_laplacian(ctx, 2, 9, h2, &s));
  if (s) {
    T_CHECK(mn_stencil_npts(s) == 9 && mn_stencil_reach(s) == 1, "9-point: %d points, reach %d", mn_stencil_npts(s),
            mn_stencil_reach(s));
    T_OK(mn_stencil_get_points(s, off, w));
    for (int k = 0; k < 9; k++) {
      int nz = (off[2 * k] != 0) + (off[2 * k + 1] != 0);
      double want = (nz == 0 ? -20.0 : nz == 1 ? 4.0 : 1.0) / (6 * 0.25);
      T_CLOSE(w[k], want, 1e-14);
    }
    mn_stencil_destroy(&s);
  }
  T_OK(mn_stencil_create_laplacian(ctx, 3, 27, h3, &s));
  if (s) {
    T_OK(mn_stencil_get_points(s, off, w));
    double sum = 0;
    for (int k = 0; k < 27; k++) {
      int nz = (off[3 * k] != 0) + (off[3 * k + 1] != 0) + (off[3 * k + 2] != 0);
      double want = (nz == 0 ? -200.0 : nz == 1 ? 20.0 : nz == 2 ? 6.0 : 1.0) / (48 * 0.0625);
      T_CLOSE(w[k], want, 1e-14);
      sum += w[k];
    }
    T_CHECK(fabs(sum) < 1e-12, "27-point weights sum to %g", sum);
    mn_stencil_destroy(&s);
  }
  double h1 = 0.1;
  T_OK(mn_stencil_create_laplacian(ctx, 1, 3, &h1, &s));
  if (s) {
    T_OK(mn_stencil_get_points(s, off, w));
    for (int k = 0; k < 3; k++) T_CLOSE(w[k], off[k] ? 100.0 : -200.0, 1e-13);
    mn_stencil_destroy(&s);
  }
}

/* The Laplacians differentiate a x^2 + b y^2 + c z^2 exactly away from
 * the boundary (2a + 2b + 2c), with unequal spacings. */
static void check_quadratic(mn_ctx *ctx, int nd, int npts, const int64_t *shape) {
  double h[3] = {0.5, 0.25, 0.2}, a[3] = {1.5, -0.75, 2.0};
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, nd, npts, h, &s));
  if (!s) return;
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  double *g = malloc(sizeof(double) * (size_t)n), want = 0;
  for (int d = 0; d < nd; d++) want += 2 * a[d];
  for (int64_t i = 0; i < n; i++) {
    int64_t r = i;
    g[i] = 0;
    for (int d = nd - 1; d >= 0; d--) {
      double x = (double)(r % shape[d]) * h[d];
      r /= shape[d];
      g[i] += a[d] * x * x;
    }
  }
  mn_array *u = NULL, *y = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, nd, shape, 1, &u));
  T_OK(mn_array_create(ctx, MN_FLOAT64, nd, shape, 1, &y));
  if (u && y) {
    st_set(u, g);
    T_OK(mn_stencil_apply(s, u, y));
    double *got = mt_all(y);
    for (int64_t i = 0; i < n; i++) {
      int64_t r = i;
      int inner = 1;
      for (int d = nd - 1; d >= 0; d--) { int64_t k = r % shape[d]; r /= shape[d]; inner &= k > 0 && k < shape[d] - 1; }
      if (inner && fabs(got[i] - want) > 1e-9) {
        T_CHECK(0, "%d-point Laplacian of a quadratic at flat %lld: %.17g, expected %.17g", npts, (long long)i,
                got[i], want);
        break;
      }
    }
    free(got);
  }
  mn_array_destroy(&u);
  mn_array_destroy(&y);
  mn_stencil_destroy(&s);
  free(g);
}

/* Random constant stencil of npts points within reach 2 (centre first). */
static mn_stencil *random_stencil(mn_ctx *ctx, int nd, int npts, uint64_t seed) {
  int off[64 * 3];
  double w[64];
  for (int k = 0; k < npts; k++) {
    for (int d = 0; d < nd; d++) off[k * nd + d] = k ? (int)floor(2.5 * (st_rand(seed, 10 * k + d) + 1)) - 2 : 0;
    w[k] = st_rand(seed + 1, k);
  }
  off[nd] = 2; /* reach 2 on axis 0 for sure */
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create(ctx, nd, npts, off, w, &s));
  return s;
}

static void check_all_bcs(mn_ctx *ctx) {
  int64_t s1[1] = {29}, s2[2] = {13, 7}, s3[3] = {9, 10, 11};
  double h[3] = {0.5, 0.25, 0.2};
  for (int ti = 0; ti < 2; ti++) {
    mn_dtype t = ti ? MN_FLOAT32 : MN_FLOAT64;
    mn_stencil *s = NULL;
    T_OK(mn_stencil_create_laplacian(ctx, 1, 3, h, &s));
    if (s) check_combos(ctx, s, "1-d 3-point", s1, 1, t, 10, all1);
    mn_stencil_destroy(&s);
    T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &s));
    if (s) check_combos(ctx, s, "2-d 5-point", s2, 1, t, 100, all2);
    if (s) check_combos(ctx, s, "2-d 5-point", s2, 2, t, 12, all2 + 30); /* halo wider than the reach */
    mn_stencil_destroy(&s);
    T_OK(mn_stencil_create_laplacian(ctx, 2, 9, h, &s));
    if (s) check_combos(ctx, s, "2-d 9-point", s2, 1, t, 100, all2);
    mn_stencil_destroy(&s);
    /* a cross with unequal weights (the fast path) and a random reach-2 stencil */
    int cross[10] = {0, 1, 0, 0, -1, 0, 0, -1, 1, 0};
    double cw[5] = {0.3, -1.1, 0.7, 2.5, -0.4};
    T_OK(mn_stencil_create(ctx, 2, 5, cross, cw, &s));
    if (s) check_combos(ctx, s, "2-d skew cross", s2, 1, t, 100, all2);
    mn_stencil_destroy(&s);
    s = random_stencil(ctx, 2, 9, 5);
    if (s) check_combos(ctx, s, "2-d random", s2, 2, t, 100, all2);
    mn_stencil_destroy(&s);
    T_OK(mn_stencil_create_laplacian(ctx, 3, 7, h, &s));
    if (s) check_combos(ctx, s, "3-d 7-point", s3, 1, t, 12, some3);
    mn_stencil_destroy(&s);
    T_OK(mn_stencil_create_laplacian(ctx, 3, 27, h, &s));
    if (s) check_combos(ctx, s, "3-d 27-point", s3, 1, t, 12, some3);
    mn_stencil_destroy(&s);
    s = random_stencil(ctx, 3, 12, 9);
    if (s) check_combos(ctx, s, "3-d random", s3, 2, t, 12, some3);
    mn_stencil_destroy(&s);
  }
}

/* Outputs that are not base arrays of u's layout and dtype go through a
 * temporary: a view, float32 from float64, another process grid, u itself. */
static void check_outputs(mn_ctx *ctx) {
  int64_t shape[2] = {13, 7}, big[2] = {15, 10}, n = 91;
  double h[2] = {1, 1};
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 9, h, &s));
  if (!s) return;
  int ch[1][3] = {{3, 5, 0}};
  set_bcs(s, 2, ch[0]);
  double *g = malloc(sizeof(double) * (size_t)n), *want = malloc(sizeof(double) * (size_t)n);
  double *scale = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) g[i] = st_rand(3, i);
  st_ref r;
  st_ref_from(&r, s);
  st_ref_apply(&r, shape, g, want, scale);
  mn_array *u = NULL, *yb = NULL, *yv = NULL, *y32 = NULL, *yl = NULL;
  mn_layout *lay = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 1, &u));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, big, 0, &yb));
  mn_index ix[2] = {mn_slice(1, 14, 1), mn_slice(2, 9, 1)};
  T_OK(mn_array_index(yb, 2, ix, &yv));
  T_OK(mn_array_create(ctx, MN_FLOAT32, 2, shape, 0, &y32));
  int dims[2] = {1, mn_ctx_size(ctx) > 1 ? 2 : 1};
  if (mn_ctx_size(ctx) == 3) dims[1] = 3;
  if (mn_ctx_size(ctx) == 4) { dims[0] = 4; dims[1] = 1; }
  T_OK(mn_layout_create_block(ctx, 2, shape, dims, &lay));
  if (lay) T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &yl));
  if (u && yv && y32 && yl) {
    st_set(u, g);
    mn_array *outs[3] = {yv, y32, yl};
    const char *names[3] = {"view output", "float32 output", "output on another grid"};
    for (int k = 0; k < 3; k++) {
      T_OK(mn_stencil_apply(s, u, outs[k]));
      double *got = mt_all(outs[k]);
      st_compare(names[k], n, got, want, scale, k == 1 ? 1e-6 : 1e-13);
      free(got);
    }
    /* the rest of the viewed array stays zero */
    double *whole = mt_all(yb), sum = 0;
    for (int64_t i = 0; i < 150; i++) {
      int64_t a = i / 10, b = i % 10;
      if (a < 1 || a >= 14 || b < 2 || b >= 9) sum += fabs(whole[i]);
    }
    T_CHECK(sum == 0, "apply into a view wrote outside it (sum %g)", sum);
    free(whole);
    T_OK(mn_stencil_apply(s, u, u)); /* in place: A u of the old u */
    double *got = mt_all(u);
    st_compare("in-place output", n, got, want, scale, 1e-13);
    free(got);
  }
  mn_array_destroy(&u);
  mn_array_destroy(&yb);
  mn_array_destroy(&yv);
  mn_array_destroy(&y32);
  mn_array_destroy(&yl);
  mn_layout_destroy(&lay);
  mn_stencil_destroy(&s);
  free(g);
  free(want);
  free(scale);
}

/* Variable coefficients (float32 array, a transposed view, float64), then
 * scaling, then back to constant. */
static void check_variable(mn_ctx *ctx, mn_dtype t) {
  int64_t shape[2] = {13, 7}, tshape[2] = {7, 13}, n = 91;
  double h[2] = {0.5, 0.25};
  double *g = malloc(sizeof(double) * (size_t)n), *c0 = malloc(sizeof(double) * (size_t)n);
  double *c1 = malloc(sizeof(double) * (size_t)n), *want = malloc(sizeof(double) * (size_t)n);
  double *scale = malloc(sizeof(double) * (size_t)n), *ct = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) {
    g[i] = st_rand(21, i);
    c0[i] = (double)(float)(-20 + st_rand(22, i)); /* exact in float32 */
    c1[i] = 1 + st_rand(23, i);
  }
  /* c1 given as the transpose of a 7 x 13 array */
  for (int64_t i = 0; i < 13; i++)
    for (int64_t j = 0; j < 7; j++) ct[j * 13 + i] = c1[i * 7 + j];
  mn_stencil *s = NULL;
  mn_array *u = NULL, *y = NULL, *a0 = NULL, *at = NULL, *a1 = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &s));
  T_OK(mn_array_create(ctx, t, 2, shape, 1, &u));
  T_OK(mn_array_create(ctx, t, 2, shape, 1, &y));
  T_OK(mn_array_create(ctx, MN_FLOAT32, 2, shape, 0, &a0));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, tshape, 0, &at));
  if (!s || !u || !y || !a0 || !at) goto done;
  T_OK(mn_array_transpose(at, NULL, &a1));
  st_set(u, g);
  st_set(a0, c0);
  st_set(at, ct);
  int ch[3] = {7, 3, 0};
  set_bcs(s, 2, ch);
  /* point 0 is the centre, point 2 is +1 on axis 0 */
  T_OK(mn_stencil_set_coefficient(s, 0, a0));
  T_OK(mn_stencil_set_coefficient(s, 2, a1));
  st_set(a0, g); /* later changes do not reach the stencil */
  double *ug = mt_all(u);
  st_ref r;
  for (int rep = 0; rep < 3; rep++) {
    if (rep == 1) T_OK(mn_stencil_scale(s, -2));
    if (rep == 2) T_OK(mn_stencil_set_coefficient(s, 2, NULL));
    T_OK(mn_stencil_apply(s, u, y));
    st_ref_from(&r, s);
    if (rep == 1)
      for (int64_t i = 0; i < n; i++) { c0[i] *= -2; c1[i] *= -2; }
    r.coef[0] = c0;
    r.coef[2] = rep < 2 ? c1 : NULL;
    st_ref_apply(&r, shape, ug, want, scale);
    double *got = mt_all(y);
    char what[100];
    snprintf(what, sizeof what, "variable coefficients %s, step %d", mn_dtype_name(t), rep);
    st_compare(what, n, got, want, scale, tol_of(t));
    free(got);
  }
  free(ug);
done:
  mn_array_destroy(&u);
  mn_array_destroy(&y);
  mn_array_destroy(&a0);
  mn_array_destroy(&a1);
  mn_array_destroy(&at);
  mn_stencil_destroy(&s);
  free(g); free(c0); free(c1); free(want); free(scale); free(ct);
}

/* A 3-d 27-point stencil with a variable corner weight. */
static void check_variable3(mn_ctx *ctx) {
  int64_t shape[3] = {9, 10, 11}, n = 990;
  double h[3] = {1, 0.5, 0.25};
  double *g = malloc(sizeof(double) * (size_t)n), *c = malloc(sizeof(double) * (size_t)n);
  double *want = malloc(sizeof(double) * (size_t)n), *scale = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) { g[i] = st_rand(31, i); c[i] = st_rand(32, i); }
  mn_stencil *s = NULL;
  mn_array *u = NULL, *y = NULL, *a = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 3, 27, h, &s));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 3, shape, 1, &u));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 3, shape, 1, &y));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 3, shape, 0, &a));
  if (s && u && y && a) {
    st_set(u, g);
    st_set(a, c);
    int ch[3] = {4, 3, 9};
    set_bcs(s, 3, ch);
    T_OK(mn_stencil_set_coefficient(s, 26, a)); /* offset (1, 1, 1) */
    T_OK(mn_stencil_apply(s, u, y));
    st_ref r;
    st_ref_from(&r, s);
    r.coef[26] = c;
    st_ref_apply(&r, shape, g, want, scale);
    double *got = mt_all(y);
    st_compare("3-d variable corner", n, got, want, scale, 1e-13);
    free(got);
  }
  mn_array_destroy(&u);
  mn_array_destroy(&y);
  mn_array_destroy(&a);
  mn_stencil_destroy(&s);
  free(g); free(c); free(want); free(scale);
}

/* Three fields in one call: halos 1, 2, 1; outputs a base array, a view
 * and the field itself. */
static void check_fields(mn_ctx *ctx, mn_dtype t, int variable) {
  int64_t shape[2] = {13, 7}, big[2] = {14, 9}, n = 91;
  double h[2] = {0.5, 0.5};
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 9, h, &s));
  mn_array *u[3] = {NULL, NULL, NULL}, *y[3] = {NULL, NULL, NULL}, *yb = NULL, *c = NULL;
  double *g[3], *want = malloc(sizeof(double) * (size_t)n), *scale = malloc(sizeof(double) * (size_t)n);
  double *cg = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) cg[i] = 2 + st_rand(44, i);
  int halo[3] = {1, 2, 1};
  for (int f = 0; f < 3; f++) {
    g[f] = malloc(sizeof(double) * (size_t)n);
    for (int64_t i = 0; i < n; i++) g[f][i] = st_rand(40 + (uint64_t)f, i);
    T_OK(mn_array_create(ctx, t, 2, shape, halo[f], &u[f]));
  }
  T_OK(mn_array_create(ctx, t, 2, shape, 0, &y[0]));
  T_OK(mn_array_create(ctx, t, 2, big, 0, &yb));
  mn_index ix[2] = {mn_slice(1, 14, 1), mn_slice(1, 8, 1)};
  if (yb) T_OK(mn_array_index(yb, 2, ix, &y[1]));
  y[2] = u[2];
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 0, &c));
  if (!s || !u[0] || !u[1] || !u[2] || !y[0] || !y[1] || !c) goto done;
  int ch[3] = {0, 3, 0};
  set_bcs(s, 2, ch);
  T_OK(mn_stencil_set_bc(s, 0, 1, MN_BC_NEUMANN, 0));
  if (variable) {
    st_set(c, cg);
    T_OK(mn_stencil_set_coefficient(s, 4, c)); /* the centre of the 9 */
  }
  for (int f = 0; f < 3; f++) st_set(u[f], g[f]);
  double *ug[3];
  for (int f = 0; f < 3; f++) ug[f] = mt_all(u[f]);
  T_OK(mn_stencil_apply_many(s, 3, u, y));
  st_ref r;
  st_ref_from(&r, s);
  if (variable) r.coef[4] = cg;
  for (int f = 0; f < 3; f++) {
    st_ref_apply(&r, shape, ug[f], want, scale);
    double *got = mt_all(y[f]);
    char what[100];
    snprintf(what, sizeof what, "field %d of 3 (%s%s)", f, mn_dtype_name(t), variable ? ", variable" : "");
    st_compare(what, n, got, want, scale, tol_of(t));
    free(got);
    free(ug[f]);
  }
done:
  for (int f = 0; f < 3; f++) {
    mn_array_destroy(&u[f]);
    if (f < 2) mn_array_destroy(&y[f]);
    free(g[f]);
  }
  mn_array_destroy(&yb);
  mn_array_destroy(&c);
  mn_stencil_destroy(&s);
  free(want); free(scale); free(cg);
}

/* Grids above the threading threshold (32768 points), so the row shares
 * of several threads run (np = 1 runs with 2 OpenMP threads). */
static void check_large(mn_ctx *ctx) {
  int64_t s2[2] = {203, 181}, s3[3] = {41, 35, 29};
  double h[3] = {0.5, 0.25, 0.2};
  static const int ch[2][3] = {{3, 5, 8}, {7, 9, 3}};
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &s));
  if (s) check_combos(ctx, s, "large 2-d 5-point", s2, 1, MN_FLOAT64, 2, ch);
  mn_stencil_destroy(&s);
  s = random_stencil(ctx, 2, 9, 77);
  if (s) check_combos(ctx, s, "large 2-d random", s2, 2, MN_FLOAT32, 2, ch);
  mn_stencil_destroy(&s);
  T_OK(mn_stencil_create_laplacian(ctx, 3, 7, h, &s));
  if (s) check_combos(ctx, s, "large 3-d 7-point", s3, 1, MN_FLOAT64, 2, ch);
  mn_stencil_destroy(&s);
  T_OK(mn_stencil_create_laplacian(ctx, 3, 27, h, &s));
  if (s) check_combos(ctx, s, "large 3-d 27-point", s3, 1, MN_FLOAT32, 1, ch);
  mn_stencil_destroy(&s);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  make_choices();
  check_weights(ctx);
  int64_t q2[2] = {13, 7}, q3[3] = {9, 10, 11};
  check_quadratic(ctx, 2, 5, q2);
  check_quadratic(ctx, 2, 9, q2);
  check_quadratic(ctx, 3, 7, q3);
  check_quadratic(ctx, 3, 27, q3);
  check_all_bcs(ctx);
  check_outputs(ctx);
  check_variable(ctx, MN_FLOAT64);
  check_variable(ctx, MN_FLOAT32);
  check_variable3(ctx);
  check_fields(ctx, MN_FLOAT64, 0);
  check_fields(ctx, MN_FLOAT32, 0);
  check_fields(ctx, MN_FLOAT64, 1);
  check_large(ctx);
  return mt_finish(&ctx);
}
