/* Distributed dense arrays: storage, lifecycle, information, local access. */
#include "mn_impl.h"
#include "expr_impl.h" /* mn_shape_str */
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

int64_t mn_box_size(int nd, const int64_t *cnt) {
  int64_t n = 1;
  for (int d = 0; d < nd; d++) n *= cnt[d];
  return n;
}

int mn_box_intersect(int nd, const int64_t *alo, const int64_t *acnt,
                     const int64_t *blo, const int64_t *bcnt, int64_t *lo,
                     int64_t *cnt) {
  int nonempty = 1;
  for (int d = 0; d < nd; d++) {
    int64_t l = alo[d] > blo[d] ? alo[d] : blo[d];
    int64_t ha = alo[d] + acnt[d], hb = blo[d] + bcnt[d];
    int64_t h = ha < hb ? ha : hb;
    lo[d] = l;
    cnt[d] = h > l ? h - l : 0;
    if (cnt[d] == 0) nonempty = 0;
  }
  if (!nonempty)
    for (int d = 0; d < nd; d++) cnt[d] = 0;
  return nonempty;
}

void mn_map_identity(mn_map *m, int ndim, const int64_t *shape) {
  memset(m, 0, sizeof *m);
  m->ndim = m->bndim = ndim;
  for (int d = 0; d < ndim; d++) {
    m->bax[d] = d;
    m->start[d] = 0;
    m->step[d] = 1;
    m->shape[d] = shape[d];
  }
}

int mn_map_equal(const mn_map *a, const mn_map *b) {
  if (a->ndim != b->ndim || a->bndim != b->bndim) return 0;
  int mapped[MN_MAXDIM] = {0};
  for (int k = 0; k < a->ndim; k++) {
    if (a->bax[k] != b->bax[k] || a->shape[k] != b->shape[k]) return 0;
    if (a->bax[k] >= 0) {
      if (a->start[k] != b->start[k] || a->step[k] != b->step[k]) return 0;
      mapped[a->bax[k]] = 1;
    }
  }
  for (int d = 0; d < a->bndim; d++)
    if (!mapped[d] && a->fixed[d] != b->fixed[d]) return 0;
  return 1;
}

/* floor and ceil of a/b for b > 0 */
static int64_t fdiv(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }
static int64_t cdiv(int64_t a, int64_t b) { return -fdiv(-a, b); }

int mn_map_owned_box(const mn_map *m, const mn_layout *lay, int rank,
                     int64_t *lo, int64_t *cnt) {
  int64_t L[MN_MAXDIM], H[MN_MAXDIM];
  int mapped[MN_MAXDIM] = {0};
  int empty = lay->kind == MN_LAYOUT_ROOT && rank != lay->root;
  mn_layout_box(lay, rank, L, H);
  for (int k = 0; k < m->ndim; k++) {
    lo[k] = 0;
    cnt[k] = m->shape[k];
    if (cnt[k] == 0) empty = 1;
    int b = m->bax[k];
    if (b < 0) continue;
    mapped[b] = 1;
    int64_t s = m->start[k], st = m->step[k], a, z;
    if (st > 0) { a = cdiv(L[b] - s, st); z = fdiv(H[b] - 1 - s, st); }
    else { a = cdiv(s - (H[b] - 1), -st); z = fdiv(s - L[b], -st); }
    if (a < 0) a = 0;
    if (z > m->shape[k] - 1) z = m->shape[k] - 1;
    lo[k] = a;
    cnt[k] = z >= a ? z - a + 1 : 0;
    if (cnt[k] == 0) empty = 1;
  }
  for (int d = 0; d < m->bndim; d++)
    if (!mapped[d] && (m->fixed[d] < L[d] || m->fixed[d] >= H[d])) empty = 1;
  if (empty)
    for (int k = 0; k < m->ndim; k++) { lo[k] = 0; cnt[k] = 0; }
  return !empty;
}

