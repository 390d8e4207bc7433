/* Element-wise kernel bodies, written once and compiled for the CPU (C) and
 * for CUDA (MN_HD = __host__ __device__). Integer arithmetic wraps as in
 * NumPy (done in unsigned to avoid C's signed overflow). The X-macro lists
 * at the end name every (op, compute type) pair a backend must provide. */
#ifndef MANIPLE_OPS_H
#define MANIPLE_OPS_H
#include "kernels/mn_hd.h"
#ifdef __CUDACC_RTC__ /* NVRTC: no system headers; its math functions are built in */
typedef signed char int8_t;
typedef unsigned char uint8_t;
typedef short int16_t;
typedef unsigned short uint16_t;
typedef int int32_t;
typedef unsigned int uint32_t;
typedef long long int64_t;
typedef unsigned long long uint64_t;
#define INT32_MIN (-2147483647 - 1)
#define INT64_MIN (-9223372036854775807LL - 1)
#define INT32_MAX 2147483647
#define INT64_MAX 9223372036854775807LL
#define NAN __int_as_float(0x7fc00000)
#define INFINITY __int_as_float(0x7f800000)
#else
#include <math.h>
#include <stdint.h>
#endif

#include "kernels/half.h"
typedef uint8_t mn_b;
/* float and double names of a math.h function */
#define MN_F32(fn) fn##f
#define MN_F64(fn) fn
#include "kernels/cplx.h"

/* ---- unary ---- */
#define MN_WRAP1(S, T, U, NAME, EXPR) \
  MN_HD static inline T mni_k_##NAME##_##S(T a) { return (T)(EXPR); }
/* integer types as (suffix, type, unsigned type wide enough for C not to
 * promote it to int: products of 16-bit values stay unsigned) */
#define MN_SINTS(M) M(i8, int8_t, uint32_t) M(i16, int16_t, uint32_t) M(i32, int32_t, uint32_t) M(i64, int64_t, uint64_t)
#define MN_UINTS(M) M(u8, uint8_t, uint32_t) M(u16, uint16_t, uint32_t) M(u32, uint32_t, uint32_t) M(u64, uint64_t, uint64_t)
#define MN_INTS(M) MN_SINTS(M) MN_UINTS(M)
#define MN_NEG_(S, T, U) MN_WRAP1(S, T, U, neg, (U)0 - (U)a)
MN_INTS(MN_NEG_)
MN_HD static inline float mni_k_neg_f32(float a) { return -a; }
MN_HD static inline double mni_k_neg_f64(double a) { return -a; }
#define MN_POS(S, T, U) MN_HD static inline T mni_k_pos_##S(T a) { return a; }
MN_INTS(MN_POS) MN_POS(f32, float, float) MN_POS(f64, double, double)
MN_HD static inline mn_b mni_k_abs_b(mn_b a) { return a; }
#define MN_SABS_(S, T, U) MN_WRAP1(S, T, U, abs, a < 0 ? (U)0 - (U)a : (U)a)
#define MN_UABS_(S, T, U) MN_HD static inline T mni_k_abs_##S(T a) { return a; }
MN_SINTS(MN_SABS_) MN_UINTS(MN_UABS_)
MN_HD static inline float mni_k_abs_f32(float a) { return fabsf(a); }
MN_HD static inline double mni_k_abs_f64(double a) { return fabs(a); }
MN_HD static inline mn_b mni_k_square_b(mn_b a) { return a; }
#define MN_SQUARE_(S, T, U) MN_WRAP1(S, T, U, square, (U)a * (U)a)
MN_INTS(MN_SQUARE_)
MN_HD static inline float mni_k_square_f32(float a) { return a * a; }
MN_HD static inline double mni_k_square_f64(double a) { return a * a; }
/* 1 / a in integers: a for 1 and -1, else 0. 1 / 0 is NumPy's on x86, which
 * converts 1.0 / 0 to the type: the minimum for 32 and 64 bits (cvttsd2si's
 * answer), 0 for narrower types, where the conversion goes through int32. */
#define MN_SRECIP_(S, T, U) MN_HD static inline T mni_k_reciprocal_##S(T a) { \
    if (a == 0) { MN_RAISE_DIVZERO_INVALID(); return sizeof(T) >= 4 ? (T)((U)1 << (8 * sizeof(T) - 1)) : 0; } \
    return (a == 1 || a == -1) ? a : 0; }
#define MN_URECIP_(S, T, U) MN_HD static inline T mni_k_reciprocal_##S(T a) { \
    if (a == 0) MN_RAISE_DIVZERO_INVALID(); \
    return a == 1 ? a : 0; }
MN_SINTS(MN_SRECIP_) MN_UINTS(MN_URECIP_)
MN_HD static inline float mni_k_reciprocal_f32(float a) { return 1.0f / a; }
MN_HD static inline double mni_k_reciprocal_f64(double a) { return 1.0 / a; }
#define MN_SIGN(S, T, U) MN_HD static inline T mni_k_sign_##S(T a) { \
    return a != a ? a : (T)((a > 0) - (a < 0)); }
#define MN_USIGN_(S, T, U) MN_HD static inline T mni_k_sign_##S(T a) { return (T)(a > 0); }
MN_SINTS(MN_SIGN) MN_UINTS(MN_USIGN_) MN_SIGN(f32, float, float) MN_SIGN(f64, double, double)
MN_HD static inline mn_b mni_k_logical_not_b(mn_b a) { return !a; }
MN_HD static inline mn_b mni_k_invert_b(mn_b a) { return !a; }
#define MN_INVERT_(S, T, U) MN_HD static inline T mni_k_invert_##S(T a) { return (T)~(U)a; }
MN_INTS(MN_INVERT_)
#define MN_INTPRED(S, T, U) \
  MN_HD static inline mn_b mni_k_isnan_##S(T a) { (void)a; return 0; } \
  MN_HD static inline mn_b mni_k_isinf_##S(T a) { (void)a; return 0; } \
  MN_HD static inline mn_b mni_k_isfinite_##S(T a) { (void)a; return 1; }
