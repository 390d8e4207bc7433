/* Point updates of the stencils, written once for the CPU (C) and CUDA
 * (MN_HD = __host__ __device__). u points at the grid point in a buffer
 * with halo; off[k] are the points' element offsets in that buffer. The
 * sums run in the grid's type in a fixed order, so every rank and backend
 * adds the same terms in the same order. */
#ifndef MANIPLE_STENCIL_KERNELS_H
#define MANIPLE_STENCIL_KERNELS_H
#include "kernels/mn_hd.h"
#include <stdint.h>

#define MN_ST_BODIES(S, T)                                                                                 \
  /* any constant stencil */                                                                               \
  MN_HD static inline T mni_st_const_##S(const T *u, const int64_t *off, const T *w, int n) {              \
    T s = 0;                                                                                               \
    for (int k = 0; k < n; k++) s += w[k] * u[off[k]];                                                     \
    return s;                                                                                              \
  }                                                                                                        \
  /* variable coefficients: c[k] (the coefficient array at this row, element j) or, NULL, w[k] */          \
  MN_HD static inline T mni_st_var_##S(const T *u, const int64_t *off, const T *w, const T *const *c,       \
                                      int64_t j, int n) {                                                  \
    T s = 0;                                                                                               \
    for (int k = 0; k < n; k++) s += (c[k] ? c[k][j] : w[k]) * u[off[k]];                                  \
    return s;                                                                                              \
  }                                                                                                        \
  /* the centre weight D of a variable stencil: its zero-offset points ctr[0..nc-1] */                    \
  MN_HD static inline T mni_st_diag_##S(const T *w, const T *const *c, int64_t j, const int *ctr, int nc) { \
    T d = 0;                                                                                               \
    for (int q = 0; q < nc; q++) d += c[ctr[q]] ? c[ctr[q]][j] : w[ctr[q]];                                \
    return d;                                                                                              \
  }                                                                                                        \
  /* 2-d 5-point cross, w = {centre, -x, +x, -y, +y}, sx the row stride */                                 \
  MN_HD static inline T mni_st_cross5_##S(const T *u, int64_t sx, const T *w) {                            \
    return w[0] * u[0] + w[1] * u[-sx] + w[2] * u[sx] + w[3] * u[-1] + w[4] * u[1];                        \
  }                                                                                                        \
  /* the same with equal weights on the two sides of each axis (the Laplacian): fewer products */ \
  MN_HD static inline T mni_st_sym5_##S(const T *u, int64_t sx, const T *w) {                              \
    return w[0] * u[0] + w[1] * (u[-sx] + u[sx]) + w[3] * (u[-1] + u[1]);                                  \
  }                                                                                                        \
  /* 3-d 7-point cross, w = {centre, -x, +x, -y, +y, -z, +z} */                                            \
  MN_HD static inline T mni_st_cross7_##S(const T *u, int64_t sx, int64_t sy, const T *w) {                \
    return w[0] * u[0] + w[1] * u[-sx] + w[2] * u[sx] + w[3] * u[-sy] + w[4] * u[sy] + w[5] * u[-1] +      \
           w[6] * u[1];                                                                                    \
  }                                                                                                        \
  MN_HD static inline T mni_st_sym7_##S(const T *u, int64_t sx, int64_t sy, const T *w) {                  \
    return w[0] * u[0] + w[1] * (u[-sx] + u[sx]) + w[3] * (u[-sy] + u[sy]) + w[5] * (u[-1] + u[1]);        \
  }                                                                                                        \
  /* weighted Jacobi: u + (omega / D) (f - A u), wd = omega / D */                                        \
  MN_HD static inline T mni_st_relax_##S(T u0, T au, T f, T wd) { return u0 + wd * (f - au); }

/* a boundary ghost from its mirror point m: Dirichlet v, Dirichlet on the
 * face 2v - m (the face between them holds v), else (Neumann) m */
MN_HD static inline double mni_st_bc_value(int dirichlet, int face, double v, double m) {
  return dirichlet ? v : face ? 2 * v - m : m;
}

MN_ST_BODIES(f32, float)
MN_ST_BODIES(f64, double)
#endif
