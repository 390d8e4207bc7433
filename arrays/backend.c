/* Backend tables and the storage of arrays in their memory spaces
 * (internal/backend.h says how the two copies are kept). */
#include "eval_impl.h" /* the eval launches */
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef MANIPLE_HAVE_CUDA
#include "cuda/cuda_backend.h"
#endif

const mn_backend_ops mn_backend_cpu = {.name = "cpu"};

#ifdef MANIPLE_HAVE_CUDA
/* Device blocks freed recently, kept for the next of the same size:
 * cudaFree waits for the device, and a time loop's temporaries would pay
 * it at every statement (CuPy keeps a pool for the same reason). */
enum { DPOOL = 32 };
static struct { size_t n; void *p; } dslot[DPOOL];
static int ndslot;
static atomic_flag dbusy = ATOMIC_FLAG_INIT; /* API calls may come from several threads */
static void dlock(void) { while (atomic_flag_test_and_set_explicit(&dbusy, memory_order_acquire)) {} }
static void dunlock(void) { atomic_flag_clear_explicit(&dbusy, memory_order_release); }

static void cu_drain(void) {
  dlock();
  for (int k = 0; k < ndslot; k++) (void)mn_cuda_free(dslot[k].p);
  ndslot = 0;
  dunlock();
}

static int cu_alloc(size_t n, void **p) {
  *p = NULL;
  dlock();
  for (int k = ndslot - 1; k >= 0 && !*p; k--)
    if (dslot[k].n == n) {
      *p = dslot[k].p;
      dslot[k] = dslot[--ndslot];
    }
  dunlock();
  if (*p) return MN_SUCCESS;
  if (!mn_cuda_malloc(p, n)) return MN_SUCCESS;
  cu_drain(); /* the pool's blocks may be what is missing */
  return mn_cuda_malloc(p, n);
}

static void cu_free(void *p, size_t n) {
  void *drop = NULL;
  dlock();
  if (ndslot == DPOOL) { /* the oldest goes */
    drop = dslot[0].p;
    memmove(dslot, dslot + 1, sizeof dslot[0] * (DPOOL - 1));
    ndslot--;
  }
  dslot[ndslot].n = n;
  dslot[ndslot++].p = p;
  dunlock();
  if (drop) (void)mn_cuda_free(drop);
}
static int cu_fill(void *d, int64_t n, size_t es, const void *v) { return mn_cuda_fill(n, es, v, d); }
static int cu_host_alloc(size_t n, void **p) { return mn_cuda_host_alloc(p, n); }
static void cu_host_free(void *p, size_t n) { (void)n; mn_cuda_host_free(p); }
static const mn_backend_ops backend_cuda = {
  .name = "cuda", .dev_alloc = cu_alloc, .dev_free = cu_free, .dev_zero = mn_cuda_memset0,
  .h2d = mn_cuda_memcpy_h2d, .d2h = mn_cuda_memcpy_d2h, .host_alloc = cu_host_alloc,
  .host_free = cu_host_free, .fill = cu_fill, .fill_index = mn_cuda_fill_index, .copy_box = mn_cuda_copy_box, .eval = mni_cuda_eval, .axis = mni_cuda_axis, .sort = mni_cuda_sort, .gemm = mn_cuda_gemm,
  .stencil_box = mni_cuda_stencil_box, .stencil_bc = mni_cuda_stencil_bc, .drain = cu_drain,
  .sync = mn_cuda_sync, .sv = mni_cuda_sv, .tri = mni_cuda_tri, .csr_rows = mni_cuda_csr_rows,
  .csr_release = mni_cuda_csr_release, .move = mni_cuda_move};
#endif

const mn_backend_ops *mn_backend_table(int backend) {
  switch (backend) {
  case MN_BACKEND_CPU: return &mn_backend_cpu;
  case MN_BACKEND_EMULATED: return &mn_backend_emulated;
#ifdef MANIPLE_HAVE_CUDA
  case MN_BACKEND_CUDA: return &backend_cuda;
#endif
  }
  return NULL;
}

/* A copy between the spaces failed (a device fault: CUDA's errors of this
 * kind are sticky), so no rank can go on with these values. */
void mn_device_abort(mn_ctx *ctx, const char *what) {
  fprintf(stderr, "maniple: rank %d: %s failed; stopping the job. The error was:\n%s\n", ctx->rank, what,
          mn_errmsg());
  MPI_Abort(ctx->comm, 3);
  abort();
}

