/* maniple data-dependent selection: integer-array and boolean-mask
 * indexing of distributed arrays (arrays/ layer). Every function here is
 * collective over the arrays' context. Flat indices count elements of an
 * array's (view) shape in C order, as numpy.take and numpy.put do. */
#ifndef MANIPLE_MN_SELECT_H
#define MANIPLE_MN_SELECT_H

#include "mn_array.h"

#ifdef __cplusplus
extern "C" {
#endif

/* out[i] = x[i + r0, i + c0] of a 2-d array (numpy.diagonal; r0 = -offset
 * below the main diagonal, c0 = offset above it); out is 1-d of the
 * diagonal's length and x's dtype. No message moves when every rank owns
 * the elements its part of out reads (a square matrix split by rows). */
MN_EXTERN int mn_array_diagonal(const mn_array *x, int64_t offset, mn_array *out);
/* out[k] = x.flat[idx[k]] for every element k of idx (integer dtype);
 * out has idx's shape (any layout; cast to out's dtype). A negative index
 * counts from the end, as NumPy's; one outside [-size, size) of x is
 * MN_ERR_INDEX naming it, on every rank. */
MN_EXTERN int mn_array_take(const mn_array *x, const mn_array *idx, mn_array *out);
/* out[k, ...] = x[idx[k], ...]: whole rows (the first axis) of x for each
 * element of the 1-d integer array idx (negative indices count from the
 * end, as NumPy's). out has shape (len(idx),) + x.shape[1:] and x's dtype.
 * Where x and out are split by rows, each row moves as one piece (one
 * memcpy on one rank); otherwise it is mn_array_take of the flat indices.
 * An index outside [-n, n) is MN_ERR_INDEX naming it and axis 0. */
MN_EXTERN int mn_array_take_rows(const mn_array *x, const mn_array *idx, mn_array *out);
/* x.flat[idx[k]] = v[k] (v has idx's shape; cast to x's dtype; indices as
 * mn_array_take's). Where an index repeats, the value that comes last in C order of a 1-d idx wins,
 * as in NumPy. x may be a view (written through). */
MN_EXTERN int mn_array_put(mn_array *x, const mn_array *idx, const mn_array *v);
/* New 1-d array of the elements of x where mask (same shape, bool) is
 * true, in C order (numpy's x[mask]). */
MN_EXTERN int mn_array_compress(const mn_array *x, const mn_array *mask, mn_array **out);
/* New 1-d array (default layout) holding every rank's n local elements of
 * dtype t, concatenated in rank order. */
MN_EXTERN int mn_array_concat_local(mn_ctx *ctx, mn_dtype t, int64_t n, const void *data, mn_array **out);
/* Its inverse: this rank's next n elements of the 1-d array x, in rank
 * order (the ranks' n add up to x's size), copied into data (collective). */
MN_EXTERN int mn_array_split_local(const mn_array *x, int64_t n, void *data);

#ifdef __cplusplus
}
#endif
#endif
