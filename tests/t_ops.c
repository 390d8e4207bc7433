/* Element-wise operations against serial loops computed here on the
 * gathered inputs: every binary op family on float64, float32, int32, int64,
 * bool and mixed dtypes (result dtypes as NumPy 2 gives them), broadcasting,
 * weak and strong scalars, unary ops, where, axpby, fused expressions,
 * views with different offsets / negative steps / transposition that read
 * across rank boundaries, inputs on another layout, an output that aliases
 * an input, and casting on output. */
#include "mn_test.h"

/* ---------------------------------------------------------------- values */
/* small integers in [-11, 11] (0 included) */
static int64_t ia(int64_t k) { return (k * 37) % 23 - 11; }
/* nonzero small integers in [-8, 8] */
static int64_t ib(int64_t k) { int64_t v = (k * 53) % 17 - 8; return v ? v : 5; }
static double fa_i(int64_t k) { return (double)ia(k); }
static double fb_i(int64_t k) { return (double)ib(k); }
/* floats with fractions; ties with the other operand happen */
static double fa_f(int64_t k) { return (double)ia(k) * 0.75 + (k % 4 == 1 ? 0.3 : 0.0); }
static double fb_f(int64_t k) { return (double)ib(k) * 0.75 + (k % 5 == 2 ? -0.2 : 0.0); }
/* with NaNs (in different places for the two operands) */
static double fa_nan(int64_t k) { return k % 10 == 3 ? NAN : fa_f(k); }
static double fb_nan(int64_t k) { return k % 7 == 5 ? NAN : fb_f(k); }
/* power operands */
static double pbase_f(int64_t k) { return fabs(fa_f(k)) + 0.25; }
static double pexp_f(int64_t k) { return fb_f(k) * 0.4; }
static double pexp_i(int64_t k) { return (double)(k % 5); }
static double fbool1(int64_t k) { return k % 3 != 0; }
static double fbool2(int64_t k) { return k % 4 < 2; }
/* bit patterns, negatives included */
static double fbits1(int64_t k) { return (double)((k * 7919) % 2001 - 1000); }
static double fbits2(int64_t k) { return (double)((k * 104729) % 4099 - 2049); }
/* unary inputs: negatives, zero, NaN, +-inf */
static double fun(int64_t k) {
  if (k % 19 == 4) return NAN;
  if (k == 7) return 0.0;
  if (k == 8) return -0.0;
  if (k == 9) return INFINITY;
  if (k == 10) return -INFINITY;
  return ((double)((k * 29) % 31) - 15.0) * 0.37;
}
static double fbig32(int64_t k) { return (k % 2 ? -1.0 : 1.0) * (2000000000.0 - 1000.0 * (double)k); }
static double fpos(int64_t k) { return 0.125 + (double)((k * 13) % 41) * 0.29; }
static double fidx(int64_t k) { return 0.5 * (double)k - 3.25; }
static double fidx2(int64_t k) { return sin(0.3 * (double)k) * 10.0; }
static double fidx3(int64_t k) { return (double)((k * 17) % 29) * 0.125 - 1.5; }

#define T_PI 3.14159265358979323846
/* ldexp exponents from -1150 to 1150: results overflow and underflow too */
static double fexp_big(int64_t k) { return (double)((k * 97) % 2301 - 1150); }

/* --------------------------------------------- helpers (mt_new: mn_test.h) */
static int is_f(mn_dtype t) { return t == MN_FLOAT32 || t == MN_FLOAT64 || t == MN_FLOAT16; }
static int is_i(mn_dtype t) { return t == MN_INT32 || t == MN_INT64; }

/* NumPy's promotion table for two arrays, written out independently */
static mn_dtype np_promote(mn_dtype a, mn_dtype b) {
  if (a == b) return a;
  if (a == MN_BOOL) return b;
  if (b == MN_BOOL) return a;
  if (is_i(a) && is_i(b)) return MN_INT64;
  if (is_f(a) && is_f(b)) return MN_FLOAT64;
  return MN_FLOAT64; /* int with float */
}

/* relative closeness; NaN matches NaN, infinities must match exactly */
static int close_rel(double g, double w, double tol) {
  if (isnan(w)) return isnan(g);
  if (isinf(w)) return g == w;
  return g == w || fabs(g - w) <= tol * fabs(w);
}

/* Compare a gathered array with expected values (dtype checked too). */
static void check_vals(const char *what, const mn_array *a, mn_dtype want_dt, const double *want, double tol) {
  T_CHECK(mn_array_dtype(a) == want_dt, "%s: dtype %s, expected %s", what, mn_dtype_name(mn_array_dtype(a)),
          mn_dtype_name(want_dt));
  int64_t n = mn_array_size(a);
  double *g = mt_all(a);
  int shown = 0;
  for (int64_t i = 0; i < n; i++) {
    int ok = (want_dt == MN_FLOAT32 || want_dt == MN_FLOAT64) ? close_rel(g[i], want[i], tol) : g[i] == want[i];
    if (!ok && shown++ < 6)
      T_CHECK(0, "%s: element %lld = %.17g, expected %.17g", what, (long long)i, g[i], want[i]);
    else if (!ok) mt_fails++;
  }
  free(g);
}

static double tol_of(mn_dtype t, double f64tol) { return t == MN_FLOAT32 ? 1e-6 : f64tol; }

/* ------------------------------------------------ serial binary reference */
/* CPython's float floor division and remainder (sign of the divisor) */
#define PY_FLOAT_DIVMOD(S, T, F)                                                  \
  static T py_mod_##S(T a, T b) {                                                \
    if (b == 0) return F(fmod)(a, b);                                            \
    T m = F(fmod)(a, b);                                                         \
    if (m != 0) { if ((b < 0) != (m < 0)) m += b; }                              \
    else m = F(copysign)((T)0, b);                                               \
    return m;                                                                    \
  }                                                                              \
  static T py_floordiv_##S(T a, T b) {                                           \
    if (b == 0) return a / b;                                                    \
    T m = F(fmod)(a, b), d = (a - m) / b;                                        \
    if (m != 0 && ((b < 0) != (m < 0))) d -= 1;                                  \
    if (d != 0) { T f = F(floor)(d); if (d - f > (T)0.5) f += 1; return f; }    \
    return F(copysign)((T)0, a / b);                                             \
  }
#define FN32(fn) fn##f
#define FN64(fn) fn
PY_FLOAT_DIVMOD(f32, float, FN32)
PY_FLOAT_DIVMOD(f64, double, FN64)

#define REF_FLOAT(S, T, F)                                                       \
  static double ref_##S(mn_binary_op op, T a, T b) {                             \
    switch (op) {                                                                \
    case MN_OP_ADD: return (T)(a + b);                                           \
    case MN_OP_SUB: return (T)(a - b);                                           \
    case MN_OP_MUL: return (T)(a * b);                                           \
    case MN_OP_DIV: return (T)(a / b);                                           \
    case MN_OP_FLOORDIV: return py_floordiv_##S(a, b);                           \
    case MN_OP_MOD: return py_mod_##S(a, b);                                     \
    case MN_OP_POW: return F(pow)(a, b);                                         \
    case MN_OP_MAXIMUM: return (a != a || b != b) ? (T)NAN : (a > b ? a : b);    \
    case MN_OP_MINIMUM: return (a != a || b != b) ? (T)NAN : (a < b ? a : b);    \
    case MN_OP_EQ: return a == b;                                                \
    case MN_OP_NE: return a != b;                                                \
    case MN_OP_LT: return a < b;                                                 \
    case MN_OP_LE: return a <= b;                                                \
    case MN_OP_GT: return a > b;                                                 \
    case MN_OP_GE: return a >= b;                                                \
    case MN_OP_FMOD: return F(fmod)(a, b);                                       \
    /* directly, in long double: results near 0 keep their digits */             \
    case MN_OP_LOGADDEXP: return (T)logl(expl(a) + expl(b));                     \
    case MN_OP_LOGADDEXP2: return (T)log2l(exp2l(a) + exp2l(b));                 \
    case MN_OP_HEAVISIDE: return a != a ? a : a < 0 ? 0 : a > 0 ? 1 : b;         \
    case MN_OP_NEXTAFTER: return F(nextafter)(a, b);                             \
    case MN_OP_FLOAT_POWER: return pow((double)a, (double)b);                    \
    case MN_OP_LDEXP: return F(ldexp)(a, (int)b);                                \
    default: return NAN;                                                         \
    }                                                                            \
  }
REF_FLOAT(f32, float, FN32)
REF_FLOAT(f64, double, FN64)

static int64_t py_ifloordiv(int64_t a, int64_t b) { return (int64_t)floor((double)a / (double)b); }
/* Euclid on small values (no overflow in the references' inputs) */
static int64_t ref_gcd(int64_t a, int64_t b) {
  a = a < 0 ? -a : a;
  b = b < 0 ? -b : b;
  while (b) { int64_t t = a % b; a = b; b = t; }
  return a;
}

