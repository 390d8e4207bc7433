/* Matrix Market files: round trips (real, integer, pattern; general and
 * symmetric; read in parallel and by rank 0) against the matrix written;
 * files as SciPy reads them (entries on either side of the diagonal of a
 * symmetric file, comments of any length) against hand-computed matrices;
 * malformed files rejected with the file and line on every rank; sizes
 * that overflow or cannot fit refused before anything is allocated; paths
 * missing on some ranks, or directories, refused on every rank with their
 * errno. */
#define _POSIX_C_SOURCE 200809L /* getrlimit, mkdir */
#include "mn_test.h"
#include <errno.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>
#if defined(__SANITIZE_ADDRESS__)
#define MT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MT_ASAN 1
#endif
#endif

static void dense_of(const mn_csr *A, int64_t m, int64_t n, double *d) {
  int64_t *rp = NULL, *c = NULL, r0, nl, z;
  void *v = NULL;
  T_OK(mn_csr_get_rows(A, &rp, &c, &v));
  mn_csr_local_rows(A, &r0, &nl, &z);
  double *mine = calloc((size_t)(m * n + 1), sizeof(double));
  for (int64_t i = 0; rp && i < nl; i++)
    for (int64_t k = rp[i]; k < rp[i + 1]; k++) mine[(r0 + i) * n + c[k]] = ((double *)v)[k];
  MPI_Allreduce(mine, d, (int)(m * n), MPI_DOUBLE, MPI_SUM, mn_ctx_comm(mn_csr_ctx(A)));
  free(mine); mn_free(rp); mn_free(c); mn_free(v);
}

/* names unique to this program and rank count: ctest runs it at 1-4 ranks at once */
static const char *tmp(const char *name) {
  static char buf[512];
  return mt_tmp_path(buf, sizeof buf, "t_mtx", name);
}

/* rank 0 writes a file; everyone waits */
static void put_file(mn_ctx *ctx, const char *path, const char *text) {
  if (mn_ctx_rank(ctx) == 0) {
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
  }
  MPI_Barrier(mn_ctx_comm(ctx));
}

/* Reading text fails with code on every rank, in both modes, the message
 * holding msg (and msg2 when given); failures name the caller's line. */
static void expect_code_(const char *file, int line, mn_ctx *ctx, const char *text, mn_dtype t, int code,
                         const char *msg, const char *msg2) {
  char path[512], what[64];
  snprintf(path, sizeof path, "%s", tmp("bad.mtx"));
  put_file(ctx, path, text);
  for (int par = 0; par < 2; par++) {
    mn_csr *A = NULL;
    snprintf(what, sizeof what, "reading (parallel %d)", par);
    mt_expect_(file, line, mn_csr_read_mtx(ctx, path, t, par, &A), code, what, msg, msg2, (const char *)NULL);
    T_CHECK_AT(file, line, A == NULL, "'%s' (parallel %d): a matrix was returned", msg, par);
    mn_csr_destroy(&A);
  }
}
#define expect_code(...) expect_code_(__FILE__, __LINE__, __VA_ARGS__)
#define expect_error(ctx, text, msg) \
  expect_code_(__FILE__, __LINE__, (ctx), (text), MN_FLOAT64, MN_ERR_FORMAT, (msg), NULL)

/* Reading text gives the m x n matrix want (row-major), in both modes. */
static void expect_matrix(mn_ctx *ctx, const char *what, const char *text, mn_dtype t, int64_t m, int64_t n,
                          const double *want) {
  char path[512];
  snprintf(path, sizeof path, "%s", tmp("good.mtx"));
  put_file(ctx, path, text);
  double *got = calloc((size_t)(m * n), sizeof(double));
  for (int par = 0; par < 2; par++) {
    mn_csr *A = NULL;
    T_OK(mn_csr_read_mtx(ctx, path, t, par, &A));
    if (!A) continue;
    int64_t mm, nn;
    mn_csr_shape(A, &mm, &nn);
    T_CHECK(mm == m && nn == n, "%s: shape %lld x %lld, expected %lld x %lld", what, (long long)mm, (long long)nn,
            (long long)m, (long long)n);
    if (mm == m && nn == n && t == MN_FLOAT64) {
      dense_of(A, m, n, got);
      for (int64_t q = 0; q < m * n; q++)
        T_CHECK(got[q] == want[q] || (got[q] != got[q] && want[q] != want[q]), "%s (parallel %d): [%lld, %lld] = %g, "
                "expected %g", what, par, (long long)(q / n), (long long)(q % n), got[q], want[q]);
    }
    mn_csr_destroy(&A);
  }
  free(got);
}

