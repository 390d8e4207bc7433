/* Evaluating fused expressions: owner-computes over the output's (or an
 * anchor operand's) boxes; each operand's remote elements arrive through a
 * cached alignment plan while the cells that need none are computed; then
 * the DAG runs over cache-sized blocks so no full-size temporaries exist. */
#include "eval_impl.h"
#include "spmd.h"
#include "kernels/table.h"
#include "fuse.h"
#include "stream.h"
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Outputs at least this large (bytes per rank) are written with streaming
 * stores; MANIPLE_STREAM_MIN_BYTES overrides (0 = always, -1 = never). */
static double stream_min_bytes(void) {
  static double v = -2;
  if (v == -2) {
    const char *s = getenv("MANIPLE_STREAM_MIN_BYTES");
    v = s && *s ? atof(s) : 16.0 * 1024 * 1024;
    if (v < 0) v = 1e300;
  }
  return v;
}

static int nthreads_max(void) {
#ifdef _OPENMP
  return omp_get_max_threads();
#else
  return 1;
#endif
}

/* The live nodes node j reads: its linear combination's terms or its
 * arguments; how many. */
static int live_args(const prog *P, int j, int *args) {
  const mn_node *n = &P->e->v[j];
  if (P->lc[j].n) {
    for (int q = 0; q < P->lc[j].n; q++) args[q] = P->lc[j].term[q];
    return P->lc[j].n;
  }
  args[0] = n->a, args[1] = n->b, args[2] = n->c;
  return mn_node_arity(n);
}

/* Node -> scratch slot, reused once a value's last reader has run (a
 * register allocation over the live nodes in order): swe's flux pass had
 * a slot of BLK values for each of its 119 nodes (480 KB a block, past
 * L2) where some 20 are live at once. A node never takes a slot its own
 * operands free, so no kernel writes over what it reads. Never freed:
 * scalars' slots (filled once per thread), the root's and the extra
 * outputs' (read after the last node) and the inputs' (a compiled kernel,
 * jit_cpu.c, loads every strided input first). last, freel: scratch of n
 * ints each. */
static void assign_slots(prog *P, int *last, int *freel) {
  const mn_expr *e = P->e;
  int nl = P->nlive, nfree = 0, next = 0;
  for (int k = 0; k < nl; k++) {
    int j = P->live[k], args[MN_LC_MAX];
    last[j] = -1;
    int na = live_args(P, j, args);
    for (int q = 0; q < na; q++) last[args[q]] = k;
  }
  last[P->root] = nl;
  for (int x = 0; x < P->nx; x++) last[P->xnode[x]] = nl;
  for (int k = 0; k < nl; k++) {
    int j = P->live[k], args[MN_LC_MAX];
    P->slotof[j] = nfree && e->v[j].kind != MN_N_SCALAR ? freel[--nfree] : next++;
    int na = live_args(P, j, args);
    for (int q = 0; q < na; q++) {
      int a = args[q];
      if (last[a] != k || e->v[a].kind == MN_N_SCALAR || e->v[a].kind == MN_N_INPUT) continue;
      last[a] = -2; /* freed once, even when read twice */
      freel[nfree++] = P->slotof[a];
    }
  }
  P->nslots = next;
}

