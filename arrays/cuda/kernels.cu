/* CUDA element-wise kernels generated from the shared bodies in
 * kernels/ops.h: one grid-stride kernel per (op, compute type), as
 * kernels_cpu.c makes one loop per pair. Dispatch is a host-side switch
 * over (op, type), so no device function pointers are needed. */
/* Only MPI's C API is used; skip the C++ bindings mpi.h adds under C++. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
/* ops.h's NaN tests (a != a) are generic over types; gcc skips its
 * self-comparison warning inside macros, but nvcc hands it the expanded
 * code, so it would warn for the integer instances. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtautological-compare"
#include "kernels/ops.h"
#pragma GCC diagnostic pop
#include "kernels/fill.h"
#include "kernels/axis.h"
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
}
#include "cuda/cuda_backend.h"
#include <stdio.h>
#include <string.h>

#define BLOCK 256

/* Grid-stride loop: i in 64 bits so n beyond 2^31 elements works. */
#define GRID_LOOP(i, n) \
  for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < (n); \
       i += (int64_t)blockDim.x * gridDim.x)

#define UNKERN(E, N, S, TI, TO) \
  static __global__ void ku_##N##_##S(int64_t n, const TI *a, TO *o) { \
    GRID_LOOP(i, n) o[i] = mni_k_##N##_##S(a[i]); }
MN_UNARY_LIST(UNKERN)

#define BINKERN(E, N, S, TI, TO) \
  static __global__ void kb_##N##_##S(int64_t n, const TI *a, const TI *b, TO *o) { \
    GRID_LOOP(i, n) o[i] = mni_k_##N##_##S(a[i], b[i]); }
MN_BINARY_LIST(BINKERN)