/* Reading (ops & 1, both modes) or writing (ops & 2) path fails with
 * MN_ERR_IO and errno e on every rank, naming path when same_path. */
static void expect_io(mn_ctx *ctx, const mn_csr *A, const char *path, int e, int ops, int same_path, const char *what) {
  for (int par = 0; par < 3; par++) {
    if (!(ops & (par < 2 ? 1 : 2))) continue;
    mn_csr *B = NULL;
    int rc = par < 2 ? mn_csr_read_mtx(ctx, path, MN_FLOAT64, par, &B) : mn_csr_write_mtx(A, path, "real", 0);
    const char *p = NULL;
    int got = rc == MN_ERR_IO ? mn_err_errno(&p, NULL) : 0;
    T_CHECK(rc == MN_ERR_IO && got == e, "%s (%s): returned %s, errno %d (%s), expected MN_ERR_IO, errno %d (%s): %s",
            what, par < 2 ? "read" : "write", mn_err_name(rc), got, strerror(got), e, strerror(e), mn_ctx_errmsg(ctx));
    T_CHECK(rc != MN_ERR_IO || !same_path || (p && strcmp(p, path) == 0), "%s: the error names '%s', not '%s'", what,
            p ? p : "", path);
    mn_csr_destroy(&B);
  }
}

/* Sizes at the edge of int64 (read from a file): splits without overflow. */
static void test_split_edges(void) {
  const int64_t big = INT64_MAX;
  T_CHECK(mn_split_owner(big, 1, big - 1) == 0, "owner of the last of INT64_MAX items at 1 part");
  T_CHECK(mn_split_owner(big, 1, 0) == 0, "owner of the first of INT64_MAX items at 1 part");
  /* INT64_MAX = 2 q + 1 with q = 4611686018427387903: part 0 holds q + 1 */
  T_CHECK(mn_split_owner(big, 2, 4611686018427387903LL) == 0, "owner of item q at 2 parts: %d",
          mn_split_owner(big, 2, 4611686018427387903LL));
  T_CHECK(mn_split_owner(big, 2, 4611686018427387904LL) == 1, "owner of item q + 1 at 2 parts: %d",
          mn_split_owner(big, 2, 4611686018427387904LL));
  T_CHECK(mn_split_owner(big, 3, big - 1) == 2, "owner of the last item at 3 parts");
  T_CHECK(mn_split_start(big, 3, 3) == big, "end of the last part at 3 parts");
  T_CHECK(mn_split_size(big, 1, 0) == big, "one part of INT64_MAX");
}

#ifndef MT_ASAN
/* This process's address space in use (bytes), from /proc/self/statm. */
static long long mapped_now(void) {
  FILE *f = fopen("/proc/self/statm", "r");
  long long pages = 0;
  if (f) {
    if (fscanf(f, "%lld", &pages) != 1) pages = 0;
    fclose(f);
  }
  return pages * sysconf(_SC_PAGESIZE);
}
#endif

/* Files as SciPy reads them (scipy.io.mmread gives these matrices), and
 * values it reads wrongly, refused with the file and line. */
