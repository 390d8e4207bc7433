/* CUDA backend: cuBLAS BLAS-1 on contiguous device vectors. */
/* Only MPI's C API is used; skip the C++ bindings mpi.h adds under C++. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <mutex>
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
}
#include "cuda/cuda_backend.h"

/* One handle per process, created on first use. It is never destroyed:
 * cublasDestroy from an atexit handler can run after the CUDA runtime has
 * been torn down, and the driver reclaims it at exit anyway. */
static cublasHandle_t handle = nullptr;
static std::mutex handle_lock;

static int get_handle(cublasHandle_t *h) {
  std::lock_guard<std::mutex> guard(handle_lock);
  if (!handle) {
    cublasStatus_t s = cublasCreate(&handle);
    if (s != CUBLAS_STATUS_SUCCESS) {
      handle = nullptr; /* retry on the next call rather than caching the failure */
      (void)cudaGetLastError();
      return MN_ERR(MN_ERR_CUDA, "cublasCreate failed: %s", mn_cublas_status_name(s));
    }
    /* results (dot, nrm2) and alpha live on the host */
    s = cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST);
    if (s != CUBLAS_STATUS_SUCCESS) {
      cublasDestroy(handle);
      handle = nullptr;
      return MN_ERR(MN_ERR_CUDA, "cublasSetPointerMode failed: %s", mn_cublas_status_name(s));
    }
  }
  *h = handle;
  return MN_SUCCESS;
}

static int blas_fail(const char *call, int64_t n, cublasStatus_t s) {
  (void)cudaGetLastError();
  return MN_ERR(MN_ERR_CUDA, "%s on %lld elements failed: %s", call, (long long)n,
                mn_cublas_status_name(s));
}

/* Common argument checks; returns 1 (and *rc) when the call is done. */
static int precheck(const char *fn, int dtype, int64_t n, int *rc) {
  *rc = MN_SUCCESS;
  if (n < 0) {
    *rc = MN_ERR(MN_ERR_ARG, "%s: negative element count %lld", fn, (long long)n);
    return 1;
  }
  if (dtype != MN_FLOAT32 && dtype != MN_FLOAT64) {
    *rc = MN_ERR(MN_ERR_DTYPE, "%s: cuBLAS supports float32 and float64, not %s (dtype %d)",
                 fn, mn_dtype_name((mn_dtype)dtype), dtype);
    return 1;
  }
  return n == 0;
}

/* The _64 entry points take 64-bit counts, so n beyond INT_MAX works. */
int mn_cuda_dot(int dtype, int64_t n, const void *x, const void *y,
                double *result) {
  MN_CHECK(result, MN_ERR_ARG, "mn_cuda_dot: result pointer is NULL");
  *result = 0;
  int rc;
  if (precheck("mn_cuda_dot", dtype, n, &rc)) return rc;
  MN_CHECK(x && y, MN_ERR_ARG, "mn_cuda_dot on %lld elements with a NULL device pointer",
           (long long)n);
  cublasHandle_t h;
  MN_CALL(get_handle(&h));
  cublasStatus_t s;
  if (dtype == MN_FLOAT32) {
    float r = 0;
    s = cublasSdot_64(h, n, (const float *)x, 1, (const float *)y, 1, &r);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasSdot", n, s);
    *result = r;
  } else {
    double r = 0;
    s = cublasDdot_64(h, n, (const double *)x, 1, (const double *)y, 1, &r);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasDdot", n, s);
    *result = r;
  }
  return MN_SUCCESS;
}

int mn_cuda_axpy(int dtype, int64_t n, double alpha, const void *x, void *y) {
  int rc;
  if (precheck("mn_cuda_axpy", dtype, n, &rc)) return rc;
  MN_CHECK(x && y, MN_ERR_ARG, "mn_cuda_axpy on %lld elements with a NULL device pointer",
           (long long)n);
  cublasHandle_t h;
  MN_CALL(get_handle(&h));
  cublasStatus_t s;
  if (dtype == MN_FLOAT32) {
    float a = (float)alpha;
    s = cublasSaxpy_64(h, n, &a, (const float *)x, 1, (float *)y, 1);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasSaxpy", n, s);
  } else {
    s = cublasDaxpy_64(h, n, &alpha, (const double *)x, 1, (double *)y, 1);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasDaxpy", n, s);
  }
  return MN_SUCCESS;
}

int mn_cuda_nrm2(int dtype, int64_t n, const void *x, double *result) {
  MN_CHECK(result, MN_ERR_ARG, "mn_cuda_nrm2: result pointer is NULL");
  *result = 0;
  int rc;
  if (precheck("mn_cuda_nrm2", dtype, n, &rc)) return rc;
  MN_CHECK(x, MN_ERR_ARG, "mn_cuda_nrm2 on %lld elements with a NULL device pointer",
           (long long)n);
  cublasHandle_t h;
  MN_CALL(get_handle(&h));
  cublasStatus_t s;
  if (dtype == MN_FLOAT32) {
    float r = 0;
    s = cublasSnrm2_64(h, n, (const float *)x, 1, &r);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasSnrm2", n, s);
    *result = r;
  } else {
    double r = 0;
    s = cublasDnrm2_64(h, n, (const double *)x, 1, &r);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasDnrm2", n, s);
    *result = r;
  }
  return MN_SUCCESS;
}

/* Row-major C = A B is column-major C^T = B^T A^T: cuBLAS is handed B and
 * A, both untransposed, with their row strides as leading dimensions. */
int mn_cuda_gemm(int dtype, int64_t m, int64_t n, int64_t k, const char *A, int64_t lda, const char *B, int64_t ldb,
                 char *C) {
  int rc;
  if (precheck("mn_cuda_gemm", dtype, m * n, &rc)) return rc;
  if (k == 0) return mn_cuda_memset0(C, (size_t)(m * n) * (dtype == MN_FLOAT32 ? 4 : 8));
  cublasHandle_t h;
  MN_CALL(get_handle(&h));
  cublasStatus_t s;
  if (dtype == MN_FLOAT32) {
    const float one = 1, zero = 0;
    s = cublasSgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const float *)B, ldb > 0 ? ldb : 1,
                       (const float *)A, lda > 0 ? lda : 1, &zero, (float *)C, n);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasSgemm", m * n, s);
  } else {
    const double one = 1, zero = 0;
    s = cublasDgemm_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, (const double *)B, ldb > 0 ? ldb : 1,
                       (const double *)A, lda > 0 ? lda : 1, &zero, (double *)C, n);
    if (s != CUBLAS_STATUS_SUCCESS) return blas_fail("cublasDgemm", m * n, s);
  }
  return MN_SUCCESS;
}
