/* Evaluating fused expressions: owner-computes over the output's (or an
 * anchor operand's) boxes; each operand's remote elements arrive through a
 * cached alignment plan while the cells that need none are computed; then
 * the DAG runs over cache-sized blocks so no full-size temporaries exist. */
#include "expr_impl.h"
#include "spmd.h"
#include "kernels/table.h"
#include "fuse.h"
#include "stream.h"
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

enum { BLK = 512, MAXOPS = 40, MAXX = 16 };
/* band_mode buffers: about this many bytes per band (cache-sized), and at
 * most this many when the backward reach forces taller bands */
#define BAND_BYTES (256.0 * 1024)
#define BAND_MAX_BYTES (64.0 * 1024 * 1024)

typedef struct {
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM], st[MN_MAXDIM];
  char *ptr; /* element at lo */
  int local;
} piece;

typedef struct {
  int node;
  mn_map bmap;
  mn_plan *plan;
  int np;
  piece *pc;           /* local part and one per sending rank */
} operand;

typedef struct {
  const mn_expr *e;
  int root;
  int nops;
  operand *ops;
  int *opi;            /* node -> operand index or -1 */
  int *live;           /* nodes needed by root, in order */
  mn_lincomb *lc;      /* per node: fused linear combination (n = 0: none) */
  int nlive;
  int nd;
  int64_t cstride[MN_MAXDIM]; /* C-order strides of the iteration shape */
  int64_t lastext;     /* extent of the last iteration axis (1 for 0-d) */
  /* output (eval) or reduction */
  mn_dtype odt;
  int reduce;
  mn_reduce_op rop;
  int stream;          /* output too large for cache: fused sums stream it */
  /* extra outputs: node xnode[k] also stored in a fresh array aligned with
   * the iteration box (xbase[k]: its element at the box start) */
  int nx, xnode[MAXX];
  char *xbase[MAXX];
  int64_t xst[MAXX][MN_MAXDIM];
} prog;

typedef struct {
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM];
  char *optr[MAXOPS];
  int64_t ost[MAXOPS][MN_MAXDIM];
  char *out;
  int64_t outst[MN_MAXDIM];
  char *xout[MAXX];
} cell;

static size_t es_of(mn_dtype t) { return mn_dtype_size(t); }

static void strided_load(int64_t n, const char *src, int64_t st, size_t es, char *dst) {
  if (st == 0) {
    for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * es, src, es);
  } else if (es == 8) {
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * 8, src + i * st * 8, 8);
  } else {
    for (int64_t i = 0; i < n; i++) memcpy(dst + (size_t)i * es, src + i * st * (int64_t)es, es);
  }
}

static void strided_store(int64_t n, const char *src, size_t es, char *dst, int64_t st) {
  for (int64_t i = 0; i < n; i++) memcpy(dst + i * st * (int64_t)es, src + (size_t)i * es, es);
}

/* Units u0 .. u1 (rows cut into blocks) of a cell, on one thread. */
typedef struct { int nd; int64_t cnt[MN_MAXDIM], lo[MN_MAXDIM], L, nch; } cell_walk;

