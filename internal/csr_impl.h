/* Private: the row-distributed CSR matrix (see include/maniple/mn_sparse.h). */
#ifndef MANIPLE_CSR_IMPL_H
#define MANIPLE_CSR_IMPL_H
#include "csr_shared.h"
#include "exchange.h"
#include "kernels/cplx.h"

/* ---- values (sparse/values.c): every numeric dtype but float16 ---- */
/* A value widened: z for the float and complex dtypes (a real's im 0), i
 * for the integer and bool ones (uint64 as its bits) */
typedef union { mn_c128 z; int64_t i; } mni_sval;
/* 1 when a matrix may hold values of dtype t */
int mni_csr_dtype_ok(mn_dtype t);
static inline int mni_csr_cplx(mn_dtype t) { return t == MN_COMPLEX64 || t == MN_COMPLEX128; }
/* bool or an integer dtype: values in i, arithmetic modulo 2^64 and
 * wrapped to the dtype where stored, as NumPy's */
static inline int mni_csr_intk(mn_dtype t) { return t == MN_BOOL || mn_is_int(t); }
/* The dtype of sums and products of values of dtypes a and b (NumPy's) */
mn_dtype mni_csr_promote(mn_dtype a, mn_dtype b);
/* Value k of a table of dtype t, widened */
mni_sval mn_csr_val(mn_dtype t, const void *v, int64_t k);
/* and stored (a real dtype keeps the real part; an integer one wraps, bool is != 0) */
void mni_csr_put(mn_dtype t, void *v, int64_t k, mni_sval x);
/* x, a value of dtype from, as one of dtype to (NumPy's cast) */
mni_sval mni_sv_cast(mn_dtype from, mn_dtype to, mni_sval x);
static inline mn_c128 mni_z(double re, double im) { mn_c128 z = {re, im}; return z; }
static inline mni_sval mni_sv_z(double re, double im) { mni_sval v; v.z = mni_z(re, im); return v; }
static inline mni_sval mni_sv_i(int64_t i) { mni_sval v; v.z = mni_z(0, 0); v.i = i; return v; }
static inline mni_sval mni_sv_add(mn_dtype t, mni_sval a, mni_sval b) {
  if (mni_csr_intk(t)) return mni_sv_i((int64_t)((uint64_t)a.i + (uint64_t)b.i));
  return mni_sv_z(a.z.re + b.z.re, a.z.im + b.z.im);
}
/* a * b in t's arithmetic: a real dtype never meets an imaginary 0 * inf
 * (a NaN the real product would not have) */
static inline mni_sval mni_sv_mul(mn_dtype t, mni_sval a, mni_sval b) {
  if (mni_csr_intk(t)) return mni_sv_i((int64_t)((uint64_t)a.i * (uint64_t)b.i));
  if (!mni_csr_cplx(t)) return mni_sv_z(a.z.re * b.z.re, 0);
  return mni_sv_z(a.z.re * b.z.re - a.z.im * b.z.im, a.z.re * b.z.im + a.z.im * b.z.re);
}
/* s * a for a real s (an integer one for an integer t: the caller checks) */
static inline mni_sval mni_sv_scale(mn_dtype t, double s, mni_sval a) {
  if (mni_csr_intk(t)) return mni_sv_i((int64_t)((uint64_t)(int64_t)s * (uint64_t)a.i));
  return mni_sv_z(s * a.z.re, s * a.z.im);
}
static inline int mni_sv_zero(mn_dtype t, mni_sval a) {
  return mni_csr_intk(t) ? a.i == 0 : a.z.re == 0 && a.z.im == 0;
}
/* MN_ERR_DTYPE unless s keeps an integer matrix integer (what names the use) */
int mni_csr_int_factor(mn_dtype t, double s, const char *what);

