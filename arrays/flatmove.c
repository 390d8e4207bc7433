/* Flat moves: each rank walks the rows (runs along the last axis) of its
 * owned box in increasing flat order and cuts them where the owner in the
 * other layout changes. Both sides walk in flat order, so what a rank
 * sends to a peer and what the peer receives from it list the same
 * elements in the same order: index-list messages of a plan. A rank's own
 * elements become runs of consecutive memory on both sides (whole rows
 * when the layouts line up), copied while the messages travel. */
#include "flatmove.h"
#include <stdlib.h>
#include <string.h>

enum { FLATMOVE_TAG = 310 };
enum { FEW_RUNS = 8 }; /* a device run copies this many runs one launch each */

typedef struct {
  int ndim, halo, kind;
  int64_t shape[MN_MAXDIM];
  int dims[MN_MAXDIM];
} fm_key;

struct mn_flatmove_s {
  mn_plan *plan;          /* elements that cross ranks */
  int64_t nrun;
  int64_t *run;           /* 3 per run: src offset, dst offset, length (elements) */
  size_t es;
  mn_dtype dtype;
  fm_key src, dst;
  /* on a device: the runs' elements as index lists there (made at the first device run) */
  int64_t nel, *dsi, *ddi;
  const struct mn_backend_ops *dops;
};

static void key_of(const mn_buf *b, fm_key *k) {
  memset(k, 0, sizeof *k);
  k->ndim = b->ndim;
  k->halo = b->halo;
  k->kind = b->lay->kind;
  memcpy(k->shape, b->lay->shape, sizeof k->shape);
  memcpy(k->dims, b->lay->dims, sizeof k->dims);
}

/* Owner in lay of flat index k, and the flat index after k where the
 * owner may change next (the next row start, or the next split point of
 * lay's last axis). */
static int owner_flat(const mn_layout *lay, int64_t k, int64_t *next) {
  int nd = lay->ndim;
  int64_t idx[MN_MAXDIM], L = lay->shape[nd - 1], j = k % L, rest = k;
  for (int d = nd - 1; d >= 0; d--) {
    idx[d] = rest % lay->shape[d];
    rest /= lay->shape[d];
  }
  int64_t end = L;
  if (lay->kind == MN_LAYOUT_BLOCK) {
    int p = lay->dims[nd - 1], c = mn_split_owner(L, p, j);
    end = mn_split_start(L, p, c) + mn_split_size(L, p, c);
  }
  *next = k - j + end;
  return mn_layout_owner(lay, idx);
}

/* One segment of the walk: len elements going to / coming from peer,
 * starting at element offset mem of the walking array's buffer. */
typedef void (*seg_fn)(void *c, int peer, int64_t len, int64_t mem);

static void walk(const mn_buf *b, const mn_layout *other, int rank, seg_fn fn, void *c) {
  int nd = b->ndim, last = nd - 1;
  if (mn_layout_local_size(b->lay, rank) == 0) return;
  int64_t cnt[MN_MAXDIM], cs[MN_MAXDIM], i[MN_MAXDIM] = {0}, rows = 1;
  for (int d = 0; d < nd; d++) cnt[d] = b->hi[d] - b->lo[d];
  mn_dense_strides(nd, b->lay->shape, cs);
  for (int d = 0; d < last; d++) rows *= cnt[d];
  for (int64_t r = 0; r < rows; r++) {
    int64_t flat = b->lo[last], mem = (b->lo[last] - b->alo[last]) * b->astride[last];
    for (int d = 0; d < last; d++) {
      flat += (b->lo[d] + i[d]) * cs[d];
      mem += (b->lo[d] + i[d] - b->alo[d]) * b->astride[d];
    }
    for (int64_t k = flat, end = flat + cnt[last]; k < end;) {
      int64_t cut;
      int peer = owner_flat(other, k, &cut);
      if (cut > end) cut = end;
      fn(c, peer, cut - k, mem + (k - flat));
      k = cut;
    }
    for (int d = last - 1; d >= 0; d--) { /* odometer over the row index */
      if (++i[d] < cnt[d]) break;
      i[d] = 0;
    }
  }
}

typedef struct {
  int me, fill;
  int64_t *count;        /* per peer: elements (my own: segments) */
  int64_t **idx;         /* per peer (fill pass): element offsets */
  int64_t *pos;
  int64_t *self;         /* fill pass: 2 per own segment, length and offset */
} walk_ctx;

