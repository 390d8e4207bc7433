/* Block kernels of the CPU backend: one function per (op, compute type),
 * each a plain loop over n contiguous elements calling the shared body. */
#ifndef MANIPLE_KERNEL_TABLE_H
#define MANIPLE_KERNEL_TABLE_H
#include <maniple/mn_array.h>

typedef void (*mn_unary_fn)(int64_t n, const void *a, void *o);
typedef void (*mn_binary_fn)(int64_t n, const void *a, const void *b, void *o);
typedef void (*mn_ternary_fn)(int64_t n, const void *a, const void *b,
                              const void *c, void *o);
typedef void (*mn_cast_fn)(int64_t n, const void *a, void *o);

extern const mn_unary_fn mn_unary_table[MN_NUNARY][MN_NDTYPE];
extern const mn_binary_fn mn_binary_table[MN_NBINARY][MN_NDTYPE];
extern const mn_ternary_fn mn_ternary_table[MN_NTERNARY][MN_NDTYPE];
extern const mn_cast_fn mn_cast_table[MN_NDTYPE][MN_NDTYPE];

#include "kernels/reduce.h" /* mn_acc */
typedef void (*mn_reduce_fn)(int64_t n, const void *x, int64_t flat0, mn_acc *acc);
extern const mn_reduce_fn mn_reduce_table[MN_NREDUCE][MN_NDTYPE];
void mn_acc_init(mn_reduce_op op, mn_dtype t, mn_acc *acc);
/* Merge b into a; a holds the lower flat indices on ties. */
void mn_acc_merge(mn_reduce_op op, mn_dtype t, mn_acc *a, const mn_acc *b);
#endif
