/* Dense factorisations on every rank through ScaLAPACK. The matrix is moved
 * into a block-cyclic grid (block_cyclic.c) stored row-major, which
 * ScaLAPACK reads as the column-major transpose B = A^T, so each routine is
 * chosen for B: Cholesky of A is potrf('U') of B, A x = b is getrs('T'),
 * inv(A) = inv(B)^T is getri read back row-major, and QR of A is the LQ
 * factorisation of B (gelqf, orglq). */
#include <maniple/mn_linalg.h>
#include "block_cyclic.h"
#include <stdlib.h>
#include <string.h>

#ifndef MANIPLE_HAVE_SCALAPACK
static int absent(void) {
  return MN_ERR(MN_ERR_NOTIMPL, "this build has no ScaLAPACK (Debian: libscalapack-openmpi-dev; docs/building.md)");
}
int mn_array_cholesky(const mn_array *a, mn_array **l) { (void)a; (void)l; return absent(); }
int mn_array_solve(const mn_array *a, const mn_array *b, mn_array **x) { (void)a; (void)b; (void)x; return absent(); }
int mn_array_inv(const mn_array *a, mn_array **x) { (void)a; (void)x; return absent(); }
int mn_array_qr(const mn_array *a, mn_array **q, mn_array **r) { (void)a; (void)q; (void)r; return absent(); }
int mn_array_slogdet(const mn_array *a, double sign[2], double *logabsdet) {
  (void)a; (void)sign; (void)logabsdet; return absent();
}
#else
#include <math.h>
#include "scalapack.h"

/* Zero the strictly upper (upper = 1) or lower triangle of x's local part. */
static int zero_triangle(mn_array *x, int upper) {
  mn_local l;
  MN_CALL(mn_array_local_in(x, 0, &l));
  size_t es = mn_dtype_size(x->dtype);
  for (int64_t i = 0; l.data && i < l.count[0]; i++) {
    int64_t gi = l.lo[0] + i;
    for (int64_t j = 0; j < l.count[1]; j++) {
      int64_t gj = l.lo[1] + j;
      if (upper ? gj > gi : gj < gi) memset((char *)l.data + (i * l.stride[0] + j * l.stride[1]) * (int64_t)es, 0, es);
    }
  }
  return MN_SUCCESS;
}

int mn_array_cholesky(const mn_array *a, mn_array **l) {
  *l = NULL;
  MN_CALL(mn_sl_square(a, "cholesky"));
  int64_t n = a->map.shape[0];
  mn_sl_grid G;
  MN_CALL(mn_sl_open(&G, a->ctx, a->dtype, n, n, "cholesky", 1));
  int desc[9], info = 0, ni = (int)n, err;
  char *loc = mn_sl_local(&G.g, G.es);
  err = mn_agree(a->ctx, loc ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a %lld x %lld matrix",
                                          (long long)n, (long long)n));
  if (!err) err = mn_bc_from_array(&G.g, a, 0, 0, loc);
  if (!err && n) {
    mn_sl_desc(&G.g, &G, desc);
    G.f.potrf("U", &ni, loc, &MN_SL_ONE, &MN_SL_ONE, desc, &info, 1);
    err = mn_sl_status(a->ctx, info, "potrf", "Matrix is not positive definite");
  }
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, 2, a->map.shape, l);
  if (!err) err = mn_bc_to_array(&G.g, loc, 0, 0, *l);
  if (!err) err = zero_triangle(*l, 1); /* ScaLAPACK leaves A's other triangle */
  mn_free(loc);
  mn_sl_close(&G);
  if (err) { mn_array_destroy(l); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

/* getrf of a's matrix into G and loc, pivots in *ipiv; *singular (when not
 * NULL) is set for an exactly singular matrix, which is then no error */
static int lu(const mn_array *a, mn_sl_grid *G, char **loc, int **ipiv, int *desc, int *singular) {
  int64_t n = a->map.shape[0];
  int ni = (int)n, info = 0;
  *loc = NULL;
  *ipiv = NULL;
  MN_CALL(mn_sl_open(G, a->ctx, a->dtype, n, n, "solve and inv", 0));
  *loc = mn_sl_local(&G->g, G->es);
  *ipiv = malloc(sizeof(int) * (size_t)(G->g.ln + G->g.nb));
  int err = mn_agree(a->ctx, *loc && *ipiv ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a "
                                                         "%lld x %lld matrix", (long long)n, (long long)n));
  if (!err) err = mn_bc_from_array(&G->g, a, 0, 0, *loc);
  mn_sl_desc(&G->g, G, desc);
  if (!err && n) {
    G->f.getrf(&ni, &ni, *loc, &MN_SL_ONE, &MN_SL_ONE, desc, *ipiv, &info);
    if (singular) *singular = info > 0; /* (info is the same on every rank) */
    err = mn_sl_status(a->ctx, singular && info > 0 ? 0 : info, "getrf", "Singular matrix");
  }
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}