static void seg(void *cv, int peer, int64_t len, int64_t mem) {
  walk_ctx *w = cv;
  if (peer == w->me) {
    if (w->fill) {
      w->self[2 * w->pos[peer]] = len;
      w->self[2 * w->pos[peer] + 1] = mem;
    }
    w->pos[peer]++;
    if (!w->fill) w->count[peer]++;
    return;
  }
  if (!w->fill) { w->count[peer] += len; return; }
  for (int64_t k = 0; k < len; k++) w->idx[peer][w->pos[peer]++] = mem + k;
}

/* Count (fill = 0), then list (fill = 1), what b's walk against other
 * gives each peer. */
static int walk_lists(const mn_buf *b, const mn_layout *other, int me, int P, walk_ctx *w) {
  w->me = me;
  w->count = calloc((size_t)P, sizeof(int64_t));
  w->pos = calloc((size_t)P, sizeof(int64_t));
  w->idx = calloc((size_t)P, sizeof(int64_t *));
  MN_CHECK(w->count && w->pos && w->idx, MN_ERR_MEM, "cannot allocate the lists of a flat move");
  walk(b, other, me, seg, w);
  for (int q = 0; q < P; q++) {
    if (q == me || !w->count[q]) continue;
    w->idx[q] = malloc(sizeof(int64_t) * (size_t)w->count[q]);
    MN_CHECK(w->idx[q], MN_ERR_MEM, "cannot allocate %lld indices", (long long)w->count[q]);
  }
  w->self = malloc(sizeof(int64_t) * (size_t)(2 * w->count[me] + 2));
  MN_CHECK(w->self, MN_ERR_MEM, "cannot allocate %lld runs", (long long)w->count[me]);
  memset(w->pos, 0, sizeof(int64_t) * (size_t)P);
  w->fill = 1;
  walk(b, other, me, seg, w);
  return MN_SUCCESS;
}

static void lists_free(walk_ctx *w, int P) {
  for (int q = 0; w->idx && q < P; q++) free(w->idx[q]);
  free(w->idx);
  free(w->count);
  free(w->pos);
  free(w->self);
}

/* My own elements: both walks list them in flat order as segments of
 * their own lengths; cut both at every boundary and join what continues. */
static int own_runs(mn_flatmove *fm, const walk_ctx *s, const walk_ctx *d, int me) {
  int64_t ns = s->count[me], nd = d->count[me];
  fm->run = malloc(sizeof(int64_t) * 3 * (size_t)(ns + nd + 1));
  MN_CHECK(fm->run, MN_ERR_MEM, "cannot allocate %lld runs", (long long)(ns + nd));
  int64_t a = 0, b = 0, ua = 0, ub = 0, n = 0; /* ua, ub: used of the current segments */
  while (a < ns && b < nd) {
    int64_t la = s->self[2 * a] - ua, lb = d->self[2 * b] - ub, len = la < lb ? la : lb;
    int64_t so = s->self[2 * a + 1] + ua, dof = d->self[2 * b + 1] + ub;
    int64_t *p = n ? fm->run + 3 * (n - 1) : NULL;
    if (p && p[0] + p[2] == so && p[1] + p[2] == dof) p[2] += len;
    else {
      fm->run[3 * n] = so;
      fm->run[3 * n + 1] = dof;
      fm->run[3 * n + 2] = len;
      n++;
    }
    ua += len;
    ub += len;
    if (ua == s->self[2 * a]) { a++; ua = 0; }
    if (ub == d->self[2 * b]) { b++; ub = 0; }
  }
  fm->nrun = n;
  return MN_SUCCESS;
}

