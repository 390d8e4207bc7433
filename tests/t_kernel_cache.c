/* The disk cache of compiled kernels (arrays/kernel_cache.c): a stored
 * binary comes back byte for byte; another source, another tag, a cut or
 * lengthened file, an empty or unusable directory are misses; every rank
 * storing the same kernel at once leaves one whole file and no temporary. */
#define _POSIX_C_SOURCE 200809L /* setenv, truncate */
#include "mn_test.h"
#include "kernel_src.h"
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

static int count_tmp(const char *dir, int *files) {
  DIR *d = opendir(dir);
  int tmp = 0;
  *files = 0;
  if (!d) return -1;
  for (struct dirent *e; (e = readdir(d));) {
    if (e->d_name[0] == '.') continue;
    (*files)++;
    tmp += strstr(e->d_name, ".tmp") != NULL;
  }
  closedir(d);
  return tmp;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int rank = mn_ctx_rank(ctx);
  char base[512], dir[600], path[700], sub[800];
  /* one directory for all ranks (rank 0 names it), two levels not yet made */
  mt_tmp_path(base, sizeof base, "t_kernel_cache", "dir");
  if (!rank) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    T_CHECK(system(cmd) == 0, "cannot clear %s", base);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  snprintf(dir, sizeof dir, "%s/a/b", base);
  setenv("MANIPLE_KERNEL_CACHE_DIR", dir, 1);
  const char *src = "extern \"C\" __global__ void mn_eval_kernel() {}\n";
  char bin[3000];
  for (int i = 0; i < (int)sizeof bin; i++) bin[i] = (char)(i * 37 + 11);
  char *got = NULL;
  size_t n = 0;
  T_CHECK(!mn_kcache_load(42, "sm_90-nvrtc13.0", src, &got, &n) && !got, "a miss before any store");
  MPI_Barrier(MPI_COMM_WORLD);
  /* every rank stores the same kernel at once */
  mn_kcache_store(42, "sm_90-nvrtc13.0", src, bin, sizeof bin);
  MPI_Barrier(MPI_COMM_WORLD);
  T_CHECK(mn_kcache_load(42, "sm_90-nvrtc13.0", src, &got, &n) && n == sizeof bin && !memcmp(got, bin, n),
          "the stored binary did not come back whole (%zu bytes)", n);
  free(got);
  int files = 0, tmp = count_tmp(dir, &files);
  T_CHECK(tmp == 0 && files == 1, "after %d stores of one kernel: %d files, %d temporaries", mn_ctx_size(ctx), files,
          tmp);
  /* misses: another source under the same key, another tag, another key */
  T_CHECK(!mn_kcache_load(42, "sm_90-nvrtc13.0", "other source", &got, &n), "another source was taken");
  T_CHECK(!mn_kcache_load(42, "sm_80-nvrtc13.0", src, &got, &n), "another architecture was taken");
  T_CHECK(!mn_kcache_load(43, "sm_90-nvrtc13.0", src, &got, &n), "another key was taken");
  MPI_Barrier(MPI_COMM_WORLD);
  /* a file cut short, then one with bytes after the binary */
  snprintf(path, sizeof path, "%s/%016llx-%s.bin", dir, 42ULL, "sm_90-nvrtc13.0");
  struct stat st;
  T_CHECK(stat(path, &st) == 0, "no file at %s", path);
  if (!rank) T_CHECK(truncate(path, st.st_size - 1) == 0, "cannot cut %s", path);
  MPI_Barrier(MPI_COMM_WORLD);
  T_CHECK(!mn_kcache_load(42, "sm_90-nvrtc13.0", src, &got, &n), "a cut file was taken");
  MPI_Barrier(MPI_COMM_WORLD);
  if (!rank) {
    FILE *f = fopen(path, "ab");
    T_CHECK(f && fputc(0, f) != EOF && fputc(1, f) != EOF && !fclose(f), "cannot lengthen %s", path);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  T_CHECK(!mn_kcache_load(42, "sm_90-nvrtc13.0", src, &got, &n), "a lengthened file was taken");
  /* an empty MANIPLE_KERNEL_CACHE_DIR: no cache */
  setenv("MANIPLE_KERNEL_CACHE_DIR", "", 1);
  mn_kcache_store(7, "sm_90-nvrtc13.0", src, bin, sizeof bin);
  T_CHECK(!mn_kcache_load(7, "sm_90-nvrtc13.0", src, &got, &n), "a cache with no directory");
  /* a directory that cannot be made (under a regular file): stores are skipped */
  snprintf(sub, sizeof sub, "%s/sub", path);
  setenv("MANIPLE_KERNEL_CACHE_DIR", sub, 1);
  mn_kcache_store(8, "sm_90-nvrtc13.0", src, bin, sizeof bin);
  T_CHECK(!mn_kcache_load(8, "sm_90-nvrtc13.0", src, &got, &n), "a store under a regular file");
  unsetenv("MANIPLE_KERNEL_CACHE_DIR");
  MPI_Barrier(MPI_COMM_WORLD);
  if (!rank) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", base);
    T_CHECK(system(cmd) == 0, "cannot remove %s", base);
  }
  return mt_finish(&ctx);
}
