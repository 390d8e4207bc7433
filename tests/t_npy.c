/* .npy round trips: every dtype at 0-d, 1-d (17), 2-d (7x5) and 3-d (4x3x5)
 * (plus zero-size shapes) written with mn_array_save_npy (and Fortran order
 * with mn_array_save_npy_fortran) and read back with
 * mn_array_load_npy; views, haloed and root-layout arrays save as their
 * values; overwriting a longer file leaves the right size; the header bytes
 * are the ones NumPy writes. Header oddities are accepted or refused as
 * NumPy does (numpy.lib.format evaluates the header with ast.literal_eval:
 * each case below was checked with numpy.load); a file that differs between
 * ranks (node-local disks, simulated by a relative name in a per-rank
 * working directory) or is missing on some is an error on every rank; a
 * save replaces its target in one rename, never leaving a partial file
 * there; file errors keep their errno. Run with MANIPLE_NPY_CHUNK_BYTES small,
 * the same round trips cross many MPI-IO pieces, the path that axes beyond
 * 2^31 elements take.
 *
 * With an argument DIR (see npy_check.py and npy_numpy.sh), it also loads
 * the reference files NumPy wrote there, checks them against the same
 * formulas, checks that the Fortran-order and big-endian ones are refused,
 * and writes its own out_*.npy files there for NumPy to read back. */
#define _XOPEN_SOURCE 700 /* chdir, mkdir, symlink, setenv */
#include "mn_test.h"
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* Value formulas shared with npy_check.py: v(k) for flat C-order index k.
 * All are exact in their dtype and in float64. */
static double v_bool(int64_t k) { return k % 3 == 0 ? 1.0 : 0.0; }
static double v_i32(int64_t k) { return (double)(3 * k - 7); }
static double v_i64(int64_t k) { return (double)(3000000000LL * k - 7); }
static double v_f32(int64_t k) { return (double)k * 0.25 - 2.0; }
static double v_f64(int64_t k) { return (double)k * 0.5 - 3.0; }

/* the unsigned ones pass int32's (u32) and int64's (u64) ranges */
static double v_i8(int64_t k) { return (double)((7 * k) % 250 - 125); }
static double v_i16(int64_t k) { return (double)((301 * k) % 60000 - 30000); }
static double v_u8(int64_t k) { return (double)((3 * k + 1) % 256); }
static double v_u16(int64_t k) { return (double)((1001 * k) % 65536); }
static double v_u32(int64_t k) { return 4000000000.0 - 3.0 * (double)k; }
static double v_u64(int64_t k) { return 1e19 - 2048.0 * (double)k; }
static double v_f16(int64_t k) { return (double)(k % 64) * 0.125 - 3.0; }

/* complex: the real part (the float formula of its precision), the
 * imaginary part -1/2 of it (mn_test.h's mt_set and mt_all) */
static double (*const formula[MN_NDTYPE])(int64_t) = {v_bool, v_i32, v_i64, v_f32, v_f64, v_i8, v_i16,
                                                       v_u8,   v_u16, v_u32, v_u64, v_f16, v_f32, v_f64};
static const char *const tname[MN_NDTYPE] = {"bool", "i32", "i64", "f32", "f64", "i8",  "i16",
                                             "u8",   "u16", "u32", "u64", "f16", "c64", "c128"};

static char tmpdir[512];
static int nranks;
/* file name prefix: the run with MANIPLE_NPY_CHUNK_BYTES set runs beside the
 * plain one at the same rank counts, so it uses other names */
static const char *prog = "t_npy";

static void path_in(char *buf, size_t n, const char *dir, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

/* A path in MANIPLE_TEST_TMP that is unique to this test and rank count. */
static void tmp_path(char *buf, size_t n, const char *stem) {
  char name[128];
  snprintf(name, sizeof name, "%s_np%d_%s.npy", prog, nranks, stem);
  path_in(buf, n, tmpdir, name);
}

static void shape_str(int nd, const int64_t *s, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "(");
  for (int d = 0; d < nd && k < n; d++) k += (size_t)snprintf(buf + k, n - k, d ? ", %lld" : "%lld", (long long)s[d]);
  if (k < n) snprintf(buf + k, n - k, nd == 1 ? ",)" : ")");
}

/* a has dtype t, shape (nd, shape), and element k equals f(k). */
static void check_array(const mn_array *a, mn_dtype t, int nd, const int64_t *shape, double (*f)(int64_t),
                        const char *what) {
  T_CHECK(mn_array_dtype(a) == t, "%s: dtype %s, expected %s", what, mn_dtype_name(mn_array_dtype(a)),
          mn_dtype_name(t));
  int same = mn_array_ndim(a) == nd;
  for (int d = 0; same && d < nd; d++) same = mn_array_shape(a)[d] == shape[d];
  if (!same) {
    char g[128], w[128];
    shape_str(mn_array_ndim(a), mn_array_shape(a), g, sizeof g);
    shape_str(nd, shape, w, sizeof w);
    T_CHECK(0, "%s: shape %s, expected %s", what, g, w);
    return;
  }
  T_CHECK(!mn_array_is_view(a), "%s: a loaded array is a view", what);
  double *v = mt_all(a);
  int64_t n = mn_array_size(a), bad = 0;
  for (int64_t k = 0; k < n; k++)
    if (v[k] != f(k) && bad++ < 5) T_CHECK(0, "%s: element %lld = %.17g, expected %.17g", what, (long long)k, v[k], f(k));
  free(v);
}

/* Save a, load it back, check values f and a's shape and dtype. */
static void round_trip(mn_ctx *ctx, mn_array *a, const char *path, double (*f)(int64_t), const char *what) {
  T_OK(mn_array_save_npy(a, path));
  mn_array *b = NULL;
  T_OK(mn_array_load_npy(ctx, path, &b));
  if (b) check_array(b, mn_array_dtype(a), mn_array_ndim(a), mn_array_shape(a), f, what);
  mn_array_destroy(&b);
}

