/* Index-dependent fills (arange, linspace, random), element access, and
 * gather to / scatter from a root rank. */
#include "mn_impl.h"
#include "spmd.h"
#include "kernels/fill.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define SAME_(T) ((int)MNI_FT_##T == (int)MN_##T)
_Static_assert(SAME_(BOOL) && SAME_(INT32) && SAME_(INT64) && SAME_(FLOAT32) && SAME_(FLOAT64) && SAME_(INT8) &&
                   SAME_(INT16) && SAME_(UINT8) && SAME_(UINT16) && SAME_(UINT32) && SAME_(UINT64) && SAME_(FLOAT16) &&
                   SAME_(COMPLEX64) && SAME_(COMPLEX128) && MN_NDTYPE == 14,
               "kernels/fill.h mirrors mn_dtype");
#undef SAME_

void mni_fill_index_run(const mn_fill_job *j) {
  int nd = j->nd;
  int64_t n = mn_box_size(nd, j->count);
  const double *par = j->par;
  int kind = j->kind, t = j->t;
  size_t es = mn_dtype_size(j->t);
#pragma omp parallel for schedule(static) if (n > 65536)
  for (int64_t k = 0; k < n; k++) {
    int64_t r = k, flat = 0, off = 0;
    for (int d = nd - 1; d >= 0; d--) {
      int64_t i = r % j->count[d];
      r /= j->count[d];
      flat += (j->lo[d] + i) * j->cs[d];
      off += i * j->stride[d];
    }
    mni_fill_store(t, j->data + off * (int64_t)es, mni_fill_value(kind, flat, par));
  }
}

/* a[i] = the kind's value at the flat C-order index of i, over the elements
 * this rank owns: on the device when the backend can (a new array lives
 * there), else on the host copy (without pinning it there) */
static int fill_by_index(mn_array *a, int kind, const double *par) {
  const mn_buf *b = a->buf;
  int dev = b->ops->fill_index && mn_buf_device_ok(b);
  mn_local loc;
  MN_CALL(mn_array_local_in(a, dev, &loc));
  int nd = a->map.ndim;
  if (!loc.data || mn_box_size(nd, loc.count) == 0) return MN_SUCCESS;
  mn_fill_job j;
  j.kind = kind;
  j.t = a->dtype;
  j.nd = nd;
  j.data = loc.data;
  j.b = b;
  memcpy(j.par, par, sizeof j.par);
  memcpy(j.lo, loc.lo, sizeof j.lo);
  memcpy(j.count, loc.count, sizeof j.count);
  memcpy(j.stride, loc.stride, sizeof j.stride);
  mn_dense_strides(nd, a->map.shape, j.cs);
  if (dev) return b->ops->fill_index(&j);
  mni_fill_index_run(&j);
  return MN_SUCCESS;
}

int mn_array_arange(mn_array *a, double start, double step) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_arange", mn_spmd_array(S, "a", a), mn_spmd_f64(S, "start", start),
          mn_spmd_f64(S, "step", step));
  double p[MN_FILL_PARS] = {start, step};
  MN_CALL(fill_by_index(a, MNI_FILL_ARANGE, p));
  return MN_SUCCESS;
}

int mn_array_linspace(mn_array *a, double start, double stop, int endpoint) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_linspace", mn_spmd_array(S, "a", a), mn_spmd_f64(S, "start", start),
          mn_spmd_f64(S, "stop", stop), mn_spmd_int(S, "endpoint", endpoint));
  int64_t n = mn_array_size(a);
  int64_t div = endpoint ? n - 1 : n;
  int isint = mn_is_int(a->dtype);
  double p[MN_FILL_PARS] = {start, stop, (double)n, endpoint ? 1.0 : 0.0, div > 0 ? (stop - start) / (double)div : 0.0,
                 isint ? 1.0 : 0.0};
  MN_CALL(fill_by_index(a, MNI_FILL_LINSPACE, p));
  return MN_SUCCESS;
}

int mn_array_random(mn_array *a, mn_random_kind kind, uint64_t seed, double p1, double p2) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_random", mn_spmd_array(S, "a", a), mn_spmd_int(S, "kind", kind),
          mn_spmd_int(S, "seed", (int64_t)seed), mn_spmd_f64(S, "p1", p1), mn_spmd_f64(S, "p2", p2));
  MN_CHECK(kind == MN_RANDOM_UNIFORM || kind == MN_RANDOM_NORMAL, MN_ERR_ARG,
           "unknown random distribution %d", (int)kind);
  MN_CHECK(kind != MN_RANDOM_NORMAL || p2 >= 0, MN_ERR_ARG,
           "normal distribution scale %g is negative", p2);
  double p[MN_FILL_PARS] = {p1, p2, 0};
  memcpy(&p[2], &seed, sizeof seed);
  MN_CALL(fill_by_index(a, kind == MN_RANDOM_UNIFORM ? MNI_FILL_UNIFORM : MNI_FILL_NORMAL, p));
  return MN_SUCCESS;
}

