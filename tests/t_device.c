/* Arrays on a device backend: the emulated device always, and CUDA when
 * every rank has a GPU. Copies between host and device are made only when
 * the values are on the other side, each counted in the log ("h2d",
 * "d2h"); fills and halo exchanges run on the device and move no array;
 * results equal the serial loop's. On the emulated device, device storage
 * is a separate memory space that host code cannot read, and a host copy
 * is readable only while it holds the current values (a read that should
 * fault is probed, on CUDA not). */
#define _POSIX_C_SOURCE 200809L /* sigsetjmp, sigaction */
#include "mn_test.h"
#include "mn_impl.h" /* mn_buf: where the values are */
#include "kernels/reduce.h" /* mn_acc: what a device reduction brings back */
#include <maniple/mn_linalg.h>
#include <maniple/mn_select.h>
#include <maniple/mn_sort.h>
#include <setjmp.h>
#include <signal.h>

static int emu; /* probe faults: the emulated device */
static int mpidev; /* MANIPLE_MPI_DEVICE=1: MPI takes device buffers, so messages are not staged */
static sigjmp_buf jump;
static void on_segv(int sig) {
  (void)sig;
  siglongjmp(jump, 1);
}

/* 1 when reading *p from the host faults */
static int read_faults(const char *p) {
  if (!emu) return 1; /* (not probed) */
  struct sigaction sa, old;
  memset(&sa, 0, sizeof sa);
  sa.sa_handler = on_segv;
  sigaction(SIGSEGV, &sa, &old);
  int faulted = 1;
  if (!sigsetjmp(jump, 1)) {
    volatile char c = *(const volatile char *)p;
    (void)c;
    faulted = 0;
  }
  sigaction(SIGSEGV, &old, NULL);
  return faulted;
}

/* a 1-d base array set on the host, as the library's host code does
 * (mn_array_local would pin its values to the host) */
static void host_set(mn_array *a, double (*f)(int64_t)) {
  mn_buf *b = a->buf;
  double *h = (double *)mn_buf_host(b, 1);
  for (int64_t i = b->lo[0]; i < b->hi[0]; i++) h[i - b->alo[0]] = f(i);
}

static double fa(int64_t i) { return 0.25 * (double)i - 3.0; }
static double fb(int64_t i) { return (double)(i % 7); }

static int64_t count(mn_ctx *ctx, mn_log_event ev, int64_t *bytes) {
  mn_log_stats s;
  mn_log_get(ctx, ev, &s);
  if (bytes) *bytes = s.mem_bytes;
  return s.calls;
}


/* whole-array reductions of device values run on the device: each brings
 * back its rank's accumulator alone (one d2h of a few bytes), and equals
 * the serial loop: float sums to rounding, the rest exactly (NaN wins max,
 * ties of argmax go to the lower index, int32 sums widen to int64) */
