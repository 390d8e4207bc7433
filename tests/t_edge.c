/* Edge cases of the core: fusion of long/mixed chains, views composed with
 * negative steps, newaxis, integer indices and transposes (as inputs and as
 * outputs, aliasing or not), empty and 0-d arrays, reductions on views,
 * redistribution between grids, fills, size overflow. Every check compares
 * with a serial reference computed here (NumPy semantics stated where it
 * matters). */
#include "mn_test.h"
#include <stdint.h>

/* ---- helpers ---- */
static int g_j = 0; /* parameter of the value functions below */
static double fterm(int64_t k) { return sin(0.37 * (double)k + 0.9 * g_j) * (1.0 + 0.31 * g_j) + 0.1 * g_j; }
static double fa(int64_t k) { return (double)((k * 37) % 101) * 0.173 - 7.25; }
static double fb(int64_t k) { return cos(0.21 * (double)k) * 3.3 + 0.5; }
static double fidx(int64_t k) { return (double)k; }

static mn_array *mk_on(mn_ctx *ctx, mn_dtype t, int nd, const int64_t *sh, const int *dims, int halo,
                       double (*f)(int64_t)) {
  mn_layout *lay = NULL;
  mn_array *a = NULL;
  T_OK(mn_layout_create_block(ctx, nd, sh, dims, &lay));
  T_OK(mn_array_create_on(lay, t, halo, &a));
  mn_layout_destroy(&lay);
  if (a && f) mt_set(a, f);
  return a;
}
static mn_array *tr(mn_array *a, const int *perm) {
  mn_array *v = NULL;
  T_OK(mn_array_transpose(a, perm, &v));
  return v;
}
/* exact comparison of two gathered arrays */
static void check_eq(const char *what, const mn_array *a, const double *want, int64_t n) {
  T_CHECK(mn_array_size(a) == n, "%s: size %lld, expected %lld", what, (long long)mn_array_size(a), (long long)n);
  if (mn_array_size(a) != n) return;
  double *g = mt_all(a);
  int bad = 0;
  for (int64_t i = 0; i < n && bad < 5; i++)
    if (!(g[i] == want[i] || (g[i] != g[i] && want[i] != want[i]))) {
      bad++;
      T_CHECK(0, "%s: element %lld = %.17g, expected %.17g", what, (long long)i, g[i], want[i]);
    }
  free(g);
}

/* ================= linear-combination fusion ================= */
/* out = x0 + x1 - x2 + x3 - ... with nt terms (left-deep), compared bit for
 * bit with NumPy's operation-by-operation evaluation. */
static void fuse_long_chain(mn_ctx *ctx, mn_dtype t, int nt) {
  enum { N = 37 };
  int64_t sh[] = {N};
  mn_array *x[16], *out = mt_new(ctx, t, 1, sh, NULL);
  double want[N];
  mn_expr *e = NULL;
  T_OK(mn_expr_create(ctx, &e));
  int node = -1;
  for (int j = 0; j < nt; j++) {
    g_j = j;
    x[j] = mt_new(ctx, t, 1, sh, fterm);
    int in = 0;
    T_OK(mn_expr_input(e, x[j], &in));
    if (j == 0) node = in;
    else T_OK(mn_expr_binary(e, j % 2 ? MN_OP_ADD : MN_OP_SUB, node, in, &node));
  }
  for (int64_t k = 0; k < N; k++) {
    if (t == MN_FLOAT32) {
      float acc = 0;
      for (int j = 0; j < nt; j++) {
        g_j = j;
        float v = (float)fterm(k);
        acc = j == 0 ? v : (j % 2 ? acc + v : acc - v);
      }
      want[k] = acc;
    } else {
      double acc = 0;
      for (int j = 0; j < nt; j++) {
        g_j = j;
        double v = fterm(k);
        acc = j == 0 ? v : (j % 2 ? acc + v : acc - v);
      }
      want[k] = acc;
    }
  }
  T_OK(mn_expr_eval(e, node, out));
  char what[64];
  snprintf(what, sizeof what, "%d-term %s add/sub chain", nt, mn_dtype_name(t));
  check_eq(what, out, want, N);
  mn_expr_destroy(&e);
  for (int j = 0; j < nt; j++) mn_array_destroy(&x[j]);
  mn_array_destroy(&out);
}

/* scaled terms, scalar-first subtraction, a division post-op, an
 * intermediate used twice, x*x and the same array as two inputs, and a
 * float32 chain cast into a float64 chain */
static void fuse_mixed(mn_ctx *ctx) {
  enum { N = 29 };
  int64_t sh[] = {N};
  mn_array *a = mt_new(ctx, MN_FLOAT64, 1, sh, fa), *b = mt_new(ctx, MN_FLOAT64, 1, sh, fb);
  mn_array *a32 = mt_new(ctx, MN_FLOAT32, 1, sh, fa), *b32 = mt_new(ctx, MN_FLOAT32, 1, sh, fb);
  mn_array *out = mt_new(ctx, MN_FLOAT64, 1, sh, NULL), *out2 = mt_new(ctx, MN_FLOAT64, 1, sh, NULL);
  double want[N], want2[N];
  /* (2 - a + 0.3*b - (-b)) / 3  (NumPy: weak literals stay float64) */
  {
    mn_expr *e = NULL;
    int na, nb, s2, s03, s3, t1, t2, t3, nb2, t4, t5;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, a, &na));
    T_OK(mn_expr_input(e, b, &nb));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(2.0), &s2));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(0.3), &s03));
    T_OK(mn_expr_scalar(e, mn_scalar_i64(3), &s3));
    T_OK(mn_expr_binary(e, MN_OP_SUB, s2, na, &t1));
    T_OK(mn_expr_binary(e, MN_OP_MUL, s03, nb, &t2));
    T_OK(mn_expr_binary(e, MN_OP_ADD, t1, t2, &t3));
    T_OK(mn_expr_unary(e, MN_OP_NEG, nb, &nb2));
    T_OK(mn_expr_binary(e, MN_OP_SUB, t3, nb2, &t4));
    T_OK(mn_expr_binary(e, MN_OP_DIV, t4, s3, &t5));
    T_OK(mn_expr_eval(e, t5, out));
    for (int k = 0; k < N; k++) want[k] = (((2.0 - fa(k)) + 0.3 * fb(k)) - (-fb(k))) / 3.0;
    check_eq("(2 - a + 0.3*b - (-b)) / 3", out, want, N);
    mn_expr_destroy(&e);
  }
  /* t = a - b used twice: (t + a) * t ; and s = x*x with one node */
  {
    mn_expr *e = NULL;
    int na, nb, t, u, r, sq, r2;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, a, &na));
    T_OK(mn_expr_input(e, b, &nb));
    T_OK(mn_expr_binary(e, MN_OP_SUB, na, nb, &t));
    T_OK(mn_expr_binary(e, MN_OP_ADD, t, na, &u));
    T_OK(mn_expr_binary(e, MN_OP_MUL, u, t, &r));
    T_OK(mn_expr_binary(e, MN_OP_MUL, r, r, &sq));
    T_OK(mn_expr_binary(e, MN_OP_ADD, sq, t, &r2));
    T_OK(mn_expr_eval(e, r2, out));
    for (int k = 0; k < N; k++) {
      double tt = fa(k) - fb(k), rr = (tt + fa(k)) * tt;
      want[k] = rr * rr + tt;
    }
    check_eq("t=a-b; r=(t+a)*t; r*r+t", out, want, N);
    mn_expr_destroy(&e);
  }
  /* same array as two inputs: a + a - a*0.5 (two input nodes of a) */
  {
    mn_expr *e = NULL;
    int n1, n2, n3, s, m, p, r;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, a, &n1));
    T_OK(mn_expr_input(e, a, &n2));
    T_OK(mn_expr_input(e, a, &n3));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(0.5), &s));
    T_OK(mn_expr_binary(e, MN_OP_MUL, n3, s, &m));
    T_OK(mn_expr_binary(e, MN_OP_ADD, n1, n2, &p));
    T_OK(mn_expr_binary(e, MN_OP_SUB, p, m, &r));
    T_OK(mn_expr_eval(e, r, out));
    for (int k = 0; k < N; k++) want[k] = (fa(k) + fa(k)) - fa(k) * 0.5;
    check_eq("a + a - a*0.5 (three input nodes)", out, want, N);
    mn_expr_destroy(&e);
  }
  /* float32 chain, cast to float64, continued in float64:
   * (a32 + b32 - a32*2.5).astype(f64) + a - b ; and the float32 chain alone
   * stored into a float64 out (computed in float32 as NumPy's ff->f loop) */
  {
    mn_expr *e = NULL;
    int x, y, s, m, p, q, c, na, nb, r1, r2;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, a32, &x));
    T_OK(mn_expr_input(e, b32, &y));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(2.5), &s));
    T_OK(mn_expr_binary(e, MN_OP_MUL, x, s, &m));
    T_OK(mn_expr_binary(e, MN_OP_ADD, x, y, &p));
    T_OK(mn_expr_binary(e, MN_OP_SUB, p, m, &q));
    T_CHECK(mn_expr_dtype(e, q) == MN_FLOAT32, "float32 chain dtype %s", mn_dtype_name(mn_expr_dtype(e, q)));
    T_OK(mn_expr_cast(e, q, MN_FLOAT64, &c));
    T_OK(mn_expr_input(e, a, &na));
    T_OK(mn_expr_input(e, b, &nb));
    T_OK(mn_expr_binary(e, MN_OP_ADD, c, na, &r1));
    T_OK(mn_expr_binary(e, MN_OP_SUB, r1, nb, &r2));
    T_OK(mn_expr_eval(e, r2, out));
    T_OK(mn_expr_eval(e, q, out2));
    for (int k = 0; k < N; k++) {
      float xf = (float)fa(k), yf = (float)fb(k);
      float qf = (xf + yf) - xf * 2.5f;
      want[k] = ((double)qf + fa(k)) - fb(k);
      want2[k] = qf;
    }
    check_eq("(a32+b32-a32*2.5).astype(f64)+a-b", out, want, N);
    check_eq("float32 chain into float64 out", out2, want2, N);
    mn_expr_destroy(&e);
  }
  /* float32 post-ops: 0.1 * (a32 - b32 + a32) and (a32 - 3*b32) / 7 (weak literals stay float32) */
  {
    mn_array *o32 = mt_new(ctx, MN_FLOAT32, 1, sh, NULL);
    mn_expr *e = NULL;
    int x, y, s01, s3, s7, t1, t2, t3, m3, t4, t5;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, a32, &x));
    T_OK(mn_expr_input(e, b32, &y));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(0.1), &s01));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(3.0), &s3));
    T_OK(mn_expr_scalar(e, mn_scalar_i64(7), &s7));
    T_OK(mn_expr_binary(e, MN_OP_SUB, x, y, &t1));
    T_OK(mn_expr_binary(e, MN_OP_ADD, t1, x, &t2));
    T_OK(mn_expr_binary(e, MN_OP_MUL, s01, t2, &t3));
    T_OK(mn_expr_eval(e, t3, o32));
    for (int k = 0; k < N; k++) { float xf = (float)fa(k), yf = (float)fb(k); want[k] = 0.1f * ((xf - yf) + xf); }
    check_eq("0.1 * (a32 - b32 + a32) in float32", o32, want, N);
    T_OK(mn_expr_binary(e, MN_OP_MUL, s3, y, &m3));
    T_OK(mn_expr_binary(e, MN_OP_SUB, x, m3, &t4));
    T_OK(mn_expr_binary(e, MN_OP_DIV, t4, s7, &t5));
    T_OK(mn_expr_eval(e, t5, o32));
    for (int k = 0; k < N; k++) { float xf = (float)fa(k), yf = (float)fb(k); want[k] = (xf - 3.0f * yf) / 7.0f; }
    check_eq("(a32 - 3*b32) / 7 in float32", o32, want, N);
    mn_expr_destroy(&e);
    mn_array_destroy(&o32);
  }
  mn_array_destroy(&a); mn_array_destroy(&b); mn_array_destroy(&a32); mn_array_destroy(&b32);
  mn_array_destroy(&out); mn_array_destroy(&out2);
}


