/* A reduction along one axis over a rank's block (arrays/reduce_axis.c):
 * each cell of the block's projection reduces its line along the axis in
 * index order. The body is shared by the host (out's values written from
 * the merged partials), the emulated device and the CUDA kernel (one
 * thread a cell, so neighbouring threads read neighbouring elements when
 * the axis is not the last). */
#ifndef MANIPLE_KERNEL_AXIS_H
#define MANIPLE_KERNEL_AXIS_H
#include "kernels/fill.h"   /* MNI_FT_*: mn_dtype's values */
#include "kernels/ops.h"    /* mn_f2i32, mn_f2i64 */
#include "kernels/reduce.h"

enum { MNI_AXIS_MAXDIM = 8 }; /* MN_MAXDIM, checked in arrays/reduce_axis.c */

typedef struct mni_axis_job_s {
  int op, t, rt, ot;  /* mni_red op; x's dtype, the reduction's (NumPy's), out's (MNI_FT_*) */
  int nd, axis;       /* x's axes; the reduced one */
  int64_t alo;        /* the global index on the axis of the block's first line element */
  const char *x;      /* x's block origin (device memory on a device) */
  int64_t cnt[MNI_AXIS_MAXDIM], st[MNI_AXIS_MAXDIM]; /* the block's counts; x's strides (elements) */
  mn_acc *part;       /* the cells' partials, dense C order over the projection; or NULL: */
  char *out;          /* out's origin, written at its strides ost (the projection's axes) */
  int64_t ost[MNI_AXIS_MAXDIM];
  int64_t ncell;      /* cells of the projection */
  size_t xbytes, pbytes; /* the regions the emulated device opens: from x and part or out */
  const char *xspan, *pspan;
} mni_axis_job;

/* The value of a merged accumulator as out stores it (the reduction's
 * dtype rt first, as NumPy computes it, then out's) */
MN_HD static inline void mni_acc_store(int op, int t, int rt, int ot, const mn_acc *a, char *p) {
  int isf = mni_ft_kind(t) == MNI_K_FLT, rf = 0;
  double f = 0;
  int64_t i = 0;
  if (rt == MNI_FT_COMPLEX64 || rt == MNI_FT_COMPLEX128) {
    if (ot == MNI_FT_COMPLEX64) { ((float *)p)[0] = (float)a->f; ((float *)p)[1] = (float)a->g; return; }
    if (ot == MNI_FT_COMPLEX128) { ((double *)p)[0] = a->f; ((double *)p)[1] = a->g; return; }
    if (ot == MNI_FT_BOOL) { *(uint8_t *)p = a->f != 0 || a->g != 0; return; }
    /* a real out takes the real part, as NumPy's cast (with its warning, given above) */
    f = rt == MNI_FT_COMPLEX64 ? (double)(float)a->f : a->f, rf = 1;
  } else if (op == MNI_RED_ARGMIN || op == MNI_RED_ARGMAX) i = a->idx;
  else if (rt == MNI_FT_BOOL) i = a->i != 0;
  else if (rt == MNI_FT_FLOAT32) f = (float)a->f, rf = 1;
  else if (rt == MNI_FT_FLOAT16) f = mn_h2d(mn_d2h(a->f)), rf = 1;
  else if (rt == MNI_FT_FLOAT64) f = a->f, rf = 1;
  else if (isf) i = mn_f2i64(a->f);
  else i = a->i; /* wrapped into the integer result below, as NumPy's accumulation */
  if (rf) {
    switch (ot) {
    case MNI_FT_BOOL: *(uint8_t *)p = f != 0; break;
    case MNI_FT_FLOAT32: *(float *)p = (float)f; break;
    case MNI_FT_FLOAT64: *(double *)p = f; break;
    case MNI_FT_FLOAT16: *(mn_h *)p = mn_d2h(f); break;
    case MNI_FT_INT64: *(int64_t *)p = mn_f2i64(f); break;
    case MNI_FT_UINT64: *(uint64_t *)p = mn_f2u64(f); break;
    case MNI_FT_UINT32: *(uint32_t *)p = (uint32_t)mn_f2i64(f); break;
    default: mni_ft_store_i(ot, p, mn_f2i32(f)); break;
    }
  } else if (mni_ft_kind(rt) == MNI_K_UINT && ot == MNI_FT_FLOAT64) {
    *(double *)p = (double)(uint64_t)i;
  } else if (mni_ft_kind(rt) == MNI_K_UINT && ot == MNI_FT_FLOAT32) {
    *(float *)p = (float)(uint64_t)i;
  } else {
    mni_ft_store_i(ot, p, i);
  }
}

/* the element at p (of dtype t, MNI_FT_*) into a, at index idx */
MN_HD static inline void mni_axis_push(int op, int t, mn_acc *a, const char *p, int64_t idx) {
  int kind = mni_ft_kind(t), isf = kind == MNI_K_FLT;
  double f;
  int64_t v;
  if (kind == MNI_K_CPX) {
    double im;
    mni_ft_load_c(t, p, &f, &im);
    mni_acc_push_c(op, a, f, im, idx);
    return;
  }
  mni_ft_load(t, p, &f, &v);
  mni_acc_push(op, kind, a, f, v, isf ? f != 0 : v != 0, idx);
}

/* cell c of the projection: its line's accumulator, to part[c] or out */
MN_HD static inline void mni_axis_cell(const mni_axis_job *j, int64_t c) {
  int64_t r = c, off = 0, oo = 0;
  for (int d = j->nd - 1, k = j->nd - 2; d >= 0; d--) {
    if (d == j->axis) continue;
    int64_t i = r % j->cnt[d];
    r /= j->cnt[d];
    off += i * j->st[d];
    oo += i * j->ost[k--];
  }
  int t = j->t, es = mni_ft_size(t);
  mn_acc a;
  mni_acc_init(j->op, &a);
  for (int64_t i = 0; i < j->cnt[j->axis]; i++)
    mni_axis_push(j->op, t, &a, j->x + (off + i * j->st[j->axis]) * es, j->alo + i);
  if (j->part) j->part[c] = a;
  else mni_acc_store(j->op, t, j->rt, j->ot, &a, j->out + oo * mni_ft_size(j->ot));
}
#endif