static double val(mn_scalar r) { return mn_is_float(r.dtype) ? r.v.f : (double)r.v.i; }
static void reductions(mn_ctx *e, mn_array *a, mn_array *bb, int64_t n) {
  mn_expr *x = NULL;
  int ia, ib, s, t, v, w, q, g;
  T_OK(mn_expr_create(e, &x));
  T_OK(mn_expr_input(x, a, &ia));
  T_OK(mn_expr_input(x, bb, &ib));
  T_OK(mn_expr_scalar(x, mn_scalar_f64(2.0), &s));
  T_OK(mn_expr_binary(x, MN_OP_MUL, s, ib, &t));
  T_OK(mn_expr_binary(x, MN_OP_ADD, ia, t, &v));    /* v = a + 2b */
  T_OK(mn_expr_scalar(x, mn_scalar_f64(3.0), &s));
  T_OK(mn_expr_binary(x, MN_OP_SUB, ib, s, &t));
  T_OK(mn_expr_cast(x, t, MN_INT32, &w));            /* w = int32(b - 3), many ties */
  T_OK(mn_expr_unary(x, MN_OP_SQRT, ia, &q));         /* q = sqrt(a): NaN where a < 0 */
  T_OK(mn_expr_scalar(x, mn_scalar_f64(5.5), &s));
  T_OK(mn_expr_binary(x, MN_OP_GT, ib, s, &g));       /* g = b > 5.5 */
  struct { int node; mn_reduce_op op; } cs[] = {
      {v, MN_RED_SUM}, {v, MN_RED_SUMSQ}, {v, MN_RED_SUMABS}, {v, MN_RED_MIN}, {v, MN_RED_MAX},
      {v, MN_RED_ARGMIN}, {v, MN_RED_ARGMAX}, {v, MN_RED_MAXABS}, {w, MN_RED_SUM}, {w, MN_RED_MIN},
      {w, MN_RED_ARGMAX}, {w, MN_RED_ARGMIN}, {w, MN_RED_SUMABS}, {w, MN_RED_PROD}, {q, MN_RED_MAX},
      {q, MN_RED_ARGMAX}, {q, MN_RED_SUM}, {g, MN_RED_ANY}, {g, MN_RED_ALL}, {g, MN_RED_SUM}};
  for (size_t k = 0; k < sizeof cs / sizeof cs[0]; k++) {
    mn_reduce_op op = cs[k].op;
    double ref = op == MN_RED_PROD ? 1 : op == MN_RED_ALL ? 1 : 0, best = 0;
    int64_t bi = -1;
    for (int64_t i = 0; i < n; i++) {
      double y = cs[k].node == v ? fa(i) + 2.0 * fb(i) : cs[k].node == w ? (double)(int32_t)(fb(i) - 3.0)
                 : cs[k].node == q ? sqrt(fa(i)) : (double)(fb(i) > 5.5);
      if (op == MN_RED_SUM) ref += y;
      if (op == MN_RED_SUMSQ) ref += y * y;
      if (op == MN_RED_SUMABS) ref += fabs(y);
      if (op == MN_RED_PROD) ref *= y; /* 0 from i = 3 on */
      if (op == MN_RED_ANY) ref = ref || y != 0;
      if (op == MN_RED_ALL) ref = ref && y != 0;
      int better = bi < 0 || (isnan(y) && !isnan(best)) ||
                   (!isnan(best) && (op == MN_RED_MIN || op == MN_RED_ARGMIN ? y < best
                                     : op == MN_RED_MAXABS ? fabs(y) > best : y > best));
      if (better) { best = op == MN_RED_MAXABS ? fabs(y) : y; bi = i; }
    }
    if (op == MN_RED_MIN || op == MN_RED_MAX || op == MN_RED_MAXABS) ref = best;
    if (op == MN_RED_ARGMIN || op == MN_RED_ARGMAX) ref = (double)bi;
    mn_log_reset(e);
    mn_scalar r;
    T_OK(mn_expr_reduce(x, cs[k].node, op, &r));
    int64_t by = 0, nd2h = count(e, MN_LOG_D2H, &by), nh2d = count(e, MN_LOG_H2D, NULL);
    T_CHECK(nh2d == 0 && nd2h == 1 && by == (int64_t)sizeof(mn_acc),
            "reduction %d of node %d on device values: %lld h2d, %lld d2h of %lld bytes", (int)op, cs[k].node,
            (long long)nh2d, (long long)nd2h, (long long)by);
    double got = val(r);
    if (isnan(ref)) T_CHECK(isnan(got), "reduction %d of node %d: %g, expected NaN", (int)op, cs[k].node, got);
    else if (op == MN_RED_SUM || op == MN_RED_SUMSQ || op == MN_RED_SUMABS) T_CLOSE(got, ref, 1e-13);
    else T_CHECK(got == ref, "reduction %d of node %d: %.17g, expected %.17g", (int)op, cs[k].node, got, ref);
  }
  mn_expr_destroy(&x);
  /* a dot of shifted views: at more ranks an operand arrives through its
   * plan (one element per neighbour, staged unless MPI takes device
   * buffers), the cells' accumulators merged on the device */
  mn_index hi = mn_slice(1, MN_NONE, 1), lo = mn_slice(0, -1, 1);
  mn_array *ah = NULL, *bl = NULL;
  T_OK(mn_array_index(a, 1, &hi, &ah));
  T_OK(mn_array_index(bb, 1, &lo, &bl));
  T_OK(mn_expr_create(e, &x));
  T_OK(mn_expr_input(x, ah, &ia));
  T_OK(mn_expr_input(x, bl, &ib));
  T_OK(mn_expr_binary(x, MN_OP_MUL, ia, ib, &t));
  for (int rep = 0; rep < 2; rep++) { /* the second with the plan kept */
    mn_log_reset(e);
    mn_scalar r;
    T_OK(mn_expr_reduce(x, t, MN_RED_SUM, &r));
    double ref = 0;
    for (int64_t i = 1; i < n; i++) ref += fa(i) * fb(i - 1);
    T_CLOSE(r.v.f, ref, 1e-13);
    int64_t hb = 0, db = 0, nd2h = count(e, MN_LOG_D2H, &db);
    count(e, MN_LOG_H2D, &hb);
    int P = mn_ctx_size(e);
    int64_t msg = P > 1 && !mpidev ? 8 : 0;
    T_CHECK(hb <= msg && db <= (int64_t)sizeof(mn_acc) + msg && nd2h >= 1 && a->buf->valid & MN_VALID_DEV,
            "a dot of shifted views on the device: %lld bytes h2d, %lld d2h", (long long)hb, (long long)db);
  }
  mn_expr_destroy(&x);
  mn_array_destroy(&ah);
  mn_array_destroy(&bl);
  /* cells large enough for the CPU evaluator's threads (np 1 runs with
   * two): a launch is one kernel, so its emulation runs on one thread, with
   * the one accumulator and scratch the launch has */
  int64_t big = 150001;
  mn_array *z = NULL, *z2 = NULL;
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &big, 0, &z));
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &big, 0, &z2));
  T_OK(mn_array_arange(z, 0, 1));
  T_OK(mn_expr_create(e, &x));
  T_OK(mn_expr_input(x, z, &ia));
  T_OK(mn_expr_scalar(x, mn_scalar_f64(3.0), &s));
  T_OK(mn_expr_binary(x, MN_OP_MUL, s, ia, &t));
  T_OK(mn_expr_eval(x, t, z2)); /* z2 = 3 z */
  mn_scalar r1, r2;
  T_OK(mn_expr_reduce(x, ia, MN_RED_SUM, &r1));
  T_OK(mn_expr_reduce(x, ia, MN_RED_ARGMAX, &r2));
  mn_expr_destroy(&x);
  T_CHECK(r1.v.f == (double)big * (double)(big - 1) / 2 && r2.v.i == big - 1,
          "a large device reduction: sum %.17g (expected %.17g), argmax %lld", r1.v.f,
          (double)big * (double)(big - 1) / 2, (long long)r2.v.i);
  T_OK(mn_expr_create(e, &x));
  T_OK(mn_expr_input(x, z2, &ia));
  T_OK(mn_expr_reduce(x, ia, MN_RED_SUM, &r1));
  mn_expr_destroy(&x);
  T_CHECK(r1.v.f == 1.5 * (double)big * (double)(big - 1), "a large device evaluation: sum of 3 z = %.17g",
          r1.v.f);
  mn_array_destroy(&z);
  mn_array_destroy(&z2);
}

