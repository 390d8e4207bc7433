/* Bad input gives the same clear error on every rank and never a hang:
 * after each failing call every rank holds the same error code (MIN and MAX
 * over the ranks agree), the message starts with the code's name, names the
 * offending values, has the same first line on every rank, the inputs are
 * unchanged and output handles are left NULL. Covers element-wise shape and
 * dtype errors, bad slices and indices (also given on one rank only), axis
 * errors, halo exchange without a halo, and bad .npy files (missing, bad
 * magic, truncated, unsupported dtypes, a non-bool fortran_order, big-endian, bad bool
 * bytes, unwritable path), and a CUDA context where none can run. The
 * library still works afterwards. */
#define _POSIX_C_SOURCE 200809L /* setenv, strdup */
#include "mn_test.h"
#include <unistd.h>

static int nranks;

/* Snapshot of an array's values, to show a failed call left it unchanged. */
typedef struct {
  const mn_array *a;
  double *v;
  int64_t n;
} snap;
static snap take(const mn_array *a) {
  snap s = {a, mt_all(a), mn_array_size(a)};
  return s;
}
static void same_(snap *s, const char *what, int line) {
  double *now = mt_all(s->a);
  int bad = 0;
  for (int64_t k = 0; k < s->n; k++)
    if (memcmp(&now[k], &s->v[k], sizeof(double)) && bad++ < 3)
      T_CHECK(0, "line %d, %s: element %lld changed from %g to %g", line, what, (long long)k, s->v[k], now[k]);
  free(now);
  free(s->v);
  s->v = NULL;
}
#define SAME(s, what) same_(&(s), (what), __LINE__)

static double f_a(int64_t k) { return (double)k * 1.5 - 4.0; }
static double f_b(int64_t k) { return 100.0 - (double)k; }
static double f_out(int64_t k) { return -7.0 - (double)k; }
static double f_int(int64_t k) { return (double)(k * 7 % 13); }

static void tmp_path(char *buf, size_t n, const char *stem) {
  char name[256];
  snprintf(name, sizeof name, "%s.npy", stem);
  mt_tmp_path(buf, n, "t_errors", name);
}