static int check_index(const mn_array *a, const int64_t *idx, const mn_scalar *value) {
  MN_CHECK(value && (idx || a->map.ndim == 0), MN_ERR_ARG, "NULL index or result");
  for (int d = 0; d < a->map.ndim; d++)
    MN_CHECK(idx[d] >= 0 && idx[d] < a->map.shape[d], MN_ERR_INDEX,
             "index %lld out of range for axis %d with extent %lld", (long long)idx[d], d,
             (long long)a->map.shape[d]);
  return MN_SUCCESS;
}

int mn_array_get(const mn_array *a, const int64_t *idx, mn_scalar *value) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array"); /* no communicator to agree on */
  MN_SPMD(a ? a->ctx : NULL, "mn_array_get", mn_spmd_array(S, "a", a), mn_spmd_shape(S, "index", a->map.ndim, idx));
  int err = mn_agree(a->ctx, check_index(a, idx, value));
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  /* the owner of one element, from the layout's split in O(ndim) (a box
   * of one element meets one block); a search over the ranks was O(P) */
  int64_t one[MN_MAXDIM];
  for (int d = 0; d < a->map.ndim; d++) one[d] = 1;
  int owner = -1, n = mn_map_box_owners(&a->map, a->buf->lay, idx, one, &owner);
  MN_CHECK(n == 1 && owner >= 0, MN_ERR_INDEX, "internal: element has %d owners", n);
  struct { double f, g; int64_t i; } v = {0, 0, 0}; /* g: a complex value's imaginary part */
  if (owner == a->ctx->rank) {
    char p[16]; /* the element alone, from whichever copy holds it */
    size_t es = mn_dtype_size(a->dtype);
    mn_buf_read(a->buf, (size_t)mn_map_off(&a->map, a->buf, idx) * es, es, p);
    if (mn_is_complex(a->dtype)) mni_ft_load_c((int)a->dtype, p, &v.f, &v.g);
    else mni_ft_load((int)a->dtype, p, &v.f, &v.i);
  }
  MN_MPI(MPI_Bcast(&v, (int)sizeof v, MPI_BYTE, owner, a->ctx->comm));
  value->dtype = a->dtype;
  value->weak = 0;
  value->im = v.g;
  if (mn_is_float(a->dtype) || mn_is_complex(a->dtype)) value->v.f = v.f;
  else value->v.i = v.i;
  return MN_SUCCESS;
}

/* root and the root's buffer are per-rank values: agreed before any work */
static int check_root(const mn_array *a, int root, const void *buf, const char *what) {
  MN_CHECK(root >= 0 && root < a->ctx->size, MN_ERR_ARG, "%s root rank %d outside [0, %d)", what, root,
           a->ctx->size);
  MN_CHECK(a->ctx->rank != root || buf || mn_array_size(a) == 0, MN_ERR_ARG, "%s buffer on root %d is NULL", what,
           root);
  return MN_SUCCESS;
}

