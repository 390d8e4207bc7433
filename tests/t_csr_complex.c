/* Complex CSR (complex128 and complex64) against a serial dense complex
 * reference computed here: assembly from triplets spread over the ranks
 * (duplicates summed, entries with only an imaginary part kept), A x,
 * A^T x, transposes, sums, sparse products, copies between dtypes, scaling,
 * row and column scaling, diagonals, row and column sums, and the removal
 * of stored zeros; a real matrix refuses a complex vector (the imaginary
 * parts would be lost) and the solvers refuse a complex matrix. */
#include "mn_test.h"

typedef struct { double re, im; } z;

static uint64_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return *s >> 33; }
static z zadd(z a, z b) { return (z){a.re + b.re, a.im + b.im}; }
static z zmul(z a, z b) { return (z){a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re}; }

typedef struct { int64_t m, n, k; int64_t *r, *c; z *v, *dense; } coo;

/* k triplets of an m x n matrix, the same on every rank: some duplicated,
 * some 0, some purely imaginary; row 1 empty */
static coo make(int64_t m, int64_t n, int64_t k, uint64_t seed) {
  coo a = {m, n, k, malloc(sizeof(int64_t) * (size_t)(k + 1)), malloc(sizeof(int64_t) * (size_t)(k + 1)),
           malloc(sizeof(z) * (size_t)(k + 1)), calloc((size_t)(m * n + 1), sizeof(z))};
  for (int64_t q = 0; q < k; q++) {
    a.r[q] = (int64_t)(lcg(&seed) % (uint64_t)m);
    if (m > 2 && a.r[q] == 1) a.r[q] = 0;
    a.c[q] = (int64_t)(lcg(&seed) % (uint64_t)n);
    a.v[q] = (z){(double)(lcg(&seed) % 19) - 9.0, (double)(lcg(&seed) % 7) - 3.0};
    if (q % 11 == 3) a.v[q] = (z){0, 0};
    if (q % 13 == 6) a.v[q].re = 0;
    if (q % 7 == 5 && q) { a.r[q] = a.r[q - 1]; a.c[q] = a.c[q - 1]; }
    a.dense[a.r[q] * n + a.c[q]] = zadd(a.dense[a.r[q] * n + a.c[q]], a.v[q]);
  }
  return a;
}

static void drop(coo *a) { free(a->r); free(a->c); free(a->v); free(a->dense); }

/* values of z as dtype t (complex64: float pairs) at buf[k] */
static void put(mn_dtype t, void *buf, int64_t k, z v) {
  if (t == MN_COMPLEX64) { ((float *)buf)[2 * k] = (float)v.re; ((float *)buf)[2 * k + 1] = (float)v.im; }
  else ((z *)buf)[k] = v;
}
static z get(mn_dtype t, const void *buf, int64_t k) {
  if (t == MN_COMPLEX64) return (z){((const float *)buf)[2 * k], ((const float *)buf)[2 * k + 1]};
  if (t == MN_FLOAT64) return (z){((const double *)buf)[k], 0};
  return ((const z *)buf)[k];
}

/* each rank hands in every P-th triplet */
static mn_csr *assemble(mn_ctx *ctx, const coo *a, mn_dtype t) {
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t n = 0, *r = malloc(sizeof(int64_t) * (size_t)(a->k + 1)), *c = malloc(sizeof(int64_t) * (size_t)(a->k + 1));
  void *v = malloc(sizeof(z) * (size_t)(a->k + 1));
  for (int64_t q = me; q < a->k; q += P) { r[n] = a->r[q]; c[n] = a->c[q]; put(t, v, n, a->v[q]); n++; }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_coo(ctx, a->m, a->n, t, n, MN_INT64, r, c, v, &A));
  free(r); free(c); free(v);
  return A;
}

