/* Eigenvalues of symmetric and Hermitian matrices and singular values on
 * every rank through ScaLAPACK (p?syev, p?heevd, p?gesvd). As in factor.c
 * ScaLAPACK reads the row-major blocks as the transpose B = A^T:
 * - eigh: the local blocks are conjugated first, so ScaLAPACK sees
 *   conj(A^T) = A^H, whose upper triangle holds A's lower one; its
 *   eigenvector columns Z are read back (row-major: Z^T) through a
 *   transposed view of the result.
 * - svd: B = U_B S VT_B gives A = B^T = VT_B^T S U_B^T, and reading
 *   ScaLAPACK's k x m VT_B row-major is VT_B^T = u (m x k), its n x k U_B
 *   is U_B^T = vt (k x n): no transposes, no conjugates (complex too). */
#include <maniple/mn_linalg.h>
#include "block_cyclic.h"
#include <stdlib.h>
#include <string.h>

#ifndef MANIPLE_HAVE_SCALAPACK
static int absent(void) {
  return MN_ERR(MN_ERR_NOTIMPL, "this build has no ScaLAPACK (Debian: libscalapack-openmpi-dev; docs/building.md)");
}
int mn_array_eigh(const mn_array *a, int lower, mn_array **w, mn_array **v) {
  (void)a; (void)lower; (void)w; (void)v;
  return absent();
}
int mn_array_svd(const mn_array *a, mn_array **u, mn_array **s, mn_array **vt) {
  (void)a; (void)u; (void)s; (void)vt;
  return absent();
}
#else
#include "scalapack.h"

/* A new 1-d array of the n real values in vals (the same on every rank). */
static int real_values(mn_ctx *ctx, mn_dtype rt, int64_t n, const char *vals, mn_array **out) {
  MN_CALL(mn_array_create_empty(ctx, rt, 1, &n, out));
  mn_local l;
  int err = mn_array_local_in(*out, 0, &l);
  size_t es = mn_dtype_size(rt);
  for (int64_t k = 0; !err && l.data && k < l.count[0]; k++)
    memcpy((char *)l.data + k * l.stride[0] * (int64_t)es, vals + (l.lo[0] + k) * (int64_t)es, es);
  if (err) mn_array_destroy(out);
  return err;
}

/* the imaginary parts of n complex elements negated */
static void conj_local(char *p, int64_t n, int single) {
  for (int64_t k = 0; k < n; k++) {
    if (single) ((float *)p)[2 * k + 1] = -((float *)p)[2 * k + 1];
    else ((double *)p)[2 * k + 1] = -((double *)p)[2 * k + 1];
  }
}

