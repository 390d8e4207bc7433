/* Sorting the lines of a rank's block along one axis (arrays/sort.c): keys
 * that order as NumPy orders values, and the job a backend runs. The host
 * and the emulated device sort each line's records by a stable radix
 * sort; CUDA sorts (key, position) pairs with CUB and then writes the
 * values and positions back through the same element map. */
#ifndef MANIPLE_KERNEL_SORT_H
#define MANIPLE_KERNEL_SORT_H
#include "kernels/fill.h" /* MNI_FT_*: mn_dtype's values */
#include <stdint.h>
#include <string.h>

enum { MNI_SORT_MAXDIM = 8 }; /* MN_MAXDIM, checked in arrays/sort.c */

/* An unsigned key that orders as NumPy orders values of dtype t: NaN after
 * every number (all NaNs equal), -0.0 equal to 0.0. */
MN_HD static inline uint64_t mni_sort_key(int t, const char *p) {
  uint64_t b = 0;
  switch (t) {
  case MNI_FT_BOOL: case MNI_FT_UINT8: return *(const uint8_t *)p;
  case MNI_FT_UINT16: { uint16_t v; memcpy(&v, p, 2); return v; }
  case MNI_FT_UINT32: { uint32_t v; memcpy(&v, p, 4); return v; }
  case MNI_FT_UINT64: { uint64_t v; memcpy(&v, p, 8); return v; }
  case MNI_FT_INT8: { int8_t v; memcpy(&v, p, 1); return (uint64_t)(int64_t)v ^ (1ULL << 63); }
  case MNI_FT_INT16: { int16_t v; memcpy(&v, p, 2); return (uint64_t)(int64_t)v ^ (1ULL << 63); }
  case MNI_FT_INT32: { int32_t v; memcpy(&v, p, 4); return (uint64_t)(int64_t)v ^ (1ULL << 63); }
  case MNI_FT_INT64: { int64_t v; memcpy(&v, p, 8); return (uint64_t)v ^ (1ULL << 63); }
  case MNI_FT_FLOAT32: { float v; memcpy(&v, p, 4); double d = v; memcpy(&b, &d, 8); break; }
  case MNI_FT_FLOAT16: { mn_h v; memcpy(&v, p, 2); double d = mn_h2d(v); memcpy(&b, &d, 8); break; }
  default: memcpy(&b, p, 8); break;
  }
  double d;
  memcpy(&d, &b, 8);
  if (d != d) b = 0x7ff8000000000000ULL; /* every NaN after +inf */
  else if (d == 0) b = 0;                /* -0.0 sorts as 0.0 */
  return (b >> 63) ? ~b : b | (1ULL << 63);
}

/* The lines along axis of a box: x, out and perm share its counts and
 * strides (one layout, no halo); out (values) or perm (positions on the
 * line, int64) may be NULL. */
typedef struct mni_sort_job_s {
  int t, nd, axis;
  int64_t cnt[MNI_SORT_MAXDIM], st[MNI_SORT_MAXDIM];
  const char *x;
  char *out;
  int64_t *perm;
  int64_t len, lines;  /* cnt[axis], and the product of the other counts */
  /* the regions the emulated device opens: the box's span from the origin */
  size_t bytes, pbytes;
} mni_sort_job;

/* The element offset of line l's first element (lines in C order of the
 * other axes). */
MN_HD static inline int64_t mni_sort_line_at(const mni_sort_job *j, int64_t l) {
  int64_t o = 0;
  for (int d = j->nd - 1; d >= 0; d--) {
    if (d == j->axis) continue;
    o += (l % j->cnt[d]) * j->st[d];
    l /= j->cnt[d];
  }
  return o;
}
#endif
