/* maniple distributed dense arrays, views, fused element-wise expressions,
 * reductions, communication plans and .npy I/O (arrays/ layer).
 * Every function here is collective over the array's context. */
#ifndef MANIPLE_MN_ARRAY_H
#define MANIPLE_MN_ARRAY_H

#include "mn_core.h"
#include "mn_layout.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A scalar value. weak = a Python-style literal, which adopts the array's
 * dtype where NumPy 2 (NEP 50) says so (float32 array * 2.0 -> float32). */
typedef struct {
  mn_dtype dtype;
  int weak;
  union { int64_t i; double f; } v;
  double im; /* the imaginary part of a complex scalar (v.f its real part) */
} mn_scalar;

MN_EXTERN mn_scalar mn_scalar_f64(double x);   /* weak float */
MN_EXTERN mn_scalar mn_scalar_i64(int64_t x);  /* weak int */
MN_EXTERN mn_scalar mn_scalar_bool(int x);
MN_EXTERN mn_scalar mn_scalar_typed(mn_dtype t, double x); /* strong, of dtype t */
MN_EXTERN mn_scalar mn_scalar_c128(double re, double im);  /* weak complex */
MN_EXTERN double mn_scalar_as_f64(mn_scalar s);

typedef struct mn_array_s mn_array;

/* ---- creation and lifecycle ---- */
/* Block layout over the default process grid; halo = ghost width on every
 * distributed axis. Contents are zero. */
MN_EXTERN int mn_array_create(mn_ctx *ctx, mn_dtype dtype, int ndim,
                    const int64_t *shape, int halo, mn_array **a);
/* An array in the default layout (no halo) whose rank's block is the
 * caller's device memory dmem (its owned elements in C order), as PETSc's
 * VecCreateMPICUDAWithArray: no copy is made, the values are taken as
 * they are, and the memory stays the caller's (mn_array_destroy does not
 * free it; it must outlive the array). Device backends only
 * (MN_ERR_BACKEND); dmem may be NULL only where the block is empty. */
MN_EXTERN int mn_array_create_on_device(mn_ctx *ctx, mn_dtype dtype, int ndim, const int64_t *shape, void *dmem,
                                        mn_array **a);
/* A new array in the default layout holding a copy of the whole array at
 * the caller's device memory dmem (every rank passes its own copy, as with
 * mn_array_scatter's data): each rank copies its block on the device.
 * strides in elements, or NULL for C order; the caller's memory may be
 * reused once mn_ctx_wait returns. Device backends only (MN_ERR_BACKEND). */
MN_EXTERN int mn_array_create_from_device(mn_ctx *ctx, mn_dtype dtype, int ndim, const int64_t *shape,
                                          const void *dmem, const int64_t *strides, mn_array **a);
MN_EXTERN int mn_array_create_on(mn_layout *lay, mn_dtype dtype, int halo,
                       mn_array **a);
/* As mn_array_create with no halo, contents undefined (numpy.empty): for
 * results about to be written whole. */
MN_EXTERN int mn_array_create_empty(mn_ctx *ctx, mn_dtype dtype, int ndim,
                          const int64_t *shape, mn_array **a);
/* New base array with x's shape and dtype (dtype may differ if given as
 * MN_NDTYPE = same), on a fresh default layout, zero-filled. */
MN_EXTERN int mn_array_create_like(const mn_array *x, mn_dtype dtype, mn_array **a);
/* A copy of a's storage (all of it, halo included) in a new base array
 * of the same layout: this rank's alone, with no message and outside
 * MANIPLE_CHECKS, so ranks may differ in which copies they make (the
 * deferred evaluation keeps old values for pending readers so). */
MN_EXTERN int mn_array_snapshot(const mn_array *a, mn_array **copy);
/* View v read from base's storage instead of its own (the same layout,
 * halo and dtype, as a snapshot's): local, as mn_array_snapshot. */
MN_EXTERN int mn_array_rebase(const mn_array *v, const mn_array *base, mn_array **out);
/* Releases the handle and sets *a = NULL. A base stays alive while views of
 * it exist. */
MN_EXTERN int mn_array_destroy(mn_array **a);

