/* Row-distributed CSR: assembly from COO triplets or local rows, the split
 * into diagonal and off-diagonal blocks, and the ghost plan. */
#define _DEFAULT_SOURCE /* sysconf's page counts, getrlimit */
#include "csr_impl.h"
#include "spmd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

enum { GHOST_TAG = 300 };

/* ---- memory ---- */
static int64_t meminfo_available(void) { /* Linux: MemAvailable, in bytes */
  FILE *f = fopen("/proc/meminfo", "r");
  if (!f) return -1;
  char line[256];
  long long kb = -1;
  while (kb < 0 && fgets(line, sizeof line, f))
    if (sscanf(line, "MemAvailable: %lld kB", &kb) != 1) kb = -1;
  fclose(f);
  return kb >= 0 && kb <= INT64_MAX / 1024 ? (int64_t)kb * 1024 : -1;
}

static int64_t mapped_bytes(void) { /* this process's address space in use */
  FILE *f = fopen("/proc/self/statm", "r");
  long long pages = -1;
  if (f) {
    if (fscanf(f, "%lld", &pages) != 1) pages = -1;
    fclose(f);
  }
  long ps = sysconf(_SC_PAGESIZE);
  return pages >= 0 && ps > 0 ? (int64_t)pages * ps : 0;
}

static int64_t node_available(const char **src) {
  int64_t avail = meminfo_available();
  *src = "MemAvailable";
  if (avail < 0) {
    long pages = sysconf(_SC_AVPHYS_PAGES), ps = sysconf(_SC_PAGESIZE);
    *src = "free physical pages";
    avail = pages > 0 && ps > 0 && pages <= INT64_MAX / ps ? (int64_t)pages * ps : -1;
  }
  return avail;
}

int64_t mn_mem_available(const char **source) {
  const char *src;
  int64_t avail = node_available(&src);
  /* MANIPLE_MEM_LIMIT (bytes per rank) lowers the figure: the fuzz targets
   * refuse what ASan's address space (no ulimit -v) would let them try */
  const char *lim = getenv("MANIPLE_MEM_LIMIT");
  char *end = NULL;
  long long l = lim && *lim ? strtoll(lim, &end, 10) : -1;
  if (end && !*end && l >= 0 && (avail < 0 || l < avail)) { avail = l; src = "MANIPLE_MEM_LIMIT"; }
  struct rlimit rl;
  if (!getrlimit(RLIMIT_AS, &rl) && rl.rlim_cur != RLIM_INFINITY && rl.rlim_cur <= (rlim_t)INT64_MAX) {
    int64_t left = (int64_t)rl.rlim_cur - mapped_bytes();
    if (left < 0) left = 0;
    if (avail < 0 || left < avail) { avail = left; src = "the address-space limit (ulimit -v) less what is mapped"; }
  }
  if (source) *source = avail < 0 ? "unknown" : src;
  return avail;
}

static double gib(int64_t b) { return (double)b / (double)(1 << 30); }

int mn_mem_fits(mn_ctx *ctx, int64_t need, int node, const char *what) {
  if (!node && need < MN_MEM_QUERY) return MN_SUCCESS; /* small: no system calls (a failed malloc still says) */
  const char *src, *nsrc;
  int64_t avail = mn_mem_available(&src), node_avail = node_available(&nsrc), sum = need;
  int n = 1;
  if (node) { /* ranks on one node draw on one MemAvailable; every rank takes part, whatever its own verdict */
    MPI_Comm nc;
    MN_MPI(MPI_Comm_split_type(ctx->comm, MPI_COMM_TYPE_SHARED, ctx->rank, MPI_INFO_NULL, &nc));
    int rc = MPI_Allreduce(&need, &sum, 1, MPI_INT64_T, MPI_SUM, nc);
    if (rc == MPI_SUCCESS) rc = MPI_Comm_size(nc, &n);
    MPI_Comm_free(&nc);
    MN_CHECK(rc == MPI_SUCCESS, MN_ERR_MPI, "cannot add up the memory that the ranks of a node need");
  }
  if (avail >= 0 && need > avail)
    return MN_ERR(MN_ERR_MEM, "%s: needs about %lld bytes (%.1f GiB) on rank %d, more than the %lld bytes (%.1f GiB) "
                  "available (%s)", what, (long long)need, gib(need), ctx->rank, (long long)avail, gib(avail), src);
  if (n > 1 && node_avail >= 0 && sum > node_avail)
    return MN_ERR(MN_ERR_MEM, "%s: the %d ranks on rank %d's node need about %lld bytes (%.1f GiB) together, more than "
                  "the %lld bytes (%.1f GiB) available there (%s)", what, n, ctx->rank, (long long)sum, gib(sum),
                  (long long)node_avail, gib(node_avail), nsrc);
  return MN_SUCCESS;
}

