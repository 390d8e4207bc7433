/* Communication plans: per-peer boxes to pack and send, receive and
 * (optionally) unpack, run as begin/end so that work can overlap messages.
 * One mechanism serves halo exchange, view alignment, redistribution and
 * gather/scatter. Plans are cached on the context by a key of the layouts
 * and maps involved, so a time loop builds each plan once. */
#include "mn_impl.h"
#include <stdlib.h>
#include <string.h>

/* MPI counts are ints: a message over 1 GiB goes as several, in order
 * (same peer and tag, so they match in order) */
enum { PIECE = 1 << 30 };
int64_t mn_mpi_npieces(int64_t bytes) { return bytes <= PIECE ? 1 : (bytes + PIECE - 1) / PIECE; }

int mn_mpi_post(int send, char *buf, int64_t bytes, int peer, int tag, mn_ctx *ctx, MPI_Request *reqs, int *nr) {
  MPI_Comm comm = ctx->comm;
  if (send && ctx->log) { /* counted where posted, so every kind that sends is seen */
    ctx->log->msgs += mn_mpi_npieces(bytes);
    ctx->log->msg_bytes += bytes;
  }
  for (int64_t off = 0, k = 0, n = mn_mpi_npieces(bytes); k < n; k++, off += PIECE) {
    int len = (int)(bytes - off < PIECE ? bytes - off : PIECE);
    int rc = send ? MPI_Isend(buf + off, len, MPI_BYTE, peer, tag, comm, &reqs[(*nr)++])
                  : MPI_Irecv(buf + off, len, MPI_BYTE, peer, tag, comm, &reqs[(*nr)++]);
    if (rc != MPI_SUCCESS) return MN_ERR(MN_ERR_MPI, "%s of %d bytes with rank %d failed", send ? "MPI_Isend" : "MPI_Irecv", len, peer);
  }
  return MN_SUCCESS;
}

/* The message tables down to the messages there are: builders size them
 * for every rank (P of 240 bytes each), and a plan is kept for long. */
static mn_msg *shrink(mn_msg *m, int n) {
  mn_msg *r = realloc(m, sizeof(mn_msg) * (size_t)(n ? n : 1));
  return r ? r : m; /* a failed shrink keeps the larger table */
}

int mn_plan_alloc(mn_plan *p) {
  int64_t so = 0, ro = 0;
  p->sends = shrink(p->sends, p->nsend);
  p->recvs = shrink(p->recvs, p->nrecv);
  for (int i = 0; i < p->nsend; i++) { p->sends[i].off = so; so += p->sends[i].count; }
  for (int i = 0; i < p->nrecv; i++) { p->recvs[i].off = ro; ro += p->recvs[i].count; }
  p->send_total = so;
  p->recv_total = ro;
  p->sendbuf = mn_malloc((size_t)so * p->elsize);
  p->recvbuf = mn_malloc((size_t)ro * p->elsize);
  int64_t nreq = 1;
  for (int i = 0; i < p->nsend; i++) nreq += mn_mpi_npieces(p->sends[i].count * (int64_t)p->elsize);
  for (int i = 0; i < p->nrecv; i++) nreq += mn_mpi_npieces(p->recvs[i].count * (int64_t)p->elsize);
  p->reqs = malloc(sizeof(MPI_Request) * (size_t)nreq);
  MN_CHECK(p->sendbuf && p->recvbuf && p->reqs, MN_ERR_MEM,
           "cannot allocate plan buffers (%lld + %lld elements of %zu bytes)",
           (long long)so, (long long)ro, p->elsize);
  return MN_SUCCESS;
}

void mn_plan_free(mn_plan *p) {
  if (!p) return;
  for (int i = 0; p->sends && i < p->nsend; i++) free(p->sends[i].idx);
  for (int i = 0; p->recvs && i < p->nrecv; i++) free(p->recvs[i].idx);
  free(p->sends);
  free(p->recvs);
  mn_free(p->sendbuf);
  mn_free(p->recvbuf);
  if (p->dsend) p->dops->dev_free(p->dsend, mn_plan_dbytes(p, 1));
  if (p->drecv) p->dops->dev_free(p->drecv, mn_plan_dbytes(p, 0));
  if (p->didx) p->dops->dev_free(p->didx, (size_t)p->send_total * sizeof(int64_t) + 1);
  if (p->dridx) p->dops->dev_free(p->dridx, (size_t)p->recv_total * sizeof(int64_t) + 1);
  free(p->reqs);
  free(p);
}

