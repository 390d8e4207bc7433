/* Driving one evaluation: the operands' plans and pieces, the cells, the
 * scratch, an agreement only when a plan was built, then the cells that
 * need no message while the plans travel, and the rest after. */
#include "eval_impl.h"
#include "kernel_src.h" /* MN_KERNEL_RED_BLOCKS */
#include "jit_cpu.h"
#include <stdlib.h>
#include <string.h>

static int cmp64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* The box this rank computes */
typedef struct {
  int have;
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM];
} box;

/* Each operand's alignment plan, looked up for every operand even after a
 * failed build, so every rank makes the same cache lookups. *built: some
 * plan was not cached (the same on every rank). */
static int operands_plans(prog *P, const mn_map *am, const mn_layout *alay, int *built) {
  const mn_expr *e = P->e;
  mn_ctx *ctx = e->ctx;
  int err = MN_SUCCESS;
  for (int i = 0; i < P->nops; i++) {
    operand *op = &P->ops[i];
    /* one rank owns everything: no plan (its lookup costs more than a small
     * evaluation) */
    op->plan = NULL;
    op->np = 0;
    const mn_buf *xb = e->v[op->node].arr->buf;
    if (ctx->size == 1) continue;
    /* read where it is computed on every rank: nothing to move, and no
     * cache lookup, so an evaluation of aligned operands changes no state
     * (the lazy front end may evaluate a pending array on some ranks only,
     * when the others have already collected it) */
    if (mn_map_split_alike(ctx, &op->bmap, xb->lay, am, alay, 1)) continue;
    int e2 = mn_plan_get_align(ctx, &op->bmap, xb, am, alay, 100 + i, &op->plan, built);
    if (!err) err = e2;
  }
  return err;
}

/* Each operand's pieces over the box: its local part and one per sending
 * rank, in one block kept on the context (a repeated statement allocates
 * nothing) */
static int operands_pieces(prog *P, const box *R) {
  const mn_expr *e = P->e;
  mn_ctx *ctx = e->ctx;
  if (!R->have) return MN_SUCCESS;
  size_t total = 0;
  for (int i = 0; i < P->nops; i++) total += 1 + (size_t)(P->ops[i].plan ? P->ops[i].plan->nrecv : 0);
  if (mni_fault_hit(ctx, MNI_FAULT_EVAL)) return MN_ERR(MN_ERR_MEM, "cannot allocate %zu pieces", total);
  if (total * sizeof(piece) > ctx->pieces_size) {
    free(ctx->pieces);
    ctx->pieces = malloc(total * sizeof(piece));
    ctx->pieces_size = ctx->pieces ? total * sizeof(piece) : 0;
    MN_CHECK(ctx->pieces, MN_ERR_MEM, "cannot allocate %zu pieces", total);
  }
  piece *next = (piece *)ctx->pieces;
  for (int i = 0; i < P->nops; i++) {
    operand *op = &P->ops[i];
    const mn_array *x = e->v[op->node].arr;
    int nrecv = op->plan ? op->plan->nrecv : 0;
    op->pc = next;
    next += 1 + nrecv;
    piece lp;
    int64_t olo[MN_MAXDIM], ocnt[MN_MAXDIM];
    if (mn_map_owned_box(&op->bmap, x->buf->lay, ctx->rank, olo, ocnt) &&
        mn_box_intersect(P->nd, R->lo, R->cnt, olo, ocnt, lp.lo, lp.cnt)) {
      lp.local = 1;
      lp.ptr = (P->dev ? x->buf->dev : x->buf->host) + mn_map_off(&op->bmap, x->buf, lp.lo) * (int64_t)mn_eval_es(x->dtype);
      mn_map_strides(&op->bmap, x->buf, lp.st);
      op->pc[op->np++] = lp;
    }
    size_t es = mn_eval_es(x->dtype);
    if (nrecv && P->dev) MN_CALL(mn_plan_dev_buffers(op->plan));
    for (int m = 0; m < nrecv; m++) {
      const mn_msg *r = &op->plan->recvs[m];
      piece *p = &op->pc[op->np++];
      p->local = 0;
      memcpy(p->lo, r->ilo, sizeof p->lo);
      memcpy(p->cnt, r->cnt, sizeof p->cnt);
      mn_dense_strides(P->nd, r->cnt, p->st);
      p->ptr = (P->dev ? op->plan->drecv : op->plan->recvbuf) + r->off * (int64_t)es;
    }
  }
  return MN_SUCCESS;
}

/* The cells: along each axis, the sorted distinct ends of every piece
 * (in stack[d] when they fit: no allocation for the common case) */
