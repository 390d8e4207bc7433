/* complex64 and complex128 against C99's <complex.h> in serial loops here:
 * element-wise arithmetic and functions (fused and one op at a time),
 * casts to and from every real dtype, NumPy's promotion, sums and
 * products (whole and along each axis), element access, and the
 * operations that refuse complex with MN_ERR_DTYPE. */
#include "mn_test.h"
#include <complex.h>

enum { N0 = 7, N1 = 5, N = N0 * N1 };

/* parts with fractions, zeros and signs of both kinds; b has no zero */
static double complex va(int64_t k) { return ((double)((k * 37) % 23) - 11) * 0.375 + I * (((k * 11) % 9) - 4) * 0.5; }
static double complex vb(int64_t k) {
  double complex z = ((double)((k * 53) % 17) - 8) * 0.25 + I * (((k * 7) % 5) - 2) * 0.75;
  return z == 0 ? 1.5 - 0.5 * I : z;
}

static mn_array *make(mn_ctx *ctx, mn_dtype t, double complex (*f)(int64_t)) {
  int64_t sh[] = {N0, N1};
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, t, 2, sh, 0, &a));
  if (!a) return NULL;
  double raw[2 * N];
  float rawf[2 * N];
  for (int k = 0; k < N; k++) {
    raw[2 * k] = creal(f(k)), raw[2 * k + 1] = cimag(f(k));
    rawf[2 * k] = (float)raw[2 * k], rawf[2 * k + 1] = (float)raw[2 * k + 1];
  }
  T_OK(mn_array_scatter(a, 0, t == MN_COMPLEX64 ? (void *)rawf : (void *)raw));
  return a;
}

/* every element of a complex array, on every rank */
static void values(const mn_array *a, double complex *v) {
  int64_t n = mn_array_size(a);
  mn_dtype t = mn_array_dtype(a);
  char raw[16 * N];
  T_OK(mn_array_gather(a, 0, raw));
  MPI_Bcast(raw, (int)(n * (int64_t)mn_dtype_size(t)), MPI_BYTE, 0, mn_ctx_comm(mn_array_ctx(a)));
  for (int64_t k = 0; k < n; k++)
    v[k] = t == MN_COMPLEX64 ? ((float *)raw)[2 * k] + I * ((float *)raw)[2 * k + 1]
                             : ((double *)raw)[2 * k] + I * ((double *)raw)[2 * k + 1];
}

static int close_c(double complex g, double complex w, double tol) {
  if (isnan(creal(w)) || isnan(cimag(w))) return isnan(creal(g)) || isnan(cimag(g));
  if (creal(g) == creal(w) && cimag(g) == cimag(w)) return 1; /* infinite parts too (atanh(1)) */
  return cabs(g - w) <= tol * (1 + cabs(w));
}

/* the reference of a unary op on x, in double (the test's own loop) */
static double complex ref_unary(mn_unary_op op, double complex x) {
  switch (op) {
  case MN_OP_NEG: return -x;
  case MN_OP_CONJ: return conj(x);
  case MN_OP_SQUARE: return x * x;
  case MN_OP_SQRT: return csqrt(x);
  case MN_OP_EXP: return cexp(x);
  case MN_OP_LOG: return clog(x);
  case MN_OP_SIN: return csin(x);
  case MN_OP_COS: return ccos(x);
  case MN_OP_TAN: return ctan(x);
  case MN_OP_SINH: return csinh(x);
  case MN_OP_COSH: return ccosh(x);
  case MN_OP_TANH: return ctanh(x);
  case MN_OP_ARCSIN: return casin(x);
  case MN_OP_ARCCOS: return cacos(x);
  case MN_OP_ARCTAN: return catan(x);
  case MN_OP_ARCSINH: return casinh(x);
  case MN_OP_ARCCOSH: return cacosh(x);
  case MN_OP_ARCTANH: return catanh(x);
  case MN_OP_RECIPROCAL: return 1 / x;
  case MN_OP_SIGN: return cabs(x) == 0 ? 0 : x / cabs(x);
  default: return NAN;
  }
}

