/* The diagonal of a stencil as a linear operator on a grid: the factor
 * with which u(x) enters (A u)(x). Away from the physical boundary that is
 * the centre weight. Near it a read outside the grid is a ghost, which may
 * be x itself: mirrored (Neumann +1, Dirichlet on the face -1) or wrapped
 * (periodic). Ghosts are filled axis by axis, each axis's map applied to
 * the coordinates the earlier ones left, so the maps compose per axis. A
 * Dirichlet ghost is a constant: no part of the linear operator. */
#include "stencil_impl.h"
#include "spmd.h"
#include <stdio.h>
#include <string.h>

/* where the read at coordinate t of an axis of extent n lands, and with
 * which factor (0: a constant) */
static int64_t land(const mni_st_bc *bc, int64_t t, int64_t n, double *factor) {
  if (t >= 0 && t < n) return t;
  const mni_st_bc *b = &bc[t >= n];
  switch (b->kind) {
  case MN_BC_PERIODIC: return ((t % n) + n) % n;
  case MN_BC_NEUMANN: return t < 0 ? -t - 1 : 2 * n - 1 - t;
  case MN_BC_DIRICHLET_FACE: *factor = -*factor; return t < 0 ? -t - 1 : 2 * n - 1 - t;
  default: *factor = 0; return t;
  }
}

/* the weight of point k at the owned point of local index i */
static double weight(const mn_stencil *s, int k, const int64_t *i) {
  if (!s->coef[k]) return s->w[k];
  mn_local l;
  mn_array_local_read(s->conv[k], 0, &l);
  int64_t o = 0;
  for (int d = 0; d < s->nd; d++) o += i[d] * l.stride[d];
  return l.data && mn_array_dtype(s->conv[k]) == MN_FLOAT32 ? (double)((const float *)l.data)[o]
                                                           : ((const double *)l.data)[o];
}

static double point_diag(const mn_stencil *s, const int64_t *shape, const int64_t *g, const int64_t *i) {
  int inner = 1;
  for (int d = 0; d < s->nd; d++) inner &= g[d] >= s->reach[d] && g[d] < shape[d] - s->reach[d];
  double D = 0;
  if (inner) {
    for (int q = 0; q < s->nctr; q++) D += weight(s, s->ctr[q], i);
    return D;
  }
  for (int k = 0; k < s->npts; k++) {
    double f = 1;
    int same = 1;
    for (int d = 0; d < s->nd; d++) {
      int64_t t = land(s->bc[d], g[d] + s->off[(size_t)k * (size_t)s->nd + (size_t)d], shape[d], &f);
      same &= t == g[d];
    }
    if (same && f != 0) D += f * weight(s, k, i);
  }
  return D;
}

static int check(const mn_stencil *s, const mn_array *d) {
  MN_CHECK(d, MN_ERR_ARG, "NULL diagonal array");
  MN_CHECK(d->ctx == s->ctx, MN_ERR_ARG, "diagonal array belongs to another context");
  MN_CHECK(d->map.ndim == s->nd, MN_ERR_SHAPE, "a %d-d stencil cannot act on a %d-d grid", s->nd, d->map.ndim);
  MN_CHECK(mn_is_float(d->dtype), MN_ERR_DTYPE, "the diagonal is float32 or float64, not %s", mn_dtype_name(d->dtype));
  for (int a = 0; a < s->nd; a++)
    MN_CHECK(d->map.shape[a] >= s->reach[a] && d->map.shape[a] >= 1, MN_ERR_SHAPE,
             "grid smaller than the stencil: axis %d has extent %lld, the stencil reaches %d", a,
             (long long)d->map.shape[a], s->reach[a]);
  for (int k = 0; k < s->npts; k++)
    MN_CHECK(!s->coef[k] || !memcmp(s->coef[k]->map.shape, d->map.shape, sizeof(int64_t) * (size_t)s->nd),
             MN_ERR_SHAPE, "coefficient array of point %d has another shape than the grid", k);
  return MN_SUCCESS;
}

int mn_stencil_diagonal(mn_stencil *s, mn_array *d) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  MN_SPMD(s ? s->ctx : NULL, "mn_stencil_diagonal", mn_spmd_array(S, "d", d));
  MN_CALL(mn_agree(s->ctx, check(s, d)));
  /* into d itself when it is a block-distributed base array */
  mn_array *t = d, *tmp = NULL;
  if (d->is_view || d->buf->lay->kind != MN_LAYOUT_BLOCK) {
    MN_CALL(mn_array_create(s->ctx, MN_FLOAT64, s->nd, d->map.shape, 0, &tmp));
    t = tmp;
  }
  int err = 0;
  MN_CALLG(err, mni_st_prepare_coef(s, t), done);
  mn_local l;
  mn_array_local_in(t, 0, &l);
  int64_t n = l.data ? mn_box_size(s->nd, l.count) : 0;
  for (int64_t q = 0; q < n; q++) {
    int64_t i[MN_MAXDIM], g[MN_MAXDIM], r = q, o = 0;
    for (int a = s->nd - 1; a >= 0; a--) {
      i[a] = r % l.count[a];
      r /= l.count[a];
      g[a] = l.lo[a] + i[a];
      o += i[a] * l.stride[a];
    }
    double v = point_diag(s, t->map.shape, g, i);
    if (t->dtype == MN_FLOAT32) ((float *)l.data)[o] = (float)v;
    else ((double *)l.data)[o] = v;
  }
  if (tmp) MN_CALLG(err, mn_array_copy(tmp, d), done);
done:
  mn_array_destroy(&tmp);
  return err;
}
