/* Element-wise functions through glibc's vector math library (libmvec):
 * exp, log and tanh of float64 and float32, sin and cos of float32, in
 * AVX-512 or AVX2 vectors. Values always come from the vector code, tail
 * lanes padded, so an element's value never depends on its neighbours or
 * on where a block starts (the same at any rank count); they are within 4
 * ULP of libm's, as NumPy's own SIMD functions are. The floating-point
 * flags are libm's: flags the vector code raised are cleared, and a block
 * holding an argument outside the function's quiet range (where libm
 * raises nothing but inexact) runs libm's scalar function on those
 * arguments into scratch, for their flags alone. */
#ifndef MANIPLE_KERNELS_VEC_H
#define MANIPLE_KERNELS_VEC_H
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

#if defined(MANIPLE_HAVE_LIBMVEC) && defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

/* An argument is quiet (libm raises nothing but inexact for it) when
 * lo < x < hi and not 0 < |x| < tiny; a NaN never is. Per function and
 * type: lo, hi, tiny. */
#define MNV_R_exp(T) (sizeof(T) == 8 ? -700.0 : -80.0), (sizeof(T) == 8 ? 700.0 : 80.0), 0.0
#define MNV_R_log(T) 0.0, (sizeof(T) == 8 ? 1e300 : 1e38), 0.0
#define MNV_R_sin(T) -1e5, 1e5, 0x1p-60
#define MNV_R_cos(T) -1e5, 1e5, 0.0
#define MNV_R_tanh(T) -1e30, 1e30, 0.0 /* subnormal x: NumPy raises no underflow either */

static inline int mnv_quiet1(double x, double lo, double hi, double tiny) {
  double ax = fabs(x); /* quiet comparisons: < would raise FE_INVALID on a NaN */
  return isgreater(x, lo) && isless(x, hi) && !(isgreater(ax, 0) && isless(ax, tiny));
}

/* Quiet test of a vector, in the same pass as the function (a second pass
 * over the arguments would cost half as much again). */
#define MNV_QV(CMP, AND, ANDN, ABS, SET, x, lo, hi, tiny)                               \
  ANDN(AND(CMP(ABS(x), SET(0), _CMP_GT_OQ), CMP(ABS(x), SET(tiny), _CMP_LT_OQ)),        \
       AND(CMP(x, SET(lo), _CMP_GT_OQ), CMP(x, SET(hi), _CMP_LT_OQ)))
#define MNV_ABS256D(x) _mm256_andnot_pd(_mm256_set1_pd(-0.0), x)
#define MNV_ABS256S(x) _mm256_andnot_ps(_mm256_set1_ps(-0.0f), x)
#define MNV_MAND(a, b) ((a) & (b))
#define MNV_MANDN(a, b) ((__typeof__(b))(~(a) & (b)))
#define MNV_Q_d_d(x, lo, hi, tiny)                                                      \
  (_mm256_movemask_pd(MNV_QV(_mm256_cmp_pd, _mm256_and_pd, _mm256_andnot_pd, MNV_ABS256D, \
                             _mm256_set1_pd, x, lo, hi, tiny)) == 0xF)
#define MNV_Q_d_s(x, lo, hi, tiny)                                                      \
  (_mm256_movemask_ps(MNV_QV(_mm256_cmp_ps, _mm256_and_ps, _mm256_andnot_ps, MNV_ABS256S, \
                             _mm256_set1_ps, x, lo, hi, tiny)) == 0xFF)
#define MNV_Q_e_d(x, lo, hi, tiny) \
  (MNV_QV(_mm512_cmp_pd_mask, MNV_MAND, MNV_MANDN, _mm512_abs_pd, _mm512_set1_pd, x, lo, hi, tiny) == 0xFF)
#define MNV_Q_e_s(x, lo, hi, tiny) \
  (MNV_QV(_mm512_cmp_ps_mask, MNV_MAND, MNV_MANDN, _mm512_abs_ps, _mm512_set1_ps, x, lo, hi, tiny) == 0xFFFF)

/* One vector loop of libmvec's VF, returning whether every argument was
 * quiet; the tail in a vector padded with ones (quiet for each function). */
