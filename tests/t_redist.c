/* Redistribution between layouts (different process grids, everything on
 * one rank), gather to and scatter from a root, and single-element access. */
#include "mn_test.h"

static double f(int64_t k) { return 3.0 * (double)k - 7.0; }

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx);
  /* above 4 ranks (the scale tests) the columns grow with the rank count,
   * so that the column split's blocks stay as wide as ac's halo */
  const int64_t R = 13, C = 10 * (P > 4 ? P / 4 : 1), N = R * C;
  int64_t shape[] = {R, C};
  /* rows only, columns only, default grid, everything on the last rank */
  int rows[2] = {P, 1}, cols[2] = {1, P};
  mn_layout *lr = NULL, *lc = NULL, *ld = NULL, *lroot = NULL;
  T_OK(mn_layout_create_block(ctx, 2, shape, rows, &lr));
  T_OK(mn_layout_create_block(ctx, 2, shape, cols, &lc));
  T_OK(mn_layout_create_block(ctx, 2, shape, NULL, &ld));
  T_OK(mn_layout_create_root(ctx, 2, shape, P - 1, &lroot));
  mn_array *ar = NULL, *ac = NULL, *ad = NULL, *aroot = NULL;
  T_OK(mn_array_create_on(lr, MN_FLOAT64, 0, &ar));
  T_OK(mn_array_create_on(lc, MN_INT64, 1, &ac));
  T_OK(mn_array_create_on(ld, MN_FLOAT32, 0, &ad));
  T_OK(mn_array_create_on(lroot, MN_FLOAT64, 0, &aroot));
  mt_set(ar, f);
  T_OK(mn_array_copy(ar, ac));
  T_OK(mn_array_copy(ac, ad));
  T_OK(mn_array_copy(ad, aroot));
  double *v = mt_all(aroot);
  for (int64_t k = 0; k < N; k++) T_CHECK(v[k] == f(k), "after rows->cols->grid->root, element %lld = %g, expected %g", (long long)k, v[k], f(k));
  free(v);
  /* the root layout really holds everything on one rank */
  mn_local loc;
  T_OK(mn_array_local(aroot, &loc));
  int64_t mine = loc.count[0] * loc.count[1];
  T_CHECK(mine == (mn_ctx_rank(ctx) == P - 1 ? N : 0), "root layout: rank holds %lld elements", (long long)mine);
  /* transposed redistribution: ad = ar.T is a (C, R) array */
  mn_array *t = NULL, *dt = NULL;
  T_OK(mn_array_transpose(ar, NULL, &t));
  int64_t tsh[] = {C, R};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, tsh, 0, &dt));
  T_OK(mn_array_copy(t, dt));
  v = mt_all(dt);
  for (int64_t i = 0; i < C; i++)
    for (int64_t j = 0; j < R; j++)
      T_CHECK(v[i * R + j] == f(j * C + i), "transpose copy (%lld,%lld)", (long long)i, (long long)j);
  free(v);
  /* element access returns the same value everywhere */
  int64_t idx[] = {R - 1, C - 1};
  mn_scalar s;
  T_OK(mn_array_get(ac, idx, &s));
  T_CHECK(s.dtype == MN_INT64 && s.v.i == (int64_t)f(N - 1), "get (%lld,%lld) = %lld", (long long)R - 1,
          (long long)C - 1, (long long)s.v.i);
  /* scatter from a non-zero root then gather to another */
  int root = P > 1 ? 1 : 0;
  double *buf = malloc(sizeof(double) * (size_t)N), *back = malloc(sizeof(double) * (size_t)N);
  for (int k = 0; k < N; k++) buf[k] = -(double)k;
  T_OK(mn_array_scatter(ar, root, mn_ctx_rank(ctx) == root ? buf : NULL));
  T_OK(mn_array_gather(ar, 0, mn_ctx_rank(ctx) == 0 ? back : NULL));
  if (mn_ctx_rank(ctx) == 0)
    for (int k = 0; k < N; k++) T_CHECK(back[k] == -(double)k, "scatter/gather element %d = %g", k, back[k]);
  /* every rank holds the whole array: set_global takes each rank's part,
   * allgather gives everything back on every rank (through a view too) */
  for (int k = 0; k < N; k++) buf[k] = 0.5 * (double)k + 1.0;
  T_CHECK(mn_array_set_global(ad, NULL) == MN_ERR_ARG, "set_global accepted a NULL buffer");
  float *fb = malloc(sizeof(float) * (size_t)N), *fback = malloc(sizeof(float) * (size_t)N);
  for (int k = 0; k < N; k++) fb[k] = (float)buf[k];
  T_OK(mn_array_set_global(ad, fb)); /* ad is float32 on the default grid */
  T_OK(mn_array_allgather(ad, fback));
  for (int k = 0; k < N; k++) T_CHECK(fback[k] == fb[k], "set_global/allgather element %d = %g", k, fback[k]);
  mn_array *sub = NULL;
  mn_index si[] = {mn_slice(1, 12, 3), mn_slice(MN_NONE, MN_NONE, -2)};
  T_OK(mn_array_index(ad, 2, si, &sub));
  T_OK(mn_array_allgather(sub, fback));
  for (int64_t i = 0; i < 4; i++)
    for (int64_t j = 0; j < C / 2; j++)
      T_CHECK(fback[i * (C / 2) + j] == fb[(1 + 3 * i) * C + C - 1 - 2 * j], "allgather of a view (%lld,%lld) = %g",
              (long long)i, (long long)j, fback[i * (C / 2) + j]);
  mn_array_destroy(&sub);
  free(fb);
  free(fback);
  free(buf);
  free(back);
  mn_array_destroy(&t);
  mn_array_destroy(&dt);
  mn_array_destroy(&ar);
  mn_array_destroy(&ac);
  mn_array_destroy(&ad);
  mn_array_destroy(&aroot);
  mn_layout_destroy(&lr);
  mn_layout_destroy(&lc);
  mn_layout_destroy(&ld);
  mn_layout_destroy(&lroot);
  return mt_finish(&ctx);
}
