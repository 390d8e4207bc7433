/* Reductions against serial loops on the gathered input: every reduction
 * over all elements on float64, float32, int32, int64 and bool (result
 * dtypes as NumPy gives them; ties go to the first occurrence, NaN wins and
 * arg* then give the first NaN), reductions of views, reductions along one
 * axis of 2-d and 3-d arrays, dot products of arrays and of shifted views,
 * vector norms, reductions of unmaterialised expressions, and empty arrays. */
#include "mn_test.h"

/* ---------------------------------------------------------------- values */
/* period-23 values: every extreme repeats, ties across rank boundaries */
static double f_tie(int64_t k) { return (double)((k * 37 + 5) % 23 - 11) * 0.37 + 0.5; }
static double f_tie_i(int64_t k) { return (double)((k * 37 + 5) % 23 - 11); }
/* two NaNs, the first at index 12 */
static double f_nan(int64_t k) { return (k == 12 || k == 90) ? NAN : f_tie(k); }
static double f_nan_late(int64_t k) { return (k == 77 || k == 98) ? NAN : f_tie(k); }
/* close to 1, for products */
static double f_prod(int64_t k) { return 1.0 + 0.01 * (double)(k % 7 - 3); }
static double f_prod_i(int64_t k) { return k % 17 == 3 ? 2.0 : (k % 13 == 5 ? -1.0 : 1.0); }
/* large int32 values whose sum needs int64 */
static double f_big(int64_t k) { return 2000000000.0 - (double)k; }
static double f_bool(int64_t k) { return (k * 7) % 5 != 0; }
static double f_true_but(int64_t k) { return k != 77; }
static double f_false_but(int64_t k) { return k == 58; }
static double f_zero(int64_t k) { (void)k; return 0.0; }
/* extremes at view indices g_b and g_b + 4 of x[1:] (base g_b + 1, g_b + 5) */
static int64_t g_b = 0;
static double g_ext = -100.0;
static double f_two_ext(int64_t k) { return (k == g_b + 1 || k == g_b + 5) ? g_ext : (double)(k % 3); }
static double f_smooth(int64_t k) { return sin(0.37 * (double)k) + 0.3; }
static double f_smooth2(int64_t k) { return cos(0.21 * (double)k) - 0.1; }

/* ------------------------------------- helpers (mt_new, mt_view: mn_test.h) */
static int is_f(mn_dtype t) { return t == MN_FLOAT32 || t == MN_FLOAT64; }

/* NumPy's result dtype, written out independently */
static mn_dtype np_red(mn_reduce_op op, mn_dtype x) {
  switch (op) {
  case MN_RED_SUM: case MN_RED_PROD: case MN_RED_SUMSQ: case MN_RED_SUMABS: return is_f(x) ? x : MN_INT64;
  case MN_RED_MIN: case MN_RED_MAX: case MN_RED_MAXABS: return x;
  case MN_RED_ARGMIN: case MN_RED_ARGMAX: return MN_INT64;
  default: return MN_BOOL;
  }
}

static const mn_reduce_op all_ops[] = {MN_RED_SUM, MN_RED_PROD, MN_RED_MIN, MN_RED_MAX, MN_RED_ARGMIN, MN_RED_ARGMAX,
                                       MN_RED_ANY, MN_RED_ALL, MN_RED_SUMSQ, MN_RED_SUMABS, MN_RED_MAXABS};
enum { NOPS = sizeof all_ops / sizeof all_ops[0] };

/* Serial reduction of n values (read with stride st) in C order. */
static double ref_red(mn_reduce_op op, const double *v, int64_t n, int64_t st) {
  double acc;
  int64_t best = -1;
  switch (op) {
  case MN_RED_SUM: acc = 0; for (int64_t i = 0; i < n; i++) acc += v[i * st]; return acc;
  case MN_RED_PROD: acc = 1; for (int64_t i = 0; i < n; i++) acc *= v[i * st]; return acc;
  case MN_RED_SUMSQ: acc = 0; for (int64_t i = 0; i < n; i++) acc += v[i * st] * v[i * st]; return acc;
  case MN_RED_SUMABS: acc = 0; for (int64_t i = 0; i < n; i++) acc += fabs(v[i * st]); return acc;
  case MN_RED_ANY: for (int64_t i = 0; i < n; i++) if (v[i * st] != 0) return 1; return 0;
  case MN_RED_ALL: for (int64_t i = 0; i < n; i++) if (v[i * st] == 0) return 0; return 1;
  case MN_RED_MAXABS:
    acc = -1;
    for (int64_t i = 0; i < n; i++) {
      double a = fabs(v[i * st]);
      if (isnan(a)) return NAN;
      if (a > acc) acc = a;
    }
    return acc;
  default: /* min, max, argmin, argmax: first NaN, else first extreme */
    for (int64_t i = 0; i < n; i++) {
      double x = v[i * st];
      if (isnan(x)) { best = i; break; }
      if (best < 0) { best = i; continue; }
      double b = v[best * st];
      if ((op == MN_RED_MIN || op == MN_RED_ARGMIN) ? x < b : x > b) best = i;
    }
    if (op == MN_RED_ARGMIN || op == MN_RED_ARGMAX) return (double)best;
    return v[best * st];
  }
}

