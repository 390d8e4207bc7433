/* Block Jacobi preconditioners: each rank works on its own square
 * diagonal block of a CSR operator (no communication in the apply), with
 * ILU(0) (the factors in the block's pattern) or one symmetric
 * Gauss-Seidel sweep (forward then backward, from zero: M = (D + L) D^-1
 * (D + U), symmetric positive definite when the block is). */
#include "solver_impl.h"
#include <math.h>
#include <stdlib.h>

/* ILU(0), row by row (IKJ): row i is reduced by the rows of its L part,
 * in column order, touching only positions already in row i */
static int ilu0(mn_pc *pc, int64_t row0, int64_t *mark) {
  const int64_t n = pc->n, *ptr = pc->ptr, *dpos = pc->dpos;
  const int32_t *col = pc->col;
  double *val = pc->val;
  for (int64_t i = 0; i < n; i++) mark[i] = -1;
  for (int64_t i = 0; i < n; i++) {
    for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) mark[col[k]] = k;
    for (int64_t k = ptr[i]; k < ptr[i + 1] && col[k] < i; k++) {
      int64_t j = col[k];
      double l = val[k] *= pc->dinv[j];
      for (int64_t q = dpos[j] + 1; q < ptr[j + 1]; q++)
        if (mark[col[q]] >= 0) val[mark[col[q]]] -= l * val[q];
    }
    for (int64_t k = ptr[i]; k < ptr[i + 1]; k++) mark[col[k]] = -1;
    double piv = dpos[i] >= 0 ? val[dpos[i]] : 0;
    if (piv == 0 || !isfinite(piv))
      return MN_ERR(MN_ERR_ARG, "ILU(0) met a zero pivot at row %lld (%s)", (long long)(row0 + i),
                    dpos[i] >= 0 ? "the reduced diagonal entry is 0" : "no diagonal entry is stored");
    pc->dinv[i] = 1.0 / piv;
  }
  return MN_SUCCESS;
}

static int sgs(mn_pc *pc, int64_t row0) {
  for (int64_t i = 0; i < pc->n; i++) {
    double d = pc->dpos[i] >= 0 ? pc->val[pc->dpos[i]] : 0;
    if (d == 0 || !isfinite(d))
      return MN_ERR(MN_ERR_ARG, "Gauss-Seidel needs a finite, nonzero diagonal: row %lld has %g", (long long)(row0 + i),
                    d);
    pc->dinv[i] = 1.0 / d;
  }
  return MN_SUCCESS;
}

int mni_sv_pc_block_setup(mn_solver *s) {
  mn_pc *pc = &s->pc;
  const mn_csr *A = mni_sv_op_csr(s->A);
  MN_CHECK(A, MN_ERR_ARG, "%s needs a CSR operator (mn_op_create_csr), not a %s",
           pc->type == MN_PC_BJACOBI_ILU0 ? "bjacobi_ilu0" : "bjacobi_sgs", s->A->ops->name);
  mni_csr_block blk;
  mni_csr_diag_block(A, &blk);
  int64_t n = blk.n, nnz = blk.ptr[n];
  pc->ptr = blk.ptr;
  pc->col = blk.col;
  pc->val = malloc(sizeof(double) * (size_t)(nnz + 1));
  pc->dpos = malloc(sizeof(int64_t) * (size_t)(n + 1));
  pc->dinv = malloc(sizeof(double) * (size_t)(n + 1));
  int64_t *mark = malloc(sizeof(int64_t) * (size_t)(n + 1));
  int err = pc->val && pc->dpos && pc->dinv && mark ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate the block preconditioner");
  if (!err) {
    mni_csr_diag_values(A, pc->val);
    for (int64_t i = 0; i < n; i++) { /* square: my columns are my rows */
      pc->dpos[i] = -1;
      for (int64_t k = blk.ptr[i]; k < blk.ptr[i + 1]; k++)
        if (blk.col[k] == i) pc->dpos[i] = k;
    }
    err = pc->type == MN_PC_BJACOBI_ILU0 ? ilu0(pc, blk.row0, mark) : sgs(pc, blk.row0);
  }
  free(mark);
  if (!err && s->dv) err = mni_sv_pc_dev_setup(s);
  MN_CALL(mn_agree(s->ctx, err));
  return MN_SUCCESS;
}

/* the sweeps row by row, in order (kernels/tri.h's rows) */
void mni_sv_pc_block_apply(const mn_pc *pc, const double *r, double *z) {
  mni_tri_job j = {.ptr = pc->ptr, .dpos = pc->dpos, .col = pc->col, .val = pc->val, .x = z, .out = z};
  if (pc->type == MN_PC_BJACOBI_ILU0) { /* L y = r (unit L), then U z = y */
    j.src = r;
    for (int64_t i = 0; i < pc->n; i++) mni_tri_row(&j, i);
    j.upper = 1;
    j.src = z;
    j.dinv = pc->dinv;
    for (int64_t i = pc->n - 1; i >= 0; i--) mni_tri_row(&j, i);
    return;
  }
  /* forward from z = 0 (the upper part reads zeros); then backward, each
   * row's r - L z (z left of the diagonal: still the forward values) in
   * z[i] before its U part */
  mni_tri_job u = j;
  j.src = r;
  j.dinv = pc->dinv;
  for (int64_t i = 0; i < pc->n; i++) mni_tri_row(&j, i);
  j.dinv = NULL;
  u.upper = 1;
  u.src = z;
  u.dinv = pc->dinv;
  for (int64_t i = pc->n - 1; i >= 0; i--) {
    mni_tri_row(&j, i);
    mni_tri_row(&u, i);
  }
}
