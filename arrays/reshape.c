/* Reshape: elements keep their flat C-order index, moving between the
 * blocks of the old and the new shape. Each rank walks its own block's rows
 * (runs of consecutive flat indices) in increasing flat order and cuts them
 * where the owner in the other layout changes; sender and receiver walk in
 * the same order, so each message is a plain sequence of elements. */
#include "expr_impl.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

typedef void (*seg_fn)(void *ctx, int peer, int64_t flat, int64_t len, int64_t mine_off);

/* Owner of flat index k of layout lay (of size n = its element count). */
static int owner_flat(const mn_layout *lay, int64_t k) {
  int64_t idx[MN_MAXDIM];
  for (int d = lay->ndim - 1; d >= 0; d--) {
    idx[d] = k % lay->shape[d];
    k /= lay->shape[d];
  }
  return mn_layout_owner(lay, idx);
}

/* Flat index after k at which the owner in lay may change: the next row
 * start or the next split point along the last axis. */
static int64_t next_cut(const mn_layout *lay, int64_t k) {
  if (lay->ndim == 0) return k + 1;
  int64_t L = lay->shape[lay->ndim - 1], j = k % L, row = k - j;
  int p = lay->dims[lay->ndim - 1];
  int c = lay->kind == MN_LAYOUT_ROOT ? 0 : mn_split_owner(L, p, j);
  int64_t end = lay->kind == MN_LAYOUT_ROOT ? L : mn_split_start(L, p, c) + mn_split_size(L, p, c);
  return row + end;
}

/* Walk my block of `mine` (base array, identity map) in flat order, cut by
 * owners in `other`; call fn per segment with the element offset into a
 * dense copy of my block. */
static void walk(const mn_buf *mine, const mn_layout *other, int rank, seg_fn fn, void *ctx) {
  const mn_layout *lay = mine->lay;
  int nd = lay->ndim;
  int64_t lo[MN_MAXDIM], hi[MN_MAXDIM], cnt[MN_MAXDIM] = {0}, cs[MN_MAXDIM];
  mn_layout_box(lay, rank, lo, hi);
  if (mn_layout_local_size(lay, rank) == 0) return;
  for (int d = 0; d < nd; d++) cnt[d] = hi[d] - lo[d];
  mn_dense_strides(nd, lay->shape, cs);
  int64_t rows = 1, len = nd ? cnt[nd - 1] : 1;
  for (int d = 0; d < nd - 1; d++) rows *= cnt[d];
  for (int64_t r = 0, off = 0; r < rows; r++, off += len) {
    int64_t rem = r, flat = 0;
    for (int d = nd - 2; d >= 0; d--) { flat += (lo[d] + rem % cnt[d]) * cs[d]; rem /= cnt[d]; }
    if (nd) flat += lo[nd - 1];
    for (int64_t k = flat, end = flat + len; k < end;) {
      int64_t cut = next_cut(other, k);
      if (cut > end) cut = end;
      fn(ctx, owner_flat(other, k), k, cut - k, off + (k - flat));
      k = cut;
    }
  }
}

typedef struct {
  int64_t *count;     /* per peer */
  int64_t *pos;       /* per peer, running */
  char *dense, *buf;  /* my block (dense) and the per-peer packed buffer */
  int64_t *start;     /* per peer offset into buf */
  size_t es;
  int pack;           /* 1: dense -> buf, 0: buf -> dense */
} walk_ctx;

static void count_seg(void *c, int peer, int64_t flat, int64_t len, int64_t off) {
  (void)flat;
  (void)off;
  ((walk_ctx *)c)->count[peer] += len;
}

static void move_seg(void *c, int peer, int64_t flat, int64_t len, int64_t off) {
  walk_ctx *w = c;
  (void)flat;
  char *b = w->buf + (w->start[peer] + w->pos[peer]) * (int64_t)w->es, *d = w->dense + off * (int64_t)w->es;
  if (w->pack) memcpy(b, d, (size_t)len * w->es);
  else memcpy(d, b, (size_t)len * w->es);
  w->pos[peer] += len;
}

/* dense copy of a base block (no halo) in and out */
static void block_dense(const mn_buf *b, char *dense, int out) {
  int64_t cnt[MN_MAXDIM], st[MN_MAXDIM];
  for (int d = 0; d < b->ndim; d++) cnt[d] = b->hi[d] - b->lo[d];
  mn_dense_strides(b->ndim, cnt, st);
  mn_buf_host(b, !out);
  char *p = mn_buf_ptr(b, b->lo);
  size_t es = mn_dtype_size(b->dtype);
  if (out) mn_strided_copy(b->ndim, cnt, es, p, b->astride, dense, st);
  else mn_strided_copy(b->ndim, cnt, es, dense, st, p, b->astride);
}

