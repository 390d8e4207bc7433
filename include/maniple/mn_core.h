/* maniple core: error codes, dtypes and the context (arrays/ layer). */
#ifndef MANIPLE_MN_CORE_H
#define MANIPLE_MN_CORE_H

#include <stddef.h>
#include <stdint.h>
#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library exports only what these headers declare with MN_EXTERN;
 * everything else in libmaniple is built hidden (-fvisibility=hidden). */
#if defined(__GNUC__) || defined(__clang__)
#define MN_EXTERN __attribute__((visibility("default")))
#else
#define MN_EXTERN
#endif

#define MN_MAXDIM 8

/* Error codes. Every mn_ function returns one; 0 is success. */
typedef enum {
  MN_SUCCESS = 0,
  MN_ERR_ARG,      /* bad argument value (NULL handle, bad flag) */
  MN_ERR_SHAPE,    /* shapes do not match or cannot broadcast */
  MN_ERR_DTYPE,    /* dtype not supported for this operation */
  MN_ERR_INDEX,    /* index or slice out of range */
  MN_ERR_MEM,      /* allocation failed */
  MN_ERR_MPI,      /* an MPI call failed */
  MN_ERR_IO,       /* file cannot be opened, read or written */
  MN_ERR_FORMAT,   /* file content is malformed */
  MN_ERR_BACKEND,  /* backend unavailable (e.g. no CUDA device) */
  MN_ERR_CUDA,     /* a CUDA runtime, cuBLAS or cuSPARSE call failed */
  MN_ERR_NOTIMPL,  /* valid request that this build does not implement */
  MN_ERR_LINALG,   /* the matrix is singular or not positive definite */
  MN_ERR_COUNT
} mn_err;

MN_EXTERN const char *mn_err_name(int code);

/* Element types. */
typedef enum {
  MN_BOOL = 0, /* stored as one byte, 0 or 1 */
  MN_INT32,
  MN_INT64,
  MN_FLOAT32,
  MN_FLOAT64,
  MN_INT8,
  MN_INT16,
  MN_UINT8,
  MN_UINT16,
  MN_UINT32,
  MN_UINT64,
  MN_FLOAT16, /* stored as IEEE half, computed in float32 (as NumPy) */
  MN_COMPLEX64,  /* two float32, real part first (C99's float complex) */
  MN_COMPLEX128, /* two float64 */
  MN_NDTYPE
} mn_dtype;

MN_EXTERN const char *mn_dtype_name(mn_dtype t);
MN_EXTERN size_t mn_dtype_size(mn_dtype t);
/* NumPy's promotion of two array dtypes (e.g. int32 + float32 -> float64). */
MN_EXTERN mn_dtype mn_dtype_promote(mn_dtype a, mn_dtype b);

/* MN_BACKEND_DEFAULT: the one the MANIPLE_BACKEND environment variable
 * names (cpu, cuda or emulated; cpu when unset), so one program runs on
 * any. EMULATED runs the device code path on the host, with device memory
 * that host code cannot touch (docs/design.md): how the device logic is
 * tested without a GPU. */
typedef enum { MN_BACKEND_DEFAULT = -1, MN_BACKEND_CPU = 0, MN_BACKEND_CUDA = 1, MN_BACKEND_EMULATED = 2 } mn_backend;

typedef struct mn_ctx_s mn_ctx;

/* Create a context over a duplicate of comm. MPI is initialised (as a
 * singleton when not under mpiexec) if the caller has not done so; it is
 * then finalised at exit. */
MN_EXTERN int mn_ctx_create(MPI_Comm comm, mn_backend backend, mn_ctx **ctx);
MN_EXTERN int mn_ctx_destroy(mn_ctx **ctx);
MN_EXTERN int mn_ctx_rank(const mn_ctx *ctx);
MN_EXTERN int mn_ctx_size(const mn_ctx *ctx);
MN_EXTERN MPI_Comm mn_ctx_comm(const mn_ctx *ctx);
MN_EXTERN mn_backend mn_ctx_backend(const mn_ctx *ctx);
/* Message of the last error raised in this process (on any context), with
 * the values involved and the file:line trace. Identical on every rank
 * after a collective error. */
