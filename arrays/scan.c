/* Cumulative sums and products along an axis: each rank scans its lines
 * locally, then the ranks along the axis combine their line totals with
 * one MPI_Exscan (in rank order, so results do not depend on timing) and
 * fold the offsets in. */
#include "exchange.h"
#include "spmd.h"
#include "kernels/ops.h" /* half and complex values */
#include <stdlib.h>
#include <string.h>

#define SCAN_TYPES(X) X(MN_INT32, int32_t, uint32_t, MPI_UINT32_T) X(MN_INT64, int64_t, uint64_t, MPI_UINT64_T) \
  X(MN_FLOAT32, float, float, MPI_FLOAT) X(MN_FLOAT64, double, double, MPI_DOUBLE) \
  X(MN_INT8, int8_t, uint32_t, MPI_UINT32_T) X(MN_INT16, int16_t, uint32_t, MPI_UINT32_T) \
  X(MN_UINT8, uint8_t, uint32_t, MPI_UINT32_T) X(MN_UINT16, uint16_t, uint32_t, MPI_UINT32_T) \
  X(MN_UINT32, uint32_t, uint32_t, MPI_UINT32_T) X(MN_UINT64, uint64_t, uint64_t, MPI_UINT64_T)

/* Integers wrap (computed unsigned), floats in their own precision. A
 * line starts from its first element, not from the identity, as NumPy's
 * accumulate: 0 + -0.0 is +0.0, and (1+0j)*(inf+3j) is inf+nanj. */
#define LINE_SCAN(E, T, U, M) \
  static void scan_##T(int prod, char *p, int64_t n, int64_t st, char *total) { \
    U acc = prod ? (U)1 : (U)0; \
    for (int64_t k = 0; k < n; k++) { \
      T *q = (T *)p + k * st; \
      acc = k == 0 ? (U)*q : prod ? (U)(acc * (U)*q) : (U)(acc + (U)*q); \
      *q = (T)acc; } \
    memcpy(total, &acc, sizeof(U)); } \
  static void fold_##T(int prod, char *p, int64_t n, int64_t st, const char *off) { \
    U o; \
    memcpy(&o, off, sizeof(U)); \
    for (int64_t k = 0; k < n; k++) { \
      T *q = (T *)p + k * st; \
      *q = (T)(prod ? (U)(o * (U)*q) : (U)(o + (U)*q)); } }
SCAN_TYPES(LINE_SCAN)
/* float16: each partial rounded to half, as NumPy's accumulate; the line
 * totals travel as float */
static void scan_h(int prod, char *p, int64_t n, int64_t st, char *total) {
  float acc = prod ? 1.0f : 0.0f;
  for (int64_t k = 0; k < n; k++) {
    mn_h *q = (mn_h *)p + k * st;
    if (k > 0) *q = mn_d2h(prod ? (double)acc * mn_h2f(*q) : (double)acc + mn_h2f(*q));
    acc = mn_h2f(*q);
  }
  memcpy(total, &acc, sizeof acc);
}
static void fold_h(int prod, char *p, int64_t n, int64_t st, const char *off) {
  float o;
  memcpy(&o, off, sizeof o);
  for (int64_t k = 0; k < n; k++) {
    mn_h *q = (mn_h *)p + k * st;
    *q = mn_d2h(prod ? (double)o * mn_h2f(*q) : (double)o + mn_h2f(*q));
  }
}

/* complex: in the dtype's precision, as NumPy's accumulate; the line
 * totals travel as MPI's complex types */
