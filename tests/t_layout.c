/* Equal splits and block layouts: sizes differ by at most one, every index
 * has exactly one owner, and the owner lookup agrees with the boxes. */
#include "mn_test.h"

static void check_split(int64_t n, int p) {
  int64_t total = 0, mn = INT64_MAX, mx = 0;
  for (int r = 0; r < p; r++) {
    int64_t s = mn_split_size(n, p, r);
    T_CHECK(mn_split_start(n, p, r) == total, "split(%lld,%d) part %d starts at %lld, expected %lld",
            (long long)n, p, r, (long long)mn_split_start(n, p, r), (long long)total);
    for (int64_t i = total; i < total + s; i++)
      T_CHECK(mn_split_owner(n, p, i) == r, "owner of %lld in split(%lld,%d) is %d, expected %d", (long long)i,
              (long long)n, p, mn_split_owner(n, p, i), r);
    total += s;
    if (s < mn) mn = s;
    if (s > mx) mx = s;
  }
  T_CHECK(total == n, "split(%lld,%d) covers %lld items", (long long)n, p, (long long)total);
  T_CHECK(mx - mn <= 1, "split(%lld,%d) sizes differ by %lld", (long long)n, p, (long long)(mx - mn));
}

static void check_layout(mn_ctx *ctx, int nd, const int64_t *shape) {
  mn_layout *lay = NULL;
  T_OK(mn_layout_create_block(ctx, nd, shape, NULL, &lay));
  if (!lay) return;
  int P = mn_ctx_size(ctx);
  const int *dims = mn_layout_dims(lay);
  long prod = 1;
  for (int d = 0; d < nd; d++) prod *= dims[d];
  T_CHECK(prod == P, "grid dims multiply to %ld, expected %d ranks", prod, P);
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= shape[d];
  int *owners = calloc((size_t)n, sizeof(int));
  int64_t covered = 0;
  for (int r = 0; r < P; r++) {
    int64_t lo[MN_MAXDIM], hi[MN_MAXDIM], cnt = 1;
    mn_layout_box(lay, r, lo, hi);
    for (int d = 0; d < nd; d++) cnt *= hi[d] - lo[d];
    T_CHECK(cnt == mn_layout_local_size(lay, r), "rank %d box size %lld vs local size %lld", r, (long long)cnt,
            (long long)mn_layout_local_size(lay, r));
    covered += cnt;
    for (int64_t k = 0; k < n; k++) {
      int64_t idx[MN_MAXDIM], rem = k;
      int in = 1;
      for (int d = nd - 1; d >= 0; d--) { idx[d] = rem % shape[d]; rem /= shape[d]; }
      for (int d = 0; d < nd; d++) in &= idx[d] >= lo[d] && idx[d] < hi[d];
      if (!in) continue;
      owners[k]++;
      T_CHECK(mn_layout_owner(lay, idx) == r, "owner of flat %lld is %d, box says %d", (long long)k,
              mn_layout_owner(lay, idx), r);
    }
  }
  T_CHECK(covered == n, "boxes cover %lld of %lld elements", (long long)covered, (long long)n);
  for (int64_t k = 0; k < n; k++) T_CHECK(owners[k] == 1, "element %lld has %d owners", (long long)k, owners[k]);
  free(owners);
  mn_layout_destroy(&lay);
  T_CHECK(lay == NULL, "destroy did not clear the handle");
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  for (int p = 1; p <= 9; p++)
    for (int64_t n = 0; n <= 23; n++) check_split(n, p);
  check_split(1000003, 7);
  int64_t s1[] = {17}, s2[] = {7, 5}, s3[] = {4, 3, 5}, s4[] = {1, 9}, s5[] = {2, 2, 2}, s6[] = {3};
  check_layout(ctx, 1, s1);
  check_layout(ctx, 2, s2);
  check_layout(ctx, 3, s3);
  check_layout(ctx, 2, s4);
  check_layout(ctx, 3, s5);
  check_layout(ctx, 1, s6);
  /* the longest axis gets the most ranks */
  int dims[2];
  int64_t tall[] = {100, 10};
  T_OK(mn_grid_dims(4, 2, tall, dims));
  T_CHECK(dims[0] >= dims[1], "grid for 100x10 on 4 ranks is %dx%d", dims[0], dims[1]);
  int64_t wide[] = {10, 100};
  T_OK(mn_grid_dims(8, 2, wide, dims));
  T_CHECK(dims[0] == 2 && dims[1] == 4, "grid for 10x100 on 8 ranks is %dx%d, not 2x4", dims[0], dims[1]);
  /* nearly equal extents share one grid (a field's faces beside its cells),
   * the larger factor on the first axis: no redistribution between them */
  int64_t xf[] = {256, 258}, yf[] = {258, 256}, c3[] = {64, 66, 65};
  for (int p = 2; p <= 12; p++) {
    int dx[2], dy[2], d3[3], f[2] = {0, 0};
    T_OK(mn_grid_dims(p, 2, xf, dx));
    T_OK(mn_grid_dims(p, 2, yf, dy));
    T_OK(MPI_Dims_create(p, 2, f));
    T_CHECK(dx[0] == f[0] && dx[1] == f[1] && dy[0] == f[0] && dy[1] == f[1],
            "grids for 256x258 (%dx%d) and 258x256 (%dx%d) on %d ranks are not %dx%d", dx[0], dx[1], dy[0], dy[1], p,
            f[0], f[1]);
    T_OK(mn_grid_dims(p, 3, c3, d3));
    T_CHECK(d3[0] >= d3[1] && d3[1] >= d3[2], "grid for 64x66x65 on %d ranks is %dx%dx%d", p, d3[0], d3[1], d3[2]);
  }
  /* explicit grid that does not match the communicator is rejected */
  mn_layout *bad = NULL;
  int g[2] = {mn_ctx_size(ctx) + 1, 1};
  T_CHECK(mn_layout_create_block(ctx, 2, s2, g, &bad) == MN_ERR_ARG && bad == NULL,
          "grid of %d ranks accepted on %d", g[0], mn_ctx_size(ctx));
  return mt_finish(&ctx);
}
