/* Reductions along one axis: each rank reduces its own block to partials
 * over the projected box, sends them to the owners of the output, and the
 * owners merge partials in rank order (deterministic at a given rank
 * count). */
#include "acc.h"
#include "expr_impl.h"
#include "spmd.h"
#include "kernels/axis.h"
#include "kernels/table.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>


static void proj(int nd, int axis, const int64_t *in, int64_t *out) {
  for (int d = 0, k = 0; d < nd; d++)
    if (d != axis) out[k++] = in[d];
}

_Static_assert(MN_MAXDIM == MNI_AXIS_MAXDIM, "kernels/axis.h's MNI_AXIS_MAXDIM is MN_MAXDIM");

static int out_on_device(const mn_array *out) {
  const mn_buf *b = out->buf;
  return mn_buf_device_ok(b) && (mn_array_whole_storage(out) || (b->valid & MN_VALID_DEV));
}

/* Ranks whose blocks of x meet the lines along axis over out's box (olo,
 * ocnt): those that send this rank partials, in rank order (ranks holds P
 * entries). Only they are visited, so a reduction costs O(neighbours). */
static int senders(const mn_array *x, int axis, const int64_t *olo, const int64_t *ocnt, int *ranks) {
  int nd = x->map.ndim;
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM];
  for (int d = 0, k = 0; d < nd; d++) {
    if (d == axis) { lo[d] = 0; cnt[d] = x->map.shape[d]; }
    else { lo[d] = olo[k]; cnt[d] = ocnt[k]; k++; }
  }
  return mn_map_box_owners(&x->map, x->buf->lay, lo, cnt, ranks);
}

/* Does this rank's part of out take partials from no other rank, and its
 * partials (plo, pcnt: all of that part) go to no other? */
static int alone(const mn_array *x, const mn_array *out, int axis, const int64_t *plo, const int64_t *pcnt,
                 const int64_t *olo, const int64_t *ocnt) {
  int nd = x->map.ndim, P = x->ctx->size, me = x->ctx->rank, ok = 1;
  for (int d = 0; d < nd - 1; d++)
    if (plo[d] != olo[d] || pcnt[d] != ocnt[d]) return 0;
  int *r = malloc(sizeof(int) * (size_t)P);
  if (!r) return 0; /* then the general path */
  int n = senders(x, axis, olo, ocnt, r);
  for (int i = 0; i < n && ok; i++) ok = r[i] == me;
  n = ok ? mn_map_box_owners(&out->map, out->buf->lay, plo, pcnt, r) : 0;
  for (int i = 0; i < n && ok; i++) ok = r[i] == me;
  free(r);
  return ok;
}

/* The device kernel over this rank's block of x (at xlo, xcnt): the cells'
 * partials into part (host memory, copied back: "d2h"), or, part NULL,
 * their values into out's device storage at olo. */
static int axis_launch(mn_reduce_op op, const mn_array *x, int axis, const int64_t *xlo, const int64_t *xcnt,
                       mn_acc *part, const mn_array *out, const int64_t *olo) {
  mn_ctx *ctx = x->ctx;
  int nd = x->map.ndim;
  mni_axis_job j;
  memset(&j, 0, sizeof j);
  j.op = (int)op;
  j.t = (int)x->dtype;
  j.rt = (int)mn_reduce_result(op, x->dtype);
  j.nd = nd;
  j.axis = axis;
  j.alo = xlo[axis];
  j.ncell = 1;
  for (int d = 0; d < nd; d++) {
    j.cnt[d] = xcnt[d];
    if (d != axis) j.ncell *= xcnt[d];
  }
  const mn_buf *xb = x->buf;
  char *xd = mn_buf_dev(xb, 0);
  j.x = xd + mn_map_off(&x->map, xb, xlo) * (int64_t)mn_dtype_size(x->dtype);
  mn_map_strides(&x->map, xb, j.st);
  j.xspan = xd;
  j.xbytes = xb->nbytes;
  void *pd = NULL;
  size_t pb = sizeof(mn_acc) * (size_t)j.ncell;
  if (part) {
    MN_CALL(ctx->ops->dev_alloc(pb + 1, &pd));
    j.part = pd;
    j.pspan = pd;
    j.pbytes = pb + 1;
  } else {
    const mn_buf *ob = out->buf;
    char *od = mn_buf_dev(ob, mn_array_whole_storage(out) ? MN_WRITE_ALL : 1);
    j.ot = (int)out->dtype;
    j.out = od + mn_map_off(&out->map, ob, olo) * (int64_t)mn_dtype_size(out->dtype);
    mn_map_strides(&out->map, ob, j.ost);
    j.pspan = od;
    j.pbytes = ob->nbytes;
  }
  int err = ctx->ops->axis(&j);
  if (part) {
    if (!err && pb) err = mn_copy_counted(ctx, 0, pd, (char *)part, pb);
    ctx->ops->dev_free(pd, pb + 1);
  }
  return err;
}

