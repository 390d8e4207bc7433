#define _POSIX_C_SOURCE 200809L
/* Shared by the fuzz targets: the MPI singleton, the context and the
 * scratch file (see harness.h). */
#include "harness.h"
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static mn_ctx *ctx;

static void done(void) {
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
}

mn_ctx *fz_ctx(void) {
  if (!ctx) {
    /* a file may declare sizes worth gigabytes: refused above 256 MiB (the
     * readers check before allocating), so runs stay fast */
    setenv("MANIPLE_MEM_LIMIT", "268435456", 0);
    int provided;
    MPI_Init_thread(NULL, NULL, MPI_THREAD_FUNNELED, &provided);
    if (mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CPU, &ctx)) {
      fprintf(stderr, "fuzz: cannot create a context: %s\n", mn_ctx_errmsg(NULL));
      abort();
    }
    atexit(done);
  }
  return ctx;
}

const char *fz_path(const char *suffix) {
  static char path[512];
  if (!path[0]) {
    const char *dir = getenv("MANIPLE_FUZZ_TMP");
    if (!dir || !*dir) dir = getenv("TMPDIR");
    if (!dir || !*dir) dir = "/tmp";
    snprintf(path, sizeof path, "%s/maniple_fuzz_%ld%s", dir, (long)getpid(), suffix);
  }
  return path;
}

int fz_write(const char *path, const uint8_t *data, size_t size) {
  FILE *f = fopen(path, "wb");
  if (!f) return 1;
  int bad = size && fwrite(data, 1, size, f) != size;
  return fclose(f) || bad;
}
