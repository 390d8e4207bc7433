/* Moves between maniple arrays (any layout) and a block-cyclic matrix.
 * Each rank enumerates the same runs (one row's stretch inside one block)
 * in the same order on both sides of a message, so the sizes need no
 * exchange and the payloads are whole runs copied with memcpy. */
#include "block_cyclic.h"
#include "exchange.h"
#include <stdlib.h>
#include <string.h>

enum { COUNT, BOX_TO_BUF, BUF_TO_LOC, LOC_TO_BUF, BUF_TO_BOX };
#define BC_TAG 97

int64_t mn_bc_local(int64_t n, int64_t nb, int p, int nprocs) {
  int64_t nblocks = n / nb, q = nblocks / nprocs, extra = nblocks % nprocs;
  int64_t loc = q * nb;
  if (p < extra) loc += nb;
  else if (p == extra) loc += n % nb;
  return loc;
}

int mn_bc_init(mn_bc *g, mn_ctx *ctx, int64_t m, int64_t n, int64_t nb, int pr, int pc, const int *rank_of) {
  memset(g, 0, sizeof *g);
  if (nb < 1 || pr < 1 || pc < 1 || pr * pc != ctx->size)
    return MN_ERR(MN_ERR_ARG, "a block-cyclic grid of %d x %d with blocks of %lld does not fit %d ranks", pr, pc,
                  (long long)nb, ctx->size);
  g->rank_of = malloc(sizeof(int) * (size_t)(pr * pc));
  if (!g->rank_of) return MN_ERR(MN_ERR_MEM, "cannot allocate a %d x %d grid", pr, pc);
  memcpy(g->rank_of, rank_of, sizeof(int) * (size_t)(pr * pc));
  g->ctx = ctx; g->m = m; g->n = n; g->nb = nb; g->pr = pr; g->pc = pc;
  g->myr = g->myc = -1;
  for (int k = 0; k < pr * pc; k++)
    if (rank_of[k] == ctx->rank) { g->myr = k / pc; g->myc = k % pc; }
  if (g->myr < 0) { mn_bc_free(g); return MN_ERR(MN_ERR_ARG, "rank %d is not in the block-cyclic grid", ctx->rank); }
  g->lm = mn_bc_local(m, nb, g->myr, pr);
  g->ln = mn_bc_local(n, nb, g->myc, pc);
  return MN_SUCCESS;
}

void mn_bc_free(mn_bc *g) {
  free(g->rank_of);
  g->rank_of = NULL;
}

/* The part of box (lo, cnt), in matrix coordinates, that cell (r, c)
 * holds, run by run: counted, or copied between the box's memory (row
 * stride ld), a message buffer and this rank's local storage. Returns the
 * elements visited. */
static int64_t runs(const mn_bc *g, const int64_t *lo, const int64_t *cnt, int r, int c, int mode, char *box,
                    int64_t ld, char *buf, char *loc, size_t es) {
  int64_t nb = g->nb, total = 0, ihi = lo[0] + cnt[0], jhi = lo[1] + cnt[1];
  if (cnt[0] <= 0 || cnt[1] <= 0) return 0;
  for (int64_t bi = lo[0] / nb; bi * nb < ihi; bi++) {
    if (bi % g->pr != r) continue;
    int64_t i0 = bi * nb > lo[0] ? bi * nb : lo[0], i1 = (bi + 1) * nb < ihi ? (bi + 1) * nb : ihi;
    for (int64_t bj = lo[1] / nb; bj * nb < jhi; bj++) {
      if (bj % g->pc != c) continue;
      int64_t j0 = bj * nb > lo[1] ? bj * nb : lo[1], j1 = (bj + 1) * nb < jhi ? (bj + 1) * nb : jhi;
      size_t len = (size_t)(j1 - j0) * es;
      int64_t lj = (bj / g->pc) * nb + j0 % nb;
      for (int64_t i = i0; i < i1 && mode != COUNT; i++) {
        char *bx = box + ((i - lo[0]) * ld + (j0 - lo[1])) * (int64_t)es;
        char *lc = loc + (((bi / g->pr) * nb + i % nb) * g->ln + lj) * (int64_t)es;
        char *bf = buf + (total + (i - i0) * (j1 - j0)) * (int64_t)es;
        if (mode == BOX_TO_BUF) memcpy(bf, bx, len);
        else if (mode == BUF_TO_LOC) memcpy(lc, bf, len);
        else if (mode == LOC_TO_BUF) memcpy(bf, lc, len);
        else memcpy(bx, bf, len);
      }
      total += (i1 - i0) * (j1 - j0);
    }
  }
  return total;
}

