/* Foundation benchmark: STREAM triad (plain C, every rank at once; with
 * ordinary and with non-temporal stores, the faster is the reference)
 * measured in the same run as maniple's distributed triad a = b + s*c and
 * its fused 5-point stencil sweep written with views, plus hand-fused C
 * stencil loops (both store kinds) as the roof. Weak scaling: fixed work per rank. One JSON line per
 * configuration; GB/s use the minimal traffic (triad 24 B/element, stencil
 * 16 B/point: read old once, write new once). */
#include <maniple/maniple.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

typedef struct { double med, min, max; } stats;
static stats summarize(double *t, int n) {
  qsort(t, (size_t)n, sizeof *t, cmpd);
  stats s = {n % 2 ? t[n / 2] : 0.5 * (t[n / 2 - 1] + t[n / 2]), t[0], t[n - 1]};
  return s;
}

#define CK(x) do { int e_ = (x); if (e_) { fprintf(stderr, "%s failed: %s\n", #x, mn_ctx_errmsg(NULL)); MPI_Abort(MPI_COMM_WORLD, 1); } } while (0)

/* time of the slowest rank for one call of body */
#define TIMED(ctx, out, body) do { mn_ctx_wait(ctx); MPI_Barrier(mn_ctx_comm(ctx)); double t0_ = MPI_Wtime(); body; \
    mn_ctx_wait(ctx); double t_ = MPI_Wtime() - t0_; MPI_Allreduce(&t_, &(out), 1, MPI_DOUBLE, MPI_MAX, mn_ctx_comm(ctx)); } while (0)

static void emit(mn_ctx *ctx, const char *bench, const char *impl, int64_t work, double bytes_per, stats s,
                 double stream) {
  if (mn_ctx_rank(ctx)) return;
  double gbs = (double)work * bytes_per / s.med / 1e9;
  printf("{\"bench\": \"%s\", \"impl\": \"%s\", \"ranks\": %d, \"elements\": %lld, \"median_s\": %.6g, "
         "\"min_s\": %.6g, \"max_s\": %.6g, \"GBps\": %.4g, \"stream_triad_GBps\": %.4g, \"fraction_of_stream\": %.3f}\n",
         bench, impl, mn_ctx_size(ctx), (long long)work, s.med, s.min, s.max, gbs, stream, gbs / stream);
  fflush(stdout);
}

/* The roofs get the same AVX2 clones as maniple's fused linear combinations. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define CLONES __attribute__((target_clones("avx2", "default")))
#else
#define CLONES
#endif

CLONES static void triad_plain(int64_t n, double *a, const double *b, const double *c, double s) {
  for (int64_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}

CLONES static void stencil_plain(int64_t m, const double *x, double *y) {
  int64_t w = m + 2;
  for (int64_t i = 1; i <= m; i++)
    for (int64_t j = 1; j <= m; j++)
      y[i * w + j] = 0.2 * (x[i * w + j] + x[(i - 1) * w + j] + x[i * w + j + 1] + x[i * w + j - 1] + x[(i + 1) * w + j]);
}

/* the triad and the stencil with non-temporal stores, as tuned STREAM builds do */
static void triad_nt(int64_t n, double *a, const double *b, const double *c, double s) {
  int64_t i = 0;
#if defined(__SSE2__)
  for (; i < n && ((uintptr_t)(a + i) & 15); i++) a[i] = b[i] + s * c[i];
  for (; i + 2 <= n; i += 2) _mm_stream_pd(a + i, _mm_set_pd(b[i + 1] + s * c[i + 1], b[i] + s * c[i]));
  _mm_sfence();
#endif
  for (; i < n; i++) a[i] = b[i] + s * c[i];
}

