/* dtypes, NumPy's promotion rules, and result dtypes of operations. */
#include "mn_impl.h"
#include "kernels/fill.h"  /* mni_ft_load */
#include "kernels/table.h" /* mn_cast_table */
#include <math.h>
#include <string.h>

static const char *const dtype_names[MN_NDTYPE] = {"bool",  "int32",  "int64",  "float32", "float64", "int8",
                                                    "int16", "uint8",  "uint16", "uint32",  "uint64",  "float16",
                                                    "complex64", "complex128"};
static const size_t dtype_sizes[MN_NDTYPE] = {1, 4, 8, 4, 8, 1, 2, 1, 2, 4, 8, 2, 8, 16};

const char *mn_dtype_name(mn_dtype t) {
  return (t >= 0 && t < MN_NDTYPE) ? dtype_names[t] : "invalid-dtype";
}
size_t mn_dtype_size(mn_dtype t) {
  return (t >= 0 && t < MN_NDTYPE) ? dtype_sizes[t] : 0;
}

static const mn_dtype sints[4] = {MN_INT8, MN_INT16, MN_INT32, MN_INT64};
static int bytes_log2(mn_dtype t) { size_t s = mn_dtype_size(t); return s == 1 ? 0 : s == 2 ? 1 : s == 4 ? 2 : 3; }

mn_dtype mn_dtype_promote(mn_dtype a, mn_dtype b) {
  if (a < 0 || a >= MN_NDTYPE || b < 0 || b >= MN_NDTYPE) return MN_NDTYPE;
  if (a == b) return a;
  if (a == MN_BOOL) return b;
  if (b == MN_BOOL) return a;
  /* complex: the complex type whose parts hold the real promotion of the
   * parts (complex64 with int32 gives complex128, as NumPy) */
  if (mn_is_complex(a) || mn_is_complex(b)) {
    mn_dtype r = mn_dtype_promote(mn_real_of(a), mn_real_of(b));
    return r == MN_NDTYPE ? r : mn_complex_of(r == MN_FLOAT16 ? MN_FLOAT32 : r);
  }
  if (mn_is_float(a) && mn_is_float(b)) return mn_dtype_size(a) >= mn_dtype_size(b) ? a : b;
  if (mn_is_float(a) || mn_is_float(b)) {
    /* the smallest float at least as wide as f that holds every value of
     * the integer type i exactly: float16 holds 8-bit integers, float32
     * 16-bit ones, float64 is NumPy's choice above */
    mn_dtype f = mn_is_float(a) ? a : b, i = mn_is_float(a) ? b : a;
    size_t si = mn_dtype_size(i), sf = mn_dtype_size(f);
    mn_dtype need = si == 1 ? MN_FLOAT16 : si == 2 ? MN_FLOAT32 : MN_FLOAT64;
    return mn_dtype_size(need) >= sf ? need : f;
  }
  int la = bytes_log2(a), lb = bytes_log2(b), ua = mn_is_uint(a), ub = mn_is_uint(b);
  if (ua == ub) return la >= lb ? a : b;
  /* signed with unsigned: the signed type wide enough for both, float64
   * past int64 (NumPy) */
  int ls = ua ? lb : la, lu = ua ? la : lb;
  if (ls > lu) return sints[ls];
  return lu < 3 ? sints[lu + 1] : MN_FLOAT64;
}

/* float result for transcendental functions: NumPy's smallest float loop
 * an integer casts to safely (float16 for bool and 8-bit integers) */
static mn_dtype float_of(mn_dtype t) {
  if (mn_is_float(t)) return t;
  size_t s = mn_dtype_size(t);
  return s == 1 ? MN_FLOAT16 : s == 2 ? MN_FLOAT32 : MN_FLOAT64;
}

