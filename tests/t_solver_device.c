/* Solvers on the device (the emulated one here, CUDA where a GPU is):
 * the vectors stay in device memory, so an iteration copies nothing
 * between host and device but the sums of its dot products (and, without
 * a CUDA-aware MPI, the staged ghost messages of its product). Counted
 * from the log as the difference between solves of 4 and 12 iterations;
 * the answers of converged solves checked against a dense direct solve,
 * also of one on the caller's own device memory (mn_array_create_on_device). */
#include "mt_solver.h"
#include "mn_impl.h"
#include <string.h>

static const char *ksp_name[] = {"cg", "cg1", "jacobi", "bicgstab", "gmres", "minres"};

/* b set on the host without a pin (mn_array_local would keep its values there) */
static void host_set(mn_array *a, double (*f)(int64_t)) {
  mn_buf *b = a->buf;
  double *h = (double *)mn_buf_host(b, 1);
  for (int64_t i = b->lo[0]; i < b->hi[0]; i++) h[i - b->alo[0]] = f(i);
}

typedef struct { int64_t h2d, h2d_bytes, d2h, d2h_bytes; } moves;
static moves counted(mn_ctx *ctx) {
  mn_log_stats a, b;
  mn_log_get(ctx, MN_LOG_H2D, &a);
  mn_log_get(ctx, MN_LOG_D2H, &b);
  return (moves){a.calls, a.mem_bytes, b.calls, b.mem_bytes};
}

static moves solve_counted(mn_ctx *ctx, mn_solver *s, const mn_array *b, mn_array *x, int64_t maxit) {
  T_OK(mn_solver_set_tolerances(s, 1e-30, 0, maxit));
  T_OK(mn_array_fill(x, mn_scalar_f64(0)));
  mn_log_reset(ctx);
  T_OK(mn_solver_solve(s, b, x));
  int64_t its;
  T_OK(mn_solver_get_result(s, &its, NULL, NULL));
  T_CHECK(its == maxit, "%lld iterations, not %lld", (long long)its, (long long)maxit);
  return counted(ctx);
}

/* A simulation code's own device vectors (here: the device blocks of two
 * arrays standing for the caller's cudaMalloc'd memory) wrapped without a
 * copy and solved in place: the solution is in the caller's memory. */
static void wrapped(mn_ctx *ctx, mn_op *op, const mt_prob *p, const double *ref, int64_t ng) {
  int64_t n = mt_n(p);
  mn_array *cb = NULL, *cx = NULL, *b = NULL, *x = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &cb));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &cx));
  host_set(cb, mt_rhs);
  mn_local lb, lx;
  T_OK(mn_array_local_device(cb, &lb));
  T_OK(mn_array_local_device(cx, &lx));
  T_OK(mn_array_create_on_device(ctx, MN_FLOAT64, 1, &n, lb.data, &b));
  T_OK(mn_array_create_on_device(ctx, MN_FLOAT64, 1, &n, lx.data, &x));
  mn_solver *s = NULL;
  T_OK(mn_solver_create(ctx, &s));
  T_OK(mn_solver_set_operator(s, op));
  T_OK(mn_solver_set_tolerances(s, 1e-10, 0, 1000));
  mn_log_reset(ctx);
  T_OK(mn_solver_solve(s, b, x));
  mn_log_stats h;
  mn_log_get(ctx, MN_LOG_H2D, &h); /* b and x used in place: only staged ghosts come in */
  T_CHECK(h.mem_bytes <= h.calls * ng * 8, "a solve on wrapped vectors: %lld h2d of %lld bytes (ghosts %lld)",
          (long long)h.calls, (long long)h.mem_bytes, (long long)ng);
  mn_solver_destroy(&s);
  mn_array_destroy(&b);
  mn_array_destroy(&x); /* the caller's memory stays */
  double *xs = mt_all(cx), e = mt_err(xs, ref, n);
  T_CHECK(e < 1e-8, "solution in the caller's device memory: error %.3g", e);
  free(xs);
  T_EXPECT(mn_array_create_on_device(ctx, MN_FLOAT64, 1, &n, NULL, &b), MN_ERR_ARG, "NULL device memory",
           "NULL device memory for rank");
  mn_array_destroy(&cb);
  mn_array_destroy(&cx);
}

