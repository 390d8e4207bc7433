/* An evaluation that reads its own target shifted (the seed's stencil,
 * center = 0.2 * (center + north + east + west + south)) writes fresh
 * storage when nothing else holds a pointer into the old one: the values
 * match a serial loop, the elements it does not write (boundary, halo)
 * keep theirs, and storage someone points into is never replaced (a
 * pinned host pointer, a reshape that shares it). */
#include "mn_test.h"

static double f0(int64_t k) { return (double)((k * 37) % 101) - 50.0; }

/* one sweep of the idiom on grid's interior, in place */
static void sweep(mn_array *grid) {
  mn_index ic[] = {mn_slice(1, -1, 1), mn_slice(1, -1, 1)}, in_[] = {mn_slice(0, -2, 1), mn_slice(1, -1, 1)},
           ie[] = {mn_slice(1, -1, 1), mn_slice(2, MN_NONE, 1)}, iw[] = {mn_slice(1, -1, 1), mn_slice(0, -2, 1)},
           is[] = {mn_slice(2, MN_NONE, 1), mn_slice(1, -1, 1)};
  mn_array *v[5] = {mt_view(grid, 2, ic), mt_view(grid, 2, in_), mt_view(grid, 2, ie), mt_view(grid, 2, iw),
                    mt_view(grid, 2, is)};
  mn_expr *e = NULL;
  int x[5], acc, k, r;
  T_OK(mn_expr_create(mn_array_ctx(grid), &e));
  for (int i = 0; i < 5; i++) T_OK(mn_expr_input(e, v[i], &x[i]));
  acc = x[0];
  for (int i = 1; i < 5; i++) T_OK(mn_expr_binary(e, MN_OP_ADD, acc, x[i], &acc));
  T_OK(mn_expr_scalar(e, mn_scalar_f64(0.2), &k));
  T_OK(mn_expr_binary(e, MN_OP_MUL, k, acc, &r));
  T_OK(mn_expr_eval(e, r, v[0]));
  mn_expr_destroy(&e);
  for (int i = 0; i < 5; i++) mn_array_destroy(&v[i]);
}

static void sweep_ref(double *g, int64_t R, int64_t C) {
  double *n = malloc(sizeof(double) * (size_t)(R * C));
  memcpy(n, g, sizeof(double) * (size_t)(R * C));
  for (int64_t i = 1; i < R - 1; i++)
    for (int64_t j = 1; j < C - 1; j++)
      n[i * C + j] = 0.2 * (g[i * C + j] + g[(i - 1) * C + j] + g[i * C + j + 1] + g[i * C + j - 1] + g[(i + 1) * C + j]);
  memcpy(g, n, sizeof(double) * (size_t)(R * C));
  free(n);
}

static void expect_grid(const mn_array *grid, const double *ref, const char *what) {
  int64_t n = mn_array_size(grid);
  double *got = mt_all(grid);
  int bad = 0;
  for (int64_t q = 0; q < n && bad < 3; q++)
    if (!(fabs(got[q] - ref[q]) <= 1e-12 * (1 + fabs(ref[q])))) {
      T_CHECK(0, "%s: element %lld = %.17g, serial %.17g", what, (long long)q, got[q], ref[q]);
      bad++;
    }
  free(got);
}

static void *host_ptr(mn_array *a) {
  mn_local l;
  T_OK(mn_array_local_host(a, &l));
  return l.data;
}

