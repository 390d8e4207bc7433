/* take, put, take_rows, diagonal, trace, compress and concat_local against serial loops:
 * random index sets with repeats, views as sources and targets, int32 indices, sizes
 * smaller than the rank count, empty arrays, and an out-of-bounds index
 * rejected on every rank with the target unchanged. */
#include "mn_test.h"

static double f(int64_t k) { return 0.25 * (double)k - 3.0; }
static uint64_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return *s >> 33; }

static void set_idx(mn_array *a, const int64_t *v) {
  int64_t n = mn_array_size(a);
  mn_dtype t = mn_array_dtype(a);
  char *raw = malloc((size_t)(n ? n : 1) * mn_dtype_size(t));
  for (int64_t k = 0; k < n; k++) {
    if (t == MN_INT32) ((int32_t *)raw)[k] = (int32_t)v[k];
    else ((int64_t *)raw)[k] = v[k];
  }
  T_OK(mn_array_scatter(a, 0, raw));
  free(raw);
}

static void check_take_put(mn_ctx *ctx, int64_t n, int64_t m, mn_dtype it, uint64_t seed) {
  mn_array *x = NULL, *idx = NULL, *out = NULL, *v = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  mt_set(x, f);
  T_OK(mn_array_create(ctx, it, 1, &m, 0, &idx));
  int64_t *ix = malloc(sizeof(int64_t) * (size_t)(m ? m : 1));
  for (int64_t k = 0; k < m; k++) ix[k] = n ? (int64_t)(lcg(&seed) % (uint64_t)n) : 0;
  /* every third index counted from the end (NumPy's negative indices) */
  int64_t *neg = malloc(sizeof(int64_t) * (size_t)(m ? m : 1));
  for (int64_t k = 0; k < m; k++) neg[k] = k % 3 == 1 ? ix[k] - n : ix[k];
  set_idx(idx, neg);
  free(neg);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &out));
  T_OK(mn_array_take(x, idx, out));
  double *o = mt_all(out);
  for (int64_t k = 0; k < m; k++)
    if (o[k] != f(ix[k])) { T_CHECK(0, "take n=%lld m=%lld: out[%lld] = %g, expected %g", (long long)n, (long long)m, (long long)k, o[k], f(ix[k])); break; }
  set_idx(idx, ix);
  /* put with repeats: serial reference where the last write wins */
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &v));
  mt_set(v, f);
  double *ref = mt_all(x);
  for (int64_t k = 0; k < m; k++) ref[ix[k]] = f(k);
  T_OK(mn_array_put(x, idx, v));
  double *got = mt_all(x);
  for (int64_t k = 0; k < n; k++)
    if (got[k] != ref[k]) { T_CHECK(0, "put n=%lld m=%lld: x[%lld] = %g, expected %g", (long long)n, (long long)m, (long long)k, got[k], ref[k]); break; }
  /* one index past the end, held by the last rank alone: its error on
   * every rank (it travels in the exchange's counts), x unchanged */
  if (m) {
    ix[m - 1] = n;
    set_idx(idx, ix);
    char want[96];
    snprintf(want, sizeof want, "index %lld is out of bounds for axis 0 with size %lld", (long long)n, (long long)n);
    int rc = mn_array_take(x, idx, out);
    T_CHECK(rc == MN_ERR_INDEX && strstr(mn_ctx_errmsg(ctx), want), "take n=%lld of index %lld returned %s: %s",
            (long long)n, (long long)n, mn_err_name(rc), mn_ctx_errmsg(ctx));
    rc = mn_array_put(x, idx, v);
    T_CHECK(rc == MN_ERR_INDEX && strstr(mn_ctx_errmsg(ctx), want), "put n=%lld of index %lld returned %s: %s",
            (long long)n, (long long)n, mn_err_name(rc), mn_ctx_errmsg(ctx));
    double *after = mt_all(x);
    for (int64_t k = 0; k < n; k++)
      if (after[k] != ref[k]) { T_CHECK(0, "failed put changed x[%lld]", (long long)k); break; }
    free(after);
  }
  free(o); free(ref); free(got); free(ix);
  mn_array_destroy(&x); mn_array_destroy(&idx); mn_array_destroy(&out); mn_array_destroy(&v);
}

