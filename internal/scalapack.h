/* Private: ScaLAPACK and PBLAS on a BLACS grid over a context's ranks
 * (arrays/scalapack.c). The matrices live in block_cyclic.h's layout,
 * stored row-major, which ScaLAPACK reads as the column-major transpose:
 * each caller picks its routine for the transpose (arrays/factor.c,
 * arrays/matmul_grid.c). Built only with MANIPLE_HAVE_SCALAPACK. */
#ifndef MANIPLE_SCALAPACK_H
#define MANIPLE_SCALAPACK_H
#include "block_cyclic.h"

/* Fortran routines: matrices and scalars as void *, hidden string lengths last */
#define MN_SL_DECL(p, T)                                                                                            \
  void p##potrf_(const char *, const int *, void *, const int *, const int *, const int *, int *, size_t);         \
  void p##getrf_(const int *, const int *, void *, const int *, const int *, const int *, int *, int *);            \
  void p##getrs_(const char *, const int *, const int *, const void *, const int *, const int *, const int *,       \
                 const int *, void *, const int *, const int *, const int *, int *, size_t);                         \
  void p##getri_(const int *, void *, const int *, const int *, const int *, const int *, void *, const int *,     \
                 int *, const int *, int *);                                                                         \
  void p##gelqf_(const int *, const int *, void *, const int *, const int *, const int *, void *, void *,          \
                 const int *, int *);                                                                                \
  void p##T##lq_(const int *, const int *, const int *, void *, const int *, const int *, const int *, const void *, \
                 void *, const int *, int *);                                                                        \
  void p##gemm_(const char *, const char *, const int *, const int *, const int *, const void *, const void *,     \
                const int *, const int *, const int *, const void *, const int *, const int *, const int *,        \
                const void *, void *, const int *, const int *, const int *, size_t, size_t);
MN_SL_DECL(ps, org)
MN_SL_DECL(pd, org)
MN_SL_DECL(pc, ung)
MN_SL_DECL(pz, ung)

/* eigenvalues and singular values: the complex routines take real
 * workspace too (rwork), so these are declared one by one */
#define MN_SL_EV(p)                                                                                                 \
  void p##syev_(const char *, const char *, const int *, void *, const int *, const int *, const int *, void *,     \
                void *, const int *, const int *, const int *, void *, const int *, int *, size_t, size_t);        \
  void p##gesvd_(const char *, const char *, const int *, const int *, void *, const int *, const int *,            \
                 const int *, void *, void *, const int *, const int *, const int *, void *, const int *,          \
                 const int *, const int *, void *, const int *, int *, size_t, size_t);
#define MN_SL_EVC(p)                                                                                                \
  void p##heevd_(const char *, const char *, const int *, void *, const int *, const int *, const int *, void *,    \
                 void *, const int *, const int *, const int *, void *, const int *, void *, const int *, int *,   \
                 const int *, int *, size_t, size_t);                                                                \
  void p##gesvd_(const char *, const char *, const int *, const int *, void *, const int *, const int *,            \
                 const int *, void *, void *, const int *, const int *, const int *, void *, const int *,          \
                 const int *, const int *, void *, const int *, void *, int *, size_t, size_t);
MN_SL_EV(ps)
MN_SL_EV(pd)
MN_SL_EVC(pc)
MN_SL_EVC(pz)

typedef struct {
  __typeof__(pdpotrf_) *potrf;
  __typeof__(pdgetrf_) *getrf;
  __typeof__(pdgetrs_) *getrs;
  __typeof__(pdgetri_) *getri;
  __typeof__(pdgelqf_) *gelqf;
  __typeof__(pdorglq_) *orglq; /* unglq for complex */
  __typeof__(pdgemm_) *gemm;
  __typeof__(pdsyev_) *syev;   /* real dtypes (p?syevd's p?lasrt rejected its LWORK on 1 x 3 grids) */
  __typeof__(pdgesvd_) *gesvd;
  __typeof__(pzheevd_) *heevd; /* complex dtypes */
  __typeof__(pzgesvd_) *cgesvd;
  int single;                  /* work sizes come back as float */
  int cplx;                    /* heevd and cgesvd, not syevd and gesvd */
  double one[2], zero[2];      /* 1 and 0 of the dtype, as gemm reads them */
} mn_sl_routines;

/* A BLACS grid over the context's ranks (near-square) and the
 * block-cyclic layout of an m x n matrix on it. */
typedef struct {
  mn_bc g;
  int sys, ctxt;
  mn_sl_routines f;
  size_t es;
} mn_sl_grid;

/* for matrices of dtype t (float32/64, complex64/128; else MN_ERR_DTYPE
 * naming what). ScaLAPACK's grid has at most as many rows as columns, or
 * at least as many with tall (Cholesky: 1.6x faster at 2 ranks, n = 4000;
 * QR 10% slower). */
int mn_sl_open(mn_sl_grid *G, mn_ctx *ctx, mn_dtype t, int64_t m, int64_t n, const char *what, int tall);
void mn_sl_close(mn_sl_grid *G); /* idempotent */
/* ScaLAPACK's descriptor of the transpose (n x m, column-major) of g's
 * matrix, on G's BLACS grid */
void mn_sl_desc(const mn_bc *g, const mn_sl_grid *G, int *desc);
/* Bytes added to every buffer ScaLAPACK reads: OpenBLAS 0.3.21's cgemv_n
 * and zgemv_n (Debian 12; upstream OpenMathLib/OpenBLAS#4013) read past the
 * end of the local matrix and one stride past the end of x (x[n * incx];
 * inside p?larft incx is a local matrix's LLD): a SEGV under ASan's
 * tightly packed heap, and possible past a large mmap'd buffer. mn_sl_local adds
 * a local column (LLD elements) of room too; tests/blas_pad.c pads
 * PBLAS's own buffers in the sanitizer builds. */
#define MN_SL_PAD 4096
/* zeroed local storage of g's matrix, with room past its end (mn_free);
 * NULL when out of memory */
char *mn_sl_local(const mn_bc *g, size_t es);
/* MN_ERR_SHAPE naming what unless a is a square 2-d matrix (no communication) */
int mn_sl_square(const mn_array *a, const char *what);
/* ScaLAPACK's info, agreed over a's ranks: < 0 is our bug (an argument,
 * MN_ERR_ARG naming routine), > 0 the matrix (MN_ERR_LINALG: failed) */
int mn_sl_status(mn_ctx *ctx, int info, const char *routine, const char *failed);
/* the workspace size a query wrote into w[0] */
int mn_sl_work_size(const mn_sl_grid *G, const void *w);
extern const int MN_SL_ONE, MN_SL_ZERO, MN_SL_QUERY;

/* mn_array_matmul of two 2-d float32 or float64 operands, the smaller at
 * least ctx's summa_min_bytes, at several ranks on the host: p?gemm on
 * the grid (arrays/matmul_grid.c) instead of replicating an operand. */
int mn_matmul_grid_wanted(const mn_array *a, const mn_array *b);
int mn_matmul_grid(const mn_array *a, const mn_array *b, mn_array *out);
#endif