#define CPX_SCAN(S, T) \
  static void scan_##S(int prod, char *p, int64_t n, int64_t st, char *total) { \
    T acc = mn_mk_##S(prod ? 1 : 0, 0); \
    for (int64_t k = 0; k < n; k++) { \
      T *q = (T *)p + k * st; \
      acc = k == 0 ? *q : prod ? mni_k_mul_##S(acc, *q) : mni_k_add_##S(acc, *q); \
      *q = acc; } \
    memcpy(total, &acc, sizeof acc); } \
  static void fold_##S(int prod, char *p, int64_t n, int64_t st, const char *off) { \
    T o; \
    memcpy(&o, off, sizeof o); \
    for (int64_t k = 0; k < n; k++) { \
      T *q = (T *)p + k * st; \
      *q = prod ? mni_k_mul_##S(o, *q) : mni_k_add_##S(o, *q); } }
CPX_SCAN(c64, mn_c64)
CPX_SCAN(c128, mn_c128)

/* t has a scan (mpi_type(t) is not MPI_DATATYPE_NULL: checked first) */
static void scan_local(mn_dtype t, int prod, char *p, int64_t n, int64_t st, char *total) {
  switch (t) {
#define CASE(E, T, U, M) case E: scan_##T(prod, p, n, st, total); break;
    SCAN_TYPES(CASE)
#undef CASE
  case MN_FLOAT16: scan_h(prod, p, n, st, total); break;
  case MN_COMPLEX64: scan_c64(prod, p, n, st, total); break;
  case MN_COMPLEX128: scan_c128(prod, p, n, st, total); break;
  default: break;
  }
}

static void fold(mn_dtype t, int prod, char *p, int64_t n, int64_t st, const char *off) {
  switch (t) {
#define CASE(E, T, U, M) case E: fold_##T(prod, p, n, st, off); break;
    SCAN_TYPES(CASE)
#undef CASE
  case MN_FLOAT16: fold_h(prod, p, n, st, off); break;
  case MN_COMPLEX64: fold_c64(prod, p, n, st, off); break;
  case MN_COMPLEX128: fold_c128(prod, p, n, st, off); break;
  default: break;
  }
}

static MPI_Datatype mpi_type(mn_dtype t) {
  switch (t) {
#define CASE(E, T, U, M) case E: return M;
    SCAN_TYPES(CASE)
#undef CASE
  case MN_FLOAT16: return MPI_FLOAT;
  case MN_COMPLEX64: return MPI_C_FLOAT_COMPLEX;
  case MN_COMPLEX128: return MPI_C_DOUBLE_COMPLEX;
  default: return MPI_DATATYPE_NULL;
  }
}

int mn_array_scan(mn_reduce_op op, const mn_array *x, int axis, mn_array *out) {
  MN_CHECK(x && out, MN_ERR_ARG, "NULL array or output");
  MN_SPMD(x ? x->ctx : NULL, "mn_array_scan", mn_spmd_int(S, "op", op), mn_spmd_array(S, "x", x),
          mn_spmd_int(S, "axis", axis), mn_spmd_array(S, "out", out));
  MN_CHECK(x->ctx == out->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  MN_CHECK(op == MN_RED_SUM || op == MN_RED_PROD, MN_ERR_ARG, "a scan is a sum or a product, not %s", mn_reduce_name(op));
  int nd = x->map.ndim;
  MN_CHECK(axis >= -nd && axis < nd, MN_ERR_INDEX, "axis %d is out of bounds for array of dimension %d", axis, nd);
  if (axis < 0) axis += nd;
  int same = out->map.ndim == nd;
  for (int d = 0; same && d < nd; d++) same = out->map.shape[d] == x->map.shape[d];
  MN_CHECK(same, MN_ERR_SHAPE, "the output of a scan must have the input's shape");
  MN_CHECK(out->dtype != MN_BOOL, MN_ERR_DTYPE, "a scan cannot produce dtype bool");
  MN_CHECK(mpi_type(out->dtype) != MPI_DATATYPE_NULL, MN_ERR_DTYPE, "no scan for dtype %s",
           mn_dtype_name(out->dtype));
  mn_ctx *ctx = x->ctx;
  int err = 0, own = 0, prod = op == MN_RED_PROD;
  mn_array *O = out;
  if (out->is_view) {
    MN_CALL(mn_array_create_like(out, out->dtype, &O));
    own = 1;
  }
  MN_CALLG(err, mn_array_copy(x, O), done);
  mn_local l;
  mn_array_local_in(O, 0, &l);
  /* lines from the block's extents, so that a rank owning nothing along
   * the axis still brings (identity) totals for its lines to the Exscan */
  int64_t lo[MN_MAXDIM], hi[MN_MAXDIM], cnt[MN_MAXDIM], lines = 1;
  mn_layout_box(O->buf->lay, ctx->rank, lo, hi);
  for (int d = 0; d < nd; d++) { cnt[d] = hi[d] - lo[d]; if (d != axis) lines *= cnt[d]; }
  int64_t L = cnt[axis];
  cnt[axis] = 1;
  /* a line total is of the MPI type it travels as: 4 bytes for the 1- and
   * 2-byte types (summed as uint32) and float16, not the element's size */
  int tsz = 0;
  MPI_Type_size(mpi_type(out->dtype), &tsz);
  size_t es = mn_dtype_size(out->dtype), ts = (size_t)tsz;
  char *tot = malloc(ts * 2 * (size_t)(lines + 1));
  MN_CALLG(err, mn_agree(ctx, tot ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld line totals", (long long)lines)), done);
  int64_t at[MN_MAXDIM] = {0}, off = 0;
  for (int64_t k = 0; k < lines; k++) { /* L == 0 leaves the identity */
    scan_local(out->dtype, prod, L ? (char *)l.data + off * (int64_t)es : NULL, L, l.stride[axis], tot + k * (int64_t)ts);
    off = mn_box_step(nd, cnt, l.stride, at, off);
  }
  /* ranks along the axis: same process-grid coordinates on the other axes */
  const mn_layout *lay = O->buf->lay;
  if (lay->kind == MN_LAYOUT_BLOCK && lay->dims[axis] > 1) {
    int c[MN_MAXDIM];
    mn_layout_coords_of(lay, ctx->rank, c);
    int pos = c[axis];
    c[axis] = 0;
    MPI_Comm line;
    MN_MPI(MPI_Comm_split(ctx->comm, mn_layout_rank_of(lay, c), pos, &line));
    char *before = tot + lines * (int64_t)ts;
    int rc = MPI_Exscan(tot, before, (int)lines, mpi_type(out->dtype), prod ? MPI_PROD : MPI_SUM, line);
    MPI_Comm_free(&line);
    if (rc != MPI_SUCCESS) err = MN_ERR(MN_ERR_MPI, "MPI_Exscan of %lld line totals failed", (long long)lines);
    memset(at, 0, sizeof at);
    off = 0;
    for (int64_t k = 0; !err && pos > 0 && L > 0 && k < lines; k++) {
      fold(out->dtype, prod, (char *)l.data + off * (int64_t)es, L, l.stride[axis], before + k * (int64_t)ts);
      off = mn_box_step(nd, cnt, l.stride, at, off);
    }
  }
  free(tot);
  if (!err && O != out) err = mn_array_copy(O, out);
done:
  if (own) mn_array_destroy(&O);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
