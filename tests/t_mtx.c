/* Matrix Market files: round trips (real, integer, pattern; general and
 * symmetric; read in parallel and by rank 0) against the matrix written,
 * and malformed files rejected with the file and line on every rank. */
#include "mn_test.h"

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

static const char *tmp(const char *name) {
  static char buf[512];
  const char *d = getenv("MN_TEST_TMP");
  snprintf(buf, sizeof buf, "%s/%s", d ? d : ".", name);
  return buf;
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

static void expect_error(mn_ctx *ctx, const char *text, const char *msg) {
  char path[512];
  snprintf(path, sizeof path, "%s", tmp("bad.mtx"));
  put_file(ctx, path, text);
  for (int par = 0; par < 2; par++) {
    mn_csr *A = NULL;
    int rc = mn_csr_read_mtx(ctx, path, MN_FLOAT64, par, &A);
    T_CHECK(rc == MN_ERR_FORMAT && A == NULL, "'%s' (parallel %d) returned %s", msg, par, mn_err_name(rc));
    T_CHECK(strstr(mn_ctx_errmsg(ctx), msg) != NULL, "expected '%s' in: %s", msg, mn_ctx_errmsg(ctx));
    mn_csr_destroy(&A);
  }
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
  expect_error(ctx, "%%MatrixMarket matrix coordinate complex general\n2 2 1\n1 1 1 0\n", "bad.mtx:1: the field");
  expect_error(ctx, "%%MatrixMarket matrix coordinate real general\n% c\n2 2 3\n1 1 1.0\n2 2 2.0\n", "bad.mtx:3: the size line announces 3 entries, the file holds 2");
  expect_error(ctx, "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n4 2 2.0\n3 3 1\n", "bad.mtx:4: row index 4 is out of range 1..3");
  expect_error(ctx, "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 1.0\n2 2 2.0\n3 3 abc\n", "bad.mtx:5: non-numeric value");
  expect_error(ctx, "%%MatrixMarket matrix coordinate real symmetric\n3 3 2\n1 1 1.0\n1 2 2.0\n", "bad.mtx:4: entry (1, 2) above the diagonal");
  expect_error(ctx, "not a matrix market file\n", "bad.mtx:1: expected '%MatrixMarket");
  free(want); free(got); free(ws); free(gs);
  mn_csr_destroy(&A); mn_csr_destroy(&T); mn_csr_destroy(&S); mn_csr_destroy(&R);
  return mt_finish(&ctx);
}