/* the whole matrix, dense, on every rank */
static z *dense_of(const mn_csr *A) {
  int64_t m, n, *rp = NULL, *c = NULL, r0, nl, nz;
  void *v = NULL;
  mn_csr_shape(A, &m, &n);
  z *mine = calloc((size_t)(m * n + 1), sizeof(z)), *all = calloc((size_t)(m * n + 1), sizeof(z));
  T_OK(mn_csr_get_rows(A, &rp, &c, &v));
  mn_csr_local_rows(A, &r0, &nl, &nz);
  for (int64_t i = 0; rp && i < nl; i++)
    for (int64_t k = rp[i]; k < rp[i + 1]; k++) mine[(r0 + i) * n + c[k]] = get(mn_csr_dtype(A), v, k);
  MPI_Allreduce(mine, all, (int)(2 * m * n), MPI_DOUBLE, MPI_SUM, mn_ctx_comm(mn_csr_ctx(A)));
  free(mine); mn_free(rp); mn_free(c); mn_free(v);
  return all;
}

static void same(const z *got, const z *want, int64_t n, double tol, const char *what) {
  for (int64_t i = 0; i < n; i++) {
    double s = fabs(want[i].re) + fabs(want[i].im) + 1;
    T_CHECK(fabs(got[i].re - want[i].re) <= tol * s && fabs(got[i].im - want[i].im) <= tol * s,
            "%s[%lld] = (%g, %g), want (%g, %g)", what, (long long)i, got[i].re, got[i].im, want[i].re, want[i].im);
  }
}

/* a vector of n values f(i) of dtype t, and back */
static mn_array *vec(mn_ctx *ctx, mn_dtype t, int64_t n, const z *f) {
  mn_array *a = NULL;
  T_OK(mn_array_create(ctx, t, 1, &n, 0, &a));
  void *raw = malloc(sizeof(z) * (size_t)(n + 1));
  for (int64_t i = 0; i < n; i++) put(t, raw, i, f[i]);
  T_OK(mn_array_scatter(a, 0, raw));
  free(raw);
  return a;
}
static z *all_of(const mn_array *a) {
  int64_t n = mn_array_size(a);
  void *raw = malloc(sizeof(z) * (size_t)(n + 1));
  z *out = malloc(sizeof(z) * (size_t)(n + 1));
  T_OK(mn_array_allgather(a, raw));
  for (int64_t i = 0; i < n; i++) out[i] = get(mn_array_dtype(a), raw, i);
  free(raw);
  return out;
}

