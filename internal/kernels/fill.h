/* Index-dependent fills (arange, linspace, random): the value at flat
 * C-order index k and its store, shared by the CPU loop (arrays/fill.c) and
 * the CUDA kernel (arrays/cuda/kernels.cu), so both sides make the same
 * values from the same parameters (normal draws may differ in the last
 * bits where the device's log and cos do). */
#ifndef MANIPLE_KERNEL_FILL_H
#define MANIPLE_KERNEL_FILL_H
#include "kernels/mn_hd.h"
#include "kernels/philox.h"
#include "kernels/half.h"
#include <math.h>
#include <stdint.h>
#include <string.h>

enum { MNI_FILL_ARANGE, MNI_FILL_LINSPACE, MNI_FILL_UNIFORM, MNI_FILL_NORMAL };
/* what a store converts to (mn_dtype's values, checked in arrays/fill.c) */
enum { MNI_FT_BOOL, MNI_FT_INT32, MNI_FT_INT64, MNI_FT_FLOAT32, MNI_FT_FLOAT64, MNI_FT_INT8, MNI_FT_INT16,
       MNI_FT_UINT8, MNI_FT_UINT16, MNI_FT_UINT32, MNI_FT_UINT64, MNI_FT_FLOAT16, MNI_FT_COMPLEX64,
       MNI_FT_COMPLEX128 };
/* bytes of an element of t (mn_dtype_size, where kernels cannot call it) */
MN_HD static inline int mni_ft_size(int t) {
  switch (t) {
  case MNI_FT_BOOL: case MNI_FT_INT8: case MNI_FT_UINT8: return 1;
  case MNI_FT_INT16: case MNI_FT_UINT16: case MNI_FT_FLOAT16: return 2;
  case MNI_FT_INT32: case MNI_FT_UINT32: case MNI_FT_FLOAT32: return 4;
  case MNI_FT_COMPLEX128: return 16;
  default: return 8;
  }
}
/* how an accumulator holds t's values: MNI_K_INT (bool and signed, as
 * int64), MNI_K_FLT (as double), MNI_K_UINT (unsigned, int64 bits) or
 * MNI_K_CPX (complex: double real and imaginary parts) */
enum { MNI_K_INT = 0, MNI_K_FLT = 1, MNI_K_UINT = 2, MNI_K_CPX = 3 };
MN_HD static inline int mni_ft_kind(int t) {
  return t == MNI_FT_FLOAT32 || t == MNI_FT_FLOAT64 || t == MNI_FT_FLOAT16 ? MNI_K_FLT
         : t == MNI_FT_COMPLEX64 || t == MNI_FT_COMPLEX128 ? MNI_K_CPX
         : t >= MNI_FT_UINT8 ? MNI_K_UINT : MNI_K_INT;
}
/* a complex element's parts (a real one's value and 0) */
MN_HD static inline void mni_ft_load_c(int t, const char *p, double *re, double *im) {
  if (t == MNI_FT_COMPLEX64) { *re = ((const float *)p)[0]; *im = ((const float *)p)[1]; }
  else { *re = ((const double *)p)[0]; *im = ((const double *)p)[1]; }
}
/* the element at p: *f for floats, *i for the others (uint64's bits) */
MN_HD static inline void mni_ft_load(int t, const char *p, double *f, int64_t *i) {
  *f = 0;
  *i = 0;
  switch (t) {
  case MNI_FT_BOOL: case MNI_FT_UINT8: *i = *(const uint8_t *)p; break;
  case MNI_FT_INT8: *i = *(const int8_t *)p; break;
  case MNI_FT_INT16: *i = *(const int16_t *)p; break;
  case MNI_FT_UINT16: *i = *(const uint16_t *)p; break;
  case MNI_FT_INT32: *i = *(const int32_t *)p; break;
  case MNI_FT_UINT32: *i = *(const uint32_t *)p; break;
  case MNI_FT_INT64: case MNI_FT_UINT64: *i = *(const int64_t *)p; break;
  case MNI_FT_FLOAT32: *f = *(const float *)p; break;
  case MNI_FT_FLOAT16: *f = mn_h2d(*(const mn_h *)p); break;
  case MNI_FT_COMPLEX64: *f = *(const float *)p; break; /* the real part */
  default: *f = *(const double *)p; break;
  }
}
/* an integer (int64 bits) stored as t, wrapping as NumPy's casts */
MN_HD static inline void mni_ft_store_i(int t, char *p, int64_t i) {
  switch (t) {
  case MNI_FT_BOOL: *(uint8_t *)p = i != 0; break;
  case MNI_FT_INT8: case MNI_FT_UINT8: *(uint8_t *)p = (uint8_t)(uint64_t)i; break;
  case MNI_FT_INT16: case MNI_FT_UINT16: *(uint16_t *)p = (uint16_t)(uint64_t)i; break;
  case MNI_FT_INT32: case MNI_FT_UINT32: *(uint32_t *)p = (uint32_t)(uint64_t)i; break;
  case MNI_FT_FLOAT32: *(float *)p = (float)i; break;
  case MNI_FT_FLOAT64: *(double *)p = (double)i; break;
  case MNI_FT_FLOAT16: *(mn_h *)p = mn_d2h((double)i); break;
  case MNI_FT_COMPLEX64: ((float *)p)[0] = (float)i; ((float *)p)[1] = 0; break;
  case MNI_FT_COMPLEX128: ((double *)p)[0] = (double)i; ((double *)p)[1] = 0; break;
  default: *(int64_t *)p = i; break;
  }
}

