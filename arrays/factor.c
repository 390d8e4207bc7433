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
#else
#include <complex.h>

/* BLACS and ScaLAPACK (Fortran: hidden string lengths last; matrices as void *) */
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int *ctxt, char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctxt);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *rsrc, const int *csrc,
               const int *ctxt, const int *lld, int *info);
#define DECL(p, T)                                                                                                  \
  void p##potrf_(const char *, const int *, void *, const int *, const int *, const int *, int *, size_t);         \
  void p##getrf_(const int *, const int *, void *, const int *, const int *, const int *, int *, int *);            \
  void p##getrs_(const char *, const int *, const int *, const void *, const int *, const int *, const int *,       \
                 const int *, void *, const int *, const int *, const int *, int *, size_t);                         \
  void p##getri_(const int *, void *, const int *, const int *, const int *, const int *, void *, const int *,     \
                 int *, const int *, int *);                                                                         \
  void p##gelqf_(const int *, const int *, void *, const int *, const int *, const int *, void *, void *,          \
                 const int *, int *);                                                                                \
  void p##T##lq_(const int *, const int *, const int *, void *, const int *, const int *, const int *, const void *, \
                 void *, const int *, int *);
DECL(ps, org)
DECL(pd, org)
DECL(pc, ung)
DECL(pz, ung)

typedef struct {
  __typeof__(pdpotrf_) *potrf;
  __typeof__(pdgetrf_) *getrf;
  __typeof__(pdgetrs_) *getrs;
  __typeof__(pdgetri_) *getri;
  __typeof__(pdgelqf_) *gelqf;
  __typeof__(pdorglq_) *orglq;
  int single; /* work sizes come back as float */
} routines;

static int pick(mn_dtype t, routines *f) {
  switch (t) {
  case MN_FLOAT32: *f = (routines){pspotrf_, psgetrf_, psgetrs_, psgetri_, psgelqf_, psorglq_, 1}; return 1;
  case MN_FLOAT64: *f = (routines){pdpotrf_, pdgetrf_, pdgetrs_, pdgetri_, pdgelqf_, pdorglq_, 0}; return 1;
  case MN_COMPLEX64: *f = (routines){pcpotrf_, pcgetrf_, pcgetrs_, pcgetri_, pcgelqf_, pcunglq_, 1}; return 1;
  case MN_COMPLEX128: *f = (routines){pzpotrf_, pzgetrf_, pzgetrs_, pzgetri_, pzgelqf_, pzunglq_, 0}; return 1;
  default: return 0;
  }
}

#define NB 64
static const int ONE = 1, ZERO = 0, QUERY = -1;

/* A BLACS grid over the context's ranks and the block-cyclic layout of an
 * m x n matrix (A's coordinates) on it. */
typedef struct {
  mn_bc g;
  int sys, ctxt;
  routines f;
  size_t es;
} grid;

/* idempotent */
static void grid_close(grid *G) {
  mn_bc_free(&G->g);
  if (G->ctxt >= 0) Cblacs_gridexit(G->ctxt);
  if (G->sys >= 0) Cfree_blacs_system_handle(G->sys);
  G->ctxt = G->sys = -1;
}

