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

int mn_exchange(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char **rbuf, int64_t *rcount,
                int64_t *rdisp) {
  int P = ctx->size, me = ctx->rank, err = 0;
  *rbuf = NULL;
  MN_MPI(MPI_Alltoall(scount, 1, MPI_INT64_T, rcount, 1, MPI_INT64_T, ctx->comm));
  int64_t *sdisp = malloc(sizeof(int64_t) * (size_t)P);
  int64_t total = mn_prefix(P, rcount, rdisp), npc = 1;
  for (int q = 0; q < P; q++)
    if (q != me) npc += mn_mpi_npieces(scount[q]) + mn_mpi_npieces(rcount[q]);
  char *r = mn_malloc((size_t)(total ? total : 1));
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)npc);
  if (!sdisp || !r || !req) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for an exchange", (long long)total);
  err = mn_agree(ctx, err);
  int nr = 0;
  if (!err) {
    mn_prefix(P, scount, sdisp);
    for (int q = 0; q < P && !err; q++)
      if (q != me && rcount[q]) err = mn_mpi_post(0, r + rdisp[q], rcount[q], q, 93, ctx, req, &nr);
    for (int q = 0; q < P && !err; q++)
      if (q != me && scount[q]) err = mn_mpi_post(1, (char *)sbuf + sdisp[q], scount[q], q, 93, ctx, req, &nr);
    if (rcount[me]) memcpy(r + rdisp[me], sbuf + sdisp[me], (size_t)rcount[me]);
    if (nr) MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
  }
  free(sdisp);
  free(req);
  if (err) { mn_free(r); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *rbuf = r;
  return MN_SUCCESS;
}

/* 1 on every rank when a and b are base arrays of one shape whose blocks
 * are the same on every rank (so local parts correspond element-wise). */
int mn_same_blocks(const mn_array *a, const mn_array *b) {
  int ok = !a->is_view && !b->is_view && a->map.ndim == b->map.ndim;
  for (int d = 0; ok && d < a->map.ndim; d++) ok = a->map.shape[d] == b->map.shape[d];
  if (ok) {
    int64_t alo[MN_MAXDIM], acnt[MN_MAXDIM], blo[MN_MAXDIM], bcnt[MN_MAXDIM]; /* (no values read) */
    mn_map_owned_box(&a->map, a->buf->lay, a->ctx->rank, alo, acnt);
    mn_map_owned_box(&b->map, b->buf->lay, b->ctx->rank, blo, bcnt);
    for (int d = 0; ok && d < a->map.ndim; d++) ok = alo[d] == blo[d] && acnt[d] == bcnt[d];
  }
  int all = 0;
  mn_allreduce(a->ctx, &ok, &all, 1, MPI_INT, MPI_MIN);
  return all;
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