MN_EXTERN const char *mn_ctx_errmsg(const mn_ctx *ctx);
/* The errno and file name behind the last MN_ERR_IO error (0 and "" when it
 * had none) and the lowest rank that failed (-1 when not agreed): the
 * Python layer raises FileNotFoundError and its siblings from them. */
MN_EXTERN int mn_err_errno(const char **path, int *rank);
/* The SPMD contract: every rank makes the same collective calls, in the
 * same order, with the same global arguments (shapes, dtypes, slices,
 * axes, scalars, file names); breaking it is undefined (wrong values, MPI
 * errors or hangs). MANIPLE_CHECKS=1 in the environment (or
 * mn_ctx_set_checks) verifies it: every collective entry point compares a
 * hash of its global arguments across the ranks (one allreduce) and a
 * difference is MN_ERR_ARG on every rank, naming the call and the first
 * argument that differs. mn_ctx_check_args is that check for front ends'
 * own collectives: fn and its arguments as text (equal text, equal
 * arguments); it does nothing while checks are off. */
MN_EXTERN int mn_ctx_checks(const mn_ctx *ctx);
MN_EXTERN int mn_ctx_set_checks(mn_ctx *ctx, int on);
MN_EXTERN int mn_ctx_check_args(mn_ctx *ctx, const char *fn, int n, const char *const *names, const char *const *values);
/* Release memory that a maniple function allocated for the caller (as
 * mn_csr_get_rows does). */
MN_EXTERN void mn_free(void *p);
/* Print every error to stderr as it is raised, with its trace: for the
 * whole process, not only ctx (default off; MANIPLE_VERBOSE=1 turns it on). */
MN_EXTERN void mn_ctx_set_verbose(mn_ctx *ctx, int on);
/* Collectives for front ends (the Python module's own transfers), on the
 * context's communicator and counted by the profiling log. mn_ctx_bcast:
 * n bytes of buf from root to every rank, in pieces MPI's int counts
 * hold (logged as MN_LOG_BCAST). mn_ctx_all: *all = 1 when ok is nonzero
 * on every rank (one allreduce). Both collective. */
MN_EXTERN int mn_ctx_bcast(mn_ctx *ctx, void *buf, int64_t n, int root);
MN_EXTERN int mn_ctx_all(mn_ctx *ctx, int ok, int *all);
/* Raise, on every rank, an error some rank met where the ranks did not
 * communicate (an allocation in the steady state of an evaluation): such
 * an error is kept and raised at the next point where they do (an
 * agreement, a reduction) or here. MN_SUCCESS when there is none. One
 * allreduce; collective. See docs/design.md, "Errors". */
MN_EXTERN int mn_ctx_sync(mn_ctx *ctx);
/* Wait until the device has finished the work this rank queued on it: a
 * GPU runs kernels while the host goes on, so a timer read without this
 * measures the launches. Immediate on the CPU; local (no communication). */
MN_EXTERN int mn_ctx_wait(mn_ctx *ctx);
/* Number of cached communication plans, and how often the cache was hit. */
MN_EXTERN void mn_ctx_plan_stats(const mn_ctx *ctx, int *cached, long *hits, long *misses);

/* Raising and propagating errors, for maniple and for code built on it (as
 * PETSc's SETERRQ / PetscCall):
 *   MN_CHECK(n > 0, MN_ERR_ARG, "n = %d must be positive", n);
 *   MN_CALL(mn_array_fill(a, mn_scalar_f64(0)));
 * mn_error records "CODE: message\n  at file:line (func)" and returns code;
 * mn_trace appends a "from file:line" frame. */
MN_EXTERN int mn_error(int code, const char *file, int line, const char *func, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
MN_EXTERN int mn_trace(int code, const char *file, int line, const char *func);
#define MN_ERR(code, ...) mn_error((code), __FILE__, __LINE__, __func__, __VA_ARGS__)
#define MN_CHECK(cond, code, ...) \
  do { if (!(cond)) return MN_ERR((code), __VA_ARGS__); } while (0)
#define MN_CALL(expr) \
  do { int mn_e_ = (expr); \
       if (mn_e_) return mn_trace(mn_e_, __FILE__, __LINE__, __func__); } while (0)

/* CUDA backend helpers, present in every build: without the backend
 * compiled in, the count is 0 and the reason says why. */
MN_EXTERN int mn_cuda_device_count(int *count, const char **reason);

#ifdef __cplusplus
}
#endif
#endif