/* One contiguous line of A floats (t: float64 or float32) added in index
 * order from its first element, in double */
static double line_sum(mn_dtype t, const char *v, int64_t A) {
  double f;
  if (t == MN_FLOAT64) {
    const double *x = (const double *)v;
    f = x[0];
    for (int64_t a = 1; a < A; a++) f += x[a];
  } else {
    const float *x = (const float *)v;
    f = (double)x[0];
    for (int64_t a = 1; a < A; a++) f += (double)x[a];
  }
  return f;
}

/* n inner cells' lines, A rows I elements apart from v, added in index
 * order into acc (a row of cells at a time) */
static void rows_sum(mn_dtype t, const char *v, int64_t A, int64_t I, int64_t n, double *acc) {
  for (int64_t a = 0; a < A; a++) {
    if (t == MN_FLOAT64) {
      const double *x = (const double *)v + a * I;
      if (a == 0) for (int64_t i = 0; i < n; i++) acc[i] = x[i];
      else for (int64_t i = 0; i < n; i++) acc[i] += x[i];
    } else {
      const float *x = (const float *)v + a * I;
      if (a == 0) for (int64_t i = 0; i < n; i++) acc[i] = (double)x[i];
      else for (int64_t i = 0; i < n; i++) acc[i] += (double)x[i];
    }
  }
}
enum { SUM_CHUNK = 512 }; /* inner cells summed at once: their running sums in L1 */

/* This rank's block of x (at xlo, xcnt), dense in C order, on the host,
 * as (O outer, the axis, I inner); NULL when it is not dense or the axis
 * is empty */
static const char *dense_lines(const mn_array *x, int axis, const int64_t *xlo, const int64_t *xcnt, int64_t *O,
                               int64_t *I) {
  int nd = x->map.ndim;
  int64_t st[MN_MAXDIM];
  mn_map_strides(&x->map, x->buf, st);
  if (!mn_strides_dense(nd, xcnt, st) || xcnt[axis] == 0) return NULL;
  *O = *I = 1;
  for (int d = 0; d < axis; d++) *O *= xcnt[d];
  for (int d = axis + 1; d < nd; d++) *I *= xcnt[d];
  mn_buf_host(x->buf, 0);
  return mn_map_ptr(&x->map, x->buf, xlo);
}

/* A float sum over a dense C-order block, as (outer, axis, inner): each
 * cell's line added in index order from its first element, as the general
 * loop below and the device do (the same bits), but a row of inner cells at
 * a time instead of a push per element. 0: not this case. */
static int dense_float_sum(mn_reduce_op op, const mn_array *x, int axis, const int64_t *xlo, const int64_t *xcnt,
                           mn_acc *part) {
  if (op != MN_RED_SUM || (x->dtype != MN_FLOAT64 && x->dtype != MN_FLOAT32)) return 0;
  int64_t O, A = xcnt[axis], I;
  const char *base = dense_lines(x, axis, xlo, xcnt, &O, &I);
  if (!base) return 0;
  size_t es = mn_dtype_size(x->dtype);
  double acc[SUM_CHUNK];
  for (int64_t o = 0; o < O; o++) {
    if (I == 1) { /* the last axis: each line contiguous, one running sum */
      part[o].f = line_sum(x->dtype, base + o * A * (int64_t)es, A);
      part[o].has = A;
      continue;
    }
    for (int64_t i0 = 0; i0 < I; i0 += SUM_CHUNK) {
      int64_t n = I - i0 < SUM_CHUNK ? I - i0 : SUM_CHUNK;
      rows_sum(x->dtype, base + (o * A * I + i0) * (int64_t)es, A, I, n, acc);
      for (int64_t i = 0; i < n; i++) { part[o * I + i0 + i].f = acc[i]; part[o * I + i0 + i].has = A; }
    }
  }
  return 1;
}

