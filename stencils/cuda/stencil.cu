/* CUDA stencil kernel: the point bodies of internal/kernels/stencil.h over
 * a box of a grid on device buffers. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <string.h>
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

/* measured on an H200 (8192² float64): 16 to 128 rows and 64 to 512
 * threads all within 8%; 32 rows of 128 threads the best */
enum { ROWS = 32, CROSS_BLOCK = 128 };

/* The 2-d 5-point cross with constant weights (the seeds' stencil and the
 * heat app): each thread marches down a column of ROWS rows, keeping the
 * north, centre and south values in registers, so u is read from memory
 * about once (east and west come from the neighbouring threads' loads, in
 * L1). code[k] says which neighbour point k is (0 centre, 1 north, 2 south,
 * 3 west, 4 east): the terms are summed in k order, as the point bodies
 * (and the CPU) sum them. */
template <typename T>
__global__ void st_cross5(const __grid_constant__ mni_st_cuda_box b, const int4 code4, int code5, const T *u, T *y,
                          const T *f) {
  const int code[5] = {code4.x, code4.y, code4.z, code4.w, code5};
  const T *w = st_w(b, (T)0);
  int64_t j = (int64_t)blockIdx.x * blockDim.x + threadIdx.x, nx = b.cnt[1], ny = b.cnt[0];
  if (j >= nx) return;
  int64_t r0 = (int64_t)blockIdx.y * ROWS, r1 = r0 + ROWS < ny ? r0 + ROWS : ny;
  int64_t su = b.ust[0];
  const T *p = u + r0 * su + j;
  T *q = y + r0 * b.yst[0] + j;
  const T *g = b.relax ? f + r0 * b.fst[0] + j : nullptr;
  T north = p[-su], centre = p[0];
  for (int64_t r = r0; r < r1; r++) {
    T south = p[su], west = p[-1], east = p[1];
    T s = 0;
#pragma unroll
    for (int k = 0; k < 5; k++) {
      int c = code[k];
      T v = c == 0 ? centre : c == 1 ? north : c == 2 ? south : c == 3 ? west : east;
      s += w[k] * v;
    }
    *q = b.relax ? st_relax(centre, s, *g, (T)b.wd) : s;
    north = centre;
    centre = south;
    p += su;
    q += b.yst[0];
    if (b.relax) g += b.fst[0];
  }
}

/* code[k] of a 2-d box that is the constant 5-point cross on rows of unit
 * stride; 0 when the box is anything else */
static int cross5_codes(const mni_st_cuda_box *b, int code[5]) {
  if (b->nd != 2 || b->npts != 5 || b->ust[1] != 1 || b->yst[1] != 1 || (b->relax && b->fst[1] != 1)) return 0;
  int seen = 0;
  for (int k = 0; k < 5; k++) {
    if (b->c[k]) return 0;
    int64_t o = b->off[k];
    code[k] = o == 0 ? 0 : o == -b->ust[0] ? 1 : o == b->ust[0] ? 2 : o == -1 ? 3 : o == 1 ? 4 : -1;
    if (code[k] < 0 || (seen >> code[k] & 1)) return 0;
    seen |= 1 << code[k];
  }
  return b->ust[0] > 1;
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
  if (dtype != MN_FLOAT64 && dtype != MN_FLOAT32)
    return MN_ERR(MN_ERR_DTYPE, "stencils work on float32 or float64, not dtype %d", dtype);
  mni_st_cuda_box bb = *b;
  for (int k = 0; k < bb.npts; k++) bb.wf[k] = (float)bb.w[k];
  int code[5];
  int64_t cbx = (b->cnt[b->nd - 1] + CROSS_BLOCK - 1) / CROSS_BLOCK, cby = (b->cnt[0] + ROWS - 1) / ROWS;
  if (cross5_codes(b, code) && cbx < (1 << 20) && cby < 65535) {
    dim3 grid((unsigned)cbx, (unsigned)cby);
    int4 c4 = make_int4(code[0], code[1], code[2], code[3]);
    if (dtype == MN_FLOAT64)
      st_cross5<double><<<grid, CROSS_BLOCK>>>(bb, c4, code[4], (const double *)u, (double *)y, (const double *)f);
    else
      st_cross5<float><<<grid, CROSS_BLOCK>>>(bb, c4, code[4], (const float *)u, (float *)y, (const float *)f);
  } else {
    int64_t nx = b->cnt[b->nd - 1], rows = total / nx, bx = (nx + BLOCK - 1) / BLOCK;
    dim3 grid((unsigned)(bx < (1 << 20) ? bx : (1 << 20)), (unsigned)(rows < 65535 ? rows : 65535));
    if (dtype == MN_FLOAT64)
      st_launch<double>(bb, grid, u, y, f);
    else
      st_launch<float>(bb, grid, u, y, f);
  }
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return MN_ERR(MN_ERR_CUDA, "stencil kernel launch failed: %s", cudaGetErrorName(e));
  return MN_SUCCESS;
}

/* ---- boundary ghosts ---- */
typedef struct {
  int nd, d, side, dirichlet, face;
  int64_t n[3], st[3], ext[3], total;
  int reach[3];
  double value;
} bc_arg;

/* thread per ghost point of the slab (axis d: the reach layers; the other
 * axes over their ghost ranges too), as stencils/bc.c's odometer walks it */
template <typename T>
__global__ void st_bc(const __grid_constant__ bc_arg a, T *o) {
  for (int64_t q = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; q < a.total;
       q += (int64_t)blockDim.x * gridDim.x) {
    int64_t r = q, at = 0, mirror = 0;
    for (int e = a.nd - 1; e >= 0; e--) {
      int64_t i = r % a.ext[e];
      r /= a.ext[e];
      int64_t g = i - a.reach[e], m = g;
      if (e == a.d) {
        g = a.side ? a.n[e] + i : -1 - i;
        m = a.side ? a.n[e] - 1 - i : i;
      }
      at += g * a.st[e];
      mirror += m * a.st[e];
    }
    o[at] = (T)mni_st_bc_value(a.dirichlet, a.face, a.value, (double)o[mirror]);
  }
}

extern "C" int mn_cuda_stencil_bc(int dtype, void *o, int nd, const int64_t *n, const int64_t *st, const int *reach,
                                  int d, int side, int dirichlet, int face, double value) {
  if (nd < 1 || nd > 3) return MN_ERR(MN_ERR_NOTIMPL, "boundary ghosts on the device take 1-3 dimensions, not %d", nd);
  bc_arg a;
  memset(&a, 0, sizeof a);
  a.nd = nd;
  a.d = d;
  a.side = side;
  a.dirichlet = dirichlet;
  a.face = face;
  a.value = value;
  a.total = 1;
  for (int e = 0; e < nd; e++) {
    a.n[e] = n[e];
    a.st[e] = st[e];
    a.reach[e] = reach[e];
    a.ext[e] = e == d ? reach[d] : n[e] + 2 * (int64_t)reach[e];
    a.total *= a.ext[e];
  }
  if (a.total == 0) return MN_SUCCESS;
  int64_t want = (a.total + BLOCK - 1) / BLOCK;
  unsigned grid = (unsigned)(want < 4096 ? want : 4096);
  if (dtype == MN_FLOAT64) st_bc<double><<<grid, BLOCK>>>(a, (double *)o);
  else st_bc<float><<<grid, BLOCK>>>(a, (float *)o);
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess) return MN_ERR(MN_ERR_CUDA, "boundary ghost kernel launch failed: %s", cudaGetErrorName(e));
  return MN_SUCCESS;
}
