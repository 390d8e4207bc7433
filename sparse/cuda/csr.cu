/* CUDA backend of the CSR product: a row kernel expanded from the shared
 * body (internal/kernels/csr.h), cuSPARSE's SpMV (kept with a matrix for
 * its diagonal block), and the backend's move (index-list gathers and
 * scatters of plans and flat moves). */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <cusparse.h>
#include <cstring>
#include <mutex>
#include <new>
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
#include "backend.h"
}
#include "kernels/csr.h"
#include "cuda/csr_cuda.h"

static int launched(const char *what) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return MN_ERR(MN_ERR_CUDA, "%s launch failed: %s", what, cudaGetErrorName(e));
  return MN_SUCCESS;
}

/* a block's rows through the backend: all of them, or a list (the rows
 * with off-diagonal entries) */
template <typename T, T (*ROW)(int64_t, int64_t, const int32_t *, const T *, const T *), T (*PLUS)(T, T)>
__global__ void csr_rows_job(const __grid_constant__ mn_csr_job j) {
  for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < j.n; b += (int64_t)gridDim.x * blockDim.x) {
    int64_t i = j.rows ? j.rows[b] : b;
    T s = ROW(j.ptr[i], j.ptr[i + 1], j.col, (const T *)j.val, (const T *)j.x), *y = (T *)j.y;
    y[i] = j.add ? PLUS(y[i], s) : s;
  }
}

static int grid(int64_t n) { return (int)((n + 255) / 256 < 65535 ? (n + 255) / 256 : 65535); }

static int spmv_kept(const mn_csr_job *j);

extern "C" int mni_cuda_csr_rows(const mn_csr_job *j) {
  if (j->n == 0) return MN_SUCCESS;
  int lib = j->dtype == MN_FLOAT64 || j->dtype == MN_FLOAT32 || j->dtype == MN_COMPLEX128 || j->dtype == MN_COMPLEX64;
  if (lib && !j->rows && !j->add && j->ptr32 && j->keep) return spmv_kept(j); /* cuSPARSE's types */
#define ROWS_CASE(D, T, S) \
  case D: csr_rows_job<T, mni_k_csr_row_##S, mni_k_csr_plus_##S><<<grid(j->n), 256>>>(*j); break;
  switch (j->dtype) {
  ROWS_CASE(MN_FLOAT64, double, f64)
  MNI_CSR_OTHER_TYPES(ROWS_CASE)
  default: return MN_ERR(MN_ERR_DTYPE, "CSR rows of dtype %d", j->dtype);
  }
#undef ROWS_CASE
  return launched("csr_rows_job");
}

extern "C" int mn_cuda_csr_rows(int dtype, int64_t n, const int64_t *ptr, const int32_t *col, const void *val,
                                const void *x, void *y, int add) {
  if (dtype != MN_FLOAT64 && dtype != MN_FLOAT32)
    return MN_ERR(MN_ERR_DTYPE, "CSR products hold float32 or float64, not dtype %d", dtype);
  mn_csr_job j;
  memset(&j, 0, sizeof j);
  j.dtype = dtype;
  j.add = add;
  j.n = n;
  j.ptr = ptr;
  j.col = col;
  j.val = val;
  j.x = x;
  j.y = y;
  return mni_cuda_csr_rows(&j);
}

template <typename T>
__global__ void move_k(int64_t n, const int64_t *sidx, const T *src, const int64_t *didx, T *dst) {
  for (int64_t k = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; k < n; k += (int64_t)gridDim.x * blockDim.x)
    dst[didx ? didx[k] : k] = src[sidx ? sidx[k] : k];
}