/* ---- information ---- */
MN_EXTERN mn_ctx *mn_array_ctx(const mn_array *a);
MN_EXTERN mn_dtype mn_array_dtype(const mn_array *a);
MN_EXTERN int mn_array_ndim(const mn_array *a);
MN_EXTERN const int64_t *mn_array_shape(const mn_array *a);
MN_EXTERN int64_t mn_array_size(const mn_array *a);
MN_EXTERN int mn_array_is_view(const mn_array *a);
/* Identity of the storage a base and all its views share (equal keys: the
 * same memory), for dependency tracking in deferred evaluation. */
MN_EXTERN uintptr_t mn_array_base_key(const mn_array *a);
/* How a reads its base: per axis k of a, the base axis it walks
 * (base_axis[k], -1 for a new or broadcast axis) and the step there. NumPy's
 * strides of a over a C-ordered base are step[k] times the base's C-order
 * stride of base_axis[k]. */
MN_EXTERN void mn_array_view_axes(const mn_array *a, int *base_axis, int64_t *step);
/* The base index (one per base axis) of a's first element: with
 * mn_array_view_axes, where every element of a lies in its base. */
MN_EXTERN void mn_array_view_origin(const mn_array *a, int64_t *base_index);
/* Handles sharing a's storage, a included (1: no other view of it). */
MN_EXTERN int mn_array_share_count(const mn_array *a);
/* Layout of the base array. */
MN_EXTERN mn_layout *mn_array_layout(const mn_array *a);
/* 1 when a and b read their elements through the same map of the same
 * layout: an element-wise pass over one reads the other where it computes,
 * with no message (local: no communication). */
MN_EXTERN int mn_array_aligned(const mn_array *a, const mn_array *b);
MN_EXTERN int mn_array_halo_width(const mn_array *a);

/* Where memory is: the host's, or the device's of a device backend. */
typedef enum { MN_MEM_HOST = 0, MN_MEM_DEVICE = 1 } mn_memtype;

/* The part of a (base or view) that this rank owns: a strided box.
 * Global view indices lo[d] .. lo[d]+count[d]-1 (those this rank owns,
 * which for a view of a block layout form a box); data points at element
 * lo, strides are in elements and may be negative. count all 0 (data NULL
 * allowed) when this rank owns nothing. mem says where data is. */
typedef struct {
  void *data;
  int ndim;
  int64_t lo[MN_MAXDIM];
  int64_t count[MN_MAXDIM];
  int64_t stride[MN_MAXDIM];
  mn_memtype mem;
} mn_local;
/* In host memory (on a device backend the values are copied there first
 * when only the device holds them). The caller may read and write through
 * it at any later time, so on a device backend the array's values stay in
 * host memory from then on. */
MN_EXTERN int mn_array_local(const mn_array *a, mn_local *loc);
/* In host memory without pinning, for host code between device work
 * (initial values, a check of the results): as mn_array_local, but the
 * pointer holds only until the next call on the array, which may move
 * the values to the device again (PETSc's VecGetArray and VecRestoreArray
 * in one). On a device backend the values are copied to the host when only
 * the device holds them, and the device's copy is taken as stale. */
MN_EXTERN int mn_array_local_host(mn_array *a, mn_local *loc);
/* Where the values are now, as PETSc's VecGetArrayAndMemType: on a device
 * backend the device memory when it holds them (mem MN_MEM_DEVICE, for
 * the caller's own kernels), else host memory (as mn_array_local). The
 * caller may write there until its next call on the array. */
MN_EXTERN int mn_array_local_memtype(const mn_array *a, mn_local *loc);
/* In device memory (a device backend; MN_ERR_BACKEND on the cpu one), as
 * PETSc's VecCUDAGetArray: the values are copied there first when only
 * the host holds them, and the caller's kernels may read and write them
 * until its next call on the array. Kernels queued by maniple are on the
 * device's default (legacy) stream. MN_ERR_ARG when mn_array_local has
 * pinned the values to the host. */
MN_EXTERN int mn_array_local_device(const mn_array *a, mn_local *loc);

