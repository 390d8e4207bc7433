/* The headline example: the seed's heat stencil (grid with fixed edges,
 * center[:] = 0.2 * (center + north + east + west + south)) written with
 * maniple views, run for I iterations; prints the result and throughput. */
#include <maniple/maniple.h>
#include <stdio.h>
#include <stdlib.h>

#define CK(x) do { int e_ = (x); if (e_) { fprintf(stderr, "%s\n", mn_ctx_errmsg(NULL)); return 1; } } while (0)

static int view(mn_array *g, int64_t r0, int64_t r1, int64_t c0, int64_t c1, mn_array **v) {
  mn_index ix[2] = {mn_slice(r0, r1, 1), mn_slice(c0, c1, 1)};
  return mn_array_index(g, 2, ix, v);
}

int main(int argc, char **argv) {
  int64_t N = argc > 1 ? atoll(argv[1]) : 1000;
  int I = argc > 2 ? atoi(argv[2]) : 100;
  mn_ctx *ctx;
  CK(mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_DEFAULT, &ctx));
  int64_t shape[2] = {N + 2, N + 2};
  mn_array *grid, *edge, *c, *n, *e, *w, *s;
  CK(mn_array_create(ctx, MN_FLOAT64, 2, shape, 0, &grid));
  /* grid[:, 0] = grid[:, -1] = grid[-1, :] = -273.15; grid[0, :] = 40 */
  int64_t edges[4][4] = {{0, N + 2, 0, 1}, {0, N + 2, N + 1, N + 2}, {N + 1, N + 2, 0, N + 2}, {0, 1, 0, N + 2}};
  for (int k = 0; k < 4; k++) {
    CK(view(grid, edges[k][0], edges[k][1], edges[k][2], edges[k][3], &edge));
    CK(mn_array_fill(edge, mn_scalar_f64(k == 3 ? 40.0 : -273.15)));
    mn_array_destroy(&edge);
  }
  CK(view(grid, 1, -1, 1, -1, &c));
  CK(view(grid, 0, -2, 1, -1, &n));
  CK(view(grid, 1, -1, 2, N + 2, &e));
  CK(view(grid, 1, -1, 0, -2, &w));
  CK(view(grid, 2, N + 2, 1, -1, &s));
  mn_expr *x;
  int k[11];
  CK(mn_expr_create(ctx, &x));
  CK(mn_expr_input(x, c, &k[0])); CK(mn_expr_input(x, n, &k[1])); CK(mn_expr_input(x, e, &k[2]));
  CK(mn_expr_input(x, w, &k[3])); CK(mn_expr_input(x, s, &k[4]));
  CK(mn_expr_binary(x, MN_OP_ADD, k[0], k[1], &k[5])); CK(mn_expr_binary(x, MN_OP_ADD, k[5], k[2], &k[6]));
  CK(mn_expr_binary(x, MN_OP_ADD, k[6], k[3], &k[7])); CK(mn_expr_binary(x, MN_OP_ADD, k[7], k[4], &k[8]));
  CK(mn_expr_scalar(x, mn_scalar_f64(0.2), &k[9])); CK(mn_expr_binary(x, MN_OP_MUL, k[9], k[8], &k[10]));
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int it = 0; it < I; it++) CK(mn_expr_eval(x, k[10], c)); /* center[:] = average */
  CK(mn_ctx_wait(ctx));
  double t = MPI_Wtime() - t0;
  mn_scalar mean;
  CK(mn_array_reduce(MN_RED_SUM, c, &mean));
  if (mn_ctx_rank(ctx) == 0) {
    printf("heat stencil %lldx%lld, %d iterations on %d rank(s)\n", (long long)N, (long long)N, I, mn_ctx_size(ctx));
    printf("mean interior temperature: %.6f\n", mean.v.f / (double)(N * N));
    printf("throughput: %.1f M points/s (%.3f s)\n", (double)N * (double)N * I / t / 1e6, t);
  }
  mn_expr_destroy(&x);
  mn_array_destroy(&c); mn_array_destroy(&n); mn_array_destroy(&e); mn_array_destroy(&w); mn_array_destroy(&s);
  mn_array_destroy(&grid);
  mn_ctx_destroy(&ctx);
  return 0;
}
