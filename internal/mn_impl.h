/* Private structures and the error machinery every layer shares (internal/). */
#ifndef MANIPLE_MN_IMPL_H
#define MANIPLE_MN_IMPL_H

#include <maniple/mn_array.h>
#include <maniple/mn_log.h>
#include <stdarg.h>
#include "backend.h"

/* ---- errors (mn_error, mn_trace, MN_ERR, MN_CHECK, MN_CALL: mn_core.h) ---- */
const char *mn_errmsg(void);
/* Print each error to stderr as it is raised (process-wide; arrays/error.c). */
void mn_set_verbose(int on);
/* Collective agreement: every rank passes its local code; all return the
 * code (and message) of the lowest failing rank, or 0. */
int mn_agree(mn_ctx *ctx, int code);
/* MN_ERR_IO for a failed system call on path ("what 'path': strerror"),
 * keeping errno and path for mn_err_errno. */
int mn_error_io(int errnum, const char *path, const char *file, int line, const char *func, const char *what);
#define MN_ERR_ERRNO(e, path, what) mn_error_io((e), (path), __FILE__, __LINE__, __func__, (what))
/* Collective, before any collective I/O on path: every rank checks that it
 * can read path (an existing regular file) or, with write, create or
 * replace it (not a directory, in a writable directory). The outcome is
 * agreed, so a file missing on some ranks is MN_ERR_IO on all of them
 * (never a hang inside MPI_File_open). One allreduce. */
int mn_file_check(mn_ctx *ctx, const char *path, int write);

/* Jump to a cleanup label instead of returning. */
#define MN_CALLG(err, expr, label) \
  do { (err) = (expr); \
       if (err) { mn_trace((err), __FILE__, __LINE__, __func__); goto label; } } while (0)
