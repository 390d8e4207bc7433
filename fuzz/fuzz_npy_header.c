/* The .npy header dictionary parser alone (arrays/npy_header.c), without
 * files or MPI-IO: many more inputs a second than fuzz_npy. The first
 * byte picks the format version. */
#include "harness.h"
#include "npy_header.h"
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1) return 0;
  char *text = malloc(size); /* exactly the bytes: no terminator to lean on */
  if (!text) return 0;
  memcpy(text, data + 1, size - 1);
  mn_npy_header h;
  mn_npy_parse_header("fuzz.npy", text, size - 1, 1 + data[0] % 3, &h);
  free(text);
  return 0;
}