/* complex inputs: NumPy's complex loops */
static mn_dtype complex_unary(mn_unary_op op, mn_dtype x) {
  switch (op) {
  case MN_OP_NEG: case MN_OP_POS: case MN_OP_SIGN: case MN_OP_SQUARE: case MN_OP_RECIPROCAL: case MN_OP_CONJ:
  case MN_OP_SQRT: case MN_OP_EXP: case MN_OP_LOG: case MN_OP_LOG2: case MN_OP_LOG10: case MN_OP_SIN:
  case MN_OP_COS: case MN_OP_TAN: case MN_OP_SINH: case MN_OP_COSH: case MN_OP_TANH: case MN_OP_CAST:
  case MN_OP_EXP2: case MN_OP_EXPM1: case MN_OP_LOG1P: case MN_OP_RINT: case MN_OP_ARCSIN: case MN_OP_ARCCOS:
  case MN_OP_ARCTAN: case MN_OP_ARCSINH: case MN_OP_ARCCOSH: case MN_OP_ARCTANH:
    return x;
  case MN_OP_ABS: case MN_OP_REAL: case MN_OP_IMAG:
    return mn_real_of(x);
  case MN_OP_LOGICAL_NOT: case MN_OP_ISNAN: case MN_OP_ISINF: case MN_OP_ISFINITE:
    return MN_BOOL;
  default:
    return MN_NDTYPE;
  }
}

mn_dtype mn_unary_result(mn_unary_op op, mn_dtype x) {
  if (x < 0 || x >= MN_NDTYPE) return MN_NDTYPE;
  if (mn_is_complex(x)) return complex_unary(op, x);
  switch (op) {
  case MN_OP_REAL: case MN_OP_IMAG: case MN_OP_CONJ: /* real inputs are handled above the core */
    return MN_NDTYPE;
  case MN_OP_NEG: case MN_OP_POS: case MN_OP_SIGN:
    return x == MN_BOOL ? MN_NDTYPE : x;
  case MN_OP_ABS: case MN_OP_CAST:
  case MN_OP_FLOOR: case MN_OP_CEIL: case MN_OP_TRUNC: /* NumPy 2 keeps ints */
    return x;
  case MN_OP_SQUARE: case MN_OP_RECIPROCAL: /* NumPy's bool loops are int8's */
    return x == MN_BOOL ? MN_INT8 : x;
  case MN_OP_INVERT:
    return mn_is_float(x) ? MN_NDTYPE : x;
  case MN_OP_LOGICAL_NOT: case MN_OP_ISNAN: case MN_OP_ISINF: case MN_OP_ISFINITE:
  case MN_OP_SIGNBIT:
    return MN_BOOL;
  case MN_OP_FREXP_EXP:
    return MN_INT32;
  case MN_OP_I0: /* NumPy's i0 is float64 but for float32 and float16 */
    return x == MN_FLOAT32 || x == MN_FLOAT16 ? x : MN_FLOAT64;
  default:
    if (op < 0 || op >= MN_NUNARY) return MN_NDTYPE;
    return float_of(x); /* sqrt, exp, ..., rint */
  }
}

mn_dtype mn_binary_result(mn_binary_op op, mn_dtype x, mn_dtype y) {
  mn_dtype p = mn_dtype_promote(x, y);
  if (p == MN_NDTYPE) return MN_NDTYPE;
  if (mn_is_complex(p)) {
    switch (op) {
    case MN_OP_ADD: case MN_OP_SUB: case MN_OP_MUL: case MN_OP_DIV: case MN_OP_POW:
    case MN_OP_MAXIMUM: case MN_OP_MINIMUM: case MN_OP_FMAX: case MN_OP_FMIN:
      return p;
    case MN_OP_FLOAT_POWER:
      return MN_COMPLEX128;
    case MN_OP_EQ: case MN_OP_NE: case MN_OP_LT: case MN_OP_LE: case MN_OP_GT: case MN_OP_GE:
    case MN_OP_LOGICAL_AND: case MN_OP_LOGICAL_OR: case MN_OP_LOGICAL_XOR:
      return MN_BOOL;
    default:
      return MN_NDTYPE;
    }
  }
  switch (op) {
  case MN_OP_ADD: case MN_OP_MUL: case MN_OP_MAXIMUM: case MN_OP_MINIMUM:
  case MN_OP_FMAX: case MN_OP_FMIN:
    return p;
  case MN_OP_SUB:
    return p == MN_BOOL ? MN_NDTYPE : p;
  case MN_OP_FLOORDIV: case MN_OP_MOD: case MN_OP_POW: case MN_OP_FMOD: /* NumPy's bool loops are int8's */
    return p == MN_BOOL ? MN_INT8 : p;
  case MN_OP_DIV: /* NumPy divides integers in float64 */
    return mn_is_float(p) ? p : MN_FLOAT64;
  case MN_OP_ATAN2: case MN_OP_HYPOT: case MN_OP_COPYSIGN:
  case MN_OP_LOGADDEXP: case MN_OP_LOGADDEXP2: case MN_OP_HEAVISIDE: case MN_OP_NEXTAFTER:
    /* NumPy's first float loop both cast to safely: uint8 with int8 is float16, not int16's float32 */
    return mn_dtype_promote(float_of(x), float_of(y));
  case MN_OP_FLOAT_POWER:
    return MN_FLOAT64;
  case MN_OP_COMPLEX: /* parts in float32 make complex64 */
    return mn_complex_of(p == MN_FLOAT32 || p == MN_FLOAT16 ? MN_FLOAT32 : MN_FLOAT64);
  case MN_OP_LDEXP: /* the exponent must be an integer (or bool) that int64 holds */
    return mn_is_float(y) || y == MN_UINT64 ? MN_NDTYPE : float_of(x);
  case MN_OP_GCD: case MN_OP_LCM:
    return mn_is_int(p) ? p : MN_NDTYPE;
  case MN_OP_EQ: case MN_OP_NE: case MN_OP_LT: case MN_OP_LE: case MN_OP_GT:
  case MN_OP_GE: case MN_OP_LOGICAL_AND: case MN_OP_LOGICAL_OR:
  case MN_OP_LOGICAL_XOR:
    return MN_BOOL;
  case MN_OP_BITAND: case MN_OP_BITOR: case MN_OP_BITXOR:
    return mn_is_float(p) ? MN_NDTYPE : p;
  case MN_OP_LSHIFT: case MN_OP_RSHIFT:
    return p == MN_BOOL ? MN_INT8 : mn_is_int(p) ? p : MN_NDTYPE;
  default:
    return MN_NDTYPE;
  }
}

