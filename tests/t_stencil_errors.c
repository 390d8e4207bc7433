/* Bad stencil input is rejected with the same code and message on every
 * rank, naming the axis and sizes, and leaves the output alone. */
#include "mn_test.h"

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  double h[3] = {1, 1, 1};
  int64_t s2[2] = {13, 7}, s3[3] = {9, 10, 11}, zero[2] = {6, 0}, other[2] = {7, 13};
  mn_stencil *lap5 = NULL, *lap7 = NULL, *wide = NULL, *noc = NULL, *bad = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &lap5));
  T_OK(mn_stencil_create_laplacian(ctx, 3, 7, h, &lap7));
  int woff[6] = {0, 0, 0, 2, -2, 0}, noff[4] = {1, 0, -1, 0};
  double ww[3] = {1, 2, 3};
  T_OK(mn_stencil_create(ctx, 2, 3, woff, ww, &wide)); /* reach 2 */
  T_OK(mn_stencil_create(ctx, 2, 2, noff, ww, &noc));  /* no centre */
  mn_array *u = NULL, *u0 = NULL, *uz = NULL, *y = NULL, *yo = NULL, *u3 = NULL, *ui = NULL, *v = NULL, *c = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 1, &u));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 0, &u0));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, zero, 1, &uz));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 0, &y));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, other, 1, &yo));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 3, s3, 1, &u3));
  T_OK(mn_array_create(ctx, MN_INT32, 2, s2, 1, &ui));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, other, 0, &c));
  if (!lap5 || !lap7 || !wide || !noc || !u || !u0 || !uz || !y || !yo || !u3 || !ui || !c) return mt_finish(&ctx);
  T_OK(mn_array_fill(y, mn_scalar_f64(7)));
  T_OK(mn_array_fill(u, mn_scalar_f64(1)));

  /* grids smaller than the stencil */
  T_EXPECT(mn_stencil_apply(lap5, uz, uz), MN_ERR_SHAPE, "apply on a 6 x 0 grid",
           "axis 1 has extent 0, the stencil reaches 1");
  T_EXPECT(mn_stencil_apply(wide, u, y), MN_ERR_SHAPE, "reach-2 stencil on a halo-1 grid",
           "halo width 1 is narrower than the stencil's reach 2 on axis 0");
  T_EXPECT(mn_stencil_apply(lap5, u0, y), MN_ERR_SHAPE, "apply on a grid without halo",
           "halo width 0 is narrower than the stencil's reach 1");
  T_EXPECT(mn_stencil_jacobi(wide, u, u0, 1.0, 2), MN_ERR_SHAPE, "Jacobi with a narrow halo", "reach 2");
  /* mismatched shapes */
  T_EXPECT(mn_stencil_apply(lap5, u, yo), MN_ERR_SHAPE, "apply into a 7 x 13 output",
           "output y has shape 7 x 13 (2-d), the grid 13 x 7");
  T_EXPECT(mn_stencil_apply(lap7, u, y), MN_ERR_SHAPE, "3-d stencil on a 2-d grid",
           "a 3-d stencil cannot act on a 2-d grid");
  T_EXPECT(mn_stencil_jacobi(lap5, u, yo, 1.0, 1), MN_ERR_SHAPE, "Jacobi with a 7 x 13 right-hand side",
           "right-hand side f has shape 7 x 13");
  mn_array *us[2] = {u, yo}, *ys[2] = {y, yo};
  T_EXPECT(mn_stencil_apply_many(lap5, 2, us, ys), MN_ERR_SHAPE, "two fields of different shapes",
           "a field has shape 7 x 13");
  T_OK(mn_stencil_set_coefficient(lap5, 1, c));
  T_EXPECT(mn_stencil_apply(lap5, u, y), MN_ERR_SHAPE, "coefficient of another shape",
           "coefficient array of point 1 has shape 7 x 13, the grid 13 x 7");
  T_OK(mn_stencil_set_coefficient(lap5, 1, NULL));
  T_EXPECT(mn_stencil_set_coefficient(lap5, 0, u3), MN_ERR_SHAPE, "3-d coefficient on a 2-d stencil", "3-d");
  /* other bad input */
  T_EXPECT(mn_stencil_apply(lap5, ui, y), MN_ERR_DTYPE, "apply on an int32 grid", "int32");
  mn_index ix[2] = {mn_slice(0, 13, 1), mn_slice(0, 7, 1)};
  T_OK(mn_array_index(u, 2, ix, &v));
  T_EXPECT(mn_stencil_apply(lap5, v, y), MN_ERR_ARG, "apply on a view", "not a view");
  T_EXPECT(mn_stencil_jacobi(noc, u, y, 1.0, 1), MN_ERR_ARG, "Jacobi without a centre", "centre point");
  T_EXPECT(mn_stencil_jacobi(lap5, u, y, 1.0, -1), MN_ERR_ARG, "negative sweeps", "sweeps = -1");
  T_EXPECT(mn_stencil_create_laplacian(ctx, 2, 7, h, &bad), MN_ERR_ARG, "a 7-point 2-d Laplacian",
           "no 7-point Laplacian in 2-d");
  double hneg[2] = {1, -0.5};
  T_EXPECT(mn_stencil_create_laplacian(ctx, 2, 5, hneg, &bad), MN_ERR_ARG, "negative spacing", "h[1] = -0.5");
  T_EXPECT(mn_stencil_set_bc(lap5, 2, 0, MN_BC_NEUMANN, 0), MN_ERR_ARG, "boundary on axis 2 of 2-d", "axis 2");
  T_CHECK(bad == NULL, "a failed create left a stencil");
  /* the failed calls left y alone */
  double *got = mt_all(y);
  int64_t nbad = 0;
  for (int64_t i = 0; i < 91; i++) nbad += got[i] != 7;
  T_CHECK(nbad == 0, "%lld output values changed by failed calls", (long long)nbad);
  free(got);
  /* and a good call still works afterwards */
  T_OK(mn_stencil_apply(lap5, u, y));

  mn_array *all[] = {u, u0, uz, y, yo, u3, ui, v, c};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) mn_array_destroy(&all[k]);
  mn_stencil_destroy(&lap5);
  mn_stencil_destroy(&lap7);
  mn_stencil_destroy(&wide);
  mn_stencil_destroy(&noc);
  return mt_finish(&ctx);
}