/* Rank 0 writes raw bytes to path; everyone waits for it. */
static void write_raw(mn_ctx *ctx, const char *path, const void *data, size_t n) {
  if (mn_ctx_rank(ctx) == 0) {
    FILE *fp = fopen(path, "wb");
    T_CHECK(fp, "cannot create %s", path);
    if (fp) {
      T_CHECK(fwrite(data, 1, n, fp) == n, "short write to %s", path);
      fclose(fp);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

/* A version 1.0 .npy file: header dict padded to 64 bytes, then nbytes of
 * data (byte k = fill(k)), written by rank 0. */
static void write_npy(mn_ctx *ctx, const char *path, const char *dict, size_t nbytes, unsigned char (*fill)(size_t)) {
  size_t dl = strlen(dict), total = 10 + dl + 1;
  total += (64 - total % 64) % 64;
  unsigned char *buf = calloc(1, total + nbytes + 1);
  memcpy(buf, "\x93NUMPY\x01\x00", 8);
  buf[8] = (unsigned char)((total - 10) & 0xff);
  buf[9] = (unsigned char)((total - 10) >> 8);
  memcpy(buf + 10, dict, dl);
  memset(buf + 10 + dl, ' ', total - 10 - dl);
  buf[total - 1] = '\n';
  for (size_t k = 0; k < nbytes; k++) buf[total + k] = fill ? fill(k) : (unsigned char)k;
  write_raw(ctx, path, buf, total + nbytes);
  free(buf);
}

static unsigned char b_alt(size_t k) { return (unsigned char)(k % 2); }
static unsigned char b_two_at_end(size_t k) { return k == 12 ? 2 : (unsigned char)(k % 2); }
static unsigned char b_ff_at_end(size_t k) { return k == 12 ? 0xff : (unsigned char)(k % 2); }

/* A load that must fail with want, naming the path and the needles. */
#define EXPECT_LOAD_FAIL(ctx, path, want, what, ...) do { \
    mn_array *l_ = (mn_array *)&l_; /* not NULL: the call must reset it */ \
    int rc_ = mn_array_load_npy((ctx), (path), &l_); \
    T_EXPECT(rc_, (want), (what), (path), __VA_ARGS__); \
    T_CHECK(l_ == NULL, "%s: output not NULL after a failed load", (what)); \
    if (l_ && l_ != (mn_array *)&l_) mn_array_destroy(&l_); \
  } while (0)

static void test_elementwise(mn_ctx *ctx) {
  int64_t s5[] = {5}, s6[] = {6}, s43[] = {4, 3}, s4[] = {4};
  mn_array *x = NULL, *y = NULL, *y6 = NULL, *o5 = NULL, *o6 = NULL, *m = NULL, *r4 = NULL, *o43 = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s5, 0, &x));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s5, 0, &y));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s6, 0, &y6));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s5, 0, &o5));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s6, 0, &o6));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s43, 0, &m));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s4, 0, &r4));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s43, 0, &o43));
  if (!x || !y || !y6 || !o5 || !o6 || !m || !r4 || !o43) return;
  mt_set(x, f_a);
  mt_set(y, f_b);
  mt_set(y6, f_b);
  mt_set(o5, f_out);
  mt_set(o6, f_out);
  mt_set(m, f_a);
  mt_set(r4, f_b);
  mt_set(o43, f_out);

  /* out of the wrong shape */
  snap sx = take(x), sy = take(y), so = take(o6);
  T_EXPECT(mn_array_binary(MN_OP_ADD, x, y, o6), MN_ERR_SHAPE, "add into a wrong-shape out", "(5,)", "(6,)");
  SAME(sx, "x after add into wrong out");
  SAME(sy, "y after add into wrong out");
  SAME(so, "out after add into wrong out");
  sx = take(x);
  so = take(o6);
  T_EXPECT(mn_array_unary(MN_OP_SQRT, x, o6), MN_ERR_SHAPE, "sqrt into a wrong-shape out", "(5,)", "(6,)");
  SAME(sx, "x after sqrt into wrong out");
  SAME(so, "out after sqrt into wrong out");

  /* operands that do not broadcast */
  sx = take(x);
  sy = take(y6);
  so = take(o5);
  T_EXPECT(mn_array_binary(MN_OP_MUL, x, y6, o5), MN_ERR_SHAPE, "(5,) * (6,)", "(5,)", "(6,)", "broadcast");
  SAME(sx, "x after (5,) * (6,)");
  SAME(sy, "y after (5,) * (6,)");
  SAME(so, "out after (5,) * (6,)");
  snap sm = take(m), sr = take(r4), s43o = take(o43);
  T_EXPECT(mn_array_binary(MN_OP_SUB, m, r4, o43), MN_ERR_SHAPE, "(4, 3) - (4,)", "(4, 3)", "(4,)", "broadcast");
  SAME(sm, "m after (4, 3) - (4,)");
  SAME(sr, "r after (4, 3) - (4,)");
  SAME(s43o, "out after (4, 3) - (4,)");
  mn_array *bv = (mn_array *)&bv;
  T_EXPECT(mn_array_broadcast_to(r4, 2, s43, &bv), MN_ERR_SHAPE, "broadcast_to (4,) -> (4, 3)", "extent 4", "3");
  T_CHECK(bv == NULL, "broadcast_to left a view after failing");

  /* dtype an op does not accept */
  sx = take(x);
  sy = take(y);
  so = take(o5);
  T_EXPECT(mn_array_binary(MN_OP_BITAND, x, y, o5), MN_ERR_DTYPE, "bitwise_and on float64", "bitwise_and", "float64");
  SAME(sx, "x after bitwise_and");
  SAME(sy, "y after bitwise_and");
  SAME(so, "out after bitwise_and");
  so = take(o5);
  T_EXPECT(mn_array_unary(MN_OP_INVERT, x, o5), MN_ERR_DTYPE, "invert on float64", "invert", "float64");
  SAME(so, "out after invert");
  so = take(o5);
  T_EXPECT(mn_array_binary_scalar(MN_OP_LSHIFT, x, mn_scalar_i64(2), 0, o5), MN_ERR_DTYPE, "left_shift on float64",
             "left_shift", "float64");
  SAME(so, "out after left_shift");

  /* axis out of bounds, wrong out shape of a reduction */
  mn_array *o3 = NULL;
  int64_t s3[] = {3};
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s3, 0, &o3));
  if (o3) {
    mt_set(o3, f_out);
    sm = take(m);
    snap s3o = take(o3);
    T_EXPECT(mn_array_reduce_axis(MN_RED_SUM, m, 2, o3), MN_ERR_INDEX, "sum over axis 2 of a 2-d array", "axis 2",
               "dimension 2");
    T_EXPECT(mn_array_reduce_axis(MN_RED_MAX, m, -3, o3), MN_ERR_INDEX, "max over axis -3 of a 2-d array",
               "axis -3", "dimension 2");
    T_EXPECT(mn_array_reduce_axis(MN_RED_SUM, m, 7, o3), MN_ERR_INDEX, "sum over axis 7 of a 2-d array", "axis 7");
    SAME(sm, "m after bad axes");
    SAME(s3o, "out after bad axes");
    sm = take(m);
    so = take(o5);
    T_EXPECT(mn_array_reduce_axis(MN_RED_SUM, m, 0, o5), MN_ERR_SHAPE, "sum over axis 0 into (5,)", "(3,)", "(5,)");
    SAME(sm, "m after reduction into a wrong out");
    SAME(so, "out after reduction into a wrong out");
    mn_array_destroy(&o3);
  }

  /* the library still works: x + y into o5 */
  T_OK(mn_array_binary(MN_OP_ADD, x, y, o5));
  double *v = mt_all(o5);
  for (int k = 0; k < 5; k++) T_CHECK(v[k] == f_a(k) + f_b(k), "x + y after errors: [%d] = %g", k, v[k]);
  free(v);

  mn_array *all[] = {x, y, y6, o5, o6, m, r4, o43};
  for (size_t i = 0; i < sizeof all / sizeof all[0]; i++) mn_array_destroy(&all[i]);
}

