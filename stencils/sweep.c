/* CPU loops of the stencils: the point bodies of kernels/stencil.h over
 * boxes of a rank's block, row by row (the last axis contiguous), threads
 * over rows once a box is large enough to pay for a parallel region. */
#include "stencil_impl.h"
#include "kernels/stencil.h"
#include <stdlib.h>
#include <string.h>

/* points below which a box runs on one thread */
#define MN_ST_OMP_MIN 32768

int mn_st_job_alloc(const mn_stencil *s, mn_st_job *j) {
  memset(j, 0, sizeof *j);
  j->off = malloc(sizeof(int64_t) * (size_t)s->npts);
  j->w = malloc(sizeof(double) * (size_t)s->npts);
  j->c = calloc((size_t)s->npts, sizeof(char *));
  if (!j->off || !j->w || !j->c) {
    mn_st_job_free(j);
    return MN_ERR(MN_ERR_MEM, "cannot allocate a stencil job of %d points", s->npts);
  }
  return MN_SUCCESS;
}

void mn_st_job_init(const mn_stencil *s, const mn_array *u, mn_array *dst, const mn_array *f, double omega,
                    mn_st_job *j) {
  const mn_buf *ub = u->buf;
  int nd = s->nd;
  j->t = u->dtype;
  j->nd = nd;
  j->kind = s->cross;
  j->npts = s->npts;
  j->ctr = s->ctr;
  j->nctr = s->nctr;
  j->omega = omega;
  j->relax = f != NULL;
  j->var = s->ncoef > 0;
  for (int k = 0; k < s->npts; k++) {
    int64_t o = 0;
    for (int d = 0; d < nd; d++) o += (int64_t)s->off[(size_t)k * (size_t)nd + (size_t)d] * ub->astride[d];
    j->off[k] = o;
  }
  /* weights in the grid's type; the cross paths take them in cross order */
  for (int q = 0; q < s->npts; q++) {
    int k = s->cross ? s->cross_pt[q] : q;
    if (j->t == MN_FLOAT32) ((float *)j->w)[q] = (float)s->w[k];
    else ((double *)j->w)[q] = s->w[k];
  }
  double dsum = 0;
  for (int q = 0; q < s->nctr; q++) dsum += s->w[s->ctr[q]];
  j->wd = dsum != 0 ? omega / dsum : 0;

  mn_local l;
  mn_array_local(u, &l);
  j->u = l.data;
  memcpy(j->ust, ub->astride, sizeof j->ust);
  mn_array_local(dst, &l);
  j->y = l.data;
  memcpy(j->yst, dst->buf->astride, sizeof j->yst);
  if (f) {
    mn_array_local(f, &l);
    j->f = l.data;
    memcpy(j->fst, f->buf->astride, sizeof j->fst);
  }
  for (int k = 0; k < s->npts; k++) {
    j->c[k] = NULL;
    if (!s->coef[k]) continue;
    mn_array_local(s->conv[k], &l);
    j->c[k] = l.data;
    memcpy(j->cst, s->conv[k]->buf->astride, sizeof j->cst);
  }
}

void mn_st_job_free(mn_st_job *j) {
  free(j->off);
  free(j->w);
  free(j->c);
  memset(j, 0, sizeof *j);
}

int mn_st_interior(int nd, const int64_t *n, const int *reach, int64_t *lo, int64_t *cnt) {
  int64_t size = 1;
  for (int d = 0; d < nd; d++) {
    lo[d] = reach[d];
    cnt[d] = n[d] > 2 * (int64_t)reach[d] ? n[d] - 2 * (int64_t)reach[d] : 0;
    size *= cnt[d];
  }
  return size > 0;
}

/* Strip d: axes before d interior, axis d the outer reach[d] layers (both
 * sides, or all of it when no interior is left), axes after d whole. */
int mn_st_strips(int nd, const int64_t *n, const int *reach, int64_t (*lo)[MN_MAXDIM],
                 int64_t (*cnt)[MN_MAXDIM]) {
  int64_t ilo[MN_MAXDIM], icnt[MN_MAXDIM];
  mn_st_interior(nd, n, reach, ilo, icnt);
  int nb = 0;
  for (int d = 0; d < nd; d++) {
    if (reach[d] == 0) continue;
    int64_t sl[2], sc[2];
    int ns;
    if (icnt[d] == 0) { sl[0] = 0; sc[0] = n[d]; ns = 1; }
    else { sl[0] = 0; sc[0] = reach[d]; sl[1] = n[d] - reach[d]; sc[1] = reach[d]; ns = 2; }
    for (int q = 0; q < ns; q++) {
      int64_t size = 1;
      for (int e = 0; e < nd; e++) {
        if (e < d) { lo[nb][e] = ilo[e]; cnt[nb][e] = icnt[e]; }
        else if (e == d) { lo[nb][e] = sl[q]; cnt[nb][e] = sc[q]; }
        else { lo[nb][e] = 0; cnt[nb][e] = n[e]; }
        size *= cnt[nb][e];
      }
      if (size > 0) nb++;
    }
  }
  return nb;
}