/* Before assembling a matrix of nrows rows from n entries on this rank:
 * the row tables (three of nl + 1 int64: row counts and the two blocks'
 * pointers) must not overflow, and with the entries (40-byte records sent
 * and received, then columns, values and the blocks' copies: about 100
 * bytes each) they must fit in memory. Overflow is judged on rank 0's
 * share, the largest, so every rank finds it alike; the memory verdict is
 * this rank's (the caller agrees). Collective when the rows are many. */
static int assembly_fits(mn_ctx *ctx, int64_t nrows, int64_t ncols, int64_t n) {
  int P = ctx->size, me = ctx->rank;
  int64_t nl0 = mn_split_size(nrows, P, 0), nl = mn_split_size(nrows, P, me);
  int64_t rows0 = mn_csr_nbytes(nl0, 24), rows = mn_csr_nbytes(nl, 24), ents, need;
  MN_CHECK(rows0 >= 0, MN_ERR_SHAPE, "a matrix of %lld rows: rank 0's %lld rows need three tables of %lld + 1 row "
           "pointers of 8 bytes, and that byte count overflows int64", (long long)nrows, (long long)nl0, (long long)nl0);
  if (n < 0 || __builtin_mul_overflow(n, (int64_t)(2 * sizeof(mn_coo_rec) + 24), &ents) || __builtin_add_overflow(rows, ents, &need)) need = INT64_MAX;
  char what[200];
  snprintf(what, sizeof what, "assembling a %lld x %lld matrix (%lld rows and %lld entries on rank %d)",
           (long long)nrows, (long long)ncols, (long long)nl, (long long)n, me);
  return mn_mem_fits(ctx, need, rows0 >= MN_MEM_NODE_CHECK, what);
}

static int64_t get_index(mn_dtype it, const void *a, int64_t k) {
  return it == MN_INT32 ? (int64_t)((const int32_t *)a)[k] : ((const int64_t *)a)[k];
}

/* The ghost plan: each owner sends the x entries my ghost columns name
 * (its index list, learnt once here); they land in the plan's receive
 * buffer in garray's order, which is the ghost vector. */
