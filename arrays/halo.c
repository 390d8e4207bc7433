/* Halo (ghost cell) exchange of block-distributed arrays: every side and
 * corner, optional periodic wrap per axis, as one reusable plan. */
#include "mn_impl.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

static int enc(int nd, const int *o) {
  int c = 0;
  for (int d = 0; d < nd; d++) c = c * 3 + (o[d] + 1);
  return c;
}

static int build_halo(mn_array *a, const int *periodic, mn_plan **out) {
  mn_ctx *ctx = a->ctx;
  const mn_buf *b = a->buf;
  const mn_layout *lay = b->lay;
  int nd = b->ndim, h = b->halo;
  int nnb = 1;
  for (int d = 0; d < nd; d++) nnb *= 3;
  mn_plan *p = calloc(1, sizeof *p);
  MN_CHECK(p, MN_ERR_MEM, "cannot allocate a plan");
  p->ctx = ctx;
  p->refs = 1;
  p->elsize = mn_dtype_size(b->dtype);
  p->unpack = 1;
  p->sends = calloc((size_t)nnb, sizeof(mn_msg));
  p->recvs = calloc((size_t)nnb, sizeof(mn_msg));
  if (!p->sends || !p->recvs) { mn_plan_free(p); return MN_ERR(MN_ERR_MEM, "cannot allocate halo messages"); }
  int owned = mn_layout_local_size(lay, ctx->rank) > 0;
  int me[MN_MAXDIM];
  mn_layout_coords_of(lay, ctx->rank, me);
  for (int c = 0; c < nnb && owned && h > 0; c++) {
    int o[MN_MAXDIM], r = c, zero = 1, ok = 1;
    for (int d = nd - 1; d >= 0; d--) { o[d] = r % 3 - 1; r /= 3; zero &= o[d] == 0; }
    if (zero) continue;
    int nb[MN_MAXDIM];
    for (int d = 0; d < nd && ok; d++) {
      nb[d] = me[d] + o[d];
      if (nb[d] < 0 || nb[d] >= lay->dims[d]) {
        if (periodic && periodic[d]) nb[d] = (nb[d] + lay->dims[d]) % lay->dims[d];
        else ok = 0;
      }
    }
    if (!ok) continue;
    int peer = mn_layout_rank_of(lay, nb);
    /* receive my halo region on side o; send my boundary strip toward o */
    int64_t rlo[MN_MAXDIM], slo[MN_MAXDIM], cnt[MN_MAXDIM];
    for (int d = 0; d < nd; d++) {
      int64_t lo = b->lo[d], hi = b->hi[d];
      if (o[d] < 0) { rlo[d] = lo - h; slo[d] = lo; cnt[d] = h; }
      else if (o[d] > 0) { rlo[d] = hi; slo[d] = hi - h; cnt[d] = h; }
      else { rlo[d] = slo[d] = lo; cnt[d] = hi - lo; }
    }
    int neg[MN_MAXDIM];
    for (int d = 0; d < nd; d++) neg[d] = -o[d];
    mn_msg *s = &p->sends[p->nsend++], *rv = &p->recvs[p->nrecv++];
    s->peer = rv->peer = peer;
    s->tag = 1000 + enc(nd, o);   /* data moving in direction o */
    rv->tag = 1000 + enc(nd, neg);
    s->nd = rv->nd = nd;
    s->count = rv->count = mn_box_size(nd, cnt);
    memcpy(s->cnt, cnt, sizeof cnt);
    memcpy(rv->cnt, cnt, sizeof cnt);
    memcpy(s->stride, b->astride, sizeof s->stride);
    memcpy(rv->stride, b->astride, sizeof rv->stride);
    s->mem_off = mn_buf_off(b, slo);
    rv->mem_off = mn_buf_off(b, rlo);
  }
  int err = mn_plan_alloc(p);
  if (err) { mn_plan_free(p); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *out = p;
  return MN_SUCCESS;
}

static int check_halo(const mn_array *a) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_CHECK(!a->is_view, MN_ERR_ARG, "halo exchange needs a base array, not a view");
  MN_CHECK(a->buf->halo > 0, MN_ERR_ARG, "array has halo width 0; create it with halo > 0");
  MN_CHECK(a->buf->lay->kind == MN_LAYOUT_BLOCK, MN_ERR_ARG, "halo exchange needs a block layout");
  return MN_SUCCESS;
}

int mn_plan_create_halo(mn_array *a, const int *periodic, mn_plan **p) {
  MN_CHECK(p, MN_ERR_ARG, "NULL output pointer");
  *p = NULL;
  MN_SPMD(a ? a->ctx : NULL, "mn_plan_create_halo", mn_spmd_array(S, "a", a),
          mn_spmd_ints(S, "periodic", periodic ? a->map.ndim : 0, periodic));
  MN_CALL(check_halo(a));
  MN_CALL(build_halo(a, periodic, p));
  (*p)->bound = a->buf; /* mn_plan_begin exchanges a's storage */
  return MN_SUCCESS;
}

static int halo_exchange(mn_array *a) {
  mn_buf *b = a->buf;
  struct { char kind; mn_dtype t; int halo, nd; int64_t shape[MN_MAXDIM]; int dims[MN_MAXDIM]; } key;
  memset(&key, 0, sizeof key);
  key.kind = 'H';
  key.t = b->dtype;
  key.halo = b->halo;
  key.nd = b->ndim;
  memcpy(key.shape, b->lay->shape, sizeof key.shape);
  memcpy(key.dims, b->lay->dims, sizeof key.dims);
  mn_plan *p = mn_cache_get(a->ctx, &key, sizeof key);
  if (!p) {
    MN_CALL(build_halo(a, NULL, &p));
    mn_cache_put(a->ctx, &key, sizeof key, p);
  }
  int err = mn_plan_begin_buf(p, b);
  if (!err) err = mn_plan_end(p);
  mn_plan_destroy(&p);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_array_halo_exchange(mn_array *a) {
  MN_SPMD(a ? a->ctx : NULL, "mn_array_halo_exchange", mn_spmd_array(S, "a", a));
  MN_CALL(check_halo(a));
  mn_buf_need(a->ctx, a->buf, "mn_array_halo_exchange"); /* storage lost: stop here */
  mn_log_begin(a->ctx, MN_LOG_HALO);
  int err = halo_exchange(a);
  mn_log_end(a->ctx, MN_LOG_HALO, 0); /* packing is plan_begin's and plan_end's */
  return err;
}
