/* Built when the CUDA backend is not compiled in. */
#include "mn_impl.h"

int mn_cuda_device_count(int *count, const char **reason) {
  if (count) *count = 0;
  if (reason) *reason = "maniple was built without the CUDA backend (MANIPLE_CUDA=OFF or no nvcc)";
  return MN_SUCCESS;
}
