/* Row-distributed CSR against a serial dense reference: assembly from COO
 * triplets spread over the ranks (off-rank rows, duplicates), from local
 * rows, products with vectors and blocks, transpose products, sums,
 * transposes, sparse products, scaling, diagonals and sums, on square,
 * rectangular and tiny matrices (fewer rows than ranks, empty rows), in
 * float64 and float32; vectors that are views or of another dtype; bad
 * indices and vector sizes rejected on every rank. */
#include "mn_test.h"

static uint64_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return *s >> 33; }

typedef struct { int64_t m, n, k; int64_t *r, *c; double *v; double *dense; } coo;

/* k random triplets (some duplicated, some explicit zeros) of an m x n
 * matrix, the same on every rank; row 1 left empty */
static coo make(int64_t m, int64_t n, int64_t k, uint64_t seed) {
  coo a = {m, n, k, malloc(sizeof(int64_t) * (size_t)(k + 1)), malloc(sizeof(int64_t) * (size_t)(k + 1)),
           malloc(sizeof(double) * (size_t)(k + 1)), calloc((size_t)(m * n + 1), sizeof(double))};
  for (int64_t q = 0; q < k; q++) {
    a.r[q] = m ? (int64_t)(lcg(&seed) % (uint64_t)m) : 0;
    if (m > 2 && a.r[q] == 1) a.r[q] = 0;
    a.c[q] = n ? (int64_t)(lcg(&seed) % (uint64_t)n) : 0;
    a.v[q] = (q % 11 == 3) ? 0.0 : (double)(lcg(&seed) % 19) - 9.0;
    if (q % 7 == 5 && q) { a.r[q] = a.r[q - 1]; a.c[q] = a.c[q - 1]; } /* a duplicate */
    a.dense[a.r[q] * n + a.c[q]] += a.v[q];
  }
  return a;
}

static void drop(coo *a) { free(a->r); free(a->c); free(a->v); free(a->dense); }

/* each rank hands in every P-th triplet: rows of any owner */
static mn_csr *assemble(mn_ctx *ctx, const coo *a, mn_dtype t) {
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t n = 0, *r = malloc(sizeof(int64_t) * (size_t)(a->k + 1)), *c = malloc(sizeof(int64_t) * (size_t)(a->k + 1));
  double *v = malloc(sizeof(double) * (size_t)(a->k + 1));
  float *vf = malloc(sizeof(float) * (size_t)(a->k + 1));
  for (int64_t q = me; q < a->k; q += P) { r[n] = a->r[q]; c[n] = a->c[q]; v[n] = a->v[q]; vf[n] = (float)a->v[q]; n++; }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_coo(ctx, a->m, a->n, t, n, MN_INT64, r, c, t == MN_FLOAT32 ? (void *)vf : (void *)v, &A));
  free(r); free(c); free(v); free(vf);
  return A;
}

static double fx(int64_t k) { return 0.5 * (double)(k % 13) - 2.0; }

