/* The BLACS grid ScaLAPACK and PBLAS run on: every rank of a context, in
 * a near-square pr x pc grid; ScaLAPACK's own grid is its transpose, as it
 * reads each matrix transposed (scalapack.h). */
#ifdef MANIPLE_HAVE_SCALAPACK
#include "scalapack.h"
#include <stdlib.h>
#include <string.h>

int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int *ctxt, char *order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int *nprow, int *npcol, int *myrow, int *mycol);
void Cblacs_gridexit(int ctxt);
void descinit_(int *desc, const int *m, const int *n, const int *mb, const int *nb, const int *rsrc, const int *csrc,
               const int *ctxt, const int *lld, int *info);

const int MN_SL_ONE = 1, MN_SL_ZERO = 0, MN_SL_QUERY = -1;
#define NB 64

static int pick(mn_dtype t, mn_sl_routines *f) {
  memset(f, 0, sizeof *f);
#define SET(P, Q, S)                                                                                       \
  (*f = (mn_sl_routines){.potrf = P##potrf_, .getrf = P##getrf_, .getrs = P##getrs_, .getri = P##getri_,   \
                         .gelqf = P##gelqf_, .orglq = P##Q##lq_, .gemm = P##gemm_, .single = S})
  switch (t) {
  case MN_FLOAT32: SET(ps, org, 1); f->syev = pssyev_; f->gesvd = psgesvd_; break;
  case MN_FLOAT64: SET(pd, org, 0); f->syev = pdsyev_; f->gesvd = pdgesvd_; break;
  case MN_COMPLEX64: SET(pc, ung, 1); f->heevd = pcheevd_; f->cgesvd = pcgesvd_; f->cplx = 1; break;
  case MN_COMPLEX128: SET(pz, ung, 0); f->heevd = pzheevd_; f->cgesvd = pzgesvd_; f->cplx = 1; break;
  default: return 0;
  }
#undef SET
  float one_s = 1.0f;
  if (f->single) memcpy(f->one, &one_s, sizeof one_s);
  else f->one[0] = 1.0;
  return 1;
}

void mn_sl_close(mn_sl_grid *G) {
  mn_bc_free(&G->g);
  if (G->ctxt >= 0) Cblacs_gridexit(G->ctxt);
  if (G->sys >= 0) Cfree_blacs_system_handle(G->sys);
  G->ctxt = G->sys = -1;
}

int mn_sl_open(mn_sl_grid *G, mn_ctx *ctx, mn_dtype t, int64_t m, int64_t n, const char *what, int tall) {
  int P = ctx->size, pc = 1, err = MN_SUCCESS;
  memset(G, 0, sizeof *G);
  G->ctxt = G->sys = -1;
  if (!pick(t, &G->f))
    return MN_ERR(MN_ERR_DTYPE, "%s takes float32, float64, complex64 or complex128, not %s", what, mn_dtype_name(t));
  if (m > INT32_MAX || n > INT32_MAX)
    return MN_ERR(MN_ERR_NOTIMPL, "%s: a %lld x %lld matrix exceeds ScaLAPACK's int sizes", what, (long long)m,
                  (long long)n);
  G->es = mn_dtype_size(t);
  for (int d = 1; d * d <= P; d++)
    if (P % d == 0) pc = d;
  int pr = P / pc;
  if (tall) { /* ScaLAPACK's grid the taller way */
    int s = pr;
    pr = pc;
    pc = s;
  }
  /* ScaLAPACK's grid is the transpose's: its rows are our grid columns */
  G->sys = Csys2blacs_handle(ctx->comm);
  G->ctxt = G->sys; /* in: the system context; out: the grid's */
  Cblacs_gridinit(&G->ctxt, "R", pc, pr);
  int nr, nc, me[2], *cells = malloc(sizeof(int) * 2 * (size_t)P), *rank_of = malloc(sizeof(int) * (size_t)P);
  Cblacs_gridinfo(G->ctxt, &nr, &nc, &me[0], &me[1]);
  if (!cells || !rank_of) err = MN_ERR(MN_ERR_MEM, "cannot allocate a grid of %d ranks", P);
  else if (MPI_Allgather(me, 2, MPI_INT, cells, 2, MPI_INT, ctx->comm) != MPI_SUCCESS)
    err = MN_ERR(MN_ERR_MPI, "MPI_Allgather of the BLACS grid failed");
  for (int q = 0; q < P && !err; q++) /* ScaLAPACK's cell (i, j) is our (j, i) */
    rank_of[cells[2 * q + 1] * pc + cells[2 * q]] = q;
  if (!err) err = mn_bc_init(&G->g, ctx, m, n, NB, pr, pc, rank_of);
  free(cells);
  free(rank_of);
  if (err) { mn_sl_close(G); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

void mn_sl_desc(const mn_bc *g, const mn_sl_grid *G, int *desc) {
  int mb = (int)g->n, nb = (int)g->m, blk = (int)g->nb, lld = (int)(g->ln > 1 ? g->ln : 1), info, ctxt = G->ctxt;
  descinit_(desc, &mb, &nb, &blk, &blk, &MN_SL_ZERO, &MN_SL_ZERO, &ctxt, &lld, &info);
}

char *mn_sl_local(const mn_bc *g, size_t es) {
  size_t n = (size_t)(g->lm * g->ln), lld = (size_t)(g->ln > 1 ? g->ln : 1);
  return mn_calloc((n + lld) * es + MN_SL_PAD); /* (a column of room: scalapack.h) */
}

int mn_sl_square(const mn_array *a, const char *what) {
  if (a->map.ndim != 2 || a->map.shape[0] != a->map.shape[1])
    return MN_ERR(MN_ERR_SHAPE, "%s takes a square 2-d matrix, not one of %d dimension(s) and shape (%lld, %lld)",
                  what, a->map.ndim, (long long)(a->map.ndim ? a->map.shape[0] : 0),
                  (long long)(a->map.ndim > 1 ? a->map.shape[1] : 1));
  return MN_SUCCESS;
}

int mn_sl_status(mn_ctx *ctx, int info, const char *routine, const char *failed) {
  int err = MN_SUCCESS;
  if (info < 0) err = MN_ERR(MN_ERR_ARG, "%s rejected its argument %d", routine, -info);
  else if (info > 0) err = MN_ERR(MN_ERR_LINALG, "%s", failed);
  return mn_agree(ctx, err);
}

int mn_sl_work_size(const mn_sl_grid *G, const void *w) {
  double s = G->f.single ? (double)*(const float *)w : *(const double *)w;
  return s < 1 ? 1 : (int)s + 1;
}
#endif
