/* CUDA backend of the CSR product: a row kernel expanded from the shared
 * body (sparse/kernels/csr.h) and cuSPARSE's SpMV, on device buffers. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <cusparse.h>
#include <mutex>
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
}
#include "kernels/csr.h"
#include "cuda/csr_cuda.h"

template <typename T, T (*ROW)(int64_t, int64_t, const int32_t *, const T *, const T *)>
__global__ void csr_rows(int64_t n, const int64_t *ptr, const int32_t *col, const T *val, const T *x, T *y,
                         int add) {
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < n; i += (int64_t)gridDim.x * blockDim.x) {
    T s = ROW(ptr[i], ptr[i + 1], col, val, x);
    y[i] = add ? y[i] + s : s;
  }
}

static int launched(const char *what) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return MN_ERR(MN_ERR_CUDA, "%s launch failed: %s", what, cudaGetErrorName(e));
  return MN_SUCCESS;
}

extern "C" int mn_cuda_csr_rows(int dtype, int64_t n, const int64_t *ptr, const int32_t *col, const void *val,
                                const void *x, void *y, int add) {
  if (n == 0) return MN_SUCCESS;
  int threads = 256, blocks = (int)((n + threads - 1) / threads < 65535 ? (n + threads - 1) / threads : 65535);
  if (dtype == MN_FLOAT64)
    csr_rows<double, mni_k_csr_row_f64><<<blocks, threads>>>(n, ptr, col, (const double *)val, (const double *)x,
                                                            (double *)y, add);
  else if (dtype == MN_FLOAT32)
    csr_rows<float, mni_k_csr_row_f32><<<blocks, threads>>>(n, ptr, col, (const float *)val, (const float *)x,
                                                          (float *)y, add);
  else
    return MN_ERR(MN_ERR_DTYPE, "CSR products hold float32 or float64, not dtype %d", dtype);
  return launched("csr_rows");
}

/* ---- cuSPARSE ---- */
static cusparseHandle_t handle = nullptr;
static std::mutex handle_lock;

static const char *sp_name(cusparseStatus_t s) { return cusparseGetErrorName(s); }

#define SP(call)                                                                              \
  do {                                                                                        \
    cusparseStatus_t s_ = (call);                                                             \
    if (s_ != CUSPARSE_STATUS_SUCCESS) { err = MN_ERR(MN_ERR_CUDA, "%s failed: %s", #call, sp_name(s_)); goto done; } \
  } while (0)

extern "C" int mn_cusparse_spmv(int dtype, int64_t nrows, int64_t ncols, int64_t nnz, const int32_t *ptr,
                                const int32_t *col, const void *val, const void *x, void *y) {
  if (dtype != MN_FLOAT64 && dtype != MN_FLOAT32)
    return MN_ERR(MN_ERR_DTYPE, "cuSPARSE SpMV of dtype %d: float32 or float64 only", dtype);
  int err = MN_SUCCESS;
  cudaDataType vt = dtype == MN_FLOAT64 ? CUDA_R_64F : CUDA_R_32F;
  cusparseSpMatDescr_t A = nullptr;
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  void *work = nullptr;
  size_t wbytes = 0;
  double one = 1, zero = 0;
  float onef = 1, zerof = 0;
  const void *alpha = dtype == MN_FLOAT64 ? (const void *)&one : (const void *)&onef;
  const void *beta = dtype == MN_FLOAT64 ? (const void *)&zero : (const void *)&zerof;
  {
    std::lock_guard<std::mutex> guard(handle_lock);
    if (!handle && cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) {
      handle = nullptr;
      return MN_ERR(MN_ERR_CUDA, "cusparseCreate failed");
    }
  }
  SP(cusparseCreateCsr(&A, nrows, ncols, nnz, (void *)ptr, (void *)col, (void *)val, CUSPARSE_INDEX_32I,
                       CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
  SP(cusparseCreateDnVec(&vx, ncols, (void *)x, vt));
  SP(cusparseCreateDnVec(&vy, nrows, y, vt));
  SP(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, vx, beta, vy, vt,
                             CUSPARSE_SPMV_ALG_DEFAULT, &wbytes));
  if (wbytes && cudaMalloc(&work, wbytes) != cudaSuccess) {
    err = MN_ERR(MN_ERR_CUDA, "cannot allocate %zu bytes of cuSPARSE work space", wbytes);
    goto done;
  }
  SP(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, A, vx, beta, vy, vt, CUSPARSE_SPMV_ALG_DEFAULT,
                  work));
done:
  if (A) cusparseDestroySpMat(A);
  if (vx) cusparseDestroyDnVec(vx);
  if (vy) cusparseDestroyDnVec(vy);
  cudaFree(work);
  return err;
}
