/* Reshape keeps every element's C-order flat index while the blocks of the
 * old and new shapes differ: checked against the serial flat order for
 * splits and merges of axes, views as sources, 0-d and empty arrays, and a
 * bad shape rejected on every rank with the input unchanged; copy_flat
 * into a strided view of another shape, and the view description the
 * Python layer's reshape views read. reshape_rows gives the same values,
 * and keeps a row split's rows on their ranks. */
#include "mn_test.h"

static double f(int64_t k) { return 0.5 * (double)k - 17.0; }

static void check(mn_ctx *ctx, mn_dtype t, int nd0, const int64_t *s0, int nd1, const int64_t *s1) {
  mn_array *a = NULL, *b = NULL;
  T_OK(mn_array_create(ctx, t, nd0, s0, 0, &a));
  mt_set(a, f);
  for (int rows = 0; rows < 2; rows++) {
    T_OK(rows ? mn_array_reshape_rows(a, nd1, s1, &b) : mn_array_reshape(a, nd1, s1, &b));
    if (!b) break;
    T_CHECK(mn_array_ndim(b) == nd1 && mn_array_dtype(b) == t, "reshape result metadata");
    double *x = mt_all(a), *y = mt_all(b);
    int64_t n = mn_array_size(a);
    for (int64_t k = 0; k < n; k++)
      if (x[k] != y[k]) {
        T_CHECK(0, "%s reshape%s: flat %lld = %g, expected %g", mn_dtype_name(t), rows ? "_rows" : "", (long long)k,
                y[k], x[k]);
        break;
      }
    free(x);
    free(y);
    mn_array_destroy(&b);
  }
  mn_array_destroy(&a);
}

/* reshape_rows of an array split by rows alone, keeping the first extent:
 * each rank's rows are its rows of the source (nothing moved), the other
 * axes whole, where the default layout of (8, 60) would split columns */
