/* Distributed matrix products: replicate the smaller operand, multiply
 * each rank's block of the larger one, sum the partial products on the
 * owners of the result. Every operand is seen as a matrix: a 1-d a is one
 * row, a 1-d b one column; boxes below are in that 2-d index space. */
#include <maniple/mn_linalg.h>
#include "exchange.h"
#include "gemv_narrow.h"
#include "spmd.h"
#include <stdlib.h>
#include <string.h>
#ifdef MANIPLE_HAVE_CBLAS
#include <cblas.h>
#endif
#ifdef MANIPLE_HAVE_SCALAPACK
#include "scalapack.h"
#endif

/* The box (lo, cnt) that rank p owns of x seen as a matrix (a 1-d x is one
 * row when as_row, else one column; a 0-d x is 1 x 1). */
static int box2(const mn_array *x, int as_row, int p, int64_t *lo, int64_t *cnt) {
  int64_t l[MN_MAXDIM], c[MN_MAXDIM];
  int have = mn_map_owned_box(&x->map, x->buf->lay, p, l, c);
  if (x->map.ndim == 2) { lo[0] = l[0]; lo[1] = l[1]; cnt[0] = c[0]; cnt[1] = c[1]; }
  else if (x->map.ndim == 1 && as_row) { lo[0] = 0; cnt[0] = 1; lo[1] = l[0]; cnt[1] = c[0]; }
  else if (x->map.ndim == 1) { lo[0] = l[0]; cnt[0] = c[0]; lo[1] = 0; cnt[1] = 1; }
  else { lo[0] = lo[1] = 0; cnt[0] = cnt[1] = 1; }
  if (!have) cnt[0] = cnt[1] = 0;
  return have && cnt[0] && cnt[1];
}

/* C (m x n, dense) = A (m x k, row stride lda) B (k x n, row stride ldb) */
/* integers wrap: U is T's unsigned type, W one C does not promote to int */
#define GEMM_INT(T, U, W) \
  static void gemm_##T(int64_t m, int64_t n, int64_t k, const T *A, int64_t lda, const T *B, int64_t ldb, T *C) { \
    for (int64_t i = 0; i < m; i++) { \
      U *c = (U *)(C + i * n); \
      for (int64_t j = 0; j < n; j++) c[j] = 0; \
      for (int64_t p = 0; p < k; p++) { \
        W a = (W)(U)A[i * lda + p]; \
        const T *b = B + p * ldb; \
        for (int64_t j = 0; j < n; j++) c[j] = (U)((W)c[j] + a * (W)(U)b[j]); } } }
GEMM_INT(int8_t, uint8_t, uint32_t)
GEMM_INT(int16_t, uint16_t, uint32_t)
GEMM_INT(int32_t, uint32_t, uint32_t)
GEMM_INT(int64_t, uint64_t, uint64_t)
GEMM_INT(float, float, float)
GEMM_INT(double, double, double)

static void gemm(mn_dtype t, int64_t m, int64_t n, int64_t k, const char *A, int64_t lda, const char *B, int64_t ldb,
                 char *C) {
  if (m == 0 || n == 0) return;
#ifdef MANIPLE_HAVE_CBLAS
  int fits = m < (1LL << 31) && n < (1LL << 31) && k < (1LL << 31) && lda < (1LL << 31) && ldb < (1LL << 31);
  if (fits && t == MN_FLOAT64) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0, (const double *)A,
                (int)(lda > 0 ? lda : 1), (const double *)B, (int)(ldb > 0 ? ldb : 1), 0.0, (double *)C, (int)n);
    return;
  }
  if (fits && t == MN_FLOAT32) {
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, (int)m, (int)n, (int)k, 1.0f, (const float *)A,
                (int)(lda > 0 ? lda : 1), (const float *)B, (int)(ldb > 0 ? ldb : 1), 0.0f, (float *)C, (int)n);
    return;
  }