/* ---- header bytes, checked on rank 0 without the library ---- */
static void check_header_bytes_order(mn_ctx *ctx, const char *path, const char *descr, const char *shape, int64_t nbytes,
                                     int fortran) {
  if (mn_ctx_rank(ctx) != 0) return;
  FILE *fp = fopen(path, "rb");
  T_CHECK(fp, "cannot open %s", path);
  if (!fp) return;
  unsigned char pre[10];
  char hdr[4096] = {0};
  size_t got = fread(pre, 1, 10, fp);
  T_CHECK(got == 10 && !memcmp(pre, "\x93NUMPY\x01\x00", 8), "%s: bad magic or version", path);
  size_t hl = pre[8] | ((size_t)pre[9] << 8);
  T_CHECK((10 + hl) % 64 == 0, "%s: header of %zu bytes is not 64-byte aligned", path, 10 + hl);
  if (hl < sizeof hdr) {
    T_CHECK(fread(hdr, 1, hl, fp) == hl, "%s: short header", path);
    T_CHECK(hl > 0 && hdr[hl - 1] == '\n', "%s: header does not end in a newline", path);
    char want[256];
    snprintf(want, sizeof want, "'descr': '%s'", descr);
    T_CHECK(strstr(hdr, want), "%s: header lacks %s: %s", path, want, hdr);
    const char *order = fortran ? "'fortran_order': True" : "'fortran_order': False";
    T_CHECK(strstr(hdr, order), "%s: header lacks %s: %s", path, order, hdr);
    snprintf(want, sizeof want, "'shape': %s", shape);
    T_CHECK(strstr(hdr, want), "%s: header lacks %s: %s", path, want, hdr);
  }
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  T_CHECK(size == (long)(10 + hl) + nbytes, "%s: %ld bytes, expected %lld", path, size, (long long)(10 + hl + nbytes));
  fclose(fp);
}

static void check_header_bytes(mn_ctx *ctx, const char *path, const char *descr, const char *shape, int64_t nbytes) {
  check_header_bytes_order(ctx, path, descr, shape, nbytes, 0);
}

/* ---- views: expected values of the view in terms of the base formula ---- */
enum { VR = 7, VC = 5 };
static double v_rows(int64_t k) { /* a[1:-1:2] of 7x5: rows 1, 3, 5 */
  int64_t i = k / VC, j = k % VC;
  return v_f64((1 + 2 * i) * VC + j);
}
static double v_revcols(int64_t k) { /* a[::-1, 1:4] of 7x5 */
  int64_t i = k / 3, j = k % 3;
  return v_f64((VR - 1 - i) * VC + 1 + j);
}
static double v_trans(int64_t k) { /* a.T of 7x5, shape (5, 7) */
  int64_t i = k / VR, j = k % VR;
  return v_f64(j * VC + i);
}
static double v_col(int64_t k) { return v_f64(k * VC + 2); } /* a[:, 2] */
static double v_elem(int64_t k) { (void)k; return v_f64(3 * VC + 4); } /* a[3, -1], 0-d */
static double v_i32_sub(int64_t k) { /* b[1:3, ::2, 4] of 4x3x5 int32, shape (2, 2) */
  int64_t i = k / 2, j = k % 2;
  return v_i32((1 + i) * 15 + (2 * j) * 5 + 4);
}

static void test_views(mn_ctx *ctx) {
  int64_t sh[] = {VR, VC};
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 0, &a));
  if (!a) return;
  mt_set(a, v_f64);
  char p[1200];
  struct { int n; mn_index idx[3]; int nd; int64_t shape[2]; double (*f)(int64_t); const char *name; } cases[] = {
    {1, {mn_slice(1, -1, 2)}, 2, {3, VC}, v_rows, "view_rows"},
    {2, {mn_slice(MN_NONE, MN_NONE, -1), mn_slice(1, 4, 1)}, 2, {VR, 3}, v_revcols, "view_revcols"},
    {2, {mn_all(), mn_at(2)}, 1, {VR}, v_col, "view_col"},
    {2, {mn_at(3), mn_at(-1)}, 0, {0}, v_elem, "view_elem"},
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    mn_array *v = NULL;
    T_OK(mn_array_index(a, cases[c].n, cases[c].idx, &v));
    if (!v) continue;
    tmp_path(p, sizeof p, cases[c].name);
    T_OK(mn_array_save_npy(v, p));
    mn_array *b = NULL;
    T_OK(mn_array_load_npy(ctx, p, &b));
    if (b) check_array(b, MN_FLOAT64, cases[c].nd, cases[c].shape, cases[c].f, cases[c].name);
    mn_array_destroy(&b);
    mn_array_destroy(&v);
  }
  /* a transposed view */
  mn_array *t = NULL;
  T_OK(mn_array_transpose(a, NULL, &t));
  if (t) {
    int64_t tsh[] = {VC, VR};
    tmp_path(p, sizeof p, "view_trans");
    T_OK(mn_array_save_npy(t, p));
    mn_array *b = NULL;
    T_OK(mn_array_load_npy(ctx, p, &b));
    if (b) check_array(b, MN_FLOAT64, 2, tsh, v_trans, "view_trans");
    mn_array_destroy(&b);
    check_header_bytes(ctx, p, "<f8", "(5, 7)", 35 * 8);
    mn_array_destroy(&t);
  }
  /* the base is untouched by saving its views */
  check_array(a, MN_FLOAT64, 2, sh, v_f64, "base after saving views");
  mn_array_destroy(&a);

  /* a view of a 3-d int32 array with an integer index on the last axis */
  int64_t sh3[] = {4, 3, 5}, want[] = {2, 2};
  T_OK(mn_array_create(ctx, MN_INT32, 3, sh3, 0, &a));
  if (!a) return;
  mt_set(a, v_i32);
  mn_index ix[] = {mn_slice(1, 3, 1), mn_slice(MN_NONE, MN_NONE, 2), mn_at(4)};
  mn_array *v = NULL;
  T_OK(mn_array_index(a, 3, ix, &v));
  if (v) {
    tmp_path(p, sizeof p, "view_i32");
    T_OK(mn_array_save_npy(v, p));
    mn_array *b = NULL;
    T_OK(mn_array_load_npy(ctx, p, &b));
    if (b) check_array(b, MN_INT32, 2, want, v_i32_sub, "view_i32");
    mn_array_destroy(&b);
  }
  mn_array_destroy(&v);
  mn_array_destroy(&a);
}