extern "C" int mni_cuda_move(size_t es, int64_t n, const int64_t *sidx, const char *src, int64_t nsrc,
                             const int64_t *didx, char *dst, int64_t ndst) {
  (void)nsrc;
  (void)ndst;
  if (n == 0) return MN_SUCCESS;
  switch (es) {
  case 8: move_k<<<grid(n), 256>>>(n, sidx, (const uint64_t *)src, didx, (uint64_t *)dst); break;
  case 4: move_k<<<grid(n), 256>>>(n, sidx, (const uint32_t *)src, didx, (uint32_t *)dst); break;
  case 2: move_k<<<grid(n), 256>>>(n, sidx, (const uint16_t *)src, didx, (uint16_t *)dst); break;
  case 1: move_k<<<grid(n), 256>>>(n, sidx, (const uint8_t *)src, didx, (uint8_t *)dst); break;
  case 16: move_k<<<grid(n), 256>>>(n, sidx, (const double2 *)src, didx, (double2 *)dst); break;
  default: return MN_ERR(MN_ERR_DTYPE, "a move of %zu-byte elements", es);
  }
  return launched("move_k");
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

static int get_handle(void) {
  std::lock_guard<std::mutex> guard(handle_lock);
  if (!handle && cusparseCreate(&handle) != CUSPARSE_STATUS_SUCCESS) {
    handle = nullptr;
    return MN_ERR(MN_ERR_CUDA, "cusparseCreate failed");
  }
  return MN_SUCCESS;
}

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
  int e = get_handle();
  if (e) return e;
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

/* A matrix block's cuSPARSE state, made at its first product and kept
 * until the block leaves the device: the descriptor and the work buffer
 * (the vectors' descriptors are host objects, made per call). */
struct kept {
  cusparseSpMatDescr_t A;
  void *work;
};

extern "C" void mni_cuda_csr_release(void *keep) {
  kept *k = (kept *)keep;
  if (!k) return;
  if (k->A) cusparseDestroySpMat(k->A);
  if (k->work) cudaFree(k->work);
  delete k;
}

/* cuSPARSE's value type for a matrix dtype, and 1 and 0 in it */
static cudaDataType sp_type(int dtype, const void **one, const void **zero) {
  static const double d1[2] = {1, 0}, d0[2] = {0, 0};
  static const float f1[2] = {1, 0}, f0[2] = {0, 0};
  int wide = dtype == MN_FLOAT64 || dtype == MN_COMPLEX128;
  *one = wide ? (const void *)d1 : (const void *)f1;
  *zero = wide ? (const void *)d0 : (const void *)f0;
  switch (dtype) {
  case MN_FLOAT32: return CUDA_R_32F;
  case MN_COMPLEX128: return CUDA_C_64F;
  case MN_COMPLEX64: return CUDA_C_32F;
  default: return CUDA_R_64F;
  }
}

static int spmv_kept(const mn_csr_job *j) {
  int err = get_handle();
  if (err) return err;
  const void *alpha, *beta;
  cudaDataType vt = sp_type(j->dtype, &alpha, &beta);
  cusparseDnVecDescr_t vx = nullptr, vy = nullptr;
  kept *k = (kept *)*j->keep;
  int fresh = !k;
  if (fresh) {
    k = new (std::nothrow) kept();
    if (!k) return MN_ERR(MN_ERR_MEM, "cannot allocate a matrix's cuSPARSE record");
    *j->keep = k;
  }
  SP(cusparseCreateDnVec(&vx, j->nx, (void *)j->x, vt));
  SP(cusparseCreateDnVec(&vy, j->ny, j->y, vt));
  if (fresh) {
    size_t wbytes = 0;
    SP(cusparseCreateCsr(&k->A, j->n, j->nx, j->nnz, (void *)j->ptr32, (void *)j->col, (void *)j->val,
                         CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, vt));
    SP(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, k->A, vx, beta, vy, vt,
                               CUSPARSE_SPMV_ALG_DEFAULT, &wbytes));
    if (wbytes && cudaMalloc(&k->work, wbytes) != cudaSuccess) {
      err = MN_ERR(MN_ERR_CUDA, "cannot allocate %zu bytes of cuSPARSE work space", wbytes);
      goto done;
    }
  }
  SP(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, alpha, k->A, vx, beta, vy, vt,
                  CUSPARSE_SPMV_ALG_DEFAULT, k->work));
done:
  if (vx) cusparseDestroyDnVec(vx);
  if (vy) cusparseDestroyDnVec(vy);
  return err;
}