MN_INTPRED(b, mn_b, mn_b) MN_INTS(MN_INTPRED)
#define MN_FLTPRED(S, T) \
  MN_HD static inline mn_b mni_k_isnan_##S(T a) { return isnan(a) != 0; } \
  MN_HD static inline mn_b mni_k_isinf_##S(T a) { return isinf(a) != 0; } \
  MN_HD static inline mn_b mni_k_isfinite_##S(T a) { return isfinite(a) != 0; }
MN_FLTPRED(f32, float) MN_FLTPRED(f64, double)
/* transcendental and rounding functions: float and double versions */
#define MN_FLT1(NAME, F) \
  MN_HD static inline float mni_k_##NAME##_f32(float a) { return F##f(a); } \
  MN_HD static inline double mni_k_##NAME##_f64(double a) { return F(a); }
MN_FLT1(sqrt, sqrt) MN_FLT1(exp, exp) MN_FLT1(log, log) MN_FLT1(log2, log2)
MN_FLT1(log10, log10) MN_FLT1(expm1, expm1) MN_FLT1(log1p, log1p)
MN_FLT1(sin, sin) MN_FLT1(cos, cos) MN_FLT1(tan, tan) MN_FLT1(arcsin, asin)
MN_FLT1(arccos, acos) MN_FLT1(arctan, atan) MN_FLT1(sinh, sinh)
MN_FLT1(cosh, cosh) MN_FLT1(tanh, tanh) MN_FLT1(floor, floor)
MN_FLT1(ceil, ceil) MN_FLT1(trunc, trunc) MN_FLT1(rint, rint)
/* NumPy 2 keeps bool and integer dtypes through floor, ceil and trunc */
#define MN_INTROUND(S, T, U) \
  MN_HD static inline T mni_k_floor_##S(T a) { return a; } \
  MN_HD static inline T mni_k_ceil_##S(T a) { return a; } \
  MN_HD static inline T mni_k_trunc_##S(T a) { return a; }
MN_INTROUND(b, mn_b, mn_b) MN_INTS(MN_INTROUND)
MN_FLT1(arccosh, acosh) MN_FLT1(arcsinh, asinh) MN_FLT1(arctanh, atanh)
MN_FLT1(cbrt, cbrt) MN_FLT1(exp2, exp2) MN_FLT1(fabs, fabs)
#define MN_PI 3.14159265358979323846
#define MN_FLTMISC(S, T, F) \
  MN_HD static inline mn_b mni_k_signbit_##S(T a) { return signbit(a) != 0; } \
  /* ulp towards the side of a's sign, -0.0 counting as positive (NumPy) */ \
  MN_HD static inline T mni_k_spacing_##S(T a) { \
    if (isinf(a)) return (T)NAN; \
    return F(nextafter)(a, a < 0 ? -(T)INFINITY : (T)INFINITY) - a; } \
  /* one multiplication by a constant rounded to T, as NumPy */ \
  MN_HD static inline T mni_k_deg2rad_##S(T a) { return a * ((T)MN_PI / (T)180); } \
  MN_HD static inline T mni_k_rad2deg_##S(T a) { return a * ((T)180 / (T)MN_PI); } \
  MN_HD static inline int32_t mni_k_frexp_exp_##S(T a) { \
    int e = 0; /* 0 for inf and NaN, as NumPy */ \
    if (isfinite(a)) (void)F(frexp)(a, &e); \
    return (int32_t)e; }
MN_FLTMISC(f32, float, MN_F32) MN_FLTMISC(f64, double, MN_F64)
/* float16's neighbours are half's, not float32's: nextafter and spacing
 * step its bits (the others compute in float32) */
MN_HD static inline mn_h mni_k_nextafter_h(mn_h a, mn_h b) {
  float x = mn_h2f(a), y = mn_h2f(b);
  if (x != x || y != y) return (mn_h)0x7e00u;
  if (x == y) return b;
  if (x == 0) return (mn_h)((b & 0x8000u) | 1u); /* the smallest subnormal towards b */
  return (mn_h)((x < y) == (x > 0) ? a + 1 : a - 1);
}
MN_HD static inline mn_h mni_k_spacing_h(mn_h a) {
  float x = mn_h2f(a);
  if (x != x || x - x != 0) return (mn_h)0x7e00u; /* NaN and infinities */
  /* towards +inf whatever the sign, as NumPy's half spacing (unlike its float and double ones) */
  return mn_d2h((double)mn_h2f(mni_k_nextafter_h(a, (mn_h)0x7c00u)) - (double)x); /* exact, or inf past 65504 */
}
/* Modified Bessel function I0: its power series (all terms positive, so no
 * cancellation) below 20, the asymptotic series exp(x)/sqrt(2 pi x) * sum
 * (also all positive, truncation error ~exp(-2x)) above. exp(x) overflows
 * where NumPy's does; +-inf give NaN as in NumPy. */
MN_HD static inline double mn_i0(double x) {
  x = fabs(x);
  if (x != x || isinf(x)) return (double)NAN; /* NumPy: exp(inf) / sqrt(inf) */
  double s = 1, t = 1;
  if (x < 20) {
    double q = 0.25 * x * x;
    for (int k = 1; k < 100 && t > s * 1e-17; k++) {
      t *= q / ((double)k * (double)k);
      s += t;
    }
    return s;
  }
  double r = 0.125 / x;
  for (int k = 1; k < 100 && t > s * 1e-17; k++) {
    double o = 2.0 * k - 1.0, nt = t * o * o * r / k;
    if (nt >= t) break; /* the asymptotic series' terms start to grow */
    t = nt;
    s += t;
  }
  return exp(x) * (s / sqrt(2 * MN_PI * x));
}
MN_HD static inline double mni_k_i0_f64(double a) { return mn_i0(a); }
/* NumPy computes float32 i0 in float32: infinite once expf overflows */
MN_HD static inline float mni_k_i0_f32(float a) {
  return !isinf(a) && isinf(expf(fabsf(a))) ? (float)INFINITY : (float)mn_i0((double)a); }