static void test_indexing(mn_ctx *ctx) {
  int64_t s10[] = {10}, s43[] = {4, 3};
  mn_array *a = NULL, *m = NULL;
  T_OK(mn_array_create(ctx, MN_INT32, 1, s10, 0, &a));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, s43, 0, &m));
  if (!a || !m) return;
  mt_set(a, f_int);
  mt_set(m, f_a);
  snap sa = take(a), sm = take(m);

  /* slices and integer indices out of range: the view must be reset */
  struct {
    mn_array *x;
    int nd;
    mn_index ix[3];
    const char *what, *n1, *n2, *n3;
  } bad[] = {
    {a, 1, {mn_slice(20, MN_NONE, 1)}, "a[20:]", "20", "10", NULL},
    {a, 1, {mn_slice(2, 11, 1)}, "a[2:11]", "11", "10", NULL},
    {a, 1, {mn_slice(-11, MN_NONE, 1)}, "a[-11:]", "-11", "10", NULL},
    {a, 1, {mn_slice(0, 5, 0)}, "a[0:5:0]", "step", NULL, NULL},
    {m, 2, {mn_all(), mn_slice(MN_NONE, 5, 1)}, "m[:, :5]", "5", "axis 1", "3"},
    {a, 1, {mn_at(10)}, "a[10]", "10", NULL, NULL},
    {a, 1, {mn_at(-11)}, "a[-11]", "-11", "10", NULL},
    {m, 2, {mn_at(1), mn_at(3)}, "m[1, 3]", "3", "axis 1", NULL},
    {m, 3, {mn_at(0), mn_at(0), mn_at(0)}, "m[0, 0, 0]", "3", "2-d", NULL},
  };
  mn_array *v;
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    v = (mn_array *)&v; /* not NULL: a failing call must reset it */
    T_EXPECT(mn_array_index(bad[k].x, bad[k].nd, bad[k].ix, &v), MN_ERR_INDEX, bad[k].what, bad[k].n1, bad[k].n2,
             bad[k].n3);
    T_CHECK(v == NULL, "%s left a view", bad[k].what);
  }

  /* A slice that differs between ranks breaks the SPMD contract: views
   * make no collective call, so only the check mode (MANIPLE_CHECKS=1)
   * sees it, on every rank, naming the call and the argument; no rank
   * keeps a view and none hangs. */
  if (nranks > 1) {
    T_OK(mn_ctx_set_checks(ctx, 1));
    v = (mn_array *)&v;
    mn_index one[] = {mn_slice(mn_ctx_rank(ctx) == 1 ? 20 : 2, MN_NONE, 1)};
    T_EXPECT(mn_array_index(a, 1, one, &v), MN_ERR_ARG, "a[20:] on rank 1 only", "mn_array_index", "index");
    T_CHECK(v == NULL, "a[20:] on rank 1 left a view on rank %d", mn_ctx_rank(ctx));
    v = (mn_array *)&v;
    mn_index lastr[] = {mn_at(mn_ctx_rank(ctx) == nranks - 1 ? 12 : 3)};
    T_EXPECT(mn_array_index(a, 1, lastr, &v), MN_ERR_ARG, "a[12] on the last rank only", "mn_array_index", "index");
    T_CHECK(v == NULL, "a[12] on the last rank left a view on rank %d", mn_ctx_rank(ctx));
    T_OK(mn_ctx_set_checks(ctx, 0));
  }

  /* mn_array_get */
  mn_scalar sv = mn_scalar_f64(123.0);
  int64_t gi[] = {1, 3};
  T_EXPECT(mn_array_get(m, gi, &sv), MN_ERR_INDEX, "get m[1, 3]", "3", "axis 1");
  int64_t gi2[] = {4, 0};
  T_EXPECT(mn_array_get(m, gi2, &sv), MN_ERR_INDEX, "get m[4, 0]", "4", "axis 0");
  int64_t gi3[] = {mn_ctx_rank(ctx) == nranks - 1 ? 10 : 0};
  T_EXPECT(mn_array_get(a, gi3, &sv), MN_ERR_INDEX, "get a[10] on the last rank only", "10");
  T_CHECK(sv.dtype == MN_FLOAT64 && sv.v.f == 123.0, "a failed get changed its result");
  int64_t good[] = {3, 2};
  T_OK(mn_array_get(m, good, &sv));
  T_CHECK(mn_scalar_as_f64(sv) == f_a(3 * 3 + 2), "get m[3, 2] after errors = %g", mn_scalar_as_f64(sv));

  SAME(sa, "a after bad indexing");
  SAME(sm, "m after bad indexing");
  mn_array_destroy(&a);
  mn_array_destroy(&m);
}