/* take's kept plan (index_plan.h): the same indices again (the plan
 * reused), x's values changed between (read afresh), one index changed on
 * the last rank alone (its plan not reused, every rank's answers right),
 * another array of x's size, of another element size, and an index out
 * of bounds after a reuse (refused on every rank). Each against the
 * serial loop; also in a loop of alternating index sets. */
static void check_kept_plan(mn_ctx *ctx) {
  int64_t n = 3001, m = 2000, ix[2000], jx[2000];
  uint64_t seed = 77;
  for (int64_t k = 0; k < m; k++) {
    ix[k] = (int64_t)(lcg(&seed) % (uint64_t)n) - (k % 4 == 0 ? n : 0);
    jx[k] = (int64_t)(lcg(&seed) % (uint64_t)n);
  }
  mn_array *x = NULL, *y = NULL, *x32 = NULL, *idx = NULL, *jdx = NULL, *out = NULL, *o32 = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &y));
  T_OK(mn_array_create(ctx, MN_FLOAT32, 1, &n, 0, &x32));
  T_OK(mn_array_create(ctx, MN_INT64, 1, &m, 0, &idx));
  T_OK(mn_array_create(ctx, MN_INT64, 1, &m, 0, &jdx));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &out));
  T_OK(mn_array_create(ctx, MN_FLOAT32, 1, &m, 0, &o32));
  mt_set(x, f);
  mt_set(x32, f);
  set_idx(idx, ix);
  set_idx(jdx, jx);
  for (int pass = 0; pass < 7; pass++) {
    /* passes: 0, 1 the same indices (1: x changed before); 2 one index
     * changed on the last rank's part; 3 y; 4 float32; 5, 6 alternating */
    mn_array *src = pass == 3 ? y : pass == 4 ? x32 : x, *dst = pass == 4 ? o32 : out;
    const int64_t *use = pass == 6 ? jx : ix;
    double scale = pass >= 1 && pass != 4 ? 2.0 : 1.0;
    if (pass == 1) T_OK(mn_array_binary_scalar(MN_OP_MUL, x, mn_scalar_f64(2.0), 0, x));
    if (pass == 2) {
      ix[m - 1] = (ix[m - 1] + 1) % n;
      set_idx(idx, ix);
    }
    if (pass == 3) T_OK(mn_array_binary_scalar(MN_OP_MUL, x, mn_scalar_f64(1.0), 0, y));
    T_OK(mn_array_take(src, pass == 6 ? jdx : idx, dst));
    double *o = mt_all(dst);
    for (int64_t k = 0; k < m; k++) {
      int64_t w = use[k] < 0 ? use[k] + n : use[k];
      double want = pass == 4 ? (double)(float)f(w) : scale * f(w);
      if (o[k] != want) {
        T_CHECK(0, "kept plan, pass %d: out[%lld] = %g, expected %g", pass, (long long)k, o[k], want);
        break;
      }
    }
    free(o);
  }
  /* put's kept plan: the same indices (with repeats: the last value
   * wins) and new values, one index changed on the last rank alone,
   * another x, indices with negatives, against the serial loop */
  mn_array *v = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &v));
  for (int pass = 0; pass < 6; pass++) {
    mn_array *dst = pass == 3 ? y : x, *use = pass >= 4 ? idx : jdx;
    const int64_t *u = pass >= 4 ? ix : jx;
    mt_set(v, f);
    T_OK(mn_array_binary_scalar(MN_OP_MUL, v, mn_scalar_f64(1.0 + pass), 0, v));
    if (pass == 2) {
      jx[m - 1] = (jx[m - 1] + 5) % n;
      set_idx(jdx, jx);
    }
    double *ref = mt_all(dst);
    for (int64_t k = 0; k < m; k++) ref[u[k] < 0 ? u[k] + n : u[k]] = (1.0 + pass) * f(k);
    T_OK(mn_array_put(dst, use, v));
    double *got = mt_all(dst);
    for (int64_t k = 0; k < n; k++)
      if (got[k] != ref[k]) {
        T_CHECK(0, "kept put plan, pass %d: x[%lld] = %g, expected %g", pass, (long long)k, got[k], ref[k]);
        break;
      }
    free(ref);
    free(got);
  }
  mn_array_destroy(&v);
  /* take_rows' kept plan: the same rows again (x written between), one
   * row index changed on the last rank alone (to another owner's row),
   * then a wider x (another
   * row size), against the serial loop */
  {
    int64_t R = 500, C = 3, M = 300, rs[] = {R, C}, os[] = {M, C}, ws[] = {R, C + 1}, wos[] = {M, C + 1}, ri[300];
    for (int64_t k = 0; k < M; k++) ri[k] = (int64_t)(lcg(&seed) % (uint64_t)R) - (k % 5 == 0 ? R : 0);
    mn_array *X = mt_new(ctx, MN_FLOAT64, 2, rs, f), *W = mt_new(ctx, MN_FLOAT64, 2, ws, f), *RI = NULL, *O = NULL,
             *WO = NULL;
    T_OK(mn_array_create(ctx, MN_INT64, 1, &M, 0, &RI));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, os, 0, &O));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, wos, 0, &WO));
    set_idx(RI, ri);
    for (int pass = 0; pass < 5; pass++) {
      if (pass == 1) T_OK(mn_array_binary_scalar(MN_OP_MUL, X, mn_scalar_f64(2.0), 0, X));
      if (pass == 2) {
        int64_t w = ri[M - 1] < 0 ? ri[M - 1] + R : ri[M - 1];
        ri[M - 1] = w >= R / 2 ? 0 : R - 1; /* (a row of another owner) */
        set_idx(RI, ri);
      }
      int64_t c = pass == 4 ? C + 1 : C;
      T_OK(mn_array_take_rows(pass == 4 ? W : X, RI, pass == 4 ? WO : O));
      double *o = mt_all(pass == 4 ? WO : O);
      for (int64_t k = 0; k < M * c; k++) {
        int64_t i = ri[k / c] < 0 ? ri[k / c] + R : ri[k / c];
        double want = (pass >= 1 && pass < 4 ? 2.0 : 1.0) * f(i * c + k % c);
        if (o[k] != want) {
          T_CHECK(0, "kept rows plan, pass %d: out.flat[%lld] = %g, expected %g", pass, (long long)k, o[k], want);
          break;
        }
      }
      free(o);
    }
    mn_array_destroy(&X); mn_array_destroy(&W); mn_array_destroy(&RI); mn_array_destroy(&O); mn_array_destroy(&WO);
  }
  /* the same indices once more (kept), then one past the end on the last rank */
  T_OK(mn_array_take(x, idx, out));
  ix[m - 1] = n;
  set_idx(idx, ix);
  int rc = mn_array_take(x, idx, out);
  T_CHECK(rc == MN_ERR_INDEX && strstr(mn_ctx_errmsg(ctx), "index 3001 is out of bounds for axis 0 with size 3001"),
          "take of index 3001 after a kept plan returned %s: %s", mn_err_name(rc), mn_ctx_errmsg(ctx));
  double *before = mt_all(x);
  rc = mn_array_put(x, idx, out);
  T_CHECK(rc == MN_ERR_INDEX && strstr(mn_ctx_errmsg(ctx), "index 3001 is out of bounds for axis 0 with size 3001"),
          "put of index 3001 after a kept plan returned %s: %s", mn_err_name(rc), mn_ctx_errmsg(ctx));
  double *after = mt_all(x);
  for (int64_t k = 0; k < n; k++)
    if (after[k] != before[k]) { T_CHECK(0, "failed put after a kept plan changed x[%lld]", (long long)k); break; }
  free(before);
  free(after);
  mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&x32); mn_array_destroy(&idx);
  mn_array_destroy(&jdx); mn_array_destroy(&out); mn_array_destroy(&o32);
}