/* Rank q's box of base array a as a window of the matrix (a 1-d a is a
 * row); 0 when empty. */
static int box_of(const mn_array *a, int q, int64_t r0, int64_t c0, int64_t *lo, int64_t *cnt) {
  int64_t l[MN_MAXDIM], c[MN_MAXDIM];
  int have = mn_map_owned_box(&a->map, a->buf->lay, q, l, c);
  if (a->map.ndim == 2) { lo[0] = l[0]; cnt[0] = c[0]; lo[1] = l[1]; cnt[1] = c[1]; }
  else { lo[0] = 0; cnt[0] = 1; lo[1] = l[0]; cnt[1] = c[0]; }
  lo[0] += r0;
  lo[1] += c0;
  if (!have) cnt[0] = cnt[1] = 0;
  return have && cnt[0] > 0 && cnt[1] > 0;
}

/* Is a a base array whose ranks own disjoint boxes covering it, with
 * rows of unit stride? (The same answer on every rank: layouts are global;
 * the stride test is of allocation extents, also global.) */
static int direct(const mn_array *a) {
  if (a->is_view) return 0;
  int64_t total = 0, lo[2], cnt[2];
  for (int q = 0; q < a->ctx->size; q++)
    if (box_of(a, q, 0, 0, lo, cnt)) total += cnt[0] * cnt[1];
  return total == mn_array_size(a) && a->buf->astride[a->buf->ndim - 1] == 1;
}

static int check(const mn_bc *g, const mn_array *a, int64_t r0, int64_t c0) {
  int nd = a->map.ndim;
  int64_t rows = nd == 2 ? a->map.shape[0] : 1, cols = nd >= 1 ? a->map.shape[nd - 1] : 1;
  if (nd < 1 || nd > 2)
    return MN_ERR(MN_ERR_SHAPE, "a block-cyclic move takes a 1-d or 2-d array, not %d-d", nd);
  if (r0 < 0 || c0 < 0 || r0 + rows > g->m || c0 + cols > g->n)
    return MN_ERR(MN_ERR_SHAPE, "a %lld x %lld window at (%lld, %lld) is outside the %lld x %lld matrix",
                  (long long)rows, (long long)cols, (long long)r0, (long long)c0, (long long)g->m, (long long)g->n);
  return MN_SUCCESS;
}

/* Post the messages of one move: to_bc says the array's boxes are the
 * sources. buf holds this rank's outgoing runs (sends), rbuf its incoming. */