mn_dtype mn_reduce_result(mn_reduce_op op, mn_dtype x) {
  if (x < 0 || x >= MN_NDTYPE) return MN_NDTYPE;
  if (mn_is_complex(x)) /* no sums of squares or absolute values (the callers take parts) */
    return op == MN_RED_SUM || op == MN_RED_PROD || op == MN_RED_MIN || op == MN_RED_MAX ? x
           : op == MN_RED_ARGMIN || op == MN_RED_ARGMAX ? MN_INT64
           : op == MN_RED_ANY || op == MN_RED_ALL ? MN_BOOL : MN_NDTYPE;
  switch (op) {
  case MN_RED_SUM: case MN_RED_PROD: case MN_RED_SUMABS: case MN_RED_SUMSQ:
    /* NumPy's integer sums accumulate in int64, or uint64 for unsigned */
    return mn_is_float(x) ? x : mn_is_uint(x) ? MN_UINT64 : MN_INT64;
  case MN_RED_MIN: case MN_RED_MAX: case MN_RED_MAXABS:
    return x;
  case MN_RED_ARGMIN: case MN_RED_ARGMAX:
    return MN_INT64;
  case MN_RED_ANY: case MN_RED_ALL:
    return MN_BOOL;
  default:
    return MN_NDTYPE;
  }
}

static const char *const unary_names[MN_NUNARY] = {
  "negative", "positive", "absolute", "sqrt", "exp", "log", "log2", "log10",
  "expm1", "log1p", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh",
  "cosh", "tanh", "floor", "ceil", "trunc", "rint", "sign", "square",
  "reciprocal", "logical_not", "invert", "isnan", "isinf", "isfinite",
  "arccosh", "arcsinh", "arctanh", "cbrt", "exp2", "fabs", "signbit", "spacing",
  "deg2rad", "rad2deg", "i0", "frexp_exponent", "real", "imag", "conjugate", "cast"};
static const char *const binary_names[MN_NBINARY] = {
  "add", "subtract", "multiply", "true_divide", "floor_divide", "remainder",
  "power", "maximum", "minimum", "fmax", "fmin", "equal", "not_equal", "less",
  "less_equal", "greater", "greater_equal", "logical_and", "logical_or",
  "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
  "right_shift", "arctan2", "hypot", "copysign", "fmod", "logaddexp",
  "logaddexp2", "heaviside", "nextafter", "ldexp", "gcd", "lcm", "float_power", "complex"};
static const char *const ternary_names[MN_NTERNARY] = {"where", "clip", "fma"};
static const char *const reduce_names[MN_NREDUCE] = {
  "sum", "prod", "min", "max", "argmin", "argmax", "any", "all",
  "sum_of_squares", "sum_of_abs", "max_of_abs"};