static int prog_init(prog *P, const mn_expr *e, int root, int nx, const int *xnode, int nd, const int64_t *shape) {
  memset(P, 0, sizeof *P);
  P->e = e;
  P->root = root;
  P->nx = nx;
  int top = root; /* the highest node needed */
  for (int k = 0; k < nx; k++) { P->xnode[k] = xnode[k]; if (xnode[k] > top) top = xnode[k]; }
  P->nd = nd;
  mn_dense_strides(nd, shape, P->cstride);
  P->boxsize = mn_box_size(nd, shape);
  /* one block for the per-node tables, kept on the context, so later calls
   * allocate nothing. Growing it makes no collective: a front end may
   * evaluate on some ranks only (see eval_exec.c), and a few hundred bytes
   * a node that cannot be had stop the job (mn_oom_abort). */
  size_t n = (size_t)e->n, bytes = n * (sizeof(operand) + sizeof(mn_lincomb) + 6 * sizeof(int));
  mn_ctx *ctx = e->ctx;
  if (bytes > ctx->prog_size) {
    char *nb = calloc(1, bytes);
    if (!nb) mn_oom_abort(ctx, bytes, "an expression program's tables");
    free(ctx->prog);
    ctx->prog = nb;
    ctx->prog_size = bytes;
  } else {
    memset(ctx->prog, 0, bytes);
  }
  char *blk = ctx->prog;
  P->ops = (operand *)blk;
  P->lc = (mn_lincomb *)(blk + n * sizeof(operand));
  int *ints = (int *)(blk + n * (sizeof(operand) + sizeof(mn_lincomb)));
  P->opi = ints;
  P->live = ints + n;
  P->slotof = ints + 5 * n;
  int *need = ints + 2 * n, *uses = ints + 3 * n, *absorbed = ints + 4 * n;
  /* references among the nodes the root (and the extras) need */
  need[root] = 1;
  for (int k = 0; k < nx; k++) { need[xnode[k]] = 1; uses[xnode[k]]++; } /* stored: never absorbed */
  for (int j = top; j >= 0; j--) {
    if (!need[j]) continue;
    const mn_node *n = &e->v[j];
    int args[3] = {n->a, n->b, n->c}, na = mn_node_arity(n);
    for (int q = 0; q < na; q++) { need[args[q]] = 1; uses[args[q]]++; }
  }
  uses[root]++;
  /* fuse linear chains from the top down, then recompute what is needed */
  for (int j = top; j >= 0; j--)
    if (need[j] && !absorbed[j]) mn_fuse_node(e, uses, j, &P->lc[j], absorbed);
  memset(need, 0, sizeof(int) * (size_t)e->n);
  need[root] = 1;
  for (int k = 0; k < nx; k++) need[xnode[k]] = 1;
  for (int j = top; j >= 0; j--) {
    if (!need[j]) continue;
    const mn_node *n = &e->v[j];
    if (P->lc[j].n) {
      for (int q = 0; q < P->lc[j].n; q++) need[P->lc[j].term[q]] = 1;
      continue;
    }
    if (n->kind == MN_N_UNARY || n->kind == MN_N_CAST) need[n->a] = 1;
    if (n->kind == MN_N_BINARY) need[n->a] = need[n->b] = 1;
    if (n->kind == MN_N_TERNARY) need[n->a] = need[n->b] = need[n->c] = 1;
  }
  size_t wide = 8;
  for (int j = 0; j <= top; j++) {
    P->opi[j] = -1;
    if (!need[j]) continue;
    P->live[P->nlive++] = j;
    if (mn_dtype_size(e->v[j].dtype) > 8) wide = MAXES;
    if (e->v[j].kind == MN_N_INPUT) {
      if (!e->v[j].arr) {
        return MN_ERR(MN_ERR_ARG, "expression node %d is a placeholder (for type inference) and cannot be evaluated", j);
      }
      if (P->nops == MAXOPS) { return MN_ERR(MN_ERR_NOTIMPL, "expression reads more than %d arrays", MAXOPS); }
      operand *op = &P->ops[P->nops];
      op->node = j;
      int err = mn_map_broadcast(&e->v[j].arr->map, nd, shape, &op->bmap);
      if (err) { return mn_trace(err, __FILE__, __LINE__, __func__); }
      P->opi[j] = P->nops++;
    }
  }
  assign_slots(P, need, uses);
  P->slot = BLK * wide;
  return MN_SUCCESS;
}

static void prog_free(prog *P) {
  P->ops = NULL; /* the block stays on the context (prog_init) */
}

/* Bytes a pass over n iteration points reads and writes, for the log: an
 * estimate that reads every operand once per point (broadcast ones too). */