int mn_map_box_owners(const mn_map *m, const mn_layout *lay, const int64_t *lo, const int64_t *cnt, int *ranks) {
  for (int k = 0; k < m->ndim; k++)
    if (cnt[k] <= 0) return 0;
  if (lay->kind == MN_LAYOUT_ROOT) { ranks[0] = lay->root; return 1; }
  int c0[MN_MAXDIM], c1[MN_MAXDIM], mapped[MN_MAXDIM] = {0};
  for (int k = 0; k < m->ndim; k++) {
    int b = m->bax[k];
    if (b < 0) continue;
    mapped[b] = 1;
    int64_t g0 = m->start[k] + m->step[k] * lo[k], g1 = m->start[k] + m->step[k] * (lo[k] + cnt[k] - 1);
    if (g0 > g1) { int64_t t = g0; g0 = g1; g1 = t; }
    c0[b] = mn_split_owner(lay->shape[b], lay->dims[b], g0);
    c1[b] = mn_split_owner(lay->shape[b], lay->dims[b], g1);
  }
  for (int b = 0; b < m->bndim; b++)
    if (!mapped[b]) c0[b] = c1[b] = mn_split_owner(lay->shape[b], lay->dims[b], m->fixed[b]);
  /* the product of coordinate ranges, in increasing rank order */
  int c[MN_MAXDIM], n = 0;
  for (int b = 0; b < m->bndim; b++) c[b] = c0[b];
  for (;;) {
    ranks[n++] = mn_layout_rank_of(lay, c);
    int b = m->bndim - 1;
    while (b >= 0 && c[b] == c1[b]) { c[b] = c0[b]; b--; }
    if (b < 0) break;
    c[b]++;
  }
  return n;
}

int mn_map_broadcast(const mn_map *m, int ndim, const int64_t *shape, mn_map *out) {
  MN_CHECK(ndim >= m->ndim && ndim <= MN_MAXDIM, MN_ERR_SHAPE,
           "cannot broadcast a %d-d operand to %d dimensions", m->ndim, ndim);
  for (int k = 0; k < ndim; k++)
    MN_CHECK(shape[k] >= 0, MN_ERR_SHAPE, "broadcast shape[%d] = %lld is negative", k, (long long)shape[k]);
  mn_map r;
  memset(&r, 0, sizeof r);
  r.ndim = ndim;
  r.bndim = m->bndim;
  memcpy(r.fixed, m->fixed, sizeof r.fixed);
  int off = ndim - m->ndim;
  for (int k = 0; k < ndim; k++) {
    r.shape[k] = shape[k];
    r.bax[k] = -1;
    if (k < off) continue;
    int j = k - off;
    if (m->shape[j] == shape[k]) {
      r.bax[k] = m->bax[j];
      r.start[k] = m->start[j];
      r.step[k] = m->step[j];
    } else if (m->shape[j] == 1) {
      if (m->bax[j] >= 0) r.fixed[m->bax[j]] = m->start[j];
    } else {
      return MN_ERR(MN_ERR_SHAPE, "operand axis %d has extent %lld, cannot broadcast to %lld",
                    j, (long long)m->shape[j], (long long)shape[k]);
    }
  }
  *out = r;
  return MN_SUCCESS;
}

/* A buffer header of this rank's block of lay (halo wide), no storage:
 * its box, allocated extents, strides and size in bytes. */
static mn_buf *buf_header(mn_layout *lay, mn_dtype dtype, int halo) {
  mn_ctx *ctx = lay->ctx;
  mn_buf *b = calloc(1, sizeof *b);
  if (!b) mn_oom_abort(ctx, sizeof *b, "an array header");
  b->refs = 1;
  b->lay = mn_layout_ref(lay);
  b->dtype = dtype;
  b->halo = halo;
  b->ndim = lay->ndim;
  mn_layout_box(lay, ctx->rank, b->lo, b->hi);
  int64_t n = 1, owned = mn_layout_local_size(lay, ctx->rank);
  for (int d = lay->ndim - 1; d >= 0; d--) {
    b->alo[d] = b->lo[d] - halo;
    b->alen[d] = owned ? b->hi[d] - b->lo[d] + 2 * halo : 0;
    b->astride[d] = n;
    n *= b->alen[d];
  }
  if (lay->ndim == 0) n = owned;
  b->nbytes = (size_t)n * mn_dtype_size(dtype);
  return b;
}

