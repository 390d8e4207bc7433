/* Bad input to stencil operators is rejected on every rank with the same
 * code and a message naming the values, leaves no operator behind and
 * leaves the output vector alone. */
#include "mn_test.h"
#include <maniple/mn_solver.h>

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  double h[3] = {1, 1, 1};
  int64_t s2[2] = {13, 7}, s3[3] = {5, 6, 7}, thin[2] = {13, 1}, n = 91, nbad = 90;
  mn_stencil *lap5 = NULL, *lap7 = NULL, *wide = NULL;
  T_OK(mn_stencil_create_laplacian(ctx, 2, 5, h, &lap5));
  T_OK(mn_stencil_create_laplacian(ctx, 3, 7, h, &lap7));
  int woff[6] = {0, 0, 0, 2, -2, 0};
  double ww[3] = {1, 2, 3};
  T_OK(mn_stencil_create(ctx, 2, 3, woff, ww, &wide)); /* reach 2 */
  mn_array *g2 = NULL, *g3 = NULL, *gt = NULL, *x = NULL, *y = NULL, *xb = NULL, *d = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s2, 0, &g2));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 3, s3, 0, &g3));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, thin, 0, &gt));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &y));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &nbad, 0, &xb));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &d));
  if (!lap5 || !lap7 || !wide || !g2 || !g3 || !gt || !x || !y || !xb || !d) return mt_finish(&ctx);
  T_OK(mn_array_fill(x, mn_scalar_f64(1)));
  T_OK(mn_array_fill(y, mn_scalar_f64(7)));

  /* creation */
  mn_op *op = NULL;
  T_EXPECT(mn_op_create_stencil(lap5, g3, &op), MN_ERR_SHAPE, "2-d stencil on a 3-d grid",
           "a 2-d stencil cannot act on a 3-d grid (the template has shape (5, 6, 7))");
  T_CHECK(op == NULL, "a failed create left an operator");
  T_EXPECT(mn_op_create_stencil(lap7, g2, &op), MN_ERR_SHAPE, "3-d stencil on a 2-d grid",
           "a 3-d stencil cannot act on a 2-d grid");
  T_EXPECT(mn_op_create_stencil(wide, gt, &op), MN_ERR_SHAPE, "reach-2 stencil on a 13 x 1 grid",
           "grid smaller than the stencil: axis 1 has extent 1, the stencil reaches 2");
  T_EXPECT(mn_op_create_stencil(lap5, NULL, &op), MN_ERR_ARG, "no template", "NULL grid template");
  T_OK(mn_stencil_set_bc(lap5, 1, 1, MN_BC_DIRICHLET, 2.5));
  T_EXPECT(mn_op_create_stencil(lap5, g2, &op), MN_ERR_ARG, "a nonzero Dirichlet value",
           "boundary value 2.5 (dirichlet) on axis 1, side 1 makes the stencil affine");
  T_CHECK(op == NULL, "a failed create left an operator");
  T_OK(mn_stencil_set_bc(lap5, 1, 1, MN_BC_DIRICHLET, 0));

  /* products */
  T_OK(mn_op_create_stencil(lap5, g2, &op));
  if (!op) return mt_finish(&ctx);
  T_EXPECT(mn_op_apply(op, xb, y), MN_ERR_SHAPE, "x of 90 elements",
           "x must be 1-d of 91 elements for a 91 x 91 operator, got 1-d of 90");
  T_EXPECT(mn_op_apply(op, x, xb), MN_ERR_SHAPE, "y of 90 elements", "y must be 1-d of 91 elements");
  T_EXPECT(mn_op_apply(op, g2, y), MN_ERR_SHAPE, "x as the 13 x 7 grid", "got 2-d of 91");
  T_OK(mn_stencil_set_bc(lap5, 0, 0, MN_BC_DIRICHLET_FACE, -1));
  T_EXPECT(mn_op_apply(op, x, y), MN_ERR_ARG, "a face value set after creation",
           "boundary value -1 (dirichlet_face) on axis 0, side 0");
  T_OK(mn_stencil_set_bc(lap5, 0, 0, MN_BC_DIRICHLET_FACE, 0));
  T_EXPECT(mn_op_set_diagonal(op, d), MN_ERR_ARG, "setting a stencil operator's diagonal",
           "a stencil operator's diagonal is the stencil's");
  T_EXPECT(mn_op_get_diagonal(op, xb), MN_ERR_SHAPE, "diagonal of 90", "diagonal must be 1-d of 91 elements");
  /* the failed calls left y alone */
  double *got = mt_all(y);
  int64_t changed = 0;
  for (int64_t i = 0; i < n; i++) changed += got[i] != 7;
  T_CHECK(changed == 0, "%lld output values changed by failed calls", (long long)changed);
  free(got);
  /* and good calls work afterwards */
  T_OK(mn_op_apply(op, x, y));
  T_OK(mn_op_get_diagonal(op, d));

  mn_op_destroy(&op);
  T_CHECK(op == NULL, "destroy did not clear the handle");
  mn_array *all[] = {g2, g3, gt, x, y, xb, d};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) mn_array_destroy(&all[k]);
  mn_stencil_destroy(&lap5);
  mn_stencil_destroy(&lap7);
  mn_stencil_destroy(&wide);
  return mt_finish(&ctx);
}
