/* The CSR product on the device: the matrix's blocks moved to the device
 * at the first product (and again after a change of values), the ghost
 * entries gathered by a kernel and staged for MPI while the diagonal
 * block's rows run, then the rows with off-diagonal entries. The same
 * control flow on every device backend: CUDA runs the rows kernel, the
 * emulated device the same row body on the host. */
#include "csr_impl.h"
#include "backend.h"
#include "kernels/csr.h"
#include <stdlib.h>
#include <string.h>

struct mni_csr_dev_s {
  const mn_backend_ops *ops;
  int64_t *dptr, *optr, *brow;
  int32_t *dcol, *ocol;
  void *dval, *oval;
  size_t n[7]; /* bytes of each, in the order above */
};

void mni_csr_dev_drop(mn_csr *A) {
  mni_csr_dev *d = A->dev;
  if (!d) return;
  void *p[7] = {d->dptr, d->optr, d->brow, d->dcol, d->ocol, d->dval, d->oval};
  for (int i = 0; i < 7; i++)
    if (p[i]) d->ops->dev_free(p[i], d->n[i]);
  free(d);
  A->dev = NULL;
}

/* one host table to a new device one, its size kept for the release */
static int up(mn_ctx *ctx, const void *h, size_t n, size_t *keep, void *out) {
  *keep = n + 1;
  return mn_dev_table(ctx, h, n, (void **)out);
}

int mni_csr_dev_upload(mn_csr *A) {
  if (A->dev) return MN_SUCCESS;
  mn_ctx *ctx = A->ctx;
  mni_csr_dev *d = calloc(1, sizeof *d);
  MN_CHECK(d, MN_ERR_MEM, "cannot allocate a matrix's device record");
  d->ops = ctx->ops;
  A->dev = d;
  size_t es = mn_dtype_size(A->dtype), np = (size_t)(A->nlocal + 1) * 8;
  size_t dn = (size_t)A->dptr[A->nlocal], on = (size_t)A->optr[A->nlocal];
  int err = up(ctx, A->dptr, np, &d->n[0], &d->dptr);
  if (!err) err = up(ctx, A->optr, np, &d->n[1], &d->optr);
  if (!err) err = up(ctx, A->brow, (size_t)A->nbrow * 8, &d->n[2], &d->brow);
  if (!err) err = up(ctx, A->dcol, dn * 4, &d->n[3], &d->dcol);
  if (!err) err = up(ctx, A->ocol, on * 4, &d->n[4], &d->ocol);
  if (!err) err = up(ctx, A->dval, dn * es, &d->n[5], &d->dval);
  if (!err) err = up(ctx, A->oval, on * es, &d->n[6], &d->oval);
  if (err) mni_csr_dev_drop(A);
  return err;
}

/* y = A x on device vectors (x: my columns, y: my rows); a failure stops
 * the job, since the other ranks wait on this one's ghost messages */
void mni_csr_product_dev(const mn_csr *A, const char *x, char *y) {
  mn_ctx *ctx = A->ctx;
  if (mni_csr_dev_upload((mn_csr *)A)) mn_device_abort(ctx, "moving a matrix to the device");
  const mni_csr_dev *d = A->dev;
  const mn_backend_ops *ops = ctx->ops;
  mn_plan *g = A->ghost;
  if (mn_plan_begin_dev(g, (char *)x, NULL)) mn_device_abort(ctx, "sending a product's ghost entries");
  mn_csr_job j = {.dtype = A->dtype, .n = A->nlocal, .ptr = d->dptr, .col = d->dcol, .val = d->dval, .x = x,
                  .y = y, .nptr = A->nlocal + 1, .nnz = A->dptr[A->nlocal], .nx = A->ncloc, .ny = A->nlocal};
  if (ops->csr_rows(&j)) mn_device_abort(ctx, "the diagonal block's rows");
  if (mn_plan_end(g)) mn_device_abort(ctx, "receiving a product's ghost entries");
  if (A->nbrow) {
    mn_csr_job o = {.dtype = A->dtype, .add = 1, .n = A->nbrow, .rows = d->brow, .ptr = d->optr, .col = d->ocol,
                    .val = d->oval, .x = g->drecv, .y = y, .nptr = A->nlocal + 1, .nnz = A->optr[A->nlocal],
                    .nx = A->nghost, .ny = A->nlocal};
    if (ops->csr_rows(&o)) mn_device_abort(ctx, "the off-diagonal block's rows");
  }
}

/* ---- the emulated device's launches: the host bodies inside windows ---- */
static void open_ro(const void *p, size_t n) {
  if (n) mni_emu_open(p, n, 0);
}
static void shut(const void *p, size_t n) {
  if (n) mni_emu_close(p, n);
}

int mni_emu_csr_rows(const mn_csr_job *j) {
  size_t es = j->dtype == MN_FLOAT64 ? 8 : 4, nr = j->rows ? (size_t)j->n * 8 : 0;
  const void *in[5] = {j->rows, j->ptr, j->col, j->val, j->x};
  size_t len[5] = {nr, (size_t)j->nptr * 8, (size_t)j->nnz * 4, (size_t)j->nnz * es, (size_t)j->nx * es};
  for (int i = 0; i < 5; i++) open_ro(in[i], len[i]);
  if (j->ny) mni_emu_open(j->y, (size_t)j->ny * es, 1);
  for (int64_t b = 0; b < j->n; b++) {
    int64_t i = j->rows ? j->rows[b] : b;
    if (j->dtype == MN_FLOAT64) {
      double s = mni_k_csr_row_f64(j->ptr[i], j->ptr[i + 1], j->col, j->val, j->x), *y = j->y;
      y[i] = j->add ? y[i] + s : s;
    } else {
      float s = mni_k_csr_row_f32(j->ptr[i], j->ptr[i + 1], j->col, j->val, j->x), *y = j->y;
      y[i] = j->add ? y[i] + s : s;
    }
  }
  for (int i = 0; i < 5; i++) shut(in[i], len[i]);
  shut(j->y, (size_t)j->ny * es);
  return MN_SUCCESS;
}
