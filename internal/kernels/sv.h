/* The solvers' vector kernels on the device: one job names a kernel of
 * solvers/kernels.c (the same arithmetic per element, in the same order
 * within an element), its scalars and vectors. The body below is what the
 * emulated device runs and what CUDA expands (solvers/cuda/sv.cu); the
 * host keeps its own loops, split by case so that no loop tests per
 * element. Reductions add into acc[0..mni_sv_nacc). */
#ifndef MANIPLE_SV_KERNELS_H
#define MANIPLE_SV_KERNELS_H
#include "kernels/mn_hd.h"
#include <stdint.h>

enum {
  MNI_SV_DOTS,     /* acc[j] += v[2j] v[2j+1], j < k */
  MNI_SV_COPY,     /* v1 = v0 */
  MNI_SV_AXPY,     /* v1 += a0 v0 */
  MNI_SV_AYPX,     /* v1 = v0 + a0 v1 */
  MNI_SV_WAXPY,    /* v2 = a0 v0 + v1 */
  MNI_SV_SCALE,    /* v0 *= a0 */
  MNI_SV_MUL,      /* v2 = v0 v1 */
  MNI_SV_RESIDUAL, /* v2 = v0 - v1; acc0 += v2 v2 */
  MNI_SV_CG,       /* p q x r [dinv z]: x += a0 p, r -= a0 q [, z = dinv r, acc0 += r z] [, acc1 += r r] */
  MNI_SV_CG1,      /* u w p s x r [dinv]: see mni_k_cg1_update */
  MNI_SV_AXPBY,    /* v2 = a0 v0 + a1 v1 */
  MNI_SV_BICG_P,   /* r v p: p = r + a0 (p - a1 v) */
  MNI_SV_MINRES_W, /* v w1 w2 w x: w = (v - a0 w1 - a1 w2) a2, x += a3 w */
  MNI_SV_COMBINE,  /* v0..v(k-1), x = v[k]: x += sum_j a_j v_j */
  MNI_SV_NKIND
};
enum { MNI_SV_DINV = 1, MNI_SV_RR = 2 }; /* flags of CG and CG1 */
enum { MNI_SV_MAXV = 17, MNI_SV_MAXA = 8, MNI_SV_MAXACC = 8 };

typedef struct mni_sv_job_s {
  int kind, flags, k;
  int64_t n;
  double a[MNI_SV_MAXA];
  double *v[MNI_SV_MAXV];
} mni_sv_job;

/* how many sums a job returns */
MN_HD static inline int mni_sv_nacc(const mni_sv_job *j) {
  switch (j->kind) {
  case MNI_SV_DOTS: return j->k;
  case MNI_SV_RESIDUAL: return 1;
  case MNI_SV_CG: case MNI_SV_CG1: /* acc0 with dinv, acc1 with r.r */
    return j->flags & MNI_SV_RR ? 2 : j->flags & MNI_SV_DINV ? 1 : 0;
  default: return 0;
  }
}

/* the vectors a job reads (in) or writes (out): bit i for v[i] */
static inline unsigned mni_sv_writes(const mni_sv_job *j) {
  switch (j->kind) {
  case MNI_SV_DOTS: return 0;
  case MNI_SV_COPY: case MNI_SV_AXPY: case MNI_SV_AYPX: return 2;
  case MNI_SV_WAXPY: case MNI_SV_MUL: case MNI_SV_RESIDUAL: case MNI_SV_AXPBY: case MNI_SV_BICG_P: return 4;
  case MNI_SV_SCALE: return 1;
  case MNI_SV_CG: return 4 | 8 | (j->flags & MNI_SV_DINV ? 32 : 0);
  case MNI_SV_CG1: return 1 | 4 | 8 | 16 | 32;
  case MNI_SV_MINRES_W: return 8 | 16;
  case MNI_SV_COMBINE: return 1u << j->k;
  }
  return 0;
}
/* how many of v[] a job uses */
static inline int mni_sv_nvec(const mni_sv_job *j) {
  static const int nv[MNI_SV_NKIND] = {0, 2, 2, 2, 3, 1, 3, 3, 4, 6, 3, 3, 5, 0};
  if (j->kind == MNI_SV_DOTS) return 2 * j->k;
  if (j->kind == MNI_SV_COMBINE) return j->k + 1;
  if (j->kind == MNI_SV_CG && (j->flags & MNI_SV_DINV)) return 6;
  if (j->kind == MNI_SV_CG1 && (j->flags & MNI_SV_DINV)) return 7;
  return nv[j->kind];
}

MN_HD static inline void mni_sv_elem(const mni_sv_job *j, int64_t i, double *acc) {
  double *const *v = j->v;
  const double *a = j->a;
  switch (j->kind) {
  case MNI_SV_DOTS:
    for (int q = 0; q < j->k; q++) acc[q] += v[2 * q][i] * v[2 * q + 1][i];
    break;
  case MNI_SV_COPY: v[1][i] = v[0][i]; break;
  case MNI_SV_AXPY: v[1][i] += a[0] * v[0][i]; break;
  case MNI_SV_AYPX: v[1][i] = v[0][i] + a[0] * v[1][i]; break;
  case MNI_SV_WAXPY: v[2][i] = a[0] * v[0][i] + v[1][i]; break;
  case MNI_SV_SCALE: v[0][i] *= a[0]; break;
  case MNI_SV_MUL: v[2][i] = v[0][i] * v[1][i]; break;
  case MNI_SV_RESIDUAL: {
    double r = v[0][i] - v[1][i];
    v[2][i] = r;
    acc[0] += r * r;
  } break;
  case MNI_SV_CG: {
    v[2][i] += a[0] * v[0][i];
    double r = v[3][i] - a[0] * v[1][i];
    v[3][i] = r;
    if (j->flags & MNI_SV_DINV) {
      double z = v[4][i] * r;
      v[5][i] = z;
      acc[0] += r * z;
    }
    if (j->flags & MNI_SV_RR) acc[1] += r * r;
  } break;
  case MNI_SV_CG1: { /* u w p s x r [dinv]; a0 alpha, a1 beta */
    double p = v[0][i] + a[1] * v[2][i], s = v[1][i] + a[1] * v[3][i];
    v[2][i] = p;
    v[3][i] = s;
    v[4][i] += a[0] * p;
    double r = v[5][i] - a[0] * s;
    v[5][i] = r;
    if (j->flags & MNI_SV_DINV) {
      double u = v[6][i] * r;
      v[0][i] = u;
      acc[0] += r * u;
    }
    if (j->flags & MNI_SV_RR) acc[1] += r * r;
  } break;
  case MNI_SV_AXPBY: v[2][i] = a[0] * v[0][i] + a[1] * v[1][i]; break;
  case MNI_SV_BICG_P: v[2][i] = v[0][i] + a[0] * (v[2][i] - a[1] * v[1][i]); break;
  case MNI_SV_MINRES_W: {
    double w = (v[0][i] - a[0] * v[1][i] - a[1] * v[2][i]) * a[2];
    v[3][i] = w;
    v[4][i] += a[3] * w;
  } break;
  case MNI_SV_COMBINE: {
    double s = 0;
    for (int q = 0; q < j->k; q++) s += a[q] * v[q][i];
    v[j->k][i] += s;
  } break;
  }
}
#endif