static void check_rows_kept(mn_ctx *ctx, int rows_layout) {
  int64_t s0[] = {8, 3, 20}, s1[] = {8, 60};
  mn_array *a = NULL, *b = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 3, s0, 0, &a));
  mt_set(a, f);
  if (rows_layout) { /* the rows alone split, whatever the default layout does */
    int dims[] = {mn_ctx_size(ctx), 1, 1};
    mn_layout *lay = NULL;
    mn_array_destroy(&a);
    T_OK(mn_layout_create_block(ctx, 3, s0, dims, &lay));
    T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &a));
    mn_layout_destroy(&lay);
    mt_set(a, f);
  }
  T_OK(mn_array_reshape_rows(a, 2, s1, &b));
  if (b) {
    mn_local la, lb;
    T_OK(mn_array_local(a, &la));
    T_OK(mn_array_local(b, &lb));
    if (la.count[1] == 3 && la.count[2] == 20) /* a's rows alone are split */
      T_CHECK(lb.lo[0] == la.lo[0] && lb.count[0] == la.count[0] && lb.count[1] == 60,
              "reshape_rows: rows [%lld, +%lld) x %lld, expected [%lld, +%lld) x 60", (long long)lb.lo[0],
              (long long)lb.count[0], (long long)lb.count[1], (long long)la.lo[0], (long long)la.count[0]);
  }
  /* on the CPU backend the result shares a's storage (no copy) and keeps
   * it alive: a destroyed first, b still reads its values */
  if (b && mn_ctx_backend(ctx) == MN_BACKEND_CPU) {
    mn_local la, lb;
    T_OK(mn_array_local(a, &la));
    T_OK(mn_array_local(b, &lb));
    if (la.count[1] == 3 && la.count[2] == 20) /* a's rows alone are split */
      T_CHECK(la.data == lb.data, "reshape_rows of a base split by rows copied its storage");
  }
  mn_array_destroy(&a);
  if (b) {
    double *y = mt_all(b);
    for (int64_t k = 0; k < 8 * 60; k++)
      if (y[k] != f(k)) { T_CHECK(0, "reshape_rows after its source's destroy: flat %lld = %g", (long long)k, y[k]); break; }
    free(y);
  }
  mn_array_destroy(&b);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int64_t a1[] = {10000}, a2[] = {100, 100}, b1[] = {7, 5}, b2[] = {5, 7}, c1[] = {4, 3, 5}, c2[] = {60},
          d1[] = {6, 10}, d2[] = {2, 3, 10}, e1[] = {1}, z1[] = {0, 4}, z2[] = {4, 0, 3};
  check(ctx, MN_INT64, 1, a1, 2, a2); /* the seed's np.arange(10000).reshape((100, 100)) */
  check(ctx, MN_FLOAT64, 2, b1, 2, b2);
  check(ctx, MN_FLOAT32, 3, c1, 1, c2);
  check(ctx, MN_INT32, 1, c2, 3, c1);
  check(ctx, MN_FLOAT64, 2, d1, 3, d2);
  check(ctx, MN_BOOL, 2, d1, 1, c2);
  check(ctx, MN_FLOAT64, 1, e1, 0, NULL);
  check(ctx, MN_FLOAT64, 0, NULL, 1, e1);
  check(ctx, MN_FLOAT64, 2, z1, 3, z2);
  int64_t r1[] = {8, 3, 20}, r2[] = {8, 60}, r3[] = {8, 6, 10}, r4[] = {4, 120};
  check(ctx, MN_FLOAT64, 3, r1, 2, r2); /* rows kept (reshape_rows: no message) */
  check(ctx, MN_INT16, 3, r1, 3, r3);
  check(ctx, MN_FLOAT64, 2, r2, 2, r4); /* the first extent changes: the default layout */
  check_rows_kept(ctx, 0);
  check_rows_kept(ctx, 1);
  /* a transposed, strided view as the source: its elements in its own order */
  mn_array *g = NULL, *v = NULL, *t = NULL, *r = NULL;
  int64_t gs[] = {9, 8};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, gs, 1, &g));
  mt_set(g, f);
  mn_index ix[] = {mn_slice(1, MN_NONE, 2), mn_slice(MN_NONE, MN_NONE, -3)};
  T_OK(mn_array_index(g, 2, ix, &v));
  T_OK(mn_array_transpose(v, NULL, &t)); /* shape (3, 4) */
  int64_t rs[] = {2, 6};
  T_OK(mn_array_reshape(t, 2, rs, &r));
  if (r) {
    double *y = mt_all(r);
    for (int k = 0; k < 12; k++) {
      int i = k / 4, j = k % 4; /* t[i][j] = g[1 + 2j][7 - 3i] */
      T_CHECK(y[k] == f((1 + 2 * j) * 8 + 7 - 3 * i), "reshape of a view: flat %d = %g", k, y[k]);
    }
    free(y);
  }
  /* a bad shape: the same error everywhere, input unchanged, no output */
  double *before = mt_all(g);
  mn_array *bad = NULL;
  int64_t wrong[] = {7, 11};
  int rc = mn_array_reshape(g, 2, wrong, &bad), lo = 0, hi = 0;
  MPI_Allreduce(&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  T_CHECK(rc == MN_ERR_SHAPE && lo == hi && bad == NULL, "bad reshape returned %s", mn_err_name(rc));
  T_CHECK(strstr(mn_ctx_errmsg(ctx), "size 72") && strstr(mn_ctx_errmsg(ctx), "(7, 11)"), "message: %s",
          mn_ctx_errmsg(ctx));
  double *after = mt_all(g);
  T_CHECK(!memcmp(before, after, sizeof(double) * 72), "bad reshape changed its input");
  free(before);
  free(after);
  /* copy_flat: t's elements in C order into a view of another shape and
   * layout (every other element of a (4, 6) array), the rest untouched */
  mn_array *h = NULL, *hv = NULL;
  int64_t hs[] = {4, 6};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, hs, 0, &h));
  T_OK(mn_array_fill(h, mn_scalar_f64(-1)));
  mn_index every2[] = {mn_all(), mn_slice(MN_NONE, MN_NONE, 2)};
  T_OK(mn_array_index(h, 2, every2, &hv)); /* shape (4, 3): 12 elements */
  T_OK(mn_array_copy_flat(t, hv));
  double *y = mt_all(h);
  for (int k = 0; k < 24; k++) {
    int i = k / 6, j = k % 6, q = i * 3 + j / 2, ti = q / 4, tj = q % 4;
    double want = j % 2 ? -1 : f((1 + 2 * tj) * 8 + 7 - 3 * ti);
    T_CHECK(y[k] == want, "copy_flat: h[%d][%d] = %g, expected %g", i, j, y[k], want);
  }
  free(y);
  int64_t seven[] = {7};
  mn_array *s7 = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, seven, 0, &s7));
  rc = mn_array_copy_flat(s7, hv);
  T_CHECK(rc == MN_ERR_SHAPE && strstr(mn_ctx_errmsg(ctx), "size 7"), "copy_flat of 7 into 12: %s %s",
          mn_err_name(rc), mn_ctx_errmsg(ctx));
  /* how hv views h: base axes 0 and 1, steps 1 and 2; three handles share h */
  int bax[2];
  int64_t st[2];
  mn_array_view_axes(hv, bax, st);
  T_CHECK(bax[0] == 0 && bax[1] == 1 && st[0] == 1 && st[1] == 2, "view axes (%d, %d), steps (%lld, %lld)", bax[0],
          bax[1], (long long)st[0], (long long)st[1]);
  /* h[2, 5::-2]: first element at base index (2, 5), base axis 1 walked backwards */
  mn_index rowrev[] = {mn_at(2), mn_slice(5, MN_NONE, -2)};
  mn_array *rv = NULL;
  T_OK(mn_array_index(h, 2, rowrev, &rv));
  int64_t org[2] = {-1, -1};
  mn_array_view_origin(rv, org);
  mn_array_view_axes(rv, bax, st);
  T_CHECK(org[0] == 2 && org[1] == 5 && bax[0] == 1 && st[0] == -2, "h[2, 5::-2]: origin (%lld, %lld), axis %d step %lld",
          (long long)org[0], (long long)org[1], bax[0], (long long)st[0]);
  mn_array_view_origin(hv, org);
  T_CHECK(org[0] == 0 && org[1] == 0, "hv origin (%lld, %lld)", (long long)org[0], (long long)org[1]);
  mn_array_destroy(&rv);
  T_CHECK(mn_array_share_count(h) == 2 && mn_array_share_count(s7) == 1, "share counts %d and %d",
          mn_array_share_count(h), mn_array_share_count(s7));
  mn_array_destroy(&s7);
  mn_array_destroy(&hv);
  mn_array_destroy(&h);
  mn_array_destroy(&r);
  mn_array_destroy(&t);
  mn_array_destroy(&v);
  mn_array_destroy(&g);
  return mt_finish(&ctx);
}