#endif
  switch (t) {
  case MN_INT8: case MN_UINT8: gemm_int8_t(m, n, k, (const int8_t *)A, lda, (const int8_t *)B, ldb, (int8_t *)C); break;
  case MN_INT16: case MN_UINT16:
    gemm_int16_t(m, n, k, (const int16_t *)A, lda, (const int16_t *)B, ldb, (int16_t *)C);
    break;
  case MN_INT32: case MN_UINT32:
    gemm_int32_t(m, n, k, (const int32_t *)A, lda, (const int32_t *)B, ldb, (int32_t *)C);
    break;
  case MN_INT64: case MN_UINT64:
    gemm_int64_t(m, n, k, (const int64_t *)A, lda, (const int64_t *)B, ldb, (int64_t *)C);
    break;
  case MN_FLOAT32: gemm_float(m, n, k, (const float *)A, lda, (const float *)B, ldb, (float *)C); break;
  case MN_FLOAT64: gemm_double(m, n, k, (const double *)A, lda, (const double *)B, ldb, (double *)C); break;
  default: { /* bool: any of (a and b) */
    const uint8_t *a = (const uint8_t *)A, *b = (const uint8_t *)B;
    uint8_t *c = (uint8_t *)C;
    for (int64_t i = 0; i < m; i++)
      for (int64_t j = 0; j < n; j++) {
        uint8_t s = 0;
        for (int64_t p = 0; p < k && !s; p++) s = a[i * lda + p] && b[p * ldb + j];
        c[i * n + j] = s;
      }
  }
  }
}

#ifdef MANIPLE_HAVE_CBLAS
/* C (m x n, dense) = A B through BLAS with each of A and B read in place:
 * element strides (rows, columns) with one of them 1, so neither is copied;
 * one column or one row of the result is a gemv. 0 when BLAS cannot take it. */
static int blas_strided(mn_dtype t, int64_t m, int64_t n, int64_t k, const char *A, const int64_t sa[2],
                        const char *B, const int64_t sb[2], char *C) {
  if (t != MN_FLOAT64 && t != MN_FLOAT32) return 0;
  const int64_t LIM = 1LL << 31;
  if (m >= LIM || n >= LIM || k >= LIM || m == 0 || n == 0 || k == 0) return 0;
  /* a matrix (r x c) is row-major with ld when its column stride is 1, else
   * column-major (transposed) with ld its column stride when its row stride is 1 */
#define LAYOUT(s, r, c, tr, ld)                                                         \
  int tr, ld;                                                                           \
  if (s[1] == 1 && (r == 1 || (s[0] >= c && s[0] < LIM))) { tr = 0; ld = (int)(r == 1 ? c : s[0]); } \
  else if (s[0] == 1 && (c == 1 || (s[1] >= r && s[1] < LIM))) { tr = 1; ld = (int)(c == 1 ? r : s[1]); } \
  else return 0;
  LAYOUT(sa, m, k, ta, lda)
  LAYOUT(sb, k, n, tb, ldb)
#undef LAYOUT
  CBLAS_TRANSPOSE TA = ta ? CblasTrans : CblasNoTrans, TB = tb ? CblasTrans : CblasNoTrans;
  if (lda < 1) lda = 1;
  if (ldb < 1) ldb = 1;
  if (n == 1) { /* C[:, 0] = A b: b's elements are sb[0] apart */
    int inc = (int)sb[0];
    if (sb[0] < 1 || sb[0] >= LIM) return 0;
    if (ta && (inc == 1 || k == 1) && mni_gemv_t_narrow(t, k, m, A, lda, B, C)) return 1;
    if (t == MN_FLOAT64)
      cblas_dgemv(CblasRowMajor, TA, ta ? (int)k : (int)m, ta ? (int)m : (int)k, 1.0, (const double *)A, lda,
                  (const double *)B, k > 1 ? inc : 1, 0.0, (double *)C, 1);
    else
      cblas_sgemv(CblasRowMajor, TA, ta ? (int)k : (int)m, ta ? (int)m : (int)k, 1.0f, (const float *)A, lda,
                  (const float *)B, k > 1 ? inc : 1, 0.0f, (float *)C, 1);
    return 1;
  }
  if (m == 1) { /* C[0, :] = B^T a: a's elements are sa[1] apart */
    int inc = (int)sa[1];
    if (sa[1] < 1 || sa[1] >= LIM) return 0;
    if (!tb && (inc == 1 || k == 1) && mni_gemv_t_narrow(t, k, n, B, ldb, A, C)) return 1;
    CBLAS_TRANSPOSE TBt = tb ? CblasNoTrans : CblasTrans;
    if (t == MN_FLOAT64)
      cblas_dgemv(CblasRowMajor, TBt, tb ? (int)n : (int)k, tb ? (int)k : (int)n, 1.0, (const double *)B, ldb,
                  (const double *)A, k > 1 ? inc : 1, 0.0, (double *)C, 1);
    else
      cblas_sgemv(CblasRowMajor, TBt, tb ? (int)n : (int)k, tb ? (int)k : (int)n, 1.0f, (const float *)B, ldb,
                  (const float *)A, k > 1 ? inc : 1, 0.0f, (float *)C, 1);
    return 1;
  }
  if (t == MN_FLOAT64)
    cblas_dgemm(CblasRowMajor, TA, TB, (int)m, (int)n, (int)k, 1.0, (const double *)A, lda, (const double *)B, ldb,
                0.0, (double *)C, (int)n);
  else
    cblas_sgemm(CblasRowMajor, TA, TB, (int)m, (int)n, (int)k, 1.0f, (const float *)A, lda, (const float *)B, ldb,
                0.0f, (float *)C, (int)n);
  return 1;
}
#endif