static void test_halo(mn_ctx *ctx) {
  int64_t sh[] = {12, 8};
  mn_array *a = NULL, *h = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 0, &a));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 1, &h));
  if (!a || !h) return;
  mt_set(a, f_a);
  mt_set(h, f_a);
  snap sa = take(a);
  T_EXPECT(mn_array_halo_exchange(a), MN_ERR_ARG, "halo exchange with halo 0", "halo width 0");
  mn_plan *p = (mn_plan *)&p;
  T_EXPECT(mn_plan_create_halo(a, NULL, &p), MN_ERR_ARG, "halo plan with halo 0", "halo width 0");
  T_CHECK(p == NULL, "a failed halo plan was not reset to NULL");
  SAME(sa, "array after halo exchange with halo 0");
  /* on a view of a haloed array */
  mn_array *v = NULL;
  mn_index ix[] = {mn_slice(1, 5, 1)};
  T_OK(mn_array_index(h, 1, ix, &v));
  if (v) {
    snap sh2 = take(h);
    T_EXPECT(mn_array_halo_exchange(v), MN_ERR_ARG, "halo exchange of a view", "view");
    SAME(sh2, "base after halo exchange of its view");
    mn_array_destroy(&v);
  }
  /* a halo wider than a block */
  mn_array *w = (mn_array *)&w;
  if (nranks > 1) {
    T_EXPECT(mn_array_create(ctx, MN_FLOAT64, 2, sh, 13, &w), MN_ERR_SHAPE, "halo 13 on (12, 8)", "13");
    T_CHECK(w == NULL, "a failed create left an array");
  }
  T_OK(mn_array_halo_exchange(h));
  mn_array_destroy(&a);
  mn_array_destroy(&h);
}