static int plan_begin(mn_plan *p, char *send_mem, char *recv_mem) {
  MN_CHECK(!p->active, MN_ERR_ARG, "plan begun twice without end");
  mn_ctx *ctx = p->ctx;
  size_t es = p->elsize;
  int nr = 0;
  for (int i = 0; i < p->nrecv; i++) {
    const mn_msg *m = &p->recvs[i];
    MN_CALL(mn_mpi_post(0, p->recvbuf + m->off * (int64_t)es, m->count * (int64_t)es, m->peer, m->tag, ctx,
                 p->reqs, &nr));
  }
  for (int i = 0; i < p->nsend; i++) {
    const mn_msg *m = &p->sends[i];
    char *sb = p->sendbuf + m->off * (int64_t)es;
    if (!send_mem) { /* storage lost to a deferred error (mn_buf_lost): the message still goes */
    } else if (m->idx) { /* gather listed elements */
      if (es == 8)
        for (int64_t k = 0; k < m->count; k++) memcpy(sb + k * 8, send_mem + m->idx[k] * 8, 8);
      else
        for (int64_t k = 0; k < m->count; k++) memcpy(sb + k * (int64_t)es, send_mem + m->idx[k] * (int64_t)es, es);
    } else {
      int64_t dst[MN_MAXDIM];
      mn_dense_strides(m->nd, m->cnt, dst);
      mn_strided_copy(m->nd, m->cnt, es, send_mem + m->mem_off * (int64_t)es, m->stride, sb, dst);
    }
    MN_CALL(mn_mpi_post(1, p->sendbuf + m->off * (int64_t)es, m->count * (int64_t)es, m->peer, m->tag, ctx,
                 p->reqs, &nr));
  }
  p->mem = recv_mem;
  p->nreq = nr;
  p->active = 1;
  return MN_SUCCESS;
}

int mn_plan_begin_mem(mn_plan *p, char *send_mem, char *recv_mem) {
  mn_log_begin(p->ctx, MN_LOG_PLAN_BEGIN);
  int err = plan_begin(p, send_mem, recv_mem);
  mn_log_end(p->ctx, MN_LOG_PLAN_BEGIN, 2 * p->send_total * (int64_t)p->elsize); /* packed: read and written */
  return err;
}

/* a staging copy between a plan's device and host buffers */
static int stage(mn_ctx *ctx, int to_dev, char *d, char *h, int64_t bytes) {
  return bytes ? mn_copy_counted(ctx, to_dev, d, h, (size_t)bytes) : MN_SUCCESS;
}

/* one side's index lists, moved to the device once (*d: total entries,
 * in message order; *span: 1 + the largest) */
static int dev_lists(mn_plan *p, const mn_msg *m, int nm, int64_t total, int64_t **d, int64_t *span) {
  int any = 0;
  for (int i = 0; i < nm; i++) any |= m[i].idx != NULL;
  if (!any || !total) return MN_SUCCESS;
  size_t bytes = (size_t)total * sizeof(int64_t);
  int64_t *h = malloc(bytes), top = 0;
  MN_CHECK(h, MN_ERR_MEM, "cannot allocate %zu bytes of index lists", bytes);
  for (int i = 0; i < nm; i++)
    for (int64_t k = 0; k < m[i].count; k++) {
      int64_t v = m[i].idx ? m[i].idx[k] : 0;
      h[m[i].off + k] = v;
      if (v >= top) top = v + 1;
    }
  int err = mn_dev_table(p->ctx, h, bytes, (void **)d);
  free(h);
  *span = top;
  return err;
}

int mn_plan_dev_buffers(mn_plan *p) {
  if (p->dsend) return MN_SUCCESS;
  const mn_backend_ops *ops = p->ctx->ops;
  p->dops = ops; /* made once, kept with the plan */
  int err = ops->dev_alloc(mn_plan_dbytes(p, 1), (void **)&p->dsend);
  if (!err) err = ops->dev_alloc(mn_plan_dbytes(p, 0), (void **)&p->drecv);
  if (err && p->dsend) ops->dev_free(p->dsend, mn_plan_dbytes(p, 1));
  if (err) p->dsend = p->drecv = NULL;
  if (!err) err = dev_lists(p, p->sends, p->nsend, p->send_total, &p->didx, &p->didx_span);
  if (!err) err = dev_lists(p, p->recvs, p->nrecv, p->recv_total, &p->dridx, &p->dridx_span);
  return err;
}