/* The big operand's block on one side (dev: the device's), read only: its
 * origin, and its strides seen as a matrix (st) */
static const char *block_of(const mn_array *big, int dev, int64_t st[2]) {
  mn_local l;
  mn_array_local_read(big, dev, &l);
  st[0] = l.stride[0];
  st[1] = big->map.ndim == 2 ? l.stride[1] : l.stride[0]; /* (1-d: one of the extents is 1) */
  return l.data;
}

/* The emulated device's gemm: the host's, with the three regions open */
int mni_emu_gemm(int t, int64_t m, int64_t n, int64_t k, const char *A, int64_t lda, const char *B, int64_t ldb,
                 char *C) {
  size_t es = mn_dtype_size((mn_dtype)t);
  size_t sa = m && k ? (size_t)((m - 1) * lda + k) * es : 0, sb = k && n ? (size_t)((k - 1) * ldb + n) * es : 0;
  size_t sc = (size_t)(m * n) * es;
  mni_emu_open(A, sa, 0);
  mni_emu_open(B, sb, 0);
  mni_emu_open(C, sc, 1);
  if (k == 0) memset(C, 0, sc);
  else gemm((mn_dtype)t, m, n, k, A, lda, B, ldb, C);
  mni_emu_close(C, sc);
  mni_emu_close(B, sb);
  mni_emu_close(A, sa);
  return MN_SUCCESS;
}

/* This rank's partial product on the device, where the big operand's block
 * is: the replicated small operand goes there ("h2d"), the block is packed
 * dense there, and only the partial product comes back ("d2h"). */
