/* CUDA stencil kernel: the point bodies of internal/kernels/stencil.h over
 * a box of a grid on device buffers. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
}
#include "kernels/stencil.h"
#include "cuda/stencil_cuda.h"

#define BLOCK 256

/* the bodies by type */
__device__ static inline float st_const(const float *u, const int64_t *o, const float *w, int n) {
  return mni_st_const_f32(u, o, w, n);
}
__device__ static inline double st_const(const double *u, const int64_t *o, const double *w, int n) {
  return mni_st_const_f64(u, o, w, n);
}
__device__ static inline float st_var(const float *u, const int64_t *o, const float *w, const float *const *c,
                                      int64_t j, int n) {
  return mni_st_var_f32(u, o, w, c, j, n);
}
__device__ static inline double st_var(const double *u, const int64_t *o, const double *w, const double *const *c,
                                       int64_t j, int n) {
  return mni_st_var_f64(u, o, w, c, j, n);
}
__device__ static inline float st_diag(const float *w, const float *const *c, int64_t j, const int *ctr, int nc) {
  return mni_st_diag_f32(w, c, j, ctr, nc);
}
__device__ static inline double st_diag(const double *w, const double *const *c, int64_t j, const int *ctr, int nc) {
  return mni_st_diag_f64(w, c, j, ctr, nc);
}
__device__ static inline float st_relax(float u, float au, float f, float wd) { return mni_st_relax_f32(u, au, f, wd); }
__device__ static inline double st_relax(double u, double au, double f, double wd) {
  return mni_st_relax_f64(u, au, f, wd);
}

/* the box's weights in T, read in place from the kernel's parameters */
__device__ static inline const double *st_w(const mni_st_cuda_box &b, double) { return b.w; }
__device__ static inline const float *st_w(const mni_st_cuda_box &b, float) { return b.wf; }

/* One box. Blocks in y walk the rows (all axes but the last, split once
 * per row), threads in x the last axis, so no thread divides per point.
 * The box stays in parameter space (__grid_constant__): weights and offsets
 * are read from the constant bank, not copied to per-thread local memory.
 * NP > 0 fixes the point count so the point loop unrolls. */
template <typename T, int NP>
__global__ void st_box(const __grid_constant__ mni_st_cuda_box b, const T *u, T *y, const T *f) {
  const T *w = st_w(b, (T)0);
  const T *const *c = (const T *const *)b.c;
  const int np = NP ? NP : b.npts, last = b.nd - 1;
  int var = 0;
  for (int k = 0; k < np; k++) var |= c[k] != nullptr;
  int64_t nx = b.cnt[last], rows = 1;
  for (int d = 0; d < last; d++) rows *= b.cnt[d];
  for (int64_t r = blockIdx.y; r < rows; r += gridDim.y) {
    int64_t q = r, uo = 0, yo = 0, fo = 0, co = 0;
    for (int d = last - 1; d >= 0; d--) {
      int64_t i = q % b.cnt[d];
      q /= b.cnt[d];
      uo += i * b.ust[d];
      yo += i * b.yst[d];
      fo += i * b.fst[d];
      co += i * b.cst[d];
    }
    for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < nx; i += (int64_t)blockDim.x * gridDim.x) {
      int64_t ui = uo + i * b.ust[last], yi = yo + i * b.yst[last], ci = co + i * b.cst[last];
      T au = var ? st_var(u + ui, b.off, w, c, ci, np) : st_const(u + ui, b.off, w, np);
      if (!b.relax) {
        y[yi] = au;
        continue;
      }
      T wd = var ? (T)b.omega / st_diag(w, c, ci, b.ctr, b.nctr) : (T)b.wd;
      y[yi] = st_relax(u[ui], au, f[fo + i * b.fst[last]], wd);
    }
  }
}

template <typename T>
static void st_launch(const mni_st_cuda_box &b, dim3 grid, const void *u, void *y, const void *f) {
  const T *tu = (const T *)u, *tf = (const T *)f;
  T *ty = (T *)y;
  switch (b.npts) {
  case 5: st_box<T, 5><<<grid, BLOCK>>>(b, tu, ty, tf); break;
  case 7: st_box<T, 7><<<grid, BLOCK>>>(b, tu, ty, tf); break;
  case 9: st_box<T, 9><<<grid, BLOCK>>>(b, tu, ty, tf); break;
  case 27: st_box<T, 27><<<grid, BLOCK>>>(b, tu, ty, tf); break;
  default: st_box<T, 0><<<grid, BLOCK>>>(b, tu, ty, tf);
  }
}

extern "C" int mn_cuda_stencil_box(int dtype, const mni_st_cuda_box *b, const void *u, void *y, const void *f) {
  if (!b) return MN_ERR(MN_ERR_ARG, "NULL box");
  if (b->nd < 1 || b->nd > 3 || b->npts < 1 || b->npts > MN_ST_CUDA_MAXPTS)
    return MN_ERR(MN_ERR_NOTIMPL, "the CUDA stencil kernel takes 1-3 dimensions and 1-%d points, not %d-d with %d",
                  MN_ST_CUDA_MAXPTS, b->nd, b->npts);
  if (b->relax && !f) return MN_ERR(MN_ERR_ARG, "a Jacobi box needs its right-hand side");
  int64_t total = 1;
  for (int d = 0; d < b->nd; d++) total *= b->cnt[d];
  if (total == 0) return MN_SUCCESS;
  mni_st_cuda_box bb = *b;
  for (int k = 0; k < bb.npts; k++) bb.wf[k] = (float)bb.w[k];
  int64_t nx = b->cnt[b->nd - 1], rows = total / nx, bx = (nx + BLOCK - 1) / BLOCK;
  dim3 grid((unsigned)(bx < (1 << 20) ? bx : (1 << 20)), (unsigned)(rows < 65535 ? rows : 65535));
  if (dtype == MN_FLOAT64)
    st_launch<double>(bb, grid, u, y, f);
  else if (dtype == MN_FLOAT32)
    st_launch<float>(bb, grid, u, y, f);
  else
    return MN_ERR(MN_ERR_DTYPE, "stencils work on float32 or float64, not dtype %d", dtype);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return MN_ERR(MN_ERR_CUDA, "stencil kernel launch failed: %s", cudaGetErrorName(e));
  return MN_SUCCESS;
}