static void check(mn_ctx *ctx, int64_t m, int64_t n, int64_t k, mn_dtype t, uint64_t seed) {
  coo a = make(m, n, k, seed), b = make(m, n, k / 2 + 1, seed + 7);
  double tol = t == MN_COMPLEX64 ? 1e-5 : 1e-13;
  mn_csr *A = assemble(ctx, &a, t), *B = assemble(ctx, &b, t);
  if (!A || !B) { mn_csr_destroy(&A); mn_csr_destroy(&B); drop(&a); drop(&b); return; }
  T_CHECK(mn_csr_dtype(A) == t, "dtype %s", mn_dtype_name(mn_csr_dtype(A)));
  z *d = dense_of(A);
  same(d, a.dense, m * n, 0, "A");
  free(d);
  /* y = A x, w = A^T u */
  z *xf = malloc(sizeof(z) * (size_t)(n + m + 1)), *uf = xf + n;
  for (int64_t j = 0; j < n; j++) xf[j] = (z){0.5 * (double)(j % 5) - 1, 0.25 * (double)(j % 3)};
  for (int64_t i = 0; i < m; i++) uf[i] = (z){(double)(i % 4) - 1.5, -0.5 * (double)(i % 7)};
  mn_array *x = vec(ctx, t, n, xf), *y = vec(ctx, t, m, uf), *u = vec(ctx, t, m, uf), *w = vec(ctx, t, n, xf);
  T_OK(mn_csr_spmv(A, x, y));
  T_OK(mn_csr_spmv_t(A, u, w));
  z *ry = calloc((size_t)(m + 1), sizeof(z)), *rw = calloc((size_t)(n + 1), sizeof(z));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      ry[i] = zadd(ry[i], zmul(a.dense[i * n + j], xf[j]));
      rw[j] = zadd(rw[j], zmul(a.dense[i * n + j], uf[i]));
    }
  z *gy = all_of(y), *gw = all_of(w);
  same(gy, ry, m, tol, "A x");
  same(gw, rw, n, tol, "A^T u");
  free(gy); free(gw);
  /* a complex128 x into a complex64 A's product, and a float64 y out */
  if (t == MN_COMPLEX64) {
    mn_array *x2 = vec(ctx, MN_COMPLEX128, n, xf), *y2 = NULL;
    T_OK(mn_csr_spmv(A, x2, y));
    gy = all_of(y);
    same(gy, ry, m, tol, "A x (complex128 x)");
    free(gy);
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &y2));
    /* a real y would drop the imaginary parts: refused, as NumPy's
     * same_kind casting refuses a complex result into a real out= */
    T_EXPECT(mn_csr_spmv(A, x, y2), MN_ERR_DTYPE, "a complex product into a float64 y", "complex64", "float64");
    mn_array_destroy(&x2);
    mn_array_destroy(&y2);
  }
  /* transpose, 2 A - 0.5 B, A A^T */
  mn_csr *T = NULL, *C = NULL, *M = NULL;
  T_OK(mn_csr_transpose(A, &T));
  T_OK(mn_csr_add(2.0, A, -0.5, B, &C));
  if (T) T_OK(mn_csr_matmul(A, T, &M));
  z *rt = calloc((size_t)(m * n + 1), sizeof(z)), *rc = calloc((size_t)(m * n + 1), sizeof(z));
  z *rm = calloc((size_t)(m * m + 1), sizeof(z));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      z av = a.dense[i * n + j], bv = b.dense[i * n + j];
      rt[j * m + i] = av;
      rc[i * n + j] = (z){2 * av.re - 0.5 * bv.re, 2 * av.im - 0.5 * bv.im};
      for (int64_t q = 0; q < m; q++) rm[i * m + q] = zadd(rm[i * m + q], zmul(av, a.dense[q * n + j]));
    }
  if (T) { d = dense_of(T); same(d, rt, m * n, 0, "A^T"); free(d); }
  if (C) { d = dense_of(C); same(d, rc, m * n, tol, "2A - B/2"); free(d); }
  if (M) { d = dense_of(M); same(d, rm, m * m, tol, "A A^T"); free(d); }
  /* copies: to the other complex dtype and back, and a real matrix plus a complex one */
  mn_csr *D = NULL, *R = NULL, *S = NULL;
  T_OK(mn_csr_copy(A, t == MN_COMPLEX64 ? MN_COMPLEX128 : MN_COMPLEX64, &D));
  if (D) { d = dense_of(D); same(d, a.dense, m * n, 0, "copy"); free(d); }
  T_OK(mn_csr_copy(A, MN_FLOAT64, &R)); /* real parts (an unsafe cast the caller asks for) */
  if (R) {
    T_OK(mn_csr_add(1.0, R, 1.0, A, &S));
    if (S) {
      T_CHECK(mn_csr_dtype(S) == (t == MN_COMPLEX64 ? MN_COMPLEX128 : t), "float64 + %s gave %s", mn_dtype_name(t),
              mn_dtype_name(mn_csr_dtype(S)));
      z *rs = calloc((size_t)(m * n + 1), sizeof(z));
      for (int64_t q = 0; q < m * n; q++) rs[q] = (z){2 * a.dense[q].re, a.dense[q].im};
      d = dense_of(S);
      same(d, rs, m * n, tol, "re(A) + A");
      free(d); free(rs);
    }
    /* a real matrix times a complex vector would drop the imaginary parts */
    mn_array *yr = NULL;
    T_OK(mn_array_create(ctx, t, 1, &m, 0, &yr));
    T_EXPECT(mn_csr_spmv(R, x, yr), MN_ERR_DTYPE, "float64 matrix times complex x", "complex", "float64");
    T_EXPECT(mn_csr_spmv_t(R, u, w), MN_ERR_DTYPE, "float64 matrix^T times complex x", "complex", "float64");
    mn_array_destroy(&yr);
  }
  /* scale by 3; scale rows by u and columns by x; diagonal; row and column sums */
  T_OK(mn_csr_scale(A, 3.0));
  d = dense_of(A);
  for (int64_t q = 0; q < m * n; q++) d[q] = (z){d[q].re / 3, d[q].im / 3};
  same(d, a.dense, m * n, tol, "3 A / 3");
  free(d);
  T_OK(mn_csr_scale(A, 1.0 / 3.0));
  T_OK(mn_csr_diag_scale(A, u, x));
  z *rds = calloc((size_t)(m * n + 1), sizeof(z));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) rds[i * n + j] = zmul(zmul(uf[i], xf[j]), a.dense[i * n + j]);
  d = dense_of(A);
  same(d, rds, m * n, tol * 10, "diag(u) A diag(x)");
  free(d);
  int64_t mn = m < n ? m : n;
  mn_array *dg = NULL, *s1 = NULL, *s0 = NULL;
  T_OK(mn_array_create(ctx, t, 1, &mn, 0, &dg));
  T_OK(mn_array_create(ctx, t, 1, &m, 0, &s1));
  T_OK(mn_array_create(ctx, t, 1, &n, 0, &s0));
  T_OK(mn_csr_diagonal(A, dg));
  T_OK(mn_csr_sum(A, 1, s1));
  T_OK(mn_csr_sum(A, 0, s0));
  z *rdg = calloc((size_t)(mn + 1), sizeof(z)), *r1 = calloc((size_t)(m + 1), sizeof(z)),
    *r0 = calloc((size_t)(n + 1), sizeof(z));
  for (int64_t i = 0; i < m; i++)
    for (int64_t j = 0; j < n; j++) {
      if (i == j) rdg[i] = rds[i * n + j];
      r1[i] = zadd(r1[i], rds[i * n + j]);
      r0[j] = zadd(r0[j], rds[i * n + j]);
    }
  z *g1 = all_of(dg), *g2 = all_of(s1), *g3 = all_of(s0);
  same(g1, rdg, mn, tol * 10, "diagonal");
  same(g2, r1, m, tol * 10, "row sums");
  same(g3, r0, n, tol * 10, "column sums");
  free(g1); free(g2); free(g3); free(rdg); free(r1); free(r0); free(rds);
  /* stored zeros: (0, 0) goes, (0, im) stays */
  int64_t nz = 0;
  for (int64_t q = 0; q < m * n; q++) nz += a.dense[q].re != 0 || a.dense[q].im != 0;
  mn_csr *E = assemble(ctx, &a, t);
  if (E) {
    T_OK(mn_csr_eliminate_zeros(E));
    T_CHECK(mn_csr_nnz(E) == nz, "%lld entries after eliminate_zeros, want %lld", (long long)mn_csr_nnz(E), (long long)nz);
    d = dense_of(E);
    same(d, a.dense, m * n, 0, "eliminate_zeros");
    free(d);
  }
  /* the solvers take real matrices */
  if (m == n) {
    mn_op *op = NULL;
    T_EXPECT(mn_op_create_csr(A, &op), MN_ERR_DTYPE, "an operator of a complex matrix", "float64",
             mn_dtype_name(t));
    mn_op_destroy(&op);
  }
  mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&u); mn_array_destroy(&w);
  mn_array_destroy(&dg); mn_array_destroy(&s1); mn_array_destroy(&s0);
  mn_csr_destroy(&A); mn_csr_destroy(&B); mn_csr_destroy(&T); mn_csr_destroy(&C); mn_csr_destroy(&M);
  mn_csr_destroy(&D); mn_csr_destroy(&R); mn_csr_destroy(&S); mn_csr_destroy(&E);
  free(xf); free(ry); free(rw); free(rt); free(rc); free(rm);
  drop(&a); drop(&b);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  check(ctx, 23, 23, 90, MN_COMPLEX128, 1);
  check(ctx, 17, 29, 70, MN_COMPLEX128, 2);
  check(ctx, 31, 12, 80, MN_COMPLEX64, 3);
  check(ctx, 3, 5, 9, MN_COMPLEX128, 4); /* fewer rows than ranks at 4 */
  return mt_finish(&ctx);
}