/* ---- files written by NumPy (npy_check.py write DIR) ---- */
typedef struct {
  const char *file;
  mn_dtype t;
  int nd;
  int64_t shape[3];
} ref_file;
static const ref_file refs[] = {
  {"ref_f64_2d.npy", MN_FLOAT64, 2, {7, 5}},
  {"ref_f32_1d.npy", MN_FLOAT32, 1, {17}},
  {"ref_i32_3d.npy", MN_INT32, 3, {4, 3, 5}},
  {"ref_i64_2d.npy", MN_INT64, 2, {6, 4}},
  {"ref_bool_1d.npy", MN_BOOL, 1, {13}},
  {"ref_f64_0d.npy", MN_FLOAT64, 0, {0}},
  {"ref_f64_v2.npy", MN_FLOAT64, 1, {17}}, /* format version 2.0 */
  {"ref_i64_empty.npy", MN_INT64, 2, {3, 0}},
  {"ref_fortran.npy", MN_FLOAT64, 2, {7, 5}}, /* fortran_order True: read as NumPy does */
  {"ref_fortran_i32_3d.npy", MN_INT32, 3, {4, 3, 5}},
  {"ref_i8_2d.npy", MN_INT8, 2, {7, 5}},
  {"ref_u16_1d.npy", MN_UINT16, 1, {17}},
  {"ref_u64_3d.npy", MN_UINT64, 3, {4, 3, 5}},
  {"ref_f16_2d.npy", MN_FLOAT16, 2, {7, 5}},
  {"ref_c64_2d.npy", MN_COMPLEX64, 2, {7, 5}},
  {"ref_c128_1d.npy", MN_COMPLEX128, 1, {17}},
};

static void test_numpy_dir(mn_ctx *ctx, const char *dir) {
  char p[1200];
  for (size_t r = 0; r < sizeof refs / sizeof refs[0]; r++) {
    path_in(p, sizeof p, dir, refs[r].file);
    mn_array *a = NULL;
    T_OK(mn_array_load_npy(ctx, p, &a));
    if (a) check_array(a, refs[r].t, refs[r].nd, refs[r].shape, formula[refs[r].t], refs[r].file);
    mn_array_destroy(&a);
  }
  /* files maniple must refuse, with the same error on every rank */
  struct { const char *file; int code; const char *needle; } bad[] = {
    {"ref_bigendian.npy", MN_ERR_DTYPE, ">f8"},
  };
  for (size_t r = 0; r < sizeof bad / sizeof bad[0]; r++) {
    path_in(p, sizeof p, dir, bad[r].file);
    mn_array *a = NULL;
    int rc = mn_array_load_npy(ctx, p, &a), lo = 0, hi = 0;
    MPI_Allreduce(&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    T_CHECK(rc == bad[r].code && lo == hi, "%s: got %s (codes %d..%d over ranks), expected %s", bad[r].file,
            mn_err_name(rc), lo, hi, mn_err_name(bad[r].code));
    T_CHECK(strstr(mn_ctx_errmsg(NULL), bad[r].needle) && strstr(mn_ctx_errmsg(NULL), bad[r].file),
            "%s: message lacks '%s' or the path: %s", bad[r].file, bad[r].needle, mn_ctx_errmsg(NULL));
    T_CHECK(a == NULL, "%s: output not NULL after a failed load", bad[r].file);
    mn_array_destroy(&a);
  }

  /* files for NumPy to read back (npy_check.py read DIR) */
  struct { const char *file; mn_dtype t; int nd; int64_t shape[3]; } outs[] = {
    {"out_f64_2d.npy", MN_FLOAT64, 2, {7, 5}},
    {"out_f32_1d.npy", MN_FLOAT32, 1, {17}},
    {"out_i32_3d.npy", MN_INT32, 3, {4, 3, 5}},
    {"out_i64_2d.npy", MN_INT64, 2, {6, 4}},
    {"out_bool_1d.npy", MN_BOOL, 1, {13}},
    {"out_f64_0d.npy", MN_FLOAT64, 0, {0}},
    {"out_f32_empty.npy", MN_FLOAT32, 2, {0, 4}},
    {"out_u8_2d.npy", MN_UINT8, 2, {7, 5}},
    {"out_i16_1d.npy", MN_INT16, 1, {17}},
    {"out_u32_3d.npy", MN_UINT32, 3, {4, 3, 5}},
    {"out_c128_2d.npy", MN_COMPLEX128, 2, {7, 5}},
    {"out_c64_1d.npy", MN_COMPLEX64, 1, {17}},
  };
  for (size_t r = 0; r < sizeof outs / sizeof outs[0]; r++) {
    mn_array *a = NULL;
    T_OK(mn_array_create(ctx, outs[r].t, outs[r].nd, outs[r].shape, 0, &a));
    if (!a) continue;
    mt_set(a, formula[outs[r].t]);
    path_in(p, sizeof p, dir, outs[r].file);
    T_OK(mn_array_save_npy(a, p));
    mn_array_destroy(&a);
  }
  /* a view: rows 1, 3, 5 of the 7x5 float64 array, and its transpose */
  int64_t sh[] = {7, 5};
  mn_array *a = NULL, *v = NULL, *t = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 0, &a));
  if (!a) return;
  mt_set(a, v_f64);
  mn_index ix[] = {mn_slice(1, -1, 2)};
  T_OK(mn_array_index(a, 1, ix, &v));
  if (v) {
    path_in(p, sizeof p, dir, "out_view_rows.npy");
    T_OK(mn_array_save_npy(v, p));
    T_OK(mn_array_transpose(v, NULL, &t));
    if (t) {
      path_in(p, sizeof p, dir, "out_view_rows_T.npy");
      T_OK(mn_array_save_npy(t, p));
    }
  }
  mn_array_destroy(&t);
  mn_array_destroy(&v);
  mn_array_destroy(&a);
}