static int64_t prog_bytes(const prog *P, int64_t n) {
  int64_t per = P->reduce ? 0 : (int64_t)mn_eval_es(P->odt);
  for (int i = 0; i < P->nops; i++) per += (int64_t)mn_eval_es(P->e->v[P->ops[i].node].arr->dtype);
  for (int k = 0; k < P->nx; k++) per += (int64_t)mn_eval_es(P->e->v[P->xnode[k]].dtype);
  return n * per;
}

/* How input map a reads the elements out map o writes: 0 never (disjoint
 * along some axis), 1 shifted by whole elements delta (same base axes and
 * steps), 2 some other way. */
static int alias_shift(const mn_map *a, const mn_map *o, int64_t *delta) {
  if (a->ndim != o->ndim) return 2;
  int mapped[MN_MAXDIM] = {0};
  for (int k = 0; k < o->ndim; k++) {
    delta[k] = 0;
    if (a->bax[k] != o->bax[k]) return 2;
    if (o->bax[k] < 0) continue;
    if (a->step[k] != o->step[k]) return 2;
    int64_t d = a->start[k] - o->start[k];
    if (d % o->step[k]) return 0;
    delta[k] = d / o->step[k];
    mapped[o->bax[k]] = 1;
  }
  for (int d = 0; d < o->bndim; d++)
    if (!mapped[d] && a->fixed[d] != o->fixed[d]) return 0;
  return 1;
}

/* Per-rank argument checks of an evaluation (agreed by the caller). */
static int check_eval(const mn_expr *e, int node, const mn_array *out) {
  MN_CHECK(out, MN_ERR_ARG, "NULL output array");
  MN_CHECK(node >= 0 && node < e->n, MN_ERR_ARG, "expression node %d does not exist (have %d)", node, e->n);
  MN_CHECK(out->ctx == e->ctx, MN_ERR_ARG, "output belongs to another context");
  const mn_node *rn = &e->v[node];
  /* the node broadcasts to out's shape, as NumPy's out= and assignment do */
  int bnd = 0;
  int64_t bs[MN_MAXDIM];
  int same = mn_broadcast_shapes(out->map.ndim, out->map.shape, rn->ndim, rn->shape, &bnd, bs) == MN_SUCCESS &&
             bnd == out->map.ndim;
  for (int d = 0; same && d < bnd; d++) same = bs[d] == out->map.shape[d];
  if (!same) {
    char a[128], b[128];
    mn_shape_str(rn->ndim, rn->shape, a, sizeof a);
    mn_shape_str(out->map.ndim, out->map.shape, b, sizeof b);
    return MN_ERR(MN_ERR_SHAPE, "could not broadcast input array from shape %s into shape %s", a, b);
  }
  return MN_SUCCESS;
}

/* Per-rank checks of extra outputs: fresh arrays of the iteration shape
 * and the node's dtype, read by no input. */
static int check_extras(const mn_expr *e, int nd, const int64_t *shape, int nx, const int *xnode,
                        mn_array *const *xout) {
  MN_CHECK(nx >= 0 && nx <= MAXX, MN_ERR_ARG, "%d extra outputs (at most %d)", nx, (int)MAXX);
  for (int k = 0; k < nx; k++) {
    MN_CHECK(xout && xout[k] && xnode, MN_ERR_ARG, "NULL extra output %d", k);
    MN_CHECK(xnode[k] >= 0 && xnode[k] < e->n, MN_ERR_ARG, "expression node %d does not exist (have %d)",
             xnode[k], e->n);
    const mn_node *n = &e->v[xnode[k]];
    const mn_array *x = xout[k];
    MN_CHECK(x->ctx == e->ctx, MN_ERR_ARG, "extra output %d belongs to another context", k);
    MN_CHECK(x->dtype == n->dtype, MN_ERR_DTYPE, "extra output %d is %s, node %d is %s", k,
             mn_dtype_name(x->dtype), xnode[k], mn_dtype_name(n->dtype));
    int same = x->map.ndim == nd && n->ndim == nd;
    for (int d = 0; same && d < nd; d++) same = x->map.shape[d] == shape[d] && n->shape[d] == shape[d];
    if (!same) {
      char a[128], b[128];
      mn_shape_str(x->map.ndim, x->map.shape, a, sizeof a);
      mn_shape_str(nd, shape, b, sizeof b);
      return MN_ERR(MN_ERR_SHAPE, "extra output %d has shape %s, the evaluation %s", k, a, b);
    }
    for (int j = 0; j < e->n; j++)
      MN_CHECK(e->v[j].kind != MN_N_INPUT || !e->v[j].arr || e->v[j].arr->buf != x->buf, MN_ERR_ARG,
               "extra output %d is read by the expression (node %d)", k, j);
  }
  return MN_SUCCESS;
}