static void run(mn_backend be) {
  mn_ctx *ctx = NULL;
  T_OK(mn_ctx_create(MPI_COMM_WORLD, be, &ctx));
  const char *md = getenv("MANIPLE_MPI_DEVICE");
  int dev = be != MN_BACKEND_CPU, staged = dev && !(md && !strcmp(md, "1"));
  mt_prob p = {MT_POISSON2, 24, 20, 1, 0.3};
  int64_t n = mt_n(&p);
  mn_csr *A = mt_csr(ctx, &p);
  mn_op *op = NULL;
  mn_array *b = NULL, *x = NULL;
  T_OK(mn_op_create_csr(A, &op));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &b));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  host_set(b, mt_rhs);
  int64_t ng, sent;
  int nmsg;
  mn_csr_ghosts(A, &ng, &nmsg, &sent);
  double *bs = malloc(sizeof(double) * (size_t)n), *ref = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) bs[i] = mt_rhs(i);
  mt_dense_solve(&p, bs, ref);
  T_OK(mn_log_enable(ctx));

  struct { mn_ksp_type m; mn_pc_type pc; int sums; } cs[] = {
    {MN_KSP_CG, MN_PC_NONE, 1 + 2}, {MN_KSP_CG, MN_PC_JACOBI, 1 + 2}, {MN_KSP_CG1, MN_PC_JACOBI, 2 + 1},
    {MN_KSP_CG, MN_PC_BJACOBI_ILU0, 1 + 2}, {MN_KSP_CG, MN_PC_BJACOBI_SGS, 1 + 2},
  };
  for (size_t c = 0; c < sizeof cs / sizeof cs[0]; c++) {
    mn_solver *s = NULL;
    T_OK(mn_solver_create(ctx, &s));
    T_OK(mn_solver_set_operator(s, op));
    T_OK(mn_solver_set_method(s, cs[c].m));
    T_OK(mn_solver_set_pc(s, cs[c].pc));
    /* converged: the dense solution, and x's values left on the device */
    T_OK(mn_solver_set_tolerances(s, 1e-10, 0, 1000));
    T_OK(mn_solver_solve(s, b, x));
    mn_stop_reason why;
    T_OK(mn_solver_get_result(s, NULL, NULL, &why));
    T_CHECK(!dev || x->buf->valid == MN_VALID_DEV, "%s: x's values not on the device alone (valid %d)",
            ksp_name[cs[c].m], x->buf->valid);
    double *xs = mt_all(x), e = mt_err(xs, ref, n);
    free(xs);
    T_CHECK(mn_stop_reason_converged(why) && e < 1e-8, "%s + pc %d: %s, error %.3g", ksp_name[cs[c].m],
            (int)cs[c].pc, mn_stop_reason_name(why), e);
    /* per iteration: one product (its staged ghosts) and the methods' two
     * reductions, whose sums come back as two copies of sums*8 bytes in all */
    moves m4 = solve_counted(ctx, s, b, x, 4), m12 = solve_counted(ctx, s, b, x, 12);
    moves it = {(m12.h2d - m4.h2d) / 8, (m12.h2d_bytes - m4.h2d_bytes) / 8, (m12.d2h - m4.d2h) / 8,
                (m12.d2h_bytes - m4.d2h_bytes) / 8};
    moves want = {staged && ng ? 1 : 0, staged ? ng * 8 : 0, dev ? 2 + (staged && sent ? 1 : 0) : 0,
                  dev ? cs[c].sums * 8 + (staged ? sent : 0) : 0};
    T_CHECK(!memcmp(&it, &want, sizeof it),
            "%s + pc %d, per iteration: h2d %lld calls %lld bytes, d2h %lld calls %lld bytes; want %lld %lld %lld %lld",
            ksp_name[cs[c].m], (int)cs[c].pc, (long long)it.h2d, (long long)it.h2d_bytes, (long long)it.d2h,
            (long long)it.d2h_bytes, (long long)want.h2d, (long long)want.h2d_bytes, (long long)want.d2h,
            (long long)want.d2h_bytes);
    if (getenv("MT_VERBOSE") && mt_rank == 0)
      printf("%s: per iteration h2d %lld (%lld B), d2h %lld (%lld B)\n", ksp_name[cs[c].m], (long long)it.h2d,
             (long long)it.h2d_bytes, (long long)it.d2h, (long long)it.d2h_bytes);
    mn_solver_destroy(&s);
  }
  mn_array *w = NULL;
  if (dev) wrapped(ctx, op, &p, ref, ng);
  else T_EXPECT(mn_array_create_on_device(ctx, MN_FLOAT64, 1, &n, NULL, &w), MN_ERR_BACKEND,
                "a wrapped device array on the cpu backend", "no device memory");
  free(bs);
  free(ref);
  mn_array_destroy(&b);
  mn_array_destroy(&x);
  mn_op_destroy(&op);
  mn_csr_destroy(&A);
  mn_ctx_destroy(&ctx);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  run(MN_BACKEND_CPU);
  run(MN_BACKEND_EMULATED);
  int nd = 0, least = 0;
  mn_cuda_device_count(&nd, NULL);
  MPI_Allreduce(&nd, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  /* MANIPLE_MPI_DEVICE=1 on an MPI that is not CUDA-aware: the CUDA
   * context is refused (t_device checks it), so only the emulated one runs */
  const char *md = getenv("MANIPLE_MPI_DEVICE");
  if (least > 0 && !(md && !strcmp(md, "1") && mni_mpi_cuda_aware() == 0)) run(MN_BACKEND_CUDA);
  return mt_finish(&ctx);
}