/* ---- errors: T_EXPECT (mn_test.h) checks the code and the message ---- */

/* An MN_ERR_IO carries errno e on every rank. */
static void expect_errno_(int e, const char *what, int line) {
  const char *path = NULL;
  int rank = -2, got = mn_err_errno(&path, &rank);
  T_CHECK(got == e, "line %d, %s: errno %d (%s), expected %d (%s)", line, what, got, strerror(got), e, strerror(e));
}
#define EXPECT_ERRNO(e, what) expect_errno_((e), (what), __LINE__)

/* A .npy file of format major.0 with header dict (padded to 64 bytes as
 * NumPy does) and nbytes of data, byte k = k % 2, written by rank 0 (or by
 * every rank with all, each into its own working directory). */
static void write_npy(const char *path, int major, const char *dict, size_t nbytes, int all) {
  size_t dl = strlen(dict), pre = major == 1 ? 10 : 12, total = pre + dl + 1;
  total += (64 - total % 64) % 64;
  unsigned char *buf = calloc(1, total + nbytes + 1);
  memcpy(buf, "\x93NUMPY", 6);
  buf[6] = (unsigned char)major;
  size_t hl = total - pre;
  for (size_t k = 0; k < pre - 8; k++) buf[8 + k] = (unsigned char)(hl >> (8 * k));
  memcpy(buf + pre, dict, dl);
  memset(buf + pre + dl, ' ', total - pre - dl);
  buf[total - 1] = '\n';
  for (size_t k = 0; k < nbytes; k++) buf[total + k] = (unsigned char)(k % 2);
  if (all || mt_rank == 0) {
    FILE *fp = fopen(path, "wb");
    T_CHECK(fp, "cannot create %s", path);
    if (fp) {
      T_CHECK(fwrite(buf, 1, total + nbytes, fp) == total + nbytes, "short write to %s", path);
      fclose(fp);
    }
  }
  free(buf);
  MPI_Barrier(MPI_COMM_WORLD);
}

static double v_alt(int64_t k) { return (double)(k % 2); }

/* Headers NumPy accepts or refuses (each checked with numpy.load on the
 * same bytes; tests/test_npy_io.py compares many more with NumPy itself). */