static int move(const mn_bc *g, const mn_array *a, int64_t r0, int64_t c0, int to_bc, char *box, int64_t ld,
                char *loc) {
  mn_ctx *ctx = g->ctx;
  int P = ctx->size, me = ctx->rank, err = 0, nr = 0;
  size_t es = mn_dtype_size(a->dtype);
  int64_t mylo[2], mycnt[2], lo[2], cnt[2];
  box_of(a, me, r0, c0, mylo, mycnt);
  int64_t *sc = calloc((size_t)P * 4, sizeof(int64_t)), *rc = sc + P, *sd = sc + 2 * P, *rd = sc + 3 * P;
  if (!sc) return MN_ERR(MN_ERR_MEM, "cannot allocate the counts of a block-cyclic move");
  /* counts: from the array, this rank sends its box's runs to each cell
   * and receives each rank's box's runs in its own cell; back, the reverse */
  for (int k = 0; k < P; k++) {
    int q = g->rank_of[k];
    int64_t mine = runs(g, mylo, mycnt, k / g->pc, k % g->pc, COUNT, NULL, 0, NULL, NULL, es);
    box_of(a, q, r0, c0, lo, cnt);
    int64_t theirs = runs(g, lo, cnt, g->myr, g->myc, COUNT, NULL, 0, NULL, NULL, es);
    (to_bc ? sc : rc)[q] = mine;
    (to_bc ? rc : sc)[q] = theirs;
  }
  int64_t stot = mn_prefix(P, sc, sd), rtot = mn_prefix(P, rc, rd), npc = 1;
  for (int q = 0; q < P; q++)
    if (q != me) npc += mn_mpi_npieces(sc[q] * (int64_t)es) + mn_mpi_npieces(rc[q] * (int64_t)es);
  char *sbuf = mn_malloc((size_t)(stot ? stot : 1) * es), *rbuf = mn_malloc((size_t)(rtot ? rtot : 1) * es);
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)npc);
  if (!sbuf || !rbuf || !req)
    err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for a block-cyclic move", (long long)((stot + rtot) * es));
  err = mn_agree(ctx, err);
  for (int q = 0; q < P && !err; q++)
    if (q != me && rc[q]) err = mn_mpi_post(0, rbuf + rd[q] * (int64_t)es, rc[q] * (int64_t)es, q, BC_TAG, ctx, req, &nr);
  for (int k = 0; k < P && !err; k++) { /* pack */
    int q = g->rank_of[k];
    char *b = sbuf + sd[q] * (int64_t)es;
    if (to_bc) runs(g, mylo, mycnt, k / g->pc, k % g->pc, BOX_TO_BUF, box, ld, b, NULL, es);
    else { box_of(a, q, r0, c0, lo, cnt); runs(g, lo, cnt, g->myr, g->myc, LOC_TO_BUF, NULL, 0, b, loc, es); }
    if (q != me && sc[q]) err = mn_mpi_post(1, b, sc[q] * (int64_t)es, q, BC_TAG, ctx, req, &nr);
  }
  if (!err && sc[me]) memcpy(rbuf + rd[me] * (int64_t)es, sbuf + sd[me] * (int64_t)es, (size_t)sc[me] * es);
  if (nr) MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
  for (int k = 0; k < P && !err; k++) { /* unpack */
    int q = g->rank_of[k];
    char *b = rbuf + rd[q] * (int64_t)es;
    if (to_bc) { box_of(a, q, r0, c0, lo, cnt); runs(g, lo, cnt, g->myr, g->myc, BUF_TO_LOC, NULL, 0, b, loc, es); }
    else runs(g, mylo, mycnt, k / g->pc, k % g->pc, BUF_TO_BOX, box, ld, b, NULL, es);
  }
  mn_free(sbuf);
  mn_free(rbuf);
  free(req);
  free(sc);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}

/* A base array in the default layout holding a's values, when a cannot be
 * moved directly; NULL (and a itself used) when it can. */
static int staged(const mn_array *a, int copy_in, mn_array **s) {
  *s = NULL;
  if (direct(a)) return MN_SUCCESS;
  MN_CALL(mn_array_create_empty(a->ctx, a->dtype, a->map.ndim, a->map.shape, s));
  int err = copy_in ? mn_array_copy(a, *s) : MN_SUCCESS;
  if (err) { mn_array_destroy(s); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}

int mn_bc_from_array(const mn_bc *g, const mn_array *a, int64_t r0, int64_t c0, char *loc) {
  MN_CALL(check(g, a, r0, c0));
  mn_array *s;
  MN_CALL(staged(a, 1, &s));
  const mn_array *src = s ? s : a;
  mn_local l;
  int err = mn_array_local_read(src, 0, &l);
  if (!err) err = move(g, src, r0, c0, 1, l.data, src->map.ndim == 2 ? l.stride[0] : 0, loc);
  mn_array_destroy(&s);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}

int mn_bc_to_array(const mn_bc *g, const char *loc, int64_t r0, int64_t c0, mn_array *a) {
  MN_CALL(check(g, a, r0, c0));
  mn_array *s;
  MN_CALL(staged(a, 0, &s));
  mn_array *dst = s ? s : a;
  mn_local l;
  int err = mn_array_local_in(dst, 0, &l);
  if (!err) err = move(g, dst, r0, c0, 0, l.data, dst->map.ndim == 2 ? l.stride[0] : 0, (char *)loc);
  if (!err && s) err = mn_array_copy(s, a);
  mn_array_destroy(&s);
  return err ? mn_trace(err, __FILE__, __LINE__, __func__) : MN_SUCCESS;
}