static void check_products(mn_ctx *ctx, int64_t m, int64_t n, int64_t k, mn_dtype t, uint64_t seed) {
  coo a = make(m, n, k, seed);
  mn_csr *A = assemble(ctx, &a, t);
  if (!A) { drop(&a); return; }
  double tol = t == MN_FLOAT32 ? 1e-4 : 1e-12;
  int64_t nr, nc;
  mn_csr_shape(A, &nr, &nc);
  T_CHECK(nr == m && nc == n, "shape (%lld, %lld)", (long long)nr, (long long)nc);
  /* y = A x and z = A^T w */
  mn_array *x = NULL, *y = NULL, *w = NULL, *z = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  mt_set(x, fx);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &y));
  T_OK(mn_csr_spmv(A, x, y));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &w));
  mt_set(w, fx);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &z));
  T_OK(mn_csr_spmv_t(A, w, z));
  /* a second transpose product on vectors of the matrix's dtype and
   * split: its messages alone, no collective */
  mn_log_enable(ctx);
  mn_log_reset(ctx);
  T_OK(mn_csr_spmv_t(A, w, z));
  mn_log_stats ar;
  T_OK(mn_log_get(ctx, MN_LOG_ALLREDUCE, &ar));
  T_CHECK(ar.calls == 0 || mn_csr_dtype(A) != MN_FLOAT64, "%lldx%lld spmv_t in the steady state: %lld allreduces", (long long)m, (long long)n,
          (long long)ar.calls);
  mn_log_disable(ctx);
  double *yv = mt_all(y), *zv = mt_all(z);
  for (int64_t i = 0; i < m; i++) {
    double s = 0;
    for (int64_t j = 0; j < n; j++) s += a.dense[i * n + j] * fx(j);
    if (fabs(yv[i] - s) > tol * (1 + fabs(s))) { T_CHECK(0, "%lldx%lld spmv: y[%lld] = %g, expected %g", (long long)m, (long long)n, (long long)i, yv[i], s); break; }
  }
  for (int64_t j = 0; j < n; j++) {
    double s = 0;
    for (int64_t i = 0; i < m; i++) s += a.dense[i * n + j] * fx(i);
    if (fabs(zv[j] - s) > tol * (1 + fabs(s))) { T_CHECK(0, "%lldx%lld spmv_t: z[%lld] = %g, expected %g", (long long)m, (long long)n, (long long)j, zv[j], s); break; }
  }
  free(yv); free(zv);
  /* row and column sums, the diagonal */
  mn_array *rs = NULL, *cs = NULL, *dg = NULL;
  int64_t md = m < n ? m : n;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &rs));
  T_OK(mn_array_create(ctx, MN_FLOAT32, 1, &n, 0, &cs));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &md, 0, &dg));
  T_OK(mn_csr_sum(A, 1, rs));
  T_OK(mn_csr_sum(A, 0, cs));
  T_OK(mn_csr_diagonal(A, dg));
  double *rv = mt_all(rs), *cv = mt_all(cs), *dv = mt_all(dg);
  for (int64_t i = 0; i < m; i++) {
    double s = 0;
    for (int64_t j = 0; j < n; j++) s += a.dense[i * n + j];
    T_CHECK(fabs(rv[i] - s) <= tol * (1 + fabs(s)), "row sum %lld = %g, expected %g", (long long)i, rv[i], s);
  }
  for (int64_t j = 0; j < n; j++) {
    double s = 0;
    for (int64_t i = 0; i < m; i++) s += a.dense[i * n + j];
    T_CHECK(fabs(cv[j] - s) <= 1e-4 * (1 + fabs(s)), "column sum %lld = %g, expected %g", (long long)j, cv[j], s);
  }
  for (int64_t i = 0; i < md; i++)
    T_CHECK(fabs(dv[i] - a.dense[i * n + i]) <= tol, "diagonal %lld = %g, expected %g", (long long)i, dv[i], a.dense[i * n + i]);
  free(rv); free(cv); free(dv);
  /* local rows with global columns, and the same matrix from them */
  int64_t *rp = NULL, *cols = NULL, row0, nl, nnzl;
  void *vals = NULL;
  T_OK(mn_csr_get_rows(A, &rp, &cols, &vals));
  mn_csr_local_rows(A, &row0, &nl, &nnzl);
  for (int64_t i = 0; rp && i < nl; i++)
    for (int64_t q = rp[i]; q < rp[i + 1]; q++) {
      T_CHECK(q == rp[i] || cols[q] > cols[q - 1], "row %lld: columns not ascending", (long long)(row0 + i));
      double v = t == MN_FLOAT32 ? ((float *)vals)[q] : ((double *)vals)[q];
      T_CHECK(fabs(v - a.dense[(row0 + i) * n + cols[q]]) <= tol, "get_rows (%lld, %lld) = %g",
              (long long)(row0 + i), (long long)cols[q], v);
    }
  mn_csr *B = NULL;
  T_OK(mn_csr_create_rows(ctx, m, n, t, nl, rp, MN_INT64, cols, vals, &B));
  T_CHECK(B && mn_csr_nnz(B) == mn_csr_nnz(A), "rebuilt from rows: nnz %lld vs %lld", B ? (long long)mn_csr_nnz(B) : -1LL,
          (long long)mn_csr_nnz(A));
  mn_free(rp); mn_free(cols); mn_free(vals);
  /* C = 2 A - 0.5 B (B == A) and its product with x */
  mn_csr *C = NULL;
  T_OK(mn_csr_add(2.0, A, -0.5, B, &C));
  mn_array *y2 = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &y2));
  if (C) T_OK(mn_csr_spmv(C, x, y2));
  yv = mt_all(y);
  double *y2v = mt_all(y2);
  for (int64_t i = 0; C && i < m; i++)
    T_CHECK(fabs(y2v[i] - 1.5 * yv[i]) <= tol * (1 + fabs(yv[i])), "add: row %lld = %g, expected %g", (long long)i, y2v[i], 1.5 * yv[i]);
  free(yv); free(y2v);
  /* transpose and A^T A, against dense loops */
  mn_csr *T = NULL, *TA = NULL;
  T_OK(mn_csr_transpose(A, &T));
  if (T) T_OK(mn_csr_matmul(T, A, &TA));
  if (TA) {
    int64_t *p2 = NULL, *c2 = NULL, r2, n2, z2;
    void *v2 = NULL;
    T_OK(mn_csr_get_rows(TA, &p2, &c2, &v2));
    mn_csr_local_rows(TA, &r2, &n2, &z2);
    double *full = calloc((size_t)(n * n + 1), sizeof(double));
    for (int64_t i = 0; i < n2; i++)
      for (int64_t q = p2[i]; q < p2[i + 1]; q++)
        full[(r2 + i) * n + c2[q]] = t == MN_FLOAT32 ? ((float *)v2)[q] : ((double *)v2)[q];
    for (int64_t i = r2; i < r2 + n2; i++)
      for (int64_t j = 0; j < n; j++) {
        double s = 0;
        for (int64_t q = 0; q < m; q++) s += a.dense[q * n + i] * a.dense[q * n + j];
        if (fabs(full[i * n + j] - s) > tol * 100 * (1 + fabs(s))) {
          T_CHECK(0, "A^T A (%lld, %lld) = %g, expected %g", (long long)i, (long long)j, full[i * n + j], s);
          i = r2 + n2;
          break;
        }
      }
    free(full); mn_free(p2); mn_free(c2); mn_free(v2);
  }
  /* scale by 3, then by rows and columns */
  mn_array *l = NULL, *r = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &m, 0, &l));
  mt_set(l, fx);
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &r));
  mt_set(r, fx);
  T_OK(mn_csr_scale(B, 3.0));
  T_OK(mn_csr_diag_scale(B, l, r));
  T_OK(mn_csr_spmv(B, x, y2));
  y2v = mt_all(y2);
  for (int64_t i = 0; i < m; i++) {
    double s = 0;
    for (int64_t j = 0; j < n; j++) s += 3.0 * fx(i) * a.dense[i * n + j] * fx(j) * fx(j);
    if (fabs(y2v[i] - s) > tol * 10 * (1 + fabs(s))) { T_CHECK(0, "diag_scale: row %lld = %g, expected %g", (long long)i, y2v[i], s); break; }
  }
  free(y2v);
  /* stored zeros dropped */
  int64_t before = mn_csr_nnz(B);
  T_OK(mn_csr_eliminate_zeros(B));
  int64_t stored = 0; /* B's pattern is A's; its zeros are the dense zeros it stores */
  for (int64_t q = 0; q < m * n; q++) stored += a.dense[q] != 0 && fx(q / n) != 0 && fx(q % n) != 0;
  T_CHECK(mn_csr_nnz(B) <= before && mn_csr_nnz(B) == stored, "eliminate_zeros kept %lld entries of %lld, expected %lld",
          (long long)mn_csr_nnz(B), (long long)before, (long long)stored);
  mn_array_destroy(&x); mn_array_destroy(&y); mn_array_destroy(&w); mn_array_destroy(&z); mn_array_destroy(&y2);
  mn_array_destroy(&rs); mn_array_destroy(&cs); mn_array_destroy(&dg); mn_array_destroy(&l); mn_array_destroy(&r);
  mn_csr_destroy(&A); mn_csr_destroy(&B); mn_csr_destroy(&C); mn_csr_destroy(&T); mn_csr_destroy(&TA);
  drop(&a);
}