static void test_header_cases(mn_ctx *ctx) {
  static const struct {
    int major;
    const char *dict;
    int code; /* 0: loads as bool with shape (nd, shape) */
    int nd;
    int64_t shape[3];
    const char *needle;
  } cases[] = {
    /* NumPy rejects a fortran_order that is not a bool */
    {1, "{'descr': '|b1', 'fortran_order': 1, 'shape': (3,), }", MN_ERR_FORMAT, 0, {0}, "fortran_order 1"},
    {1, "{'descr': '|b1', 'fortran_order': 'False', 'shape': (3,), }", MN_ERR_FORMAT, 0, {0}, "fortran_order"},
    /* a duplicated key keeps its last value */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), 'shape': (2,)}", 0, 1, {2}, NULL},
    {1, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), 'descr': '|b1'}", 0, 1, {6}, NULL},
    {1, "{'descr': '|b1', 'fortran_order': True, 'shape': (3,), 'fortran_order': False}", 0, 1, {3}, NULL},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': 1.5, 'shape': (3,)}", 0, 1, {3}, NULL},
    /* but the overridden value must still be a literal */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': x, 'shape': (3,)}", MN_ERR_FORMAT, 0, {0}, "parse"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': {[1]: 2}, 'shape': (3,)}", MN_ERR_FORMAT, 0, {0},
     "unhashable"},
    /* extra and missing keys */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), 'x': 1}", MN_ERR_FORMAT, 0, {0}, "extra key 'x'"},
    {1, "{'descr': '|b1', 'fortran_order': False}", MN_ERR_FORMAT, 0, {0}, "no key 'shape'"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), b'shape': (3,)}", MN_ERR_FORMAT, 0, {0},
     "extra key b'shape'"},
    /* shapes that are not tuples of non-negative ints */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3.0,), }", MN_ERR_FORMAT, 0, {0}, "(3.0,)"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3), }", MN_ERR_FORMAT, 0, {0}, "not a tuple"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': [3], }", MN_ERR_FORMAT, 0, {0}, "[3]"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (True, 2), }", MN_ERR_FORMAT, 0, {0}, "shape"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (-1,), }", MN_ERR_FORMAT, 0, {0}, "below 0"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (9223372036854775808,), }", MN_ERR_FORMAT, 0, {0},
     "beyond 2^63-1"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (1,1,1,1,1,1,1,1,1), }", MN_ERR_NOTIMPL, 0, {0},
     "at most 8"},
    /* text after the dict, or not a dict */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)} x", MN_ERR_FORMAT, 0, {0}, "text after"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)};", MN_ERR_FORMAT, 0, {0}, "parse"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)},", MN_ERR_FORMAT, 0, {0}, "tuple"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,),,}", MN_ERR_FORMAT, 0, {0}, "parse"},
    {1, "['descr', '|b1']", MN_ERR_FORMAT, 0, {0}, "not a dictionary"},
    {1, "\n  {'descr': '|b1', 'fortran_order': False, 'shape': (3,)}", MN_ERR_FORMAT, 0, {0}, "indent"},
    /* Python literal spellings NumPy takes */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,)} # a comment", 0, 1, {3}, NULL},
    {1, "  {\"descr\": '|b1', 'fortran_order':\n False, 'shape': (0x3,)}", 0, 1, {3}, NULL},
    {1, "({'desc' 'r': r'|b1', u'fortran_order': (False), 'shape': ((2), +3,)})", 0, 2, {2, 3}, NULL},
    {1, "{'descr': '\\x7cb1', 'fortran_order': False, 'shape': (3_0 ,  ) }", 0, 1, {30}, NULL},
    {1, "{'descr': '?', 'fortran_order': False, 'shape': (), }", 0, 0, {0}, NULL},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (00, -0), }", 0, 2, {0, 0}, NULL},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (03,), }", MN_ERR_FORMAT, 0, {0}, "leading zeros"},
    /* Python 2 'L' suffixes: dropped in formats 1.0 and 2.0 only */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3L, 2L), }", 0, 2, {3, 2}, NULL},
    {2, "{'descr': '|b1', 'fortran_order': False, 'shape': (3L,), }", 0, 1, {3}, NULL},
    {3, "{'descr': '|b1', 'fortran_order': False, 'shape': (3L,), }", MN_ERR_FORMAT, 0, {0}, "invalid number"},
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3l,), }", MN_ERR_FORMAT, 0, {0}, "invalid number"},
    /* Fortran order with one axis longer than 1 is the same bytes */
    {1, "{'descr': '|b1', 'fortran_order': True, 'shape': (3, 1), }", 0, 2, {3, 1}, NULL},
    /* descr strings NumPy maps to a dtype maniple holds, and others */
    {1, "{'descr': 'bool', 'fortran_order': False, 'shape': (3,), }", 0, 1, {3}, NULL},
    {1, "{'descr': b'|b1', 'fortran_order': False, 'shape': (3,), }", MN_ERR_FORMAT, 0, {0}, "descr b'|b1'"},
    {1, "{'descr': '|c32', 'fortran_order': False, 'shape': (3,), }", MN_ERR_DTYPE, 0, {0}, "'|c32'"},
    /* a NUL byte anywhere; an absurd size */
    {1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), } #\x01", 0, 1, {3}, NULL},
    {1, "{'descr': '<f8', 'fortran_order': False, 'shape': (2305843009213693952,), }", MN_ERR_FORMAT, 0, {0},
     "1.845e+19 bytes"},
    {1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", MN_ERR_FORMAT, 0, {0},
     "more than 2^63-1 elements"},
  };
  char p[1200], what[128];
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    snprintf(what, sizeof what, "header case %zu", c);
    char stem[32];
    snprintf(stem, sizeof stem, "hdr%zu", c);
    tmp_path(p, sizeof p, stem);
    write_npy(p, cases[c].major, cases[c].dict, 64, 0);
    mn_array *a = NULL;
    int rc = mn_array_load_npy(ctx, p, &a);
    T_EXPECT(rc, cases[c].code, what, cases[c].code ? p : NULL, cases[c].needle);
    if (rc) {
      T_CHECK(!a, "%s: output not NULL after a failed load", what);
      if (rc != cases[c].code) fprintf(stderr, "  header: %s\n", cases[c].dict);
    }
    if (a) check_array(a, MN_BOOL, cases[c].nd, cases[c].shape, v_alt, what);
    mn_array_destroy(&a);
  }
  /* a NUL byte in the header; a header longer than NumPy reads */
  tmp_path(p, sizeof p, "hdr_nul");
  {
    char d[] = "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), } # ";
    d[sizeof d - 2] = 0; /* the last blank becomes NUL, inside the header */
    size_t dl = sizeof d - 1;
    unsigned char buf[128];
    memset(buf, ' ', sizeof buf);
    memcpy(buf, "\x93NUMPY\x01\x00\x76\x00", 10);
    memcpy(buf + 10, d, dl);
    buf[127] = '\n';
    if (mt_rank == 0) {
      FILE *fp = fopen(p, "wb");
      if (fp) { fwrite(buf, 1, sizeof buf, fp); fclose(fp); }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    mn_array *a = NULL;
    T_EXPECT(mn_array_load_npy(ctx, p, &a), MN_ERR_FORMAT, "NUL in the header", "NUL", p);
  }
  tmp_path(p, sizeof p, "hdr_long");
  {
    char *d = malloc(10100);
    int k = snprintf(d, 10100, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), } #");
    memset(d + k, 'x', 10050 - (size_t)k);
    d[10050] = 0;
    write_npy(p, 2, d, 3, 0);
    free(d);
    mn_array *a = NULL;
    T_EXPECT(mn_array_load_npy(ctx, p, &a), MN_ERR_FORMAT, "header beyond 10000 characters", "10000", p);
  }
  /* format versions NumPy does not read */
  tmp_path(p, sizeof p, "hdr_v11");
  {
    unsigned char pre[64];
    memset(pre, ' ', sizeof pre);
    memcpy(pre, "\x93NUMPY\x01\x01\x36\x00", 10);
    pre[63] = '\n';
    if (mt_rank == 0) {
      FILE *fp = fopen(p, "wb");
      if (fp) { fwrite(pre, 1, sizeof pre, fp); fclose(fp); }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    mn_array *a = NULL;
    T_EXPECT(mn_array_load_npy(ctx, p, &a), MN_ERR_FORMAT, "format version 1.1", "1.1", p);
  }
}

static int count_named(const char *dir, const char *prefix);

/* ---- files seen differently by the ranks ---- */
/* Each rank works in its own directory, so one relative name is a
 * different file on each rank, as on node-local disks. */