/* ================= views as inputs and outputs ================= */
/* process grids to try for a 2-d array: default, rows, columns, and 2x2 /
 * 1xP / Px1 where they differ */
static int grids(int P, int dims[][2]) {
  int n = 0;
  dims[n][0] = 0; dims[n][1] = 0; n++; /* default (NULL) */
  dims[n][0] = P; dims[n][1] = 1; n++;
  dims[n][0] = 1; dims[n][1] = P; n++;
  if (P == 4) { dims[n][0] = 2; dims[n][1] = 2; n++; }
  return n;
}
static mn_array *mk2(mn_ctx *ctx, mn_dtype t, const int64_t *sh, const int *d, int halo, double (*f)(int64_t)) {
  return mk_on(ctx, t, 2, sh, d[0] ? d : NULL, halo, f);
}

/* out = a.T, out = a[::-1, ::-1] and out = a[:, ::-1].T with input a (the
 * same storage through another map): NumPy evaluates the right-hand side
 * first (ufuncs copy overlapping inputs) */
static void alias_self(mn_ctx *ctx, const int *d, int halo) {
  enum { N = 8 };
  int64_t sh[] = {N, N};
  double w[N * N];
  /* a[...] = a.T */
  mn_array *a = mk2(ctx, MN_FLOAT64, sh, d, halo, fa), *at = tr(a, NULL);
  T_OK(mn_array_copy(a, at)); /* at[i,j] = a[i,j]  <=>  a[j,i] = old a[i,j] */
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) w[i * N + j] = fa(j * N + i);
  check_eq("a.T = a (aliased transpose)", a, w, N * N);
  mn_array_destroy(&at);
  /* a[::-1, ::-1] = a + 1 */
  mt_set(a, fa);
  mn_index rr[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_slice(MN_NONE, MN_NONE, -1)};
  mn_array *r = mt_view(a, 2, rr);
  T_OK(mn_array_binary_scalar(MN_OP_ADD, a, mn_scalar_f64(1.0), 0, r));
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) w[i * N + j] = fa((N - 1 - i) * N + (N - 1 - j)) + 1.0;
  check_eq("a[::-1,::-1] = a + 1", a, w, N * N);
  mn_array_destroy(&r);
  /* a[:, ::-1].T = a * 2  :  (a[:, ::-1].T)[i,j] = a[j, N-1-i] */
  mt_set(a, fa);
  mn_index c1[] = {mn_all(), mn_slice(MN_NONE, MN_NONE, -1)};
  mn_array *cr = mt_view(a, 2, c1), *crt = tr(cr, NULL);
  T_OK(mn_array_binary_scalar(MN_OP_MUL, a, mn_scalar_f64(2.0), 0, crt));
  /* a[j, N-1-i] = 2*old a[i, j] */
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) w[j * N + (N - 1 - i)] = 2.0 * fa(i * N + j);
  check_eq("a[:, ::-1].T = 2*a", a, w, N * N);
  mn_array_destroy(&crt);
  mn_array_destroy(&cr);
  /* row 5 = column 5 of the same array (fixed axes on both sides) */
  mt_set(a, fa);
  mn_index r5[] = {mn_at(5)}, c5[] = {mn_all(), mn_at(5)};
  mn_array *row = mt_view(a, 1, r5), *col = mt_view(a, 2, c5);
  T_OK(mn_array_copy(col, row));
  for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) w[i * N + j] = i == 5 ? fa(j * N + 5) : fa(i * N + j);
  check_eq("a[5] = a[:, 5]", a, w, N * N);
  mn_array_destroy(&row);
  mn_array_destroy(&col);
  /* third view as out, two other views as inputs:
   * a[1:-1, 1:-1] = a[:-2, 2:] - a[2:, :-2].T ... shapes (6,6) */
  mt_set(a, fa);
  mn_index io[] = {mn_slice(1, -1, 1), mn_slice(1, -1, 1)}, i1[] = {mn_slice(MN_NONE, -2, 1), mn_slice(2, MN_NONE, 1)},
           i2[] = {mn_slice(2, MN_NONE, 1), mn_slice(MN_NONE, -2, 1)};
  mn_array *o = mt_view(a, 2, io), *x1 = mt_view(a, 2, i1), *x2 = mt_view(a, 2, i2), *x2t = tr(x2, NULL);
  T_OK(mn_array_binary(MN_OP_SUB, x1, x2t, o));
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      w[i * N + j] = (i >= 1 && i < N - 1 && j >= 1 && j < N - 1)
                         ? fa((i - 1) * N + (j - 1 + 2)) - fa((j - 1 + 2) * N + (i - 1)) : fa(i * N + j);
  check_eq("a[1:-1,1:-1] = a[:-2,2:] - a[2:,:-2].T", a, w, N * N);
  mn_array_destroy(&o); mn_array_destroy(&x1); mn_array_destroy(&x2); mn_array_destroy(&x2t);
  mn_array_destroy(&a);
}

/* Copies of transposed views big enough to go by tiles (eval_kernel.c's
 * transposed_copy: the input's run at least 32, the output's rows at
 * least 4), in five element sizes and 3-d permutations, against the index
 * arithmetic. */
