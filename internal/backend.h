/* Backends and memory spaces (arrays/backend.c, arrays/backend_emu.c).
 *
 * An array's storage (mn_buf) has a host copy and, on a device backend, a
 * device copy; b->valid says which of them hold the current values, as
 * PETSc's offload mask does. Code that reads or writes storage on the host
 * first asks for the host copy (mn_buf_host), which copies from the device
 * only when the host copy is stale; a device kernel asks for the device
 * copy (mn_buf_dev). Operations not yet ported to the device thus stay
 * correct and show up in the log as "h2d" / "d2h" traffic.
 *
 * The backend's table says how device storage is allocated and copied.
 * On the emulated backend device storage is host memory mapped PROT_NONE
 * except inside a copy or launch that names it, and a stale host copy is
 * PROT_NONE too, so host code that touches device data, or forgets to
 * ask for the host copy, faults in the tests instead of passing by luck. */
#ifndef MANIPLE_BACKEND_H
#define MANIPLE_BACKEND_H

#include <maniple/mn_core.h> /* MN_MAXDIM */
#include <stddef.h>
#include <stdint.h>

/* b->valid bits */
enum { MN_VALID_HOST = 1, MN_VALID_DEV = 2 };

typedef struct mn_eval_launch_s mn_eval_launch; /* internal/eval_impl.h */
typedef struct mni_st_job_s mni_st_job;         /* internal/stencil_impl.h */
typedef struct mn_buf_s mn_buf;
typedef struct mni_sv_job_s mni_sv_job;         /* internal/kernels/sv.h */
typedef struct mni_tri_job_s mni_tri_job;       /* internal/kernels/tri.h */
typedef struct mni_axis_job_s mni_axis_job;     /* internal/kernels/axis.h */
typedef struct mni_sort_job_s mni_sort_job;     /* internal/kernels/sort.h */

/* Rows of a CSR block on the device: y[i] (+)= sum_k val[k] x[col[k]] over
 * row i's entries, for i < n (rows: NULL) or i = rows[0..n). The extents
 * are the arrays' lengths, for the emulated device's windows. A whole
 * block (rows NULL, add 0) with 32-bit offsets ptr32 and a keep slot is a
 * library's SpMV where the backend has one (CUDA: cuSPARSE, its matrix
 * descriptor and work buffer kept in *keep until csr_release); the
 * emulated device runs the row body on ptr32 in its place. */
typedef struct {
  int dtype, add;
  int64_t n;
  const int64_t *rows, *ptr;
  const int32_t *ptr32, *col;
  const void *val, *x;
  void *y;
  void **keep;
  int64_t nptr, nnz, nx, ny; /* elements of ptr, col and val, x, y */
} mn_csr_job;

/* An index-dependent fill (arange, linspace, random) of a rank's owned
 * block: kernels/fill.h's value at each element's flat index, stored as t */
enum { MN_FILL_PARS = 6 };
typedef struct {
  int kind, t, nd;         /* MNI_FILL_*, mn_dtype, axes */
  double par[MN_FILL_PARS];
  char *data;              /* the owned origin */
  int64_t lo[MN_MAXDIM], count[MN_MAXDIM]; /* the owned box */
  int64_t stride[MN_MAXDIM], cs[MN_MAXDIM]; /* its strides; the shape's C-order strides */
  const mn_buf *b;         /* the storage data points into */
} mn_fill_job;
/* the host loop (arrays/fill.c), also the emulated device's launch */
void mni_fill_index_run(const mn_fill_job *j);

