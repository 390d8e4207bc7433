/* Rows of a triangular sweep over a CSR block (the block Jacobi
 * preconditioners' solves): out[i] = (src[i] - sum val[k] x[col[k]]) *
 * dinv[i] over row i's entries left (upper = 0) or right (upper = 1) of
 * its diagonal entry dpos[i], for the rows of one job. A sweep (x = out)
 * runs as one job per level: rows whose entries on that side all name
 * rows of earlier levels, so the rows of a job are independent and each
 * row's sum is the sequential loop's, in the same order. The host runs
 * the rows in order as one job; CUDA expands the body per row. */
#ifndef MANIPLE_TRI_KERNELS_H
#define MANIPLE_TRI_KERNELS_H
#include "kernels/mn_hd.h"
#include <stdint.h>

typedef struct mni_tri_job_s {
  int upper;
  int64_t n;              /* rows of the job */
  const int64_t *rows;    /* them (NULL: 0..n) */
  const int64_t *ptr, *dpos;
  const int32_t *col;
  const double *val;
  const double *dinv;     /* NULL: 1 */
  const double *src, *x;
  double *out;            /* may be x or src */
  int64_t nrows, nnz;     /* the block's rows and entries (extents, for the emulated device) */
} mni_tri_job;

MN_HD static inline void mni_tri_row(const mni_tri_job *j, int64_t b) {
  int64_t i = j->rows ? j->rows[b] : b;
  int64_t k = j->upper ? j->dpos[i] + 1 : j->ptr[i], e = j->upper ? j->ptr[i + 1] : j->dpos[i];
  double t = j->src[i];
  for (; k < e; k++) t -= j->val[k] * j->x[j->col[k]];
  j->out[i] = j->dinv ? t * j->dinv[i] : t;
}
#endif