/* the 2-d 5-point Laplacian on a g x g grid: every rank assembles its own rows */
static void check_poisson(mn_ctx *ctx, int64_t g) {
  int64_t n = g * g, P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t r0 = mn_split_start(n, (int)P, (int)me), nl = mn_split_size(n, (int)P, (int)me);
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *c = malloc(sizeof(int64_t) * (size_t)(5 * nl + 1));
  double *v = malloc(sizeof(double) * (size_t)(5 * nl + 1));
  int64_t k = 0;
  rp[0] = 0;
  for (int64_t i = r0; i < r0 + nl; i++) {
    int64_t a = i / g, b = i % g;
    if (a > 0) { c[k] = i - g; v[k++] = -1; }
    if (b > 0) { c[k] = i - 1; v[k++] = -1; }
    c[k] = i; v[k++] = 4;
    if (b < g - 1) { c[k] = i + 1; v[k++] = -1; }
    if (a < g - 1) { c[k] = i + g; v[k++] = -1; }
    rp[i - r0 + 1] = k;
  }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_rows(ctx, n, n, MN_FLOAT64, nl, rp, MN_INT64, c, v, &A));
  mn_array *x = mt_new(ctx, MN_FLOAT64, 1, &n, fx), *y = mt_new(ctx, MN_FLOAT64, 1, &n, NULL);
  if (A) T_OK(mn_csr_spmv(A, x, y));
  double *yv = mt_all(y);
  for (int64_t i = 0; i < n; i++) {
    int64_t a = i / g, b = i % g;
    double s = 4 * fx(i) - (a > 0 ? fx(i - g) : 0) - (b > 0 ? fx(i - 1) : 0) - (b < g - 1 ? fx(i + 1) : 0) -
               (a < g - 1 ? fx(i + g) : 0);
    if (fabs(yv[i] - s) > 1e-12) { T_CHECK(0, "poisson %lld: y[%lld] = %g, expected %g", (long long)g, (long long)i, yv[i], s); break; }
  }
  int64_t ng;
  int nm;
  int64_t bytes;
  if (A) mn_csr_ghosts(A, &ng, &nm, &bytes);
  if (A && P > 1 && nl > g) T_CHECK(ng <= 2 * g && nm <= 2, "poisson ghosts: %lld columns in %d messages", (long long)ng, nm);
  free(yv); free(rp); free(c); free(v);
  mn_array_destroy(&x); mn_array_destroy(&y); mn_csr_destroy(&A);
}

