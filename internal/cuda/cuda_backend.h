/* CUDA backend entry points (the .cu files here). Pointers named as device
 * buffers are device memory; every function returns a maniple error code
 * (MN_ERR_CUDA with the CUDA / cuBLAS status named in the message).
 * Only present when the library is built with MANIPLE_HAVE_CUDA, except
 * mn_cuda_device_count (mn_core.h), which every build has. */
#ifndef MANIPLE_CUDA_BACKEND_H
#define MANIPLE_CUDA_BACKEND_H

#include <maniple/mn_core.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif
#include "backend.h" /* mn_fill_job */

/* ---- device.cu ---- */
/* Names of a cudaError_t ("cudaErrorNoDevice") and of a cublasStatus_t
 * ("CUBLAS_STATUS_NOT_INITIALIZED"); static strings. */
const char *mn_cuda_status_name(int cuda_error);
const char *mn_cublas_status_name(int status);
/* n == 0 gives *p = NULL. mn_cuda_free(NULL) is a no-op. */
int mn_cuda_malloc(void **p, size_t n);
int mn_cuda_free(void *p);
/* Synchronous copies of n bytes (host <-> device). */
int mn_cuda_memcpy_h2d(void *dst, const void *src, size_t n);
int mn_cuda_memcpy_d2h(void *dst, const void *src, size_t n);
/* n bytes of device memory set to zero */
int mn_cuda_memset0(void *dst, size_t n);
/* wait for the work queued on the device (before MPI reads device buffers) */
int mn_cuda_sync(void);
/* Page-locked host memory (cudaMallocHost), for the host copies of device
 * arrays: copies to and from it run at full bus speed. */
int mn_cuda_host_alloc(void **p, size_t n);
void mn_cuda_host_free(void *p);

/* ---- kernels.cu ----
 * Element-wise kernels on n contiguous device elements, asynchronous on the
 * default stream. op is an mn_unary_op / mn_binary_op / mn_ternary_op, ct
 * the compute dtype (mn_dtype): inputs are of type ct, except where's
 * condition (bool); the output is ct, or bool for predicates and
 * comparisons, as in the CPU tables. MN_ERR_DTYPE when the (op, ct) pair
 * has no kernel; MN_ERR_CUDA when the launch fails. o may equal an input. */
int mn_cuda_unary(int op, int ct, int64_t n, const void *a, void *o);
int mn_cuda_binary(int op, int ct, int64_t n, const void *a, const void *b,
                   void *o);
int mn_cuda_ternary(int op, int ct, int64_t n, const void *a, const void *b,
                    const void *c, void *o);
/* o[i] = the element of es bytes (1, 2, 4 or 8) at value, for i < n. */
int mn_cuda_fill(int64_t n, size_t es, const void *value, void *o);
/* an index-dependent fill (arange, linspace, random) of j's owned block */
int mn_cuda_fill_index(const mn_fill_job *j);
/* mn_strided_copy (mn_impl.h) with src and dst in device memory:
 * elements of es bytes (1, 2, 4 or 8), strides in elements. */
int mn_cuda_copy_box(int nd, const int64_t *cnt, size_t es, const char *src, const int64_t *sst, char *dst,
                     const int64_t *dst_st);
/* o[i] = (to)a[i] with NumPy's cast rules (to bool means != 0). */
int mn_cuda_cast(int from, int to, int64_t n, const void *a, void *o);

/* ---- blas.cu ----
 * cuBLAS BLAS-1 on contiguous device vectors of dtype MN_FLOAT32 or
 * MN_FLOAT64 (else MN_ERR_DTYPE); results are returned on the host, so
 * dot and nrm2 synchronise. One cuBLAS handle per process, created on
 * first use on the device current then. */
int mn_cuda_dot(int dtype, int64_t n, const void *x, const void *y,
                double *result);
/* y = alpha*x + y */
int mn_cuda_axpy(int dtype, int64_t n, double alpha, const void *x, void *y);
/* C (m x n, row-major, dense) = A (m x k, row stride lda) B (k x n, row
 * stride ldb) by cuBLAS, float32 or float64, on device memory. */
int mn_cuda_gemm(int dtype, int64_t m, int64_t n, int64_t k, const char *A, int64_t lda, const char *B, int64_t ldb,
                 char *C);
int mn_cuda_nrm2(int dtype, int64_t n, const void *x, double *result);

#ifdef __cplusplus
}
#endif
#endif
