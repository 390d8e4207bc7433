/* The context: a duplicated communicator, backend and plan cache. */
#include "mn_impl.h"
#include "flatmove.h"
#include "index_plan.h"
#include <stdlib.h>
#include <string.h>
#if defined(OPEN_MPI) && defined(__has_include)
#if __has_include(<mpi-ext.h>)
#include <mpi-ext.h> /* MPIX_Query_cuda_support */
#endif
#endif

static int we_initialised_mpi = 0;

static void finalize_mpi(void) {
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin) MPI_Finalize();
}

/* MANIPLE_BACKEND, for MN_BACKEND_DEFAULT */
static int backend_from_env(mn_backend *b) {
  const char *v = getenv("MANIPLE_BACKEND");
  *b = MN_BACKEND_CPU;
  if (!v || !*v || !strcmp(v, "cpu")) return MN_SUCCESS;
  if (!strcmp(v, "cuda")) {
    *b = MN_BACKEND_CUDA;
    return MN_SUCCESS;
  }
  if (!strcmp(v, "emulated")) {
    *b = MN_BACKEND_EMULATED;
    return MN_SUCCESS;
  }
  return MN_ERR(MN_ERR_ARG, "MANIPLE_BACKEND=%.64s: expected cpu, cuda or emulated", v);
}

/* Whether MPI takes device buffers: MANIPLE_MPI_DEVICE=1 says so, 0 says
 * not; unset, CUDA asks the MPI (MPIX_Query_cuda_support), the emulated
 * device says not (its "device" buffers then go to MPI inside windows, as
 * a CUDA-aware MPI would read them: the tests set it). */
int mni_mpi_cuda_aware(void) {
#if defined(MANIPLE_HAVE_CUDA) && defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  return MPIX_Query_cuda_support() == 1;
#else
  return -1;
#endif
}

static int mpi_device(mn_ctx *c) {
  const char *v = getenv("MANIPLE_MPI_DEVICE");
  int aware = mni_mpi_cuda_aware();
  if (v && *v) {
    MN_CHECK(!strcmp(v, "0") || !strcmp(v, "1"), MN_ERR_ARG, "MANIPLE_MPI_DEVICE=%.64s: expected 0 or 1", v);
    c->mpi_dev = v[0] == '1';
    /* a device pointer handed to an MPI that reads it as host memory
     * segfaults inside MPI: refuse where the MPI can say so */
    MN_CHECK(!(c->mpi_dev && c->backend == MN_BACKEND_CUDA && aware == 0), MN_ERR_ARG,
             "MANIPLE_MPI_DEVICE=1, but this MPI is not CUDA-aware (MPIX_Query_cuda_support() returns 0)");
    return MN_SUCCESS;
  }
  c->mpi_dev = c->backend == MN_BACKEND_CUDA && aware == 1;
  return MN_SUCCESS;
}

