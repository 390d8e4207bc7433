/* Integer and bool CSR against a serial reference in exact integer
 * arithmetic (modulo 2^64, wrapped to the dtype as NumPy wraps): int64
 * values past 2^53 (where a double would round) summed as duplicates and
 * multiplied, int8 products that wrap, uint64, bool (or of ands); A x,
 * A^T x, transposes, sums with int64 and float64 matrices (NumPy's result
 * dtypes), sparse products, scaling, row sums, eliminate_zeros, copies to
 * float64, Matrix Market integer files read exactly and values out of an
 * integer dtype's range refused; a float vector into an integer matrix
 * and a fractional scale are refused. 1-4 ranks. */
#include <math.h>
#include "mn_test.h"

static uint64_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return *s >> 33; }

static const char *tmp(const char *name) {
  static char buf[512];
  return mt_tmp_path(buf, sizeof buf, "t_csr_int", name);
}

/* v as dtype t holds it, sign- or zero-extended to 64 bits */
static int64_t wrap(mn_dtype t, uint64_t v) {
  switch (t) {
  case MN_BOOL: return v != 0;
  case MN_INT8: return (int8_t)v;
  case MN_INT16: return (int16_t)v;
  case MN_INT32: return (int32_t)v;
  case MN_UINT8: return (uint8_t)v;
  case MN_UINT16: return (uint16_t)v;
  case MN_UINT32: return (uint32_t)v;
  default: return (int64_t)v;
  }
}

static void put(mn_dtype t, void *b, int64_t k, int64_t v) {
  size_t es = mn_dtype_size(t);
  uint64_t u = (uint64_t)wrap(t, (uint64_t)v);
  memcpy((char *)b + k * (int64_t)es, &u, es); /* little-endian: the low bytes */
}
static int64_t get(mn_dtype t, const void *b, int64_t k) {
  uint64_t u = 0;
  memcpy(&u, (const char *)b + k * (int64_t)mn_dtype_size(t), mn_dtype_size(t));
  return wrap(t, u);
}

typedef struct { int64_t m, n, k; int64_t *r, *c, *v; uint64_t *dense; } coo;

/* k triplets (duplicates, zeros), values around big */
static coo make(int64_t m, int64_t n, int64_t k, int64_t big, mn_dtype t, uint64_t seed) {
  coo a = {m, n, k, malloc(8 * (size_t)(k + 1)), malloc(8 * (size_t)(k + 1)), malloc(8 * (size_t)(k + 1)),
           calloc((size_t)(m * n + 1), 8)};
  for (int64_t q = 0; q < k; q++) {
    a.r[q] = (int64_t)(lcg(&seed) % (uint64_t)m);
    a.c[q] = (int64_t)(lcg(&seed) % (uint64_t)n);
    a.v[q] = t == MN_BOOL ? (int64_t)(lcg(&seed) % 2) : big + (int64_t)(lcg(&seed) % 9) - 4;
    if (q % 7 == 5 && q) { a.r[q] = a.r[q - 1]; a.c[q] = a.c[q - 1]; }
    uint64_t *d = &a.dense[a.r[q] * n + a.c[q]];
    *d = t == MN_BOOL ? (*d || a.v[q]) : *d + (uint64_t)a.v[q];
  }
  for (int64_t q = 0; q < m * n; q++) a.dense[q] = (uint64_t)wrap(t, a.dense[q]);
  return a;
}
static void drop(coo *a) { free(a->r); free(a->c); free(a->v); free(a->dense); }

static mn_csr *assemble(mn_ctx *ctx, const coo *a, mn_dtype t) {
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t n = 0, *r = malloc(8 * (size_t)(a->k + 1)), *c = malloc(8 * (size_t)(a->k + 1));
  void *v = malloc(8 * (size_t)(a->k + 1));
  for (int64_t q = me; q < a->k; q += P) { r[n] = a->r[q]; c[n] = a->c[q]; put(t, v, n, a->v[q]); n++; }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_coo(ctx, a->m, a->n, t, n, MN_INT64, r, c, v, &A));
  free(r); free(c); free(v);
  return A;
}

/* the whole matrix on every rank, as int64 (wrapped values) */
static uint64_t *dense_of(const mn_csr *A) {
  int64_t m, n, *rp = NULL, *c = NULL, r0, nl, nz;
  void *v = NULL;
  mn_csr_shape(A, &m, &n);
  uint64_t *mine = calloc((size_t)(m * n + 1), 8), *all = calloc((size_t)(m * n + 1), 8);
  T_OK(mn_csr_get_rows(A, &rp, &c, &v));
  mn_csr_local_rows(A, &r0, &nl, &nz);
  for (int64_t i = 0; rp && i < nl; i++)
    for (int64_t k = rp[i]; k < rp[i + 1]; k++) mine[(r0 + i) * n + c[k]] = (uint64_t)get(mn_csr_dtype(A), v, k);
  MPI_Allreduce(mine, all, (int)(m * n), MPI_UINT64_T, MPI_SUM, mn_ctx_comm(mn_csr_ctx(A)));
  free(mine); mn_free(rp); mn_free(c); mn_free(v);
  return all;
}

