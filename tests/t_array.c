/* Creation and fills: zeros, fill, arange, linspace, copy, and the
 * counter-based RNG, which must give the same array at any rank count
 * (checked against a one-rank context built inside the test). */
#include "mn_test.h"

static double lin(int64_t i) { return 0.25 * (double)i - 3.0; }

static void check_rng(mn_ctx *ctx, mn_ctx *solo, int nd, const int64_t *shape, mn_random_kind kind) {
  mn_array *a = NULL, *s = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, nd, shape, 0, &a));
  T_OK(mn_array_random(a, kind, 12345, kind == MN_RANDOM_UNIFORM ? -1.0 : 2.0, kind == MN_RANDOM_UNIFORM ? 3.0 : 0.5));
  double *v = mt_all(a);
  int64_t n = mn_array_size(a);
  if (solo) { /* rank 0 regenerates the array alone */
    T_OK(mn_array_create(solo, MN_FLOAT64, nd, shape, 0, &s));
    T_OK(mn_array_random(s, kind, 12345, kind == MN_RANDOM_UNIFORM ? -1.0 : 2.0, kind == MN_RANDOM_UNIFORM ? 3.0 : 0.5));
    double *w = mt_all(s);
    for (int64_t i = 0; i < n; i++) T_CHECK(v[i] == w[i], "rng element %lld differs: %.17g vs one-rank %.17g", (long long)i, v[i], w[i]);
    free(w);
    mn_array_destroy(&s);
  }
  double mean = 0, var = 0;
  for (int64_t i = 0; i < n; i++) mean += v[i];
  mean /= (double)n;
  for (int64_t i = 0; i < n; i++) var += (v[i] - mean) * (v[i] - mean);
  var /= (double)(n - 1);
  if (kind == MN_RANDOM_UNIFORM) {
    for (int64_t i = 0; i < n; i++) T_CHECK(v[i] >= -1.0 && v[i] < 3.0, "uniform value %g outside [-1, 3)", v[i]);
    T_CHECK(fabs(mean - 1.0) < 0.05, "uniform mean %g, expected 1", mean);
    T_CHECK(fabs(var - 16.0 / 12.0) < 0.05, "uniform variance %g, expected %g", var, 16.0 / 12.0);
  } else {
    T_CHECK(fabs(mean - 2.0) < 0.02, "normal mean %g, expected 2", mean);
    T_CHECK(fabs(var - 0.25) < 0.01, "normal variance %g, expected 0.25", var);
  }
  free(v);
  mn_array_destroy(&a);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  mn_ctx *solo = NULL;
  if (mn_ctx_rank(ctx) == 0) T_OK(mn_ctx_create(MPI_COMM_SELF, MN_BACKEND_CPU, &solo));
  int64_t shape[] = {13, 7};
  mn_dtype types[] = {MN_BOOL, MN_INT32, MN_INT64, MN_FLOAT32, MN_FLOAT64};
  for (int t = 0; t < 5; t++) {
    mn_array *a = NULL, *b = NULL;
    T_OK(mn_array_create(ctx, types[t], 2, shape, t % 2, &a));
    T_CHECK(mn_array_dtype(a) == types[t] && mn_array_size(a) == 91 && mn_array_ndim(a) == 2, "bad metadata");
    double *v = mt_all(a);
    for (int i = 0; i < 91; i++) T_CHECK(v[i] == 0, "%s zeros[%d] = %g", mn_dtype_name(types[t]), i, v[i]);
    free(v);
    T_OK(mn_array_fill(a, mn_scalar_f64(types[t] == MN_BOOL ? 1.0 : 7.5)));
    v = mt_all(a);
    double want = types[t] == MN_BOOL ? 1 : (types[t] == MN_INT32 || types[t] == MN_INT64) ? 7 : 7.5;
    for (int i = 0; i < 91; i++) T_CHECK(v[i] == want, "%s fill[%d] = %g, expected %g", mn_dtype_name(types[t]), i, v[i], want);
    free(v);
    if (types[t] != MN_BOOL) {
      T_OK(mn_array_arange(a, -3.0, 0.25));
      v = mt_all(a);
      for (int i = 0; i < 91; i++) {
        double w = lin(i);
        if (types[t] == MN_INT32 || types[t] == MN_INT64) w = (double)(int64_t)w;
        T_CHECK(v[i] == w, "%s arange[%d] = %g, expected %g", mn_dtype_name(types[t]), i, v[i], w);
      }
      free(v);
      /* copy into another layout and dtype */
      T_OK(mn_array_create_like(a, MN_FLOAT64, &b));
      T_OK(mn_array_copy(a, b));
      double *x = mt_all(a), *y = mt_all(b);
      for (int i = 0; i < 91; i++) T_CHECK(x[i] == y[i], "copy[%d] = %g, expected %g", i, y[i], x[i]);
      free(x);
      free(y);
      mn_array_destroy(&b);
    }
    mn_array_destroy(&a);
    T_CHECK(a == NULL, "destroy did not clear the handle");
  }
  /* linspace, endpoint included and excluded, as numpy.linspace */
  int64_t n1[] = {11};
  mn_array *l = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, n1, 0, &l));
  T_OK(mn_array_linspace(l, 0.0, 1.0, 1));
  double *v = mt_all(l);
  for (int i = 0; i < 11; i++) T_CLOSE(v[i], i / 10.0, 1e-15);
  T_CHECK(v[10] == 1.0, "linspace end point %.17g", v[10]);
  free(v);
  T_OK(mn_array_linspace(l, 2.0, 3.0, 0));
  v = mt_all(l);
  for (int i = 0; i < 11; i++) T_CLOSE(v[i], 2.0 + i / 11.0, 1e-15);
  free(v);
  mn_array_destroy(&l);
  /* RNG: identical to a one-rank run, and with the right moments */
  int64_t r1[] = {20001}, r2[] = {101, 57};
  check_rng(ctx, solo, 1, r1, MN_RANDOM_UNIFORM);
  check_rng(ctx, solo, 2, r2, MN_RANDOM_NORMAL);
  /* the local block with a halo: data pointer and strides address owned cells */
  mn_array *h = NULL;
  int64_t hs[] = {9, 6};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, hs, 2, &h));
  T_OK(mn_array_arange(h, 0.0, 1.0));
  mn_local loc;
  T_OK(mn_array_local(h, &loc));
  for (int64_t i = 0; i < loc.count[0]; i++)
    for (int64_t j = 0; j < loc.count[1]; j++) {
      double got = ((double *)loc.data)[i * loc.stride[0] + j * loc.stride[1]];
      double want = (double)((loc.lo[0] + i) * 6 + loc.lo[1] + j);
      T_CHECK(got == want, "local (%lld,%lld) = %g, expected %g", (long long)i, (long long)j, got, want);
    }
  mn_array_destroy(&h);
  mn_ctx_destroy(&solo);
  return mt_finish(&ctx);
}