static void test_parsing(mn_ctx *ctx) {
  const char *G = "%%MatrixMarket matrix coordinate real general\n";
  char text[16384], c[3000];
  /* comment lines of any length: before the size line and among the entries */
  memset(c, 'c', sizeof c);
  c[0] = '%';
  c[sizeof c - 2] = '\n';
  c[sizeof c - 1] = 0;
  snprintf(text, sizeof text, "%s%s%s2 2 2\n%s1 1 3\n%s2 1 -4.5\n", G, c, c, c, c);
  const double w_long[] = {3, 0, -4.5, 0};
  expect_matrix(ctx, "comments of 2999 characters", text, MN_FLOAT64, 2, 2, w_long);
  /* symmetric: an entry on either side stands for itself and its mirror */
  const double w_sym[] = {1, 2, 0, 2, 0, 5, 0, 5, 0};
  expect_matrix(ctx, "symmetric, upper entry", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n1 2 2\n3 2 5\n",
                MN_FLOAT64, 3, 3, w_sym);
  const double w_both[] = {0, 7, 0, 7, 0, 0, 0, 0, 1}; /* (2,1) and (1,2) both given: summed */
  expect_matrix(ctx, "symmetric, both sides", "%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n2 1 2\n1 2 5\n3 3 1\n",
                MN_FLOAT64, 3, 3, w_both);
  const double w_skew[] = {0, 2, 0, -2, 0, -5, 0, 5, 0};
  expect_matrix(ctx, "skew-symmetric, upper entry", "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n1 2 2\n3 2 5\n",
                MN_FLOAT64, 3, 3, w_skew);
  const double w_skewd[] = {2, 0, 0, 0, 0, -5, 0, 5, 0}; /* a diagonal entry stands once */
  expect_matrix(ctx, "skew-symmetric, diagonal entry",
                "%%MatrixMarket matrix coordinate real skew-symmetric\n3 3 2\n1 1 2\n3 2 5\n", MN_FLOAT64, 3, 3, w_skewd);
  const double w_pat[] = {1, 1, 0, 1, 0, 1, 0, 1, 0};
  expect_matrix(ctx, "pattern symmetric", "%%MatrixMarket matrix coordinate pattern symmetric\n3 3 3\n1 1\n1 2\n3 2\n",
                MN_FLOAT64, 3, 3, w_pat);
  const double w_pskew[] = {0, -1, 0, 1, 0, 0, 0, 0, 0};
  expect_matrix(ctx, "pattern skew-symmetric", "%%MatrixMarket matrix coordinate pattern skew-symmetric\n3 3 1\n2 1\n",
                MN_FLOAT64, 3, 3, w_pskew);
  const double w_herm[] = {0, 3, 3, 0};
  expect_matrix(ctx, "real hermitian", "%%MatrixMarket matrix coordinate real hermitian\n2 2 1\n2 1 3\n", MN_FLOAT64, 2,
                2, w_herm);
  /* not square: read while the mirrors fit */
  const double w_rect[] = {0, 1, 1, 0, 0, 0};
  expect_matrix(ctx, "symmetric, 3 x 2", "%%MatrixMarket matrix coordinate real symmetric\n3 2 1\n2 1 1\n", MN_FLOAT64,
                3, 2, w_rect);
  expect_error(ctx, "%%MatrixMarket matrix coordinate real symmetric\n3 2 1\n3 1 1\n",
               "bad.mtx:3: entry (3, 1) of a symmetric file mirrors to (1, 3), outside the 3 x 2 matrix");
  /* inf and nan spelt out; 1e-999 rounds to 0 */
  const double w_inf[] = {INFINITY, 0, 0, NAN};
  snprintf(text, sizeof text, "%s2 2 3\n1 1 inf\n2 2 nan\n1 2 1e-999\n", G);
  expect_matrix(ctx, "inf, nan, underflow", text, MN_FLOAT64, 2, 2, w_inf);
  /* values SciPy reads as inf or 0 */
  snprintf(text, sizeof text, "%s2 2 1\n1 1 1e999\n", G);
  expect_error(ctx, text, "bad.mtx:3: value '1e999' is out of range for float64");
  snprintf(text, sizeof text, "%s2 2 2\n1 1 1\n2 2 -1e999\n", G);
  expect_error(ctx, text, "bad.mtx:4: value '-1e999' is out of range for float64");
  snprintf(text, sizeof text, "%s2 2 1\n1 1 1e39\n", G);
  expect_code(ctx, text, MN_FLOAT32, MN_ERR_FORMAT, "bad.mtx:3: value '1e39' is out of range for float32", NULL);
  snprintf(text, sizeof text, "%s2 2 1\n1 1 0x1p3\n", G);
  expect_error(ctx, text, "bad.mtx:3: hexadecimal value '0x1p3'");
  snprintf(text, sizeof text, "%s2 2 2\n1 1 1\n2 2 -0X1P3\n", G);
  expect_error(ctx, text, "bad.mtx:4: hexadecimal value '-0X1P3'");
  expect_error(ctx, "%%MatrixMarket matrix coordinate integer general\n2 2 1\n1 1 99999999999999999999\n",
               "bad.mtx:3: integer value '99999999999999999999' is out of range");
  snprintf(text, sizeof text, "%s2 2 1\n1 99999999999999999999 1\n", G);
  expect_error(ctx, text, "bad.mtx:3: column index 99999999999999999999 is out of range");
}