static void test_npy(mn_ctx *ctx) {
  char p[1200];
  /* missing file */
  mt_tmp_path(p, sizeof p, "t_errors", "no_such_dir/missing.npy");
  EXPECT_LOAD_FAIL(ctx, p, MN_ERR_IO, "missing file", "missing.npy");
  /* saving into a missing directory */
  int64_t s5[] = {5};
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, s5, 0, &a));
  if (a) {
    mt_set(a, f_a);
    snap sa = take(a);
    T_EXPECT(mn_array_save_npy(a, p), MN_ERR_IO, "save into a missing directory", p);
    SAME(sa, "array after a failed save");
    mn_array_destroy(&a);
  }

  /* not a .npy file */
  tmp_path(p, sizeof p, "badmagic");
  const char text[] = "this is a text file, not a NumPy array\n";
  write_raw(ctx, p, text, sizeof text - 1);
  EXPECT_LOAD_FAIL(ctx, p, MN_ERR_FORMAT, "bad magic", "magic");
  /* an empty file */
  tmp_path(p, sizeof p, "empty");
  write_raw(ctx, p, "", 0);
  EXPECT_LOAD_FAIL(ctx, p, MN_ERR_FORMAT, "empty file", "magic");

  /* headers (and data) written by write_npy that a load must refuse */
  static const struct {
    const char *stem, *dict;
    size_t nbytes;
    unsigned char (*fill)(size_t);
    int want;
    const char *what, *n1, *n2;
  } bad[] = {
    /* truncated data: (10,) float64 with 3 elements */
    {"truncated", "{'descr': '<f8', 'fortran_order': False, 'shape': (10,), }", 24, NULL, MN_ERR_FORMAT,
     "truncated data", "truncated", NULL},
    /* unsupported dtypes */
    {"f16", "{'descr': '<f16', 'fortran_order': False, 'shape': (4,), }", 64, NULL, MN_ERR_DTYPE, "longdouble file",
     "'<f16'", NULL},
    {"u2", "{'descr': '>u2', 'fortran_order': False, 'shape': (4,), }", 8, NULL, MN_ERR_DTYPE,
     "big-endian uint16 file", "'>u2'", NULL},
    {"m8", "{'descr': '<m8[s]', 'fortran_order': False, 'shape': (4,), }", 32, NULL, MN_ERR_DTYPE, "timedelta file",
     "'<m8[s]'", NULL},
    {"be", "{'descr': '>f8', 'fortran_order': False, 'shape': (4,), }", 32, NULL, MN_ERR_DTYPE,
     "big-endian float64 file", "'>f8'", NULL},
    {"f8x", "{'descr': '<f8x', 'fortran_order': False, 'shape': (4,), }", 32, NULL, MN_ERR_DTYPE, "dtype '<f8x'",
     "'<f8x'", NULL},
    /* a fortran_order that is not a bool (NumPy refuses it; True is read) */
    {"fortran", "{'descr': '<f8', 'fortran_order': 1, 'shape': (7, 5), }", 35 * 8, NULL, MN_ERR_FORMAT,
     "fortran_order 1", "fortran_order 1", NULL},
    /* a header without a shape; a bad shape entry */
    {"noshape", "{'descr': '<f8', 'fortran_order': False, }", 8, NULL, MN_ERR_FORMAT, "header without shape", "shape",
     NULL},
    {"badshape", "{'descr': '<f8', 'fortran_order': False, 'shape': (3, x), }", 24, NULL, MN_ERR_FORMAT,
     "bad shape entry", "shape", NULL},
    /* bool bytes other than 0 and 1 (the bad one is the last element, owned
     * by the last rank) */
    {"bool2", "{'descr': '|b1', 'fortran_order': False, 'shape': (13,), }", 13, b_two_at_end, MN_ERR_FORMAT,
     "bool byte 2", "bool", "2"},
    {"boolff", "{'descr': '|b1', 'fortran_order': False, 'shape': (13,), }", 13, b_ff_at_end, MN_ERR_FORMAT,
     "bool byte 0xff", "bool", "255"},
  };
  for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
    tmp_path(p, sizeof p, bad[k].stem);
    write_npy(ctx, p, bad[k].dict, bad[k].nbytes, bad[k].fill);
    EXPECT_LOAD_FAIL(ctx, p, bad[k].want, bad[k].what, bad[k].n1, bad[k].n2);
  }

  /* truncated header */
  tmp_path(p, sizeof p, "trunchdr");
  {
    unsigned char pre[30] = "\x93NUMPY\x01\x00\x76\x00{'descr': '<f8', 'fo";
    write_raw(ctx, p, pre, sizeof pre);
  }
  EXPECT_LOAD_FAIL(ctx, p, MN_ERR_FORMAT, "truncated header", "truncated");
  /* an unknown version */
  tmp_path(p, sizeof p, "v9");
  {
    unsigned char pre[64];
    memset(pre, ' ', sizeof pre);
    memcpy(pre, "\x93NUMPY\x09\x00\x36\x00", 10);
    pre[63] = '\n';
    write_raw(ctx, p, pre, sizeof pre);
  }
  EXPECT_LOAD_FAIL(ctx, p, MN_ERR_FORMAT, "format version 9.0", "9.0");

  /* a good file written the same way still loads */
  tmp_path(p, sizeof p, "good");
  write_npy(ctx, p, "{'descr': '|b1', 'fortran_order': False, 'shape': (13,), }", 13, b_alt);
  mn_array *g = NULL;
  T_OK(mn_array_load_npy(ctx, p, &g));
  if (g) {
    double *v = mt_all(g);
    for (int k = 0; k < 13; k++) T_CHECK(v[k] == k % 2, "good bool file: [%d] = %g", k, v[k]);
    free(v);
  }
  mn_array_destroy(&g);
}