int mn_array_reshape(const mn_array *src, int ndim, const int64_t *shape, mn_array **dst) {
  MN_CHECK(src && dst && (ndim == 0 || shape), MN_ERR_ARG, "NULL array, shape or output");
  *dst = NULL;
  MN_SPMD(src ? src->ctx : NULL, "mn_array_reshape", mn_spmd_array(S, "src", src),
          mn_spmd_shape(S, "shape", ndim, shape));
  mn_ctx *ctx = src->ctx;
  int64_t n = 1;
  for (int d = 0; d < ndim && d < MN_MAXDIM; d++) n *= shape[d] >= 0 ? shape[d] : 0;
  int bad = ndim < 0 || ndim > MN_MAXDIM || n != mn_array_size(src);
  for (int d = 0; !bad && d < ndim; d++) bad = shape[d] < 0;
  int err = 0;
  if (bad) {
    char a[128] = "(?)", b[128] = "(?)";
    if (ndim >= 0 && ndim <= MN_MAXDIM) mn_shape_str(ndim, shape, b, sizeof b);
    mn_shape_str(src->map.ndim, src->map.shape, a, sizeof a);
    err = MN_ERR(MN_ERR_SHAPE, "cannot reshape array of size %lld and shape %s into shape %s",
                 (long long)mn_array_size(src), a, b);
  }
  err = mn_agree(ctx, err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  /* a plain block copy of src first (views, halos and other layouts) */
  mn_array *s = NULL, *t = NULL;
  MN_CALL(mn_array_create(ctx, src->dtype, src->map.ndim, src->map.shape, 0, &s));
  err = mn_array_copy(src, s);
  if (!err) err = mn_array_create(ctx, src->dtype, ndim, shape, 0, &t);
  if (err) { mn_array_destroy(&s); mn_array_destroy(&t); return mn_trace(err, __FILE__, __LINE__, __func__); }
  int P = ctx->size, me = ctx->rank;
  size_t es = mn_dtype_size(src->dtype);
  int64_t ns = mn_layout_local_size(s->buf->lay, me), nt = mn_layout_local_size(t->buf->lay, me);
  walk_ctx snd = {0}, rcv = {0};
  snd.count = calloc((size_t)P, sizeof(int64_t)); snd.pos = calloc((size_t)P, sizeof(int64_t));
  snd.start = calloc((size_t)P, sizeof(int64_t));
  rcv.count = calloc((size_t)P, sizeof(int64_t)); rcv.pos = calloc((size_t)P, sizeof(int64_t));
  rcv.start = calloc((size_t)P, sizeof(int64_t));
  snd.dense = mn_malloc((size_t)ns * es); snd.buf = mn_malloc((size_t)ns * es);
  rcv.dense = mn_malloc((size_t)nt * es); rcv.buf = mn_malloc((size_t)nt * es);
  MPI_Request *req = NULL;
  if (!snd.count || !snd.pos || !snd.start || !rcv.count || !rcv.pos || !rcv.start || !snd.dense || !snd.buf ||
      !rcv.dense || !rcv.buf)
    err = MN_ERR(MN_ERR_MEM, "cannot allocate reshape buffers (%lld and %lld elements)", (long long)ns, (long long)nt);
  int64_t npc = 1;
  if (!err) {
    snd.es = rcv.es = es;
    walk(s->buf, t->buf->lay, me, count_seg, &snd); /* what I send to each rank */
    walk(t->buf, s->buf->lay, me, count_seg, &rcv); /* what I receive from each */
    for (int q = 1; q < P; q++) {
      snd.start[q] = snd.start[q - 1] + snd.count[q - 1];
      rcv.start[q] = rcv.start[q - 1] + rcv.count[q - 1];
    }
    for (int q = 0; q < P; q++) npc += mn_mpi_npieces(snd.count[q] * (int64_t)es) + mn_mpi_npieces(rcv.count[q] * (int64_t)es);
    req = malloc(sizeof(MPI_Request) * (size_t)npc);
    if (!req) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld requests", (long long)npc);
  }
  err = mn_agree(ctx, err);
  int nr = 0;
  if (!err) {
    block_dense(s->buf, snd.dense, 1);
    snd.pack = 1;
    walk(s->buf, t->buf->lay, me, move_seg, &snd);
    for (int q = 0; q < P && !err; q++)
      if (rcv.count[q] && q != me)
        err = mn_mpi_post(0, rcv.buf + rcv.start[q] * (int64_t)es, rcv.count[q] * (int64_t)es, q, 91, ctx, req, &nr);
    for (int q = 0; q < P && !err; q++)
      if (snd.count[q] && q != me)
        err = mn_mpi_post(1, snd.buf + snd.start[q] * (int64_t)es, snd.count[q] * (int64_t)es, q, 91, ctx, req, &nr);
    if (rcv.count[me]) /* my own part moves locally */
      memcpy(rcv.buf + rcv.start[me] * (int64_t)es, snd.buf + snd.start[me] * (int64_t)es, (size_t)rcv.count[me] * es);
    if (nr) MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
    rcv.pack = 0;
    walk(t->buf, s->buf->lay, me, move_seg, &rcv);
    block_dense(t->buf, rcv.dense, 0);
  }
  free(req);
  free(snd.count); free(snd.pos); free(snd.start); free(rcv.count); free(rcv.pos); free(rcv.start);
  mn_free(snd.dense); mn_free(snd.buf); mn_free(rcv.dense); mn_free(rcv.buf);
  mn_array_destroy(&s);
  if (err) { mn_array_destroy(&t); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *dst = t;
  return MN_SUCCESS;
}

int mn_array_copy_flat(const mn_array *src, mn_array *dst) {
  MN_CHECK(src && dst, MN_ERR_ARG, "NULL array");
  MN_SPMD(src ? src->ctx : NULL, "mn_array_copy_flat", mn_spmd_array(S, "src", src), mn_spmd_array(S, "dst", dst));
  mn_array *t = NULL;
  MN_CALL(mn_array_reshape(src, dst->map.ndim, dst->map.shape, &t));
  int err = mn_array_copy(t, dst);
  mn_array_destroy(&t);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