static double fmod101(int64_t k) { return (double)(k % 101); }
static void tiled_transpose(mn_ctx *ctx, const int *d) {
  enum { R = 45, C = 70, K = 3 };
  int64_t sh[] = {R, C}, st[] = {C, R}, sh3[] = {K, R, C}, st3[] = {C, K, R};
  double *w = malloc(sizeof(double) * K * R * C);
  mn_dtype ts[] = {MN_FLOAT64, MN_FLOAT32, MN_INT8, MN_INT16, MN_COMPLEX128}; /* every block size */
  for (int q = 0; q < 5; q++) {
    mn_array *a = mk2(ctx, ts[q], sh, d, 0, fmod101), *at = tr(a, NULL), *o = mk2(ctx, ts[q], st, d, 0, NULL);
    T_OK(mn_array_copy(at, o));
    for (int i = 0; i < C; i++)
      for (int j = 0; j < R; j++) w[i * R + j] = (j * C + i) % 101;
    check_eq("o = a.T, tiled", o, w, R * C);
    mn_array_destroy(&at); mn_array_destroy(&o); mn_array_destroy(&a);
  }
  int perm[] = {2, 0, 1}; /* o[i, k, j] = a[k, j, i] */
  mn_array *a = mt_new(ctx, MN_FLOAT64, 3, sh3, fidx), *at = tr(a, perm), *o = mt_new(ctx, MN_FLOAT64, 3, st3, NULL);
  T_OK(mn_array_copy(at, o));
  for (int i = 0; i < C; i++)
    for (int k = 0; k < K; k++)
      for (int j = 0; j < R; j++) w[(i * K + k) * R + j] = (k * R + j) * C + i;
  check_eq("o = a.transpose(2, 0, 1), tiled", o, w, K * R * C);
  mn_array_destroy(&at); mn_array_destroy(&o); mn_array_destroy(&a);
  /* the input running along the output's first axis, rows of 6 (edges) */
  int64_t sh4[] = {6, 33, 37}, st4[] = {37, 33, 6};
  int rev[] = {2, 1, 0};
  a = mt_new(ctx, MN_FLOAT32, 3, sh4, fidx), at = tr(a, rev), o = mt_new(ctx, MN_FLOAT32, 3, st4, NULL);
  T_OK(mn_array_copy(at, o));
  for (int i = 0; i < 37; i++)
    for (int j = 0; j < 33; j++)
      for (int k = 0; k < 6; k++) w[(i * 33 + j) * 6 + k] = (k * 33 + j) * 37 + i;
  check_eq("o = a.transpose(2, 1, 0), tiled", o, w, 6 * 33 * 37);
  mn_array_destroy(&at); mn_array_destroy(&o); mn_array_destroy(&a);
  free(w);
}

/* a composed view (negative steps, newaxis, integer index, transpose) used
 * as an output fed from another layout, and as an input */
static void composed_views(mn_ctx *ctx, const int *d, const int *d2) {
  enum { R = 11, C = 13 };
  int64_t sh[] = {R, C};
  mn_array *A = mk2(ctx, MN_FLOAT64, sh, d, 0, fa);
  /* v1 = A[R-2:0:-2, newaxis, ::-3]  shape (5, 1, 5)
   * v2 = v1.transpose(2, 1, 0)       shape (5, 1, 5)
   * v3 = v2[:, 0, ::-1]              shape (5, 5)
   * v3[i, j] = A[(R-2) - 2*(4-j), (C-1) - 3*i] */
  mn_index i1[] = {mn_slice(R - 2, 0, -2), mn_newaxis(), mn_slice(MN_NONE, MN_NONE, -3)};
  mn_array *v1 = mt_view(A, 3, i1);
  int perm[] = {2, 1, 0};
  mn_array *v2 = tr(v1, perm);
  mn_index i3[] = {mn_all(), mn_at(0), mn_slice(MN_NONE, MN_NONE, -1)};
  mn_array *v3 = mt_view(v2, 3, i3);
  T_CHECK(mn_array_ndim(v3) == 2 && mn_array_shape(v3)[0] == 5 && mn_array_shape(v3)[1] == 5, "composed view shape");
  double w[R * C];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) w[i * 5 + j] = fa(((R - 2) - 2 * (4 - j)) * C + (C - 1) - 3 * i);
  check_eq("composed view read", v3, w, 25);
  /* as input, broadcast against a column and a fixed-axis row of B */
  int64_t sb[] = {5, 7};
  mn_array *B = mk2(ctx, MN_FLOAT64, sb, d2, 0, fb);
  mn_index bc[] = {mn_all(), mn_at(-2), mn_newaxis()}, br[] = {mn_at(3), mn_slice(MN_NONE, 1, -1)};
  mn_array *bcol = mt_view(B, 3, bc), *brow = mt_view(B, 2, br); /* (5,1): B[i,5];  (5,): B[3, 6-j] */
  int64_t so[] = {5, 5};
  mn_array *O = mk2(ctx, MN_FLOAT64, so, d2, 0, NULL);
  mn_expr *e = NULL;
  int nv, nc, nr, t1, t2;
  T_OK(mn_expr_create(ctx, &e));
  T_OK(mn_expr_input(e, v3, &nv));
  T_OK(mn_expr_input(e, bcol, &nc));
  T_OK(mn_expr_input(e, brow, &nr));
  T_OK(mn_expr_binary(e, MN_OP_MUL, nv, nc, &t1));
  T_OK(mn_expr_binary(e, MN_OP_SUB, t1, nr, &t2));
  T_OK(mn_expr_eval(e, t2, O));
  mn_expr_destroy(&e);
  double w2[25];
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) w2[i * 5 + j] = fa(((R - 2) - 2 * (4 - j)) * C + (C - 1) - 3 * i) * fb(i * 7 + 5) - fb(3 * 7 + 6 - j);
  check_eq("composed view * B[:, -2, newaxis] - B[3, :0:-1]", O, w2, 25);
  mn_array_destroy(&O);
  /* as output: v3 = B5 (a 5x5 array on another grid) * 10 */
  int64_t s5[] = {5, 5};
  mn_array *B5 = mk2(ctx, MN_FLOAT64, s5, d2, 0, fb);
  T_OK(mn_array_binary_scalar(MN_OP_MUL, B5, mn_scalar_f64(10.0), 0, v3));
  for (int i = 0; i < R * C; i++) w[i] = fa(i);
  for (int i = 0; i < 5; i++)
    for (int j = 0; j < 5; j++) w[((R - 2) - 2 * (4 - j)) * C + (C - 1) - 3 * i] = fb(i * 5 + j) * 10.0;
  check_eq("composed view as output", A, w, R * C);
  mn_array_destroy(&B5);
  /* output with newaxis and a transpose: W = Z[::-1, newaxis, :].transpose(2, 1, 0)
   * has shape (7, 1, 5); W = B.T[:, newaxis, :] * 3 with B (5, 7) */
  {
    int64_t sz[] = {5, 7};
    mn_array *Z = mk2(ctx, MN_FLOAT64, sz, d, 0, NULL);
    mn_index zn[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_newaxis(), mn_all()};
    mn_array *Zv = mt_view(Z, 3, zn), *W = tr(Zv, perm), *Bt = tr(B, NULL);
    mn_index bn[] = {mn_all(), mn_newaxis(), mn_all()};
    mn_array *Btn = mt_view(Bt, 3, bn);
    T_OK(mn_array_binary_scalar(MN_OP_MUL, Btn, mn_scalar_f64(3.0), 0, W));
    /* W[i, 0, j] = Z[4 - j, i] = 3 * B[j, i]  ->  Z[r, c] = 3 * B[4 - r, c] */
    double wz[35];
    for (int r = 0; r < 5; r++) for (int c = 0; c < 7; c++) wz[r * 7 + c] = 3.0 * fb((4 - r) * 7 + c);
    check_eq("Z[::-1, newaxis, :].transpose(2,1,0) = B.T[:, newaxis, :] * 3", Z, wz, 35);
    mn_array_destroy(&Btn); mn_array_destroy(&Bt); mn_array_destroy(&W); mn_array_destroy(&Zv); mn_array_destroy(&Z);
  }
  mn_array_destroy(&bcol); mn_array_destroy(&brow); mn_array_destroy(&B);
  mn_array_destroy(&v3); mn_array_destroy(&v2); mn_array_destroy(&v1); mn_array_destroy(&A);
}