/* p: arange {start, step}; linspace {start, stop, n, endpoint, step, floor};
 * uniform {low, high, seed bits}; normal {mean, scale, seed bits} */
MN_HD static inline double mni_fill_value(int kind, int64_t k, const double *p) {
  if (kind == MNI_FILL_ARANGE) return p[0] + (double)k * p[1];
  if (kind == MNI_FILL_LINSPACE) { /* exact end point, as NumPy; integer dtypes floor, as NumPy 2 */
    double v = (p[3] != 0 && k > 0 && k == (int64_t)p[2] - 1) ? p[1] : p[0] + (double)k * p[4];
    return p[5] != 0 ? floor(v) : v;
  }
  uint64_t seed;
  memcpy(&seed, &p[2], sizeof seed);
  mn_philox4 r = mn_philox((uint64_t)k, seed);
  if (kind == MNI_FILL_UNIFORM) return p[0] + (p[1] - p[0]) * mn_u01(r.v[0], r.v[1]);
  double u1 = mn_u01(r.v[0], r.v[1]), u2 = mn_u01(r.v[2], r.v[3]);
  return p[0] + p[1] * sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2);
}

MN_HD static inline void mni_fill_store(int t, char *o, double v) {
  switch (t) {
  case MNI_FT_BOOL: *(uint8_t *)o = v != 0; break;
  case MNI_FT_INT32: *(int32_t *)o = (int32_t)v; break;
  case MNI_FT_INT64: *(int64_t *)o = (int64_t)v; break;
  case MNI_FT_FLOAT32: *(float *)o = (float)v; break;
  case MNI_FT_FLOAT64: *(double *)o = v; break;
  case MNI_FT_FLOAT16: *(mn_h *)o = mn_d2h(v); break;
  case MNI_FT_COMPLEX64: ((float *)o)[0] = (float)v; ((float *)o)[1] = 0; break;
  case MNI_FT_COMPLEX128: ((double *)o)[0] = v; ((double *)o)[1] = 0; break;
  case MNI_FT_UINT64: *(uint64_t *)o = v >= 9223372036854775808.0 ? (uint64_t)v : (uint64_t)(int64_t)v; break;
  default: mni_ft_store_i(t, o, (int64_t)v); break;
  }
}
#endif