static int gemm_dev(const mn_array *big, int rep_a, const int64_t *blo, const int64_t *bcnt, const char *full,
                    int64_t ns, int64_t m, int64_t k, int64_t n, char *part, int64_t np) {
  mn_ctx *ctx = big->ctx;
  const mn_backend_ops *ops = ctx->ops;
  mn_dtype t = big->dtype;
  size_t es = mn_dtype_size(t), fb = (size_t)ns * es + 1, bb = (size_t)(bcnt[0] * bcnt[1]) * es + 1,
         pb = (size_t)np * es + 1;
  void *fd = NULL, *bd = NULL, *pd = NULL;
  int err = ops->dev_alloc(fb, &fd);
  if (!err) err = ops->dev_alloc(bb, &bd);
  if (!err) err = ops->dev_alloc(pb, &pd);
  if (!err && ns) err = mn_copy_counted(ctx, 1, fd, (char *)full, fb - 1);
  if (!err) {
    int64_t st[2], dst[2] = {bcnt[1], 1};
    const char *src = block_of(big, 1, st);
    err = ops->copy_box(2, bcnt, es, src, st, bd, dst);
  }
  const char *F = fd;
  if (!err && rep_a) /* (m x kr) = A[:, k0:k1], times my rows k0..k1 of B */
    err = ops->gemm(t, m, bcnt[1], bcnt[0], F + blo[0] * (int64_t)es, k, bd, bcnt[1], pd);
  else if (!err) /* my block of A times B[k0:k1, :] */
    err = ops->gemm(t, bcnt[0], n, bcnt[1], bd, bcnt[1], F + blo[1] * n * (int64_t)es, n, pd);
  if (!err && np) err = mn_copy_counted(ctx, 0, pd, part, pb - 1);
  if (fd) ops->dev_free(fd, fb);
  if (bd) ops->dev_free(bd, bb);
  if (pd) ops->dev_free(pd, pb);
  return err;
}

/* Does each rank's block of big need only the part of small that rank
 * owns (error . X with both split by rows)? Then small is not gathered:
 * each rank puts its own part in place. Every rank decides alike, from the
 * layouts alone. */
static int small_is_local(const mn_array *big, const mn_array *small, int rep_a, int64_t m, int64_t n) {
  for (int q = 0; q < big->ctx->size; q++) {
    int64_t blo[2], bcnt[2], slo[2], scnt[2], nlo[2], ncnt[2];
    if (!box2(big, !rep_a, q, blo, bcnt)) continue;
    if (rep_a) { nlo[0] = 0; ncnt[0] = m; nlo[1] = blo[0]; ncnt[1] = bcnt[0]; }
    else { nlo[0] = blo[1]; ncnt[0] = bcnt[1]; nlo[1] = 0; ncnt[1] = n; }
    if (!box2(small, rep_a, q, slo, scnt) || slo[0] != nlo[0] || slo[1] != nlo[1] || scnt[0] != ncnt[0] ||
        scnt[1] != ncnt[1])
      return 0;
  }
  return 1;
}

/* This rank's part of x at its place in full (x's global shape, dense) */
static void put_own(const mn_array *x, char *full) {
  mn_local l;
  mn_array_local_read(x, 0, &l);
  int nd = x->map.ndim;
  if (!l.data || !mn_box_size(nd, l.count)) return;
  int64_t ds[MN_MAXDIM], off = 0;
  mn_dense_strides(nd, x->map.shape, ds);
  for (int d = 0; d < nd; d++) off += l.lo[d] * ds[d];
  size_t es = mn_dtype_size(x->dtype);
  mn_strided_copy(nd, l.count, es, l.data, l.stride, full + off * (int64_t)es, ds);
}

/* Rank q's block of big (blo, bcnt; 0 when it has none) and the box of the
 * (m x n) result its partial product covers (lo, cnt): columns blo[1]..
 * of all m rows (rep_a: big is b), else rows blo[0].. of all n columns. */
static int partial_box(const mn_array *big, int rep_a, int q, int64_t m, int64_t n, int64_t *blo, int64_t *bcnt,
                       int64_t *lo, int64_t *cnt) {
  int have = box2(big, !rep_a, q, blo, bcnt);
  if (rep_a) { lo[0] = 0; cnt[0] = m; lo[1] = blo[1]; cnt[1] = have ? bcnt[1] : 0; }
  else { lo[0] = blo[0]; cnt[0] = have ? bcnt[0] : 0; lo[1] = 0; cnt[1] = n; }
  return have;
}

