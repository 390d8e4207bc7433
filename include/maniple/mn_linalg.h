/* maniple dense linear algebra on distributed arrays (arrays/ layer).
 * Collective over the arrays' context. */
#ifndef MANIPLE_MN_LINALG_H
#define MANIPLE_MN_LINALG_H

#include "mn_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out = a @ b (numpy.matmul for 1-d and 2-d operands): a (m, k) or (k,),
 * b (k, n) or (k,), of one dtype; out (m, n), (m,), (n,) or () as NumPy
 * gives, any layout, cast to its dtype. The smaller operand is gathered on
 * every rank and the larger stays where it is: each rank multiplies its
 * block (BLAS for floats when built with it) and the partial products are
 * summed on the owners of out in rank order. */
MN_EXTERN int mn_array_matmul(const mn_array *a, const mn_array *b, mn_array *out);

/* Dense factorisations on every rank (ScaLAPACK, block-cyclic with
 * 64 x 64 blocks on a near-square grid of the context's ranks), for
 * float32, float64, complex64 and complex128 matrices in any layout; the
 * results are new arrays in the default layout, of a's dtype. A singular
 * or not positive definite matrix is MN_ERR_LINALG on every rank; a build
 * without ScaLAPACK gives MN_ERR_NOTIMPL. */
/* l lower triangular with a = l l^H, reading a's lower triangle only. */
MN_EXTERN int mn_array_cholesky(const mn_array *a, mn_array **l);
/* x with a x = b: a n x n, b (n,) or (n, k) of a's dtype (LU with partial
 * pivoting). */
MN_EXTERN int mn_array_solve(const mn_array *a, const mn_array *b, mn_array **x);
MN_EXTERN int mn_array_inv(const mn_array *a, mn_array **x);
/* a = q r for a m x n: q m x k with orthonormal columns, r k x n upper
 * triangular, k = min(m, n) (numpy.linalg.qr's 'reduced'); q may be NULL
 * when only r is wanted. */
MN_EXTERN int mn_array_qr(const mn_array *a, mn_array **q, mn_array **r);

#ifdef __cplusplus
}
#endif
#endif
