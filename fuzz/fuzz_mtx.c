/* Matrix Market files: the banner, comments, the size line and entries,
 * through mn_csr_read_mtx (float64, the serial and the parallel reader). */
#include "harness.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mn_ctx *ctx = fz_ctx();
  const char *path = fz_path(".mtx");
  if (fz_write(path, data, size)) return 0;
  for (int parallel = 0; parallel < 2; parallel++) {
    mn_csr *A = NULL;
    if (mn_csr_read_mtx(ctx, path, size % 2 ? MN_FLOAT32 : MN_FLOAT64, parallel, &A) == MN_SUCCESS) {
      int64_t m, n;
      mn_csr_shape(A, &m, &n);
      (void)mn_csr_nnz(A);
    }
    mn_csr_destroy(&A);
  }
  return 0;
}