/* ok[k]: extra k owns exactly the iteration box (R, or nothing) on every
 * rank, so the pass stores it; the others are evaluated after, alone. */
/* An input, output or extra output whose storage this rank lost (a failed
 * allocation, deferred): the evaluation computes nothing here */
static int storage_lost(const prog *P, const mn_array *out, int nx, mn_array *const *xout) {
  if (out && mn_buf_lost(out->buf)) return 1;
  for (int i = 0; i < P->nops; i++)
    if (mn_buf_lost(P->e->v[P->ops[i].node].arr->buf)) return 1;
  for (int k = 0; k < nx; k++)
    if (mn_buf_lost(xout[k]->buf)) return 1;
  return 0;
}

/* The evaluator runs on the host: its inputs' host copies, and its
 * outputs' to be written (a no-op on the cpu backend). */
static void to_host(const prog *P, mn_array *out, int nx, mn_array *const *xout) {
  int reads_out = 0;
  for (int i = 0; i < P->nops; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    mn_buf_host(b, 0);
    reads_out |= out && b == out->buf;
  }
  /* a whole base without halo, not read: its old values are not needed */
  if (out) mn_buf_host(out->buf, !reads_out && mn_array_whole_storage(out) ? MN_WRITE_ALL : 1);
  for (int k = 0; k < nx; k++) mn_buf_host(xout[k]->buf, 1);
}

/* On a device backend, a scalar stored into a whole array (a fill) is one
 * kernel there and copies nothing. 1 when done so (*err: its outcome). */
static int device_fill(const mn_expr *e, int node, mn_array *out, int *err) {
  const mn_node *n = &e->v[node];
  const mn_buf *b = out->buf;
  if (!mn_buf_device_ok(b) || !b->ops->fill || n->kind != MN_N_SCALAR || out->is_view || b->halo) return 0;
  union { char c[16]; int64_t align; } v; /* the scalar as the CPU evaluator stores it */
  mn_scalar_store(n->s, out->dtype, v.c);
  size_t es = mn_dtype_size(out->dtype);
  *err = b->ops->fill(mn_buf_dev(b, MN_WRITE_ALL), (int64_t)(b->nbytes / es), es, &v);
  if (*err && e->ctx->size > 1) { /* this rank alone: raised at the next communication point */
    mn_defer(e->ctx, *err);
    *err = 0;
  }
  return 1;
}

/* ok[k]: extra output k is split as the iteration space (map am on alay)
 * on every rank, so this pass writes it. Decided from global metadata, the
 * same on every rank without a message (mn_map_split_alike); the others
 * are evaluated apart. */
static void extras_aligned(mn_ctx *ctx, int nx, mn_array *const *xout, const mn_map *am, const mn_layout *alay,
                           int *ok) {
  for (int k = 0; k < nx; k++) ok[k] = mn_map_split_alike(ctx, &xout[k]->map, xout[k]->buf->lay, am, alay, 0);
}

/* The aligned extras into P (pointers at Rlo); the others listed in rest. */
static void extras_setup(prog *P, int nx, const int *xnode, mn_array *const *xout, const int *ok, int haveR,
                         const int64_t *Rlo, int *nrest, int *rest) {
  int m = 0;
  *nrest = 0;
  for (int k = 0; k < nx; k++) {
    if (!ok[k]) { rest[(*nrest)++] = k; continue; }
    P->xnode[m] = xnode[k];
    P->xbase[m] = haveR ? mn_map_ptr(&xout[k]->map, xout[k]->buf, Rlo) : NULL;
    mn_map_strides(&xout[k]->map, xout[k]->buf, P->xst[m]);
    if (P->nd == 0) P->xst[m][0] = 1;
    m++;
  }
  P->nx = m;
}