static double ref_int(mn_binary_op op, mn_dtype ct, int64_t a, int64_t b) {
  int64_t r;
  switch (op) {
  case MN_OP_ADD: r = a + b; break;
  case MN_OP_SUB: r = a - b; break;
  case MN_OP_MUL: r = a * b; break;
  case MN_OP_FLOORDIV: r = py_ifloordiv(a, b); break;
  case MN_OP_MOD: r = a - b * py_ifloordiv(a, b); break;
  case MN_OP_POW: r = 1; for (int64_t k = 0; k < b; k++) r *= a; break;
  case MN_OP_MAXIMUM: r = a > b ? a : b; break;
  case MN_OP_MINIMUM: r = a < b ? a : b; break;
  case MN_OP_BITAND: r = a & b; break;
  case MN_OP_FMOD: r = b == 0 ? 0 : a - b * (a / b); break; /* truncating division */
  case MN_OP_GCD: r = ref_gcd(a, b); break;
  case MN_OP_LCM: r = ref_gcd(a, b) ? (a < 0 ? -a : a) / ref_gcd(a, b) * (b < 0 ? -b : b) : 0; break;
  case MN_OP_EQ: return a == b;
  case MN_OP_NE: return a != b;
  case MN_OP_LT: return a < b;
  case MN_OP_LE: return a <= b;
  case MN_OP_GT: return a > b;
  case MN_OP_GE: return a >= b;
  default: return NAN;
  }
  if (ct == MN_INT32) r = (int32_t)r;
  return (double)r;
}

static double ref_bool(mn_binary_op op, int a, int b) {
  switch (op) {
  case MN_OP_ADD: case MN_OP_MAXIMUM: return a || b;
  case MN_OP_MUL: case MN_OP_MINIMUM: case MN_OP_BITAND: return a && b;
  case MN_OP_FMOD: return 0; /* in int8: a % 1 is 0, and by 0 gives 0 */
  case MN_OP_EQ: return a == b;
  case MN_OP_NE: return a != b;
  case MN_OP_LT: return a < b;
  case MN_OP_LE: return a <= b;
  case MN_OP_GT: return a > b;
  case MN_OP_GE: return a >= b;
  default: return NAN;
  }
}

/* reference in compute dtype ct (values already of their input dtypes) */
static double ref_bin(mn_binary_op op, mn_dtype ct, double a, double b) {
  if (op == MN_OP_LOGICAL_AND) return (a != 0) && (b != 0);
  if (op == MN_OP_DIV && !is_f(ct)) ct = MN_FLOAT64;
  if (op == MN_OP_FLOAT_POWER) ct = MN_FLOAT64;
  if ((op == MN_OP_LOGADDEXP || op == MN_OP_LOGADDEXP2 || op == MN_OP_HEAVISIDE || op == MN_OP_NEXTAFTER) &&
      !is_f(ct))
    ct = MN_FLOAT64;
  switch (ct) {
  case MN_FLOAT32: return ref_f32(op, (float)a, (float)b);
  case MN_FLOAT64: return ref_f64(op, a, b);
  case MN_BOOL: return ref_bool(op, a != 0, b != 0);
  default: return ref_int(op, ct, (int64_t)a, (int64_t)b);
  }
}

static int is_cmp(mn_binary_op op) { return op >= MN_OP_EQ && op <= MN_OP_GE; }

/* x (shape 7x11, dtype dx, values fx) op y (dy, fy): the result dtype must
 * be want; the output is created with mn_binary_result. */
static void t_bin(mn_ctx *ctx, mn_binary_op op, mn_dtype dx, mn_dtype dy, mn_dtype want,
                  double (*fx)(int64_t), double (*fy)(int64_t), double tol) {
  char what[160];
  snprintf(what, sizeof what, "%s(%s, %s)", mn_binary_name(op), mn_dtype_name(dx), mn_dtype_name(dy));
  mn_dtype rt = mn_binary_result(op, dx, dy);
  T_CHECK(rt == want, "%s: mn_binary_result gives %s, NumPy gives %s", what, mn_dtype_name(rt), mn_dtype_name(want));
  if (rt == MN_NDTYPE || rt != want) return;
  int64_t sh[2] = {7, 11};
  mn_array *x = mt_new(ctx, dx, 2, sh, fx), *y = mt_new(ctx, dy, 2, sh, fy), *out = mt_new(ctx, rt, 2, sh, NULL);
  T_OK(mn_array_binary(op, x, y, out));
  double *xv = mt_all(x), *yv = mt_all(y), want_v[77];
  mn_dtype ct = op == MN_OP_LDEXP ? rt : np_promote(dx, dy); /* ldexp: the mantissa's float type */
  for (int i = 0; i < 77; i++) want_v[i] = ref_bin(op, ct, xv[i], yv[i]);
  check_vals(what, out, want, want_v, is_cmp(op) ? 0 : tol_of(rt, tol));
  /* whole arrays of one dtype took the direct path (eval_direct.c); views
   * of them take the general one: both must match the reference */
  {
    mn_index all2[2] = {mn_all(), mn_all()};
    mn_array *vx = NULL, *vy = NULL, *o2 = mt_new(ctx, rt, 2, sh, NULL);
    T_OK(mn_array_index(x, 2, all2, &vx));
    T_OK(mn_array_index(y, 2, all2, &vy));
    T_OK(mn_array_binary(op, vx, vy, o2));
    char vwhat[192];
    snprintf(vwhat, sizeof vwhat, "%s on views", what);
    check_vals(vwhat, o2, want, want_v, is_cmp(op) ? 0 : tol_of(rt, tol));
    mn_array_destroy(&vx);
    mn_array_destroy(&vy);
    mn_array_destroy(&o2);
  }
  /* Python's remainder takes the sign of the divisor, also for zero */
  if (op == MN_OP_MOD && is_f(rt)) {
    double *g = mt_all(out);
    int shown = 0;
    for (int i = 0; i < 77; i++)
      if (want_v[i] == 0 && signbit(g[i]) != signbit(want_v[i]) && shown++ < 3)
        T_CHECK(0, "%s: element %d (%g %% %g) = %g, NumPy gives %g (sign of the divisor)", what, i, xv[i], yv[i], g[i],
                want_v[i]);
    free(g);
  }
  free(xv);
  free(yv);
  mn_array_destroy(&x);
  mn_array_destroy(&y);
  mn_array_destroy(&out);
}

/* a table of t_bin cases */
typedef struct {
  mn_binary_op op;
  mn_dtype dx, dy, want;
  double (*fx)(int64_t), (*fy)(int64_t);
  double tol;
} bin_case;
#define T_BINS(ctx, cases) t_bins((ctx), (cases), sizeof(cases) / sizeof((cases)[0]))
static void t_bins(mn_ctx *ctx, const bin_case *c, size_t n) {
  for (size_t k = 0; k < n; k++) t_bin(ctx, c[k].op, c[k].dx, c[k].dy, c[k].want, c[k].fx, c[k].fy, c[k].tol);
}

/* the arithmetic family on one dtype pair */
static void t_arith(mn_ctx *ctx, mn_dtype dx, mn_dtype dy, double (*fx)(int64_t), double (*fy)(int64_t),
                    double (*pb)(int64_t), double (*pe)(int64_t)) {
  mn_dtype p = np_promote(dx, dy);
  mn_dtype pdiv = is_f(p) ? p : MN_FLOAT64;
  const bin_case family[] = {
    {MN_OP_ADD, dx, dy, p, fx, fy, 1e-15},
    {MN_OP_SUB, dx, dy, p, fx, fy, 1e-15},
    {MN_OP_MUL, dx, dy, p, fx, fy, 1e-15},
    {MN_OP_DIV, dx, dy, pdiv, fx, fy, 1e-15},
    {MN_OP_FLOORDIV, dx, dy, p, fx, fy, 1e-15},
    {MN_OP_MOD, dx, dy, p, fx, fy, 1e-15},
    {MN_OP_POW, dx, dy, p, pb, pe, 1e-14},
    {MN_OP_MAXIMUM, dx, dy, p, fx, fy, 0},
    {MN_OP_MINIMUM, dx, dy, p, fx, fy, 0},
  };
  T_BINS(ctx, family);
  for (mn_binary_op op = MN_OP_EQ; op <= MN_OP_GE; op++) t_bin(ctx, op, dx, dy, MN_BOOL, fx, fy, 0);
  t_bin(ctx, MN_OP_LOGICAL_AND, dx, dy, MN_BOOL, fx, fy, 0);
}

/* --------------------------------------------------------- unary reference */
/* I0(x) = (1/pi) * integral over [0, pi] of exp(x cos t): the trapezoid rule
 * on this periodic integrand converges geometrically (an independent check
 * of the kernel's series) */
static double ref_i0(double x) {
  if (isnan(x) || isinf(x)) return NAN; /* NumPy's result for +-inf */
  enum { N = 256 };
  double s = 0.5 * (exp(x) + exp(-x));
  for (int k = 1; k < N; k++) s += exp(x * cos(T_PI * k / N));
  return s / N;
}
static double ref_spacing(double a, int f32) {
  if (isinf(a)) return NAN;
  if (f32) return (double)(nextafterf((float)a, a < 0 ? -INFINITY : INFINITY) - (float)a);
  return nextafter(a, a < 0 ? -INFINITY : INFINITY) - a;
}
static double ref_frexp_exp(double a) {
  int e = 0;
  if (isfinite(a)) frexp(a, &e);
  return e;
}