static int build(mn_flatmove *fm, const mn_buf *sb, const mn_buf *db, mn_ctx *ctx) {
  int P = ctx->size, me = ctx->rank, err = 0;
  walk_ctx s, d;
  memset(&s, 0, sizeof s);
  memset(&d, 0, sizeof d);
  mn_plan *p = calloc(1, sizeof *p);
  if (!p) err = MN_ERR(MN_ERR_MEM, "cannot allocate a plan");
  if (!err) err = walk_lists(sb, db->lay, me, P, &s); /* what I send */
  if (!err) err = walk_lists(db, sb->lay, me, P, &d); /* what I receive */
  if (!err) err = own_runs(fm, &s, &d, me);
  if (!err) {
    p->ctx = ctx;
    p->refs = 1;
    p->elsize = fm->es;
    p->tag = FLATMOVE_TAG;
    p->unpack = 1;
    p->sends = calloc((size_t)P, sizeof(mn_msg));
    p->recvs = calloc((size_t)P, sizeof(mn_msg));
    if (!p->sends || !p->recvs) err = MN_ERR(MN_ERR_MEM, "cannot allocate the messages of a flat move");
  }
  for (int q = 0; q < P && !err; q++) {
    if (q == me) continue;
    if (s.count[q]) {
      mn_msg *m = &p->sends[p->nsend++];
      m->peer = q;
      m->tag = FLATMOVE_TAG;
      m->count = s.count[q];
      m->idx = s.idx[q];
      s.idx[q] = NULL; /* the plan owns it now */
    }
    if (d.count[q]) {
      mn_msg *m = &p->recvs[p->nrecv++];
      m->peer = q;
      m->tag = FLATMOVE_TAG;
      m->count = d.count[q];
      m->idx = d.idx[q];
      d.idx[q] = NULL;
    }
  }
  if (!err) err = mn_plan_alloc(p);
  lists_free(&s, P);
  lists_free(&d, P);
  if (err) mn_plan_free(p);
  else fm->plan = p;
  return err;
}

