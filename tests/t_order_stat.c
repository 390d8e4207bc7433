/* mn_array_order_stats against qsort of the gathered values: several
 * dtypes, sizes from 1 to past the point where candidates are gathered, a
 * strided view, heavy duplicates, NaN, -0.0 and inf, and the errors (a
 * position out of range, complex values) on every rank. */
#include "mn_test.h"
#include <maniple/mn_sort.h>

static double val(int64_t i) {
  uint64_t h = (uint64_t)i * 0x9e3779b97f4a7c15ULL;
  h ^= h >> 29;
  return (double)(int64_t)(h % 2001) - 1000.0 + (double)(h >> 60) / 16.0;
}
static double dup(int64_t i) { return (double)(i % 3 == 0); }
static double special(int64_t i) {
  return i % 97 == 5 ? NAN : i % 89 == 3 ? -0.0 : i % 83 == 2 ? INFINITY : i % 79 == 1 ? -INFINITY : val(i);
}

/* NumPy's order: NaN last */
static int cmp(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
  return (x > y) - (x < y);
}

static void check(mn_ctx *ctx, mn_dtype t, int64_t n, double (*f)(int64_t), int strided) {
  int64_t sh = strided ? 2 * n : n;
  mn_array *b = mt_new(ctx, t, 1, &sh, f), *x = b;
  if (strided) x = mt_view(b, 1, (mn_index[]){mn_slice(1, MN_NONE, 2)});
  double *all = mt_all(x);
  qsort(all, (size_t)n, sizeof(double), cmp);
  int64_t pos[7] = {0, n - 1, n / 2, (n - 1) / 2, n / 3, n / 7, n > 1 ? n - 2 : 0};
  char got[7 * 8];
  T_OK(mn_array_order_stats(x, 7, pos, got));
  for (int i = 0; i < 7; i++) {
    mn_array *one = NULL;
    int64_t o = 1;
    T_OK(mn_array_create(ctx, t, 1, &o, 0, &one));
    T_OK(mn_array_scatter(one, 0, got + (size_t)i * mn_dtype_size(t)));
    double *v = mt_all(one), want = all[pos[i]];
    T_CHECK(v[0] == want || (isnan(v[0]) && isnan(want)), "%s n=%lld%s: position %lld is %g, expected %g",
            mn_dtype_name(t), (long long)n, strided ? " (strided view)" : "", (long long)pos[i], v[0], want);
    free(v);
    mn_array_destroy(&one);
  }
  free(all);
  if (strided) mn_array_destroy(&x);
  mn_array_destroy(&b);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  mn_dtype ts[] = {MN_FLOAT64, MN_FLOAT32, MN_INT64, MN_INT32, MN_INT16, MN_UINT8, MN_FLOAT16};
  int64_t ns[] = {1, 2, 17, 1000, 150000};
  for (int q = 0; q < 7; q++)
    for (int k = 0; k < (ts[q] == MN_FLOAT16 ? 4 : 5); k++) check(ctx, ts[q], ns[k], val, k % 2); /* (mt_set's half is slow) */
  check(ctx, MN_FLOAT64, 200000, dup, 0);  /* all in two keys: the selection runs to the last bit */
  check(ctx, MN_FLOAT64, 100000, special, 1);
  check(ctx, MN_FLOAT32, 100000, special, 0);
  mn_array *a = NULL;
  int64_t n = 10, bad[2] = {3, 10};
  char out[16];
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &a));
  T_EXPECT(mn_array_order_stats(a, 2, bad, out), MN_ERR_INDEX, "position 10 of 10", "position 10", "10 sorted");
  mn_array_destroy(&a);
  T_OK(mn_array_create(ctx, MN_COMPLEX128, 1, &n, 0, &a));
  T_EXPECT(mn_array_order_stats(a, 1, bad, out), MN_ERR_DTYPE, "complex", "complex128");
  mn_array_destroy(&a);
  return mt_finish(&ctx);
}