const char *mn_unary_name(mn_unary_op op) {
  return (op >= 0 && op < MN_NUNARY) ? unary_names[op] : "invalid-unary-op";
}
const char *mn_binary_name(mn_binary_op op) {
  return (op >= 0 && op < MN_NBINARY) ? binary_names[op] : "invalid-binary-op";
}
const char *mn_ternary_name(mn_ternary_op op) {
  return (op >= 0 && op < MN_NTERNARY) ? ternary_names[op] : "invalid-ternary-op";
}
const char *mn_reduce_name(mn_reduce_op op) {
  return (op >= 0 && op < MN_NREDUCE) ? reduce_names[op] : "invalid-reduction";
}

mn_scalar mn_scalar_f64(double x) {
  mn_scalar s = {MN_FLOAT64, 1, {0}, 0};
  s.v.f = x;
  return s;
}
mn_scalar mn_scalar_i64(int64_t x) {
  mn_scalar s = {MN_INT64, 1, {0}, 0};
  s.v.i = x;
  return s;
}
mn_scalar mn_scalar_bool(int x) {
  mn_scalar s = {MN_BOOL, 1, {0}, 0};
  s.v.i = x != 0;
  return s;
}
mn_scalar mn_scalar_typed(mn_dtype t, double x) {
  mn_scalar s = {t, 0, {0}, 0};
  if (t == MN_FLOAT32 || t == MN_COMPLEX64) s.v.f = (float)x;
  else if (t == MN_COMPLEX128) s.v.f = x;
  else if (t == MN_FLOAT16) s.v.f = mn_h2d(mn_d2h(x));
  else if (t == MN_FLOAT64) s.v.f = x;
  else if (t == MN_BOOL) s.v.i = x != 0;
  else s.v.i = mn_int_wrap(t, t == MN_UINT64 && x >= 9223372036854775808.0 ? (int64_t)(uint64_t)x : (int64_t)x);
  return s;
}
mn_scalar mn_scalar_c128(double re, double im) {
  mn_scalar s = {MN_COMPLEX128, 1, {0}, im};
  s.v.f = re;
  return s;
}
double mn_scalar_as_f64(mn_scalar s) {
  if (mn_is_float(s.dtype) || mn_is_complex(s.dtype)) return s.v.f;
  return s.dtype == MN_UINT64 ? (double)(uint64_t)s.v.i : (double)s.v.i;
}

void mn_scalar_store(mn_scalar s, mn_dtype t, void *p) {
  char src[16];
  if (s.dtype == MN_COMPLEX64) { float f[2] = {(float)s.v.f, (float)s.im}; memcpy(src, f, 8); }
  else if (s.dtype == MN_COMPLEX128) { double f[2] = {s.v.f, s.im}; memcpy(src, f, 16); }
  else if (s.dtype == MN_FLOAT32) { float f = (float)s.v.f; memcpy(src, &f, 4); }
  else if (s.dtype == MN_FLOAT16) { mn_h h = mn_d2h(s.v.f); memcpy(src, &h, 2); }
  else if (mn_is_float(s.dtype)) memcpy(src, &s.v.f, 8);
  else mni_ft_store_i((int)s.dtype, src, s.v.i);
  mn_cast_table[s.dtype][t](1, src, p);
}

mn_scalar mn_scalar_cast(mn_scalar s, mn_dtype t) {
  char b[16];
  mn_scalar_store(s, t, b);
  mn_scalar r = {t, s.weak, {0}, 0};
  if (t == MN_COMPLEX64) { float f[2]; memcpy(f, b, 8); r.v.f = f[0]; r.im = f[1]; return r; }
  if (t == MN_COMPLEX128) { double f[2]; memcpy(f, b, 16); r.v.f = f[0]; r.im = f[1]; return r; }
  double f;
  int64_t i;
  mni_ft_load((int)t, b, &f, &i);
  if (mn_is_float(t)) r.v.f = f;
  else r.v.i = i;
  return r;
}

int64_t mn_int_wrap(mn_dtype t, int64_t i) {
  switch (t) {
  case MN_BOOL: return i != 0;
  case MN_INT8: return (int8_t)(uint8_t)(uint64_t)i;
  case MN_INT16: return (int16_t)(uint16_t)(uint64_t)i;
  case MN_INT32: return (int32_t)(uint32_t)(uint64_t)i;
  case MN_UINT8: return (uint8_t)(uint64_t)i;
  case MN_UINT16: return (uint16_t)(uint64_t)i;
  case MN_UINT32: return (uint32_t)(uint64_t)i;
  default: return i;
  }
}
