/* Compiled kernels (arrays/jit_cpu.c) against the interpreter: every
 * statement evaluated with MN_JIT_OFF and again with MN_JIT_SYNC (compiled
 * before it runs) must give the same bytes and raise the same
 * floating-point flags: float64, float32, float16, integers with division
 * by zero, bool, complex, casts, NaN operands of comparisons (no invalid),
 * square roots of negatives (invalid), extra outputs, a reduction, a
 * strided (transposed) input and an output that is also an input. The
 * float64 statement is also checked against a serial loop. */
#include "mn_test.h"
#include <fenv.h>

enum { NY = 37, NX = 41 }; /* uneven splits at 2, 3, 4 ranks */
static const int64_t SH[2] = {NY, NX};

static double fx(int64_t i) { return 0.25 + (double)((i * 7919) % 101) / 50.0; }
static double fy(int64_t i) { return 1.5 - (double)((i * 104729) % 89) / 30.0; } /* negatives and zeros too */
static double fint(int64_t i) { return (double)((i * 31) % 23) - 7; }           /* zeros: division by zero */
static double fnan(int64_t i) { return i % 7 == 3 ? NAN : fy(i); }

/* The bytes of a whole array on every rank (caller frees) */
static char *raw_all(const mn_array *a, size_t *n) {
  *n = (size_t)mn_array_size(a) * mn_dtype_size(mn_array_dtype(a));
  char *raw = malloc(*n ? *n : 1);
  T_OK(mn_array_gather(a, 0, raw));
  MPI_Bcast(raw, (int)*n, MPI_BYTE, 0, mn_ctx_comm(mn_array_ctx(a)));
  return raw;
}

static int flags(void) { return fetestexcept(FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW); }

typedef int (*build_fn)(mn_expr *e, mn_array *const *in, int *nx, int *xnode);

/* Evaluate build's root into out (and its extras into fresh arrays) under
 * mode; the bytes of out and the extras, concatenated, and the flags. */
static char *run(mn_ctx *ctx, build_fn build, mn_array *const *in, mn_array *out, mn_jit_mode mode, size_t *n,
                 int *fl) {
  mn_jit_set_mode(mode);
  mn_expr *e;
  T_OK(mn_expr_create(ctx, &e));
  int nx = 0, xnode[4];
  int root = build(e, in, &nx, xnode);
  mn_array *xs[4] = {0};
  for (int k = 0; k < nx; k++) T_OK(mn_array_create_empty(ctx, mn_expr_dtype(e, xnode[k]), 2, SH, &xs[k]));
  feclearexcept(FE_ALL_EXCEPT);
  T_OK(mn_expr_eval_extra(e, root, out, nx, xnode, xs));
  *fl = flags();
  char *all = raw_all(out, n);
  for (int k = 0; k < nx; k++) {
    size_t m;
    char *r = raw_all(xs[k], &m);
    all = realloc(all, *n + m);
    memcpy(all + *n, r, m);
    *n += m;
    free(r);
    mn_array_destroy(&xs[k]);
  }
  mn_expr_destroy(&e);
  return all;
}

/* The statement under both modes: the same bytes and flags. out is
 * overwritten by each run (in place: it is also an input, so its values
 * are restored from init first). */
static void same(mn_ctx *ctx, const char *what, build_fn build, mn_array *const *in, mn_array *out,
                 double (*init)(int64_t)) {
  size_t n0, n1;
  int f0, f1;
  if (init) mt_set(out, init);
  char *a = run(ctx, build, in, out, MN_JIT_OFF, &n0, &f0);
  if (init) mt_set(out, init);
  char *b = run(ctx, build, in, out, MN_JIT_SYNC, &n1, &f1);
  size_t at = 0;
  while (n0 == n1 && at < n0 && a[at] == b[at]) at++;
  T_CHECK(n0 == n1 && at == n0, "%s: compiled kernel's bytes differ from the interpreter's (%zu and %zu bytes, "
          "first at byte %zu)", what, n1, n0, at);
  if (at < n0 && n0 == n1) {
    double da[2], db[2];
    memcpy(da, a + at / 16 * 16, 16);
    memcpy(db, b + at / 16 * 16, 16);
    fprintf(stderr, "  at %zu: interpreted %.17g %.17g, compiled %.17g %.17g\n", at, da[0], da[1], db[0], db[1]);
  }
  T_CHECK(f0 == f1, "%s: flags 0x%x compiled, 0x%x interpreted", what, f1, f0);
  free(a);
  free(b);
}