static void run_units(const prog *P, const cell *C, const cell_walk *W, char *scr, mn_acc *acc, int64_t u0,
                      int64_t u1) {
  const mn_expr *e = P->e;
  int nd = W->nd;
  const int64_t *cnt = W->cnt, *lo = W->lo;
  int64_t L = W->L, nch = W->nch;
  char **val = (char **)scr;
  char *slots = scr + sizeof(char *) * (size_t)e->n;
  for (int64_t u = u0; u < u1; u++) {
      int64_t row = u / nch, i0 = (u % nch) * BLK, len = L - i0 < BLK ? L - i0 : BLK;
      int64_t idx[MN_MAXDIM], r = row;
      for (int d = nd - 2; d >= 0; d--) { idx[d] = r % cnt[d]; r /= cnt[d]; }
      idx[nd - 1] = i0;
      for (int k = 0; k < P->nlive; k++) {
        int j = P->live[k];
        const mn_node *n = &e->v[j];
        char *slot = slots + (size_t)j * BLK * 8;
        size_t es = es_of(n->dtype);
        int last = j == P->root;
        char *dst = slot;
        /* the root writes straight into a contiguous output of its dtype */
        if (last && !P->reduce && C->outst[nd - 1] == 1 && P->odt == n->dtype &&
            n->kind != MN_N_INPUT && n->kind != MN_N_SCALAR) {
          int64_t off = 0;
          for (int d = 0; d < nd; d++) off += idx[d] * C->outst[d];
          dst = C->out + off * (int64_t)es;
        }
        switch (n->kind) {
        case MN_N_INPUT: {
          int oi = P->opi[j];
          int64_t off = 0;
          for (int d = 0; d < nd; d++) off += idx[d] * C->ost[oi][d];
          char *p = C->optr[oi] + off * (int64_t)es;
          if (C->ost[oi][nd - 1] == 1) val[j] = p;
          else { strided_load(len, p, C->ost[oi][nd - 1], es, slot); val[j] = slot; }
          continue;
        }
        case MN_N_SCALAR:
          val[j] = slot; /* filled once per thread */
          continue;
        case MN_N_CAST:
          mn_cast_table[e->v[n->a].dtype][n->dtype](len, val[n->a], dst);
          break;
        case MN_N_UNARY:
          mn_unary_table[n->op][n->ct](len, val[n->a], dst);
          break;
        case MN_N_BINARY:
          if (P->lc[j].n) {
            const void *tp[MN_LC_MAX];
            for (int q = 0; q < P->lc[j].n; q++) tp[q] = val[P->lc[j].term[q]];
            mn_lincomb_run(n->ct, len, &P->lc[j], tp, dst, P->stream && dst != slot);
          } else {
            mn_binary_table[n->op][n->ct](len, val[n->a], val[n->b], dst);
          }
          break;
        case MN_N_TERNARY:
          mn_ternary_table[n->op][n->ct](len, val[n->a], val[n->b], val[n->c], dst);
          break;
        }
        val[j] = dst;
      }
      for (int k = 0; k < P->nx; k++) {
        const int64_t *xs = P->xst[k];
        size_t xes = es_of(e->v[P->xnode[k]].dtype);
        int64_t off = 0;
        for (int d = 0; d < nd; d++) off += idx[d] * xs[d];
        char *o = C->xout[k] + off * (int64_t)xes;
        if (xs[nd - 1] == 1) memcpy(o, val[P->xnode[k]], (size_t)len * xes);
        else strided_store(len, val[P->xnode[k]], xes, o, xs[nd - 1]);
      }
      const mn_node *rn = &e->v[P->root];
      char *v = val[P->root];
      if (P->reduce) {
        int64_t flat0 = 0;
        for (int d = 0; d < P->nd; d++) flat0 += (lo[d] + idx[d]) * P->cstride[d];
        mn_reduce_table[P->rop][rn->dtype](len, v, flat0, acc);
        continue;
      }
      int64_t off = 0;
      for (int d = 0; d < nd; d++) off += idx[d] * C->outst[d];
      size_t oes = es_of(P->odt);
      char *o = C->out + off * (int64_t)oes;
      if (v == o) continue;
      char *src = v;
      if (P->odt != rn->dtype) {
        char *tmp = slots + (size_t)e->n * BLK * 8; /* spare slot */
        mn_cast_table[rn->dtype][P->odt](len, v, tmp);
        src = tmp;
      }
      if (C->outst[nd - 1] == 1) memcpy(o, src, (size_t)len * oes);
      else strided_store(len, src, oes, o, C->outst[nd - 1]);
    }
  if (P->stream) mn_stream_fence();
}

/* Run the program over one cell; acc (reductions) is per thread. Threads
 * only for large cells: entering a parallel region costs microseconds. */
static void run_cell(const prog *P, const cell *C, char *scratch_all, size_t scratch_per,
                     mn_acc *accs) {
  cell_walk W;
  int nd = W.nd = P->nd > 0 ? P->nd : 1;
  for (int d = 0; d < nd; d++) { W.cnt[d] = P->nd ? C->cnt[d] : 1; W.lo[d] = P->nd ? C->lo[d] : 0; }
  int64_t rows = 1;
  W.L = W.cnt[nd - 1];
  for (int d = 0; d < nd - 1; d++) rows *= W.cnt[d];
  W.nch = (W.L + BLK - 1) / BLK;
  int64_t units = rows * W.nch, total = rows * W.L;
  if (units == 0) return;
  int nt = 1;
#ifdef _OPENMP
  if (total > 65536) nt = omp_get_max_threads();
#endif
  if (nt <= 1) {
    run_units(P, C, &W, scratch_all, accs ? &accs[0] : NULL, 0, units);
    return;
  }
#pragma omp parallel num_threads(nt)
  {
    int tid = 0, n = 1;
#ifdef _OPENMP
    tid = omp_get_thread_num();
    n = omp_get_num_threads();
#endif
    run_units(P, C, &W, scratch_all + (size_t)tid * scratch_per, accs ? &accs[tid] : NULL, units * tid / n,
              units * (tid + 1) / n);
  }
}

