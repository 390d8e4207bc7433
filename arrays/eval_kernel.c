/* The compute of an evaluation: the program's nodes over blocks of one
 * cell (rows cut into BLK-element units), inputs loaded strided, results
 * stored or reduced. */
#include "eval_impl.h"
#include "kernels/table.h"
#include "fuse.h"
#include "stream.h"
#include <fenv.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* Copies of n elements of es bytes with element strides; each size its own
 * loop of fixed-size copies (a load and a store each: a memcpy call per
 * element costed a broadcast operand, stride 0, 9x its pass) */
#define MN_STRIDED(E)                                                                                              \
  case E:                                                                                                          \
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * dst_st * E, src + i * src_st * E, E);                         \
    break;
static void strided_copy(int64_t n, const char *src, int64_t src_st, size_t es, char *dst, int64_t dst_st) {
  if (src_st == 0 && dst_st == 1 && es == 8) { /* one value over the block: loaded once */
    uint64_t v;
    memcpy(&v, src, 8);
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * 8, &v, 8);
    return;
  }
  switch (es) {
    MN_STRIDED(1)
    MN_STRIDED(2)
    MN_STRIDED(4)
    MN_STRIDED(8)
    MN_STRIDED(16)
  default:
    for (int64_t i = 0; i < n; i++) memcpy(dst + i * dst_st * (int64_t)es, src + i * src_st * (int64_t)es, es);
  }
}
#undef MN_STRIDED

static void strided_load(int64_t n, const char *src, int64_t st, size_t es, char *dst) {
  strided_copy(n, src, st, es, dst, 1);
}

static void strided_store(int64_t n, const char *src, size_t es, char *dst, int64_t st) {
  strided_copy(n, src, 1, es, dst, st);
}

/* Units u0 .. u1 (rows cut into blocks of blk) of a cell, on one thread. */
/* cm: units in chunk-major order (all rows of a chunk of the last axis,
 * then the next chunk: short_rows' walk, whose rows are a few columns) */
typedef struct { int nd, cm; int64_t cnt[MN_MAXDIM], lo[MN_MAXDIM], L, nch, blk, rows; } cell_walk;
enum { ROW_UNIT = 8192 };

/* Whether the cell's units may be whole rows: only a fused sum of
 * contiguous inputs, stored straight into a contiguous output, is computed
 * (no node needs a BLK-sized slot); a stencil sweep then pays the block
 * bookkeeping once a row, not once per BLK elements. */
static int slotless(const prog *P, const cell *C, int nd) {
  const mn_expr *e = P->e;
  const mn_node *rn = &e->v[P->root];
  if (P->reduce || P->nx || rn->kind != MN_N_BINARY || !P->lc[P->root].n || P->odt != rn->dtype ||
      C->outst[nd - 1] != 1)
    return 0;
  for (int q = 0; q < P->lc[P->root].n; q++)
    if (e->v[P->lc[P->root].term[q]].kind != MN_N_INPUT) return 0;
  for (int k = 0; k < P->nlive; k++) {
    int j = P->live[k];
    if (j == P->root || e->v[j].kind == MN_N_SCALAR) continue;
    if (e->v[j].kind != MN_N_INPUT || C->ost[P->opi[j]][nd - 1] != 1) return 0;
  }
  return 1;
}

/* Element idx of a unit in storage base with strides st (elements of es
 * bytes) */
static inline char *at(char *base, const int64_t *idx, const int64_t *st, int nd, size_t es) {
  int64_t off = 0;
  for (int d = 0; d < nd; d++) off += idx[d] * st[d];
  return base + off * (int64_t)es;
}

/* Operand oi's block of a unit: in its storage when contiguous, else
 * loaded into slot */
static inline char *input_block(const cell *C, int oi, const int64_t *idx, int nd, int64_t len, size_t es,
                                char *slot) {
  char *p = at(C->optr[oi], idx, C->ost[oi], nd, es);
  if (C->ost[oi][nd - 1] == 1) return p;
  strided_load(len, p, C->ost[oi][nd - 1], es, slot);
  return slot;
}

