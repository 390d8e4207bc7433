/* The solvers' vector kernels on CUDA: the body of kernels/sv.h over a
 * grid-stride loop, each block's sums reduced in shared memory to its
 * partials, which one more launch adds in block order: the same sums at
 * any launch (a fixed grid for a given length), as the CPU's are. At the
 * end, the preconditioners' triangular sweeps (kernels/tri.h). */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
#include "backend.h"
}
#include "kernels/sv.h"
#include "kernels/tri.h"

enum { THREADS = 256, MAXBLOCKS = 1024 };
static __device__ double partials[MAXBLOCKS * MNI_SV_MAXACC];

static __global__ void __launch_bounds__(THREADS) sv_blocks(const __grid_constant__ mni_sv_job j, int na) {
  double acc[MNI_SV_MAXACC] = {0};
  for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < j.n; i += (int64_t)gridDim.x * blockDim.x)
    mni_sv_elem(&j, i, acc);
  __shared__ double sh[THREADS];
  for (int a = 0; a < na; a++) {
    sh[threadIdx.x] = acc[a];
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w /= 2) {
      if ((int)threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) partials[blockIdx.x * MNI_SV_MAXACC + a] = sh[0];
    __syncthreads();
  }
}

/* the blocks' partials of each sum: strided over one block's threads, then
 * its tree, in an order fixed by nb. (One thread a sum, walking up to 1024
 * partials in turn, is the suspect for the 124 µs a CG reduction took on
 * an H200; not yet measured with this kernel.) */
static __global__ void __launch_bounds__(THREADS) sv_sum(int nb, int na, double *acc) {
  __shared__ double sh[THREADS];
  for (int a = 0; a < na; a++) {
    double s = 0;
    for (int b = threadIdx.x; b < nb; b += THREADS) s += partials[b * MNI_SV_MAXACC + a];
    sh[threadIdx.x] = s;
    __syncthreads();
    for (int w = THREADS / 2; w > 0; w /= 2) {
      if ((int)threadIdx.x < w) sh[threadIdx.x] += sh[threadIdx.x + w];
      __syncthreads();
    }
    if (threadIdx.x == 0) acc[a] = sh[0];
    __syncthreads();
  }
}

extern "C" int mni_cuda_sv(const mni_sv_job *j, double *acc) {
  int64_t want = (j->n + THREADS - 1) / THREADS;
  int nb = want < 1 ? 1 : want > MAXBLOCKS ? MAXBLOCKS : (int)want, na = mni_sv_nacc(j);
  sv_blocks<<<nb, THREADS>>>(*j, na);
  if (na) sv_sum<<<1, THREADS>>>(nb, na, acc);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    return MN_ERR(MN_ERR_CUDA, "a solver kernel (kind %d) on %lld elements failed to launch: %s", j->kind,
                  (long long)j->n, cudaGetErrorName(e));
  return MN_SUCCESS;
}

/* one level of a triangular sweep (kernels/tri.h): a thread per row */
static __global__ void tri_rows(const __grid_constant__ mni_tri_job j) {
  for (int64_t b = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; b < j.n; b += (int64_t)gridDim.x * blockDim.x)
    mni_tri_row(&j, b);
}

extern "C" int mni_cuda_tri(const mni_tri_job *j) {
  if (!j->n) return MN_SUCCESS;
  int64_t want = (j->n + THREADS - 1) / THREADS;
  tri_rows<<<want > 65535 ? 65535 : (int)want, THREADS>>>(*j);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    return MN_ERR(MN_ERR_CUDA, "a triangular sweep's level of %lld rows failed to launch: %s", (long long)j->n,
                  cudaGetErrorName(e));
  return MN_SUCCESS;
}
