/* Stencils on the device: where a call runs (it follows the data), and
 * the backends' launches of a job over a box and of the boundary ghosts.
 * The emulated device runs the CPU loops on device storage inside windows
 * that open only the job's arrays; CUDA runs stencils/cuda/stencil.cu. */
#include "stencil_impl.h"
#include <string.h>
#ifdef MANIPLE_HAVE_CUDA
#include "cuda/stencil_cuda.h"
#define MAXPTS MN_ST_CUDA_MAXPTS
#else
#define MAXPTS 27 /* the CUDA kernel's limit, so every backend decides alike */
#endif

static int on_device(const mn_array *a) {
  const mn_buf *b = a->buf;
  return mn_buf_device_ok(b) && (b->valid & MN_VALID_DEV);
}

int mni_st_dev_ok(const mn_stencil *s) {
  const mn_backend_ops *ops = s->ctx->ops;
  int ok = ops->stencil_box && ops->stencil_bc && ops->copy_box && s->nd <= 3 && s->npts <= MAXPTS;
  /* variable coefficients: their copies (prepared) go to the device once and stay */
  for (int k = 0; ok && k < s->npts; k++) ok = !s->coef[k] || (s->conv[k] && mn_buf_device_ok(s->conv[k]->buf));
  return ok;
}

int mni_st_dev_field(const mn_array *u, const mn_array *y) {
  return on_device(u) && (!y || mn_buf_device_ok(y->buf));
}

/* A failed launch is this rank's alone while its neighbours exchange halos
 * with it: it stops the job, as a plan's device failure does. */
void mni_st_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt) {
  if (!j->dev) mni_st_run_box(j, lo, cnt);
  else if (j->ub->ops->stencil_box(j, lo, cnt)) mn_device_abort(j->ub->lay->ctx, "a stencil launch");
}

/* ---- the emulated device ---- */
static void window(const mn_buf *b, int open, int write) {
  if (!b) return;
  if (open) mni_emu_open(b->dev, b->nbytes, write);
  else mni_emu_close(b->dev, b->nbytes);
}

static void job_windows(const mni_st_job *j, int open) {
  window(j->ub, open, 0);
  window(j->fb, open, 0);
  for (int k = 0; k < j->npts; k++)
    if (j->c[k]) window(j->conv[k]->buf, open, 0);
  window(j->yb, open, 1);
}

int mni_emu_stencil_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt) {
  job_windows(j, 1);
  mni_st_run_box(j, lo, cnt);
  job_windows(j, 0);
  return MN_SUCCESS;
}

int mni_emu_stencil_bc(int dtype, const mn_buf *b, char *o, int nd, const int64_t *n, const int64_t *st,
                       const int *reach, int d, int side, int kind, double value) {
  mni_emu_open(b->dev, b->nbytes, 1);
  mni_st_fill_side(dtype, o, nd, n, st, reach, d, side, kind, value);
  mni_emu_close(b->dev, b->nbytes);
  return MN_SUCCESS;
}

/* ---- CUDA ---- */
#ifdef MANIPLE_HAVE_CUDA
int mni_cuda_stencil_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt) {
  mni_st_cuda_box b;
  memset(&b, 0, sizeof b);
  b.nd = j->nd;
  b.npts = j->npts;
  b.relax = j->relax;
  b.nctr = j->nctr;
  size_t es = mn_dtype_size(j->t);
  int64_t uo = 0, yo = 0, fo = 0;
  for (int d = 0; d < j->nd; d++) {
    b.cnt[d] = cnt[d];
    b.ust[d] = j->ust[d];
    b.yst[d] = j->yst[d];
    b.fst[d] = j->relax ? j->fst[d] : 0;
    uo += lo[d] * j->ust[d];
    yo += lo[d] * j->yst[d];
    fo += lo[d] * b.fst[d];
  }
  for (int k = 0; k < j->npts; k++) {
    b.off[k] = j->off[k];
    b.w[k] = j->wn[k];
  }
  for (int q = 0; q < j->nctr; q++) b.ctr[q] = j->ctr[q];
  int64_t co = 0; /* the coefficients' box origin */
  for (int d = 0; d < j->nd; d++) {
    b.cst[d] = j->cst[d];
    co += lo[d] * j->cst[d];
  }
  for (int k = 0; k < j->npts; k++) b.c[k] = j->c[k] ? j->c[k] + co * (int64_t)es : NULL;
  b.omega = j->omega;
  b.wd = j->wd;
  return mn_cuda_stencil_box(j->t, &b, j->u + uo * (int64_t)es, j->y + yo * (int64_t)es,
                             j->relax ? j->f + fo * (int64_t)es : NULL);
}

int mni_cuda_stencil_bc(int dtype, const mn_buf *b, char *o, int nd, const int64_t *n, const int64_t *st,
                        const int *reach, int d, int side, int kind, double value) {
  (void)b;
  return mn_cuda_stencil_bc(dtype, o, nd, n, st, reach, d, side, kind == MN_BC_DIRICHLET,
                            kind == MN_BC_DIRICHLET_FACE, value);
}
#endif
