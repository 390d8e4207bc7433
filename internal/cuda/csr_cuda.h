/* CUDA backend of the CSR product (sparse/cuda/csr.cu): device buffers,
 * maniple error codes. Present when built with MANIPLE_HAVE_CUDA. */
#ifndef MANIPLE_CSR_CUDA_H
#define MANIPLE_CSR_CUDA_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif
/* y (+)= the rows' products, from the shared row kernel (add: accumulate). */
int mn_cuda_csr_rows(int dtype, int64_t n, const int64_t *ptr, const int32_t *col, const void *val, const void *x,
                     void *y, int add);
/* y = A x by cuSPARSE (32-bit row offsets and columns). */
int mn_cusparse_spmv(int dtype, int64_t nrows, int64_t ncols, int64_t nnz, const int32_t *ptr, const int32_t *col,
                     const void *val, const void *x, void *y);
#ifdef __cplusplus
}
#endif
#endif
