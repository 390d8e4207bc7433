/* Pieces of unknown size per rank joined into one array: concatenation of
 * local parts in rank order, and boolean-mask compression built on it. */
#include "exchange.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

int mn_array_concat_local(mn_ctx *ctx, mn_dtype t, int64_t n, const void *data, mn_array **out) {
  MN_CHECK(ctx && out && (n == 0 || data), MN_ERR_ARG, "NULL context, data or output");
  MN_CHECK(t >= 0 && t < MN_NDTYPE, MN_ERR_DTYPE, "unknown dtype %d", (int)t);
  *out = NULL;
  MN_SPMD(ctx, "mn_array_concat_local", mn_spmd_dtype(S, "dtype", t));
  int P = ctx->size, me = ctx->rank, err = 0;
  int64_t *cnt = malloc(sizeof(int64_t) * 2 * (size_t)P);
  err = mn_agree(ctx, cnt ? (n < 0 ? MN_ERR(MN_ERR_ARG, "negative count %lld", (long long)n) : 0)
                          : MN_ERR(MN_ERR_MEM, "cannot allocate counts"));
  if (err) { free(cnt); return mn_trace(err, __FILE__, __LINE__, __func__); }
  int64_t *off = cnt + P;
  MPI_Allgather(&n, 1, MPI_INT64_T, cnt, 1, MPI_INT64_T, ctx->comm);
  int64_t N = mn_prefix(P, cnt, off);
  mn_array *a = NULL;
  MN_CALLG(err, mn_array_create(ctx, t, 1, &N, 0, &a), fail);
  size_t es = mn_dtype_size(t);
  int64_t b0 = mn_split_start(N, P, me), bn = mn_split_size(N, P, me), npc = 1;
  char *mine = bn ? mn_buf_host(a->buf, 1) + mn_buf_off(a->buf, &b0) * (int64_t)es : NULL;
  /* my piece [off[me], +n) meets block q; block mine meets piece q */
  for (int q = 0; q < P; q++) {
    int64_t s0 = mn_split_start(N, P, q), s1 = s0 + mn_split_size(N, P, q);
    int64_t lo = off[me] > s0 ? off[me] : s0, hi = off[me] + n < s1 ? off[me] + n : s1;
    if (q != me && hi > lo) npc += mn_mpi_npieces((hi - lo) * (int64_t)es);
    lo = off[q] > b0 ? off[q] : b0;
    hi = off[q] + cnt[q] < b0 + bn ? off[q] + cnt[q] : b0 + bn;
    if (q != me && hi > lo) npc += mn_mpi_npieces((hi - lo) * (int64_t)es);
  }
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)npc);
  MN_CALLG(err, mn_agree(ctx, req ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld requests", (long long)npc)), fail);
  int nr = 0;
  for (int q = 0; q < P && !err; q++) {
    int64_t lo = off[q] > b0 ? off[q] : b0, hi = off[q] + cnt[q] < b0 + bn ? off[q] + cnt[q] : b0 + bn;
    if (hi <= lo) continue;
    char *dst = mine + (lo - b0) * (int64_t)es;
    if (q == me) memcpy(dst, (const char *)data + (lo - off[me]) * (int64_t)es, (size_t)(hi - lo) * es);
    else err = mn_mpi_post(0, dst, (hi - lo) * (int64_t)es, q, 94, ctx, req, &nr);
  }
  for (int q = 0; q < P && !err; q++) {
    if (q == me) continue;
    int64_t s0 = mn_split_start(N, P, q), s1 = s0 + mn_split_size(N, P, q);
    int64_t lo = off[me] > s0 ? off[me] : s0, hi = off[me] + n < s1 ? off[me] + n : s1;
    if (hi > lo)
      err = mn_mpi_post(1, (char *)data + (lo - off[me]) * (int64_t)es, (hi - lo) * (int64_t)es, q, 94, ctx,
                        req, &nr);
  }
  if (nr) MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
  free(req);
fail:
  free(cnt);
  if (err) { mn_array_destroy(&a); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *out = a;
  return MN_SUCCESS;
}

int mn_array_compress(const mn_array *x, const mn_array *mask, mn_array **out) {
  MN_CHECK(x && mask && out, MN_ERR_ARG, "NULL array or output");
  MN_SPMD(x ? x->ctx : NULL, "mn_array_compress", mn_spmd_array(S, "x", x), mn_spmd_array(S, "mask", mask));
  MN_CHECK(x->ctx == mask->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  MN_CHECK(mask->dtype == MN_BOOL, MN_ERR_DTYPE, "a mask must be bool, got dtype %s", mn_dtype_name(mask->dtype));
  int same = x->map.ndim == mask->map.ndim;
  for (int d = 0; same && d < x->map.ndim; d++) same = x->map.shape[d] == mask->map.shape[d];
  if (!same) {
    char a[128], b[128];
    mn_shape_str(x->map.ndim, x->map.shape, a, sizeof a);
    mn_shape_str(mask->map.ndim, mask->map.shape, b, sizeof b);
    return MN_ERR(MN_ERR_INDEX, "boolean index of shape %s does not match the indexed array of shape %s", b, a);
  }
  *out = NULL;
  /* flat C order is contiguous per rank only in 1-d: both go 1-d first */
  int64_t n = mn_array_size(x);
  mn_array *xf = NULL, *mf = NULL;
  int err = 0;
  MN_CALL(mn_array_reshape(x, 1, &n, &xf));
  MN_CALLG(err, mn_array_reshape(mask, 1, &n, &mf), done);
  mn_local lx, lm;
  mn_array_local_read(xf, 0, &lx);
  mn_array_local_read(mf, 0, &lm);
  int64_t ln = lx.data ? lx.count[0] : 0, k = 0;
  size_t es = mn_dtype_size(x->dtype);
  char *sel = mn_malloc((size_t)(ln ? ln : 1) * es);
  MN_CALLG(err, mn_agree(x->ctx, sel ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld elements", (long long)ln)), done);
  for (int64_t i = 0; i < ln; i++)
    if (((const uint8_t *)lm.data)[i]) memcpy(sel + (k++) * (int64_t)es, (const char *)lx.data + i * (int64_t)es, es);
  err = mn_array_concat_local(x->ctx, x->dtype, k, sel, out);
  mn_free(sel);
done:
  mn_array_destroy(&xf);
  mn_array_destroy(&mf);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