static double ref_un(mn_unary_op op, mn_dtype ct, double a) {
  if (ct == MN_FLOAT32) {
    float x = (float)a;
    switch (op) {
    case MN_OP_NEG: return -x;
    case MN_OP_ABS: return fabsf(x);
    case MN_OP_SQRT: return sqrtf(x);
    case MN_OP_EXP: return expf(x);
    case MN_OP_LOG: return logf(x);
    case MN_OP_SIN: return sinf(x);
    case MN_OP_FLOOR: return floorf(x);
    case MN_OP_SIGN: return x != x ? x : (float)((x > 0) - (x < 0));
    case MN_OP_ISNAN: return x != x;
    case MN_OP_LOGICAL_NOT: return !(x != 0);
    case MN_OP_FABS: return fabsf(x);
    case MN_OP_CBRT: return cbrtf(x);
    case MN_OP_EXP2: return exp2f(x);
    case MN_OP_ARCSINH: return asinhf(x);
    case MN_OP_DEG2RAD: return x * (float)(T_PI / 180);
    case MN_OP_SIGNBIT: return signbit(x) != 0;
    case MN_OP_SPACING: return ref_spacing(x, 1);
    case MN_OP_FREXP_EXP: return ref_frexp_exp(x);
    default: return NAN;
    }
  }
  if (ct == MN_FLOAT64) {
    switch (op) {
    case MN_OP_NEG: return -a;
    case MN_OP_ABS: return fabs(a);
    case MN_OP_SQRT: return sqrt(a);
    case MN_OP_EXP: return exp(a);
    case MN_OP_LOG: return log(a);
    case MN_OP_SIN: return sin(a);
    case MN_OP_FLOOR: return floor(a);
    case MN_OP_SIGN: return a != a ? a : (double)((a > 0) - (a < 0));
    case MN_OP_ISNAN: return a != a;
    case MN_OP_LOGICAL_NOT: return !(a != 0);
    case MN_OP_FABS: return fabs(a);
    case MN_OP_CBRT: return cbrt(a);
    case MN_OP_EXP2: return exp2(a);
    case MN_OP_ARCSINH: return asinh(a);
    case MN_OP_DEG2RAD: return a * T_PI / 180;
    case MN_OP_SIGNBIT: return signbit(a) != 0;
    case MN_OP_SPACING: return ref_spacing(a, 0);
    case MN_OP_I0: return ref_i0(a);
    case MN_OP_FREXP_EXP: return ref_frexp_exp(a);
    default: return NAN;
    }
  }
  int64_t x = (int64_t)a; /* ints and bool */
  switch (op) {
  case MN_OP_NEG: return (double)-x;
  case MN_OP_ABS: return (double)(x < 0 ? -x : x);
  case MN_OP_SIGN: return (double)((x > 0) - (x < 0));
  case MN_OP_ISNAN: return 0;
  case MN_OP_LOGICAL_NOT: return !x;
  case MN_OP_SIGNBIT: return x < 0;
  case MN_OP_FLOOR: case MN_OP_CEIL: case MN_OP_TRUNC: return (double)x;
  default: return NAN;
  }
}

static void t_un(mn_ctx *ctx, mn_unary_op op, mn_dtype dx, mn_dtype want, double (*fx)(int64_t), double tol) {
  char what[160];
  snprintf(what, sizeof what, "%s(%s)", mn_unary_name(op), mn_dtype_name(dx));
  mn_dtype rt = mn_unary_result(op, dx);
  T_CHECK(rt == want, "%s: mn_unary_result gives %s, NumPy gives %s", what, mn_dtype_name(rt), mn_dtype_name(want));
  if (rt == MN_NDTYPE || rt != want) return;
  int64_t sh[1] = {53};
  mn_array *x = mt_new(ctx, dx, 1, sh, fx), *out = mt_new(ctx, rt, 1, sh, NULL);
  T_OK(mn_array_unary(op, x, out));
  double *xv = mt_all(x), w[53];
  /* integer inputs of float-valued functions compute in float64 (signbit
   * reads the integer's sign directly) */
  mn_dtype ct = (is_f(rt) && !is_f(dx)) ? MN_FLOAT64 : dx;
  if (op == MN_OP_SIGNBIT && !is_f(dx)) ct = dx;
  for (int i = 0; i < 53; i++) w[i] = ref_un(op, ct, xv[i]);
  check_vals(what, out, want, w, tol_of(rt, tol));
  { /* a view of x: the general path, not the direct one */
    mn_index all1 = mn_all();
    mn_array *vx = NULL, *o2 = mt_new(ctx, rt, 1, sh, NULL);
    T_OK(mn_array_index(x, 1, &all1, &vx));
    T_OK(mn_array_unary(op, vx, o2));
    char vwhat[192];
    snprintf(vwhat, sizeof vwhat, "%s on a view", what);
    check_vals(vwhat, o2, want, w, tol_of(rt, tol));
    mn_array_destroy(&vx);
    mn_array_destroy(&o2);
  }
  free(xv);
  mn_array_destroy(&x);
  mn_array_destroy(&out);
}

