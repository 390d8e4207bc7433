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

#ifdef __cplusplus
}
#endif
#endif
