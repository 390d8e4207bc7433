/* CUDA backend of the stencils (stencils/cuda/stencil.cu): one box of a
 * grid on device buffers, from the point bodies the CPU loops use.
 * Present when built with MANIPLE_HAVE_CUDA. */
#ifndef MANIPLE_STENCIL_CUDA_H
#define MANIPLE_STENCIL_CUDA_H
#include <stdint.h>
#ifdef __cplusplus
extern "C" {
#endif

#define MN_ST_CUDA_MAXPTS 27

/* A box of cnt points (nd <= 3, C order) and its stencil, passed to the
 * kernel by value. Strides are in elements; off[k] are the points' offsets
 * in u's buffer; c[k] a coefficient array (device pointer at the box
 * origin, strides cst) or NULL for the constant w[k]. relax: y = u +
 * omega D^-1 (f - A u) with D the sum over the centre points ctr[] (wd =
 * omega / D when no coefficient is variable). */
typedef struct {
  int nd, npts, relax, nctr;
  int64_t cnt[3], ust[3], yst[3], fst[3], cst[3];
  int64_t off[MN_ST_CUDA_MAXPTS];
  double w[MN_ST_CUDA_MAXPTS];
  const void *c[MN_ST_CUDA_MAXPTS];
  int ctr[MN_ST_CUDA_MAXPTS];
  double omega, wd;
  float wf[MN_ST_CUDA_MAXPTS]; /* w in float32: mn_cuda_stencil_box fills it */
} mni_st_cuda_box;

/* y = A u (or the Jacobi update) over the box; u, y, f are device pointers
 * at the box origin (f only when relax). dtype MN_FLOAT32 or MN_FLOAT64.
 * Asynchronous on the default stream; MN_ERR_NOTIMPL beyond 3-d or 27
 * points, MN_ERR_CUDA when the launch fails. */
int mn_cuda_stencil_box(int dtype, const mni_st_cuda_box *b, const void *u, void *y, const void *f);

/* The boundary ghosts of one side of axis d of a grid (nd <= 3) on the
 * device, as the CPU's (stencils/bc.c): o at the owned origin, n the owned
 * counts, st strides, reach[] the ghost layers; each ghost takes
 * mni_st_bc_value of its mirror point. Asynchronous on the default stream. */
int mn_cuda_stencil_bc(int dtype, void *o, int nd, const int64_t *n, const int64_t *st, const int *reach, int d,
                       int side, int dirichlet, int face, double value);

#ifdef __cplusplus
}
#endif
#endif
