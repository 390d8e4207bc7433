/* New matrices from old ones (sum, transpose, product, copy) and in-place
 * changes and reductions. Whole-matrix results go through the local rows
 * with global columns (mn_csr_get_rows) and the assembly paths. */
#include "csr_impl.h"
#include "spmd.h"
#include "kernels/table.h" /* mn_cast_table */
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int same_ctx(const mn_csr *A, const mn_csr *B) {
  MN_CHECK(A && B, MN_ERR_ARG, "NULL matrix");
  MN_CHECK(A->ctx == B->ctx, MN_ERR_ARG, "matrices belong to different contexts");
  return MN_SUCCESS;
}

int mn_csr_add(double alpha, const mn_csr *A, double beta, const mn_csr *B, mn_csr **C) {
  MN_CALL(same_ctx(A, B));
  MN_CHECK(C, MN_ERR_ARG, "NULL output");
  MN_SPMD(A->ctx, "mn_csr_add", mn_spmd_f64(S, "alpha", alpha),
          mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz), mn_spmd_f64(S, "beta", beta),
          mn_spmd_matrix(S, "B", B->dtype, B->nrows, B->ncols, B->nnz));
  MN_CHECK(A->nrows == B->nrows && A->ncols == B->ncols, MN_ERR_SHAPE,
           "inconsistent shapes: (%lld, %lld) and (%lld, %lld)", (long long)A->nrows, (long long)A->ncols,
           (long long)B->nrows, (long long)B->ncols);
  mn_dtype t = mni_csr_promote(A->dtype, B->dtype);
  MN_CALL(mni_csr_int_factor(t, alpha, "a sum scaling"));
  MN_CALL(mni_csr_int_factor(t, beta, "a sum scaling"));
  int64_t *ra = NULL, *ca = NULL, *rb = NULL, *cb = NULL;
  void *va = NULL, *vb = NULL;
  int err = mn_csr_get_rows(A, &ra, &ca, &va);
  if (!err) err = mn_csr_get_rows(B, &rb, &cb, &vb);
  int64_t n = A->nlocal, m = err ? 0 : ra[n] + rb[n];
  int64_t *rp = mn_malloc(sizeof(int64_t) * (size_t)(n + 1)), *cc = mn_malloc(sizeof(int64_t) * (size_t)(m + 1));
  void *vc = mn_malloc(mn_dtype_size(t) * (size_t)(m + 1));
  if (!err && (!rp || !cc || !vc)) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld entries", (long long)m);
  err = mn_agree(A->ctx, err);
  if (!err) { /* merge two rows sorted by column */
    int64_t k = 0;
    rp[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t a = ra[i], b = rb[i];
      while (a < ra[i + 1] || b < rb[i + 1]) {
        int64_t x = a < ra[i + 1] ? ca[a] : INT64_MAX, y = b < rb[i + 1] ? cb[b] : INT64_MAX;
        mni_sval v = mni_sv_i(0);
        if (x <= y) v = mni_sv_add(t, v, mni_sv_scale(t, alpha, mni_sv_cast(A->dtype, t, mn_csr_val(A->dtype, va, a++))));
        if (y <= x) v = mni_sv_add(t, v, mni_sv_scale(t, beta, mni_sv_cast(B->dtype, t, mn_csr_val(B->dtype, vb, b++))));
        cc[k] = x < y ? x : y;
        mni_csr_put(t, vc, k++, v);
      }
      rp[i + 1] = k;
    }
    err = mn_csr_from_sorted_rows(A->ctx, A->nrows, A->ncols, t, rp, cc, vc, C);
  }
  mn_free(ra); mn_free(ca); mn_free(va); mn_free(rb); mn_free(cb); mn_free(vb);
  mn_free(rp); mn_free(cc); mn_free(vc);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* A's local entries as COO triplets (global indices, values of A's dtype). */
static int local_coo(const mn_csr *A, int64_t **r, int64_t **c, void **v, int64_t *n) {
  int64_t *rp = NULL, *cols = NULL;
  void *vals = NULL;
  MN_CALL(mn_csr_get_rows(A, &rp, &cols, &vals));
  int64_t m = rp[A->nlocal];
  *r = mn_malloc(sizeof(int64_t) * (size_t)(m + 1));
  int err = *r ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld entries", (long long)m);
  for (int64_t i = 0; !err && i < A->nlocal; i++)
    for (int64_t k = rp[i]; k < rp[i + 1]; k++) (*r)[k] = A->row0 + i;
  mn_free(rp);
  if (err) { mn_free(cols); mn_free(vals); return err; }
  *c = cols;
  *v = vals;
  *n = m;
  return MN_SUCCESS;
}