/* the ghost cells around my block [lo, hi) inside the grid hold want's values */
static void expect_ghosts(mn_array *g, const int64_t *lo, const int64_t *hi, int64_t R, int64_t C, const double *want,
                          const char *what) {
  mn_local l;
  T_OK(mn_array_local_host(g, &l));
  const double *d = l.data;
  int bad = 0;
  for (int64_t i = lo[0] - 1; i <= hi[0] && d; i++)
    for (int64_t j = lo[1] - 1; j <= hi[1]; j++) {
      int ghost = i == lo[0] - 1 || i == hi[0] || j == lo[1] - 1 || j == hi[1];
      if (!ghost || i < 0 || j < 0 || i >= R || j >= C) continue;
      double got = d[(i - lo[0]) * l.stride[0] + (j - lo[1]) * l.stride[1]];
      if (got != want[i * C + j] && bad++ < 3)
        T_CHECK(0, "%s: ghost (%lld, %lld) = %.17g, expected %.17g", what, (long long)i, (long long)j, got,
                want[i * C + j]);
    }
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx);
  /* every rank's block is past the 256 KiB below which banding is kept */
  const int64_t R = 402, C = 402, gs[] = {R, C};
  double *ref = malloc(sizeof(double) * (size_t)(R * C));

  /* ---- fresh storage each sweep; the boundary carried across ---- */
  mn_array *g = mt_new(ctx, MN_FLOAT64, 2, gs, f0);
  for (int64_t q = 0; q < R * C; q++) ref[q] = f0(q);
  for (int it = 0; it < 4; it++) {
    void *before = host_ptr(g);
    sweep(g);
    sweep_ref(ref, R, C);
    T_CHECK(host_ptr(g) != before, "sweep %d: the storage was not replaced", it);
  }
  expect_grid(g, ref, "fresh storage");

  /* ---- a pinned host pointer: the same storage, and it sees the values ---- */
  mn_local pin;
  T_OK(mn_array_local(g, &pin));
  sweep(g);
  sweep_ref(ref, R, C);
  T_CHECK(host_ptr(g) == pin.data, "a pinned array's storage was replaced");
  expect_grid(g, ref, "pinned");
  int64_t i0 = pin.lo[0], j0 = pin.lo[1];
  double *p = (double *)pin.data;
  T_CHECK(p[0] == ref[i0 * C + j0], "through the pinned pointer: %.17g, serial %.17g", p[0], ref[i0 * C + j0]);
  mn_array_destroy(&g);

  /* ---- a reshape sharing the storage (rows split alone): kept while it lives ---- */
  mn_layout *rows = NULL;
  int dims[2] = {P, 1};
  T_OK(mn_layout_create_block(ctx, 2, gs, dims, &rows));
  T_OK(mn_array_create_on(rows, MN_FLOAT64, 0, &g));
  mt_set(g, f0);
  for (int64_t q = 0; q < R * C; q++) ref[q] = f0(q);
  mn_array *flat = NULL;
  const int64_t sh3[] = {R, C / 2, 2};
  T_OK(mn_array_reshape_rows(g, 3, sh3, &flat));
  void *before = host_ptr(g);
  sweep(g);
  sweep_ref(ref, R, C);
  T_CHECK(host_ptr(g) == before, "storage a reshape shares was replaced");
  expect_grid(flat, ref, "the reshape sharing the storage");
  mn_array_destroy(&flat);
  sweep(g);
  sweep_ref(ref, R, C);
  T_CHECK(host_ptr(g) != before, "no reshape shares it any more: the storage was not replaced");
  expect_grid(g, ref, "after the reshape went");

  /* ---- a small part written (g[0:3] = g[1:4]): in place, not renewed ---- */
  mn_index dst[] = {mn_slice(0, 3, 1)}, src[] = {mn_slice(1, 4, 1)};
  mn_array *vd = mt_view(g, 1, dst), *vs = mt_view(g, 1, src);
  before = host_ptr(g);
  T_OK(mn_array_copy(vs, vd));
  memmove(ref, ref + C, sizeof(double) * (size_t)(3 * C));
  T_CHECK(host_ptr(g) == before, "a write of three rows replaced the storage");
  expect_grid(g, ref, "three rows shifted");
  mn_array_destroy(&vd);
  mn_array_destroy(&vs);
  mn_array_destroy(&g);
  mn_layout_destroy(&rows);

  /* ---- a halo: the ghost cells carried across, then exchanged ---- */
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, gs, 1, &g));
  mt_set(g, f0);
  for (int64_t q = 0; q < R * C; q++) ref[q] = f0(q);
  mn_plan *h = NULL;
  T_OK(mn_plan_create_halo(g, NULL, &h));
  T_OK(mn_plan_begin(h));
  T_OK(mn_plan_end(h));
  int64_t lo[2], hi[2];
  mn_layout_box(mn_array_layout(g), mn_ctx_rank(ctx), lo, hi);
  double *was = malloc(sizeof(double) * (size_t)(R * C));
  memcpy(was, ref, sizeof(double) * (size_t)(R * C));
  before = host_ptr(g);
  sweep(g);
  sweep_ref(ref, R, C);
  T_CHECK(host_ptr(g) != before, "a halo array's storage was not replaced");
  expect_grid(g, ref, "halo array");
  expect_ghosts(g, lo, hi, R, C, was, "after the sweep (the values before it)");
  T_OK(mn_plan_begin(h));
  T_OK(mn_plan_end(h));
  expect_ghosts(g, lo, hi, R, C, ref, "exchanged after the sweep");
  free(was);
  mn_plan_destroy(&h);
  mn_array_destroy(&g);

  /* ---- int32 and float32 (rows twice as long: as many bytes) ---- */
  const int64_t C2 = 2 * C, gs2[] = {R, C2};
  double *ref2 = malloc(sizeof(double) * (size_t)(R * C2));
  for (int t = 0; t < 2; t++) {
    mn_dtype dt = t ? MN_FLOAT32 : MN_INT32;
    g = mt_new(ctx, dt, 2, gs2, f0);
    mn_index ic[] = {mn_slice(1, -1, 1), mn_slice(1, -1, 1)}, in_[] = {mn_slice(0, -2, 1), mn_slice(1, -1, 1)},
             is[] = {mn_slice(2, MN_NONE, 1), mn_slice(1, -1, 1)};
    mn_array *c = mt_view(g, 2, ic), *n = mt_view(g, 2, in_), *s = mt_view(g, 2, is);
    mn_expr *e = NULL;
    int xc, xn, xs, a, b;
    T_OK(mn_expr_create(ctx, &e));
    T_OK(mn_expr_input(e, n, &xn));
    T_OK(mn_expr_input(e, s, &xs));
    T_OK(mn_expr_input(e, c, &xc));
    T_OK(mn_expr_binary(e, MN_OP_SUB, xn, xs, &a));
    T_OK(mn_expr_binary(e, MN_OP_ADD, a, xc, &b));
    before = host_ptr(g);
    T_OK(mn_expr_eval(e, b, c)); /* c = n - s + c */
    T_CHECK(host_ptr(g) != before, "%s: the storage was not replaced", mn_dtype_name(dt));
    mn_expr_destroy(&e);
    for (int64_t q = 0; q < R * C2; q++) ref2[q] = f0(q);
    for (int64_t i = 1; i < R - 1; i++)
      for (int64_t j = 1; j < C2 - 1; j++)
        ref2[i * C2 + j] = f0((i - 1) * C2 + j) - f0((i + 1) * C2 + j) + f0(i * C2 + j);
    expect_grid(g, ref2, mn_dtype_name(dt));
    mn_array_destroy(&c);
    mn_array_destroy(&n);
    mn_array_destroy(&s);
    mn_array_destroy(&g);
  }
  free(ref2);
  free(ref);
  return mt_finish(&ctx);
}