static int plan_begin_dev(mn_plan *p, char *send_dev, char *recv_dev) {
  MN_CHECK(!p->active, MN_ERR_ARG, "plan begun twice without end");
  mn_ctx *ctx = p->ctx;
  const mn_backend_ops *ops = ctx->ops;
  size_t es = p->elsize;
  /* a failure below is this rank's alone, while the others wait for its
   * messages: it stops the job (mn_device_abort) rather than hang it */
  if (mn_plan_dev_buffers(p)) mn_device_abort(ctx, "the device buffers of a plan");
  int nr = 0, md = ctx->mpi_dev; /* md: MPI takes the device buffers themselves (CUDA-aware) */
  /* MPI may write drecv as soon as the receive is posted: the kernels of
   * the last execution that read it (unpack, cells) must be done */
  if (md && ops->sync && ops->sync()) mn_device_abort(ctx, "a plan's earlier kernels");
  if (md && ops->mpi_expose) ops->mpi_expose(p->drecv, mn_plan_dbytes(p, 0), 1, 1);
  for (int i = 0; i < p->nrecv; i++) {
    const mn_msg *m = &p->recvs[i];
    MN_CALL(mn_mpi_post(0, (md ? p->drecv : p->recvbuf) + m->off * (int64_t)es, m->count * (int64_t)es, m->peer,
                        m->tag, ctx, p->reqs, &nr));
  }
  for (int i = 0; i < p->nsend && send_dev; i++) {
    const mn_msg *m = &p->sends[i];
    int64_t dst[MN_MAXDIM];
    mn_dense_strides(m->nd, m->cnt, dst);
    char *sb = p->dsend + m->off * (int64_t)es;
    if (m->idx ? ops->move(es, m->count, p->didx + m->off, send_dev, p->didx_span, NULL, sb, m->count)
               : ops->copy_box(m->nd, m->cnt, es, send_dev + m->mem_off * (int64_t)es, m->stride, sb, dst))
      mn_device_abort(ctx, "packing a plan's message on the device");
  }
  if (md) { /* MPI reads the packed messages once the packing kernels are done */
    if (ops->sync && ops->sync()) mn_device_abort(ctx, "packing a plan's messages on the device");
    if (ops->mpi_expose) ops->mpi_expose(p->dsend, mn_plan_dbytes(p, 1), 1, 0);
  } else if (stage(ctx, 0, p->dsend, p->sendbuf, p->send_total * (int64_t)es)) { /* one staging copy for all */
    mn_device_abort(ctx, "staging a plan's messages from the device");
  }
  for (int i = 0; i < p->nsend; i++) {
    const mn_msg *m = &p->sends[i];
    MN_CALL(mn_mpi_post(1, (md ? p->dsend : p->sendbuf) + m->off * (int64_t)es, m->count * (int64_t)es, m->peer,
                        m->tag, ctx, p->reqs, &nr));
  }
  p->mpi_dev = md;
  p->mem = recv_dev;
  p->on_dev = 1;
  p->nreq = nr;
  p->active = 1;
  return MN_SUCCESS;
}

int mn_plan_begin_dev(mn_plan *p, char *send_dev, char *recv_dev) {
  mn_log_begin(p->ctx, MN_LOG_PLAN_BEGIN);
  int err = plan_begin_dev(p, send_dev, recv_dev);
  mn_log_end(p->ctx, MN_LOG_PLAN_BEGIN, 2 * p->send_total * (int64_t)p->elsize);
  return err;
}

int mn_plan_begin_buf(mn_plan *p, const mn_buf *b) {
  int dev = mn_buf_device_ok(b) && (b->valid & MN_VALID_DEV) && b->ops->copy_box;
  for (int i = 0; dev && i < p->nsend; i++) dev = !p->sends[i].idx;
  for (int i = 0; dev && i < p->nrecv; i++) dev = !p->recvs[i].idx;
  p->dbuf = dev ? b : NULL;
  if (dev) {
    char *d = mn_buf_dev(b, 1);
    return mn_plan_begin_dev(p, d, d);
  }
  char *mem = mn_buf_host(b, 1);
  return mn_plan_begin_mem(p, mem, mem);
}

