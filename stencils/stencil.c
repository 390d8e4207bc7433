/* Stencil objects: points and weights, the Laplacians, boundary
 * conditions, variable coefficients. */
#include "stencil_impl.h"
#include "spmd.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

const char *mn_bc_name(mn_bc_kind k) {
  switch (k) {
  case MN_BC_DIRICHLET: return "dirichlet";
  case MN_BC_DIRICHLET_FACE: return "dirichlet_face";
  case MN_BC_NEUMANN: return "neumann";
  case MN_BC_PERIODIC: return "periodic";
  }
  return "unknown";
}

/* The cross fast paths: constant weights, exactly the centre and the two
 * neighbours on each axis, in any order. */
static void find_cross(mn_stencil *s) {
  s->cross = MN_ST_GENERAL;
  if (s->ncoef || !((s->nd == 2 && s->npts == 5) || (s->nd == 3 && s->npts == 7))) return;
  int seen[7];
  for (int q = 0; q < 7; q++) seen[q] = -1;
  for (int k = 0; k < s->npts; k++) {
    const int *o = s->off + (size_t)k * (size_t)s->nd;
    int nz = 0, ax = -1;
    for (int d = 0; d < s->nd; d++)
      if (o[d]) { nz++; ax = d; }
    int q;
    if (nz == 0) q = 0;
    else if (nz == 1 && (o[ax] == 1 || o[ax] == -1)) q = 1 + 2 * ax + (o[ax] > 0);
    else return;
    if (seen[q] >= 0) return;
    seen[q] = k;
  }
  memcpy(s->cross_pt, seen, sizeof seen);
  s->cross = s->npts;
}

int mn_stencil_create(mn_ctx *ctx, int nd, int npts, const int *offsets, const double *weights,
                      mn_stencil **out) {
  MN_CHECK(out, MN_ERR_ARG, "NULL output pointer");
  *out = NULL;
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  MN_SPMD(ctx, "mn_stencil_create", mn_spmd_int(S, "nd", nd), mn_spmd_int(S, "npts", npts),
          mn_spmd_ints(S, "offsets", offsets && nd > 0 && npts > 0 && nd <= MN_MAXDIM ? nd * npts : 0, offsets),
          mn_spmd_bytes(S, "weights", weights, weights && npts > 0 ? sizeof(double) * (size_t)npts : 0,
                        "(the weights)"));
  MN_CHECK(nd >= 1 && nd <= MN_MAXDIM, MN_ERR_ARG, "stencil dimension %d outside 1..%d", nd, MN_MAXDIM);
  MN_CHECK(npts >= 1, MN_ERR_ARG, "a stencil needs at least one point, got %d", npts);
  MN_CHECK(offsets && weights, MN_ERR_ARG, "NULL offsets or weights");
  for (int k = 0; k < npts; k++) {
    MN_CHECK(isfinite(weights[k]), MN_ERR_ARG, "weight %d is %g", k, weights[k]);
    for (int d = 0; d < nd; d++) {
      int o = offsets[(size_t)k * (size_t)nd + (size_t)d];
      MN_CHECK(o >= -1024 && o <= 1024, MN_ERR_ARG, "offset %d of point %d on axis %d is out of range", o, k, d);
    }
  }
  mn_stencil *s = calloc(1, sizeof *s);
  MN_CHECK(s, MN_ERR_MEM, "cannot allocate a stencil");
  s->ctx = ctx;
  s->nd = nd;
  s->npts = npts;
  s->off = malloc(sizeof(int) * (size_t)npts * (size_t)nd);
  s->w = malloc(sizeof(double) * (size_t)npts);
  s->coef = calloc((size_t)npts, sizeof(mn_array *));
  s->conv = calloc((size_t)npts, sizeof(mn_array *));
  s->ctr = malloc(sizeof(int) * (size_t)npts);
  if (!s->off || !s->w || !s->coef || !s->conv || !s->ctr) {
    mn_stencil_destroy(&s);
    return MN_ERR(MN_ERR_MEM, "cannot allocate a stencil of %d points", npts);
  }
  memcpy(s->off, offsets, sizeof(int) * (size_t)npts * (size_t)nd);
  memcpy(s->w, weights, sizeof(double) * (size_t)npts);
  for (int k = 0; k < npts; k++) {
    int zero = 1;
    for (int d = 0; d < nd; d++) {
      int o = abs(s->off[(size_t)k * (size_t)nd + (size_t)d]);
      if (o > s->reach[d]) s->reach[d] = o;
      if (o > s->maxreach) s->maxreach = o;
      zero &= o == 0;
    }
    if (zero) s->ctr[s->nctr++] = k;
  }
  for (int d = 0; d < nd; d++)
    for (int side = 0; side < 2; side++) s->bc[d][side] = (mni_st_bc){MN_BC_DIRICHLET, 0.0};
  find_cross(s);
  *out = s;
  return MN_SUCCESS;
}

