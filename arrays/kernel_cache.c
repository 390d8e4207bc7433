/* Compiled fused-expression kernels kept on disk between runs, as CuPy's
 * ~/.cupy/kernel_cache: NVRTC takes tens of milliseconds a kernel, and a
 * script's first time step compiles every statement it has. A file holds
 * a header, the source it was compiled from (compared whole on load, so a
 * hash collision is a miss, never a wrong kernel) and the binary. Files
 * are written to a temporary name and renamed, so ranks compiling the same
 * kernel at once never leave a torn file. Any failure is a miss. */
#include "mn_impl.h"
#include "kernel_src.h"
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char MAGIC[8] = {'m', 'n', 'k', 'c', 'a', 'c', 'h', '1'};

/* The directory: MANIPLE_KERNEL_CACHE_DIR (empty: no cache), else
 * $XDG_CACHE_HOME/maniple/kernels, else ~/.cache/maniple/kernels. */
int mn_kcache_dir(char *d, size_t n) {
  const char *e = getenv("MANIPLE_KERNEL_CACHE_DIR");
  if (e) return *e && snprintf(d, n, "%s", e) < (int)n;
  if ((e = getenv("XDG_CACHE_HOME")) && *e) return snprintf(d, n, "%s/maniple/kernels", e) < (int)n;
  if ((e = getenv("HOME")) && *e) return snprintf(d, n, "%s/.cache/maniple/kernels", e) < (int)n;
  return 0;
}

/* The cache directory d (mn_kcache_dir's) and the file of (key, tag) in it */
static int path_of(char *d, size_t dn, uint64_t key, const char *tag, char *p, size_t n) {
  return mn_kcache_dir(d, dn) && snprintf(p, n, "%s/%016llx-%s.bin", d, (unsigned long long)key, tag) < (int)n;
}

/* mkdir -p */
int mn_kcache_mkdirs(char *d) {
  for (char *s = d + 1; *s; s++) {
    if (*s != '/') continue;
    *s = '\0';
    int bad = mkdir(d, 0755) && errno != EEXIST;
    *s = '/';
    if (bad) return 0;
  }
  return !mkdir(d, 0755) || errno == EEXIST;
}

int mn_kcache_load(uint64_t key, const char *tag, const char *src, char **bin, size_t *n) {
  char p[4096], d[3000];
  *bin = NULL;
  *n = 0;
  if (!path_of(d, sizeof d, key, tag, p, sizeof p)) return 0;
  FILE *f = fopen(p, "rb");
  if (!f) return 0;
  char magic[8];
  uint64_t ls = 0, lb = 0;
  size_t len = strlen(src);
  char *s = NULL, *b = NULL;
  int ok = fread(magic, 1, 8, f) == 8 && !memcmp(magic, MAGIC, 8) && fread(&ls, 8, 1, f) == 1 &&
           fread(&lb, 8, 1, f) == 1 && ls == len && lb > 0 && lb < ((uint64_t)1 << 31);
  if (ok) ok = (s = malloc(len + 1)) && (b = malloc((size_t)lb));
  if (ok) ok = fread(s, 1, len, f) == len && !memcmp(s, src, len) && fread(b, 1, (size_t)lb, f) == lb;
  if (ok) ok = fgetc(f) == EOF; /* nothing after the binary: not a longer file cut short elsewhere */
  fclose(f);
  free(s);
  if (!ok) {
    free(b);
    return 0;
  }
  *bin = b;
  *n = (size_t)lb;
  return 1;
}

void mn_kcache_store(uint64_t key, const char *tag, const char *src, const char *bin, size_t n) {
  char p[4096], t[4200], d[3000];
  if (!n || !path_of(d, sizeof d, key, tag, p, sizeof p) || !mn_kcache_mkdirs(d)) return;
  snprintf(t, sizeof t, "%s.%ld.tmp", p, (long)getpid());
  FILE *f = fopen(t, "wb");
  if (!f) return;
  uint64_t ls = strlen(src), lb = n;
  int ok = fwrite(MAGIC, 1, 8, f) == 8 && fwrite(&ls, 8, 1, f) == 1 && fwrite(&lb, 8, 1, f) == 1 &&
           fwrite(src, 1, (size_t)ls, f) == ls && fwrite(bin, 1, n, f) == n;
  ok = !fclose(f) && ok;
  if (!ok || rename(t, p)) remove(t);
}
