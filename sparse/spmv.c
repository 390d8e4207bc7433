/* Sparse products with dense vectors: y = A x (ghost exchange overlapping
 * the diagonal block), y = A^T x (ghost contributions sent back and summed
 * by their owners in rank order) and Y = A X for a block of vectors. */
#include "csr_impl.h"
#include "spmd.h"
#include "kernels/csr.h"
#include <stdlib.h>
#include <string.h>

enum { GHOST_T_TAG = 301 }; /* the reverse ghost messages of mn_csr_spmv_t */

/* a's owned block on one side (dev: the device's), made the current copy
 * (write) or read with the other side's copy kept current; no pin */
static void block_at(const mn_array *a, int dev, int write, mn_local *l) {
  if (write) mn_array_local_in(a, dev, l);
  else mn_array_local_read(a, dev, l);
}

/* Is a the base 1-d array of n elements of dtype t whose owned part is
 * [start, start + len), contiguous? Its host block in *l (write: made the
 * current copy; no pin, so a device backend may take the values back) */
static int direct(const mn_array *a, mn_dtype t, int64_t n, int64_t start, int64_t len, int write, mn_local *l) {
  if (a->is_view || a->dtype != t || a->map.ndim != 1 || a->map.shape[0] != n) return 0;
  block_at(a, 0, write, l);
  int64_t cnt = l->data ? l->count[0] : 0;
  return (cnt == len && (len == 0 || (l->lo[0] == start && l->stride[0] == 1)));
}

/* 1 when a cast from f to t can lose values of f's kind: an imaginary part,
 * a fraction, or integers outside t's range (a float to a narrower float is
 * a rounding, as NumPy's same_kind casting allows) */
static int cast_loses(mn_dtype f, mn_dtype t) {
  if (mni_csr_cplx(f) && !mni_csr_cplx(t)) return 1;
  if (!mni_csr_intk(f) && mni_csr_intk(t)) return 1;
  return mni_csr_intk(f) && mni_csr_intk(t) && mn_dtype_promote(f, t) != t;
}

int mni_csr_check_vec(const mn_csr *A, const mn_array *v, int64_t n, int in, const char *what) {
  MN_CHECK(v, MN_ERR_ARG, "NULL %s", what);
  MN_CHECK(v->ctx == A->ctx, MN_ERR_ARG, "%s belongs to another context", what);
  /* x goes through a copy of A's dtype, y receives A's dtype */
  MN_CHECK(!in || !cast_loses(v->dtype, A->dtype), MN_ERR_DTYPE,
           "a %s matrix with a %s vector %s: the cast to the matrix's dtype would lose the vector's values, so copy "
           "the matrix to NumPy's result dtype first (mn_csr_copy)", mn_dtype_name(A->dtype), mn_dtype_name(v->dtype),
           what);
  MN_CHECK(in || !cast_loses(A->dtype, v->dtype), MN_ERR_DTYPE,
           "a %s matrix's product cannot be stored in the %s vector %s without losing values",
           mn_dtype_name(A->dtype), mn_dtype_name(v->dtype), what);
  MN_CHECK(v->map.ndim == 1 && v->map.shape[0] == n, MN_ERR_SHAPE,
           "%s must be 1-d of %lld elements for a %lld x %lld matrix, got %d-d of %lld", what, (long long)n,
           (long long)A->nrows, (long long)A->ncols, v->map.ndim, (long long)(v->map.ndim ? v->map.shape[0] : 1));
  return MN_SUCCESS;
}

/* The same test from global metadata alone, so every rank answers alike
 * with no message: a base 1-d block array over all ranks is split as the
 * matrix splits its rows and columns (mn_split_start). */
static int direct_everywhere(const mn_csr *A, const mn_array *a, int64_t n) {
  const mn_layout *lay = a->buf->lay;
  return !a->is_view && a->dtype == A->dtype && a->map.ndim == 1 && a->map.shape[0] == n &&
         lay->kind == MN_LAYOUT_BLOCK && lay->ndim == 1 && lay->dims[0] == A->ctx->size;
}