/* take_rows of an r x c array (halo h; from rows 1.. when view) by m
 * random row indices, some negative, against the serial loop */
static void check_take_rows(mn_ctx *ctx, int64_t r, int64_t c, int64_t m, int h, int view, uint64_t seed) {
  int64_t xs[] = {r, c}, os[] = {m, c};
  mn_array *x = NULL, *src = NULL, *idx = NULL, *out = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, xs, h, &x));
  mt_set(x, f);
  src = x;
  int64_t nr = r, off = 0;
  if (view) {
    mn_index sv[] = {mn_slice(1, MN_NONE, 1), mn_all()};
    T_OK(mn_array_index(x, 2, sv, &src));
    nr = r - 1;
    off = 1;
  }
  T_OK(mn_array_create(ctx, MN_INT64, 1, &m, 0, &idx));
  int64_t *ix = malloc(sizeof(int64_t) * (size_t)(m ? m : 1));
  for (int64_t k = 0; k < m; k++) ix[k] = (int64_t)(lcg(&seed) % (uint64_t)(2 * nr)) - nr; /* [-nr, nr) */
  set_idx(idx, ix);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, os, 0, &out));
  T_OK(mn_array_take_rows(src, idx, out));
  double *o = mt_all(out);
  for (int64_t k = 0; k < m * c; k++) {
    int64_t i = ix[k / c] < 0 ? ix[k / c] + nr : ix[k / c];
    double want = f((i + off) * c + k % c);
    if (o[k] != want) {
      T_CHECK(0, "take_rows %lldx%lld h=%d view=%d: out.flat[%lld] = %g, expected %g", (long long)r, (long long)c, h,
              view, (long long)k, o[k], want);
      break;
    }
  }
  /* the indices held by rank 0 alone (a root layout): moved to the ranks
   * of out's rows first, the same result */
  mn_layout *rl = NULL;
  mn_array *ri = NULL, *out2 = NULL;
  T_OK(mn_layout_create_root(ctx, 1, &m, 0, &rl));
  T_OK(mn_array_create_on(rl, MN_INT64, 0, &ri));
  mn_layout_destroy(&rl);
  T_OK(mn_array_copy(idx, ri));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, os, 0, &out2));
  T_OK(mn_array_take_rows(src, ri, out2));
  double *o2 = mt_all(out2);
  for (int64_t k = 0; k < m * c; k++)
    if (o2[k] != o[k]) {
      T_CHECK(0, "take_rows by root-held indices: out.flat[%lld] = %g, expected %g", (long long)k, o2[k], o[k]);
      break;
    }
  free(o2);
  mn_array_destroy(&ri); mn_array_destroy(&out2);
  free(o);
  /* an index past the end: NumPy's message, on every rank */
  if (m) {
    ix[m - 1] = nr;
    set_idx(idx, ix);
    int rc = mn_array_take_rows(src, idx, out);
    T_CHECK(rc == MN_ERR_INDEX, "take_rows out of bounds returned %s", mn_err_name(rc));
    char want[96];
    snprintf(want, sizeof want, "index %lld is out of bounds for axis 0 with size %lld", (long long)nr, (long long)nr);
    T_CHECK(strstr(mn_ctx_errmsg(ctx), want) != NULL, "message: %s", mn_ctx_errmsg(ctx));
  }
  free(ix);
  if (src != x) mn_array_destroy(&src);
  mn_array_destroy(&x); mn_array_destroy(&idx); mn_array_destroy(&out);
}