/* ---- filling ---- */
MN_EXTERN int mn_array_fill(mn_array *a, mn_scalar value);
/* a.flat[k] = start + k*step in C order over a's shape. */
MN_EXTERN int mn_array_arange(mn_array *a, double start, double step);
/* n = size points from start to stop, stop included when endpoint. */
MN_EXTERN int mn_array_linspace(mn_array *a, double start, double stop, int endpoint);
typedef enum { MN_RANDOM_UNIFORM = 0, MN_RANDOM_NORMAL = 1 } mn_random_kind;
/* Counter-based (seed, flat global index): identical at any rank count.
 * UNIFORM: [p1, p2). NORMAL: mean p1, standard deviation p2. */
MN_EXTERN int mn_array_random(mn_array *a, mn_random_kind kind, uint64_t seed,
                    double p1, double p2);
/* dst[...] = src[...] with casting; any layouts, views, same shape. This is
 * also redistribution between layouts. */
MN_EXTERN int mn_array_copy(const mn_array *src, mn_array *dst);

/* ---- views ---- */
#define MN_NONE INT64_MIN /* an omitted slice bound, as in Python */
typedef enum { MN_IDX_SLICE = 0, MN_IDX_INT = 1, MN_IDX_NEWAXIS = 2 } mn_idx_kind;
typedef struct {
  mn_idx_kind kind;
  int64_t start, stop, step; /* SLICE: Python bounds, MN_NONE = omitted */
  int64_t index;             /* INT: may be negative */
} mn_index;
MN_EXTERN mn_index mn_slice(int64_t start, int64_t stop, int64_t step);
MN_EXTERN mn_index mn_all(void);
MN_EXTERN mn_index mn_at(int64_t index);
MN_EXTERN mn_index mn_newaxis(void);
/* Basic indexing (NumPy semantics) giving a view that writes through to a.
 * Axes not named are taken whole. Bounds outside [-n, n] are an error (the
 * C API is strict; the Python layer clamps as NumPy does first). */
MN_EXTERN int mn_array_index(mn_array *a, int nidx, const mn_index *idx, mn_array **v);
/* A new array of the given shape holding src's elements in C order (NumPy's
 * reshape, always as a copy: blocks of the two shapes differ). */
MN_EXTERN int mn_array_reshape(const mn_array *src, int ndim, const int64_t *shape, mn_array **dst);
/* The same, for a temporary about to be multiplied (a tensordot's matrix):
 * when src splits its rows alone and shape keeps its first extent, the
 * result's rows are split as src's, so no element leaves its rank (the
 * default layout of the new shape may split columns instead). A base src
 * with no halo on the CPU backend then shares its storage with the result
 * (no copy, as NumPy's reshape view): for a temporary that is read, as a
 * product's operand; writes to either reach the other. */
MN_EXTERN int mn_array_reshape_rows(const mn_array *src, int ndim, const int64_t *shape, mn_array **dst);
/* dst[...] = src's elements in C order: the same number of elements, any
 * shapes (dst may be a view). reshape into an existing array. */
MN_EXTERN int mn_array_copy_flat(const mn_array *src, mn_array *dst);
/* View with axes permuted: view axis k is a's axis perm[k]. */
MN_EXTERN int mn_array_transpose(mn_array *a, const int *perm, mn_array **v);
/* View that broadcasts a to shape (NumPy's broadcast_to); read-only use. */
MN_EXTERN int mn_array_broadcast_to(mn_array *a, int ndim, const int64_t *shape,
                          mn_array **v);