/* 1 when a's memory serves on every rank; else agreed over the ranks (a
 * copy is collective, so the decision must be the same everywhere) */
static int direct_agreed(const mn_csr *A, const mn_array *a, int64_t n, int64_t start, int64_t len, int write,
                         mn_local *l) {
  if (direct_everywhere(A, a, n)) {
    block_at(a, 0, write, l);
    return 1;
  }
  int ok = direct(a, A->dtype, n, start, len, write, l), all = 0;
  mn_allreduce(A->ctx, &ok, &all, 1, MPI_INT, MPI_MIN);
  return all;
}

int mn_csr_vec_in(const mn_csr *A, const mn_array *x, int64_t n, int64_t start, int64_t len, const char **data,
                  mn_array **tmp) {
  mn_local l;
  *tmp = NULL;
  int all = direct_agreed(A, x, n, start, len, 0, &l);
  if (all) { *data = l.data; return MN_SUCCESS; }
  MN_CALL(mn_array_create(A->ctx, A->dtype, 1, &n, 0, tmp));
  int err = mn_array_copy(x, *tmp);
  if (err) { mn_array_destroy(tmp); return mn_trace(err, __FILE__, __LINE__, __func__); }
  mn_array_local_read(*tmp, 0, &l);
  *data = l.data;
  return MN_SUCCESS;
}

int mn_csr_vec_out_begin(const mn_csr *A, mn_array *y, int64_t n, int64_t start, int64_t len, char **data,
                         mn_array **tmp) {
  mn_local l;
  *tmp = NULL;
  if (direct_agreed(A, y, n, start, len, 1, &l)) { *data = l.data; return MN_SUCCESS; }
  MN_CALL(mn_array_create(A->ctx, A->dtype, 1, &n, 0, tmp));
  mn_array_local_in(*tmp, 0, &l);
  *data = l.data;
  return MN_SUCCESS;
}

