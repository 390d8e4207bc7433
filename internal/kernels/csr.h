/* Row kernels of the CSR product, written once for the CPU (C) and CUDA
 * (MN_HD = __host__ __device__): y_i (+)= sum_k val[k] x[col[k]] over a row,
 * for every value dtype a matrix holds. */
#ifndef MANIPLE_CSR_KERNELS_H
#define MANIPLE_CSR_KERNELS_H
#include "kernels/mn_hd.h"
#include "kernels/cplx.h"
#include <stdint.h>

MN_HD static inline double mni_k_csr_row_f64(int64_t k0, int64_t k1, const int32_t *col, const double *val,
                                            const double *x) {
  double s = 0;
  for (int64_t k = k0; k < k1; k++) s += val[k] * x[col[k]];
  return s;
}

MN_HD static inline float mni_k_csr_row_f32(int64_t k0, int64_t k1, const int32_t *col, const float *val,
                                           const float *x) {
  float s = 0;
  for (int64_t k = k0; k < k1; k++) s += val[k] * x[col[k]];
  return s;
}

/* complex rows (kernels/cplx.h's pairs of R), the products as NumPy's */
#define MNI_CSR_ROW_CPLX(S, T, R)                                                                   \
  MN_HD static inline T mni_k_csr_row_##S(int64_t k0, int64_t k1, const int32_t *col, const T *val,  \
                                          const T *x) {                                            \
    R re = 0, im = 0;                                                                              \
    for (int64_t k = k0; k < k1; k++) {                                                            \
      T a = val[k], b = x[col[k]];                                                                 \
      re += a.re * b.re - a.im * b.im;                                                             \
      im += a.re * b.im + a.im * b.re;                                                             \
    }                                                                                              \
    return mn_mk_##S(re, im);                                                                      \
  }
MNI_CSR_ROW_CPLX(c128, mn_c128, double)
MNI_CSR_ROW_CPLX(c64, mn_c64, float)

/* integer rows: sums and products modulo 2^64, wrapped to T where stored
 * (the same bits as NumPy's arithmetic in T); bool's are or and and */
#define MNI_CSR_ROW_INT(S, T)                                                                      \
  MN_HD static inline T mni_k_csr_row_##S(int64_t k0, int64_t k1, const int32_t *col, const T *val, \
                                          const T *x) {                                           \
    uint64_t s = 0;                                                                               \
    for (int64_t k = k0; k < k1; k++) s += (uint64_t)val[k] * (uint64_t)x[col[k]];                \
    return (T)s;                                                                                  \
  }                                                                                               \
  MN_HD static inline T mni_k_csr_plus_##S(T y, T s) { return (T)((uint64_t)y + (uint64_t)s); }
MNI_CSR_ROW_INT(i8, int8_t)
MNI_CSR_ROW_INT(i16, int16_t)
MNI_CSR_ROW_INT(i32, int32_t)
MNI_CSR_ROW_INT(i64, int64_t)
MNI_CSR_ROW_INT(u8, uint8_t)
MNI_CSR_ROW_INT(u16, uint16_t)
MNI_CSR_ROW_INT(u32, uint32_t)
MNI_CSR_ROW_INT(u64, uint64_t)
MN_HD static inline uint8_t mni_k_csr_row_b(int64_t k0, int64_t k1, const int32_t *col, const uint8_t *val,
                                            const uint8_t *x) {
  uint8_t s = 0;
  for (int64_t k = k0; k < k1; k++) s |= val[k] && x[col[k]];
  return s;
}
MN_HD static inline uint8_t mni_k_csr_plus_b(uint8_t y, uint8_t s) { return y || s; }

/* X(dtype, C type, suffix) for every dtype a matrix holds but float64 (the
 * caller's first case, with its fused x.y) */
#define MNI_CSR_OTHER_TYPES(X)                                                                     \
  X(MN_FLOAT32, float, f32) X(MN_COMPLEX128, mn_c128, c128) X(MN_COMPLEX64, mn_c64, c64)          \
  X(MN_INT8, int8_t, i8) X(MN_INT16, int16_t, i16) X(MN_INT32, int32_t, i32) X(MN_INT64, int64_t, i64) \
  X(MN_UINT8, uint8_t, u8) X(MN_UINT16, uint16_t, u16) X(MN_UINT32, uint32_t, u32)                 \
  X(MN_UINT64, uint64_t, u64) X(MN_BOOL, uint8_t, b)

/* y + s, for the rows that add to what y holds */
MN_HD static inline double mni_k_csr_plus_f64(double y, double s) { return y + s; }
MN_HD static inline float mni_k_csr_plus_f32(float y, float s) { return y + s; }
MN_HD static inline mn_c128 mni_k_csr_plus_c128(mn_c128 y, mn_c128 s) { return mn_mk_c128(y.re + s.re, y.im + s.im); }
MN_HD static inline mn_c64 mni_k_csr_plus_c64(mn_c64 y, mn_c64 s) { return mn_mk_c64(y.re + s.re, y.im + s.im); }
#endif