int mn_array_eigh(const mn_array *a, int lower, mn_array **w, mn_array **v) {
  *w = NULL;
  if (v) *v = NULL;
  MN_CALL(mn_sl_square(a, "eigh"));
  int64_t n = a->map.shape[0];
  mn_ctx *ctx = a->ctx;
  mn_sl_grid G;
  MN_CALL(mn_sl_open(&G, ctx, a->dtype, n, n, "eigh", 0));
  mn_dtype rt = G.f.single ? MN_FLOAT32 : MN_FLOAT64;
  size_t rs = mn_dtype_size(rt);
  int desc[9], info = 0, ni = (int)n, lw = 1, lrw = 1, liw = 1;
  char *loc = mn_sl_local(&G.g, G.es), *z = mn_sl_local(&G.g, G.es), *vals = mn_calloc((size_t)n * rs + MN_SL_PAD);
  char *work = NULL, *rwork = NULL;
  int *iwork = NULL;
  int err = mn_agree(ctx, loc && z && vals ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a "
                                                          "%lld x %lld matrix", (long long)n, (long long)n));
  if (!err) err = mn_bc_from_array(&G.g, a, 0, 0, loc);
  mn_sl_desc(&G.g, &G, desc);
  const char *uplo = lower ? "U" : "L"; /* A's lower triangle is the upper one of A^H */
  const char *jobz = v ? "V" : "N";      /* (p?heevd computes vectors always) */
  if (!err && n) {
    double wq[2] = {0, 0}, rq[2] = {0, 0};
    int iq = 0;
    if (G.f.cplx) {
      conj_local(loc, G.g.lm * G.g.ln, G.f.single);
      G.f.heevd("V", uplo, &ni, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, z, &MN_SL_ONE, &MN_SL_ONE, desc, wq,
                &MN_SL_QUERY, rq, &MN_SL_QUERY, &iq, &MN_SL_QUERY, &info, 1, 1);
      lrw = mn_sl_work_size(&G, rq);
    } else { /* values alone (jobz N) skip the vectors: docs/python.md */
      G.f.syev(jobz, uplo, &ni, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, z, &MN_SL_ONE, &MN_SL_ONE, desc, wq,
               &MN_SL_QUERY, &info, 1, 1);
    }
    /* heevd: its documented minimums as a floor (p?stedc and p?lasrt
     * inside take more than the query says on some grids). The documented
     * minimum counts grid cell (0, 0)'s rows and columns (NP0, MQ0), the
     * most any rank holds: a rank's own counts fall short of it on the
     * smaller cells (a 90 x 90 matrix on 2 x 2: 26 rows against 64) */
    int64_t npnq = G.g.lm * G.g.ln, nb = G.g.nb, np = G.g.ln > G.g.lm ? G.g.ln : G.g.lm;
    int pmin = G.g.pr < G.g.pc ? G.g.pr : G.g.pc, pmax = G.g.pr > G.g.pc ? G.g.pr : G.g.pc;
    int64_t np0 = mn_bc_local(n > nb ? n : nb, nb, 0, pmin); /* (cell 0 of the coarser side: the most) */
    if (np0 < np) np0 = np;
    int64_t lmin = G.f.cplx ? n + (2 * np0 + nb) * nb : 1, lrmin = 1 + 9 * n + 3 * npnq + np0 * (nb + np0);
    int64_t limin = 7 * n + 8 * (int64_t)pmax + 2;
    lw = mn_sl_work_size(&G, wq);
    if (lw < lmin) lw = (int)lmin;
    if (G.f.cplx && lrw < lrmin) lrw = (int)lrmin;
    liw = iq > limin ? iq : (int)limin;
    work = mn_malloc((size_t)lw * G.es + MN_SL_PAD);
    rwork = mn_malloc((size_t)lrw * rs + MN_SL_PAD);
    iwork = malloc(sizeof(int) * (size_t)liw);
    err = mn_agree(ctx, work && rwork && iwork ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate eigh's workspace"));
    if (!err && G.f.cplx)
      G.f.heevd("V", uplo, &ni, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, z, &MN_SL_ONE, &MN_SL_ONE, desc, work, &lw,
                rwork, &lrw, iwork, &liw, &info, 1, 1);
    else if (!err)
      G.f.syev(jobz, uplo, &ni, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, z, &MN_SL_ONE, &MN_SL_ONE, desc, work, &lw,
               &info, 1, 1);
    if (!err) err = mn_sl_status(ctx, info, G.f.cplx ? "heevd" : "syev", "Eigenvalues did not converge");
    /* W is "global output", but p?syev left other values on ranks that
     * hold no block of a matrix smaller than one block: grid cell (0, 0)'s */
    if (!err) err = MPI_Bcast(vals, (int)n, rt == MN_FLOAT32 ? MPI_FLOAT : MPI_DOUBLE, G.g.rank_of[0], ctx->comm)
                          == MPI_SUCCESS ? 0 : MN_ERR(MN_ERR_MPI, "MPI_Bcast of eigenvalues failed");
  }
  if (!err) err = real_values(ctx, rt, n, vals, w);
  mn_array *vt = NULL;
  if (!err && v) err = mn_array_create_empty(ctx, a->dtype, 2, a->map.shape, v);
  if (!err && v) err = mn_array_transpose(*v, (int[]){1, 0}, &vt);
  if (!err && v) err = mn_bc_to_array(&G.g, z, 0, 0, vt); /* Z^T into v^T */
  mn_array_destroy(&vt);
  mn_free(loc); mn_free(z); mn_free(vals); mn_free(work); mn_free(rwork); free(iwork);
  mn_sl_close(&G);
  if (err) {
    mn_array_destroy(w);
    if (v) mn_array_destroy(v);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}

int mn_array_svd(const mn_array *a, mn_array **u, mn_array **s, mn_array **vt) {
  int want = u && vt;
  if (u) *u = NULL;
  if (vt) *vt = NULL;
  *s = NULL;
  if (a->map.ndim != 2) return MN_ERR(MN_ERR_SHAPE, "svd takes a 2-d matrix, not %d-d", a->map.ndim);
  int64_t m = a->map.shape[0], n = a->map.shape[1], k = m < n ? m : n;
  mn_ctx *ctx = a->ctx;
  mn_sl_grid G;
  MN_CALL(mn_sl_open(&G, ctx, a->dtype, m, n, "svd", 0));
  mn_dtype rt = G.f.single ? MN_FLOAT32 : MN_FLOAT64;
  size_t rs = mn_dtype_size(rt);
  mn_bc HU = {0}, HV = {0}; /* u (m x k): ScaLAPACK's VT_B; vt (k x n): its U_B */
  int desc[9], du[9], dv[9], info = 0, mi = (int)m, ni = (int)n, lw = 1;
  int64_t lrw = 1 + 4 * (m > n ? m : n);
  char *loc = mn_sl_local(&G.g, G.es), *vals = mn_calloc((size_t)k * rs + MN_SL_PAD), *bu = NULL, *bv = NULL;
  char *work = NULL, *rwork = G.f.cplx ? mn_malloc((size_t)lrw * rs + MN_SL_PAD) : NULL;
  int err = mn_agree(ctx, loc && vals && (rwork || !G.f.cplx) ? 0 :
                     MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a %lld x %lld matrix", (long long)m,
                            (long long)n));
  if (!err && want) err = mn_bc_init(&HU, ctx, m, k, G.g.nb, G.g.pr, G.g.pc, G.g.rank_of);
  if (!err && want) err = mn_bc_init(&HV, ctx, k, n, G.g.nb, G.g.pr, G.g.pc, G.g.rank_of);
  if (!err && want) {
    bu = mn_sl_local(&HU, G.es);
    bv = mn_sl_local(&HV, G.es);
    err = mn_agree(ctx, bu && bv ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate svd's factors"));
  }
  if (!err) err = mn_bc_from_array(&G.g, a, 0, 0, loc);
  mn_sl_desc(&G.g, &G, desc);
  if (want) {
    mn_sl_desc(&HU, &G, du);
    mn_sl_desc(&HV, &G, dv);
  } else { /* not referenced */
    memcpy(du, desc, sizeof desc);
    memcpy(dv, desc, sizeof desc);
  }
  /* B is n x m: its U_B (n x k) lands in HV's blocks, VT_B (k x m) in HU's */
  const char *job = want ? "V" : "N";
  char *pu = want ? bv : loc, *pv = want ? bu : loc;
  if (!err && k) {
    double wq[2] = {0, 0};
    if (G.f.cplx)
      G.f.cgesvd(job, job, &ni, &mi, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, pu, &MN_SL_ONE, &MN_SL_ONE, dv, pv,
                 &MN_SL_ONE, &MN_SL_ONE, du, wq, &MN_SL_QUERY, rwork, &info, 1, 1);
    else
      G.f.gesvd(job, job, &ni, &mi, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, pu, &MN_SL_ONE, &MN_SL_ONE, dv, pv,
                &MN_SL_ONE, &MN_SL_ONE, du, wq, &MN_SL_QUERY, &info, 1, 1);
    lw = mn_sl_work_size(&G, wq);
    work = mn_malloc((size_t)lw * G.es + MN_SL_PAD);
    err = mn_agree(ctx, work ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate svd's workspace"));
    if (!err && G.f.cplx)
      G.f.cgesvd(job, job, &ni, &mi, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, pu, &MN_SL_ONE, &MN_SL_ONE, dv, pv,
                 &MN_SL_ONE, &MN_SL_ONE, du, work, &lw, rwork, &info, 1, 1);
    else if (!err)
      G.f.gesvd(job, job, &ni, &mi, loc, &MN_SL_ONE, &MN_SL_ONE, desc, vals, pu, &MN_SL_ONE, &MN_SL_ONE, dv, pv,
                &MN_SL_ONE, &MN_SL_ONE, du, work, &lw, &info, 1, 1);
    if (!err) err = mn_sl_status(ctx, info, "gesvd", "SVD did not converge");
    if (!err) err = MPI_Bcast(vals, (int)k, rt == MN_FLOAT32 ? MPI_FLOAT : MPI_DOUBLE, G.g.rank_of[0], ctx->comm)
                          == MPI_SUCCESS ? 0 : MN_ERR(MN_ERR_MPI, "MPI_Bcast of singular values failed");
  }
  if (!err) err = real_values(ctx, rt, k, vals, s);
  if (!err && want) err = mn_array_create_empty(ctx, a->dtype, 2, (int64_t[]){m, k}, u);
  if (!err && want) err = mn_bc_to_array(&HU, bu, 0, 0, *u);
  if (!err && want) err = mn_array_create_empty(ctx, a->dtype, 2, (int64_t[]){k, n}, vt);
  if (!err && want) err = mn_bc_to_array(&HV, bv, 0, 0, *vt);
  mn_free(loc); mn_free(vals); mn_free(bu); mn_free(bv); mn_free(work); mn_free(rwork);
  mn_bc_free(&HU);
  mn_bc_free(&HV);
  mn_sl_close(&G);
  if (err) {
    mn_array_destroy(s);
    if (u) mn_array_destroy(u);
    if (vt) mn_array_destroy(vt);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}
#endif