enum { CUTS_STACK = 32 };
static int cut_cells(const prog *P, const box *R, int64_t **cuts, int64_t (*stack)[CUTS_STACK], int *ncut,
                     int64_t *ncells) {
  *ncells = R->have ? 1 : 0;
  for (int d = 0; d < P->nd && R->have; d++) {
    int cap = 2;
    for (int i = 0; i < P->nops; i++) cap += 2 * P->ops[i].np;
    cuts[d] = cap <= CUTS_STACK ? stack[d] : malloc(sizeof(int64_t) * (size_t)cap);
    MN_CHECK(cuts[d], MN_ERR_MEM, "cannot allocate cell cuts");
    int k = 0;
    cuts[d][k++] = R->lo[d];
    cuts[d][k++] = R->lo[d] + R->cnt[d];
    for (int i = 0; i < P->nops; i++)
      for (int m = 0; m < P->ops[i].np; m++) {
        cuts[d][k++] = P->ops[i].pc[m].lo[d];
        cuts[d][k++] = P->ops[i].pc[m].lo[d] + P->ops[i].pc[m].cnt[d];
      }
    if (k > CUTS_STACK) {
      qsort(cuts[d], (size_t)k, sizeof(int64_t), cmp64);
    } else { /* a few ends: insertion sort beats qsort's call overhead */
      for (int j = 1; j < k; j++) {
        int64_t v = cuts[d][j];
        int q = j;
        for (; q > 0 && cuts[d][q - 1] > v; q--) cuts[d][q] = cuts[d][q - 1];
        cuts[d][q] = v;
      }
    }
    int u = 0;
    for (int j = 0; j < k; j++)
      if (u == 0 || cuts[d][j] != cuts[d][u - 1]) cuts[d][u++] = cuts[d][j];
    ncut[d] = u;
    *ncells *= u - 1;
  }
  return MN_SUCCESS;
}

/* Scratch per thread (per bytes each): value pointers, the nodes' slots
 * and one spare, with the scalars' blocks filled as long as the longest
 * row needs */
static int scratch_setup(const prog *P, int nthreads, char **scratch, size_t *per) {
  const mn_expr *e = P->e;
  size_t b = sizeof(char *) * (size_t)e->n + (size_t)(P->nslots + 1) * P->slot;
  b = (b + 63) / 64 * 64;
  *per = b;
  *scratch = mn_ctx_scratch(e->ctx, b * (size_t)nthreads);
  MN_CHECK(*scratch, MN_ERR_MEM, "cannot allocate %zu bytes of scratch", b * (size_t)nthreads);
  int64_t fill = P->boxsize < BLK ? P->boxsize : BLK;
  for (int t = 0; t < nthreads; t++)
    for (int k = 0; k < P->nlive; k++) {
      const mn_node *n = &e->v[P->live[k]];
      if (n->kind != MN_N_SCALAR) continue;
      mn_eval_scalar_fill(n, fill, *scratch + (size_t)t * b + sizeof(char *) * (size_t)e->n +
                                       (size_t)P->slotof[P->live[k]] * P->slot);
    }
  return MN_SUCCESS;
}

void mn_eval_scalar_fill(const mn_node *n, int64_t fill, char *slot) {
  size_t es = mn_dtype_size(n->dtype), have = es, total = (size_t)fill * es;
  mn_scalar_store(n->s, n->dtype, slot);
  /* doubling copies: log2(fill) calls, not one per element (a small
   * statement's scalar was a third of its evaluation) */
  while (have < total) {
    size_t c = have < total - have ? have : total - have;
    memcpy(slot + have, slot, c);
    have += c;
  }
}

static int plans_end(prog *P) {
  for (int i = 0; i < P->nops; i++)
    if (P->ops[i].plan) MN_CALL(mn_plan_end(P->ops[i].plan));
  return MN_SUCCESS;
}

/* The cells in two passes: those with only local pieces while the plans
 * travel, then (after their end) the rest */
static int run_passes(prog *P, const box *R, int64_t *const *cuts, const int *ncut, int64_t ncells, char *out,
                      const int64_t *outst_at_Rlo, mn_acc *accs, char *scratch, size_t per) {
  int nd = P->nd;
  int64_t ndone = 0; /* cells launched */
  for (int pass = 0; pass < 2; pass++) {
    if (pass == 1) MN_CALL(plans_end(P));
    for (int64_t c = 0; c < ncells; c++) {
      cell C;
      int local = 0;
      mn_eval_cell_box(c, nd, cuts, ncut, &C);
      MN_CALL(mn_eval_cell_inputs(P, &C, &local));
      if (local != (pass == 0)) continue;
      C.out = NULL;
      if (!P->reduce) {
        int64_t off = 0;
        for (int d = 0; d < nd; d++) { off += (C.lo[d] - R->lo[d]) * outst_at_Rlo[d]; C.outst[d] = outst_at_Rlo[d]; }
        C.out = out + off * (int64_t)mn_eval_es(P->odt);
      }
      mn_eval_cell_xouts(P, &C, R->lo);
      if (nd == 0) { C.outst[0] = 1; for (int i = 0; i < P->nops; i++) C.ost[i][0] = 1; }
      if (P->dev) { /* a launch of the backend per cell */
        mn_acc *part = P->reduce ? P->dev_part + 1 + ndone * MN_KERNEL_RED_BLOCKS : NULL;
        mn_eval_launch L = {P, &C, P->dev_outbuf, P->dev_outbytes, scratch, per, part, 0};
        MN_CALL(P->e->ctx->ops->eval(&L));
        ndone++;
      } else {
        mn_eval_run_cell(P, &C, scratch, per, accs);
      }
    }
  }
  P->dev_cells = ndone;
  if (P->dev && P->reduce && ndone > 1) { /* the cells' results, in the order they ran */
    mn_eval_launch L = {P, NULL, NULL, 0, NULL, 0, P->dev_part + 1, ndone};
    MN_CALL(P->e->ctx->ops->eval(&L));
  }
  return MN_SUCCESS;
}

