/* Weighted Jacobi sweeps u <- u + omega D^-1 (f - A u), ping-ponging
 * between u and a work grid of u's layout (each sweep overlaps its halo
 * exchange with the interior, as apply does), so no sweep copies; an odd
 * count copies the last result back once. The work grid stays with the
 * stencil for the next call (a time loop calling one sweep at a time
 * would otherwise fault in a fresh grid each call), as do its plan and
 * jobs (keep.c): a call on the grid of the last one makes no collective
 * beyond its halo messages. */
#include "stencil_impl.h"
#include "spmd.h"
#include <math.h>
#include <string.h>

static int jacobi(mn_stencil *s, mn_array *u, const mn_array *f, double omega, int sweeps) {
  mn_array *ftmp = NULL;
  int err = mni_st_check_grid(s, u);
  if (!err) err = mni_st_check_same_shape(u, f, "right-hand side f");
  if (!err && !isfinite(omega)) err = MN_ERR(MN_ERR_ARG, "omega = %g is not finite", omega);
  if (!err && sweeps < 0) err = MN_ERR(MN_ERR_ARG, "sweeps = %d is negative", sweeps);
  if (!err && s->nctr == 0)
    err = MN_ERR(MN_ERR_ARG, "Jacobi needs a centre point (offset 0 on every axis); this stencil has none");
  if (!err && !s->ncoef) {
    double d = 0;
    for (int q = 0; q < s->nctr; q++) d += s->w[s->ctr[q]];
    if (d == 0) err = MN_ERR(MN_ERR_ARG, "the centre weight D is 0: Jacobi divides by it");
  }
  MN_CALL(mni_st_keep_get(s, 1, &u, 2, err));
  if (sweeps == 0) return MN_SUCCESS;
  mn_plan *plan = s->keep.plan[0];
  mni_st_job *job = s->keep.job;
  MN_CALLG(err, mni_st_prepare_coef(s, u), done);
  mn_array *w = s->work;
  if (!w || w->dtype != u->dtype || w->buf->halo != u->buf->halo || !mni_st_direct(w, u)) {
    mn_array_destroy(&s->work);
    MN_CALLG(err, mn_array_create_on(u->buf->lay, u->dtype, u->buf->halo, &s->work), done);
    w = s->work;
  }
  const mn_array *fd = f;
  if (!mni_st_direct(f, u)) {
    MN_CALLG(err, mn_array_create_on(u->buf->lay, u->dtype, 0, &ftmp), done);
    MN_CALLG(err, mn_array_copy(f, ftmp), done);
    fd = ftmp;
  }
  /* job 0: u -> w, job 1: w -> u; w has u's halo, so u's plan serves both */
  int dev = mni_st_dev_ok(s) && mni_st_dev_field(u, w) && mni_st_dev_field(fd, NULL);
  mni_st_job_init(s, u, w, fd, omega, dev, &job[0]);
  mni_st_job_init(s, w, u, fd, omega, dev, &job[1]);
  int64_t n[MN_MAXDIM], lo[MN_MAXDIM], cnt[MN_MAXDIM], slo[2 * MN_MAXDIM][MN_MAXDIM], scnt[2 * MN_MAXDIM][MN_MAXDIM];
  int owned = mn_map_owned_box(&u->map, u->buf->lay, s->ctx->rank, lo, n);
  int inner = owned && mni_st_interior(s->nd, n, s->reach, lo, cnt);
  int nb = owned ? mni_st_strips(s->nd, n, s->reach, slo, scnt) : 0;
  for (int k = 0; k < sweeps; k++) {
    mn_array *src = k % 2 ? w : u;
    const mni_st_job *j = &job[k % 2];
    MN_CALLG(err, mn_plan_begin_buf(plan, src->buf), done); /* where src is */
    if (inner) mni_st_box(j, lo, cnt);
    MN_CALLG(err, mn_plan_end(plan), done);
    mni_st_fill_bc(s, src);
    for (int q = 0; q < nb; q++) mni_st_box(j, slo[q], scnt[q]);
  }
  if (sweeps % 2 && owned) MN_CALLG(err, mni_st_copy_owned(w, u, dev), done); /* the result is in w */
done:
  mn_array_destroy(&ftmp);
  return err;
}

int mn_stencil_jacobi(mn_stencil *s, mn_array *u, const mn_array *f, double omega, int sweeps) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  MN_SPMD(s ? s->ctx : NULL, "mn_stencil_jacobi", mn_spmd_array(S, "u", u), mn_spmd_array(S, "f", f),
          mn_spmd_f64(S, "omega", omega), mn_spmd_int(S, "sweeps", sweeps));
  if (u) mn_buf_need(s->ctx, u->buf, "mn_stencil_jacobi"); /* storage lost: stop here */
  if (f) mn_buf_need(s->ctx, f->buf, "mn_stencil_jacobi");
  mn_log_begin(s->ctx, MN_LOG_STENCIL);
  int err = jacobi(s, u, f, omega, sweeps);
  /* per sweep: the grid and f read, the other grid written */
  mn_log_end(s->ctx, MN_LOG_STENCIL,
             err || !u || sweeps <= 0 || !mn_log_on(s->ctx) ? 0 : mni_st_log_bytes(u, 1, 3 * sweeps));
  return err;
}
