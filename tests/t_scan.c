/* Cumulative sums and products along each axis against a serial loop:
 * 1-d across ranks, N-d from transposed views, integer wrap-around in
 * products, float32, the 1- and 2-byte integers (whose line totals travel
 * as 4-byte ones), empty arrays, and a view as the output. */
#include "mn_test.h"

static double g(int64_t k) { return (double)((k * 7) % 9) - 3.5; }
static double gi(int64_t k) { return (double)((k * 7) % 9) - 3; }
static double gu(int64_t k) { return (double)((k * 7) % 9); }

/* v wrapped to the integer dtype t, as its own arithmetic wraps */
static int64_t wrap(mn_dtype t, uint64_t v) {
  switch (t) {
  case MN_INT8: return (int8_t)(uint8_t)v;
  case MN_INT16: return (int16_t)(uint16_t)v;
  case MN_UINT8: return (uint8_t)v;
  case MN_UINT16: return (uint16_t)v;
  case MN_INT32: return (int32_t)(uint32_t)v;
  default: return (int64_t)v;
  }
}

static void check(mn_ctx *ctx, mn_dtype t, mn_reduce_op op, int nd, const int64_t *shape, int axis) {
  mn_array *x = NULL, *o = NULL;
  T_OK(mn_array_create(ctx, t, nd, shape, 0, &x));
  mt_set(x, (t == MN_FLOAT32 || t == MN_FLOAT64) ? g : (t == MN_UINT8 || t == MN_UINT16) ? gu : gi);
  T_OK(mn_array_create(ctx, t, nd, shape, 0, &o));
  T_OK(mn_array_scan(op, x, axis, o));
  double *xv = mt_all(x), *ov = mt_all(o);
  int64_t n = mn_array_size(x), st = 1;
  for (int d = nd - 1; d > axis; d--) st *= shape[d];
  int bad = 0;
  for (int64_t f = 0; f < n && !bad; f++) {
    int64_t i = (f / st) % shape[axis];
    if (i != 0) continue;
    /* serial: in the dtype for integers (wrapping), in double for floats */
    double acc = op == MN_RED_PROD ? 1 : 0;
    int64_t iacc = op == MN_RED_PROD ? 1 : 0;
    for (int64_t k = 0; k < shape[axis]; k++) {
      int64_t e = f + k * st;
      double want;
      if (t != MN_FLOAT32 && t != MN_FLOAT64) {
        uint64_t a = (uint64_t)iacc, b = (uint64_t)(int64_t)xv[e];
        iacc = wrap(t, op == MN_RED_PROD ? a * b : a + b);
        want = (double)iacc;
      }
      else if (t == MN_FLOAT32) { acc = (float)(op == MN_RED_PROD ? (float)acc * (float)xv[e] : (float)acc + (float)xv[e]); want = acc; }
      else { acc = op == MN_RED_PROD ? acc * xv[e] : acc + xv[e]; want = acc; }
      double tol = t == MN_FLOAT32 ? 1e-5 : (t == MN_FLOAT64 ? 1e-13 : 0);
      if (fabs(ov[e] - want) > tol * (1 + fabs(want))) {
        T_CHECK(0, "%s %s axis %d of a %d-d array: element %lld = %.17g, expected %.17g", mn_dtype_name(t),
                mn_reduce_name(op), axis, nd, (long long)e, ov[e], want);
        bad = 1;
        break;
      }
    }
  }
  free(xv); free(ov);
  mn_array_destroy(&x); mn_array_destroy(&o);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int64_t s1[] = {1000}, s2[] = {7, 5}, s3[] = {3, 4, 6}, s0[] = {0, 4}, s4[] = {2};
  mn_dtype ts[] = {MN_FLOAT64, MN_FLOAT32, MN_INT64, MN_INT32, MN_INT16, MN_INT8, MN_UINT16, MN_UINT8};
  for (int a = 0; a < 8; a++) {
    check(ctx, ts[a], MN_RED_SUM, 1, s1, 0);
    check(ctx, ts[a], MN_RED_PROD, 1, s1, 0); /* integers wrap; floats overflow alike */
    check(ctx, ts[a], MN_RED_SUM, 1, s4, 0);
    for (int ax = 0; ax < 2; ax++) {
      check(ctx, ts[a], MN_RED_SUM, 2, s2, ax);
      check(ctx, ts[a], MN_RED_PROD, 2, s2, ax);
      check(ctx, ts[a], MN_RED_SUM, 2, s0, ax);
    }
    for (int ax = 0; ax < 3; ax++) check(ctx, ts[a], MN_RED_SUM, 3, s3, ax);
  }
  /* a transposed input and a strided view as the output */
  mn_array *b = NULL, *x = NULL, *o = NULL, *ov = NULL;
  int64_t bs[] = {5, 7}, os[] = {7, 10};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, bs, 0, &b));
  mt_set(b, g);
  T_OK(mn_array_transpose(b, NULL, &x)); /* (7, 5) */
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, os, 0, &o));
  mn_index ix[] = {mn_all(), mn_slice(1, MN_NONE, 2)};
  T_OK(mn_array_index(o, 2, ix, &ov));
  T_OK(mn_array_scan(MN_RED_SUM, x, 0, ov));
  double *bv = mt_all(b), *r = mt_all(o);
  for (int j = 0; j < 5; j++) {
    double acc = 0;
    for (int i = 0; i < 7; i++) {
      acc += bv[j * 7 + i];
      T_CHECK(fabs(r[i * 10 + 1 + 2 * j] - acc) < 1e-12, "scan into a view: [%d][%d] = %g, expected %g", i, j, r[i * 10 + 1 + 2 * j], acc);
      T_CHECK(r[i * 10 + 2 * j] == 0, "scan into a view wrote outside it");
    }
  }
  free(bv); free(r);
  int rc = mn_array_scan(MN_RED_MAX, x, 0, ov);
  T_CHECK(rc == MN_ERR_ARG, "a max scan returned %s", mn_err_name(rc));
  rc = mn_array_scan(MN_RED_SUM, x, 2, ov);
  T_CHECK(rc == MN_ERR_INDEX, "axis 2 returned %s", mn_err_name(rc));
  mn_array_destroy(&b); mn_array_destroy(&x); mn_array_destroy(&o); mn_array_destroy(&ov);
  return mt_finish(&ctx);
}
