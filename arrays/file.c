#define _POSIX_C_SOURCE 200809L
/* Files checked on every rank before collective I/O: MPI_File_open with a
 * path missing on some ranks (a node-local directory, a rank-dependent
 * name) blocks the ranks that opened it, so each rank looks first and the
 * ranks agree on what they saw. */
#include "mn_impl.h"
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int check_read(const char *path) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return MN_ERR_ERRNO(errno, path, "cannot open");
  struct stat st;
  int e = fstat(fd, &st) ? errno : 0;
  close(fd);
  if (e) return MN_ERR_ERRNO(e, path, "cannot stat");
  if (S_ISDIR(st.st_mode)) return MN_ERR_ERRNO(EISDIR, path, "cannot read");
  return MN_SUCCESS;
}

static int check_write(const char *path) {
  struct stat st;
  if (!stat(path, &st)) {
    if (S_ISDIR(st.st_mode)) return MN_ERR_ERRNO(EISDIR, path, "cannot write");
    /* an existing file must be writable, as opening it for writing needs,
     * though a save replaces it rather than writing into it */
    if (access(path, W_OK)) return MN_ERR_ERRNO(errno, path, "cannot write");
  }
  /* the directory must exist and take new files (a save writes a temporary
   * name there and renames it into place) */
  char dir[4096];
  const char *slash = strrchr(path, '/');
  if (!slash) {
    strcpy(dir, ".");
  } else {
    size_t n = (size_t)(slash - path);
    if (n >= sizeof dir) return MN_ERR_ERRNO(ENAMETOOLONG, path, "cannot write");
    memcpy(dir, path, n);
    dir[n ? n : 1] = 0;
    if (!n) dir[0] = '/';
  }
  if (stat(dir, &st)) return MN_ERR_ERRNO(errno, path, "cannot write");
  if (!S_ISDIR(st.st_mode)) return MN_ERR_ERRNO(ENOTDIR, path, "cannot write");
  if (access(dir, W_OK | X_OK)) return MN_ERR_ERRNO(errno, path, "cannot write");
  return MN_SUCCESS;
}

int mn_file_check(mn_ctx *ctx, const char *path, int write) {
  MN_CHECK(path, MN_ERR_ARG, "NULL path");
  int err = write ? check_write(path) : check_read(path);
  err = mn_agree(ctx, err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