/* ---- binary ---- */
#define MN_WRAP2(S, T, U, NAME, EXPR) \
  MN_HD static inline T mni_k_##NAME##_##S(T a, T b) { return (T)(EXPR); }
#define MN_INTARITH(S, T, U) \
  MN_WRAP2(S, T, U, add, (U)a + (U)b) MN_WRAP2(S, T, U, sub, (U)a - (U)b) \
  MN_WRAP2(S, T, U, mul, (U)a * (U)b)
MN_INTS(MN_INTARITH)
#define MN_FLTARITH(S, T) \
  MN_HD static inline T mni_k_add_##S(T a, T b) { return a + b; } \
  MN_HD static inline T mni_k_sub_##S(T a, T b) { return a - b; } \
  MN_HD static inline T mni_k_mul_##S(T a, T b) { return a * b; } \
  MN_HD static inline T mni_k_div_##S(T a, T b) { return a / b; }
MN_FLTARITH(f32, float) MN_FLTARITH(f64, double)
MN_HD static inline mn_b mni_k_add_b(mn_b a, mn_b b) { return a | b; }
MN_HD static inline mn_b mni_k_mul_b(mn_b a, mn_b b) { return a & b; }
/* Python/NumPy floor division and remainder: sign of the divisor */
#define MN_INTDIV(S, T, U) \
  MN_HD static inline T mni_k_floordiv_##S(T a, T b) { \
    if (b == 0) { MN_RAISE_DIVZERO(); return 0; } \
    if (b == -1) return (T)((U)0 - (U)a); \
    T q = a / b; \
    if ((a % b != 0) && ((a < 0) != (b < 0))) q--; \
    return q; } \
  MN_HD static inline T mni_k_mod_##S(T a, T b) { \
    if (b == 0) { MN_RAISE_DIVZERO(); return 0; } \
    if (b == -1) return 0; \
    T r = a % b; \
    if (r != 0 && ((r < 0) != (b < 0))) r += b; \
    return r; } \
  MN_HD static inline T mni_k_pow_##S(T a, T b) { \
    if (b < 0) return (a == 1 || (a == -1 && !(b & 1))) ? 1 : (a == -1 ? -1 : 0); \
    U r = 1, x = (U)a; \
    while (b) { if (b & 1) r *= x; x *= x; b >>= 1; } \
    return (T)r; }
MN_SINTS(MN_INTDIV)
#define MN_UINTDIV(S, T, U) \
  MN_HD static inline T mni_k_floordiv_##S(T a, T b) { \
    if (b == 0) { MN_RAISE_DIVZERO(); return 0; } \
    return (T)(a / b); } \
  MN_HD static inline T mni_k_mod_##S(T a, T b) { \
    if (b == 0) { MN_RAISE_DIVZERO(); return 0; } \
    return (T)(a % b); } \
  MN_HD static inline T mni_k_pow_##S(T a, T b) { \
    U r = 1, x = (U)a; \
    while (b) { if (b & 1) r *= x; x *= x; b >>= 1; } \
    return (T)r; }
MN_UINTS(MN_UINTDIV)
/* signs read by copysign and NaN tested first: a NaN operand raises no
 * invalid (NumPy's remainder and floor_divide raise none for one) */
#define MN_FLTDIV(S, T, F) \
  MN_HD static inline T mni_k_mod_##S(T a, T b) { \
    T r = F(fmod)(a, b); \
    if (r != 0) { if ((F(copysign)((T)1, r) < 0) != (F(copysign)((T)1, b) < 0)) r += b; } \
    else r = F(copysign)((T)0, b); /* a zero takes the divisor's sign */ \
    return r; } \
  MN_HD static inline T mni_k_floordiv_##S(T a, T b) { /* as npy_divmod */ \
    if (b == 0) return a / b; \
    T m = F(fmod)(a, b), d = (a - m) / b; \
    if (d != d) return d; \
    if (m != 0 && ((F(copysign)((T)1, b) < 0) != (F(copysign)((T)1, m) < 0))) d -= 1; \
    if (d == 0) return F(copysign)((T)0, a / b); \
    T f = F(floor)(d); \
    return (d - f > (T)0.5) ? f + 1 : f; } \
  MN_HD static inline T mni_k_pow_##S(T a, T b) { return F(pow)(a, b); } \
  MN_HD static inline T mni_k_atan2_##S(T a, T b) { return F(atan2)(a, b); } \
  MN_HD static inline T mni_k_hypot_##S(T a, T b) { return F(hypot)(a, b); } \
  MN_HD static inline T mni_k_copysign_##S(T a, T b) { return F(copysign)(a, b); } \
  MN_HD static inline T mni_k_fmax_##S(T a, T b) { return F(fmax)(a, b); } \
  MN_HD static inline T mni_k_fmin_##S(T a, T b) { return F(fmin)(a, b); }
MN_FLTDIV(f32, float, MN_F32) MN_FLTDIV(f64, double, MN_F64)
/* C's fmod: the sign of the dividend; integers by zero give 0 and raise
 * divide-by-zero (NumPy) and -1 is special-cased since MIN % -1 overflows */
#define MN_INTFMOD(S, T, U) MN_HD static inline T mni_k_fmod_##S(T a, T b) { \
    if (b == 0) { MN_RAISE_DIVZERO(); return 0; } \
    return b == -1 ? 0 : (T)(a % b); }