int mn_plan_begin(mn_plan *p) {
  MN_CHECK(p, MN_ERR_ARG, "NULL plan");
  MN_CHECK(p->bound, MN_ERR_ARG, "plan has no array bound; use mn_array_halo_exchange");
  MN_CALL(mn_plan_begin_buf(p, p->bound));
  return MN_SUCCESS;
}

static int plan_end(mn_plan *p) {
  MN_CHECK(p->active, MN_ERR_ARG, "plan ended without begin");
  MN_MPI(MPI_Waitall(p->nreq, p->reqs, MPI_STATUSES_IGNORE));
  p->active = 0;
  if (p->on_dev) {
    p->on_dev = 0;
    size_t es = p->elsize;
    const mn_backend_ops *ops = p->ctx->ops;
    if (p->mpi_dev && ops->mpi_expose) { /* MPI is done with the device buffers */
      ops->mpi_expose(p->dsend, mn_plan_dbytes(p, 1), 0, 0);
      ops->mpi_expose(p->drecv, mn_plan_dbytes(p, 0), 0, 0);
    }
    if (p->unpack && !p->mem) return MN_SUCCESS;
    /* (an alignment plan's reader takes the packed messages from drecv) */
    if (!p->mpi_dev && stage(p->ctx, 1, p->drecv, p->recvbuf, p->recv_total * (int64_t)es))
      mn_device_abort(p->ctx, "staging a plan's messages to the device");
    if (!p->unpack) return MN_SUCCESS;
    for (int i = 0; i < p->nrecv; i++) {
      const mn_msg *m = &p->recvs[i];
      int64_t src[MN_MAXDIM];
      mn_dense_strides(m->nd, m->cnt, src);
      char *rb = p->drecv + m->off * (int64_t)es;
      if (m->idx ? ops->move(es, m->count, NULL, rb, m->count, p->dridx + m->off, p->mem, p->dridx_span)
                 : ops->copy_box(m->nd, m->cnt, es, rb, src, p->mem + m->mem_off * (int64_t)es, m->stride))
        mn_device_abort(p->ctx, "unpacking a plan's message on the device");
    }
    /* the device copy holds the new halos: a host copy made current between
     * begin and end is stale again */
    if (p->dbuf) mn_buf_dev(p->dbuf, 1);
    return MN_SUCCESS;
  }
  if (p->unpack && p->mem) {
    size_t es = p->elsize;
    for (int i = 0; i < p->nrecv; i++) {
      const mn_msg *m = &p->recvs[i];
      const char *rb = p->recvbuf + m->off * (int64_t)es;
      if (m->idx) { /* scatter to listed elements */
        for (int64_t k = 0; k < m->count; k++) memcpy(p->mem + m->idx[k] * (int64_t)es, rb + k * (int64_t)es, es);
        continue;
      }
      int64_t src[MN_MAXDIM];
      mn_dense_strides(m->nd, m->cnt, src);
      mn_strided_copy(m->nd, m->cnt, es, rb, src, p->mem + m->mem_off * (int64_t)es, m->stride);
    }
  }
  return MN_SUCCESS;
}

int mn_plan_end(mn_plan *p) {
  MN_CHECK(p, MN_ERR_ARG, "NULL plan");
  mn_log_begin(p->ctx, MN_LOG_PLAN_END);
  int err = plan_end(p);
  mn_log_end(p->ctx, MN_LOG_PLAN_END, p->unpack ? 2 * p->recv_total * (int64_t)p->elsize : 0);
  return err;
}

int mn_plan_destroy(mn_plan **p) {
  if (!p || !*p) return MN_SUCCESS;
  if (--(*p)->refs == 0) mn_plan_free(*p);
  *p = NULL;
  return MN_SUCCESS;
}

void mn_plan_volume(const mn_plan *p, int *nmsg, int64_t *bytes) {
  if (nmsg) *nmsg = p->nsend;
  if (bytes) *bytes = p->send_total * (int64_t)p->elsize;
}

/* ---- cache ----
 * A fixed pool of entries, allocated with the context, so a put never fails
 * (a put that failed on one rank would make that rank's hits differ). */
enum { CACHE_MAX = 128, KEY_MAX = 1024 };
typedef struct centry {
  struct centry *next;
  size_t keylen;
  mn_plan *plan;
  unsigned char key[KEY_MAX];
} centry;
struct mn_plan_cache_s { centry *head, *free; int n; centry pool[CACHE_MAX]; };