int mn_csr_vec_out_end(mn_array *y, mn_array **tmp) {
  if (!*tmp) return MN_SUCCESS;
  int err = mn_array_copy(*tmp, y);
  mn_array_destroy(tmp);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* y_i = row i of D times x, for every row of a block (T, suffix S) */
#define DIAG_ROWS(T, S)                                                                     \
  do {                                                                                      \
    const T *xv = (const T *)x, *val = (const T *)A->dval;                                  \
    T *yv = (T *)y;                                                                         \
    _Pragma("omp parallel for schedule(static) if (n > 20000)")                             \
    for (int64_t i = 0; i < n; i++) yv[i] = mni_k_csr_row_##S(ptr[i], ptr[i + 1], col, val, xv); \
  } while (0)

/* y_i += row i of O times the ghosts g, over the rows that have any */
#define OFF_ROWS(T, S)                                                                      \
  do {                                                                                      \
    const T *gv = (const T *)g, *val = (const T *)A->oval;                                  \
    T *yv = (T *)y;                                                                         \
    _Pragma("omp parallel for schedule(static) if (nb > 20000)")                            \
    for (int64_t b = 0; b < nb; b++) {                                                      \
      int64_t i = brow[b];                                                                  \
      yv[i] = mni_k_csr_plus_##S(yv[i], mni_k_csr_row_##S(ptr[i], ptr[i + 1], col, val, gv)); \
    }                                                                                       \
  } while (0)

/* y = D x over my rows (the diagonal block), while the ghosts travel;
 * with dot, returns the local sum of x_i y_i (float64 only) */
static double diag_rows(const mn_csr *A, const char *x, char *y, int dot) {
  const int64_t n = A->nlocal, *ptr = A->dptr;
  const int32_t *col = A->dcol;
  double s = 0;
  if (A->dtype == MN_FLOAT64) {
    const double *xv = (const double *)x, *val = (const double *)A->dval;
    double *yv = (double *)y;
    if (dot) {
#pragma omp parallel for schedule(static) reduction(+ : s) if (n > 20000)
      for (int64_t i = 0; i < n; i++) {
        double v = mni_k_csr_row_f64(ptr[i], ptr[i + 1], col, val, xv);
        yv[i] = v;
        s += xv[i] * v;
      }
    } else {
#pragma omp parallel for schedule(static) if (n > 20000)
      for (int64_t i = 0; i < n; i++) yv[i] = mni_k_csr_row_f64(ptr[i], ptr[i + 1], col, val, xv);
    }
  } else {
#define DIAG_CASE(D, T, S) case D: DIAG_ROWS(T, S); break;
    switch (A->dtype) { MNI_CSR_OTHER_TYPES(DIAG_CASE) default: break; }
#undef DIAG_CASE
  }
  return s;
}

/* y += O g over the rows that have off-diagonal entries (g: the ghost
 * values); with dot, returns s plus the local sum of x_i (O g)_i */
static double off_rows(const mn_csr *A, const char *g, const char *x, char *y, int dot, double s) {
  const int64_t nb = A->nbrow, *brow = A->brow, *ptr = A->optr;
  const int32_t *col = A->ocol;
  if (A->dtype == MN_FLOAT64) {
    const double *gv = (const double *)g, *xv = (const double *)x, *val = (const double *)A->oval;
    double *yv = (double *)y;
#pragma omp parallel for schedule(static) reduction(+ : s) if (nb > 20000)
    for (int64_t b = 0; b < nb; b++) {
      int64_t i = brow[b];
      double v = mni_k_csr_row_f64(ptr[i], ptr[i + 1], col, val, gv);
      yv[i] += v;
      if (dot) s += xv[i] * v;
    }
  } else {
#define OFF_CASE(D, T, S) case D: OFF_ROWS(T, S); break;
    switch (A->dtype) { MNI_CSR_OTHER_TYPES(OFF_CASE) default: break; }
#undef OFF_CASE
  }
  return s;
}

/* The overlapped product on local blocks; *xy (when not NULL, float64)
 * the local x.y, summed in the passes that compute y */
static int blocks_product(const mn_csr *A, const char *x, char *y, double *xy) {
  MN_CALL(mn_plan_begin_mem(A->ghost, (char *)x, NULL));
  double s = diag_rows(A, x, y, xy != NULL);
  MN_CALL(mn_plan_end(A->ghost));
  s = off_rows(A, A->ghost->recvbuf, x, y, xy != NULL, s);
  if (xy) *xy = s;
  return MN_SUCCESS;
}

int mni_csr_spmv_dot(const mn_csr *A, const double *x, double *y, double *xy) {
  mn_log_begin(A->ctx, MN_LOG_SPMV);
  int err = blocks_product(A, (const char *)x, (char *)y, xy);
  mn_log_end(A->ctx, MN_LOG_SPMV, err || !mn_log_on(A->ctx) ? 0 : mn_csr_log_bytes(A));
  return err;
}

void mni_csr_diag_block(const mn_csr *A, mni_csr_block *b) {
  b->n = A->nlocal;
  b->row0 = A->row0;
  b->ptr = A->dptr;
  b->col = A->dcol;
}

void mni_csr_diag_values(const mn_csr *A, double *val) {
  for (int64_t k = 0; k < A->dptr[A->nlocal]; k++) val[k] = mn_csr_val(A->dtype, A->dval, k).z.re; /* (real A) */
}

int64_t mn_csr_log_bytes(const mn_csr *A) {
  int64_t es = (int64_t)mn_dtype_size(A->dtype), nnz = A->dptr[A->nlocal] + A->optr[A->nlocal];
  return nnz * (es + 4) + 2 * (A->nlocal + 1) * 8 /* the two row pointers */
         + (A->ncloc + A->nghost) * es + A->nlocal * es;
}

static int spmv(const mn_csr *A, const mn_array *x, mn_array *y);

int mn_csr_spmv(const mn_csr *A, const mn_array *x, mn_array *y) {
  MN_CHECK(A, MN_ERR_ARG, "NULL matrix");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_spmv", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_array(S, "x", x), mn_spmd_array(S, "y", y));
  if (x) mn_buf_need(A->ctx, x->buf, "mn_csr_spmv"); /* storage lost: stop here */
  if (y) mn_buf_need(A->ctx, y->buf, "mn_csr_spmv");
  mn_log_begin(A->ctx, MN_LOG_SPMV);
  int err = spmv(A, x, y);
  mn_log_end(A->ctx, MN_LOG_SPMV, err || !mn_log_on(A->ctx) ? 0 : mn_csr_log_bytes(A));
  return err;
}

/* A vector's owned block on the device: its storage there, or, when
 * mn_array_local pinned its values to the host, a counted copy in *own
 * (of bytes; copied back by dev_block_done when written). A choice each
 * rank makes alone: neither way sends a message. */
static char *dev_block(mn_ctx *ctx, const mn_array *a, int write, size_t bytes, char **own) {
  mn_local l;
  *own = NULL;
  if (mn_buf_device_ok(a->buf)) {
    block_at(a, 1, write, &l);
    return l.data;
  }
  mn_array_local_read(a, 0, &l);
  if (ctx->ops->dev_alloc(bytes + 1, (void **)own)) mn_device_abort(ctx, "a product's vector on the device");
  if (!write && bytes && mn_copy_counted(ctx, 1, *own, l.data, bytes)) mn_device_abort(ctx, "a product's vector to the device");
  return *own;
}

static void dev_block_done(mn_ctx *ctx, mn_array *a, char *own, size_t bytes) {
  if (!own) return;
  if (a) {
    mn_local l;
    mn_array_local_in(a, 0, &l);
    if (bytes && mn_copy_counted(ctx, 0, own, l.data, bytes)) mn_device_abort(ctx, "a product's vector to the host");
  }
  ctx->ops->dev_free(own, bytes + 1);
}

/* y = A x on a device backend: x and y in the vector layout (else copied
 * to and from temporaries in it, as the host path does) */
static int spmv_dev(const mn_csr *A, const mn_array *x, mn_array *y) {
  mn_ctx *ctx = A->ctx;
  size_t es = mn_dtype_size(A->dtype);
  mn_array *xt = NULL, *yt = NULL;
  int err = MN_SUCCESS;
  if (!direct_everywhere(A, x, A->ncols)) {
    MN_CALL(mn_array_create(ctx, A->dtype, 1, &A->ncols, 0, &xt));
    MN_CALLG(err, mn_array_copy(x, xt), done);
  }
  if (!direct_everywhere(A, y, A->nrows)) MN_CALLG(err, mn_array_create(ctx, A->dtype, 1, &A->nrows, 0, &yt), done);
  char *xo, *yo;
  const char *xd = dev_block(ctx, xt ? xt : x, 0, (size_t)A->ncloc * es, &xo);
  char *yd = dev_block(ctx, yt ? yt : y, 1, (size_t)A->nlocal * es, &yo);
  mni_csr_product_dev(A, xd, yd);
  dev_block_done(ctx, NULL, xo, (size_t)A->ncloc * es);
  dev_block_done(ctx, yt ? yt : y, yo, (size_t)A->nlocal * es);
  if (yt) err = mn_array_copy(yt, y);
done:
  mn_array_destroy(&xt);
  mn_array_destroy(&yt);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

static int spmv(const mn_csr *A, const mn_array *x, mn_array *y) {
  /* global metadata: every rank finds the same error, with no agreement */
  MN_CALL(mni_csr_check_vec(A, x, A->ncols, 1, "x"));
  MN_CALL(mni_csr_check_vec(A, y, A->nrows, 0, "y"));
  if (A->ctx->ops->csr_rows) return spmv_dev(A, x, y);
  const char *xd = NULL;
  char *yd = NULL;
  mn_array *xt = NULL, *yt = NULL;
  MN_CALL(mn_csr_vec_in(A, x, A->ncols, A->col0, A->ncloc, &xd, &xt));
  int err = mn_csr_vec_out_begin(A, y, A->nrows, A->row0, A->nlocal, &yd, &yt);
  if (!err) err = blocks_product(A, xd, yd, NULL);
  if (!err) err = mn_csr_vec_out_end(y, &yt);
  mn_array_destroy(&xt);
  mn_array_destroy(&yt);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* The reverse of the ghost plan, point to point (its messages say every
 * size, so no count is exchanged): my ghost sums g (in garray's order, the
 * plan's receives') to their owners; what each rank sends me lands in in
 * at its send's offset. */
static int ghost_sums_back(const mn_csr *A, const double *g, double *in, int nc, MPI_Request *rq) {
  const mn_plan *p = A->ghost;
  int nr = 0, err = MN_SUCCESS, w = 8 * nc;
  for (int s = 0; s < p->nsend && !err; s++)
    err = mn_mpi_post(0, (char *)(in + nc * p->sends[s].off), p->sends[s].count * w, p->sends[s].peer, GHOST_T_TAG,
                      A->ctx, rq, &nr);
  for (int r = 0; r < p->nrecv && !err; r++)
    err = mn_mpi_post(1, (char *)(g + nc * p->recvs[r].off), p->recvs[r].count * w, p->recvs[r].peer, GHOST_T_TAG,
                      A->ctx, rq, &nr);
  if (nr) MPI_Waitall(nr, rq, MPI_STATUSES_IGNORE);
  return err;
}

int mn_csr_spmv_t(const mn_csr *A, const mn_array *x, mn_array *y) {
  MN_CHECK(A, MN_ERR_ARG, "NULL matrix");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_spmv_t", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_array(S, "x", x), mn_spmd_array(S, "y", y));
  /* global metadata: every rank finds the same error, with no agreement */
  MN_CALL(mni_csr_check_vec(A, x, A->nrows, 1, "x"));
  MN_CALL(mni_csr_check_vec(A, y, A->ncols, 0, "y"));
  mn_ctx *ctx = A->ctx;
  const char *xd = NULL;
  char *yd = NULL;
  mn_array *xt = NULL, *yt = NULL;
  MN_CALL(mn_csr_vec_in(A, x, A->nrows, A->row0, A->nlocal, &xd, &xt));
  int err = mn_csr_vec_out_begin(A, y, A->ncols, A->col0, A->ncloc, &yd, &yt);
  const mn_plan *p = A->ghost;
  if (!A->tsum) { /* the first call (on every rank: the matrix's state): buffers kept, agreed once */
    int64_t npc = 1;
    for (int s = 0; s < p->nsend; s++) npc += mn_mpi_npieces(p->sends[s].count * (int64_t)sizeof(mn_c128));
    for (int r = 0; r < p->nrecv; r++) npc += mn_mpi_npieces(p->recvs[r].count * (int64_t)sizeof(mn_c128)); /* enough for pairs */
    mn_csr *W = (mn_csr *)A; /* (cached scratch, not the matrix) */
    W->tsum = malloc(sizeof(mn_c128) * (size_t)(A->nghost + A->ncloc + p->send_total + 1)); /* pairs: complex */
    W->treq = malloc(sizeof(MPI_Request) * (size_t)npc);
    if (!err && (!W->tsum || !W->treq))
      err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld ghost sums", (long long)A->nghost);
    err = mn_agree(ctx, err);
    if (err) { /* on every rank, so the next call allocates again everywhere */
      free(W->tsum);
      free(W->treq);
      W->tsum = NULL;
      W->treq = NULL;
    }
  }
  /* sums of 8-byte words: one a value (double, or int64 modulo 2^64 for an
   * integer or bool A), or (re, im) pairs for a complex A */
  mn_dtype t = A->dtype;
  int nc = mni_csr_cplx(t) ? 2 : 1, ik = mni_csr_intk(t);
  double *g = (double *)A->tsum, *yl = g ? g + nc * A->nghost : NULL, *in = yl ? yl + nc * A->ncloc : NULL;
  if (!err) memset(g, 0, sizeof(double) * (size_t)(nc * (A->nghost + A->ncloc)));
  if (!err) {
    for (int64_t i = 0; i < A->nlocal; i++) {
      mni_sval xi = mn_csr_val(t, xd, i);
      for (int64_t blk = 0; blk < 2; blk++) {
        const int64_t *ptr = blk ? A->optr : A->dptr;
        const int32_t *col = blk ? A->ocol : A->dcol;
        const void *val = blk ? A->oval : A->dval;
        double *acc = blk ? g : yl;
        if (t == MN_FLOAT64) { /* the common case, without the widening */
          const double *dv = val;
          for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) acc[col[k]] += dv[k] * xi.z.re;
          continue;
        }
        for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) {
          mni_sval v = mni_sv_mul(t, mn_csr_val(t, val, k), xi);
          if (ik) ((uint64_t *)acc)[col[k]] += (uint64_t)v.i;
          else acc[nc * col[k]] += v.z.re;
          if (nc == 2) acc[2 * col[k] + 1] += v.z.im;
        }
      }
    }
    err = ghost_sums_back(A, g, in, nc, A->treq);
  }
  if (!err) { /* each rank's sums at the positions it once asked for, in rank order */
    for (int s = 0; s < p->nsend; s++) {
      const mn_msg *m = &p->sends[s];
      for (int64_t k = 0; k < m->count; k++)
        for (int c = 0; c < nc; c++) {
          int64_t to = nc * m->idx[k] + c, from = nc * (m->off + k) + c;
          if (ik) ((uint64_t *)yl)[to] += ((const uint64_t *)in)[from];
          else yl[to] += in[from];
        }
    }
    for (int64_t j = 0; j < A->ncloc; j++)
      mni_csr_put(t, yd, j, ik ? mni_sv_i(((const int64_t *)yl)[j]) : mni_sv_z(yl[nc * j], nc == 2 ? yl[2 * j + 1] : 0));
  }
  if (!err) err = mn_csr_vec_out_end(y, &yt);
  mn_array_destroy(&xt);
  mn_array_destroy(&yt);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_csr_spmm(const mn_csr *A, const mn_array *X, mn_array *Y) {
  MN_CHECK(A && X && Y, MN_ERR_ARG, "NULL matrix or block");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_spmm", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_array(S, "X", X), mn_spmd_array(S, "Y", Y));
  int ok = X->map.ndim == 2 && Y->map.ndim == 2 && X->map.shape[0] == A->ncols && Y->map.shape[0] == A->nrows &&
           X->map.shape[1] == Y->map.shape[1];
  MN_CHECK(ok, MN_ERR_SHAPE, "A (%lld x %lld) times a block of shape (%lld, %lld) into (%lld, %lld)",
           (long long)A->nrows, (long long)A->ncols, (long long)(X->map.ndim > 0 ? X->map.shape[0] : 0),
           (long long)(X->map.ndim > 1 ? X->map.shape[1] : 0), (long long)(Y->map.ndim > 0 ? Y->map.shape[0] : 0),
           (long long)(Y->map.ndim > 1 ? Y->map.shape[1] : 0));
  /* one product per column: each column is a view, moved once into the
   * vector layout (a block SpMM would share one ghost exchange) */
  int64_t k = X->map.shape[1];
  for (int64_t c = 0; c < k; c++) {
    mn_index ix[2] = {mn_all(), mn_at(c)};
    mn_array *xc = NULL, *yc = NULL;
    int err = mn_array_index((mn_array *)X, 2, ix, &xc);
    if (!err) err = mn_array_index(Y, 2, ix, &yc);
    if (!err) err = mn_csr_spmv(A, xc, yc);
    mn_array_destroy(&xc);
    mn_array_destroy(&yc);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}