static int grid_open(grid *G, const mn_array *a, int64_t m, int64_t n) {
  mn_ctx *ctx = a->ctx;
  int P = ctx->size, pc = 1, err = MN_SUCCESS;
  memset(G, 0, sizeof *G);
  G->ctxt = G->sys = -1;
  if (!pick(a->dtype, &G->f))
    return MN_ERR(MN_ERR_DTYPE, "dense factorisations take float32, float64, complex64 or complex128, not %s",
                  mn_dtype_name(a->dtype));
  if (m > INT32_MAX || n > INT32_MAX)
    return MN_ERR(MN_ERR_NOTIMPL, "a %lld x %lld matrix exceeds ScaLAPACK's int sizes", (long long)m, (long long)n);
  G->es = mn_dtype_size(a->dtype);
  for (int d = 1; d * d <= P; d++)
    if (P % d == 0) pc = d;
  int pr = P / pc;
  /* ScaLAPACK's grid is B's: its rows are A's grid columns */
  G->sys = Csys2blacs_handle(ctx->comm);
  G->ctxt = G->sys; /* in: the system context; out: the grid's */
  Cblacs_gridinit(&G->ctxt, "R", pc, pr);
  int nr, nc, me[2], *cells = malloc(sizeof(int) * 2 * (size_t)P), *rank_of = malloc(sizeof(int) * (size_t)P);
  Cblacs_gridinfo(G->ctxt, &nr, &nc, &me[0], &me[1]);
  if (!cells || !rank_of) err = MN_ERR(MN_ERR_MEM, "cannot allocate a grid of %d ranks", P);
  else if (MPI_Allgather(me, 2, MPI_INT, cells, 2, MPI_INT, ctx->comm) != MPI_SUCCESS)
    err = MN_ERR(MN_ERR_MPI, "MPI_Allgather of the BLACS grid failed");
  for (int q = 0; q < P && !err; q++) /* B cell (i, j) is A cell (j, i) */
    rank_of[cells[2 * q + 1] * pc + cells[2 * q]] = q;
  if (!err) err = mn_bc_init(&G->g, ctx, m, n, NB, pr, pc, rank_of);
  free(cells);
  free(rank_of);
  if (err) { grid_close(G); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}


/* ScaLAPACK's descriptor of B (n x m, column-major) for local storage
 * whose row stride is g's ln */
static void desc_of(const mn_bc *g, int ctxt, int *desc) {
  int mb = (int)g->n, nb = (int)g->m, blk = (int)g->nb, lld = (int)(g->ln > 1 ? g->ln : 1), info;
  descinit_(desc, &mb, &nb, &blk, &blk, &ZERO, &ZERO, &ctxt, &lld, &info);
}

static char *alloc_local(const mn_bc *g, size_t es) {
  size_t n = (size_t)(g->lm * g->ln);
  return mn_calloc((n ? n : 1) * es);
}

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

static int square(const mn_array *a, const char *what) {
  if (a->map.ndim != 2 || a->map.shape[0] != a->map.shape[1])
    return MN_ERR(MN_ERR_SHAPE, "%s takes a square 2-d matrix, not one of %d dimension(s) and shape (%lld, %lld)",
                  what, a->map.ndim, (long long)(a->map.ndim ? a->map.shape[0] : 0),
                  (long long)(a->map.ndim > 1 ? a->map.shape[1] : 1));
  return MN_SUCCESS;
}

/* ScaLAPACK's info, agreed: <0 is our bug (an argument), >0 the matrix */
static int status(mn_ctx *ctx, int info, const char *routine, const char *singular) {
  int err = MN_SUCCESS;
  if (info < 0) err = MN_ERR(MN_ERR_ARG, "%s rejected its argument %d", routine, -info);
  else if (info > 0) err = MN_ERR(MN_ERR_LINALG, "%s", singular);
  return mn_agree(ctx, err);
}

int mn_array_cholesky(const mn_array *a, mn_array **l) {
  *l = NULL;
  MN_CALL(square(a, "cholesky"));
  int64_t n = a->map.shape[0];
  grid G;
  MN_CALL(grid_open(&G, a, n, n));
  int desc[9], info = 0, ni = (int)n, err;
  char *loc = alloc_local(&G.g, G.es);
  err = mn_agree(a->ctx, loc ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a %lld x %lld matrix",
                                          (long long)n, (long long)n));
  if (!err) err = mn_bc_from_array(&G.g, a, 0, 0, loc);
  if (!err && n) {
    desc_of(&G.g, G.ctxt, desc);
    G.f.potrf("U", &ni, loc, &ONE, &ONE, desc, &info, 1);
    err = status(a->ctx, info, "potrf", "Matrix is not positive definite");
  }
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, 2, a->map.shape, l);
  if (!err) err = mn_bc_to_array(&G.g, loc, 0, 0, *l);
  if (!err) err = zero_triangle(*l, 1); /* ScaLAPACK leaves A's other triangle */
  mn_free(loc);
  grid_close(&G);
  if (err) { mn_array_destroy(l); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

/* getrf of a's matrix into G and loc, pivots in *ipiv */
static int lu(const mn_array *a, grid *G, char **loc, int **ipiv, int *desc) {
  int64_t n = a->map.shape[0];
  int ni = (int)n, info = 0;
  *loc = NULL;
  *ipiv = NULL;
  MN_CALL(grid_open(G, a, n, n));
  *loc = alloc_local(&G->g, G->es);
  *ipiv = malloc(sizeof(int) * (size_t)(G->g.ln + G->g.nb));
  int err = mn_agree(a->ctx, *loc && *ipiv ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a "
                                                         "%lld x %lld matrix", (long long)n, (long long)n));
  if (!err) err = mn_bc_from_array(&G->g, a, 0, 0, *loc);
  desc_of(&G->g, G->ctxt, desc);
  if (!err && n) {
    G->f.getrf(&ni, &ni, *loc, &ONE, &ONE, desc, *ipiv, &info);
    err = status(a->ctx, info, "getrf", "Singular matrix");
  }
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}

