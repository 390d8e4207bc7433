/* Sorting: elements become (key, index, value) records whose unsigned key
 * orders as NumPy does (NaN last, -0.0 == 0.0), sorted by a stable LSD
 * radix sort. 1-d arrays use a sample sort across ranks; lines of N-d
 * arrays are moved whole onto one rank first. Lines whose values are on a
 * device (and a 1-d array on one rank) are sorted there by the backend
 * (kernels/sort.h); the sample sort across ranks runs on the host. */
#include "backend.h"
#include "exchange.h"
#include "spmd.h"
#include "sort_key.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct { uint64_t key; int64_t idx; uint64_t val; } rec;

static int rec_lt(const rec *a, const rec *b) { return a->key < b->key || (a->key == b->key && a->idx < b->idx); }
static int rec_cmp(const void *a, const void *b) { return rec_lt(a, b) ? -1 : rec_lt(b, a); }

/* Stable sort by key (records arrive in index order, so ties stay
 * ordered by index). tmp holds n records. Passes over a byte that every
 * key shares are skipped. */
static void radix(rec *a, rec *tmp, int64_t n) {
  if (n < 48) {
    for (int64_t i = 1; i < n; i++) {
      rec r = a[i];
      int64_t j = i;
      for (; j > 0 && r.key < a[j - 1].key; j--) a[j] = a[j - 1];
      a[j] = r;
    }
    return;
  }
  enum { BITS = 8, NB = 1 << BITS, PASSES = 8 };
  int64_t cnt[PASSES][NB];
  memset(cnt, 0, sizeof cnt);
  for (int64_t i = 0; i < n; i++)
    for (int p = 0; p < PASSES; p++) cnt[p][(a[i].key >> (p * BITS)) & (NB - 1)]++;
  rec *src = a, *dst = tmp;
  for (int p = 0; p < PASSES; p++) {
    int64_t s = 0, skip = 0;
    for (int b = 0; b < NB; b++) {
      if (cnt[p][b] == n) skip = 1;
      int64_t c = cnt[p][b];
      cnt[p][b] = s;
      s += c;
    }
    if (skip) continue; /* every key has this digit */
    for (int64_t i = 0; i < n; i++) dst[cnt[p][(src[i].key >> (p * BITS)) & (NB - 1)]++] = src[i];
    rec *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, sizeof(rec) * (size_t)n);
}

_Static_assert(MN_MAXDIM == MNI_SORT_MAXDIM, "kernels/sort.h's MNI_SORT_MAXDIM is MN_MAXDIM");

/* Each line of j sorted through the records r and t (len each): the host's
 * loop, and the emulated device's launch. */
static void lines_run(const mni_sort_job *j, rec *r, rec *t) {
  size_t es = mn_dtype_size((mn_dtype)j->t);
  int64_t st = j->st[j->axis];
  for (int64_t l = 0; l < j->lines; l++) {
    int64_t off = mni_sort_line_at(j, l);
    for (int64_t k = 0; k < j->len; k++) {
      r[k].key = mn_sort_key((mn_dtype)j->t, j->x + (off + k * st) * (int64_t)es, &r[k].val);
      r[k].idx = k;
    }
    radix(r, t, j->len);
    for (int64_t k = 0; k < j->len; k++) {
      if (j->out) memcpy(j->out + (off + k * st) * (int64_t)es, &r[k].val, es);
      if (j->perm) j->perm[off + k * st] = r[k].idx;
    }
  }
}

/* The job over the lines along axis of x's block l into the blocks at out
 * and perm (one layout, no halo: shared counts and strides, all positive). */
static void lines_job(mn_dtype t, const mn_local *l, int axis, char *out, int64_t *perm, mni_sort_job *j) {
  memset(j, 0, sizeof *j);
  j->t = (int)t;
  j->nd = l->ndim;
  j->axis = axis;
  j->x = l->data;
  j->out = out;
  j->perm = perm;
  int64_t span = 1;
  for (int d = 0; d < l->ndim; d++) {
    j->cnt[d] = l->data ? l->count[d] : 0;
    j->st[d] = l->stride[d];
    span += (j->cnt[d] - 1) * l->stride[d];
  }
  j->len = j->cnt[axis];
  j->lines = j->len ? mn_box_size(l->ndim, j->cnt) / j->len : 0;
  j->bytes = (size_t)span * mn_dtype_size(t);
  j->pbytes = (size_t)span * 8;
}

