#define _POSIX_C_SOURCE 200809L
#define _DEFAULT_SOURCE /* madvise */
/* Error messages with file:line frames, and collective agreement. */
#include "mn_impl.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define HUGE_ALIGN ((uintptr_t)2 << 20)

static _Thread_local char errbuf[4096];
/* the errno and file behind the last MN_ERR_IO error (0, "": none) */
static _Thread_local int errbuf_errno;
static _Thread_local char errbuf_path[1024];
static _Thread_local int errbuf_rank; /* lowest failing rank at the last agreement */

static const char *const err_names[MN_ERR_COUNT] = {
  "MN_SUCCESS", "MN_ERR_ARG", "MN_ERR_SHAPE", "MN_ERR_DTYPE", "MN_ERR_INDEX",
  "MN_ERR_MEM", "MN_ERR_MPI", "MN_ERR_IO", "MN_ERR_FORMAT", "MN_ERR_BACKEND",
  "MN_ERR_CUDA", "MN_ERR_NOTIMPL", "MN_ERR_LINALG"};

const char *mn_err_name(int code) {
  return (code >= 0 && code < MN_ERR_COUNT) ? err_names[code] : "MN_ERR_UNKNOWN";
}

const char *mn_errmsg(void) { return errbuf; }

/* -1: not decided yet, MANIPLE_VERBOSE decides at the first error */
static int verbose = -1;

void mn_set_verbose(int on) { verbose = on != 0; }

static int verbose_on(void) {
  if (verbose < 0) {
    const char *v = getenv("MANIPLE_VERBOSE");
    verbose = v && *v && *v != '0';
  }
  return verbose;
}

int mn_error(int code, const char *file, int line, const char *func,
             const char *fmt, ...) {
  char msg[2048];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  snprintf(errbuf, sizeof errbuf, "%s: %s\n  at %s:%d (%s)", mn_err_name(code),
           msg, file, line, func);
  errbuf_errno = 0;
  errbuf_path[0] = 0;
  errbuf_rank = -1;
  if (verbose_on()) fprintf(stderr, "maniple: %s\n", errbuf);
  return code;
}

int mn_error_io(int errnum, const char *path, const char *file, int line, const char *func,
                const char *what) {
  int code = mn_error(MN_ERR_IO, file, line, func, "%s '%s': %s", what, path, strerror(errnum));
  errbuf_errno = errnum;
  snprintf(errbuf_path, sizeof errbuf_path, "%s", path);
  return code;
}

int mn_err_errno(const char **path, int *rank) {
  if (path) *path = errbuf_path;
  if (rank) *rank = errbuf_rank;
  return errbuf_errno;
}

int mn_trace(int code, const char *file, int line, const char *func) {
  size_t n = strlen(errbuf);
  if (n == 0) snprintf(errbuf, sizeof errbuf, "%s", mn_err_name(code));
  n = strlen(errbuf);
  if (n + 64 < sizeof errbuf)
    snprintf(errbuf + n, sizeof errbuf - n, "\n  from %s:%d (%s)", file, line, func);
  return code;
}

int mni_fault_armed[MNI_NFAULT];
void mni_fault_arm(mni_fault f, int n) { mni_fault_armed[f] = n; }

void mn_defer(mn_ctx *ctx, int code) {
  if (!code || ctx->deferred) return;
  ctx->deferred = code;
  snprintf(ctx->deferred_msg, sizeof ctx->deferred_msg, "%s", errbuf);
}

void mn_oom_abort(mn_ctx *ctx, size_t n, const char *what) {
  fprintf(stderr, "maniple: rank %d: cannot allocate %zu bytes for %s; stopping the job, since the other ranks "
          "would wait for this one\n", ctx->rank, n, what);
  MPI_Abort(ctx->comm, 3);
  abort();
}

void mn_buf_need(mn_ctx *ctx, const mn_buf *b, const char *fn) {
  if (!mn_buf_lost(b)) return;
  fprintf(stderr, "maniple: rank %d: %s needs an array whose storage could not be allocated on this rank; "
          "stopping the job, since the other ranks would wait for this one. The error was:\n%s\n",
          ctx->rank, fn, ctx->deferred ? ctx->deferred_msg : "(already raised)");
  MPI_Abort(ctx->comm, 3);
}

int mn_deferred_take(mn_ctx *ctx) {
  int code = ctx->deferred;
  if (!code) return MN_SUCCESS;
  snprintf(errbuf, sizeof errbuf, "%.3800s\n  (met earlier on this rank, raised at this communication point)",
           ctx->deferred_msg);
  errbuf_errno = 0;
  errbuf_path[0] = 0;
  ctx->deferred = 0;
  return code;
}

int mn_agree(mn_ctx *ctx, int code) {
  if (ctx->deferred) code = mn_deferred_take(ctx); /* the earlier error first */
  if (ctx->size == 1) return code;
  int mine = code ? ctx->rank : ctx->size, first = ctx->size;
  if (mn_allreduce(ctx, &mine, &first, 1, MPI_INT, MPI_MIN) != MPI_SUCCESS)
    return MN_ERR(MN_ERR_MPI, "MPI_Allreduce failed while agreeing on an error");
  if (first == ctx->size) return MN_SUCCESS;
  struct { int code, errnum; char msg[sizeof errbuf], path[sizeof errbuf_path]; } pkt;
  if (ctx->rank == first) {
    pkt.code = code;
    pkt.errnum = errbuf_errno;
    memcpy(pkt.msg, errbuf, sizeof errbuf);
    memcpy(pkt.path, errbuf_path, sizeof errbuf_path);
  }
  MPI_Bcast(&pkt, (int)sizeof pkt, MPI_BYTE, first, ctx->comm);
  if (ctx->rank != first) {
    snprintf(errbuf, sizeof errbuf, "%.4000s\n  (raised on rank %d)", pkt.msg, first);
    errbuf_errno = pkt.errnum;
    memcpy(errbuf_path, pkt.path, sizeof errbuf_path);
  }
  errbuf_rank = first;
  return pkt.code;
}

void *mn_malloc(size_t n) {
  void *p = NULL;
  if (n == 0) n = 64;
  if (posix_memalign(&p, 64, (n + 63) / 64 * 64)) return NULL;
#ifdef MADV_HUGEPAGE
  /* large buffers on transparent huge pages, as NumPy's (its threshold):
   * a stencil's row streams then miss the TLB far less */
  if (n >= ((size_t)4 << 20)) {
    uintptr_t a = ((uintptr_t)p + HUGE_ALIGN - 1) & ~(uintptr_t)(HUGE_ALIGN - 1), end = (uintptr_t)p + n;
    if (end > a) (void)madvise((void *)a, end - a, MADV_HUGEPAGE);
  }
#endif
  return p;
}

void *mn_calloc(size_t n) {
  void *p = mn_malloc(n);
  if (p) memset(p, 0, n ? n : 64);
  return p;
}

void mn_free(void *p) { free(p); }