static int close_rel(double g, double w, double tol) {
  if (isnan(w)) return isnan(g);
  if (isinf(w)) return g == w;
  return g == w || fabs(g - w) <= tol * fabs(w);
}

static double tol_for(mn_reduce_op op, mn_dtype rt) {
  if (!is_f(rt)) return 0;
  if (rt == MN_FLOAT32) return 1e-6;
  return (op == MN_RED_MIN || op == MN_RED_MAX || op == MN_RED_MAXABS) ? 0 : 1e-12;
}

/* a scalar result: its dtype and value */
static void check_scalar(const char *what, mn_scalar s, mn_dtype want_dt, double want, double tol) {
  T_CHECK(s.dtype == want_dt, "%s: result dtype %s, expected %s", what, mn_dtype_name(s.dtype), mn_dtype_name(want_dt));
  if (s.dtype != want_dt) return;
  if (is_f(want_dt))
    T_CHECK(close_rel(s.v.f, want, tol), "%s = %.17g, expected %.17g (rel tol %g)", what, s.v.f, want, tol);
  else
    T_CHECK(s.v.i == (int64_t)want, "%s = %lld, expected %lld", what, (long long)s.v.i, (long long)want);
}

/* every reduction of x against the serial loop on its gathered values */
static void check_all_ops(const char *label, const mn_array *x) {
  mn_dtype xt = mn_array_dtype(x);
  int64_t n = mn_array_size(x);
  double *v = mt_all(x);
  for (int k = 0; k < NOPS; k++) {
    mn_reduce_op op = all_ops[k];
    char what[160];
    snprintf(what, sizeof what, "%s(%s %s)", mn_reduce_name(op), label, mn_dtype_name(xt));
    mn_dtype want_dt = np_red(op, xt);
    T_CHECK(mn_reduce_result(op, xt) == want_dt, "%s: mn_reduce_result gives %s, NumPy gives %s", what,
            mn_dtype_name(mn_reduce_result(op, xt)), mn_dtype_name(want_dt));
    mn_scalar s;
    memset(&s, 0, sizeof s);
    int rc = mn_array_reduce(op, x, &s);
    T_CHECK(rc == MN_SUCCESS, "%s returned %s: %s", what, mn_err_name(rc), mn_ctx_errmsg(NULL));
    if (rc) continue;
    check_scalar(what, s, want_dt, ref_red(op, v, n, 1), tol_for(op, want_dt));
  }
  free(v);
}

/* Serial reduction of x (shape nd/shape, values v) along axis. */
static void ref_axis(mn_reduce_op op, int nd, const int64_t *shape, const double *v, int axis, double *out) {
  int64_t outer = 1, inner = 1, len = shape[axis];
  for (int d = 0; d < axis; d++) outer *= shape[d];
  for (int d = axis + 1; d < nd; d++) inner *= shape[d];
  for (int64_t o = 0; o < outer; o++)
    for (int64_t i = 0; i < inner; i++) out[o * inner + i] = ref_red(op, v + o * len * inner + i, len, inner);
}