/* a stencil on device grids runs there: its halos packed on the device,
 * its boundary ghosts and boxes launched there; four applications copy
 * nothing at one rank and the halo rows alone at more (staged for MPI),
 * and equal the serial loop (Dirichlet, Dirichlet on the face, Neumann) */
static double g0(int64_t i, int64_t j) { return 0.01 * (double)(i * 31 + j * 7 % 13) - 1.0; }
/* variable: the centre's weight is an array made on the device, c(i, j) =
 * -4 + 0.001 (i M + j), copied into the stencil (its copy stays there) */
static void stencil_on_device(mn_ctx *e, int variable) {
  int P = mn_ctx_size(e);
  int64_t sh[2] = {12 + 3 * P, 17}, N = sh[0], M = sh[1];
  int off[10] = {0, 0, -1, 0, 1, 0, 0, -1, 0, 1};
  double w[5] = {-4, 1, 1, 1, 1};
  mn_stencil *s = NULL;
  T_OK(mn_stencil_create(e, 2, 5, off, w, &s));
  T_OK(mn_stencil_set_bc(s, 0, 0, MN_BC_DIRICHLET, 1.5));
  T_OK(mn_stencil_set_bc(s, 0, 1, MN_BC_NEUMANN, 0));
  T_OK(mn_stencil_set_bc(s, 1, 0, MN_BC_DIRICHLET_FACE, 0.5));
  T_OK(mn_stencil_set_bc(s, 1, 1, MN_BC_DIRICHLET_FACE, -0.25));
  mn_array *u = NULL, *y = NULL, *c = NULL;
  T_OK(mn_array_create(e, MN_FLOAT64, 2, sh, 1, &u));
  T_OK(mn_array_create_on(mn_array_layout(u), MN_FLOAT64, 1, &y));
  if (variable) {
    T_OK(mn_array_create(e, MN_FLOAT64, 2, sh, 0, &c));
    T_OK(mn_array_arange(c, -4, 0.001));
    T_OK(mn_stencil_set_coefficient(s, 0, c));
  }
  mn_buf *b = u->buf;
  double *h = (double *)mn_buf_host(b, 1);
  for (int64_t i = b->lo[0]; i < b->hi[0]; i++)
    for (int64_t j = b->lo[1]; j < b->hi[1]; j++) h[(i - b->alo[0]) * b->astride[0] + (j - b->alo[1])] = g0(i, j);
  mn_buf_dev(b, 1);
  /* the serial loop over a grid with one ghost layer */
  double *r = calloc((size_t)((N + 2) * (M + 2)), sizeof(double)), *t = calloc((size_t)((N + 2) * (M + 2)), sizeof(double));
#define R(a, i, j) a[((i) + 1) * (M + 2) + (j) + 1]
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) R(r, i, j) = g0(i, j);
  const int n_apply = 5; /* one to warm up (plans), then four counted */
  for (int k = 0; k < n_apply; k++) {
    for (int64_t j = 0; j < M; j++) { R(r, -1, j) = 1.5; R(r, N, j) = R(r, N - 1, j); }
    for (int64_t i = 0; i < N; i++) { R(r, i, -1) = 2 * 0.5 - R(r, i, 0); R(r, i, M) = 2 * -0.25 - R(r, i, M - 1); }
    for (int64_t i = 0; i < N; i++)
      for (int64_t j = 0; j < M; j++)
        R(t, i, j) = (variable ? -4 + 0.001 * (double)(i * M + j) : -4) * R(r, i, j) + R(r, i - 1, j) +
                     R(r, i + 1, j) + R(r, i, j - 1) + R(r, i, j + 1);
    double *q = r; r = t; t = q;
    if (k == 1) mn_log_reset(e);
    T_OK(mn_stencil_apply(s, k % 2 ? y : u, k % 2 ? u : y));
  }
  int64_t hb = 0, db = 0;
  count(e, MN_LOG_H2D, &hb);
  count(e, MN_LOG_D2H, &db);
  mn_array *res = n_apply % 2 ? y : u;
  T_CHECK(res->buf->valid == MN_VALID_DEV && u->buf->valid == MN_VALID_DEV && hb == db &&
              hb <= (P > 1 && !mpidev ? (n_apply - 1) * 2 * M * 8 : 0),
          "stencil%s on the device: %lld bytes h2d, %lld d2h (the halo rows alone), valid %d",
          variable ? " (variable centre)" : "", (long long)hb, (long long)db, res->buf->valid);
  double *got = mt_all(res);
  /* (the CPU sums the symmetric cross as w0 u0 + w1 (u_n + u_s) + ...: rounding
   * against the grid's scale, which grows like 8^k) */
  double scale = 0;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) scale = fmax(scale, fabs(R(r, i, j)));
  int64_t bad = 0;
  for (int64_t i = 0; i < N; i++)
    for (int64_t j = 0; j < M; j++) bad += fabs(got[i * M + j] - R(r, i, j)) > 1e-13 * scale;
#undef R
  T_CHECK(bad == 0, "stencil%s on the device: %lld of %lld points differ from the serial loop",
          variable ? " (variable centre)" : "", (long long)bad, (long long)(N * M));
  free(got);
  free(r);
  free(t);
  mn_array_destroy(&u);
  mn_array_destroy(&y);
  mn_array_destroy(&c);
  mn_stencil_destroy(&s);
}

