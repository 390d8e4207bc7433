/* The solvers' vector kernels on a device (kernels/sv.h): one launch per
 * kernel through the backend, and the sums back as one copy of a few
 * bytes, the only traffic between the spaces in a Krylov iteration. */
#include "solver_impl.h"
#include "backend.h"
#include <string.h>

void mni_sv_launch(mn_ctx *dv, const mni_sv_job *j, double *out) {
  int na = mni_sv_nacc(j);
  char *acc = NULL;
  if (mn_ctx_dev_scratch(dv, MNI_SV_MAXACC * sizeof(double), &acc) || dv->ops->sv(j, (double *)acc))
    mn_device_abort(dv, "a solver's vector kernel");
  if (na && mn_copy_counted(dv, 0, acc, (char *)out, (size_t)na * sizeof(double)))
    mn_device_abort(dv, "the copy of a solver kernel's sums");
}

double mni_sv_run1(mn_ctx *dv, int kind, int64_t n, int flags, double a0, double a1, double *const *v, int nv) {
  mni_sv_job j = {.kind = kind, .flags = flags, .k = kind == MNI_SV_DOTS, .n = n, .a = {a0, a1}};
  memcpy(j.v, v, sizeof(double *) * (size_t)nv);
  double out[MNI_SV_MAXACC] = {0};
  mni_sv_launch(dv, &j, out);
  return out[0];
}

/* The emulated device's launch: the vectors the job names are opened (the
 * ones it only reads, read-only) for the body's loop, in element order. */
int mni_emu_sv(const mni_sv_job *j, double *acc) {
  int nv = mni_sv_nvec(j);
  unsigned w = mni_sv_writes(j);
  size_t bytes = (size_t)j->n * sizeof(double);
  double s[MNI_SV_MAXACC] = {0};
  if (bytes) {
    for (int q = 0; q < nv; q++)
      if (!(w >> q & 1)) mni_emu_open(j->v[q], bytes, 0);
    for (int q = 0; q < nv; q++) /* after the reads: a page shared with one stays writable */
      if (w >> q & 1) mni_emu_open(j->v[q], bytes, 1);
    for (int64_t i = 0; i < j->n; i++) mni_sv_elem(j, i, s);
    for (int q = 0; q < nv; q++) mni_emu_close(j->v[q], bytes);
  }
  mni_emu_open(acc, sizeof s, 1);
  memcpy(acc, s, sizeof s);
  mni_emu_close(acc, sizeof s);
  return MN_SUCCESS;
}
