/* Runs a fuzz target's LLVMFuzzerTestOneInput over files (or every file
 * of directories) without libFuzzer: the kept inputs become regression
 * tests in `make test`, under ASan and UBSan in the sanitizer tree. Prints
 * nothing on success. */
#define _POSIX_C_SOURCE 200809L
#include "harness.h"
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int run_file(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) { fprintf(stderr, "replay: cannot open %s\n", path); return 1; }
  size_t cap = 1 << 16, n = 0;
  uint8_t *buf = malloc(cap);
  for (size_t got; buf && (got = fread(buf + n, 1, cap - n, f)) > 0;) {
    n += got;
    if (n == cap) { uint8_t *b = realloc(buf, cap *= 2); if (!b) { free(buf); buf = NULL; } else buf = b; }
  }
  fclose(f);
  if (!buf) { fprintf(stderr, "replay: no memory for %s\n", path); return 1; }
  LLVMFuzzerTestOneInput(buf, n);
  free(buf);
  return 0;
}

int main(int argc, char **argv) {
  int bad = 0, count = 0;
  for (int k = 1; k < argc; k++) {
    struct stat st;
    if (stat(argv[k], &st)) { fprintf(stderr, "replay: no %s\n", argv[k]); bad = 1; continue; }
    if (!S_ISDIR(st.st_mode)) { bad |= run_file(argv[k]); count++; continue; }
    DIR *d = opendir(argv[k]);
    for (struct dirent *e; d && (e = readdir(d));) {
      if (e->d_name[0] == '.') continue;
      char p[4096];
      snprintf(p, sizeof p, "%s/%s", argv[k], e->d_name);
      bad |= run_file(p);
      count++;
    }
    if (d) closedir(d);
  }
  remove(fz_path(""));
  if (!count) { fprintf(stderr, "replay: no inputs\n"); return 1; }
  return bad;
}
