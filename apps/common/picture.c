/* Gathered PNG pictures of fields (see picture.h). */
#include "picture.h"
#include "png.h"
#include <stdlib.h>

/* Small grids are drawn with k x k pixels a point (nearest neighbour), so
 * the picture is at least APP_PICTURE_MIN pixels across: a 41 x 41 cavity is
 * a 410 x 410 picture, not a stamp. apps/backend.py does the same. */
static int64_t magnify(int64_t nx, int64_t ny) {
  int64_t m = nx > ny ? nx : ny, k = (APP_PICTURE_MIN + m - 1) / m;
  return k > 1 ? k : 1;
}

static int write_scaled(const char *path, const double *f, int64_t nx, int64_t ny, int lower) {
  int64_t k = magnify(nx, ny);
  if (k == 1) return app_png_write_field(path, f, nx, ny, lower);
  double *big = malloc(sizeof(double) * (size_t)(nx * ny * k * k));
  MN_CHECK(big, MN_ERR_MEM, "cannot allocate a %lld x %lld picture", (long long)(k * nx), (long long)(k * ny));
  for (int64_t i = 0; i < k * ny; i++)
    for (int64_t j = 0; j < k * nx; j++) big[i * k * nx + j] = f[(i / k) * nx + j / k];
  int err = app_png_write_field(path, big, k * nx, k * ny, lower);
  free(big);
  return err;
}

int app_picture(mn_array *f, const char *path, int lower) {
  MN_CHECK(f && path, MN_ERR_ARG, "NULL field or path");
  MN_CHECK(mn_array_ndim(f) == 2 && mn_array_dtype(f) == MN_FLOAT64, MN_ERR_ARG,
           "a picture needs a 2-d float64 field, not %d-d %s", mn_array_ndim(f), mn_dtype_name(mn_array_dtype(f)));
  mn_ctx *ctx = mn_array_ctx(f);
  MPI_Comm comm = mn_ctx_comm(ctx);
  int rank = mn_ctx_rank(ctx), err = 0;
  const int64_t *sh = mn_array_shape(f);
  double *buf = NULL;
  if (rank == 0) {
    buf = malloc(sizeof(double) * (size_t)(sh[0] * sh[1]));
    if (!buf) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld doubles for a picture", (long long)(sh[0] * sh[1]));
  }
  MPI_Bcast(&err, 1, MPI_INT, 0, comm);
  if (!err) err = mn_array_gather(f, 0, buf);
  if (!err && rank == 0) err = write_scaled(path, buf, sh[1], sh[0], lower);
  MPI_Bcast(&err, 1, MPI_INT, 0, comm); /* a failed write (rank 0's) fails everywhere */
  free(buf);
  MN_CHECK(!err || rank == 0, err, "rank 0 could not write the picture %s", path);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int app_speed(mn_array *u, mn_array *v, mn_array **speed) {
  mn_expr *e = NULL;
  int a, b, aa, bb, s, r;
  MN_CALL(mn_array_create_empty(mn_array_ctx(u), MN_FLOAT64, 2, mn_array_shape(u), speed));
  int err = mn_expr_create(mn_array_ctx(u), &e);
  if (!err) err = mn_expr_input(e, u, &a);
  if (!err) err = mn_expr_input(e, v, &b);
  if (!err) err = mn_expr_binary(e, MN_OP_MUL, a, a, &aa);
  if (!err) err = mn_expr_binary(e, MN_OP_MUL, b, b, &bb);
  if (!err) err = mn_expr_binary(e, MN_OP_ADD, aa, bb, &s);
  if (!err) err = mn_expr_unary(e, MN_OP_SQRT, s, &r);
  if (!err) err = mn_expr_eval(e, r, *speed);
  mn_expr_destroy(&e);
  if (err) {
    mn_array_destroy(speed);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}