static void stencil_nt(int64_t m, const double *x, double *y) {
  int64_t w = m + 2;
  for (int64_t i = 1; i <= m; i++) {
    const double *xc = x + i * w, *xn = xc - w, *xs = xc + w;
    double *yr = y + i * w;
    int64_t j = 1;
#if defined(__SSE2__)
    for (; j <= m && ((uintptr_t)(yr + j) & 15); j++)
      yr[j] = 0.2 * (xc[j] + xn[j] + xc[j + 1] + xc[j - 1] + xs[j]);
    for (; j + 1 <= m; j += 2)
      _mm_stream_pd(yr + j, _mm_set_pd(0.2 * (xc[j + 1] + xn[j + 1] + xc[j + 2] + xc[j] + xs[j + 1]),
                                       0.2 * (xc[j] + xn[j] + xc[j + 1] + xc[j - 1] + xs[j])));
#endif
    for (; j <= m; j++) yr[j] = 0.2 * (xc[j] + xn[j] + xc[j + 1] + xc[j - 1] + xs[j]);
  }
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  mn_ctx *ctx;
  CK(mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_DEFAULT, &ctx));
  int P = mn_ctx_size(ctx), reps = 21;
  int64_t n = argc > 1 ? atoll(argv[1]) : 20000000; /* triad elements per rank */
  int64_t m = argc > 2 ? atoll(argv[2]) : 2000;     /* stencil interior m x m per rank */
  if (argc > 3) reps = atoi(argv[3]);
  const double s = 3.0;

  /* Every repetition runs each variant once, interleaved, so that noise
   * from other work on the machine falls on all of them alike. */
  enum { V_STREAM, V_STREAM_NT, V_TRIAD, V_STENCIL, V_ROOF, V_ROOF_NT, NV };
  double *tv[NV];
  for (int v = 0; v < NV; v++) tv[v] = malloc(sizeof(double) * (size_t)reps);

  /* STREAM triad operands: every rank on its own arrays at the same time */
  double *a = malloc(sizeof(double) * (size_t)n), *b = malloc(sizeof(double) * (size_t)n),
         *c = malloc(sizeof(double) * (size_t)n);
  for (int64_t i = 0; i < n; i++) { a[i] = 0; b[i] = 1; c[i] = 2; }
  /* maniple triad operands */
  int64_t gn = n * P;
  mn_array *A, *B, *C;
  CK(mn_array_create(ctx, MN_FLOAT64, 1, &gn, 0, &A));
  CK(mn_array_create(ctx, MN_FLOAT64, 1, &gn, 0, &B));
  CK(mn_array_create(ctx, MN_FLOAT64, 1, &gn, 0, &C));
  CK(mn_array_fill(B, mn_scalar_f64(1.0)));
  CK(mn_array_fill(C, mn_scalar_f64(2.0)));
  /* stencil: rows split over ranks, m x m interior per rank */
  int64_t gs[2] = {m * P + 2, m + 2};
  mn_array *U, *V;
  CK(mn_array_create(ctx, MN_FLOAT64, 2, gs, 0, &U));
  CK(mn_array_create(ctx, MN_FLOAT64, 2, gs, 0, &V));
  CK(mn_array_random(U, MN_RANDOM_UNIFORM, 7, 0.0, 1.0));
  CK(mn_array_copy(U, V));
  mn_index ic[] = {mn_slice(1, -1, 1), mn_slice(1, -1, 1)}, in_[] = {mn_slice(0, -2, 1), mn_slice(1, -1, 1)},
           ie[] = {mn_slice(1, -1, 1), mn_slice(2, MN_NONE, 1)}, iw[] = {mn_slice(1, -1, 1), mn_slice(0, -2, 1)},
           is[] = {mn_slice(2, MN_NONE, 1), mn_slice(1, -1, 1)};
  /* roof: the same sweep as a hand-fused C loop on each rank's block */
  int64_t w = m + 2;
  double *u = malloc(sizeof(double) * (size_t)(w * w)), *v = malloc(sizeof(double) * (size_t)(w * w));
  for (int64_t i = 0; i < w * w; i++) u[i] = v[i] = (double)(i % 7);

  for (int r = 0; r < reps + 1; r++) { /* r = 0 warms up (and builds plans) */
    double dt;
    TIMED(ctx, dt, triad_plain(n, a, b, c, s));
    if (r) tv[V_STREAM][r - 1] = dt;
    TIMED(ctx, dt, triad_nt(n, a, b, c, s));
    if (r) tv[V_STREAM_NT][r - 1] = dt;
    TIMED(ctx, dt, CK(mn_array_axpby(1.0, B, s, C, A)));
    if (r) tv[V_TRIAD][r - 1] = dt;
    /* new[1:-1,1:-1] = 0.2 * (c + n + e + w + s) of old, then swap */
    mn_array *src = r % 2 ? V : U, *dst = r % 2 ? U : V;
    mn_array *vc, *vn, *ve, *vw, *vs, *out;
    CK(mn_array_index(src, 2, ic, &vc)); CK(mn_array_index(src, 2, in_, &vn));
    CK(mn_array_index(src, 2, ie, &ve)); CK(mn_array_index(src, 2, iw, &vw));
    CK(mn_array_index(src, 2, is, &vs)); CK(mn_array_index(dst, 2, ic, &out));
    mn_expr *e;
    int k[11];
    CK(mn_expr_create(ctx, &e));
    CK(mn_expr_input(e, vc, &k[0])); CK(mn_expr_input(e, vn, &k[1])); CK(mn_expr_input(e, ve, &k[2]));
    CK(mn_expr_input(e, vw, &k[3])); CK(mn_expr_input(e, vs, &k[4]));
    CK(mn_expr_binary(e, MN_OP_ADD, k[0], k[1], &k[5])); CK(mn_expr_binary(e, MN_OP_ADD, k[5], k[2], &k[6]));
    CK(mn_expr_binary(e, MN_OP_ADD, k[6], k[3], &k[7])); CK(mn_expr_binary(e, MN_OP_ADD, k[7], k[4], &k[8]));
    CK(mn_expr_scalar(e, mn_scalar_f64(0.2), &k[9])); CK(mn_expr_binary(e, MN_OP_MUL, k[9], k[8], &k[10]));
    TIMED(ctx, dt, CK(mn_expr_eval(e, k[10], out)));
    if (r) tv[V_STENCIL][r - 1] = dt;
    mn_expr_destroy(&e);
    mn_array_destroy(&vc); mn_array_destroy(&vn); mn_array_destroy(&ve);
    mn_array_destroy(&vw); mn_array_destroy(&vs); mn_array_destroy(&out);
    double *x = r % 2 ? v : u, *y = r % 2 ? u : v;
    TIMED(ctx, dt, stencil_plain(m, x, y));
    if (r) tv[V_ROOF][r - 1] = dt;
    TIMED(ctx, dt, stencil_nt(m, x, y));
    if (r) tv[V_ROOF_NT][r - 1] = dt;
  }
  mn_scalar chk;
  CK(mn_array_reduce(MN_RED_SUM, A, &chk));
  if (chk.v.f != 7.0 * (double)gn && mn_ctx_rank(ctx) == 0) fprintf(stderr, "triad check failed: %g\n", chk.v.f);
  stats st = summarize(tv[V_STREAM], reps), stn = summarize(tv[V_STREAM_NT], reps);
  double stream = (double)n * P * 24.0 / (st.med < stn.med ? st.med : stn.med) / 1e9;
  emit(ctx, "triad", "stream_c_loop", n * P, 24.0, st, stream);
  emit(ctx, "triad", "stream_c_loop_nt", n * P, 24.0, stn, stream);
  emit(ctx, "triad", "maniple", gn, 24.0, summarize(tv[V_TRIAD], reps), stream);
  emit(ctx, "stencil5", "maniple_views", m * m * P, 16.0, summarize(tv[V_STENCIL], reps), stream);
  emit(ctx, "stencil5", "fused_c_loop", m * m * P, 16.0, summarize(tv[V_ROOF], reps), stream);
  emit(ctx, "stencil5", "fused_c_loop_nt", m * m * P, 16.0, summarize(tv[V_ROOF_NT], reps), stream);
  free(a); free(b); free(c); free(u); free(v);
  for (int q = 0; q < NV; q++) free(tv[q]);
  mn_array_destroy(&A); mn_array_destroy(&B); mn_array_destroy(&C);
  mn_array_destroy(&U); mn_array_destroy(&V);
  mn_ctx_destroy(&ctx);
  MPI_Finalize();
  return 0;
}