int mn_eval_execute(prog *P, const mn_map *am, const mn_layout *alay, char *out, const int64_t *outst_at_Rlo,
                    mn_acc *accs, int nthreads, const band_mode *bm, int lerr) {
  const mn_expr *e = P->e;
  mn_ctx *ctx = e->ctx;
  box R;
  R.have = mn_map_owned_box(am, alay, ctx->rank, R.lo, R.cnt);
  int64_t *cuts[MN_MAXDIM] = {0}, ncells = 0, stack[MN_MAXDIM][CUTS_STACK];
  int ncut[MN_MAXDIM] = {0};
  char *scratch = NULL;
  size_t per = 0;
  int built = 0;
  P->nthreads = nthreads > 0 ? nthreads : 1;
  P->dev_cells = 0;
  int err = operands_plans(P, am, alay, &built);
  if (!err && !lerr) lerr = operands_pieces(P, &R);
  if (!err && !lerr) lerr = cut_cells(P, &R, cuts, stack, ncut, &ncells);
  /* a device reduction: one block of accumulators per cell, their results
   * merged into dev_part[1] (kept on the context, so a repeated statement
   * allocates nothing) */
  if (!err && !lerr && P->dev && P->reduce) {
    char *p = NULL;
    lerr = mn_ctx_dev_scratch(ctx, sizeof(mn_acc) * (size_t)(1 + (ncells ? ncells : 1) * MN_KERNEL_RED_BLOCKS), &p);
    P->dev_part = (mn_acc *)p;
  }
  if (!err && !lerr && !P->dev && R.have) mn_jit_attach(P, mn_box_size(P->nd, R.cnt));
  if (!err && !lerr) lerr = scratch_setup(P, nthreads, &scratch, &per);
  P->deferred = 0;
  /* (MANIPLE_CHECKS needs nothing more here: it compares every call's
   * arguments, and ranks whose calls agree have the same cache) */
  if (built) {
    /* a plan was built, on every rank: the one agreement of a first
     * evaluation, before any message moves (no rank is left waiting). A
     * failure anywhere drops this evaluation's plans everywhere, so the
     * caches stay the same on every rank. */
    err = mn_agree(ctx, err ? err : lerr);
    for (int i = 0; err && i < P->nops; i++)
      if (P->ops[i].plan) mn_cache_drop(ctx, P->ops[i].plan);
  } else if (lerr && ctx->size == 1) {
    err = lerr;
  } else if (lerr) {
    /* the steady state: every plan was kept, so no other rank agrees now.
     * Keep the error for the next communication point, and move this
     * rank's messages so that no rank waits for them. */
    mn_defer(ctx, lerr);
    P->deferred = 1;
  }
  for (int i = 0; i < P->nops && !err; i++)
    if (P->ops[i].plan) {
      const mn_buf *b = e->v[P->ops[i].node].arr->buf;
      err = P->dev ? mn_plan_begin_dev(P->ops[i].plan, b->dev, NULL)
                   : mn_plan_begin_mem(P->ops[i].plan, mn_buf_host(b, 0), NULL);
    }
  if (!err && P->deferred) {
    err = plans_end(P);
  } else if (!err && bm && R.have) { /* bands need every input: receive first */
    err = plans_end(P);
    if (!err) err = mn_eval_run_bands(P, bm, cuts, ncut, ncells, R.lo, R.cnt, scratch, per);
  } else if (!err) {
    err = run_passes(P, &R, cuts, ncut, ncells, out, outst_at_Rlo, accs, scratch, per);
  }
  if (err) /* complete any plan still in flight so no message is left behind */
    for (int i = 0; i < P->nops; i++)
      if (P->ops[i].plan && P->ops[i].plan->active) mn_plan_end(P->ops[i].plan);
  for (int i = 0; i < P->nops; i++) {
    mn_plan_destroy(&P->ops[i].plan);
    P->ops[i].pc = NULL; /* the context's block */
  }
  for (int d = 0; d < P->nd; d++)
    if (cuts[d] != stack[d]) free(cuts[d]);
  return err;
}