int mn_array_solve(const mn_array *a, const mn_array *b, mn_array **x) {
  *x = NULL;
  MN_CALL(mn_sl_square(a, "solve"));
  int64_t n = a->map.shape[0], k = b->map.ndim == 2 ? b->map.shape[1] : 1;
  if ((b->map.ndim != 1 && b->map.ndim != 2) || b->map.shape[0] != n)
    return MN_ERR(MN_ERR_SHAPE, "solve: b of %d dimension(s) and %lld rows does not match a %lld x %lld matrix",
                  b->map.ndim, (long long)(b->map.ndim ? b->map.shape[0] : 0), (long long)n, (long long)n);
  if (b->dtype != a->dtype)
    return MN_ERR(MN_ERR_DTYPE, "solve: b is %s and a %s (cast them to one dtype)", mn_dtype_name(b->dtype),
                  mn_dtype_name(a->dtype));
  if (k > INT32_MAX) return MN_ERR(MN_ERR_NOTIMPL, "solve: %lld right-hand sides exceed ScaLAPACK's int", (long long)k);
  mn_sl_grid G;
  mn_bc H = {0};
  char *loc = NULL, *rhs = NULL;
  int *ipiv = NULL, desc[9], dh[9], info = 0, ni = (int)n, ki = (int)k;
  mn_array *bt = NULL, *xt = NULL;
  int err = lu(a, &G, &loc, &ipiv, desc, NULL);
  /* the right-hand sides, column-major n x k: stored as the rows of b^T,
   * on the same cells as A */
  if (!err && b->map.ndim == 2) err = mn_array_transpose((mn_array *)b, (int[]){1, 0}, &bt);
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, b->map.ndim, b->map.shape, x);
  if (!err && b->map.ndim == 2) err = mn_array_transpose(*x, (int[]){1, 0}, &xt);
  if (!err) err = mn_bc_init(&H, a->ctx, k, n, G.g.nb, G.g.pr, G.g.pc, G.g.rank_of);
  if (!err) {
    rhs = mn_sl_local(&H, G.es);
    err = mn_agree(a->ctx, rhs ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld right-hand sides", (long long)k));
  }
  if (!err) err = mn_bc_from_array(&H, bt ? bt : b, 0, 0, rhs);
  if (!err && n && k) {
    mn_sl_desc(&H, &G, dh);
    G.f.getrs("T", &ni, &ki, loc, &MN_SL_ONE, &MN_SL_ONE, desc, ipiv, rhs, &MN_SL_ONE, &MN_SL_ONE, dh, &info, 1);
    err = mn_sl_status(a->ctx, info, "getrs", "Singular matrix");
  }
  if (!err) err = mn_bc_to_array(&H, rhs, 0, 0, xt ? xt : *x);
  mn_array_destroy(&bt);
  mn_array_destroy(&xt);
  mn_free(loc);
  mn_free(rhs);
  free(ipiv);
  mn_bc_free(&H);
  mn_sl_close(&G);
  if (err) { mn_array_destroy(x); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

int mn_array_inv(const mn_array *a, mn_array **x) {
  *x = NULL;
  MN_CALL(mn_sl_square(a, "inv"));
  int64_t n = a->map.shape[0];
  mn_sl_grid G;
  char *loc = NULL, *work = NULL;
  int *ipiv = NULL, *iwork = NULL, desc[9], info = 0, ni = (int)n;
  int err = lu(a, &G, &loc, &ipiv, desc, NULL);
  if (!err && n) { /* getri of B: inv(B) = inv(A)^T, which row-major storage reads as inv(A) */
    double wq[2] = {0, 0};
    int iq = 0, lw, liw;
    G.f.getri(&ni, loc, &MN_SL_ONE, &MN_SL_ONE, desc, ipiv, wq, &MN_SL_QUERY, &iq, &MN_SL_QUERY, &info);
    lw = mn_sl_work_size(&G, wq);
    liw = iq > 1 ? iq : 1;
    work = mn_malloc((size_t)lw * G.es + MN_SL_PAD);
    iwork = malloc(sizeof(int) * (size_t)liw);
    err = mn_agree(a->ctx, work && iwork ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate getri's workspace"));
    if (!err) {
      G.f.getri(&ni, loc, &MN_SL_ONE, &MN_SL_ONE, desc, ipiv, work, &lw, iwork, &liw, &info);
      err = mn_sl_status(a->ctx, info, "getri", "Singular matrix");
    }
  }
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, 2, a->map.shape, x);
  if (!err) err = mn_bc_to_array(&G.g, loc, 0, 0, *x);
  mn_free(loc);
  mn_free(work);
  free(ipiv);
  free(iwork);
  mn_sl_close(&G);
  if (err) { mn_array_destroy(x); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

/* One rank's share of slogdet: its diagonal elements of U and its pivots */
typedef struct {
  double logsum, negatives, swaps, zeros, re, im; /* re, im: the product of the complex phases */
} share;

static share diagonal_share(const mn_sl_grid *G, const char *loc, const int *ipiv, mn_dtype t) {
  const mn_bc *g = &G->g;
  share s = {0, 0, 0, 0, 1, 0};
  int cplx = t == MN_COMPLEX64 || t == MN_COMPLEX128, single = t == MN_FLOAT32 || t == MN_COMPLEX64;
  for (int64_t li = 0; loc && li < g->lm; li++) {
    int64_t gi = ((li / g->nb) * g->pr + g->myr) * g->nb + li % g->nb;
    for (int64_t lj = 0; lj < g->ln; lj++) { /* the diagonal: row gi, column gi */
      int64_t gj = ((lj / g->nb) * g->pc + g->myc) * g->nb + lj % g->nb;
      if (gj != gi) continue;
      const char *e = loc + (size_t)(li * g->ln + lj) * G->es;
      double re = single ? ((const float *)e)[0] : ((const double *)e)[0];
      double im = cplx ? (single ? ((const float *)e)[1] : ((const double *)e)[1]) : 0.0;
      double m = cplx ? hypot(re, im) : fabs(re);
      if (m == 0) { s.zeros += 1; continue; }
      s.logsum += log(m);
      if (!cplx) s.negatives += re < 0;
      else { /* the phase times re/m + i im/m, as NumPy's running product */
        double pr = s.re * (re / m) - s.im * (im / m), pi = s.re * (im / m) + s.im * (re / m);
        s.re = pr, s.im = pi;
      }
    }
  }
  /* the pivots of B's rows, which are A's columns: held by every grid row,
   * counted by the first */
  for (int64_t lj = 0; ipiv && g->myr == 0 && lj < g->ln; lj++) {
    int64_t gj = ((lj / g->nb) * g->pc + g->myc) * g->nb + lj % g->nb;
    s.swaps += ipiv[lj] != gj + 1;
  }
  return s;
}

int mn_array_slogdet(const mn_array *a, double sign[2], double *logabsdet) {
  MN_CALL(mn_sl_square(a, "slogdet"));
  int64_t n = a->map.shape[0];
  mn_sl_grid G;
  char *loc = NULL;
  int *ipiv = NULL, desc[9], singular = 0, size = 1;
  int err = lu(a, &G, &loc, &ipiv, desc, &singular);
  share all = {0, 0, 0, 0, 1, 0}, *each = NULL;
  if (!err && n) { /* every rank's share, combined in rank order on each: the same result everywhere */
    share mine = diagonal_share(&G, loc, ipiv, a->dtype);
    MPI_Comm_size(a->ctx->comm, &size);
    each = malloc(sizeof(share) * (size_t)size);
    err = mn_agree(a->ctx, each ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %d shares", size));
    if (!err && MPI_Allgather(&mine, 6, MPI_DOUBLE, each, 6, MPI_DOUBLE, a->ctx->comm) != MPI_SUCCESS)
      err = MN_ERR(MN_ERR_MPI, "slogdet: MPI_Allgather failed");
    for (int r = 0; !err && r < size; r++) {
      double pr = all.re * each[r].re - all.im * each[r].im, pi = all.re * each[r].im + all.im * each[r].re;
      all.logsum += each[r].logsum, all.negatives += each[r].negatives, all.swaps += each[r].swaps;
      all.zeros += each[r].zeros, all.re = pr, all.im = pi;
    }
  }
  free(each);
  mn_free(loc);
  free(ipiv);
  mn_sl_close(&G);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  if (singular || all.zeros > 0) { /* NumPy's: sign 0, log|det| -inf */
    sign[0] = sign[1] = 0;
    *logabsdet = -INFINITY;
    return MN_SUCCESS;
  }
  double flip = fmod(all.negatives + all.swaps, 2.0) ? -1.0 : 1.0;
  sign[0] = flip * all.re;
  sign[1] = flip * all.im;
  *logabsdet = all.logsum;
  return MN_SUCCESS;
}

int mn_array_qr(const mn_array *a, mn_array **q, mn_array **r) {
  if (q) *q = NULL;
  *r = NULL;
  if (a->map.ndim != 2) return MN_ERR(MN_ERR_SHAPE, "qr takes a 2-d matrix, not %d-d", a->map.ndim);
  int64_t m = a->map.shape[0], n = a->map.shape[1], k = m < n ? m : n;
  mn_sl_grid G;
  MN_CALL(mn_sl_open(&G, a->ctx, a->dtype, m, n, "qr", 0));
  int desc[9], info = 0, mi = (int)m, ni = (int)n, kk = (int)k, lw;
  char *loc = mn_sl_local(&G.g, G.es), *tau = mn_malloc((size_t)(G.g.ln + G.g.nb) * G.es + MN_SL_PAD), *work = NULL;
  int err = mn_agree(a->ctx, loc && tau ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a "
                                                      "%lld x %lld matrix", (long long)m, (long long)n));
  if (!err) err = mn_bc_from_array(&G.g, a, 0, 0, loc);
  mn_sl_desc(&G.g, &G, desc);
  if (!err && k) { /* B = L Q_B: R = L^T is the top k rows of A's storage, Q = Q_B^T its first k columns */
    double wq[2] = {0, 0}, wq2[2] = {0, 0};
    G.f.gelqf(&ni, &mi, loc, &MN_SL_ONE, &MN_SL_ONE, desc, tau, wq, &MN_SL_QUERY, &info);
    if (q) G.f.orglq(&kk, &mi, &kk, loc, &MN_SL_ONE, &MN_SL_ONE, desc, tau, wq2, &MN_SL_QUERY, &info);
    lw = mn_sl_work_size(&G, wq) > mn_sl_work_size(&G, wq2) ? mn_sl_work_size(&G, wq) : mn_sl_work_size(&G, wq2);
    work = mn_malloc((size_t)lw * G.es + MN_SL_PAD);
    err = mn_agree(a->ctx, work ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate gelqf's workspace"));
    if (!err) {
      G.f.gelqf(&ni, &mi, loc, &MN_SL_ONE, &MN_SL_ONE, desc, tau, work, &lw, &info);
      err = mn_sl_status(a->ctx, info, "gelqf", "QR factorisation failed");
    }
  }
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, 2, (int64_t[]){k, n}, r);
  if (!err) err = mn_bc_to_array(&G.g, loc, 0, 0, *r);
  if (!err) err = zero_triangle(*r, 0);
  if (!err && q && k) {
    G.f.orglq(&kk, &mi, &kk, loc, &MN_SL_ONE, &MN_SL_ONE, desc, tau, work, &lw, &info);
    err = mn_sl_status(a->ctx, info, "orglq", "QR factorisation failed");
  }
  if (!err && q) err = mn_array_create_empty(a->ctx, a->dtype, 2, (int64_t[]){m, k}, q);
  if (!err && q) err = mn_bc_to_array(&G.g, loc, 0, 0, *q);
  mn_free(loc);
  mn_free(tau);
  mn_free(work);
  mn_sl_close(&G);
  if (err) {
    if (q) mn_array_destroy(q);
    mn_array_destroy(r);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}
#endif