/* A CUDA context is refused on every rank without a device
 * (MN_ERR_BACKEND), never silently run on the host, and made with one; the
 * emulated device is always there; a bad backend code is MN_ERR_ARG naming
 * it, as is a bad MANIPLE_BACKEND under MN_BACKEND_DEFAULT. */
static void test_backend(void) {
  int n = 0;
  const char *why = "";
  mn_cuda_device_count(&n, &why);
  int least = 0;
  MPI_Allreduce(&n, &least, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  mn_ctx *c = NULL;
  int rc = mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_CUDA, &c);
  if (least == 0) {
    T_EXPECT(rc, MN_ERR_BACKEND, "CUDA context without a device", "CUDA");
    T_CHECK(c == NULL, "failed context creation left a handle");
  } else {
    T_CHECK(rc == MN_SUCCESS && mn_ctx_backend(c) == MN_BACKEND_CUDA, "CUDA context with a device: %s",
            mn_err_name(rc));
    mn_ctx_destroy(&c);
  }
  rc = mn_ctx_create(MPI_COMM_WORLD, (mn_backend)7, &c);
  T_EXPECT(rc, MN_ERR_ARG, "unknown backend", "7");
  T_CHECK(c == NULL, "failed context creation left a handle");
  /* MN_BACKEND_DEFAULT: MANIPLE_BACKEND names it, cpu when unset */
  const char *was = getenv("MANIPLE_BACKEND");
  char *keep = was ? strdup(was) : NULL;
  const char *set[] = {NULL, "cpu", "cuda", "gpu", "emulated"};
  for (int k = 0; k < 5; k++) {
    if (set[k]) setenv("MANIPLE_BACKEND", set[k], 1);
    else unsetenv("MANIPLE_BACKEND");
    rc = mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_DEFAULT, &c);
    if (k < 2) {
      T_CHECK(rc == MN_SUCCESS && c && mn_ctx_backend(c) == MN_BACKEND_CPU, "MANIPLE_BACKEND=%s: %s",
              set[k] ? set[k] : "(unset)", mn_err_name(rc));
      mn_ctx_destroy(&c);
    } else if (k == 2 && least == 0) {
      T_EXPECT(rc, MN_ERR_BACKEND, "MANIPLE_BACKEND=cuda without a device", "CUDA");
    } else if (k == 2 || k == 4) {
      mn_backend want = k == 2 ? MN_BACKEND_CUDA : MN_BACKEND_EMULATED;
      T_CHECK(rc == MN_SUCCESS && mn_ctx_backend(c) == want, "MANIPLE_BACKEND=%s: %s", set[k], mn_err_name(rc));
      mn_ctx_destroy(&c);
    } else {
      T_EXPECT(rc, MN_ERR_ARG, "MANIPLE_BACKEND=gpu", "MANIPLE_BACKEND=gpu");
    }
    T_CHECK(c == NULL, "failed or destroyed context left a handle");
  }
  if (keep) setenv("MANIPLE_BACKEND", keep, 1);
  else unsetenv("MANIPLE_BACKEND");
  free(keep);
}

