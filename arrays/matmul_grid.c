/* Products of two large matrices on a 2-d grid of the ranks: PBLAS p?gemm,
 * whose panel broadcasts along grid rows and columns are SUMMA's, so no
 * rank holds a whole operand (mn_array_matmul otherwise replicates the
 * smaller one). ScaLAPACK reads our row-major blocks as transposes, so
 * C = A B is computed as C^T = B^T A^T. */
#ifdef MANIPLE_HAVE_SCALAPACK
#include "scalapack.h"
#include <stdlib.h>

int mn_matmul_grid_wanted(const mn_array *a, const mn_array *b) {
  mn_ctx *ctx = a->ctx;
  mn_dtype t = a->dtype;
  if (ctx->size == 1 || a->map.ndim != 2 || b->map.ndim != 2 || ctx->ops->gemm) return 0; /* device: cuBLAS path */
  if (t != MN_FLOAT32 && t != MN_FLOAT64) return 0; /* (matmul takes no complex yet) */
  int64_t m = a->map.shape[0], k = a->map.shape[1], n = b->map.shape[1];
  if (!m || !k || !n || m > INT32_MAX || k > INT32_MAX || n > INT32_MAX) return 0;
  int64_t small = mn_array_size(a) < mn_array_size(b) ? mn_array_size(a) : mn_array_size(b);
  return small * (int64_t)mn_dtype_size(t) >= ctx->summa_min_bytes;
}

int mn_matmul_grid(const mn_array *a, const mn_array *b, mn_array *out) {
  mn_ctx *ctx = a->ctx;
  int64_t m = a->map.shape[0], k = a->map.shape[1], n = b->map.shape[1];
  int mi = (int)m, ki = (int)k, ni = (int)n, da[9], db[9], dc[9];
  mn_sl_grid G;
  mn_bc ga = {0}, gb = {0};
  char *la = NULL, *lb = NULL, *lc = NULL;
  mn_array *c = NULL;
  MN_CALL(mn_sl_open(&G, ctx, a->dtype, m, n, "matmul", 0));
  int err = mn_bc_init(&ga, ctx, m, k, G.g.nb, G.g.pr, G.g.pc, G.g.rank_of);
  if (!err) err = mn_bc_init(&gb, ctx, k, n, G.g.nb, G.g.pr, G.g.pc, G.g.rank_of);
  if (!err) {
    la = mn_sl_local(&ga, G.es);
    lb = mn_sl_local(&gb, G.es);
    lc = mn_sl_local(&G.g, G.es);
    err = mn_agree(ctx, la && lb && lc ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a "
                                                    "(%lld x %lld) @ (%lld x %lld) product", (long long)m,
                                                    (long long)k, (long long)k, (long long)n));
  }
  if (!err) err = mn_bc_from_array(&ga, a, 0, 0, la);
  if (!err) err = mn_bc_from_array(&gb, b, 0, 0, lb);
  if (!err) {
    mn_sl_desc(&ga, &G, da);
    mn_sl_desc(&gb, &G, db);
    mn_sl_desc(&G.g, &G, dc);
    G.f.gemm("N", "N", &ni, &mi, &ki, G.f.one, lb, &MN_SL_ONE, &MN_SL_ONE, db, la, &MN_SL_ONE, &MN_SL_ONE, da,
             G.f.zero, lc, &MN_SL_ONE, &MN_SL_ONE, dc, 1, 1);
  }
  /* into out, through a base of the product's dtype when out's differs */
  if (!err && out->dtype != a->dtype) err = mn_array_create_empty(ctx, a->dtype, 2, out->map.shape, &c);
  if (!err) err = mn_bc_to_array(&G.g, lc, 0, 0, c ? c : out);
  if (!err && c) err = mn_array_copy(c, out);
  mn_array_destroy(&c);
  mn_free(la);
  mn_free(lb);
  mn_free(lc);
  mn_bc_free(&ga);
  mn_bc_free(&gb);
  mn_sl_close(&G);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}
#endif
