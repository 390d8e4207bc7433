/* The collectives the library offers front ends, so that their transfers
 * go through the context's communicator and are counted like the
 * library's own. */
#include "mn_impl.h"
#include "spmd.h"

enum { PIECE = 1 << 30 }; /* MPI counts are ints */

int mn_ctx_bcast(mn_ctx *ctx, void *buf, int64_t n, int root) {
  MN_CHECK(ctx && (buf || n == 0) && n >= 0, MN_ERR_ARG, "NULL context or buffer, or %lld bytes", (long long)n);
  MN_CHECK(root >= 0 && root < ctx->size, MN_ERR_ARG, "root rank %d outside [0, %d)", root, ctx->size);
  MN_SPMD(ctx, "mn_ctx_bcast", mn_spmd_int(S, "n", n), mn_spmd_int(S, "root", root));
  mn_log_begin(ctx, MN_LOG_BCAST);
  int rc = MPI_SUCCESS;
  for (int64_t off = 0; off < n && rc == MPI_SUCCESS; off += PIECE) {
    int len = (int)(n - off < PIECE ? n - off : PIECE);
    rc = MPI_Bcast((char *)buf + off, len, MPI_BYTE, root, ctx->comm);
  }
  mn_log_end(ctx, MN_LOG_BCAST, n);
  MN_CHECK(rc == MPI_SUCCESS, MN_ERR_MPI, "MPI_Bcast of %lld bytes from rank %d failed (MPI error %d)",
           (long long)n, root, rc);
  return MN_SUCCESS;
}

int mn_ctx_all(mn_ctx *ctx, int ok, int *all) {
  MN_CHECK(ctx && all, MN_ERR_ARG, "NULL context or result");
  int mine = ok != 0;
  int rc = mn_allreduce(ctx, &mine, all, 1, MPI_INT, MPI_MIN);
  MN_CHECK(rc == MPI_SUCCESS, MN_ERR_MPI, "MPI_Allreduce failed (MPI error %d)", rc);
  return MN_SUCCESS;
}

int mn_ctx_sync(mn_ctx *ctx) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  MN_SPMD(ctx, "mn_ctx_sync", (void)S);
  return mn_agree(ctx, MN_SUCCESS);
}

int mn_ctx_wait(mn_ctx *ctx) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  /* a failed kernel's error is sticky on CUDA: no rank can go on */
  if (ctx->ops->sync && ctx->ops->sync()) mn_device_abort(ctx, "a kernel queued on the device");
  return MN_SUCCESS;
}