/* where takes its condition as bool; clip and fma take three values */
#define TERN_A_where(TI) mn_b
#define TERN_A_clip(TI) TI
#define TERN_A_fma(TI) TI
#define TERKERN(E, N, S, TI, TO) \
  static __global__ void kt_##N##_##S(int64_t n, const TERN_A_##N(TI) *a, \
                                      const TI *b, const TI *c, TO *o) { \
    GRID_LOOP(i, n) o[i] = mni_k_##N##_##S(a[i], b[i], c[i]); }
MN_TERNARY_LIST(TERKERN)

#define CASTKERN(SF, TF, ST, TT) \
  static __global__ void kc_##SF##_##ST(int64_t n, const TF *a, TT *o) { \
    GRID_LOOP(i, n) o[i] = MN_CAST_VAL(TT, MN_LD_##SF(a[i])); }
MN_CAST_LIST(CASTKERN)

/* Blocks for n elements: enough to fill the device a few times over; the
 * grid-stride loop covers the rest. */
static int grid_for(int64_t n, unsigned *grid) {
  int dev = 0, sms = 0;
  cudaError_t e = cudaGetDevice(&dev);
  if (e == cudaSuccess)
    e = cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return MN_ERR(MN_ERR_CUDA, "cannot query the current device for a launch of %lld elements: %s (%s)",
                  (long long)n, cudaGetErrorName(e), cudaGetErrorString(e));
  }
  int64_t want = (n + BLOCK - 1) / BLOCK, cap = (int64_t)(sms > 0 ? sms : 1) * 32;
  *grid = (unsigned)(want < cap ? want : cap);
  return MN_SUCCESS;
}

/* what: e.g. "binary kernel 'add' for float64" */
static int launch_status(const char *what, int64_t n, unsigned grid) {
  cudaError_t e = cudaGetLastError();
  if (e != cudaSuccess)
    return MN_ERR(MN_ERR_CUDA, "CUDA %s on %lld elements (%u blocks of %d) failed to launch: %s (%s)",
                  what, (long long)n, grid, BLOCK, cudaGetErrorName(e), cudaGetErrorString(e));
  return MN_SUCCESS;
}

static int op_status(const char *kind, const char *name, const char *type,
                     int64_t n, unsigned grid) {
  char what[128];
  snprintf(what, sizeof what, "%s kernel '%s' for %s", kind, name, type);
  return launch_status(what, n, grid);
}

/* Each dispatcher returns 1 when (op, type) has a kernel, 0 otherwise, and
 * launches it only when grid > 0 (grid 0: existence check for n == 0). */
#define KEY(op, t) ((op) * MN_NDTYPE + (t))
#define UNCASE(E, N, S, TI, TO) \
  case KEY(E, MN_DT_##S): \
    if (grid) ku_##N##_##S<<<grid, BLOCK>>>(n, (const TI *)a, (TO *)o); \
    return 1;
static int unary_dispatch(int op, int ct, unsigned grid, int64_t n,
                          const void *a, void *o) {
  switch (KEY(op, ct)) { MN_UNARY_LIST(UNCASE) default: return 0; }
}

#define BINCASE(E, N, S, TI, TO) \
  case KEY(E, MN_DT_##S): \
    if (grid) kb_##N##_##S<<<grid, BLOCK>>>(n, (const TI *)a, (const TI *)b, (TO *)o); \
    return 1;
static int binary_dispatch(int op, int ct, unsigned grid, int64_t n,
                           const void *a, const void *b, void *o) {
  switch (KEY(op, ct)) { MN_BINARY_LIST(BINCASE) default: return 0; }
}

#define TERCASE(E, N, S, TI, TO) \
  case KEY(E, MN_DT_##S): \
    if (grid) kt_##N##_##S<<<grid, BLOCK>>>(n, (const TERN_A_##N(TI) *)a, \
                                            (const TI *)b, (const TI *)c, (TO *)o); \
    return 1;
static int ternary_dispatch(int op, int ct, unsigned grid, int64_t n,
                            const void *a, const void *b, const void *c,
                            void *o) {
  switch (KEY(op, ct)) { MN_TERNARY_LIST(TERCASE) default: return 0; }
}

#define CASTCASE(SF, TF, ST, TT) \
  case KEY(MN_DT_##SF, MN_DT_##ST): \
    if (grid) kc_##SF##_##ST<<<grid, BLOCK>>>(n, (const TF *)a, (TT *)o); \
    return 1;
static int cast_dispatch(int from, int to, unsigned grid, int64_t n,
                         const void *a, void *o) {
  switch (KEY(from, to)) { MN_CAST_LIST(CASTCASE) default: return 0; }
}

/* Out-of-range op / type values would alias other pairs in KEY. */
static int in_range(int op, int nop, int ct) {
  return op >= 0 && op < nop && ct >= 0 && ct < MN_NDTYPE;
}

int mn_cuda_unary(int op, int ct, int64_t n, const void *a, void *o) {
  const char *name = mn_unary_name((mn_unary_op)op), *type = mn_dtype_name((mn_dtype)ct);
  MN_CHECK(n >= 0, MN_ERR_ARG, "negative element count %lld", (long long)n);
  MN_CHECK(in_range(op, MN_NUNARY, ct) && unary_dispatch(op, ct, 0, 0, a, o),
           MN_ERR_DTYPE, "ufunc '%s' (op %d) has no CUDA kernel for %s (dtype %d)",
           name, op, type, ct);
  if (n == 0) return MN_SUCCESS;
  MN_CHECK(a && o, MN_ERR_ARG, "ufunc '%s' on %lld elements with a NULL device pointer",
           name, (long long)n);
  unsigned grid = 0;
  MN_CALL(grid_for(n, &grid));
  unary_dispatch(op, ct, grid, n, a, o);
  return op_status("unary", name, type, n, grid);
}

int mn_cuda_binary(int op, int ct, int64_t n, const void *a, const void *b,
                   void *o) {
  const char *name = mn_binary_name((mn_binary_op)op), *type = mn_dtype_name((mn_dtype)ct);
  MN_CHECK(n >= 0, MN_ERR_ARG, "negative element count %lld", (long long)n);
  MN_CHECK(in_range(op, MN_NBINARY, ct) && binary_dispatch(op, ct, 0, 0, a, b, o),
           MN_ERR_DTYPE, "ufunc '%s' (op %d) has no CUDA kernel for %s (dtype %d)",
           name, op, type, ct);
  if (n == 0) return MN_SUCCESS;
  MN_CHECK(a && b && o, MN_ERR_ARG,
           "ufunc '%s' on %lld elements with a NULL device pointer", name, (long long)n);
  unsigned grid = 0;
  MN_CALL(grid_for(n, &grid));
  binary_dispatch(op, ct, grid, n, a, b, o);
  return op_status("binary", name, type, n, grid);
}

int mn_cuda_ternary(int op, int ct, int64_t n, const void *a, const void *b,
                    const void *c, void *o) {
  const char *name = mn_ternary_name((mn_ternary_op)op), *type = mn_dtype_name((mn_dtype)ct);
  MN_CHECK(n >= 0, MN_ERR_ARG, "negative element count %lld", (long long)n);
  MN_CHECK(in_range(op, MN_NTERNARY, ct) && ternary_dispatch(op, ct, 0, 0, a, b, c, o),
           MN_ERR_DTYPE, "'%s' (op %d) has no CUDA kernel for %s (dtype %d)",
           name, op, type, ct);
  if (n == 0) return MN_SUCCESS;
  MN_CHECK(a && b && c && o, MN_ERR_ARG,
           "'%s' on %lld elements with a NULL device pointer", name, (long long)n);
  unsigned grid = 0;
  MN_CALL(grid_for(n, &grid));
  ternary_dispatch(op, ct, grid, n, a, b, c, o);
  return op_status("ternary", name, type, n, grid);
}

int mn_cuda_cast(int from, int to, int64_t n, const void *a, void *o) {
  const char *tf = mn_dtype_name((mn_dtype)from), *tt = mn_dtype_name((mn_dtype)to);
  MN_CHECK(n >= 0, MN_ERR_ARG, "negative element count %lld", (long long)n);
  MN_CHECK(in_range(from, MN_NDTYPE, to) && cast_dispatch(from, to, 0, 0, a, o),
           MN_ERR_DTYPE, "no CUDA cast kernel from %s (dtype %d) to %s (dtype %d)",
           tf, from, tt, to);
  if (n == 0) return MN_SUCCESS;
  MN_CHECK(a && o, MN_ERR_ARG, "cast %s -> %s on %lld elements with a NULL device pointer",
           tf, tt, (long long)n);
  unsigned grid = 0;
  MN_CALL(grid_for(n, &grid));
  cast_dispatch(from, to, grid, n, a, o);
  char what[128];
  snprintf(what, sizeof what, "cast kernel from %s to %s", tf, tt);
  return launch_status(what, n, grid);
}

template <typename T>
static __global__ void kfill(int64_t n, T v, T *o) {
  GRID_LOOP(i, n) o[i] = v;
}

int mn_cuda_fill(int64_t n, size_t es, const void *value, void *o) {
  MN_CHECK(n >= 0, MN_ERR_ARG, "negative element count %lld", (long long)n);
  MN_CHECK(es == 1 || es == 2 || es == 4 || es == 8 || es == 16, MN_ERR_ARG, "fill of %zu-byte elements", es);
  if (n == 0) return MN_SUCCESS;
  unsigned grid = 0;
  MN_CALL(grid_for(n, &grid));
  uint64_t v = 0;
  memcpy(&v, value, es); /* the element's bytes, as stored */
  switch (es) {
  case 1: { uint8_t x; memcpy(&x, value, 1); kfill<<<grid, BLOCK>>>(n, x, (uint8_t *)o); break; }
  case 2: { uint16_t x; memcpy(&x, value, 2); kfill<<<grid, BLOCK>>>(n, x, (uint16_t *)o); break; }
  case 4: { uint32_t x; memcpy(&x, value, 4); kfill<<<grid, BLOCK>>>(n, x, (uint32_t *)o); break; }
  case 16: { mn_c128 x; memcpy(&x, value, 16); kfill<<<grid, BLOCK>>>(n, x, (mn_c128 *)o); break; } /* complex128 */
  default: kfill<<<grid, BLOCK>>>(n, v, (uint64_t *)o); break;
  }
  return launch_status("fill kernel", n, grid);
}

/* arange, linspace, random: the bodies of kernels/fill.h at each element's flat index */
static __global__ void kfill_index(int64_t n, const __grid_constant__ mn_fill_job j) {
  size_t es = (size_t)mni_ft_size(j.t);
  GRID_LOOP(k, n) {
    int64_t r = k, flat = 0, off = 0;
    for (int d = j.nd - 1; d >= 0; d--) {
      int64_t i = r % j.count[d];
      r /= j.count[d];
      flat += (j.lo[d] + i) * j.cs[d];
      off += i * j.stride[d];
    }
    mni_fill_store(j.t, j.data + off * (int64_t)es, mni_fill_value(j.kind, flat, j.par));
  }
}

int mn_cuda_fill_index(const mn_fill_job *j) {
  int64_t n = 1;
  for (int d = 0; d < j->nd; d++) n *= j->count[d];
  if (n == 0) return MN_SUCCESS;
  unsigned grid = 0;
  MN_CALL(grid_for(n, &grid));
  kfill_index<<<grid, BLOCK>>>(n, *j);
  return launch_status("index fill kernel", n, grid);
}

/* a reduction along an axis: one thread a cell of the block's projection */
static __global__ void kaxis(const __grid_constant__ mni_axis_job j) {
  GRID_LOOP(c, j.ncell) mni_axis_cell(&j, c);
}

int mni_cuda_axis(const mni_axis_job *j) {
  if (j->ncell == 0) return MN_SUCCESS;
  unsigned grid = 0;
  MN_CALL(grid_for(j->ncell, &grid));
  kaxis<<<grid, BLOCK>>>(*j);
  return launch_status("axis reduction kernel", j->ncell, grid);
}

/* one thread per element of the box: its coordinates from the C-order index */
struct box_arg {
  int nd;
  int64_t cnt[MN_MAXDIM], sst[MN_MAXDIM], dst[MN_MAXDIM];
};

template <typename T>
static __global__ void kbox(int64_t n, box_arg b, const T *src, T *dst) {
  GRID_LOOP(k, n) {
    int64_t r = k, so = 0, d = 0;
    for (int j = b.nd - 1; j >= 0; j--) {
      int64_t i = r % b.cnt[j];
      r /= b.cnt[j];
      so += i * b.sst[j];
      d += i * b.dst[j];
    }
    dst[d] = src[so];
  }
}

int mn_cuda_copy_box(int nd, const int64_t *cnt, size_t es, const char *src, const int64_t *sst, char *dst,
                     const int64_t *dst_st) {
  MN_CHECK(nd >= 0 && nd <= MN_MAXDIM, MN_ERR_ARG, "box of %d dimensions", nd);
  MN_CHECK(es == 1 || es == 2 || es == 4 || es == 8 || es == 16, MN_ERR_ARG, "box copy of %zu-byte elements", es);
  box_arg b;
  b.nd = nd;
  int64_t n = 1;
  for (int j = 0; j < nd; j++) {
    b.cnt[j] = cnt[j];
    b.sst[j] = sst[j];
    b.dst[j] = dst_st[j];
    n *= cnt[j];
  }
  if (n == 0) return MN_SUCCESS;
  unsigned grid = 0;
  MN_CALL(grid_for(n, &grid));
  switch (es) {
  case 1: kbox<<<grid, BLOCK>>>(n, b, (const uint8_t *)src, (uint8_t *)dst); break;
  case 2: kbox<<<grid, BLOCK>>>(n, b, (const uint16_t *)src, (uint16_t *)dst); break;
  case 4: kbox<<<grid, BLOCK>>>(n, b, (const uint32_t *)src, (uint32_t *)dst); break;
  case 16: kbox<<<grid, BLOCK>>>(n, b, (const mn_c128 *)src, (mn_c128 *)dst); break;
  default: kbox<<<grid, BLOCK>>>(n, b, (const uint64_t *)src, (uint64_t *)dst); break;
  }
  return launch_status("box copy kernel", n, grid);
}