/* No collective: the checks use global figures (the largest block), and a
 * failed allocation of the storage on one rank is deferred (mn_defer) with
 * the buffer marked lost (mn_buf_lost), so that creating a temporary in a
 * time loop costs no allreduce. At one rank the error is returned. */
static int buf_create(mn_layout *lay, mn_dtype dtype, int halo, int zero, mn_buf **out) {
  mn_ctx *ctx = lay->ctx;
  /* the largest block, with halo, must be addressable: the same test on every rank */
  int64_t most = 1;
  int over = 0;
  for (int d = 0; d < lay->ndim; d++) {
    int64_t ext = (lay->shape[d] + lay->dims[d] - 1) / lay->dims[d] + 2 * (int64_t)halo;
    over |= __builtin_mul_overflow(most, ext, &most);
  }
  over |= most > INT64_MAX / 16;
  char sh[160]; /* formatted only for a message */
  if (over) {
    mn_shape_str(lay->ndim, lay->shape, sh, sizeof sh);
    return MN_ERR(MN_ERR_MEM, "a local block of an array of shape %s with halo %d is too large to address", sh, halo);
  }
  mn_buf *b = buf_header(lay, dtype, halo);
  int err = mn_buf_alloc(b, zero);
  if (err) {
    mn_shape_str(lay->ndim, lay->shape, sh, sizeof sh);
    err = MN_ERR(MN_ERR_MEM, "cannot allocate %zu bytes for the local block of a %s array of shape %s",
                 b->nbytes, mn_dtype_name(dtype), sh);
    if (ctx->size == 1) {
      mn_layout_destroy(&b->lay);
      free(b);
      return mn_trace(err, __FILE__, __LINE__, __func__);
    }
    mn_defer(ctx, err);
  }
  *out = b;
  return MN_SUCCESS;
}

static void buf_release(mn_buf *b) {
  if (--b->refs) return;
  if (b->store) { /* (shared storage: its owner frees it) */
    b->store->aliases--;
    buf_release(b->store);
  }
  else mn_buf_release_storage(b);
  mn_layout_destroy(&b->lay);
  free(b);
}

int mn_array_wrap(mn_ctx *ctx, mn_buf *buf, const mn_map *m, mn_array **a) {
  mn_array *x = calloc(1, sizeof *x);
  if (!x) mn_oom_abort(ctx, sizeof *x, "an array handle");
  x->ctx = ctx;
  x->buf = buf;
  buf->refs++;
  x->dtype = buf->dtype;
  x->map = *m;
  *a = x;
  return MN_SUCCESS;
}

static int create_on(mn_layout *lay, mn_dtype dtype, int halo, int zero, mn_array **a) {
  MN_CHECK(lay && a, MN_ERR_ARG, "NULL layout or output pointer");
  *a = NULL;
  MN_CHECK(dtype >= 0 && dtype < MN_NDTYPE, MN_ERR_DTYPE, "unknown dtype code %d", (int)dtype);
  MN_CHECK(halo >= 0, MN_ERR_ARG, "halo width %d is negative", halo);
  /* every axis, divided or not: a periodic wrap reads a whole block */
  for (int d = 0; d < lay->ndim; d++)
    MN_CHECK(halo == 0 || lay->shape[d] == 0 || lay->shape[d] / lay->dims[d] >= halo,
             MN_ERR_SHAPE,
             "halo width %d exceeds the smallest block (%lld) on axis %d (extent %lld over %d ranks)",
             halo, (long long)(lay->shape[d] / lay->dims[d]), d,
             (long long)lay->shape[d], lay->dims[d]);
  mn_buf *b = NULL;
  MN_CALL(buf_create(lay, dtype, halo, zero, &b));
  mn_map m;
  mn_map_identity(&m, lay->ndim, lay->shape);
  int err = mn_array_wrap(lay->ctx, b, &m, a);
  buf_release(b);
  return err;
}