int mn_cache_create(mn_ctx *ctx) {
  ctx->cache = calloc(1, sizeof *ctx->cache);
  MN_CHECK(ctx->cache, MN_ERR_MEM, "cannot allocate the plan cache (%zu bytes)", sizeof *ctx->cache);
  for (int i = 0; i < CACHE_MAX; i++) {
    ctx->cache->pool[i].next = ctx->cache->free;
    ctx->cache->free = &ctx->cache->pool[i];
  }
  return MN_SUCCESS;
}

mn_plan *mn_cache_get(mn_ctx *ctx, const void *key, size_t keylen) {
  for (centry *e = ctx->cache->head; e; e = e->next) {
    if (e->keylen == keylen && !memcmp(e->key, key, keylen)) {
      /* no move to the front: a hit changes nothing, so a lookup made on
       * some ranks only (a pending array evaluated where it is still
       * alive) cannot make the ranks' caches differ */
      ctx->plan_hits++;
      e->plan->refs++;
      return e->plan;
    }
  }
  ctx->plan_misses++;
  return NULL;
}

void mn_cache_put(mn_ctx *ctx, const void *key, size_t keylen, mn_plan *p) {
  mn_plan_cache *c = ctx->cache;
  if (keylen > KEY_MAX) return;
  if (!c->free) { /* reuse the oldest (first in, first out) */
    centry **pp = &c->head;
    while ((*pp)->next) pp = &(*pp)->next;
    mn_plan_destroy(&(*pp)->plan);
    c->free = *pp;
    c->free->next = NULL;
    *pp = NULL;
    c->n--;
  }
  centry *e = c->free;
  c->free = e->next;
  e->keylen = keylen;
  e->plan = p;
  p->refs++;
  memcpy(e->key, key, keylen);
  e->next = c->head;
  c->head = e;
  c->n++;
}

void mn_cache_drop(mn_ctx *ctx, const mn_plan *p) {
  for (centry **pp = &ctx->cache->head; *pp; pp = &(*pp)->next)
    if ((*pp)->plan == p) {
      centry *e = *pp;
      *pp = e->next;
      mn_plan_destroy(&e->plan);
      e->next = ctx->cache->free;
      ctx->cache->free = e;
      ctx->cache->n--;
      return;
    }
}

void mn_cache_destroy(mn_ctx *ctx) {
  if (!ctx->cache) return;
  for (centry *e = ctx->cache->head; e; e = e->next) mn_plan_destroy(&e->plan);
  free(ctx->cache);
  ctx->cache = NULL;
}

void mn_ctx_plan_stats(const mn_ctx *ctx, int *cached, long *hits, long *misses) {
  if (cached) *cached = ctx->cache ? ctx->cache->n : 0;
  if (hits) *hits = ctx->plan_hits;
  if (misses) *misses = ctx->plan_misses;
}

/* ---- keys ---- */
typedef struct { unsigned char b[1024]; size_t n; } keybuf;
static void kput(keybuf *k, const void *p, size_t n) {
  if (k->n + n <= sizeof k->b) memcpy(k->b + k->n, p, n);
  k->n += n;
}
static void kput_layout(keybuf *k, const mn_layout *l) {
  kput(k, &l->kind, sizeof l->kind);
  kput(k, &l->ndim, sizeof l->ndim);
  kput(k, &l->root, sizeof l->root);
  kput(k, l->shape, sizeof(int64_t) * (size_t)l->ndim);
  kput(k, l->dims, sizeof(int) * (size_t)l->ndim);
}
static void kput_map(keybuf *k, const mn_map *m) {
  kput(k, &m->ndim, sizeof m->ndim);
  kput(k, &m->bndim, sizeof m->bndim);
  kput(k, m->bax, sizeof(int) * (size_t)m->ndim);
  kput(k, m->start, sizeof(int64_t) * (size_t)m->ndim);
  kput(k, m->step, sizeof(int64_t) * (size_t)m->ndim);
  kput(k, m->shape, sizeof(int64_t) * (size_t)m->ndim);
  kput(k, m->fixed, sizeof(int64_t) * (size_t)m->bndim);
}