static void unary_ops(mn_ctx *ctx, mn_dtype t, double tol) {
  mn_unary_op ops[] = {MN_OP_NEG,  MN_OP_CONJ, MN_OP_SQUARE, MN_OP_SQRT, MN_OP_EXP,  MN_OP_LOG,        MN_OP_SIN,
                       MN_OP_COS,  MN_OP_TAN,  MN_OP_SINH,   MN_OP_COSH, MN_OP_TANH, MN_OP_RECIPROCAL, MN_OP_SIGN,
                       MN_OP_ARCSIN, MN_OP_ARCCOS, MN_OP_ARCTAN, MN_OP_ARCSINH, MN_OP_ARCCOSH, MN_OP_ARCTANH};
  mn_array *x = make(ctx, t, vb), *o = NULL;
  double complex xv[N], ov[N];
  values(x, xv);
  for (size_t q = 0; q < sizeof ops / sizeof ops[0]; q++) {
    T_OK(mn_array_create_like(x, t, &o));
    T_OK(mn_array_unary(ops[q], x, o));
    values(o, ov);
    for (int k = 0; k < N; k++)
      T_CHECK(close_c(ov[k], ref_unary(ops[q], xv[k]), tol), "%s %s(%g%+gi) = %g%+gi, expected %g%+gi",
              mn_dtype_name(t), mn_unary_name(ops[q]), creal(xv[k]), cimag(xv[k]), creal(ov[k]), cimag(ov[k]),
              creal(ref_unary(ops[q], xv[k])), cimag(ref_unary(ops[q], xv[k])));
    mn_array_destroy(&o);
  }
  /* to the parts' real dtype: abs, real, imag */
  mn_dtype rt = t == MN_COMPLEX64 ? MN_FLOAT32 : MN_FLOAT64;
  mn_unary_op parts[] = {MN_OP_ABS, MN_OP_REAL, MN_OP_IMAG};
  for (int q = 0; q < 3; q++) {
    T_CHECK(mn_unary_result(parts[q], t) == rt, "%s of %s is %s", mn_unary_name(parts[q]), mn_dtype_name(t),
            mn_dtype_name(mn_unary_result(parts[q], t)));
    T_OK(mn_array_create_like(x, rt, &o));
    T_OK(mn_array_unary(parts[q], x, o));
    double *r = mt_all(o);
    for (int k = 0; k < N; k++) {
      double w = q == 0 ? cabs(xv[k]) : q == 1 ? creal(xv[k]) : cimag(xv[k]);
      T_CHECK(fabs(r[k] - w) <= tol * (1 + fabs(w)), "%s %s[%d] = %g, expected %g", mn_dtype_name(t),
              mn_unary_name(parts[q]), k, r[k], w);
    }
    free(r);
    mn_array_destroy(&o);
  }
  mn_array_destroy(&x);
}