/* ---- element-wise operations ---- */
typedef enum {
  MN_OP_NEG = 0, MN_OP_POS, MN_OP_ABS, MN_OP_SQRT, MN_OP_EXP, MN_OP_LOG,
  MN_OP_LOG2, MN_OP_LOG10, MN_OP_EXPM1, MN_OP_LOG1P, MN_OP_SIN, MN_OP_COS,
  MN_OP_TAN, MN_OP_ARCSIN, MN_OP_ARCCOS, MN_OP_ARCTAN, MN_OP_SINH,
  MN_OP_COSH, MN_OP_TANH, MN_OP_FLOOR, MN_OP_CEIL, MN_OP_TRUNC, MN_OP_RINT,
  MN_OP_SIGN, MN_OP_SQUARE, MN_OP_RECIPROCAL, MN_OP_LOGICAL_NOT,
  MN_OP_INVERT, MN_OP_ISNAN, MN_OP_ISINF, MN_OP_ISFINITE,
  MN_OP_ARCCOSH, MN_OP_ARCSINH, MN_OP_ARCTANH, MN_OP_CBRT, MN_OP_EXP2,
  MN_OP_FABS, MN_OP_SIGNBIT, MN_OP_SPACING, MN_OP_DEG2RAD, MN_OP_RAD2DEG,
  MN_OP_I0,        /* numpy.i0 (a function in NumPy, not a ufunc) */
  MN_OP_FREXP_EXP, /* the int32 exponent output of numpy.frexp */
  MN_OP_REAL, MN_OP_IMAG, MN_OP_CONJ, /* complex inputs only */
  MN_OP_CAST,
  MN_NUNARY
} mn_unary_op;

typedef enum {
  MN_OP_ADD = 0, MN_OP_SUB, MN_OP_MUL, MN_OP_DIV, MN_OP_FLOORDIV, MN_OP_MOD,
  MN_OP_POW, MN_OP_MAXIMUM, MN_OP_MINIMUM, MN_OP_FMAX, MN_OP_FMIN,
  MN_OP_EQ, MN_OP_NE, MN_OP_LT, MN_OP_LE, MN_OP_GT, MN_OP_GE,
  MN_OP_LOGICAL_AND, MN_OP_LOGICAL_OR, MN_OP_LOGICAL_XOR,
  MN_OP_BITAND, MN_OP_BITOR, MN_OP_BITXOR, MN_OP_LSHIFT, MN_OP_RSHIFT,
  MN_OP_ATAN2, MN_OP_HYPOT, MN_OP_COPYSIGN,
  MN_OP_FMOD, MN_OP_LOGADDEXP, MN_OP_LOGADDEXP2, MN_OP_HEAVISIDE,
  MN_OP_NEXTAFTER, MN_OP_LDEXP, MN_OP_GCD, MN_OP_LCM, MN_OP_FLOAT_POWER,
  MN_OP_COMPLEX, /* re + i im from two real operands (numpy's complex(re, im) elementwise) */
  MN_NBINARY
} mn_binary_op;

typedef enum { MN_OP_WHERE = 0, MN_OP_CLIP, MN_OP_FMA, MN_NTERNARY } mn_ternary_op;

MN_EXTERN const char *mn_unary_name(mn_unary_op op);
MN_EXTERN const char *mn_binary_name(mn_binary_op op);
MN_EXTERN const char *mn_ternary_name(mn_ternary_op op);

/* Result dtypes as NumPy gives them; MN_NDTYPE when the op does not accept
 * that dtype (e.g. bitwise ops on floats). */
MN_EXTERN mn_dtype mn_unary_result(mn_unary_op op, mn_dtype x);
MN_EXTERN mn_dtype mn_binary_result(mn_binary_op op, mn_dtype x, mn_dtype y);

/* One-shot operations: out (base or view, any layout) receives the result,
 * cast to out's dtype; inputs broadcast to out's shape. */
MN_EXTERN int mn_array_unary(mn_unary_op op, const mn_array *x, mn_array *out);
MN_EXTERN int mn_array_binary(mn_binary_op op, const mn_array *x, const mn_array *y,
                    mn_array *out);
MN_EXTERN int mn_array_binary_scalar(mn_binary_op op, const mn_array *x, mn_scalar s,
                           int scalar_first, mn_array *out);
MN_EXTERN int mn_array_where(const mn_array *cond, const mn_array *x,
                   const mn_array *y, mn_array *out);
/* out = a*x + b*y, fused (the triad when a = 1). */
MN_EXTERN int mn_array_axpby(double a, const mn_array *x, double b, const mn_array *y,
                   mn_array *out);

/* Fused expressions: build a small DAG, then evaluate it in one pass over
 * cache-sized blocks, moving only the remote elements each operand needs. */
