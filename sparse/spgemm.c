/* C = A B for two distributed CSR matrices: the rows of B that A's ghost
 * columns name come from their owners in one all-to-all (each reply is the
 * rows' lengths, columns and values); then each row of C is the merge of
 * scaled rows of B (collected, sorted by column, summed). */
#include "csr_impl.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

typedef struct { int64_t col; mni_sval val; } pair; /* (in the product's dtype's form) */

static int cmp_pair(const void *a, const void *b) {
  const pair *x = a, *y = b;
  return (x->col > y->col) - (x->col < y->col);
}

int mn_csr_matmul(const mn_csr *A, const mn_csr *B, mn_csr **C) {
  MN_CHECK(A && B && C, MN_ERR_ARG, "NULL matrix or output");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_matmul", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_matrix(S, "B", B->dtype, B->nrows, B->ncols, B->nnz));
  MN_CHECK(A->ctx == B->ctx, MN_ERR_ARG, "matrices belong to different contexts");
  MN_CHECK(A->ncols == B->nrows, MN_ERR_SHAPE, "dimension mismatch: (%lld, %lld) @ (%lld, %lld)",
           (long long)A->nrows, (long long)A->ncols, (long long)B->nrows, (long long)B->ncols);
  mn_ctx *ctx = A->ctx;
  int P = ctx->size, err = 0;
  mn_dtype t = mni_csr_promote(A->dtype, B->dtype);
  int64_t *brp = NULL, *bcol = NULL;
  void *bval = NULL;
  MN_CALL(mn_agree(ctx, mn_csr_get_rows(B, &brp, &bcol, &bval)));
  /* ask the owners of A's ghost columns for those rows of B */
  int64_t *cnt = calloc((size_t)P * 6, sizeof(int64_t)), *rc = cnt + P, *rd = cnt + 2 * P, *sc = cnt + 3 * P;
  int64_t *rc2 = cnt + 4 * P, *rd2 = cnt + 5 * P;
  char *req = NULL, *rep = NULL, *sbuf = NULL;
  err = mn_agree(ctx, cnt ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate counts"));
  if (!err) {
    for (int64_t k = 0; k < A->nghost; k++) cnt[mn_split_owner(B->nrows, P, A->garray[k])] += 8;
    err = mn_exchange(ctx, (const char *)A->garray, cnt, &req, rc, rd);
  }
  if (!err) { /* replies: per requested row its length, then (col, val) pairs */
    int64_t bytes = 0;
    for (int q = 0; q < P; q++) {
      const int64_t *rows = (const int64_t *)(req + rd[q]);
      sc[q] = 0;
      for (int64_t k = 0; k < rc[q] / 8; k++) {
        int64_t i = rows[k] - B->row0;
        sc[q] += 8 + (brp[i + 1] - brp[i]) * (int64_t)sizeof(pair);
      }
      bytes += sc[q];
    }
    sbuf = mn_malloc((size_t)(bytes + 1));
    err = mn_agree(ctx, sbuf ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes of rows", (long long)bytes));
    if (!err) {
      char *w = sbuf;
      for (int q = 0; q < P; q++) {
        const int64_t *rows = (const int64_t *)(req + rd[q]);
        for (int64_t k = 0; k < rc[q] / 8; k++) {
          int64_t i = rows[k] - B->row0, len = brp[i + 1] - brp[i];
          memcpy(w, &len, 8);
          w += 8;
          for (int64_t m = brp[i]; m < brp[i + 1]; m++) {
            pair p = {bcol[m], mni_sv_cast(B->dtype, t, mn_csr_val(B->dtype, bval, m))};
            memcpy(w, &p, sizeof p);
            w += sizeof p;
          }
        }
      }
      err = mn_exchange(ctx, sbuf, sc, &rep, rc2, rd2);
    }
  }
  /* ghost row k of B starts at gpos[k] in rep */
  int64_t *gpos = malloc(sizeof(int64_t) * (size_t)(A->nghost + 1));
  if (!err && !gpos) err = MN_ERR(MN_ERR_MEM, "cannot allocate ghost rows");
  err = mn_agree(ctx, err);
  if (!err) {
    int64_t off = 0;
    for (int64_t k = 0; k < A->nghost; k++) {
      gpos[k] = off;
      int64_t len;
      memcpy(&len, rep + off, 8);
      off += 8 + len * (int64_t)sizeof(pair);
    }
  }
  /* the rows of C */
  int64_t cap = 1024, nnz = 0;
  pair *acc = NULL, *all = NULL;
  int64_t *crp = calloc((size_t)(A->nlocal + 1), sizeof(int64_t));
  if (!err) {
    acc = malloc(sizeof(pair) * (size_t)cap);
    all = malloc(sizeof(pair) * (size_t)cap);
    if (!acc || !all || !crp) err = MN_ERR(MN_ERR_MEM, "cannot allocate product rows");
  }
  int64_t acap = err ? 0 : cap;
  for (int64_t i = 0; !err && i < A->nlocal; i++) {
    int64_t m = 0;
    for (int blk = 0; blk < 2 && !err; blk++) {
      const int64_t *ptr = blk ? A->optr : A->dptr;
      const int32_t *col = blk ? A->ocol : A->dcol;
      const void *val = blk ? A->oval : A->dval;
      for (int64_t k = ptr[i]; k < ptr[i + 1] && !err; k++) {
        mni_sval a = mni_sv_cast(A->dtype, t, mn_csr_val(A->dtype, val, k));
        int64_t len;
        const char *g = NULL;
        int64_t j = blk ? -1 : col[k];
        if (blk) { g = rep + gpos[col[k]]; memcpy(&len, g, 8); g += 8; }
        else len = brp[j + 1] - brp[j];
        if (m + len > cap) {
          while (m + len > cap) cap *= 2;
          pair *n2 = realloc(acc, sizeof(pair) * (size_t)cap);
          if (!n2) { err = MN_ERR(MN_ERR_MEM, "cannot grow a product row to %lld", (long long)cap); break; }
          acc = n2;
        }
        for (int64_t q = 0; q < len; q++) {
          pair p;
          if (blk) memcpy(&p, g + q * (int64_t)sizeof(pair), sizeof p);
          else { p.col = bcol[brp[j] + q]; p.val = mni_sv_cast(B->dtype, t, mn_csr_val(B->dtype, bval, brp[j] + q)); }
          p.val = mni_sv_mul(t, p.val, a);
          acc[m++] = p;
        }
      }
    }
    if (err) break;
    qsort(acc, (size_t)m, sizeof(pair), cmp_pair);
    int64_t u = 0;
    for (int64_t q = 0; q < m; q++) {
      if (u && acc[u - 1].col == acc[q].col) acc[u - 1].val = mni_sv_add(t, acc[u - 1].val, acc[q].val);
      else acc[u++] = acc[q];
    }
    if (nnz + u > acap) {
      while (nnz + u > acap) acap *= 2;
      pair *n2 = realloc(all, sizeof(pair) * (size_t)acap);
      if (!n2) { err = MN_ERR(MN_ERR_MEM, "cannot grow the product to %lld entries", (long long)acap); break; }
      all = n2;
    }
    memcpy(all + nnz, acc, sizeof(pair) * (size_t)u);
    nnz += u;
    crp[i + 1] = nnz;
  }
  err = mn_agree(ctx, err);
  int64_t *ccol = NULL;
  void *cval = NULL;
  if (!err) {
    ccol = malloc(sizeof(int64_t) * (size_t)(nnz + 1));
    cval = mn_malloc(mn_dtype_size(t) * (size_t)(nnz + 1));
    err = mn_agree(ctx, ccol && cval ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld entries", (long long)nnz));
  }
  if (!err) {
    for (int64_t k = 0; k < nnz; k++) {
      ccol[k] = all[k].col;
      mni_csr_put(t, cval, k, all[k].val);
    }
    err = mn_csr_from_sorted_rows(ctx, A->nrows, B->ncols, t, crp, ccol, cval, C);
  }
  free(ccol); mn_free(cval); free(crp); free(acc); free(all); free(gpos);
  mn_free(req); mn_free(rep); mn_free(sbuf); free(cnt);
  mn_free(brp); mn_free(bcol); mn_free(bval);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
