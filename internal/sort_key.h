/* Private: unsigned sort keys that order as NumPy orders values (NaN after
 * every number, -0.0 equal to 0.0), shared by sorting and searching. */
#ifndef MANIPLE_SORT_KEY_H
#define MANIPLE_SORT_KEY_H
#include "mn_impl.h"
#include <string.h>

/* Key of the element at p; its raw bits (zero-padded) go to *raw. */
static inline uint64_t mn_sort_key(mn_dtype t, const char *p, uint64_t *raw) {
  uint64_t b = 0;
  *raw = 0;
  switch (t) {
  case MN_BOOL: *raw = *(const uint8_t *)p; return *raw;
  case MN_INT32: { int32_t v; memcpy(&v, p, 4); memcpy(raw, &v, 4); return (uint64_t)(int64_t)v ^ (1ULL << 63); }
  case MN_INT64: { int64_t v; memcpy(&v, p, 8); memcpy(raw, &v, 8); return (uint64_t)v ^ (1ULL << 63); }
  case MN_FLOAT32: { float v; memcpy(&v, p, 4); memcpy(raw, &v, 4); double d = v; memcpy(&b, &d, 8); break; }
  default: memcpy(&b, p, 8); memcpy(raw, p, 8); break;
  }
  double d;
  memcpy(&d, &b, 8);
  if (d != d) b = 0x7ff8000000000000ULL; /* every NaN after +inf */
  else if (d == 0) b = 0;                /* -0.0 sorts as 0.0 */
  return (b >> 63) ? ~b : b | (1ULL << 63);
}
#endif