typedef struct mn_expr_s mn_expr;
MN_EXTERN int mn_expr_create(mn_ctx *ctx, mn_expr **e);
MN_EXTERN int mn_expr_destroy(mn_expr **e);
MN_EXTERN int mn_expr_input(mn_expr *e, const mn_array *x, int *node);
/* A stand-in for an array of this dtype and shape, for asking an
 * expression's result dtype and shape without arrays (as a deferred front
 * end does at every operation); an expression holding one cannot be
 * evaluated. */
MN_EXTERN int mn_expr_placeholder(mn_expr *e, mn_dtype dtype, int ndim, const int64_t *shape, int *node);
MN_EXTERN int mn_expr_scalar(mn_expr *e, mn_scalar s, int *node);
MN_EXTERN int mn_expr_unary(mn_expr *e, mn_unary_op op, int a, int *node);
/* Cast node a to dtype t. */
MN_EXTERN int mn_expr_cast(mn_expr *e, int a, mn_dtype t, int *node);
MN_EXTERN int mn_expr_binary(mn_expr *e, mn_binary_op op, int a, int b, int *node);
MN_EXTERN int mn_expr_ternary(mn_expr *e, mn_ternary_op op, int a, int b, int c,
                    int *node);
MN_EXTERN mn_dtype mn_expr_dtype(const mn_expr *e, int node);
/* Long expressions compiled to native code at run time on the CPU
 * (docs/design.md, "Compiled kernels"), with the interpreter's values bit
 * for bit: MN_JIT_AUTO (the default; MANIPLE_JIT=auto) compiles a program
 * worth it at its third evaluation, in a background thread, the
 * interpreter running until it is ready; MN_JIT_SYNC (MANIPLE_JIT=sync)
 * compiles every program of two operations or more before its first
 * evaluation; MN_JIT_OFF (MANIPLE_JIT=0) never. For the whole process;
 * returns the mode before. mn_jit_kernels: compiled kernels loaded. */
typedef enum { MN_JIT_OFF, MN_JIT_AUTO, MN_JIT_SYNC } mn_jit_mode;
MN_EXTERN mn_jit_mode mn_jit_set_mode(mn_jit_mode mode);
MN_EXTERN int mn_jit_kernels(void);
/* Broadcast shape of a node. */
MN_EXTERN int mn_expr_shape(const mn_expr *e, int node, int *ndim, int64_t *shape);
/* out = node; out's shape must equal the node's broadcast shape. */
MN_EXTERN int mn_expr_eval(mn_expr *e, int node, mn_array *out);
/* The same, also storing nodes xnode[0..nx-1] (at most 16) into xout (fresh
 * arrays of out's shape and the nodes' dtypes) in the same pass: values a
 * later evaluation reuses are computed once, with no extra sweep. An
 * extra whose distribution differs from out's is evaluated after, alone. */
MN_EXTERN int mn_expr_eval_extra(mn_expr *e, int node, mn_array *out, int nx, const int *xnode, mn_array *const *xout);

/* ---- reductions ---- */
typedef enum {
  MN_RED_SUM = 0, MN_RED_PROD, MN_RED_MIN, MN_RED_MAX, MN_RED_ARGMIN,
  MN_RED_ARGMAX, MN_RED_ANY, MN_RED_ALL, MN_RED_SUMSQ, MN_RED_SUMABS,
  MN_RED_MAXABS, MN_NREDUCE
} mn_reduce_op;
MN_EXTERN const char *mn_reduce_name(mn_reduce_op op);
/* Result dtype of a reduction as NumPy gives it (sum of int32 -> int64,
 * arg* -> int64, any/all -> bool). */
MN_EXTERN mn_dtype mn_reduce_result(mn_reduce_op op, mn_dtype x);
/* Over all elements; the result is the same on every rank. ARGMIN/ARGMAX
 * give the flat C-order index of the first extreme. Empty MIN/MAX/ARG* is
 * an error, as in NumPy. */