typedef struct mn_backend_ops {
  const char *name;                        /* "cpu", "emulated", "cuda" */
  /* device storage; NULL members on the cpu backend, which has none */
  int (*dev_alloc)(size_t n, void **p);    /* n > 0 */
  void (*dev_free)(void *p, size_t n);
  int (*dev_zero)(void *d, size_t n);
  int (*h2d)(void *d, const void *h, size_t n);
  int (*d2h)(void *h, const void *d, size_t n);
  /* device blocks a pool keeps, handed back (at the context's destroy) */
  void (*drain)(void);
  /* wait for the kernels queued so far (MPI is about to read their output) */
  int (*sync)(void);
  /* device memory handed to (open = 1, write: MPI may write it) or back from
   * a CUDA-aware MPI: the emulated device opens its window meanwhile */
  void (*mpi_expose)(void *d, size_t n, int open, int write);
  /* host copies of device storage */
  int (*host_alloc)(size_t n, void **p);
  void (*host_free)(void *p, size_t n);
  /* open = 0: the host copy is stale and must not be read (emulated
   * only: mapped PROT_NONE); open = 1: readable and writable again */
  void (*host_guard)(void *h, size_t n, int open);
  /* kernels on device storage (NULL: the operation runs on the host copy) */
  int (*fill)(void *d, int64_t n, size_t es, const void *value); /* n elements of es bytes = *value */
  int (*fill_index)(const mn_fill_job *j); /* j->data is device memory */
  /* mn_strided_copy between two device regions (plans' pack and unpack) */
  int (*copy_box)(int nd, const int64_t *cnt, size_t es, const char *src, const int64_t *sst, char *dst,
                  const int64_t *dst_st);
  /* a fused expression over a box (arrays/eval_dev.c) */
  int (*eval)(const mn_eval_launch *L);
  /* C (m x n, dense) = A (m x k, row stride lda) B (k x n, row stride ldb),
   * float32 / float64 (t: mn_dtype) on device memory (arrays/matmul.c) */
  int (*gemm)(int t, int64_t m, int64_t n, int64_t k, const char *A, int64_t lda, const char *B, int64_t ldb,
              char *C);
  /* a reduction along an axis over a rank's block (arrays/reduce_axis.c) */
  int (*axis)(const mni_axis_job *j);
  /* the lines of a rank's block sorted along an axis (arrays/sort.c) */
  int (*sort)(const mni_sort_job *j);
  /* a stencil job over a box of local indices [lo, lo + cnt) (stencils/dev.c) */
  int (*stencil_box)(const mni_st_job *j, const int64_t *lo, const int64_t *cnt);
  /* the boundary ghosts of one side of axis d (stencils/bc.c): o at the
   * owned origin of b's device storage, n the owned counts, st strides */
  int (*stencil_bc)(int dtype, const mn_buf *b, char *o, int nd, const int64_t *n, const int64_t *st,
                    const int *reach, int d, int side, int kind, double value);
  /* a solver's vector kernel (solvers/sv_dev.c); its sums at acc[0..) */
  int (*sv)(const mni_sv_job *j, double *acc);
  /* the rows of one level of a preconditioner's triangular sweep (solvers/pc_block_dev.c) */
  int (*tri)(const mni_tri_job *j);
  /* sparse: rows of a CSR block (sparse/spmv_dev.c) */
  int (*csr_rows)(const mn_csr_job *j);
  /* what csr_rows kept in a job's *keep (NULL: it keeps nothing) */
  void (*csr_release)(void *keep);
  /* dst[di(k)] = src[si(k)] for k < n, elements of es bytes, where si(k)
   * = sidx[k], or k when sidx is NULL (di likewise): a plan's index-list
   * messages and a flat move's runs. src and dst span nsrc and ndst. */
  int (*move)(size_t es, int64_t n, const int64_t *sidx, const char *src, int64_t nsrc, const int64_t *didx,
              char *dst, int64_t ndst);
} mn_backend_ops;

/* The table of a backend (MN_BACKEND_CPU, MN_BACKEND_CUDA or
 * MN_BACKEND_EMULATED); NULL for CUDA in a build without it. */
const mn_backend_ops *mn_backend_table(int backend);
extern const mn_backend_ops mn_backend_cpu, mn_backend_emulated;

/* Emulated device storage: a launch or copy opens the regions it names
 * for the host, and closes them after. */
void mni_emu_open(const void *d, size_t n, int write);
void mni_emu_close(const void *d, size_t n);

/* the backends' stencil launches (stencils/dev.c) */
int mni_emu_stencil_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt);
int mni_emu_stencil_bc(int dtype, const mn_buf *b, char *o, int nd, const int64_t *n, const int64_t *st,
                       const int *reach, int d, int side, int kind, double value);
int mni_cuda_stencil_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt);
int mni_cuda_stencil_bc(int dtype, const mn_buf *b, char *o, int nd, const int64_t *n, const int64_t *st,
                        const int *reach, int d, int side, int kind, double value);

/* the backends' solver, sparse and move launches (solvers/sv_dev.c,
 * solvers/pc_block_dev.c, sparse/spmv_dev.c, sparse/cuda/csr.cu) */
int mni_emu_sv(const mni_sv_job *j, double *acc);
int mni_cuda_sv(const mni_sv_job *j, double *acc);
int mni_emu_tri(const mni_tri_job *j);
int mni_emu_axis(const mni_axis_job *j);
int mni_emu_gemm(int t, int64_t m, int64_t n, int64_t k, const char *A, int64_t lda, const char *B, int64_t ldb,
                 char *C);
int mni_cuda_axis(const mni_axis_job *j);
int mni_emu_sort(const mni_sort_job *j);
int mni_cuda_sort(const mni_sort_job *j);
int mni_cuda_tri(const mni_tri_job *j);
int mni_emu_csr_rows(const mn_csr_job *j);
int mni_cuda_csr_rows(const mn_csr_job *j);
void mni_cuda_csr_release(void *keep);
int mni_cuda_move(size_t es, int64_t n, const int64_t *sidx, const char *src, int64_t nsrc, const int64_t *didx,
                  char *dst, int64_t ndst);

#endif
