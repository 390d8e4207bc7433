/* float16 (IEEE binary16) held as its bits: maniple computes it in float32,
 * as NumPy does, and rounds each result to half. Conversions are exact in
 * one direction and round to nearest even in the other, on the host and
 * in CUDA kernels alike (no __half, so NVRTC needs no header). */
#ifndef MANIPLE_KERNEL_HALF_H
#define MANIPLE_KERNEL_HALF_H
#include "kernels/mn_hd.h"
#ifndef __CUDACC_RTC__
#include <math.h>
#include <stdint.h>
#endif

typedef uint16_t mn_h;

MN_HD static inline float mn_h2f(mn_h h) {
  uint32_t s = (uint32_t)(h & 0x8000u) << 16, e = (h >> 10) & 0x1fu, m = h & 0x3ffu, b;
  if (e == 31) b = s | 0x7f800000u | (m << 13); /* infinities and NaNs */
  else if (e) b = s | ((e + 112) << 23) | (m << 13);
  else if (!m) b = s;
  else { /* subnormal: m * 2^-24, normalised */
    uint32_t k = 0;
    while (!(m & 0x400u)) { m <<= 1; k++; }
    b = s | ((113 - k) << 23) | ((m & 0x3ffu) << 13);
  }
  union { uint32_t u; float f; } c;
  c.u = b;
  return c.f;
}
MN_HD static inline double mn_h2d(mn_h h) { return (double)mn_h2f(h); }

/* d rounded to the nearest half (ties to even); scaling by powers of two
 * is exact, so rint does the one rounding */
MN_HD static inline mn_h mn_d2h(double d) {
  mn_h s = signbit(d) ? (mn_h)0x8000u : (mn_h)0;
  double a = fabs(d);
  if (a != a) return (mn_h)(s | 0x7e00u);
  if (a >= 65520.0) return (mn_h)(s | 0x7c00u); /* past 65504 and its half step: inf */
  if (a < 6.103515625e-05) return (mn_h)(s | (mn_h)rint(a * 16777216.0)); /* subnormal: units of 2^-24 */
  int e;
  double q = rint(ldexp(frexp(a, &e), 11)); /* 1024 .. 2048 */
  if (q == 2048.0) { q = 1024.0; e++; }
  return (mn_h)(s | (mn_h)((e + 14) << 10) | (mn_h)((int)q - 1024));
}
#endif