/* One unit through P's compiled kernel (jit_cpu.c): strided inputs loaded
 * into their slots first, the root and the extra outputs stored as the
 * interpreter stores them (the root into a slot when the output overlaps
 * an input: the kernel's pointers are restrict). 0: run it interpreted
 * instead (a comparison raised invalid, which the interpreter's kernels
 * drop where NumPy raises nothing). */
static int run_jit(const prog *P, const cell *C, int nd, const int64_t *idx, int64_t len, char *slots, char **val) {
  const mn_expr *e = P->e;
  const void *in[MAXOPS];
  void *out[1 + MAXX];
  const char *lo[MAXOPS], *hi[MAXOPS];
  for (int i = 0; i < P->nops; i++) {
    int j = P->ops[i].node;
    size_t es = mn_eval_es(e->v[j].dtype);
    char *p = input_block(C, i, idx, nd, len, es, slots + (size_t)P->slotof[j] * P->slot);
    in[i] = p;
    lo[i] = p;
    hi[i] = p + (size_t)len * es;
  }
  const mn_node *rn = &e->v[P->root];
  size_t es = mn_eval_es(rn->dtype);
  char *dst = slots + (size_t)P->slotof[P->root] * P->slot;
  if (!P->reduce && C->outst[nd - 1] == 1 && P->odt == rn->dtype) {
    char *o = at(C->out, idx, C->outst, nd, es);
    int overlap = 0;
    for (int i = 0; i < P->nops && !overlap; i++) overlap = lo[i] < o + (size_t)len * es && o < hi[i];
    if (!overlap) dst = o;
  }
  out[0] = dst;
  for (int x = 0; x < P->nx; x++) {
    int j = P->xnode[x];
    char *xd = slots + (size_t)P->slotof[j] * P->slot;
    if (P->xst[x][nd - 1] == 1) xd = at(C->xout[x], idx, P->xst[x], nd, mn_eval_es(e->v[j].dtype));
    out[1 + x] = xd;
  }
  int had = P->jquiet ? fetestexcept(FE_INVALID) : 1;
  P->jit(len, in, out, P->jsf, P->jsi);
  if (!had && fetestexcept(FE_INVALID)) {
    feclearexcept(FE_INVALID);
    return 0;
  }
  val[P->root] = out[0];
  for (int x = 0; x < P->nx; x++) val[P->xnode[x]] = out[1 + x];
  return 1;
}