int mn_copy_counted(mn_ctx *ctx, int to_dev, char *d, char *h, size_t n) {
  mn_log_event ev = to_dev ? MN_LOG_H2D : MN_LOG_D2H;
  mn_log_begin(ctx, ev);
  int err = to_dev ? ctx->ops->h2d(d, h, n) : ctx->ops->d2h(h, d, n);
  mn_log_end(ctx, ev, (int64_t)n);
  return err;
}

int mn_dev_table(mn_ctx *ctx, const void *h, size_t n, void **d) {
  *d = NULL;
  int err = ctx->ops->dev_alloc(n + 1, d);
  if (!err && n) err = mn_copy_counted(ctx, 1, *d, (char *)h, n);
  if (err && *d) ctx->ops->dev_free(*d, n + 1);
  if (err) *d = NULL;
  return err;
}

int mn_buf_alloc(mn_buf *b, int zero) {
  mn_ctx *ctx = b->lay->ctx;
  const mn_backend_ops *ops = b->ops = ctx->ops;
  int err = 0;
  if (mni_fault_hit(ctx, MNI_FAULT_ARRAY)) {
    err = MN_ERR(MN_ERR_MEM, "cannot allocate %zu bytes (fault injected)", b->nbytes);
  } else if (!ops->dev_alloc) {
    b->host = mn_pool_take(b->nbytes);
    if (!b->host) err = MN_ERR(MN_ERR_MEM, "cannot allocate %zu bytes", b->nbytes);
    else if (zero) memset(b->host, 0, b->nbytes);
    b->valid = MN_VALID_HOST;
  } else {
    void *d = NULL;
    err = ops->dev_alloc(b->nbytes ? b->nbytes : 1, &d);
    if (!err && zero) err = ops->dev_zero(d, b->nbytes);
    if (err && d) ops->dev_free(d, b->nbytes ? b->nbytes : 1);
    b->dev = err ? NULL : d;
    b->valid = MN_VALID_DEV;
  }
  b->lost = err != 0;
  return err;
}

void mn_buf_release_storage(mn_buf *b) {
  const mn_backend_ops *ops = b->ops;
  size_t n = b->nbytes ? b->nbytes : 1;
  if (b->dev) {
    if (!b->borrowed) ops->dev_free(b->dev, n);
    if (b->host) ops->host_free(b->host, n);
  } else {
    mn_pool_give(b->host, b->nbytes);
  }
  b->host = b->dev = NULL;
}

char *mn_buf_sync_host(const mn_buf *cb, int write) {
  mn_buf *b = (mn_buf *)cb;
  mn_ctx *ctx = b->lay->ctx;
  const mn_backend_ops *ops = ctx->ops;
  size_t n = b->nbytes ? b->nbytes : 1;
  if (!b->host && ops->host_alloc(n, (void **)&b->host)) {
    b->host = NULL;
    mn_oom_abort(ctx, n, "the host copy of a device array");
  }
  if (!(b->valid & MN_VALID_HOST) && ops->host_guard) ops->host_guard(b->host, n, 1);
  if (!(b->valid & MN_VALID_HOST) && write != MN_WRITE_ALL) {
    if (mn_copy_counted(ctx, 0, b->dev, b->host, b->nbytes)) mn_device_abort(ctx, "a copy of an array from the device");
    b->valid |= MN_VALID_HOST;
  }
  if (write) b->valid = MN_VALID_HOST;
  return b->host;
}

void mn_buf_read(const mn_buf *b, size_t off, size_t n, void *dst) {
  if (!b->dev || (b->valid & MN_VALID_HOST)) {
    memcpy(dst, mn_buf_host(b, 0) + off, n);
    return;
  }
  mn_ctx *ctx = b->lay->ctx;
  if (mn_copy_counted(ctx, 0, b->dev + off, dst, n)) mn_device_abort(ctx, "a copy of an element from the device");
}

char *mn_buf_dev(const mn_buf *cb, int write) {
  mn_buf *b = (mn_buf *)cb;
  if (!b->dev) return NULL; /* cpu backend, or lost */
  mn_ctx *ctx = b->lay->ctx;
  const mn_backend_ops *ops = ctx->ops;
  if (!(b->valid & MN_VALID_DEV) && write != MN_WRITE_ALL) {
    if (mn_copy_counted(ctx, 1, b->dev, b->host, b->nbytes)) mn_device_abort(ctx, "a copy of an array to the device");
    b->valid |= MN_VALID_DEV;
  }
  if (write) {
    b->valid = MN_VALID_DEV;
    if (b->host && ops->host_guard) ops->host_guard(b->host, b->nbytes ? b->nbytes : 1, 0);
  }
  return b->dev;
}