/* In-place evaluation whose inputs read the output shifted (the stencil's
 * center[:] = f(north, south, ...)): bands of h output rows along axis 0
 * are computed into a small buffer and written back one band late, once no
 * later band reads them (h >= the furthest backward read along axis 0). */
typedef struct {
  int64_t h;
  char *buf[2];
  char *mem;                  /* out's element at the box start */
  int64_t st[MN_MAXDIM];      /* out's strides */
} band_mode;

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static piece *find_piece(operand *op, const int64_t *lo, int nd) {
  for (int i = 0; i < op->np; i++) {
    piece *p = &op->pc[i];
    int in = 1;
    for (int d = 0; d < nd && in; d++) in = lo[d] >= p->lo[d] && lo[d] < p->lo[d] + p->cnt[d];
    if (in) return p;
  }
  return NULL;
}

/* Cell c of the product of the cut points (lo and cnt only). */
static void cell_box(int64_t c, int nd, int64_t *const *cuts, const int *ncut, cell *C) {
  int64_t r = c;
  for (int d = nd - 1; d >= 0; d--) {
    int64_t j = r % (ncut[d] - 1);
    r /= ncut[d] - 1;
    C->lo[d] = cuts[d][j];
    C->cnt[d] = cuts[d][j + 1] - cuts[d][j];
  }
}

/* Input pointers and strides of a cell; *local: every input is local. */
static int cell_inputs(prog *P, cell *C, int *local) {
  const mn_expr *e = P->e;
  int nd = P->nd;
  *local = 1;
  for (int i = 0; i < P->nops; i++) {
    piece *p = find_piece(&P->ops[i], C->lo, nd);
    if (!p) return MN_ERR(MN_ERR_ARG, "internal: no piece covers a cell of operand %d", i);
    *local &= p->local;
    size_t es = es_of(e->v[P->ops[i].node].dtype);
    int64_t off = 0;
    for (int d = 0; d < nd; d++) { off += (C->lo[d] - p->lo[d]) * p->st[d]; C->ost[i][d] = p->st[d]; }
    C->optr[i] = p->ptr + off * (int64_t)es;
  }
  return MN_SUCCESS;
}

/* Extra outputs' pointers at a cell (Rlo: the iteration box's start). */
static void cell_xouts(const prog *P, cell *C, const int64_t *Rlo) {
  for (int k = 0; k < P->nx; k++) {
    int64_t off = 0;
    for (int d = 0; d < P->nd; d++) off += (C->lo[d] - Rlo[d]) * P->xst[k][d];
    C->xout[k] = P->xbase[k] + off * (int64_t)es_of(P->e->v[P->xnode[k]].dtype);
  }
}

/* Copy a band back to out: rows of 8-byte elements with streaming stores
 * (the band is in cache; out's lines need not be read first). */
static void band_store(int nd, const int64_t *cnt, size_t es, const char *src, const int64_t *sst, char *dst,
                       const int64_t *dst_st) {
#if defined(__SSE2__) && defined(__x86_64__)
  if (es == 8 && nd >= 1 && sst[nd - 1] == 1 && dst_st[nd - 1] == 1) {
    int64_t rows = mn_box_size(nd - 1, cnt), L = cnt[nd - 1], idx[MN_MAXDIM] = {0};
    for (int64_t r = 0; r < rows; r++) {
      int64_t so = 0, dof = 0;
      for (int d = 0; d < nd - 1; d++) { so += idx[d] * sst[d]; dof += idx[d] * dst_st[d]; }
      const long long *a = (const long long *)(src + so * 8);
      long long *b = (long long *)(dst + dof * 8);
      for (int64_t i = 0; i < L; i++) _mm_stream_si64(b + i, a[i]);
      for (int d = nd - 2; d >= 0; d--) { if (++idx[d] < cnt[d]) break; idx[d] = 0; }
    }
    mn_stream_fence();
    return;
  }
#endif
  mn_strided_copy(nd, cnt, es, src, sst, dst, dst_st);
}

/* The banded driver (see band_mode): every cell's part in each band of
 * axis 0, into a band buffer; the previous band goes back to out after. */