/* y = A x with vectors that are not plain arrays of the matrix's split (a
 * view, a float32 output) takes the copying path and gives
 * the same y; vectors of the wrong size fail alike on every rank and
 * leave y alone */
static void check_vectors(mn_ctx *ctx) {
  coo a = make(40, 40, 300, 9);
  mn_csr *A = assemble(ctx, &a, MN_FLOAT64);
  const int64_t n = 40, n1 = 41;
  mn_array *x = NULL, *y = NULL, *xb = NULL, *xv = NULL, *yv = NULL, *yb = NULL, *yf = NULL;
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &x));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &y));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n1, 0, &xb));
  T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n1, 0, &yb));
  T_OK(mn_array_create(ctx, MN_FLOAT32, 1, &n, 0, &yf));
  if (!A || !x || !y || !xb || !yb || !yf) { drop(&a); return; }
  mt_set(x, fx);
  mt_set(xb, fx);
  mn_index head = mn_slice(0, 40, 1);
  T_OK(mn_array_index(xb, 1, &head, &xv)); /* x as a view of a longer array */
  T_OK(mn_array_index(yb, 1, &head, &yv));
  T_OK(mn_csr_spmv(A, xv, yv));
  T_OK(mn_csr_spmv(A, x, yf));
  double *got = mt_all(yb), *gf = mt_all(yf);
  for (int64_t i = 0; i < n; i++) {
    double s = 0;
    for (int64_t j = 0; j < n; j++) s += a.dense[i * n + j] * fx(j);
    if (fabs(got[i] - s) > 1e-12 * (1 + fabs(s)) || fabs(gf[i] - s) > 1e-5 * (1 + fabs(s))) {
      T_CHECK(0, "spmv through a view / into float32: y[%lld] = %g / %g, expected %g", (long long)i, got[i], gf[i], s);
      break;
    }
  }
  free(got);
  free(gf);
  T_OK(mn_array_fill(y, mn_scalar_f64(7)));
  int rc = mn_csr_spmv(A, xb, y), lo = rc, hi = rc;
  MPI_Allreduce(MPI_IN_PLACE, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  T_CHECK(rc == MN_ERR_SHAPE && lo == hi, "spmv with x of 41 returned %s", mn_err_name(rc));
  T_CHECK(strstr(mn_ctx_errmsg(ctx), "x must be 1-d of 40 elements for a 40 x 40 matrix, got 1-d of 41"),
          "message: %s", mn_ctx_errmsg(ctx));
  rc = mn_csr_spmv(A, x, yb);
  T_CHECK(rc == MN_ERR_SHAPE && strstr(mn_ctx_errmsg(ctx), "y must be 1-d of 40"), "spmv into y of 41: %s: %s",
          mn_err_name(rc), mn_ctx_errmsg(ctx));
  double *yk = mt_all(y);
  int64_t changed = 0;
  for (int64_t i = 0; i < n; i++) changed += yk[i] != 7;
  T_CHECK(changed == 0, "failed products changed %lld values of y", (long long)changed);
  free(yk);
  mn_array *all[] = {x, y, xb, xv, yv, yb, yf};
  for (size_t k = 0; k < sizeof all / sizeof *all; k++) mn_array_destroy(&all[k]);
  mn_csr_destroy(&A);
  drop(&a);
}

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  check_products(ctx, 50, 50, 400, MN_FLOAT64, 1);
  check_products(ctx, 37, 23, 200, MN_FLOAT64, 2);
  check_products(ctx, 23, 37, 200, MN_FLOAT32, 3);
  check_products(ctx, 2, 2, 5, MN_FLOAT64, 4);   /* fewer rows than ranks */
  check_products(ctx, 9, 1, 12, MN_FLOAT64, 5);
  check_products(ctx, 6, 6, 0, MN_FLOAT64, 6);   /* no entries at all */
  check_poisson(ctx, 30);
  /* a bad index: the same error on every rank, naming it */
  int64_t r[] = {0, 5}, c[] = {1, 9};
  double v[] = {1, 2};
  mn_csr *A = NULL;
  int rc = mn_csr_create_coo(ctx, 6, 6, MN_FLOAT64, mn_ctx_rank(ctx) == 0 ? 2 : 0, MN_INT64, r, c, v, &A);
  T_CHECK(rc == MN_ERR_INDEX && A == NULL, "column 9 of 6 returned %s", mn_err_name(rc));
  T_CHECK(strstr(mn_ctx_errmsg(ctx), "column index 9 is out of range for a matrix of 6 columns") != NULL,
          "message: %s", mn_ctx_errmsg(ctx));
  int64_t rp[] = {0, 0, 0};
  rc = mn_csr_create_rows(ctx, 6, 6, MN_FLOAT64, 2, rp, MN_INT64, c, v, &A); /* 2 rows on every rank */
  T_CHECK(mn_ctx_size(ctx) == 3 ? rc == MN_SUCCESS : rc == MN_ERR_ARG, "2 local rows of 6 at %d ranks returned %s",
          mn_ctx_size(ctx), mn_err_name(rc));
  mn_csr_destroy(&A);
  check_vectors(ctx);
  return mt_finish(&ctx);
}
