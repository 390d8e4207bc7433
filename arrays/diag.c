/* The diagonal of a matrix (numpy.diagonal) and its sum (numpy.trace). When
 * every rank owns the elements its part of the diagonal reads, which the
 * layouts decide alike on every rank, each rank copies them and no message
 * moves; otherwise one take of their flat indices. */
#include "exchange.h"
#include "spmd.h"
#include <stdint.h>
#include <string.h>

/* Does every rank own x[i + r0, i + c0] for each i of its part of out? */
static int diag_local(const mn_array *x, const mn_array *out, int64_t r0, int64_t c0) {
  for (int q = 0; q < x->ctx->size; q++) {
    int64_t olo[MN_MAXDIM], oc[MN_MAXDIM], xlo[MN_MAXDIM], xc[MN_MAXDIM];
    if (!mn_map_owned_box(&out->map, out->buf->lay, q, olo, oc) || oc[0] == 0) continue;
    if (!mn_map_owned_box(&x->map, x->buf->lay, q, xlo, xc)) return 0;
    int64_t first = olo[0], last = olo[0] + oc[0] - 1;
    if (first + r0 < xlo[0] || last + r0 >= xlo[0] + xc[0] || first + c0 < xlo[1] || last + c0 >= xlo[1] + xc[1])
      return 0;
  }
  return 1;
}

/* Each rank's part of out from its own block of x (host memory). */
static void diag_copy(const mn_array *x, mn_array *out, int64_t r0, int64_t c0) {
  mn_local xl, ol;
  mn_array_local_read(x, 0, &xl);
  mn_array_local_in(out, 0, &ol);
  if (!ol.data || ol.count[0] == 0) return;
  size_t es = mn_dtype_size(x->dtype);
  int64_t n = ol.count[0], step = xl.stride[0] + xl.stride[1], os = ol.stride[0];
  const char *src = (const char *)xl.data +
                    ((ol.lo[0] + r0 - xl.lo[0]) * xl.stride[0] + (ol.lo[0] + c0 - xl.lo[1]) * xl.stride[1]) * (int64_t)es;
  char *dst = ol.data;
#define DIAG_COPY(T)                                                                   \
  for (int64_t i = 0; i < n; i++) ((T *)dst)[i * os] = ((const T *)src)[i * step]; \
  break
  switch (es) {
    case 1: DIAG_COPY(uint8_t);
    case 2: DIAG_COPY(uint16_t);
    case 4: DIAG_COPY(uint32_t);
    case 8: DIAG_COPY(uint64_t);
    default:
      for (int64_t i = 0; i < n; i++) memcpy(dst + i * os * (int64_t)es, src + i * step * (int64_t)es, es);
  }
#undef DIAG_COPY
}

/* out[i] = x.flat[(i + r0) * n1 + i + c0] by one take (the flat indices an
 * arange: exact, as a matrix has under 2^53 elements) */
static int diag_take(const mn_array *x, mn_array *out, int64_t r0, int64_t c0) {
  mn_array *F = NULL;
  int64_t n1 = x->map.shape[1];
  MN_CALL(mn_array_create_like(out, MN_INT64, &F));
  int err = mn_array_arange(F, (double)(r0 * n1 + c0), (double)(n1 + 1));
  if (!err) err = mn_array_take(x, F, out);
  mn_array_destroy(&F);
  return err;
}

/* The diagonal at offset of a 2-d x: its first element x[r0, c0] and its
 * length (numpy.diagonal's, 0 past the corners) */
static int64_t diag_extent(const mn_array *x, int64_t offset, int64_t *r0, int64_t *c0) {
  int64_t n0 = x->map.shape[0], n1 = x->map.shape[1];
  *r0 = offset < 0 ? -offset : 0;
  *c0 = offset > 0 ? offset : 0;
  int64_t len = n0 - *r0 < n1 - *c0 ? n0 - *r0 : n1 - *c0;
  return len < 0 ? 0 : len;
}

static int diag_check(const mn_array *x, int64_t offset, const mn_array *out, int64_t *r0, int64_t *c0) {
  MN_CHECK(x && out, MN_ERR_ARG, "NULL array");
  MN_CHECK(x->ctx == out->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  MN_CHECK(x->map.ndim == 2, MN_ERR_SHAPE, "diagonal of a 2-d array, got %d-d", x->map.ndim);
  int64_t n0 = x->map.shape[0], n1 = x->map.shape[1], len = diag_extent(x, offset, r0, c0);
  MN_CHECK(out->map.ndim == 1 && out->map.shape[0] == len, MN_ERR_SHAPE,
           "diagonal: out must be 1-d of length %lld (offset %lld of a %lld x %lld array)", (long long)len,
           (long long)offset, (long long)n0, (long long)n1);
  MN_CHECK(out->dtype == x->dtype, MN_ERR_DTYPE, "diagonal: out has dtype %s, x %s", mn_dtype_name(out->dtype),
           mn_dtype_name(x->dtype));
  return MN_SUCCESS;
}

int mn_array_diagonal(const mn_array *x, int64_t offset, mn_array *out) {
  MN_SPMD(x ? x->ctx : NULL, "mn_array_diagonal", mn_spmd_array(S, "x", x), mn_spmd_int(S, "offset", offset),
          mn_spmd_array(S, "out", out));
  int64_t r0 = 0, c0 = 0;
  MN_CALL(diag_check(x, offset, out, &r0, &c0));
  if (out->map.shape[0] == 0) return MN_SUCCESS;
  if (!diag_local(x, out, r0, c0)) return diag_take(x, out, r0, c0);
  diag_copy(x, out, r0, c0);
  return MN_SUCCESS;
}

int mn_array_trace(const mn_array *x, int64_t offset, mn_scalar *result) {
  MN_CHECK(x && result, MN_ERR_ARG, "NULL array or result");
  MN_CHECK(x->map.ndim == 2, MN_ERR_SHAPE, "trace of a 2-d array, got %d-d", x->map.ndim);
  MN_SPMD(x->ctx, "mn_array_trace", mn_spmd_array(S, "x", x), mn_spmd_int(S, "offset", offset));
  int64_t r0, c0, len = diag_extent(x, offset, &r0, &c0);
  mn_array *d = NULL;
  MN_CALL(mn_array_create_empty(x->ctx, x->dtype, 1, &len, &d));
  int err = mn_array_diagonal(x, offset, d);
  if (!err) err = mn_array_reduce(MN_RED_SUM, d, result);
  mn_array_destroy(&d);
  return err;
}