typedef struct mni_csr_dev_s mni_csr_dev;
struct mn_csr_s {
  mn_ctx *ctx;
  int64_t nrows, ncols;
  mn_dtype dtype;           /* any numeric dtype but float16 (mni_csr_dtype_ok) */
  int64_t row0, nlocal;     /* my rows */
  int64_t col0, ncloc;      /* my columns: the diagonal block */
  int64_t *dptr;            /* diagonal block: nlocal + 1 */
  int32_t *dcol;            /* local column, ascending within a row */
  void *dval;
  int64_t *optr;            /* off-diagonal block */
  int32_t *ocol;            /* ghost number, ascending within a row */
  void *oval;
  int64_t nghost;
  int64_t *garray;          /* global column of each ghost, ascending */
  mn_plan *ghost;           /* x's owned entries -> ghost values (its recvbuf) */
  int64_t *brow, nbrow;     /* my rows with off-diagonal entries: only they need the ghosts */
  int64_t nnz;              /* over all ranks */
  mni_csr_dev *dev;         /* the blocks on the device (spmv_dev.c), made at the first device product */
  double *tsum;             /* mn_csr_spmv_t's sums (ghosts, columns, received), kept from its first call */
  MPI_Request *treq;        /* and its requests: later calls allocate nothing, so agree on nothing */
  uint64_t state;           /* mni_csr_state: changed by mni_csr_changed */
};

/* ---- the device (spmv_dev.c) ---- */
/* the blocks' device copies, made once (counted "h2d") */
int mni_csr_dev_upload(mn_csr *A);
/* the device copies are stale (values changed on the host): dropped */
void mni_csr_dev_drop(mn_csr *A);
/* A's values are about to change on the host: the device copies are
 * dropped and A gets a new state */
void mni_csr_changed(mn_csr *A);
/* a state no matrix of this process has had */
uint64_t mni_csr_new_state(void);


/* A matrix from this rank's rows, sorted by column with no duplicates
 * (global int64 columns, values of dtype): splits them into the two
 * blocks and builds the ghost plan. Takes ownership of nothing. */
int mn_csr_from_sorted_rows(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, const int64_t *rowptr,
                            const int64_t *cols, const void *vals, mn_csr **A);
/* Local rows as COO-like records sorted by (row, col), duplicates summed in
 * their order, into CSR with global columns (rowptr nlocal + 1). */
typedef struct { int64_t row, col, seq; mni_sval val; } mn_coo_rec;
int mn_csr_from_records(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, mn_coo_rec *r, int64_t n,
                        mn_csr **A);
/* x's owned entries as a dense local vector of A's dtype: x's own memory
 * when it qualifies (*tmp NULL), else a converted copy (*tmp to destroy). */
/* v fits A (context, length, a cast that keeps its values; in: v is read
 * into A's dtype, else written from it) */
int mni_csr_check_vec(const mn_csr *A, const mn_array *v, int64_t n, int in, const char *what);
int mn_csr_vec_in(const mn_csr *A, const mn_array *x, int64_t n, int64_t start, int64_t len, const char **data,
                  mn_array **tmp);
/* Where y's owned entries go: y's memory, or a temporary copied out by
 * mn_csr_vec_out. */
int mn_csr_vec_out_begin(const mn_csr *A, mn_array *y, int64_t n, int64_t start, int64_t len, char **data,
                         mn_array **tmp);
int mn_csr_vec_out_end(mn_array *y, mn_array **tmp);

/* ---- sizes and memory (sizes may come from a file: checked, never wrapped) ---- */
/* Bytes of a table of n + 1 elements of es bytes (the + 1 keeps empty
 * tables allocatable), or -1 when n + 1 or the product overflows int64. */
static inline int64_t mn_csr_nbytes(int64_t n, int64_t es) {
  int64_t b;
  if (n < 0 || __builtin_add_overflow(n, 1, &n) || __builtin_mul_overflow(n, es, &b)) return -1;
  return b;
}
/* Bytes this process can still allocate, as the system tells it: the
 * node's MemAvailable (else its free physical pages), lowered to what the
 * address-space limit (ulimit -v) leaves; -1 when nothing says. *source
 * names the figure used. */
int64_t mn_mem_available(const char **source);
/* Whether this rank's need (bytes, for what `what` describes) fits before
 * anything is allocated: MN_ERR_MEM naming both figures when not. With
 * node (a decision the caller takes identically on every rank, e.g. from
 * the largest rank's need) the ranks sharing a node also add up their
 * needs and compare the sum with the node's available memory (collective
 * on those ranks). The verdict is this rank's: the caller agrees on it. */
int mn_mem_fits(mn_ctx *ctx, int64_t need, int node, const char *what);
/* Needs below MN_MEM_QUERY are not checked (the system's figures cost a
 * few file reads); the node check (a collective) pays off only for needs
 * of MN_MEM_NODE_CHECK and more. */
enum { MN_MEM_QUERY = 16 << 20, MN_MEM_NODE_CHECK = 64 << 20 };

#endif
