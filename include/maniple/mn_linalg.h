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
/* numpy.linalg.slogdet of a n x n matrix: sign (real: +-1 in sign[0];
 * complex: the unit sign[0] + i sign[1]) and log |det a|, from its LU
 * factors; a singular matrix gives sign 0 and -inf (no error). The same
 * values on every rank. */
MN_EXTERN int mn_array_slogdet(const mn_array *a, double sign[2], double *logabsdet);
/* a = q r for a m x n: q m x k with orthonormal columns, r k x n upper
 * triangular, k = min(m, n) (numpy.linalg.qr's 'reduced'); q may be NULL
 * when only r is wanted. */
MN_EXTERN int mn_array_qr(const mn_array *a, mn_array **q, mn_array **r);
/* Eigenvalues of a symmetric or Hermitian n x n matrix, ascending, in w
 * (1-d, real: float32 for float32 and complex64, else float64) and, v not
 * NULL, its orthonormal eigenvectors as the columns of v, reading a's lower
 * (lower = 1) or upper triangle only (numpy.linalg.eigh's UPLO). */
MN_EXTERN int mn_array_eigh(const mn_array *a, int lower, mn_array **w, mn_array **v);
/* Singular values of a m x n matrix, descending, in s (1-d, real as for
 * eigh) and, u and vt not NULL, a = u diag(s) vt with u m x k and vt k x n,
 * k = min(m, n) (numpy.linalg.svd with full_matrices=False). */
MN_EXTERN int mn_array_svd(const mn_array *a, mn_array **u, mn_array **s, mn_array **vt);

#ifdef __cplusplus
}
#endif
#endif
