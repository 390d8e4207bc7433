/* The file readers under a fuzzer: each input is written to a file of its
 * own and read back through the public entry point (one process, an MPI
 * singleton). A bad file must give an error code and no crash, leak or
 * undefined behaviour (libFuzzer with ASan and UBSan under `make fuzz`;
 * replay.c runs the kept inputs in `make test`). */
#ifndef MANIPLE_FUZZ_HARNESS_H
#define MANIPLE_FUZZ_HARNESS_H
#include <maniple/maniple.h>
#include <stddef.h>
#include <stdint.h>

/* the context and a per-process scratch file, made once */
mn_ctx *fz_ctx(void);
const char *fz_path(const char *suffix);
/* data -> the scratch file; 0 on success */
int fz_write(const char *path, const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
#endif
