/* Halo exchange in 1, 2 and 3 dimensions with uneven splits: every ghost
 * cell (sides and corners) must hold the value of the global element it
 * mirrors, or keep its old value outside the domain (or wrap, periodic). */
#include "mn_test.h"

static double val(int nd, const int64_t *g, const int64_t *shape) {
  double v = 0;
  for (int d = 0; d < nd; d++) v = v * 1000.0 + (double)((g[d] % shape[d] + shape[d]) % shape[d]);
  return v + 0.5;
}

static void check(mn_ctx *ctx, int nd, const int64_t *shape, int h, const int *periodic) {
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, nd, shape, h, &a));
  if (!a) return;
  mn_local loc;
  T_OK(mn_array_local(a, &loc));
  int64_t n = 1, ext[MN_MAXDIM];
  for (int d = 0; d < nd; d++) { ext[d] = loc.count[d] + 2 * h; n *= loc.count[d] ? ext[d] : 0; }
  double *base = n ? (double *)loc.data : NULL;
  /* fill owned cells with val(), ghosts with a sentinel */
  for (int64_t k = 0; k < n; k++) {
    int64_t r = k, off = 0, g[MN_MAXDIM];
    int owned = 1;
    for (int d = nd - 1; d >= 0; d--) {
      int64_t i = r % ext[d] - h;
      r /= ext[d];
      off += i * loc.stride[d];
      g[d] = loc.lo[d] + i;
      owned &= i >= 0 && i < loc.count[d];
    }
    base[off] = owned ? val(nd, g, shape) : -1.0;
  }
  mn_plan *p = NULL;
  T_OK(mn_plan_create_halo(a, periodic, &p));
  if (!p) { mn_array_destroy(&a); return; }
  for (int rep = 0; rep < 2; rep++) { /* a plan runs more than once */
    T_OK(mn_plan_begin(p));
    T_OK(mn_plan_end(p));
  }
  for (int64_t k = 0; k < n; k++) {
    int64_t r = k, off = 0, g[MN_MAXDIM];
    int inside = 1;
    for (int d = nd - 1; d >= 0; d--) {
      int64_t i = r % ext[d] - h;
      r /= ext[d];
      off += i * loc.stride[d];
      g[d] = loc.lo[d] + i;
      if ((g[d] < 0 || g[d] >= shape[d]) && !(periodic && periodic[d])) inside = 0;
    }
    double want = inside ? val(nd, g, shape) : -1.0;
    if (base[off] != want) {
      T_CHECK(0, "%d-d halo %d cell at global (%lld,%lld,%lld) = %g, expected %g", nd, h, (long long)g[0],
              (long long)(nd > 1 ? g[1] : 0), (long long)(nd > 2 ? g[2] : 0), base[off], want);
      break;
    }
  }
  int nmsg;
  int64_t bytes;
  mn_plan_volume(p, &nmsg, &bytes);
  T_CHECK(mn_ctx_size(ctx) > 1 || periodic || nmsg == 0, "one rank, no periodic axis, yet %d messages", nmsg);
  mn_plan_destroy(&p);
  T_CHECK(p == NULL, "destroy did not clear the plan");
  mn_array_destroy(&a);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  /* above 4 ranks (the scale tests) the shapes grow with the rank count,
   * so that every block stays at least as wide as the halo */
  int64_t m = mn_ctx_size(ctx) > 4 ? mn_ctx_size(ctx) / 4 : 1;
  int64_t s1[] = {29 * m}, s2[] = {7 * m, 5 * m}, s3[] = {6 * m, 5 * m, 7 * m}, s2b[] = {40 * m, 9 * m};
  int per1[] = {1}, per2[] = {1, 1}, per2x[] = {0, 1}, per3[] = {1, 0, 1};
  check(ctx, 1, s1, 1, NULL);
  check(ctx, 1, s1, 2, per1);
  check(ctx, 2, s2, 1, NULL);
  check(ctx, 2, s2, 1, per2);
  check(ctx, 2, s2b, 2, per2x);
  check(ctx, 3, s3, 1, NULL);
  check(ctx, 3, s3, 1, per3);
  /* cached exchange through the convenience call, twice */
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT32, 2, s2b, 1, &a));
  T_OK(mn_array_arange(a, 0, 1));
  T_OK(mn_array_halo_exchange(a));
  T_OK(mn_array_halo_exchange(a));
  mn_local loc;
  T_OK(mn_array_local(a, &loc));
  if (loc.count[0] && loc.lo[0] > 0) { /* the row above my block */
    float *p = (float *)loc.data - loc.stride[0];
    for (int64_t j = 0; j < loc.count[1]; j++)
      T_CHECK(p[j * loc.stride[1]] == (float)((loc.lo[0] - 1) * s2b[1] + loc.lo[1] + j), "float32 ghost row value %g", p[j]);
  }
  mn_array_destroy(&a);
  return mt_finish(&ctx);
}