/* ================= empty arrays ================= */
static void empty_arrays(mn_ctx *ctx) {
  int64_t s05[] = {0, 5}, s50[] = {5, 0}, s0[] = {0}, s5[] = {5};
  mn_array *a = mt_new(ctx, MN_FLOAT64, 2, s05, NULL), *b = mt_new(ctx, MN_FLOAT64, 2, s50, NULL);
  mn_array *c = mt_new(ctx, MN_FLOAT64, 1, s0, NULL), *v5 = mt_new(ctx, MN_FLOAT64, 1, s5, fa);
  mn_array *o = mt_new(ctx, MN_FLOAT64, 2, s05, NULL);
  T_CHECK(mn_array_size(a) == 0 && mn_array_size(b) == 0 && mn_array_size(c) == 0, "empty sizes");
  /* (0,5) = (0,5) + (5,) broadcast; fills and index fills */
  T_OK(mn_array_binary(MN_OP_ADD, a, v5, o));
  T_OK(mn_array_fill(a, mn_scalar_f64(3.0)));
  T_OK(mn_array_arange(b, 0, 1));
  T_OK(mn_array_linspace(c, 0, 1, 1));
  T_OK(mn_array_random(a, MN_RANDOM_NORMAL, 7, 0, 1));
  /* reductions with identities: sum 0, prod 1, any False, all True; none
   * for min and argmax (NumPy: ValueError, zero-size array to reduction
   * operation minimum) */
  const struct {
    mn_reduce_op op;
    mn_array *x;
    int code;
    mn_dtype dt;
    double v;
    const char *what;
  } ident[] = {
    {MN_RED_SUM, a, MN_SUCCESS, MN_FLOAT64, 0, "sum"},
    {MN_RED_PROD, b, MN_SUCCESS, MN_FLOAT64, 1, "prod"},
    {MN_RED_ANY, c, MN_SUCCESS, MN_BOOL, 0, "any"},
    {MN_RED_ALL, c, MN_SUCCESS, MN_BOOL, 1, "all"},
    {MN_RED_MIN, a, MN_ERR_SHAPE, MN_NDTYPE, 0, "min"},
    {MN_RED_ARGMAX, b, MN_ERR_SHAPE, MN_NDTYPE, 0, "argmax"},
  };
  mn_scalar s;
  for (size_t k = 0; k < sizeof ident / sizeof ident[0]; k++) {
    int rc = mn_array_reduce(ident[k].op, ident[k].x, &s);
    T_CHECK(rc == ident[k].code, "%s of empty returned %s, expected %s", ident[k].what, mn_err_name(rc),
            mn_err_name(ident[k].code));
    if (rc || ident[k].code) continue;
    T_CHECK(s.dtype == ident[k].dt && mn_scalar_as_f64(s) == ident[k].v, "%s of empty = %s %g", ident[k].what,
            mn_dtype_name(s.dtype), mn_scalar_as_f64(s));
  }
  /* axis reductions: sum over the empty axis gives zeros, over the other an empty out */
  mn_array *r5 = mt_new(ctx, MN_FLOAT64, 1, s5, fa), *r0 = mt_new(ctx, MN_FLOAT64, 1, s0, NULL);
  T_OK(mn_array_reduce_axis(MN_RED_SUM, a, 0, r5));
  double z[5] = {0, 0, 0, 0, 0};
  check_eq("np.sum(zeros((0,5)), axis=0)", r5, z, 5);
  mt_set(r5, fa);
  T_OK(mn_array_reduce_axis(MN_RED_PROD, b, 1, r5));
  double one[5] = {1, 1, 1, 1, 1};
  check_eq("np.prod(zeros((5,0)), axis=1)", r5, one, 5);
  T_OK(mn_array_reduce_axis(MN_RED_MAX, a, 1, r0)); /* out is empty: no error in NumPy */
  T_CHECK(mn_array_reduce_axis(MN_RED_MAX, a, 0, r5) == MN_ERR_SHAPE, "max over an empty axis with a non-empty out");
  /* views of empty arrays: reversed, transposed, newaxis */
  mn_index rv[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_newaxis()};
  mn_array *ar = mt_view(a, 2, rv), *bt = tr(b, NULL);
  T_CHECK(mn_array_ndim(ar) == 3 && mn_array_shape(ar)[0] == 0 && mn_array_shape(ar)[1] == 1 && mn_array_shape(ar)[2] == 5,
          "a[::-1, newaxis] shape");
  T_OK(mn_array_copy(bt, o)); /* (0,5) <- (5,0).T */
  /* broadcasting into an empty axis: (5,) -> (0,5) view, reduced */
  mn_array *bv = NULL;
  T_OK(mn_array_broadcast_to(v5, 2, s05, &bv));
  T_OK(mn_array_reduce(MN_RED_SUM, bv, &s));
  T_CHECK(s.v.f == 0.0, "sum of broadcast_to(v, (0,5)) = %g", s.v.f);
  T_OK(mn_array_reduce_axis(MN_RED_SUM, bv, 0, r5));
  check_eq("np.sum(broadcast_to(v,(0,5)), axis=0)", r5, z, 5);
  /* gather of an empty array touches nothing */
  double dummy[1] = {42};
  T_OK(mn_array_gather(a, 0, dummy));
  T_CHECK(dummy[0] == 42, "gather of empty wrote into the buffer");
  /* mn_array_local: a rank owns nothing of an empty array -> counts all 0 (documented) */
  mn_local loc;
  T_OK(mn_array_local(bv, &loc));
  int nz = 0;
  for (int d = 0; d < loc.ndim; d++) nz += loc.count[d] != 0;
  T_CHECK(nz == 0, "mn_array_local of broadcast_to(v,(0,5)): counts (%lld, %lld), documented all 0",
          (long long)loc.count[0], (long long)loc.count[1]);
  mn_array_destroy(&bv); mn_array_destroy(&ar); mn_array_destroy(&bt);
  mn_array_destroy(&r5); mn_array_destroy(&r0);
  mn_array_destroy(&a); mn_array_destroy(&b); mn_array_destroy(&c); mn_array_destroy(&v5); mn_array_destroy(&o);
}

/* ================= 0-d arrays ================= */
static void zero_d(mn_ctx *ctx, const int *d) {
  mn_array *z = NULL, *z2 = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 0, NULL, 0, &z));
  T_OK(mn_array_create(ctx, MN_INT32, 0, NULL, 0, &z2));
  T_OK(mn_array_fill(z, mn_scalar_f64(2.5)));
  mn_scalar s;
  T_OK(mn_array_get(z, NULL, &s));
  T_CHECK(s.v.f == 2.5, "0-d get = %g", s.v.f);
  T_OK(mn_array_reduce(MN_RED_SUM, z, &s));
  T_CHECK(s.v.f == 2.5, "0-d sum = %g", s.v.f);
  T_OK(mn_array_reduce(MN_RED_ARGMIN, z, &s));
  T_CHECK(s.v.i == 0, "0-d argmin = %lld", (long long)s.v.i);
  T_OK(mn_array_arange(z2, 7, 1));
  T_OK(mn_array_get(z2, NULL, &s));
  T_CHECK(s.v.i == 7, "0-d arange = %lld", (long long)s.v.i);
  /* 0-d + (n,) -> (n,) */
  int64_t sn[] = {9};
  mn_array *v = mt_new(ctx, MN_FLOAT64, 1, sn, fa), *o = mt_new(ctx, MN_FLOAT64, 1, sn, NULL);
  T_OK(mn_array_binary(MN_OP_SUB, z, v, o));
  double w[99];
  for (int k = 0; k < 9; k++) w[k] = 2.5 - fa(k);
  check_eq("0-d - (9,)", o, w, 9);
  /* newaxis on 0-d, transpose of 0-d, broadcast_to */
  mn_index na[] = {mn_newaxis(), mn_newaxis()};
  mn_array *zn = mt_view(z, 2, na), *zt = tr(z, NULL), *zb = NULL;
  T_CHECK(mn_array_ndim(zn) == 2 && mn_array_size(zn) == 1, "0-d[newaxis, newaxis]");
  T_CHECK(mn_array_ndim(zt) == 0, "0-d.T");
  int64_t sb[] = {3, 4};
  T_OK(mn_array_broadcast_to(zn, 2, sb, &zb));
  T_OK(mn_array_reduce(MN_RED_SUM, zb, &s));
  T_CHECK(s.v.f == 30.0, "sum of broadcast 0-d (3,4) = %g", s.v.f);
  /* 0-d views of distributed arrays: A[i, j] = B[k, l] * 2 + z across ranks */
  int64_t sh[] = {6, 7};
  mn_array *A = mk2(ctx, MN_FLOAT64, sh, d, 0, fa), *B = mt_new(ctx, MN_FLOAT64, 2, sh, fb);
  mn_index ia[] = {mn_at(5), mn_at(-1)}, ib[] = {mn_at(0), mn_at(1)};
  mn_array *a0 = mt_view(A, 2, ia), *b0 = mt_view(B, 2, ib);
  mn_expr *e = NULL;
  int nb, nz, t, s2, r;
  T_OK(mn_expr_create(ctx, &e));
  T_OK(mn_expr_input(e, b0, &nb));
  T_OK(mn_expr_input(e, z, &nz));
  T_OK(mn_expr_scalar(e, mn_scalar_f64(2.0), &s2));
  T_OK(mn_expr_binary(e, MN_OP_MUL, nb, s2, &t));
  T_OK(mn_expr_binary(e, MN_OP_ADD, t, nz, &r));
  T_OK(mn_expr_eval(e, r, a0));
  mn_expr_destroy(&e);
  double wa[42];
  for (int k = 0; k < 42; k++) wa[k] = fa(k);
  wa[5 * 7 + 6] = fb(1) * 2.0 + 2.5;
  check_eq("A[5,-1] = B[0,1]*2 + z", A, wa, 42);
  /* a 0-d view of A written from another 0-d view of A (aliasing, fixed axes only) */
  mn_index ic[] = {mn_at(0), mn_at(0)};
  mn_array *c0 = mt_view(A, 2, ic);
  T_OK(mn_array_copy(a0, c0));
  wa[0] = wa[5 * 7 + 6];
  check_eq("A[0,0] = A[5,-1]", A, wa, 42);
  /* reduce_axis into a 0-d out (a view with fixed axes), and into a 0-d base */
  mn_index ir[] = {mn_at(2)};
  mn_array *row = mt_view(B, 1, ir);
  T_OK(mn_array_reduce_axis(MN_RED_ARGMAX, row, 0, c0));
  int am = 0;
  for (int j = 1; j < 7; j++) if (fb(2 * 7 + j) > fb(2 * 7 + am)) am = j;
  wa[0] = am;
  check_eq("A[0,0] = argmax(B[2])", A, wa, 42);
  T_OK(mn_array_reduce_axis(MN_RED_SUM, row, -1, z));
  double sum = 0;
  for (int j = 0; j < 7; j++) sum += fb(2 * 7 + j);
  T_OK(mn_array_get(z, NULL, &s));
  T_CLOSE(s.v.f, sum, 1e-14);
  /* 0-d expression reduce: argmin of a 0-d view */
  T_OK(mn_array_reduce(MN_RED_ARGMIN, b0, &s));
  T_CHECK(s.v.i == 0, "argmin of 0-d view = %lld", (long long)s.v.i);
  /* gather a 0-d view */
  double g = 0;
  T_OK(mn_array_gather(b0, 0, mn_ctx_rank(ctx) == 0 ? &g : NULL));
  if (mn_ctx_rank(ctx) == 0) T_CHECK(g == fb(1), "gather 0-d view = %g", g);
  mn_array_destroy(&row); mn_array_destroy(&c0); mn_array_destroy(&a0); mn_array_destroy(&b0);
  mn_array_destroy(&A); mn_array_destroy(&B); mn_array_destroy(&zb); mn_array_destroy(&zn); mn_array_destroy(&zt);
  mn_array_destroy(&v); mn_array_destroy(&o); mn_array_destroy(&z); mn_array_destroy(&z2);
}


