/* Tiny test harness: silent on success, a precise message on failure.
 * Failures are counted on every rank and agreed at the end. */
#ifndef MANIPLE_TEST_H
#define MANIPLE_TEST_H
#include <maniple/maniple.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int mt_fails = 0;
static int mt_rank = 0;

#define T_CHECK(cond, ...) T_CHECK_AT(__FILE__, __LINE__, cond, __VA_ARGS__)
/* T_CHECK naming another place (a helper's caller) */
#define T_CHECK_AT(file, line, cond, ...) do { if (!(cond)) { \
    mt_fails++; fprintf(stderr, "FAIL [rank %d] %s:%d: ", mt_rank, (file), (line)); \
    fprintf(stderr, __VA_ARGS__); fprintf(stderr, "\n"); } } while (0)
/* A maniple call that must succeed. */
#define T_OK(expr) do { int t_e_ = (expr); if (t_e_) { mt_fails++; \
    fprintf(stderr, "FAIL [rank %d] %s:%d: %s returned %s\n%s\n", mt_rank, __FILE__, __LINE__, \
            #expr, mn_err_name(t_e_), mn_ctx_errmsg(NULL)); } } while (0)
#define T_CLOSE(a, b, tol) T_CHECK(fabs((double)(a) - (double)(b)) <= (tol) * (1.0 + fabs((double)(b))), \
    "%s = %.17g, expected %.17g (tol %g)", #a, (double)(a), (double)(b), (double)(tol))

/* T_EXPECT(rc, want, what, needles...): a call that returns `want` (an
 * error code, or MN_SUCCESS) on every rank. On an error the process's last
 * message, mn_ctx_errmsg(NULL), must start with want's name, hold every
 * needle (a NULL ends them early) and have the same first line on every
 * rank. Collective over MPI_COMM_WORLD: every rank makes the same checks. */
#define T_EXPECT(rc, want, ...) mt_expect_(__FILE__, __LINE__, (rc), (want), __VA_ARGS__, (const char *)NULL)
static inline void mt_expect_(const char *file, int line, int rc, int want, const char *what, ...) {
  int lo = 0, hi = 0;
  MPI_Allreduce(&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  const char *msg = mn_ctx_errmsg(NULL), *name = mn_err_name(want);
  T_CHECK_AT(file, line, rc == want, "%s: returned %s, expected %s\n%s", what, mn_err_name(rc), name, msg);
  T_CHECK_AT(file, line, lo == hi, "%s: ranks disagree: codes %s .. %s", what, mn_err_name(lo), mn_err_name(hi));
  if (rc != want || want == MN_SUCCESS) return;
  T_CHECK_AT(file, line, !strncmp(msg, name, strlen(name)), "%s: message does not start with %s: %s", what, name, msg);
  va_list ap;
  va_start(ap, what);
  for (const char *s; (s = va_arg(ap, const char *));)
    T_CHECK_AT(file, line, strstr(msg, s), "%s: message lacks '%s':\n%s", what, s, msg);
  va_end(ap);
  char mine[512] = {0}, root[512];
  size_t n = strcspn(msg, "\n");
  memcpy(mine, msg, n < sizeof mine - 1 ? n : sizeof mine - 1);
  memcpy(root, mine, sizeof root);
  MPI_Bcast(root, (int)sizeof root, MPI_CHAR, 0, MPI_COMM_WORLD);
  T_CHECK_AT(file, line, !strcmp(mine, root), "%s: first line differs from rank 0's:\n  mine: %s\n  rank 0: %s", what,
             mine, root);
}

static inline mn_ctx *mt_init(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  mn_ctx *ctx = NULL;
  if (mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CPU, &ctx)) {
    fprintf(stderr, "cannot create context: %s\n", mn_ctx_errmsg(NULL));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  mt_rank = mn_ctx_rank(ctx);
  return ctx;
}

/* Agree on failures, tear down, and return the exit code. */
static inline int mt_finish(mn_ctx **ctx) {
  int total = 0;
  MPI_Allreduce(&mt_fails, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  mn_ctx_destroy(ctx);
  MPI_Finalize();
  return total ? 1 : 0;
}

/* main() of a CUDA test: skip together (77, ctest's skip, "SKIP: why"
 * from rank 0) unless every rank has a device; otherwise run(ctx), and the
 * failures agreed. run is MT_CUDA_FN(f): NULL in a build without CUDA,
 * where a device found is a failure. The context initialises MPI itself
 * (and finalises it at exit); 2 without one. */
#ifdef MANIPLE_HAVE_CUDA
#define MT_CUDA_FN(f) (f)
#else
#define MT_CUDA_FN(f) NULL
#endif
static inline int mt_cuda_main(void (*run)(mn_ctx *ctx)) {
  mn_ctx *ctx = NULL;
  if (mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CPU, &ctx)) {
    fprintf(stderr, "cannot create context: %s\n", mn_ctx_errmsg(NULL));
    return 2;
  }
  mt_rank = mn_ctx_rank(ctx);
  int count = 0, least = 0, total = 0;
  const char *reason = "";
  T_OK(mn_cuda_device_count(&count, &reason));
  MPI_Allreduce(&count, &least, 1, MPI_INT, MPI_MIN, mn_ctx_comm(ctx));
  if (least == 0) {
    if (mt_rank == 0) printf("SKIP: %s\n", count == 0 ? reason : "a rank other than 0 has no CUDA device");
    mn_ctx_destroy(&ctx);
    return 77;
  }
  if (run) run(ctx);
  else T_CHECK(0, "mn_cuda_device_count gave %d devices in a build without CUDA", count);
  MPI_Allreduce(&mt_fails, &total, 1, MPI_INT, MPI_SUM, mn_ctx_comm(ctx));
  mn_ctx_destroy(&ctx);
  return total ? 1 : 0;
}

/* A file name in MANIPLE_TEST_TMP (or ".") unique to this test program, its rank
 * count and stem ("t_mtx_np3_a.mtx"): ctest runs each program at several
 * rank counts at once in that one directory, so fixed names would race. */
static inline const char *mt_tmp_path(char *buf, size_t n, const char *test, const char *stem) {
  int np = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &np);
  const char *d = getenv("MANIPLE_TEST_TMP");
  snprintf(buf, n, "%s/%s_np%d_%s", d && *d ? d : ".", test, np, stem);
  return buf;
}

/* float16 bits as a double, and back for values a half holds exactly (the
 * formulas tests set): written here from the format, not from maniple's */
static inline double mt_h2d(uint16_t h) {
  int e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
  return (h & 0x8000) ? -v : v;
}
static inline uint16_t mt_d2h(double v) {
  for (uint32_t h = 0; h < 0x10000; h++)
    if (mt_h2d((uint16_t)h) == v && (v != 0 || !signbit(v) == !(h & 0x8000))) return (uint16_t)h;
  return 0x7e00; /* not a half: NaN */
}

/* Gather a whole array (as float64) on every rank. Caller frees. */
static inline double *mt_all(const mn_array *a) {
  mn_ctx *ctx = mn_array_ctx(a);
  int64_t n = mn_array_size(a);
  mn_dtype t = mn_array_dtype(a);
  size_t es = mn_dtype_size(t);
  char *raw = malloc((size_t)(n ? n : 1) * es);
  double *out = malloc(sizeof(double) * (size_t)(n ? n : 1));
  if (mn_array_gather(a, 0, raw)) { mt_fails++; fprintf(stderr, "gather failed: %s\n", mn_ctx_errmsg(NULL)); }
  MPI_Bcast(raw, (int)((size_t)n * es), MPI_BYTE, 0, mn_ctx_comm(ctx));
  for (int64_t i = 0; i < n; i++) {
    switch (t) {
    case MN_BOOL: case MN_UINT8: out[i] = ((uint8_t *)raw)[i]; break;
    case MN_INT8: out[i] = ((int8_t *)raw)[i]; break;
    case MN_INT16: out[i] = ((int16_t *)raw)[i]; break;
    case MN_UINT16: out[i] = ((uint16_t *)raw)[i]; break;
    case MN_INT32: out[i] = ((int32_t *)raw)[i]; break;
    case MN_UINT32: out[i] = ((uint32_t *)raw)[i]; break;
    case MN_INT64: out[i] = (double)((int64_t *)raw)[i]; break;
    case MN_UINT64: out[i] = (double)((uint64_t *)raw)[i]; break;
    case MN_FLOAT16: out[i] = mt_h2d(((uint16_t *)raw)[i]); break;
    case MN_FLOAT32: out[i] = ((float *)raw)[i]; break;
    /* complex: mt_set's (v, -v/2) reads back as v, anything else as NaN */
    case MN_COMPLEX64: {
      float re = ((float *)raw)[2 * i], im = ((float *)raw)[2 * i + 1];
      out[i] = im == -re / 2 ? re : NAN;
      break;
    }
    case MN_COMPLEX128: {
      double re = ((double *)raw)[2 * i], im = ((double *)raw)[2 * i + 1];
      out[i] = im == -re / 2 ? re : NAN;
      break;
    }
    default: out[i] = ((double *)raw)[i]; break;
    }
  }
  free(raw);
  return out;
}

/* Set every element from f(flat index) through a scatter from rank 0. */
static inline void mt_set(mn_array *a, double (*f)(int64_t)) {
  int64_t n = mn_array_size(a);
  mn_dtype t = mn_array_dtype(a);
  size_t es = mn_dtype_size(t);
  char *raw = malloc((size_t)(n ? n : 1) * es);
  for (int64_t i = 0; i < n; i++) {
    double v = f(i);
    switch (t) { /* v is in t's range */
    case MN_BOOL: ((uint8_t *)raw)[i] = v != 0; break;
    case MN_INT8: ((int8_t *)raw)[i] = (int8_t)v; break;
    case MN_INT16: ((int16_t *)raw)[i] = (int16_t)v; break;
    case MN_INT32: ((int32_t *)raw)[i] = (int32_t)v; break;
    case MN_INT64: ((int64_t *)raw)[i] = (int64_t)v; break;
    case MN_UINT8: ((uint8_t *)raw)[i] = (uint8_t)v; break;
    case MN_UINT16: ((uint16_t *)raw)[i] = (uint16_t)v; break;
    case MN_UINT32: ((uint32_t *)raw)[i] = (uint32_t)v; break;
    case MN_UINT64: ((uint64_t *)raw)[i] = (uint64_t)v; break;
    case MN_FLOAT16: ((uint16_t *)raw)[i] = mt_d2h(v); break;
    case MN_FLOAT32: ((float *)raw)[i] = (float)v; break;
    /* complex: v - i v/2, so both parts are checked (mt_all) */
    case MN_COMPLEX64: ((float *)raw)[2 * i] = (float)v; ((float *)raw)[2 * i + 1] = (float)(-v / 2); break;
    case MN_COMPLEX128: ((double *)raw)[2 * i] = v; ((double *)raw)[2 * i + 1] = -v / 2; break;
    default: ((double *)raw)[i] = v; break;
    }
  }
  T_OK(mn_array_scatter(a, 0, raw));
  free(raw);
}
/* A new array (halo 0), set from f(flat index) when f is given. */
static inline mn_array *mt_new(mn_ctx *ctx, mn_dtype t, int nd, const int64_t *sh, double (*f)(int64_t)) {
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, t, nd, sh, 0, &a));
  if (a && f) mt_set(a, f);
  return a;
}

