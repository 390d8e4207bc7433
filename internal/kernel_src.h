/* CUDA C source of a fused expression (arrays/kernel_src.c), for NVRTC. */
#ifndef MANIPLE_KERNEL_SRC_H
#define MANIPLE_KERNEL_SRC_H
#include "eval_impl.h"

/* What the argument block depends on: dims (at least 1), inputs, scalars. */
typedef struct { int nd, ni, ns; } mn_kernel_shape;
/* at most this many nodes (and MN_KERNEL_SCALARS scalars, eval_impl.h), so
 * the source fits MN_KERNEL_SRC bytes */
enum { MN_KERNEL_NODES = 256, MN_KERNEL_SRC = 1 << 17 };
/* threads per block (a power of two: the reductions' trees), and the most
 * blocks of a reduction (its accumulators in L->part) */
enum { MN_KERNEL_BLOCK = 256, MN_KERNEL_RED_BLOCKS = 2048 };
/* 1 when P can be written as a kernel (its ops have device bodies, and it
 * is not too large): otherwise it is evaluated on the host. */
int mn_kernel_fits(const prog *P);
/* The source of P storing into dtype odt, into buf (cap bytes): a kernel
 * "mn_eval_kernel" taking one struct mn_args by value. A reduction
 * (P->reduce) stores each block's accumulator in part[block], and has a
 * second kernel "mn_reduce_final(mn_acc *part, int n, long long stride)"
 * (one block) that merges part[k * stride], k < n, into part[0]: the
 * blocks of a cell (stride 1), then the cells. */
int mn_kernel_src(const prog *P, mn_dtype odt, char *buf, size_t cap, mn_kernel_shape *ks);
/* The host C source of P (a CPU kernel compiled at run time:
 * arrays/jit_cpu.c): "void mn_jit(long long n, const void *const *in,
 * void *const *out, const double *sf, const long long *si)" computes n
 * elements from contiguous inputs in[k] (P's operands) into out[0] (the
 * root, in its own dtype) and out[1 + x] (extra output x), with the
 * scalars' values in sf/si as the device's. scal gets the scalar nodes in
 * the order they read sf/si (at most MN_KERNEL_SCALARS), *nscal their
 * count. */
int mn_kernel_host_src(const prog *P, char *buf, size_t cap, int *scal, int *nscal);
/* The argument block of a launch, as struct mn_args lays it out; returns
 * its bytes (blk holds at least 8 KiB), 0 when out of memory. */
size_t mn_kernel_args(const mn_kernel_shape *ks, const mn_eval_launch *L, char *blk);
/* The headers the source includes, for NVRTC (generated at configure
 * time from internal/kernels/). */
extern const int mni_src_nhdr;
extern const char *const mni_src_hdr[], *const mni_src_hdr_name[];
/* Compiled kernels on disk between runs (arrays/kernel_cache.c): the binary
 * stored for (key, tag) and compiled from src, malloc'd into *bin; 1 when
 * found, 0 on any miss. Stores are best effort. */
int mn_kcache_load(uint64_t key, const char *tag, const char *src, char **bin, size_t *n);
void mn_kcache_store(uint64_t key, const char *tag, const char *src, const char *bin, size_t n);
/* The cache's directory into d (0: none: MANIPLE_KERNEL_CACHE_DIR empty,
 * or no home), and mkdir -p of d (0 on failure) */
int mn_kcache_dir(char *d, size_t n);
int mn_kcache_mkdirs(char *d);
#endif