static int eval_extras(mn_expr *e, int node, mn_array *out, int nx, const int *xnode, mn_array *const *xout,
                       int64_t *mem);

/* the logged evaluation; extras evaluated apart add a call each */
static int eval_logged(mn_expr *e, int node, mn_array *out, int nx, const int *xnode, mn_array *const *xout) {
  MN_CHECK(e, MN_ERR_ARG, "NULL expression"); /* no communicator to agree on */
  mn_log_begin(e->ctx, MN_LOG_EVAL);
  int64_t mem = 0;
  int err = eval_extras(e, node, out, nx, xnode, xout, &mem);
  mn_log_end(e->ctx, MN_LOG_EVAL, mem);
  return err;
}

int mn_expr_eval(mn_expr *e, int node, mn_array *out) {
  return eval_logged(e, node, out, 0, NULL, NULL);
}

int mn_expr_eval_extra(mn_expr *e, int node, mn_array *out, int nx, const int *xnode, mn_array *const *xout) {
  /* the root and out only: the extra outputs are this rank's choice (a
   * shared pass stores what is alive here; see eval_exec.c) */
  MN_SPMD(e ? e->ctx : NULL, "mn_expr_eval_extra", mn_spmd_expr(S, "expression", e, node),
          mn_spmd_array(S, "out", out));
  return eval_logged(e, node, out, nx, xnode, xout);
}

/* On a device backend each extra output is evaluated apart, before the
 * root (which may overwrite an input they read): a device kernel has one
 * output, and recomputing the shared part there costs less than copying
 * the operands to the host. A fact of the backend, so every rank splits
 * alike (the evaluations' messages match). */
static int split_extras(const mn_expr *e) { return e->ctx->ops->eval != NULL; }

