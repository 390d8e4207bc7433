/* y = A u: start every field's halo exchange, compute the interior points
 * while the messages travel, complete the exchanges, fill the boundary
 * ghosts, then compute the boundary strips. */
#include "stencil_impl.h"
#include "spmd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void shape_str(int nd, const int64_t *sh, char *buf, size_t n) {
  size_t k = 0;
  buf[0] = 0;
  for (int d = 0; d < nd && k < n; d++)
    k += (size_t)snprintf(buf + k, n - k, d ? " x %lld" : "%lld", (long long)sh[d]);
}

static int same_layout(const mn_layout *a, const mn_layout *b) {
  if (a == b) return 1;
  if (a->kind != b->kind || a->ndim != b->ndim) return 0;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d] || a->dims[d] != b->dims[d]) return 0;
  return 1;
}

int mni_st_check_grid(const mn_stencil *s, const mn_array *u) {
  MN_CHECK(u, MN_ERR_ARG, "NULL grid array");
  MN_CHECK(u->ctx == s->ctx, MN_ERR_ARG, "grid array belongs to another context");
  MN_CHECK(!u->is_view, MN_ERR_ARG,
           "the grid must be a base array with a halo (mn_array_create(ctx, dtype, nd, shape, halo, &u)), not a view");
  MN_CHECK(mn_is_float(u->dtype), MN_ERR_DTYPE, "stencils work on float32 or float64 grids, not %s",
           mn_dtype_name(u->dtype));
  MN_CHECK(u->map.ndim == s->nd, MN_ERR_SHAPE, "a %d-d stencil cannot act on a %d-d grid", s->nd, u->map.ndim);
  const mn_buf *b = u->buf;
  MN_CHECK(b->lay->kind == MN_LAYOUT_BLOCK, MN_ERR_ARG, "the grid needs a block layout");
  for (int d = 0; d < s->nd; d++) {
    int r = s->reach[d];
    MN_CHECK(u->map.shape[d] >= r, MN_ERR_SHAPE,
             "grid smaller than the stencil: axis %d has extent %lld, the stencil reaches %d", d,
             (long long)u->map.shape[d], r);
    MN_CHECK(b->halo >= r, MN_ERR_SHAPE,
             "grid halo width %d is narrower than the stencil's reach %d on axis %d (create the grid with halo >= %d)",
             b->halo, r, d, s->maxreach);
    int64_t own = b->hi[d] - b->lo[d];
    MN_CHECK(own == 0 || own >= r, MN_ERR_SHAPE,
             "grid smaller than the stencil: this rank's block has extent %lld on axis %d, the stencil reaches %d",
             (long long)own, d, r);
  }
  for (int k = 0; k < s->npts; k++) {
    if (!s->coef[k]) continue;
    char a[160], c[160];
    shape_str(s->nd, u->map.shape, a, sizeof a);
    shape_str(s->nd, s->coef[k]->map.shape, c, sizeof c);
    MN_CHECK(!memcmp(u->map.shape, s->coef[k]->map.shape, sizeof(int64_t) * (size_t)s->nd), MN_ERR_SHAPE,
             "coefficient array of point %d has shape %s, the grid %s", k, c, a);
  }
  return MN_SUCCESS;
}

int mni_st_check_same_shape(const mn_array *u, const mn_array *y, const char *what) {
  MN_CHECK(y, MN_ERR_ARG, "NULL %s", what);
  MN_CHECK(y->ctx == u->ctx, MN_ERR_ARG, "%s belongs to another context", what);
  int same = y->map.ndim == u->map.ndim &&
             !memcmp(y->map.shape, u->map.shape, sizeof(int64_t) * (size_t)u->map.ndim);
  if (!same) {
    char a[160], b[160];
    shape_str(u->map.ndim, u->map.shape, a, sizeof a);
    shape_str(y->map.ndim, y->map.shape, b, sizeof b);
    return MN_ERR(MN_ERR_SHAPE, "%s has shape %s (%d-d), the grid %s (%d-d)", what, b, y->map.ndim, a, u->map.ndim);
  }
  return MN_SUCCESS;
}

int mni_st_direct(const mn_array *a, const mn_array *u) {
  return !a->is_view && a->dtype == u->dtype && a->buf != u->buf && same_layout(a->buf->lay, u->buf->lay);
}

int mni_st_prepare_coef(mn_stencil *s, const mn_array *u) {
  for (int k = 0; k < s->npts; k++) {
    mn_array *c = s->coef[k], **v = &s->conv[k];
    if (!c) continue;
    if (*v && (*v)->dtype == u->dtype && same_layout((*v)->buf->lay, u->buf->lay)) continue;
    mn_array_destroy(v);
    if (c->dtype == u->dtype && same_layout(c->buf->lay, u->buf->lay)) {
      /* the copy itself serves: a second handle on its storage */
      MN_CALL(mn_array_index(c, 0, NULL, v));
      continue;
    }
    MN_CALL(mn_array_create_on(u->buf->lay, u->dtype, 0, v));
    int err = mn_array_copy(c, *v);
    if (err) {
      mn_array_destroy(v);
      return mn_trace(err, __FILE__, __LINE__, __func__);
    }
  }
  return MN_SUCCESS;
}