int mn_ctx_create(MPI_Comm comm, mn_backend backend, mn_ctx **ctx) {
  MN_CHECK(ctx, MN_ERR_ARG, "ctx output pointer is NULL");
  *ctx = NULL;
  int init = 0;
  MPI_Initialized(&init);
  if (!init) {
    int provided;
    /* SERIALIZED, not FUNNELED: Python threads call in turn, not only the main one */
    MN_MPI(MPI_Init_thread(NULL, NULL, MPI_THREAD_SERIALIZED, &provided));
    if (!we_initialised_mpi) atexit(finalize_mpi);
    we_initialised_mpi = 1;
    if (comm == MPI_COMM_NULL) comm = MPI_COMM_WORLD;
  }
  MN_CHECK(comm != MPI_COMM_NULL, MN_ERR_ARG, "communicator is MPI_COMM_NULL");
  MN_CHECK(backend >= MN_BACKEND_DEFAULT && backend <= MN_BACKEND_EMULATED, MN_ERR_ARG,
           "unknown backend %d (expected -1 = MANIPLE_BACKEND, 0 = cpu, 1 = cuda or 2 = emulated)", (int)backend);
  mn_ctx *c = calloc(1, sizeof *c);
  MN_CHECK(c, MN_ERR_MEM, "cannot allocate a context");
  MN_MPI(MPI_Comm_dup(comm, &c->comm));
  MPI_Comm_rank(c->comm, &c->rank);
  MPI_Comm_size(c->comm, &c->size);
  int err = backend == MN_BACKEND_DEFAULT ? backend_from_env(&backend) : 0;
  const char *v = getenv("MANIPLE_CHECKS");
  if (!err && v && *v && strcmp(v, "0") && strcmp(v, "1"))
    err = MN_ERR(MN_ERR_ARG, "MANIPLE_CHECKS=%.64s: expected 0 or 1", v);
  c->checks = v && !strcmp(v, "1");
  /* replicating a smaller operand above 64 MiB costs each rank more memory
   * than moving both to the grid; the same value on every rank (SPMD) */
  const char *sm = getenv("MANIPLE_SUMMA_MIN_BYTES");
  c->summa_min_bytes = sm && *sm ? strtoll(sm, NULL, 10) : (int64_t)64 << 20;
  /* every partial on every rank costs O(P) per reduction: a tree above 64 */
  const char *ag = getenv("MANIPLE_ACC_GATHER_MAX");
  c->acc_gather_max = ag && *ag ? atoi(ag) : 64;
  /* METIS's rank-0 copy of a graph this size is ~100 MB: above it, PT-Scotch */
  const char *ps = getenv("MANIPLE_PART_SERIAL_MAX");
  c->part_serial_max = ps && *ps ? strtoll(ps, NULL, 10) : (int64_t)1 << 20;
  c->backend = backend;
  c->ops = mn_backend_table(backend);
  if (!err && backend == MN_BACKEND_CUDA) {
    int n = 0;
    const char *why = "";
    mn_cuda_device_count(&n, &why);
    if (n == 0) err = MN_ERR(MN_ERR_BACKEND, "CUDA backend requested but unavailable: %s", why);
  }
  if (!err && c->ops->dev_alloc) err = mpi_device(c);
  if (!err) err = mn_cache_create(c);
  err = mn_agree(c, err);
  if (err) {
    mn_cache_destroy(c);
    MPI_Comm_free(&c->comm);
    free(c);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  *ctx = c;
  /* the profiling summary, as PETSc's -log_view (printed at destroy) */
  const char *lv = getenv("MANIPLE_LOG_VIEW");
  int e = lv && *lv && *lv != '0' ? mn_log_set_view_on_destroy(c, 1) : 0;
  if (e) {
    mn_ctx_destroy(ctx);
    return mn_trace(e, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}

int mn_ctx_destroy(mn_ctx **ctx) {
  if (!ctx || !*ctx) return MN_SUCCESS;
  mn_ctx *c = *ctx;
  mn_log_finish(c);
  mn_cache_destroy(c);
  mn_flatmove_release_kept(c);
  mn_index_plan_free(&c->take_plan);
  mn_index_plan_free(&c->put_plan);
  mn_index_plan_free(&c->rows_plan);
  if (c->dscratch) c->ops->dev_free(c->dscratch, c->dscratch_size);
  mn_pool_drain();
  if (c->ops && c->ops->drain) c->ops->drain();
  mn_free(c->scratch);
  mn_free(c->alias);
  free(c->prog);
  free(c->pieces);
  for (int k = 0; k < MN_CTX_LAYS; k++) mn_layout_destroy(&c->lays[k]);
  int fin = 0;
  MPI_Finalized(&fin);
  if (!fin) MPI_Comm_free(&c->comm);
  free(c);
  *ctx = NULL;
  return MN_SUCCESS;
}

char *mn_ctx_scratch(mn_ctx *ctx, size_t n) {
  if (n > ctx->scratch_size) {
    mn_free(ctx->scratch);
    ctx->scratch = mn_malloc(n);
    ctx->scratch_size = ctx->scratch ? n : 0;
  }
  return ctx->scratch;
}

int mn_ctx_dev_scratch(mn_ctx *ctx, size_t n, char **p) {
  if (n > ctx->dscratch_size) {
    if (ctx->dscratch) ctx->ops->dev_free(ctx->dscratch, ctx->dscratch_size);
    ctx->dscratch = NULL;
    ctx->dscratch_size = 0;
    MN_CALL(ctx->ops->dev_alloc(n, (void **)&ctx->dscratch));
    ctx->dscratch_size = n;
  }
  *p = ctx->dscratch;
  return MN_SUCCESS;
}

char *mn_ctx_alias_buffer(mn_ctx *ctx, size_t n) {
  if (n > ctx->alias_size) {
    mn_free(ctx->alias);
    ctx->alias = mn_malloc(n);
    ctx->alias_size = ctx->alias ? n : 0;
  }
  return ctx->alias;
}

int mn_ctx_rank(const mn_ctx *ctx) { return ctx->rank; }
int mn_ctx_size(const mn_ctx *ctx) { return ctx->size; }
MPI_Comm mn_ctx_comm(const mn_ctx *ctx) { return ctx->comm; }
mn_backend mn_ctx_backend(const mn_ctx *ctx) { return ctx->backend; }
const char *mn_ctx_errmsg(const mn_ctx *ctx) { (void)ctx; return mn_errmsg(); }
void mn_ctx_set_verbose(mn_ctx *ctx, int on) { (void)ctx; mn_set_verbose(on); }