/* ================= reductions on views and split cells ================= */
static double ftie(int64_t k) { return (double)((k * 7 + 3) % 5); }     /* minima 0 repeat */
static double ftie2(int64_t k) { return (double)((k * 11 + 1) % 4) * 0.5; }

static void reduce_views(mn_ctx *ctx, const int *d, const int *d2) {
  enum { R = 9, C = 12 };
  int64_t sh[] = {R, C};
  mn_array *A = mk2(ctx, MN_FLOAT64, sh, d, 0, ftie), *B = mk2(ctx, MN_FLOAT64, sh, d2, 1, ftie2);
  /* argmin / argmax of x = A[1:, :] + B[:-1, ::-1]  (shape (8, 12)); the
   * B operand is shifted and reversed so cells split at other ranks' edges;
   * ties everywhere: NumPy returns the first flat index */
  mn_index ia[] = {mn_slice(1, MN_NONE, 1)}, ib[] = {mn_slice(MN_NONE, -1, 1), mn_slice(MN_NONE, MN_NONE, -1)};
  mn_array *xa = mt_view(A, 1, ia), *xb = mt_view(B, 2, ib);
  double x[8 * C];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < C; j++) x[i * C + j] = ftie((i + 1) * C + j) + ftie2(i * C + (C - 1 - j));
  for (int op = MN_RED_MIN; op <= MN_RED_ARGMAX; op++) {
    mn_expr *e = NULL;
    int na, nb, r;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, xa, &na));
    T_OK(mn_expr_input(e, xb, &nb));
    T_OK(mn_expr_binary(e, MN_OP_ADD, na, nb, &r));
    mn_scalar s;
    T_OK(mn_expr_reduce(e, r, (mn_reduce_op)op, &s));
    int64_t best = 0;
    for (int64_t k = 1; k < 8 * C; k++)
      if ((op == MN_RED_MIN || op == MN_RED_ARGMIN) ? x[k] < x[best] : x[k] > x[best]) best = k;
    if (op == MN_RED_ARGMIN || op == MN_RED_ARGMAX)
      T_CHECK(s.v.i == best, "%s(A[1:] + B[:-1, ::-1]) = %lld, expected %lld", mn_reduce_name((mn_reduce_op)op),
              (long long)s.v.i, (long long)best);
    else
      T_CHECK(s.v.f == x[best], "%s = %g, expected %g", mn_reduce_name((mn_reduce_op)op), s.v.f, x[best]);
    mn_expr_destroy(&e);
  }
  /* reduce_axis on a transposed, reversed, strided view, into a reversed view */
  mn_index iv[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_slice(1, MN_NONE, 2)};
  mn_array *v = mt_view(B, 2, iv), *vt = tr(v, NULL); /* vt (6, 9): vt[i,j] = B[R-1-j, 1+2i] */
  int64_t s9[] = {9}, s6[] = {6};
  mn_array *o9 = mk_on(ctx, MN_FLOAT64, 1, s9, NULL, 0, NULL), *o6 = mt_new(ctx, MN_INT64, 1, s6, NULL);
  mn_index rv[] = {mn_slice(MN_NONE, MN_NONE, -1)};
  mn_array *o9r = mt_view(o9, 1, rv), *o6r = mt_view(o6, 1, rv);
  for (int op = 0; op < MN_NREDUCE; op++) {
    mn_reduce_op ro = (mn_reduce_op)op;
    int isarg = ro == MN_RED_ARGMIN || ro == MN_RED_ARGMAX;
    /* axis 0 -> (9,) stored reversed; axis 1 -> (6,) */
    for (int ax = 0; ax < 2; ax++) {
      int n = ax == 0 ? 9 : 6, m = ax == 0 ? 6 : 9;
      double w[9];
      for (int q = 0; q < n; q++) {
        double acc = 0, best = 0;
        int64_t bi = 0;
        int any = 0, all = 1;
        for (int p = 0; p < m; p++) {
          int i = ax == 0 ? p : q, j = ax == 0 ? q : p;
          double val = ftie2((R - 1 - j) * C + 1 + 2 * i);
          if (p == 0) { best = val; bi = 0; acc = ro == MN_RED_PROD ? 1 : 0; }
          switch (ro) {
          case MN_RED_SUM: acc += val; break;
          case MN_RED_PROD: acc *= val; break;
          case MN_RED_SUMSQ: acc += val * val; break;
          case MN_RED_SUMABS: acc += fabs(val); break;
          default: break;
          }
          any |= val != 0;
          all &= val != 0;
          int lt = ro == MN_RED_MIN || ro == MN_RED_ARGMIN;
          double cmpv = ro == MN_RED_MAXABS ? fabs(val) : val;
          if (p > 0 && (lt ? cmpv < best : cmpv > best)) { best = cmpv; bi = p; }
          if (p == 0 && ro == MN_RED_MAXABS) best = fabs(val);
        }
        w[q] = ro == MN_RED_ANY ? any : ro == MN_RED_ALL ? all : isarg ? (double)bi
             : (ro == MN_RED_MIN || ro == MN_RED_MAX || ro == MN_RED_MAXABS) ? best : acc;
      }
      mn_array *out = ax == 0 ? o9r : (isarg ? o6r : NULL);
      mn_array *o6f = NULL;
      if (!out) { mn_index rv6[] = {mn_slice(MN_NONE, MN_NONE, -1)}; mn_array *t6 = mt_new(ctx, MN_FLOAT64, 1, s6, NULL); o6f = t6; out = mt_view(t6, 1, rv6); }
      T_OK(mn_array_reduce_axis(ro, vt, ax, out));
      double *g = mt_all(out);
      for (int q = 0; q < n; q++)
        T_CHECK(fabs(g[q] - w[q]) <= 1e-13 * (1 + fabs(w[q])), "reduce_axis %s axis %d of B[::-1, 1::2].T [%d] = %g, expected %g",
                mn_reduce_name(ro), ax, q, g[q], w[q]);
      free(g);
      if (o6f) { mn_array_destroy(&out); mn_array_destroy(&o6f); }
    }
  }
  mn_array_destroy(&o9r); mn_array_destroy(&o6r); mn_array_destroy(&o9); mn_array_destroy(&o6);
  mn_array_destroy(&v); mn_array_destroy(&vt); mn_array_destroy(&xa); mn_array_destroy(&xb);
  mn_array_destroy(&A); mn_array_destroy(&B);
}

/* ================= redistribution ROOT <-> block grids ================= */
static void redistribute(mn_ctx *ctx) {
  int P = mn_ctx_size(ctx), G[4][2], ng = grids(P, G);
  int64_t sh[] = {7, 10};
  for (int root = 0; root < P; root += (P > 2 ? P - 1 : 1)) {
    mn_layout *lr = NULL;
    mn_array *ra = NULL, *rb = NULL;
    T_OK(mn_layout_create_root(ctx, 2, sh, root, &lr));
    T_OK(mn_array_create_on(lr, MN_FLOAT64, 0, &ra));
    T_OK(mn_array_create_on(lr, MN_FLOAT32, 0, &rb));
    mt_set(ra, fa);
    for (int g = 0; g < ng; g++)
      for (int h = 0; h < ng; h++) {
        mn_array *x = mk2(ctx, MN_FLOAT64, sh, G[g], g % 2, NULL), *y = mk2(ctx, MN_INT64, sh, G[h], 0, NULL);
        T_OK(mn_array_copy(ra, x));   /* root -> grid g */
        T_OK(mn_array_copy(x, y));    /* grid g -> grid h with a cast */
        T_OK(mn_array_copy(y, rb));   /* grid h -> root */
        double w[70];
        for (int k = 0; k < 70; k++) w[k] = (float)(double)(int64_t)fa(k);
        check_eq("root -> grid -> grid(int64) -> root(float32)", rb, w, 70);
        /* reversed, transposed views across layouts: x[::-1].T -> rb view */
        mn_index rv[] = {mn_slice(MN_NONE, MN_NONE, -1)};
        mn_array *xr = mt_view(x, 1, rv), *xrt = tr(xr, NULL);
        int64_t st[] = {10, 7};
        mn_layout *lt = NULL;
        mn_array *rt = NULL;
        T_OK(mn_layout_create_root(ctx, 2, st, P - 1 - root, &lt));
        T_OK(mn_array_create_on(lt, MN_FLOAT64, 0, &rt));
        T_OK(mn_array_copy(xrt, rt));
        for (int i = 0; i < 10; i++) for (int j = 0; j < 7; j++) w[i * 7 + j] = fa((6 - j) * 10 + i);
        check_eq("grid x[::-1].T -> other root", rt, w, 70);
        mn_array_destroy(&rt); mn_layout_destroy(&lt); mn_array_destroy(&xr); mn_array_destroy(&xrt);
        mn_array_destroy(&x); mn_array_destroy(&y);
      }
    mn_array_destroy(&ra); mn_array_destroy(&rb); mn_layout_destroy(&lr);
    if (P == 1) break;
  }
}