static int run_bands(prog *P, const band_mode *bm, int64_t *const *cuts, const int *ncut, int64_t ncells,
                     const int64_t *Rlo, const int64_t *Rcnt, char *scratch, size_t per) {
  int nd = P->nd, err = 0;
  size_t oes = es_of(P->odt);
  int64_t bst[MN_MAXDIM], bcnt[MN_MAXDIM], prev_lo = 0;
  mn_dense_strides(nd, Rcnt, bst); /* a band is rows of the box: same strides */
  memcpy(bcnt, Rcnt, sizeof bcnt);
  int have_prev = 0, cur = 0;
  for (int64_t b0 = Rlo[0]; b0 < Rlo[0] + Rcnt[0] && !err; b0 += bm->h) {
    int64_t b1 = b0 + bm->h < Rlo[0] + Rcnt[0] ? b0 + bm->h : Rlo[0] + Rcnt[0];
    for (int64_t c = 0; c < ncells && !err; c++) {
      cell C;
      int local;
      cell_box(c, nd, cuts, ncut, &C);
      int64_t lo = C.lo[0] > b0 ? C.lo[0] : b0, hi = C.lo[0] + C.cnt[0] < b1 ? C.lo[0] + C.cnt[0] : b1;
      if (hi <= lo) continue;
      C.lo[0] = lo;
      C.cnt[0] = hi - lo;
      err = cell_inputs(P, &C, &local);
      if (err) break;
      int64_t off = (lo - b0) * bst[0];
      for (int d = 1; d < nd; d++) off += (C.lo[d] - Rlo[d]) * bst[d];
      memcpy(C.outst, bst, sizeof bst);
      C.out = bm->buf[cur] + off * (int64_t)oes;
      cell_xouts(P, &C, Rlo);
      run_cell(P, &C, scratch, per, NULL);
    }
    if (have_prev) { /* no later band reads the previous one any more */
      bcnt[0] = bm->h;
      band_store(nd, bcnt, oes, bm->buf[1 - cur], bst, bm->mem + (prev_lo - Rlo[0]) * bm->st[0] * (int64_t)oes,
                 bm->st);
    }
    have_prev = 1;
    prev_lo = b0;
    bcnt[0] = b1 - b0;
    cur = 1 - cur;
  }
  if (!err && have_prev)
    band_store(nd, bcnt, oes, bm->buf[1 - cur], bst, bm->mem + (prev_lo - Rlo[0]) * bm->st[0] * (int64_t)oes,
               bm->st);
  return err;
}