static void same(const uint64_t *got, const uint64_t *want, int64_t n, const char *what) {
  for (int64_t i = 0; i < n; i++)
    T_CHECK(got[i] == want[i], "%s[%lld] = %lld, want %lld", what, (long long)i, (long long)got[i], (long long)want[i]);
}

static mn_array *vec(mn_ctx *ctx, mn_dtype t, int64_t n, const int64_t *f) {
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, t, 1, &n, 0, &a));
  void *raw = malloc(8 * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) put(t, raw, i, f[i]);
  T_OK(mn_array_scatter(a, 0, raw));
  free(raw);
  return a;
}
static uint64_t *all_of(const mn_array *a) {
  int64_t n = mn_array_size(a);
  void *raw = malloc(8 * (size_t)(n + 1));
  uint64_t *out = malloc(8 * (size_t)(n + 1));
  T_OK(mn_array_allgather(a, raw));
  for (int64_t i = 0; i < n; i++) out[i] = (uint64_t)get(mn_array_dtype(a), raw, i);
  free(raw);
  return out;
}

static void check(mn_ctx *ctx, int64_t m, int64_t n, int64_t k, mn_dtype t, int64_t big, uint64_t seed) {
  coo a = make(m, n, k, big, t, seed);
  mn_csr *A = assemble(ctx, &a, t);
  if (!A) { drop(&a); return; }
  T_CHECK(mn_csr_dtype(A) == t, "dtype %s", mn_dtype_name(mn_csr_dtype(A)));
  uint64_t *d = dense_of(A);
  same(d, a.dense, m * n, "A");
  free(d);
  /* y = A x and w = A^T u, exactly (wrapped) */
  int64_t *xf = malloc(8 * (size_t)(n + m + 1)), *uf = xf + n;
  for (int64_t j = 0; j < n; j++) xf[j] = t == MN_BOOL ? j % 2 : (int64_t)(j % 5) - 2 + (j % 3 ? 3 : 0);
  for (int64_t i = 0; i < m; i++) uf[i] = t == MN_BOOL ? i % 3 == 0 : 7 - (int64_t)(i % 4);
  mn_array *x = vec(ctx, t, n, xf), *y = vec(ctx, t, m, uf), *u = vec(ctx, t, m, uf), *w = vec(ctx, t, n, xf);
  T_OK(mn_csr_spmv(A, x, y));
  T_OK(mn_csr_spmv_t(A, u, w));
  uint64_t *ry = calloc((size_t)(m + 1), 8), *rw = calloc((size_t)(n + 1), 8);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      uint64_t av = a.dense[i * n + j];
      ry[i] += av * (uint64_t)xf[j];
      rw[j] += av * (uint64_t)uf[i];
    }
  for (int64_t i = 0; i < m; i++) ry[i] = (uint64_t)wrap(t, ry[i]);
  for (int64_t j = 0; j < n; j++) rw[j] = (uint64_t)wrap(t, rw[j]);
  uint64_t *gy = all_of(y), *gw = all_of(w);
  same(gy, ry, m, "A x");
  same(gw, rw, n, "A^T u");
  free(gy); free(gw);
  /* transpose, A + A (doubling, wrapped), A A^T */
  mn_csr *T = NULL, *C = NULL, *M = NULL, *F = NULL, *S = NULL;
  T_OK(mn_csr_transpose(A, &T));
  T_OK(mn_csr_add(1.0, A, 1.0, A, &C));
  if (T) T_OK(mn_csr_matmul(A, T, &M));
  uint64_t *rt = calloc((size_t)(m * n + 1), 8), *rc = calloc((size_t)(m * n + 1), 8), *rm = calloc((size_t)(m * m + 1), 8);
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      uint64_t av = a.dense[i * n + j];
      rt[j * m + i] = av;
      rc[i * n + j] = (uint64_t)wrap(t, t == MN_BOOL ? av : 2 * av);
      for (int64_t q = 0; q < m; q++) rm[i * m + q] += av * a.dense[q * n + j];
    }
  for (int64_t q = 0; q < m * m; q++) rm[q] = (uint64_t)wrap(t, rm[q]);
  if (T) { d = dense_of(T); same(d, rt, m * n, "A^T"); free(d); }
  if (C) { d = dense_of(C); same(d, rc, m * n, "A + A"); free(d); }
  if (M) { d = dense_of(M); same(d, rm, m * m, "A A^T"); free(d); }
  /* with float64: NumPy's result dtype (float64), values as doubles */
  T_OK(mn_csr_copy(A, MN_FLOAT64, &F));
  if (F) {
    T_OK(mn_csr_add(1.0, A, -1.0, F, &S));
    T_CHECK(!S || mn_csr_dtype(S) == MN_FLOAT64, "%s - float64 gave %s", mn_dtype_name(t), mn_dtype_name(mn_csr_dtype(S)));
    if (S && big < (1LL << 50)) T_CHECK(mn_csr_nnz(S) == mn_csr_nnz(A), "A - float64(A): %lld entries", (long long)mn_csr_nnz(S));
  }
  /* refused: a float vector into an integer matrix, a fractional scale */
  mn_array *xf64 = NULL, *yt = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &xf64));
  T_OK(mn_array_create(ctx, t, 1, &m, 0, &yt));
  T_EXPECT(mn_csr_spmv(A, xf64, yt), MN_ERR_DTYPE, "an integer matrix times a float64 vector", mn_dtype_name(t), "float64");
  T_EXPECT(mn_csr_scale(A, 0.5), MN_ERR_DTYPE, "scaling by 0.5", "0.5", mn_dtype_name(t));
  T_EXPECT(mn_csr_scale(A, NAN), MN_ERR_DTYPE, "scaling by NaN", "nan", mn_dtype_name(t));
  T_EXPECT(mn_csr_scale(A, 1e300), MN_ERR_DTYPE, "scaling by 1e300", "1e+300", mn_dtype_name(t));
  /* refused: an integer vector wider than the matrix's dtype (its values
   * would wrap), an integer matrix's product into a narrower y */
  if (t != MN_INT64 && t != MN_UINT64) {
    mn_array *xi64 = NULL, *yi8 = NULL;
    T_OK(mn_array_create(ctx, MN_INT64, 1, &n, 0, &xi64));
    T_EXPECT(mn_csr_spmv(A, xi64, yt), MN_ERR_DTYPE, "a narrow matrix times an int64 vector", mn_dtype_name(t), "int64");
    mn_array_destroy(&xi64);
    if (t != MN_INT8 && t != MN_BOOL) {
      T_OK(mn_array_create(ctx, MN_INT8, 1, &m, 0, &yi8));
      T_EXPECT(mn_csr_spmv(A, x, yi8), MN_ERR_DTYPE, "a product into an int8 y", mn_dtype_name(t), "int8");
      mn_array_destroy(&yi8);
    }
  }
  /* scale by 3, row sums, eliminate_zeros */
  if (t != MN_BOOL) {
    T_OK(mn_csr_scale(A, 3.0));
    d = dense_of(A);
    for (int64_t q = 0; q < m * n; q++) T_CHECK(d[q] == (uint64_t)wrap(t, 3 * a.dense[q]), "3 A [%lld]", (long long)q);
    free(d);
    T_OK(mn_csr_scale(A, 1.0)); /* (a no-op, allowed) */
  }
  mn_array *s1 = NULL;
  T_OK(mn_array_create(ctx, t, 1, &m, 0, &s1));
  T_OK(mn_csr_sum(A, 1, s1));
  uint64_t *r1 = calloc((size_t)(m + 1), 8), *g1 = all_of(s1);
  for (int64_t i = 0; i < m; i++) {
    for (int64_t j = 0; j < n; j++) r1[i] = t == MN_BOOL ? (r1[i] || a.dense[i * n + j]) : r1[i] + a.dense[i * n + j] * (t == MN_BOOL ? 1 : 3);
    r1[i] = (uint64_t)wrap(t, r1[i]);
  }
  same(g1, r1, m, "row sums");
  free(g1); free(r1);
  int64_t nz = 0;
  for (int64_t q = 0; q < m * n; q++) nz += a.dense[q] != 0;
  mn_csr *E = assemble(ctx, &a, t);
  if (E) {
    T_OK(mn_csr_eliminate_zeros(E));
    T_CHECK(mn_csr_nnz(E) == nz, "%lld entries after eliminate_zeros, want %lld", (long long)mn_csr_nnz(E), (long long)nz);
  }
  mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&u); mn_array_destroy(&w);
  mn_array_destroy(&xf64); mn_array_destroy(&yt); mn_array_destroy(&s1);
  mn_csr_destroy(&A); mn_csr_destroy(&T); mn_csr_destroy(&C); mn_csr_destroy(&M); mn_csr_destroy(&F);
  mn_csr_destroy(&S); mn_csr_destroy(&E);
  free(xf); free(ry); free(rw); free(rt); free(rc); free(rm);
  drop(&a);
}

