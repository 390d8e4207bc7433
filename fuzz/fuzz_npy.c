/* .npy files: the header parser and the checks of the data size against
 * it, through mn_array_load_npy. */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mn_ctx *ctx = fz_ctx();
  const char *path = fz_path(".npy");
  if (fz_write(path, data, size)) return 0;
  mn_array *a = NULL;
  if (mn_array_load_npy(ctx, path, &a) == MN_SUCCESS) {
    mn_scalar s; /* a loaded array is whole: every element can be read */
    mn_array_reduce(MN_RED_SUM, a, &s);
  }
  mn_array_destroy(&a);
  return 0;
}