/* ================= plan cache: same layout, different halo / dtype ================= */
static void cache_halo_dtype(mn_ctx *ctx) {
  int P = mn_ctx_size(ctx);
  int64_t sh[] = {12, 8};
  int d[] = {P, 1};
  mn_layout *lay = NULL;
  T_OK(mn_layout_create_block(ctx, 2, sh, d, &lay));
  mn_array *h0 = NULL, *h1 = NULL, *h2 = NULL, *i1 = NULL;
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &h0));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 1, &h1));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 2, &h2));
  T_OK(mn_array_create_on(lay, MN_INT32, 1, &i1));
  mt_set(h0, fa); mt_set(h1, fb); mt_set(h2, fidx); mt_set(i1, fidx);
  /* the same shifted view of each array, read into a common output; each
   * needs remote rows, and the plans differ only in halo or dtype */
  mn_index sv[] = {mn_slice(3, MN_NONE, 1), mn_slice(MN_NONE, MN_NONE, -1)};
  int64_t so[] = {9, 8};
  mn_array *o = mt_new(ctx, MN_FLOAT64, 2, so, NULL);
  mn_array *arrs[] = {h0, h1, h2, i1, h1, h0, i1, h2};
  double (*fs[])(int64_t) = {fa, fb, fidx, fidx, fb, fa, fidx, fidx};
  for (int t = 0; t < 8; t++) {
    mn_array *v = mt_view(arrs[t], 2, sv);
    T_OK(mn_array_copy(v, o));
    double w[72];
    for (int i = 0; i < 9; i++) for (int j = 0; j < 8; j++) w[i * 8 + j] = fs[t]((i + 3) * 8 + 7 - j);
    check_eq("shifted view through the plan cache (halo/dtype variants)", o, w, 72);
    mn_array_destroy(&v);
  }
  /* halo exchange of h1 (f64) and i1 (int32): same layout and halo width, different dtype */
  T_OK(mn_array_halo_exchange(h1));
  T_OK(mn_array_halo_exchange(i1));
  T_OK(mn_array_halo_exchange(h2));
  mn_array *hs[] = {h1, i1, h2};
  double (*hf[])(int64_t) = {fb, fidx, fidx};
  for (int t = 0; t < 3; t++) {
    mn_local loc;
    T_OK(mn_array_local(hs[t], &loc));
    int hw = mn_array_halo_width(hs[t]);
    if (!loc.data) continue;
    for (int k = 1; k <= hw; k++) {
      int64_t gi = loc.lo[0] - k;
      if (gi < 0) continue;
      for (int j = 0; j < 8; j++) {
        char *p = (char *)loc.data + ((-k) * loc.stride[0] + j * loc.stride[1]) * (int64_t)mn_dtype_size(mn_array_dtype(hs[t]));
        double got = mn_array_dtype(hs[t]) == MN_INT32 ? *(int32_t *)p : *(double *)p;
        double want = mn_array_dtype(hs[t]) == MN_INT32 ? (double)(int32_t)hf[t](gi * 8 + j) : hf[t](gi * 8 + j);
        T_CHECK(got == want, "halo row %lld col %d of array %d = %g, expected %g", (long long)gi, j, t, got, want);
      }
    }
  }
  mn_array_destroy(&o);
  mn_array_destroy(&h0); mn_array_destroy(&h1); mn_array_destroy(&h2); mn_array_destroy(&i1);
  mn_layout_destroy(&lay);
}


/* ================= fills ================= */
static void fills(mn_ctx *ctx) {
  /* NumPy: np.linspace(2.0, 3.0, num=1) == [2.0] (the end point is only
   * forced when num > 1) */
  int64_t s1[] = {1}, s5[] = {5};
  mn_array *a = mt_new(ctx, MN_FLOAT64, 1, s1, NULL);
  T_OK(mn_array_linspace(a, 2.0, 3.0, 1));
  double w1[] = {2.0};
  check_eq("linspace(2, 3, num=1)", a, w1, 1);
  /* NumPy 2: integer linspace rounds towards -inf:
   * np.linspace(-1, 0, 5, dtype=int) == [-1, -1, -1, -1, 0] */
  mn_array *b = mt_new(ctx, MN_INT64, 1, s5, NULL);
  T_OK(mn_array_linspace(b, -1.0, 0.0, 1));
  double w5[] = {-1, -1, -1, -1, 0};
  check_eq("linspace(-1, 0, 5, dtype=int64)", b, w5, 5);
  /* arange / linspace into a reversed, strided view: view-flat order */
  int64_t s9[] = {9};
  mn_array *c = mt_new(ctx, MN_FLOAT64, 1, s9, NULL);
  mn_index rv[] = {mn_slice(7, MN_NONE, -3)}; /* elements 7, 4, 1 */
  mn_array *cv = mt_view(c, 1, rv);
  T_OK(mn_array_linspace(cv, 0.0, 1.0, 1));
  double w9[9] = {0};
  w9[7] = 0.0; w9[4] = 0.5; w9[1] = 1.0;
  check_eq("linspace into c[7::-3]", c, w9, 9);
  mn_array_destroy(&cv); mn_array_destroy(&c); mn_array_destroy(&a); mn_array_destroy(&b);
}

/* ================= integer overflow in sizes and slices ================= */
static void overflow(mn_ctx *ctx) {
  /* 2^32 x 2^32 float64 elements (2^67 bytes) cannot be allocated: NumPy
   * raises "array is too big". The element count 2^64 wraps to 0 in
   * int64, so the array must not be created with a tiny buffer. */
  int64_t big[] = {INT64_C(1) << 32, INT64_C(1) << 32};
  mn_array *a = NULL;
  int rc = mn_array_create(ctx, MN_FLOAT64, 2, big, 0, &a);
  T_CHECK(rc != MN_SUCCESS, "creating a (2^32, 2^32) float64 array succeeded (size reported %lld)",
          a ? (long long)mn_array_size(a) : 0LL);
  mn_array_destroy(&a);
  /* a[0:10:2**63-1] has one element in Python/NumPy */
  int64_t s10[] = {10};
  mn_array *x = mt_new(ctx, MN_FLOAT64, 1, s10, fa), *v = NULL;
  mn_index hs[] = {mn_slice(0, 10, INT64_MAX)};
  T_OK(mn_array_index(x, 1, hs, &v));
  T_CHECK(v && mn_array_shape(v)[0] == 1, "len(range(0, 10, 2**63-1)) = %lld, expected 1",
          v ? (long long)mn_array_shape(v)[0] : -1LL);
  mn_array_destroy(&v);
  mn_index hn[] = {mn_slice(9, MN_NONE, -INT64_MAX)};
  T_OK(mn_array_index(x, 1, hn, &v));
  T_CHECK(v && mn_array_shape(v)[0] == 1, "len(range(9, -1, -(2**63-1))) = %lld, expected 1",
          v ? (long long)mn_array_shape(v)[0] : -1LL);
  mn_array_destroy(&v);
  /* broadcast_to a negative extent: NumPy raises ValueError */
  int64_t neg[] = {-3};
  mn_array *one = mt_new(ctx, MN_FLOAT64, 1, s10, NULL), *bv = NULL;
  mn_index i1[] = {mn_slice(0, 1, 1)};
  mn_array *o1 = mt_view(one, 1, i1);
  rc = mn_array_broadcast_to(o1, 1, neg, &bv);
  T_CHECK(rc != MN_SUCCESS, "broadcast_to(shape (1,), (-3,)) succeeded with size %lld", bv ? (long long)mn_array_size(bv) : 0LL);
  mn_array_destroy(&bv); mn_array_destroy(&o1); mn_array_destroy(&one);
  mn_array_destroy(&x);
}

/* ================= norms of integer arrays ================= */
static double fbigint(int64_t k) { return k == 0 ? 4.0e9 : 0.0; }
static void norms(mn_ctx *ctx) {
  /* np.linalg.norm converts integer input to float: norm([4e9, 0, 0]) = 4e9;
   * an int64 sum of squares overflows (1.6e19 > 2^63) */
  int64_t s3[] = {3};
  mn_array *a = mt_new(ctx, MN_INT64, 1, s3, fbigint);
  double r = 0;
  T_OK(mn_array_norm(a, 2, &r));
  T_CHECK(r == 4.0e9, "norm(int64 [4e9, 0, 0]) = %.17g, expected 4e9", r);
  mn_array_destroy(&a);
}