static int lines_host(const mni_sort_job *j) {
  rec *r = mn_malloc(sizeof(rec) * (size_t)(j->len + 1)), *t = mn_malloc(sizeof(rec) * (size_t)(j->len + 1));
  int err = r && t ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld sort records", (long long)j->len);
  if (!err) lines_run(j, r, t);
  mn_free(r);
  mn_free(t);
  return err;
}

int mni_emu_sort(const mni_sort_job *j) {
  if (!j->lines) return MN_SUCCESS;
  mni_emu_open(j->x, j->bytes, 0);
  if (j->out) mni_emu_open(j->out, j->bytes, 1);
  if (j->perm) mni_emu_open(j->perm, j->pbytes, 1);
  int err = lines_host(j);
  if (j->perm) mni_emu_close(j->perm, j->pbytes);
  if (j->out) mni_emu_close(j->out, j->bytes);
  mni_emu_close(j->x, j->bytes);
  return err;
}

/* Where x's block is on the device and the backend sorts: there. */
static int on_device(const mn_array *x) {
  const mn_buf *b = x->buf;
  return x->ctx->ops->sort && mn_buf_device_ok(b) && (b->valid & MN_VALID_DEV);
}

/* The lines along axis of X's block sorted into S's and I's (either may
 * be NULL), on the device (dev) or the host; one layout, no halo. */
static int sort_blocks(const mn_array *X, mn_array *S, mn_array *I, int axis, int dev) {
  mn_local lx, ls, li;
  mn_array_local_read(X, dev, &lx);
  if (S) mn_array_local_in(S, dev, &ls);
  if (I) mn_array_local_in(I, dev, &li);
  mni_sort_job j;
  lines_job(X->dtype, &lx, axis, S ? ls.data : NULL, I ? li.data : NULL, &j);
  return dev ? X->ctx->ops->sort(&j) : lines_host(&j);
}

/* Outputs from records: values (dtype t) and indices, each concatenated in
 * rank order into new 1-d arrays. */
