/* Boundary ghosts: after the halo exchange, the ghost layers outside the
 * physical boundary (up to the stencil's reach) get their values from the
 * boundary conditions. Axes go in order, each over the other axes' ghost
 * ranges too, so a corner takes the last axis's condition applied to
 * values already final (exchanged, wrapped, or set by an earlier axis):
 * the same values whatever the process grid. */
#include "stencil_impl.h"
#include "kernels/stencil.h"

/* Layers k = 1..r on one side of axis d: ghost at -k mirrors k-1 (low),
 * ghost at n-1+k mirrors n-k (high); other axes e over [-r_e, n_e + r_e).
 * Rows along the last axis, walked with an odometer (no divisions). */
#define MN_ST_FILL(T)                                                                                      \
  static void fill_##T(T *o, int nd, const int64_t *n, const int64_t *st, const int *reach, int d,        \
                       int side, mn_bc_kind kind, double value) {                                          \
    int64_t ext[MN_MAXDIM] = {0}, idx[MN_MAXDIM] = {0}, rows = 1;                                          \
    for (int e = 0; e < nd; e++) {                                                                         \
      ext[e] = e == d ? reach[d] : n[e] + 2 * (int64_t)reach[e];                                           \
      if (e < nd - 1) rows *= ext[e];                                                                      \
    }                                                                                                      \
    /* position along axis e of odometer value i: ghost and mirror */                                     \
    int64_t last = nd - 1, len = ext[last];                                                                \
    for (int64_t q = 0; q < rows; q++) {                                                                   \
      int64_t at = 0, mirror = 0;                                                                          \
      for (int e = 0; e < last; e++) {                                                                     \
        int64_t g = idx[e] - reach[e], m = g;                                                              \
        if (e == d) { g = side ? n[d] + idx[e] : -1 - idx[e]; m = side ? n[d] - 1 - idx[e] : idx[e]; }    \
        at += g * st[e];                                                                                   \
        mirror += m * st[e];                                                                               \
      }                                                                                                    \
      for (int64_t i = 0; i < len; i++) {                                                                  \
        int64_t g = i - reach[last], m = g;                                                                \
        if (last == d) { g = side ? n[d] + i : -1 - i; m = side ? n[d] - 1 - i : i; }                      \
        double mv = (double)o[mirror + m * st[last]];                                                      \
        o[at + g * st[last]] =                                                                             \
            (T)mni_st_bc_value(kind == MN_BC_DIRICHLET, kind == MN_BC_DIRICHLET_FACE, value, mv);          \
      }                                                                                                    \
      for (int e = last - 1; e >= 0; e--) {                                                                \
        if (++idx[e] < ext[e]) break;                                                                      \
        idx[e] = 0;                                                                                        \
      }                                                                                                    \
    }                                                                                                      \
  }
MN_ST_FILL(float)
MN_ST_FILL(double)

void mni_st_fill_side(int dtype, char *o, int nd, const int64_t *n, const int64_t *st, const int *reach, int d,
                      int side, int kind, double value) {
  if (dtype == MN_FLOAT32) fill_float((float *)o, nd, n, st, reach, d, side, (mn_bc_kind)kind, value);
  else fill_double((double *)o, nd, n, st, reach, d, side, (mn_bc_kind)kind, value);
}

void mni_st_fill_bc(const mn_stencil *s, mn_array *u) {
  mn_local l;
  const mn_buf *b = u->buf;
  /* on the side that holds u's values: the device's after a device exchange */
  int dev = b->ops->stencil_bc && mn_buf_device_ok(b) && (b->valid & MN_VALID_DEV);
  mn_array_local_in(u, dev, &l);
  if (!l.data) return;
  const int64_t *shape = b->lay->shape;
  for (int d = 0; d < s->nd; d++) {
    if (s->reach[d] == 0) continue;
    for (int side = 0; side < 2; side++) {
      const mni_st_bc *bc = &s->bc[d][side];
      if (bc->kind == MN_BC_PERIODIC) continue;
      if (side == 0 ? b->lo[d] != 0 : b->hi[d] != shape[d]) continue; /* a neighbour's ghosts */
      if (!dev)
        mni_st_fill_side(u->dtype, (char *)l.data, s->nd, l.count, l.stride, s->reach, d, side, (int)bc->kind,
                         bc->value);
      else if (b->ops->stencil_bc(u->dtype, b, (char *)l.data, s->nd, l.count, l.stride, s->reach, d, side,
                                  (int)bc->kind, bc->value))
        mn_device_abort(s->ctx, "a boundary ghost launch"); /* this rank's alone (see mni_st_box) */
    }
  }
}
