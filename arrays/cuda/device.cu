/* CUDA backend: device discovery, status names, memory and copies. */
/* Only MPI's C API is used; skip the C++ bindings mpi.h adds under C++. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <cublas_v2.h>
#include <stdio.h>
/* mn_impl.h is a C header without extern "C"; its own includes (mpi.h and
 * the public headers) are pulled in first so that only its declarations
 * get C linkage. */
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
}
#include "cuda/cuda_backend.h"

int mn_cuda_device_count(int *count, const char **reason) {
  /* per thread, like the error buffer, so the pointer stays valid */
  static thread_local char why[256];
  int n = 0;
  cudaError_t e = cudaGetDeviceCount(&n);
  if (e != cudaSuccess) {
    (void)cudaGetLastError(); /* clear it so later launch checks do not see it */
    snprintf(why, sizeof why, "cudaGetDeviceCount returned %s: %s",
             cudaGetErrorName(e), cudaGetErrorString(e));
    n = 0;
  } else if (n == 0) {
    snprintf(why, sizeof why, "cudaGetDeviceCount found no CUDA device");
  } else {
    why[0] = '\0';
  }
  if (count) *count = n;
  if (reason) *reason = why;
  return MN_SUCCESS;
}

const char *mn_cuda_status_name(int cuda_error) {
  return cudaGetErrorName((cudaError_t)cuda_error);
}

const char *mn_cublas_status_name(int status) {
  switch ((cublasStatus_t)status) {
  case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
  case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
  case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
  case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
  case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
  case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
  case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
  case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
  case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
  case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

/* Failed runtime calls also set the (non-sticky) last error; clear it so a
 * later cudaGetLastError after a kernel launch reports only that launch. */
#define CUDA_FAIL(...) ((void)cudaGetLastError(), MN_ERR(MN_ERR_CUDA, __VA_ARGS__))

int mn_cuda_malloc(void **p, size_t n) {
  MN_CHECK(p, MN_ERR_ARG, "output pointer is NULL");
  *p = NULL;
  if (n == 0) return MN_SUCCESS;
  cudaError_t e = cudaMalloc(p, n);
  if (e != cudaSuccess) {
    *p = NULL;
    return CUDA_FAIL("cudaMalloc of %zu bytes failed: %s (%s)", n,
                     cudaGetErrorName(e), cudaGetErrorString(e));
  }
  return MN_SUCCESS;
}

int mn_cuda_free(void *p) {
  if (!p) return MN_SUCCESS;
  cudaError_t e = cudaFree(p);
  if (e != cudaSuccess)
    return CUDA_FAIL("cudaFree(%p) failed: %s (%s)", p, cudaGetErrorName(e),
                     cudaGetErrorString(e));
  return MN_SUCCESS;
}

static int copy(void *dst, const void *src, size_t n, cudaMemcpyKind kind,
                const char *what) {
  if (n == 0) return MN_SUCCESS;
  MN_CHECK(dst && src, MN_ERR_ARG, "%s of %zu bytes with a NULL %s pointer",
           what, n, dst ? "source" : "destination");
  cudaError_t e = cudaMemcpy(dst, src, n, kind);
  if (e != cudaSuccess)
    return CUDA_FAIL("cudaMemcpy %s of %zu bytes failed: %s (%s)", what, n,
                     cudaGetErrorName(e), cudaGetErrorString(e));
  return MN_SUCCESS;
}

int mn_cuda_memcpy_h2d(void *dst, const void *src, size_t n) {
  return copy(dst, src, n, cudaMemcpyHostToDevice, "host-to-device");
}

int mn_cuda_memcpy_d2h(void *dst, const void *src, size_t n) {
  return copy(dst, src, n, cudaMemcpyDeviceToHost, "device-to-host");
}

int mn_cuda_sync(void) {
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) return CUDA_FAIL("the device's work failed: %s (%s)", cudaGetErrorName(e), cudaGetErrorString(e));
  return MN_SUCCESS;
}

int mn_cuda_memset0(void *dst, size_t n) {
  if (n == 0) return MN_SUCCESS;
  cudaError_t e = cudaMemset(dst, 0, n);
  if (e != cudaSuccess)
    return CUDA_FAIL("cudaMemset of %zu bytes failed: %s (%s)", n, cudaGetErrorName(e), cudaGetErrorString(e));
  return MN_SUCCESS;
}

int mn_cuda_host_alloc(void **p, size_t n) {
  MN_CHECK(p, MN_ERR_ARG, "output pointer is NULL");
  cudaError_t e = cudaMallocHost(p, n ? n : 1);
  if (e != cudaSuccess) {
    *p = NULL;
    return CUDA_FAIL("cudaMallocHost of %zu bytes failed: %s (%s)", n, cudaGetErrorName(e), cudaGetErrorString(e));
  }
  return MN_SUCCESS;
}

void mn_cuda_host_free(void *p) {
  if (p && cudaFreeHost(p) != cudaSuccess) (void)cudaGetLastError();
}