static void binary_ops(mn_ctx *ctx, mn_dtype t, double tol) {
  mn_binary_op ops[] = {MN_OP_ADD, MN_OP_SUB, MN_OP_MUL, MN_OP_DIV, MN_OP_POW};
  mn_array *a = make(ctx, t, va), *b = make(ctx, t, vb), *o = NULL;
  double complex av[N], bv[N], ov[N];
  values(a, av);
  values(b, bv);
  for (int q = 0; q < 5; q++) {
    T_OK(mn_array_create_like(a, t, &o));
    T_OK(mn_array_binary(ops[q], a, b, o));
    values(o, ov);
    for (int k = 0; k < N; k++) {
      double complex w = q == 0 ? av[k] + bv[k] : q == 1 ? av[k] - bv[k] : q == 2 ? av[k] * bv[k]
                         : q == 3 ? av[k] / bv[k] : av[k] == 0 ? (creal(bv[k]) > 0 && cimag(bv[k]) == 0 ? 0 : NAN)
                         : cpow(av[k], bv[k]);
      /* + - * are exact on these parts; / and ** round */
      T_CHECK(close_c(ov[k], w, q < 3 ? 0 : tol), "%s %s[%d] = %g%+gi, expected %g%+gi", mn_dtype_name(t),
              mn_binary_name(ops[q]), k, creal(ov[k]), cimag(ov[k]), creal(w), cimag(w));
    }
    mn_array_destroy(&o);
  }
  /* comparisons: equal and the lexicographic order NumPy uses */
  T_OK(mn_array_create_like(a, MN_BOOL, &o));
  T_OK(mn_array_binary(MN_OP_LT, a, b, o));
  double *lt = mt_all(o);
  for (int k = 0; k < N; k++) {
    int w = creal(av[k]) < creal(bv[k]) || (creal(av[k]) == creal(bv[k]) && cimag(av[k]) < cimag(bv[k]));
    T_CHECK(lt[k] == w, "%s less[%d] = %g", mn_dtype_name(t), k, lt[k]);
  }
  free(lt);
  /* a fused expression with a weak complex scalar: (a * (2 - 0.5i) + b) / b */
  mn_expr *e = NULL;
  int na, nb, ns, n1, n2, n3;
  T_OK(mn_expr_create(ctx, &e));
  T_OK(mn_expr_input(e, a, &na));
  T_OK(mn_expr_input(e, b, &nb));
  T_OK(mn_expr_scalar(e, mn_scalar_c128(2, -0.5), &ns));
  T_OK(mn_expr_binary(e, MN_OP_MUL, na, ns, &n1));
  T_OK(mn_expr_binary(e, MN_OP_ADD, n1, nb, &n2));
  T_OK(mn_expr_binary(e, MN_OP_DIV, n2, nb, &n3));
  T_CHECK(mn_expr_dtype(e, n3) == t, "weak complex scalar with %s gave %s", mn_dtype_name(t),
          mn_dtype_name(mn_expr_dtype(e, n3)));
  mn_array *f = NULL;
  T_OK(mn_array_create_like(a, t, &f));
  T_OK(mn_expr_eval(e, n3, f));
  values(f, ov);
  for (int k = 0; k < N; k++) {
    double complex w = (av[k] * (2 - 0.5 * I) + bv[k]) / bv[k];
    T_CHECK(close_c(ov[k], w, tol), "%s fused[%d] = %g%+gi, expected %g%+gi", mn_dtype_name(t), k, creal(ov[k]),
            cimag(ov[k]), creal(w), cimag(w));
  }
  mn_expr_destroy(&e);
  mn_array_destroy(&f);
  mn_array_destroy(&o);
  mn_array_destroy(&a);
  mn_array_destroy(&b);
}

