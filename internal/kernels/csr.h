/* Row kernels of the CSR product, written once for the CPU (C) and CUDA
 * (MN_HD = __host__ __device__): y_i (+)= sum_k val[k] x[col[k]] over a row,
 * for the four value dtypes a matrix holds. */
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

/* y + s, for the rows that add to what y holds */
MN_HD static inline double mni_k_csr_plus_f64(double y, double s) { return y + s; }
MN_HD static inline float mni_k_csr_plus_f32(float y, float s) { return y + s; }
MN_HD static inline mn_c128 mni_k_csr_plus_c128(mn_c128 y, mn_c128 s) { return mn_mk_c128(y.re + s.re, y.im + s.im); }
MN_HD static inline mn_c64 mni_k_csr_plus_c64(mn_c64 y, mn_c64 s) { return mn_mk_c64(y.re + s.re, y.im + s.im); }
#endif