/* The view a[idx] of n index entries (NULL, counted as a failure, when refused). */
static inline mn_array *mt_view(mn_array *a, int n, const mn_index *idx) {
  mn_array *v = NULL;
  T_OK(mn_array_index(a, n, idx, &v));
  return v;
}

/* Messages and bytes rank me sends in a width-w halo exchange of a 2-d
 * grid of shape n (es-byte elements) split by lay over P ranks: one message
 * for each rank and periodic image of its box, widened by w, that meets
 * mine (to itself too, across a periodic axis), of the points they share. */
static inline void mt_halo_expect(const mn_layout *lay, int me, int P, const int64_t *n, int w, const int *periodic,
                                  int es, int64_t *msgs, int64_t *bytes) {
  int64_t lo[2], hi[2];
  mn_layout_box(lay, me, lo, hi);
  *msgs = *bytes = 0;
  for (int q = 0; q < P; q++) {
    int64_t qlo[2], qhi[2];
    mn_layout_box(lay, q, qlo, qhi);
    for (int w0 = -periodic[0]; w0 <= periodic[0]; w0++)
      for (int w1 = -periodic[1]; w1 <= periodic[1]; w1++) {
        if (q == me && !w0 && !w1) continue;
        const int64_t sh[2] = {w0 * n[0], w1 * n[1]};
        int64_t cnt = 1;
        for (int d = 0; d < 2; d++) {
          int64_t a = qlo[d] - w + sh[d], b = qhi[d] + w + sh[d];
          if (!periodic[d]) { a = a < 0 ? 0 : a; b = b > n[d] ? n[d] : b; }
          a = a > lo[d] ? a : lo[d];
          b = b < hi[d] ? b : hi[d];
          cnt *= b > a ? b - a : 0;
        }
        if (cnt) { (*msgs)++; *bytes += cnt * es; }
      }
  }
}
#endif