static void reductions(mn_ctx *ctx, mn_dtype t, double tol) {
  mn_array *a = make(ctx, t, va), *o = NULL;
  double complex av[N], ov[N];
  values(a, av);
  mn_scalar s;
  double complex sum = 0;
  for (int k = 0; k < N; k++) sum += av[k];
  T_OK(mn_array_reduce(MN_RED_SUM, a, &s));
  T_CHECK(s.dtype == t && close_c(s.v.f + I * s.im, sum, tol), "%s sum = %g%+gi, expected %g%+gi", mn_dtype_name(t),
          s.v.f, s.im, creal(sum), cimag(sum));
  /* a product of a fused expression over a view (the first 6 elements / 4) */
  mn_array *row = NULL;
  mn_index ix[] = {mn_slice(0, 2, 1), mn_slice(0, 3, 1)};
  T_OK(mn_array_index(a, 2, ix, &row));
  mn_expr *e = NULL;
  int nr, n4, nq;
  T_OK(mn_expr_create(ctx, &e));
  T_OK(mn_expr_input(e, row, &nr));
  T_OK(mn_expr_scalar(e, mn_scalar_f64(4), &n4));
  T_OK(mn_expr_binary(e, MN_OP_DIV, nr, n4, &nq));
  T_OK(mn_expr_reduce(e, nq, MN_RED_PROD, &s));
  double complex p6 = 1;
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 3; j++) p6 *= av[i * N1 + j] / 4;
  T_CHECK(close_c(s.v.f + I * s.im, p6, tol), "%s prod = %g%+gi, expected %g%+gi", mn_dtype_name(t), s.v.f, s.im,
          creal(p6), cimag(p6));
  mn_expr_destroy(&e);
  mn_array_destroy(&row);
  /* along each axis */
  for (int ax = 0; ax < 2; ax++) {
    int64_t m = ax == 0 ? N1 : N0;
    T_OK(mn_array_create(ctx, t, 1, &m, 0, &o));
    T_OK(mn_array_reduce_axis(MN_RED_SUM, a, ax, o));
    values(o, ov);
    for (int64_t i = 0; i < m; i++) {
      double complex w = 0;
      for (int j = 0; j < (ax == 0 ? N0 : N1); j++) w += ax == 0 ? av[j * N1 + i] : av[i * N1 + j];
      T_CHECK(close_c(ov[i], w, tol), "%s sum axis %d [%lld] = %g%+gi, expected %g%+gi", mn_dtype_name(t), ax,
              (long long)i, creal(ov[i]), cimag(ov[i]), creal(w), cimag(w));
    }
    mn_array_destroy(&o);
  }
  /* any: 0 only where both parts are */
  T_OK(mn_array_reduce(MN_RED_ALL, a, &s));
  int all = 1;
  for (int k = 0; k < N; k++) all &= av[k] != 0;
  T_CHECK(s.dtype == MN_BOOL && s.v.i == all, "%s all = %lld, expected %d", mn_dtype_name(t), (long long)s.v.i, all);
  /* one element */
  int64_t at[] = {3, 2};
  T_OK(mn_array_get(a, at, &s));
  T_CHECK(s.dtype == t && s.v.f == creal(av[17]) && s.im == cimag(av[17]), "%s [3, 2] = %g%+gi", mn_dtype_name(t),
          s.v.f, s.im);
  /* max and argmin: NumPy's lexicographic order */
  int im = 0, iM = 0;
  for (int k = 1; k < N; k++) {
    if (creal(av[k]) < creal(av[im]) || (creal(av[k]) == creal(av[im]) && cimag(av[k]) < cimag(av[im]))) im = k;
    if (creal(av[k]) > creal(av[iM]) || (creal(av[k]) == creal(av[iM]) && cimag(av[k]) > cimag(av[iM]))) iM = k;
  }
  T_OK(mn_array_reduce(MN_RED_MAX, a, &s));
  T_CHECK(s.dtype == t && s.v.f + I * s.im == av[iM], "%s max = %g%+gi, expected %g%+gi", mn_dtype_name(t), s.v.f,
          s.im, creal(av[iM]), cimag(av[iM]));
  T_OK(mn_array_reduce(MN_RED_ARGMIN, a, &s));
  T_CHECK(s.v.i == im, "%s argmin = %lld, expected %d", mn_dtype_name(t), (long long)s.v.i, im);
  /* cumsum along axis 0: the lines cross the ranks (the Exscan of complex totals) */
  T_OK(mn_array_create_like(a, t, &o));
  T_OK(mn_array_scan(MN_RED_SUM, a, 0, o));
  values(o, ov);
  for (int j = 0; j < N1; j++) {
    double complex w = 0;
    for (int i = 0; i < N0; i++) {
      w += av[i * N1 + j];
      T_CHECK(close_c(ov[i * N1 + j], w, tol), "%s cumsum [%d, %d] = %g%+gi, expected %g%+gi", mn_dtype_name(t), i,
              j, creal(ov[i * N1 + j]), cimag(ov[i * N1 + j]), creal(w), cimag(w));
    }
  }
  /* refused: sorting has one 64-bit key per element */
  mn_array *sorted = NULL, *perm = NULL;
  T_EXPECT(mn_array_sort(a, 0, &sorted, &perm), MN_ERR_DTYPE, "sort of complex", mn_dtype_name(t));
  values(a, ov);
  for (int k = 0; k < N; k++) T_CHECK(ov[k] == av[k], "a refused operation changed %s[%d]", mn_dtype_name(t), k);
  mn_array_destroy(&o);
  mn_array_destroy(&a);
}