static void run_units(const prog *P, const cell *C, const cell_walk *W, char *scr, mn_acc *acc, int64_t u0,
                      int64_t u1) {
  const mn_expr *e = P->e;
  int nd = W->nd;
  const int64_t *cnt = W->cnt, *lo = W->lo;
  int64_t L = W->L, nch = W->nch;
  char **val = (char **)scr;
  char *slots = scr + sizeof(char *) * (size_t)e->n;
  int jit = P->jit != NULL;
  for (int64_t u = u0; u < u1; u++) {
      int64_t row = W->cm ? u % W->rows : u / nch, i0 = (W->cm ? u / W->rows : u % nch) * W->blk;
      int64_t len = L - i0 < W->blk ? L - i0 : W->blk;
      int64_t idx[MN_MAXDIM], r = row;
      for (int d = nd - 2; d >= 0; d--) { idx[d] = r % cnt[d]; r /= cnt[d]; }
      idx[nd - 1] = i0;
      int jitted = jit && (jit = run_jit(P, C, nd, idx, len, slots, val)); /* a fallback: the rest interpreted */
      for (int k = 0; k < P->nlive && !jitted; k++) {
        int j = P->live[k];
        const mn_node *n = &e->v[j];
        char *slot = slots + (size_t)P->slotof[j] * P->slot;
        size_t es = mn_eval_es(n->dtype);
        int last = j == P->root;
        char *dst = slot;
        /* the root writes straight into a contiguous output of its dtype,
         * an extra output's node into its (fresh, contiguous) array */
        if (last && !P->reduce && C->outst[nd - 1] == 1 && P->odt == n->dtype &&
            n->kind != MN_N_INPUT && n->kind != MN_N_SCALAR) {
          dst = at(C->out, idx, C->outst, nd, es);
        } else if (!last && n->kind != MN_N_INPUT && n->kind != MN_N_SCALAR) {
          for (int x = 0; x < P->nx; x++)
            if (P->xnode[x] == j && P->xst[x][nd - 1] == 1) {
              dst = at(C->xout[x], idx, P->xst[x], nd, es);
              break;
            }
        }
        int had = 1;
        if (n->kind >= MN_N_UNARY && mn_eval_quiet(n)) had = fetestexcept(FE_INVALID);
        switch (n->kind) {
        case MN_N_INPUT:
          val[j] = input_block(C, P->opi[j], idx, nd, len, es, slot);
          continue;
        case MN_N_SCALAR:
          val[j] = slot; /* filled once per thread */
          continue;
        case MN_N_CAST:
          mn_cast_table[e->v[n->a].dtype][n->dtype](len, val[n->a], dst);
          break;
        case MN_N_UNARY:
          mn_unary_table[n->op][n->ct](len, val[n->a], dst);
          break;
        case MN_N_BINARY:
          if (P->lc[j].n) {
            const void *tp[MN_LC_MAX];
            for (int q = 0; q < P->lc[j].n; q++) tp[q] = val[P->lc[j].term[q]];
            mn_lincomb_run(n->ct, len, &P->lc[j], tp, dst, P->stream && last && dst != slot);
          } else {
            mn_binary_table[n->op][n->ct](len, val[n->a], val[n->b], dst);
          }
          break;
        case MN_N_TERNARY:
          mn_ternary_table[n->op][n->ct](len, val[n->a], val[n->b], val[n->c], dst);
          break;
        }
        if (!had && fetestexcept(FE_INVALID)) feclearexcept(FE_INVALID);
        val[j] = dst;
      }
      for (int k = 0; k < P->nx; k++) {
        const int64_t *xs = P->xst[k];
        size_t xes = mn_eval_es(e->v[P->xnode[k]].dtype);
        char *o = at(C->xout[k], idx, xs, nd, xes);
        if (val[P->xnode[k]] == o) continue; /* computed in place */
        if (xs[nd - 1] == 1) memcpy(o, val[P->xnode[k]], (size_t)len * xes);
        else strided_store(len, val[P->xnode[k]], xes, o, xs[nd - 1]);
      }
      const mn_node *rn = &e->v[P->root];
      char *v = val[P->root];
      if (P->reduce) {
        int64_t flat0 = 0; /* (axes merged: a reduction that reads no index) */
        for (int d = 0; d < P->nd && nd == P->nd; d++) flat0 += (lo[d] + idx[d]) * P->cstride[d];
        int had = (P->rop != MN_RED_MIN && P->rop != MN_RED_MAX && P->rop != MN_RED_ARGMIN && P->rop != MN_RED_ARGMAX) ||
                  fetestexcept(FE_INVALID);
        mn_reduce_table[P->rop][rn->dtype](len, v, flat0, acc);
        if (!had && fetestexcept(FE_INVALID)) feclearexcept(FE_INVALID); /* min, max: comparisons */
        continue;
      }
      size_t oes = mn_eval_es(P->odt);
      char *o = at(C->out, idx, C->outst, nd, oes);
      if (v == o) continue;
      char *src = v;
      if (P->odt != rn->dtype) {
        char *tmp = slots + (size_t)P->nslots * P->slot; /* spare slot */
        mn_cast_table[rn->dtype][P->odt](len, v, tmp);
        src = tmp;
      }
      if (C->outst[nd - 1] == 1) memcpy(o, src, (size_t)len * oes);
      else strided_store(len, src, oes, o, C->outst[nd - 1]);
    }
  if (P->stream) mn_stream_fence();
}