static int emit(mn_ctx *ctx, mn_dtype t, const rec *r, int64_t n, mn_array **sorted, mn_array **perm) {
  size_t es = mn_dtype_size(t);
  int err = 0;
  char *v = mn_malloc((size_t)(n ? n : 1) * 8);
  MN_CALL(mn_agree(ctx, v ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld sorted elements", (long long)n)));
  if (sorted) {
    for (int64_t k = 0; k < n; k++) memcpy(v + k * (int64_t)es, &r[k].val, es);
    err = mn_array_concat_local(ctx, t, n, v, sorted);
  }
  if (!err && perm) {
    for (int64_t k = 0; k < n; k++) memcpy(v + k * 8, &r[k].idx, 8);
    err = mn_array_concat_local(ctx, MN_INT64, n, v, perm);
    if (err && sorted) mn_array_destroy(sorted);
  }
  mn_free(v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* Splitters from regular samples of every rank's sorted records; sends
 * each record to the rank of its splitter interval; returns the received
 * records sorted. Every rank holds all samples: 4 per rank, at most 2^20 in
 * all (24 MB, from 512 ranks up), so that memory stops growing as P^2. */
static int sample_exchange(mn_ctx *ctx, rec *r, int64_t n, rec **out, int64_t *nout) {
  int P = ctx->size, err = 0;
  int64_t cap = 4 * (int64_t)P < ((int64_t)1 << 20) / P ? 4 * (int64_t)P : ((int64_t)1 << 20) / P;
  if (cap < 1) cap = 1;
  int s = (int)(n < cap ? n : cap), *sc = malloc(sizeof(int) * 2 * (size_t)P);
  uint64_t *mine = malloc(sizeof(uint64_t) * 2 * (size_t)(s ? s : 1));
  int64_t *cnt = malloc(sizeof(int64_t) * 4 * (size_t)P);
  MN_CALL(mn_agree(ctx, sc && mine && cnt ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate sort samples")));
  for (int i = 0; i < s; i++) {
    const rec *q = &r[(int64_t)(i + 1) * n / (s + 1)];
    mine[2 * i] = q->key;
    mine[2 * i + 1] = (uint64_t)q->idx;
  }
  int s2 = 2 * s;
  MPI_Allgather(&s2, 1, MPI_INT, sc, 1, MPI_INT, ctx->comm);
  int S = 0;
  for (int q = 0; q < P; q++) { sc[P + q] = S; S += sc[q]; }
  rec *all = malloc(sizeof(rec) * (size_t)(S / 2 + 1));
  uint64_t *raw = malloc(sizeof(uint64_t) * (size_t)(S + 1));
  err = mn_agree(ctx, all && raw ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %d samples", S / 2));
  if (!err) {
    MPI_Allgatherv(mine, s2, MPI_UINT64_T, raw, sc, sc + P, MPI_UINT64_T, ctx->comm);
    S /= 2;
    for (int i = 0; i < S; i++) { all[i].key = raw[2 * i]; all[i].idx = (int64_t)raw[2 * i + 1]; all[i].val = 0; }
    /* samples by (key, index); an insertion sort here was O(P^3) */
    qsort(all, (size_t)S, sizeof(rec), rec_cmp);
    /* records of rank q: from the first at or after splitter q-1 */
    int64_t *pos = cnt + 2 * P;
    pos[0] = 0;
    for (int q = 1; q < P; q++) {
      if (S == 0) { pos[q] = n; continue; }
      const rec *sp = &all[(int64_t)q * S / P];
      int64_t lo = pos[q - 1], hi = n;
      while (lo < hi) {
        int64_t m = (lo + hi) / 2;
        if (rec_lt(&r[m], sp)) lo = m + 1;
        else hi = m;
      }
      pos[q] = lo;
    }
    for (int q = 0; q < P; q++) cnt[q] = ((q + 1 < P ? pos[q + 1] : n) - pos[q]) * (int64_t)sizeof(rec);
    char *rb = NULL;
    err = mn_exchange(ctx, (const char *)r, cnt, &rb, cnt + P, cnt + 2 * P);
    if (!err) {
      int64_t m = 0;
      for (int q = 0; q < P; q++) m += cnt[P + q];
      m /= (int64_t)sizeof(rec);
      rec *t2 = mn_malloc(sizeof(rec) * (size_t)(m ? m : 1));
      err = mn_agree(ctx, t2 ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld records", (long long)m));
      /* runs arrive in rank order, and rank order is index order: a
       * stable sort by key keeps ties ordered by index */
      if (!err) radix((rec *)rb, t2, m);
      mn_free(t2);
      if (err) mn_free(rb);
      else { *out = (rec *)rb; *nout = m; }
    }
  }
  free(sc); free(mine); free(cnt); free(all); free(raw);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* A 1-d array on one rank's device: new outputs written there. */
static int lines_1rank(const mn_array *x, mn_array **sorted, mn_array **perm) {
  mn_ctx *ctx = x->ctx;
  int64_t n = x->map.shape[0];
  int err = 0;
  if (sorted) err = mn_array_create_empty(ctx, x->dtype, 1, &n, sorted);
  if (!err && perm) err = mn_array_create_empty(ctx, MN_INT64, 1, &n, perm);
  if (!err) err = sort_blocks(x, sorted ? *sorted : NULL, perm ? *perm : NULL, 0, 1);
  if (err) {
    if (sorted) mn_array_destroy(sorted);
    if (perm) mn_array_destroy(perm);
  }
  return err;
}

static int sort_1d(const mn_array *x, mn_array **sorted, mn_array **perm) {
  mn_ctx *ctx = x->ctx;
  int64_t n = mn_array_size(x);
  mn_array *xf = NULL;
  MN_CALL(mn_array_reshape(x, 1, &n, &xf)); /* a plain block copy */
  if (ctx->size == 1 && on_device(xf)) { /* one line, sorted where it is */
    int err = lines_1rank(xf, sorted, perm);
    mn_array_destroy(&xf);
    if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
    return MN_SUCCESS;
  }
  mn_local l;
  mn_array_local_read(xf, 0, &l);
  int64_t ln = l.data ? l.count[0] : 0, b0 = mn_split_start(n, ctx->size, ctx->rank), m = 0;
  size_t es = mn_dtype_size(x->dtype);
  rec *r = mn_malloc(sizeof(rec) * (size_t)(ln ? ln : 1)), *t = mn_malloc(sizeof(rec) * (size_t)(ln ? ln : 1)), *got = NULL;
  int err = mn_agree(ctx, r && t ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld sort records", (long long)ln));
  if (!err) {
    for (int64_t i = 0; i < ln; i++) {
      r[i].key = mn_sort_key(x->dtype, (const char *)l.data + i * (int64_t)es, &r[i].val);
      r[i].idx = b0 + i;
    }
    radix(r, t, ln);
    if (ctx->size > 1) err = sample_exchange(ctx, r, ln, &got, &m);
    else { got = r; r = NULL; m = ln; }
  }
  if (!err) err = emit(ctx, x->dtype, got, m, sorted, perm);
  mn_free(r); mn_free(t); mn_free(got);
  mn_array_destroy(&xf);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* N-d: a layout with the sort axis undivided, each line sorted locally. */
static int sort_lines(const mn_array *x, int axis, mn_array **sorted, mn_array **perm) {
  mn_ctx *ctx = x->ctx;
  int nd = x->map.ndim, dims[MN_MAXDIM], err = 0;
  int64_t shp[MN_MAXDIM];
  memcpy(shp, x->map.shape, sizeof(int64_t) * (size_t)nd);
  shp[axis] = 1; /* extent-1 axes get one part */
  MN_CALL(mn_grid_dims(ctx->size, nd, shp, dims));
  if (dims[axis] != 1) { /* every other axis has extent 1: the grid went on axis 0 */
    dims[axis] = 1;
    dims[axis == 0 ? 1 : 0] = ctx->size;
  }
  mn_layout *lay = NULL;
  mn_array *X = NULL, *S = NULL, *I = NULL;
  MN_CALL(mn_layout_create_block(ctx, nd, x->map.shape, dims, &lay));
  MN_CALLG(err, mn_array_create_on(lay, x->dtype, 0, &X), done);
  MN_CALLG(err, mn_array_copy(x, X), done);
  if (sorted) MN_CALLG(err, mn_array_create_on(lay, x->dtype, 0, &S), done);
  if (perm) MN_CALLG(err, mn_array_create_on(lay, MN_INT64, 0, &I), done);
  MN_CALLG(err, mn_agree(ctx, sort_blocks(X, S, I, axis, on_device(X))), done);
  /* results in the default layout */
  if (sorted) {
    MN_CALLG(err, mn_array_create(ctx, x->dtype, nd, x->map.shape, 0, sorted), done);
    MN_CALLG(err, mn_array_copy(S, *sorted), done);
  }
  if (perm) {
    MN_CALLG(err, mn_array_create(ctx, MN_INT64, nd, x->map.shape, 0, perm), done);
    MN_CALLG(err, mn_array_copy(I, *perm), done);
  }
done:
  mn_array_destroy(&X);
  mn_array_destroy(&S);
  mn_array_destroy(&I);
  mn_layout_destroy(&lay);
  if (err) {
    if (sorted) mn_array_destroy(sorted);
    if (perm) mn_array_destroy(perm);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}

int mn_array_sort(const mn_array *x, int axis, mn_array **sorted, mn_array **perm) {
  MN_CHECK(x, MN_ERR_ARG, "NULL array");
  MN_CHECK(!mn_is_complex(x->dtype), MN_ERR_DTYPE, "sort has no %s keys", mn_dtype_name(x->dtype));
  if (sorted) *sorted = NULL;
  if (perm) *perm = NULL;
  MN_SPMD(x ? x->ctx : NULL, "mn_array_sort", mn_spmd_array(S, "x", x), mn_spmd_int(S, "axis", axis),
          mn_spmd_int(S, "perm wanted", perm != NULL));
  int nd = x->map.ndim;
  MN_CHECK(nd > 0, MN_ERR_INDEX, "axis %d is out of bounds for array of dimension 0", axis);
  MN_CHECK(axis >= -nd && axis < nd, MN_ERR_INDEX, "axis %d is out of bounds for array of dimension %d", axis, nd);
  if (axis < 0) axis += nd;
  if (!sorted && !perm) return MN_SUCCESS;
  if (nd == 1) MN_CALL(sort_1d(x, sorted, perm));
  else MN_CALL(sort_lines(x, axis, sorted, perm));
  return MN_SUCCESS;
}