/* ================= halo wider than an undivided axis ================= */
static double hval(const int64_t *g, const int64_t *shape) {
  double v = 0;
  for (int d = 0; d < 2; d++) v = v * 100.0 + (double)((g[d] % shape[d] + shape[d]) % shape[d]);
  return v + 0.5;
}
static void halo_undivided(mn_ctx *ctx) {
  /* design.md: "A halo width larger than the smallest block is rejected at
   * creation". Axis 1 (extent 2, not divided) gets halo 3: either creation
   * fails, or periodic ghosts must wrap (ghost column -3 mirrors column 1). */
  int P = mn_ctx_size(ctx);
  int64_t sh[] = {12, 2};
  int d[] = {P, 1}, h = 3;
  mn_layout *lay = NULL;
  mn_array *a = NULL;
  T_OK(mn_layout_create_block(ctx, 2, sh, d, &lay));
  int rc = mn_array_create_on(lay, MN_FLOAT64, h, &a);
  mn_layout_destroy(&lay);
  if (rc) return; /* rejected, as documented */
  mn_local loc;
  T_OK(mn_array_local(a, &loc));
  int64_t ext[2] = {loc.count[0] + 2 * h, loc.count[1] + 2 * h};
  int64_t n = loc.data ? ext[0] * ext[1] : 0;
  double *base = (double *)loc.data;
  for (int64_t k = 0; k < n; k++) {
    int64_t i = k / ext[1] - h, j = k % ext[1] - h, g[2] = {loc.lo[0] + i, loc.lo[1] + j};
    int owned = i >= 0 && i < loc.count[0] && j >= 0 && j < loc.count[1];
    base[i * loc.stride[0] + j * loc.stride[1]] = owned ? hval(g, sh) : -1.0;
  }
  int per[] = {1, 1};
  mn_plan *p = NULL;
  T_OK(mn_plan_create_halo(a, per, &p));
  T_OK(mn_plan_begin(p));
  T_OK(mn_plan_end(p));
  int bad = 0;
  for (int64_t k = 0; k < n && bad < 3; k++) {
    int64_t i = k / ext[1] - h, j = k % ext[1] - h, g[2] = {loc.lo[0] + i, loc.lo[1] + j};
    double got = base[i * loc.stride[0] + j * loc.stride[1]], want = hval(g, sh);
    if (got != want) {
      bad++;
      T_CHECK(0, "periodic halo 3 on a (12, 2) array (axis 1 undivided): ghost (%lld, %lld) = %g, expected %g "
              "(creation should have been rejected)", (long long)g[0], (long long)g[1], got, want);
    }
  }
  mn_plan_destroy(&p);
  mn_array_destroy(&a);
}

/* ================= layouts where some ranks own nothing ================= */
static void empty_ranks(mn_ctx *ctx) {
  int P = mn_ctx_size(ctx);
  int64_t sh[] = {2, 9};
  int d[] = {P, 1};
  mn_array *A = mk_on(ctx, MN_FLOAT64, 2, sh, d, 0, fa), *B = mt_new(ctx, MN_FLOAT64, 2, sh, fb);
  mn_array *O = mk_on(ctx, MN_FLOAT64, 2, sh, d, 0, NULL);
  mn_index rv[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_slice(MN_NONE, MN_NONE, -2)};
  mn_array *Ar = mt_view(A, 2, rv); /* (2, 5) */
  int64_t s25[] = {2, 5};
  mn_array *O2 = mt_new(ctx, MN_FLOAT64, 2, s25, NULL);
  T_OK(mn_array_binary(MN_OP_MUL, Ar, Ar, O2));
  double w[18];
  for (int i = 0; i < 2; i++) for (int j = 0; j < 5; j++) { double v = fa((1 - i) * 9 + 8 - 2 * j); w[i * 5 + j] = v * v; }
  check_eq("A[::-1, ::-2]**2 with empty ranks", O2, w, 10);
  T_OK(mn_array_binary(MN_OP_SUB, A, B, O));
  for (int k = 0; k < 18; k++) w[k] = fa(k) - fb(k);
  check_eq("A - B with empty ranks", O, w, 18);
  mn_scalar s;
  T_OK(mn_array_reduce(MN_RED_ARGMAX, Ar, &s));
  int64_t best = 0;
  for (int k = 1; k < 10; k++) {
    double v = fa((1 - k / 5) * 9 + 8 - 2 * (k % 5)), bv = fa((1 - best / 5) * 9 + 8 - 2 * (best % 5));
    if (v > bv) best = k;
  }
  T_CHECK(s.v.i == best, "argmax(A[::-1, ::-2]) = %lld, expected %lld", (long long)s.v.i, (long long)best);
  /* sum over axis 0 into row 0 of A itself (out aliases the input):
   * NumPy np.sum(A, axis=0, out=A[0]) gives the column sums of the old A */
  mn_index r0[] = {mn_at(0)};
  mn_array *row = mt_view(A, 1, r0);
  T_OK(mn_array_reduce_axis(MN_RED_SUM, A, 0, row));
  for (int k = 0; k < 18; k++) w[k] = k < 9 ? fa(k) + fa(9 + k) : fa(k);
  check_eq("sum(A, axis=0, out=A[0])", A, w, 18);
  mn_array_destroy(&row);
  mn_array_destroy(&Ar); mn_array_destroy(&O2); mn_array_destroy(&A); mn_array_destroy(&B); mn_array_destroy(&O);
}


/* ================= more reductions: threads and anchors ================= */
static double ftie3(int64_t k) { return (double)((k * 7 + 3) % 5) - (k == 99991 ? 1.0 : 0.0); }
static void reduce_more(mn_ctx *ctx) {
  /* 100000 elements so that OpenMP threads split the cells (np=1 runs 2
   * threads): argmin over many ties must be the first minimum */
  int64_t n[] = {100000};
  mn_array *a = mt_new(ctx, MN_FLOAT64, 1, n, ftie), *b = mt_new(ctx, MN_FLOAT64, 1, n, ftie3);
  mn_scalar s;
  T_OK(mn_array_reduce(MN_RED_ARGMIN, a, &s));
  int64_t best = 0;
  for (int64_t k = 1; k < n[0]; k++) if (ftie(k) < ftie(best)) best = k;
  T_CHECK(s.v.i == best, "argmin over 1e5 ties = %lld, expected %lld", (long long)s.v.i, (long long)best);
  T_OK(mn_array_reduce(MN_RED_ARGMAX, a, &s));
  best = 0;
  for (int64_t k = 1; k < n[0]; k++) if (ftie(k) > ftie(best)) best = k;
  T_CHECK(s.v.i == best, "argmax over 1e5 ties = %lld, expected %lld", (long long)s.v.i, (long long)best);
  /* reversed operand first (it becomes the anchor): argmin(b[::-1] + a) */
  mn_index rv[] = {mn_slice(MN_NONE, MN_NONE, -1)};
  mn_array *br = mt_view(b, 1, rv);
  mn_expr *e = NULL;
  int nb, na, r;
  T_OK(mn_expr_create(ctx, &e));
  T_OK(mn_expr_input(e, br, &nb));
  T_OK(mn_expr_input(e, a, &na));
  T_OK(mn_expr_binary(e, MN_OP_ADD, nb, na, &r));
  T_OK(mn_expr_reduce(e, r, MN_RED_ARGMIN, &s));
  best = 0;
  for (int64_t k = 1; k < n[0]; k++)
    if (ftie3(n[0] - 1 - k) + ftie(k) < ftie3(n[0] - 1 - best) + ftie(best)) best = k;
  T_CHECK(s.v.i == best, "argmin(b[::-1] + a) = %lld, expected %lld", (long long)s.v.i, (long long)best);
  mn_expr_destroy(&e);
  /* 2-d: anchor is a transposed, reversed view */
  int64_t sh[] = {40, 30};
  mn_array *A = mt_new(ctx, MN_FLOAT64, 2, sh, ftie), *At = tr(A, NULL);
  mn_array *Atr = mt_view(At, 1, rv); /* (30, 40): Atr[i,j] = A[j, 29-i] */
  T_OK(mn_array_reduce(MN_RED_ARGMIN, Atr, &s));
  best = 0;
  for (int64_t k = 1; k < 1200; k++) if (ftie((k % 40) * 30 + 29 - k / 40) < ftie((best % 40) * 30 + 29 - best / 40)) best = k;
  T_CHECK(s.v.i == best, "argmin(A.T[::-1]) = %lld, expected %lld", (long long)s.v.i, (long long)best);
  mn_array_destroy(&Atr); mn_array_destroy(&At); mn_array_destroy(&A);
  mn_array_destroy(&br); mn_array_destroy(&a); mn_array_destroy(&b);
}

/* ================= one rank failing while the others proceed ================= */
/* docs/c-api.md: "a check that can differ between ranks ... is agreed with
 * one MPI_Allreduce, so every rank returns the same code and message and
 * none is left waiting". Here only rank 0 passes an index to mn_array_get;
 * the others pass NULL. Every rank must return the same error code and none
 * may stay blocked. If rank 0 is left in the library's MPI_Allreduce, the
 * test reports it and releases it by matching its two collectives. */