/* integer Matrix Market files: exact int64 past 2^53, the file's dtype by
 * default, and a value out of int8's range refused naming the line */
static void check_files(mn_ctx *ctx) {
  const char *text = "%%MatrixMarket matrix coordinate integer general\n3 3 3\n1 1 9007199254740993\n"
                     "2 3 -5\n3 2 120\n";
  if (mn_ctx_rank(ctx) == 0) {
    FILE *f = fopen(tmp("i.mtx"), "w");
    fputs(text, f);
    fclose(f);
  }
  MPI_Barrier(mn_ctx_comm(ctx));
  for (int par = 0; par < 2; par++) {
    mn_csr *A = NULL, *B = NULL;
    T_OK(mn_csr_read_mtx(ctx, tmp("i.mtx"), MN_NDTYPE, par, &A));
    if (!A) continue;
    T_CHECK(mn_csr_dtype(A) == MN_INT64, "an integer file read as %s", mn_dtype_name(mn_csr_dtype(A)));
    uint64_t *d = dense_of(A), want[9] = {9007199254740993ULL, 0, 0, 0, 0, (uint64_t)-5, 0, 120, 0};
    same(d, want, 9, "integer file");
    free(d);
    T_OK(mn_csr_write_mtx(A, tmp("o.mtx"), "integer", 0));
    T_OK(mn_csr_read_mtx(ctx, tmp("o.mtx"), MN_INT64, par, &B));
    if (B) { d = dense_of(B); same(d, want, 9, "integer round trip"); free(d); }
    mn_csr_destroy(&B);
    mn_csr *C = NULL;
    T_EXPECT(mn_csr_read_mtx(ctx, tmp("i.mtx"), MN_INT8, par, &C), MN_ERR_FORMAT, "int8 from a big value", "i.mtx:3",
             "int8");
    T_EXPECT(mn_csr_read_mtx(ctx, tmp("o.mtx"), MN_UINT8, par, &C), MN_ERR_FORMAT, "uint8 from -5", "out of range");
    mn_csr_destroy(&A);
  }
  /* uint64 values past INT64_MAX read exactly; a skew-symmetric mirror out
   * of the dtype's range (-(-128) for int8, any -v for unsigned) refused */
  const char *files[] = {"%%MatrixMarket matrix coordinate integer general\n2 2 2\n1 1 18446744073709551615\n"
                         "2 1 9223372036854775808\n",
                         "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 -128\n",
                         "%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n"};
  for (int f = 0; f < 3; f++) {
    if (mn_ctx_rank(ctx) == 0) {
      FILE *fp = fopen(tmp("u.mtx"), "w");
      fputs(files[f], fp);
      fclose(fp);
    }
    MPI_Barrier(mn_ctx_comm(ctx));
    for (int par = 0; par < 2; par++) {
      mn_csr *A = NULL;
      if (f == 0) {
        T_OK(mn_csr_read_mtx(ctx, tmp("u.mtx"), MN_UINT64, par, &A));
        uint64_t *d = A ? dense_of(A) : NULL, want[4] = {UINT64_MAX, 0, 1ULL << 63, 0};
        if (d) same(d, want, 4, "uint64 file");
        free(d);
        mn_csr_destroy(&A);
        T_EXPECT(mn_csr_read_mtx(ctx, tmp("u.mtx"), MN_INT64, par, &A), MN_ERR_FORMAT, "int64 past its range",
                 "u.mtx:3", "int64");
      } else {
        T_EXPECT(mn_csr_read_mtx(ctx, tmp("u.mtx"), f == 1 ? MN_INT8 : MN_UINT16, par, &A), MN_ERR_FORMAT,
                 "a skew mirror out of range", "u.mtx:3", f == 1 ? "int8" : "uint16");
      }
      mn_csr_destroy(&A);
    }
    MPI_Barrier(mn_ctx_comm(ctx));
  }
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  check(ctx, 19, 19, 70, MN_INT64, (1LL << 53) + 1, 1); /* past double's integers */
  check(ctx, 13, 21, 60, MN_INT32, 1000, 2);
  check(ctx, 17, 11, 60, MN_INT8, 100, 3);              /* products and sums wrap */
  check(ctx, 11, 11, 40, MN_UINT64, (1LL << 62), 4);
  check(ctx, 9, 14, 40, MN_UINT16, 60000, 5);
  check(ctx, 15, 15, 50, MN_BOOL, 0, 6);
  check(ctx, 3, 5, 9, MN_INT16, 7, 7);                  /* fewer rows than ranks at 4 */
  check_files(ctx);
  return mt_finish(&ctx);
}