/* Is every rank's partial product exactly its own block of R? */
static int partials_owned(const mn_array *big, const mn_array *R, int rep_a, int r_row, int64_t m, int64_t n) {
  for (int q = 0; q < big->ctx->size; q++) {
    int64_t qlo[2], qcnt[2], pl[2], pc[2], rl[2], rc[2];
    partial_box(big, rep_a, q, m, n, qlo, qcnt, pl, pc);
    int rh = box2(R, r_row, q, rl, rc);
    int pe = pc[0] * pc[1] == 0, re = !rh;
    if (pe != re) return 0;
    if (!pe && (pl[0] != rl[0] || pl[1] != rl[1] || pc[0] != rc[0] || pc[1] != rc[1])) return 0;
  }
  return 1;
}

static void add_into(mn_dtype t, char *dst, const char *src, int64_t n) {
  switch (t) {
  case MN_BOOL: for (int64_t i = 0; i < n; i++) dst[i] = dst[i] || src[i]; break;
  case MN_INT8: case MN_UINT8:
    for (int64_t i = 0; i < n; i++) ((uint8_t *)dst)[i] = (uint8_t)(((uint8_t *)dst)[i] + ((const uint8_t *)src)[i]);
    break;
  case MN_INT16: case MN_UINT16:
    for (int64_t i = 0; i < n; i++)
      ((uint16_t *)dst)[i] = (uint16_t)(((uint16_t *)dst)[i] + ((const uint16_t *)src)[i]);
    break;
  case MN_INT32: case MN_UINT32:
    for (int64_t i = 0; i < n; i++) ((uint32_t *)dst)[i] += ((const uint32_t *)src)[i];
    break;
  case MN_INT64: case MN_UINT64:
    for (int64_t i = 0; i < n; i++) ((uint64_t *)dst)[i] += ((const uint64_t *)src)[i];
    break;
  case MN_FLOAT32: for (int64_t i = 0; i < n; i++) ((float *)dst)[i] += ((const float *)src)[i]; break;
  default: for (int64_t i = 0; i < n; i++) ((double *)dst)[i] += ((const double *)src)[i]; break;
  }
}