#define MN_UINTFMOD(S, T, U) MN_HD static inline T mni_k_fmod_##S(T a, T b) { \
    if (b == 0) { MN_RAISE_DIVZERO(); return 0; } \
    return (T)(a % b); }
MN_SINTS(MN_INTFMOD) MN_UINTS(MN_UINTFMOD)
#define MN_LN2 0.693147180559945309417232121458176568
#define MN_LOG2E 1.44269504088896340735992468100189214
#define MN_FLTBIN2(S, T, F) \
  MN_HD static inline T mni_k_fmod_##S(T a, T b) { return F(fmod)(a, b); } \
  /* log(exp(a) + exp(b)) without overflow; equal arguments (infinities \
   * included) shortcut; a NaN difference is returned as the NaN result */ \
  MN_HD static inline T mni_k_logaddexp_##S(T a, T b) { \
    if (a == b) return a + (T)MN_LN2; \
    T d = a - b; \
    if (d > 0) return a + F(log1p)(F(exp)(-d)); \
    if (d <= 0) return b + F(log1p)(F(exp)(d)); \
    return d; } \
  MN_HD static inline T mni_k_logaddexp2_##S(T a, T b) { \
    if (a == b) return a + 1; \
    T d = a - b; \
    if (d > 0) return a + (T)MN_LOG2E * F(log1p)(F(exp2)(-d)); \
    if (d <= 0) return b + (T)MN_LOG2E * F(log1p)(F(exp2)(d)); \
    return d; } \
  MN_HD static inline T mni_k_heaviside_##S(T x, T h0) { \
    return x != x ? x : x == 0 ? h0 : x < 0 ? (T)0 : (T)1; } \
  MN_HD static inline T mni_k_nextafter_##S(T a, T b) { return F(nextafter)(a, b); } \
  /* b holds an integer exponent (cast to T); beyond +-1e5 every finite \
   * nonzero a over- or underflows, so clamping keeps the int conversion safe */ \
  MN_HD static inline T mni_k_ldexp_##S(T a, T b) { \
    int e = b != b ? 0 : b > (T)100000 ? 100000 : b < (T)-100000 ? -100000 : (int)b; \
    return F(ldexp)(a, e); }
MN_FLTBIN2(f32, float, MN_F32) MN_FLTBIN2(f64, double, MN_F64)
MN_HD static inline double mni_k_float_power_f64(double a, double b) { return pow(a, b); }
MN_HD static inline mn_c64 mni_k_complex_f32(float a, float b) { return mn_mk_c64(a, b); }
MN_HD static inline mn_c128 mni_k_complex_f64(double a, double b) { return mn_mk_c128(a, b); }
/* gcd and lcm of the absolute values in unsigned arithmetic: |MIN| wraps
 * back to MIN and lcm overflow wraps, as in NumPy */
#define MN_GCD(S, T, U) \
  MN_HD static inline U mn_gcdu_##S(U a, U b) { while (b) { U t = a % b; a = b; b = t; } return a; } \
  MN_HD static inline U mn_absu_##S(T a) { return a < 0 ? (U)0 - (U)a : (U)a; } \
  MN_HD static inline T mni_k_gcd_##S(T a, T b) { return (T)mn_gcdu_##S(mn_absu_##S(a), mn_absu_##S(b)); } \
  MN_HD static inline T mni_k_lcm_##S(T a, T b) { \
    U x = mn_absu_##S(a), y = mn_absu_##S(b), g = mn_gcdu_##S(x, y); \
    return g ? (T)(x / g * y) : 0; }
MN_SINTS(MN_GCD)
#define MN_UGCD(S, T, U) \
  MN_HD static inline T mni_k_gcd_##S(T a, T b) { while (b) { T t = (T)(a % b); a = b; b = t; } return a; } \
  MN_HD static inline T mni_k_lcm_##S(T a, T b) { \
    T g = mni_k_gcd_##S(a, b); \
    return g ? (T)((U)(a / g) * (U)b) : 0; }
MN_UINTS(MN_UGCD)
/* maximum/minimum propagate NaN; fmax/fmin ignore it (floats above) */
#define MN_MINMAX(S, T, U) \
  MN_HD static inline T mni_k_maximum_##S(T a, T b) { return (a > b || a != a) ? a : b; } \
  MN_HD static inline T mni_k_minimum_##S(T a, T b) { return (a < b || a != a) ? a : b; }
MN_MINMAX(b, mn_b, mn_b) MN_INTS(MN_MINMAX)
MN_MINMAX(f32, float, float) MN_MINMAX(f64, double, double)
#define MN_INTFMAX(S, T, U) \
  MN_HD static inline T mni_k_fmax_##S(T a, T b) { return a > b ? a : b; } \
  MN_HD static inline T mni_k_fmin_##S(T a, T b) { return a < b ? a : b; }
MN_INTFMAX(b, mn_b, mn_b) MN_INTS(MN_INTFMAX)
#define MN_CMP(S, T, U) \
  MN_HD static inline mn_b mni_k_eq_##S(T a, T b) { return a == b; } \
  MN_HD static inline mn_b mni_k_ne_##S(T a, T b) { return a != b; } \
  MN_HD static inline mn_b mni_k_lt_##S(T a, T b) { return a < b; } \
  MN_HD static inline mn_b mni_k_le_##S(T a, T b) { return a <= b; } \
  MN_HD static inline mn_b mni_k_gt_##S(T a, T b) { return a > b; } \
  MN_HD static inline mn_b mni_k_ge_##S(T a, T b) { return a >= b; }
