/* Matrix-free operators over a stencil. The solver's 1-d vectors (the
 * equal split of the grid points in C order) and the grid (a box per rank
 * of a process grid) own different points, so a product moves x into a
 * halo'd grid by flat index, applies the stencil there (halo exchange
 * overlapped with the interior), and moves the result back; both moves
 * are planned once. Where the two splits own the same points (one rank,
 * or slabs along axis 0 that cut at the same rows) the moves are plain
 * local copies. */
#include "solver_impl.h"
#include "expr_impl.h" /* mn_shape_str */
#include "stencil_shared.h"
#include "flatmove.h"
#include <stdlib.h>
#include <string.h>

typedef struct {
  mn_stencil *s;
  mn_array *u;            /* x on the grid, halo = the stencil's reach */
  mn_array *y;            /* A u on the grid: u's layout, no halo */
  mn_array *v;            /* a 1-d vector of the op's dtype in the default layout */
  mn_flatmove *in, *out;  /* v -> u, y -> v */
} st_op;

/* a 1-d array the moves can use in place of v */
static int fits(const mn_array *a, const mn_array *v) {
  const mn_buf *b = a->buf, *c = v->buf;
  if (a->is_view || a->dtype != v->dtype || b->halo != c->halo || b->lay->kind != c->lay->kind) return 0;
  return b->ndim == 1 && b->lay->shape[0] == c->lay->shape[0] && b->lay->dims[0] == c->lay->dims[0];
}

/* y = A x + g needs g = 0 to be an operator */
static int check_linear(const mn_stencil *s) {
  for (int d = 0; d < mn_stencil_ndim(s); d++)
    for (int side = 0; side < 2; side++) {
      mn_bc_kind k;
      double v;
      MN_CALL(mn_stencil_get_bc(s, d, side, &k, &v));
      MN_CHECK((k != MN_BC_DIRICHLET && k != MN_BC_DIRICHLET_FACE) || v == 0, MN_ERR_ARG,
               "boundary value %g (%s) on axis %d, side %d makes the stencil affine (A x + g), not a linear "
               "operator: set it to 0 and move the boundary values into the right-hand side",
               v, mn_bc_name(k), d, side);
    }
  return MN_SUCCESS;
}

static int check(const mn_stencil *s, const mn_array *grid) {
  MN_CHECK(grid, MN_ERR_ARG, "NULL grid template");
  MN_CHECK(grid->ctx == mni_st_ctx(s), MN_ERR_ARG, "the grid template belongs to another context than the stencil");
  int nd = mn_stencil_ndim(s), gd = grid->map.ndim;
  char shape[160];
  mn_shape_str(gd, grid->map.shape, shape, sizeof shape);
  MN_CHECK(gd == nd, MN_ERR_SHAPE, "a %d-d stencil cannot act on a %d-d grid (the template has shape %s)", nd, gd,
           shape);
  for (int d = 0; d < nd; d++)
    MN_CHECK(grid->map.shape[d] >= mni_st_axis_reach(s, d), MN_ERR_SHAPE,
             "grid smaller than the stencil: axis %d has extent %lld, the stencil reaches %d", d,
             (long long)grid->map.shape[d], mni_st_axis_reach(s, d));
  MN_CALL(check_linear(s));
  return MN_SUCCESS;
}

/* the grid's halo (the largest reach, on every axis) must fit each block */
static int check_blocks(const mn_stencil *s, const mn_layout *lay) {
  for (int d = 0; d < lay->ndim; d++) {
    int64_t small = lay->shape[d] / lay->dims[d];
    MN_CHECK(small >= mn_stencil_reach(s), MN_ERR_SHAPE,
             "grid smaller than the stencil: axis %d (extent %lld over %d ranks) has blocks of %lld, the stencil "
             "reaches %d (use a larger grid or fewer ranks)",
             d, (long long)lay->shape[d], lay->dims[d], (long long)small, mn_stencil_reach(s));
  }
  return MN_SUCCESS;
}