/* A plain copy whose input runs across the output's rows (a transpose:
 * the input's last stride is not 1, its stride along an axis before is):
 * copied in TILE x TILE tiles of the two axes, so the lines of a tile's
 * strided side stay in L1 while the tile is walked (a row at a time, each read of the
 * strided side was a new line: 2x NumPy's time on 1000^2). 0: not that. */
enum { TILE = 32 };
#define MN_TILE(E)                                                                                                 \
  case E:                                                                                                          \
    for (int64_t c = c0; c < c1; c++)                                                                              \
      for (int64_t r = r0; r < r1; r++) memcpy(o + (r * os + c) * E, in + (r + c * is) * E, E);                     \
    break;
static void copy_elems(const char *in, int64_t is, char *o, int64_t os, size_t es, int64_t r0, int64_t r1,
                       int64_t c0, int64_t c1) {
  switch (es) {
    MN_TILE(1)
    MN_TILE(2)
    MN_TILE(4)
    MN_TILE(8)
    MN_TILE(16)
  default:
    for (int64_t c = c0; c < c1; c++)
      for (int64_t r = r0; r < r1; r++)
        memcpy(o + (r * os + c) * (int64_t)es, in + (r + c * is) * (int64_t)es, es);
  }
}
#undef MN_TILE

#if defined(__GNUC__) && !defined(__clang__)
/* By 4 x 4 blocks transposed in registers (2 x 2 for 16-byte elements):
 * four columns' runs loaded, two rounds of shuffles, four rows stored.
 * An element at a time took 2.2 ms on 1000^2 float64 where NumPy took
 * 1.2; blocks 1.0. Bit copies (integer lanes): NaN payloads are kept. */
