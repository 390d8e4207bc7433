/* Setup at scale: the 5-point Laplacian of a g x g mesh whose numbering is
 * shuffled (row q is mesh point (q - c) / a mod n), built, partitioned by
 * METIS and by PT-Scotch, renumbered, multiplied and solved by CG, with no
 * array of the global size on any rank but METIS's own. Checks: y = A x
 * against the stencil evaluated pointwise, CG against the exact solution,
 * the partitions' quality against the equal split (5x fewer ghosts) and
 * PT-Scotch's against METIS's (within 1.2x). Reports each rank's
 * peak resident memory over each partitioner's setup (partition + permute)
 * from /proc/self/status (less MPI's shared-memory segments, reported
 * apart), so runs at several rank counts show how it falls.
 * Usage: s_setup [g] (default 256). */
#define _GNU_SOURCE /* mallopt, malloc_trim */
#include "mn_test.h"
#include <malloc.h>

static int64_t G, N, A_MUL, A_INV, C_ADD;

/* shuffled index of mesh point i, and back */
static int64_t shuf(int64_t i) { return (int64_t)(((__int128)A_MUL * i + C_ADD) % N); }
static int64_t unshuf(int64_t q) { return (int64_t)(((__int128)A_INV * ((q - C_ADD) % N + N)) % N); }
static double fx(int64_t i) { return 1.0 + (double)((i * 7919) % 101) / 50.0; }

/* (A f)(i) for the mesh point i: the stencil evaluated directly */
static double afx(int64_t i) {
  int64_t r = i / G, c = i % G;
  double s = 4.0 * fx(i);
  if (r > 0) s -= fx(i - G);
  if (r < G - 1) s -= fx(i + G);
  if (c > 0) s -= fx(i - 1);
  if (c < G - 1) s -= fx(i + 1);
  return s;
}

static int64_t inverse_mod(int64_t a, int64_t m) {
  int64_t t = 0, nt = 1, r = m, nr = a;
  while (nr) {
    int64_t q = r / nr, x = t - q * nt;
    t = nt; nt = x;
    x = r - q * nr; r = nr; nr = x;
  }
  return t < 0 ? t + m : t;
}

static int64_t gcd(int64_t a, int64_t b) { return b ? gcd(b, a % b) : a; }

/* kB from a "Key:   123 kB" line of /proc/self/status (-1: unreadable) */
static double status_mb(const char *key) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  double v = -1;
  size_t k = strlen(key);
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, key, k)) { v = strtod(line + k + 1, NULL) / 1024.0; break; }
  if (f) fclose(f);
  return v;
}

/* the peak resident set restarts from the current one (Linux clear_refs 5) */
static int reset_peak(void) {
  FILE *f = fopen("/proc/self/clear_refs", "w");
  if (!f) return 0;
  int ok = fputs("5", f) >= 0;
  return fclose(f) == 0 && ok;
}

/* a maniple vector in the shuffled numbering with v[q] = f(unshuf(q)) */
static mn_array *vec(mn_ctx *ctx, double (*f)(int64_t)) {
  mn_array *a = NULL;
  mn_local l;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &N, 0, &a));
  T_OK(mn_array_local(a, &l));
  for (int64_t k = 0; k < l.count[0]; k++) ((double *)l.data)[k * l.stride[0]] = f ? f(unshuf(l.lo[0] + k)) : 0.0;
  return a;
}