int mn_csr_transpose(const mn_csr *A, mn_csr **C) {
  MN_CHECK(A && C, MN_ERR_ARG, "NULL matrix or output");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_transpose", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz));
  int64_t *r = NULL, *c = NULL, n = 0;
  void *v = NULL;
  int err = mn_agree(A->ctx, local_coo(A, &r, &c, &v, &n));
  if (!err) err = mn_csr_create_coo(A->ctx, A->ncols, A->nrows, A->dtype, n, MN_INT64, c, r, v, C);
  mn_free(r); mn_free(c); mn_free(v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_csr_copy(const mn_csr *A, mn_dtype t, mn_csr **C) {
  MN_CHECK(A && C, MN_ERR_ARG, "NULL matrix or output");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_copy", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_dtype(S, "dtype", t));
  if (t == MN_NDTYPE) t = A->dtype;
  MN_CHECK(mni_csr_dtype_ok(t), MN_ERR_DTYPE, "sparse matrices hold any numeric dtype but float16, not %s",
           mn_dtype_name(t));
  int64_t *rp = NULL, *cols = NULL;
  void *vals = NULL;
  int err = mn_agree(A->ctx, mn_csr_get_rows(A, &rp, &cols, &vals));
  void *cv = err ? NULL : mn_malloc(mn_dtype_size(t) * (size_t)(rp[A->nlocal] + 1));
  if (!err) err = mn_agree(A->ctx, cv ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate a copy"));
  if (!err) {
    mn_cast_table[A->dtype][t](rp[A->nlocal], vals, cv); /* NumPy's casts */
    err = mn_csr_from_sorted_rows(A->ctx, A->nrows, A->ncols, t, rp, cols, cv, C);
  }
  mn_free(rp); mn_free(cols); mn_free(vals); mn_free(cv);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

static void scale_block(mn_dtype t, void *v, int64_t n, double s) {
  for (int64_t k = 0; k < n; k++) mni_csr_put(t, v, k, mni_sv_scale(t, s, mn_csr_val(t, v, k)));
}

int mn_csr_scale(mn_csr *A, double s) {
  MN_CHECK(A, MN_ERR_ARG, "NULL matrix");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_scale", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_f64(S, "s", s));
  MN_CALL(mni_csr_int_factor(A->dtype, s, "scaling"));
  mni_csr_changed(A);
  scale_block(A->dtype, A->dval, A->dptr[A->nlocal], s);
  scale_block(A->dtype, A->oval, A->optr[A->nlocal], s);
  return MN_SUCCESS;
}

int mn_csr_diag_scale(mn_csr *A, const mn_array *l, const mn_array *r) {
  MN_CHECK(A, MN_ERR_ARG, "NULL matrix");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_diag_scale", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_array(S, "l", l), mn_spmd_array(S, "r", r));
  const char *ld = NULL, *rd = NULL;
  mn_array *lt = NULL, *rt = NULL;
  int err = 0;
  if (l) err = mni_csr_check_vec(A, l, A->nrows, 1, "l");
  if (!err && r) err = mni_csr_check_vec(A, r, A->ncols, 1, "r");
  if (!err && l) err = mn_csr_vec_in(A, l, A->nrows, A->row0, A->nlocal, &ld, &lt);
  if (!err && r) err = mn_csr_vec_in(A, r, A->ncols, A->col0, A->ncloc, &rd, &rt);
  /* r at the ghost columns: the ghost exchange of the products */
  if (!err && r) err = mn_plan_begin_mem(A->ghost, (char *)rd, NULL);
  if (!err && r) err = mn_plan_end(A->ghost);
  if (!err) {
    mni_csr_changed(A);
    const char *rg = r ? A->ghost->recvbuf : NULL;
    for (int64_t i = 0; i < A->nlocal; i++) {
      mn_dtype t = A->dtype;
      mni_sval li = l ? mn_csr_val(t, ld, i) : mni_csr_intk(t) ? mni_sv_i(1) : mni_sv_z(1, 0), s;
      for (int64_t k = A->dptr[i]; k < A->dptr[i + 1]; k++) {
        s = r ? mni_sv_mul(t, li, mn_csr_val(t, rd, A->dcol[k])) : li;
        mni_csr_put(t, A->dval, k, mni_sv_mul(t, s, mn_csr_val(t, A->dval, k)));
      }
      for (int64_t k = A->optr[i]; k < A->optr[i + 1]; k++) {
        s = r ? mni_sv_mul(t, li, mn_csr_val(t, rg, A->ocol[k])) : li;
        mni_csr_put(t, A->oval, k, mni_sv_mul(t, s, mn_csr_val(t, A->oval, k)));
      }
    }
  }
  mn_array_destroy(&lt);
  mn_array_destroy(&rt);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* Values for my rows (in order), as a 1-d array of the default layout of
 * n elements copied into out: my rows are a contiguous part of [0, n). */
static int rows_out(const mn_csr *A, const mni_sval *v, int64_t cnt, mn_array *out) {
  mn_array *t = NULL;
  void *buf = mn_malloc(mn_dtype_size(A->dtype) * (size_t)(cnt + 1));
  MN_CALL(mn_agree(A->ctx, buf ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld values", (long long)cnt)));
  for (int64_t i = 0; i < cnt; i++) mni_csr_put(A->dtype, buf, i, v[i]);
  int err = mn_array_concat_local(A->ctx, A->dtype, cnt, buf, &t);
  mn_free(buf);
  if (!err) err = mn_array_copy(t, out);
  mn_array_destroy(&t);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_csr_diagonal(const mn_csr *A, mn_array *d) {
  MN_CHECK(A && d, MN_ERR_ARG, "NULL matrix or output");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_diagonal", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_array(S, "d", d));
  int64_t m = A->nrows < A->ncols ? A->nrows : A->ncols;
  MN_CHECK(d->map.ndim == 1 && d->map.shape[0] == m, MN_ERR_SHAPE,
           "the diagonal of a %lld x %lld matrix has %lld elements", (long long)A->nrows, (long long)A->ncols,
           (long long)m);
  int64_t cnt = A->row0 >= m ? 0 : (A->row0 + A->nlocal < m ? A->nlocal : m - A->row0);
  mni_sval *v = calloc((size_t)(cnt + 1), sizeof(mni_sval)); /* (all-zero bytes: 0 in both forms) */
  MN_CALL(mn_agree(A->ctx, v ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate the diagonal")));
  for (int64_t i = 0; i < cnt; i++) {
    int64_t g = A->row0 + i;
    for (int64_t k = A->dptr[i]; k < A->dptr[i + 1]; k++)
      if (A->col0 + A->dcol[k] == g) v[i] = mn_csr_val(A->dtype, A->dval, k);
    for (int64_t k = A->optr[i]; k < A->optr[i + 1]; k++)
      if (A->garray[A->ocol[k]] == g) v[i] = mn_csr_val(A->dtype, A->oval, k);
  }
  int err = rows_out(A, v, cnt, d);
  free(v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mni_csr_diagonal_only(const mn_csr *A) {
  if (A->optr[A->nlocal]) return 0;
  for (int64_t i = 0; i < A->nlocal; i++)
    for (int64_t k = A->dptr[i]; k < A->dptr[i + 1]; k++)
      if (A->col0 + A->dcol[k] != A->row0 + i) return 0;
  return 1;
}

int mn_csr_sum(const mn_csr *A, int axis, mn_array *s) {
  MN_CHECK(A && s, MN_ERR_ARG, "NULL matrix or output");
  MN_CHECK(axis == 0 || axis == 1, MN_ERR_INDEX, "axis %d is out of bounds for a matrix (0 or 1)", axis);
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_sum", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_int(S, "axis", axis), mn_spmd_array(S, "s", s));
  if (axis == 0) { /* column sums: A^T times ones */
    mn_array *one = NULL;
    MN_CALL(mn_array_create(A->ctx, A->dtype, 1, &A->nrows, 0, &one));
    int err = mn_array_fill(one, mn_scalar_f64(1.0));
    if (!err) err = mn_csr_spmv_t(A, one, s);
    mn_array_destroy(&one);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    return MN_SUCCESS;
  }
  MN_CHECK(s->map.ndim == 1 && s->map.shape[0] == A->nrows, MN_ERR_SHAPE, "row sums need a 1-d output of %lld",
           (long long)A->nrows);
  mni_sval *v = calloc((size_t)(A->nlocal + 1), sizeof(mni_sval));
  MN_CALL(mn_agree(A->ctx, v ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate row sums")));
  for (int64_t i = 0; i < A->nlocal; i++) {
    for (int64_t k = A->dptr[i]; k < A->dptr[i + 1]; k++) v[i] = mni_sv_add(A->dtype, v[i], mn_csr_val(A->dtype, A->dval, k));
    for (int64_t k = A->optr[i]; k < A->optr[i + 1]; k++) v[i] = mni_sv_add(A->dtype, v[i], mn_csr_val(A->dtype, A->oval, k));
  }
  int err = rows_out(A, v, A->nlocal, s);
  free(v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* Replace A's contents with B's (B is consumed). */
static void take_over(mn_csr *A, mn_csr *B) {
  mn_csr old = *A;
  *A = *B;
  *B = old;
  mn_csr_destroy(&B);
}

int mn_csr_eliminate_zeros(mn_csr *A) {
  MN_CHECK(A, MN_ERR_ARG, "NULL matrix");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_eliminate_zeros", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz));
  int64_t *rp = NULL, *cols = NULL;
  void *vals = NULL;
  MN_CALL(mn_agree(A->ctx, mn_csr_get_rows(A, &rp, &cols, &vals)));
  int64_t m = 0, k = 0;
  size_t es = mn_dtype_size(A->dtype);
  for (int64_t i = 0; i < A->nlocal; i++) {
    for (; k < rp[i + 1]; k++)
      if (!mni_sv_zero(A->dtype, mn_csr_val(A->dtype, vals, k))) {
        cols[m] = cols[k];
        memmove((char *)vals + m * (int64_t)es, (char *)vals + k * (int64_t)es, es);
        m++;
      }
    rp[i + 1] = m;
  }
  mn_csr *B = NULL;
  int err = mn_csr_from_sorted_rows(A->ctx, A->nrows, A->ncols, A->dtype, rp, cols, vals, &B);
  mn_free(rp); mn_free(cols); mn_free(vals);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  take_over(A, B);
  return MN_SUCCESS;
}