/* A placeholder answers type questions but cannot be evaluated. */
static void test_placeholder(mn_ctx *ctx) {
  mn_expr *e = NULL;
  int64_t sh[] = {4, 3}, row[] = {3};
  int p = -1, q = -1, r = -1, nd = 0;
  int64_t got[MN_MAXDIM];
  T_OK(mn_expr_create(ctx, &e));
  T_OK(mn_expr_placeholder(e, MN_INT32, 2, sh, &p));
  T_OK(mn_expr_placeholder(e, MN_FLOAT32, 1, row, &q));
  T_OK(mn_expr_binary(e, MN_OP_ADD, p, q, &r));
  T_CHECK(mn_expr_dtype(e, r) == MN_FLOAT64, "int32 + float32 gave %s", mn_dtype_name(mn_expr_dtype(e, r)));
  T_OK(mn_expr_shape(e, r, &nd, got));
  T_CHECK(nd == 2 && got[0] == 4 && got[1] == 3, "broadcast shape of (4,3) and (3,) wrong");
  mn_array *out = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 0, &out));
  snap before = take(out);
  T_EXPECT(mn_expr_eval(e, r, out), MN_ERR_ARG, "evaluating a placeholder", "placeholder");
  SAME(before, "evaluating a placeholder");
  mn_scalar s;
  T_EXPECT(mn_expr_reduce(e, r, MN_RED_SUM, &s), MN_ERR_ARG, "reducing a placeholder", "placeholder");
  T_EXPECT(mn_expr_placeholder(e, MN_NDTYPE, 1, row, &p), MN_ERR_DTYPE, "placeholder dtype", "dtype");
  mn_array_destroy(&out);
  mn_expr_destroy(&e);
}

/* mn_ctx_set_verbose prints each error to stderr as it is raised, and
 * stops when turned off: stderr goes to a file meanwhile. */
static void test_verbose(mn_ctx *ctx) {
  char path[512];
  mt_tmp_path(path, sizeof path, "t_errors", "verbose");
  char mine[560];
  snprintf(mine, sizeof mine, "%s_r%d", path, mn_ctx_rank(ctx));
  fflush(stderr);
  int keep = dup(2);
  FILE *f = fopen(mine, "w+");
  T_CHECK(f && keep >= 0, "cannot open %s", mine);
  if (!f || keep < 0) return;
  dup2(fileno(f), 2);
  int64_t n = 4;
  mn_array *a = NULL;
  mn_ctx_set_verbose(ctx, 1);
  int e1 = mn_array_create(ctx, MN_NDTYPE, 1, &n, 0, &a);
  fflush(stderr);
  long after_on = ftell(f);
  mn_ctx_set_verbose(ctx, 0);
  int e2 = mn_array_create(ctx, MN_NDTYPE, 1, &n, 0, &a);
  fflush(stderr);
  long after_off = ftell(f);
  dup2(keep, 2);
  close(keep);
  char text[4096] = {0};
  rewind(f);
  size_t got = fread(text, 1, sizeof text - 1, f);
  fclose(f);
  remove(mine);
  T_CHECK(e1 == MN_ERR_DTYPE && e2 == MN_ERR_DTYPE, "bad dtype gave %s, %s", mn_err_name(e1), mn_err_name(e2));
  char want[64];
  snprintf(want, sizeof want, "maniple: MN_ERR_DTYPE: unknown dtype code %d", (int)MN_NDTYPE);
  T_CHECK(got > 0 && strstr(text, want) && strstr(text, "array.c:"), "verbose on printed \"%s\"", text);
  T_CHECK(after_off == after_on, "verbose off still printed %ld more bytes", after_off - after_on);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  test_verbose(ctx);
  test_backend();
  test_placeholder(ctx);
  nranks = mn_ctx_size(ctx);
  test_elementwise(ctx);
  test_indexing(ctx);
  test_halo(ctx);
  test_npy(ctx);
  return mt_finish(&ctx);
}