MN_CMP(b, mn_b, mn_b) MN_INTS(MN_CMP) MN_CMP(f32, float, float) MN_CMP(f64, double, double)
MN_HD static inline mn_b mni_k_logical_and_b(mn_b a, mn_b b) { return a && b; }
MN_HD static inline mn_b mni_k_logical_or_b(mn_b a, mn_b b) { return a || b; }
MN_HD static inline mn_b mni_k_logical_xor_b(mn_b a, mn_b b) { return (a != 0) != (b != 0); }
#define MN_BITS(S, T, U) \
  MN_HD static inline T mni_k_bitand_##S(T a, T b) { return (T)(a & b); } \
  MN_HD static inline T mni_k_bitor_##S(T a, T b) { return (T)(a | b); } \
  MN_HD static inline T mni_k_bitxor_##S(T a, T b) { return (T)(a ^ b); }
MN_BITS(b, mn_b, mn_b) MN_INTS(MN_BITS)
/* shifts by the type's width or more give 0 (or -1 for a negative a
 * shifted right), as NumPy */
#define MN_SHIFT(S, T, U) \
  MN_HD static inline T mni_k_lshift_##S(T a, T b) { \
    return (b < 0 || b >= (T)(8 * sizeof(T))) ? 0 : (T)((U)a << b); } \
  MN_HD static inline T mni_k_rshift_##S(T a, T b) { \
    return (b < 0 || b >= (T)(8 * sizeof(T))) ? (a < 0 ? -1 : 0) : (T)(a >> b); }
#define MN_USHIFT(S, T, U) \
  MN_HD static inline T mni_k_lshift_##S(T a, T b) { return b >= (T)(8 * sizeof(T)) ? 0 : (T)((U)a << b); } \
  MN_HD static inline T mni_k_rshift_##S(T a, T b) { return b >= (T)(8 * sizeof(T)) ? 0 : (T)(a >> b); }
MN_SINTS(MN_SHIFT) MN_UINTS(MN_USHIFT)

/* ---- ternary ---- */
/* clip as NumPy's: a NaN anywhere gives NaN, lo > hi gives hi, and a tie
 * keeps x (clip(-0.0, 0.0, 1.0) is -0.0, unlike maximum(-0.0, 0.0)) */
#define MN_TERN(S, T, U) \
  MN_HD static inline T mni_k_where_##S(mn_b c, T a, T b) { return c ? a : b; } \
  MN_HD static inline T mni_k_clip_##S(T x, T lo, T hi) { \
    T t = (x != x || x >= lo) ? x : lo; \
    return (t != t || t <= hi) ? t : hi; }
MN_TERN(b, mn_b, mn_b) MN_INTS(MN_TERN) MN_TERN(f32, float, float) MN_TERN(f64, double, double)
#define MN_IFMA(S, T, U) MN_HD static inline T mni_k_fma_##S(T a, T b, T c) { return (T)((U)a * (U)b + (U)c); }
MN_INTS(MN_IFMA)
MN_HD static inline float mni_k_fma_f32(float a, float b, float c) { return a * b + c; }
MN_HD static inline double mni_k_fma_f64(double a, double b, double c) { return a * b + c; }

/* ---- the lists: X(ENUM, name, suffix, in type, out type) ---- */
#define MN_T_b mn_b
#define MN_T_i8 int8_t
#define MN_T_i16 int16_t
#define MN_T_i32 int32_t
#define MN_T_i64 int64_t
#define MN_T_u8 uint8_t
#define MN_T_u16 uint16_t
#define MN_T_u32 uint32_t
#define MN_T_u64 uint64_t
#define MN_T_f32 float
#define MN_T_f64 double
#define MN_T_h mn_h
#define MN_T_c64 mn_c64
#define MN_T_c128 mn_c128
/* the real type of a complex one's parts */
#define MN_R_c64 float
#define MN_R_c128 double
#define MN_SAME(X, E, N, S) X(E, N, S, MN_T_##S, MN_T_##S)
#define MN_TOB(X, E, N, S) X(E, N, S, MN_T_##S, mn_b)
#define MN_INT8(M, X, E, N) M(X, E, N, i8) M(X, E, N, i16) M(X, E, N, i32) M(X, E, N, i64) \
  M(X, E, N, u8) M(X, E, N, u16) M(X, E, N, u32) M(X, E, N, u64)
#define MN_NUM4(M, X, E, N) MN_INT8(M, X, E, N) M(X, E, N, f32) M(X, E, N, f64)
#define MN_ALL5(M, X, E, N) M(X, E, N, b) MN_NUM4(M, X, E, N)
#define MN_FLT2(M, X, E, N) M(X, E, N, f32) M(X, E, N, f64)
#define MN_CPX2(M, X, E, N) M(X, E, N, c64) M(X, E, N, c128)
#define MN_TOR(X, E, N, S) X(E, N, S, MN_T_##S, MN_R_##S)
/* floats and complex */
#define MN_FC4(M, X, E, N) MN_FLT2(M, X, E, N) MN_CPX2(M, X, E, N)