static int ghost_plan(mn_csr *A) {
  mn_ctx *ctx = A->ctx;
  int P = ctx->size, me = ctx->rank, err = 0;
  int64_t *cnt = calloc((size_t)P * 3, sizeof(int64_t)), *rdisp = cnt + P, *rcnt = cnt + 2 * P;
  mn_plan *p = calloc(1, sizeof *p);
  char *rbuf = NULL;
  MN_CALL(mn_agree(ctx, cnt && p ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate a ghost plan")));
  /* garray is sorted, so grouped by owner in rank order: the receives,
   * posted in rank order, fill the ghost vector in garray's order */
  for (int64_t k = 0; k < A->nghost; k++) cnt[mn_split_owner(A->ncols, P, A->garray[k])] += 8; /* bytes */
  int64_t *sb = cnt;
  /* ask each owner for its entries: send my ghost column lists */
  int64_t *req = malloc(sizeof(int64_t) * (size_t)(A->nghost + 1));
  err = mn_agree(ctx, req ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate ghost requests"));
  if (!err) {
    memcpy(req, A->garray, sizeof(int64_t) * (size_t)A->nghost);
    err = mn_exchange(ctx, (const char *)req, sb, &rbuf, rcnt, rdisp);
  }
  free(req);
  if (!err) {
    p->ctx = ctx;
    p->refs = 1;
    p->elsize = mn_dtype_size(A->dtype);
    p->tag = GHOST_TAG;
    p->sends = calloc((size_t)P, sizeof(mn_msg));
    p->recvs = calloc((size_t)P, sizeof(mn_msg));
    if (!p->sends || !p->recvs) err = MN_ERR(MN_ERR_MEM, "cannot allocate ghost messages");
    for (int q = 0; q < P && !err; q++) {
      if (q == me) continue;
      if (cnt[q]) { /* I receive cnt[q] / 8 entries from q */
        mn_msg *r = &p->recvs[p->nrecv++];
        r->peer = q;
        r->tag = GHOST_TAG;
        r->count = cnt[q] / 8;
        r->nd = 1;
        r->cnt[0] = r->count;
        r->stride[0] = 1;
      }
      if (rcnt[q]) { /* q wants these of my columns */
        mn_msg *s = &p->sends[p->nsend++];
        s->peer = q;
        s->tag = GHOST_TAG;
        s->count = rcnt[q] / 8;
        s->idx = malloc(sizeof(int64_t) * (size_t)s->count);
        if (!s->idx) { err = MN_ERR(MN_ERR_MEM, "cannot allocate a ghost index list"); break; }
        const int64_t *g = (const int64_t *)(rbuf + rdisp[q]);
        for (int64_t k = 0; k < s->count; k++) s->idx[k] = g[k] - A->col0;
      }
    }
    if (!err) err = mn_plan_alloc(p);
  }
  mn_free(rbuf);
  free(cnt);
  err = mn_agree(ctx, err);
  if (err) { mn_plan_free(p); return mn_trace(err, __FILE__, __LINE__, __func__); }
  A->ghost = p;
  return MN_SUCCESS;
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

static int64_t find(const int64_t *a, int64_t n, int64_t v) {
  int64_t lo = 0, hi = n;
  while (lo < hi) {
    int64_t m = (lo + hi) / 2;
    if (a[m] < v) lo = m + 1;
    else hi = m;
  }
  return lo;
}

uint64_t mni_csr_new_state(void) {
  static _Atomic uint64_t last; /* matrices may be made from several threads */
  return ++last;
}

uint64_t mni_csr_state(const mn_csr *A) { return A->state; }

void mni_csr_changed(mn_csr *A) {
  mni_csr_dev_drop(A);
  A->state = mni_csr_new_state();
}

int mn_csr_from_sorted_rows(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, const int64_t *rowptr,
                            const int64_t *cols, const void *vals, mn_csr **out) {
  int P = ctx->size, me = ctx->rank, err = 0;
  mn_csr *A = calloc(1, sizeof *A);
  MN_CALL(mn_agree(ctx, A ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate a matrix header")));
  A->ctx = ctx;
  A->state = mni_csr_new_state();
  A->nrows = nrows;
  A->ncols = ncols;
  A->dtype = dtype;
  A->row0 = mn_split_start(nrows, P, me);
  A->nlocal = mn_split_size(nrows, P, me);
  A->col0 = mn_split_start(ncols, P, me);
  A->ncloc = mn_split_size(ncols, P, me);
  int64_t n = A->nlocal, nnz = rowptr[n], nd = 0, no = 0, c1 = A->col0 + A->ncloc;
  for (int64_t k = 0; k < nnz; k++) {
    if (cols[k] >= A->col0 && cols[k] < c1) nd++;
    else no++;
  }
  int64_t es = (int64_t)mn_dtype_size(dtype), bp = mn_csr_nbytes(n, 8), bd = mn_csr_nbytes(nd, 4 + es),
          bo = mn_csr_nbytes(no, 4 + es + 8), total = -1, ptrs, ents;
  if (bp >= 0 && bd >= 0 && bo >= 0 && !__builtin_mul_overflow(bp, 3, &ptrs) && !__builtin_add_overflow(bd, bo, &ents) &&
      !__builtin_add_overflow(ptrs, ents, &total)) {
    A->dptr = malloc((size_t)bp);
    A->optr = malloc((size_t)bp);
    A->dcol = malloc(sizeof(int32_t) * (size_t)(nd + 1));
    A->ocol = malloc(sizeof(int32_t) * (size_t)(no + 1));
    A->dval = mn_malloc((size_t)es * (size_t)(nd + 1));
    A->oval = mn_malloc((size_t)es * (size_t)(no + 1));
    A->garray = malloc(sizeof(int64_t) * (size_t)(no + 1));
    A->brow = malloc((size_t)bp);
  }
  if (!A->dptr || !A->optr || !A->dcol || !A->ocol || !A->dval || !A->oval || !A->garray || !A->brow)
    err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for %lld local rows and %lld local entries%s", (long long)total,
                 (long long)n, (long long)nnz, total < 0 ? " (the byte count overflows int64)" : "");
  else if (A->ncloc > INT32_MAX || no > INT32_MAX)
    err = MN_ERR(MN_ERR_NOTIMPL, "a rank holds %lld columns and %lld off-diagonal entries; local indices are 32-bit",
                 (long long)A->ncloc, (long long)no);
  if (!err) {
    /* ghosts: the sorted distinct off-diagonal columns */
    int64_t m = 0;
    for (int64_t k = 0; k < nnz; k++)
      if (!(cols[k] >= A->col0 && cols[k] < c1)) A->garray[m++] = cols[k];
    qsort(A->garray, (size_t)m, sizeof(int64_t), cmp_i64);
    int64_t u = 0;
    for (int64_t k = 0; k < m; k++)
      if (u == 0 || A->garray[k] != A->garray[u - 1]) A->garray[u++] = A->garray[k];
    A->nghost = u;
    int64_t a = 0, b = 0;
    A->dptr[0] = A->optr[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      for (int64_t k = rowptr[i]; k < rowptr[i + 1]; k++) {
        const char *v = (const char *)vals + k * es;
        if (cols[k] >= A->col0 && cols[k] < c1) {
          A->dcol[a] = (int32_t)(cols[k] - A->col0);
          memcpy((char *)A->dval + a++ * es, v, (size_t)es);
        } else {
          A->ocol[b] = (int32_t)find(A->garray, u, cols[k]);
          memcpy((char *)A->oval + b++ * es, v, (size_t)es);
        }
      }
      A->dptr[i + 1] = a;
      A->optr[i + 1] = b;
      if (b > A->optr[i]) A->brow[A->nbrow++] = i;
    }
  }
  err = mn_agree(ctx, err);
  if (!err) {
    int64_t mine = nnz;
    mn_allreduce(ctx, &mine, &A->nnz, 1, MPI_INT64_T, MPI_SUM);
    err = ghost_plan(A);
  }
  if (err) { mn_csr_destroy(&A); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *out = A;
  return MN_SUCCESS;
}

static int cmp_rec(const void *a, const void *b) {
  const mn_coo_rec *x = a, *y = b;
  if (x->row != y->row) return x->row < y->row ? -1 : 1;
  if (x->col != y->col) return x->col < y->col ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

int mn_csr_from_records(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, mn_coo_rec *r, int64_t n,
                        mn_csr **A) {
  int P = ctx->size, me = ctx->rank, err = 0;
  int64_t row0 = mn_split_start(nrows, P, me), nl = mn_split_size(nrows, P, me);
  qsort(r, (size_t)n, sizeof *r, cmp_rec);
  int64_t br = mn_csr_nbytes(nl, 8), be = mn_csr_nbytes(n, 8 + (int64_t)mn_dtype_size(dtype)), total = -1;
  if (br >= 0 && be >= 0 && __builtin_add_overflow(br, be, &total)) total = -1;
  int64_t *rowptr = total >= 0 ? calloc((size_t)(nl + 1), sizeof(int64_t)) : NULL;
  int64_t *cols = total >= 0 ? malloc(sizeof(int64_t) * (size_t)(n + 1)) : NULL;
  void *vals = total >= 0 ? mn_malloc(mn_dtype_size(dtype) * (size_t)(n + 1)) : NULL;
  err = mn_agree(ctx, rowptr && cols && vals ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for the row counts "
                 "of %lld local rows and %lld entries%s", (long long)total, (long long)nl, (long long)n,
                 total < 0 ? " (the byte count overflows int64)" : ""));
  if (!err) { /* duplicates summed in (row, col, arrival) order */
    int64_t m = 0;
    for (int64_t k = 0; k < n;) {
      mni_sval s = mni_sv_i(0); /* (0 in both forms) */
      int64_t j = k;
      for (; j < n && r[j].row == r[k].row && r[j].col == r[k].col; j++) s = mni_sv_add(dtype, s, r[j].val);
      cols[m] = r[k].col;
      mni_csr_put(dtype, vals, m, s);
      rowptr[r[k].row - row0 + 1]++;
      m++;
      k = j;
    }
    for (int64_t i = 0; i < nl; i++) rowptr[i + 1] += rowptr[i];
    err = mn_csr_from_sorted_rows(ctx, nrows, ncols, dtype, rowptr, cols, vals, A);
  }
  free(rowptr);
  free(cols);
  mn_free(vals);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

static int check_common(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, mn_dtype itype) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  MN_CHECK(nrows >= 0 && ncols >= 0, MN_ERR_SHAPE, "a matrix cannot have %lld rows and %lld columns",
           (long long)nrows, (long long)ncols);
  MN_CHECK(mni_csr_dtype_ok(dtype), MN_ERR_DTYPE,
           "sparse matrices hold bool, integer, float32, float64, complex64 or complex128 values, not %s", mn_dtype_name(dtype));
  MN_CHECK(itype == MN_INT32 || itype == MN_INT64, MN_ERR_DTYPE, "indices must be int32 or int64, not %s",
           mn_dtype_name(itype));
  return MN_SUCCESS;
}

int mn_csr_create_coo(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, int64_t n, mn_dtype itype,
                      const void *rows, const void *cols, const void *vals, mn_csr **A) {
  MN_CHECK(A, MN_ERR_ARG, "NULL output");
  *A = NULL;
  MN_SPMD(ctx, "mn_csr_create_coo", mn_spmd_int(S, "nrows", nrows), mn_spmd_int(S, "ncols", ncols),
          mn_spmd_dtype(S, "dtype", dtype), mn_spmd_dtype(S, "itype", itype));
  int err = check_common(ctx, nrows, ncols, dtype, itype);
  if (!err) err = assembly_fits(ctx, nrows, ncols, n); /* on every rank alike: check_common's verdict is global */
  if (!err && n < 0) err = MN_ERR(MN_ERR_ARG, "negative entry count %lld", (long long)n);
  if (!err && n > 0 && (!rows || !cols || !vals)) err = MN_ERR(MN_ERR_ARG, "NULL triplet arrays");
  for (int64_t k = 0; !err && k < n; k++) {
    int64_t i = get_index(itype, rows, k), j = get_index(itype, cols, k);
    if (i < 0 || i >= nrows)
      err = MN_ERR(MN_ERR_INDEX, "entry %lld: row index %lld is out of range for a matrix of %lld rows", (long long)k,
                   (long long)i, (long long)nrows);
    else if (j < 0 || j >= ncols)
      err = MN_ERR(MN_ERR_INDEX, "entry %lld: column index %lld is out of range for a matrix of %lld columns",
                   (long long)k, (long long)j, (long long)ncols);
  }
  err = mn_agree(ctx, err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  /* every entry to its row's owner, in my order */
  int P = ctx->size;
  int64_t *cnt = calloc((size_t)P * 4, sizeof(int64_t)), *pos = cnt + P, *rcnt = cnt + 2 * P, *rdisp = cnt + 3 * P;
  mn_coo_rec *s = mn_malloc(sizeof(mn_coo_rec) * (size_t)(n + 1));
  char *rb = NULL;
  err = mn_agree(ctx, cnt && s ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for %lld triplets",
                                            (long long)(sizeof(mn_coo_rec) * (size_t)(n + 1)), (long long)n));
  if (!err) {
    for (int64_t k = 0; k < n; k++) cnt[mn_split_owner(nrows, P, get_index(itype, rows, k))]++;
    mn_prefix(P, cnt, pos);
    for (int64_t k = 0; k < n; k++) {
      int64_t i = get_index(itype, rows, k);
      mn_coo_rec *q = &s[pos[mn_split_owner(nrows, P, i)]++];
      q->row = i;
      q->col = get_index(itype, cols, k);
      q->seq = 0;
      q->val = mn_csr_val(dtype, vals, k);
    }
    for (int q = 0; q < P; q++) cnt[q] *= (int64_t)sizeof(mn_coo_rec);
    err = mn_exchange(ctx, (const char *)s, cnt, &rb, rcnt, rdisp);
  }
  mn_free(s);
  if (!err) {
    int64_t m = 0;
    for (int q = 0; q < P; q++) m += rcnt[q];
    m /= (int64_t)sizeof(mn_coo_rec);
    mn_coo_rec *r = (mn_coo_rec *)rb;
    for (int64_t k = 0; k < m; k++) r[k].seq = k; /* arrival order: by sender, then its order */
    err = mn_csr_from_records(ctx, nrows, ncols, dtype, r, m, A);
  }
  mn_free(rb);
  free(cnt);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_csr_create_rows(mn_ctx *ctx, int64_t nrows, int64_t ncols, mn_dtype dtype, int64_t nlocal,
                       const int64_t *rowptr, mn_dtype itype, const void *cols, const void *vals, mn_csr **A) {
  MN_CHECK(A, MN_ERR_ARG, "NULL output");
  *A = NULL;
  MN_SPMD(ctx, "mn_csr_create_rows", mn_spmd_int(S, "nrows", nrows), mn_spmd_int(S, "ncols", ncols),
          mn_spmd_dtype(S, "dtype", dtype), mn_spmd_dtype(S, "itype", itype));
  int err = check_common(ctx, nrows, ncols, dtype, itype);
  int64_t want = err ? 0 : mn_split_size(nrows, ctx->size, ctx->rank), row0 = err ? 0 : mn_split_start(nrows, ctx->size, ctx->rank);
  if (!err && nlocal != want)
    err = MN_ERR(MN_ERR_ARG, "rank %d owns %lld rows of %lld, but %lld were given", ctx->rank, (long long)want,
                 (long long)nrows, (long long)nlocal);
  if (!err && !rowptr) err = MN_ERR(MN_ERR_ARG, "NULL rowptr");
  for (int64_t i = 0; !err && i < nlocal; i++)
    if (rowptr[i + 1] < rowptr[i] || rowptr[0] != 0)
      err = MN_ERR(MN_ERR_ARG, "rowptr must start at 0 and not decrease (row %lld: %lld after %lld)",
                   (long long)(row0 + i), (long long)rowptr[i + 1], (long long)rowptr[i]);
  int64_t n = err ? 0 : rowptr[nlocal];
  for (int64_t k = 0; !err && k < n; k++) {
    int64_t j = get_index(itype, cols, k);
    if (j < 0 || j >= ncols)
      err = MN_ERR(MN_ERR_INDEX, "entry %lld: column index %lld is out of range for a matrix of %lld columns",
                   (long long)k, (long long)j, (long long)ncols);
  }
  err = mn_agree(ctx, err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  err = assembly_fits(ctx, nrows, ncols, n);
  mn_coo_rec *r = err ? NULL : mn_malloc(sizeof(mn_coo_rec) * (size_t)(n + 1));
  if (!err && !r) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for %lld entries",
                               (long long)(sizeof(mn_coo_rec) * (size_t)(n + 1)), (long long)n);
  MN_CALL(mn_agree(ctx, err));
  for (int64_t i = 0; i < nlocal; i++)
    for (int64_t k = rowptr[i]; k < rowptr[i + 1]; k++) {
      r[k].row = row0 + i;
      r[k].col = get_index(itype, cols, k);
      r[k].seq = k;
      r[k].val = mn_csr_val(dtype, vals, k);
    }
  err = mn_csr_from_records(ctx, nrows, ncols, dtype, r, n, A);
  mn_free(r);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_csr_destroy(mn_csr **A) {
  if (!A || !*A) return MN_SUCCESS;
  mn_csr *a = *A;
  mni_csr_dev_drop(a);
  free(a->dptr); free(a->optr); free(a->dcol); free(a->ocol);
  mn_free(a->dval); mn_free(a->oval);
  free(a->garray);
  free(a->brow);
  mn_plan_destroy(&a->ghost);
  free(a->tsum);
  free(a->treq);
  free(a);
  *A = NULL;
  return MN_SUCCESS;
}

mn_ctx *mn_csr_ctx(const mn_csr *A) { return A->ctx; }
void mn_csr_shape(const mn_csr *A, int64_t *nrows, int64_t *ncols) { *nrows = A->nrows; *ncols = A->ncols; }
mn_dtype mn_csr_dtype(const mn_csr *A) { return A->dtype; }
int64_t mn_csr_nnz(const mn_csr *A) { return A->nnz; }

void mn_csr_local_rows(const mn_csr *A, int64_t *row0, int64_t *nlocal, int64_t *nnz_local) {
  *row0 = A->row0;
  *nlocal = A->nlocal;
  *nnz_local = A->dptr[A->nlocal] + A->optr[A->nlocal];
}

void mn_csr_ghosts(const mn_csr *A, int64_t *nghost, int *nmsg, int64_t *bytes) {
  *nghost = A->nghost;
  mn_plan_volume(A->ghost, nmsg, bytes);
}

int mn_csr_get_rows(const mn_csr *A, int64_t **rowptr, int64_t **cols, void **vals) {
  MN_CHECK(A && rowptr && cols && vals, MN_ERR_ARG, "NULL matrix or output");
  int64_t n = A->nlocal, nnz = A->dptr[n] + A->optr[n];
  size_t es = mn_dtype_size(A->dtype);
  *rowptr = mn_malloc(sizeof(int64_t) * (size_t)(n + 1));
  *cols = mn_malloc(sizeof(int64_t) * (size_t)(nnz + 1));
  *vals = mn_malloc(es * (size_t)(nnz + 1));
  int err = *rowptr && *cols && *vals ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for %lld rows of %lld entries",
                                                   (long long)((int64_t)(8 + es) * (nnz + 1) + 8 * (n + 1)),
                                                   (long long)n, (long long)nnz);
  if (!err) { /* merge the two blocks, each ascending by global column */
    int64_t m = 0;
    (*rowptr)[0] = 0;
    for (int64_t i = 0; i < n; i++) {
      int64_t a = A->dptr[i], b = A->optr[i];
      while (a < A->dptr[i + 1] || b < A->optr[i + 1]) {
        int64_t ca = a < A->dptr[i + 1] ? A->col0 + A->dcol[a] : INT64_MAX;
        int64_t cb = b < A->optr[i + 1] ? A->garray[A->ocol[b]] : INT64_MAX;
        if (ca < cb) { (*cols)[m] = ca; memcpy((char *)*vals + m * (int64_t)es, (char *)A->dval + a++ * (int64_t)es, es); }
        else { (*cols)[m] = cb; memcpy((char *)*vals + m * (int64_t)es, (char *)A->oval + b++ * (int64_t)es, es); }
        m++;
      }
      (*rowptr)[i + 1] = m;
    }
  }
  if (err) { mn_free(*rowptr); mn_free(*cols); mn_free(*vals); *rowptr = NULL; *cols = NULL; *vals = NULL; }
  return err;
}