int mni_array_create_alias(mn_layout *lay, const mn_array *src, mn_array **a) {
  mn_ctx *ctx = lay->ctx;
  mn_buf *s = src->buf, *b = buf_header(lay, s->dtype, 0);
  b->host = s->host;
  b->valid = s->valid;
  b->ops = s->ops;
  b->lost = s->lost;
  b->store = s->store ? s->store : s; /* the owner of the storage */
  b->store->refs++;
  b->store->aliases++;
  mn_map m;
  mn_map_identity(&m, lay->ndim, lay->shape);
  int err = mn_array_wrap(ctx, b, &m, a);
  buf_release(b);
  return err;
}

int mni_array_create_on_empty(mn_layout *lay, mn_dtype dtype, mn_array **a) {
  return create_on(lay, dtype, 0, 0, a);
}

int mn_array_create_on(mn_layout *lay, mn_dtype dtype, int halo, mn_array **a) {
  MN_SPMD(lay ? lay->ctx : NULL, "mn_array_create_on", mn_spmd_dtype(S, "dtype", dtype),
          mn_spmd_shape(S, "layout shape", lay->ndim, lay->shape),
          mn_spmd_ints(S, "process grid", lay->ndim, lay->dims), mn_spmd_int(S, "halo", halo));
  return create_on(lay, dtype, halo, 1, a);
}

/* The default block layout of shape: one of the last few made when it
 * matches (layouts are immutable and shared by reference), so a repeated
 * temporary makes none. Global arguments only: the same on every rank. */
static int default_layout(mn_ctx *ctx, int ndim, const int64_t *shape, mn_layout **lay) {
  for (int k = 0; k < MN_CTX_LAYS; k++) {
    mn_layout *l = ctx->lays[k];
    if (!l || l->ndim != ndim || l->kind != MN_LAYOUT_BLOCK || !ndim) continue;
    int same = 1;
    for (int d = 0; same && d < ndim; d++) same = l->shape[d] == shape[d];
    if (same) { *lay = mn_layout_ref(l); return MN_SUCCESS; }
  }
  MN_CALL(mn_layout_create_block(ctx, ndim, shape, NULL, lay));
  if (ndim) {
    mn_layout_destroy(&ctx->lays[ctx->lay_next]);
    ctx->lays[ctx->lay_next] = mn_layout_ref(*lay);
    ctx->lay_next = (ctx->lay_next + 1) % MN_CTX_LAYS;
  }
  return MN_SUCCESS;
}