/* v replaces the extreme m: m not NaN, and v NaN or strictly beyond it
 * (mni_better_f: the first NaN wins, ties go to the lower index) */
#define MN_BEYOND(mx, v, m) ((m) == (m) && ((v) != (v) || ((mx) ? (v) > (m) : (v) < (m))))
/* One float type T's extremes (or their indices, arg) along the axis */
#define MN_EXTREMES(T)                                                                                             \
  if (I == 1)                                                                                                      \
    for (int64_t o = 0; o < O; o++) {                                                                              \
      const T *v = (const T *)base + o * A;                                                                        \
      double m = v[0];                                                                                             \
      int64_t k = 0;                                                                                               \
      for (int64_t a = 1; a < A; a++)                                                                              \
        if (MN_BEYOND(mx, (double)v[a], m)) m = v[a], k = a;                                                       \
      if (arg) ((int64_t *)obase)[o] = alo + k;                                                                    \
      else ((T *)obase)[o] = (T)m;                                                                                 \
    }                                                                                                              \
  else                                                                                                             \
    for (int64_t o = 0; o < O; o++)                                                                                \
      for (int64_t i0 = 0; i0 < I; i0 += CH) {                                                                     \
        int64_t n = I - i0 < CH ? I - i0 : CH;                                                                     \
        const T *v = (const T *)base + o * A * I + i0;                                                             \
        for (int64_t i = 0; i < n; i++) m[i] = v[i], k[i] = 0;                                                     \
        for (int64_t a = 1; a < A; a++)                                                                            \
          for (int64_t i = 0; i < n; i++) {                                                                        \
            double w = v[a * I + i];                                                                               \
            int b = MN_BEYOND(mx, w, m[i]);                                                                        \
            m[i] = b ? w : m[i];                                                                                   \
            k[i] = b ? a : k[i];                                                                                   \
          }                                                                                                        \
        for (int64_t i = 0; i < n; i++) {                                                                          \
          if (arg) ((int64_t *)obase)[o * I + i0 + i] = alo + k[i];                                                \
          else ((T *)obase)[o * I + i0 + i] = (T)m[i];                                                             \
        }                                                                                                          \
      }

/* alone_reduce's float extremes: max, min, argmax, argmin, each line in
 * index order as the general loop's pushes (the same bits and indices) */
static void alone_extremes(mn_reduce_op op, mn_dtype t, const char *base, int64_t O, int64_t A, int64_t I,
                           int64_t alo, char *obase) {
  enum { CH = 256 };
  double m[CH];
  int64_t k[CH];
  int mx = op == MN_RED_MAX || op == MN_RED_ARGMAX, arg = op == MN_RED_ARGMAX || op == MN_RED_ARGMIN;
  if (t == MN_FLOAT64) {
    MN_EXTREMES(double)
  } else {
    MN_EXTREMES(float)
  }
}
#undef MN_EXTREMES
#undef MN_BEYOND

/* Float sums (dense_float_sum's) and extremes stored straight into out,
 * where this rank's lines are its own and its part of out is dense (a
 * rank alone in its lines: no partials to exchange). The same bits as the
 * partials mni_acc_store stores: each line in index order, sums in double,
 * rows of inner cells a chunk at a time. A (3, 10^6) array's sum over
 * axis 0 built 10^6 partials of 40 bytes and merged them one by one:
 * 118 ms, NumPy 1.6. 0: not this case. */
