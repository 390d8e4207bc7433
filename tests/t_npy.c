/* .npy round trips: every dtype at 0-d, 1-d (17), 2-d (7x5) and 3-d (4x3x5)
 * (plus zero-size shapes) written with mn_array_save_npy and read back with
 * mn_array_load_npy; views, haloed and root-layout arrays save as their
 * values; overwriting a longer file leaves the right size; the header bytes
 * are the ones NumPy writes.
 *
 * With an argument DIR (see npy_check.py and npy_numpy.sh), it also loads
 * the reference files NumPy wrote there, checks them against the same
 * formulas, checks that the Fortran-order and big-endian ones are refused,
 * and writes its own out_*.npy files there for NumPy to read back. */
#include "mn_test.h"

/* Value formulas shared with npy_check.py: v(k) for flat C-order index k.
 * All are exact in their dtype and in float64. */
static double v_bool(int64_t k) { return k % 3 == 0 ? 1.0 : 0.0; }
static double v_i32(int64_t k) { return (double)(3 * k - 7); }
static double v_i64(int64_t k) { return (double)(3000000000LL * k - 7); }
static double v_f32(int64_t k) { return (double)k * 0.25 - 2.0; }
static double v_f64(int64_t k) { return (double)k * 0.5 - 3.0; }

static double (*const formula[MN_NDTYPE])(int64_t) = {v_bool, v_i32, v_i64, v_f32, v_f64};
static const char *const tname[MN_NDTYPE] = {"bool", "i32", "i64", "f32", "f64"};

static char tmpdir[512];
static int nranks;

static void path_in(char *buf, size_t n, const char *dir, const char *name) {
  snprintf(buf, n, "%s/%s", dir, name);
}

/* A path in MN_TEST_TMP that is unique to this test and rank count. */
static void tmp_path(char *buf, size_t n, const char *stem) {
  char name[128];
  snprintf(name, sizeof name, "t_npy_np%d_%s.npy", nranks, stem);
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
static void check_header_bytes(mn_ctx *ctx, const char *path, const char *descr, const char *shape, int64_t nbytes) {
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
    T_CHECK(strstr(hdr, "'fortran_order': False"), "%s: header lacks fortran_order False: %s", path, hdr);
    snprintf(want, sizeof want, "'shape': %s", shape);
    T_CHECK(strstr(hdr, want), "%s: header lacks %s: %s", path, want, hdr);
  }
  fseek(fp, 0, SEEK_END);
  long size = ftell(fp);
  T_CHECK(size == (long)(10 + hl) + nbytes, "%s: %ld bytes, expected %lld", path, size, (long long)(10 + hl + nbytes));
  fclose(fp);
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
    {"ref_fortran.npy", MN_ERR_FORMAT, "Fortran"},
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

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  nranks = mn_ctx_size(ctx);
  const char *td = getenv("MN_TEST_TMP");
  snprintf(tmpdir, sizeof tmpdir, "%s", td && *td ? td : ".");
  char p[1200];

  /* ---- every dtype at every rank of shape ---- */
  struct { int nd; int64_t shape[3]; const char *name; const char *hdr; } shapes[] = {
    {1, {17}, "1d", "(17,)"},
    {2, {7, 5}, "2d", "(7, 5)"},
    {3, {4, 3, 5}, "3d", "(4, 3, 5)"},
    {0, {0}, "0d", "()"},
    {1, {0}, "empty1d", "(0,)"},
    {2, {3, 0}, "empty2d", "(3, 0)"},
  };
  static const char *const descr[MN_NDTYPE] = {"|b1", "<i4", "<i8", "<f4", "<f8"};
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
  if (argc > 1) test_numpy_dir(ctx, argv[1]);
  return mt_finish(&ctx);
}