/* D = [1 -2 1] / h^2 and M = [1 10 1] / 12 at offset o in {-1, 0, 1} */
static double dval(int o, double h) { return (o ? 1.0 : -2.0) / (h * h); }
static double mval(int o) { return o ? 1.0 / 12.0 : 10.0 / 12.0; }

int mn_stencil_create_laplacian(mn_ctx *ctx, int nd, int npts, const double *h, mn_stencil **out) {
  MN_CHECK(out, MN_ERR_ARG, "NULL output pointer");
  *out = NULL;
  MN_CHECK(h, MN_ERR_ARG, "NULL grid spacings");
  int cross = (nd == 1 && npts == 3) || (nd == 2 && npts == 5) || (nd == 3 && npts == 7);
  int box = (nd == 2 && npts == 9) || (nd == 3 && npts == 27);
  MN_CHECK(cross || box, MN_ERR_ARG,
           "no %d-point Laplacian in %d-d (there are 3 in 1-d, 5 and 9 in 2-d, 7 and 27 in 3-d)", npts, nd);
  for (int d = 0; d < nd; d++)
    MN_CHECK(isfinite(h[d]) && h[d] > 0, MN_ERR_ARG, "grid spacing h[%d] = %g must be positive", d, h[d]);
  int off[27 * 3];
  double w[27];
  int n = 0;
  if (cross) {
    off[0] = off[1] = off[2] = 0;
    w[0] = 0;
    for (int d = 0; d < nd; d++) w[0] -= 2.0 / (h[d] * h[d]);
    n = 1;
    for (int d = 0; d < nd; d++)
      for (int sgn = -1; sgn <= 1; sgn += 2) {
        for (int e = 0; e < nd; e++) off[n * nd + e] = e == d ? sgn : 0;
        w[n++] = 1.0 / (h[d] * h[d]);
      }
  } else {
    /* every offset in {-1,0,1}^nd: sum_i D_i(o_i) prod_{j != i} M(o_j) */
    int total = nd == 2 ? 9 : 27;
    for (int c = 0; c < total; c++) {
      int o[3], r = c;
      for (int d = nd - 1; d >= 0; d--) { o[d] = r % 3 - 1; r /= 3; }
      double v = 0;
      for (int i = 0; i < nd; i++) {
        double t = dval(o[i], h[i]);
        for (int j = 0; j < nd; j++)
          if (j != i) t *= mval(o[j]);
        v += t;
      }
      for (int d = 0; d < nd; d++) off[n * nd + d] = o[d];
      w[n++] = v;
    }
  }
  MN_CALL(mn_stencil_create(ctx, nd, n, off, w, out));
  return MN_SUCCESS;
}

static void drop_conv(mn_stencil *s) {
  for (int k = 0; s->conv && k < s->npts; k++) mn_array_destroy(&s->conv[k]);
}

int mn_stencil_destroy(mn_stencil **sp) {
  if (!sp || !*sp) return MN_SUCCESS;
  mn_stencil *s = *sp;
  drop_conv(s);
  mni_st_keep_drop(s);
  mn_array_destroy(&s->work);
  for (int k = 0; s->coef && k < s->npts; k++) mn_array_destroy(&s->coef[k]);
  free(s->coef);
  free(s->conv);
  free(s->off);
  free(s->w);
  free(s->ctr);
  free(s);
  *sp = NULL;
  return MN_SUCCESS;
}

int mn_stencil_ndim(const mn_stencil *s) { return s ? s->nd : 0; }
int mn_stencil_npts(const mn_stencil *s) { return s ? s->npts : 0; }
int mn_stencil_reach(const mn_stencil *s) { return s ? s->maxreach : 0; }

int mni_st_axis_reach(const mn_stencil *s, int d) { return s->reach[d]; }

