/* y = A^T x for a tall, narrow row-major A (linear and logistic
 * regression's gradient, x.dot(X)): faster than OpenBLAS's gemv there. */
#ifndef MANIPLE_GEMV_NARROW_H
#define MANIPLE_GEMV_NARROW_H
#include <maniple/mn_array.h>
#include <stdint.h>

/* y[j] = sum_i x[i] A[i lda + j] (i < m, j < k), x and y contiguous;
 * 0 when it does not take these operands (dtype, width, CPU). */
int mni_gemv_t_narrow(mn_dtype t, int64_t m, int64_t k, const void *A, int64_t lda, const void *x, void *y);
#endif
