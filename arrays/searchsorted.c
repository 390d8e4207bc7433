/* searchsorted over a sorted 1-d array spread over the ranks: every rank
 * knows the first key of each block, so each value is sent to the one rank
 * whose block holds its insertion point, which answers with the global
 * position. */
#include "exchange.h"
#include "spmd.h"
#include "sort_key.h"
#include <stdlib.h>

/* Position in the sorted keys k[0..n) before the first key >= v (left) or
 * > v (right). */
static int64_t bound(const uint64_t *k, int64_t n, uint64_t v, int right) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t m = (lo + hi) / 2;
    if (right ? k[m] <= v : k[m] < v) lo = m + 1;
    else hi = m;
  }
  return lo;
}

int mn_array_searchsorted(const mn_array *a, const mn_array *v, int right, mn_array *out) {
  MN_CHECK(a && v && out, MN_ERR_ARG, "NULL array");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_searchsorted", mn_spmd_array(S, "a", a), mn_spmd_array(S, "v", v),
          mn_spmd_int(S, "right", right), mn_spmd_array(S, "out", out));
  MN_CHECK(a->ctx == v->ctx && a->ctx == out->ctx, MN_ERR_ARG, "arrays belong to different contexts");
  MN_CHECK(!mn_is_complex(a->dtype), MN_ERR_DTYPE, "searchsorted has no %s keys", mn_dtype_name(a->dtype));
  MN_CHECK(a->map.ndim == 1, MN_ERR_SHAPE, "the sorted array must be 1-d, got %d dimensions", a->map.ndim);
  MN_CHECK(a->dtype == v->dtype, MN_ERR_DTYPE, "the sorted array (%s) and the values (%s) must have one dtype",
           mn_dtype_name(a->dtype), mn_dtype_name(v->dtype));
  int same = v->map.ndim == out->map.ndim;
  for (int d = 0; same && d < v->map.ndim; d++) same = v->map.shape[d] == out->map.shape[d];
  MN_CHECK(same, MN_ERR_SHAPE, "the output must have the values' shape");
  mn_ctx *ctx = a->ctx;
  int P = ctx->size, me = ctx->rank, err = 0, own_o = 0, own_v = 0;
  int64_t N = mn_array_size(a), na = 0, nv = 0;
  size_t es = mn_dtype_size(a->dtype);
  mn_array *A = NULL, *O = out, *V = NULL;
  MN_CALL(mn_array_reshape(a, 1, &N, &A));
  if (out->is_view || out->dtype != MN_INT64) {
    MN_CALLG(err, mn_array_create_like(out, MN_INT64, &O), done);
    own_o = 1;
  }
  MN_CALLG(err, mn_as_base(v, v->dtype, O, &V, &own_v), done);
  char *ad = mn_local_dense(A, &na), *vd = mn_local_dense(V, &nv);
  uint64_t *ka = malloc(sizeof(uint64_t) * (size_t)(na + 1)), *kv = malloc(sizeof(uint64_t) * (size_t)(nv + 1)), raw;
  uint64_t *first = malloc(sizeof(uint64_t) * 3 * (size_t)P), *fk = first + 2 * P;
  int *rk = malloc(sizeof(int) * (size_t)P);
  int64_t *cnt = malloc(sizeof(int64_t) * 6 * (size_t)P), *order = malloc(sizeof(int64_t) * (size_t)(nv + 1));
  int *dst = malloc(sizeof(int) * (size_t)(nv + 1));
  int64_t *res = malloc(sizeof(int64_t) * (size_t)(nv + 1));
  char *req = NULL, *ans = NULL, *back = NULL;
  uint64_t *sreq = malloc(sizeof(uint64_t) * (size_t)(nv + 1));
  err = mn_agree(ctx, ad && vd && ka && kv && first && rk && cnt && order && dst && res && sreq
                          ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate searchsorted buffers"));
  if (!err) {
    for (int64_t i = 0; i < na; i++) ka[i] = mn_sort_key(a->dtype, ad + i * (int64_t)es, &raw);
    for (int64_t i = 0; i < nv; i++) kv[i] = mn_sort_key(a->dtype, vd + i * (int64_t)es, &raw);
    uint64_t mine[2] = {na > 0, na > 0 ? ka[0] : 0};
    MPI_Allgather(mine, 2, MPI_UINT64_T, first, 2, MPI_UINT64_T, ctx->comm);
    /* the last rank with data whose first key is below (or at, right) v */
    int64_t *c = cnt, *pos = cnt + P, nr = 0;
    for (int q = 0; q < P; q++) { /* the ranks with data and their first keys */
      c[q] = 0;
      if (first[2 * q]) { rk[nr] = q; fk[nr++] = first[2 * q + 1]; }
    }
    for (int64_t i = 0; i < nv; i++) {
      int64_t j = bound(fk, nr, kv[i], right);
      int d = j > 0 ? rk[j - 1] : -1;
      dst[i] = d;
      res[i] = 0;
      if (d >= 0) c[d]++;
    }
    mn_prefix(P, c, pos);
    for (int64_t i = 0; i < nv; i++)
      if (dst[i] >= 0) { order[i] = pos[dst[i]]++; sreq[order[i]] = kv[i]; }
    for (int q = 0; q < P; q++) c[q] *= 8;
    err = mn_exchange(ctx, (const char *)sreq, c, &req, cnt + 2 * P, cnt + 3 * P);
  }
  if (!err) {
    int64_t m = 0, off = mn_split_start(N, P, me);
    for (int q = 0; q < P; q++) m += cnt[2 * P + q];
    m /= 8;
    ans = mn_malloc(sizeof(int64_t) * (size_t)(m + 1));
    err = mn_agree(ctx, ans ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld answers", (long long)m));
    if (!err) {
      for (int64_t k = 0; k < m; k++) ((int64_t *)ans)[k] = off + bound(ka, na, ((uint64_t *)req)[k], right);
      err = mn_exchange(ctx, ans, cnt + 2 * P, &back, cnt + 4 * P, cnt + 5 * P);
    }
  }
  if (!err) {
    for (int64_t i = 0; i < nv; i++)
      if (dst[i] >= 0) res[i] = ((int64_t *)back)[order[i]];
    mn_local_store(O, (const char *)res);
    if (O != out) err = mn_array_copy(O, out);
  }
  mn_free(ad); mn_free(vd); free(ka); free(kv); free(first); free(rk); free(cnt); free(order); free(dst); free(res);
  free(sreq); mn_free(req); mn_free(ans); mn_free(back);
done:
  mn_array_destroy(&A);
  if (own_o) mn_array_destroy(&O);
  if (own_v) mn_array_destroy(&V);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