/* ---- alignment plans ---- */
static int build_align(mn_ctx *ctx, const mn_map *m, const mn_buf *b,
                       const mn_map *am, const mn_layout *alay, int tag, mn_plan **out) {
  int nd = m->ndim, P = ctx->size, me = ctx->rank;
  mn_plan *p = calloc(1, sizeof *p);
  MN_CHECK(p, MN_ERR_MEM, "cannot allocate a plan");
  p->ctx = ctx;
  p->refs = 1;
  p->elsize = mn_dtype_size(b->dtype);
  p->tag = tag;
  p->sends = calloc((size_t)P, sizeof(mn_msg));
  p->recvs = calloc((size_t)P, sizeof(mn_msg));
  if (!p->sends || !p->recvs) { mn_plan_free(p); return MN_ERR(MN_ERR_MEM, "cannot allocate plan messages"); }
  int64_t Rlo[MN_MAXDIM], Rcnt[MN_MAXDIM], Olo[MN_MAXDIM], Ocnt[MN_MAXDIM];
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM], st[MN_MAXDIM];
  int haveR = mn_map_owned_box(am, alay, me, Rlo, Rcnt);
  int haveO = mn_map_owned_box(m, b->lay, me, Olo, Ocnt);
  mn_map_strides(m, b, st);
  /* candidates: owners of the operand elements my box reads, and owners of
   * the iteration boxes that read the operand elements I hold */
  int *cand = malloc(sizeof(int) * (size_t)P);
  if (!cand) { mn_plan_free(p); return MN_ERR(MN_ERR_MEM, "cannot allocate %d ranks", P); }
  int nc = haveR ? mn_map_box_owners(m, b->lay, Rlo, Rcnt, cand) : 0;
  for (int i = 0; i < nc; i++) {
    int q = cand[i];
    int64_t qlo[MN_MAXDIM], qcnt[MN_MAXDIM];
    if (q != me && mn_map_owned_box(m, b->lay, q, qlo, qcnt) && mn_box_intersect(nd, Rlo, Rcnt, qlo, qcnt, lo, cnt)) {
      mn_msg *r = &p->recvs[p->nrecv++];
      r->peer = q;
      r->tag = tag;
      r->nd = nd;
      r->count = mn_box_size(nd, cnt);
      memcpy(r->ilo, lo, sizeof lo);
      memcpy(r->cnt, cnt, sizeof cnt);
    }
  }
  nc = haveO ? mn_map_box_owners(am, alay, Olo, Ocnt, cand) : 0;
  for (int i = 0; i < nc; i++) {
    int q = cand[i];
    int64_t qlo[MN_MAXDIM], qcnt[MN_MAXDIM];
    if (q != me && mn_map_owned_box(am, alay, q, qlo, qcnt) && mn_box_intersect(nd, Olo, Ocnt, qlo, qcnt, lo, cnt)) {
      mn_msg *s = &p->sends[p->nsend++];
      s->peer = q;
      s->tag = tag;
      s->nd = nd;
      s->count = mn_box_size(nd, cnt);
      memcpy(s->ilo, lo, sizeof lo);
      memcpy(s->cnt, cnt, sizeof cnt);
      memcpy(s->stride, st, sizeof st);
      s->mem_off = mn_map_off(m, b, lo);
    }
  }
  free(cand);
  int err = mn_plan_alloc(p);
  if (err) { mn_plan_free(p); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *out = p;
  return MN_SUCCESS;
}

int mn_plan_get_align(mn_ctx *ctx, const mn_map *m, const mn_buf *b, const mn_map *am,
                      const mn_layout *alay, int tag, mn_plan **p, int *built) {
  keybuf k;
  k.n = 0;
  const char kind = 'A';
  kput(&k, &kind, 1);
  kput(&k, &tag, sizeof tag);
  kput(&k, &b->dtype, sizeof b->dtype);
  kput(&k, &b->halo, sizeof b->halo);
  kput_layout(&k, b->lay);
  kput_map(&k, m);
  kput_layout(&k, alay);
  kput_map(&k, am);
  int cacheable = k.n <= sizeof k.b;
  if (cacheable && (*p = mn_cache_get(ctx, k.b, k.n))) return MN_SUCCESS;
  *built = 1;
  MN_CALL(build_align(ctx, m, b, am, alay, tag, p));
  if (cacheable) mn_cache_put(ctx, k.b, k.n, *p);
  return MN_SUCCESS;
}
