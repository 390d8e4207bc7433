/* mn_array_snapshot and mn_array_rebase: a copy of a storage (halo
 * included) that views read instead of the original, which the deferred
 * evaluation gives pending readers of storage about to be written. The
 * copy holds the old values after the original changes, shifted views of
 * it read across rank boundaries as views of the original did, a rank may
 * make one alone (no message, outside MANIPLE_CHECKS), and a storage laid
 * out otherwise is refused. */
#include "mn_test.h"

static double f2(int64_t k) { return (double)((k * 37) % 101) - 50.0; }

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  enum { R = 13, C = 7 };
  int64_t sh[] = {R, C};
  mn_array *g = NULL, *v = NULL, *s = NULL, *vr = NULL, *up = NULL, *upr = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 1, &g)); /* with a halo: copied too */
  mt_set(g, f2);
  mn_index win[] = {mn_slice(1, 12, 3), mn_slice(6, 0, -2)};
  T_OK(mn_array_index(g, 2, win, &v));
  mn_index shift[] = {mn_slice(0, R - 1, 1), mn_all()};
  T_OK(mn_array_index(g, 2, shift, &up)); /* row i reads row i of g: rank boundaries move */
  T_OK(mn_array_snapshot(v, &s));         /* of a view: the whole storage */
  T_CHECK(mn_array_ndim(s) == 2 && mn_array_shape(s)[0] == R && mn_array_shape(s)[1] == C && !mn_array_is_view(s),
          "snapshot of a view: a base of the storage's shape");
  T_OK(mn_array_rebase(v, s, &vr));
  T_OK(mn_array_rebase(up, s, &upr));
  T_CHECK(mn_array_base_key(vr) == mn_array_base_key(s) && mn_array_base_key(vr) != mn_array_base_key(g),
          "rebased view reads the copy");
  T_OK(mn_array_fill(g, mn_scalar_f64(-7.0))); /* the original changes; the copy does not */
  double *vv = mt_all(vr), *uv = mt_all(upr), *gv = mt_all(g);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 3; j++)
      T_CHECK(vv[i * 3 + j] == f2((1 + 3 * i) * C + 6 - 2 * j), "rebased window (%d,%d) = %g, expected %g", i, j,
              vv[i * 3 + j], f2((1 + 3 * i) * C + 6 - 2 * j));
  for (int k = 0; k < (R - 1) * C; k++) T_CHECK(uv[k] == f2(k), "rebased shifted view [%d] = %g", k, uv[k]);
  for (int k = 0; k < R * C; k++) T_CHECK(gv[k] == -7.0, "original [%d] = %g after fill", k, gv[k]);
  free(vv);
  free(uv);
  free(gv);
  /* an operation reading the copy's shifted views: the messages of the original's */
  mn_array *sum = NULL, *dn = NULL;
  mn_index shift2[] = {mn_slice(1, R, 1), mn_all()};
  T_OK(mn_array_index(s, 2, shift2, &dn));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, (int64_t[]){R - 1, C}, 0, &sum));
  T_OK(mn_array_axpby(1.0, upr, 1.0, dn, sum));
  double *sv = mt_all(sum);
  for (int k = 0; k < (R - 1) * C; k++) T_CHECK(sv[k] == f2(k) + f2(k + C), "sum of shifted copies [%d] = %g", k, sv[k]);
  free(sv);
  /* one rank alone: no message, no MANIPLE_CHECKS call */
  if (mn_ctx_rank(ctx) == 0) {
    mn_array *lone = NULL, *lv = NULL;
    T_OK(mn_array_snapshot(g, &lone));
    T_OK(mn_array_rebase(up, lone, &lv));
    mn_array_destroy(&lv);
    mn_array_destroy(&lone);
  }
  mn_scalar total;
  T_OK(mn_array_reduce(MN_RED_SUM, g, &total)); /* the ranks still make the same calls */
  T_CLOSE(mn_scalar_as_f64(total), -7.0 * R * C, 1e-14);
  /* another layout (no halo here), or another dtype: refused on every rank */
  mn_array *other = NULL, *bad = NULL, *f32 = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 0, &other));
  T_EXPECT(mn_array_rebase(v, other, &bad), MN_ERR_ARG, "rebase onto another halo", "laid out", "halo 1 / 0");
  T_CHECK(bad == NULL, "no view on a refused rebase");
  T_OK(mn_array_create(ctx, MN_FLOAT32, 2, sh, 1, &f32));
  T_EXPECT(mn_array_rebase(v, f32, &bad), MN_ERR_ARG, "rebase onto another dtype", "float64 / float32");
  mn_array *arrs[] = {g, v, s, vr, up, upr, sum, dn, other, f32};
  for (size_t i = 0; i < sizeof arrs / sizeof *arrs; i++) mn_array_destroy(&arrs[i]);
  return mt_finish(&ctx);
}