/* Sizes from the size line: counts beyond int64, row tables that overflow,
 * and matrices that cannot fit are refused before anything is allocated,
 * naming the file, the size and the bytes. */
static void test_sizes(mn_ctx *ctx) {
  const char *G = "%%MatrixMarket matrix coordinate real general\n";
  char text[512];
  test_split_edges();
  snprintf(text, sizeof text, "%s99999999999999999999 2 1\n1 1 1\n", G);
  expect_error(ctx, text, "bad.mtx:2: the row count 99999999999999999999 is out of range");
  /* 2^63 - 1 rows: their row pointers number 2^63 (one rank) or take more
   * than 2^63 bytes (more ranks) */
  snprintf(text, sizeof text, "%s9223372036854775807 9223372036854775807 1\n1 1 1\n", G);
  expect_code(ctx, text, MN_FLOAT64, MN_ERR_FORMAT,
              "bad.mtx:2: the size line declares 9223372036854775807 rows: rank 0's row", "overflows int64");
  /* 2^56 rows: no machine holds their row pointers (2^56 x 24 bytes / P) */
  snprintf(text, sizeof text, "%s72057594037927936 72057594037927936 1\n1 1 1\n", G);
  expect_code(ctx, text, MN_FLOAT64, MN_ERR_MEM, "bad.mtx:2: reading a 72057594037927936 x 72057594037927936 matrix of 1 "
              "entries", " bytes");
  /* more columns than 32-bit local numbers reach */
  snprintf(text, sizeof text, "%s1 9223372036854775807 1\n1 1 1\n", G);
  expect_code(ctx, text, MN_FLOAT64, MN_ERR_NOTIMPL, "bad.mtx:2: the size line declares 9223372036854775807 columns",
              NULL);
  /* an entry count beyond what the file holds is not taken at its word */
  snprintf(text, sizeof text, "%%%%MatrixMarket matrix coordinate real symmetric\n2 2 9223372036854775807\n1 1 1\n");
  expect_error(ctx, text, "bad.mtx:2: the size line announces 9223372036854775807 entries, the file holds 1");
  /* the same refusal through the C API */
  mn_csr *B = NULL;
  int64_t z = 0;
  double one = 1;
  int rc = mn_csr_create_coo(ctx, INT64_MAX, 4, MN_FLOAT64, 1, MN_INT64, &z, &z, &one, &B);
  T_CHECK(rc == MN_ERR_SHAPE && strstr(mn_ctx_errmsg(ctx), "9223372036854775807 rows"), "create_coo with INT64_MAX rows: "
          "%s: %s", mn_err_name(rc), mn_ctx_errmsg(ctx));
  mn_csr_destroy(&B);
  rc = mn_csr_create_coo(ctx, (int64_t)1 << 56, 4, MN_FLOAT64, 1, MN_INT64, &z, &z, &one, &B);
  T_CHECK(rc == MN_ERR_MEM && strstr(mn_ctx_errmsg(ctx), "bytes"), "create_coo with 2^56 rows: %s: %s", mn_err_name(rc),
          mn_ctx_errmsg(ctx));
  mn_csr_destroy(&B);
#ifndef MT_ASAN /* ASan's shadow memory needs more address space than a limit leaves */
  /* 3e9 rows and one entry (item 13 of issue 14): 72e9 / P bytes of row
   * tables, refused under an address-space limit of what is mapped + 1 GiB
   * (the limit keeps this test from exhausting the machine if it fails) */
  struct rlimit old;
  if (!getrlimit(RLIMIT_AS, &old)) {
    struct rlimit lim = old;
    lim.rlim_cur = (rlim_t)(mapped_now() + (1LL << 30));
    if (old.rlim_cur == RLIM_INFINITY || lim.rlim_cur < old.rlim_cur) setrlimit(RLIMIT_AS, &lim);
    snprintf(text, sizeof text, "%s3000000000 3000000000 1\n1 1 1\n", G);
    expect_code(ctx, text, MN_FLOAT64, MN_ERR_MEM, "bad.mtx:2: reading a 3000000000 x 3000000000 matrix of 1 entries",
                "ulimit -v");
    setrlimit(RLIMIT_AS, &old);
  }
#endif
}

