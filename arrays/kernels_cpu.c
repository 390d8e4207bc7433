/* CPU block kernels generated from the shared bodies in kernels/ops.h. */
#include "mn_impl.h" /* MN_CLONES, MN_CLONES_WIDE */
#include "kernels/ops.h"
#include "kernels/table.h"
#include <math.h>
#include <string.h>

#include "kernels_vec.h" /* mni_vec_unary: exp, log, sin, cos, tanh through libmvec */
#include "jit_cpu.h"

int mn_unary_vec(int op, int dt) {
#if defined(MANIPLE_HAVE_LIBMVEC) && defined(__x86_64__) && defined(__GNUC__)
  return mnv_pick(op, dt) != 0;
#else
  (void)op; (void)dt;
  return 0;
#endif
}

/* Complex kernels get no clones: GCC 12 vectorises a complex product for
 * AVX2 and AVX-512 into vfmaddsub even under -ffp-contract=off, so lanes of
 * a vector loop and its scalar tail rounded differently (an element's value
 * depended on where its block started). The baseline has no FMA. */
#define MN_KCL_b MN_CLONES_WIDE
#define MN_KCL_i8 MN_CLONES_WIDE
#define MN_KCL_i16 MN_CLONES_WIDE
#define MN_KCL_i32 MN_CLONES_WIDE
#define MN_KCL_i64 MN_CLONES_WIDE
#define MN_KCL_u8 MN_CLONES_WIDE
#define MN_KCL_u16 MN_CLONES_WIDE
#define MN_KCL_u32 MN_CLONES_WIDE
#define MN_KCL_u64 MN_CLONES_WIDE
#define MN_KCL_h MN_CLONES_WIDE
#define MN_KCL_f32 MN_CLONES_WIDE
#define MN_KCL_f64 MN_CLONES_WIDE
#define MN_KCL_c64
#define MN_KCL_c128