mn_ctx *mni_st_ctx(const mn_stencil *s) { return s->ctx; }

int mn_stencil_get_points(const mn_stencil *s, int *offsets, double *weights) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  if (offsets) memcpy(offsets, s->off, sizeof(int) * (size_t)s->npts * (size_t)s->nd);
  if (weights) memcpy(weights, s->w, sizeof(double) * (size_t)s->npts);
  return MN_SUCCESS;
}

int mn_stencil_scale(mn_stencil *s, double alpha) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  MN_CHECK(isfinite(alpha), MN_ERR_ARG, "scale factor %g is not finite", alpha);
  for (int k = 0; k < s->npts; k++) s->w[k] *= alpha;
  drop_conv(s);
  for (int k = 0; k < s->npts; k++)
    if (s->coef[k]) MN_CALL(mn_array_binary_scalar(MN_OP_MUL, s->coef[k], mn_scalar_f64(alpha), 0, s->coef[k]));
  return MN_SUCCESS;
}

int mn_stencil_set_coefficient(mn_stencil *s, int point, const mn_array *c) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  MN_CHECK(point >= 0 && point < s->npts, MN_ERR_ARG, "point %d outside 0..%d", point, s->npts - 1);
  mn_array *copy = NULL;
  if (c) {
    MN_CHECK(c->ctx == s->ctx, MN_ERR_ARG, "coefficient array belongs to another context");
    MN_CHECK(c->map.ndim == s->nd, MN_ERR_SHAPE, "coefficient array of point %d is %d-d, the stencil %d-d", point,
             c->map.ndim, s->nd);
    MN_CHECK(mn_is_float(c->dtype) || c->dtype == MN_INT32 || c->dtype == MN_INT64, MN_ERR_DTYPE,
             "coefficient array of dtype %s; a number type is needed", mn_dtype_name(c->dtype));
    /* float64 keeps the values whatever grid dtype comes later */
    MN_CALL(mn_array_create_like(c, MN_FLOAT64, &copy));
    int err = mn_array_copy(c, copy);
    if (err) {
      mn_array_destroy(&copy);
      return mn_trace(err, __FILE__, __LINE__, __func__);
    }
  }
  drop_conv(s);
  if (s->coef[point]) s->ncoef--;
  mn_array_destroy(&s->coef[point]);
  s->coef[point] = copy;
  if (copy) s->ncoef++;
  find_cross(s);
  return MN_SUCCESS;
}

int mn_stencil_set_bc(mn_stencil *s, int axis, int side, mn_bc_kind kind, double value) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  MN_CHECK(axis >= 0 && axis < s->nd, MN_ERR_ARG, "axis %d outside 0..%d", axis, s->nd - 1);
  MN_CHECK(side == 0 || side == 1, MN_ERR_ARG, "side %d must be 0 (low) or 1 (high)", side);
  MN_CHECK(kind >= MN_BC_DIRICHLET && kind <= MN_BC_PERIODIC, MN_ERR_ARG, "unknown boundary kind %d", (int)kind);
  MN_CHECK(isfinite(value), MN_ERR_ARG, "boundary value %g is not finite", value);
  mni_st_bc *b = s->bc[axis];
  if (kind == MN_BC_PERIODIC) {
    b[0] = b[1] = (mni_st_bc){MN_BC_PERIODIC, 0.0};
    return MN_SUCCESS;
  }
  if (b[1 - side].kind == MN_BC_PERIODIC) b[1 - side] = (mni_st_bc){MN_BC_DIRICHLET, 0.0};
  b[side] = (mni_st_bc){kind, kind == MN_BC_NEUMANN ? 0.0 : value};
  return MN_SUCCESS;
}

int mn_stencil_get_bc(const mn_stencil *s, int axis, int side, mn_bc_kind *kind, double *value) {
  MN_CHECK(s, MN_ERR_ARG, "NULL stencil");
  MN_CHECK(axis >= 0 && axis < s->nd, MN_ERR_ARG, "axis %d outside 0..%d", axis, s->nd - 1);
  MN_CHECK(side == 0 || side == 1, MN_ERR_ARG, "side %d must be 0 (low) or 1 (high)", side);
  if (kind) *kind = s->bc[axis][side].kind;
  if (value) *value = s->bc[axis][side].value;
  return MN_SUCCESS;
}
