/* Preconditioners, set up at a solve and kept for the next ones while the
 * operator is unchanged: none, Jacobi (1 / the operator's diagonal) and
 * the user's shell; the block ones are in pc_block.c. */
#include "solver_impl.h"
#include <stdlib.h>
#include <string.h>

void mni_sv_pc_reset(mn_pc *pc) {
  mni_sv_pc_dev_drop(pc);
  mn_csr_destroy(&pc->own);
  if (pc->dw.a) mni_sv_vecs_free(1, &pc->dw);
  else free(pc->dinv);
  free(pc->val);
  free(pc->dpos);
  memset(pc, 0, sizeof *pc);
}

/* 1 / the diagonal, computed on the host */
static int jacobi_setup(mn_solver *s) {
  mn_pc *pc = &s->pc;
  mn_wvec d;
  MN_CALL(mni_sv_vecs(s, 1, &d));
  int err = mn_op_get_diagonal(s->A, d.a);
  if (!err) err = mni_sv_vecs(s, 1, &pc->dw);
  const double *dh = err ? NULL : mni_sv_host(s, &d, 0);
  double *inv = err ? NULL : mni_sv_host(s, &pc->dw, 1);
  int64_t row0 = mn_split_start(s->A->n, s->ctx->size, s->ctx->rank);
  for (int64_t i = 0; !err && i < pc->n; i++) {
    if (dh[i] == 0 || mni_sv_bad(dh[i]))
      err = MN_ERR(MN_ERR_ARG, "Jacobi needs a finite, nonzero diagonal: row %lld has %g", (long long)(row0 + i),
                   dh[i]);
    else inv[i] = 1.0 / dh[i];
  }
  if (pc->dw.a) {
    mni_sv_dev(s, &pc->dw);
    pc->dinv = pc->dw.v;
  }
  mni_sv_vecs_free(1, &d);
  MN_CALL(mn_agree(s->ctx, err));
  return MN_SUCCESS;
}

/* The operator's contents as a number that changes when they do: a CSR
 * matrix's state, else 0 (unknown: set up again at every solve). */
static uint64_t op_state(const mn_op *op) {
  const mn_csr *A = mni_sv_op_csr(op);
  return A ? mni_csr_state(A) : 0;
}

/* The last solve's set-up serves this one: the same operator, unchanged,
 * and the same method, preconditioner, rows and side. PETSc's PCSetUp
 * likewise does nothing while the operator's state is the same. Every
 * rank decides alike, since a matrix changes only in collective calls. */
static int kept(const mn_solver *s, uint64_t st) {
  const mn_pc *pc = &s->pc;
  return st && pc->state == st && pc->op == s->A && pc->asked == s->pct && pc->ksp == s->ksp && pc->dv == s->dv &&
         pc->n == s->nloc && pc->asked_mat == s->pc_mat;
}

/* Bytes a set-up reads and writes, for the log: Jacobi's diagonal and its
 * inverse; a block's values, columns and factors. A kept one logs none. */
static int64_t setup_bytes(const mn_pc *pc) {
  if (pc->type == MN_PC_JACOBI) return 16 * pc->n;
  if (pc->type == MN_PC_MATRIX) return pc->own ? 12 * mn_csr_nnz(pc->own) : 0;
  return pc->ptr ? 20 * pc->ptr[pc->n] : 0;
}

/* A sparse M: its product, or for a diagonal M its diagonal as Jacobi's
 * scale (the fused update); M as float64 (a copy of another dtype's). */