#define MN_UNARY_LIST(X) \
  MN_NUM4(MN_SAME, X, MN_OP_NEG, neg) MN_NUM4(MN_SAME, X, MN_OP_POS, pos) \
  MN_CPX2(MN_SAME, X, MN_OP_NEG, neg) MN_CPX2(MN_SAME, X, MN_OP_POS, pos) \
  MN_ALL5(MN_SAME, X, MN_OP_ABS, abs) MN_CPX2(MN_TOR, X, MN_OP_ABS, abs) \
  MN_ALL5(MN_SAME, X, MN_OP_SQUARE, square) MN_CPX2(MN_SAME, X, MN_OP_SQUARE, square) \
  MN_NUM4(MN_SAME, X, MN_OP_RECIPROCAL, reciprocal) MN_NUM4(MN_SAME, X, MN_OP_SIGN, sign) \
  MN_CPX2(MN_SAME, X, MN_OP_RECIPROCAL, reciprocal) MN_CPX2(MN_SAME, X, MN_OP_SIGN, sign) \
  MN_FC4(MN_SAME, X, MN_OP_SQRT, sqrt) MN_FC4(MN_SAME, X, MN_OP_EXP, exp) \
  MN_FC4(MN_SAME, X, MN_OP_LOG, log) MN_FC4(MN_SAME, X, MN_OP_LOG2, log2) \
  MN_FC4(MN_SAME, X, MN_OP_LOG10, log10) MN_FLT2(MN_SAME, X, MN_OP_EXPM1, expm1) \
  MN_FLT2(MN_SAME, X, MN_OP_LOG1P, log1p) MN_FC4(MN_SAME, X, MN_OP_SIN, sin) \
  MN_FC4(MN_SAME, X, MN_OP_COS, cos) MN_FC4(MN_SAME, X, MN_OP_TAN, tan) \
  MN_FC4(MN_SAME, X, MN_OP_ARCSIN, arcsin) MN_FC4(MN_SAME, X, MN_OP_ARCCOS, arccos) \
  MN_FC4(MN_SAME, X, MN_OP_ARCTAN, arctan) MN_FC4(MN_SAME, X, MN_OP_SINH, sinh) \
  MN_FC4(MN_SAME, X, MN_OP_COSH, cosh) MN_FC4(MN_SAME, X, MN_OP_TANH, tanh) \
  MN_ALL5(MN_SAME, X, MN_OP_FLOOR, floor) MN_ALL5(MN_SAME, X, MN_OP_CEIL, ceil) \
  MN_ALL5(MN_SAME, X, MN_OP_TRUNC, trunc) MN_FLT2(MN_SAME, X, MN_OP_RINT, rint) \
  X(MN_OP_LOGICAL_NOT, logical_not, b, mn_b, mn_b) \
  X(MN_OP_INVERT, invert, b, mn_b, mn_b) MN_INT8(MN_SAME, X, MN_OP_INVERT, invert) \
  MN_ALL5(MN_TOB, X, MN_OP_ISNAN, isnan) MN_ALL5(MN_TOB, X, MN_OP_ISINF, isinf) \
  MN_ALL5(MN_TOB, X, MN_OP_ISFINITE, isfinite) MN_CPX2(MN_TOB, X, MN_OP_ISNAN, isnan) \
  MN_CPX2(MN_TOB, X, MN_OP_ISINF, isinf) MN_CPX2(MN_TOB, X, MN_OP_ISFINITE, isfinite) \
  MN_CPX2(MN_TOR, X, MN_OP_REAL, real) MN_CPX2(MN_TOR, X, MN_OP_IMAG, imag) \
  MN_CPX2(MN_SAME, X, MN_OP_CONJ, conj) \
  MN_FC4(MN_SAME, X, MN_OP_ARCCOSH, arccosh) MN_FC4(MN_SAME, X, MN_OP_ARCSINH, arcsinh) \
  MN_FC4(MN_SAME, X, MN_OP_ARCTANH, arctanh) MN_FLT2(MN_SAME, X, MN_OP_CBRT, cbrt) \
  MN_FC4(MN_SAME, X, MN_OP_EXP2, exp2) MN_FLT2(MN_SAME, X, MN_OP_FABS, fabs) \
  MN_CPX2(MN_SAME, X, MN_OP_EXPM1, expm1) MN_CPX2(MN_SAME, X, MN_OP_LOG1P, log1p) \
  MN_CPX2(MN_SAME, X, MN_OP_RINT, rint) \
  MN_FLT2(MN_TOB, X, MN_OP_SIGNBIT, signbit) MN_FLT2(MN_SAME, X, MN_OP_SPACING, spacing) \
  MN_SAME(X, MN_OP_SPACING, spacing, h) \
  MN_FLT2(MN_SAME, X, MN_OP_DEG2RAD, deg2rad) MN_FLT2(MN_SAME, X, MN_OP_RAD2DEG, rad2deg) \
  MN_FLT2(MN_SAME, X, MN_OP_I0, i0) \
  X(MN_OP_FREXP_EXP, frexp_exp, f32, float, int32_t) X(MN_OP_FREXP_EXP, frexp_exp, f64, double, int32_t)