int mn_array_solve(const mn_array *a, const mn_array *b, mn_array **x) {
  *x = NULL;
  MN_CALL(square(a, "solve"));
  int64_t n = a->map.shape[0], k = b->map.ndim == 2 ? b->map.shape[1] : 1;
  if ((b->map.ndim != 1 && b->map.ndim != 2) || b->map.shape[0] != n)
    return MN_ERR(MN_ERR_SHAPE, "solve: b of %d dimension(s) and %lld rows does not match a %lld x %lld matrix",
                  b->map.ndim, (long long)(b->map.ndim ? b->map.shape[0] : 0), (long long)n, (long long)n);
  if (b->dtype != a->dtype)
    return MN_ERR(MN_ERR_DTYPE, "solve: b is %s and a %s (cast them to one dtype)", mn_dtype_name(b->dtype),
                  mn_dtype_name(a->dtype));
  if (k > INT32_MAX) return MN_ERR(MN_ERR_NOTIMPL, "solve: %lld right-hand sides exceed ScaLAPACK's int", (long long)k);
  grid G;
  mn_bc H = {0};
  char *loc = NULL, *rhs = NULL;
  int *ipiv = NULL, desc[9], dh[9], info = 0, ni = (int)n, ki = (int)k;
  mn_array *bt = NULL, *xt = NULL;
  int err = lu(a, &G, &loc, &ipiv, desc);
  /* the right-hand sides, column-major n x k: stored as the rows of b^T,
   * on the same cells as A */
  if (!err && b->map.ndim == 2) err = mn_array_transpose((mn_array *)b, (int[]){1, 0}, &bt);
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, b->map.ndim, b->map.shape, x);
  if (!err && b->map.ndim == 2) err = mn_array_transpose(*x, (int[]){1, 0}, &xt);
  if (!err) err = mn_bc_init(&H, a->ctx, k, n, G.g.nb, G.g.pr, G.g.pc, G.g.rank_of);
  if (!err) {
    rhs = alloc_local(&H, G.es);
    err = mn_agree(a->ctx, rhs ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld right-hand sides", (long long)k));
  }
  if (!err) err = mn_bc_from_array(&H, bt ? bt : b, 0, 0, rhs);
  if (!err && n && k) {
    desc_of(&H, G.ctxt, dh);
    G.f.getrs("T", &ni, &ki, loc, &ONE, &ONE, desc, ipiv, rhs, &ONE, &ONE, dh, &info, 1);
    err = status(a->ctx, info, "getrs", "Singular matrix");
  }
  if (!err) err = mn_bc_to_array(&H, rhs, 0, 0, xt ? xt : *x);
  mn_array_destroy(&bt);
  mn_array_destroy(&xt);
  mn_free(loc);
  mn_free(rhs);
  free(ipiv);
  mn_bc_free(&H);
  grid_close(&G);
  if (err) { mn_array_destroy(x); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

/* the size a workspace query wrote into w[0] */
static int work_size(const grid *G, const void *w) {
  double s = G->f.single ? (double)*(const float *)w : *(const double *)w;
  return s < 1 ? 1 : (int)s + 1;
}

int mn_array_inv(const mn_array *a, mn_array **x) {
  *x = NULL;
  MN_CALL(square(a, "inv"));
  int64_t n = a->map.shape[0];
  grid G;
  char *loc = NULL, *work = NULL;
  int *ipiv = NULL, *iwork = NULL, desc[9], info = 0, ni = (int)n;
  int err = lu(a, &G, &loc, &ipiv, desc);
  if (!err && n) { /* getri of B: inv(B) = inv(A)^T, which row-major storage reads as inv(A) */
    double wq[2] = {0, 0};
    int iq = 0, lw, liw;
    G.f.getri(&ni, loc, &ONE, &ONE, desc, ipiv, wq, &QUERY, &iq, &QUERY, &info);
    lw = work_size(&G, wq);
    liw = iq > 1 ? iq : 1;
    work = mn_malloc((size_t)lw * G.es);
    iwork = malloc(sizeof(int) * (size_t)liw);
    err = mn_agree(a->ctx, work && iwork ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate getri's workspace"));
    if (!err) {
      G.f.getri(&ni, loc, &ONE, &ONE, desc, ipiv, work, &lw, iwork, &liw, &info);
      err = status(a->ctx, info, "getri", "Singular matrix");
    }
  }
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, 2, a->map.shape, x);
  if (!err) err = mn_bc_to_array(&G.g, loc, 0, 0, *x);
  mn_free(loc);
  mn_free(work);
  free(ipiv);
  free(iwork);
  grid_close(&G);
  if (err) { mn_array_destroy(x); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

int mn_array_qr(const mn_array *a, mn_array **q, mn_array **r) {
  if (q) *q = NULL;
  *r = NULL;
  if (a->map.ndim != 2) return MN_ERR(MN_ERR_SHAPE, "qr takes a 2-d matrix, not %d-d", a->map.ndim);
  int64_t m = a->map.shape[0], n = a->map.shape[1], k = m < n ? m : n;
  grid G;
  MN_CALL(grid_open(&G, a, m, n));
  int desc[9], info = 0, mi = (int)m, ni = (int)n, kk = (int)k, lw;
  char *loc = alloc_local(&G.g, G.es), *tau = mn_malloc((size_t)(G.g.ln + G.g.nb) * G.es), *work = NULL;
  int err = mn_agree(a->ctx, loc && tau ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate this rank's blocks of a "
                                                      "%lld x %lld matrix", (long long)m, (long long)n));
  if (!err) err = mn_bc_from_array(&G.g, a, 0, 0, loc);
  desc_of(&G.g, G.ctxt, desc);
  if (!err && k) { /* B = L Q_B: R = L^T is the top k rows of A's storage, Q = Q_B^T its first k columns */
    double wq[2] = {0, 0}, wq2[2] = {0, 0};
    G.f.gelqf(&ni, &mi, loc, &ONE, &ONE, desc, tau, wq, &QUERY, &info);
    if (q) G.f.orglq(&kk, &mi, &kk, loc, &ONE, &ONE, desc, tau, wq2, &QUERY, &info);
    lw = work_size(&G, wq) > work_size(&G, wq2) ? work_size(&G, wq) : work_size(&G, wq2);
    work = mn_malloc((size_t)lw * G.es);
    err = mn_agree(a->ctx, work ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate gelqf's workspace"));
    if (!err) {
      G.f.gelqf(&ni, &mi, loc, &ONE, &ONE, desc, tau, work, &lw, &info);
      err = status(a->ctx, info, "gelqf", "QR factorisation failed");
    }
  }
  if (!err) err = mn_array_create_empty(a->ctx, a->dtype, 2, (int64_t[]){k, n}, r);
  if (!err) err = mn_bc_to_array(&G.g, loc, 0, 0, *r);
  if (!err) err = zero_triangle(*r, 0);
  if (!err && q && k) {
    G.f.orglq(&kk, &mi, &kk, loc, &ONE, &ONE, desc, tau, work, &lw, &info);
    err = status(a->ctx, info, "orglq", "QR factorisation failed");
  }
  if (!err && q) err = mn_array_create_empty(a->ctx, a->dtype, 2, (int64_t[]){m, k}, q);
  if (!err && q) err = mn_bc_to_array(&G.g, loc, 0, 0, *q);
  mn_free(loc);
  mn_free(tau);
  mn_free(work);
  grid_close(&G);
  if (err) {
    if (q) mn_array_destroy(q);
    mn_array_destroy(r);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}
#endif