static int root_array(const mn_array *a, int root, mn_array **r) {
  mn_layout *lay;
  MN_CALL(mn_layout_create_root(a->ctx, a->map.ndim, a->map.shape, root, &lay));
  int err = mn_array_create_on(lay, a->dtype, 0, r);
  mn_layout_destroy(&lay);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_array_gather(const mn_array *a, int root, void *buf) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_gather", mn_spmd_array(S, "a", a), mn_spmd_int(S, "root", root));
  int err = mn_agree(a->ctx, check_root(a, root, buf, "gather"));
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  mn_array *r;
  MN_CALL(root_array(a, root, &r));
  err = mn_array_copy(a, r);
  if (!err && a->ctx->rank == root && buf)
    memcpy(buf, mn_buf_host(r->buf, 0), (size_t)mn_array_size(a) * mn_dtype_size(a->dtype));
  mn_array_destroy(&r);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* Allgather in one MPI_Allgatherv where each rank owns whole rows of the
 * first axis, in rank order (a row-block split: the solvers' vectors, A's
 * rows): its part is then one run of the flat index, copied straight to
 * its place in buf. 1 when done, 0 for other layouts (or over 2 GiB). */
static int allgather_rows(const mn_array *a, void *buf, int *err) {
  mn_ctx *ctx = a->ctx;
  int P = ctx->size;
  size_t es = mn_dtype_size(a->dtype);
  int64_t total = mn_array_size(a);
  if (total * (int64_t)es >= (1LL << 31)) return 0;
  int64_t *start = malloc(sizeof(int64_t) * (size_t)(P + 1));
  int *cnt = malloc(sizeof(int) * 2 * (size_t)P), *dsp = cnt ? cnt + P : NULL;
  if (!start || !cnt || !mn_rows_split(a, start)) { free(start); free(cnt); return 0; }
  for (int q = 0; q < P; q++) {
    cnt[q] = (int)((start[q + 1] - start[q]) * (int64_t)es);
    dsp[q] = (int)(start[q] * (int64_t)es);
  }
  free(start);
  void *scratch = NULL; /* a NULL buf here alone: the others still get their values, no hang */
  if (!buf && total) {
    buf = scratch = malloc((size_t)total * es);
    *err = MN_ERR(MN_ERR_ARG, "allgather buffer is NULL");
    if (!scratch) *err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes", (long long)(total * (int64_t)es));
  }
  if (cnt[ctx->rank] && buf) {
    mn_local l;
    mn_array_local_read(a, 0, &l);
    int64_t ds[MN_MAXDIM];
    mn_dense_strides(a->map.ndim, l.count, ds);
    mn_strided_copy(a->map.ndim, l.count, es, l.data, l.stride, (char *)buf + dsp[ctx->rank], ds);
  }
  if (MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_BYTE, buf, cnt, dsp, MPI_BYTE, ctx->comm) != MPI_SUCCESS)
    *err = MN_ERR(MN_ERR_MPI, "MPI_Allgatherv failed");
  free(scratch);
  free(cnt);
  return 1;
}

int mn_array_allgather(const mn_array *a, void *buf) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_allgather", mn_spmd_array(S, "a", a));
  int err = 0;
  if (allgather_rows(a, buf, &err)) {
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    return MN_SUCCESS;
  }
  MN_CALL(mn_array_gather(a, 0, buf));
  int64_t bytes = mn_array_size(a) * (int64_t)mn_dtype_size(a->dtype);
  for (int64_t off = 0; off < bytes; off += 1 << 30) { /* MPI counts are ints */
    int len = (int)(bytes - off < (1 << 30) ? bytes - off : (1 << 30));
    MN_MPI(MPI_Bcast((char *)buf + off, len, MPI_BYTE, 0, a->ctx->comm));
  }
  return MN_SUCCESS;
}

int mn_array_set_global(mn_array *a, const void *buf) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_set_global", mn_spmd_array(S, "a", a));
  int err = mn_agree(a->ctx, buf || mn_array_size(a) == 0 ? 0 : MN_ERR(MN_ERR_ARG, "set_global buffer is NULL"));
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  mn_local loc;
  /* every element of a base array without halo is written: no copy of the old ones first */
  if (a->buf->dev && mn_array_whole_storage(a)) mn_buf_host(a->buf, MN_WRITE_ALL);
  MN_CALL(mn_array_local_in(a, 0, &loc));
  if (!loc.data) return MN_SUCCESS;
  int nd = a->map.ndim;
  int64_t cs[MN_MAXDIM], off = 0;
  mn_dense_strides(nd, a->map.shape, cs);
  for (int d = 0; d < nd; d++) off += loc.lo[d] * cs[d];
  size_t es = mn_dtype_size(a->dtype);
  mn_strided_copy(nd, loc.count, es, (const char *)buf + off * (int64_t)es, cs, loc.data, loc.stride);
  if (mn_buf_device_ok(a->buf)) mn_buf_dev(a->buf, 0); /* on a device backend the values live there, as a new array's */
  return MN_SUCCESS;
}

int mn_array_scatter(mn_array *a, int root, const void *buf) {
  MN_CHECK(a, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_scatter", mn_spmd_array(S, "a", a), mn_spmd_int(S, "root", root));
  int err = mn_agree(a->ctx, check_root(a, root, buf, "scatter"));
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  mn_array *r;
  MN_CALL(root_array(a, root, &r));
  if (a->ctx->rank == root && buf) memcpy(mn_buf_host(r->buf, 1), buf, (size_t)mn_array_size(a) * mn_dtype_size(a->dtype));
  err = mn_array_copy(r, a);
  mn_array_destroy(&r);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
