/* Views: basic indexing, transposition and broadcasting as affine maps on
 * the base array, so writes through a view land in the base. A view's
 * errors follow from global metadata (shapes, indices, axes), so every
 * rank finds the same one with no communication: creating a view makes
 * no collective call (MANIPLE_CHECKS=1 verifies that the ranks passed the
 * same arguments). */
#include "mn_impl.h"
#include "spmd.h"
#include <string.h>

mn_index mn_slice(int64_t start, int64_t stop, int64_t step) {
  mn_index i = {MN_IDX_SLICE, start, stop, step, 0};
  return i;
}
mn_index mn_all(void) { return mn_slice(MN_NONE, MN_NONE, MN_NONE); }
mn_index mn_at(int64_t index) {
  mn_index i = {MN_IDX_INT, 0, 0, 1, index};
  return i;
}
mn_index mn_newaxis(void) {
  mn_index i = {MN_IDX_NEWAXIS, 0, 0, 1, 0};
  return i;
}

/* Python slice semantics on extent n, strict about bounds outside [-n, n]. */
static int norm_slice(const mn_index *s, int64_t n, int axis, int64_t *start,
                      int64_t *step, int64_t *len) {
  int64_t st = s->step == MN_NONE ? 1 : s->step;
  MN_CHECK(st != 0, MN_ERR_INDEX, "slice step is zero on axis %d", axis);
  if (s->start != MN_NONE)
    MN_CHECK(s->start >= -n && s->start <= n, MN_ERR_INDEX,
             "slice start %lld out of range for axis %d with extent %lld",
             (long long)s->start, axis, (long long)n);
  if (s->stop != MN_NONE)
    MN_CHECK(s->stop >= -n && s->stop <= n, MN_ERR_INDEX,
             "slice stop %lld out of range for axis %d with extent %lld",
             (long long)s->stop, axis, (long long)n);
  int64_t a, b;
  if (st > 0) {
    a = s->start == MN_NONE ? 0 : (s->start < 0 ? s->start + n : s->start);
    b = s->stop == MN_NONE ? n : (s->stop < 0 ? s->stop + n : s->stop);
    *len = b > a ? (b - a - 1) / st + 1 : 0; /* no overflow for huge steps */
  } else {
    a = s->start == MN_NONE ? n - 1 : (s->start < 0 ? s->start + n : s->start);
    if (a > n - 1) a = n - 1;
    b = s->stop == MN_NONE ? -1 : (s->stop < 0 ? s->stop + n : s->stop);
    *len = a > b ? (a - b - 1) / (st == INT64_MIN ? INT64_MAX : -st) + 1 : 0;
  }
  *start = *len ? a : 0;
  *step = st;
  return MN_SUCCESS;
}

static int build_index(const mn_array *a, int nidx, const mn_index *idx, mn_map *out) {
  const mn_map *m = &a->map;
  int used = 0;
  for (int i = 0; i < nidx; i++) {
    MN_CHECK(idx[i].kind >= MN_IDX_SLICE && idx[i].kind <= MN_IDX_NEWAXIS, MN_ERR_ARG,
             "index %d has unknown kind %d", i, (int)idx[i].kind);
    if (idx[i].kind != MN_IDX_NEWAXIS) used++;
  }
  MN_CHECK(used <= m->ndim, MN_ERR_INDEX,
           "too many indices: %d given for a %d-d array", used, m->ndim);
  mn_map r;
  memset(&r, 0, sizeof r);
  r.bndim = m->bndim;
  memcpy(r.fixed, m->fixed, sizeof r.fixed);
  int j = 0; /* axis of a */
  for (int i = 0; i < nidx + (m->ndim - used); i++) {
    mn_index e = i < nidx ? idx[i] : mn_all();
    if (e.kind == MN_IDX_NEWAXIS) {
      MN_CHECK(r.ndim < MN_MAXDIM, MN_ERR_INDEX, "result would have more than %d dims", MN_MAXDIM);
      r.bax[r.ndim] = -1;
      r.shape[r.ndim++] = 1;
      continue;
    }
    int64_t n = m->shape[j];
    if (e.kind == MN_IDX_INT) {
      int64_t k = e.index;
      MN_CHECK(k >= -n && k < n, MN_ERR_INDEX,
               "index %lld out of range for axis %d with extent %lld",
               (long long)k, j, (long long)n);
      if (k < 0) k += n;
      if (m->bax[j] >= 0) r.fixed[m->bax[j]] = m->start[j] + m->step[j] * k;
      j++;
      continue;
    }
    int64_t s0 = 0, st = 1, len = 0;
    MN_CALL(norm_slice(&e, n, j, &s0, &st, &len));
    MN_CHECK(r.ndim < MN_MAXDIM, MN_ERR_INDEX, "result would have more than %d dims", MN_MAXDIM);
    int k = r.ndim++;
    r.shape[k] = len;
    r.bax[k] = m->bax[j];
    if (m->bax[j] >= 0) {
      r.start[k] = m->start[j] + m->step[j] * s0;
      r.step[k] = m->step[j] * st;
    }
    j++;
  }
  *out = r;
  return MN_SUCCESS;
}