static int sc(mn_expr *e, double v) {
  int s;
  T_OK(mn_expr_scalar(e, mn_scalar_f64(v), &s));
  return s;
}

/* swe's desingularised velocity, its wave speed and a flux: sqrt, division,
 * maximum, where; t and the speed also stored */
static int b_f64(mn_expr *e, mn_array *const *in, int *nx, int *xnode) {
  int h, q, h2, h4, m, s, t, u, c, r, lt, w;
  T_OK(mn_expr_input(e, in[0], &h));
  T_OK(mn_expr_input(e, in[1], &q));
  T_OK(mn_expr_binary(e, MN_OP_MUL, h, h, &h2));
  T_OK(mn_expr_binary(e, MN_OP_MUL, h2, h2, &h4));
  T_OK(mn_expr_binary(e, MN_OP_MAXIMUM, h4, sc(e, 1e-3), &m));
  T_OK(mn_expr_binary(e, MN_OP_ADD, h4, m, &s));
  T_OK(mn_expr_unary(e, MN_OP_SQRT, s, &t));
  T_OK(mn_expr_binary(e, MN_OP_MUL, h, q, &u));
  T_OK(mn_expr_binary(e, MN_OP_DIV, u, t, &u));
  T_OK(mn_expr_binary(e, MN_OP_MUL, h, sc(e, 9.81), &c));
  T_OK(mn_expr_unary(e, MN_OP_SQRT, c, &c)); /* h < 0 somewhere: invalid, in both */
  T_OK(mn_expr_binary(e, MN_OP_ADD, u, c, &r));
  T_OK(mn_expr_binary(e, MN_OP_LT, h, q, &lt));
  T_OK(mn_expr_ternary(e, MN_OP_WHERE, lt, r, q, &w));
  *nx = 2;
  xnode[0] = t;
  xnode[1] = c;
  return w;
}

/* float32: minimum and division; NaN operands of the comparisons */
static int b_f32(mn_expr *e, mn_array *const *in, int *nx, int *xnode) {
  int x, y, a, b, d, m;
  T_OK(mn_expr_input(e, in[0], &x));
  T_OK(mn_expr_input(e, in[1], &y));
  T_OK(mn_expr_binary(e, MN_OP_MUL, x, y, &a));
  T_OK(mn_expr_binary(e, MN_OP_SUB, a, x, &a));
  T_OK(mn_expr_binary(e, MN_OP_ADD, y, sc(e, 2.0), &b));
  T_OK(mn_expr_binary(e, MN_OP_DIV, a, b, &d));
  T_OK(mn_expr_binary(e, MN_OP_MINIMUM, d, y, &m));
  T_OK(mn_expr_binary(e, MN_OP_MAXIMUM, m, x, &m));
  (void)nx;
  (void)xnode;
  return m;
}

/* int32: floor division and remainder by zero (divide-by-zero raised) */
static int b_i32(mn_expr *e, mn_array *const *in, int *nx, int *xnode) {
  int a, b, p, q, r;
  T_OK(mn_expr_input(e, in[0], &a));
  T_OK(mn_expr_input(e, in[1], &b));
  T_OK(mn_expr_binary(e, MN_OP_MUL, a, b, &p));
  T_OK(mn_expr_binary(e, MN_OP_FLOORDIV, p, b, &q));
  T_OK(mn_expr_binary(e, MN_OP_MOD, a, b, &r));
  T_OK(mn_expr_binary(e, MN_OP_ADD, q, r, &q));
  (void)nx;
  (void)xnode;
  return q;
}

/* uint8 and bool through casts into float64 */
static int b_cast(mn_expr *e, mn_array *const *in, int *nx, int *xnode) {
  int u, b, f, g, s;
  T_OK(mn_expr_input(e, in[0], &u));
  T_OK(mn_expr_input(e, in[1], &b));
  T_OK(mn_expr_cast(e, u, MN_FLOAT64, &f));
  T_OK(mn_expr_cast(e, b, MN_FLOAT64, &g));
  T_OK(mn_expr_binary(e, MN_OP_MUL, f, sc(e, 0.5), &s));
  T_OK(mn_expr_binary(e, MN_OP_SUB, s, g, &s));
  T_OK(mn_expr_binary(e, MN_OP_GT, s, sc(e, 3.0), &g));
  T_OK(mn_expr_binary(e, MN_OP_LOGICAL_AND, g, b, &g));
  (void)nx;
  (void)xnode;
  return g;
}

