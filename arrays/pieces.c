/* Pieces of unknown size per rank joined into one array: concatenation of
 * local parts in rank order, and boolean-mask compression built on it. */
#include "exchange.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

/* Moves N elements of es bytes between pieces (rank q's piece: [off[q],
 * +cnt[q]) in data) and the default 1-d blocks (mine: my block's memory):
 * to_blocks 1 joins the pieces, 0 splits the blocks into them. */
static int move_pieces(mn_ctx *ctx, size_t es, int64_t N, const int64_t *cnt, const int64_t *off, char *data,
                       char *mine, int to_blocks) {
  int P = ctx->size, me = ctx->rank, err = 0;
  int64_t b0 = mn_split_start(N, P, me), bn = mn_split_size(N, P, me), n = cnt[me], npc = 1;
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
  MN_CALL(mn_agree(ctx, req ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld requests", (long long)npc)));
  int nr = 0;
  for (int q = 0; q < P && !err; q++) { /* my block's side */
    int64_t lo = off[q] > b0 ? off[q] : b0, hi = off[q] + cnt[q] < b0 + bn ? off[q] + cnt[q] : b0 + bn;
    if (hi <= lo) continue;
    char *blk = mine + (lo - b0) * (int64_t)es;
    if (q == me) {
      char *pc = data + (lo - off[me]) * (int64_t)es;
      memmove(to_blocks ? blk : pc, to_blocks ? pc : blk, (size_t)(hi - lo) * es);
    } else err = mn_mpi_post(!to_blocks, blk, (hi - lo) * (int64_t)es, q, 94, ctx, req, &nr);
  }
  for (int q = 0; q < P && !err; q++) { /* my piece's side */
    if (q == me) continue;
    int64_t s0 = mn_split_start(N, P, q), s1 = s0 + mn_split_size(N, P, q);
    int64_t lo = off[me] > s0 ? off[me] : s0, hi = off[me] + n < s1 ? off[me] + n : s1;
    if (hi > lo)
      err = mn_mpi_post(to_blocks, data + (lo - off[me]) * (int64_t)es, (hi - lo) * (int64_t)es, q, 94, ctx, req,
                        &nr);
  }
  if (nr) MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
  free(req);
  return err;
}

/* Every rank's count n gathered: cnt[q] and off[q] (a prefix), total *N;
 * a rank's bad count or NULL data is everyone's error (they differ by rank) */
static int gather_counts(mn_ctx *ctx, int64_t n, const void *data, int64_t **cnt, int64_t *N) {
  int P = ctx->size;
  *cnt = malloc(sizeof(int64_t) * 2 * (size_t)P);
  int err = !*cnt ? MN_ERR(MN_ERR_MEM, "cannot allocate counts")
            : n < 0 ? MN_ERR(MN_ERR_ARG, "negative count %lld", (long long)n)
            : n > 0 && !data ? MN_ERR(MN_ERR_ARG, "NULL data for %lld elements", (long long)n) : 0;
  MN_CALL(mn_agree(ctx, err));
  MPI_Allgather(&n, 1, MPI_INT64_T, *cnt, 1, MPI_INT64_T, ctx->comm);
  *N = mn_prefix(P, *cnt, *cnt + P);
  return MN_SUCCESS;
}

int mn_array_concat_local(mn_ctx *ctx, mn_dtype t, int64_t n, const void *data, mn_array **out) {
  MN_CHECK(ctx && out, MN_ERR_ARG, "NULL context or output");
  MN_CHECK(t >= 0 && t < MN_NDTYPE, MN_ERR_DTYPE, "unknown dtype %d", (int)t);
  *out = NULL;
  MN_SPMD(ctx, "mn_array_concat_local", mn_spmd_dtype(S, "dtype", t));
  int64_t *cnt = NULL, N = 0;
  int err = gather_counts(ctx, n, data, &cnt, &N);
  mn_array *a = NULL;
  if (!err) err = mn_array_create(ctx, t, 1, &N, 0, &a);
  if (!err) {
    size_t es = mn_dtype_size(t);
    int64_t b0 = mn_split_start(N, ctx->size, ctx->rank), bn = mn_split_size(N, ctx->size, ctx->rank);
    mn_buf_need(ctx, a->buf, "mn_array_concat_local"); /* storage lost to a deferred error: stop here */
    char *mine = bn ? mn_buf_host(a->buf, 1) + mn_buf_off(a->buf, &b0) * (int64_t)es : NULL;
    err = move_pieces(ctx, es, N, cnt, cnt + ctx->size, (char *)data, mine, 1);
  }
  free(cnt);
  if (err) { mn_array_destroy(&a); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *out = a;
  return MN_SUCCESS;
}

int mn_array_split_local(const mn_array *x, int64_t n, void *data) {
  MN_CHECK(x, MN_ERR_ARG, "NULL array");
  MN_SPMD(x->ctx, "mn_array_split_local", mn_spmd_array(S, "x", x));
  MN_CHECK(x->map.ndim == 1, MN_ERR_SHAPE, "split_local of a 1-d array, not %d-d", x->map.ndim);
  mn_ctx *ctx = x->ctx;
  int64_t *cnt = NULL, N = 0;
  int err = gather_counts(ctx, n, data, &cnt, &N);
  if (!err && N != x->map.shape[0])
    err = MN_ERR(MN_ERR_SHAPE, "the ranks' counts add up to %lld, the array has %lld elements", (long long)N,
                 (long long)x->map.shape[0]);
  err = mn_agree(ctx, err);
  /* the default 1-d blocks: x itself when it is one, else a copy */
  mn_array *c = NULL;
  const mn_array *src = x;
  if (!err && (x->is_view || x->buf->lay->kind != MN_LAYOUT_BLOCK || x->buf->lay->ndim != 1 ||
               x->buf->lay->dims[0] != ctx->size)) {
    err = mn_array_create(ctx, x->dtype, 1, &N, 0, &c);
    if (!err) err = mn_array_copy(x, c);
    src = c;
  }
  if (!err) {
    size_t es = mn_dtype_size(x->dtype);
    int64_t b0 = mn_split_start(N, ctx->size, ctx->rank), bn = mn_split_size(N, ctx->size, ctx->rank);
    mn_buf_need(ctx, src->buf, "mn_array_split_local"); /* storage lost to a deferred error: stop here */
    char *mine = bn ? mn_buf_host(src->buf, 0) + mn_buf_off(src->buf, &b0) * (int64_t)es : NULL;
    err = move_pieces(ctx, es, N, cnt, cnt + ctx->size, data, mine, 0);
  }
  mn_array_destroy(&c);
  free(cnt);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
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