int mn_flatmove_create(const mn_array *src, const mn_array *dst, mn_flatmove **out) {
  MN_CHECK(src && dst && out, MN_ERR_ARG, "NULL array or output");
  *out = NULL;
  mn_ctx *ctx = src->ctx;
  int err = 0;
  if (src->is_view || dst->is_view || dst->ctx != ctx) err = MN_ERR(MN_ERR_ARG, "a flat move needs two base arrays of one context");
  else if (src->dtype != dst->dtype)
    err = MN_ERR(MN_ERR_DTYPE, "a flat move keeps the dtype: %s to %s", mn_dtype_name(src->dtype),
                 mn_dtype_name(dst->dtype));
  else if (mn_array_size(src) != mn_array_size(dst))
    err = MN_ERR(MN_ERR_SHAPE, "a flat move keeps the size: %lld to %lld elements", (long long)mn_array_size(src),
                 (long long)mn_array_size(dst));
  else if (src->map.ndim < 1 || dst->map.ndim < 1)
    err = MN_ERR(MN_ERR_SHAPE, "a flat move needs arrays of at least one axis");
  mn_flatmove *fm = err ? NULL : calloc(1, sizeof *fm);
  if (!err && !fm) err = MN_ERR(MN_ERR_MEM, "cannot allocate a flat move");
  if (!err) {
    fm->es = mn_dtype_size(src->dtype);
    fm->dtype = src->dtype;
    key_of(src->buf, &fm->src);
    key_of(dst->buf, &fm->dst);
    err = build(fm, src->buf, dst->buf, ctx);
  }
  err = mn_agree(ctx, err);
  if (err) {
    mn_flatmove_destroy(&fm);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  *out = fm;
  return MN_SUCCESS;
}

/* the runs as two device index lists, one entry per element */
static int dev_runs(mn_flatmove *fm, mn_ctx *ctx) {
  if (fm->dops) return MN_SUCCESS;
  int64_t n = 0;
  for (int64_t r = 0; r < fm->nrun; r++) n += fm->run[3 * r + 2];
  size_t bytes = (size_t)n * sizeof(int64_t);
  int64_t *h = malloc(2 * bytes + 1);
  MN_CHECK(h, MN_ERR_MEM, "cannot allocate a flat move's index lists (%lld elements)", (long long)n);
  for (int64_t r = 0, k = 0; r < fm->nrun; r++)
    for (int64_t i = 0; i < fm->run[3 * r + 2]; i++, k++) {
      h[k] = fm->run[3 * r] + i;
      h[n + k] = fm->run[3 * r + 1] + i;
    }
  int err = mn_dev_table(ctx, h, bytes, (void **)&fm->dsi);
  if (!err) err = mn_dev_table(ctx, h + n, bytes, (void **)&fm->ddi);
  free(h);
  if (err) {
    if (fm->dsi) ctx->ops->dev_free(fm->dsi, bytes + 1);
    fm->dsi = NULL;
    return err;
  }
  fm->nel = n;
  fm->dops = ctx->ops;
  return MN_SUCCESS;
}

/* on the device when the source's values are there: the plan's messages
 * packed and unpacked by kernels, the rank's own elements moved by one
 * launch over index lists, or a launch per run when they are few */
static int run_dev(mn_flatmove *fm, const mn_array *src, mn_array *dst) {
  mn_ctx *ctx = src->ctx;
  const mn_backend_ops *ops = ctx->ops;
  int few = fm->nrun <= FEW_RUNS; /* a launch each, and no index lists */
  if (!few && dev_runs(fm, ctx)) mn_device_abort(ctx, "a flat move's index lists on the device");
  char *sm = mn_buf_dev(src->buf, 0), *dm = mn_buf_dev(dst->buf, 1);
  MN_CALL(mn_plan_begin_dev(fm->plan, sm, dm));
  const size_t es = fm->es;
  int64_t one = 1;
  for (int64_t r = 0; few && r < fm->nrun; r++) {
    const int64_t *q = fm->run + 3 * r;
    if (ops->copy_box(1, &q[2], es, sm + q[0] * (int64_t)es, &one, dm + q[1] * (int64_t)es, &one))
      mn_device_abort(ctx, "a flat move on the device");
  }
  if (!few && ops->move(es, fm->nel, fm->dsi, sm, (int64_t)(src->buf->nbytes / es), fm->ddi, dm,
                        (int64_t)(dst->buf->nbytes / es)))
    mn_device_abort(ctx, "a flat move on the device");
  MN_CALL(mn_plan_end(fm->plan));
  return MN_SUCCESS;
}

int mn_flatmove_run(mn_flatmove *fm, const mn_array *src, mn_array *dst) {
  MN_CHECK(fm && src && dst, MN_ERR_ARG, "NULL flat move or array");
  fm_key ks, kd;
  key_of(src->buf, &ks);
  key_of(dst->buf, &kd);
  MN_CHECK(!src->is_view && !dst->is_view && src->dtype == fm->dtype && dst->dtype == fm->dtype &&
               !memcmp(&ks, &fm->src, sizeof ks) && !memcmp(&kd, &fm->dst, sizeof kd),
           MN_ERR_ARG, "a flat move runs on arrays of the layouts, halos and dtype it was made for");
  /* the side is each rank's choice: a plan's messages are the same either way */
  if (mn_buf_device_ok(src->buf) && mn_buf_device_ok(dst->buf) && (src->buf->valid & MN_VALID_DEV) &&
      src->ctx->ops->move)
    return run_dev(fm, src, dst);
  char *sm = mn_buf_host(src->buf, 0), *dm = mn_buf_host(dst->buf, 1);
  MN_CALL(mn_plan_begin_mem(fm->plan, sm, dm));
  const size_t es = fm->es;
  for (int64_t r = 0; sm && dm && r < fm->nrun; r++) { /* (storage lost: the messages still go) */
    const int64_t *q = fm->run + 3 * r;
    memcpy(dm + q[1] * (int64_t)es, sm + q[0] * (int64_t)es, (size_t)q[2] * es);
  }
  MN_CALL(mn_plan_end(fm->plan));
  return MN_SUCCESS;
}

void mn_flatmove_destroy(mn_flatmove **fm) {
  if (!fm || !*fm) return;
  mn_plan_free((*fm)->plan);
  if ((*fm)->dops) {
    size_t bytes = (size_t)(*fm)->nel * sizeof(int64_t) + 1;
    (*fm)->dops->dev_free((*fm)->dsi, bytes);
    (*fm)->dops->dev_free((*fm)->ddi, bytes);
  }
  free((*fm)->run);
  free(*fm);
  *fm = NULL;
}

int mn_flatmove_kept(const mn_array *src, const mn_array *dst, mn_flatmove **fm) {
  mn_ctx *ctx = src->ctx;
  fm_key ks, kd;
  key_of(src->buf, &ks);
  key_of(dst->buf, &kd);
  for (int k = 0; k < MN_CTX_FMOVES; k++) {
    mn_flatmove *f = ctx->fmoves[k];
    if (f && f->dtype == src->dtype && !memcmp(&ks, &f->src, sizeof ks) && !memcmp(&kd, &f->dst, sizeof kd)) {
      *fm = f;
      return MN_SUCCESS;
    }
  }
  MN_CALL(mn_flatmove_create(src, dst, fm));
  mn_flatmove_destroy(&ctx->fmoves[ctx->fmove_next]); /* the oldest goes */
  ctx->fmoves[ctx->fmove_next] = *fm;
  ctx->fmove_next = (ctx->fmove_next + 1) % MN_CTX_FMOVES;
  return MN_SUCCESS;
}

void mn_flatmove_release_kept(mn_ctx *ctx) {
  for (int k = 0; k < MN_CTX_FMOVES; k++) mn_flatmove_destroy(&ctx->fmoves[k]);
}
