/* The block Jacobi preconditioners on a device: the factors (computed on
 * the host once per solve, pc_block.c) move to the device with each
 * sweep's level schedule, and an apply is one launch per level
 * (kernels/tri.h), so an iteration copies nothing for its
 * preconditioner. Each row's sum is the host loop's, in the same order:
 * the same z to the last bit. */
#include "solver_impl.h"
#include "backend.h"
#include <stdlib.h>
#include <string.h>

enum { T_PTR, T_DPOS, T_COL, T_VAL, T_DINV, T_LROWS, T_UROWS, T_N };

struct mni_pc_dev_s {
  const mn_backend_ops *ops;
  void *t[T_N];
  size_t n[T_N];
  int64_t *off[2]; /* level l of sweep s: rows[s][off[s][l] .. off[s][l + 1]) */
  int nlev[2];
  mn_wvec w;       /* SGS: the backward sweep's right-hand side */
};

void mni_sv_pc_dev_drop(mn_pc *pc) {
  mni_pc_dev *d = pc->dev;
  if (!d) return;
  for (int i = 0; i < T_N; i++)
    if (d->t[i]) d->ops->dev_free(d->t[i], d->n[i]);
  free(d->off[0]);
  free(d->off[1]);
  if (d->w.a) mni_sv_vecs_free(1, &d->w);
  free(d);
  pc->dev = NULL;
}

/* rows ordered by level of one sweep (stable: by index within a level):
 * a row's level is one more than the highest of the rows its entries on
 * that side name, 0 with none */
static int levels(const mn_pc *pc, int upper, int64_t *rows, int64_t **off, int *nlev) {
  int64_t n = pc->n, top = -1, *lev = malloc(sizeof(int64_t) * (size_t)(n + 1));
  MN_CHECK(lev, MN_ERR_MEM, "cannot allocate a preconditioner's levels");
  for (int64_t q = 0; q < n; q++) {
    int64_t i = upper ? n - 1 - q : q, l = 0;
    int64_t k = upper ? pc->dpos[i] + 1 : pc->ptr[i], e = upper ? pc->ptr[i + 1] : pc->dpos[i];
    for (; k < e; k++)
      if (lev[pc->col[k]] + 1 > l) l = lev[pc->col[k]] + 1;
    lev[i] = l;
    if (l > top) top = l;
  }
  *nlev = (int)(top + 1);
  *off = calloc((size_t)top + 2, sizeof(int64_t));
  if (!*off) {
    free(lev);
    return MN_ERR(MN_ERR_MEM, "cannot allocate a preconditioner's levels");
  }
  for (int64_t i = 0; i < n; i++) (*off)[lev[i] + 1]++;
  for (int64_t l = 0; l <= top; l++) (*off)[l + 1] += (*off)[l];
  int64_t *at = malloc(sizeof(int64_t) * (size_t)(top + 2));
  if (at) {
    memcpy(at, *off, sizeof(int64_t) * (size_t)(top + 1));
    for (int64_t i = 0; i < n; i++) rows[at[lev[i]]++] = i;
  }
  free(at);
  free(lev);
  MN_CHECK(at, MN_ERR_MEM, "cannot allocate a preconditioner's levels");
  return MN_SUCCESS;
}

int mni_sv_pc_dev_setup(mn_solver *s) {
  mn_pc *pc = &s->pc;
  mn_ctx *dv = s->dv;
  mni_pc_dev *d = calloc(1, sizeof *d);
  MN_CHECK(d, MN_ERR_MEM, "cannot allocate a preconditioner's device record");
  d->ops = dv->ops;
  pc->dev = d;
  int64_t n = pc->n, nnz = pc->ptr[n];
  int64_t *rows = malloc(sizeof(int64_t) * (size_t)(2 * n + 1));
  int err = rows ? MN_SUCCESS : MN_ERR(MN_ERR_MEM, "cannot allocate a preconditioner's levels");
  for (int u = 0; !err && u < 2; u++) err = levels(pc, u, rows + u * n, &d->off[u], &d->nlev[u]);
  const void *h[T_N] = {pc->ptr, pc->dpos, pc->col, pc->val, pc->dinv, rows, rows + n};
  size_t bytes[T_N] = {(size_t)(n + 1) * 8, (size_t)n * 8, (size_t)nnz * 4, (size_t)nnz * 8, (size_t)n * 8,
                       (size_t)n * 8, (size_t)n * 8};
  for (int i = 0; !err && i < T_N; i++) {
    d->n[i] = bytes[i] + 1;
    err = mn_dev_table(dv, h[i], bytes[i], &d->t[i]);
  }
  free(rows);
  if (!err && pc->type == MN_PC_BJACOBI_SGS) err = mni_sv_vecs(s, 1, &d->w);
  if (err) mni_sv_pc_dev_drop(pc);
  return err;
}