/* max over this rank's entries of |v[q] - f(unshuf(q))|, over all ranks */
static double err_max(mn_ctx *ctx, const mn_array *v, double (*f)(int64_t)) {
  mn_local l;
  double e = 0, all = 0;
  T_OK(mn_array_local(v, &l));
  for (int64_t k = 0; k < l.count[0]; k++) {
    double d = fabs(((double *)l.data)[k * l.stride[0]] - f(unshuf(l.lo[0] + k)));
    if (!(d <= e)) e = d; /* NaN wins */
  }
  MPI_Allreduce(&e, &all, 1, MPI_DOUBLE, MPI_MAX, mn_ctx_comm(ctx));
  return all;
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  /* large blocks mapped and unmapped, not kept in the heap: the resident
   * set then rises and falls with what is allocated */
  mallopt(M_MMAP_THRESHOLD, 64 << 10);
  G = argc > 1 ? atoll(argv[1]) : 256;
  N = G * G;
  A_MUL = N / 2 + 7;
  while (gcd(A_MUL, N) != 1) A_MUL++;
  A_INV = inverse_mod(A_MUL, N);
  C_ADD = N / 3;
  /* this rank's rows of the shuffled matrix */
  int64_t r0 = mn_split_start(N, P, me), nl = mn_split_size(N, P, me), k = 0;
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *col = malloc(sizeof(int64_t) * (size_t)(5 * nl + 1));
  double *val = malloc(sizeof(double) * (size_t)(5 * nl + 1));
  rp[0] = 0;
  for (int64_t q = r0; q < r0 + nl; q++) {
    int64_t i = unshuf(q), r = i / G, c = i % G;
    int64_t nb[5] = {r > 0 ? i - G : -1, c > 0 ? i - 1 : -1, i, c < G - 1 ? i + 1 : -1, r < G - 1 ? i + G : -1};
    for (int t = 0; t < 5; t++)
      if (nb[t] >= 0) { col[k] = shuf(nb[t]); val[k++] = nb[t] == i ? 4.0 : -1.0; }
    rp[q - r0 + 1] = k;
  }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_rows(ctx, N, N, MN_FLOAT64, nl, rp, MN_INT64, col, val, &A));
  free(rp); free(col); free(val);
  mn_array *x = vec(ctx, fx), *y = vec(ctx, NULL);
  T_OK(mn_csr_spmv(A, x, y));
  double e = err_max(ctx, y, afx);
  T_CHECK(e <= 1e-12, "shuffled y = A x off by %g", e);
  int64_t g0, bytes, gh_equal = 0;
  int nm;
  mn_csr_ghosts(A, &g0, &nm, &bytes);
  MPI_Allreduce(&g0, &gh_equal, 1, MPI_INT64_T, MPI_SUM, mn_ctx_comm(ctx));
  /* MPI's own per-peer buffers are set up at the first messages to each
   * peer: messages to and from every rank at once first (as mn_exchange
   * sends them), so that less of MPI's share falls in the setup */
  for (int round = 0; round < 2; round++) {
    size_t blk = 256 << 10;
    char *sb = calloc((size_t)P, blk), *rb = calloc((size_t)P, blk);
    MPI_Request *rq = malloc(sizeof(MPI_Request) * 2 * (size_t)P);
    for (int q = 0; q < P; q++) MPI_Irecv(rb + q * blk, (int)blk, MPI_BYTE, q, 7, mn_ctx_comm(ctx), rq + q);
    for (int q = 0; q < P; q++) MPI_Isend(sb + q * blk, (int)blk, MPI_BYTE, q, 7, mn_ctx_comm(ctx), rq + P + q);
    MPI_Waitall(2 * P, rq, MPI_STATUSES_IGNORE);
    free(sb); free(rb); free(rq);
  }
  static const char *name[] = {"", "METIS", "PT-Scotch"};
  int64_t ghosts[3] = {-1, -1, -1};
  for (int kind = MN_PART_METIS; kind <= MN_PART_PTSCOTCH; kind++) {
    mn_partition *p = NULL;
    mn_csr *B = NULL;
    malloc_trim(0);
    MPI_Barrier(mn_ctx_comm(ctx));
    double base = status_mb("VmRSS:"), shm0 = status_mb("RssShmem:"), file0 = status_mb("RssFile:");
    int peak_ok = reset_peak();
    int rc = mn_csr_partition(A, (mn_part_kind)kind, &p);
    if (rc == MN_ERR_NOTIMPL) continue; /* not in this build */
    T_CHECK(rc == 0, "%s: %s\n%s", name[kind], mn_err_name(rc), mn_ctx_errmsg(ctx));
    if (rc) continue;
    T_OK(mn_csr_permute(A, p, &B));
    /* MPI's shared-memory segments (RssShmem) and code paged in (RssFile)
     * only grow: their growth is taken off the peak, which leaves the heap
     * that maniple and the partitioner used (and counts MPI's apart) */
    double shm = status_mb("RssShmem:") - shm0, file = status_mb("RssFile:") - file0;
    double mem[3] = {peak_ok ? status_mb("VmHWM:") - base - shm - file : -1, 0, shm}, mx[3];
    mem[1] = -mem[0];
    MPI_Reduce(mem, mx, 3, MPI_DOUBLE, MPI_MAX, 0, mn_ctx_comm(ctx));
    mn_partition_quality q;
    T_OK(mn_partition_get_quality(p, &q));
    int64_t gh = 0;
    mn_csr_ghosts(B, &g0, &nm, &bytes);
    MPI_Allreduce(&g0, &gh, 1, MPI_INT64_T, MPI_SUM, mn_ctx_comm(ctx));
    if (me == 0)
      printf("%s, %lld rows, %d ranks: setup peak memory per rank %.1f MB on rank 0, max %.1f, min %.1f "
             "(MPI's shared memory grew up to %.1f MB more); ghosts %lld (equal split %lld), imbalance %.3f\n",
             name[kind], (long long)N, P, mem[0], mx[0], -mx[1], mx[2], (long long)gh, (long long)gh_equal,
             q.imbalance);
    ghosts[kind] = gh;
    T_CHECK(P == 1 || 5 * gh <= gh_equal, "%s: %lld ghosts, not 5x fewer than the equal split's %lld", name[kind],
            (long long)gh, (long long)gh_equal);
    /* y = A x through the renumbered copy, back in the shuffled numbering */
    mn_array *xn = vec(ctx, NULL), *yn = vec(ctx, NULL), *yo = vec(ctx, NULL);
    T_OK(mn_partition_to_new(p, x, xn));
    T_OK(mn_csr_spmv(B, xn, yn));
    T_OK(mn_partition_to_old(p, yn, yo));
    e = err_max(ctx, yo, afx);
    T_CHECK(e <= 1e-12, "%s: y = A x off by %g", name[kind], e);
    /* CG on the renumbered copy: A u = A f gives u = f */
    mn_op *op = NULL;
    mn_solver *s = NULL;
    mn_array *bn = vec(ctx, NULL), *un = vec(ctx, NULL), *uo = vec(ctx, NULL);
    T_OK(mn_partition_to_new(p, y, bn));
    T_OK(mn_op_create_csr(B, &op));
    T_OK(mn_solver_create(ctx, &s));
    T_OK(mn_solver_set_operator(s, op));
    T_OK(mn_solver_set_method(s, MN_KSP_CG));
    T_OK(mn_solver_set_pc(s, MN_PC_JACOBI));
    T_OK(mn_solver_set_tolerances(s, 1e-10, 0, 20000));
    T_OK(mn_solver_solve(s, bn, un));
    int64_t its;
    double rn;
    mn_stop_reason why;
    T_OK(mn_solver_get_result(s, &its, &rn, &why));
    T_OK(mn_partition_to_old(p, un, uo));
    e = err_max(ctx, uo, fx);
    if (me == 0) printf("%s: CG %lld iterations (%s), max error %.2e\n", name[kind], (long long)its,
                        mn_stop_reason_name(why), e);
    T_CHECK(mn_stop_reason_converged(why) && e <= 1e-6 * (double)G, "%s: CG stopped %s after %lld iterations, error %g",
            name[kind], mn_stop_reason_name(why), (long long)its, e);
    mn_solver_destroy(&s); mn_op_destroy(&op);
    mn_array_destroy(&bn); mn_array_destroy(&un); mn_array_destroy(&uo);
    mn_array_destroy(&xn); mn_array_destroy(&yn); mn_array_destroy(&yo);
    mn_csr_destroy(&B);
    mn_partition_destroy(&p);
  }
  /* the distributed partitioner's ghost volume within 20% of METIS's */
  if (ghosts[1] >= 0 && ghosts[2] >= 0)
    T_CHECK(10 * ghosts[2] <= 12 * ghosts[1], "PT-Scotch ghosts %lld, over 1.2x METIS's %lld", (long long)ghosts[2],
            (long long)ghosts[1]);
  mn_array_destroy(&x); mn_array_destroy(&y);
  mn_csr_destroy(&A);
  return mt_finish(&ctx);
}