/* Drive: plans begun, local cells, plans ended, remaining cells. */
static int execute(prog *P, const mn_map *am, const mn_layout *alay, char *out,
                   const int64_t *outst_at_Rlo, mn_acc *accs, int nthreads, const band_mode *bm) {
  const mn_expr *e = P->e;
  mn_ctx *ctx = e->ctx;
  int nd = P->nd, err = 0;
  int64_t Rlo[MN_MAXDIM], Rcnt[MN_MAXDIM];
  int haveR = mn_map_owned_box(am, alay, ctx->rank, Rlo, Rcnt);
  /* plans and pieces */
  for (int i = 0; i < P->nops && !err; i++) {
    operand *op = &P->ops[i];
    const mn_array *x = e->v[op->node].arr;
    /* one rank owns everything: no plan (its lookup costs more than a small
     * evaluation) */
    op->plan = NULL;
    if (ctx->size > 1) err = mn_plan_get_align(ctx, &op->bmap, x->buf, am, alay, 100 + i, &op->plan);
    if (err) break;
    op->np = 0;
    if (!haveR) continue;
    int nrecv = op->plan ? op->plan->nrecv : 0;
    op->pc = malloc(sizeof(piece) * (size_t)(1 + nrecv));
    if (!op->pc) { err = MN_ERR(MN_ERR_MEM, "cannot allocate %d pieces", 1 + nrecv); break; }
    piece lp;
    int64_t olo[MN_MAXDIM], ocnt[MN_MAXDIM];
    if (mn_map_owned_box(&op->bmap, x->buf->lay, ctx->rank, olo, ocnt) &&
        mn_box_intersect(nd, Rlo, Rcnt, olo, ocnt, lp.lo, lp.cnt)) {
      lp.local = 1;
      lp.ptr = mn_map_ptr(&op->bmap, x->buf, lp.lo);
      mn_map_strides(&op->bmap, x->buf, lp.st);
      op->pc[op->np++] = lp;
    }
    size_t es = es_of(x->dtype);
    for (int m = 0; m < nrecv; m++) {
      const mn_msg *r = &op->plan->recvs[m];
      piece *p = &op->pc[op->np++];
      p->local = 0;
      memcpy(p->lo, r->ilo, sizeof p->lo);
      memcpy(p->cnt, r->cnt, sizeof p->cnt);
      mn_dense_strides(nd, r->cnt, p->st);
      p->ptr = op->plan->recvbuf + r->off * (int64_t)es;
    }
  }
  /* cells: the product of every operand's cut points */
  int64_t *cuts[MN_MAXDIM] = {0};
  int ncut[MN_MAXDIM] = {0};
  int64_t ncells = haveR ? 1 : 0;
  for (int d = 0; d < nd && !err && haveR; d++) {
    int cap = 2;
    for (int i = 0; i < P->nops; i++) cap += 2 * P->ops[i].np;
    cuts[d] = malloc(sizeof(int64_t) * (size_t)cap);
    if (!cuts[d]) { err = MN_ERR(MN_ERR_MEM, "cannot allocate cell cuts"); break; }
    int k = 0;
    cuts[d][k++] = Rlo[d];
    cuts[d][k++] = Rlo[d] + Rcnt[d];
    for (int i = 0; i < P->nops; i++)
      for (int m = 0; m < P->ops[i].np; m++) {
        cuts[d][k++] = P->ops[i].pc[m].lo[d];
        cuts[d][k++] = P->ops[i].pc[m].lo[d] + P->ops[i].pc[m].cnt[d];
      }
    qsort(cuts[d], (size_t)k, sizeof(int64_t), cmp64);
    int u = 0;
    for (int j = 0; j < k; j++)
      if (u == 0 || cuts[d][j] != cuts[d][u - 1]) cuts[d][u++] = cuts[d][j];
    ncut[d] = u;
    ncells *= u - 1;
  }
  /* scratch per thread: value pointers, one slot per node, one spare */
  size_t per = sizeof(char *) * (size_t)e->n + (size_t)(e->n + 1) * BLK * 8;
  per = (per + 63) / 64 * 64;
  char *scratch = err ? NULL : mn_ctx_scratch(ctx, per * (size_t)nthreads);
  if (!err && !scratch) err = MN_ERR(MN_ERR_MEM, "cannot allocate %zu bytes of scratch", per * (size_t)nthreads);
  /* scalar blocks, as long as the longest row needs */
  int64_t fill = P->lastext < BLK ? P->lastext : BLK;
  for (int t = 0; !err && t < nthreads; t++)
    for (int k = 0; k < P->nlive; k++) {
      const mn_node *n = &e->v[P->live[k]];
      if (n->kind != MN_N_SCALAR) continue;
      char *slot = scratch + (size_t)t * per + sizeof(char *) * (size_t)e->n + (size_t)P->live[k] * BLK * 8;
      switch (n->dtype) {
      case MN_FLOAT64: for (int64_t i = 0; i < fill; i++) ((double *)slot)[i] = n->s.v.f; break;
      case MN_FLOAT32: for (int64_t i = 0; i < fill; i++) ((float *)slot)[i] = (float)n->s.v.f; break;
      case MN_INT64: for (int64_t i = 0; i < fill; i++) ((int64_t *)slot)[i] = n->s.v.i; break;
      case MN_INT32: for (int64_t i = 0; i < fill; i++) ((int32_t *)slot)[i] = (int32_t)n->s.v.i; break;
      default: memset(slot, n->s.v.i != 0, (size_t)fill); break;
      }
    }
  /* Everything that can fail on one rank alone is done: agree, exactly once
   * per evaluation, before any message moves (no rank is left waiting). */
  err = mn_agree(ctx, err);
  for (int i = 0; i < P->nops && !err; i++)
    if (P->ops[i].plan) err = mn_plan_begin_mem(P->ops[i].plan, e->v[P->ops[i].node].arr->buf->data, NULL);
  if (bm && !err && haveR) { /* bands need every input: receive first */
    for (int i = 0; i < P->nops && !err; i++)
      if (P->ops[i].plan) err = mn_plan_end(P->ops[i].plan);
    err = run_bands(P, bm, cuts, ncut, ncells, Rlo, Rcnt, scratch, per);
  }
  /* two passes: cells with only local pieces, then (after end) the rest */
  for (int pass = 0; pass < 2 && !err && !(bm && haveR); pass++) {
    if (pass == 1)
      for (int i = 0; i < P->nops && !err; i++)
        if (P->ops[i].plan) err = mn_plan_end(P->ops[i].plan);
    for (int64_t c = 0; c < ncells && !err; c++) {
      cell C;
      int local = 0;
      cell_box(c, nd, cuts, ncut, &C);
      err = cell_inputs(P, &C, &local);
      if (err) break;
      if (local != (pass == 0)) continue;
      if (!P->reduce) {
        int64_t off = 0;
        for (int d = 0; d < nd; d++) { off += (C.lo[d] - Rlo[d]) * outst_at_Rlo[d]; C.outst[d] = outst_at_Rlo[d]; }
        C.out = out + off * (int64_t)es_of(P->odt);
      }
      cell_xouts(P, &C, Rlo);
      if (nd == 0) { C.outst[0] = 1; for (int i = 0; i < P->nops; i++) C.ost[i][0] = 1; }
      run_cell(P, &C, scratch, per, accs);
    }
  }
  if (err) /* complete any plan still in flight so no message is left behind */
    for (int i = 0; i < P->nops; i++)
      if (P->ops[i].plan && P->ops[i].plan->active) mn_plan_end(P->ops[i].plan);
  for (int i = 0; i < P->nops; i++) {
    mn_plan_destroy(&P->ops[i].plan);
    free(P->ops[i].pc);
    P->ops[i].pc = NULL;
  }
  for (int d = 0; d < nd; d++) free(cuts[d]);
  return err;
}

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