#define MNV_LOOP(NAME, Q, TGT, T, V, W, VF, LD, ST)                                     \
  V VF(V);                                                                              \
  __attribute__((target(TGT))) static int NAME(int64_t n, const T *a, T *o, double lo,  \
                                               double hi, double tiny) {                \
    int64_t i = 0;                                                                      \
    int quiet = 1;                                                                      \
    for (; i + W <= n; i += W) {                                                        \
      V x = LD(a + i);                                                                  \
      quiet &= Q(x, lo, hi, tiny);                                                      \
      ST(o + i, VF(x));                                                                 \
    }                                                                                   \
    if (i < n) {                                                                        \
      T t[W];                                                                           \
      for (int k = 0; k < W; k++) t[k] = 1;                                             \
      memcpy(t, a + i, sizeof(T) * (size_t)(n - i));                                    \
      V x = LD(t);                                                                      \
      quiet &= Q(x, lo, hi, tiny);                                                      \
      ST(t, VF(x));                                                                     \
      memcpy(o + i, t, sizeof(T) * (size_t)(n - i));                                    \
    }                                                                                   \
    return quiet;                                                                       \
  }

/* The flags of libm: those the vector code raised are cleared, and the
 * arguments outside F's quiet range go through libm's F (LIBM) into scratch. */
#define MNV_FLAGS(F, SUF, T, LIBM)                                                      \
  static void mnv_##F##_##SUF(int wide, int64_t n, const void *a_, void *o_) {          \
    const T *a = (const T *)a_;                                                         \
    const int flags = FE_INVALID | FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW;           \
    int had = fetestexcept(flags);                                                      \
    int quiet = wide ? mnv_e_##F##_##SUF(n, a, (T *)o_, MNV_R_##F(T))                   \
                     : mnv_d_##F##_##SUF(n, a, (T *)o_, MNV_R_##F(T));                  \
    int fresh = fetestexcept(flags) & ~had;                                             \
    if (fresh) feclearexcept(fresh);                                                    \
    if (!quiet) {                                                                       \
      volatile T sink;                                                                  \
      for (int64_t i = 0; i < n; i++)                                                   \
        if (!mnv_quiet1(a[i], MNV_R_##F(T))) sink = LIBM(a[i]);                         \
      (void)sink;                                                                       \
    }                                                                                   \
  }

#define MNV_D(F)                                                                        \
  MNV_LOOP(mnv_d_##F##_d, MNV_Q_d_d, "avx2,fma", double, __m256d, 4, _ZGVdN4v_##F,      \
           _mm256_loadu_pd, _mm256_storeu_pd)                                           \
  MNV_LOOP(mnv_e_##F##_d, MNV_Q_e_d, "avx512f", double, __m512d, 8, _ZGVeN8v_##F,       \
           _mm512_loadu_pd, _mm512_storeu_pd)                                           \
  MNV_FLAGS(F, d, double, F)
#define MNV_S(F)                                                                        \
  MNV_LOOP(mnv_d_##F##_s, MNV_Q_d_s, "avx2,fma", float, __m256, 8, _ZGVdN8v_##F##f,     \
           _mm256_loadu_ps, _mm256_storeu_ps)                                           \
  MNV_LOOP(mnv_e_##F##_s, MNV_Q_e_s, "avx512f", float, __m512, 16, _ZGVeN16v_##F##f,    \
           _mm512_loadu_ps, _mm512_storeu_ps)                                           \
  MNV_FLAGS(F, s, float, F##f)
MNV_D(exp) MNV_D(log) MNV_D(tanh)
MNV_S(exp) MNV_S(log) MNV_S(sin) MNV_S(cos) MNV_S(tanh)

typedef void (*mnv_fn)(int, int64_t, const void *, void *);

static inline mnv_fn mnv_pick(int op, int dt) {
  int d = dt == MN_FLOAT64, s = dt == MN_FLOAT32;
  if (!d && !s) return 0;
  switch (op) {
  case MN_OP_EXP: return d ? mnv_exp_d : mnv_exp_s;
  case MN_OP_LOG: return d ? mnv_log_d : mnv_log_s;
  /* float64 sin and cos stay libm's, as NumPy's are: correctly rounded
   * where libmvec's may be an ULP off (hanning's ends exactly 0) */
  case MN_OP_SIN: return d ? 0 : mnv_sin_s;
  case MN_OP_COS: return d ? 0 : mnv_cos_s;
  case MN_OP_TANH: return d ? mnv_tanh_d : mnv_tanh_s;
  default: return 0;
  }
}

static inline int mni_vec_unary(int op, int dt, int64_t n, const void *a, void *o) {
  mnv_fn f = mnv_pick(op, dt);
  if (!f || !__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return 0;
  /* AVX-512 where the CPU has it (libmvec's 'e' variants), else AVX2 ('d'):
   * chosen per CPU, never per block, so every rank of a machine computes
   * the same values */
  f(__builtin_cpu_supports("avx512f"), n, a, o);
  return 1;
}
#else
static inline int mni_vec_unary(int op, int dt, int64_t n, const void *a, void *o) {
  (void)op; (void)dt; (void)n; (void)a; (void)o;
  return 0;
}
#endif
#endif