static void casts(mn_ctx *ctx) {
  mn_array *c = make(ctx, MN_COMPLEX128, va), *o = NULL, *back = NULL;
  double complex cv[N], ov[N];
  values(c, cv);
  /* to every real dtype: the real part (as NumPy's cast), bool: nonzero */
  for (int t = 0; t < MN_NDTYPE; t++) {
    if (t == MN_COMPLEX64 || t == MN_COMPLEX128) continue;
    T_OK(mn_array_create_like(c, (mn_dtype)t, &o));
    T_OK(mn_array_copy(c, o));
    double *r = mt_all(o);
    for (int k = 0; k < N; k++) {
      double re = creal(cv[k]);
      double w = t == MN_BOOL ? cv[k] != 0 : (t == MN_FLOAT64 || t == MN_FLOAT32 || t == MN_FLOAT16) ? re : trunc(re);
      if ((t == MN_UINT8 || t == MN_UINT16 || t == MN_UINT32 || t == MN_UINT64) && re < 0)
        continue; /* negatives wrap: the integer casts' own tests cover that */
      T_CHECK(r[k] == w, "complex128 -> %s [%d] = %g, expected %g", mn_dtype_name((mn_dtype)t), k, r[k], w);
    }
    free(r);
    /* and back: the imaginary part 0 */
    T_OK(mn_array_create_like(c, MN_COMPLEX64, &back));
    T_OK(mn_array_copy(o, back));
    values(back, ov);
    double *r2 = mt_all(o);
    for (int k = 0; k < N; k++)
      T_CHECK(creal(ov[k]) == (float)r2[k] && cimag(ov[k]) == 0, "%s -> complex64 [%d] = %g%+gi",
              mn_dtype_name((mn_dtype)t), k, creal(ov[k]), cimag(ov[k]));
    free(r2);
    mn_array_destroy(&back);
    mn_array_destroy(&o);
  }
  /* complex128 -> complex64 -> complex128 keeps both parts (exact here) */
  T_OK(mn_array_create_like(c, MN_COMPLEX64, &o));
  T_OK(mn_array_copy(c, o));
  T_OK(mn_array_create_like(c, MN_COMPLEX128, &back));
  T_OK(mn_array_copy(o, back));
  values(back, ov);
  for (int k = 0; k < N; k++) T_CHECK(ov[k] == cv[k], "complex round trip [%d] = %g%+gi", k, creal(ov[k]), cimag(ov[k]));
  mn_array_destroy(&back);
  mn_array_destroy(&o);
  /* a complex fill */
  T_OK(mn_array_fill(c, mn_scalar_c128(1.5, -2)));
  values(c, ov);
  for (int k = 0; k < N; k++) T_CHECK(ov[k] == 1.5 - 2 * I, "fill [%d] = %g%+gi", k, creal(ov[k]), cimag(ov[k]));
  mn_array_destroy(&c);
}

static void promotion(void) {
  struct { mn_dtype a, b, want; } p[] = {
    {MN_COMPLEX64, MN_FLOAT32, MN_COMPLEX64},  {MN_COMPLEX64, MN_FLOAT16, MN_COMPLEX64},
    {MN_COMPLEX64, MN_INT16, MN_COMPLEX64},    {MN_COMPLEX64, MN_UINT8, MN_COMPLEX64},
    {MN_COMPLEX64, MN_INT32, MN_COMPLEX128},   {MN_COMPLEX64, MN_FLOAT64, MN_COMPLEX128},
    {MN_COMPLEX64, MN_UINT64, MN_COMPLEX128},  {MN_BOOL, MN_COMPLEX64, MN_COMPLEX64},
    {MN_COMPLEX128, MN_COMPLEX64, MN_COMPLEX128}, {MN_INT8, MN_COMPLEX128, MN_COMPLEX128},
  };
  for (size_t k = 0; k < sizeof p / sizeof p[0]; k++) {
    mn_dtype g = mn_dtype_promote(p[k].a, p[k].b);
    T_CHECK(g == p[k].want, "promote(%s, %s) = %s, expected %s (NumPy)", mn_dtype_name(p[k].a),
            mn_dtype_name(p[k].b), mn_dtype_name(g), mn_dtype_name(p[k].want));
  }
  /* ops NumPy has no complex loop for */
  T_CHECK(mn_unary_result(MN_OP_FLOOR, MN_COMPLEX64) == MN_NDTYPE, "floor of complex64 accepted");
  T_CHECK(mn_binary_result(MN_OP_FLOORDIV, MN_COMPLEX128, MN_FLOAT64) == MN_NDTYPE, "// of complex128 accepted");
  T_CHECK(mn_binary_result(MN_OP_BITAND, MN_COMPLEX64, MN_INT32) == MN_NDTYPE, "& of complex64 accepted");
  T_CHECK(mn_unary_result(MN_OP_REAL, MN_FLOAT64) == MN_NDTYPE, "real of float64 is the caller's");
  T_CHECK(mn_binary_result(MN_OP_COMPLEX, MN_FLOAT32, MN_FLOAT32) == MN_COMPLEX64, "complex(f32, f32)");
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  promotion();
  unary_ops(ctx, MN_COMPLEX128, 1e-13);
  unary_ops(ctx, MN_COMPLEX64, 2e-6);
  binary_ops(ctx, MN_COMPLEX128, 1e-13);
  binary_ops(ctx, MN_COMPLEX64, 2e-6);
  reductions(ctx, MN_COMPLEX128, 1e-13);
  reductions(ctx, MN_COMPLEX64, 2e-6);
  casts(ctx);
  return mt_finish(&ctx);
}