#define MN_BINARY_LIST(X) \
  MN_ALL5(MN_SAME, X, MN_OP_ADD, add) MN_NUM4(MN_SAME, X, MN_OP_SUB, sub) \
  MN_ALL5(MN_SAME, X, MN_OP_MUL, mul) MN_FC4(MN_SAME, X, MN_OP_DIV, div) \
  MN_CPX2(MN_SAME, X, MN_OP_ADD, add) MN_CPX2(MN_SAME, X, MN_OP_SUB, sub) MN_CPX2(MN_SAME, X, MN_OP_MUL, mul) \
  MN_NUM4(MN_SAME, X, MN_OP_FLOORDIV, floordiv) MN_NUM4(MN_SAME, X, MN_OP_MOD, mod) \
  MN_NUM4(MN_SAME, X, MN_OP_POW, pow) MN_CPX2(MN_SAME, X, MN_OP_POW, pow) \
  MN_ALL5(MN_SAME, X, MN_OP_MAXIMUM, maximum) MN_CPX2(MN_SAME, X, MN_OP_MAXIMUM, maximum) \
  MN_ALL5(MN_SAME, X, MN_OP_MINIMUM, minimum) MN_CPX2(MN_SAME, X, MN_OP_MINIMUM, minimum) \
  MN_ALL5(MN_SAME, X, MN_OP_FMAX, fmax) MN_ALL5(MN_SAME, X, MN_OP_FMIN, fmin) \
  MN_CPX2(MN_SAME, X, MN_OP_FMAX, fmax) MN_CPX2(MN_SAME, X, MN_OP_FMIN, fmin) \
  MN_ALL5(MN_TOB, X, MN_OP_EQ, eq) MN_ALL5(MN_TOB, X, MN_OP_NE, ne) \
  MN_ALL5(MN_TOB, X, MN_OP_LT, lt) MN_ALL5(MN_TOB, X, MN_OP_LE, le) \
  MN_ALL5(MN_TOB, X, MN_OP_GT, gt) MN_ALL5(MN_TOB, X, MN_OP_GE, ge) \
  MN_CPX2(MN_TOB, X, MN_OP_EQ, eq) MN_CPX2(MN_TOB, X, MN_OP_NE, ne) \
  MN_CPX2(MN_TOB, X, MN_OP_LT, lt) MN_CPX2(MN_TOB, X, MN_OP_LE, le) \
  MN_CPX2(MN_TOB, X, MN_OP_GT, gt) MN_CPX2(MN_TOB, X, MN_OP_GE, ge) \
  X(MN_OP_LOGICAL_AND, logical_and, b, mn_b, mn_b) \
  X(MN_OP_LOGICAL_OR, logical_or, b, mn_b, mn_b) \
  X(MN_OP_LOGICAL_XOR, logical_xor, b, mn_b, mn_b) \
  MN_SAME(X, MN_OP_BITAND, bitand, b) MN_INT8(MN_SAME, X, MN_OP_BITAND, bitand) \
  MN_SAME(X, MN_OP_BITOR, bitor, b) MN_INT8(MN_SAME, X, MN_OP_BITOR, bitor) \
  MN_SAME(X, MN_OP_BITXOR, bitxor, b) MN_INT8(MN_SAME, X, MN_OP_BITXOR, bitxor) \
  MN_INT8(MN_SAME, X, MN_OP_LSHIFT, lshift) MN_INT8(MN_SAME, X, MN_OP_RSHIFT, rshift) \
  MN_FLT2(MN_SAME, X, MN_OP_ATAN2, atan2) MN_FLT2(MN_SAME, X, MN_OP_HYPOT, hypot) \
  MN_FLT2(MN_SAME, X, MN_OP_COPYSIGN, copysign) \
  MN_NUM4(MN_SAME, X, MN_OP_FMOD, fmod) MN_FLT2(MN_SAME, X, MN_OP_LOGADDEXP, logaddexp) \
  MN_FLT2(MN_SAME, X, MN_OP_LOGADDEXP2, logaddexp2) MN_FLT2(MN_SAME, X, MN_OP_HEAVISIDE, heaviside) \
  MN_FLT2(MN_SAME, X, MN_OP_NEXTAFTER, nextafter) MN_SAME(X, MN_OP_NEXTAFTER, nextafter, h) \
  MN_FLT2(MN_SAME, X, MN_OP_LDEXP, ldexp) \
  MN_INT8(MN_SAME, X, MN_OP_GCD, gcd) MN_INT8(MN_SAME, X, MN_OP_LCM, lcm) \
  MN_SAME(X, MN_OP_FLOAT_POWER, float_power, f64) MN_SAME(X, MN_OP_FLOAT_POWER, float_power, c128) \
  X(MN_OP_COMPLEX, complex, f32, float, mn_c64) X(MN_OP_COMPLEX, complex, f64, double, mn_c128)

#define MN_TERNARY_LIST(X) \
  MN_ALL5(MN_SAME, X, MN_OP_WHERE, where) MN_CPX2(MN_SAME, X, MN_OP_WHERE, where) \
  MN_ALL5(MN_SAME, X, MN_OP_CLIP, clip) MN_CPX2(MN_SAME, X, MN_OP_CLIP, clip) \
  MN_NUM4(MN_SAME, X, MN_OP_FMA, fma)

/* every (from, to) cast: X(from suffix, from type, to suffix, to type) */
#define MN_CAST_ROW(X, S, T) X(S, T, b, mn_b) X(S, T, i8, int8_t) X(S, T, i16, int16_t) \
  X(S, T, i32, int32_t) X(S, T, i64, int64_t) X(S, T, u8, uint8_t) X(S, T, u16, uint16_t) \
  X(S, T, u32, uint32_t) X(S, T, u64, uint64_t) X(S, T, f32, float) X(S, T, f64, double) \
  X(S, T, c64, mn_c64) X(S, T, c128, mn_c128)
/* a complex source: to a real type its real part (MN_LD_c64), to bool and
 * complex through the z suffix, which loads both parts, and target types
 * that are aliases (mn_bz, mn_zc64, mn_zc128) whose MN_CV_ reads a pair */
#define MN_CPX_ROW(X, S, Z, T) X(Z, T, b, mn_bz) X(S, T, i8, int8_t) X(S, T, i16, int16_t) \
  X(S, T, i32, int32_t) X(S, T, i64, int64_t) X(S, T, u8, uint8_t) X(S, T, u16, uint16_t) \
  X(S, T, u32, uint32_t) X(S, T, u64, uint64_t) X(S, T, f32, float) X(S, T, f64, double) \
  X(S, T, h, mn_h) X(Z, T, c64, mn_zc64) X(Z, T, c128, mn_zc128)
/* float16 has no arithmetic kernels (it computes in float32): casts only */
#define MN_CAST_LIST(X) MN_CAST_ROW(X, h, mn_h) X(b, mn_b, h, mn_h) X(i8, int8_t, h, mn_h) X(i16, int16_t, h, mn_h) \
  X(i32, int32_t, h, mn_h) X(i64, int64_t, h, mn_h) X(u8, uint8_t, h, mn_h) X(u16, uint16_t, h, mn_h) \
  X(u32, uint32_t, h, mn_h) X(u64, uint64_t, h, mn_h) X(f32, float, h, mn_h) X(f64, double, h, mn_h) \
  X(h, mn_h, h, mn_h) MN_CAST_ROW(X, b, mn_b) MN_CAST_ROW(X, i8, int8_t) MN_CAST_ROW(X, i16, int16_t) \
  MN_CAST_ROW(X, i32, int32_t) MN_CAST_ROW(X, i64, int64_t) MN_CAST_ROW(X, u8, uint8_t) \
  MN_CAST_ROW(X, u16, uint16_t) MN_CAST_ROW(X, u32, uint32_t) MN_CAST_ROW(X, u64, uint64_t) \
  MN_CAST_ROW(X, f32, float) MN_CAST_ROW(X, f64, double) \
  MN_CPX_ROW(X, c64, z64, mn_c64) MN_CPX_ROW(X, c128, z128, mn_c128)
