/* CUDA stencil kernel: the point bodies of stencils/kernels/stencil.h in a
 * grid-stride loop over a box of a grid on device buffers. */
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

template <typename T>
__global__ void st_box(mni_st_cuda_box b, const T *u, T *y, const T *f) {
  /* per thread: weights in T, coefficient pointers, offsets out of the
   * parameter space */
  T w[MN_ST_CUDA_MAXPTS];
  const T *c[MN_ST_CUDA_MAXPTS];
  int64_t off[MN_ST_CUDA_MAXPTS];
  int var = 0;
  for (int k = 0; k < b.npts; k++) {
    w[k] = (T)b.w[k];
    c[k] = (const T *)b.c[k];
    off[k] = b.off[k];
    var |= c[k] != nullptr;
  }
  int64_t total = 1;
  for (int d = 0; d < b.nd; d++) total *= b.cnt[d];
  for (int64_t t = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; t < total; t += (int64_t)blockDim.x * gridDim.x) {
    int64_t r = t, uo = 0, yo = 0, fo = 0, co = 0;
    for (int d = b.nd - 1; d >= 0; d--) {
      int64_t i = r % b.cnt[d];
      r /= b.cnt[d];
      uo += i * b.ust[d];
      yo += i * b.yst[d];
      fo += i * b.fst[d];
      co += i * b.cst[d];
    }
    T au = var ? st_var(u + uo, off, w, c, co, b.npts) : st_const(u + uo, off, w, b.npts);
    if (!b.relax) {
      y[yo] = au;
      continue;
    }
    T wd = var ? (T)b.omega / st_diag(w, c, co, b.ctr, b.nctr) : (T)b.wd;
    y[yo] = st_relax(u[uo], au, f[fo], wd);
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
  int64_t want = (total + BLOCK - 1) / BLOCK;
  unsigned grid = (unsigned)(want < 65535 ? want : 65535);
  if (dtype == MN_FLOAT64)
    st_box<double><<<grid, BLOCK>>>(*b, (const double *)u, (double *)y, (const double *)f);
  else if (dtype == MN_FLOAT32)
    st_box<float><<<grid, BLOCK>>>(*b, (const float *)u, (float *)y, (const float *)f);
  else
    return MN_ERR(MN_ERR_DTYPE, "stencils work on float32 or float64, not dtype %d", dtype);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return MN_ERR(MN_ERR_CUDA, "stencil kernel launch failed: %s", cudaGetErrorName(e));
  return MN_SUCCESS;
}
