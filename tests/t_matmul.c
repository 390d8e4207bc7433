/* matmul against a serial triple loop: matrix-matrix with either operand
 * the larger, matrix-vector both ways, vector-vector, transposed views as
 * operands, a view as the output, an empty contraction, integer wrap,
 * bool, float32, tall narrow matrices under a vector (arrays/gemv_narrow.c),
 * and a shape mismatch rejected on every rank. */
#include "mn_test.h"

static double fa(int64_t k) { return (double)((k * 5) % 7) - 3.0; }
static double fb(int64_t k) { return (double)((k * 3) % 11) * 0.5 - 2.0; }
static double fbig(int64_t k) { return (double)(((k * 2654435761LL) % 100003) + 1000000); }

static void check(mn_ctx *ctx, mn_dtype t, int na, const int64_t *sa, int nb, const int64_t *sb, int transpose_a,
                  double (*f)(int64_t)) {
  mn_array *a = NULL, *b = NULL, *o = NULL, *ab = NULL;
  if (transpose_a && na == 2) { /* a as the transpose of a base of the swapped shape */
    int64_t s2[2] = {sa[1], sa[0]};
    T_OK(mn_array_create(ctx, t, 2, s2, 0, &ab));
    mt_set(ab, f);
    T_OK(mn_array_transpose(ab, NULL, &a));
  } else {
    T_OK(mn_array_create(ctx, t, na, sa, 0, &a));
    mt_set(a, f);
  }
  T_OK(mn_array_create(ctx, t, nb, sb, 0, &b));
  mt_set(b, fb);
  int64_t m = na == 2 ? sa[0] : 1, k = sa[na - 1], n = nb == 2 ? sb[1] : 1, os[2];
  int no = 0;
  if (na == 2) os[no++] = m;
  if (nb == 2) os[no++] = n;
  T_OK(mn_array_create(ctx, t, no, os, 0, &o));
  T_OK(mn_array_matmul(a, b, o));
  double *av = mt_all(a), *bv = mt_all(b), *ov = mt_all(o);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      double want = 0;
      uint64_t wi = 0;
      int wb = 0;
      for (int64_t p = 0; p < k; p++) {
        double x = av[i * k + p], y = bv[p * n + j];
        want += x * y;
        wi += (uint64_t)(int64_t)x * (uint64_t)(int64_t)y;
        wb = wb || (x != 0 && y != 0);
      }
      if (t == MN_INT64) want = (double)(int64_t)wi;
      if (t == MN_INT32) want = (double)(int32_t)(uint32_t)wi;
      if (t == MN_BOOL) want = wb;
      double tol = t == MN_FLOAT32 ? 1e-5 : 1e-12, got = ov[i * n + j];
      if (fabs(got - want) > tol * (1 + fabs(want))) {
        T_CHECK(0, "%s (%lldx%lld)@(%lldx%lld)%s: [%lld,%lld] = %.17g, expected %.17g", mn_dtype_name(t), (long long)m,
                (long long)k, (long long)k, (long long)n, transpose_a ? " (a transposed)" : "", (long long)i,
                (long long)j, got, want);
        i = m;
        break;
      }
    }
  free(av); free(bv); free(ov);
  mn_array_destroy(&a); mn_array_destroy(&b); mn_array_destroy(&o); mn_array_destroy(&ab);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int64_t a75[] = {7, 5}, b53[] = {5, 3}, a15[] = {1, 5}, b51[] = {5, 1}, v5[] = {5}, a6040[] = {60, 40},
          b4050[] = {40, 50}, a2x[] = {2, 300}, b3x[] = {300, 90}, a30[] = {3, 0}, b04[] = {0, 4}, v0[] = {0};
  mn_dtype ts[] = {MN_FLOAT64, MN_FLOAT32, MN_INT64, MN_INT32, MN_BOOL};
  for (int q = 0; q < 5; q++) {
    mn_dtype t = ts[q];
    check(ctx, t, 2, a75, 2, b53, 0, fa);
    check(ctx, t, 2, a75, 2, b53, 1, fa);
    check(ctx, t, 2, a15, 2, b51, 0, fa);
    check(ctx, t, 1, v5, 2, b53, 0, fa);
    check(ctx, t, 2, a75, 1, v5, 0, fa);
    check(ctx, t, 2, a75, 1, v5, 1, fa);
    check(ctx, t, 1, v5, 1, v5, 0, fa);
    check(ctx, t, 2, a6040, 2, b4050, 1, fa); /* b larger: a replicated */
    check(ctx, t, 2, a2x, 2, b3x, 0, fa);
    check(ctx, t, 2, a30, 2, b04, 0, fa);     /* empty contraction: zeros */
    check(ctx, t, 1, v0, 1, v0, 0, fa);
  }
  /* v . X and X^T v for tall narrow X: widths in one strip with a masked
   * tail, two strips, and past the narrow kernel's limit */
  int64_t widths[] = {3, 37, 64, 100};
  for (int q = 0; q < 2; q++)
    for (int w = 0; w < 4; w++) {
      int64_t vm[] = {203}, xm[] = {203, widths[w]}, xt[] = {widths[w], 203};
      check(ctx, ts[q], 1, vm, 2, xm, 0, fa);
      check(ctx, ts[q], 2, xt, 1, vm, 1, fa); /* X^T: a transposed view */
    }
  check(ctx, MN_INT32, 2, a75, 2, b53, 0, fbig); /* wraps as NumPy does */
  check(ctx, MN_INT64, 2, a6040, 2, b4050, 0, fbig);
  /* a view as the output, with a cast */
  mn_array *a = NULL, *b = NULL, *o = NULL, *ov = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, a75, 0, &a));
  mt_set(a, fa);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, b53, 0, &b));
  mt_set(b, fb);
  int64_t os[] = {7, 6};
  T_OK(mn_array_create(ctx, MN_FLOAT32, 2, os, 0, &o));
  mn_index ix[] = {mn_all(), mn_slice(MN_NONE, MN_NONE, 2)};
  T_OK(mn_array_index(o, 2, ix, &ov));
  T_OK(mn_array_matmul(a, b, ov));
  double *av = mt_all(a), *bv = mt_all(b), *r = mt_all(o);
  for (int i = 0; i < 7; i++)
    for (int j = 0; j < 3; j++) {
      double w = 0;
      for (int p = 0; p < 5; p++) w += av[i * 5 + p] * bv[p * 3 + j];
      T_CHECK(r[i * 6 + 2 * j] == (float)w && r[i * 6 + 2 * j + 1] == 0, "matmul into a view at [%d,%d]", i, j);
    }
  free(av); free(bv); free(r);
  /* mismatched inner dimensions: the same error on every rank */
  int rc = mn_array_matmul(a, a, o);
  T_CHECK(rc == MN_ERR_SHAPE, "a (7,5) @ (7,5) returned %s", mn_err_name(rc));
  T_CHECK(strstr(mn_ctx_errmsg(ctx), "(7, 5) @ (7, 5)") != NULL, "message: %s", mn_ctx_errmsg(ctx));
  mn_array_destroy(&a); mn_array_destroy(&b); mn_array_destroy(&o); mn_array_destroy(&ov);
  return mt_finish(&ctx);
}