/* every reduction of x along axis (given as passed, may be negative) */
static void check_axis_ops(const char *label, mn_ctx *ctx, mn_array *x, int axis_arg) {
  int nd = mn_array_ndim(x), axis = axis_arg < 0 ? axis_arg + nd : axis_arg;
  const int64_t *shape = mn_array_shape(x);
  mn_dtype xt = mn_array_dtype(x);
  int64_t oshape[MN_MAXDIM], no = 1;
  for (int d = 0, k = 0; d < nd; d++)
    if (d != axis) { oshape[k++] = shape[d]; no *= shape[d]; }
  double *v = mt_all(x), *w = malloc(sizeof(double) * (size_t)(no ? no : 1));
  for (int k = 0; k < NOPS; k++) {
    mn_reduce_op op = all_ops[k];
    char what[200];
    snprintf(what, sizeof what, "%s(%s %s, axis=%d)", mn_reduce_name(op), label, mn_dtype_name(xt), axis_arg);
    mn_dtype rt = mn_reduce_result(op, xt);
    T_CHECK(rt == np_red(op, xt), "%s: mn_reduce_result %s, NumPy %s", what, mn_dtype_name(rt),
            mn_dtype_name(np_red(op, xt)));
    mn_array *out = mt_new(ctx, rt, nd - 1, oshape, NULL);
    int rc = mn_array_reduce_axis(op, x, axis_arg, out);
    T_CHECK(rc == MN_SUCCESS, "%s returned %s: %s", what, mn_err_name(rc), mn_ctx_errmsg(NULL));
    if (!rc) {
      ref_axis(op, nd, shape, v, axis, w);
      double *g = mt_all(out), tol = tol_for(op, rt);
      int shown = 0;
      for (int64_t i = 0; i < no; i++) {
        int ok = is_f(rt) ? close_rel(g[i], w[i], tol) : g[i] == w[i];
        if (!ok && shown++ < 4) T_CHECK(0, "%s: out[%lld] = %.17g, expected %.17g", what, (long long)i, g[i], w[i]);
        else if (!ok) mt_fails++;
      }
      free(g);
    }
    mn_array_destroy(&out);
  }
  free(v);
  free(w);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);

  /* ================= all elements, every dtype ================= */
  {
    int64_t s1[1] = {103}, s2[2] = {11, 7};
    mn_dtype types[] = {MN_FLOAT64, MN_FLOAT32, MN_INT32, MN_INT64};
    for (int t = 0; t < 4; t++) {
      double (*f)(int64_t) = is_f(types[t]) ? f_tie : f_tie_i;
      mn_array *a = mt_new(ctx, types[t], 1, s1, f), *b = mt_new(ctx, types[t], 2, s2, f);
      check_all_ops("(103,) ties", a);
      check_all_ops("(11,7) ties", b);
      mn_array_destroy(&a);
      mn_array_destroy(&b);
      /* products of small values */
      a = mt_new(ctx, types[t], 1, s1, is_f(types[t]) ? f_prod : f_prod_i);
      mn_scalar s;
      T_OK(mn_array_reduce(MN_RED_PROD, a, &s));
      double *v = mt_all(a);
      check_scalar(is_f(types[t]) ? "prod(near 1)" : "prod(+-1, 2)", s, np_red(MN_RED_PROD, types[t]),
                   ref_red(MN_RED_PROD, v, 103, 1), types[t] == MN_FLOAT32 ? 1e-6 : 1e-12);
      free(v);
      mn_array_destroy(&a);
      /* any / all both ways; a zero array */
      double (*fb[3])(int64_t) = {f_true_but, f_false_but, f_zero};
      for (int k = 0; k < 3; k++) {
        a = mt_new(ctx, types[t], 1, s1, fb[k]);
        v = mt_all(a);
        T_OK(mn_array_reduce(MN_RED_ANY, a, &s));
        check_scalar("any", s, MN_BOOL, ref_red(MN_RED_ANY, v, 103, 1), 0);
        T_OK(mn_array_reduce(MN_RED_ALL, a, &s));
        check_scalar("all", s, MN_BOOL, ref_red(MN_RED_ALL, v, 103, 1), 0);
        free(v);
        mn_array_destroy(&a);
      }
    }
    /* bool */
    mn_array *a = mt_new(ctx, MN_BOOL, 1, s1, f_bool), *b = mt_new(ctx, MN_BOOL, 2, s2, f_bool);
    check_all_ops("(103,)", a);
    check_all_ops("(11,7)", b);
    mn_array_destroy(&a);
    mn_array_destroy(&b);
    double (*fb[3])(int64_t) = {f_true_but, f_false_but, f_zero};
    for (int k = 0; k < 3; k++) {
      a = mt_new(ctx, MN_BOOL, 1, s1, fb[k]);
      check_all_ops(k == 0 ? "(103,) all-but-one true" : k == 1 ? "(103,) one true" : "(103,) all false", a);
      mn_array_destroy(&a);
    }
    /* sum of int32 is int64 and does not wrap at 32 bits */
    a = mt_new(ctx, MN_INT32, 1, s1, f_big);
    mn_scalar s;
    T_OK(mn_array_reduce(MN_RED_SUM, a, &s));
    int64_t want = 0;
    for (int64_t k = 0; k < 103; k++) want += 2000000000 - k;
    check_scalar("sum(int32 near 2e9)", s, MN_INT64, (double)want, 0);
    T_OK(mn_array_reduce(MN_RED_SUMABS, a, &s));
    check_scalar("sum_of_abs(int32 near 2e9)", s, MN_INT64, (double)want, 0);
    mn_array_destroy(&a);
  }

  /* ================= NaN wins; arg* gives the first NaN ================= */
  {
    int64_t s1[1] = {103}, s2[2] = {11, 7};
    for (int t = 0; t < 2; t++) {
      mn_dtype d = t ? MN_FLOAT32 : MN_FLOAT64;
      mn_array *a = mt_new(ctx, d, 1, s1, f_nan), *b = mt_new(ctx, d, 1, s1, f_nan_late), *c = mt_new(ctx, d, 2, s2, f_nan);
      check_all_ops("(103,) NaN at 12, 90", a);
      check_all_ops("(103,) NaN at 77, 98", b);
      check_all_ops("(11,7) NaN at 12", c);
      mn_scalar s;
      T_OK(mn_array_reduce(MN_RED_ARGMIN, b, &s));
      check_scalar("argmin with NaN at 77, 98", s, MN_INT64, 77, 0);
      T_OK(mn_array_reduce(MN_RED_ARGMAX, a, &s));
      check_scalar("argmax with NaN at 12, 90", s, MN_INT64, 12, 0);
      mn_array_destroy(&a);
      mn_array_destroy(&b);
      mn_array_destroy(&c);
    }
  }

  /* ================= views ================= */
  {
    int64_t s1[1] = {103}, s2[2] = {11, 7};
    mn_array *a = mt_new(ctx, MN_FLOAT64, 1, s1, f_tie), *ai = mt_new(ctx, MN_INT32, 1, s1, f_tie_i);
    mn_array *an = mt_new(ctx, MN_FLOAT64, 1, s1, f_nan);
    mn_index every2[] = {mn_slice(1, MN_NONE, 2)}, rev[] = {mn_slice(MN_NONE, MN_NONE, -1)},
             rev3[] = {mn_slice(-3, 4, -3)};
    mn_array *v;
    v = mt_view(a, 1, every2); check_all_ops("x[1::2]", v); mn_array_destroy(&v);
    v = mt_view(a, 1, rev); check_all_ops("x[::-1]", v); mn_array_destroy(&v);
    v = mt_view(a, 1, rev3); check_all_ops("x[-3:4:-3]", v); mn_array_destroy(&v);
    v = mt_view(ai, 1, every2); check_all_ops("x[1::2]", v); mn_array_destroy(&v);
    v = mt_view(ai, 1, rev); check_all_ops("x[::-1]", v); mn_array_destroy(&v);
    v = mt_view(an, 1, rev); check_all_ops("x[::-1] with NaN", v); mn_array_destroy(&v);
    /* reversed: the first occurrence in view order is the last in the base */
    v = mt_view(ai, 1, rev);
    mn_scalar s;
    double *bv = mt_all(ai);
    int64_t lastmin = -1;
    for (int64_t k = 0; k < 103; k++) if (bv[k] == -11) lastmin = k;
    T_OK(mn_array_reduce(MN_RED_ARGMIN, v, &s));
    check_scalar("argmin(x[::-1])", s, MN_INT64, (double)(102 - lastmin), 0);
    free(bv);
    mn_array_destroy(&v);
    /* 2-d sub-blocks */
    mn_array *m = mt_new(ctx, MN_FLOAT64, 2, s2, f_tie), *mi = mt_new(ctx, MN_INT32, 2, s2, f_tie_i);
    mn_index blk[] = {mn_slice(2, 9, 1), mn_slice(1, 6, 1)}, blk2[] = {mn_slice(-1, 0, -2), mn_slice(MN_NONE, MN_NONE, 3)},
             col[] = {mn_all(), mn_at(4)};
    v = mt_view(m, 2, blk); check_all_ops("m[2:9,1:6]", v); mn_array_destroy(&v);
    v = mt_view(mi, 2, blk); check_all_ops("m[2:9,1:6]", v); mn_array_destroy(&v);
    v = mt_view(m, 2, blk2); check_all_ops("m[-1:0:-2,::3]", v); mn_array_destroy(&v);
    v = mt_view(mi, 2, col); check_all_ops("m[:,4]", v); mn_array_destroy(&v);
    mn_array *mt = NULL;
    T_OK(mn_array_transpose(m, NULL, &mt));
    check_all_ops("m.T", mt);
    mn_array_destroy(&mt);
    mn_array_destroy(&m);
    mn_array_destroy(&mi);
    mn_array_destroy(&a);
    mn_array_destroy(&ai);
    mn_array_destroy(&an);
  }

  /* ================= along one axis ================= */
  {
    int64_t s2[2] = {11, 7}, s3[3] = {5, 4, 3};
    mn_array *m = mt_new(ctx, MN_FLOAT64, 2, s2, f_tie), *mi = mt_new(ctx, MN_INT32, 2, s2, f_tie_i),
             *mn_ = mt_new(ctx, MN_FLOAT64, 2, s2, f_nan), *mb = mt_new(ctx, MN_BOOL, 2, s2, f_bool),
             *mf = mt_new(ctx, MN_FLOAT32, 2, s2, f_tie);
    int axes2[] = {0, 1, -1};
    for (int k = 0; k < 3; k++) {
      check_axis_ops("(11,7)", ctx, m, axes2[k]);
      check_axis_ops("(11,7)", ctx, mi, axes2[k]);
      check_axis_ops("(11,7) NaN", ctx, mn_, axes2[k]);
      check_axis_ops("(11,7)", ctx, mb, axes2[k]);
      check_axis_ops("(11,7)", ctx, mf, axes2[k]);
    }
    mn_array *t = mt_new(ctx, MN_FLOAT64, 3, s3, f_tie), *ti = mt_new(ctx, MN_INT64, 3, s3, f_tie_i),
             *tn = mt_new(ctx, MN_FLOAT64, 3, s3, f_nan);
    int axes3[] = {0, 1, 2, -1, -3};
    for (int k = 0; k < 5; k++) {
      check_axis_ops("(5,4,3)", ctx, t, axes3[k]);
      check_axis_ops("(5,4,3)", ctx, ti, axes3[k]);
      check_axis_ops("(5,4,3) NaN", ctx, tn, axes3[k]);
    }
    /* views along an axis: a transposed and a reversed sub-block */
    mn_array *mt = NULL, *sb = NULL;
    T_OK(mn_array_transpose(m, NULL, &mt));
    check_axis_ops("(11,7).T", ctx, mt, 0);
    check_axis_ops("(11,7).T", ctx, mt, 1);
    mn_index blk[] = {mn_slice(-2, 0, -1), mn_slice(1, 6, 2)};
    sb = mt_view(mi, 2, blk);
    check_axis_ops("m[-2:0:-1,1:6:2]", ctx, sb, 0);
    check_axis_ops("m[-2:0:-1,1:6:2]", ctx, sb, -1);
    /* sum of int32 along an axis is int64 (values near 2e9 do not wrap) */
    mn_array *big = mt_new(ctx, MN_INT32, 2, s2, f_big);
    int64_t s7[1] = {7};
    mn_array *o = mt_new(ctx, mn_reduce_result(MN_RED_SUM, MN_INT32), 1, s7, NULL);
    T_OK(mn_array_reduce_axis(MN_RED_SUM, big, 0, o));
    T_CHECK(mn_array_dtype(o) == MN_INT64, "sum(int32) along an axis has dtype %s", mn_dtype_name(mn_array_dtype(o)));
    double *g = mt_all(o);
    for (int j = 0; j < 7; j++) {
      int64_t w = 0;
      for (int i = 0; i < 11; i++) w += 2000000000 - (i * 7 + j);
      T_CHECK(g[j] == (double)w, "sum(int32 near 2e9, axis=0)[%d] = %.17g, expected %lld", j, g[j], (long long)w);
    }
    free(g);
    /* the same sums into an int32 out wrap, as NumPy's sum(dtype=int32) */
    mn_array *o32 = mt_new(ctx, MN_INT32, 1, s7, NULL);
    T_OK(mn_array_reduce_axis(MN_RED_SUM, big, 0, o32));
    g = mt_all(o32);
    for (int j = 0; j < 7; j++) {
      int64_t w = 0;
      for (int i = 0; i < 11; i++) w += 2000000000 - (i * 7 + j);
      int32_t w32 = (int32_t)(uint32_t)(uint64_t)w;
      T_CHECK(g[j] == (double)w32, "sum(int32 near 2e9, axis=0) into int32 [%d] = %.17g, expected %d", j, g[j], (int)w32);
    }
    free(g);
    mn_array_destroy(&o32);
    /* axis out of range and a wrongly shaped out are refused */
    int rc = mn_array_reduce_axis(MN_RED_SUM, m, 2, o);
    T_CHECK(rc == MN_ERR_INDEX, "reduce_axis(axis=2) of a 2-d array returned %s, expected MN_ERR_INDEX", mn_err_name(rc));
    rc = mn_array_reduce_axis(MN_RED_SUM, m, 1, o);
    T_CHECK(rc == MN_ERR_SHAPE, "reduce_axis into a wrongly shaped out returned %s, expected MN_ERR_SHAPE", mn_err_name(rc));
    mn_array_destroy(&o);
    mn_array_destroy(&big);
    mn_array_destroy(&mt);
    mn_array_destroy(&sb);
    mn_array_destroy(&m); mn_array_destroy(&mi); mn_array_destroy(&mn_); mn_array_destroy(&mb); mn_array_destroy(&mf);
    mn_array_destroy(&t); mn_array_destroy(&ti); mn_array_destroy(&tn);
  }

  /* ================= dot and norms ================= */
  {
    int64_t s1[1] = {103};
    mn_array *x = mt_new(ctx, MN_FLOAT64, 1, s1, f_smooth), *y = mt_new(ctx, MN_FLOAT64, 1, s1, f_smooth2),
             *xf = mt_new(ctx, MN_FLOAT32, 1, s1, f_smooth);
    double *xv = mt_all(x), *yv = mt_all(y), *xfv = mt_all(xf), w = 0, wf = 0;
    mn_scalar s;
    for (int k = 0; k < 103; k++) { w += xv[k] * yv[k]; wf += xfv[k] * yv[k]; }
    T_OK(mn_array_dot(x, y, &s));
    check_scalar("dot(x, y)", s, MN_FLOAT64, w, 1e-12);
    T_OK(mn_array_dot(xf, y, &s)); /* float32 with float64 -> float64 */
    check_scalar("dot(float32 x, y)", s, MN_FLOAT64, wf, 1e-12);
    /* differently offset views: x[1:] . y[:-1] */
    mn_index i1[] = {mn_slice(1, MN_NONE, 1)}, im1[] = {mn_slice(MN_NONE, -1, 1)};
    mn_array *x1 = mt_view(x, 1, i1), *y0 = mt_view(y, 1, im1);
    w = 0;
    for (int k = 0; k < 102; k++) w += xv[k + 1] * yv[k];
    T_OK(mn_array_dot(x1, y0, &s));
    check_scalar("dot(x[1:], y[:-1])", s, MN_FLOAT64, w, 1e-12);
    /* a reversed view with a strided one: x[::-2] . y[1::2] (52 and 51 -> use y[::2]) */
    mn_index ir2[] = {mn_slice(MN_NONE, MN_NONE, -2)}, i02[] = {mn_slice(MN_NONE, MN_NONE, 2)};
    mn_array *xr = mt_view(x, 1, ir2), *ye = mt_view(y, 1, i02);
    w = 0;
    for (int k = 0; k < 52; k++) w += xv[102 - 2 * k] * yv[2 * k];
    T_OK(mn_array_dot(xr, ye, &s));
    check_scalar("dot(x[::-2], y[::2])", s, MN_FLOAT64, w, 1e-12);
    /* mismatched shapes are refused */
    int rc = mn_array_dot(x1, y, &s);
    T_CHECK(rc == MN_ERR_SHAPE, "dot of (102,) and (103,) returned %s, expected MN_ERR_SHAPE", mn_err_name(rc));
    /* norms */
    double n1 = 0, n2 = 0, ni = 0, r;
    for (int k = 0; k < 103; k++) { n1 += fabs(xv[k]); n2 += xv[k] * xv[k]; if (fabs(xv[k]) > ni) ni = fabs(xv[k]); }
    n2 = sqrt(n2);
    T_OK(mn_array_norm(x, 1, &r));
    T_CHECK(close_rel(r, n1, 1e-12), "norm(x, 1) = %.17g, expected %.17g", r, n1);
    T_OK(mn_array_norm(x, 2, &r));
    T_CHECK(close_rel(r, n2, 1e-12), "norm(x, 2) = %.17g, expected %.17g", r, n2);
    T_OK(mn_array_norm(x, INFINITY, &r));
    T_CHECK(r == ni, "norm(x, inf) = %.17g, expected %.17g", r, ni);
    /* of a view, and of an int32 array */
    n1 = n2 = ni = 0;
    for (int k = 1; k < 103; k++) { n1 += fabs(xv[k]); n2 += xv[k] * xv[k]; if (fabs(xv[k]) > ni) ni = fabs(xv[k]); }
    n2 = sqrt(n2);
    T_OK(mn_array_norm(x1, 1, &r));
    T_CHECK(close_rel(r, n1, 1e-12), "norm(x[1:], 1) = %.17g, expected %.17g", r, n1);
    T_OK(mn_array_norm(x1, 2, &r));
    T_CHECK(close_rel(r, n2, 1e-12), "norm(x[1:], 2) = %.17g, expected %.17g", r, n2);
    T_OK(mn_array_norm(x1, INFINITY, &r));
    T_CHECK(r == ni, "norm(x[1:], inf) = %.17g, expected %.17g", r, ni);
    mn_array *xi = mt_new(ctx, MN_INT32, 1, s1, f_tie_i);
    double *iv = mt_all(xi);
    n1 = n2 = ni = 0;
    for (int k = 0; k < 103; k++) { n1 += fabs(iv[k]); n2 += iv[k] * iv[k]; if (fabs(iv[k]) > ni) ni = fabs(iv[k]); }
    n2 = sqrt(n2);
    T_OK(mn_array_norm(xi, 1, &r));
    T_CHECK(r == n1, "norm(int32, 1) = %.17g, expected %.17g", r, n1);
    T_OK(mn_array_norm(xi, 2, &r));
    T_CHECK(close_rel(r, n2, 1e-15), "norm(int32, 2) = %.17g, expected %.17g", r, n2);
    T_OK(mn_array_norm(xi, INFINITY, &r));
    T_CHECK(r == ni, "norm(int32, inf) = %.17g, expected %.17g", r, ni);
    free(xv); free(yv); free(xfv); free(iv);
    mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&xf); mn_array_destroy(&x1); mn_array_destroy(&y0);
    mn_array_destroy(&xr); mn_array_destroy(&ye); mn_array_destroy(&xi);
  }

  /* ================= reductions of expressions ================= */
  {
    int64_t s2[2] = {11, 7}, s1[1] = {103};
    mn_array *a = mt_new(ctx, MN_FLOAT64, 2, s2, f_smooth), *b = mt_new(ctx, MN_FLOAT64, 2, s2, f_smooth2);
    double *av = mt_all(a), *bv = mt_all(b), w = 0, wmax = -INFINITY;
    for (int k = 0; k < 77; k++) { w += av[k] * bv[k] + 1.0; if (av[k] * bv[k] + 1.0 > wmax) wmax = av[k] * bv[k] + 1.0; }
    mn_expr *e = NULL;
    int na, nb, p, one, r;
    mn_scalar s;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, a, &na));
    T_OK(mn_expr_input(e, b, &nb));
    T_OK(mn_expr_binary(e, MN_OP_MUL, na, nb, &p));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(1.0), &one));
    T_OK(mn_expr_binary(e, MN_OP_ADD, p, one, &r));
    T_OK(mn_expr_reduce(e, r, MN_RED_SUM, &s));
    check_scalar("sum(a*b + 1)", s, MN_FLOAT64, w, 1e-12);
    T_OK(mn_expr_reduce(e, r, MN_RED_MAX, &s));
    check_scalar("max(a*b + 1)", s, MN_FLOAT64, wmax, 0);
    mn_expr_destroy(&e);
    free(av); free(bv);
    mn_array_destroy(&a); mn_array_destroy(&b);
    /* over shifted views on different layouts: x[1:] + y[:-1] (int32, with
     * ties) and x[2:] * 2 (float64) -- arg* still give the first occurrence */
    mn_array *x = mt_new(ctx, MN_INT32, 1, s1, f_tie_i), *y = mt_new(ctx, MN_INT32, 1, s1, f_zero);
    mn_index i1[] = {mn_slice(1, MN_NONE, 1)}, im1[] = {mn_slice(MN_NONE, -1, 1)};
    mn_array *x1 = mt_view(x, 1, i1), *y0 = mt_view(y, 1, im1);
    double *xv = mt_all(x), sh[102];
    for (int k = 0; k < 102; k++) sh[k] = xv[k + 1];
    mn_reduce_op ops[] = {MN_RED_SUM, MN_RED_MIN, MN_RED_MAX, MN_RED_ARGMIN, MN_RED_ARGMAX, MN_RED_SUMSQ};
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, x1, &na));
    T_OK(mn_expr_input(e, y0, &nb));
    T_OK(mn_expr_binary(e, MN_OP_ADD, na, nb, &r));
    for (int k = 0; k < 6; k++) {
      char what[96];
      snprintf(what, sizeof what, "%s(x[1:] + y[:-1]) int32", mn_reduce_name(ops[k]));
      T_OK(mn_expr_reduce(e, r, ops[k], &s));
      check_scalar(what, s, np_red(ops[k], MN_INT32), ref_red(ops[k], sh, 102, 1), 0);
    }
    mn_expr_destroy(&e);
    free(xv);
    mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&x1); mn_array_destroy(&y0);
    /* 2-d: m[1:,:] + n[:-1,::-1] over (10, 7) with ties */
    mn_array *m = mt_new(ctx, MN_FLOAT64, 2, s2, f_tie), *n = mt_new(ctx, MN_FLOAT64, 2, s2, f_zero);
    mn_index im[] = {mn_slice(1, MN_NONE, 1), mn_all()}, in_[] = {mn_slice(MN_NONE, -1, 1), mn_slice(MN_NONE, MN_NONE, -1)};
    mn_array *mv = mt_view(m, 2, im), *nv = mt_view(n, 2, in_);
    double *mvv = mt_all(mv);
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, mv, &na));
    T_OK(mn_expr_input(e, nv, &nb));
    T_OK(mn_expr_binary(e, MN_OP_ADD, na, nb, &r));
    for (int k = 0; k < 6; k++) {
      char what[96];
      snprintf(what, sizeof what, "%s(m[1:,:] + n[:-1,::-1]) float64", mn_reduce_name(ops[k]));
      T_OK(mn_expr_reduce(e, r, ops[k], &s));
      check_scalar(what, s, np_red(ops[k], MN_FLOAT64), ref_red(ops[k], mvv, 70, 1), tol_for(ops[k], MN_FLOAT64));
    }
    mn_expr_destroy(&e);
    free(mvv);
    mn_array_destroy(&m); mn_array_destroy(&n); mn_array_destroy(&mv); mn_array_destroy(&nv);
  }

  /* ================= arg* of an expression: the first extreme sits where the
   * last rank's part of x[1:] + y[:-1] starts, the one element whose y
   * comes from another rank; a tie (or second NaN) follows 4 later ====== */
  {
    int P = mn_ctx_size(ctx);
    int64_t s1[1] = {103};
    /* x[1:] on the block layout: the last rank owns base x[start:], i.e.
     * view indices from start - 1; its y[:-1] element there is remote */
    g_b = P > 1 ? mn_split_start(103, P, P - 1) - 1 : 40;
    double exts[3] = {-100.0, 100.0, NAN};
    for (int t = 0; t < 3; t++) {
      g_ext = exts[t];
      mn_array *x = mt_new(ctx, MN_FLOAT64, 1, s1, f_two_ext), *y = mt_new(ctx, MN_FLOAT64, 1, s1, f_zero);
      mn_index i1[] = {mn_slice(1, MN_NONE, 1)}, im1[] = {mn_slice(MN_NONE, -1, 1)};
      mn_array *x1 = mt_view(x, 1, i1), *y0 = mt_view(y, 1, im1);
      mn_expr *e = NULL;
      int na, nb, r;
      mn_scalar s;
      T_OK(mn_expr_create(ctx, &e));
      T_OK(mn_expr_input(e, x1, &na));
      T_OK(mn_expr_input(e, y0, &nb));
      T_OK(mn_expr_binary(e, MN_OP_ADD, na, nb, &r));
      mn_reduce_op op = t == 1 ? MN_RED_ARGMAX : MN_RED_ARGMIN;
      char what[128];
      snprintf(what, sizeof what, "%s(x[1:] + y[:-1]) with %g at %lld and %lld", mn_reduce_name(op), g_ext,
               (long long)g_b, (long long)g_b + 4);
      T_OK(mn_expr_reduce(e, r, op, &s));
      check_scalar(what, s, MN_INT64, (double)g_b, 0);
      if (t == 2) { /* argmax too: the first NaN */
        T_OK(mn_expr_reduce(e, r, MN_RED_ARGMAX, &s));
        check_scalar("argmax(x[1:] + y[:-1]) with NaNs", s, MN_INT64, (double)g_b, 0);
      }
      mn_expr_destroy(&e);
      mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&x1); mn_array_destroy(&y0);
    }
  }

  /* ================= empty arrays ================= */
  {
    int64_t s0[1] = {0}, s05[2] = {0, 5}, s5[1] = {5}, s1[1] = {103};
    mn_array *z = mt_new(ctx, MN_FLOAT64, 1, s0, NULL), *zi = mt_new(ctx, MN_INT32, 1, s0, NULL);
    mn_scalar s;
    int rc;
    mn_reduce_op bad[] = {MN_RED_MIN, MN_RED_MAX, MN_RED_ARGMIN, MN_RED_ARGMAX};
    for (int k = 0; k < 4; k++) {
      rc = mn_array_reduce(bad[k], z, &s);
      T_CHECK(rc == MN_ERR_SHAPE, "%s of an empty float64 array returned %s, expected MN_ERR_SHAPE",
              mn_reduce_name(bad[k]), mn_err_name(rc));
      rc = mn_array_reduce(bad[k], zi, &s);
      T_CHECK(rc == MN_ERR_SHAPE, "%s of an empty int32 array returned %s, expected MN_ERR_SHAPE",
              mn_reduce_name(bad[k]), mn_err_name(rc));
    }
    T_OK(mn_array_reduce(MN_RED_SUM, z, &s));
    check_scalar("sum(empty float64)", s, MN_FLOAT64, 0, 0);
    T_OK(mn_array_reduce(MN_RED_SUM, zi, &s));
    check_scalar("sum(empty int32)", s, MN_INT64, 0, 0);
    T_OK(mn_array_reduce(MN_RED_PROD, z, &s));
    check_scalar("prod(empty float64)", s, MN_FLOAT64, 1, 0);
    T_OK(mn_array_reduce(MN_RED_ANY, z, &s));
    check_scalar("any(empty)", s, MN_BOOL, 0, 0);
    T_OK(mn_array_reduce(MN_RED_ALL, z, &s));
    check_scalar("all(empty)", s, MN_BOOL, 1, 0);
    /* an empty view of a non-empty array */
    mn_array *x = mt_new(ctx, MN_FLOAT64, 1, s1, f_tie);
    mn_index ie[] = {mn_slice(50, 50, 1)};
    mn_array *xe = mt_view(x, 1, ie);
    rc = mn_array_reduce(MN_RED_MIN, xe, &s);
    T_CHECK(rc == MN_ERR_SHAPE, "min of x[50:50] returned %s, expected MN_ERR_SHAPE", mn_err_name(rc));
    T_OK(mn_array_reduce(MN_RED_SUM, xe, &s));
    check_scalar("sum(x[50:50])", s, MN_FLOAT64, 0, 0);
    /* along an empty axis: sum gives zeros, min is an error */
    mn_array *z2 = mt_new(ctx, MN_FLOAT64, 2, s05, NULL), *o = mt_new(ctx, MN_FLOAT64, 1, s5, NULL);
    T_OK(mn_array_fill(o, mn_scalar_f64(9.0)));
    T_OK(mn_array_reduce_axis(MN_RED_SUM, z2, 0, o));
    double *g = mt_all(o);
    for (int j = 0; j < 5; j++) T_CHECK(g[j] == 0, "sum((0,5), axis=0)[%d] = %g, expected 0", j, g[j]);
    free(g);
    rc = mn_array_reduce_axis(MN_RED_MIN, z2, 0, o);
    T_CHECK(rc == MN_ERR_SHAPE, "min((0,5), axis=0) returned %s, expected MN_ERR_SHAPE", mn_err_name(rc));
    mn_array_destroy(&z); mn_array_destroy(&zi); mn_array_destroy(&x); mn_array_destroy(&xe);
    mn_array_destroy(&z2); mn_array_destroy(&o);
  }
  return mt_finish(&ctx);
}