/* One loop per (kind, apply or relax) so that the inner loops stay
 * branch-free and vectorise. ur, yr, fr: row starts; k: offset of the row
 * start in the coefficient arrays. */
#define MN_ST_LOOPS(S, T)                                                                                     \
  static void run_##S(const mn_st_job *J, const int64_t *lo, const int64_t *cnt) {                           \
    int nd = J->nd;                                                                                           \
    int64_t len = cnt[nd - 1], rows = 1;                                                                      \
    for (int d = 0; d < nd - 1; d++) rows *= cnt[d];                                                          \
    if (rows == 0 || len == 0) return;                                                                        \
    const T *w = (const T *)J->w;                                                                             \
    const T *const *c = J->var ? (const T *const *)J->c : NULL;                                                               \
    const int64_t *off = J->off;                                                                              \
    int n = J->npts, relax = J->relax;                                                                    \
    T wd = (T)J->wd, om = (T)J->omega;                                                                        \
    /* strides of the axes before the last: sa (2-d rows), sb and sa (3-d) */                                \
    int64_t sa = J->ust[nd >= 2 ? nd - 2 : 0], sb = J->ust[nd >= 3 ? nd - 3 : 0];                             \
    int par = rows * len >= MN_ST_OMP_MIN;                                                                    \
    (void)par;                                                                                                \
    _Pragma("omp parallel for schedule(static) if (par)")                                                     \
    for (int64_t q = 0; q < rows; q++) {                                                                      \
      int64_t r = q, uo = lo[nd - 1], yo = lo[nd - 1], fo = lo[nd - 1], co = lo[nd - 1];                     \
      for (int d = nd - 2; d >= 0; d--) {                                                                     \
        int64_t i = lo[d] + r % cnt[d];                                                                       \
        r /= cnt[d];                                                                                          \
        uo += i * J->ust[d];                                                                                  \
        yo += i * J->yst[d];                                                                                  \
        fo += i * J->fst[d];                                                                                  \
        co += i * J->cst[d];                                                                                  \
      }                                                                                                       \
      const T *restrict ur = (const T *)J->u + uo;                                                            \
      T *restrict yr = (T *)J->y + yo;                                                                        \
      const T *restrict fr = relax ? (const T *)J->f + fo : NULL;                                             \
      if (J->kind == MN_ST_CROSS5 && !relax) {                                                                \
        for (int64_t j = 0; j < len; j++) yr[j] = mn_st_cross5_##S(ur + j, sa, w);                            \
      } else if (J->kind == MN_ST_CROSS5) {                                                                   \
        for (int64_t j = 0; j < len; j++) yr[j] = mn_st_relax_##S(ur[j], mn_st_cross5_##S(ur + j, sa, w), fr[j], wd); \
      } else if (J->kind == MN_ST_CROSS7 && !relax) {                                                         \
        for (int64_t j = 0; j < len; j++) yr[j] = mn_st_cross7_##S(ur + j, sb, sa, w);                        \
      } else if (J->kind == MN_ST_CROSS7) {                                                                   \
        for (int64_t j = 0; j < len; j++)                                                                     \
          yr[j] = mn_st_relax_##S(ur[j], mn_st_cross7_##S(ur + j, sb, sa, w), fr[j], wd);                     \
      } else if (!c && !relax) {                                                                              \
        for (int64_t j = 0; j < len; j++) yr[j] = mn_st_const_##S(ur + j, off, w, n);                         \
      } else if (!c) {                                                                                        \
        for (int64_t j = 0; j < len; j++) yr[j] = mn_st_relax_##S(ur[j], mn_st_const_##S(ur + j, off, w, n), fr[j], wd); \
      } else if (!relax) {                                                                                    \
        for (int64_t j = 0; j < len; j++) yr[j] = mn_st_var_##S(ur + j, off, w, c, co + j, n);                \
      } else {                                                                                                \
        for (int64_t j = 0; j < len; j++) {                                                                   \
          T d = mn_st_diag_##S(w, c, co + j, J->ctr, J->nctr);                                                \
          yr[j] = mn_st_relax_##S(ur[j], mn_st_var_##S(ur + j, off, w, c, co + j, n), fr[j], om / d);          \
        }                                                                                                     \
      }                                                                                                       \
    }                                                                                                         \
  }

MN_ST_LOOPS(f32, float)
MN_ST_LOOPS(f64, double)

void mn_st_run_box(const mn_st_job *j, const int64_t *lo, const int64_t *cnt) {
  if (j->t == MN_FLOAT32) run_f32(j, lo, cnt);
  else run_f64(j, lo, cnt);
}