/* Paths missing on some ranks, missing everywhere, or directories: MN_ERR_IO
 * with the errno on every rank, reading and writing, never a hang. */
static void test_paths(mn_ctx *ctx, const mn_csr *A) {
  int me = mn_ctx_rank(ctx), P = mn_ctx_size(ctx);
  char path[512], name[64];
  snprintf(path, sizeof path, "%s", tmp("none.mtx"));
  expect_io(ctx, A, path, ENOENT, 1, 1, "a missing file");
  snprintf(path, sizeof path, "%s", tmp("no_such_dir/x.mtx"));
  expect_io(ctx, A, path, ENOENT, 3, 1, "a missing directory");
  snprintf(path, sizeof path, "%s", tmp("dir.mtx"));
  if (me == 0) mkdir(path, 0755);
  MPI_Barrier(mn_ctx_comm(ctx));
  expect_io(ctx, A, path, EISDIR, 3, 1, "a directory");
  /* rank-dependent names: only rank 0's file, or directory, exists */
  if (P == 1) return;
  snprintf(name, sizeof name, "rank%d.mtx", me);
  snprintf(path, sizeof path, "%s", tmp(name));
  if (me == 0) {
    FILE *f = fopen(path, "w");
    if (f) { fputs("%%MatrixMarket matrix coordinate real general\n1 1 1\n1 1 1\n", f); fclose(f); }
  }
  MPI_Barrier(mn_ctx_comm(ctx));
  expect_io(ctx, A, path, ENOENT, 1, 0, "a file only rank 0 has");
  snprintf(name, sizeof name, "rdir%d", me);
  snprintf(path, sizeof path, "%s", tmp(name));
  if (me == 0) mkdir(path, 0755);
  MPI_Barrier(mn_ctx_comm(ctx));
  strncat(path, "/x.mtx", sizeof path - strlen(path) - 1);
  expect_io(ctx, A, path, ENOENT, 2, 0, "a directory only rank 0 has");
}

/* Complex files: a hermitian one read whole (its mirrors conjugated), a
 * complex matrix written and read back exactly, a complex file refused as
 * float64 and a complex matrix refused as the field 'real'. */
