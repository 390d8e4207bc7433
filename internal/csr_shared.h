/* What sparse/ offers the layers above it (solvers/) beyond the public API,
 * without showing its struct (csr_impl.h is sparse/'s own). */
#ifndef MANIPLE_CSR_SHARED_H
#define MANIPLE_CSR_SHARED_H
#include <maniple/mn_sparse.h>

/* y = A x on the local blocks of float64 vectors (x: my ncloc columns, y:
 * my nlocal rows), the ghost exchange overlapping the diagonal block's
 * rows; with xy, also the local part of x.y in the same passes (A square).
 * The product mn_csr_spmv makes, without its checks and copies, for a
 * float64 matrix. Logged as MN_LOG_SPMV. */
int mni_csr_spmv_dot(const mn_csr *A, const double *x, double *y, double *xy);
/* The same product on device vectors (spmv_dev.c), without x.y and
 * logged; a failure stops the job, since the other ranks wait on this
 * one's ghost messages. */
void mni_csr_product_dev(const mn_csr *A, const char *x, char *y);
/* Bytes one product reads and writes, for the profiling log. */
int64_t mn_csr_log_bytes(const mn_csr *A);

/* The diagonal block of my rows (square A: my columns are my rows), its
 * pattern A's own (read-only, valid while A lives). */
typedef struct {
  int64_t n, row0;        /* my rows: [row0, row0 + n) */
  const int64_t *ptr;     /* n + 1 */
  const int32_t *col;     /* local column, ascending within a row */
} mni_csr_block;
void mni_csr_diag_block(const mn_csr *A, mni_csr_block *b);
/* Its values as float64, into val (ptr[n] of them). */
void mni_csr_diag_values(const mn_csr *A, double *val);
/* A number for A's contents that no other contents of any matrix in this
 * process had: new at creation and at each change of values, so what was
 * made from A (a preconditioner) is still valid while it is the same. */
uint64_t mni_csr_state(const mn_csr *A);
/* 1 when every entry this rank stores is on the diagonal (a local answer) */
int mni_csr_diagonal_only(const mn_csr *A);
#endif
