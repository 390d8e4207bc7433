/* A stencil call on the grids of the call before it makes no collective:
 * only its halo messages (counted from the partition's boxes), and no
 * allreduce. A first call, a change of grid or of a periodic axis, or a
 * second field builds its plans anew and agrees once. Every result is
 * checked against the serial reference, and bad input after the steady
 * state still fails alike on every rank. */
#include "st_ref.h"

enum { N0 = 23, N1 = 17 };

static mn_log_stats stats(mn_ctx *ctx, mn_log_event ev) {
  mn_log_stats s;
  T_OK(mn_log_get(ctx, ev, &s));
  return s;
}

static double u_of(int64_t i) { return st_rand(7, i); }

/* y = A u against the serial reference */
static void check_apply(mn_stencil *s, const mn_array *u, const mn_array *y, const char *what) {
  const int64_t shape[2] = {N0, N1};
  double *ug = mt_all(u), *got = mt_all(y), *want = malloc(sizeof(double) * N0 * N1),
         *scale = malloc(sizeof(double) * N0 * N1);
  st_ref r;
  st_ref_from(&r, s);
  st_ref_apply(&r, shape, ug, want, scale);
  st_compare(what, N0 * N1, got, want, scale, 1e-14);
  free(ug);
  free(got);
  free(want);
  free(scale);
}

/* the stencil row of the log since the last reset: calls, messages as
 * computed, and this many allreduces (none at one rank) */
static void expect_log(mn_ctx *ctx, int64_t calls, int64_t msgs, int64_t bytes, int64_t ar, const char *what) {
  mn_log_stats st = stats(ctx, MN_LOG_STENCIL), all = stats(ctx, MN_LOG_ALLREDUCE);
  if (mn_ctx_size(ctx) == 1) ar = 0;
  T_CHECK(st.calls == calls, "%s: %lld stencil calls, expected %lld", what, (long long)st.calls, (long long)calls);
  T_CHECK(st.messages == msgs && st.msg_bytes == bytes, "%s: sent %lld messages of %lld bytes, expected %lld of %lld",
          what, (long long)st.messages, (long long)st.msg_bytes, (long long)msgs, (long long)bytes);
  T_CHECK(st.allreduces == ar && all.calls == ar, "%s: %lld allreduces in the stencil calls (%lld in all), expected %lld",
          what, (long long)st.allreduces, (long long)all.calls, (long long)ar);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  const int64_t shape[2] = {N0, N1}, other[2] = {N1, N0};
  double h[2] = {1, 1};
  mn_stencil *s = NULL;
  mn_layout *lay = NULL;
  mn_array *u = NULL, *v = NULL, *y = NULL, *z = NULL, *f = NULL, *bad = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &s));
  T_OK(mn_layout_create_block(ctx, 2, shape, NULL, &lay));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 1, &u));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 1, &v));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &y));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &z));
  T_OK(mn_array_create_on(lay, MN_FLOAT64, 0, &f));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, other, 0, &bad));
  if (!s || !u || !v || !y || !z || !f || !bad) return mt_finish(&ctx);
  mt_set(u, u_of);
  mt_set(v, u_of);
  T_OK(mn_array_fill(f, mn_scalar_f64(1)));
  T_OK(mn_log_enable(ctx));
  int none[2] = {0, 0}, per[2] = {1, 0};
  int64_t hm, hb, pm, pb;
  mt_halo_expect(lay, me, P, shape, 1, none, 8, &hm, &hb);
  mt_halo_expect(lay, me, P, shape, 1, per, 8, &pm, &pb);

  /* the first call builds and agrees once */
  T_OK(mn_log_reset(ctx));
  T_OK(mn_stencil_apply(s, u, y));
  expect_log(ctx, 1, hm, hb, 1, "first apply");
  check_apply(s, u, y, "first apply");

  /* steady state: apply and Jacobi on the same grid, no allreduce */
  const int K = 6;
  T_OK(mn_stencil_jacobi(s, u, f, 0.8, 1)); /* Jacobi wants a second job: built once */
  T_OK(mn_log_reset(ctx));
  for (int k = 0; k < K; k++) T_OK(mn_stencil_apply(s, u, y));
  for (int k = 0; k < K; k++) T_OK(mn_stencil_jacobi(s, v, f, 0.8, 2)); /* v: another grid, same keys */
  expect_log(ctx, 2 * K, 3 * K * hm, 3 * K * hb, 0, "steady apply and Jacobi");
  check_apply(s, u, y, "steady apply");

  /* bad input in the steady state: the same error on every rank, y kept */
  int rc = mn_stencil_apply(s, u, bad), lo = rc, hi = rc;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  T_CHECK(rc == MN_ERR_SHAPE && lo == hi, "apply into a 17 x 23 output gave %s (ranks %s .. %s)", mn_err_name(rc),
          mn_err_name(lo), mn_err_name(hi));
  T_CHECK(strstr(mn_ctx_errmsg(ctx), "output y has shape 17 x 23"), "message: %s", mn_ctx_errmsg(ctx));
  check_apply(s, u, y, "apply after a rejected call");

  /* a periodic axis changes the plan: rebuilt once, then steady again */
  T_OK(mn_stencil_set_bc(s, 0, 0, MN_BC_PERIODIC, 0));
  T_OK(mn_stencil_set_bc(s, 0, 1, MN_BC_PERIODIC, 0));
  T_OK(mn_log_reset(ctx));
  for (int k = 0; k < K; k++) T_OK(mn_stencil_apply(s, u, y));
  expect_log(ctx, K, K * pm, K * pb, 1, "periodic axis 0");
  check_apply(s, u, y, "periodic apply");

  /* two fields: rebuilt once; one field after them: the kept first serves */
  mn_array *us[2] = {u, v}, *ys[2] = {y, z};
  T_OK(mn_log_reset(ctx));
  for (int k = 0; k < K; k++) T_OK(mn_stencil_apply_many(s, 2, us, ys));
  for (int k = 0; k < K; k++) T_OK(mn_stencil_apply(s, v, z));
  expect_log(ctx, 2 * K, 3 * K * pm, 3 * K * pb, 1, "two fields, then one");
  check_apply(s, u, y, "field 0 of two");
  check_apply(s, v, z, "field 1 of two, then alone");

  mn_array *all[] = {u, v, y, z, f, bad};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) mn_array_destroy(&all[k]);
  mn_layout_destroy(&lay);
  mn_stencil_destroy(&s);
  return mt_finish(&ctx);
}
