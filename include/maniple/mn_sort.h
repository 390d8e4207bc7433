/* maniple sorting and searching of distributed arrays (arrays/ layer).
 * Collective over the arrays' context. The order is NumPy's: NaN after
 * every number, -0.0 equal to 0.0; sorts are stable, so equal elements
 * keep their order and results do not depend on the rank count. */
#ifndef MANIPLE_MN_SORT_H
#define MANIPLE_MN_SORT_H

#include "mn_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Sort x along axis: the sorted values into a new *sorted and/or the
 * positions along axis that sort it (numpy.argsort, int64) into a new
 * *perm; either output pointer may be NULL. 1-d arrays are sorted across
 * ranks (sample sort); for more dimensions each line along axis is
 * gathered on one rank (redistribution) and sorted there. */
MN_EXTERN int mn_array_sort(const mn_array *x, int axis, mn_array **sorted, mn_array **perm);
/* out[k] (int64, v's shape) = where v[k] goes in the sorted 1-d array a
 * (numpy.searchsorted): before equal elements, or after them when right.
 * a and v must have the same dtype. */
MN_EXTERN int mn_array_searchsorted(const mn_array *a, const mn_array *v, int right, mn_array *out);
/* vals[i] = the element at position pos[i] of x's values sorted (all of
 * them, flattened), on every rank, without sorting (numpy.partition's
 * kth elements): a radix selection with one small allreduce per 8 key
 * bits. vals holds npos elements of x's dtype; not complex. */
MN_EXTERN int mn_array_order_stats(const mn_array *x, int npos, const int64_t *pos, void *vals);

#ifdef __cplusplus
}
#endif
#endif
