/* maniple row-distributed sparse matrices (sparse/ layer). Every function
 * is collective over the matrix's context.
 *
 * Rows are split over the ranks as the default 1-d layout splits them
 * (equal parts, sizes differing by at most one: mn_split_start/size), and
 * so are the columns, so that a vector of the matrix's row or column count
 * created with mn_array_create is laid out to match. Each rank keeps its
 * rows as two CSR blocks: the diagonal block (the columns it owns, local
 * indices) and the off-diagonal block (the other columns, numbered
 * compactly over the ghost columns, whose global indices are kept sorted).
 * Local column indices are 32-bit, so one rank holds fewer than 2^31
 * columns of either block; global indices are 64-bit. */
#ifndef MANIPLE_MN_SPARSE_H
#define MANIPLE_MN_SPARSE_H

#include "mn_array.h"
#include "mn_partition.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct mn_csr_s mn_csr;

/* ---- assembly ---- */
/* From COO triplets that any rank may hold for any row (values of dtype
 * MN_FLOAT64 or MN_FLOAT32; rows and cols of itype MN_INT32 or MN_INT64,
 * 0-based). Entries go to their rows' owners; duplicates are summed, as
 * PETSc's MatAssemblyEnd does. An index outside the matrix is MN_ERR_INDEX
 * naming the entry, on every rank. */
MN_EXTERN int mn_csr_create_coo(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, int64_t n, mn_dtype itype,
                      const void *rows, const void *cols, const void *vals, mn_csr **A);
/* From each rank's own rows in CSR form (global column indices; rowptr has
 * nlocal + 1 int64 entries, nlocal the rank's row count in the split).
 * Columns within a row may come in any order; duplicates are summed. */
MN_EXTERN int mn_csr_create_rows(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, int64_t nlocal,
                       const int64_t *rowptr, mn_dtype itype, const void *cols, const void *vals, mn_csr **A);
MN_EXTERN int mn_csr_destroy(mn_csr **A);

/* ---- information ---- */
MN_EXTERN mn_ctx *mn_csr_ctx(const mn_csr *A);
MN_EXTERN void mn_csr_shape(const mn_csr *A, int64_t *nrows, int64_t *ncols);
MN_EXTERN mn_dtype mn_csr_dtype(const mn_csr *A);
/* Stored entries, over all ranks. */
MN_EXTERN int64_t mn_csr_nnz(const mn_csr *A);
/* This rank's rows [*row0, *row0 + *nlocal) and stored entries. */
MN_EXTERN void mn_csr_local_rows(const mn_csr *A, int64_t *row0, int64_t *nlocal, int64_t *nnz_local);
/* Ghost columns this rank reads and the messages and bytes one SpMV sends. */
MN_EXTERN void mn_csr_ghosts(const mn_csr *A, int64_t *nghost, int *nmsg, int64_t *bytes);
/* This rank's rows as CSR with global, sorted column indices: rowptr
 * (nlocal + 1), cols (int64) and vals (dtype), each mn_malloc'd (the caller
 * frees them with mn_free). */
MN_EXTERN int mn_csr_get_rows(const mn_csr *A, int64_t **rowptr, int64_t **cols, void **vals);

/* ---- products ---- */
/* y = A x (x: 1-d, A's column count; y: 1-d, A's row count; any layouts,
 * cast to and from A's dtype; an x the cast would change, complex into a
 * real A or float into an integer or bool one, is MN_ERR_DTYPE). The ghost exchange
 * overlaps the diagonal block's product. */
MN_EXTERN int mn_csr_spmv(const mn_csr *A, const mn_array *x, mn_array *y);
/* y = A^T x: the off-diagonal contributions go back to their owners and
 * are summed there, in rank order. */
MN_EXTERN int mn_csr_spmv_t(const mn_csr *A, const mn_array *x, mn_array *y);
/* Y = A X for a dense block of vectors X (2-d, A's column count rows). */
MN_EXTERN int mn_csr_spmm(const mn_csr *A, const mn_array *X, mn_array *Y);

/* ---- new matrices ---- */
/* C = alpha A + beta B (same shape; union of the patterns; C's dtype is
 * NumPy's result dtype of A's and B's). */
MN_EXTERN int mn_csr_add(double alpha, const mn_csr *A, double beta, const mn_csr *B, mn_csr **C);
/* C = A^T. */
MN_EXTERN int mn_csr_transpose(const mn_csr *A, mn_csr **C);
/* C = A B (sparse product; B's rows that A's ghost columns name are
 * fetched from their owners). */
MN_EXTERN int mn_csr_matmul(const mn_csr *A, const mn_csr *B, mn_csr **C);
/* A copy with values of dtype t (MN_NDTYPE: A's). */
MN_EXTERN int mn_csr_copy(const mn_csr *A, mn_dtype t, mn_csr **C);

/* ---- partitioning and files ---- */
/* The partition of A's symmetrised graph (square A; vertex weights: the
 * rows' stored entries). */
MN_EXTERN int mn_csr_partition(const mn_csr *A, mn_part_kind kind, mn_partition **p);
/* B = A renumbered by p: B[new(i), new(j)] = A[i, j] (square A). */
MN_EXTERN int mn_csr_permute(const mn_csr *A, const mn_partition *p, mn_csr **B);
/* Matrix Market coordinate files (real, integer, complex or pattern;
 * general, symmetric, skew-symmetric or hermitian; dtype MN_NDTYPE reads
 * the file's as SciPy: int64 for an integer file (exactly), complex128 for
 * a complex one, else float64; a complex file read as a real dtype, or a
 * real one as an integer dtype, is MN_ERR_DTYPE). Both check the path on every
 * rank first: missing (on any rank) or a directory is MN_ERR_IO with its
 * errno on every rank. Reading: by every rank on its byte range of the
 * entries (parallel = 1) or by rank 0 alone, as SciPy reads (entries on
 * either side of a symmetric file's diagonal are mirrored); a malformed
 * file, or a value out of the dtype's range, is MN_ERR_FORMAT naming the
 * file and line, on every rank; declared sizes that overflow int64 are
 * MN_ERR_FORMAT, those that cannot fit in memory MN_ERR_MEM, both before
 * anything is allocated. Writing: field "real", "integer", "complex" or
 * "pattern" (a complex matrix: "complex" or "pattern");
 * symmetric writes the lower triangle of a matrix that must be
 * symmetric. */
MN_EXTERN int mn_csr_read_mtx(mn_ctx *ctx, const char *path, mn_dtype dtype, int parallel, mn_csr **A);
MN_EXTERN int mn_csr_write_mtx(const mn_csr *A, const char *path, const char *field, int symmetric);

/* ---- in place and reductions ---- */
/* A = s A. */
MN_EXTERN int mn_csr_scale(mn_csr *A, double s);
/* A[i, j] = l[i] A[i, j] r[j] (either vector may be NULL). */
MN_EXTERN int mn_csr_diag_scale(mn_csr *A, const mn_array *l, const mn_array *r);
/* d[i] = A[i, i] (d: 1-d of min(nrows, ncols)). */
MN_EXTERN int mn_csr_diagonal(const mn_csr *A, mn_array *d);
/* s[i] = sum_j A[i, j] (axis 1, s: nrows) or sum_i (axis 0, s: ncols). */
MN_EXTERN int mn_csr_sum(const mn_csr *A, int axis, mn_array *s);
/* Drop stored zeros. */
MN_EXTERN int mn_csr_eliminate_zeros(mn_csr *A);

#ifdef __cplusplus
}
#endif
#endif