#define UNLOOP(E, N, S, TI, TO) \
  MN_KCL_##S static void u_##N##_##S(int64_t n, const void *a_, void *o_) { \
    if (mni_vec_unary(E, MN_DT_##S, n, a_, o_)) return; /* (constants: folded away for the others) */ \
    const TI *a = (const TI *)a_; TO *o = (TO *)o_; \
    for (int64_t i = 0; i < n; i++) o[i] = mni_k_##N##_##S(a[i]); }
MN_UNARY_LIST(UNLOOP)
#define UNENTRY(E, N, S, TI, TO) [E][MN_DT_##S] = u_##N##_##S,
const mn_unary_fn mn_unary_table[MN_NUNARY][MN_NDTYPE] = {MN_UNARY_LIST(UNENTRY)};

#define BINLOOP(E, N, S, TI, TO) \
  MN_KCL_##S static void b_##N##_##S(int64_t n, const void *a_, const void *b_, void *o_) { \
    const TI *a = (const TI *)a_, *b = (const TI *)b_; TO *o = (TO *)o_; \
    for (int64_t i = 0; i < n; i++) o[i] = mni_k_##N##_##S(a[i], b[i]); }
MN_BINARY_LIST(BINLOOP)
#define BINENTRY(E, N, S, TI, TO) [E][MN_DT_##S] = b_##N##_##S,
const mn_binary_fn mn_binary_table[MN_NBINARY][MN_NDTYPE] = {MN_BINARY_LIST(BINENTRY)};

#define TERLOOP(E, N, S, TI, TO) \
  MN_KCL_##S static void t_##N##_##S(int64_t n, const void *a_, const void *b_, const void *c_, void *o_) { \
    const TI *b = (const TI *)b_, *c = (const TI *)c_; TO *o = (TO *)o_; \
    TERN_FIRST_##N(TI) \
    for (int64_t i = 0; i < n; i++) o[i] = mni_k_##N##_##S(a[i], b[i], c[i]); }
/* where takes its condition as bool; clip and fma take three values */
#define TERN_FIRST_where(TI) const mn_b *a = (const mn_b *)a_;
#define TERN_FIRST_clip(TI) const TI *a = (const TI *)a_;
#define TERN_FIRST_fma(TI) const TI *a = (const TI *)a_;
MN_TERNARY_LIST(TERLOOP)
#define TERENTRY(E, N, S, TI, TO) [E][MN_DT_##S] = t_##N##_##S,
const mn_ternary_fn mn_ternary_table[MN_NTERNARY][MN_NDTYPE] = {MN_TERNARY_LIST(TERENTRY)};

#define CASTLOOP(SF, TF, ST, TT) \
  static void c_##SF##_##ST(int64_t n, const void *a_, void *o_) { \
    const TF *a = (const TF *)a_; TT *o = (TT *)o_; \
    for (int64_t i = 0; i < n; i++) o[i] = MN_CAST_VAL(TT, MN_LD_##SF(a[i])); }
MN_CAST_LIST(CASTLOOP)
#define CASTENTRY(SF, TF, ST, TT) [MN_DT_##SF][MN_DT_##ST] = c_##SF##_##ST,
const mn_cast_fn mn_cast_table[MN_NDTYPE][MN_NDTYPE] = {MN_CAST_LIST(CASTENTRY)};

/* ---- reductions ---- */
#include "kernels/fill.h" /* mni_ft_kind */

/* kernels/reduce.h mirrors mn_reduce_op */
#define SAME_(N) ((int)MNI_RED_##N == (int)MN_RED_##N)
_Static_assert(SAME_(SUM) && SAME_(PROD) && SAME_(MIN) && SAME_(MAX) && SAME_(ARGMIN) && SAME_(ARGMAX) &&
                   SAME_(ANY) && SAME_(ALL) && SAME_(SUMSQ) && SAME_(SUMABS) && SAME_(MAXABS) && MN_NREDUCE == 11,
               "kernels/reduce.h mirrors mn_reduce_op");
#undef SAME_

void mn_acc_init(mn_reduce_op op, mn_dtype t, mn_acc *acc) {
  (void)t;
  mni_acc_init((int)op, acc);
}

void mn_acc_merge(mn_reduce_op op, mn_dtype t, mn_acc *a, const mn_acc *b) {
  mni_acc_merge((int)op, mni_ft_kind((int)t), a, b);
}

static inline double pw_id(double v) { return v; }
static inline double pw_sq(double v) { return v * v; }
/* F(x[0]) + ... + F(x[n-1]) in double, pairwise as NumPy sums: blocks of
 * up to 128 summed in 8 interleaved partial sums, halves added. The 8
 * independent chains run at the adder's throughput, not its latency, and
 * the rounding error grows with log n, not n. */
#define PW_SUM(S, T, NAME, F) \
  static inline double pw_##NAME##_##S(const T *x, int64_t n) { \
    if (n < 8) { double s = 0; for (int64_t i = 0; i < n; i++) s += F((double)MN_LD_##S(x[i])); return s; } \
    if (n <= 128) { \
      double r[8]; \
      for (int j = 0; j < 8; j++) r[j] = F((double)MN_LD_##S(x[j])); \
      int64_t i = 8; \
      for (; i + 8 <= n; i += 8) \
        for (int j = 0; j < 8; j++) r[j] += F((double)MN_LD_##S(x[i + j])); \
      double s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7])); \
      for (; i < n; i++) s += F((double)MN_LD_##S(x[i])); \
      return s; } \
    int64_t h = n / 2; \
    h -= h % 8; \
    return pw_##NAME##_##S(x, h) + pw_##NAME##_##S(x + h, n - h); }
/* K: the accumulator kind (MNI_K_*): floats sum in double (pairwise),
 * integers in uint64 (wrapping as NumPy's int64 and uint64 sums) */
#define RED_SUMS(S, T, K) \
  enum { ISF_##S = K == MNI_K_FLT, UNS_##S = K == MNI_K_UINT }; \
  PW_SUM(S, T, sum, pw_id) PW_SUM(S, T, sumsq, pw_sq) PW_SUM(S, T, sumabs, fabs) \
  static void r_sum_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; \
    if (ISF_##S) acc->f += pw_sum_##S(x, n); \
    else { uint64_t s = 0; for (int64_t i = 0; i < n; i++) s += (uint64_t)(int64_t)x[i]; acc->i = (int64_t)((uint64_t)acc->i + s); } \
    acc->has += n; } \
  static void r_sumsq_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; \
    if (ISF_##S) acc->f += pw_sumsq_##S(x, n); \
    else { uint64_t s = 0; for (int64_t i = 0; i < n; i++) s += (uint64_t)(int64_t)x[i] * (uint64_t)(int64_t)x[i]; acc->i = (int64_t)((uint64_t)acc->i + s); } \
    acc->has += n; } \
  static void r_sumabs_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; \
    if (ISF_##S) acc->f += pw_sumabs_##S(x, n); \
    else { uint64_t s = 0; for (int64_t i = 0; i < n; i++) { int64_t v = (int64_t)x[i]; s += v < 0 && !UNS_##S ? (uint64_t)0 - (uint64_t)v : (uint64_t)v; } acc->i = (int64_t)((uint64_t)acc->i + s); } \
    acc->has += n; } \
  static void r_prod_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; \
    if (ISF_##S) { double s = 1; for (int64_t i = 0; i < n; i++) s *= (double)MN_LD_##S(x[i]); acc->f *= s; } \
    else { uint64_t s = 1; for (int64_t i = 0; i < n; i++) s *= (uint64_t)(int64_t)x[i]; acc->i = (int64_t)((uint64_t)acc->i * s); } \
    acc->has += n; } \
  static void r_any_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; int64_t r = 0; \
    for (int64_t i = 0; i < n; i++) r |= MN_LD_##S(x[i]) != 0; \
    acc->i = acc->i || r; acc->has += n; } \
  static void r_all_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; int64_t r = 1; \
    for (int64_t i = 0; i < n; i++) r &= MN_LD_##S(x[i]) != 0; \
    acc->i = acc->i && r; acc->has += n; }
/* cells are not visited in index order: push breaks ties by index */
#define RED_EXT(S, T, K, NAME, OP) \
  static void r_##NAME##_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; \
    for (int64_t i = 0; i < n; i++) mni_acc_push(OP, K, acc, ISF_##S ? (double)MN_LD_##S(x[i]) : 0, ISF_##S ? 0 : (int64_t)x[i], 0, f0 + i); }
/* min and max without the index: the extreme in a register, a NaN noted
 * on the side (it wins, as NumPy's), then one push */
#define RED_MM(S, T, K, NAME, OP, CMP) \
  static void r_##NAME##_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; \
    if (n <= 0) return; \
    if (ISF_##S) { \
      double m = (double)MN_LD_##S(x[0]); int nan = m != m; \
      for (int64_t i = 1; i < n; i++) { double v = (double)MN_LD_##S(x[i]); nan |= v != v; m = v CMP m ? v : m; } \
      mni_acc_push(OP, K, acc, nan ? (double)NAN : m, 0, 0, f0); } \
    else { \
      T m = x[0]; \
      for (int64_t i = 1; i < n; i++) m = x[i] CMP m ? x[i] : m; \
      mni_acc_push(OP, K, acc, 0, (int64_t)m, 0, f0); } \
    acc->has += n - 1; }
#define RED_MAXABS(S, T, K) RED_EXT(S, T, K, maxabs, MN_RED_MAXABS)
#define RED_ALL(S, T, K) RED_SUMS(S, T, K) RED_MM(S, T, K, min, MN_RED_MIN, <) \
  RED_MM(S, T, K, max, MN_RED_MAX, >) RED_EXT(S, T, K, argmin, MN_RED_ARGMIN) \
  RED_EXT(S, T, K, argmax, MN_RED_ARGMAX) RED_MAXABS(S, T, K)
RED_ALL(b, mn_b, MNI_K_INT) RED_ALL(i8, int8_t, MNI_K_INT) RED_ALL(i16, int16_t, MNI_K_INT)
RED_ALL(i32, int32_t, MNI_K_INT) RED_ALL(i64, int64_t, MNI_K_INT) RED_ALL(u8, uint8_t, MNI_K_UINT)
RED_ALL(u16, uint16_t, MNI_K_UINT) RED_ALL(u32, uint32_t, MNI_K_UINT) RED_ALL(u64, uint64_t, MNI_K_UINT)
RED_ALL(f32, float, MNI_K_FLT) RED_ALL(f64, double, MNI_K_FLT) RED_ALL(h, mn_h, MNI_K_FLT)
#define RED_ROW(S) [MN_RED_SUM][MN_DT_##S] = r_sum_##S, [MN_RED_PROD][MN_DT_##S] = r_prod_##S, \
  [MN_RED_MIN][MN_DT_##S] = r_min_##S, [MN_RED_MAX][MN_DT_##S] = r_max_##S, \
  [MN_RED_ARGMIN][MN_DT_##S] = r_argmin_##S, [MN_RED_ARGMAX][MN_DT_##S] = r_argmax_##S, \
  [MN_RED_ANY][MN_DT_##S] = r_any_##S, [MN_RED_ALL][MN_DT_##S] = r_all_##S, \
  [MN_RED_SUMSQ][MN_DT_##S] = r_sumsq_##S, [MN_RED_SUMABS][MN_DT_##S] = r_sumabs_##S, \
  [MN_RED_MAXABS][MN_DT_##S] = r_maxabs_##S,
/* complex: sums and products of double pairs; any and all */
#define RED_CPX(S, T) \
  static void r_sum_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; double re = 0, im = 0; \
    for (int64_t i = 0; i < n; i++) { re += x[i].re; im += x[i].im; } \
    acc->f += re; acc->g += im; acc->has += n; } \
  static void r_prod_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; \
    for (int64_t i = 0; i < n; i++) mni_acc_push_c(MN_RED_PROD, acc, x[i].re, x[i].im, 0); } \
  static void r_any_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; int64_t r = 0; \
    for (int64_t i = 0; i < n; i++) r |= x[i].re != 0 || x[i].im != 0; \
    acc->i = acc->i || r; acc->has += n; } \
  static void r_all_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; (void)f0; int64_t r = 1; \
    for (int64_t i = 0; i < n; i++) r &= x[i].re != 0 || x[i].im != 0; \
    acc->i = acc->i && r; acc->has += n; }
/* min, max and arg*: one element at a time (lexicographic, in the merge) */
#define RED_CEXT(S, T, NAME, OP) \
  static void r_##NAME##_##S(int64_t n, const void *x_, int64_t f0, mn_acc *acc) { \
    const T *x = (const T *)x_; \
    for (int64_t i = 0; i < n; i++) mni_acc_push_c(OP, acc, x[i].re, x[i].im, f0 + i); }
#define RED_CALL(S, T) RED_CPX(S, T) RED_CEXT(S, T, min, MN_RED_MIN) RED_CEXT(S, T, max, MN_RED_MAX) \
  RED_CEXT(S, T, argmin, MN_RED_ARGMIN) RED_CEXT(S, T, argmax, MN_RED_ARGMAX)
RED_CALL(c64, mn_c64) RED_CALL(c128, mn_c128)
#define RED_CROW(S) [MN_RED_SUM][MN_DT_##S] = r_sum_##S, [MN_RED_PROD][MN_DT_##S] = r_prod_##S, \
  [MN_RED_ANY][MN_DT_##S] = r_any_##S, [MN_RED_ALL][MN_DT_##S] = r_all_##S, \
  [MN_RED_MIN][MN_DT_##S] = r_min_##S, [MN_RED_MAX][MN_DT_##S] = r_max_##S, \
  [MN_RED_ARGMIN][MN_DT_##S] = r_argmin_##S, [MN_RED_ARGMAX][MN_DT_##S] = r_argmax_##S,
const mn_reduce_fn mn_reduce_table[MN_NREDUCE][MN_NDTYPE] = {
  RED_ROW(b) RED_ROW(i8) RED_ROW(i16) RED_ROW(i32) RED_ROW(i64) RED_ROW(u8) RED_ROW(u16) RED_ROW(u32) RED_ROW(u64)
  RED_ROW(f32) RED_ROW(f64) RED_ROW(h) RED_CROW(c64) RED_CROW(c128)};

/* ---- fused linear combinations (see fuse.h); AVX2 clones, as they are
 * compute-bound at two lanes ---- */
#include "fuse.h"
#define LC_K(T, K) \
  MN_CLONES static void lc_##T##_##K(int64_t n, const double *cd, const void *const *pv, int post_op, double postd, \
                                     void *o_) { \
    const T *p[K]; T c[K]; T *o = (T *)o_; T post = (T)postd; \
    for (int j = 0; j < K; j++) { p[j] = (const T *)pv[j]; c[j] = (T)cd[j]; } \
    if (post_op == 2) { for (int64_t i = 0; i < n; i++) { T acc = c[0] * p[0][i]; \
        for (int j = 1; j < K; j++) { acc = acc + c[j] * p[j][i]; } o[i] = acc / post; } } \
    else if (post_op == 1) { for (int64_t i = 0; i < n; i++) { T acc = c[0] * p[0][i]; \
        for (int j = 1; j < K; j++) { acc = acc + c[j] * p[j][i]; } o[i] = post * acc; } } \
    else { for (int64_t i = 0; i < n; i++) { T acc = c[0] * p[0][i]; \
        for (int j = 1; j < K; j++) { acc = acc + c[j] * p[j][i]; } o[i] = acc; } } } \
  /* all coefficients 1: the same sums without the exact multiplications */ \
  MN_CLONES static void lcs_##T##_##K(int64_t n, const double *cd, const void *const *pv, int post_op, double postd, \
                                      void *o_) { \
    const T *p[K]; T *o = (T *)o_; T post = (T)postd; (void)cd; \
    for (int j = 0; j < K; j++) p[j] = (const T *)pv[j]; \
    if (post_op == 2) { for (int64_t i = 0; i < n; i++) { T acc = p[0][i]; \
        for (int j = 1; j < K; j++) { acc = acc + p[j][i]; } o[i] = acc / post; } } \
    else if (post_op == 1) { for (int64_t i = 0; i < n; i++) { T acc = p[0][i]; \
        for (int j = 1; j < K; j++) { acc = acc + p[j][i]; } o[i] = post * acc; } } \
    else { for (int64_t i = 0; i < n; i++) { T acc = p[0][i]; \
        for (int j = 1; j < K; j++) { acc = acc + p[j][i]; } o[i] = acc; } } }
#define LC_ALL(T) LC_K(T, 1) LC_K(T, 2) LC_K(T, 3) LC_K(T, 4) LC_K(T, 5) LC_K(T, 6) LC_K(T, 7) LC_K(T, 8)
LC_ALL(double) LC_ALL(float)
typedef void (*lc_fn)(int64_t, const double *, const void *const *, int, double, void *);
static const lc_fn lc_f64[9] = {0, lc_double_1, lc_double_2, lc_double_3, lc_double_4, lc_double_5, lc_double_6, lc_double_7, lc_double_8};
static const lc_fn lc_f32[9] = {0, lc_float_1, lc_float_2, lc_float_3, lc_float_4, lc_float_5, lc_float_6, lc_float_7, lc_float_8};
static const lc_fn lcs_f64[9] = {0, lcs_double_1, lcs_double_2, lcs_double_3, lcs_double_4, lcs_double_5, lcs_double_6, lcs_double_7, lcs_double_8};
static const lc_fn lcs_f32[9] = {0, lcs_float_1, lcs_float_2, lcs_float_3, lcs_float_4, lcs_float_5, lcs_float_6, lcs_float_7, lcs_float_8};

/* The same sums written with non-temporal stores, vectorised by hand: the
 * lanes do exactly the scalar operations, so results are identical. */
#if defined(__SSE2__)
#include <emmintrin.h>
#define LCNT(T, K, V, W, LOAD, SET1, MUL, ADD, DIV, STREAM) \
  static void lcnt_##T##_##K(int64_t n, const double *cd, const void *const *pv, int post_op, double postd, \
                             void *o_) { \
    const T *p[K]; T c[K]; V cv[K]; T *o = (T *)o_; T post = (T)postd; \
    V pv_ = SET1(post); \
    for (int j = 0; j < K; j++) { p[j] = (const T *)pv[j]; c[j] = (T)cd[j]; cv[j] = SET1(c[j]); } \
    /* stream whole 64-byte lines only: a line written partly by streaming \
     * and partly by ordinary stores (row edges, block ends) is slow */ \
    int64_t i = 0, end = n - (int64_t)(((uintptr_t)(o + n) & 63) / sizeof(T)); \
    for (; i < n && ((uintptr_t)(o + i) & 63); i++) { T acc = c[0] * p[0][i]; \
      for (int j = 1; j < K; j++) { acc = acc + c[j] * p[j][i]; } \
      o[i] = post_op == 2 ? acc / post : post_op == 1 ? post * acc : acc; } \
    for (; i + W <= end; i += W) { V acc = MUL(cv[0], LOAD(p[0] + i)); \
      for (int j = 1; j < K; j++) { acc = ADD(acc, MUL(cv[j], LOAD(p[j] + i))); } \
      if (post_op == 2) acc = DIV(acc, pv_); else if (post_op == 1) acc = MUL(pv_, acc); \
      STREAM(o + i, acc); } \
    for (; i < n; i++) { T acc = c[0] * p[0][i]; \
      for (int j = 1; j < K; j++) { acc = acc + c[j] * p[j][i]; } \
      o[i] = post_op == 2 ? acc / post : post_op == 1 ? post * acc : acc; } }
#define LCNT_D(K) LCNT(double, K, __m128d, 2, _mm_loadu_pd, _mm_set1_pd, _mm_mul_pd, _mm_add_pd, _mm_div_pd, _mm_stream_pd)
#define LCNT_F(K) LCNT(float, K, __m128, 4, _mm_loadu_ps, _mm_set1_ps, _mm_mul_ps, _mm_add_ps, _mm_div_ps, _mm_stream_ps)
LCNT_D(1) LCNT_D(2) LCNT_D(3) LCNT_D(4) LCNT_D(5) LCNT_D(6) LCNT_D(7) LCNT_D(8)
LCNT_F(1) LCNT_F(2) LCNT_F(3) LCNT_F(4) LCNT_F(5) LCNT_F(6) LCNT_F(7) LCNT_F(8)
static const lc_fn lcnt_f64[9] = {0, lcnt_double_1, lcnt_double_2, lcnt_double_3, lcnt_double_4, lcnt_double_5,
                                  lcnt_double_6, lcnt_double_7, lcnt_double_8};
static const lc_fn lcnt_f32[9] = {0, lcnt_float_1, lcnt_float_2, lcnt_float_3, lcnt_float_4, lcnt_float_5,
                                  lcnt_float_6, lcnt_float_7, lcnt_float_8};
#endif

void mn_lincomb_run(mn_dtype t, int64_t n, const mn_lincomb *lc, const void *const *p, void *out, int nt) {
#if defined(__SSE2__)
  if (nt) {
    (t == MN_FLOAT64 ? lcnt_f64 : lcnt_f32)[lc->n](n, lc->coef, p, lc->post_op, lc->post, out);
    return;
  }
#endif
  (void)nt;
  const lc_fn *tab = lc->unit ? (t == MN_FLOAT64 ? lcs_f64 : lcs_f32) : (t == MN_FLOAT64 ? lc_f64 : lc_f32);
  tab[lc->n](n, lc->coef, p, lc->post_op, lc->post, out);
}