static int matrix_setup(mn_solver *s) {
  mn_pc *pc = &s->pc;
  const mn_csr *M = s->pc_mat;
  int64_t nr, nc, n = s->A->n;
  mn_csr_shape(M, &nr, &nc);
  MN_CHECK(nr == n && nc == n, MN_ERR_SHAPE, "the preconditioner matrix is %lld x %lld, the operator %lld x %lld",
           (long long)nr, (long long)nc, (long long)n, (long long)n);
  MN_CHECK(mn_csr_ctx(M) == s->ctx, MN_ERR_ARG, "the preconditioner matrix belongs to another context");
  MN_CHECK(mn_csr_dtype(M) == MN_FLOAT64 || mn_csr_dtype(M) == MN_FLOAT32, MN_ERR_DTYPE,
           "the preconditioner matrix must be float64 or float32, not %s", mn_dtype_name(mn_csr_dtype(M)));
  int mine = mni_csr_diagonal_only(M), all = 0;
  mn_allreduce(s->ctx, &mine, &all, 1, MPI_INT, MPI_MIN);
  if (all) {
    MN_CALL(mni_sv_vecs(s, 1, &pc->dw));
    MN_CALL(mn_csr_diagonal(M, pc->dw.a));
    mni_sv_dev(s, &pc->dw);
    pc->dinv = pc->dw.v;
    pc->type = MN_PC_JACOBI;
    return MN_SUCCESS;
  }
  if (mn_csr_dtype(M) != MN_FLOAT64) MN_CALL(mn_csr_copy(M, MN_FLOAT64, &pc->own));
  pc->mat = pc->own ? pc->own : M;
  return MN_SUCCESS;
}

static int pc_setup(mn_solver *s, int64_t *bytes) {
  mn_pc *pc = &s->pc;
  uint64_t st = s->pct == MN_PC_SHELL ? 0 : op_state(s->A);
  if (st && s->pct == MN_PC_MATRIX) st = mn_hash(st, &(uint64_t){mni_csr_state(s->pc_mat)}, 8);
  *bytes = 0;
  if (kept(s, st)) return MN_SUCCESS;
  mni_sv_pc_reset(pc);
  pc->type = s->pct;
  /* the method's own M when no other is asked for (Jacobi's D^-1) */
  if (pc->type == MN_PC_NONE) pc->type = mni_sv_method_of(s->ksp)->pc_default;
  pc->n = s->nloc;
  pc->fn = s->pc_fn;
  pc->user = s->pc_user;
  int err = MN_SUCCESS;
  if (pc->type == MN_PC_JACOBI) err = jacobi_setup(s);
  else if (pc->type == MN_PC_BJACOBI_ILU0 || pc->type == MN_PC_BJACOBI_SGS) err = mni_sv_pc_block_setup(s);
  else if (pc->type == MN_PC_MATRIX) err = matrix_setup(s);
  if (err) {
    mni_sv_pc_reset(pc);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  pc->state = st;
  pc->op = s->A;
  pc->asked = s->pct;
  pc->asked_mat = s->pc_mat;
  pc->ksp = s->ksp;
  pc->dv = s->dv;
  *bytes = setup_bytes(pc);
  return MN_SUCCESS;
}

int mni_sv_pc_setup(mn_solver *s) {
  int64_t bytes;
  mn_log_begin(s->ctx, MN_LOG_SV_SETUP);
  int err = pc_setup(s, &bytes);
  mn_log_end(s->ctx, MN_LOG_SV_SETUP, bytes);
  return err;
}

static int pc_apply(mn_solver *s, const mn_wvec *r, mn_wvec *z) {
  const mn_pc *pc = &s->pc;
  switch (pc->type) {
  case MN_PC_NONE: mni_k_copy(s->dv, pc->n, r->v, z->v); break;
  case MN_PC_JACOBI: mni_k_mul(s->dv, pc->n, pc->dinv, r->v, z->v); break;
  case MN_PC_MATRIX:
    if (s->dv) mni_csr_product_dev(pc->mat, (const char *)r->v, (char *)z->v);
    else MN_CALL(mni_csr_spmv_dot(pc->mat, r->v, z->v, NULL));
    break;
  case MN_PC_SHELL:
    mni_sv_dev(s, r);
    MN_CALL(mni_sv_call_user(s->ctx, pc->fn, pc->user, r->a, z->a));
    mni_sv_dev(s, z);
    break;
  default: /* the block factors' triangular sweeps */
    if (pc->dev) mni_sv_pc_dev_apply(s, r->v, z->v);
    else mni_sv_pc_block_apply(pc, r->v, z->v);
    break;
  }
  return MN_SUCCESS;
}

int mni_sv_pc_apply(mn_solver *s, const mn_wvec *r, mn_wvec *z) {
  mn_log_begin(s->ctx, MN_LOG_SV_PC);
  int err = pc_apply(s, r, z);
  /* r read, z written (and D^-1 for Jacobi); a block's factors left out */
  mn_log_end(s->ctx, MN_LOG_SV_PC, (s->pc.type == MN_PC_JACOBI ? 3 : 2) * 8 * s->nloc);
  return err;
}