/* complex128 and float16 products and sums */
static int b_two(mn_expr *e, mn_array *const *in, int *nx, int *xnode) {
  int x, y, p;
  T_OK(mn_expr_input(e, in[0], &x));
  T_OK(mn_expr_input(e, in[1], &y));
  T_OK(mn_expr_binary(e, MN_OP_MUL, x, y, &p));
  T_OK(mn_expr_binary(e, MN_OP_ADD, p, x, &p));
  T_OK(mn_expr_binary(e, MN_OP_SUB, p, y, &p));
  (void)nx;
  (void)xnode;
  return p;
}

/* max(a * b, a) - b (a read through a transposed view) */
static int b_tr(mn_expr *e, mn_array *const *in, int *nx, int *xnode) {
  int a, b, p;
  T_OK(mn_expr_input(e, in[0], &a));
  T_OK(mn_expr_input(e, in[1], &b));
  T_OK(mn_expr_binary(e, MN_OP_MUL, a, b, &p));
  T_OK(mn_expr_binary(e, MN_OP_MAXIMUM, p, a, &p));
  T_OK(mn_expr_binary(e, MN_OP_SUB, p, b, &p));
  (void)nx;
  (void)xnode;
  return p;
}

/* a * 2 + b * b / a (evaluated into a itself) */
static int b_inplace(mn_expr *e, mn_array *const *in, int *nx, int *xnode) {
  int a, b, p, q;
  T_OK(mn_expr_input(e, in[0], &a));
  T_OK(mn_expr_input(e, in[1], &b));
  T_OK(mn_expr_binary(e, MN_OP_MUL, a, sc(e, 2.0), &p));
  T_OK(mn_expr_binary(e, MN_OP_MUL, b, b, &q));
  T_OK(mn_expr_binary(e, MN_OP_DIV, q, a, &q));
  T_OK(mn_expr_binary(e, MN_OP_ADD, p, q, &p));
  (void)nx;
  (void)xnode;
  return p;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  mn_array *x = mt_new(ctx, MN_FLOAT64, 2, SH, fx), *y = mt_new(ctx, MN_FLOAT64, 2, SH, fy);
  mn_array *out = mt_new(ctx, MN_FLOAT64, 2, SH, NULL);
  mn_array *in[2] = {x, y};
  same(ctx, "float64, extras", b_f64, in, out, NULL);

  /* against a serial loop too (the compiled kernel's own values) */
  size_t n;
  int fl;
  char *r = run(ctx, b_f64, in, out, MN_JIT_SYNC, &n, &fl);
  const double *v = (const double *)r;
  int bad = 0;
  for (int64_t i = 0; i < (int64_t)NY * NX && bad < 3; i++) {
    double h = fx(i), q = fy(i), h2 = h * h, h4 = h2 * h2, t = sqrt(h4 + (h4 > 1e-3 ? h4 : 1e-3)),
           c = sqrt(h * 9.81), w = h < q ? h * q / t + c : q;
    if (memcmp(&v[i], &w, 8) || memcmp(&v[(int64_t)NY * NX + i], &t, 8)) {
      T_CHECK(0, "float64 [%lld] = %.17g (t %.17g), serial loop %.17g (t %.17g)", (long long)i, v[i],
              v[(int64_t)NY * NX + i], w, t);
      bad++;
    }
  }
  free(r);
  T_CHECK(mn_jit_kernels() > 0, "MN_JIT_SYNC loaded no compiled kernel (the compiler this library was built with "
                                "should have made one)");

  /* NaN operands of maximum/minimum: no invalid from them, in either */
  mn_array *yn = mt_new(ctx, MN_FLOAT64, 2, SH, fnan), *inn[2] = {x, yn};
  same(ctx, "float64 with NaN", b_f32, inn, out, NULL);
  mn_array *xf = mt_new(ctx, MN_FLOAT32, 2, SH, fx), *yf = mt_new(ctx, MN_FLOAT32, 2, SH, fnan);
  mn_array *of = mt_new(ctx, MN_FLOAT32, 2, SH, NULL), *inf[2] = {xf, yf};
  same(ctx, "float32 with NaN", b_f32, inf, of, NULL);
  mn_array *ai = mt_new(ctx, MN_INT32, 2, SH, fint), *bi = mt_new(ctx, MN_INT32, 2, SH, fint);
  mn_array *oi = mt_new(ctx, MN_INT32, 2, SH, NULL), *ini[2] = {ai, bi};
  same(ctx, "int32 division by zero", b_i32, ini, oi, NULL);
  mn_array *u8 = mt_new(ctx, MN_UINT8, 2, SH, fint), *bo = mt_new(ctx, MN_BOOL, 2, SH, fint);
  mn_array *ob = mt_new(ctx, MN_BOOL, 2, SH, NULL), *inc[2] = {u8, bo};
  mt_set(u8, fx); /* 0..2: small unsigned values */
  same(ctx, "uint8 and bool casts", b_cast, inc, ob, NULL);
  mn_array *xc = mt_new(ctx, MN_COMPLEX128, 2, SH, fx), *yc = mt_new(ctx, MN_COMPLEX128, 2, SH, fy);
  mn_array *oc = mt_new(ctx, MN_COMPLEX128, 2, SH, NULL), *inz[2] = {xc, yc};
  same(ctx, "complex128", b_two, inz, oc, NULL);
  mn_array *xh = mt_new(ctx, MN_FLOAT16, 2, SH, fx), *yh = mt_new(ctx, MN_FLOAT16, 2, SH, fy);
  mn_array *oh = mt_new(ctx, MN_FLOAT16, 2, SH, NULL), *inh[2] = {xh, yh};
  same(ctx, "float16", b_two, inh, oh, NULL);

  /* a strided input: the transpose of a square matrix */
  int64_t sq[2] = {NX, NX};
  mn_array *m = mt_new(ctx, MN_FLOAT64, 2, sq, fx), *mt = NULL, *om = mt_new(ctx, MN_FLOAT64, 2, sq, NULL);
  int perm[2] = {1, 0};
  T_OK(mn_array_transpose(m, perm, &mt));
  mn_array *ms = mt_new(ctx, MN_FLOAT64, 2, sq, fy), *int_[2] = {mt, ms};
  same(ctx, "transposed input", b_tr, int_, om, NULL);

  /* the output is an input: x2 = x2 * 2 + y * y / x2, in place */
  mn_array *x2 = mt_new(ctx, MN_FLOAT64, 2, SH, fx), *inp[2] = {x2, y};
  same(ctx, "in place", b_inplace, inp, x2, fx);
  double *w = mt_all(x2); /* the compiled kernel's, the last run */
  for (int64_t i = 0, bad2 = 0; i < (int64_t)NY * NX && bad2 < 3; i++) {
    double want = fx(i) * 2 + fy(i) * fy(i) / fx(i);
    if (w[i] != want) { T_CHECK(0, "in place [%lld] = %.17g, serial loop %.17g", (long long)i, w[i], want); bad2++; }
  }
  free(w);

  /* a reduction of a compiled program: the same sum */
  {
    mn_scalar s[2];
    for (int k = 0; k < 2; k++) {
      mn_jit_set_mode(k ? MN_JIT_SYNC : MN_JIT_OFF);
      mn_expr *e;
      int a, b, p;
      T_OK(mn_expr_create(ctx, &e));
      T_OK(mn_expr_input(e, x, &a));
      T_OK(mn_expr_input(e, y, &b));
      T_OK(mn_expr_binary(e, MN_OP_MUL, a, b, &p));
      T_OK(mn_expr_binary(e, MN_OP_ADD, p, sc(e, 1.0), &p));
      T_OK(mn_expr_unary(e, MN_OP_ABS, p, &p));
      T_OK(mn_expr_unary(e, MN_OP_SQRT, p, &p));
      T_OK(mn_expr_binary(e, MN_OP_MUL, p, a, &p));
      T_OK(mn_expr_reduce(e, p, MN_RED_SUM, &s[k]));
      mn_expr_destroy(&e);
    }
    T_CHECK(!memcmp(&s[0].v.f, &s[1].v.f, 8), "reduction: compiled %.17g, interpreted %.17g", s[1].v.f, s[0].v.f);
  }

  mn_jit_set_mode(MN_JIT_AUTO);
  mn_array *all[] = {x, y, out, yn, xf, yf, of, ai, bi, oi, u8, bo, ob, xc, yc, oc, xh, yh, oh, m, mt, om, ms, x2};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) mn_array_destroy(&all[k]);
  return mt_finish(&ctx);
}