static int create(mn_ctx *ctx, mn_dtype dtype, int ndim, const int64_t *shape, int halo, int zero, mn_array **a) {
  MN_CHECK(ctx && a, MN_ERR_ARG, "NULL context or output pointer");
  mn_layout *lay;
  MN_CALL(default_layout(ctx, ndim, shape, &lay));
  int err = create_on(lay, dtype, halo, zero, a);
  mn_layout_destroy(&lay);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_array_create(mn_ctx *ctx, mn_dtype dtype, int ndim, const int64_t *shape, int halo, mn_array **a) {
  MN_SPMD(ctx, "mn_array_create", mn_spmd_dtype(S, "dtype", dtype), mn_spmd_shape(S, "shape", ndim, shape),
          mn_spmd_int(S, "halo", halo));
  return create(ctx, dtype, ndim, shape, halo, 1, a);
}

int mn_array_create_empty(mn_ctx *ctx, mn_dtype dtype, int ndim, const int64_t *shape, mn_array **a) {
  MN_SPMD(ctx, "mn_array_create_empty", mn_spmd_dtype(S, "dtype", dtype), mn_spmd_shape(S, "shape", ndim, shape));
  return create(ctx, dtype, ndim, shape, 0, 0, a);
}

int mn_array_create_on_device(mn_ctx *ctx, mn_dtype dtype, int ndim, const int64_t *shape, void *dmem,
                               mn_array **a) {
  MN_CHECK(ctx && a, MN_ERR_ARG, "NULL context or output pointer");
  MN_CHECK(ctx->ops->dev_alloc, MN_ERR_BACKEND, "the %s backend has no device memory to wrap", ctx->ops->name);
  MN_CALL(mn_array_create(ctx, dtype, ndim, shape, 0, a));
  mn_buf *b = (*a)->buf;
  int err = !dmem && b->nbytes && mn_layout_local_size(b->lay, ctx->rank)
                ? MN_ERR(MN_ERR_ARG, "NULL device memory for rank %d's block of %lld elements", ctx->rank,
                         (long long)mn_layout_local_size(b->lay, ctx->rank))
                : 0;
  err = mn_agree(ctx, err);
  if (err) {
    mn_array_destroy(a);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  if (!b->lost && dmem) { /* the storage made is given back for the caller's */
    b->ops->dev_free(b->dev, b->nbytes ? b->nbytes : 1);
    b->dev = dmem;
    b->borrowed = 1;
    b->valid = MN_VALID_DEV;
  }
  return MN_SUCCESS;
}

int mn_array_create_from_device(mn_ctx *ctx, mn_dtype dtype, int ndim, const int64_t *shape, const void *dmem,
                                const int64_t *strides, mn_array **a) {
  MN_CHECK(ctx && a && (shape || !ndim), MN_ERR_ARG, "NULL context, shape or output pointer");
  MN_CHECK(ctx->ops->copy_box, MN_ERR_BACKEND, "the %s backend has no device memory to copy from", ctx->ops->name);
  MN_CALL(mn_array_create_empty(ctx, dtype, ndim, shape, a));
  mn_local l;
  int err = mn_array_local_in(*a, 1, &l);
  int64_t n = err ? 0 : mn_box_size(l.ndim, l.count), st[MN_MAXDIM], off = 0;
  if (n && !dmem) err = MN_ERR(MN_ERR_ARG, "NULL device memory for an array of %lld elements", (long long)n);
  if (!err && n) {
    int64_t c = 1;
    for (int d = ndim - 1; d >= 0; d--) {
      st[d] = strides ? strides[d] : c;
      c *= shape[d];
      off += l.lo[d] * st[d];
    }
    size_t es = mn_dtype_size(dtype);
    err = ctx->ops->copy_box(ndim, l.count, es, (const char *)dmem + off * (int64_t)es, st, l.data, l.stride);
  }
  err = mn_agree(ctx, err);
  if (err) {
    mn_array_destroy(a);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}

int mn_array_create_like(const mn_array *x, mn_dtype dtype, mn_array **a) {
  MN_CHECK(x && a, MN_ERR_ARG, "NULL array or output pointer");
  MN_SPMD(x ? x->ctx : NULL, "mn_array_create_like", mn_spmd_array(S, "x", x), mn_spmd_dtype(S, "dtype", dtype));
  if (dtype == MN_NDTYPE) dtype = x->dtype;
  MN_CALL(mn_array_create(x->ctx, dtype, x->map.ndim, x->map.shape, 0, a));
  return MN_SUCCESS;
}

/* No MN_SPMD: a copy one rank may make alone (see the header). */
int mn_array_snapshot(const mn_array *a, mn_array **copy) {
  MN_CHECK(a && copy, MN_ERR_ARG, "NULL array or output pointer");
  *copy = NULL;
  const mn_buf *s = a->buf;
  mn_buf *b = NULL;
  MN_CALL(buf_create(s->lay, s->dtype, s->halo, 0, &b));
  int err = 0;
  if (!b->lost && !s->lost && s->nbytes) {
    if (b->dev && (s->valid & MN_VALID_DEV) && !s->pinned) { /* device to device: no host copy */
      int64_t n = (int64_t)(s->nbytes / mn_dtype_size(s->dtype)), one = 1;
      err = b->ops->copy_box(1, &n, mn_dtype_size(s->dtype), mn_buf_dev(s, 0), &one, mn_buf_dev(b, MN_WRITE_ALL), &one);
    } else {
      memcpy(mn_buf_host(b, MN_WRITE_ALL), mn_buf_host(s, 0), s->nbytes);
    }
  }
  if (err) {
    buf_release(b);
    return MN_ERR(MN_ERR_BACKEND, "cannot copy %zu bytes of device storage", s->nbytes);
  }
  mn_map m;
  mn_map_identity(&m, s->lay->ndim, s->lay->shape);
  err = mn_array_wrap(a->ctx, b, &m, copy);
  buf_release(b);
  return err;
}

int mn_array_rebase(const mn_array *v, const mn_array *base, mn_array **out) {
  MN_CHECK(v && base && out, MN_ERR_ARG, "NULL array or output pointer");
  *out = NULL;
  const mn_buf *p = v->buf, *q = base->buf;
  MN_CHECK(p->lay == q->lay && p->halo == q->halo && p->dtype == q->dtype, MN_ERR_ARG,
           "rebase: the new storage is not laid out as the view's (layout, halo %d / %d, dtype %s / %s)", p->halo,
           q->halo, mn_dtype_name(p->dtype), mn_dtype_name(q->dtype));
  MN_CALL(mn_array_wrap(v->ctx, base->buf, &v->map, out));
  (*out)->dtype = v->dtype;
  (*out)->is_view = v->is_view;
  return MN_SUCCESS;
}

int mn_array_destroy(mn_array **a) {
  if (!a || !*a) return MN_SUCCESS;
  buf_release((*a)->buf);
  free(*a);
  *a = NULL;
  return MN_SUCCESS;
}

mn_ctx *mn_array_ctx(const mn_array *a) { return a->ctx; }
mn_dtype mn_array_dtype(const mn_array *a) { return a->dtype; }
int mn_array_ndim(const mn_array *a) { return a->map.ndim; }
const int64_t *mn_array_shape(const mn_array *a) { return a->map.shape; }
int64_t mn_array_size(const mn_array *a) { return mn_box_size(a->map.ndim, a->map.shape); }
int mn_array_is_view(const mn_array *a) { return a->is_view; }
uintptr_t mn_array_base_key(const mn_array *a) { return (uintptr_t)a->buf; }
mn_layout *mn_array_layout(const mn_array *a) { return a->buf->lay; }
int mn_array_aligned(const mn_array *a, const mn_array *b) {
  return a && b && mn_map_split_alike(a->ctx, &a->map, a->buf->lay, &b->map, b->buf->lay, 1);
}
int mn_array_share_count(const mn_array *a) { return a->buf->refs; }

void mn_array_view_axes(const mn_array *a, int *base_axis, int64_t *step) {
  for (int k = 0; k < a->map.ndim; k++) {
    base_axis[k] = a->map.bax[k];
    step[k] = a->map.bax[k] >= 0 ? a->map.step[k] : 0;
  }
}
void mn_array_view_origin(const mn_array *a, int64_t *base_index) {
  for (int b = 0; b < a->map.bndim; b++) base_index[b] = a->map.fixed[b];
  for (int k = 0; k < a->map.ndim; k++)
    if (a->map.bax[k] >= 0) base_index[a->map.bax[k]] = a->map.start[k];
}
int mn_array_halo_width(const mn_array *a) { return a->buf->halo; }

/* pin: 1 pins (mn_array_local), 0 marks the side written, -1 only reads */
static int local_in(const mn_array *a, mn_local *loc, mn_memtype mem, int pin, const char *fn) {
  MN_CHECK(a && loc, MN_ERR_ARG, "NULL array or output pointer");
  mn_buf_need(a->ctx, a->buf, fn); /* storage lost to a deferred error: stop here */
  memset(loc, 0, sizeof *loc);
  loc->ndim = a->map.ndim;
  loc->mem = mem;
  /* mn_array_local's caller may write at any later time: its host pointer
   * pins the values there (mn_array_local_memtype's lasts until the next call) */
  if (mem == MN_MEM_HOST && pin > 0) a->buf->pinned = 1;
  int w = pin >= 0;
  char *base = mem == MN_MEM_DEVICE ? mn_buf_dev(a->buf, w) : mn_buf_host(a->buf, w);
  if (mn_map_owned_box(&a->map, a->buf->lay, a->ctx->rank, loc->lo, loc->count))
    loc->data = base + mn_map_off(&a->map, a->buf, loc->lo) * (int64_t)mn_dtype_size(a->buf->dtype);
  mn_map_strides(&a->map, a->buf, loc->stride);
  return MN_SUCCESS;
}

int mn_array_local(const mn_array *a, mn_local *loc) { return local_in(a, loc, MN_MEM_HOST, 1, "mn_array_local"); }

int mn_array_local_host(mn_array *a, mn_local *loc) { return local_in(a, loc, MN_MEM_HOST, 0, "mn_array_local_host"); }

int mn_array_local_in(const mn_array *a, int dev, mn_local *loc) {
  return local_in(a, loc, dev ? MN_MEM_DEVICE : MN_MEM_HOST, 0, "mn_array_local_in");
}

int mn_array_local_device(const mn_array *a, mn_local *loc) {
  MN_CHECK(a && loc, MN_ERR_ARG, "NULL array or output pointer");
  MN_CHECK(a->ctx->ops->dev_alloc, MN_ERR_BACKEND, "the %s backend has no device memory", a->ctx->ops->name);
  MN_CHECK(!a->buf->pinned, MN_ERR_ARG,
           "the array's values are pinned to the host (mn_array_local handed out a host pointer)");
  return local_in(a, loc, MN_MEM_DEVICE, 0, "mn_array_local_device");
}

int mn_array_local_read(const mn_array *a, int dev, mn_local *loc) {
  return local_in(a, loc, dev ? MN_MEM_DEVICE : MN_MEM_HOST, -1, "mn_array_local_read");
}

int mn_array_local_memtype(const mn_array *a, mn_local *loc) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  const mn_buf *b = a->buf;
  int dev = mn_buf_device_ok(b) && (b->valid & MN_VALID_DEV);
  return local_in(a, loc, dev ? MN_MEM_DEVICE : MN_MEM_HOST, 0, "mn_array_local_memtype");
}

void mn_strided_copy(int nd, const int64_t *cnt, size_t es, const char *src,
                     const int64_t *sst, char *dst, const int64_t *dst_st) {
  if (nd == 0) { memcpy(dst, src, es); return; }
  int64_t n = mn_box_size(nd, cnt);
  if (n == 0) return;
  int64_t idx[MN_MAXDIM] = {0};
  int64_t rows = n / cnt[nd - 1], len = cnt[nd - 1];
  int64_t si = sst[nd - 1] * (int64_t)es, di = dst_st[nd - 1] * (int64_t)es;
  for (int64_t r = 0; r < rows; r++) {
    int64_t so = 0, doff = 0;
    for (int d = 0; d < nd - 1; d++) { so += idx[d] * sst[d]; doff += idx[d] * dst_st[d]; }
    const char *s = src + so * (int64_t)es;
    char *t = dst + doff * (int64_t)es;
    if (si == (int64_t)es && di == (int64_t)es) {
      memcpy(t, s, (size_t)len * es);
    } else if (es == 8) {
      for (int64_t i = 0; i < len; i++) memcpy(t + i * di, s + i * si, 8);
    } else {
      for (int64_t i = 0; i < len; i++) memcpy(t + i * di, s + i * si, es);
    }
    for (int d = nd - 2; d >= 0; d--) {
      if (++idx[d] < cnt[d]) break;
      idx[d] = 0;
    }
  }
}
