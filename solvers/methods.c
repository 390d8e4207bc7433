/* The Krylov methods by mn_ksp_type. A new method: its enum value in
 * mn_solver.h, a file that defines its mni_sv_method, and a line here. */
#include "solver_impl.h"

static const mni_sv_method *const methods[] = {
    [MN_KSP_CG] = &mni_sv_method_cg,         [MN_KSP_CG1] = &mni_sv_method_cg1,
    [MN_KSP_JACOBI] = &mni_sv_method_jacobi, [MN_KSP_BICGSTAB] = &mni_sv_method_bicgstab,
    [MN_KSP_GMRES] = &mni_sv_method_gmres,   [MN_KSP_MINRES] = &mni_sv_method_minres,
};
enum { NMETHODS = (int)(sizeof methods / sizeof methods[0]) };

const mni_sv_method *mni_sv_method_of(mn_ksp_type t) {
  return (int)t >= 0 && (int)t < NMETHODS ? methods[t] : NULL;
}

int mni_sv_method_names(const char **names, int max) {
  for (int i = 0; i < NMETHODS && i < max; i++) names[i] = methods[i]->name;
  return NMETHODS;
}