static int eval_extras(mn_expr *e, int node, mn_array *out, int nx, const int *xnode, mn_array *const *xout,
                       int64_t *mem) {
  int err = check_eval(e, node, out);
  if (!err && nx) err = check_extras(e, out->map.ndim, out->map.shape, nx, xnode, xout);
  if (err) {
    err = mn_agree(e->ctx, err); /* matches the agreement inside execute */
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  if (nx && split_extras(e)) {
    for (int k = 0; k < nx && !err; k++) err = eval_extras(e, xnode[k], xout[k], 0, NULL, NULL, mem);
    if (!err) err = eval_extras(e, node, out, 0, NULL, NULL, mem);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    mn_log_more_calls(e->ctx, MN_LOG_EVAL, nx); /* a kernel each: the passes a GPU makes */
    return MN_SUCCESS;
  }
  if (!nx && !mn_buf_lost(out->buf) && device_fill(e, node, out, &err)) {
    *mem += (int64_t)out->buf->nbytes;
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    return MN_SUCCESS;
  }
  if (!nx && mn_eval_direct(e, node, out, mem)) return MN_SUCCESS;
  int ond = out->map.ndim;
  prog P;
  err = prog_init(&P, e, node, nx, xnode, ond, out->map.shape);
  P.odt = out->dtype;
  if (mn_dtype_size(P.odt) > 8) P.slot = BLK * MAXES; /* the spare slot casts to it */
  int lost = !err && storage_lost(&P, out, nx, xout);
  if (!err && !lost && mn_eval_device_ok(&P, out, nx)) {
    err = mn_eval_device(&P, out);
    if (err && e->ctx->size > 1) { /* this rank alone (no message here): raised at the next communication point */
      mn_defer(e->ctx, err);
      err = 0;
    }
    int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM];
    if (!err && mn_log_on(e->ctx) && mn_map_owned_box(&out->map, out->buf->lay, e->ctx->rank, lo, cnt))
      *mem += prog_bytes(&P, mn_box_size(ond, cnt));
    prog_free(&P);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    return MN_SUCCESS;
  }
  if (!err && !lost) to_host(&P, out, nx, xout);
  /* an input reading out's buffer through another map must not see
   * partial results: when every such input reads out shifted by whole
   * elements, bands written back one late suffice (band_mode); otherwise
   * compute into a temporary, then copy */
  int alias = 0, shifted = 0;
  int64_t back = 0; /* furthest backward read along axis 0 */
  for (int i = 0; i < P.nops && !err; i++) {
    const mn_array *x = e->v[P.ops[i].node].arr;
    if (x->buf != out->buf || mn_map_equal(&P.ops[i].bmap, &out->map)) continue;
    int64_t delta[MN_MAXDIM];
    int k = alias_shift(&P.ops[i].bmap, &out->map, delta);
    if (k == 0) continue; /* never reads an element out writes */
    if (k == 2 || ond == 0) alias = 1;
    else { shifted = 1; if (-delta[0] > back) back = -delta[0]; }
  }
  int64_t Rlo[MN_MAXDIM], Rcnt[MN_MAXDIM], st[MN_MAXDIM];
  int haveR = !lost && mn_map_owned_box(&out->map, out->buf->lay, e->ctx->rank, Rlo, Rcnt);
  int ok[MAXX], rest[MAXX], nrest = 0;
  if (nx && !err) {
    extras_aligned(e->ctx, nx, xout, &out->map, out->buf->lay, ok);
    extras_setup(&P, nx, xnode, xout, ok, haveR, Rlo, &nrest, rest);
  }
  if (err) { /* from prog_init: on every rank (global, or agreed there) */
    prog_free(&P);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  /* an allocation of this rank alone: execute decides */
  int lerr = lost ? MN_ERR(MN_ERR_MEM, "an input or output of this evaluation has no storage on rank %d",
                           e->ctx->rank) : 0;
  char *dst = NULL, *tmp = NULL;
  size_t oes = mn_eval_es(out->dtype);
  band_mode bm, *bmp = NULL;
  /* reading out shifted or otherwise: into fresh storage when out's may
   * be replaced (renew.c), else in bands or through a temporary */
  char *fresh = NULL;
  int64_t flo[MN_MAXDIM];
  if (haveR && (shifted || alias) && mn_buf_renewable(out->buf) &&
      mn_buf_renew_box(out->buf, &out->map, Rlo, Rcnt, flo))
    fresh = mn_buf_renew_take(out->buf);
  if (fresh) {
    dst = fresh + (mn_map_ptr(&out->map, out->buf, Rlo) - out->buf->host);
    mn_map_strides(&out->map, out->buf, st);
    alias = shifted = 0;
  } else if (haveR && shifted && !alias) {
    int64_t row = mn_box_size(ond, Rcnt) / (Rcnt[0] ? Rcnt[0] : 1), h = (int64_t)(BAND_BYTES / ((size_t)row * oes + 1));
    if (h < back) h = back;
    if (h < 1) h = 1;
    if ((double)h * (double)row * (double)oes <= BAND_MAX_BYTES) {
      bm.h = h;
      bm.buf[0] = mn_ctx_alias_buffer(e->ctx, 2 * (size_t)(h * row) * oes);
      bm.buf[1] = bm.buf[0] ? bm.buf[0] + (size_t)(h * row) * oes : NULL;
      if (!bm.buf[0]) lerr = MN_ERR(MN_ERR_MEM, "cannot allocate %lld elements for an aliased result", (long long)(2 * h * row));
      bm.mem = mn_map_ptr(&out->map, out->buf, Rlo);
      mn_map_strides(&out->map, out->buf, bm.st);
      bmp = &bm;
    } else {
      alias = 1;
    }
  } else if (shifted) {
    alias = 1;
  }
  if (haveR && !bmp && !fresh) {
    if (alias) {
      int64_t n = mn_box_size(ond, Rcnt);
      tmp = mn_ctx_alias_buffer(e->ctx, (size_t)n * oes);
      if (!tmp) lerr = MN_ERR(MN_ERR_MEM, "cannot allocate %lld elements for an aliased result", (long long)n);
      mn_dense_strides(ond, Rcnt, st);
      dst = tmp;
    } else {
      dst = mn_map_ptr(&out->map, out->buf, Rlo);
      mn_map_strides(&out->map, out->buf, st);
    }
  }
  /* streaming stores pay off on long runs (a triad), not on short rows
   * read back by the next sweep (a stencil): measured in bench_core */
  P.stream = !alias && !bmp && haveR && ond > 0 && (double)mn_box_size(ond, Rcnt) * (double)oes >= stream_min_bytes() &&
             Rcnt[ond - 1] >= 32768;
  if (lerr) bmp = NULL;
  err = mn_eval_execute(&P, &out->map, out->buf->lay, dst, st, NULL, nthreads_max(), bmp, lerr);
  if (fresh) mn_buf_renew_finish(out->buf, fresh, flo, Rcnt, !err && !P.deferred);
  if (!err && tmp && !P.deferred) {
    int64_t ost[MN_MAXDIM];
    mn_map_strides(&out->map, out->buf, ost);
    mn_strided_copy(ond, Rcnt, oes, tmp, st, mn_map_ptr(&out->map, out->buf, Rlo), ost);
  }
  if (!err && haveR && mn_log_on(e->ctx)) *mem += prog_bytes(&P, mn_box_size(ond, Rcnt));
  prog_free(&P);
  for (int k = 0; k < nrest && !err; k++) err = eval_extras(e, xnode[rest[k]], xout[rest[k]], 0, NULL, NULL, mem);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}


static int check_reduce(const mn_expr *e, int node, mn_reduce_op op, const mn_scalar *result) {
  MN_CHECK(result, MN_ERR_ARG, "NULL result");
  MN_CHECK(node >= 0 && node < e->n, MN_ERR_ARG, "expression node %d does not exist (have %d)", node, e->n);
  MN_CHECK(op >= 0 && op < MN_NREDUCE, MN_ERR_ARG, "unknown reduction %d", (int)op);
  MN_CHECK(mn_reduce_result(op, e->v[node].dtype) != MN_NDTYPE, MN_ERR_DTYPE, "reduction %s has no %s kernel",
           mn_reduce_name(op), mn_dtype_name(e->v[node].dtype));
  return MN_SUCCESS;
}

int mn_expr_reduce(mn_expr *e, int node, mn_reduce_op op, mn_scalar *result) {
  return mn_expr_reduce_extra(e, node, op, result, 0, NULL, NULL);
}

static int reduce_extra(mn_expr *e, int node, mn_reduce_op op, mn_scalar *result, int nx, const int *xnode,
                        mn_array *const *xout, int64_t *mem) {
  int err = check_reduce(e, node, op, result);
  if (!err && nx) err = check_extras(e, e->v[node].ndim, e->v[node].shape, nx, xnode, xout);
  if (err) {
    err = mn_agree(e->ctx, err); /* matches the agreement inside execute */
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  if (nx && split_extras(e)) {
    for (int k = 0; k < nx && !err; k++) err = eval_extras(e, xnode[k], xout[k], 0, NULL, NULL, mem);
    if (!err) err = reduce_extra(e, node, op, result, 0, NULL, NULL, mem);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    return MN_SUCCESS;
  }
  const mn_node *rn = &e->v[node];
  mn_dtype t = rn->dtype;
  prog P;
  err = prog_init(&P, e, node, nx, xnode, rn->ndim, rn->shape);
  P.reduce = 1;
  P.rop = op;
  P.odt = t; /* the values reduced (a device reduction's kernel computes them) */
  /* anchor: an input spanning the whole iteration space, else a block layout */
  const mn_map *am = NULL;
  mn_layout *alay = NULL, *own = NULL;
  mn_map idm;
  for (int i = 0; i < P.nops && !err && !am; i++) {
    const mn_map *m = &P.ops[i].bmap;
    int full = 1;
    for (int k = 0; k < m->ndim; k++) full &= m->bax[k] >= 0 || m->shape[k] == 1;
    if (full) { am = m; alay = e->v[P.ops[i].node].arr->buf->lay; }
  }
  if (!err && !am) { /* no operand spans it (the same on every rank): agree on the layout */
    err = mn_agree(e->ctx, mn_layout_create_block(e->ctx, rn->ndim, rn->shape, NULL, &own));
    mn_map_identity(&idm, rn->ndim, rn->shape);
    am = &idm;
    alay = own;
  }
  if (err) {
    mn_layout_destroy(&own);
    prog_free(&P);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  int ok[MAXX], rest[MAXX], nrest = 0, lost = storage_lost(&P, NULL, nx, xout);
  mn_acc acc;
  mn_acc_init(op, t, &acc);
  if (!lost && !nx && mn_eval_device_reduce_ok(&P)) {
    int derr = mn_eval_device_reduce(&P, am, alay, &acc);
    if (derr) { /* this rank alone: raised by the combine, on every rank */
      mn_defer(e->ctx, derr);
      mn_acc_init(op, t, &acc);
    }
  } else {
    if (!lost) to_host(&P, NULL, nx, xout);
    if (nx) {
      int64_t Rlo[MN_MAXDIM] = {0}, Rcnt[MN_MAXDIM] = {0};
      int haveR = !lost && mn_map_owned_box(am, alay, e->ctx->rank, Rlo, Rcnt);
      extras_aligned(e->ctx, nx, xout, am, alay, ok);
      extras_setup(&P, nx, xnode, xout, ok, haveR, Rlo, &nrest, rest);
    }
    int nt = nthreads_max();
    mn_acc *accs = malloc(sizeof(mn_acc) * (size_t)nt);
    int lerr = accs ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %d accumulators", nt);
    if (lost) lerr = MN_ERR(MN_ERR_MEM, "an input of this reduction has no storage on rank %d", e->ctx->rank);
    for (int i = 0; accs && i < nt; i++) mn_acc_init(op, t, &accs[i]);
    err = mn_eval_execute(&P, am, alay, NULL, NULL, accs, nt, NULL, lerr);
    /* a deferred error rides on the combine below and is raised there, everywhere */
    for (int i = 0; !err && !P.deferred && i < nt; i++) mn_acc_merge(op, t, &acc, &accs[i]);
    free(accs);
  }
  if (!err) err = mn_acc_allreduce(e->ctx, op, t, &acc);
  if (!err) err = mn_acc_to_scalar(op, t, &acc, result);
  int64_t Rlo[MN_MAXDIM], Rcnt[MN_MAXDIM];
  if (!err && mn_log_on(e->ctx) && mn_map_owned_box(am, alay, e->ctx->rank, Rlo, Rcnt))
    *mem = prog_bytes(&P, mn_box_size(rn->ndim, Rcnt));
  mn_layout_destroy(&own);
  prog_free(&P);
  for (int k = 0; k < nrest && !err; k++) err = mn_expr_eval(e, xnode[rest[k]], xout[rest[k]]);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_expr_reduce_extra(mn_expr *e, int node, mn_reduce_op op, mn_scalar *result, int nx, const int *xnode,
                         mn_array *const *xout) {
  MN_CHECK(e, MN_ERR_ARG, "NULL expression"); /* no communicator to agree on */
  MN_SPMD(e ? e->ctx : NULL, "mn_expr_reduce_extra", mn_spmd_expr(S, "expression", e, node),
          mn_spmd_int(S, "op", op)); /* the extras: as mn_expr_eval_extra's */
  mn_log_begin(e->ctx, MN_LOG_REDUCE);
  int64_t mem = 0;
  int err = reduce_extra(e, node, op, result, nx, xnode, xout, &mem);
  mn_log_end(e->ctx, MN_LOG_REDUCE, mem);
  return err;
}