static int check_fields(const mn_stencil *s, int nf, mn_array *const *u, mn_array *const *y) {
  for (int i = 0; i < nf; i++) {
    MN_CALL(mni_st_check_grid(s, u[i]));
    MN_CALL(mni_st_check_same_shape(u[i], y[i], "output y"));
    if (i == 0) continue;
    MN_CHECK(u[i]->dtype == u[0]->dtype, MN_ERR_DTYPE, "field %d is %s, field 0 %s: fields of one call share a dtype",
             i, mn_dtype_name(u[i]->dtype), mn_dtype_name(u[0]->dtype));
    MN_CALL(mni_st_check_same_shape(u[0], u[i], "a field"));
    MN_CHECK(same_layout(u[i]->buf->lay, u[0]->buf->lay), MN_ERR_ARG,
             "field %d is split over another process grid than field 0", i);
    for (int k = 0; k < i; k++)
      MN_CHECK(u[i]->buf != u[k]->buf, MN_ERR_ARG, "fields %d and %d are the same grid", k, i);
  }
  return MN_SUCCESS;
}

static int apply_many(mn_stencil *s, int nf, mn_array *const *u, mn_array *const *y) {
  MN_CALL(mni_st_keep_get(s, nf, u, nf, check_fields(s, nf, u, y)));
  mn_plan **plan = s->keep.plan;
  mni_st_job *job = s->keep.job;
  mn_array **tmp = s->keep.tmp;
  int err = MN_SUCCESS;
  MN_CALL(mni_st_prepare_coef(s, u[0]));
  /* an output that is not a plain grid of u's layout (or is one of the
   * inputs) gets a temporary: a collective create, with its own agreement */
  for (int i = 0; i < nf; i++) {
    int direct = mni_st_direct(y[i], u[i]);
    for (int k = 0; k < nf && direct; k++) direct = y[i]->buf != u[k]->buf;
    if (!direct) MN_CALLG(err, mn_array_create_on(u[i]->buf->lay, u[i]->dtype, 0, &tmp[i]), done);
  }
  int dev = mni_st_dev_ok(s);
  for (int i = 0; i < nf; i++) dev = dev && mni_st_dev_field(u[i], tmp[i] ? tmp[i] : y[i]);
  for (int i = 0; i < nf; i++) mni_st_job_init(s, u[i], tmp[i] ? tmp[i] : y[i], NULL, 0, dev, &job[i]);

  int64_t n[MN_MAXDIM], lo[MN_MAXDIM], cnt[MN_MAXDIM], slo[2 * MN_MAXDIM][MN_MAXDIM], scnt[2 * MN_MAXDIM][MN_MAXDIM];
  int owned = mn_map_owned_box(&u[0]->map, u[0]->buf->lay, s->ctx->rank, lo, n);
  int begun = 0;
  for (; begun < nf && !err; begun++) err = mn_plan_begin_buf(plan[begun], u[begun]->buf); /* where u is */
  if (err) begun--; /* the failed one is not active */
  if (!err && owned && mni_st_interior(s->nd, n, s->reach, lo, cnt))
    for (int i = 0; i < nf; i++) mni_st_box(&job[i], lo, cnt);
  for (int i = 0; i < begun; i++) {
    int e = mn_plan_end(plan[i]);
    if (!err) err = e;
  }
  if (err) {
    mn_trace(err, __FILE__, __LINE__, __func__);
    goto done;
  }
  int nb = owned ? mni_st_strips(s->nd, n, s->reach, slo, scnt) : 0;
  for (int i = 0; i < nf; i++) {
    mni_st_fill_bc(s, u[i]);
    for (int q = 0; q < nb; q++) mni_st_box(&job[i], slo[q], scnt[q]);
  }
  for (int i = 0; i < nf; i++)
    if (tmp[i]) MN_CALLG(err, mn_array_copy(tmp[i], y[i]), done);
done:
  for (int i = 0; i < nf; i++) mn_array_destroy(&tmp[i]); /* the slots are NULL again */
  return err;
}

/* bytes a pass reads and writes, for the log: each grid point of u read
 * and of y written once per field (an estimate: coefficients left out) */
int64_t mni_st_log_bytes(const mn_array *u, int nf, int passes) {
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM];
  if (!mn_map_owned_box(&u->map, u->buf->lay, u->ctx->rank, lo, cnt)) return 0;
  return (int64_t)nf * passes * mn_box_size(u->map.ndim, cnt) * (int64_t)mn_dtype_size(u->dtype);
}

int mn_stencil_apply_many(mn_stencil *s, int nf, mn_array *const *u, mn_array *const *y) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  MN_CHECK(nf >= 1 && u && y, MN_ERR_ARG, "need nf >= 1 fields (got %d) and their arrays", nf);
  MN_SPMD(s->ctx, "mn_stencil_apply_many", mn_spmd_int(S, "nf", nf), mn_spmd_array(S, "u[0]", u[0]),
          mn_spmd_array(S, "y[0]", y[0]), mn_spmd_array(S, "u[last]", u[nf - 1]),
          mn_spmd_array(S, "y[last]", y[nf - 1]));
  for (int i = 0; i < nf; i++) { /* storage lost to a deferred error stops the job here */
    if (u[i]) mn_buf_need(s->ctx, u[i]->buf, "mn_stencil_apply");
    if (y[i]) mn_buf_need(s->ctx, y[i]->buf, "mn_stencil_apply");
  }
  mn_log_begin(s->ctx, MN_LOG_STENCIL);
  int err = apply_many(s, nf, u, y);
  mn_log_end(s->ctx, MN_LOG_STENCIL, err || !u[0] || !mn_log_on(s->ctx) ? 0 : mni_st_log_bytes(u[0], nf, 2));
  return err;
}

int mn_stencil_apply(mn_stencil *s, mn_array *u, mn_array *y) {
  MN_CALL(mn_stencil_apply_many(s, 1, &u, &y));
  return MN_SUCCESS;
}
