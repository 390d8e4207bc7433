/* The cells of an evaluation (the product of every operand's cut points)
 * and the banded driver for in-place evaluations that read the output
 * shifted. */
#include "eval_impl.h"
#include <string.h>

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
void mn_eval_cell_box(int64_t c, int nd, int64_t *const *cuts, const int *ncut, cell *C) {
  int64_t r = c;
  for (int d = nd - 1; d >= 0; d--) {
    int64_t j = r % (ncut[d] - 1);
    r /= ncut[d] - 1;
    C->lo[d] = cuts[d][j];
    C->cnt[d] = cuts[d][j + 1] - cuts[d][j];
  }
}

/* Input pointers and strides of a cell; *local: every input is local. */
int mn_eval_cell_inputs(prog *P, cell *C, int *local) {
  const mn_expr *e = P->e;
  int nd = P->nd;
  *local = 1;
  for (int i = 0; i < P->nops; i++) {
    piece *p = find_piece(&P->ops[i], C->lo, nd);
    if (!p) return MN_ERR(MN_ERR_ARG, "internal: no piece covers a cell of operand %d", i);
    *local &= p->local;
    size_t es = mn_eval_es(e->v[P->ops[i].node].dtype);
    int64_t off = 0;
    for (int d = 0; d < nd; d++) { off += (C->lo[d] - p->lo[d]) * p->st[d]; C->ost[i][d] = p->st[d]; }
    C->optr[i] = p->ptr + off * (int64_t)es;
  }
  return MN_SUCCESS;
}

/* Extra outputs' pointers at a cell (Rlo: the iteration box's start). */
void mn_eval_cell_xouts(const prog *P, cell *C, const int64_t *Rlo) {
  for (int k = 0; k < P->nx; k++) {
    int64_t off = 0;
    for (int d = 0; d < P->nd; d++) off += (C->lo[d] - Rlo[d]) * P->xst[k][d];
    C->xout[k] = P->xbase[k] + off * (int64_t)mn_eval_es(P->e->v[P->xnode[k]].dtype);
  }
}

/* One row of 8-byte elements, copied by a loop the compiler vectorises:
 * glibc's memcpy takes `rep movsb` at these sizes, which ran the copy at
 * half this speed on the AMD EPYC of the benchmarks (so GCC must not turn
 * the loop back into a memcpy call). */
#if defined(__GNUC__) && !defined(__clang__)
__attribute__((optimize("no-tree-loop-distribute-patterns")))
#endif
MN_CLONES static void row_copy8(int64_t n, const int64_t *restrict a, int64_t *restrict b) {
  for (int64_t i = 0; i < n; i++) b[i] = a[i];
}

/* Copy a band back to out. Ordinary stores: out's rows were read a band
 * ago, so they are in cache (streaming them out measured slower). */
static void band_store(int nd, const int64_t *cnt, size_t es, const char *src, const int64_t *sst, char *dst,
                       const int64_t *dst_st) {
  if (es == 8 && nd >= 1 && sst[nd - 1] == 1 && dst_st[nd - 1] == 1) {
    int64_t rows = mn_box_size(nd - 1, cnt), L = cnt[nd - 1], idx[MN_MAXDIM] = {0};
    for (int64_t r = 0; r < rows; r++) {
      int64_t so = 0, dof = 0;
      for (int d = 0; d < nd - 1; d++) { so += idx[d] * sst[d]; dof += idx[d] * dst_st[d]; }
      row_copy8(L, (const int64_t *)(src + so * 8), (int64_t *)(dst + dof * 8));
      for (int d = nd - 2; d >= 0; d--) { if (++idx[d] < cnt[d]) break; idx[d] = 0; }
    }
    return;
  }
  mn_strided_copy(nd, cnt, es, src, sst, dst, dst_st);
}

/* The banded driver (see band_mode): every cell's part in each band of
 * axis 0, into a band buffer; the previous band goes back to out after. */
int mn_eval_run_bands(prog *P, const band_mode *bm, int64_t *const *cuts, const int *ncut, int64_t ncells,
                     const int64_t *Rlo, const int64_t *Rcnt, char *scratch, size_t per) {
  int nd = P->nd, err = 0;
  size_t oes = mn_eval_es(P->odt);
  int64_t bst[MN_MAXDIM], bcnt[MN_MAXDIM], prev_lo = 0;
  mn_dense_strides(nd, Rcnt, bst); /* a band is rows of the box: same strides */
  memcpy(bcnt, Rcnt, sizeof bcnt);
  int have_prev = 0, cur = 0;
  for (int64_t b0 = Rlo[0]; b0 < Rlo[0] + Rcnt[0] && !err; b0 += bm->h) {
    int64_t b1 = b0 + bm->h < Rlo[0] + Rcnt[0] ? b0 + bm->h : Rlo[0] + Rcnt[0];
    for (int64_t c = 0; c < ncells && !err; c++) {
      cell C;
      int local;
      mn_eval_cell_box(c, nd, cuts, ncut, &C);
      int64_t lo = C.lo[0] > b0 ? C.lo[0] : b0, hi = C.lo[0] + C.cnt[0] < b1 ? C.lo[0] + C.cnt[0] : b1;
      if (hi <= lo) continue;
      C.lo[0] = lo;
      C.cnt[0] = hi - lo;
      err = mn_eval_cell_inputs(P, &C, &local);
      if (err) break;
      int64_t off = (lo - b0) * bst[0];
      for (int d = 1; d < nd; d++) off += (C.lo[d] - Rlo[d]) * bst[d];
      memcpy(C.outst, bst, sizeof bst);
      C.out = bm->buf[cur] + off * (int64_t)oes;
      mn_eval_cell_xouts(P, &C, Rlo);
      mn_eval_run_cell(P, &C, scratch, per, NULL);
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