static void test_complex(mn_ctx *ctx) {
  char path[512];
  snprintf(path, sizeof path, "%s", tmp("herm.mtx"));
  put_file(ctx, path, "%%MatrixMarket matrix coordinate complex hermitian\n3 3 4\n1 1 2 0\n2 1 1.5 -2\n3 2 0 4\n"
                      "3 3 -1 0\n");
  /* the file's entries and their conjugate mirrors, row-major (re, im) */
  const double want[18] = {2, 0, 1.5, 2, 0, 0, 1.5, -2, 0, 0, 0, -4, 0, 0, 0, 4, -1, 0};
  for (int par = 0; par < 2; par++) {
    mn_csr *H = NULL;
    T_OK(mn_csr_read_mtx(ctx, path, MN_NDTYPE, par, &H));
    if (!H) continue;
    T_CHECK(mn_csr_dtype(H) == MN_COMPLEX128, "a complex file read as %s", mn_dtype_name(mn_csr_dtype(H)));
    int64_t *rp = NULL, *c = NULL, r0, nl, nz;
    void *v = NULL;
    double mine[18] = {0}, got[18];
    T_OK(mn_csr_get_rows(H, &rp, &c, &v));
    mn_csr_local_rows(H, &r0, &nl, &nz);
    for (int64_t i = 0; rp && i < nl; i++)
      for (int64_t k = rp[i]; k < rp[i + 1]; k++) {
        mine[2 * ((r0 + i) * 3 + c[k])] = ((double *)v)[2 * k];
        mine[2 * ((r0 + i) * 3 + c[k]) + 1] = ((double *)v)[2 * k + 1];
      }
    MPI_Allreduce(mine, got, 18, MPI_DOUBLE, MPI_SUM, mn_ctx_comm(ctx));
    for (int q = 0; q < 18; q++) T_CHECK(got[q] == want[q], "hermitian (parallel %d) [%d] = %g, want %g", par, q, got[q], want[q]);
    T_CHECK(mn_csr_nnz(H) == 6, "hermitian: %lld entries, want 6", (long long)mn_csr_nnz(H));
    /* written as complex and read back (as complex64 too) */
    T_OK(mn_csr_write_mtx(H, tmp("c.mtx"), "complex", 0));
    for (int f = 0; f < 2; f++) {
      mn_csr *R = NULL;
      T_OK(mn_csr_read_mtx(ctx, tmp("c.mtx"), f ? MN_COMPLEX64 : MN_NDTYPE, par, &R));
      int64_t *rp2 = NULL, *c2 = NULL;
      void *v2 = NULL;
      if (R) T_OK(mn_csr_get_rows(R, &rp2, &c2, &v2));
      for (int64_t k = 0; rp2 && rp && k < nz; k++) {
        double re = f ? ((float *)v2)[2 * k] : ((double *)v2)[2 * k], im = f ? ((float *)v2)[2 * k + 1] : ((double *)v2)[2 * k + 1];
        T_CHECK(c2[k] == c[k] && re == ((double *)v)[2 * k] && im == ((double *)v)[2 * k + 1],
                "complex round trip entry %lld: (%g, %g)", (long long)k, re, im);
      }
      mn_free(rp2); mn_free(c2); mn_free(v2);
      mn_csr_destroy(&R);
    }
    T_EXPECT(mn_csr_write_mtx(H, tmp("c.mtx"), "real", 0), MN_ERR_DTYPE, "a complex matrix as 'real'", "complex");
    mn_free(rp); mn_free(c); mn_free(v);
    mn_csr_destroy(&H);
  }
  expect_code(ctx, "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n", MN_FLOAT64, MN_ERR_DTYPE,
              "holds complex values", "float64");
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int64_t m = 13, n = 11;
  /* a general matrix with integer values (exact in every field) */
  int64_t r[40], c[40];
  double v[40];
  int k = 0;
  for (int q = 0; q < 40; q++) {
    int64_t i = (q * 7) % m, j = (q * 5 + 3) % n;
    int dup = 0;
    for (int p = 0; p < k; p++) dup |= r[p] == i && c[p] == j;
    if (dup) continue;
    r[k] = i; c[k] = j; v[k] = (double)(q % 9) - 4 + (q % 9 == 4 ? 0.5 : 0);
    k++;
  }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_coo(ctx, m, n, MN_FLOAT64, mn_ctx_rank(ctx) == 0 ? k : 0, MN_INT64, r, c, v, &A));
  double *want = calloc((size_t)(m * n), sizeof(double)), *got = calloc((size_t)(m * n), sizeof(double));
  dense_of(A, m, n, want);
  for (int par = 0; par < 2; par++) {
    T_OK(mn_csr_write_mtx(A, tmp("a.mtx"), "real", 0));
    mn_csr *B = NULL;
    T_OK(mn_csr_read_mtx(ctx, tmp("a.mtx"), MN_FLOAT64, par, &B));
    if (B) {
      dense_of(B, m, n, got);
      for (int64_t q = 0; q < m * n; q++) T_CHECK(got[q] == want[q], "real round trip [%lld] = %g, wrote %g", (long long)q, got[q], want[q]);
      T_CHECK(mn_csr_nnz(B) == mn_csr_nnz(A), "nnz %lld read, %lld written", (long long)mn_csr_nnz(B), (long long)mn_csr_nnz(A));
    }
    mn_csr_destroy(&B);
    /* pattern: ones where A stores an entry */
    T_OK(mn_csr_write_mtx(A, tmp("p.mtx"), "pattern", 0));
    T_OK(mn_csr_read_mtx(ctx, tmp("p.mtx"), MN_FLOAT32, par, &B));
    if (B) {
      int64_t *rp, *cc, r0, nl, z;
      void *vv;
      T_OK(mn_csr_get_rows(B, &rp, &cc, &vv));
      mn_csr_local_rows(B, &r0, &nl, &z);
      for (int64_t q = 0; q < z; q++) T_CHECK(((float *)vv)[q] == 1.0f, "pattern value %g", (double)((float *)vv)[q]);
      T_CHECK(mn_csr_nnz(B) == mn_csr_nnz(A), "pattern nnz");
      mn_free(rp); mn_free(cc); mn_free(vv);
    }
    mn_csr_destroy(&B);
  }
  /* integer field: a value that is not an integer is refused */
  int rc = mn_csr_write_mtx(A, tmp("i.mtx"), "integer", 0);
  T_CHECK(rc == MN_ERR_ARG && strstr(mn_ctx_errmsg(ctx), "not an integer"), "integer field with 0.5: %s", mn_err_name(rc));
  /* symmetric: S = A^T A written as its lower triangle, read back whole */
  mn_csr *T = NULL, *S = NULL, *R = NULL;
  T_OK(mn_csr_transpose(A, &T));
  T_OK(mn_csr_matmul(T, A, &S));
  double *ws = calloc((size_t)(n * n), sizeof(double)), *gs = calloc((size_t)(n * n), sizeof(double));
  if (S) {
    dense_of(S, n, n, ws);
    T_OK(mn_csr_write_mtx(S, tmp("s.mtx"), "real", 1));
    T_OK(mn_csr_read_mtx(ctx, tmp("s.mtx"), MN_FLOAT64, 1, &R));
    if (R) {
      dense_of(R, n, n, gs);
      for (int64_t q = 0; q < n * n; q++) T_CHECK(gs[q] == ws[q], "symmetric round trip [%lld] = %g, wrote %g", (long long)q, gs[q], ws[q]);
    }
    rc = mn_csr_write_mtx(A, tmp("x.mtx"), "real", 1);
    T_CHECK(rc == MN_ERR_SHAPE, "a 13 x 11 matrix written as symmetric returned %s", mn_err_name(rc));
  }
  /* malformed files: each error names the file and the line */
  expect_error(ctx, "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", "bad.mtx:1: only the 'coordinate'");
  expect_error(ctx, "%%MatrixMarket matrix coordinate quaternion general\n2 2 1\n1 1 1 0 0 0\n", "bad.mtx:1: the field");
  expect_error(ctx, "%%MatrixMarket matrix coordinate real general\n% c\n2 2 3\n1 1 1.0\n2 2 2.0\n", "bad.mtx:3: the size line announces 3 entries, the file holds 2");
  expect_error(ctx, "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n4 2 2.0\n3 3 1\n", "bad.mtx:4: row index 4 is out of range 1..3");
  expect_error(ctx, "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 2 2.0\n3 3 abc\n", "bad.mtx:5: non-numeric value");
  expect_error(ctx, "not a matrix market file\n", "bad.mtx:1: expected '%MatrixMarket");
  test_parsing(ctx);
  test_complex(ctx);
  test_sizes(ctx);
  test_paths(ctx, A);
  free(want); free(got); free(ws); free(gs);
  mn_csr_destroy(&A); mn_csr_destroy(&T); mn_csr_destroy(&S); mn_csr_destroy(&R);
  return mt_finish(&ctx);
}
