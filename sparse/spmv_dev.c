/* The CSR product on the device: the matrix's blocks moved to the device
 * at the first product (and again after a change of values), the ghost
 * entries gathered by a kernel and staged for MPI while the diagonal
 * block's rows run, then the rows with off-diagonal entries. The same
 * control flow on every device backend: CUDA runs cuSPARSE's SpMV on the
 * diagonal block (its descriptor and work buffer kept with the matrix)
 * and a row kernel on the boundary rows, the emulated device the row body
 * on the host for both. */
#include "csr_impl.h"
#include "backend.h"
#include "kernels/csr.h"
#include <stdlib.h>
#include <string.h>

enum { D_PTR, D_OPTR, D_BROW, D_COL, D_OCOL, D_VAL, D_OVAL, D_PTR32, D_N };

struct mni_csr_dev_s {
  const mn_backend_ops *ops;
  void *t[D_N];      /* the tables, in the order above (ptr32: NULL past 2^31 entries) */
  size_t n[D_N];     /* their bytes (+1) */
  void *keep;        /* what the backend's SpMV keeps (csr_release) */
};

void mni_csr_dev_drop(mn_csr *A) {
  mni_csr_dev *d = A->dev;
  if (!d) return;
  if (d->keep && d->ops->csr_release) d->ops->csr_release(d->keep);
  for (int i = 0; i < D_N; i++)
    if (d->t[i]) d->ops->dev_free(d->t[i], d->n[i]);
  free(d);
  A->dev = NULL;
}

int mni_csr_dev_upload(mn_csr *A) {
  if (A->dev) return MN_SUCCESS;
  mn_ctx *ctx = A->ctx;
  mni_csr_dev *d = calloc(1, sizeof *d);
  MN_CHECK(d, MN_ERR_MEM, "cannot allocate a matrix's device record");
  d->ops = ctx->ops;
  A->dev = d;
  size_t es = mn_dtype_size(A->dtype), np = (size_t)(A->nlocal + 1);
  size_t dn = (size_t)A->dptr[A->nlocal], on = (size_t)A->optr[A->nlocal];
  /* the diagonal block's offsets in 32 bits too, for a library's SpMV */
  int32_t *p32 = dn <= INT32_MAX ? malloc(np * 4) : NULL;
  for (size_t i = 0; p32 && i < np; i++) p32[i] = (int32_t)A->dptr[i];
  const void *h[D_N] = {A->dptr, A->optr, A->brow, A->dcol, A->ocol, A->dval, A->oval, p32};
  size_t bytes[D_N] = {np * 8, np * 8, (size_t)A->nbrow * 8, dn * 4, on * 4, dn * es, on * es, np * 4};
  int err = dn <= INT32_MAX && !p32 ? MN_ERR(MN_ERR_MEM, "cannot allocate %zu row offsets", np) : MN_SUCCESS;
  for (int i = 0; !err && i < D_N; i++) {
    if (!h[i]) continue;
    d->n[i] = bytes[i] + 1;
    err = mn_dev_table(ctx, h[i], bytes[i], &d->t[i]);
  }
  free(p32);
  if (err) mni_csr_dev_drop(A);
  return err;
}

/* y = A x on device vectors (x: my columns, y: my rows); a failure stops
 * the job, since the other ranks wait on this one's ghost messages */
void mni_csr_product_dev(const mn_csr *A, const char *x, char *y) {
  mn_ctx *ctx = A->ctx;
  if (mni_csr_dev_upload((mn_csr *)A)) mn_device_abort(ctx, "moving a matrix to the device");
  mni_csr_dev *d = A->dev;
  const mn_backend_ops *ops = ctx->ops;
  mn_plan *g = A->ghost;
  if (mn_plan_begin_dev(g, (char *)x, NULL)) mn_device_abort(ctx, "sending a product's ghost entries");
  mn_csr_job j = {.dtype = A->dtype, .n = A->nlocal, .ptr = d->t[D_PTR], .ptr32 = d->t[D_PTR32], .col = d->t[D_COL],
                  .val = d->t[D_VAL], .x = x, .y = y, .keep = (void **)&d->keep, .nptr = A->nlocal + 1,
                  .nnz = A->dptr[A->nlocal], .nx = A->ncloc, .ny = A->nlocal};
  if (ops->csr_rows(&j)) mn_device_abort(ctx, "the diagonal block's rows");
  if (mn_plan_end(g)) mn_device_abort(ctx, "receiving a product's ghost entries");
  if (A->nbrow) {
    mn_csr_job o = {.dtype = A->dtype, .add = 1, .n = A->nbrow, .rows = d->t[D_BROW], .ptr = d->t[D_OPTR],
                    .col = d->t[D_OCOL], .val = d->t[D_OVAL], .x = g->drecv, .y = y, .nptr = A->nlocal + 1, .nnz = A->optr[A->nlocal],
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
  size_t es = mn_dtype_size((mn_dtype)j->dtype), nr = j->rows ? (size_t)j->n * 8 : 0;
  /* a whole block with 32-bit offsets is CUDA's cuSPARSE product: the
   * row body on those offsets in its place */
  const int32_t *p32 = !j->rows && !j->add && j->keep ? j->ptr32 : NULL;
  const void *in[6] = {j->rows, p32 ? NULL : j->ptr, p32, j->col, j->val, j->x};
  size_t len[6] = {nr, (size_t)j->nptr * 8, (size_t)j->nptr * 4, (size_t)j->nnz * 4, (size_t)j->nnz * es,
                   (size_t)j->nx * es};
  for (int i = 0; i < 6; i++)
    if (in[i]) open_ro(in[i], len[i]);
  if (j->ny) mni_emu_open(j->y, (size_t)j->ny * es, 1);
  for (int64_t b = 0; b < j->n; b++) {
    int64_t i = j->rows ? j->rows[b] : b;
    int64_t k0 = p32 ? p32[i] : j->ptr[i], k1 = p32 ? p32[i + 1] : j->ptr[i + 1];
#define EMU_ROW(T, S)                                                                  \
  do {                                                                                 \
    T s = mni_k_csr_row_##S(k0, k1, j->col, j->val, j->x), *y = j->y;                  \
    y[i] = j->add ? mni_k_csr_plus_##S(y[i], s) : s;                                   \
  } while (0)
#define EMU_CASE(D, T, S) case D: EMU_ROW(T, S); break;
    switch (j->dtype) {
    case MN_FLOAT64: EMU_ROW(double, f64); break;
    MNI_CSR_OTHER_TYPES(EMU_CASE)
    default: break;
    }
#undef EMU_CASE
#undef EMU_ROW
  }
  for (int i = 0; i < 6; i++)
    if (in[i]) shut(in[i], len[i]);
  shut(j->y, (size_t)j->ny * es);
  return MN_SUCCESS;
}
