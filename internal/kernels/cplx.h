/* complex64 and complex128 as pairs of float or double (no _Complex: CUDA
 * has none, and NVRTC needs no header). Arithmetic follows NumPy's loops
 * (division is Smith's, as NumPy's); the transcendental functions use the
 * textbook formulas on finite values. Shared by the CPU tables and CUDA. */
#ifndef MANIPLE_KERNEL_CPLX_H
#define MANIPLE_KERNEL_CPLX_H
#include "kernels/mn_hd.h"
#ifndef __CUDACC_RTC__
#include <math.h>
#include <stdint.h>
#endif

#ifndef MN_F32 /* (kernels/ops.h's too) math.h's float and double names */
#define MN_F32(fn) fn##f
#define MN_F64(fn) fn
#endif

typedef struct { float re, im; } mn_c64;
typedef struct { double re, im; } mn_c128;

/* MN_CPLX(S, T, R, F): kernels of complex type T (suffix S) with parts of
 * real type R, whose math.h functions F(fn) names */
#define MN_CPLX(S, T, R, F) \
  MN_HD static inline T mn_mk_##S(R re, R im) { T z; z.re = re; z.im = im; return z; } \
  MN_HD static inline T mni_k_add_##S(T a, T b) { return mn_mk_##S(a.re + b.re, a.im + b.im); } \
  MN_HD static inline T mni_k_sub_##S(T a, T b) { return mn_mk_##S(a.re - b.re, a.im - b.im); } \
  MN_HD static inline T mni_k_mul_##S(T a, T b) { \
    return mn_mk_##S(a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re); } \
  MN_HD static inline T mni_k_div_##S(T a, T b) { \
    R ar = F(fabs)(b.re), ai = F(fabs)(b.im); \
    if (ar >= ai) { \
      if (ar == 0 && ai == 0) return mn_mk_##S(a.re / ar, a.im / ai); /* NaN or inf, as NumPy */ \
      R rat = b.im / b.re, scl = (R)1 / (b.re + b.im * rat); \
      return mn_mk_##S((a.re + a.im * rat) * scl, (a.im - a.re * rat) * scl); } \
    R rat = b.re / b.im, scl = (R)1 / (b.im + b.re * rat); \
    return mn_mk_##S((a.re * rat + a.im) * scl, (a.im * rat - a.re) * scl); } \
  MN_HD static inline T mni_k_neg_##S(T a) { return mn_mk_##S(-a.re, -a.im); } \
  MN_HD static inline T mni_k_pos_##S(T a) { return a; } \
  MN_HD static inline T mni_k_conj_##S(T a) { return mn_mk_##S(a.re, -a.im); } \
  MN_HD static inline R mni_k_real_##S(T a) { return a.re; } \
  MN_HD static inline R mni_k_imag_##S(T a) { return a.im; } \
  MN_HD static inline R mni_k_abs_##S(T a) { return F(hypot)(a.re, a.im); } \
  MN_HD static inline T mni_k_square_##S(T a) { return mni_k_mul_##S(a, a); } \
  /* NumPy's loop (not 1 / z: its own ratio and signs) */ \
  MN_HD static inline T mni_k_reciprocal_##S(T a) { \
    if (F(fabs)(a.im) <= F(fabs)(a.re)) { \
      R r = a.im / a.re, d = a.re + a.im * r; \
      return mn_mk_##S((R)1 / d, -r / d); } \
    R r = a.re / a.im, d = a.re * r + a.im; \
    return mn_mk_##S(r / d, (R)-1 / d); } \
  /* NumPy 2: z / |z|, 0 for 0; an infinite part alone gives its unit \
   * (inf + nan j: 1, as hypot(inf, nan) is inf), both infinite NaN */ \
  MN_HD static inline T mni_k_sign_##S(T a) { \
    R m = F(hypot)(a.re, a.im); \
    if (m != m) return mn_mk_##S((R)NAN, (R)NAN); \
    if (isinf(m)) { \
      if (isinf(a.re)) return isinf(a.im) ? mn_mk_##S((R)NAN, (R)NAN) : mn_mk_##S(a.re > 0 ? 1 : -1, 0); \
      return mn_mk_##S(0, a.im > 0 ? 1 : -1); } \
    return m == 0 ? mn_mk_##S(0, 0) : mn_mk_##S(a.re / m, a.im / m); } \
  MN_HD static inline uint8_t mni_k_isnan_##S(T a) { return a.re != a.re || a.im != a.im; } \
  MN_HD static inline uint8_t mni_k_isinf_##S(T a) { return isinf(a.re) || isinf(a.im); } \
  MN_HD static inline uint8_t mni_k_isfinite_##S(T a) { return isfinite(a.re) && isfinite(a.im); } \
  MN_HD static inline uint8_t mni_k_logical_not_##S(T a) { return a.re == 0 && a.im == 0; } \
  MN_HD static inline uint8_t mni_k_eq_##S(T a, T b) { return a.re == b.re && a.im == b.im; } \
  MN_HD static inline uint8_t mni_k_ne_##S(T a, T b) { return !(a.re == b.re && a.im == b.im); } \
  /* NumPy orders complex numbers lexicographically; a NaN part on either \
   * side makes an order comparison false */ \
  MN_HD static inline uint8_t mni_k_lt_##S(T a, T b) { \
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im < b.im); } \
  MN_HD static inline uint8_t mni_k_le_##S(T a, T b) { \
    return (a.re < b.re && a.im == a.im && b.im == b.im) || (a.re == b.re && a.im <= b.im); } \
  MN_HD static inline uint8_t mni_k_gt_##S(T a, T b) { return mni_k_lt_##S(b, a); } \
  MN_HD static inline uint8_t mni_k_ge_##S(T a, T b) { return mni_k_le_##S(b, a); } \
  MN_HD static inline T mni_k_maximum_##S(T a, T b) { \
    return (mni_k_isnan_##S(a) || mni_k_ge_##S(a, b)) ? a : b; } \
  MN_HD static inline T mni_k_minimum_##S(T a, T b) { \
    return (mni_k_isnan_##S(a) || mni_k_le_##S(a, b)) ? a : b; } \
  MN_HD static inline T mni_k_where_##S(uint8_t c, T a, T b) { return c ? a : b; } \
  MN_HD static inline T mni_k_exp_##S(T a) { \
    R m = F(exp)(a.re); \
    if (a.im == 0) return mn_mk_##S(m, a.im); \
    return mn_mk_##S(m * F(cos)(a.im), m * F(sin)(a.im)); } \
  MN_HD static inline T mni_k_log_##S(T a) { \
    return mn_mk_##S(F(log)(F(hypot)(a.re, a.im)), F(atan2)(a.im, a.re)); } \
  MN_HD static inline T mni_k_log10_##S(T a) { \
    T l = mni_k_log_##S(a); \
    return mn_mk_##S(l.re * (R)0.43429448190325182765, l.im * (R)0.43429448190325182765); } \
  MN_HD static inline T mni_k_log2_##S(T a) { \
    T l = mni_k_log_##S(a); \
    return mn_mk_##S(l.re * (R)1.44269504088896340736, l.im * (R)1.44269504088896340736); } \
  /* the principal root, as C99's csqrt on finite values */ \
  MN_HD static inline T mni_k_sqrt_##S(T a) { \
    if (a.re == 0 && a.im == 0) return mn_mk_##S(0, a.im); \
    /* C99's infinities: x + inf i gives inf + inf i (any x); +inf + y i \
     * gives +inf + 0 i, -inf + y i gives 0 + inf i (y's signs) */ \
    if (isinf(a.im)) return mn_mk_##S((R)INFINITY, a.im); \
    if (isinf(a.re) && a.im == a.im) \
      return a.re > 0 ? mn_mk_##S(a.re, F(copysign)((R)0, a.im)) : mn_mk_##S(0, F(copysign)((R)INFINITY, a.im)); \
    R t = F(sqrt)((F(fabs)(a.re) + F(hypot)(a.re, a.im)) / 2); \
    if (a.re >= 0) return mn_mk_##S(t, a.im / (2 * t)); \
    return mn_mk_##S(F(fabs)(a.im) / (2 * t), F(copysign)(t, a.im)); } \
  MN_HD static inline T mni_k_sin_##S(T a) { \
    return mn_mk_##S(F(sin)(a.re) * F(cosh)(a.im), F(cos)(a.re) * F(sinh)(a.im)); } \
  MN_HD static inline T mni_k_cos_##S(T a) { \
    return mn_mk_##S(F(cos)(a.re) * F(cosh)(a.im), -F(sin)(a.re) * F(sinh)(a.im)); } \
  MN_HD static inline T mni_k_sinh_##S(T a) { \
    return mn_mk_##S(F(sinh)(a.re) * F(cos)(a.im), F(cosh)(a.re) * F(sin)(a.im)); } \
  MN_HD static inline T mni_k_cosh_##S(T a) { \
    return mn_mk_##S(F(cosh)(a.re) * F(cos)(a.im), F(sinh)(a.re) * F(sin)(a.im)); } \
  /* tan and tanh as one quotient of doubled angles (no overflow of the \
   * parts until cosh does) */ \
  MN_HD static inline T mni_k_tanh_##S(T a) { \
    R d = F(cosh)(2 * a.re) + F(cos)(2 * a.im); \
    return mn_mk_##S(F(sinh)(2 * a.re) / d, F(sin)(2 * a.im) / d); } \
  MN_HD static inline T mni_k_tan_##S(T a) { \
    R d = F(cos)(2 * a.re) + F(cosh)(2 * a.im); \
    return mn_mk_##S(F(sin)(2 * a.re) / d, F(sinh)(2 * a.im) / d); } \
  MN_HD static inline T mni_k_exp2_##S(T a) { \
    return mni_k_exp_##S(mn_mk_##S(a.re * (R)0.693147180559945309417, a.im * (R)0.693147180559945309417)); } \
  /* NumPy's: exact near 0 */ \
  MN_HD static inline T mni_k_expm1_##S(T a) { \
    R h = F(sin)(a.im / 2); \
    return mn_mk_##S(F(expm1)(a.re) * F(cos)(a.im) - 2 * h * h, F(exp)(a.re) * F(sin)(a.im)); } \
  MN_HD static inline T mni_k_log1p_##S(T a) { \
    return mn_mk_##S(F(log)(F(hypot)(a.re + 1, a.im)), F(atan2)(a.im, a.re + 1)); } \
  MN_HD static inline T mni_k_rint_##S(T a) { return mn_mk_##S(F(rint)(a.re), F(rint)(a.im)); } \
  /* the inverse functions by Kahan's formulas ("Branch cuts for complex \
   * elementary functions", 1987): square roots of 1 -+ z, so no part \
   * cancels near 0 and the cuts follow the signs of zero, as C99's */ \
  MN_HD static inline T mni_k_arcsin_##S(T a) { \
    T p = mni_k_sqrt_##S(mn_mk_##S(1 - a.re, -a.im)), q = mni_k_sqrt_##S(mn_mk_##S(1 + a.re, a.im)); \
    return mn_mk_##S(F(atan2)(a.re, p.re * q.re - p.im * q.im), F(asinh)(p.re * q.im - p.im * q.re)); } \
  MN_HD static inline T mni_k_arccos_##S(T a) { \
    T p = mni_k_sqrt_##S(mn_mk_##S(1 - a.re, -a.im)), q = mni_k_sqrt_##S(mn_mk_##S(1 + a.re, a.im)); \
    return mn_mk_##S(2 * F(atan2)(p.re, q.re), F(asinh)(q.re * p.im - q.im * p.re)); } \
  MN_HD static inline T mni_k_arccosh_##S(T a) { \
    T p = mni_k_sqrt_##S(mn_mk_##S(a.re - 1, a.im)), q = mni_k_sqrt_##S(mn_mk_##S(a.re + 1, a.im)); \
    return mn_mk_##S(F(asinh)(p.re * q.re + p.im * q.im), 2 * F(atan2)(p.im, q.re)); } \
  /* asinh z = -i asin(iz) */ \
  MN_HD static inline T mni_k_arcsinh_##S(T a) { \
    T w = mni_k_arcsin_##S(mn_mk_##S(-a.im, a.re)); \
    return mn_mk_##S(w.im, -w.re); } \
  /* atanh: the real part through log1p (exact near 0), the imaginary one \
   * an angle whose zero's sign picks the side of the cuts */ \
  MN_HD static inline T mni_k_arctanh_##S(T a) { \
    R x = a.re, y = a.im, d = (1 - x) * (1 - x) + y * y; \
    return mn_mk_##S((R)0.25 * F(log1p)(4 * x / d), (R)0.5 * F(atan2)(2 * y, (1 - x) * (1 + x) - y * y)); } \
  /* atan z = -i atanh(iz) */ \
  MN_HD static inline T mni_k_arctan_##S(T a) { \
    T w = mni_k_arctanh_##S(mn_mk_##S(-a.im, a.re)); \
    return mn_mk_##S(w.im, -w.re); } \
  /* fmax and fmin: the other operand where one has a NaN part */ \
  MN_HD static inline T mni_k_fmax_##S(T a, T b) { \
    return (mni_k_ge_##S(a, b) || mni_k_isnan_##S(b)) ? a : b; } \
  MN_HD static inline T mni_k_fmin_##S(T a, T b) { \
    return (mni_k_le_##S(a, b) || mni_k_isnan_##S(b)) ? a : b; } \
  /* clip as minimum(maximum(x, lo), hi), lexicographic and NaN-propagating */ \
  MN_HD static inline T mni_k_clip_##S(T x, T lo, T hi) { \
    return mni_k_minimum_##S(mni_k_maximum_##S(x, lo), hi); } \
  /* a ** b as NumPy: b = 0 gives 1; 0 ** b is 0 where b's real part is \
   * positive, else NaN; powers 1, 2, 3 are a, a a, a a a (so infinite parts \
   * stay), other small integers repeated products; else exp(b log a) */ \
  MN_HD static inline T mni_k_pow_##S(T a, T b) { \
    if (b.re == 0 && b.im == 0) return mn_mk_##S(1, 0); \
    if (a.re == 0 && a.im == 0) return b.re > 0 ? mn_mk_##S(0, 0) : mn_mk_##S((R)NAN, (R)NAN); \
    if (b.im == 0 && b.re == F(floor)(b.re) && F(fabs)(b.re) < 100) { \
      int n = (int)b.re, k = n < 0 ? -n : n; \
      if (n == 1) return a; \
      if (n == 2) return mni_k_mul_##S(a, a); \
      if (n == 3) return mni_k_mul_##S(mni_k_mul_##S(a, a), a); \
      T r = mn_mk_##S(1, 0), x = a; \
      while (k) { if (k & 1) r = mni_k_mul_##S(r, x); x = mni_k_mul_##S(x, x); k >>= 1; } \
      return n < 0 ? mni_k_div_##S(mn_mk_##S(1, 0), r) : r; } \
    return mni_k_exp_##S(mni_k_mul_##S(b, mni_k_log_##S(a))); }
MN_CPLX(c64, mn_c64, float, MN_F32)
MN_CPLX(c128, mn_c128, double, MN_F64)
MN_HD static inline mn_c128 mni_k_float_power_c128(mn_c128 a, mn_c128 b) { return mni_k_pow_c128(a, b); }
#endif
