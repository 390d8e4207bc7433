/* Data-dependent all-to-all: counts first (one MPI_Alltoall), then the
 * payloads point to point, split into pieces below MPI's int limit. */
#include "exchange.h"
#include <stdlib.h>
#include <string.h>

int64_t mn_prefix(int n, const int64_t *count, int64_t *disp) {
  int64_t s = 0;
  for (int q = 0; q < n; q++) { disp[q] = s; s += count[q]; }
  return s;
}

int64_t *mn_counts(mn_ctx *ctx, int64_t *stack, int k, int *err) {
  size_t n = (size_t)k * (size_t)ctx->size;
  int64_t *c = ctx->size <= MN_SMALLP ? stack : calloc(n, sizeof(int64_t));
  if (c == stack) memset(stack, 0, n * sizeof(int64_t));
  else { /* (many ranks: one reduction beside the all-to-all's O(ranks)) */
    *err = mn_agree(ctx, c ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %zu counts", n));
    if (*err) { free(c); return NULL; }
  }
  return c;
}

void mn_counts_free(int64_t *c, int64_t *stack) {
  if (c != stack) free(c);
}

/* A count's mark (mn_exchange_counts): far above any byte count */
#define MARK ((int64_t)1 << 62)

int mn_exchange_counts(mn_ctx *ctx, int err, int mark, const int64_t *scount, int64_t *rcount, int64_t *rdisp,
                       int *all_marked) {
  int P = ctx->size;
  if (!err && ctx->deferred) err = mn_deferred_take(ctx);
  /* the counts carry this rank's error (negative) and its mark: after the
   * all-to-all every rank knows whether any failed, and whether all
   * marked, with no reduction of its own (rdisp is the send buffer: no
   * allocation before the messages) */
  for (int q = 0; q < P; q++) rdisp[q] = err ? -(int64_t)err : scount[q] + (mark ? MARK : 0);
  if (P > 1) MN_MPI(MPI_Alltoall(rdisp, 1, MPI_INT64_T, rcount, 1, MPI_INT64_T, ctx->comm));
  else rcount[0] = rdisp[0];
  int failed = 0, all = 1;
  for (int q = 0; q < P; q++) {
    failed |= rcount[q] < 0;
    all &= rcount[q] >= MARK;
    if (rcount[q] >= MARK) rcount[q] -= MARK;
  }
  if (failed) { /* every rank is here: the first failing rank's message for all */
    err = mn_agree(ctx, err ? err : MN_SUCCESS);
    return mn_trace(err ? err : MN_ERR(MN_ERR_MPI, "internal: an exchange failed on another rank"), __FILE__,
                    __LINE__, __func__);
  }
  if (all_marked) *all_marked = all;
  mn_prefix(P, rcount, rdisp);
  return MN_SUCCESS;
}

/* The payloads point to point into r (counts and displacements known on
 * both sides); req: room for npc requests */
static int post_all(mn_ctx *ctx, const char *sbuf, const int64_t *scount, const int64_t *sdisp, char *r,
                    const int64_t *rcount, const int64_t *rdisp, MPI_Request *req) {
  int P = ctx->size, me = ctx->rank, nr = 0, err = 0;
  for (int q = 0; q < P && !err; q++)
    if (q != me && rcount[q]) err = mn_mpi_post(0, r + rdisp[q], rcount[q], q, 93, ctx, req, &nr);
  for (int q = 0; q < P && !err; q++)
    if (q != me && scount[q]) err = mn_mpi_post(1, (char *)sbuf + sdisp[q], scount[q], q, 93, ctx, req, &nr);
  if (rcount[me]) memcpy(r + rdisp[me], sbuf + sdisp[me], (size_t)rcount[me]);
  if (nr) MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
  return err;
}

/* Room for the send displacements and the requests of one exchange: on
 * the caller's stacks when they fit, else allocated (NULL: short of
 * memory). Released by req_space_free. */
enum { REQ_STACK = 2 * 8 + 1 };
typedef struct {
  int64_t sstack[MN_SMALLP], *sdisp;
  MPI_Request rstack[REQ_STACK], *req;
} req_space;

static void req_space_take(req_space *w, mn_ctx *ctx, const int64_t *scount, const int64_t *rcount) {
  size_t npc = 1;
  for (int q = 0; q < ctx->size; q++)
    if (q != ctx->rank) npc += (size_t)(mn_mpi_npieces(scount[q]) + mn_mpi_npieces(rcount[q]));
  w->sdisp = ctx->size <= MN_SMALLP ? w->sstack : malloc(sizeof(int64_t) * (size_t)ctx->size);
  w->req = npc <= REQ_STACK ? w->rstack : malloc(sizeof(MPI_Request) * npc);
}

static void req_space_free(req_space *w) {
  if (w->sdisp != w->sstack) free(w->sdisp);
  if (w->req != w->rstack) free(w->req);
}

int mn_exchange_known(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char *into, const int64_t *rcount,
                      const int64_t *rdisp) {
  req_space w;
  req_space_take(&w, ctx, scount, rcount);
  if (!w.sdisp || !w.req) mn_oom_abort(ctx, sizeof(MPI_Request) * REQ_STACK, "an exchange's requests"); /* (no agreement here) */
  mn_prefix(ctx->size, scount, w.sdisp);
  int err = post_all(ctx, sbuf, scount, w.sdisp, into, rcount, rdisp, w.req);
  req_space_free(&w);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}

int mn_exchange_into(mn_ctx *ctx, int err, const char *sbuf, const int64_t *scount, char *into, size_t cap,
                     char **rbuf, int64_t *rcount, int64_t *rdisp) {
  *rbuf = NULL;
  MN_CALL(mn_exchange_counts(ctx, err, 0, scount, rcount, rdisp, NULL));
  return mn_exchange_move(ctx, sbuf, scount, into, cap, rbuf, rcount, rdisp);
}

int mn_exchange_move(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char *into, size_t cap, char **rbuf,
                     const int64_t *rcount, const int64_t *rdisp) {
  int P = ctx->size, err = 0;
  *rbuf = NULL;
  req_space w;
  req_space_take(&w, ctx, scount, rcount);
  int64_t total = rdisp[P - 1] + rcount[P - 1];
  char *r = into && (size_t)total <= cap ? into : mn_pool_take((size_t)(total ? total : 1));
  if (!w.sdisp || !r || !w.req) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for an exchange", (long long)total);
  err = mn_agree(ctx, err);
  if (!err) {
    mn_prefix(P, scount, w.sdisp);
    err = post_all(ctx, sbuf, scount, w.sdisp, r, rcount, rdisp, w.req);
  }
  req_space_free(&w);
  if (err) {
    if (r && r != into) mn_pool_give(r, (size_t)(total ? total : 1));
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  *rbuf = r;
  return MN_SUCCESS;
}

int mn_exchange(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char **rbuf, int64_t *rcount,
                int64_t *rdisp) {
  return mn_exchange_into(ctx, 0, sbuf, scount, NULL, 0, rbuf, rcount, rdisp);
}

/* 1 on every rank when a and b are base arrays of one shape whose blocks
 * are the same on every rank (so local parts correspond element-wise). */
int mn_same_blocks(const mn_array *a, const mn_array *b) {
  int ok = !a->is_view && !b->is_view && a->map.ndim == b->map.ndim;
  for (int d = 0; ok && d < a->map.ndim; d++) ok = a->map.shape[d] == b->map.shape[d];
  /* global metadata decides, with no message: every rank's box compared
   * (O(ranks)) only when the layouts differ */
  return ok && mn_map_split_alike(a->ctx, &a->map, a->buf->lay, &b->map, b->buf->lay, 0);
}

/* A base array of dtype t holding a, in like's blocks when like is given
 * (else a's own when a already qualifies); *own says whether to destroy. */
int mn_as_base(const mn_array *a, mn_dtype t, const mn_array *like, mn_array **b, int *own) {
  *own = 0;
  *b = (mn_array *)a;
  if (a->dtype == t && !a->is_view && (!like || mn_same_blocks(a, like))) return MN_SUCCESS;
  MN_CALL(mn_array_create_like(like ? like : a, t, b));
  *own = 1;
  int err = mn_array_copy(a, *b);
  if (err) { mn_array_destroy(b); *own = 0; return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

int mn_rows_split(const mn_array *x, int64_t *start) {
  int P = x->ctx->size, nd = x->map.ndim;
  int64_t row = 1, next = 0;
  if (nd == 0) return 0;
  for (int d = 1; d < nd; d++) row *= x->map.shape[d];
  for (int q = 0; q < P; q++) {
    int64_t lo[MN_MAXDIM], c[MN_MAXDIM];
    int have = mn_map_owned_box(&x->map, x->buf->lay, q, lo, c) && mn_box_size(nd, c) > 0;
    for (int d = 1; have && d < nd; d++)
      if (lo[d] != 0 || c[d] != x->map.shape[d]) return 0;
    if (have && lo[0] * row != next) return 0;
    start[q] = next;
    next += have ? c[0] * row : 0;
  }
  start[P] = next;
  return next == mn_array_size(x); /* else replicated or partial: not a split */
}

/* Dense copy of this rank's part of a base array (count in *n). */
char *mn_local_dense(const mn_array *a, int64_t *n) {
  mn_local l;
  mn_array_local_read(a, 0, &l);
  *n = l.data ? mn_box_size(l.ndim, l.count) : 0;
  size_t es = mn_dtype_size(a->dtype);
  char *d = mn_malloc((size_t)(*n ? *n : 1) * es);
  if (d && *n) {
    int64_t st[MN_MAXDIM];
    mn_dense_strides(l.ndim, l.count, st);
    mn_strided_copy(l.ndim, l.count, es, l.data, l.stride, d, st);
  }
  return d;
}

void mn_local_store(mn_array *a, const char *d) {
  mn_local l;
  mn_array_local_in(a, 0, &l);
  if (!l.data) return;
  int64_t st[MN_MAXDIM];
  mn_dense_strides(l.ndim, l.count, st);
  mn_strided_copy(l.ndim, l.count, mn_dtype_size(a->dtype), d, st, l.data, l.stride);
}