static void hang_get(mn_ctx *ctx) {
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  if (P == 1) return;
  mn_ctx *c2 = NULL; /* a context of its own, so a stuck collective cannot match others */
  T_OK(mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CPU, &c2));
  int64_t n[] = {8};
  mn_array *a = NULL;
  T_OK(mn_array_create(c2, MN_FLOAT64, 1, n, 0, &a));
  int64_t idx[] = {0};
  mn_scalar s;
  int rc = mn_array_get(a, me == 0 ? idx : NULL, &s);
  MPI_Request req;
  MPI_Ibarrier(MPI_COMM_WORLD, &req);
  int done = 0;
  double t0 = MPI_Wtime();
  while (!done && MPI_Wtime() - t0 < 15.0) MPI_Test(&req, &done, MPI_STATUS_IGNORE);
  if (!done) {
    /* ranks 1.. returned, rank 0 is blocked in mn_agree's MPI_Allreduce
     * then would MPI_Bcast the element from its owner (rank 0) */
    T_CHECK(0, "mn_array_get with idx NULL on ranks != 0 returned %s here while rank 0 stayed blocked in a collective",
            mn_err_name(rc));
    int mine = P, first = 0;
    MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, mn_ctx_comm(c2));
    char v[16];
    MPI_Bcast(v, (int)sizeof v, MPI_BYTE, 0, mn_ctx_comm(c2));
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  int lo = rc, hi = rc;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  T_CHECK(lo == hi && lo != MN_SUCCESS, "mn_array_get with idx NULL on some ranks: codes differ between ranks (%s .. %s)",
          mn_err_name(lo), mn_err_name(hi));
  mn_array_destroy(&a);
  mn_ctx_destroy(&c2);
}


/* ================= fixed-axis views broadcast; 3-d reduce_axis ================= */
static void fixed_broadcast(mn_ctx *ctx, const int *d) {
  enum { R = 10, C = 7 };
  int64_t sh[] = {R, C};
  mn_array *A = mk2(ctx, MN_FLOAT64, sh, d, 1, fa);
  /* xb = broadcast_to(A[::-1, 2][:, newaxis], (R, 4)) */
  mn_index ic[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_at(2), mn_newaxis()};
  mn_array *x = mt_view(A, 3, ic), *xb = NULL;
  int64_t sb[] = {R, 4};
  T_OK(mn_array_broadcast_to(x, 2, sb, &xb));
  mn_array *O = mk2(ctx, MN_FLOAT64, sb, d, 0, NULL);
  T_OK(mn_array_binary_scalar(MN_OP_SUB, xb, mn_scalar_f64(1.0), 1, O)); /* 1 - xb */
  double w[R * C];
  for (int i = 0; i < R; i++) for (int j = 0; j < 4; j++) w[i * 4 + j] = 1.0 - fa((R - 1 - i) * C + 2);
  check_eq("1 - broadcast_to(A[::-1, 2, newaxis], (R, 4))", O, w, R * 4);
  int64_t sr[] = {R};
  mn_array *o1 = mt_new(ctx, MN_FLOAT64, 1, sr, NULL);
  T_OK(mn_array_reduce_axis(MN_RED_SUM, xb, 1, o1));
  for (int i = 0; i < R; i++) w[i] = 4.0 * fa((R - 1 - i) * C + 2);
  check_eq("sum(broadcast_to(A[::-1,2,newaxis],(R,4)), axis=1)", o1, w, R);
  /* the broadcast view written into A's own column 5 (alias through another column) */
  mn_index c5[] = {mn_all(), mn_at(5)};
  mn_array *col5 = mt_view(A, 2, c5), *x1 = NULL;
  mn_index c2[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_at(2)};
  x1 = mt_view(A, 2, c2);
  T_OK(mn_array_binary(MN_OP_ADD, x1, col5, col5));
  for (int k = 0; k < R * C; k++) w[k] = fa(k);
  for (int i = 0; i < R; i++) w[i * C + 5] = fa((R - 1 - i) * C + 2) + fa(i * C + 5);
  check_eq("A[:, 5] = A[::-1, 2] + A[:, 5]", A, w, R * C);
  mn_array_destroy(&x1); mn_array_destroy(&col5);
  mn_array_destroy(&o1); mn_array_destroy(&O); mn_array_destroy(&xb); mn_array_destroy(&x); mn_array_destroy(&A);
  /* 3-d: V = X[::-1, 2, ::-2] (4, 3); min over axis 0 into a root layout on the
   * last rank; argmax over axis 1 into O[:, 1] of a (4, 3) array */
  int P = mn_ctx_size(ctx);
  int64_t s3[] = {4, 5, 6}, s2[] = {4, 3}, s1[] = {3};
  mn_array *X = mt_new(ctx, MN_FLOAT64, 3, s3, fb);
  mn_index iv[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_at(2), mn_slice(MN_NONE, MN_NONE, -2)};
  mn_array *V = mt_view(X, 3, iv);
  mn_layout *lr = NULL;
  mn_array *m0 = NULL;
  T_OK(mn_layout_create_root(ctx, 1, s1, P - 1, &lr));
  T_OK(mn_array_create_on(lr, MN_FLOAT64, 0, &m0));
  mn_layout_destroy(&lr);
  T_OK(mn_array_reduce_axis(MN_RED_MIN, V, 0, m0));
  for (int j = 0; j < 3; j++) {
    double m = INFINITY;
    for (int i = 0; i < 4; i++) { double v = fb((3 - i) * 30 + 2 * 6 + 5 - 2 * j); if (v < m) m = v; }
    w[j] = m;
  }
  check_eq("min(X[::-1, 2, ::-2], axis=0) into a root layout", m0, w, 3);
  mn_array *O2 = mt_new(ctx, MN_INT64, 2, s2, NULL), *o2c = NULL;
  mn_index oc[] = {mn_all(), mn_at(1)};
  o2c = mt_view(O2, 2, oc);
  T_OK(mn_array_reduce_axis(MN_RED_ARGMAX, V, 1, o2c));
  for (int i = 0; i < 4; i++) {
    int bi = 0;
    for (int j = 1; j < 3; j++) if (fb((3 - i) * 30 + 12 + 5 - 2 * j) > fb((3 - i) * 30 + 12 + 5 - 2 * bi)) bi = j;
    for (int j = 0; j < 3; j++) w[i * 3 + j] = j == 1 ? bi : 0;
  }
  check_eq("argmax(X[::-1, 2, ::-2], axis=1) into O[:, 1]", O2, w, 12);
  mn_array_destroy(&o2c); mn_array_destroy(&O2); mn_array_destroy(&m0); mn_array_destroy(&V); mn_array_destroy(&X);
}

/* ================= plan cache eviction ================= */
static void cache_evict(mn_ctx *ctx) {
  int64_t sh[] = {300};
  mn_array *a = mt_new(ctx, MN_FLOAT64, 1, sh, fa);
  int64_t so[] = {100};
  mn_array *o = mt_new(ctx, MN_FLOAT64, 1, so, NULL);
  double w[100];
  for (int rep = 0; rep < 2; rep++)
    for (int off = 0; off < 150; off += (rep ? 37 : 1)) { /* 150 distinct plans, then reuse */
      mn_index iv[] = {mn_slice(off, off + 100, 1)};
      mn_array *v = mt_view(a, 1, iv);
      T_OK(mn_array_copy(v, o));
      if (off % 37 == 0) {
        for (int k = 0; k < 100; k++) w[k] = fa(off + k);
        check_eq("copy of a[off:off+100] after cache eviction", o, w, 100);
      }
      mn_array_destroy(&v);
    }
  int cached;
  long hits, misses;
  mn_ctx_plan_stats(ctx, &cached, &hits, &misses);
  T_CHECK(cached <= 128, "plan cache holds %d plans, limit 128", cached);
  mn_array_destroy(&o); mn_array_destroy(&a);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx), G[4][2], ng = grids(P, G);
  fuse_mixed(ctx);
  for (int nt = 2; nt <= 8; nt++) {
    fuse_long_chain(ctx, MN_FLOAT64, nt);
    fuse_long_chain(ctx, MN_FLOAT32, nt);
  }
  for (int g = 0; g < ng; g++) {
    alias_self(ctx, G[g], 0);
    alias_self(ctx, G[g], 1);
    tiled_transpose(ctx, G[g]);
    composed_views(ctx, G[g], G[(g + 1) % ng]);
    zero_d(ctx, G[g]);
    reduce_views(ctx, G[g], G[(g + 1) % ng]);
    fixed_broadcast(ctx, G[g]);
  }
  redistribute(ctx);
  cache_halo_dtype(ctx);
  cache_evict(ctx);
  empty_ranks(ctx);
  empty_arrays(ctx);
  reduce_more(ctx);
  fills(ctx);
  norms(ctx);
  halo_undivided(ctx);
  hang_get(ctx);
  /* last: checks that abort the process (UBSan in the sanitizer build;
   * a crash in the fused kernel dispatch in any build). T_EDGE_NOUB /
   * T_EDGE_NOCRASH skip them when exploring. */
  if (!getenv("T_EDGE_NOUB")) overflow(ctx);
  if (!getenv("T_EDGE_NOCRASH")) {
    fuse_long_chain(ctx, MN_FLOAT64, 9);
    fuse_long_chain(ctx, MN_FLOAT32, 10);
    fuse_long_chain(ctx, MN_FLOAT64, 12);
  }
  return mt_finish(&ctx);
}