static double ff(int64_t k) { return (double)((k * 7) % 5 == 0); }

/* diagonal and trace of an n0 x n1 matrix (halo h; or the view rows 1..,
 * columns reversed) at offset k, against a serial loop over the flat values */
static void check_diagonal(mn_ctx *ctx, int64_t n0, int64_t n1, int h, int view, int64_t k) {
  int64_t s[] = {n0 + view, n1};
  mn_array *x = NULL, *v = NULL, *d = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s, h, &x));
  mt_set(x, f);
  if (view) {
    mn_index sel[] = {mn_slice(1, MN_NONE, 1), mn_slice(MN_NONE, MN_NONE, -1)};
    T_OK(mn_array_index(x, 2, sel, &v));
  }
  const mn_array *m = view ? v : x;
  int64_t r0 = k < 0 ? -k : 0, c0 = k > 0 ? k : 0, len = n0 - r0 < n1 - c0 ? n0 - r0 : n1 - c0;
  if (len < 0) len = 0;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &len, 0, &d));
  T_OK(mn_array_diagonal(m, k, d));
  double *got = mt_all(d), want = 0;
  for (int64_t i = 0; i < len; i++) {
    int64_t r = i + r0 + view, c = view ? n1 - 1 - (i + c0) : i + c0;
    double e = f(r * n1 + c);
    want += e;
    if (got[i] != e) { T_CHECK(0, "diagonal %lldx%lld k=%lld view=%d: [%lld] = %g, expected %g", (long long)n0,
                               (long long)n1, (long long)k, view, (long long)i, got[i], e); break; }
  }
  mn_scalar t;
  T_OK(mn_array_trace(m, k, &t));
  T_CHECK(t.dtype == MN_FLOAT64 && fabs(t.v.f - want) <= 1e-12 * (1 + fabs(want)), "trace %lldx%lld k=%lld: %g, expected %g",
          (long long)n0, (long long)n1, (long long)k, t.v.f, want);
  free(got);
  mn_array_destroy(&d); mn_array_destroy(&v); mn_array_destroy(&x);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  check_take_put(ctx, 1000, 777, MN_INT64, 1);
  check_take_put(ctx, 3, 40, MN_INT32, 2);   /* many repeats */
  check_take_put(ctx, 2, 1, MN_INT64, 3);    /* smaller than the rank count */
  check_take_put(ctx, 5, 0, MN_INT64, 4);    /* no indices */
  check_kept_plan(ctx);
  check_take_rows(ctx, 50, 7, 33, 0, 0, 5);  /* rows split alike: rows move whole */
  check_take_rows(ctx, 60, 20, 45, 0, 0, 10); /* rows wider than a cache line */
  check_take_rows(ctx, 50, 7, 33, 1, 0, 6);  /* a halo: flat indices */
  check_take_rows(ctx, 40, 3, 61, 0, 1, 7);  /* a view from row 1 */
  check_take_rows(ctx, 3, 5, 2, 0, 0, 8);    /* fewer rows than ranks */
  check_take_rows(ctx, 6, 4, 0, 0, 0, 9);    /* no indices */
  for (int64_t k = -4; k <= 4; k += 2) {
    check_diagonal(ctx, 13, 13, 0, 0, k); /* split by rows: each rank copies its own */
    check_diagonal(ctx, 7, 11, 0, 0, k);  /* wider: a take */
    check_diagonal(ctx, 11, 5, 1, 0, k);  /* a halo, taller */
    check_diagonal(ctx, 9, 9, 0, 1, k);   /* a view */
  }
  check_diagonal(ctx, 2, 2, 0, 0, 0);     /* fewer rows than ranks */
  check_diagonal(ctx, 3, 2, 0, 0, 5);     /* empty */
  {
    int64_t s3[] = {2, 3, 4}, three = 3;
    mn_array *a3 = NULL, *o = NULL;
    T_OK(mn_array_create(ctx, MN_FLOAT64, 3, s3, 0, &a3));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &three, 0, &o));
    int rc = mn_array_diagonal(a3, 0, o);
    T_CHECK(rc == MN_ERR_SHAPE, "diagonal of a 3-d array returned %s", mn_err_name(rc));
    mn_array_destroy(&a3);
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s3 + 1, 0, &a3));
    rc = mn_array_diagonal(a3, 2, o);
    T_CHECK(rc == MN_ERR_SHAPE && strstr(mn_ctx_errmsg(ctx), "length 2 (offset 2 of a 3 x 4 array)"),
            "diagonal into a wrong length returned %s: %s", mn_err_name(rc), mn_ctx_errmsg(ctx));
    mn_array_destroy(&a3); mn_array_destroy(&o);
  }
  {
    int64_t s2[] = {4, 3}, s3[] = {2, 3}, two = 2;
    mn_array *a = NULL, *ii = NULL, *o32 = NULL, *o2 = NULL;
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 0, &a));
    T_OK(mn_array_create(ctx, MN_INT64, 1, &two, 0, &ii));
    T_OK(mn_array_create(ctx, MN_FLOAT32, 2, s3, 0, &o32));
    int rc = mn_array_take_rows(a, ii, o32);
    T_CHECK(rc == MN_ERR_DTYPE, "take_rows into another dtype returned %s", mn_err_name(rc));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 0, &o2));
    rc = mn_array_take_rows(a, ii, o2);
    T_CHECK(rc == MN_ERR_SHAPE, "take_rows into a wrong shape returned %s", mn_err_name(rc));
    T_CHECK(strstr(mn_ctx_errmsg(ctx), "out has shape (4, 3), not (2,) + (4, 3)[1:]") != NULL, "message: %s",
            mn_ctx_errmsg(ctx));
    mn_array_destroy(&a); mn_array_destroy(&ii); mn_array_destroy(&o32); mn_array_destroy(&o2);
  }

  /* take from a strided 2-d view into a 2-d index array, into a view */
  int64_t gs[] = {9, 8}, is[] = {3, 4};
  mn_array *g = NULL, *v = NULL, *idx = NULL, *o = NULL, *ov = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, gs, 1, &g));
  mt_set(g, f);
  mn_index sv[] = {mn_slice(1, MN_NONE, 2), mn_slice(MN_NONE, MN_NONE, -3)}; /* (4, 3): g[1+2i][7-3j] */
  T_OK(mn_array_index(g, 2, sv, &v));
  T_OK(mn_array_create(ctx, MN_INT64, 2, is, 0, &idx));
  int64_t ix[12];
  for (int k = 0; k < 12; k++) ix[k] = (k * 5) % 12;
  set_idx(idx, ix);
  int64_t os[] = {6, 4};
  T_OK(mn_array_create(ctx, MN_FLOAT32, 2, os, 0, &o));
  mn_index sel[] = {mn_slice(1, MN_NONE, 2), mn_all()};
  T_OK(mn_array_index(o, 2, sel, &ov)); /* rows 1, 3, 5: a view as output, with a cast */
  T_OK(mn_array_take(v, idx, ov));
  double *got = mt_all(o);
  for (int r = 0; r < 6; r++)
    for (int c = 0; c < 4; c++) {
      double want = 0;
      if (r % 2) { int64_t fl = ix[(r / 2) * 4 + c]; want = (float)f((1 + 2 * (fl / 3)) * 8 + 7 - 3 * (fl % 3)); }
      T_CHECK(got[r * 4 + c] == want, "take from a view: o[%d][%d] = %g, expected %g", r, c, got[r * 4 + c], want);
    }
  free(got);
  /* put through the view writes the base */
  mn_array *vals = NULL;
  T_OK(mn_array_create(ctx, MN_INT32, 2, is, 0, &vals));
  mt_set(vals, f);
  double *ref = mt_all(g);
  for (int k = 0; k < 12; k++) { int64_t fl = ix[k]; ref[(1 + 2 * (fl / 3)) * 8 + 7 - 3 * (fl % 3)] = (int32_t)f(k); }
  T_OK(mn_array_put(v, idx, vals));
  got = mt_all(g);
  for (int k = 0; k < 72; k++) T_CHECK(got[k] == ref[k], "put through a view: g.flat[%d] = %g, expected %g", k, got[k], ref[k]);
  free(got);
  /* an index out of bounds: the same error on every rank, g unchanged */
  ix[5] = 12;
  set_idx(idx, ix);
  int rc = mn_array_put(v, idx, vals);
  T_CHECK(rc == MN_ERR_INDEX, "out-of-bounds put returned %s", mn_err_name(rc));
  T_CHECK(strstr(mn_ctx_errmsg(ctx), "index 12 is out of bounds for axis 0 with size 12") != NULL, "message: %s",
          mn_ctx_errmsg(ctx));
  got = mt_all(g);
  for (int k = 0; k < 72; k++) T_CHECK(got[k] == ref[k], "failed put changed g.flat[%d]", k);
  free(got);
  rc = mn_array_take(v, idx, ov);
  T_CHECK(rc == MN_ERR_INDEX, "out-of-bounds take returned %s", mn_err_name(rc));
  ix[5] = -13;
  set_idx(idx, ix);
  rc = mn_array_take(v, idx, ov);
  T_CHECK(rc == MN_ERR_INDEX && strstr(mn_ctx_errmsg(ctx), "index -13 is out of bounds for axis 0 with size 12"),
          "take of index -13 of 12 returned %s: %s", mn_err_name(rc), mn_ctx_errmsg(ctx));
  /* negative indices count from the end, as NumPy's: -12 is 0, -1 is 11 */
  for (int k = 0; k < 12; k++) ix[k] = k % 2 ? -1 - (k * 5) % 12 : (k * 5) % 12;
  set_idx(idx, ix);
  T_OK(mn_array_take(v, idx, ov));
  got = mt_all(o);
  for (int r = 1; r < 6; r += 2)
    for (int c = 0; c < 4; c++) {
      int64_t fl = ix[(r / 2) * 4 + c];
      fl = fl < 0 ? fl + 12 : fl;
      double want = (float)ref[(1 + 2 * (fl / 3)) * 8 + 7 - 3 * (fl % 3)]; /* (g after the put above) */
      T_CHECK(got[r * 4 + c] == want, "take of negative indices: o[%d][%d] = %g, expected %g", r, c, got[r * 4 + c],
              want);
    }
  free(got);
  T_OK(mn_array_put(v, idx, vals));
  for (int k = 0; k < 12; k++) {
    int64_t fl = ix[k] < 0 ? ix[k] + 12 : ix[k];
    ref[(1 + 2 * (fl / 3)) * 8 + 7 - 3 * (fl % 3)] = (int32_t)f(k);
  }
  got = mt_all(g);
  for (int k = 0; k < 72; k++) T_CHECK(got[k] == ref[k], "put of negative indices: g.flat[%d] = %g, expected %g", k,
                                        got[k], ref[k]);
  free(got); free(ref);
  rc = mn_array_take(v, g, ov);
  T_CHECK(rc == MN_ERR_DTYPE, "float indices returned %s", mn_err_name(rc));

  /* a 2-d index array with many repeats: the value last in C order wins,
   * whatever the blocks of the index array */
  {
    int64_t rs[] = {6, 7}, tn = 13;
    mn_array *ri = NULL, *rv = NULL, *t = NULL;
    T_OK(mn_array_create(ctx, MN_INT64, 2, rs, 0, &ri));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, rs, 0, &rv));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &tn, 0, &t));
    int64_t rix[42];
    uint64_t sd = 9;
    double want[13] = {0};
    for (int k = 0; k < 42; k++) { rix[k] = (int64_t)(lcg(&sd) % 13); want[rix[k]] = f(k); }
    set_idx(ri, rix);
    mt_set(rv, f);
    T_OK(mn_array_put(t, ri, rv));
    double *tv = mt_all(t);
    for (int k = 0; k < 13; k++) T_CHECK(tv[k] == want[k], "put with repeats from a 2-d index: t[%d] = %g, expected %g", k, tv[k], want[k]);
    free(tv);
    mn_array_destroy(&ri); mn_array_destroy(&rv); mn_array_destroy(&t);
  }

  /* compress: a 2-d mask over a view, against the serial C order */
  mn_array *mask = NULL, *c = NULL;
  int64_t ms[] = {4, 3};
  T_OK(mn_array_create(ctx, MN_BOOL, 2, ms, 0, &mask));
  mt_set(mask, ff);
  T_OK(mn_array_compress(v, mask, &c));
  if (c) {
    double *all = mt_all(g), *cc = mt_all(c);
    int64_t k = 0;
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 3; j++)
        if (ff(i * 3 + j) != 0) {
          double want = all[(1 + 2 * i) * 8 + 7 - 3 * j];
          T_CHECK(k < mn_array_size(c) && cc[k] == want, "compress element %lld = %g, expected %g", (long long)k, cc[k], want);
          k++;
        }
    T_CHECK(mn_array_size(c) == k, "compress kept %lld elements, expected %lld", (long long)mn_array_size(c), (long long)k);
    free(all); free(cc);
  }
  /* a mask of the wrong shape is an index error on every rank */
  mn_array *c2 = NULL;
  rc = mn_array_compress(g, mask, &c2);
  T_CHECK(rc == MN_ERR_INDEX && c2 == NULL, "mask shape mismatch returned %s", mn_err_name(rc));

  /* concat_local: rank r contributes r+1 values r*100 + i */
  int me = mn_ctx_rank(ctx), P = mn_ctx_size(ctx);
  int64_t mine[8];
  for (int i = 0; i <= me && i < 8; i++) mine[i] = me * 100 + i;
  mn_array *cat = NULL;
  T_OK(mn_array_concat_local(ctx, MN_INT64, me + 1 < 8 ? me + 1 : 8, mine, &cat));
  if (cat) {
    double *cc = mt_all(cat);
    int64_t k = 0;
    for (int r = 0; r < P; r++)
      for (int i = 0; i <= r && i < 8; i++, k++) T_CHECK(cc[k] == r * 100 + i, "concat element %lld = %g", (long long)k, cc[k]);
    T_CHECK(mn_array_size(cat) == k, "concat size %lld, expected %lld", (long long)mn_array_size(cat), (long long)k);
    free(cc);
    /* split_local, its inverse: other counts (rank r takes P - r), from
     * the array and from a reversed view of it (a copy first) */
    int64_t want = P - me, got[8], N = mn_array_size(cat), off = 0;
    for (int r = 0; r < me; r++) off += P - r;
    int64_t tot = (int64_t)P * (P + 1) / 2;
    if (N == tot) {
      mn_array *rev = NULL;
      mn_index back = mn_slice(MN_NONE, MN_NONE, -1);
      T_OK(mn_array_index(cat, 1, &back, &rev));
      for (int pass = 0; pass < 2; pass++) {
        T_OK(mn_array_split_local(pass ? rev : cat, want, got));
        double *all = mt_all(cat);
        for (int64_t i = 0; i < want; i++) {
          int64_t k = pass ? N - 1 - (off + i) : off + i;
          T_CHECK(got[i] == (int64_t)all[k], "split_local (pass %d) element %lld = %lld, want %g", pass,
                  (long long)(off + i), (long long)got[i], all[k]);
        }
        free(all);
      }
      mn_array_destroy(&rev);
    }
    /* counts that do not add up to the size: refused on every rank */
    T_EXPECT(mn_array_split_local(cat, me == 0 ? want + 1 : want, got), MN_ERR_SHAPE, "split_local miscount",
             "add up to");
  }
  mn_array_destroy(&cat); mn_array_destroy(&c); mn_array_destroy(&mask); mn_array_destroy(&vals);
  mn_array_destroy(&g); mn_array_destroy(&v); mn_array_destroy(&idx); mn_array_destroy(&o); mn_array_destroy(&ov);
  return mt_finish(&ctx);
}