/* arange, linspace and random fill device arrays on the device (no copy)
 * with the values the CPU backend makes: arange and uniform bit for bit,
 * normal to the device's log/cos (the emulated device: exactly) */
static void fills_on_device(mn_ctx *e) {
  mn_ctx *c = NULL;
  T_OK(mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CPU, &c));
  int64_t sh[2] = {9 + mn_ctx_size(e), 13};
  for (int k = 0; k < 4; k++) {
    mn_array *d = NULL, *h = NULL;
    mn_dtype t = k == 1 ? MN_INT32 : k == 3 ? MN_FLOAT32 : MN_FLOAT64;
    T_OK(mn_array_create(e, t, 2, sh, 0, &d));
    T_OK(mn_array_create(c, t, 2, sh, 0, &h));
    mn_log_reset(e);
    for (int q = 0; q < 2; q++) {
      mn_array *a = q ? h : d;
      if (k == 0) T_OK(mn_array_arange(a, -2.5, 0.25));
      if (k == 1) T_OK(mn_array_linspace(a, -7, 40, 1));
      if (k == 2) T_OK(mn_array_random(a, MN_RANDOM_UNIFORM, 1234, -1, 3));
      if (k == 3) T_OK(mn_array_random(a, MN_RANDOM_NORMAL, 99, 0.5, 2));
    }
    T_CHECK(count(e, MN_LOG_H2D, NULL) + count(e, MN_LOG_D2H, NULL) == 0 && d->buf->valid == MN_VALID_DEV,
            "fill %d on the device: %lld copies, valid %d", k,
            (long long)(count(e, MN_LOG_H2D, NULL) + count(e, MN_LOG_D2H, NULL)), d->buf->valid);
    double *gd = mt_all(d), *gh = mt_all(h);
    int64_t bad = 0, n = sh[0] * sh[1];
    for (int64_t i = 0; i < n; i++) bad += emu || k < 3 ? gd[i] != gh[i] : fabs(gd[i] - gh[i]) > 1e-6 * (1 + fabs(gh[i]));
    T_CHECK(bad == 0, "fill %d: %lld of %lld device values differ from the CPU backend's", k, (long long)bad,
            (long long)n);
    free(gd);
    free(gh);
    mn_array_destroy(&d);
    mn_array_destroy(&h);
  }
  mn_ctx_destroy(&c);
}

/* Operations that read their operands on the host (a sort, a scan, a
 * selection) copy what they read and leave the operands where they were:
 * no host pointer handed out, so not pinned to the host, and the device
 * path takes them afterwards. A product multiplies on the device. The
 * results against serial loops. */
static void host_ops_leave_operands(mn_ctx *e) {
  int64_t n = 40 + mn_ctx_size(e), sh[2] = {n, n};
  mn_array *A = NULL, *v = NULL, *d = NULL, *w = NULL, *c = NULL, *m = NULL, *srt = NULL, *sel = NULL;
  T_OK(mn_array_create(e, MN_FLOAT64, 2, sh, 0, &A));
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &v));
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &d));
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &w));
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &c));
  T_OK(mn_array_create(e, MN_BOOL, 1, &n, 0, &m));
  if (!A || !v || !d || !w || !c || !m) goto done;
  T_OK(mn_array_arange(A, 0, 1));  /* A[i][j] = i n + j */
  T_OK(mn_array_arange(v, 0, 1));  /* v[j] = j */
  T_OK(mn_array_arange(d, (double)n, -1)); /* n .. 1 */
  T_OK(mn_array_arange(m, 0, 1));  /* false, then true */
  mn_log_reset(e);
  T_OK(mn_array_matmul(A, v, w));
  /* A's block stays where it is: v and the vectors' blocks move (staged
   * messages at more ranks), never A's n / P >= 11 rows */
  int64_t hb = 0, db = 0;
  count(e, MN_LOG_H2D, &hb);
  count(e, MN_LOG_D2H, &db);
  T_CHECK(hb + db <= 6 * n * 8, "A @ v on the device: %lld bytes h2d, %lld d2h (n = %lld)", (long long)hb,
          (long long)db, (long long)n);
  T_OK(mn_array_scan(MN_RED_SUM, v, 0, c));
  T_OK(mn_array_sort(d, 0, &srt, NULL));
  T_OK(mn_array_compress(v, m, &sel));
  const mn_array *ops[] = {A, v, d, m};
  for (int k = 0; k < 4; k++)
    T_CHECK(!ops[k]->buf->pinned && (ops[k]->buf->valid & MN_VALID_DEV), "operand %d after the host operations: "
            "pinned %d, valid %d", k, ops[k]->buf->pinned, ops[k]->buf->valid);
  double *gw = mt_all(w), *gc = mt_all(c), *gs = srt ? mt_all(srt) : NULL, *gl = sel ? mt_all(sel) : NULL;
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) {
    double dot = 0;
    for (int64_t j = 0; j < n; j++) dot += (double)(i * n + j) * (double)j;
    bad += gw[i] != dot || gc[i] != (double)(i * (i + 1) / 2) || !gs || gs[i] != (double)(i + 1);
    bad += i > 0 && (!gl || gl[i - 1] != (double)i);
  }
  T_CHECK(bad == 0 && sel && mn_array_size(sel) == n - 1, "matmul, cumsum, sort and compress: %lld values wrong",
          (long long)bad);
  free(gw); free(gc); free(gs); free(gl);
done:
  mn_array_destroy(&A); mn_array_destroy(&v); mn_array_destroy(&d); mn_array_destroy(&w);
  mn_array_destroy(&c); mn_array_destroy(&m); mn_array_destroy(&srt); mn_array_destroy(&sel);
}