/* to bool means != 0 (NaN is true, as in NumPy). A float to an integer:
 * NaN and values out of range give the most negative integer, as x86
 * converts them and so NumPy there; C leaves them undefined, and CUDA and
 * Arm saturate instead. */
MN_HD static inline int32_t mn_f2i32(double v) { return v >= -2147483648.0 && v < 2147483648.0 ? (int32_t)v : INT32_MIN; }
MN_HD static inline int64_t mn_f2i64(double v) {
  return v >= -9223372036854775808.0 && v < 9223372036854775808.0 ? (int64_t)v : INT64_MIN;
}
/* narrower integers go through int32 and uint32 through int64, as x86's
 * conversions do; uint64 as x86-64 compilers convert: from 2^63 up (and
 * +inf) v - 2^63 through int64 with the top bit flipped (so +inf and
 * values past 2^64 give 0), below it through int64 (negatives wrap; NaN
 * and -inf give 2^63) */
MN_HD static inline uint64_t mn_f2u64(double v) {
  return v >= 9223372036854775808.0 ? (uint64_t)mn_f2i64(v - 9223372036854775808.0) ^ 0x8000000000000000ull
                                    : (uint64_t)mn_f2i64(v);
}
#ifdef __cplusplus
#define MN_TYPEOF(v) decltype((v) + 0)
#else
#define MN_TYPEOF(v) __typeof__((v) + 0)
#endif
#define MN_IS_INT_TYPE(T) ((T)0.5 == 0)
#define MN_FROM_FLT(v) (!MN_IS_INT_TYPE(MN_TYPEOF(v)))
/* v converted to type TO (one of the MN_T_ names); a float16 source is
 * first read with MN_LD_h (its bits are an integer type to C) */
#define MN_CAST_VAL(TO, v) MN_CV_##TO(v)
#define MN_CV_mn_h(v) mn_d2h((double)(v))
#define MN_LD_h(v) mn_h2f(v)
#define MN_LD_b(v) (v)
#define MN_LD_i8(v) (v)
#define MN_LD_i16(v) (v)
#define MN_LD_i32(v) (v)
#define MN_LD_i64(v) (v)
#define MN_LD_u8(v) (v)
#define MN_LD_u16(v) (v)
#define MN_LD_u32(v) (v)
#define MN_LD_u64(v) (v)
#define MN_LD_f32(v) (v)
#define MN_LD_f64(v) (v)
#define MN_LD_c64(v) ((v).re)
#define MN_LD_c128(v) ((v).re)
#define MN_LD_z64(v) (v)
#define MN_LD_z128(v) (v)
typedef mn_b mn_bz;
typedef mn_c64 mn_zc64;
typedef mn_c128 mn_zc128;
#define MN_CV_mn_bz(v) ((mn_b)((v).re != 0 || (v).im != 0))
#define MN_CV_mn_zc64(v) mn_mk_c64((float)(v).re, (float)(v).im)
#define MN_CV_mn_zc128(v) mn_mk_c128((double)(v).re, (double)(v).im)
#define MN_CV_mn_c64(v) mn_mk_c64((float)(v), 0.0f)
#define MN_CV_mn_c128(v) mn_mk_c128((double)(v), 0.0)
#define MN_CV_mn_b(v) ((mn_b)((v) != 0))
#define MN_CV_I32(TO, v) ((TO)(MN_FROM_FLT(v) ? (TO)mn_f2i32((double)(v)) : (TO)(v)))
#define MN_CV_int8_t(v) MN_CV_I32(int8_t, v)
#define MN_CV_int16_t(v) MN_CV_I32(int16_t, v)
#define MN_CV_int32_t(v) MN_CV_I32(int32_t, v)
#define MN_CV_uint8_t(v) MN_CV_I32(uint8_t, v)
#define MN_CV_uint16_t(v) MN_CV_I32(uint16_t, v)
#define MN_CV_int64_t(v) ((int64_t)(MN_FROM_FLT(v) ? mn_f2i64((double)(v)) : (int64_t)(v)))
#define MN_CV_uint32_t(v) ((uint32_t)(MN_FROM_FLT(v) ? (uint32_t)mn_f2i64((double)(v)) : (uint32_t)(v)))
#define MN_CV_uint64_t(v) ((uint64_t)(MN_FROM_FLT(v) ? mn_f2u64((double)(v)) : (uint64_t)(v)))
#define MN_CV_float(v) ((float)(v))
#define MN_CV_double(v) ((double)(v))

#define MN_DT_b MN_BOOL
#define MN_DT_i8 MN_INT8
#define MN_DT_i16 MN_INT16
#define MN_DT_i32 MN_INT32
#define MN_DT_i64 MN_INT64
#define MN_DT_u8 MN_UINT8
#define MN_DT_u16 MN_UINT16
#define MN_DT_u32 MN_UINT32
#define MN_DT_u64 MN_UINT64
#define MN_DT_h MN_FLOAT16
#define MN_DT_f32 MN_FLOAT32
#define MN_DT_f64 MN_FLOAT64
#define MN_DT_c64 MN_COMPLEX64
#define MN_DT_c128 MN_COMPLEX128
#define MN_DT_z64 MN_COMPLEX64
#define MN_DT_z128 MN_COMPLEX128
#endif
