/* complex64 and complex128 as pairs of float or double (no _Complex: CUDA
 * has none, and NVRTC needs no header). Arithmetic follows NumPy's loops
 * (division is Smith's, as NumPy's); the transcendental functions give
 * C99's Annex G values at infinities and NaNs and stay finite where the
 * result is (large arguments: the forms of FreeBSD's msun, which NumPy's
 * npymath and glibc follow). Shared by the CPU tables and CUDA. */
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
  /* type constants: exp's overflow edge (less a margin), the argument past \
   * which cosh and sinh are exp / 2 (and tanh is +-1), 1 / epsilon, and \
   * half of the largest value */ \
  MN_HD static inline R mni_big_##S(void) { return (R)(sizeof(R) == 4 ? 88.0 : 709.0); } \
  MN_HD static inline R mni_cut_##S(void) { return (R)(sizeof(R) == 4 ? 9.0 : 22.0); } \
  MN_HD static inline R mni_reps_##S(void) { return (R)(sizeof(R) == 4 ? 8388608.0 : 4503599627370496.0); } \
  MN_HD static inline R mni_hmax_##S(void) { return (R)(sizeof(R) == 4 ? 1.7014117e38 : 8.98846567431158e307); } \
  /* exp(x) (c + s i), the exponential in two halves where exp(x) alone \
   * overflows but the product need not */ \
  MN_HD static inline T mni_expcis_##S(R x, R c, R s) { \
    if (x > mni_big_##S()) { R h = F(exp)(x / 2); return mn_mk_##S(c * h * h, s * h * h); } \
    R m = F(exp)(x); \
    return mn_mk_##S(m * c, m * s); } \
  MN_HD static inline T mni_k_exp_##S(T a) { \
    R x = a.re, y = a.im; \
    if (y == 0) return mn_mk_##S(F(exp)(x), y); \
    if (!isfinite(y)) { /* +inf: +inf + NaN i; -inf: 0; else NaN */ \
      if (isinf(x)) return x > 0 ? mn_mk_##S(x, y - y) : mn_mk_##S(0, F(copysign)((R)0, y)); \
      return mn_mk_##S(y - y, y - y); } \
    return mni_expcis_##S(x, F(cos)(y), F(sin)(y)); } \
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
    R x = a.re, y = a.im, sc = 1; \
    if (F(fmax)(F(fabs)(x), F(fabs)(y)) > mni_hmax_##S() / 2) x /= 4, y /= 4, sc = 2; /* |x| + |z| would overflow */ \
    R t = F(sqrt)((F(fabs)(x) + F(hypot)(x, y)) / 2); \
    if (x >= 0) return mn_mk_##S(sc * t, sc * (y / (2 * t))); \
    return mn_mk_##S(sc * (F(fabs)(y) / (2 * t)), sc * F(copysign)(t, y)); } \
  /* sinh, cosh and tanh as msun's csinh, ccosh and ctanh: Annex G's \
   * infinities and NaNs; exp(|x|) / 2 past the cut, scaled (so a finite \
   * result stays finite); sin, cos and tan through them (sin z = -i \
   * sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz)) */ \
  MN_HD static inline T mni_k_sinh_##S(T a) { \
    R x = a.re, y = a.im; \
    if (isfinite(x) && isfinite(y)) { \
      if (y == 0) return mn_mk_##S(F(sinh)(x), y); \
      if (F(fabs)(x) < mni_cut_##S()) return mn_mk_##S(F(sinh)(x) * F(cos)(y), F(cosh)(x) * F(sin)(y)); \
      T e = mni_expcis_##S(F(fabs)(x), F(cos)(y) / 2, F(sin)(y) / 2); \
      return mn_mk_##S(x < 0 ? -e.re : e.re, e.im); } \
    if (x == 0) return mn_mk_##S(x, y - y); \
    if (y == 0) return mn_mk_##S(x, y); \
    if (isfinite(x)) return mn_mk_##S(y - y, y - y); \
    if (isinf(x)) { \
      if (!isfinite(y)) return mn_mk_##S(x * x, y - y); \
      return mn_mk_##S(x * F(cos)(y), (R)INFINITY * F(sin)(y)); } \
    return mn_mk_##S((x * x) * (y - y), (x + x) * (y - y)); } \
  MN_HD static inline T mni_k_cosh_##S(T a) { \
    R x = a.re, y = a.im; \
    if (isfinite(x) && isfinite(y)) { \
      if (y == 0) return mn_mk_##S(F(cosh)(x), x * y); \
      if (F(fabs)(x) < mni_cut_##S()) return mn_mk_##S(F(cosh)(x) * F(cos)(y), F(sinh)(x) * F(sin)(y)); \
      T e = mni_expcis_##S(F(fabs)(x), F(cos)(y) / 2, F(sin)(y) / 2); \
      return mn_mk_##S(e.re, F(copysign)((R)1, x) * e.im); } \
    /* (the signs Annex G leaves open as glibc's, which NumPy calls) */ \
    if (x == 0) return mn_mk_##S(y - y, 0); \
    if (y == 0) return x != x ? mn_mk_##S(x, y) : mn_mk_##S(x * x, F(copysign)((R)0, x) * y); \
    if (isfinite(x)) return mn_mk_##S(y - y, x * (y - y)); \
    if (isinf(x)) { \
      if (!isfinite(y)) return mn_mk_##S(x * x, x * (y - y)); \
      return mn_mk_##S((x * x) * F(cos)(y), x * F(sin)(y)); } \
    return mn_mk_##S((x * x) * (y - y), (x + x) * (y - y)); } \
  /* tanh of finite values as glibc's ctanh (which NumPy calls): (sinh x \
   * cosh x + i sin y cos y) / (sinh^2 x + cos^2 y), accurate near the \
   * poles; past (MAX_EXP - 1) ln 2 / 2, +-1 and the imaginary part scaled */ \
  MN_HD static inline T mni_k_tanh_##S(T a) { \
    R x = a.re, y = a.im; \
    if (!isfinite(x)) { \
      if (x != x) return mn_mk_##S(x, y == 0 ? y : x * y); \
      return mn_mk_##S(F(copysign)((R)1, x), F(copysign)((R)0, isinf(y) ? y : F(sin)(y) * F(cos)(y))); } \
    if (!isfinite(y)) return x == 0 ? mn_mk_##S(x, y - y) : mn_mk_##S(y - y, y - y); \
    R t = (R)(sizeof(R) == 4 ? 44.0 : 354.0), tiny = (R)(sizeof(R) == 4 ? 1.17549435e-38 : 2.2250738585072014e-308); \
    R sy = y, cy = 1, sh = x, ch = 1; \
    if (F(fabs)(y) > tiny) sy = F(sin)(y), cy = F(cos)(y); \
    if (F(fabs)(x) > t) { \
      R e2t = F(exp)(2 * t), im = 4 * sy * cy / e2t, ax = F(fabs)(x) - t; \
      return mn_mk_##S(F(copysign)((R)1, x), ax > t ? im / e2t : im / F(exp)(2 * ax)); } \
    if (F(fabs)(x) > tiny) sh = F(sinh)(x), ch = F(cosh)(x); \
    R den = F(fabs)(sh) > F(fabs)(cy) / mni_reps_##S() ? sh * sh + cy * cy : cy * cy; \
    return mn_mk_##S(sh * ch / den, sy * cy / den); } \
  MN_HD static inline T mni_k_sin_##S(T a) { \
    T w = mni_k_sinh_##S(mn_mk_##S(-a.im, a.re)); \
    if (w.im != w.im && isinf(w.re)) return mn_mk_##S(w.im, (R)INFINITY); /* NaN +- inf i: glibc's + */ \
    return mn_mk_##S(w.im, -w.re); } \
  MN_HD static inline T mni_k_cos_##S(T a) { return mni_k_cosh_##S(mn_mk_##S(-a.im, a.re)); } \
  MN_HD static inline T mni_k_tan_##S(T a) { \
    T w = mni_k_tanh_##S(mn_mk_##S(-a.im, a.re)); \
    return mn_mk_##S(w.im, -w.re); } \
  MN_HD static inline T mni_k_exp2_##S(T a) { \
    return mni_k_exp_##S(mn_mk_##S(a.re * (R)0.693147180559945309417, a.im * (R)0.693147180559945309417)); } \
  /* NumPy's: exact near 0 */ \
  MN_HD static inline T mni_k_expm1_##S(T a) { \
    R h = F(sin)(a.im / 2); \
    return mn_mk_##S(F(expm1)(a.re) * F(cos)(a.im) - 2 * h * h, F(exp)(a.re) * F(sin)(a.im)); } \
  MN_HD static inline T mni_k_log1p_##S(T a) { \
    return mn_mk_##S(F(log)(F(hypot)(a.re + 1, a.im)), F(atan2)(a.im, a.re + 1)); } \
  MN_HD static inline T mni_k_rint_##S(T a) { return mn_mk_##S(F(rint)(a.re), F(rint)(a.im)); } \
  /* log z where |z| is past 1 / epsilon (msun's clog_for_large_values: \
   * no overflow of |z|) */ \
  MN_HD static inline T mni_loglarge_##S(R x, R y) { \
    R m = F(fmax)(F(fabs)(x), F(fabs)(y)), e = (R)2.7182818284590452354; \
    R re = m > mni_hmax_##S() ? F(log)(F(hypot)(x / e, y / e)) + 1 : F(log)(F(hypot)(x, y)); \
    return mn_mk_##S(re, F(atan2)(y, x)); } \
  /* The inverse functions' NaN, infinite and large arguments, as msun's \
   * casinh, cacos and catanh take them (Annex G; past 1 / epsilon their \
   * asymptotic forms): 1 with *r set, else 0 (the formulas below) */ \
  MN_HD static inline int mni_asinh_edge_##S(R x, R y, T *r) { \
    if (x != x || y != y) { \
      if (isinf(x)) *r = mn_mk_##S(x, y + y); \
      else if (isinf(y)) *r = mn_mk_##S(F(fabs)(y), x + x); \
      else if (y == 0) *r = mn_mk_##S(x + x, y); \
      else *r = mn_mk_##S(x + y, x + y); \
      return 1; } \
    if (F(fabs)(x) <= mni_reps_##S() && F(fabs)(y) <= mni_reps_##S()) return 0; \
    T w = signbit(x) ? mni_loglarge_##S(-x, -y) : mni_loglarge_##S(x, y); \
    *r = mn_mk_##S(F(copysign)(w.re + (R)0.69314718055994530942, x), F(copysign)(w.im, y)); \
    return 1; } \
  MN_HD static inline int mni_acos_edge_##S(R x, R y, T *r) { \
    if (x != x || y != y) { \
      if (isinf(x)) *r = mn_mk_##S(y + y, -(R)INFINITY); \
      else if (isinf(y)) *r = mn_mk_##S(x + x, -y); \
      else if (x == 0) *r = mn_mk_##S((R)1.57079632679489661923, y + y); \
      else *r = mn_mk_##S(x + y, x + y); \
      return 1; } \
    if (F(fabs)(x) <= mni_reps_##S() && F(fabs)(y) <= mni_reps_##S()) return 0; \
    T w = mni_loglarge_##S(x, y); \
    R ry = w.re + (R)0.69314718055994530942; \
    *r = mn_mk_##S(F(fabs)(w.im), signbit(y) ? ry : -ry); \
    return 1; } \
  MN_HD static inline int mni_atanh_edge_##S(R x, R y, T *r) { \
    R h = (R)1.57079632679489661923; \
    if (x == 0 && !isfinite(y)) { *r = mn_mk_##S(x, F(atan)(y)); return 1; } \
    if (x != x || y != y) { \
      if (isinf(x)) *r = mn_mk_##S(F(copysign)((R)0, x), y + y); \
      else if (isinf(y)) *r = mn_mk_##S(F(copysign)((R)0, x), F(copysign)(h, y)); \
      else *r = mn_mk_##S(x + y, x + y); \
      return 1; } \
    if (F(fabs)(x) <= mni_reps_##S() && F(fabs)(y) <= mni_reps_##S()) return 0; \
    R m = F(fmax)(F(fabs)(x), F(fabs)(y)), re; /* Re(1 / z), scaled */ \
    if (isinf(m)) re = F(copysign)((R)0, x); \
    else { R xs = x / m, ys = y / m; re = xs / (xs * xs + ys * ys) / m; } \
    *r = mn_mk_##S(re, F(copysign)(h, y)); \
    return 1; } \
  /* the inverse functions elsewhere by Kahan's formulas ("Branch cuts for \
   * complex elementary functions", 1987): square roots of 1 -+ z, so no \
   * part cancels near 0 and the cuts follow the signs of zero, as C99's; \
   * asin z and atan z at the edges as msun's, through asinh and atanh of \
   * the parts swapped */ \
  MN_HD static inline T mni_asin_kahan_##S(T a) { \
    T p = mni_k_sqrt_##S(mn_mk_##S(1 - a.re, -a.im)), q = mni_k_sqrt_##S(mn_mk_##S(1 + a.re, a.im)); \
    return mn_mk_##S(F(atan2)(a.re, p.re * q.re - p.im * q.im), F(asinh)(p.re * q.im - p.im * q.re)); } \
  MN_HD static inline T mni_k_arcsin_##S(T a) { \
    T r; \
    if (mni_asinh_edge_##S(a.im, a.re, &r)) return mn_mk_##S(r.im, r.re); \
    return mni_asin_kahan_##S(a); } \
  MN_HD static inline T mni_k_arccos_##S(T a) { \
    T r; \
    if (mni_acos_edge_##S(a.re, a.im, &r)) return r; \
    T p = mni_k_sqrt_##S(mn_mk_##S(1 - a.re, -a.im)), q = mni_k_sqrt_##S(mn_mk_##S(1 + a.re, a.im)); \
    return mn_mk_##S(2 * F(atan2)(p.re, q.re), F(asinh)(q.re * p.im - q.im * p.re)); } \
  /* acosh at the edges from acos's, as msun's cacosh */ \
  MN_HD static inline T mni_k_arccosh_##S(T a) { \
    T w; \
    if (mni_acos_edge_##S(a.re, a.im, &w)) { \
      if (w.re != w.re && w.im != w.im) return mn_mk_##S(w.im, w.re); \
      if (w.re != w.re) return mn_mk_##S(F(fabs)(w.im), w.re); \
      if (w.im != w.im) return mn_mk_##S(w.im, a.re == 0 ? w.re : w.im); /* +-0 + NaN i: NaN + pi/2 i, as glibc's */ \
      return mn_mk_##S(F(fabs)(w.im), F(copysign)(w.re, a.im)); } \
    T p = mni_k_sqrt_##S(mn_mk_##S(a.re - 1, a.im)), q = mni_k_sqrt_##S(mn_mk_##S(a.re + 1, a.im)); \
    return mn_mk_##S(F(asinh)(p.re * q.re + p.im * q.im), 2 * F(atan2)(p.im, q.re)); } \
  /* asinh z = -i asin(iz) (the edges tested once) */ \
  MN_HD static inline T mni_k_arcsinh_##S(T a) { \
    T r; \
    if (mni_asinh_edge_##S(a.re, a.im, &r)) return r; \
    T w = mni_asin_kahan_##S(mn_mk_##S(-a.im, a.re)); \
    return mn_mk_##S(w.im, -w.re); } \
  /* atanh: the real part through log1p (exact near 0), the imaginary one \
   * an angle whose zero's sign picks the side of the cuts */ \
  MN_HD static inline T mni_atanh_formula_##S(T a) { \
    /* the real part of |x| (odd in x): near x = -1, 4x / d near -1 lost \
     * log1p's accuracy */ \
    R x = a.re, y = a.im, ax = F(fabs)(x), d = (1 - ax) * (1 - ax) + y * y; \
    R im = (R)0.5 * F(atan2)(2 * y, (1 - x) * (1 + x) - y * y); \
    if (ax == 1 && F(fabs)(y) * mni_reps_##S() < 1) /* d underflows: msun's limit */ \
      return mn_mk_##S(F(copysign)(((R)0.69314718055994530942 - F(log)(F(fabs)(y))) / 2, x), im); \
    return mn_mk_##S(F(copysign)((R)0.25 * F(log1p)(4 * ax / d), x), im); } \
  MN_HD static inline T mni_k_arctanh_##S(T a) { \
    T r; \
    if (mni_atanh_edge_##S(a.re, a.im, &r)) return r; \
    return mni_atanh_formula_##S(a); } \
  /* atan z = -i atanh(iz) (the edges tested once) */ \
  MN_HD static inline T mni_k_arctan_##S(T a) { \
    T r; \
    if (mni_atanh_edge_##S(a.im, a.re, &r)) return mn_mk_##S(r.im, r.re); \
    T w = mni_atanh_formula_##S(mn_mk_##S(-a.im, a.re)); \
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
