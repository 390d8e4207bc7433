/* Reduction accumulators: one element pushed, two accumulators merged.
 * The bodies are shared by the CPU tables (arrays/kernels_cpu.c) and the
 * generated device reductions (arrays/kernel_src.c), so both sides agree
 * on NaN handling, integer wrap-around and ties of arg* (lower index). */
#ifndef MANIPLE_KERNEL_REDUCE_H
#define MANIPLE_KERNEL_REDUCE_H
#include "mn_hd.h"
#ifndef __CUDACC_RTC__
#include <math.h>
#include <stdint.h>
#endif

/* Accumulator of a reduction over one rank's (or thread's) elements. */
typedef struct {
  double f;      /* float value (a complex one's real part) */
  double g;      /* a complex value's imaginary part */
  int64_t i;     /* integer / bool value */
  int64_t idx;   /* flat index of the extreme (arg*) */
  int64_t has;   /* elements seen */
} mn_acc;

/* the values of mn_reduce_op (checked in arrays/kernels_cpu.c); generated
 * device source cannot include the public header */
enum { MNI_RED_SUM = 0, MNI_RED_PROD, MNI_RED_MIN, MNI_RED_MAX, MNI_RED_ARGMIN, MNI_RED_ARGMAX, MNI_RED_ANY,
       MNI_RED_ALL, MNI_RED_SUMSQ, MNI_RED_SUMABS, MNI_RED_MAXABS };

MN_HD static inline void mni_acc_init(int op, mn_acc *a) {
  a->f = op == MNI_RED_PROD ? 1 : 0;
  a->g = 0;
  a->i = op == MNI_RED_PROD || op == MNI_RED_ALL ? 1 : 0;
  a->idx = -1;
  a->has = 0;
}

/* is v better than the current extreme c (strictly)? NaN wins, as NumPy */
MN_HD static inline int mni_better_f(int op, double v, double c) {
  if (c != c) return 0;
  if (v != v) return 1;
  return (op == MNI_RED_MIN || op == MNI_RED_ARGMIN) ? v < c : v > c;
}
/* integers: unsigned (u) compares uint64's bits as unsigned */
MN_HD static inline int mni_better_i(int op, int64_t v, int64_t c, int u) {
  int lt = u ? (uint64_t)v < (uint64_t)c : v < c, gt = u ? (uint64_t)v > (uint64_t)c : v > c;
  return (op == MNI_RED_MIN || op == MNI_RED_ARGMIN) ? lt : gt;
}

/* b into a; ties of min, max and arg* go to the lower index. kind: 0
 * integers (signed or bool), 1 floats, 2 unsigned integers, 3 complex
 * (sums, products, any and all only; the values of kernels/fill.h's MNI_K_*) */
MN_HD static inline void mni_acc_merge(int op, int kind, mn_acc *a, const mn_acc *b) {
  int isf = kind == 1, u = kind == 2;
  if (!b->has) return;
  if (!a->has) { *a = *b; return; }
  if (kind == 3 && op == MNI_RED_SUM) { a->f += b->f; a->g += b->g; a->has += b->has; return; }
  if (kind == 3 && op >= MNI_RED_MIN && op <= MNI_RED_ARGMAX) {
    /* lexicographic, as NumPy orders complex numbers; a NaN part wins */
    int an = a->f != a->f || a->g != a->g, bn = b->f != b->f || b->g != b->g;
    int mx = op == MNI_RED_MAX || op == MNI_RED_ARGMAX;
    int bt = !an && (bn || (mx ? (b->f > a->f || (b->f == a->f && b->g > a->g))
                               : (b->f < a->f || (b->f == a->f && b->g < a->g))));
    int eq = (an && bn) || (!an && !bn && b->f == a->f && b->g == a->g);
    if (bt || (eq && b->idx < a->idx)) { a->f = b->f; a->g = b->g; a->idx = b->idx; }
    a->has += b->has;
    return;
  }
  if (kind == 3 && op == MNI_RED_PROD) {
    double re = a->f * b->f - a->g * b->g;
    a->g = a->f * b->g + a->g * b->f;
    a->f = re;
    a->has += b->has;
    return;
  }
  switch (op) {
  case MNI_RED_SUM: case MNI_RED_SUMSQ: case MNI_RED_SUMABS:
    if (isf) a->f += b->f; else a->i = (int64_t)((uint64_t)a->i + (uint64_t)b->i);
    break;
  case MNI_RED_PROD:
    if (isf) a->f *= b->f; else a->i = (int64_t)((uint64_t)a->i * (uint64_t)b->i);
    break;
  case MNI_RED_ANY: a->i = a->i || b->i; break;
  case MNI_RED_ALL: a->i = a->i && b->i; break;
  case MNI_RED_MAXABS:
    if (isf ? mni_better_f(MNI_RED_MAX, b->f, a->f) : mni_better_i(MNI_RED_MAX, b->i, a->i, u)) { a->f = b->f; a->i = b->i; }
    break;
  default: {
    int bt = isf ? mni_better_f(op, b->f, a->f) : mni_better_i(op, b->i, a->i, u);
    int eq = isf ? (b->f == a->f || (b->f != b->f && a->f != a->f)) : b->i == a->i;
    if (bt || (eq && b->idx < a->idx)) { a->f = b->f; a->i = b->i; a->idx = b->idx; }
  }
  }
  a->has += b->has;
}

/* one element: f its value as double (float dtypes), i as int64_t (the
 * others); any and all take nz, whether it is nonzero */
MN_HD static inline void mni_acc_push(int op, int kind, mn_acc *a, double f, int64_t i, int nz, int64_t idx) {
  int isf = kind == 1;
  mn_acc v;
  v.has = 1;
  v.idx = idx;
  v.f = isf ? f : 0;
  v.i = isf ? 0 : i;
  switch (op) {
  case MNI_RED_SUMSQ:
    if (isf) v.f = f * f; else v.i = (int64_t)((uint64_t)i * (uint64_t)i);
    break;
  case MNI_RED_SUMABS: case MNI_RED_MAXABS:
    if (isf) v.f = fabs(f);
    else v.i = i < 0 && kind != 2 ? (int64_t)((uint64_t)0 - (uint64_t)i) : i;
    break;
  case MNI_RED_ANY: case MNI_RED_ALL: v.i = nz; break;
  default: break;
  }
  mni_acc_merge(op, kind, a, &v);
}
/* one complex element, re + i im */
MN_HD static inline void mni_acc_push_c(int op, mn_acc *a, double re, double im, int64_t idx) {
  mn_acc v;
  v.has = 1;
  v.idx = idx;
  v.f = re;
  v.g = im;
  v.i = re != 0 || im != 0; /* any and all */
  mni_acc_merge(op, 3, a, &v);
}
#endif
