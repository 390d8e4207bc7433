/* The values a matrix holds, widened to one form (mni_sval) for assembly,
 * sums, products and casts: every numeric dtype but float16. */
#include "csr_impl.h"
#include "kernels/fill.h" /* mni_ft_load, mni_ft_store_i: mn_dtype's order */

int mni_csr_dtype_ok(mn_dtype t) { return t >= 0 && t < MN_NDTYPE && t != MN_FLOAT16; }

mn_dtype mni_csr_promote(mn_dtype a, mn_dtype b) {
  mn_dtype r = mn_dtype_promote(a, b);
  return r == MN_FLOAT16 ? MN_FLOAT32 : r; /* (int8 with float16: never held) */
}

mni_sval mn_csr_val(mn_dtype t, const void *v, int64_t k) {
  switch (t) {
  case MN_FLOAT64: return mni_sv_z(((const double *)v)[k], 0);
  case MN_FLOAT32: return mni_sv_z(((const float *)v)[k], 0);
  case MN_COMPLEX128: return mni_sv_z(((const mn_c128 *)v)[k].re, ((const mn_c128 *)v)[k].im);
  case MN_COMPLEX64: return mni_sv_z(((const mn_c64 *)v)[k].re, ((const mn_c64 *)v)[k].im);
  default: {
    double f;
    int64_t i;
    mni_ft_load((int)t, (const char *)v + k * (int64_t)mn_dtype_size(t), &f, &i);
    return mni_sv_i(i);
  }
  }
}

void mni_csr_put(mn_dtype t, void *v, int64_t k, mni_sval x) {
  switch (t) {
  case MN_FLOAT64: ((double *)v)[k] = x.z.re; break;
  case MN_FLOAT32: ((float *)v)[k] = (float)x.z.re; break;
  case MN_COMPLEX128: ((mn_c128 *)v)[k] = x.z; break;
  case MN_COMPLEX64: ((mn_c64 *)v)[k].re = (float)x.z.re; ((mn_c64 *)v)[k].im = (float)x.z.im; break;
  case MN_BOOL: ((uint8_t *)v)[k] = x.i != 0; break;
  default: mni_ft_store_i((int)t, (char *)v + k * (int64_t)mn_dtype_size(t), x.i);
  }
}

mni_sval mni_sv_cast(mn_dtype from, mn_dtype to, mni_sval x) {
  int fi = mni_csr_intk(from), ti = mni_csr_intk(to);
  if (fi == ti) {
    if (!fi && !mni_csr_cplx(to)) x.z.im = 0;
    return x;
  }
  if (fi) return mni_sv_z(from == MN_UINT64 ? (double)(uint64_t)x.i : (double)x.i, 0);
  /* a float to an integer: NumPy's (C's) truncation; the caller asked for it */
  if (to == MN_BOOL) return mni_sv_i(x.z.re != 0 || x.z.im != 0);
  double r = x.z.re;
  if (!(r > -9223372036854775808.0 && r < 18446744073709551616.0)) return mni_sv_i(INT64_MIN); /* NaN, out of range */
  return mni_sv_i(r < 9223372036854775808.0 ? (int64_t)r : (int64_t)(uint64_t)r);
}

int mni_csr_int_factor(mn_dtype t, double s, const char *what) {
  /* range first: converting NaN or an out-of-range double to int64 is undefined */
  MN_CHECK(!mni_csr_intk(t) || (s >= -9.2e18 && s <= 9.2e18 && s == (double)(int64_t)s), MN_ERR_DTYPE,
           "%s of a %s matrix by %g would not stay %s: copy it to a float dtype first (mn_csr_copy)", what,
           mn_dtype_name(t), s, mn_dtype_name(t));
  return MN_SUCCESS;
}