MN_EXTERN int mn_array_reduce(mn_reduce_op op, const mn_array *x, mn_scalar *result);
/* Reduce node of an expression without materialising it. */
MN_EXTERN int mn_expr_reduce(mn_expr *e, int node, mn_reduce_op op, mn_scalar *result);
/* The same, also storing nodes into xout as mn_expr_eval_extra does. */
MN_EXTERN int mn_expr_reduce_extra(mn_expr *e, int node, mn_reduce_op op, mn_scalar *result, int nx, const int *xnode,
                         mn_array *const *xout);
/* Over one axis: out has x's shape without that axis (any layout). */
MN_EXTERN int mn_array_reduce_axis(mn_reduce_op op, const mn_array *x, int axis,
                         mn_array *out);
/* Cumulative sum or product along axis (numpy.cumsum, numpy.cumprod;
 * op MN_RED_SUM or MN_RED_PROD), computed in out's dtype (not bool); out
 * has x's shape, any layout. */
MN_EXTERN int mn_array_scan(mn_reduce_op op, const mn_array *x, int axis, mn_array *out);
/* sum(x*y) over all elements (x, y same shape, any layouts). */
MN_EXTERN int mn_array_dot(const mn_array *x, const mn_array *y, mn_scalar *result);
/* sum of the diagonal x[i, i + offset] of a 2-d array (numpy.trace), in
 * mn_reduce_result(MN_RED_SUM, x's dtype); the same on every rank. */
MN_EXTERN int mn_array_trace(const mn_array *x, int64_t offset, mn_scalar *result);
/* Vector norms of the flattened array: ord 1, 2 or INFINITY. */
MN_EXTERN int mn_array_norm(const mn_array *x, double ord, double *result);

/* ---- communication plans ---- */
typedef struct mn_plan_s mn_plan;
/* Halo exchange of a base array with halo > 0: fills ghost cells on every
 * side (corners included) from the owning neighbours. periodic may be NULL.
 * The plan is cached on the context; destroy releases the reference. */
MN_EXTERN int mn_plan_create_halo(mn_array *a, const int *periodic, mn_plan **p);
MN_EXTERN int mn_plan_begin(mn_plan *p);
MN_EXTERN int mn_plan_end(mn_plan *p);
MN_EXTERN int mn_plan_destroy(mn_plan **p);
/* Messages and bytes this rank sends per execution. */
MN_EXTERN void mn_plan_volume(const mn_plan *p, int *nmsg, int64_t *bytes);
/* Convenience: exchange a's halo now (non-periodic). */
MN_EXTERN int mn_array_halo_exchange(mn_array *a);

/* Whole array, C order, as a dense buffer on root (others pass NULL). */
MN_EXTERN int mn_array_gather(const mn_array *a, int root, void *buf);
/* Fill a from a dense C-order buffer on root. */
MN_EXTERN int mn_array_scatter(mn_array *a, int root, const void *buf);
/* Whole array, C order, into buf on every rank (an allgather). */
MN_EXTERN int mn_array_allgather(const mn_array *a, void *buf);
/* Fill a from a dense C-order buffer that every rank holds in full (as
 * SPMD code computing the same values everywhere does): each rank copies
 * its own part, with no communication. */
MN_EXTERN int mn_array_set_global(mn_array *a, const void *buf);
/* One element, returned on every rank. */
MN_EXTERN int mn_array_get(const mn_array *a, const int64_t *idx, mn_scalar *value);

/* ---- I/O ---- */
/* NumPy .npy (format 1.0/2.0, C order, little-endian). */
MN_EXTERN int mn_array_save_npy(const mn_array *a, const char *path);
MN_EXTERN int mn_array_load_npy(mn_ctx *ctx, const char *path, mn_array **a);
/* Fortran order, as NumPy keeps it: save_npy_fortran writes t's transpose
 * as a Fortran-ordered file (fortran_order True, t's shape reversed: the
 * data are t's in C order); load_npy_fortran reads a Fortran-ordered file
 * (one with two axes longer than 1) as its transpose, with *fortran 1,
 * and any other file as mn_array_load_npy does, with *fortran 0. */
MN_EXTERN int mn_array_save_npy_fortran(const mn_array *t, const char *path);
MN_EXTERN int mn_array_load_npy_fortran(mn_ctx *ctx, const char *path, mn_array **a, int *fortran);

#ifdef __cplusplus
}
#endif
#endif