int mn_array_index(mn_array *a, int nidx, const mn_index *idx, mn_array **v) {
  MN_CHECK(a && v && (nidx == 0 || idx), MN_ERR_ARG, "NULL array, index list or output");
  *v = NULL;
  MN_SPMD(a ? a->ctx : NULL, "mn_array_index", mn_spmd_array(S, "a", a), mn_spmd_index(S, "index", nidx, idx));
  mn_map r;
  MN_CALL(build_index(a, nidx, idx, &r));
  MN_CALL(mn_array_wrap(a->ctx, a->buf, &r, v));
  (*v)->is_view = 1;
  return MN_SUCCESS;
}

static int build_transpose(const mn_array *a, const int *perm, mn_map *out) {
  const mn_map *m = &a->map;
  int seen[MN_MAXDIM] = {0};
  mn_map r = *m;
  for (int k = 0; k < m->ndim; k++) {
    int p = perm[k];
    MN_CHECK(p >= 0 && p < m->ndim && !seen[p], MN_ERR_ARG,
             "perm[%d] = %d is not a permutation of 0..%d", k, p, m->ndim - 1);
    seen[p] = 1;
    r.bax[k] = m->bax[p];
    r.start[k] = m->start[p];
    r.step[k] = m->step[p];
    r.shape[k] = m->shape[p];
  }
  *out = r;
  return MN_SUCCESS;
}

int mn_array_transpose(mn_array *a, const int *perm, mn_array **v) {
  MN_CHECK(a && v, MN_ERR_ARG, "NULL array or output");
  *v = NULL;
  MN_SPMD(a ? a->ctx : NULL, "mn_array_transpose", mn_spmd_array(S, "a", a),
          mn_spmd_ints(S, "perm", perm ? a->map.ndim : 0, perm));
  int rev[MN_MAXDIM];
  if (!perm) {
    for (int k = 0; k < a->map.ndim; k++) rev[k] = a->map.ndim - 1 - k;
    perm = rev;
  }
  mn_map r;
  MN_CALL(build_transpose(a, perm, &r));
  MN_CALL(mn_array_wrap(a->ctx, a->buf, &r, v));
  (*v)->is_view = 1;
  return MN_SUCCESS;
}

int mn_array_broadcast_to(mn_array *a, int ndim, const int64_t *shape, mn_array **v) {
  MN_CHECK(a && v && shape, MN_ERR_ARG, "NULL array, shape or output");
  *v = NULL;
  MN_SPMD(a ? a->ctx : NULL, "mn_array_broadcast_to", mn_spmd_array(S, "a", a),
          mn_spmd_shape(S, "shape", ndim, shape));
  MN_CHECK(ndim <= MN_MAXDIM, MN_ERR_SHAPE, "ndim %d exceeds %d", ndim, MN_MAXDIM);
  mn_map r;
  MN_CALL(mn_map_broadcast(&a->map, ndim, shape, &r));
  MN_CALL(mn_array_wrap(a->ctx, a->buf, &r, v));
  (*v)->is_view = 1;
  return MN_SUCCESS;
}