static void st_free(void *data) {
  st_op *t = data;
  if (!t) return;
  mn_flatmove_destroy(&t->in);
  mn_flatmove_destroy(&t->out);
  mn_array_destroy(&t->u);
  mn_array_destroy(&t->y);
  mn_array_destroy(&t->v);
  free(t);
}

/* the grids and moves; errors agreed */
static int setup(st_op *t, const mn_array *grid, mn_dtype dt, int64_t n) {
  mn_ctx *ctx = mni_st_ctx(t->s);
  mn_layout *lay = NULL;
  int reach = mn_stencil_reach(t->s);
  /* the template's process grid when it is a whole block-distributed array */
  int own = grid->is_view || grid->buf->lay->kind != MN_LAYOUT_BLOCK;
  if (own) MN_CALL(mn_layout_create_block(ctx, grid->map.ndim, grid->map.shape, NULL, &lay));
  else lay = grid->buf->lay;
  int err = check_blocks(t->s, lay);
  if (!err) err = mn_array_create_on(lay, dt, reach, &t->u);
  if (own) mn_layout_destroy(&lay);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MN_CALL(mn_agree(ctx, mni_st_check_grid(t->s, t->u)));
  MN_CALL(mn_array_create_on(t->u->buf->lay, dt, 0, &t->y));
  MN_CALL(mn_array_create(ctx, dt, 1, &n, 0, &t->v));
  MN_CALL(mn_flatmove_create(t->v, t->u, &t->in));
  MN_CALL(mn_flatmove_create(t->y, t->v, &t->out));
  return MN_SUCCESS;
}

/* x (1-d, the operator's size) into the grid u */
static int move_in(st_op *t, const mn_array *x) {
  const mn_array *src = x;
  if (!fits(x, t->v)) {
    MN_CALL(mn_array_copy(x, t->v));
    src = t->v;
  }
  MN_CALL(mn_flatmove_run(t->in, src, t->u));
  return MN_SUCCESS;
}

/* the grid y into y (1-d, the operator's size) */
static int move_out(st_op *t, mn_array *y) {
  mn_array *dst = fits(y, t->v) ? y : t->v;
  MN_CALL(mn_flatmove_run(t->out, t->y, dst));
  if (dst != y) MN_CALL(mn_array_copy(t->v, y));
  return MN_SUCCESS;
}

static int st_apply(const mn_op *op, const mn_array *x, mn_array *y) {
  st_op *t = op->data;
  MN_CALL(check_linear(t->s));
  MN_CALL(move_in(t, x));
  MN_CALL(mn_stencil_apply(t->s, t->u, t->y));
  MN_CALL(move_out(t, y));
  return MN_SUCCESS;
}

static int st_diagonal(const mn_op *op, mn_array *d) {
  st_op *t = op->data;
  MN_CALL(mn_stencil_diagonal(t->s, t->y));
  MN_CALL(move_out(t, d));
  return MN_SUCCESS;
}

static const mni_sv_op_ops stencil_ops = {"stencil", "stencil", st_apply, st_diagonal, NULL, st_free};

int mn_op_create_stencil(mn_stencil *s, const mn_array *grid, mn_op **op) {
  MN_CHECK(s && op, MN_ERR_ARG, "NULL stencil or output");
  *op = NULL;
  mn_ctx *ctx = mni_st_ctx(s);
  MN_CALL(mn_agree(ctx, check(s, grid)));
  mn_dtype dt = grid->dtype == MN_FLOAT32 ? MN_FLOAT32 : MN_FLOAT64;
  int64_t n = mn_array_size(grid);
  st_op *t = calloc(1, sizeof *t);
  int err = mn_agree(ctx, t ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate an operator"));
  if (!err) {
    t->s = s;
    err = setup(t, grid, dt, n);
  }
  if (err) {
    st_free(t);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  MN_CALL(mni_sv_op_new(ctx, n, dt, &stencil_ops, t, op));
  return MN_SUCCESS;
}