static int alone_reduce(mn_reduce_op op, const mn_array *x, int axis, const int64_t *xlo, const int64_t *xcnt,
                        const mn_array *out, const int64_t *olo, const int64_t *ocnt) {
  mn_dtype t = x->dtype;
  int ext = op == MN_RED_MAX || op == MN_RED_MIN || op == MN_RED_ARGMAX || op == MN_RED_ARGMIN;
  if ((op != MN_RED_SUM && !ext) || (t != MN_FLOAT64 && t != MN_FLOAT32) || out->dtype != mn_reduce_result(op, t))
    return 0;
  int64_t ost[MN_MAXDIM], O, A = xcnt[axis], I;
  mn_map_strides(&out->map, out->buf, ost);
  if (!mn_strides_dense(x->map.ndim - 1, ocnt, ost)) return 0;
  const char *base = dense_lines(x, axis, xlo, xcnt, &O, &I);
  if (!base) return 0;
  mn_buf_host(out->buf, mn_array_whole_storage(out) ? MN_WRITE_ALL : 1);
  char *obase = mn_map_ptr(&out->map, out->buf, olo);
  if (ext) {
    alone_extremes(op, t, base, O, A, I, xlo[axis], obase);
    return 1;
  }
  size_t es = mn_dtype_size(t);
  if (I == 1) { /* the last axis: each line contiguous, one running sum (stored as it ends: short lines) */
    for (int64_t o = 0; o < O; o++) {
      double f = line_sum(t, base + o * A * (int64_t)es, A);
      if (t == MN_FLOAT64) ((double *)obase)[o] = f;
      else ((float *)obase)[o] = (float)f;
    }
    return 1;
  }
  double acc[SUM_CHUNK];
  for (int64_t o = 0; o < O; o++)
    for (int64_t i0 = 0; i0 < I; i0 += SUM_CHUNK) {
      int64_t n = I - i0 < SUM_CHUNK ? I - i0 : SUM_CHUNK;
      const char *v = base + (o * A * I + i0) * (int64_t)es;
      rows_sum(t, v, A, I, n, acc);
      if (t == MN_FLOAT64) memcpy((double *)obase + o * I + i0, acc, sizeof(double) * (size_t)n);
      else for (int64_t i = 0; i < n; i++) ((float *)obase)[o * I + i0 + i] = (float)acc[i];
    }
  return 1;
}

/* Argument checks; the axis is a per-rank value, so the caller agrees. */
static int check_axis(mn_reduce_op op, const mn_array *x, int axis, const mn_array *out) {
  MN_CHECK(op >= 0 && op < MN_NREDUCE, MN_ERR_ARG, "unknown reduction %d", (int)op);
  MN_CHECK(mn_reduce_result(op, x->dtype) != MN_NDTYPE, MN_ERR_DTYPE, "reduction %s has no %s kernel",
           mn_reduce_name(op), mn_dtype_name(x->dtype));
  int nd = x->map.ndim;
  MN_CHECK(axis >= -nd && axis < nd, MN_ERR_INDEX, "axis %d is out of bounds for array of dimension %d", axis, nd);
  if (axis < 0) axis += nd;
  int64_t oshape[MN_MAXDIM];
  proj(nd, axis, x->map.shape, oshape);
  int same = out->map.ndim == nd - 1;
  for (int d = 0; same && d < nd - 1; d++) same = out->map.shape[d] == oshape[d];
  if (!same) {
    char a[128], b[128];
    mn_shape_str(nd - 1, oshape, a, sizeof a);
    mn_shape_str(out->map.ndim, out->map.shape, b, sizeof b);
    return MN_ERR(MN_ERR_SHAPE, "%s along axis %d gives shape %s, but out has shape %s", mn_reduce_name(op), axis, a, b);
  }
  MN_CHECK(!(mn_reduce_needs_data(op) && x->map.shape[axis] == 0 && mn_array_size(out) > 0), MN_ERR_SHAPE,
           "zero-size array to reduction operation %s which has no identity", mn_reduce_name(op));
  return MN_SUCCESS;
}