typedef long long mn_q4 __attribute__((vector_size(32)));
typedef int mn_d4 __attribute__((vector_size(16)));
typedef short mn_w4 __attribute__((vector_size(8)));
typedef signed char mn_b4 __attribute__((vector_size(4)));
#define MN_LD(V, E, k) V a##k;                                                                                     \
  memcpy(&a##k, in + (r + (c + k) * is) * E, sizeof(V));
#define MN_ST(V, E, k, x, y, m)                                                                                    \
  {                                                                                                                \
    V v = __builtin_shuffle(x, y, m);                                                                              \
    memcpy(o + ((r + k) * os + c) * E, &v, sizeof(V));                                                             \
  }
/* t0, t1: columns 0 and 1 interleaved; t2, t3: columns 2 and 3. 8-byte
 * lanes pair the even and odd rows (AVX2's in-lane unpacks), the others
 * the low and high halves */
#define MN_BLOCKS(V, E, LO, HI, R1, R2)                                                                            \
  const V lo = LO, hi = HI, m0 = {0, 1, 4, 5}, m1 = {2, 3, 6, 7};                                                  \
  for (int64_t r = r0; r < r1; r += 4)                                                                            \
    for (int64_t c = c0; c < c1; c += 4) {                                                                        \
      MN_LD(V, E, 0) MN_LD(V, E, 1) MN_LD(V, E, 2) MN_LD(V, E, 3)                                                  \
      V t0 = __builtin_shuffle(a0, a1, lo), t1 = __builtin_shuffle(a0, a1, hi);                                   \
      V t2 = __builtin_shuffle(a2, a3, lo), t3 = __builtin_shuffle(a2, a3, hi);                                   \
      MN_ST(V, E, 0, t0, t2, m0) MN_ST(V, E, R1, t1, t3, m0)                                                       \
      MN_ST(V, E, R2, t0, t2, m1) MN_ST(V, E, 3, t1, t3, m1)                                                       \
    }
#define MN_HALVES(V, E) MN_BLOCKS(V, E, ((V){0, 4, 1, 5}), ((V){2, 6, 3, 7}), 2, 1)
/* rows r0..r1 and columns c0..c1 in whole blocks (of 4; 2 for es 16) */
MN_CLONES static void blocks(size_t es, const char *in, int64_t is, char *o, int64_t os, int64_t r0, int64_t r1,
                             int64_t c0, int64_t c1) {
  switch (es) {
  case 1: { MN_HALVES(mn_b4, 1) } break;
  case 2: { MN_HALVES(mn_w4, 2) } break;
  case 4: { MN_HALVES(mn_d4, 4) } break;
  case 8: { MN_BLOCKS(mn_q4, 8, ((mn_q4){0, 4, 2, 6}), ((mn_q4){1, 5, 3, 7}), 1, 2) } break;
  default: /* 16: a0, a1 hold two elements of columns c and c + 1 */
    for (int64_t r = r0; r < r1; r += 2)
      for (int64_t c = c0; c < c1; c += 2) {
        const mn_q4 m0 = {0, 1, 4, 5}, m1 = {2, 3, 6, 7};
        MN_LD(mn_q4, 16, 0) MN_LD(mn_q4, 16, 1)
        MN_ST(mn_q4, 16, 0, a0, a1, m0) MN_ST(mn_q4, 16, 1, a0, a1, m1)
      }
  }
}
#undef MN_HALVES
#undef MN_BLOCKS
#undef MN_LD
#undef MN_ST
#define MN_HAVE_BLOCKS 1
#endif

static void copy_tile(const char *in, int64_t is, char *o, int64_t os, size_t es, int64_t r0, int64_t r1, int64_t c0,
                      int64_t c1) {
#ifdef MN_HAVE_BLOCKS
  int64_t k = es == 16 ? 1 : 3, r4 = r0 + ((r1 - r0) & ~k), c4 = c0 + ((c1 - c0) & ~k);
  if ((es == 1 || es == 2 || es == 4 || es == 8 || es == 16) && r4 > r0 && c4 > c0) {
    blocks(es, in, is, o, os, r0, r4, c0, c4);
    copy_elems(in, is, o, os, es, r0, r4, c4, c1); /* the edges */
    copy_elems(in, is, o, os, es, r4, r1, c0, c1);
    return;
  }
#endif
  copy_elems(in, is, o, os, es, r0, r1, c0, c1);
}

static int transposed_copy(const prog *P, const cell *C, const cell_walk *W, int nt) {
  const mn_node *rn = &P->e->v[P->root];
  int nd = W->nd, oi = rn->kind == MN_N_INPUT ? P->opi[P->root] : -1;
  if (oi < 0 || nd < 2 || P->reduce || P->nx || P->odt != rn->dtype || C->outst[nd - 1] != 1 ||
      C->ost[oi][nd - 1] == 1 || W->L < 4)
    return 0;
  int p = nd - 2; /* the output's axis along which the input runs: its tiles' rows */
  while (p >= 0 && (C->ost[oi][p] != 1 || W->cnt[p] < TILE)) p--;
  if (p < 0) return 0;
  size_t es = mn_eval_es(P->odt);
  int64_t R = W->cnt[p], L = W->L, outer = 1, is = C->ost[oi][nd - 1], os = C->outst[p];
  for (int d = 0; d < nd - 1; d++) outer *= d == p ? 1 : W->cnt[d];
  int64_t rt = (R + TILE - 1) / TILE, jobs = outer * rt; /* a job: a band of TILE rows of one 2-d slice */
  (void)nt;
#pragma omp parallel for num_threads(nt) schedule(static) if (nt > 1)
  for (int64_t j = 0; j < jobs; j++) {
    int64_t s = j / rt, r0 = (j % rt) * TILE, r1 = r0 + TILE < R ? r0 + TILE : R, ioff = 0, ooff = 0;
    for (int d = nd - 2; d >= 0; d--) {
      if (d == p) continue;
      int64_t i = s % W->cnt[d];
      s /= W->cnt[d];
      ioff += i * C->ost[oi][d];
      ooff += i * C->outst[d];
    }
    const char *in = C->optr[oi] + ioff * (int64_t)es;
    char *o = C->out + ooff * (int64_t)es;
    for (int64_t c0 = 0; c0 < L; c0 += TILE) copy_tile(in, is, o, os, es, r0, r1, c0, c0 + TILE < L ? c0 + TILE : L);
  }
  return 1;
}

/* A reduction whose kernels read the flat index (min, max, arg*: ties go
 * to the lower index): its cells are walked in their own axes and order */
static int indexed(const prog *P) {
  return P->reduce && P->rop != MN_RED_SUM && P->rop != MN_RED_PROD && P->rop != MN_RED_ANY &&
         P->rop != MN_RED_ALL && P->rop != MN_RED_SUMSQ && P->rop != MN_RED_SUMABS;
}

/* What a walk of C over nd axes reads of it, into M */
static void cell_copy(const prog *P, const cell *C, int nd, cell *M) {
  if (C == M) return;
  memcpy(M->lo, C->lo, sizeof M->lo);
  memcpy(M->cnt, C->cnt, sizeof M->cnt);
  memcpy(M->optr, C->optr, sizeof(char *) * (size_t)P->nops);
  for (int k = 0; k < P->nops; k++) memcpy(M->ost[k], C->ost[k], sizeof(int64_t) * (size_t)nd);
  M->out = C->out;
  if (!P->reduce) memcpy(M->outst, C->outst, sizeof M->outst);
}

/* Can the cell's axes d and d + 1 be walked as one (every input and the
 * output running on across them, or one of the two of length 1)? */
static int mergeable(const prog *P, const cell *C, int d) {
  int64_t n = C->cnt[d + 1];
  if (n == 1 || C->cnt[d] == 1) return 1;
  if (!P->reduce && C->outst[d] != C->outst[d + 1] * n) return 0;
  for (int k = 0; k < P->nops; k++)
    if (C->ost[k][d] != C->ost[k][d + 1] * n) return 0;
  return 1;
}

/* The cell with its trailing axes merged while mergeable, into M; the
 * axes left. Units are rows of the last axis, each run through the whole
 * program: an (n, 3) array walked as rows of 3 took 15x NumPy's time for
 * a + b. Not for reductions that read the flat index (min, max and arg*:
 * ties go to the lower index) or extra outputs (their strides are the
 * program's). A sum's units are summed pairwise, so merged units change
 * its rounding (towards NumPy's pairwise sum), as cells at another rank
 * count do. */
static int coalesce(const prog *P, const cell *C, int nd, cell *M) {
  if (indexed(P) || P->nx || nd < 2 || !mergeable(P, C, nd - 2)) return nd;
  cell_copy(P, C, nd, M);
  for (; nd > 1 && mergeable(P, M, nd - 2); nd--) {
    int d = nd - 2, keep_d = M->cnt[d + 1] == 1 && M->cnt[d] != 1; /* the strides that remain: axis d's */
    M->lo[d] = M->lo[d] * M->cnt[d + 1] + M->lo[d + 1];
    M->cnt[d] *= M->cnt[d + 1];
    if (keep_d) continue;
    if (!P->reduce) M->outst[d] = M->outst[d + 1];
    for (int k = 0; k < P->nops; k++) M->ost[k][d] = M->ost[k][d + 1];
  }
  return nd;
}

/* The walk of cell C over its first nd axes: rows of the last, cut into
 * units of blk elements */
static void walk_init(const prog *P, const cell *C, int nd, cell_walk *W) {
  W->nd = nd;
  W->cm = 0;
  for (int d = 0; d < nd; d++) { W->cnt[d] = P->nd ? C->cnt[d] : 1; W->lo[d] = P->nd ? C->lo[d] : 0; }
  W->rows = 1;
  W->L = W->cnt[nd - 1];
  for (int d = 0; d < nd - 1; d++) W->rows *= W->cnt[d];
  /* whole rows up to ROW_UNIT elements: enough units remain for threads */
  W->blk = slotless(P, C, nd) && W->L > BLK ? (W->L < ROW_UNIT ? W->L : ROW_UNIT) : BLK;
  W->nch = (W->L + W->blk - 1) / W->blk;
}

/* A walk of rows too short to pay a unit's bookkeeping (the columns of an
 * (n, 3) array's view, a[::2] or a[:, :2], which do not merge): the
 * longest other axis, to be walked last (strided loads and stores, units
 * of BLK along it, a few columns a chunk: the lines stay in cache), or -1.
 * a[::2] + 1 on a (10^6, 3) array: 13.5 ms, NumPy 4.5. Not for reductions
 * that read the flat index, or extra outputs (their strides are the
 * program's). */
static int short_rows(const prog *P, const cell *C, const cell_walk *W) {
  enum { SHORT = 8, LONG = 64 };
  if (W->nd < 2 || W->L >= SHORT || indexed(P) || P->nx) return -1;
  int s = 0;
  for (int d = 1; d < W->nd - 1; d++)
    if (C->cnt[d] > C->cnt[s]) s = d;
  return C->cnt[s] >= LONG ? s : -1;
}

static void swap_axes(const prog *P, cell *M, int a, int b) {
  int64_t t;
#define MN_SWAP(x, y) (t = (x), (x) = (y), (y) = t)
  MN_SWAP(M->cnt[a], M->cnt[b]);
  MN_SWAP(M->lo[a], M->lo[b]);
  if (!P->reduce) MN_SWAP(M->outst[a], M->outst[b]);
  for (int k = 0; k < P->nops; k++) MN_SWAP(M->ost[k][a], M->ost[k][b]);
#undef MN_SWAP
}

/* Run the program over one cell; acc (reductions) is per thread. Threads
 * only for large cells: entering a parallel region costs microseconds. */
void mn_eval_run_cell(const prog *P, const cell *C, char *scratch_all, size_t scratch_per,
                     mn_acc *accs) {
  cell_walk W;
  cell M;
  int nd = P->nd > 0 ? P->nd : 1, md = coalesce(P, C, nd, &M);
  if (md < nd) {
    C = &M;
    nd = md;
  }
  walk_init(P, C, nd, &W);
  int64_t units = W.rows * W.nch, total = W.rows * W.L;
  if (units == 0) return;
  int nt = 1;
#ifdef _OPENMP
  if (total > 65536) nt = omp_get_max_threads();
#endif
  if (nt > P->nthreads) nt = P->nthreads; /* the caller's scratch and accumulators (a device launch: one) */
  if (transposed_copy(P, C, &W, nt)) return;
  int s = short_rows(P, C, &W);
  if (s >= 0) { /* axis s walked last instead, its rows a chunk at a time */
    cell_copy(P, C, nd, &M);
    C = &M;
    swap_axes(P, &M, s, nd - 1);
    walk_init(P, C, nd, &W);
    W.cm = 1;
    units = W.rows * W.nch;
  }
  if (nt <= 1) {
    run_units(P, C, &W, scratch_all, accs ? &accs[0] : NULL, 0, units);
    return;
  }
  /* the workers' floating-point exceptions end up in the caller's
   * environment, as a serial loop's would (front ends report them) */
  int fe = 0;
#pragma omp parallel num_threads(nt)
  {
    int tid = 0, n = 1;
#ifdef _OPENMP
    tid = omp_get_thread_num();
    n = omp_get_num_threads();
#endif
    if (tid) feclearexcept(FE_ALL_EXCEPT);
    run_units(P, C, &W, scratch_all + (size_t)tid * scratch_per, accs ? &accs[tid] : NULL, units * tid / n,
              units * (tid + 1) / n);
    int f = tid ? fetestexcept(FE_ALL_EXCEPT) : 0;
    if (f) {
#pragma omp atomic
      fe |= f;
    }
  }
  if (fe) feraiseexcept(fe);
}