/* mn_array_create_from_device: every rank holds the whole 2-d array in
 * device memory (here: an array of a one-rank context); each copies its
 * block, C order and strided (every other column), with no copy through
 * the host; a non-device backend refuses */
static double f2(int64_t i) { return (double)(i * 3 % 11) - 0.5 * (double)i; }
static void from_device_copies_blocks(mn_ctx *e) {
  mn_ctx *self = NULL;
  T_OK(mn_ctx_create(MPI_COMM_SELF, mn_ctx_backend(e), &self));
  int64_t sh[2] = {13, 10}, half[2] = {13, 5}, whole = sh[0] * sh[1];
  mn_array *src = NULL, *out = NULL;
  T_OK(mn_array_create(self, MN_FLOAT64, 1, &whole, 0, &src));
  host_set(src, f2);
  mn_local l;
  T_OK(mn_array_local_device(src, &l));
  int64_t st[2] = {10, 2};
  for (int strided = 0; strided < 2; strided++) {
    mn_log_reset(e);
    T_OK(mn_array_create_from_device(e, MN_FLOAT64, 2, strided ? half : sh, l.data, strided ? st : NULL, &out));
    T_CHECK(count(e, MN_LOG_H2D, NULL) == 0 && count(e, MN_LOG_D2H, NULL) == 0, "from_device copied through the "
            "host: %lld h2d, %lld d2h", (long long)count(e, MN_LOG_H2D, NULL), (long long)count(e, MN_LOG_D2H, NULL));
    double *got = mt_all(out);
    int64_t bad = 0, nc = strided ? 5 : 10;
    for (int64_t i = 0; i < 13; i++)
      for (int64_t j = 0; j < nc; j++) bad += got[i * nc + j] != f2(i * 10 + (strided ? 2 * j : j));
    T_CHECK(bad == 0, "from_device (strided %d): %lld of %lld elements wrong", strided, (long long)bad,
            (long long)(13 * nc));
    free(got);
    mn_array_destroy(&out);
  }
  T_EXPECT(mn_array_create_from_device(e, MN_FLOAT64, 2, sh, NULL, NULL, &out), MN_ERR_ARG, "NULL device memory",
           "NULL device memory");
  T_CHECK(!out, "a refused array is NULL");
  mn_array_destroy(&src);
  mn_ctx_destroy(&self);
}

/* Sorts of device values run on the device: a 1-d array on one rank and
 * the lines of a 2-d one along either axis, values and positions equal to
 * a serial stable sort (NaN last, -0.0 tied with 0.0, ties in index
 * order); at one rank nothing crosses between host and device */
static double fs(int64_t i) {
  int64_t h = (i * 7919) % 31;
  return h == 5 ? NAN : h == 9 ? -0.0 : h == 10 ? 0.0 : (double)(h % 13) - 4.5;
}
static int before(double a, double b) { return (!isnan(a) && isnan(b)) || a < b; }
static void sort_on_device(mn_ctx *e) {
  int P = mn_ctx_size(e);
  int64_t sh[2] = {37, 29}, n = sh[0] * sh[1];
  mn_array *x = NULL;
  T_OK(mn_array_create(e, MN_FLOAT64, 2, sh, 0, &x));
  mt_set(x, fs);
  mn_array *x1 = NULL;
  T_OK(mn_array_reshape(x, 1, &n, &x1));
  double *xs = mt_all(x);
  for (int c = 0; c < 3; c++) { /* 1-d; 2-d along axis 0; along axis 1 */
    mn_array *src = c ? x : x1, *s = NULL, *p = NULL;
    int axis = c == 2 ? 1 : 0;
    int64_t len = c == 0 ? n : sh[axis], lines = n / len, step = c == 1 ? sh[1] : 1;
    mt_set(src, fs);
    mn_buf_dev(src->buf, 0); /* the values on the device too */
    mn_log_reset(e);
    T_OK(mn_array_sort(src, axis, &s, &p));
    int64_t h2d = count(e, MN_LOG_H2D, NULL), d2h = count(e, MN_LOG_D2H, NULL);
    T_CHECK(P > 1 || (h2d == 0 && d2h == 0), "a sort on one rank's device copied: %lld h2d, %lld d2h",
            (long long)h2d, (long long)d2h);
    double *sv = mt_all(s), *pv = mt_all(p);
    int64_t bad = 0, *ord = malloc(sizeof(int64_t) * (size_t)len);
    for (int64_t l = 0; l < lines; l++) {
      int64_t base = c == 0 ? 0 : c == 1 ? l : l * sh[1], st = c == 0 ? 1 : c == 1 ? step : 1;
      for (int64_t k = 0; k < len; k++) { /* stable insertion sort of positions */
        int64_t m = k;
        for (; m > 0 && before(xs[base + k * st], xs[base + ord[m - 1] * st]); m--) ord[m] = ord[m - 1];
        ord[m] = k;
      }
      for (int64_t k = 0; k < len; k++) {
        double want = xs[base + ord[k] * st], got = sv[base + k * st];
        bad += pv[base + k * st] != (double)ord[k] || !(got == want || (isnan(got) && isnan(want))) ||
               signbit(got) != signbit(want);
      }
    }
    T_CHECK(bad == 0, "device sort %d: %lld of %lld values or positions differ from the serial sort", c,
            (long long)bad, (long long)n);
    free(ord); free(sv); free(pv);
    mn_array_destroy(&s);
    mn_array_destroy(&p);
  }
  free(xs);
  mn_array_destroy(&x1);
  mn_array_destroy(&x);
}

