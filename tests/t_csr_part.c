/* A matrix renumbered by a partition: the 2-d 5-point Laplacian of a mesh
 * whose numbering is shuffled; METIS and PT-Scotch cut the ghost volume at
 * least 5x at 4 ranks against the equal split (PT-Scotch within 20% of
 * METIS), and y = A x is unchanged once mapped back. */
#include "mn_test.h"

static uint64_t lcg(uint64_t *s) { *s = *s * 6364136223846793005ULL + 1442695040888963407ULL; return *s >> 33; }
static double fx(int64_t k) { return 0.25 * (double)(k % 17) - 1.0; }

int main(int argc, char **argv) {
  mn_ctx *ctx = mt_init(argc, argv);
  int P = mn_ctx_size(ctx), me = mn_ctx_rank(ctx);
  int64_t g = 40, n = g * g;
  int64_t *perm = malloc(sizeof(int64_t) * (size_t)n), *inv = malloc(sizeof(int64_t) * (size_t)n);
  for (int64_t i = 0; i < n; i++) perm[i] = i;
  uint64_t s = 11;
  for (int64_t i = n - 1; i > 0; i--) { /* the same shuffle on every rank */
    int64_t j = (int64_t)(lcg(&s) % (uint64_t)(i + 1)), t = perm[i];
    perm[i] = perm[j];
    perm[j] = t;
  }
  for (int64_t i = 0; i < n; i++) inv[perm[i]] = i;
  /* my rows of the shuffled matrix: shuffled row k is mesh point inv[k] */
  int64_t r0 = mn_split_start(n, P, me), nl = mn_split_size(n, P, me), k = 0;
  int64_t *rp = malloc(sizeof(int64_t) * (size_t)(nl + 1)), *c = malloc(sizeof(int64_t) * (size_t)(5 * nl + 1));
  double *v = malloc(sizeof(double) * (size_t)(5 * nl + 1));
  rp[0] = 0;
  for (int64_t q = r0; q < r0 + nl; q++) {
    int64_t i = inv[q], a = i / g, b = i % g;
    int64_t nb[5] = {a > 0 ? i - g : -1, b > 0 ? i - 1 : -1, i, b < g - 1 ? i + 1 : -1, a < g - 1 ? i + g : -1};
    for (int t = 0; t < 5; t++)
      if (nb[t] >= 0) { c[k] = perm[nb[t]]; v[k++] = nb[t] == i ? 4.0 : -1.0; }
    rp[q - r0 + 1] = k;
  }
  mn_csr *A = NULL;
  T_OK(mn_csr_create_rows(ctx, n, n, MN_FLOAT64, nl, rp, MN_INT64, c, v, &A));
  mn_array *x = mt_new(ctx, MN_FLOAT64, 1, &n, fx), *y = mt_new(ctx, MN_FLOAT64, 1, &n, NULL);
  T_OK(mn_csr_spmv(A, x, y));
  double *want = mt_all(y);
  int64_t ghost[3] = {0, 0, 0};
  static const char *name[] = {"equal", "metis", "ptscotch"};
  for (int kind = 0; kind < 3; kind++) { /* MN_PART_EQUAL, _METIS, _PTSCOTCH */
    mn_partition *p = NULL;
    mn_csr *B = NULL;
    int rc = mn_csr_partition(A, (mn_part_kind)kind, &p);
    if (rc == MN_ERR_NOTIMPL) { ghost[kind] = -1; continue; } /* not in this build */
    T_CHECK(rc == 0, "%s: %s\n%s", name[kind], mn_err_name(rc), mn_ctx_errmsg(ctx));
    if (p) T_OK(mn_csr_permute(A, p, &B));
    if (!B) { mn_partition_destroy(&p); continue; }
    int64_t ng, bytes, all = 0;
    int nm;
    mn_csr_ghosts(B, &ng, &nm, &bytes);
    MPI_Allreduce(&ng, &all, 1, MPI_INT64_T, MPI_SUM, mn_ctx_comm(ctx));
    ghost[kind] = all;
    T_CHECK(mn_csr_nnz(B) == mn_csr_nnz(A), "renumbered nnz %lld, was %lld", (long long)mn_csr_nnz(B), (long long)mn_csr_nnz(A));
    /* y = A x, in the new numbering and back */
    mn_array *xn = NULL, *yn = NULL, *yo = NULL;
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &xn));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &yn));
    T_OK(mn_array_create(ctx, MN_FLOAT64, 1, &n, 0, &yo));
    T_OK(mn_partition_to_new(p, x, xn));
    T_OK(mn_csr_spmv(B, xn, yn));
    T_OK(mn_partition_to_old(p, yn, yo));
    double *got = mt_all(yo);
    for (int64_t i = 0; i < n; i++)
      if (fabs(got[i] - want[i]) > 1e-12) { T_CHECK(0, "%s: y[%lld] = %g, expected %g", name[kind], (long long)i, got[i], want[i]); break; }
    free(got);
    mn_array_destroy(&xn); mn_array_destroy(&yn); mn_array_destroy(&yo);
    mn_csr_destroy(&B);
    mn_partition_destroy(&p);
  }
  for (int kind = 1; kind < 3; kind++) {
    if (ghost[kind] < 0) continue;
    if (P == 4) T_CHECK(ghost[kind] * 5 <= ghost[0], "%s ghost volume %lld, equal %lld: less than 5x smaller", name[kind],
                        (long long)ghost[kind], (long long)ghost[0]);
    if (P == 1) T_CHECK(ghost[kind] == 0, "%s: %lld ghosts on one rank", name[kind], (long long)ghost[kind]);
  }
  if (ghost[1] >= 0 && ghost[2] >= 0)
    T_CHECK(10 * ghost[2] <= 12 * ghost[1], "PT-Scotch ghost volume %lld, over 1.2x METIS's %lld", (long long)ghost[2],
            (long long)ghost[1]);
  if (me == 0) printf("ghost volume at %d ranks: equal %lld, METIS %lld, PT-Scotch %lld\n", P, (long long)ghost[0],
                      (long long)ghost[1], (long long)ghost[2]);
  /* a rectangular matrix has no graph */
  mn_csr *R = NULL;
  mn_partition *p = NULL;
  int64_t rr[] = {0}, cc[] = {0};
  double vv[] = {1};
  T_OK(mn_csr_create_coo(ctx, 3, 4, MN_FLOAT64, 1, MN_INT64, rr, cc, vv, &R));
  int rc = mn_csr_partition(R, MN_PART_GRAPH, &p);
  T_CHECK(rc == MN_ERR_SHAPE && p == NULL, "partition of a 3 x 4 matrix returned %s", mn_err_name(rc));
  free(want); free(perm); free(inv); free(rp); free(c); free(v);
  mn_array_destroy(&x); mn_array_destroy(&y); mn_csr_destroy(&A); mn_csr_destroy(&R);
  return mt_finish(&ctx);
}