static int check(const mn_array *a, const mn_array *b, const mn_array *out) {
  MN_CHECK(a && b && out, MN_ERR_ARG, "NULL array");
  MN_CHECK(a->ctx == b->ctx && a->ctx == out->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  int na = a->map.ndim, nb = b->map.ndim;
  MN_CHECK(na >= 1 && na <= 2 && nb >= 1 && nb <= 2, MN_ERR_SHAPE,
           "matmul takes 1-d or 2-d operands here, got %d-d and %d-d", na, nb);
  MN_CHECK(a->dtype == b->dtype, MN_ERR_DTYPE, "matmul operands must have one dtype, got %s and %s",
           mn_dtype_name(a->dtype), mn_dtype_name(b->dtype));
  /* NumPy sums float16 products in float: the caller multiplies float32 copies */
  MN_CHECK(a->dtype != MN_FLOAT16, MN_ERR_DTYPE, "matmul has no float16 kernel (multiply float32 copies)");
  MN_CHECK(!mn_is_complex(a->dtype), MN_ERR_DTYPE, "matmul has no %s kernel", mn_dtype_name(a->dtype));
  int64_t k = a->map.shape[na - 1], kb = b->map.shape[nb == 2 ? 0 : 0];
  if (k != kb) {
    char sa[128], sb[128];
    mn_shape_str(na, a->map.shape, sa, sizeof sa);
    mn_shape_str(nb, b->map.shape, sb, sizeof sb);
    return MN_ERR(MN_ERR_SHAPE, "matmul: mismatch in its core dimension: %s @ %s (size %lld is different from %lld)",
                  sa, sb, (long long)k, (long long)kb);
  }
  int64_t want[2];
  int nd = 0;
  if (na == 2) want[nd++] = a->map.shape[0];
  if (nb == 2) want[nd++] = b->map.shape[1];
  int same = out->map.ndim == nd;
  for (int d = 0; same && d < nd; d++) same = out->map.shape[d] == want[d];
  if (!same) {
    char so[128], sw[128];
    mn_shape_str(out->map.ndim, out->map.shape, so, sizeof so);
    mn_shape_str(nd, want, sw, sizeof sw);
    return MN_ERR(MN_ERR_SHAPE, "matmul gives shape %s, but out has shape %s", sw, so);
  }
  return MN_SUCCESS;
}

int mn_array_matmul(const mn_array *a, const mn_array *b, mn_array *out) {
  MN_SPMD(a ? a->ctx : NULL, "mn_array_matmul", mn_spmd_array(S, "a", a), mn_spmd_array(S, "b", b),
          mn_spmd_array(S, "out", out));
  MN_CALL(check(a, b, out));
#ifdef MANIPLE_HAVE_SCALAPACK
  if (mn_matmul_grid_wanted(a, b)) return mn_matmul_grid(a, b, out);
#endif
  mn_ctx *ctx = a->ctx;
  int P = ctx->size, me = ctx->rank, err = 0, own_r = 0;
  mn_dtype t = a->dtype;
  size_t es = mn_dtype_size(t);
  int64_t m = a->map.ndim == 2 ? a->map.shape[0] : 1, k = a->map.shape[a->map.ndim - 1];
  int64_t n = b->map.ndim == 2 ? b->map.shape[1] : 1;
  /* the result lands in R (a base of out's shape and dtype t), then out */
  mn_array *R = out;
  if (out->is_view || out->dtype != t) {
    MN_CALL(mn_array_create_like(out, t, &R));
    own_r = 1;
  }
  /* replicate the operand that moves fewer elements: its size (unless
   * each rank owns what it needs) plus the partial products' reduction
   * (unless each partial is its rank's block of R). Two row-split
   * 1000^2 matrices: b gathered, a's rows times it, no reduction */
  int r_row = a->map.ndim == 1 && b->map.ndim == 2; /* out (n,) is one row */
  int64_t cost[2];
  int is_local[2], is_owned[2];
  for (int ra = 0; ra < 2; ra++) {
    is_local[ra] = small_is_local(ra ? b : a, ra ? a : b, ra, m, n);
    is_owned[ra] = partials_owned(ra ? b : a, R, ra, r_row, m, n);
    cost[ra] = (is_local[ra] ? 0 : mn_array_size(ra ? a : b)) + (is_owned[ra] ? 0 : m * n);
  }
  int rep_a = cost[1] < cost[0] || (cost[1] == cost[0] && mn_array_size(a) <= mn_array_size(b));
  const mn_array *big = rep_a ? b : a, *small = rep_a ? a : b;
  int64_t ns = mn_array_size(small), blo[2], bcnt[2], plo[2], pcnt[2];
  char *full = mn_malloc((size_t)(ns ? ns : 1) * es);
  MN_CALLG(err, mn_agree(ctx, full ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld elements to replicate", (long long)ns)), done);
  int local = is_local[rep_a]; /* else every rank gets all of small */
  if (!local) MN_CALLG(err, mn_array_allgather(small, full), done);
  /* my block of the big operand, dense */
  /* my partial product covers rows plo.. (all columns) or columns (all rows) */
  int have = partial_box(big, rep_a, me, m, n, blo, bcnt, plo, pcnt);
  int64_t nb = have ? bcnt[0] * bcnt[1] : 0;
  char *bd = NULL; /* the block copied dense, where BLAS cannot read it in place */
  int64_t np = pcnt[0] * pcnt[1];
  /* each rank's partial product exactly its block of R (X w with X and the
   * result split by rows alike): no exchange, and the product goes straight
   * into R's storage where that is dense */
  int own_parts = is_owned[rep_a];
  char *rdata = NULL;
  if (own_parts && np) {
    mn_local rl;
    mn_array_local_in(R, 0, &rl);
    if (mn_strides_dense(R->map.ndim, rl.count, rl.stride)) rdata = rl.data;
  }
  char *part = rdata ? rdata : mn_calloc((size_t)(np ? np : 1) * es);
  if (!err && !part) err = MN_ERR(MN_ERR_MEM, "cannot allocate the local product (%lld elements)", (long long)np);
  err = mn_agree(ctx, err);
  /* where the big operand's values are, for floats cuBLAS multiplies */
  int dev = have && ctx->ops->gemm && (t == MN_FLOAT32 || t == MN_FLOAT64) && mn_buf_device_ok(big->buf) &&
            (big->buf->valid & MN_VALID_DEV);
  if (!err && dev) {
    if (local) put_own(small, full);
    err = gemm_dev(big, rep_a, blo, bcnt, full, ns, m, k, n, part, np);
  } else if (!err && have) {
    int64_t st[2], dst[2] = {bcnt[1], 1};
    const char *src = block_of(big, 0, st);
    int done_blas = 0;
#ifdef MANIPLE_HAVE_CBLAS
    int64_t sf[2];
    const char *sp;
    if (local) { /* my own part of small, read in place */
      mn_local sl;
      mn_array_local_read(small, 0, &sl);
      sp = sl.data;
      if (small->map.ndim == 2) { sf[0] = sl.stride[0]; sf[1] = sl.stride[1]; }
      else if (rep_a) { sf[0] = bcnt[0]; sf[1] = sl.stride[0]; } /* one row */
      else { sf[0] = sl.stride[0]; sf[1] = 1; }                   /* one column */
    } else if (rep_a) { /* full A (m x k) dense, from column blo[0] */
      sp = full + blo[0] * (int64_t)es; sf[0] = k; sf[1] = 1;
    } else { /* rows blo[1].. of the full B (k x n) dense */
      sp = full + blo[1] * n * (int64_t)es; sf[0] = n; sf[1] = 1;
    }
    if (rep_a) /* A's columns k0..k1 times my block of B, in place */
      done_blas = blas_strided(t, m, bcnt[1], bcnt[0], sp, sf, src, st, part);
    else /* my block of A, in place, times B's rows k0..k1 */
      done_blas = blas_strided(t, bcnt[0], n, bcnt[1], src, st, sp, sf, part);
#endif
    if (!done_blas && local) put_own(small, full);
    if (!done_blas && !(bd = mn_malloc((size_t)(nb ? nb : 1) * es)))
      err = MN_ERR(MN_ERR_MEM, "cannot allocate a copy of the local block (%lld elements)", (long long)nb);
    if (!done_blas && bd) mn_strided_copy(2, bcnt, es, src, st, bd, dst);
    if (done_blas || err) {
    } else if (rep_a) /* (m x kr) = A[:, k0:k1], times my rows k0..k1 of B */
      gemm(t, m, bcnt[1], bcnt[0], full + blo[0] * (int64_t)es, k, bd, bcnt[1], part);
    else /* my block of A times B[k0:k1, :] */
      gemm(t, bcnt[0], n, bcnt[1], bd, bcnt[1], full + blo[1] * n * (int64_t)es, n, part);
  }
  mn_free(bd);
  mn_free(full);
  full = NULL;
  if (own_parts) {
    if (!err && np && !rdata) mn_local_store(R, part);
    if (!rdata) mn_free(part);
    if (!err && R != out) err = mn_array_copy(R, out);
    goto done;
  }
  /* partials to the owners of R, summed there in rank order */
  int64_t rlo[2], rcnt[2];
  int rhave = box2(R, r_row, me, rlo, rcnt);
  int64_t nr = rhave ? rcnt[0] * rcnt[1] : 0;
  char *res = mn_calloc((size_t)(nr ? nr : 1) * es), **rb = calloc((size_t)P, sizeof(char *));
  char **sb = calloc((size_t)P, sizeof(char *));
  int64_t (*rbox)[4] = calloc((size_t)P, sizeof *rbox), npc = 1;
  MPI_Request *req = NULL;
  if (!err && (!res || !rb || !sb || !rbox)) err = MN_ERR(MN_ERR_MEM, "cannot allocate the result exchange");
  for (int q = 0; q < P && !err; q++) {
    int64_t qlo[2], qcnt[2], lo[2], c[2];
    /* what q sends me: q's partial box meets my block of R */
    int64_t pl[2], pc[2];
    int qb = partial_box(big, rep_a, q, m, n, qlo, qcnt, pl, pc);
    if (rhave && qb && mn_box_intersect(2, rlo, rcnt, pl, pc, lo, c)) {
      rb[q] = mn_malloc((size_t)(c[0] * c[1]) * es);
      if (!rb[q]) { err = MN_ERR(MN_ERR_MEM, "cannot allocate a partials buffer"); break; }
      rbox[q][0] = lo[0]; rbox[q][1] = lo[1]; rbox[q][2] = c[0]; rbox[q][3] = c[1];
      if (q != me) npc += mn_mpi_npieces(c[0] * c[1] * (int64_t)es);
    }
    /* what I send q: my partial box meets q's block of R */
    int64_t olo[2], ocnt[2];
    int qr = box2(R, r_row, q, olo, ocnt);
    if (np && qr && mn_box_intersect(2, olo, ocnt, plo, pcnt, lo, c)) {
      sb[q] = mn_malloc((size_t)(c[0] * c[1]) * es);
      if (!sb[q]) { err = MN_ERR(MN_ERR_MEM, "cannot allocate a partials buffer"); break; }
      int64_t sst[2] = {pcnt[1], 1}, dst[2] = {c[1], 1};
      mn_strided_copy(2, c, es, part + ((lo[0] - plo[0]) * pcnt[1] + (lo[1] - plo[1])) * (int64_t)es, sst, sb[q], dst);
      if (q != me) npc += mn_mpi_npieces(c[0] * c[1] * (int64_t)es);
    }
  }
  if (!err) {
    req = malloc(sizeof(MPI_Request) * (size_t)npc);
    if (!req) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld requests", (long long)npc);
  }
  err = mn_agree(ctx, err);
  int nreq = 0;
  for (int q = 0; q < P && !err; q++) {
    if (q == me) continue;
    if (rb[q]) err = mn_mpi_post(0, rb[q], rbox[q][2] * rbox[q][3] * (int64_t)es, q, 95, ctx, req, &nreq);
    if (!err && sb[q]) {
      int64_t bytes = 0, olo[2], ocnt[2], lo[2], c[2];
      box2(R, r_row, q, olo, ocnt);
      mn_box_intersect(2, olo, ocnt, plo, pcnt, lo, c);
      bytes = c[0] * c[1] * (int64_t)es;
      err = mn_mpi_post(1, sb[q], bytes, q, 95, ctx, req, &nreq);
    }
  }
  if (nreq) MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
  if (!err && rhave) {
    if (rb[me] && sb[me]) memcpy(rb[me], sb[me], (size_t)(rbox[me][2] * rbox[me][3]) * es);
    for (int q = 0; q < P; q++) {
      if (!rb[q]) continue;
      for (int64_t i = 0; i < rbox[q][2]; i++)
        add_into(t, res + ((rbox[q][0] - rlo[0] + i) * rcnt[1] + (rbox[q][1] - rlo[1])) * (int64_t)es,
                 rb[q] + i * rbox[q][3] * (int64_t)es, rbox[q][3]);
    }
    mn_local_store(R, res);
  }
  for (int q = 0; q < P && rb; q++) { mn_free(rb[q]); if (sb) mn_free(sb[q]); }
  free(rb); free(sb); free(rbox); free(req); mn_free(res); mn_free(part);
  if (!err && R != out) err = mn_array_copy(R, out);
done:
  mn_free(full);
  if (own_r) mn_array_destroy(&R);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