static int prog_init(prog *P, const mn_expr *e, int root, int nx, const int *xnode, int nd, const int64_t *shape) {
  memset(P, 0, sizeof *P);
  P->e = e;
  P->root = root;
  P->nx = nx;
  int top = root; /* the highest node needed */
  for (int k = 0; k < nx; k++) { P->xnode[k] = xnode[k]; if (xnode[k] > top) top = xnode[k]; }
  P->nd = nd;
  mn_dense_strides(nd, shape, P->cstride);
  P->lastext = nd ? shape[nd - 1] : 1;
  /* one block for the per-node tables (small expressions are common) */
  size_t n = (size_t)e->n;
  char *blk = calloc(1, n * (sizeof(operand) + sizeof(mn_lincomb) + 5 * sizeof(int)));
  if (!blk) return MN_ERR(MN_ERR_MEM, "cannot allocate an expression program of %d nodes", e->n);
  P->ops = (operand *)blk;
  P->lc = (mn_lincomb *)(blk + n * sizeof(operand));
  int *ints = (int *)(blk + n * (sizeof(operand) + sizeof(mn_lincomb)));
  P->opi = ints;
  P->live = ints + n;
  int *need = ints + 2 * n, *uses = ints + 3 * n, *absorbed = ints + 4 * n;
  /* references among the nodes the root (and the extras) need */
  need[root] = 1;
  for (int k = 0; k < nx; k++) { need[xnode[k]] = 1; uses[xnode[k]]++; } /* stored: never absorbed */
  for (int j = top; j >= 0; j--) {
    if (!need[j]) continue;
    const mn_node *n = &e->v[j];
    int args[3] = {n->a, n->b, n->c}, na = n->kind == MN_N_UNARY || n->kind == MN_N_CAST ? 1
                                          : n->kind == MN_N_BINARY ? 2 : n->kind == MN_N_TERNARY ? 3 : 0;
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
  for (int j = 0; j <= top; j++) {
    P->opi[j] = -1;
    if (!need[j]) continue;
    P->live[P->nlive++] = j;
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
  return MN_SUCCESS;
}

static void prog_free(prog *P) {
  free(P->ops); /* the whole block (prog_init) */
}

/* Bytes a pass over n iteration points reads and writes, for the log: an
 * estimate that reads every operand once per point (broadcast ones too). */
static int64_t prog_bytes(const prog *P, int64_t n) {
  int64_t per = P->reduce ? 0 : (int64_t)es_of(P->odt);
  for (int i = 0; i < P->nops; i++) per += (int64_t)es_of(P->e->v[P->ops[i].node].arr->dtype);
  for (int k = 0; k < P->nx; k++) per += (int64_t)es_of(P->e->v[P->xnode[k]].dtype);
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
static int extras_aligned(mn_ctx *ctx, int nx, mn_array *const *xout, int haveR, const int64_t *Rlo,
                          const int64_t *Rcnt, int nd, int *ok) {
  for (int k = 0; k < nx; k++) {
    int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM];
    int have = mn_map_owned_box(&xout[k]->map, xout[k]->buf->lay, ctx->rank, lo, cnt);
    ok[k] = have == haveR;
    for (int d = 0; ok[k] && have && d < nd; d++) ok[k] = lo[d] == Rlo[d] && cnt[d] == Rcnt[d];
  }
  if (ctx->size > 1 && nx > 0 && mn_allreduce(ctx, MPI_IN_PLACE, ok, nx, MPI_INT, MPI_MIN) != MPI_SUCCESS)
    return MN_ERR(MN_ERR_MPI, "MPI_Allreduce of extra outputs' alignment failed");
  return MN_SUCCESS;
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

/* the logged evaluation; nested ones (extras evaluated apart) count once */
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
  MN_SPMD(e ? e->ctx : NULL, "mn_expr_eval_extra", mn_spmd_expr(S, "expression", e, node),
          mn_spmd_array(S, "out", out), mn_spmd_ints(S, "extra nodes", nx, xnode),
          mn_spmd_array(S, "first extra out", nx > 0 ? xout[0] : NULL));
  return eval_logged(e, node, out, nx, xnode, xout);
}

static int eval_extras(mn_expr *e, int node, mn_array *out, int nx, const int *xnode, mn_array *const *xout,
                       int64_t *mem) {
  int err = check_eval(e, node, out);
  if (!err && nx) err = check_extras(e, out->map.ndim, out->map.shape, nx, xnode, xout);
  if (err) {
    err = mn_agree(e->ctx, err); /* matches the agreement inside execute */
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  int ond = out->map.ndim;
  prog P;
  err = prog_init(&P, e, node, nx, xnode, ond, out->map.shape);
  P.odt = out->dtype;
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
  int haveR = mn_map_owned_box(&out->map, out->buf->lay, e->ctx->rank, Rlo, Rcnt);
  int ok[MAXX], rest[MAXX], nrest = 0;
  if (nx) {
    int e2 = extras_aligned(e->ctx, nx, xout, haveR, Rlo, Rcnt, ond, ok);
    if (!err) err = e2;
    if (!err) extras_setup(&P, nx, xnode, xout, ok, haveR, Rlo, &nrest, rest);
  }
  char *dst = NULL, *tmp = NULL;
  size_t oes = es_of(out->dtype);
  band_mode bm, *bmp = NULL;
  if (!err && haveR && shifted && !alias) {
    int64_t row = mn_box_size(ond, Rcnt) / (Rcnt[0] ? Rcnt[0] : 1), h = (int64_t)(BAND_BYTES / ((size_t)row * oes + 1));
    if (h < back) h = back;
    if (h < 1) h = 1;
    if ((double)h * (double)row * (double)oes <= BAND_MAX_BYTES) {
      bm.h = h;
      bm.buf[0] = mn_ctx_alias_buffer(e->ctx, 2 * (size_t)(h * row) * oes);
      bm.buf[1] = bm.buf[0] ? bm.buf[0] + (size_t)(h * row) * oes : NULL;
      if (!bm.buf[0]) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld elements for an aliased result", (long long)(2 * h * row));
      bm.mem = mn_map_ptr(&out->map, out->buf, Rlo);
      mn_map_strides(&out->map, out->buf, bm.st);
      bmp = &bm;
    } else {
      alias = 1;
    }
  } else if (shifted) {
    alias = 1;
  }
  if (!err && haveR && !bmp) {
    if (alias) {
      int64_t n = mn_box_size(ond, Rcnt);
      tmp = mn_ctx_alias_buffer(e->ctx, (size_t)n * oes);
      if (!tmp) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld elements for an aliased result", (long long)n);
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
  if (err) err = mn_agree(e->ctx, err); /* matches the agreement inside execute */
  else err = execute(&P, &out->map, out->buf->lay, dst, st, NULL, nthreads_max(), bmp);
  if (!err && tmp) {
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

/* Combine per-rank accumulators in rank order, identically on every rank. */
int mn_acc_allreduce(mn_ctx *ctx, mn_reduce_op op, mn_dtype t, mn_acc *acc) {
  if (ctx->size == 1) return MN_SUCCESS;
  mn_acc *all = malloc(sizeof(mn_acc) * (size_t)ctx->size);
  MN_CHECK(all, MN_ERR_MEM, "cannot allocate %d accumulators", ctx->size);
  /* an allreduce in effect (ranks' partials merged in rank order): logged as one */
  mn_log_begin(ctx, MN_LOG_ALLREDUCE);
  if (ctx->log) ctx->log->allreduces++;
  int rc = MPI_Allgather(acc, (int)sizeof *acc, MPI_BYTE, all, (int)sizeof *acc, MPI_BYTE, ctx->comm);
  mn_log_end(ctx, MN_LOG_ALLREDUCE, 0);
  if (rc != MPI_SUCCESS) { free(all); return MN_ERR(MN_ERR_MPI, "MPI_Allgather of reduction partials failed"); }
  mn_acc r;
  mn_acc_init(op, t, &r);
  for (int q = 0; q < ctx->size; q++) mn_acc_merge(op, t, &r, &all[q]);
  *acc = r;
  free(all);
  return MN_SUCCESS;
}

int mn_acc_to_scalar(mn_reduce_op op, mn_dtype t, const mn_acc *acc, mn_scalar *res) {
  mn_dtype rt = mn_reduce_result(op, t);
  int isf = mn_is_float(t);
  if (mn_reduce_needs_data(op))
    MN_CHECK(acc->has > 0, MN_ERR_SHAPE, "zero-size array to reduction operation %s which has no identity",
             mn_reduce_name(op));
  if (op == MN_RED_ARGMIN || op == MN_RED_ARGMAX) { *res = mn_scalar_typed(MN_INT64, 0); res->v.i = acc->idx; return MN_SUCCESS; }
  res->dtype = rt;
  res->weak = 0;
  if (rt == MN_BOOL) res->v.i = acc->i != 0;
  else if (rt == MN_FLOAT32) res->v.f = (float)acc->f;
  else if (rt == MN_FLOAT64) res->v.f = acc->f;
  else if (isf) res->v.i = (int64_t)acc->f;
  else res->v.i = rt == MN_INT32 ? (int32_t)acc->i : acc->i;
  return MN_SUCCESS;
}

static int check_reduce(const mn_expr *e, int node, mn_reduce_op op, const mn_scalar *result) {
  MN_CHECK(result, MN_ERR_ARG, "NULL result");
  MN_CHECK(node >= 0 && node < e->n, MN_ERR_ARG, "expression node %d does not exist (have %d)", node, e->n);
  MN_CHECK(op >= 0 && op < MN_NREDUCE, MN_ERR_ARG, "unknown reduction %d", (int)op);
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
  const mn_node *rn = &e->v[node];
  mn_dtype t = rn->dtype;
  prog P;
  err = prog_init(&P, e, node, nx, xnode, rn->ndim, rn->shape);
  P.reduce = 1;
  P.rop = op;
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
  if (!err && !am) {
    err = mn_layout_create_block(e->ctx, rn->ndim, rn->shape, NULL, &own);
    mn_map_identity(&idm, rn->ndim, rn->shape);
    am = &idm;
    alay = own;
  }
  int ok[MAXX], rest[MAXX], nrest = 0;
  if (nx) { /* collective: on every rank, even one that failed */
    int64_t Rlo[MN_MAXDIM] = {0}, Rcnt[MN_MAXDIM] = {0};
    int haveR = am ? mn_map_owned_box(am, alay, e->ctx->rank, Rlo, Rcnt) : 0;
    int e2 = extras_aligned(e->ctx, nx, xout, haveR, Rlo, Rcnt, rn->ndim, ok);
    if (!err) err = e2;
    if (!err) extras_setup(&P, nx, xnode, xout, ok, haveR, Rlo, &nrest, rest);
  }
  int nt = nthreads_max();
  mn_acc *accs = err ? NULL : malloc(sizeof(mn_acc) * (size_t)nt);
  if (!err && !accs) err = MN_ERR(MN_ERR_MEM, "cannot allocate accumulators");
  for (int i = 0; !err && i < nt; i++) mn_acc_init(op, t, &accs[i]);
  if (err) err = mn_agree(e->ctx, err); /* matches the agreement inside execute */
  else err = execute(&P, am, alay, NULL, NULL, accs, nt, NULL);
  mn_acc acc;
  mn_acc_init(op, t, &acc);
  for (int i = 0; !err && i < nt; i++) mn_acc_merge(op, t, &acc, &accs[i]);
  if (!err) err = mn_acc_allreduce(e->ctx, op, t, &acc);
  if (!err) err = mn_acc_to_scalar(op, t, &acc, result);
  free(accs);
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
  MN_SPMD(e ? e->ctx : NULL, "mn_expr_reduce_extra", mn_spmd_expr(S, "expression", e, node), mn_spmd_int(S, "op", op),
          mn_spmd_ints(S, "extra nodes", nx, xnode), mn_spmd_array(S, "first extra out", nx > 0 ? xout[0] : NULL));
  mn_log_begin(e->ctx, MN_LOG_REDUCE);
  int64_t mem = 0;
  int err = reduce_extra(e, node, op, result, nx, xnode, xout, &mem);
  mn_log_end(e->ctx, MN_LOG_REDUCE, mem);
  return err;
}
