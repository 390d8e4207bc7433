/* Partitioning a matrix's graph and renumbering the matrix by it: the new
 * index of every ghost column comes from its owner (one all-to-all), the
 * renumbered entries are assembled as COO. */
#include "csr_impl.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>

int mn_csr_partition(const mn_csr *A, mn_part_kind kind, mn_partition **p) {
  MN_CHECK(A && p, MN_ERR_ARG, "NULL matrix or output");
  MN_CHECK(A->nrows == A->ncols, MN_ERR_SHAPE, "only a square matrix has a graph to partition, not %lld x %lld",
           (long long)A->nrows, (long long)A->ncols);
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_partition", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_int(S, "kind", kind));
  int64_t *rp = NULL, *cols = NULL;
  void *vals = NULL;
  MN_CALL(mn_agree(A->ctx, mn_csr_get_rows(A, &rp, &cols, &vals)));
  int64_t *w = malloc(sizeof(int64_t) * (size_t)(A->nlocal + 1));
  int err = mn_agree(A->ctx, w ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate vertex weights"));
  if (!err) {
    for (int64_t i = 0; i < A->nlocal; i++) w[i] = rp[i + 1] - rp[i];
    err = mn_partition_create(A->ctx, kind, A->nrows, A->nlocal, rp, cols, w, p);
  }
  free(w);
  mn_free(rp); mn_free(cols); mn_free(vals);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_csr_permute(const mn_csr *A, const mn_partition *p, mn_csr **B) {
  MN_CHECK(A && p && B, MN_ERR_ARG, "NULL matrix, partition or output");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_permute", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz));
  MN_CHECK(A->nrows == A->ncols, MN_ERR_SHAPE, "only a square matrix is renumbered, not %lld x %lld",
           (long long)A->nrows, (long long)A->ncols);
  mn_ctx *ctx = A->ctx;
  int P = ctx->size, err = 0;
  const int64_t *mine = mn_partition_new_of_old(p); /* my old rows = my old columns */
  /* new indices of my ghost columns, asked of their owners */
  int64_t *cnt = calloc((size_t)P * 5, sizeof(int64_t)), *rc = cnt + P, *rd = cnt + 2 * P, *rc2 = cnt + 3 * P,
          *rd2 = cnt + 4 * P;
  char *req = NULL, *rep = NULL;
  int64_t *ans = NULL;
  MN_CALL(mn_agree(ctx, cnt ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate counts")));
  for (int64_t k = 0; k < A->nghost; k++) cnt[mn_split_owner(A->ncols, P, A->garray[k])] += 8;
  err = mn_exchange(ctx, (const char *)A->garray, cnt, &req, rc, rd);
  if (!err) {
    int64_t m = 0;
    for (int q = 0; q < P; q++) m += rc[q] / 8;
    ans = malloc(sizeof(int64_t) * (size_t)(m + 1));
    err = mn_agree(ctx, ans ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld answers", (long long)m));
    if (!err) {
      for (int64_t k = 0; k < m; k++) ans[k] = mine[((const int64_t *)req)[k] - A->col0];
      err = mn_exchange(ctx, (const char *)ans, rc, &rep, rc2, rd2); /* back, in the order asked */
    }
  }
  const int64_t *gnew = (const int64_t *)rep;
  int64_t nnz = A->dptr[A->nlocal] + A->optr[A->nlocal], k = 0;
  int64_t *r = malloc(sizeof(int64_t) * (size_t)(nnz + 1)), *c = malloc(sizeof(int64_t) * (size_t)(nnz + 1));
  size_t es = mn_dtype_size(A->dtype);
  char *v = malloc(es * (size_t)(nnz + 1));
  if (!err) err = mn_agree(ctx, r && c && v ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld entries", (long long)nnz));
  if (!err) {
    for (int64_t i = 0; i < A->nlocal; i++) {
      for (int64_t q = A->dptr[i]; q < A->dptr[i + 1]; q++, k++) {
        r[k] = mine[i];
        c[k] = mine[A->dcol[q]];
        memcpy(v + k * es, (const char *)A->dval + q * es, es);
      }
      for (int64_t q = A->optr[i]; q < A->optr[i + 1]; q++, k++) {
        r[k] = mine[i];
        c[k] = gnew[A->ocol[q]];
        memcpy(v + k * es, (const char *)A->oval + q * es, es);
      }
    }
    err = mn_csr_create_coo(ctx, A->nrows, A->ncols, A->dtype, k, MN_INT64, r, c, v, B);
  }
  free(r); free(c); free(v); free(ans); free(cnt);
  mn_free(req); mn_free(rep);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
