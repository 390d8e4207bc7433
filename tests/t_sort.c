/* Sorting and searching against a serial stable sort with NumPy's order
 * (NaN last, -0.0 == 0.0): 1-d arrays across ranks with many repeats,
 * every dtype, views as input, N-d arrays along each axis, sizes smaller
 * than the rank count, and searchsorted left and right. */
#include "mn_test.h"

static double vals(int64_t k) {
  if (k % 13 == 5) return NAN;
  if (k % 17 == 3) return -0.0;
  if (k % 19 == 7) return -NAN; /* sign bit set: must still sort last */
  return (double)((k * 37) % 11) - 5.0 + ((k % 3) ? 0.5 : 0.0);
}

/* NumPy's order: numbers ascending, NaN after them */
static int cmpv(double x, double y) {
  if (isnan(x) || isnan(y)) return isnan(x) - isnan(y);
  return (x > y) - (x < y);
}
typedef struct { double v; int64_t i; } pair;
static int cmpp(const void *a, const void *b) {
  const pair *p = a, *q = b;
  int c = cmpv(p->v, q->v);
  return c ? c : (p->i > q->i) - (p->i < q->i);
}
static int same(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

static void check_1d(mn_ctx *ctx, mn_dtype t, int64_t n) {
  mn_array *x = NULL, *s = NULL, *p = NULL;
  T_OK(mn_array_create(ctx, t, 1, &n, 0, &x));
  mt_set(x, vals);
  double *xv = mt_all(x);
  pair *ref = malloc(sizeof(pair) * (size_t)(n ? n : 1));
  for (int64_t k = 0; k < n; k++) { ref[k].v = xv[k]; ref[k].i = k; }
  qsort(ref, (size_t)n, sizeof(pair), cmpp);
  T_OK(mn_array_sort(x, 0, &s, &p));
  if (s && p) {
    double *sv = mt_all(s), *pv = mt_all(p);
    for (int64_t k = 0; k < n; k++) {
      if (!same(sv[k], ref[k].v) || pv[k] != (double)ref[k].i) {
        T_CHECK(0, "%s n=%lld: sorted[%lld] = %g (index %g), expected %g (index %lld)", mn_dtype_name(t),
                (long long)n, (long long)k, sv[k], pv[k], ref[k].v, (long long)ref[k].i);
        break;
      }
    }
    /* searchsorted of the sorted values, both sides */
    int64_t m = 23;
    mn_array *v = NULL, *o = NULL;
    T_OK(mn_array_create(ctx, t, 1, &m, 0, &v));
    mt_set(v, vals);
    double *vv = mt_all(v);
    T_OK(mn_array_create(ctx, MN_INT64, 1, &m, 0, &o));
    for (int right = 0; right < 2; right++) {
      T_OK(mn_array_searchsorted(s, v, right, o));
      double *ov = mt_all(o);
      for (int64_t k = 0; k < m; k++) {
        int64_t want = 0;
        while (want < n && (right ? cmpv(sv[want], vv[k]) <= 0 : cmpv(sv[want], vv[k]) < 0)) want++;
        T_CHECK(ov[k] == (double)want, "%s n=%lld searchsorted(%g, right=%d) = %g, expected %lld", mn_dtype_name(t),
                (long long)n, vv[k], right, ov[k], (long long)want);
      }
      free(ov);
    }
    free(vv); free(sv); free(pv);
    mn_array_destroy(&v); mn_array_destroy(&o);
  }
  free(xv); free(ref);
  mn_array_destroy(&x); mn_array_destroy(&s); mn_array_destroy(&p);
}

/* N-d along one axis, from a transposed view */
static void check_nd(mn_ctx *ctx, int nd, const int64_t *shape, int axis) {
  mn_array *b = NULL, *x = NULL, *s = NULL, *p = NULL;
  int perm[MN_MAXDIM];
  int64_t bs[MN_MAXDIM];
  for (int d = 0; d < nd; d++) { perm[d] = nd - 1 - d; bs[d] = shape[nd - 1 - d]; }
  T_OK(mn_array_create(ctx, MN_FLOAT64, nd, bs, 0, &b));
  mt_set(b, vals);
  T_OK(mn_array_transpose(b, perm, &x)); /* x has shape `shape` */
  T_OK(mn_array_sort(x, axis, &s, &p));
  double *bv = mt_all(b), *sv = s ? mt_all(s) : NULL, *pv = p ? mt_all(p) : NULL;
  int64_t n = mn_array_size(x), L = shape[axis], st[MN_MAXDIM], bst[MN_MAXDIM];
  int64_t acc = 1;
  for (int d = nd - 1; d >= 0; d--) { st[d] = acc; acc *= shape[d]; }
  acc = 1;
  for (int d = nd - 1; d >= 0; d--) { bst[d] = acc; acc *= bs[d]; }
  pair *line = malloc(sizeof(pair) * (size_t)(L ? L : 1));
  for (int64_t f = 0; sv && pv && f < n; f++) {
    int64_t i[MN_MAXDIM], r = f;
    for (int d = nd - 1; d >= 0; d--) { i[d] = r % shape[d]; r /= shape[d]; }
    if (i[axis] != 0) continue;
    for (int64_t k = 0; k < L; k++) {
      int64_t off = 0;
      i[axis] = k;
      for (int d = 0; d < nd; d++) off += i[d] * bst[nd - 1 - d];
      line[k].v = bv[off];
      line[k].i = k;
    }
    qsort(line, (size_t)L, sizeof(pair), cmpp);
    for (int64_t k = 0; k < L; k++) {
      int64_t off = 0;
      i[axis] = k;
      for (int d = 0; d < nd; d++) off += i[d] * st[d];
      if (!same(sv[off], line[k].v) || pv[off] != (double)line[k].i) {
        T_CHECK(0, "%d-d axis %d: element %lld = %g (index %g), expected %g (%lld)", nd, axis, (long long)off, sv[off],
                pv[off], line[k].v, (long long)line[k].i);
        f = n;
        break;
      }
    }
  }
  free(line); free(bv); free(sv); free(pv);
  mn_array_destroy(&b); mn_array_destroy(&x); mn_array_destroy(&s); mn_array_destroy(&p);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  mn_dtype ts[] = {MN_FLOAT64, MN_FLOAT32, MN_INT64, MN_INT32, MN_BOOL};
  int64_t ns[] = {0, 1, 2, 3, 47, 48, 1000, 20000};
  for (int a = 0; a < 5; a++)
    for (int b = 0; b < 8; b++) check_1d(ctx, ts[a], ns[b]);
  int64_t s2[] = {7, 5}, s3[] = {3, 4, 50}, s0[] = {0, 3};
  check_nd(ctx, 2, s2, 0);
  check_nd(ctx, 2, s2, 1);
  check_nd(ctx, 3, s3, 0);
  check_nd(ctx, 3, s3, 1);
  check_nd(ctx, 3, s3, 2);
  check_nd(ctx, 2, s0, 1);
  /* the other axes of extent 1: lines must not be split across ranks */
  int64_t c2[] = {9, 1}, r2[] = {1, 9}, c3[] = {1, 1, 11};
  check_nd(ctx, 2, c2, 0);
  check_nd(ctx, 2, r2, 1);
  check_nd(ctx, 3, c3, 2);
  check_nd(ctx, 3, c3, 0);
  /* bad axis, agreed everywhere */
  mn_array *x = NULL, *s = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 0, &x));
  int rc = mn_array_sort(x, 2, &s, NULL);
  T_CHECK(rc == MN_ERR_INDEX && s == NULL, "sort with axis 2 of a 2-d array returned %s", mn_err_name(rc));
  mn_array_destroy(&x);
  return mt_finish(&ctx);
}
