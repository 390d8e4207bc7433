/* Private: unsigned sort keys that order as NumPy orders values (NaN after
 * every number, -0.0 equal to 0.0), shared by sorting and searching. */
#ifndef MANIPLE_SORT_KEY_H
#define MANIPLE_SORT_KEY_H
#include "mn_impl.h"
#include "kernels/sort.h"
#include <string.h>

/* Key of the element at p; its raw bits (zero-padded) go to *raw. */
static inline uint64_t mn_sort_key(mn_dtype t, const char *p, uint64_t *raw) {
  *raw = 0;
  memcpy(raw, p, mn_dtype_size(t));
  return mni_sort_key((int)t, p);
}
#endif
