/* Row kernels of the CSR product, written once for the CPU (C) and CUDA
 * (MN_HD = __host__ __device__): y_i (+)= sum_k val[k] x[col[k]] over a row. */
#ifndef MANIPLE_CSR_KERNELS_H
#define MANIPLE_CSR_KERNELS_H
#include "kernels/mn_hd.h"
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
#endif
