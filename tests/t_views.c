/* Views write through to their base; shifted views combine across rank
 * boundaries (the seed's 5-point stencil written with views) and match a
 * serial loop; assignments whose source overlaps the target behave as in
 * NumPy (right-hand side first). */
#include "mn_test.h"

static double f2(int64_t k) { return (double)((k * 37) % 101) - 50.0; }

/* The seed's 5-point stencil with views on an (M+2) x (N+2) grid, sweeps
 * alternating in place (bands written back late) and out of place, against
 * a serial loop; check_plans: the plan cache is reused across sweeps. */
static void stencil_case(mn_ctx *ctx, int M, int N, int sweeps, int check_plans) {
  int64_t gs[] = {M + 2, N + 2}, W = N + 2;
  mn_array *grid = NULL, *center = NULL, *north = NULL, *east = NULL, *west = NULL, *south = NULL, *avg = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, gs, 0, &grid));
  double *ref = calloc((size_t)((M + 2) * W), sizeof *ref), *nxt = calloc((size_t)((M + 2) * W), sizeof *nxt);
  {
    mn_array *e = NULL;
    mn_index bc[4][2] = {{mn_all(), mn_at(0)}, {mn_all(), mn_at(-1)}, {mn_at(-1), mn_all()}, {mn_at(0), mn_all()}};
    double val[4] = {-273.15, -273.15, -273.15, 40.0};
    for (int k = 0; k < 4; k++) {
      T_OK(mn_array_index(grid, 2, bc[k], &e));
      T_OK(mn_array_fill(e, mn_scalar_f64(val[k])));
      mn_array_destroy(&e);
    }
    for (int i = 0; i < M + 2; i++) { ref[i * W] = -273.15; ref[i * W + N + 1] = -273.15; }
    for (int j = 0; j < N + 2; j++) { ref[(M + 1) * W + j] = -273.15; ref[j] = 40.0; }
  }
  mn_index ic[] = {mn_slice(1, -1, 1), mn_slice(1, -1, 1)}, in_[] = {mn_slice(0, -2, 1), mn_slice(1, -1, 1)},
           ie[] = {mn_slice(1, -1, 1), mn_slice(2, MN_NONE, 1)}, iw[] = {mn_slice(1, -1, 1), mn_slice(0, -2, 1)},
           is[] = {mn_slice(2, MN_NONE, 1), mn_slice(1, -1, 1)};
  T_OK(mn_array_index(grid, 2, ic, &center));
  T_OK(mn_array_index(grid, 2, in_, &north));
  T_OK(mn_array_index(grid, 2, ie, &east));
  T_OK(mn_array_index(grid, 2, iw, &west));
  T_OK(mn_array_index(grid, 2, is, &south));
  int64_t inner[] = {M, N};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, inner, 0, &avg));
  for (int it = 0; it < sweeps; it++) {
    /* average = 0.2 * (center + north + east + west + south); center[:] = average */
    mn_expr *e = NULL;
    int c, n, ea, w, s, a1, a2, a3, a4, k, r;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, center, &c));
    T_OK(mn_expr_input(e, north, &n));
    T_OK(mn_expr_input(e, east, &ea));
    T_OK(mn_expr_input(e, west, &w));
    T_OK(mn_expr_input(e, south, &s));
    T_OK(mn_expr_binary(e, MN_OP_ADD, c, n, &a1));
    T_OK(mn_expr_binary(e, MN_OP_ADD, a1, ea, &a2));
    T_OK(mn_expr_binary(e, MN_OP_ADD, a2, w, &a3));
    T_OK(mn_expr_binary(e, MN_OP_ADD, a3, s, &a4));
    T_OK(mn_expr_scalar(e, mn_scalar_f64(0.2), &k));
    T_OK(mn_expr_binary(e, MN_OP_MUL, k, a4, &r));
    if (it % 2) {
      T_OK(mn_expr_eval(e, r, center)); /* in place: reads overlap the target */
    } else {
      T_OK(mn_expr_eval(e, r, avg));
      T_OK(mn_array_copy(avg, center));
    }
    mn_expr_destroy(&e);
    for (int i = 1; i <= M; i++)
      for (int j = 1; j <= N; j++)
        nxt[i * W + j] = 0.2 * (ref[i * W + j] + ref[(i - 1) * W + j] + ref[i * W + j + 1] + ref[i * W + j - 1] +
                                ref[(i + 1) * W + j]);
    for (int i = 1; i <= M; i++)
      for (int j = 1; j <= N; j++) ref[i * W + j] = nxt[i * W + j];
  }
  double *got = mt_all(grid);
  int bad = 0;
  for (int64_t q = 0; q < (M + 2) * W && bad < 5; q++)
    if (!(fabs(got[q] - ref[q]) <= 1e-12 * (1 + fabs(ref[q])))) {
      T_CHECK(0, "stencil %dx%d (%lld,%lld) = %.17g, serial %.17g", M, N, (long long)(q / W), (long long)(q % W),
              got[q], ref[q]);
      bad++;
    }
  free(got);
  free(ref);
  free(nxt);
  if (check_plans) {
    int cached;
    long hits, misses;
    mn_ctx_plan_stats(ctx, &cached, &hits, &misses);
    /* one rank needs no plans at all; more reuse theirs */
    T_CHECK(mn_ctx_size(ctx) == 1 ? hits + misses == 0 : hits > misses, "plan cache: %ld hits, %ld misses over %d sweeps",
            hits, misses, sweeps);
  }
  mn_array_destroy(&center);
  mn_array_destroy(&north);
  mn_array_destroy(&east);
  mn_array_destroy(&west);
  mn_array_destroy(&south);
  mn_array_destroy(&avg);
  mn_array_destroy(&grid);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  /* ---- write-through of a strided 2-d window ---- */
  enum { R = 11, C = 9 };
  int64_t sh[] = {R, C};
  mn_array *g = NULL, *v = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 0, &g));
  mt_set(g, f2);
  mn_index win[] = {mn_slice(1, 10, 3), mn_slice(8, 0, -2)};
  T_OK(mn_array_index(g, 2, win, &v));
  T_CHECK(mn_array_ndim(v) == 2 && mn_array_shape(v)[0] == 3 && mn_array_shape(v)[1] == 4,
          "window shape (%lld, %lld), expected (3, 4)", (long long)mn_array_shape(v)[0], (long long)mn_array_shape(v)[1]);
  double *vv = mt_all(v);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      T_CHECK(vv[i * 4 + j] == f2((1 + 3 * i) * C + 8 - 2 * j), "view (%d,%d) = %g", i, j, vv[i * 4 + j]);
  free(vv);
  T_OK(mn_array_fill(v, mn_scalar_f64(-1.0)));
  double *gv = mt_all(g);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      int in = i >= 1 && i < 10 && (i - 1) % 3 == 0 && j <= 8 && j > 0 && (8 - j) % 2 == 0;
      double want = in ? -1.0 : f2(i * C + j);
      T_CHECK(gv[i * C + j] == want, "base (%d,%d) = %g after view fill, expected %g", i, j, gv[i * C + j], want);
    }
  free(gv);
  /* integer index drops an axis; newaxis adds one; views of views compose */
  mn_array *row = NULL, *col = NULL, *sub = NULL;
  mn_index ri[] = {mn_at(-2)};
  T_OK(mn_array_index(g, 1, ri, &row));
  mn_index ci[] = {mn_all(), mn_at(3), mn_newaxis()};
  T_OK(mn_array_index(g, 3, ci, &col));
  T_CHECK(mn_array_ndim(row) == 1 && mn_array_shape(row)[0] == C, "row shape");
  T_CHECK(mn_array_ndim(col) == 2 && mn_array_shape(col)[0] == R && mn_array_shape(col)[1] == 1, "col shape");
  mn_index si[] = {mn_slice(1, MN_NONE, 2)};
  T_OK(mn_array_index(row, 1, si, &sub));
  T_OK(mn_array_fill(sub, mn_scalar_f64(5.0)));
  T_OK(mn_array_fill(col, mn_scalar_f64(9.0)));
  gv = mt_all(g);
  for (int j = 1; j < C; j += 2) if (j != 3) T_CHECK(gv[(R - 2) * C + j] == 5.0, "row view write (%d,%d) = %g", R - 2, j, gv[(R - 2) * C + j]);
  for (int i = 0; i < R; i++) T_CHECK(gv[i * C + 3] == 9.0, "col view write (%d,3) = %g", i, gv[i * C + 3]);
  free(gv);
  /* transpose view */
  mn_array *t = NULL;
  T_OK(mn_array_transpose(g, NULL, &t));
  T_CHECK(mn_array_shape(t)[0] == C && mn_array_shape(t)[1] == R, "transpose shape");
  double *tv = mt_all(t);
  gv = mt_all(g);
  for (int i = 0; i < C; i++)
    for (int j = 0; j < R; j++) T_CHECK(tv[i * R + j] == gv[j * C + i], "transpose (%d,%d)", i, j);
  free(tv);
  free(gv);
  mn_array_destroy(&t);
  mn_array_destroy(&sub);
  mn_array_destroy(&row);
  mn_array_destroy(&col);
  mn_array_destroy(&v);
  /* a view outlives its base handle */
  mn_index all2[] = {mn_slice(2, 5, 1)};
  T_OK(mn_array_index(g, 1, all2, &v));
  mn_array_destroy(&g);
  vv = mt_all(v);
  T_CHECK(mn_array_size(v) == 3 * C, "view size after base destroy");
  free(vv);
  mn_array_destroy(&v);

  /* ---- the seed's stencil as views, against a serial loop: a small grid,
   * and rows longer than a 32 KiB band and than a whole-row unit (8192) ---- */
  stencil_case(ctx, 23, 23, 20, 1);
  stencil_case(ctx, 7, 9000, 4, 0);

  /* ---- 1-d overlapping assignment: a[1:] = a[:-1] shifts right ---- */
  int64_t n1[] = {37};
  mn_array *a = NULL, *lhs = NULL, *rhs = NULL;
  T_OK(mn_array_create(ctx, MN_INT64, 1, n1, 0, &a));
  T_OK(mn_array_arange(a, 0, 1));
  mn_index l1[] = {mn_slice(1, MN_NONE, 1)}, r1[] = {mn_slice(MN_NONE, -1, 1)};
  T_OK(mn_array_index(a, 1, l1, &lhs));
  T_OK(mn_array_index(a, 1, r1, &rhs));
  T_OK(mn_array_copy(rhs, lhs));
  double *av = mt_all(a);
  for (int i = 0; i < 37; i++) T_CHECK(av[i] == (i == 0 ? 0 : i - 1), "shift a[%d] = %g", i, av[i]);
  free(av);
  /* reversed copy onto itself: a[:] = a[::-1] */
  mn_array *rev = NULL;
  mn_index rv[] = {mn_slice(MN_NONE, MN_NONE, -1)};
  T_OK(mn_array_index(a, 1, rv, &rev));
  T_OK(mn_array_copy(rev, a));
  av = mt_all(a);
  for (int i = 0; i < 37; i++) T_CHECK(av[i] == (i == 36 ? 0 : 35 - i), "reverse a[%d] = %g", i, av[i]);
  free(av);
  mn_array_destroy(&rev);
  /* aligned: the same map of the same layout (what a fused pass reads with
   * no message), whatever the rank count */
  int64_t n37 = 37, n36 = 36;
  mn_array *fresh = NULL, *f36 = NULL, *tail = NULL, *tail2 = NULL;
  T_OK(mn_array_create(ctx, MN_INT32, 1, &n37, 0, &fresh));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n36, 0, &f36));
  mn_index tl[] = {mn_slice(1, MN_NONE, 1)};
  T_OK(mn_array_index(a, 1, tl, &tail));
  T_OK(mn_array_index(a, 1, tl, &tail2));
  T_CHECK(mn_array_aligned(a, fresh) && mn_array_aligned(fresh, a), "arrays of one shape are not aligned");
  T_CHECK(mn_array_aligned(tail, tail2), "two views a[1:] are not aligned");
  T_CHECK(!mn_array_aligned(tail, f36) && !mn_array_aligned(f36, tail), "a[1:] aligned with a fresh array");
  T_CHECK(!mn_array_aligned(a, tail) && !mn_array_aligned(a, NULL), "a aligned with a[1:] or NULL");
  mn_array_destroy(&tail2);
  mn_array_destroy(&tail);
  mn_array_destroy(&f36);
  mn_array_destroy(&fresh);
  mn_array_destroy(&lhs);
  mn_array_destroy(&rhs);
  mn_array_destroy(&a);
  return mt_finish(&ctx);
}