static void test_per_rank_files(mn_ctx *ctx) {
  char cwd[1024], dir[1200];
  T_CHECK(getcwd(cwd, sizeof cwd), "getcwd failed");
  char stem[64];
  snprintf(stem, sizeof stem, "ranks_r%d", mt_rank);
  tmp_path(dir, sizeof dir, stem);
  mkdir(dir, 0777);
  T_CHECK(!chdir(dir), "cannot enter %s", dir);
  int last = mt_rank == nranks - 1;

  /* the same contents on every rank: loads */
  write_npy("same.npy", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (5, 3), }", 15, 1);
  mn_array *a = NULL;
  int64_t sh[] = {5, 3};
  T_OK(mn_array_load_npy(ctx, "same.npy", &a));
  if (a) check_array(a, MN_BOOL, 2, sh, v_alt, "per-rank copies of one file");
  mn_array_destroy(&a);

  /* another shape on the last rank */
  write_npy("shape.npy", 1, last && nranks > 1 ? "{'descr': '|b1', 'fortran_order': False, 'shape': (4,), }"
                                               : "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
            4, 1);
  int rc = mn_array_load_npy(ctx, "shape.npy", &a);
  if (nranks == 1) {
    T_CHECK(rc == 0, "one rank: shape.npy: %s", mn_ctx_errmsg(NULL));
  } else {
    T_EXPECT(rc, MN_ERR_IO, "shape differs between ranks", "'shape.npy' differs between ranks", "bool (3,)",
               "bool (4,)");
    T_CHECK(!a, "output not NULL after a failed load");
    char want[64];
    snprintf(want, sizeof want, "rank %d sees", nranks - 1);
    T_CHECK(strstr(mn_ctx_errmsg(NULL), want), "message does not name rank %d: %s", nranks - 1, mn_ctx_errmsg(NULL));
  }
  mn_array_destroy(&a);
  /* another dtype (so another data size) on rank 0 */
  write_npy("dtype.npy", 1, mt_rank == 0 && nranks > 1 ? "{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }"
                                                       : "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
            12, 1);
  rc = mn_array_load_npy(ctx, "dtype.npy", &a);
  if (nranks > 1) T_EXPECT(rc, MN_ERR_IO, "dtype differs between ranks", "int32 (3,)", "bool (3,)", "rank 1 sees");
  mn_array_destroy(&a);
  /* the same header, another file size (more data on the last rank) */
  write_npy("size.npy", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", last ? 9 : 3, 1);
  rc = mn_array_load_npy(ctx, "size.npy", &a);
  if (nranks > 1) T_EXPECT(rc, MN_ERR_IO, "size differs between ranks", "131 bytes in all", "137 bytes in all");
  mn_array_destroy(&a);
  /* a bad header on the last rank only: its error, on every rank */
  write_npy("bad.npy", 1, last ? "{'descr': '|b1', 'fortran_order': 0, 'shape': (3,), }"
                               : "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }",
            3, 1);
  T_EXPECT(mn_array_load_npy(ctx, "bad.npy", &a), MN_ERR_FORMAT, "bad header on one rank", "fortran_order 0");
  /* a file present on rank 0 only: FileNotFoundError everywhere, no hang */
  write_npy("only0.npy", 1, "{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", 3, 0);
  rc = mn_array_load_npy(ctx, "only0.npy", &a);
  if (nranks > 1) {
    T_EXPECT(rc, MN_ERR_IO, "file on rank 0 only", "only0.npy", "No such file");
    EXPECT_ERRNO(ENOENT, "file on rank 0 only");
    int rank = -2;
    mn_err_errno(NULL, &rank);
    T_CHECK(rank == 1, "file on rank 0 only: failing rank %d, expected 1", rank);
  }
  mn_array_destroy(&a);
  /* saving where only rank 0 has the directory */
  if (mt_rank == 0) mkdir("sub", 0777);
  MPI_Barrier(MPI_COMM_WORLD);
  int64_t s3[] = {3};
  T_OK(mn_array_create(ctx, MN_BOOL, 1, s3, 0, &a));
  if (a) {
    rc = mn_array_save_npy(a, "sub/x.npy");
    if (nranks > 1) {
      T_EXPECT(rc, MN_ERR_IO, "directory on rank 0 only", "sub/x.npy");
      EXPECT_ERRNO(ENOENT, "directory on rank 0 only");
      T_CHECK(mt_rank != 0 || access("sub/x.npy", F_OK), "a failed save left sub/x.npy");
    }
  }
  mn_array_destroy(&a);
  /* saving into per-rank directories: rank 0's temporary file is not seen
   * by the others, an error on every rank, and nothing left behind */
  T_OK(mn_array_create(ctx, MN_BOOL, 1, s3, 0, &a));
  if (a) {
    rc = mn_array_save_npy(a, "own.npy");
    if (nranks > 1) {
      T_EXPECT(rc, MN_ERR_IO, "save into per-rank directories", "rank 1 cannot open the temporary file",
                 "own.npy");
      int left = count_named(".", ".own.npy.mn-tmp-"); /* collective */
      T_CHECK(access("own.npy", F_OK) && left == 0, "a failed save left own.npy or its temporary file");
    }
  }
  mn_array_destroy(&a);
  T_CHECK(!chdir(cwd), "cannot return to %s", cwd);
  MPI_Barrier(MPI_COMM_WORLD);
}

/* ---- missing files, directories, permissions: errno kept ---- */
static void test_file_errors(mn_ctx *ctx) {
  char p[1200];
  mn_array *a = NULL;
  tmp_path(p, sizeof p, "no_such_file");
  T_EXPECT(mn_array_load_npy(ctx, p, &a), MN_ERR_IO, "missing file", p, "No such file");
  EXPECT_ERRNO(ENOENT, "missing file");
  tmp_path(p, sizeof p, "a_dir");
  if (mt_rank == 0) mkdir(p, 0777);
  MPI_Barrier(MPI_COMM_WORLD);
  T_EXPECT(mn_array_load_npy(ctx, p, &a), MN_ERR_IO, "directory", p, "Is a directory");
  EXPECT_ERRNO(EISDIR, "directory");
  int64_t s4[] = {4};
  T_OK(mn_array_create(ctx, MN_INT32, 1, s4, 0, &a));
  if (!a) return;
  mt_set(a, v_i32);
  T_EXPECT(mn_array_save_npy(a, p), MN_ERR_IO, "save onto a directory", p, "Is a directory");
  EXPECT_ERRNO(EISDIR, "save onto a directory");
  char q[1300];
  snprintf(q, sizeof q, "%s/no_such_dir/x.npy", p);
  T_EXPECT(mn_array_save_npy(a, q), MN_ERR_IO, "save into a missing directory", q, "No such file");
  EXPECT_ERRNO(ENOENT, "save into a missing directory");
  /* a read-only file is not replaced (as NumPy cannot open it); root may write anything */
  if (geteuid() != 0) {
    tmp_path(p, sizeof p, "readonly");
    T_OK(mn_array_save_npy(a, p));
    if (mt_rank == 0) chmod(p, 0444);
    MPI_Barrier(MPI_COMM_WORLD);
    T_EXPECT(mn_array_save_npy(a, p), MN_ERR_IO, "read-only target", p, "Permission denied");
    EXPECT_ERRNO(EACCES, "read-only target");
    if (mt_rank == 0) chmod(p, 0644);
  }
  check_array(a, MN_INT32, 1, s4, v_i32, "array after failed saves");
  mn_array_destroy(&a);
}

/* ---- saving replaces the target in one rename ---- */

/* Files in dir whose names start with prefix (rank 0 looks; all agree). */
static int count_named(const char *dir, const char *prefix) {
  int n = 0;
  if (mt_rank == 0) {
    DIR *d = opendir(dir);
    if (d) {
      for (struct dirent *e; (e = readdir(d));) n += !strncmp(e->d_name, prefix, strlen(prefix));
      closedir(d);
    }
  }
  MPI_Bcast(&n, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return n;
}

/* whole file on rank 0 (NULL elsewhere or when missing); *n bytes */
static unsigned char *slurp_fd(int fd, long *n) {
  *n = -1;
  if (fd < 0) return NULL;
  off_t size = lseek(fd, 0, SEEK_END);
  unsigned char *b = malloc((size_t)size + 1);
  if (b && pread(fd, b, (size_t)size, 0) == (ssize_t)size) *n = (long)size;
  return b;
}

static void test_atomic_save(mn_ctx *ctx) {
  char p[1200], dir[1200], prefix[128], link[1200];
  tmp_path(p, sizeof p, "atomic");
  snprintf(dir, sizeof dir, "%s", tmpdir);
  snprintf(prefix, sizeof prefix, ".%s_np%d_atomic.npy.mn-tmp-", prog, nranks);
  if (mt_rank == 0) unlink(p);
  MPI_Barrier(MPI_COMM_WORLD);
  int64_t sa[] = {6, 5}, sb[] = {9};
  mn_array *a = NULL, *b = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sa, 0, &a));
  T_OK(mn_array_create(ctx, MN_INT32, 1, sb, 0, &b));
  if (!a || !b) return;
  mt_set(a, v_f64);
  mt_set(b, v_i32);

  /* a save that fails after the data is written leaves no target and no
   * temporary file */
  setenv("MANIPLE_NPY_FAULT", "write", 1);
  T_EXPECT(mn_array_save_npy(a, p), MN_ERR_IO, "injected write failure", "injected", p);
  unsetenv("MANIPLE_NPY_FAULT");
  int absent = mt_rank != 0 || (access(p, F_OK) && errno == ENOENT);
  T_CHECK(absent, "a failed save left a file at %s", p);
  T_CHECK(count_named(dir, prefix) == 0, "a failed save left a temporary file %s* in %s", prefix, dir);

  /* an existing target: a reader holding the old file keeps reading it
   * (the new file is renamed over it, never written into it) */
  T_OK(mn_array_save_npy(a, p));
  int fd = mt_rank == 0 ? open(p, O_RDONLY) : -1;
  long n0 = 0, n1 = 0;
  unsigned char *before = slurp_fd(fd, &n0);
  if (mt_rank == 0) chmod(p, 0640);
  MPI_Barrier(MPI_COMM_WORLD);
  T_OK(mn_array_save_npy(b, p));
  unsigned char *held = slurp_fd(fd, &n1);
  if (mt_rank == 0) {
    T_CHECK(n0 > 0 && n1 == n0 && !memcmp(before, held, (size_t)n0),
            "the old file changed under a reader (%ld bytes, now %ld): saved in place, not renamed", n0, n1);
    struct stat st;
    T_CHECK(!stat(p, &st) && (st.st_mode & 0777) == 0640, "the replaced file's mode is %o, expected 640",
            (unsigned)(st.st_mode & 0777));
    close(fd);
  }
  free(before);
  free(held);
  mn_array *c = NULL;
  T_OK(mn_array_load_npy(ctx, p, &c));
  if (c) check_array(c, MN_INT32, 1, sb, v_i32, "the replacing file");
  mn_array_destroy(&c);
  check_header_bytes(ctx, p, "<i4", "(9,)", 9 * 4);

  /* a failed save over an existing file leaves it as it was */
  fd = mt_rank == 0 ? open(p, O_RDONLY) : -1;
  before = slurp_fd(fd, &n0);
  if (fd >= 0) close(fd);
  setenv("MANIPLE_NPY_FAULT", "write", 1);
  T_EXPECT(mn_array_save_npy(a, p), MN_ERR_IO, "injected write failure over a file", "injected");
  unsetenv("MANIPLE_NPY_FAULT");
  fd = mt_rank == 0 ? open(p, O_RDONLY) : -1;
  held = slurp_fd(fd, &n1);
  if (mt_rank == 0) {
    T_CHECK(n0 > 0 && n1 == n0 && !memcmp(before, held, (size_t)n0), "a failed save changed %s", p);
    close(fd);
  }
  free(before);
  free(held);
  T_CHECK(count_named(dir, prefix) == 0, "a failed save left a temporary file %s* in %s", prefix, dir);

  /* through a symbolic link: the file it points to is replaced, the link stays */
  snprintf(link, sizeof link, "%s/%s_np%d_atomic_link.npy", tmpdir, prog, nranks);
  if (mt_rank == 0) {
    unlink(link);
    T_CHECK(!symlink(p, link), "cannot make the link %s", link);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  T_OK(mn_array_save_npy(a, link));
  if (mt_rank == 0) {
    struct stat st;
    T_CHECK(!lstat(link, &st) && S_ISLNK(st.st_mode), "saving through %s replaced the link", link);
  }
  T_OK(mn_array_load_npy(ctx, p, &c));
  if (c) check_array(c, MN_FLOAT64, 2, sa, v_f64, "the file behind a link");
  mn_array_destroy(&c);
  mn_array_destroy(&a);
  mn_array_destroy(&b);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  nranks = mn_ctx_size(ctx);
  if (getenv("MANIPLE_NPY_CHUNK_BYTES")) prog = "t_npy_chunked";
  const char *td = getenv("MANIPLE_TEST_TMP");
  snprintf(tmpdir, sizeof tmpdir, "%s", td && *td ? td : ".");
  char p[1200];

  /* ---- Fortran order: t (5 x 7) written as its transpose, a (7, 5) file
   * in Fortran order, whose data are t's in C order ---- */
  {
    int64_t ts[2] = {5, 7};
    mn_array *t = NULL, *back = NULL, *raw = NULL;
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, ts, 0, &t));
    mt_set(t, v_f64);
    tmp_path(p, sizeof p, "fortran");
    T_OK(mn_array_save_npy_fortran(t, p));
    check_header_bytes_order(ctx, p, "<f8", "(7, 5)", 35 * 8, 1);
    T_OK(mn_array_load_npy(ctx, p, &back)); /* NumPy's values: back[i][j] = t[j][i] */
    double *b = mt_all(back), *r = NULL;
    T_CHECK(mn_array_ndim(back) == 2 && mn_array_shape(back)[0] == 7 && mn_array_shape(back)[1] == 5,
            "fortran file loaded with the wrong shape");
    for (int64_t i = 0; i < 7; i++)
      for (int64_t j = 0; j < 5; j++)
        if (b[i * 5 + j] != v_f64(j * 7 + i)) { T_CHECK(0, "fortran [%lld][%lld] = %g", (long long)i, (long long)j, b[i * 5 + j]); i = 7; break; }
    int fortran = 0;
    T_OK(mn_array_load_npy_fortran(ctx, p, &raw, &fortran)); /* as stored: t itself */
    T_CHECK(fortran == 1 && mn_array_shape(raw)[0] == 5, "load_npy_fortran: fortran %d", fortran);
    r = mt_all(raw);
    for (int64_t k = 0; k < 35; k++)
      if (r[k] != v_f64(k)) { T_CHECK(0, "load_npy_fortran [%lld] = %g", (long long)k, r[k]); break; }
    free(b); free(r);
    mn_array_destroy(&raw); mn_array_destroy(&back); mn_array_destroy(&t);
    if (mn_ctx_rank(ctx) == 0) remove(p);
  }

  /* ---- every dtype at every rank of shape ---- */
  struct { int nd; int64_t shape[3]; const char *name; const char *hdr; } shapes[] = {
    {1, {17}, "1d", "(17,)"},
    {2, {7, 5}, "2d", "(7, 5)"},
    {3, {4, 3, 5}, "3d", "(4, 3, 5)"},
    {0, {0}, "0d", "()"},
    {1, {0}, "empty1d", "(0,)"},
    {2, {3, 0}, "empty2d", "(3, 0)"},
  };
  static const char *const descr[MN_NDTYPE] = {"|b1", "<i4", "<i8", "<f4", "<f8", "|i1", "<i2",
                                               "|u1", "<u2", "<u4", "<u8", "<f2", "<c8", "<c16"};
  for (int t = 0; t < MN_NDTYPE; t++)
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
      mn_array *a = NULL;
      T_OK(mn_array_create(ctx, (mn_dtype)t, shapes[s].nd, shapes[s].shape, 0, &a));
      if (!a) continue;
      mt_set(a, formula[t]);
      char stem[64], what[96];
      snprintf(stem, sizeof stem, "%s_%s", tname[t], shapes[s].name);
      snprintf(what, sizeof what, "round trip %s %s", mn_dtype_name((mn_dtype)t), shapes[s].hdr);
      tmp_path(p, sizeof p, stem);
      round_trip(ctx, a, p, formula[t], what);
      check_header_bytes(ctx, p, descr[t], shapes[s].hdr, mn_array_size(a) * (int64_t)mn_dtype_size((mn_dtype)t));
      /* the saved array itself is unchanged */
      check_array(a, (mn_dtype)t, shapes[s].nd, shapes[s].shape, formula[t], what);
      mn_array_destroy(&a);
    }

  /* ---- arrays with halos and on a root layout save as their values ---- */
  {
    int64_t sh[] = {9, 8};
    mn_array *a = NULL;
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, sh, 1, &a));
    if (a) {
      mt_set(a, v_f64);
      T_OK(mn_array_halo_exchange(a));
      tmp_path(p, sizeof p, "halo");
      round_trip(ctx, a, p, v_f64, "haloed array");
      mn_array_destroy(&a);
    }
    mn_layout *lay = NULL;
    T_OK(mn_layout_create_root(ctx, 2, sh, nranks - 1, &lay));
    if (lay) {
      T_OK(mn_array_create_on(lay, MN_INT64, 0, &a));
      mn_layout_destroy(&lay);
      if (a) {
        mt_set(a, v_i64);
        tmp_path(p, sizeof p, "root");
        round_trip(ctx, a, p, v_i64, "root-layout array");
        mn_array_destroy(&a);
      }
    }
  }

  /* ---- overwriting a longer file leaves exactly the new file ---- */
  {
    int64_t big[] = {40, 30}, small[] = {6};
    mn_array *a = NULL;
    tmp_path(p, sizeof p, "overwrite");
    T_OK(mn_array_create(ctx, MN_FLOAT64, 2, big, 0, &a));
    if (a) { mt_set(a, v_f64); T_OK(mn_array_save_npy(a, p)); mn_array_destroy(&a); }
    T_OK(mn_array_create(ctx, MN_BOOL, 1, small, 0, &a));
    if (a) {
      mt_set(a, v_bool);
      round_trip(ctx, a, p, v_bool, "overwritten file");
      check_header_bytes(ctx, p, "|b1", "(6,)", 6);
      mn_array_destroy(&a);
    }
  }

  test_views(ctx);
  test_header_cases(ctx);
  test_per_rank_files(ctx);
  test_file_errors(ctx);
  test_atomic_save(ctx);
  if (argc > 1) test_numpy_dir(ctx, argv[1]);
  return mt_finish(&ctx);
}