/* a table of t_un cases */
typedef struct {
  mn_unary_op op;
  mn_dtype dx, want;
  double (*fx)(int64_t);
  double tol;
} un_case;
#define T_UNS(ctx, cases) t_uns((ctx), (cases), sizeof(cases) / sizeof((cases)[0]))
static void t_uns(mn_ctx *ctx, const un_case *c, size_t n) {
  for (size_t k = 0; k < n; k++) t_un(ctx, c[k].op, c[k].dx, c[k].want, c[k].fx, c[k].tol);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx);

  /* ================= binary ops, same dtype ================= */
  t_arith(ctx, MN_FLOAT64, MN_FLOAT64, fa_f, fb_f, pbase_f, pexp_f);
  t_arith(ctx, MN_FLOAT32, MN_FLOAT32, fa_f, fb_f, pbase_f, pexp_f);
  t_arith(ctx, MN_INT32, MN_INT32, fa_i, fb_i, fa_i, pexp_i);
  t_arith(ctx, MN_INT64, MN_INT64, fa_i, fb_i, fa_i, pexp_i);
  /* NaN propagates through maximum / minimum and compares false */
  for (int t = 0; t < 2; t++) {
    mn_dtype d = t ? MN_FLOAT32 : MN_FLOAT64;
    t_bin(ctx, MN_OP_MAXIMUM, d, d, d, fa_nan, fb_nan, 0);
    t_bin(ctx, MN_OP_MINIMUM, d, d, d, fa_nan, fb_nan, 0);
    for (mn_binary_op op = MN_OP_EQ; op <= MN_OP_GE; op++) t_bin(ctx, op, d, d, MN_BOOL, fa_nan, fb_nan, 0);
    t_bin(ctx, MN_OP_LOGICAL_AND, d, d, MN_BOOL, fa_nan, fb_nan, 0); /* NaN is true */
    t_bin(ctx, MN_OP_ADD, d, d, d, fa_nan, fb_nan, 0);
  }
  /* bitwise and, negatives included */
  static const bin_case bin_bitand[] = {
    {MN_OP_BITAND, MN_INT32, MN_INT32, MN_INT32, fbits1, fbits2, 0},
    {MN_OP_BITAND, MN_INT64, MN_INT64, MN_INT64, fbits1, fbits2, 0},
    {MN_OP_BITAND, MN_INT32, MN_INT64, MN_INT64, fbits1, fbits2, 0},
    {MN_OP_BITAND, MN_BOOL, MN_BOOL, MN_BOOL, fbool1, fbool2, 0},
    {MN_OP_BITAND, MN_FLOAT64, MN_FLOAT64, MN_NDTYPE, fa_f, fb_f, 0}, /* TypeError in NumPy */
    {MN_OP_BITAND, MN_INT32, MN_FLOAT32, MN_NDTYPE, fa_i, fb_f, 0},
  };
  T_BINS(ctx, bin_bitand);
  /* bool arrays */
  static const bin_case bin_bool[] = {
    {MN_OP_LOGICAL_AND, MN_BOOL, MN_BOOL, MN_BOOL, fbool1, fbool2, 0},
    {MN_OP_ADD, MN_BOOL, MN_BOOL, MN_BOOL, fbool1, fbool2, 0},
    {MN_OP_MUL, MN_BOOL, MN_BOOL, MN_BOOL, fbool1, fbool2, 0},
    {MN_OP_MAXIMUM, MN_BOOL, MN_BOOL, MN_BOOL, fbool1, fbool2, 0},
    {MN_OP_LT, MN_BOOL, MN_BOOL, MN_BOOL, fbool1, fbool2, 0},
    {MN_OP_SUB, MN_BOOL, MN_BOOL, MN_NDTYPE, fbool1, fbool2, 0}, /* TypeError in NumPy */
    {MN_OP_DIV, MN_BOOL, MN_BOOL, MN_FLOAT64, fbool1, fbool1, 0},
  };
  T_BINS(ctx, bin_bool);
  {
    /* the op itself refuses an unsupported dtype on every rank */
    int64_t sh[1] = {11};
    mn_array *x = mt_new(ctx, MN_BOOL, 1, sh, fbool1), *o = mt_new(ctx, MN_BOOL, 1, sh, NULL);
    int rc = mn_array_binary(MN_OP_SUB, x, x, o);
    T_CHECK(rc == MN_ERR_DTYPE, "subtract(bool, bool) returned %s, expected MN_ERR_DTYPE", mn_err_name(rc));
    mn_array_destroy(&x);
    mn_array_destroy(&o);
  }

  /* ================= mixed dtypes (NumPy promotion) ================= */
  static const bin_case bin_mixed[] = {
    {MN_OP_ADD, MN_INT32, MN_FLOAT32, MN_FLOAT64, fa_i, fb_f, 1e-15},
    {MN_OP_MUL, MN_FLOAT32, MN_INT32, MN_FLOAT64, fa_f, fb_i, 1e-15},
    {MN_OP_SUB, MN_INT32, MN_INT64, MN_INT64, fa_i, fb_i, 0},
    {MN_OP_ADD, MN_INT32, MN_INT64, MN_INT64, fa_i, fb_i, 0},
    {MN_OP_FLOORDIV, MN_INT64, MN_INT32, MN_INT64, fa_i, fb_i, 0},
    {MN_OP_MOD, MN_INT32, MN_INT64, MN_INT64, fa_i, fb_i, 0},
    {MN_OP_DIV, MN_INT32, MN_INT32, MN_FLOAT64, fa_i, fb_i, 1e-15},
    {MN_OP_DIV, MN_INT64, MN_INT32, MN_FLOAT64, fa_i, fb_i, 1e-15},
    {MN_OP_DIV, MN_INT32, MN_FLOAT32, MN_FLOAT64, fa_i, fb_f, 1e-15},
    {MN_OP_ADD, MN_FLOAT32, MN_FLOAT64, MN_FLOAT64, fa_f, fb_f, 1e-15},
    {MN_OP_MOD, MN_FLOAT32, MN_FLOAT64, MN_FLOAT64, fa_f, fb_f, 1e-15},
    {MN_OP_ADD, MN_INT64, MN_FLOAT64, MN_FLOAT64, fa_i, fb_f, 1e-15},
    {MN_OP_ADD, MN_BOOL, MN_INT32, MN_INT32, fbool1, fb_i, 0},
    {MN_OP_MUL, MN_BOOL, MN_FLOAT32, MN_FLOAT32, fbool1, fb_f, 1e-6},
    {MN_OP_POW, MN_INT32, MN_FLOAT64, MN_FLOAT64, fa_i, pexp_f, 1e-14},
    {MN_OP_MAXIMUM, MN_INT32, MN_FLOAT32, MN_FLOAT64, fa_i, fb_nan, 0},
    {MN_OP_LT, MN_INT32, MN_FLOAT32, MN_BOOL, fa_i, fb_f, 0},
    {MN_OP_EQ, MN_INT64, MN_FLOAT64, MN_BOOL, fa_i, fb_i, 0},
    {MN_OP_GE, MN_INT32, MN_INT64, MN_BOOL, fa_i, fb_i, 0},
    {MN_OP_LOGICAL_AND, MN_INT32, MN_FLOAT64, MN_BOOL, fa_i, fb_nan, 0},
    {MN_OP_LOGICAL_AND, MN_BOOL, MN_INT64, MN_BOOL, fbool1, fa_i, 0},
  };
  T_BINS(ctx, bin_mixed);
  /* float division by zero: inf with the sign, 0/0 NaN */
  {
    int64_t sh[1] = {5};
    static const double num[5] = {1.5, -2.0, 0.0, -0.0, 3.0}, den[5] = {0.0, 0.0, 0.0, 0.0, -0.0};
    mn_array *x = mt_new(ctx, MN_FLOAT64, 1, sh, NULL), *y = mt_new(ctx, MN_FLOAT64, 1, sh, NULL),
             *o = mt_new(ctx, MN_FLOAT64, 1, sh, NULL);
    T_OK(mn_array_scatter(x, 0, num));
    T_OK(mn_array_scatter(y, 0, den));
    T_OK(mn_array_binary(MN_OP_DIV, x, y, o));
    double w[5];
    for (int i = 0; i < 5; i++) w[i] = num[i] / den[i];
    check_vals("true_divide by zero", o, MN_FLOAT64, w, 0);
    mn_array_destroy(&x);
    mn_array_destroy(&y);
    mn_array_destroy(&o);
  }

  /* ================= broadcasting ================= */
  {
    int64_t s51[2] = {5, 1}, s17[2] = {1, 7}, s57[2] = {5, 7}, s7[1] = {7};
    mn_array *c = mt_new(ctx, MN_FLOAT64, 2, s51, fa_f), *r = mt_new(ctx, MN_FLOAT64, 2, s17, fb_f);
    mn_dtype rt = mn_binary_result(MN_OP_SUB, MN_FLOAT64, MN_FLOAT64);
    mn_array *o = mt_new(ctx, rt, 2, s57, NULL);
    T_OK(mn_array_binary(MN_OP_SUB, c, r, o));
    double *cv = mt_all(c), *rv = mt_all(r), w[35];
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 7; j++) w[i * 7 + j] = cv[i] - rv[j];
    check_vals("(5,1) - (1,7)", o, MN_FLOAT64, w, 0);
    /* the expression reports the broadcast shape */
    mn_expr *e = NULL;
    int a, b, s, nd = 0;
    int64_t shp[MN_MAXDIM];
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, c, &a));
    T_OK(mn_expr_input(e, r, &b));
    T_OK(mn_expr_binary(e, MN_OP_SUB, a, b, &s));
    T_OK(mn_expr_shape(e, s, &nd, shp));
    T_CHECK(nd == 2 && shp[0] == 5 && shp[1] == 7, "broadcast shape (%d dims) %lld x %lld, expected 5 x 7", nd,
            (long long)shp[0], (long long)shp[1]);
    mn_expr_destroy(&e);
    /* (7,) int32 with (5,7) float64 -> float64, both operand orders */
    mn_array *v7 = mt_new(ctx, MN_INT32, 1, s7, fa_i), *m = mt_new(ctx, MN_FLOAT64, 2, s57, fidx3);
    mn_dtype rt2 = mn_binary_result(MN_OP_SUB, MN_INT32, MN_FLOAT64);
    T_CHECK(rt2 == MN_FLOAT64, "subtract(int32, float64) -> %s", mn_dtype_name(rt2));
    mn_array *o2 = mt_new(ctx, rt2, 2, s57, NULL), *o3 = mt_new(ctx, rt2, 2, s57, NULL);
    T_OK(mn_array_binary(MN_OP_SUB, v7, m, o2));
    T_OK(mn_array_binary(MN_OP_SUB, m, v7, o3));
    double *vv = mt_all(v7), *mv = mt_all(m), w2[35], w3[35];
    for (int i = 0; i < 5; i++)
      for (int j = 0; j < 7; j++) { w2[i * 7 + j] = vv[j] - mv[i * 7 + j]; w3[i * 7 + j] = mv[i * 7 + j] - vv[j]; }
    check_vals("(7,) - (5,7)", o2, MN_FLOAT64, w2, 0);
    check_vals("(5,7) - (7,)", o3, MN_FLOAT64, w3, 0);
    /* incompatible shapes are refused */
    int64_t s6[1] = {6};
    mn_array *v6 = mt_new(ctx, MN_FLOAT64, 1, s6, fidx);
    int rc = mn_array_binary(MN_OP_ADD, v6, m, o2);
    T_CHECK(rc == MN_ERR_SHAPE, "(6,) + (5,7) returned %s, expected MN_ERR_SHAPE", mn_err_name(rc));
    free(cv); free(rv); free(vv); free(mv);
    mn_array_destroy(&c); mn_array_destroy(&r); mn_array_destroy(&o); mn_array_destroy(&v7);
    mn_array_destroy(&m); mn_array_destroy(&o2); mn_array_destroy(&o3); mn_array_destroy(&v6);
  }

  /* ================= scalars (NEP 50: weak Python literals) ================= */
  {
    int64_t sh[1] = {37};
    mn_array *xf = mt_new(ctx, MN_FLOAT32, 1, sh, fa_f), *xi = mt_new(ctx, MN_INT32, 1, sh, fb_i),
             *xd = mt_new(ctx, MN_FLOAT64, 1, sh, fb_f), *xb = mt_new(ctx, MN_BOOL, 1, sh, fbool1);
    double *fv = mt_all(xf), *iv = mt_all(xi), *dv = mt_all(xd), *bv = mt_all(xb), w[37];
    struct { const char *what; mn_array *x; mn_binary_op op; mn_scalar s; int first; mn_dtype want; } cs[] = {
      {"float32 * 2.5", xf, MN_OP_MUL, mn_scalar_f64(2.5), 0, MN_FLOAT32},
      {"float32 + 3", xf, MN_OP_ADD, mn_scalar_i64(3), 0, MN_FLOAT32},
      {"float32 * float64(2.5)", xf, MN_OP_MUL, mn_scalar_typed(MN_FLOAT64, 2.5), 0, MN_FLOAT64},
      {"int32 + 0.5", xi, MN_OP_ADD, mn_scalar_f64(0.5), 0, MN_FLOAT64},
      {"int32 * 3", xi, MN_OP_MUL, mn_scalar_i64(3), 0, MN_INT32},
      {"int32 + int64(3)", xi, MN_OP_ADD, mn_scalar_typed(MN_INT64, 3), 0, MN_INT64},
      {"2 - int32", xi, MN_OP_SUB, mn_scalar_i64(2), 1, MN_INT32},
      {"2.0 - float32", xf, MN_OP_SUB, mn_scalar_f64(2.0), 1, MN_FLOAT32},
      {"2.0 / float64", xd, MN_OP_DIV, mn_scalar_f64(2.0), 1, MN_FLOAT64},
      {"7 // int32", xi, MN_OP_FLOORDIV, mn_scalar_i64(7), 1, MN_INT32},
      {"-7 % int32", xi, MN_OP_MOD, mn_scalar_i64(-7), 1, MN_INT32},
      {"int32 % -3", xi, MN_OP_MOD, mn_scalar_i64(-3), 0, MN_INT32},
      {"float64 % -0.7", xd, MN_OP_MOD, mn_scalar_f64(-0.7), 0, MN_FLOAT64},
      {"int32 ** 3", xi, MN_OP_POW, mn_scalar_i64(3), 0, MN_INT32},
      {"2.0 ** float32", xf, MN_OP_POW, mn_scalar_f64(2.0), 1, MN_FLOAT32},
      {"int32 < 2.5", xi, MN_OP_LT, mn_scalar_f64(2.5), 0, MN_BOOL},
      {"bool + 1", xb, MN_OP_ADD, mn_scalar_i64(1), 0, MN_INT64},
      {"bool * 1.5", xb, MN_OP_MUL, mn_scalar_f64(1.5), 0, MN_FLOAT64},
      {"ldexp(float32, 3)", xf, MN_OP_LDEXP, mn_scalar_i64(3), 0, MN_FLOAT32}, /* the int stays an int */
      {"ldexp(2.0, int32)", xi, MN_OP_LDEXP, mn_scalar_f64(2.0), 1, MN_FLOAT64},
      {"fmod(int32, -3)", xi, MN_OP_FMOD, mn_scalar_i64(-3), 0, MN_INT32},
      {"gcd(int32, 6)", xi, MN_OP_GCD, mn_scalar_i64(6), 0, MN_INT32},
      {"logaddexp(float32, 1.5)", xf, MN_OP_LOGADDEXP, mn_scalar_f64(1.5), 0, MN_FLOAT32},
      {"float_power(float32, 2)", xf, MN_OP_FLOAT_POWER, mn_scalar_i64(2), 0, MN_FLOAT64},
    };
    for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
      mn_dtype xt = mn_array_dtype(cs[c].x);
      mn_expr *e = NULL;
      int a, s, r;
      T_OK(mn_expr_create(ctx, &e));
      T_OK(mn_expr_input(e, cs[c].x, &a));
      T_OK(mn_expr_scalar(e, cs[c].s, &s));
      T_OK(cs[c].first ? mn_expr_binary(e, cs[c].op, s, a, &r) : mn_expr_binary(e, cs[c].op, a, s, &r));
      mn_dtype rt = mn_expr_dtype(e, r);
      mn_expr_destroy(&e);
      T_CHECK(rt == cs[c].want, "%s: mn_expr_dtype %s, NumPy gives %s", cs[c].what, mn_dtype_name(rt),
              mn_dtype_name(cs[c].want));
      if (rt != cs[c].want) continue;
      mn_array *o = mt_new(ctx, rt, 1, sh, NULL);
      T_OK(mn_array_binary_scalar(cs[c].op, cs[c].x, cs[c].s, cs[c].first, o));
      const double *xv = xt == MN_FLOAT32 ? fv : xt == MN_INT32 ? iv : xt == MN_BOOL ? bv : dv;
      /* compute dtype: the result's, or for comparisons the promoted one */
      mn_dtype ct = cs[c].op == MN_OP_LT ? MN_FLOAT64 : rt;
      double sv = mn_scalar_as_f64(cs[c].s);
      for (int i = 0; i < 37; i++) w[i] = cs[c].first ? ref_bin(cs[c].op, ct, sv, xv[i]) : ref_bin(cs[c].op, ct, xv[i], sv);
      check_vals(cs[c].what, o, rt, w, rt == MN_FLOAT32 ? 1e-6 : 1e-15);
      mn_array_destroy(&o);
    }
    free(fv); free(iv); free(dv); free(bv);
    mn_array_destroy(&xf); mn_array_destroy(&xi); mn_array_destroy(&xd); mn_array_destroy(&xb);
  }

  /* ================= unary ================= */
  {
    mn_unary_op fl[] = {MN_OP_NEG, MN_OP_ABS, MN_OP_SQRT, MN_OP_EXP, MN_OP_LOG, MN_OP_SIN, MN_OP_FLOOR, MN_OP_SIGN};
    for (size_t k = 0; k < sizeof fl / sizeof fl[0]; k++) {
      double tol = (fl[k] == MN_OP_EXP || fl[k] == MN_OP_LOG || fl[k] == MN_OP_SIN) ? 1e-14 : 1e-15;
      t_un(ctx, fl[k], MN_FLOAT64, MN_FLOAT64, fun, tol);
      t_un(ctx, fl[k], MN_FLOAT32, MN_FLOAT32, fun, tol);
    }
    static const un_case un_cases[] = {
      {MN_OP_SQRT, MN_FLOAT64, MN_FLOAT64, fpos, 1e-15},
      {MN_OP_LOG, MN_FLOAT64, MN_FLOAT64, fpos, 1e-14},
      {MN_OP_ISNAN, MN_FLOAT64, MN_BOOL, fun, 0},
      {MN_OP_ISNAN, MN_FLOAT32, MN_BOOL, fun, 0},
      {MN_OP_ISNAN, MN_INT32, MN_BOOL, fa_i, 0},
      {MN_OP_LOGICAL_NOT, MN_FLOAT64, MN_BOOL, fun, 0}, /* NaN is true */
      {MN_OP_LOGICAL_NOT, MN_INT32, MN_BOOL, fa_i, 0},
      {MN_OP_LOGICAL_NOT, MN_BOOL, MN_BOOL, fbool1, 0},
      {MN_OP_NEG, MN_INT32, MN_INT32, fa_i, 0},
      {MN_OP_NEG, MN_INT64, MN_INT64, fa_i, 0},
      {MN_OP_ABS, MN_INT32, MN_INT32, fa_i, 0},
      {MN_OP_SIGN, MN_INT64, MN_INT64, fa_i, 0},
      {MN_OP_SQRT, MN_INT32, MN_FLOAT64, pexp_i, 1e-15},
      {MN_OP_EXP, MN_INT32, MN_FLOAT64, fa_i, 1e-14},
      {MN_OP_SIN, MN_INT64, MN_FLOAT64, fa_i, 1e-14},
      {MN_OP_NEG, MN_BOOL, MN_NDTYPE, fbool1, 0}, /* TypeError in NumPy */
    };
    T_UNS(ctx, un_cases);
    /* -0.0: absolute clears the sign; floor keeps it */
    int64_t sh[1] = {3};
    static const double z[3] = {0.0, -0.0, -0.25};
    mn_array *x = mt_new(ctx, MN_FLOAT64, 1, sh, NULL), *o = mt_new(ctx, MN_FLOAT64, 1, sh, NULL);
    T_OK(mn_array_scatter(x, 0, z));
    T_OK(mn_array_unary(MN_OP_ABS, x, o));
    double *g = mt_all(o);
    for (int i = 0; i < 3; i++) T_CHECK(!signbit(g[i]), "absolute(%g) = %g has the sign bit set", z[i], g[i]);
    free(g);
    T_OK(mn_array_unary(MN_OP_FLOOR, x, o));
    g = mt_all(o);
    T_CHECK(!signbit(g[0]) && signbit(g[1]) && g[2] == -1.0, "floor of (0, -0, -0.25) = (%g, %g, %g)", g[0], g[1], g[2]);
    free(g);
    mn_array_destroy(&x);
    mn_array_destroy(&o);
  }

  /* ================= more ufuncs: NumPy's fmod, gcd, ldexp, logaddexp, ... ================= */
  for (int t = 0; t < 2; t++) {
    mn_dtype d = t ? MN_FLOAT32 : MN_FLOAT64;
    const bin_case floats[] = {
      {MN_OP_FMOD, d, d, d, fa_f, fb_f, 0},
      {MN_OP_LOGADDEXP, d, d, d, fa_nan, fb_nan, 1e-14},
      {MN_OP_LOGADDEXP2, d, d, d, fa_f, fb_f, 1e-14},
      {MN_OP_HEAVISIDE, d, d, d, fa_i, fb_f, 0}, /* fa_i has zeros: h0 */
      {MN_OP_NEXTAFTER, d, d, d, fa_f, fb_f, 0},
      {MN_OP_FLOAT_POWER, d, d, MN_FLOAT64, pbase_f, pexp_f, 1e-15},
      {MN_OP_LDEXP, d, MN_INT32, d, fa_f, fexp_big, 0},
      {MN_OP_LDEXP, d, MN_INT64, d, fa_f, fexp_big, 0},
      {MN_OP_LDEXP, d, MN_FLOAT64, MN_NDTYPE, fa_f, fb_f, 0}, /* a float exponent: TypeError */
    };
    T_BINS(ctx, floats);
  }
  static const bin_case bin_more[] = {
    {MN_OP_FMOD, MN_INT32, MN_INT32, MN_INT32, fa_i, fb_i, 0},
    {MN_OP_FMOD, MN_INT64, MN_INT32, MN_INT64, fa_i, fb_i, 0},
    {MN_OP_FMOD, MN_INT32, MN_FLOAT32, MN_FLOAT64, fa_i, fb_f, 0},
    {MN_OP_FMOD, MN_BOOL, MN_BOOL, MN_INT8, fbool1, fbool2, 0}, /* int8, as NumPy */
    {MN_OP_GCD, MN_INT32, MN_INT32, MN_INT32, fbits1, fbits2, 0},
    {MN_OP_GCD, MN_INT64, MN_INT32, MN_INT64, fbits1, fbits2, 0},
    {MN_OP_LCM, MN_INT32, MN_INT32, MN_INT32, fbits1, fbits2, 0},
    {MN_OP_LCM, MN_INT32, MN_INT64, MN_INT64, fa_i, fb_i, 0},
    {MN_OP_GCD, MN_BOOL, MN_INT32, MN_INT32, fbool1, fb_i, 0},
    {MN_OP_GCD, MN_FLOAT64, MN_INT32, MN_NDTYPE, fa_f, fb_i, 0}, /* TypeError in NumPy */
    {MN_OP_LCM, MN_BOOL, MN_BOOL, MN_NDTYPE, fbool1, fbool2, 0},
    {MN_OP_LOGADDEXP, MN_INT32, MN_INT64, MN_FLOAT64, fa_i, fb_i, 1e-14},
    {MN_OP_HEAVISIDE, MN_BOOL, MN_FLOAT32, MN_FLOAT32, fbool1, fb_f, 0},
    {MN_OP_FLOAT_POWER, MN_INT32, MN_INT32, MN_FLOAT64, fa_i, pexp_i, 1e-15},
  };
  T_BINS(ctx, bin_more);
  {
    /* integer corner cases: by zero, MIN % -1, |MIN|, lcm overflow (NumPy's values) */
    int64_t sh[1] = {6};
    static const int32_t a32[6] = {7, -7, INT32_MIN, INT32_MIN, INT32_MAX, 12};
    static const int32_t b32[6] = {0, 3, -1, 0, INT32_MAX - 1, -18};
    static const int64_t a64[6] = {7, -7, INT64_MIN, INT64_MIN, INT64_MAX, 12};
    static const int64_t b64[6] = {0, 3, -1, 0, INT64_MAX - 1, -18};
    static const double fmod_w[6] = {0, -1, 0, 0, 1, 12};
    static const double gcd32[6] = {7, 1, 1, (double)INT32_MIN, 1, 6}, lcm32[6] = {0, 21, (double)INT32_MIN, 0,
                                                                              -2147483646.0, 36};
    static const double gcd64[6] = {7, 1, 1, (double)INT64_MIN, 1, 6};
    for (int t = 0; t < 2; t++) {
      mn_dtype d = t ? MN_INT64 : MN_INT32;
      mn_array *x = mt_new(ctx, d, 1, sh, NULL), *y = mt_new(ctx, d, 1, sh, NULL), *o = mt_new(ctx, d, 1, sh, NULL);
      T_OK(mn_array_set_global(x, t ? (const void *)a64 : (const void *)a32));
      T_OK(mn_array_set_global(y, t ? (const void *)b64 : (const void *)b32));
      T_OK(mn_array_binary(MN_OP_FMOD, x, y, o));
      check_vals(t ? "fmod int64 corners" : "fmod int32 corners", o, d, fmod_w, 0);
      T_OK(mn_array_binary(MN_OP_GCD, x, y, o));
      check_vals(t ? "gcd int64 corners" : "gcd int32 corners", o, d, t ? gcd64 : gcd32, 0);
      if (!t) {
        T_OK(mn_array_binary(MN_OP_LCM, x, y, o));
        check_vals("lcm int32 corners (wraps)", o, d, lcm32, 0);
      }
      mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&o);
    }
  }
  {
    mn_unary_op nf[] = {MN_OP_FABS, MN_OP_CBRT, MN_OP_EXP2, MN_OP_ARCSINH, MN_OP_DEG2RAD, MN_OP_SPACING,
                        MN_OP_I0};
    for (size_t k = 0; k < sizeof nf / sizeof nf[0]; k++) {
      double tol = (nf[k] == MN_OP_FABS || nf[k] == MN_OP_SPACING) ? 0 : 1e-14;
      t_un(ctx, nf[k], MN_FLOAT64, MN_FLOAT64, fun, tol);
      if (nf[k] != MN_OP_I0) t_un(ctx, nf[k], MN_FLOAT32, MN_FLOAT32, fun, tol);
    }
    static const un_case un_more[] = {
      {MN_OP_I0, MN_FLOAT64, MN_FLOAT64, fidx2, 1e-14},
      {MN_OP_I0, MN_INT32, MN_FLOAT64, fa_i, 1e-14},
      {MN_OP_FABS, MN_INT32, MN_FLOAT64, fa_i, 0},
      {MN_OP_CBRT, MN_BOOL, MN_FLOAT16, fbool1, 0}, /* float16, as NumPy */
      {MN_OP_SIGNBIT, MN_FLOAT64, MN_BOOL, fun, 0}, /* -0.0 is negative */
      {MN_OP_SIGNBIT, MN_FLOAT32, MN_BOOL, fun, 0},
      {MN_OP_SIGNBIT, MN_INT64, MN_BOOL, fa_i, 0},
      {MN_OP_FREXP_EXP, MN_FLOAT64, MN_INT32, fun, 0},
      {MN_OP_FREXP_EXP, MN_FLOAT32, MN_INT32, fbig32, 0},
      {MN_OP_FLOOR, MN_INT32, MN_INT32, fa_i, 0}, /* NumPy 2 keeps integer dtypes */
      {MN_OP_TRUNC, MN_INT64, MN_INT64, fa_i, 0},
      {MN_OP_CEIL, MN_BOOL, MN_BOOL, fbool1, 0},
    };
    T_UNS(ctx, un_more);
  }

  /* ================= where ================= */
  {
    int64_t sh[2] = {7, 11};
    mn_array *c = mt_new(ctx, MN_BOOL, 2, sh, fbool1), *x = mt_new(ctx, MN_FLOAT64, 2, sh, fa_f),
             *y = mt_new(ctx, MN_INT32, 2, sh, fb_i), *cf = mt_new(ctx, MN_FLOAT64, 2, sh, fa_nan);
    mn_array *o = mt_new(ctx, MN_FLOAT64, 2, sh, NULL), *o2 = mt_new(ctx, MN_FLOAT64, 2, sh, NULL);
    T_OK(mn_array_where(c, x, y, o));
    T_OK(mn_array_where(cf, x, y, o2)); /* non-bool condition: nonzero (and NaN) is true */
    double *cv = mt_all(c), *xv = mt_all(x), *yv = mt_all(y), *cfv = mt_all(cf), w[77], w2[77];
    for (int i = 0; i < 77; i++) { w[i] = cv[i] != 0 ? xv[i] : yv[i]; w2[i] = cfv[i] != 0 ? xv[i] : yv[i]; }
    check_vals("where(bool, float64, int32)", o, MN_FLOAT64, w, 0);
    check_vals("where(float64, float64, int32)", o2, MN_FLOAT64, w2, 0);
    /* the condition broadcasts: a (11,) row condition over (7, 11) */
    int64_t s11[1] = {11};
    mn_array *crow = mt_new(ctx, MN_BOOL, 1, s11, fbool2);
    T_OK(mn_array_where(crow, x, y, o));
    double *crv = mt_all(crow);
    for (int i = 0; i < 77; i++) w[i] = crv[i % 11] != 0 ? xv[i] : yv[i];
    check_vals("where((11,) bool, (7,11), (7,11))", o, MN_FLOAT64, w, 0);
    free(cv); free(xv); free(yv); free(cfv); free(crv);
    mn_array_destroy(&c); mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&cf);
    mn_array_destroy(&o); mn_array_destroy(&o2); mn_array_destroy(&crow);
  }

  /* ================= where with weak scalars (NEP 50) ================= */
  {
    int64_t sh[1] = {37};
    mn_array *c = mt_new(ctx, MN_BOOL, 1, sh, fbool2), *xf = mt_new(ctx, MN_FLOAT32, 1, sh, fa_f), *xi = mt_new(ctx, MN_INT32, 1, sh, fb_i);
    double *cv = mt_all(c), *fv = mt_all(xf), *iv = mt_all(xi), w[37];
    for (int t = 0; t < 2; t++) {
      /* where(c, float32, 0.5) -> float32; where(c, int32, 0.5) -> float64 */
      mn_array *x = t ? xi : xf;
      mn_dtype want = t ? MN_FLOAT64 : MN_FLOAT32;
      mn_expr *e = NULL;
      int nc, nx, ns, r;
      T_OK(mn_expr_create(ctx, &e));
      T_OK(mn_expr_input(e, c, &nc));
      T_OK(mn_expr_input(e, x, &nx));
      T_OK(mn_expr_scalar(e, mn_scalar_f64(0.5), &ns));
      T_OK(mn_expr_ternary(e, MN_OP_WHERE, nc, nx, ns, &r));
      mn_dtype rt = mn_expr_dtype(e, r);
      T_CHECK(rt == want, "where(bool, %s, 0.5): dtype %s, NumPy gives %s", t ? "int32" : "float32", mn_dtype_name(rt),
              mn_dtype_name(want));
      if (rt == want) {
        mn_array *o = mt_new(ctx, rt, 1, sh, NULL);
        T_OK(mn_expr_eval(e, r, o));
        for (int i = 0; i < 37; i++) w[i] = cv[i] != 0 ? (t ? iv[i] : fv[i]) : 0.5;
        check_vals(t ? "where(bool, int32, 0.5)" : "where(bool, float32, 0.5)", o, rt, w, 0);
        mn_array_destroy(&o);
      }
      mn_expr_destroy(&e);
    }
    free(cv); free(fv); free(iv);
    mn_array_destroy(&c); mn_array_destroy(&xf); mn_array_destroy(&xi);
  }

  /* ================= integer overflow wraps (as NumPy) ================= */
  {
    int64_t sh[1] = {37};
    mn_array *x = mt_new(ctx, MN_INT32, 1, sh, fbig32), *o = mt_new(ctx, MN_INT32, 1, sh, NULL);
    T_OK(mn_array_binary(MN_OP_ADD, x, x, o));
    double *xv = mt_all(x), w[37];
    for (int i = 0; i < 37; i++) w[i] = (double)(int32_t)(uint32_t)((uint32_t)(int32_t)xv[i] * 2u);
    check_vals("int32 add wraps", o, MN_INT32, w, 0);
    T_OK(mn_array_binary_scalar(MN_OP_MUL, x, mn_scalar_i64(3), 0, o));
    for (int i = 0; i < 37; i++) w[i] = (double)(int32_t)(uint32_t)((uint32_t)(int32_t)xv[i] * 3u);
    check_vals("int32 * 3 wraps", o, MN_INT32, w, 0);
    free(xv);
    mn_array_destroy(&x); mn_array_destroy(&o);
  }

  /* ================= axpby ================= */
  {
    int64_t sh[1] = {101};
    mn_array *x = mt_new(ctx, MN_FLOAT64, 1, sh, fidx), *y = mt_new(ctx, MN_FLOAT64, 1, sh, fidx2), *o = mt_new(ctx, MN_FLOAT64, 1, sh, NULL);
    double *xv = mt_all(x), *yv = mt_all(y), w[101];
    double ab[4][2] = {{2.5, -1.5}, {1.0, 0.3}, {0.7, 1.0}, {1.0, 1.0}};
    for (int t = 0; t < 4; t++) {
      T_OK(mn_array_axpby(ab[t][0], x, ab[t][1], y, o));
      for (int i = 0; i < 101; i++) w[i] = ab[t][0] * xv[i] + ab[t][1] * yv[i];
      char what[64];
      snprintf(what, sizeof what, "axpby(%g, x, %g, y) float64", ab[t][0], ab[t][1]);
      check_vals(what, o, MN_FLOAT64, w, 1e-15);
    }
    /* float32 stays float32 (weak coefficients) */
    mn_array *xf = mt_new(ctx, MN_FLOAT32, 1, sh, fidx), *yf = mt_new(ctx, MN_FLOAT32, 1, sh, fidx2), *of = mt_new(ctx, MN_FLOAT32, 1, sh, NULL);
    T_OK(mn_array_axpby(2.5, xf, -1.5, yf, of));
    double *xfv = mt_all(xf), *yfv = mt_all(yf);
    for (int i = 0; i < 101; i++) w[i] = (float)(2.5f * (float)xfv[i]) + (float)(-1.5f * (float)yfv[i]);
    check_vals("axpby float32", of, MN_FLOAT32, w, 1e-6);
    /* in place: y = 2*x + 0.5*y */
    T_OK(mn_array_axpby(2.0, x, 0.5, y, y));
    for (int i = 0; i < 101; i++) w[i] = 2.0 * xv[i] + 0.5 * yv[i];
    check_vals("axpby in place", y, MN_FLOAT64, w, 1e-15);
    free(xv); free(yv); free(xfv); free(yfv);
    mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&o);
    mn_array_destroy(&xf); mn_array_destroy(&yf); mn_array_destroy(&of);
  }

  /* ================= fused expression ================= */
  {
    /* out = sqrt(a*a + b*b) - 0.5*c on 2-d and on a long 1-d array (several
     * blocks per rank, threads at one rank) */
    int64_t s2[2] = {11, 13}, s1[1] = {70001};
    for (int t = 0; t < 2; t++) {
      int nd = t ? 1 : 2;
      const int64_t *sh = t ? s1 : s2;
      mn_array *a = mt_new(ctx, MN_FLOAT64, nd, sh, fidx), *b = mt_new(ctx, MN_FLOAT64, nd, sh, fidx2),
               *c = mt_new(ctx, MN_FLOAT64, nd, sh, fidx3), *o = mt_new(ctx, MN_FLOAT64, nd, sh, NULL);
      mn_expr *e = NULL;
      int na, nb, nc, aa, bb, s, q, h, hc, r;
      T_OK(mn_expr_create(ctx, &e));
      T_OK(mn_expr_input(e, a, &na));
      T_OK(mn_expr_input(e, b, &nb));
      T_OK(mn_expr_input(e, c, &nc));
      T_OK(mn_expr_binary(e, MN_OP_MUL, na, na, &aa));
      T_OK(mn_expr_binary(e, MN_OP_MUL, nb, nb, &bb));
      T_OK(mn_expr_binary(e, MN_OP_ADD, aa, bb, &s));
      T_OK(mn_expr_unary(e, MN_OP_SQRT, s, &q));
      T_OK(mn_expr_scalar(e, mn_scalar_f64(0.5), &h));
      T_OK(mn_expr_binary(e, MN_OP_MUL, h, nc, &hc));
      T_OK(mn_expr_binary(e, MN_OP_SUB, q, hc, &r));
      T_CHECK(mn_expr_dtype(e, r) == MN_FLOAT64, "fused dtype %s", mn_dtype_name(mn_expr_dtype(e, r)));
      T_OK(mn_expr_eval(e, r, o));
      /* the same node into an int32 output truncates toward zero */
      mn_array *oi = mt_new(ctx, MN_INT32, nd, sh, NULL);
      T_OK(mn_expr_eval(e, r, oi));
      mn_expr_destroy(&e);
      int64_t n = mn_array_size(a);
      double *av = mt_all(a), *bv = mt_all(b), *cv = mt_all(c), *w = malloc(sizeof(double) * (size_t)n),
             *wi = malloc(sizeof(double) * (size_t)n);
      for (int64_t i = 0; i < n; i++) {
        w[i] = sqrt(av[i] * av[i] + bv[i] * bv[i]) - 0.5 * cv[i];
        wi[i] = (double)(int32_t)w[i];
      }
      check_vals(t ? "fused sqrt(a*a+b*b)-0.5*c (70001,)" : "fused sqrt(a*a+b*b)-0.5*c (11,13)", o, MN_FLOAT64, w, 1e-15);
      check_vals("fused into int32", oi, MN_INT32, wi, 0);
      free(av); free(bv); free(cv); free(w); free(wi);
      mn_array_destroy(&a); mn_array_destroy(&b); mn_array_destroy(&c); mn_array_destroy(&o); mn_array_destroy(&oi);
    }
  }

  /* ================= views across rank boundaries ================= */
  {
    enum { N = 101 };
    int64_t sh[1] = {N};
    mn_array *b = mt_new(ctx, MN_FLOAT64, 1, sh, fidx2), *a = mt_new(ctx, MN_FLOAT64, 1, sh, fidx3), *o = mt_new(ctx, MN_FLOAT64, 1, sh, NULL);
    T_OK(mn_array_fill(o, mn_scalar_f64(-7.0)));
    double *bv = mt_all(b), *av = mt_all(a), w[N];
    /* out[1:-1] = b[0:-2] + b[2:] */
    mn_array *ol = NULL, *b0 = NULL, *b2 = NULL;
    mn_index il[] = {mn_slice(1, -1, 1)}, i0[] = {mn_slice(0, -2, 1)}, i2[] = {mn_slice(2, MN_NONE, 1)};
    T_OK(mn_array_index(o, 1, il, &ol));
    T_OK(mn_array_index(b, 1, i0, &b0));
    T_OK(mn_array_index(b, 1, i2, &b2));
    T_OK(mn_array_binary(MN_OP_ADD, b0, b2, ol));
    for (int i = 0; i < N; i++) w[i] = (i == 0 || i == N - 1) ? -7.0 : bv[i - 1] + bv[i + 1];
    check_vals("out[1:-1] = b[0:-2] + b[2:]", o, MN_FLOAT64, w, 0);
    /* b[::-1] + a */
    mn_array *br = NULL;
    mn_index ir[] = {mn_slice(MN_NONE, MN_NONE, -1)};
    T_OK(mn_array_index(b, 1, ir, &br));
    T_OK(mn_array_binary(MN_OP_ADD, br, a, o));
    for (int i = 0; i < N; i++) w[i] = bv[N - 1 - i] + av[i];
    check_vals("b[::-1] + a", o, MN_FLOAT64, w, 0);
    /* a reversed output view: o[::-1] = b + a */
    mn_array *orv = NULL;
    T_OK(mn_array_index(o, 1, ir, &orv));
    T_OK(mn_array_binary(MN_OP_ADD, b, a, orv));
    for (int i = 0; i < N; i++) w[i] = bv[N - 1 - i] + av[N - 1 - i];
    check_vals("out[::-1] = b + a", o, MN_FLOAT64, w, 0);
    mn_array_destroy(&orv);
    /* b[-2::-4] * a[3:28] - both strided/offset, 25 elements */
    mn_array *bs = NULL, *as = NULL, *o25 = NULL;
    mn_index is[] = {mn_slice(-2, MN_NONE, -4)}, ia_[] = {mn_slice(3, 28, 1)};
    T_OK(mn_array_index(b, 1, is, &bs));
    T_OK(mn_array_index(a, 1, ia_, &as));
    T_CHECK(mn_array_size(bs) == 25, "b[-2::-4] has %lld elements, expected 25", (long long)mn_array_size(bs));
    int64_t s25[1] = {25};
    o25 = mt_new(ctx, MN_FLOAT64, 1, s25, NULL);
    T_OK(mn_array_binary(MN_OP_MUL, bs, as, o25));
    for (int i = 0; i < 25; i++) w[i] = bv[99 - 4 * i] * av[3 + i];
    check_vals("b[-2::-4] * a[3:28]", o25, MN_FLOAT64, w, 1e-15);
    /* a strided int32 output view: oi[::2] = b[:51] * 1.5 (float64 cast
     * into int32 truncates toward zero); odd entries stay 0 */
    mn_array *oi = mt_new(ctx, MN_INT32, 1, sh, NULL), *oe = NULL, *bh = NULL;
    mn_index ie[] = {mn_slice(MN_NONE, MN_NONE, 2)}, ih[] = {mn_slice(MN_NONE, 51, 1)};
    T_OK(mn_array_index(oi, 1, ie, &oe));
    T_OK(mn_array_index(b, 1, ih, &bh));
    T_OK(mn_array_binary_scalar(MN_OP_MUL, bh, mn_scalar_f64(1.5), 0, oe));
    for (int i = 0; i < N; i++) w[i] = i % 2 ? 0.0 : (double)(int32_t)(bv[i / 2] * 1.5);
    check_vals("int32 out[::2] = b[:51] * 1.5", oi, MN_INT32, w, 0);
    /* an input on a root layout (all on the last rank) plus a block array */
    mn_layout *rl = NULL;
    mn_array *rt = NULL;
    T_OK(mn_layout_create_root(ctx, 1, sh, P - 1, &rl));
    T_OK(mn_array_create_on(rl, MN_FLOAT64, 0, &rt));
    mn_layout_destroy(&rl);
    mt_set(rt, fidx);
    T_OK(mn_array_binary(MN_OP_SUB, rt, b, o));
    for (int i = 0; i < N; i++) w[i] = fidx(i) - bv[i];
    check_vals("root-layout - block", o, MN_FLOAT64, w, 0);
    /* output aliasing its input through another view: c[1:] = c[:-1] * 2 + c[1:] */
    mn_array *c = mt_new(ctx, MN_FLOAT64, 1, sh, fidx3), *c1 = NULL, *c0 = NULL;
    mn_index i1[] = {mn_slice(1, MN_NONE, 1)}, im[] = {mn_slice(MN_NONE, -1, 1)};
    T_OK(mn_array_index(c, 1, i1, &c1));
    T_OK(mn_array_index(c, 1, im, &c0));
    mn_expr *e = NULL;
    int n0, n1, k2, m0, r;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, c0, &n0));
    T_OK(mn_expr_input(e, c1, &n1));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(2.0), &k2));
    T_OK(mn_expr_binary(e, MN_OP_MUL, n0, k2, &m0));
    T_OK(mn_expr_binary(e, MN_OP_ADD, m0, n1, &r));
    T_OK(mn_expr_eval(e, r, c1));
    mn_expr_destroy(&e);
    for (int i = 0; i < N; i++) w[i] = i == 0 ? fidx3(0) : fidx3(i - 1) * 2.0 + fidx3(i);
    check_vals("c[1:] = c[:-1]*2 + c[1:] (aliased)", c, MN_FLOAT64, w, 1e-15);
    free(bv); free(av);
    mn_array_destroy(&ol); mn_array_destroy(&b0); mn_array_destroy(&b2); mn_array_destroy(&br);
    mn_array_destroy(&bs); mn_array_destroy(&as); mn_array_destroy(&o25); mn_array_destroy(&oe);
    mn_array_destroy(&bh); mn_array_destroy(&oi); mn_array_destroy(&rt); mn_array_destroy(&c1);
    mn_array_destroy(&c0); mn_array_destroy(&c);
    mn_array_destroy(&b); mn_array_destroy(&a); mn_array_destroy(&o);
  }

  /* ================= 2-d views: 5-point stencil and a transpose ================= */
  {
    enum { R = 13, C = 9 };
    int64_t sh[2] = {R, C};
    mn_array *b = mt_new(ctx, MN_FLOAT64, 2, sh, fidx2), *o = mt_new(ctx, MN_FLOAT64, 2, sh, NULL);
    T_OK(mn_array_fill(o, mn_scalar_f64(-7.0)));
    mn_index ic[] = {mn_slice(1, -1, 1), mn_slice(1, -1, 1)}, in_[] = {mn_slice(MN_NONE, -2, 1), mn_slice(1, -1, 1)},
             is[] = {mn_slice(2, MN_NONE, 1), mn_slice(1, -1, 1)}, iw[] = {mn_slice(1, -1, 1), mn_slice(MN_NONE, -2, 1)},
             ie[] = {mn_slice(1, -1, 1), mn_slice(2, MN_NONE, 1)};
    mn_array *oc = NULL, *vn = NULL, *vs = NULL, *vw = NULL, *ve = NULL;
    T_OK(mn_array_index(o, 2, ic, &oc));
    T_OK(mn_array_index(b, 2, in_, &vn));
    T_OK(mn_array_index(b, 2, is, &vs));
    T_OK(mn_array_index(b, 2, iw, &vw));
    T_OK(mn_array_index(b, 2, ie, &ve));
    mn_expr *e = NULL;
    int nn, ns, nw, ne, s1, s2, s3;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, vn, &nn));
    T_OK(mn_expr_input(e, vs, &ns));
    T_OK(mn_expr_input(e, vw, &nw));
    T_OK(mn_expr_input(e, ve, &ne));
    T_OK(mn_expr_binary(e, MN_OP_ADD, nn, ns, &s1));
    T_OK(mn_expr_binary(e, MN_OP_ADD, s1, nw, &s2));
    T_OK(mn_expr_binary(e, MN_OP_ADD, s2, ne, &s3));
    T_OK(mn_expr_eval(e, s3, oc));
    mn_expr_destroy(&e);
    double *bv = mt_all(b), w[R * C];
    for (int i = 0; i < R; i++)
      for (int j = 0; j < C; j++)
        w[i * C + j] = (i == 0 || j == 0 || i == R - 1 || j == C - 1)
                           ? -7.0
                           : bv[(i - 1) * C + j] + bv[(i + 1) * C + j] + bv[i * C + j - 1] + bv[i * C + j + 1];
    check_vals("5-point stencil as views (13x9)", o, MN_FLOAT64, w, 1e-15);
    /* the same with one-shot binaries into the interior view: out = n + s */
    T_OK(mn_array_binary(MN_OP_ADD, vn, vs, oc));
    for (int i = 1; i < R - 1; i++)
      for (int j = 1; j < C - 1; j++) w[i * C + j] = bv[(i - 1) * C + j] + bv[(i + 1) * C + j];
    check_vals("out[1:-1,1:-1] = b[:-2,1:-1] + b[2:,1:-1]", o, MN_FLOAT64, w, 0);
    /* transposed input added to a normal (9, 13) array */
    int64_t st[2] = {C, R};
    mn_array *bt = NULL, *c = mt_new(ctx, MN_FLOAT64, 2, st, fidx3), *ot = mt_new(ctx, MN_FLOAT64, 2, st, NULL);
    T_OK(mn_array_transpose(b, NULL, &bt));
    T_OK(mn_array_binary(MN_OP_ADD, c, bt, ot));
    double *cv = mt_all(c);
    for (int i = 0; i < C; i++)
      for (int j = 0; j < R; j++) w[i * R + j] = cv[i * R + j] + bv[j * C + i];
    check_vals("c + b.T", ot, MN_FLOAT64, w, 0);
    /* transposed and reversed: b.T[::-1, 1:] - c[:, :-1] into a (9, 12) array */
    mn_array *btr = NULL, *cl = NULL, *o12 = NULL;
    mn_index itr[] = {mn_slice(MN_NONE, MN_NONE, -1), mn_slice(1, MN_NONE, 1)}, icl[] = {mn_all(), mn_slice(MN_NONE, -1, 1)};
    T_OK(mn_array_index(bt, 2, itr, &btr));
    T_OK(mn_array_index(c, 2, icl, &cl));
    int64_t s12[2] = {C, R - 1};
    o12 = mt_new(ctx, MN_FLOAT64, 2, s12, NULL);
    T_OK(mn_array_binary(MN_OP_SUB, btr, cl, o12));
    for (int i = 0; i < C; i++)
      for (int j = 0; j < R - 1; j++) w[i * (R - 1) + j] = bv[(j + 1) * C + (C - 1 - i)] - cv[i * R + j];
    check_vals("b.T[::-1, 1:] - c[:, :-1]", o12, MN_FLOAT64, w, 0);
    free(bv); free(cv);
    mn_array_destroy(&oc); mn_array_destroy(&vn); mn_array_destroy(&vs); mn_array_destroy(&vw); mn_array_destroy(&ve);
    mn_array_destroy(&bt); mn_array_destroy(&btr); mn_array_destroy(&cl); mn_array_destroy(&o12);
    mn_array_destroy(&c); mn_array_destroy(&ot); mn_array_destroy(&b); mn_array_destroy(&o);
  }

  /* ================= casting on output ================= */
  {
    int64_t sh[1] = {53};
    mn_array *x = mt_new(ctx, MN_FLOAT64, 1, sh, fun), *y = mt_new(ctx, MN_FLOAT64, 1, sh, fidx);
    /* float64 sum into int32 truncates toward zero (finite inputs only) */
    mn_array *oi = mt_new(ctx, MN_INT32, 1, sh, NULL), *ob = mt_new(ctx, MN_BOOL, 1, sh, NULL), *of = mt_new(ctx, MN_FLOAT32, 1, sh, NULL);
    T_OK(mn_array_binary_scalar(MN_OP_MUL, y, mn_scalar_f64(1.7), 0, oi));
    double *xv = mt_all(x), *yv = mt_all(y), w[53];
    for (int i = 0; i < 53; i++) w[i] = (double)(int32_t)(yv[i] * 1.7);
    check_vals("float64 * 1.7 into int32", oi, MN_INT32, w, 0);
    T_OK(mn_array_binary(MN_OP_SUB, y, y, ob)); /* zeros -> false */
    for (int i = 0; i < 53; i++) w[i] = 0;
    check_vals("float64 - itself into bool", ob, MN_BOOL, w, 0);
    T_OK(mn_array_unary(MN_OP_NEG, x, ob)); /* nonzero and NaN -> true */
    for (int i = 0; i < 53; i++) w[i] = -xv[i] != 0;
    check_vals("negative(float64) into bool", ob, MN_BOOL, w, 0);
    T_OK(mn_array_binary(MN_OP_ADD, x, y, of));
    for (int i = 0; i < 53; i++) w[i] = (float)(xv[i] + yv[i]);
    check_vals("float64 + float64 into float32", of, MN_FLOAT32, w, 0);
    T_OK(mn_array_unary(MN_OP_CAST, y, oi));
    for (int i = 0; i < 53; i++) w[i] = (double)(int32_t)yv[i];
    check_vals("cast float64 -> int32", oi, MN_INT32, w, 0);
    free(xv); free(yv);
    mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&oi); mn_array_destroy(&ob); mn_array_destroy(&of);
  }
  return mt_finish(&ctx);
}