static int reduce_axis(mn_reduce_op op, const mn_array *x, int axis, mn_array *out) {
  int e0 = mn_agree(x->ctx, check_axis(op, x, axis, out));
  if (e0) return mn_trace(e0, __FILE__, __LINE__, __func__);
  int nd = x->map.ndim;
  if (axis < 0) axis += nd;
  mn_ctx *ctx = x->ctx;
  int P = ctx->size, me = ctx->rank, ond = nd - 1, err = 0;
  mn_dtype t = x->dtype;
  /* my partials over the projection of my block of x */
  int64_t xlo[MN_MAXDIM], xcnt[MN_MAXDIM], plo[MN_MAXDIM], pcnt[MN_MAXDIM];
  int have = mn_map_owned_box(&x->map, x->buf->lay, me, xlo, xcnt);
  proj(nd, axis, xlo, plo);
  proj(nd, axis, xcnt, pcnt);
  int64_t np = have ? mn_box_size(ond, pcnt) : 0;
  int64_t olo[MN_MAXDIM], ocnt[MN_MAXDIM];
  int haveo = mn_map_owned_box(&out->map, out->buf->lay, me, olo, ocnt);
  int64_t no = haveo ? mn_box_size(ond, ocnt) : 0;
  /* on the device where x's values are: straight into out when no rank
   * sends this one partials or takes any from it */
  int dev = have && ctx->ops->axis && mn_buf_device_ok(x->buf) && (x->buf->valid & MN_VALID_DEV);
  if (dev && haveo && out_on_device(out) && alone(x, out, axis, plo, pcnt, olo, ocnt)) {
    err = mn_agree(ctx, axis_launch(op, x, axis, xlo, xcnt, NULL, out, olo)); /* (the others' below) */
    return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
  }
  if (have && haveo && !dev && !(x->buf->valid & MN_VALID_DEV) && !out_on_device(out) &&
      alone(x, out, axis, plo, pcnt, olo, ocnt) && alone_reduce(op, x, axis, xlo, xcnt, out, olo, ocnt)) {
    err = mn_agree(ctx, 0); /* the one agreement of the ranks that go on below, as the device's above */
    return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
  }
  mn_acc *part = malloc(sizeof(mn_acc) * (size_t)(np ? np : 1));
  if (!part) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld reduction partials", (long long)np);
  for (int64_t k = 0; !err && k < np; k++) mn_acc_init(op, t, &part[k]);
  if (have && !err && dev) err = axis_launch(op, x, axis, xlo, xcnt, part, NULL, NULL);
  else if (have && !err && dense_float_sum(op, x, axis, xlo, xcnt, part)) {
  } else if (have && !err) {
    int64_t xst[MN_MAXDIM], n = mn_box_size(nd, xcnt);
    mn_map_strides(&x->map, x->buf, xst);
    mn_buf_host(x->buf, 0);
    const char *base = mn_map_ptr(&x->map, x->buf, xlo);
    size_t es = mn_dtype_size(t);
    for (int64_t k = 0; k < n; k++) { /* in memory order; each cell's line in index order, as on the device */
      int64_t r = k, off = 0, pk = 0, ps = 1, ai = 0;
      for (int d = nd - 1; d >= 0; d--) {
        int64_t i = r % xcnt[d];
        r /= xcnt[d];
        off += i * xst[d];
        if (d == axis) ai = xlo[d] + i;
        else { pk += i * ps; ps *= xcnt[d]; }
      }
      mni_axis_push((int)op, (int)t, &part[pk], base + off * (int64_t)es, ai);
    }
  }
  /* exchange partials with the owners of out */
  mn_acc *res = malloc(sizeof(mn_acc) * (size_t)(no ? no : 1));
  mn_acc **rbuf = calloc((size_t)P, sizeof(mn_acc *)), **sbuf = calloc((size_t)P, sizeof(mn_acc *));
  int64_t (*rbox)[2][MN_MAXDIM] = calloc((size_t)P, sizeof *rbox);
  int64_t *rsz = calloc((size_t)P, sizeof(int64_t)), *ssz = calloc((size_t)P, sizeof(int64_t));
  if (!err && (!res || !rbuf || !sbuf || !rbox || !rsz || !ssz))
    err = MN_ERR(MN_ERR_MEM, "cannot allocate reduction buffers");
  int64_t pst[MN_MAXDIM];
  mn_dense_strides(ond, pcnt, pst);
  /* the ranks to visit: senders of partials for my part of out, and owners
   * of out where my partials go, merged in rank order */
  int *cr = err ? NULL : malloc(sizeof(int) * 3 * (size_t)P), nr = 0, ns = 0, nv = 0;
  if (!err && !cr) err = MN_ERR(MN_ERR_MEM, "cannot allocate %d ranks", P);
  if (!err) {
    int *cs = cr + P, *visit = cr + 2 * P;
    nr = haveo ? senders(x, axis, olo, ocnt, cr) : 0;
    ns = have ? mn_map_box_owners(&out->map, out->buf->lay, plo, pcnt, cs) : 0;
    for (int i = 0, j = 0; i < nr || j < ns;) {
      int q = j == ns || (i < nr && cr[i] <= cs[j]) ? cr[i] : cs[j];
      if (i < nr && cr[i] == q) i++;
      if (j < ns && cs[j] == q) j++;
      visit[nv++] = q;
    }
  }
  for (int v = 0; v < nv && !err; v++) {
    int q = cr[2 * P + v];
    int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM], qlo[MN_MAXDIM], qcnt[MN_MAXDIM], a[MN_MAXDIM], c[MN_MAXDIM];
    /* receive q's partials for my part of out */
    if (haveo && mn_map_owned_box(&x->map, x->buf->lay, q, a, c)) {
      proj(nd, axis, a, qlo);
      proj(nd, axis, c, qcnt);
      if (mn_box_intersect(ond, olo, ocnt, qlo, qcnt, lo, cnt)) {
        int64_t m = mn_box_size(ond, cnt);
        rbuf[q] = malloc(sizeof(mn_acc) * (size_t)m);
        if (!rbuf[q]) { err = MN_ERR(MN_ERR_MEM, "cannot allocate a partials buffer"); break; }
        memcpy(rbox[q][0], lo, sizeof lo);
        memcpy(rbox[q][1], cnt, sizeof cnt);
        if (q == me) {
          int64_t dst[MN_MAXDIM];
          mn_dense_strides(ond, cnt, dst);
          int64_t off = 0;
          for (int d = 0; d < ond; d++) off += (lo[d] - plo[d]) * pst[d];
          mn_strided_copy(ond, cnt, sizeof(mn_acc), (char *)(part + off), pst, (char *)rbuf[q], dst);
        } else {
          rsz[q] = m * (int64_t)sizeof(mn_acc);
        }
      }
    }
    /* send q the partials of my block for its part of out */
    if (q != me && have && mn_map_owned_box(&out->map, out->buf->lay, q, qlo, qcnt) &&
        mn_box_intersect(ond, plo, pcnt, qlo, qcnt, lo, cnt)) {
      int64_t m = mn_box_size(ond, cnt), dst[MN_MAXDIM];
      sbuf[q] = malloc(sizeof(mn_acc) * (size_t)m);
      if (!sbuf[q]) { err = MN_ERR(MN_ERR_MEM, "cannot allocate a partials buffer"); break; }
      mn_dense_strides(ond, cnt, dst);
      int64_t off = 0;
      for (int d = 0; d < ond; d++) off += (lo[d] - plo[d]) * pst[d];
      mn_strided_copy(ond, cnt, sizeof(mn_acc), (char *)(part + off), pst, (char *)sbuf[q], dst);
      ssz[q] = m * (int64_t)sizeof(mn_acc);
    }
  }
  int64_t npc = 1;
  for (int q = 0; !err && q < P; q++) npc += mn_mpi_npieces(rsz[q]) + mn_mpi_npieces(ssz[q]);
  MPI_Request *req = err ? NULL : malloc(sizeof(MPI_Request) * (size_t)npc);
  if (!err && !req) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld requests", (long long)npc);
  /* everything that can fail on one rank is done: agree, then communicate */
  err = mn_agree(ctx, err);
  int nreq = 0;
  for (int q = 0; !err && q < P; q++) {
    if (rsz[q]) err = mn_mpi_post(0, (char *)rbuf[q], rsz[q], q, 77, ctx, req, &nreq);
    if (!err && ssz[q]) err = mn_mpi_post(1, (char *)sbuf[q], ssz[q], q, 77, ctx, req, &nreq);
  }
  if (nreq) MPI_Waitall(nreq, req, MPI_STATUSES_IGNORE);
  if (!err && haveo) {
    int64_t rst[MN_MAXDIM];
    mn_dense_strides(ond, ocnt, rst);
    for (int64_t k = 0; k < no; k++) mn_acc_init(op, t, &res[k]);
    for (int q = 0; q < P; q++) {
      if (!rbuf[q]) continue;
      int64_t m = mn_box_size(ond, rbox[q][1]);
      for (int64_t k = 0; k < m; k++) {
        int64_t r = k, off = 0;
        for (int d = ond - 1; d >= 0; d--) {
          int64_t i = r % rbox[q][1][d];
          r /= rbox[q][1][d];
          off += (rbox[q][0][d] + i - olo[d]) * rst[d];
        }
        mn_acc_merge(op, t, &res[off], &rbuf[q][k]);
      }
    }
    int64_t ost[MN_MAXDIM];
    mn_map_strides(&out->map, out->buf, ost);
    mn_buf_host(out->buf, mn_array_whole_storage(out) ? MN_WRITE_ALL : 1);
    char *obase = mn_map_ptr(&out->map, out->buf, olo);
    size_t oes = mn_dtype_size(out->dtype);
    int rt = (int)mn_reduce_result(op, t);
    for (int64_t k = 0; k < no; k++) {
      int64_t r = k, off = 0;
      for (int d = ond - 1; d >= 0; d--) { off += (r % ocnt[d]) * ost[d]; r /= ocnt[d]; }
      mni_acc_store((int)op, (int)t, rt, (int)out->dtype, &res[k], obase + off * (int64_t)oes);
    }
  }
  for (int q = 0; q < P && rbuf; q++) { free(rbuf[q]); if (sbuf) free(sbuf[q]); }
  free(rbuf);
  free(sbuf);
  free(rbox);
  free(req);
  free(rsz);
  free(ssz);
  free(res);
  free(part);
  free(cr);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_array_reduce_axis(mn_reduce_op op, const mn_array *x, int axis, mn_array *out) {
  MN_CHECK(x && out, MN_ERR_ARG, "NULL array or output");
  MN_SPMD(x ? x->ctx : NULL, "mn_array_reduce_axis", mn_spmd_int(S, "op", op), mn_spmd_array(S, "x", x),
          mn_spmd_int(S, "axis", axis), mn_spmd_array(S, "out", out));
  MN_CHECK(x->ctx == out->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  mn_log_begin(x->ctx, MN_LOG_REDUCE);
  int err = reduce_axis(op, x, axis, out);
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM], mem = 0; /* x read, out written */
  int est = !err && mn_log_on(x->ctx);
  if (est && mn_map_owned_box(&x->map, x->buf->lay, x->ctx->rank, lo, cnt))
    mem += mn_box_size(x->map.ndim, cnt) * (int64_t)mn_dtype_size(x->dtype);
  if (est && mn_map_owned_box(&out->map, out->buf->lay, out->ctx->rank, lo, cnt))
    mem += mn_box_size(out->map.ndim, cnt) * (int64_t)mn_dtype_size(out->dtype);
  mn_log_end(x->ctx, MN_LOG_REDUCE, mem);
  return err;
}

/* The emulated device's launch: the kernel's body over every cell, with x's
 * storage open for reading and the target's for writing meanwhile. */
int mni_emu_axis(const mni_axis_job *j) {
  mni_emu_open(j->xspan, j->xbytes, 0);
  mni_emu_open(j->pspan, j->pbytes, 1);
  for (int64_t c = 0; c < j->ncell; c++) mni_axis_cell(j, c);
  mni_emu_close(j->pspan, j->pbytes);
  mni_emu_close(j->xspan, j->xbytes);
  return MN_SUCCESS;
}