#define MN_MPI(expr) \
  do { int mn_m_ = (expr); if (mn_m_ != MPI_SUCCESS) { \
       char mn_s_[MPI_MAX_ERROR_STRING]; int mn_l_ = 0; \
       MPI_Error_string(mn_m_, mn_s_, &mn_l_); \
       return MN_ERR(MN_ERR_MPI, "%s failed: %s", #expr, mn_s_); } } while (0)

void *mn_malloc(size_t n);  /* 64-byte aligned; NULL on failure */
void *mn_calloc(size_t n);
void mn_free(void *p);
/* Array buffers through a pool of recently freed blocks (pool.c): take
 * gives n bytes (64-byte aligned, contents undefined), give returns them. */
void *mn_pool_take(size_t n);
void mn_pool_give(void *p, size_t n);
void mn_pool_drain(void);
/* whether the pool keeps a block of n bytes given back (a sanitizer
 * build, whose pool keeps none, says yes from POOL_MIN up: renew.c's
 * storage is then new at every step, and a stale pointer is caught) */
int mn_pool_keeps(size_t n);

/* ---- small shared helpers ---- */
static inline int mn_is_float(mn_dtype t) { return t == MN_FLOAT32 || t == MN_FLOAT64 || t == MN_FLOAT16; }
static inline int mn_is_uint(mn_dtype t) { return t >= MN_UINT8 && t <= MN_UINT64; }
static inline int mn_is_complex(mn_dtype t) { return t == MN_COMPLEX64 || t == MN_COMPLEX128; }
/* the real type of a complex dtype's parts, and the complex dtype whose
 * parts hold a float (float16 and float32: complex64) */
static inline mn_dtype mn_real_of(mn_dtype t) {
  return t == MN_COMPLEX64 ? MN_FLOAT32 : t == MN_COMPLEX128 ? MN_FLOAT64 : t;
}
static inline mn_dtype mn_complex_of(mn_dtype f) { return f == MN_FLOAT64 ? MN_COMPLEX128 : MN_COMPLEX64; }
/* i as dtype t holds it (wrapped; uint64 as its bits), in an mn_scalar's v.i */
int64_t mn_int_wrap(mn_dtype t, int64_t i);
/* s converted to dtype t as NumPy's cast (the CPU cast kernels): stored at
 * p (mn_dtype_size(t) bytes), or as a scalar of dtype t */
void mn_scalar_store(mn_scalar s, mn_dtype t, void *p);
mn_scalar mn_scalar_cast(mn_scalar s, mn_dtype t);
/* an integer dtype, signed or unsigned (not bool) */
static inline int mn_is_int(mn_dtype t) {
  return t == MN_INT8 || t == MN_INT16 || t == MN_INT32 || t == MN_INT64 || mn_is_uint(t);
}
/* C-order element strides of a dense box with extents cnt */
static inline void mn_dense_strides(int nd, const int64_t *cnt, int64_t *st) {
  int64_t s = 1;
  for (int d = nd - 1; d >= 0; d--) { st[d] = s; s *= cnt[d]; }
}
/* Are st exactly the dense C-order strides of extents cnt (a local block
 * that BLAS, memcpy or a flat index can address directly)? */
static inline int mn_strides_dense(int nd, const int64_t *cnt, const int64_t *st) {
  int64_t s = 1;
  for (int d = nd - 1; d >= 0; d--) {
    if (st[d] != s) return 0;
    s *= cnt[d];
  }
  return 1;
}
/* AVX2 clones of a CPU loop (GCC target_clones, chosen at load time)
 * where the compiler and CPU have them; not under ASan. No FMA
 * (-ffp-contract=off: CMakeLists.txt), so a*b + c keeps its two roundings,
 * as NumPy's. MN_CLONES_WIDE adds an AVX-512 clone, for the per-operation
 * kernels: it doubles the vector sqrt and divide throughput where the CPU
 * has 512-bit units (Zen 5 here: swe's fluxes), but made the 5-point
 * linear combinations over rows that start mid-line slower (the seeds'
 * stencil idiom at N=4000: 11.4 -> 16 ms a step), so the linear
 * combinations and copies keep AVX2. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && !defined(__SANITIZE_ADDRESS__)
#define MN_CLONES __attribute__((target_clones("avx2", "default")))
#define MN_CLONES_WIDE __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define MN_CLONES
#define MN_CLONES_WIDE
#endif
/* FNV-1a over n bytes, continuing from h (start at MN_HASH0): ranks holding
 * equal bytes get equal hashes, for agreeing on settings and arguments */
#define MN_HASH0 1469598103934665603ULL
static inline uint64_t mn_hash(uint64_t h, const void *p, size_t n) {
  const unsigned char *b = (const unsigned char *)p;
  for (size_t i = 0; i < n; i++) h = (h ^ b[i]) * 1099511628211ULL;
  return h;
}
/* reductions with no identity, an error on empty input (NumPy) */
static inline int mn_reduce_needs_data(mn_reduce_op op) {
  return op == MN_RED_MIN || op == MN_RED_MAX || op == MN_RED_ARGMIN || op == MN_RED_ARGMAX || op == MN_RED_MAXABS;
}

/* ---- profiling log (log.c) ---- */
typedef struct {
  mn_log_stats s;
  int depth;                /* open begins of this kind (nested ones count once) */
  double t0;                /* at the outermost begin: */
  int64_t msgs0, bytes0, ar0, mem0;
} mn_log_ev;
typedef struct {
  int view_at_destroy;
  MPI_Comm comm;            /* the summary's own communicator */
  double t_start;
  int64_t msgs, msg_bytes, allreduces, mem; /* running totals; events take differences */
  int (*wait)(void);        /* the device's wait, so an event's time holds its kernels (NULL on the CPU) */
  mn_log_ev ev[MN_LOG_NEVENTS];
} mn_log;
void mn_log_begin_(mn_log *log, mn_log_event ev);
void mn_log_end_(mn_log *log, mn_log_event ev, int64_t mem_bytes);
void mn_log_more_calls_(mn_log *log, mn_log_event ev, int64_t calls);
/* At the context's destroy: the table if asked for, then the log freed. */
void mn_log_finish(mn_ctx *ctx);

/* ---- context ---- */
typedef struct mn_plan_cache_s mn_plan_cache;
enum { MN_CTX_LAYS = 4 }; /* default layouts a context keeps (array.c) */
enum { MN_CTX_FMOVES = 8 }; /* flat moves a context keeps (flatmove.c: reshapes) */
struct mn_ctx_s {
  MPI_Comm comm;
  int rank, size;
  mn_backend backend;
  const struct mn_backend_ops *ops; /* its table (backend.h) */
  mn_plan_cache *cache;
  long plan_hits, plan_misses;
  char *scratch;        /* evaluator work space, kept between calls */
  size_t scratch_size;
  char *prog;           /* the evaluator's program tables, kept between */
  size_t prog_size;     /* calls (grown without a collective: eval.c) */
  char *pieces;         /* the evaluator's operand pieces, kept between */
  size_t pieces_size;   /* calls as prog is */
  struct mn_layout_s *lays[MN_CTX_LAYS]; /* block layouts made last (array.c): a */
  int lay_next;         /* repeated temporary's shape reuses its layout */
  struct mn_flatmove_s *fmoves[MN_CTX_FMOVES]; /* flat moves made last: a time loop's */
  int fmove_next;       /* reshapes plan once */
  char *dscratch;       /* device scratch (device backends), kept */
  size_t dscratch_size;
  char *alias;          /* result buffer for aliased assignments, kept: a */
  size_t alias_size;    /* time loop would otherwise fault in fresh pages */
  mn_log *log;          /* the profiling log while recording, else NULL */
  mn_log *logst;        /* its storage, kept while recording is off */
  int checks;           /* MANIPLE_CHECKS: compare collective calls' arguments (spmd.h) */
  int acc_gather_max;    /* whole-array reductions: partials gathered up to this many ranks, a tree above: MANIPLE_ACC_GATHER_MAX */
  int64_t part_serial_max; /* MN_PART_GRAPH: METIS up to this many vertices: MANIPLE_PART_SERIAL_MAX */
  int64_t summa_min_bytes; /* matmul on the grid (p?gemm) from this smaller operand up: MANIPLE_SUMMA_MIN_BYTES */
  int mpi_dev;          /* MPI takes device buffers (CUDA-aware): plans skip the host staging */
  struct mn_index_plan_s *take_plan, *put_plan, *rows_plan; /* the last take's, put's and take_rows' plans,
                                                            * for a call with the same indices (index_plan.h) */
  int deferred;         /* an error met on this rank alone where the ranks did not */
  char deferred_msg[4096]; /* communicate (mn_defer), and its message, or 0 */
};
/* Keep an error met on this rank alone, where no collective follows (the
 * steady state): the call goes on with its messages so no rank waits, and
 * the error is raised, on every rank, at the next point where the ranks
 * communicate anyway: mn_agree, a reduction's combine, mn_ctx_sync. The
 * first error is kept, as CUDA keeps a sticky error. */
void mn_defer(mn_ctx *ctx, int code);
/* A device operation failed where other ranks wait on this one's messages
 * (a plan's pack, copy or unpack on the device): the job stops with the
 * error (device faults are sticky in CUDA anyway). */
void mn_device_abort(mn_ctx *ctx, const char *what);
/* A handle of a few bytes cannot be allocated: nothing can go on without
 * it and no other rank knows, so the job stops with the reason. */
void mn_oom_abort(mn_ctx *ctx, size_t n, const char *what);
/* A deferred error, if any: restores its message and clears it (0: none). */
int mn_deferred_take(mn_ctx *ctx);
/* Test hook: the next n allocations of kind f on this rank fail (an
 * evaluation's pieces: MNI_FAULT_EVAL; an array's storage:
 * MNI_FAULT_ARRAY), so tests reach the paths a real
 * shortage on one rank takes. One predictable branch when not armed. */
typedef enum { MNI_FAULT_EVAL = 0, MNI_FAULT_ARRAY, MNI_NFAULT } mni_fault;
void mni_fault_arm(mni_fault f, int n);
extern int mni_fault_armed[MNI_NFAULT];
static inline int mni_fault_hit(const mn_ctx *ctx, mni_fault f) {
  (void)ctx;
  if (!mni_fault_armed[f]) return 0;
  mni_fault_armed[f]--;
  return 1;
}
/* Logged operations: one predictable branch when logging is off (byte
 * estimates are computed only under mn_log_on). Every begin must meet its
 * end, on error paths too. */
static inline int mn_log_on(const mn_ctx *ctx) { return ctx->log != NULL; }
static inline void mn_log_begin(mn_ctx *ctx, mn_log_event ev) {
  if (ctx->log) mn_log_begin_(ctx->log, ev);
}
static inline void mn_log_end(mn_ctx *ctx, mn_log_event ev, int64_t mem_bytes) {
  if (ctx->log) mn_log_end_(ctx->log, ev, mem_bytes);
}
/* calls more of ev than its begin/end pairs show (an operation run as
 * several kernels inside one logged call) */
static inline void mn_log_more_calls(mn_ctx *ctx, mn_log_event ev, int64_t calls) {
  if (ctx->log) mn_log_more_calls_(ctx->log, ev, calls);
}
/* MPI_Allreduce on the context's communicator, counted; returns MPI's code. */
static inline int mn_allreduce(mn_ctx *ctx, const void *in, void *out, int n, MPI_Datatype t, MPI_Op op) {
  mn_log_begin(ctx, MN_LOG_ALLREDUCE);
  if (ctx->log) ctx->log->allreduces++;
  int rc = MPI_Allreduce(in, out, n, t, op, ctx->comm);
  mn_log_end(ctx, MN_LOG_ALLREDUCE, 0);
  return rc;
}
/* At least n bytes for an aliased result (contents not kept). */
char *mn_ctx_alias_buffer(mn_ctx *ctx, size_t n);
/* At least n bytes of the context's scratch (contents not kept). */
char *mn_ctx_scratch(mn_ctx *ctx, size_t n);
/* At least n bytes of device scratch, kept on the context (device backends). */
int mn_ctx_dev_scratch(mn_ctx *ctx, size_t n, char **p);

/* ---- layouts ---- */
struct mn_layout_s {
  mn_ctx *ctx;
  int refs;
  mn_layout_kind kind;
  int ndim;
  int root;
  int64_t shape[MN_MAXDIM];
  int dims[MN_MAXDIM];
};
mn_layout *mn_layout_ref(mn_layout *lay);
/* The same distribution (kind, shape, process grid): equal boxes on every rank. */
int mn_layout_same(const mn_layout *a, const mn_layout *b);
/* Rank of process-grid coordinates and back (row-major). */
int mn_layout_rank_of(const mn_layout *lay, const int *coords);
void mn_layout_coords_of(const mn_layout *lay, int rank, int *coords);

/* ---- storage and arrays ---- */
typedef struct mn_buf_s {
  int refs;
  mn_layout *lay;
  mn_dtype dtype;
  int halo;
  int ndim;
  int64_t lo[MN_MAXDIM], hi[MN_MAXDIM];   /* owned box */
  int64_t alo[MN_MAXDIM];                 /* allocated box start */
  int64_t alen[MN_MAXDIM];                /* allocated extents */
  int64_t astride[MN_MAXDIM];             /* element strides */
  char *host;     /* host storage; on a device backend the host copy, NULL until first asked for */
  char *dev;      /* device storage (device backends only) */
  int valid;      /* MN_VALID_HOST | MN_VALID_DEV (backend.h): the copies holding the values */
  const struct mn_backend_ops *ops; /* the context's (kept here: a handle may outlive its context) */
  int lost;
  int pinned;     /* a host pointer was handed out (mn_array_local): the values stay on the host */
  int borrowed;   /* dev is the caller's memory (mn_array_create_on_device): never freed here */
  struct mn_buf_s *store; /* the buffer whose host storage this one shares (a reshape's alias, holding a
                           * reference to it), or NULL: the storage is this buffer's own */
  int aliases;    /* the buffers whose store is this one (they hold its host pointer) */
  size_t nbytes;
} mn_buf;
/* The owned block on the side asked for (dev: the device copy), made
 * current there and marked written; the pointer is good until the next
 * call that moves the values (no pin, unlike mn_array_local). */
int mn_array_local_in(const struct mn_array_s *a, int dev, mn_local *loc);
/* The same for reading: the other side's copy stays current. */
int mn_array_local_read(const struct mn_array_s *a, int dev, mn_local *loc);
/* Storage lost: an array buffer whose allocation failed on this rank
 * alone (no storage; the error deferred). Evaluations skip such a rank's
 * work and still move its messages; other operations check with
 * mn_buf_need, which stops the job with the deferred message rather than
 * leave the other ranks waiting. */
static inline int mn_buf_lost(const mn_buf *b) { return b->lost; }
void mn_buf_need(mn_ctx *ctx, const mn_buf *b, const char *fn);
/* Storage of nbytes for b on its context's backend (zeroed when zero), or
 * lost with the error deferred (returned at one rank); and its release. */
int mn_buf_alloc(mn_buf *b, int zero);
/* A base array on lay with no halo and contents undefined (to be written whole) */
int mni_array_create_on_empty(struct mn_layout_s *lay, mn_dtype dtype, struct mn_array_s **a);
void mn_buf_release_storage(mn_buf *b);
/* b's host storage with the current values, copied from the device when
 * only the device holds them ("d2h" in the log); write: the caller
 * changes them, so the device copy becomes stale (MN_WRITE_ALL: the
 * caller overwrites every element, so no copy is made). NULL when lost.
 * Every host access to storage goes through here (or mn_array_local). */
enum { MN_WRITE_ALL = 2 };
char *mn_buf_sync_host(const mn_buf *b, int write);
static inline char *mn_buf_host(const mn_buf *b, int write) {
  return b->dev ? mn_buf_sync_host(b, write) : b->host; /* cpu backend: one branch */
}
/* n bytes at byte offset off of b's values, into dst, from whichever copy
 * holds them (a small "d2h" when only the device does): the scalars a
 * script asks for cost no copy of the array. */
void mn_buf_read(const mn_buf *b, size_t off, size_t n, void *dst);
/* Device kernels may work on b: a device backend's storage, not lost, and
 * no host pointer to it handed out (mn_array_local cannot tell when its
 * caller is done, so such storage keeps its values on the host). */
static inline int mn_buf_device_ok(const mn_buf *b) { return b->dev && !b->pinned; }
/* n bytes from host h to device d (to_dev) or back, counted in the log as
 * "h2d" / "d2h"; the backend's error code. */
int mn_copy_counted(mn_ctx *ctx, int to_dev, char *d, char *h, size_t n);
/* A new device block of n + 1 bytes (never empty) holding the n bytes of
 * host table h, copied once ("h2d"), for kernels' index lists and matrix
 * blocks; *d NULL on failure. Freed with ctx->ops->dev_free(*d, n + 1). */
int mn_dev_table(mn_ctx *ctx, const void *h, size_t n, void **d);
/* b's device storage with the current values ("h2d" when stale; write
 * and MN_WRITE_ALL as above). Where
 * the values are is kept state, not the values: both take a const buffer. */
char *mn_buf_dev(const mn_buf *cb, int write);

/* Affine map from an iteration (or view) index space to base indices: view
 * axis k reads base axis bax[k] at start[k] + step[k]*i (bax -1: newaxis or
 * broadcast, no base axis). Base axes not read by any view axis are fixed
 * at fixed[b]. */
typedef struct {
  int ndim;                 /* view / iteration dims */
  int bndim;                /* base dims */
  int bax[MN_MAXDIM];
  int64_t start[MN_MAXDIM];
  int64_t step[MN_MAXDIM];
  int64_t shape[MN_MAXDIM]; /* view extents */
  int64_t fixed[MN_MAXDIM]; /* per base axis; used where unmapped */
} mn_map;

struct mn_array_s {
  mn_ctx *ctx;
  mn_buf *buf;
  mn_dtype dtype;
  int is_view;
  mn_map map;
};

/* A base array without halo: its owned block is all of its storage, so
 * writing every owned element rewrites the storage (MN_WRITE_ALL: no copy
 * of the old values between host and device first). */
static inline int mn_array_whole_storage(const mn_array *a) { return !a->is_view && !a->buf->halo; }

/* Fresh storage for an evaluation into a view of b that reads b shifted
 * (renew.c). renewable: b's storage may be replaced (cpu host memory, no
 * pointer to it handed out or shared, at least MN_RENEW_MIN bytes, kept
 * by the pool). renew_box: the elements written (a view of step 1 on
 * every axis in order; lo in allocated indices, counts Rcnt) are at least
 * half of the block. take gives the new block; finish (keep) copies the
 * elements outside the box across and makes it b's storage, else gives
 * it back. */
#define MN_RENEW_MIN ((size_t)256 * 1024)
int mn_buf_renewable(const mn_buf *b);
int mn_buf_renew_box(const mn_buf *b, const mn_map *m, const int64_t *Rlo, const int64_t *Rcnt, int64_t *lo);
char *mn_buf_renew_take(const mn_buf *b);
void mn_buf_renew_finish(mn_buf *b, char *fresh, const int64_t *lo, const int64_t *cnt, int keep);

/* Pointer to base element at global index g (must be in allocation) in
 * the host storage, which the caller has asked for (mn_buf_host). */
static inline int64_t mn_buf_off(const mn_buf *b, const int64_t *g) {
  int64_t off = 0;
  for (int d = 0; d < b->ndim; d++) off += (g[d] - b->alo[d]) * b->astride[d];
  return off;
}
static inline char *mn_buf_ptr(const mn_buf *b, const int64_t *g) {
  return b->host + mn_buf_off(b, g) * (int64_t)mn_dtype_size(b->dtype);
}

/* Iteration-space box of the elements (under map m of a base on lay) that
 * rank owns. Returns 0 (and zero counts) when empty. */
int mn_map_owned_box(const mn_map *m, const mn_layout *lay, int rank,
                     int64_t *lo, int64_t *cnt);
/* Does each rank own whole rows of x's first axis, in rank order (a
 * row-block split)? Then rank q owns the run start[q] .. start[q+1] - 1 of
 * x's flat (C-order) index; start has size + 1 entries. 0 otherwise. */
int mn_rows_split(const struct mn_array_s *x, int64_t *start);
/* Ranks owning any element of the image of the iteration box (lo, cnt)
 * under m, in increasing order (ranks holds at least the context size);
 * returns their number. Only ranks whose blocks meet the box are listed,
 * so plans cost O(neighbours), not O(ranks). */
int mn_map_box_owners(const mn_map *m, const mn_layout *lay, const int64_t *lo, const int64_t *cnt, int *ranks);
/* Map broadcast into an iteration space of ndim dims / shape (right-aligned,
 * NumPy rules); error if not broadcastable. */
int mn_map_broadcast(const mn_map *m, int ndim, const int64_t *shape,
                     mn_map *out);
/* Memory position of iteration index i (in the owner's buffer). */
static inline char *mn_map_ptr(const mn_map *m, const mn_buf *b,
                               const int64_t *i) {
  int64_t g[MN_MAXDIM];
  for (int d = 0; d < m->bndim; d++) g[d] = m->fixed[d];
  for (int k = 0; k < m->ndim; k++)
    if (m->bax[k] >= 0) g[m->bax[k]] = m->start[k] + m->step[k] * i[k];
  return mn_buf_ptr(b, g);
}
/* Element offset of iteration index i from the start of the storage. */
static inline int64_t mn_map_off(const mn_map *m, const mn_buf *b, const int64_t *i) {
  int64_t g[MN_MAXDIM];
  for (int d = 0; d < m->bndim; d++) g[d] = m->fixed[d];
  for (int k = 0; k < m->ndim; k++)
    if (m->bax[k] >= 0) g[m->bax[k]] = m->start[k] + m->step[k] * i[k];
  return mn_buf_off(b, g);
}
/* Element strides (in elements) per iteration axis. */
static inline void mn_map_strides(const mn_map *m, const mn_buf *b,
                                  int64_t *st) {
  for (int k = 0; k < m->ndim; k++)
    st[k] = m->bax[k] >= 0 ? m->step[k] * b->astride[m->bax[k]] : 0;
}
/* Identity map of a base array. */
void mn_map_identity(mn_map *m, int ndim, const int64_t *shape);
int mn_map_equal(const mn_map *a, const mn_map *b);
/* Map a on layout la and map b on layout lb give every rank the same box,
 * decided from global metadata alone (no message). quick: only the cheap
 * sufficient test (same layout, same map); otherwise every rank's boxes
 * are compared too, O(ranks). */
int mn_map_split_alike(const mn_ctx *ctx, const mn_map *a, const mn_layout *la, const mn_map *b,
                       const mn_layout *lb, int quick);

int mn_array_wrap(mn_ctx *ctx, mn_buf *buf, const mn_map *m, mn_array **a);
/* A base array of layout lay over the host storage of base array src, no
 * copy: the caller has checked that this rank's block of lay is, byte for
 * byte, src's (a reshape that keeps the rows on a CPU backend, no halo). */
int mni_array_create_alias(mn_layout *lay, const struct mn_array_s *src, mn_array **a);
int64_t mn_box_size(int nd, const int64_t *cnt);
/* Intersect boxes (lo, cnt); returns 0 when empty. */
int mn_box_intersect(int nd, const int64_t *alo, const int64_t *acnt,
                     const int64_t *blo, const int64_t *bcnt, int64_t *lo,
                     int64_t *cnt);

/* ---- strided copies ---- */
/* Copy a box of cnt elements (elsize bytes each) between strided layouts. */
void mn_strided_copy(int nd, const int64_t *cnt, size_t elsize,
                     const char *src, const int64_t *sst, char *dst,
                     const int64_t *dst_st);

/* ---- plan internals ---- */
typedef struct {
  int peer;
  int tag;
  int64_t count;     /* elements */
  int64_t off;       /* element offset in the plan's buffer */
  int nd;            /* strided box in the local array memory */
  int64_t ilo[MN_MAXDIM]; /* box start in the plan's index space */
  int64_t cnt[MN_MAXDIM];
  int64_t stride[MN_MAXDIM];
  int64_t mem_off;   /* element offset from the buffer base pointer */
  int64_t *idx;      /* or: count element offsets (index-list messages, as
                        sparse ghosts need); owned by the plan */
} mn_msg;

struct mn_plan_s {
  mn_ctx *ctx;
  int refs;
  size_t elsize;
  int tag;
  int nsend, nrecv;
  mn_msg *sends, *recvs;
  int64_t send_total, recv_total; /* elements */
  char *sendbuf, *recvbuf;
  MPI_Request *reqs;
  int nreq;            /* requests posted by the current execution */
  int unpack;          /* 1: end() copies receives into memory */
  char *mem;           /* memory base used by the current execution */
  mn_buf *bound;       /* the storage mn_plan_begin exchanges (halo plans) */
  int on_dev;          /* the current execution packs and unpacks on the device */
  const mn_buf *dbuf;  /* its storage, when begun with mn_plan_begin_buf */
  char *dsend, *drecv; /* device buffers of the packed messages (made at the first) */
  int64_t *didx, *dridx; /* the sends' and receives' index lists on the device, if any */
  int64_t didx_span, dridx_span; /* 1 + the largest of each: the spans they read and write */
  int mpi_dev;         /* the current execution gave MPI the device buffers (ctx->mpi_dev) */
  const struct mn_backend_ops *dops; /* whose they are */
  int active;
};
/* Non-blocking send (send = 1) or receive of bytes, split into messages of
 * at most 1 GiB (MPI counts are ints) on ctx's communicator; appends to
 * reqs[*nr]. Sends are counted in the profiling log. */
int mn_mpi_post(int send, char *buf, int64_t bytes, int peer, int tag, mn_ctx *ctx, MPI_Request *reqs, int *nr);
int64_t mn_mpi_npieces(int64_t bytes);
/* Execute with an explicit memory base pointer for packing/unpacking. */
int mn_plan_begin_mem(mn_plan *p, char *send_mem, char *recv_mem);
/* The same with device memory (a device backend with copy_box and move;
 * messages of boxes or index lists): messages packed and unpacked by
 * kernels and staged through host buffers for MPI, each staging copy
 * counted. */
int mn_plan_begin_dev(mn_plan *p, char *send_dev, char *recv_dev);
/* Its device buffers (made once, kept with the plan): dsend, and drecv,
 * where mn_plan_end of a plan that does not unpack (an alignment plan,
 * recv_dev NULL) leaves the packed messages for a device reader. */
int mn_plan_dev_buffers(mn_plan *p);
/* their sizes in bytes (+1: never zero) */
static inline size_t mn_plan_dbytes(const mn_plan *p, int send) {
  return (size_t)(send ? p->send_total : p->recv_total) * p->elsize + 1;
}
/* Begin on whichever side holds b's values (the device's when it does
 * and the backend can pack there), so an exchange moves no array between
 * host and device. */
int mn_plan_begin_buf(mn_plan *p, const mn_buf *b);
int mn_plan_alloc(mn_plan *p);
void mn_plan_free(mn_plan *p);

/* Alignment plan: moves the elements of operand map m (over buffer b, in
 * iteration space) that each rank needs for its part of the iteration
 * space, which is the owned box of anchor map am on layout alay. Receives
 * are left in the plan's buffer (no unpack), one dense box per peer.
 * *built is set to 1 when the plan was not in the cache (a miss: the same
 * on every rank, see the cache below) and left alone on a hit. */
int mn_plan_get_align(mn_ctx *ctx, const mn_map *m, const mn_buf *b,
                      const mn_map *am, const mn_layout *alay, int tag,
                      mn_plan **p, int *built);

/* Plan cache keyed by bytes of global metadata (created with the context).
 * Its contents change only by puts (first in, first out; a hit changes
 * nothing), every rank makes the same puts in the same order (the SPMD
 * contract: a put follows a miss, which the caller agrees on) and a put
 * cannot fail, so the contents, and every hit or miss, are the same on
 * every rank: a caller may skip a collective on a hit. A caller that
 * agrees on a failure after a miss drops the plans it built on every
 * rank, so a plan built on some ranks only is not kept. */
int mn_cache_create(mn_ctx *ctx);
mn_plan *mn_cache_get(mn_ctx *ctx, const void *key, size_t keylen);
void mn_cache_put(mn_ctx *ctx, const void *key, size_t keylen, mn_plan *p);
void mn_cache_drop(mn_ctx *ctx, const mn_plan *p);
void mn_cache_destroy(mn_ctx *ctx);

/* Whether this MPI reads device pointers (MPIX_Query_cuda_support): 1 or
 * 0, or -1 where it cannot say (no CUDA build, or an MPI without the query). */
int mni_mpi_cuda_aware(void);

#endif