/* one sweep: a launch per level */
static void sweep(mn_ctx *dv, const mni_pc_dev *d, int upper, const double *src, double *out, int scale) {
  mni_tri_job j = {.upper = upper, .ptr = d->t[T_PTR], .dpos = d->t[T_DPOS], .col = d->t[T_COL],
                   .val = d->t[T_VAL], .dinv = scale ? d->t[T_DINV] : NULL, .src = src, .x = out, .out = out,
                   .nrows = (int64_t)(d->n[T_DPOS] - 1) / 8, .nnz = (int64_t)(d->n[T_VAL] - 1) / 8};
  const int64_t *rows = d->t[upper ? T_UROWS : T_LROWS], *off = d->off[upper];
  for (int l = 0; l < d->nlev[upper]; l++) {
    j.rows = rows + off[l];
    j.n = off[l + 1] - off[l];
    if (dv->ops->tri(&j)) mn_device_abort(dv, "a preconditioner's triangular sweep");
  }
}

/* z = M^-1 r on device vectors */
void mni_sv_pc_dev_apply(mn_solver *s, const double *r, double *z) {
  const mn_pc *pc = &s->pc;
  const mni_pc_dev *d = pc->dev;
  if (pc->type == MN_PC_BJACOBI_ILU0) { /* L y = r (unit L), then U z = y */
    sweep(s->dv, d, 0, r, z, 0);
    sweep(s->dv, d, 1, z, z, 1);
    return;
  }
  /* forward from z = 0; then w = r - L z, all rows at once (the backward
   * sweep still reads the forward values left of the diagonal), and the
   * backward sweep on w */
  sweep(s->dv, d, 0, r, z, 1);
  mni_tri_job j = {.upper = 0, .n = pc->n, .ptr = d->t[T_PTR], .dpos = d->t[T_DPOS], .col = d->t[T_COL],
                   .val = d->t[T_VAL], .src = r, .x = z, .out = d->w.v, .nrows = pc->n,
                   .nnz = (int64_t)(d->n[T_VAL] - 1) / 8};
  if (pc->n && s->dv->ops->tri(&j)) mn_device_abort(s->dv, "a preconditioner's triangular sweep");
  sweep(s->dv, d, 1, d->w.v, z, 1);
}

/* The emulated device's launch: the tables and vectors opened, the rows
 * run in order (any order gives the same values: they are independent). */
int mni_emu_tri(const mni_tri_job *j) {
  if (!j->n) return MN_SUCCESS;
  size_t nr = (size_t)j->nrows * 8, nz = (size_t)j->nnz;
  const void *in[8] = {j->rows, j->ptr, j->dpos, j->col, j->val, j->dinv, j->src, j->x};
  size_t len[8] = {(size_t)j->n * 8, nr + 8, nr, nz * 4, nz * 8, nr, nr, nr};
  for (int i = 0; i < 8; i++)
    if (in[i] && in[i] != j->out && len[i]) mni_emu_open(in[i], len[i], 0);
  mni_emu_open(j->out, nr, 1); /* after the reads: a shared page stays writable */
  for (int64_t b = 0; b < j->n; b++) mni_tri_row(j, b);
  for (int i = 0; i < 8; i++)
    if (in[i] && len[i]) mni_emu_close(in[i], len[i]);
  mni_emu_close(j->out, nr);
  return MN_SUCCESS;
}