static void run(mn_backend be) {
  mn_ctx *e = NULL;
  T_OK(mn_ctx_create(MPI_COMM_WORLD, be, &e));
  T_CHECK(mn_ctx_backend(e) == be, "backend %d", (int)mn_ctx_backend(e));
  emu = be == MN_BACKEND_EMULATED;
  const char *md = getenv("MANIPLE_MPI_DEVICE");
  mpidev = md && !strcmp(md, "1");
  int P = mn_ctx_size(e);
  int64_t n = 1000 + P; /* every rank owns some */
  T_OK(mn_log_enable(e));

  /* a new array lives on the device only, unreadable from the host */
  mn_array *a = NULL;
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &a));
  mn_buf *b = a->buf;
  T_CHECK(b->dev && !b->host && b->valid == MN_VALID_DEV, "new array: dev %p host %p valid %d", (void *)b->dev,
          (void *)b->host, b->valid);
  T_CHECK(read_faults(b->dev), "a host read of device storage did not fault");

  /* host writes through mn_array_local: the host copy holds the values */
  host_set(a, fa);
  T_CHECK(b->valid == MN_VALID_HOST && b->host, "after a host write: valid %d", b->valid);
  T_CHECK(!emu || !read_faults(b->host), "the current host copy is not readable");
  T_CHECK(read_faults(b->dev), "device storage became readable from the host");

  /* to the device and written there: one h2d, and the host copy is stale */
  mn_log_reset(e);
  char *d = mn_buf_dev(b, 1);
  T_CHECK(d == b->dev && b->valid == MN_VALID_DEV, "device write: valid %d", b->valid);
  T_CHECK(read_faults(b->host), "a stale host copy is readable");
  int64_t by = 0;
  T_CHECK(count(e, MN_LOG_H2D, &by) == 1 && by == (int64_t)b->nbytes, "h2d: %lld calls, %lld bytes",
          (long long)count(e, MN_LOG_H2D, NULL), (long long)by);
  mn_buf_dev(b, 0); /* already there: no copy */
  T_CHECK(count(e, MN_LOG_H2D, NULL) == 1, "a second h2d of current device values");

  /* back to the host for reading: one d2h, both copies current */
  mn_log_reset(e);
  mn_buf_host(b, 0);
  T_CHECK(count(e, MN_LOG_D2H, &by) == 1 && by == (int64_t)b->nbytes, "d2h: %lld calls, %lld bytes",
          (long long)count(e, MN_LOG_D2H, NULL), (long long)by);
  T_CHECK(b->valid == (MN_VALID_HOST | MN_VALID_DEV), "after a host read: valid %d", b->valid);
  double *got = mt_all(a);
  int64_t bad = 0;
  for (int64_t i = 0; i < n; i++) bad += got[i] != fa(i);
  T_CHECK(bad == 0, "%lld of %lld elements changed on the round trip", (long long)bad, (long long)n);
  free(got);

  /* a fill runs on the device: no copy either way, the host copy stale */
  mn_log_reset(e);
  T_OK(mn_array_fill(a, mn_scalar_f64(7.5)));
  T_CHECK(count(e, MN_LOG_H2D, NULL) == 0 && count(e, MN_LOG_D2H, NULL) == 0, "a fill copied: %lld h2d, %lld d2h",
          (long long)count(e, MN_LOG_H2D, NULL), (long long)count(e, MN_LOG_D2H, NULL));
  T_CHECK(b->valid == MN_VALID_DEV && read_faults(b->host), "after a device fill: valid %d", b->valid);
  mn_local l;
  T_OK(mn_array_local_memtype(a, &l));
  T_CHECK(l.mem == MN_MEM_DEVICE && l.data == b->dev + (l.lo[0] - b->alo[0]) * 8 && read_faults(l.data),
          "local memtype of device values: mem %d", (int)l.mem);
  mn_array *k = NULL;
  T_OK(mn_array_create(e, MN_INT32, 1, &n, 0, &k));
  T_OK(mn_array_fill(k, mn_scalar_f64(-3.75))); /* stored as NumPy casts it: -3 */
  double *gk = mt_all(k);
  got = mt_all(a);
  bad = 0;
  for (int64_t i = 0; i < n; i++) bad += got[i] != 7.5 || gk[i] != -3.0;
  T_CHECK(bad == 0, "device fills: %lld of %lld elements wrong", (long long)bad, (long long)n);
  free(got);
  free(gk);
  mn_array_destroy(&k);
  host_set(a, fa);
  mn_array *m = NULL; /* (another array: mn_array_local pins its values to the host) */
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &m));
  host_set(m, fa);
  T_OK(mn_array_local_memtype(m, &l));
  T_CHECK(l.mem == MN_MEM_HOST && ((double *)l.data)[0] == fa(l.lo[0]), "local memtype of host values: mem %d",
          (int)l.mem);
  T_OK(mn_array_local(m, &l)); /* a host pointer kept: m's values stay on the host */
  T_OK(mn_array_fill(m, mn_scalar_f64(1.0)));
  T_CHECK(m->buf->valid == MN_VALID_HOST && ((double *)l.data)[0] == 1.0, "a pinned array filled: valid %d",
          m->buf->valid);
  mn_array_destroy(&m);
  /* mn_array_local_host: the device's values copied back once, written on the
   * host, and taken to the device again by the next kernel (nothing pinned) */
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &m));
  T_OK(mn_array_fill(m, mn_scalar_f64(2.0)));
  mn_log_reset(e);
  T_OK(mn_array_local_host(m, &l));
  T_CHECK(l.mem == MN_MEM_HOST && count(e, MN_LOG_D2H, NULL) == 1 && m->buf->valid == MN_VALID_HOST &&
              !m->buf->pinned,
          "local host: mem %d, %lld d2h, valid %d, pinned %d", (int)l.mem, (long long)count(e, MN_LOG_D2H, NULL),
          m->buf->valid, m->buf->pinned);
  for (int64_t i = 0; i < l.count[0]; i++) ((double *)l.data)[i * l.stride[0]] += (double)(l.lo[0] + i);
  T_OK(mn_array_local_device(m, &l)); /* refused had the host pointer pinned m */
  T_CHECK(l.mem == MN_MEM_DEVICE && count(e, MN_LOG_H2D, NULL) == 1 && m->buf->valid == MN_VALID_DEV,
          "after local host: %lld h2d, valid %d", (long long)count(e, MN_LOG_H2D, NULL), m->buf->valid);
  got = mt_all(m);
  bad = 0;
  for (int64_t i = 0; i < n; i++) bad += got[i] != 2.0 + (double)i;
  T_CHECK(bad == 0, "written through mn_array_local_host: %lld of %lld elements wrong", (long long)bad, (long long)n);
  free(got);
  mn_array_destroy(&m);

  /* a fused evaluation and a reduction against the serial loop */
  mn_array *c = NULL, *bb = mt_new(e, MN_FLOAT64, 1, &n, fb);
  T_OK(mn_array_create(e, MN_FLOAT64, 1, &n, 0, &c));
  mn_expr *x = NULL;
  int ia, ib, s, t, r;
  T_OK(mn_expr_create(e, &x));
  T_OK(mn_expr_input(x, a, &ia));
  T_OK(mn_expr_input(x, bb, &ib));
  T_OK(mn_expr_scalar(x, mn_scalar_f64(2.0), &s));
  T_OK(mn_expr_binary(x, MN_OP_MUL, s, ib, &t));
  T_OK(mn_expr_binary(x, MN_OP_ADD, ia, t, &r));
  mn_buf_dev(a->buf, 0);
  mn_buf_dev(bb->buf, 0);
  mn_log_reset(e);
  T_OK(mn_expr_eval(x, r, c));
  T_CHECK(count(e, MN_LOG_H2D, NULL) == 0 && count(e, MN_LOG_D2H, NULL) == 0 && c->buf->valid == MN_VALID_DEV,
          "a + 2*b on device values: %lld h2d, %lld d2h, valid %d", (long long)count(e, MN_LOG_H2D, NULL),
          (long long)count(e, MN_LOG_D2H, NULL), c->buf->valid);
  got = mt_all(c);
  bad = 0;
  double want = 0;
  for (int64_t i = 0; i < n; i++) {
    bad += got[i] != fa(i) + 2.0 * fb(i);
    want += fa(i) + 2.0 * fb(i);
  }
  T_CHECK(bad == 0, "a + 2*b: %lld of %lld elements differ from the serial loop", (long long)bad, (long long)n);
  free(got);
  mn_scalar sum;
  T_OK(mn_expr_reduce(x, r, MN_RED_SUM, &sum));
  T_CLOSE(sum.v.f, want, 1e-12);
  mn_expr_destroy(&x);
  reductions(e, a, bb, n);

  /* a[1:] = 2*a[:-1] + 1 reads what it writes, shifted: NumPy's answer
   * (the right side first), on the device through a temporary */
  host_set(a, fa);
  mn_buf_dev(a->buf, 1);
  mn_index hi = mn_slice(1, MN_NONE, 1), lo = mn_slice(0, -1, 1);
  mn_array *ah = NULL, *al = NULL;
  T_OK(mn_array_index(a, 1, &hi, &ah));
  T_OK(mn_array_index(a, 1, &lo, &al));
  T_OK(mn_expr_create(e, &x));
  T_OK(mn_expr_input(x, al, &ia));
  T_OK(mn_expr_scalar(x, mn_scalar_f64(2.0), &s));
  T_OK(mn_expr_binary(x, MN_OP_MUL, s, ia, &t));
  T_OK(mn_expr_scalar(x, mn_scalar_f64(1.0), &s));
  T_OK(mn_expr_binary(x, MN_OP_ADD, t, s, &r));
  mn_log_reset(e);
  T_OK(mn_expr_eval(x, r, ah));
  {
    /* on the device at any rank count: more ranks move one element each
     * way between neighbours, packed on the device and staged for MPI */
    int64_t hb = 0, db = 0;
    count(e, MN_LOG_H2D, &hb);
    count(e, MN_LOG_D2H, &db);
    int64_t msg = P > 1 && !mpidev ? 8 : 0;
    T_CHECK(a->buf->valid == MN_VALID_DEV && hb <= msg && db <= msg,
            "a shifted write on the device: %lld bytes h2d, %lld d2h, valid %d", (long long)hb, (long long)db,
            a->buf->valid);
  }
  got = mt_all(a);
  bad = got[0] != fa(0);
  for (int64_t i = 1; i < n; i++) bad += got[i] != 2.0 * fa(i - 1) + 1.0;
  T_CHECK(bad == 0, "a[1:] = 2*a[:-1] + 1: %lld of %lld elements differ from the serial loop", (long long)bad,
          (long long)n);
  free(got);
  mn_expr_destroy(&x);
  mn_array_destroy(&ah);
  mn_array_destroy(&al);

  /* a halo exchange of device values packs and unpacks on the device: the
   * array never comes to the host, only the packed messages (staged for
   * MPI); the ghosts equal their owners' values */
  int64_t sh[2] = {13 + P, 11};
  mn_array *g = NULL;
  T_OK(mn_array_create(e, MN_FLOAT64, 2, sh, 1, &g));
  mn_buf *gb = g->buf;
  double *h = (double *)mn_buf_host(gb, MN_WRITE_ALL);
  for (int64_t i = 0; i < gb->alen[0]; i++)
    for (int64_t j = 0; j < gb->alen[1]; j++) h[i * gb->astride[0] + j] = -1.0; /* ghosts: not yet received */
  for (int64_t i = gb->lo[0]; i < gb->hi[0]; i++)
    for (int64_t j = gb->lo[1]; j < gb->hi[1]; j++)
      h[(i - gb->alo[0]) * gb->astride[0] + (j - gb->alo[1])] = (double)(i * 100 + j);
  mn_buf_dev(gb, 1);
  mn_log_reset(e);
  T_OK(mn_array_halo_exchange(g));
  int64_t sb = 0, rb = 0;
  count(e, MN_LOG_D2H, &sb);
  count(e, MN_LOG_H2D, &rb);
  T_CHECK(gb->valid == MN_VALID_DEV && sb < (int64_t)gb->nbytes / 2 && rb < (int64_t)gb->nbytes / 2 &&
              (!mpidev || sb + rb == 0),
          "device halo exchange: valid %d, %lld bytes staged out and %lld in of a %zu-byte array", gb->valid,
          (long long)sb, (long long)rb, gb->nbytes);
  h = (double *)mn_buf_host(gb, 0);
  bad = 0;
  for (int64_t i = gb->alo[0]; i < gb->alo[0] + gb->alen[0]; i++)
    for (int64_t j = gb->alo[1]; j < gb->alo[1] + gb->alen[1]; j++) {
      int inside = i >= 0 && i < sh[0] && j >= 0 && j < sh[1];
      int corner = (i < gb->lo[0] || i >= gb->hi[0]) && (j < gb->lo[1] || j >= gb->hi[1]);
      double v = h[(i - gb->alo[0]) * gb->astride[0] + (j - gb->alo[1])];
      if (inside && !corner) bad += v != (double)(i * 100 + j);
      if (!inside) bad += v != -1.0;
    }
  T_CHECK(bad == 0, "device halo exchange: %lld allocated elements wrong", (long long)bad);
  /* periodic, through a plan bound to g: every ghost is some rank's value,
   * one rank's included (it sends to itself) */
  mn_buf_dev(gb, 1);
  mn_plan *pl = NULL;
  int per[2] = {1, 1};
  T_OK(mn_plan_create_halo(g, per, &pl));
  T_OK(mn_plan_begin(pl));
  T_OK(mn_plan_end(pl));
  T_CHECK(gb->valid == MN_VALID_DEV, "periodic device exchange: valid %d", gb->valid);
  mn_plan_destroy(&pl);
  h = (double *)mn_buf_host(gb, 0);
  bad = 0;
  for (int64_t i = gb->alo[0]; i < gb->alo[0] + gb->alen[0]; i++)
    for (int64_t j = gb->alo[1]; j < gb->alo[1] + gb->alen[1]; j++) {
      int corner = (i < gb->lo[0] || i >= gb->hi[0]) && (j < gb->lo[1] || j >= gb->hi[1]);
      int64_t wi = (i + sh[0]) % sh[0], wj = (j + sh[1]) % sh[1];
      bad += !corner && h[(i - gb->alo[0]) * gb->astride[0] + (j - gb->alo[1])] != (double)(wi * 100 + wj);
    }
  T_CHECK(bad == 0, "periodic device halo exchange: %lld allocated elements wrong", (long long)bad);
  mn_array_destroy(&g);
  stencil_on_device(e, 0);
  stencil_on_device(e, 1);
  fills_on_device(e);
  sort_on_device(e);
  host_ops_leave_operands(e);
  from_device_copies_blocks(e);
  mn_array_destroy(&c);
  mn_array_destroy(&bb);
  mn_array_destroy(&a);
  if (mn_ctx_rank(e) == 0) printf("t_device: %s device checked\n", emu ? "emulated" : "CUDA");
  mn_ctx_destroy(&e);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  run(MN_BACKEND_EMULATED);
  if (mn_ctx_backend(ctx) == MN_BACKEND_CPU) { /* host memory only: nothing to copy from */
    int64_t four = 4;
    double h[4] = {0};
    mn_array *x = NULL;
    T_EXPECT(mn_array_create_from_device(ctx, MN_FLOAT64, 1, &four, h, NULL, &x), MN_ERR_BACKEND,
             "from_device on the cpu backend", "cpu backend");
  }
  int n = 0, least = 0;
  mn_cuda_device_count(&n, NULL);
  MPI_Allreduce(&n, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  const char *md = getenv("MANIPLE_MPI_DEVICE");
  if (least > 0 && md && !strcmp(md, "1") && mni_mpi_cuda_aware() == 0) {
    /* device pointers for an MPI that reads them as host memory: refused
     * at creation, where MPI would segfault */
    mn_ctx *e = NULL;
    T_EXPECT(mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CUDA, &e), MN_ERR_ARG, "MANIPLE_MPI_DEVICE=1 on a plain MPI",
             "MANIPLE_MPI_DEVICE=1", "not CUDA-aware");
    T_CHECK(!e, "a refused context is NULL");
  } else if (least > 0) {
    run(MN_BACKEND_CUDA);
  } else if (mn_ctx_rank(ctx) == 0) {
    printf("t_device: no CUDA device; the emulated device only\n");
  }
  return mt_finish(&ctx);
}
