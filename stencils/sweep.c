/* CPU loops of the stencils: the point bodies of kernels/stencil.h over
 * boxes of a rank's block, row by row (the last axis contiguous), threads
 * over rows once a box is large enough to pay for a parallel region. */
#include "stencil_impl.h"
#include "kernels/stencil.h"
#include <stdlib.h>
#include <string.h>
#ifdef _OPENMP
#include <omp.h>
#endif

/* points below which a box runs on one thread */
#define MN_ST_OMP_MIN 32768

int mni_st_job_alloc(const mn_stencil *s, mni_st_job *j) {
  memset(j, 0, sizeof *j);
  j->off = malloc(sizeof(int64_t) * (size_t)s->npts);
  j->w = malloc(sizeof(double) * (size_t)s->npts);
  j->c = calloc((size_t)s->npts, sizeof(char *));
  if (!j->off || !j->w || !j->c) {
    mni_st_job_free(j);
    return MN_ERR(MN_ERR_MEM, "cannot allocate a stencil job of %d points", s->npts);
  }
  return MN_SUCCESS;
}

void mni_st_job_init(const mn_stencil *s, const mn_array *u, mn_array *dst, const mn_array *f, double omega,
                    int dev, mni_st_job *j) {
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
  j->sym = s->cross && s->w[s->cross_pt[1]] == s->w[s->cross_pt[2]] && s->w[s->cross_pt[3]] == s->w[s->cross_pt[4]] &&
           (s->cross == MN_ST_CROSS5 || s->w[s->cross_pt[5]] == s->w[s->cross_pt[6]]);
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

  /* pointers on the side the call runs (no pin: they are made again at every call) */
  mn_local l;
  j->dev = dev;
  j->wn = s->w;
  j->ub = ub;
  j->yb = dst->buf;
  j->fb = f ? f->buf : NULL;
  mn_array_local_in(u, dev, &l);
  j->u = l.data;
  memcpy(j->ust, ub->astride, sizeof j->ust);
  mn_array_local_in(dst, dev, &l);
  j->y = l.data;
  memcpy(j->yst, dst->buf->astride, sizeof j->yst);
  if (f) {
    mn_array_local_in(f, dev, &l);
    j->f = l.data;
    memcpy(j->fst, f->buf->astride, sizeof j->fst);
  }
  j->conv = s->conv;
  for (int k = 0; k < s->npts; k++) {
    j->c[k] = NULL;
    if (!s->coef[k]) continue;
    mn_array_local_read(s->conv[k], dev, &l); /* read only: the copy stays current on both sides */
    j->c[k] = l.data;
    memcpy(j->cst, s->conv[k]->buf->astride, sizeof j->cst);
  }
}

void mni_st_job_free(mni_st_job *j) {
  free(j->off);
  free(j->w);
  free(j->c);
  memset(j, 0, sizeof *j);
}

int mni_st_interior(int nd, const int64_t *n, const int *reach, int64_t *lo, int64_t *cnt) {
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
int mni_st_strips(int nd, const int64_t *n, const int *reach, int64_t (*lo)[MN_MAXDIM],
                 int64_t (*cnt)[MN_MAXDIM]) {
  int64_t ilo[MN_MAXDIM], icnt[MN_MAXDIM];
  mni_st_interior(nd, n, reach, ilo, icnt);
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

/* This thread's share [a, b) of n rows (all of them outside a parallel region). */
static void chunk(int64_t n, int64_t *a, int64_t *b) {
#ifdef _OPENMP
  int64_t t = omp_get_thread_num(), nt = omp_get_num_threads();
  *a = n * t / nt;
  *b = n * (t + 1) / nt;
#else
  *a = 0;
  *b = n;
#endif
}

/* One loop per (kind, apply or relax) so that the inner loops stay
 * branch-free and vectorise. ur, yr, fr: row starts; co: offset of the row
 * start in the coefficient arrays. The driver walks the rows of a box with
 * an odometer, each thread over a contiguous share. */
#define MN_ST_LOOPS(S, T)                                                                                     \
  static inline void row_##S(const mni_st_job *J, const T *restrict ur, T *restrict yr, const T *restrict fr,  \
                             int64_t co, int64_t len) {                                                       \
    int nd = J->nd, n = J->npts;                                                                              \
    const T *w = (const T *)J->w;                                                                             \
    const T *const *c = J->var ? (const T *const *)J->c : NULL;                                               \
    const int64_t *off = J->off;                                                                              \
    T wd = (T)J->wd, om = (T)J->omega;                                                                        \
    /* strides of the axes before the last: sa (2-d rows), sb and sa (3-d) */                                \
    int64_t sa = J->ust[nd >= 2 ? nd - 2 : 0], sb = J->ust[nd >= 3 ? nd - 3 : 0];                             \
    switch (J->kind * 4 + J->sym * 2 + J->relax) {                                                            \
    case MN_ST_CROSS5 * 4 + 2:                                                                                \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_sym5_##S(ur + j, sa, w);                                \
      return;                                                                                                 \
    case MN_ST_CROSS5 * 4 + 3:                                                                                \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_relax_##S(ur[j], mni_st_sym5_##S(ur + j, sa, w), fr[j], wd); \
      return;                                                                                                 \
    case MN_ST_CROSS5 * 4:                                                                                    \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_cross5_##S(ur + j, sa, w);                              \
      return;                                                                                                 \
    case MN_ST_CROSS5 * 4 + 1:                                                                                \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_relax_##S(ur[j], mni_st_cross5_##S(ur + j, sa, w), fr[j], wd); \
      return;                                                                                                 \
    case MN_ST_CROSS7 * 4 + 2:                                                                                \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_sym7_##S(ur + j, sb, sa, w);                            \
      return;                                                                                                 \
    case MN_ST_CROSS7 * 4 + 3:                                                                                \
      for (int64_t j = 0; j < len; j++)                                                                       \
        yr[j] = mni_st_relax_##S(ur[j], mni_st_sym7_##S(ur + j, sb, sa, w), fr[j], wd);                         \
      return;                                                                                                 \
    case MN_ST_CROSS7 * 4:                                                                                    \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_cross7_##S(ur + j, sb, sa, w);                          \
      return;                                                                                                 \
    case MN_ST_CROSS7 * 4 + 1:                                                                                \
      for (int64_t j = 0; j < len; j++)                                                                       \
        yr[j] = mni_st_relax_##S(ur[j], mni_st_cross7_##S(ur + j, sb, sa, w), fr[j], wd);                       \
      return;                                                                                                 \
    }                                                                                                         \
    if (!c && !J->relax) {                                                                                    \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_const_##S(ur + j, off, w, n);                           \
    } else if (!c) {                                                                                          \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_relax_##S(ur[j], mni_st_const_##S(ur + j, off, w, n), fr[j], wd); \
    } else if (!J->relax) {                                                                                   \
      for (int64_t j = 0; j < len; j++) yr[j] = mni_st_var_##S(ur + j, off, w, c, co + j, n);                  \
    } else {                                                                                                  \
      for (int64_t j = 0; j < len; j++) {                                                                     \
        T d = mni_st_diag_##S(w, c, co + j, J->ctr, J->nctr);                                                  \
        yr[j] = mni_st_relax_##S(ur[j], mni_st_var_##S(ur + j, off, w, c, co + j, n), fr[j], om / d);            \
      }                                                                                                       \
    }                                                                                                         \
  }                                                                                                           \
  static void run_##S(const mni_st_job *J, const int64_t *lo, const int64_t *cnt) {                           \
    int nd = J->nd;                                                                                           \
    int64_t len = cnt[nd - 1], rows = 1;                                                                      \
    for (int d = 0; d < nd - 1; d++) rows *= cnt[d];                                                          \
    if (rows == 0 || len == 0) return;                                                                        \
    int par = rows * len >= MN_ST_OMP_MIN;                                                                    \
    (void)par;                                                                                                \
    _Pragma("omp parallel if (par)")                                                                          \
    {                                                                                                         \
      int64_t q0, q1, idx[MN_MAXDIM] = {0};                                                                   \
      chunk(rows, &q0, &q1);                                                                                  \
      int64_t r = q0;                                                                                         \
      for (int d = nd - 2; d >= 0; d--) { idx[d] = r % cnt[d]; r /= cnt[d]; }                                 \
      for (int64_t q = q0; q < q1; q++) {                                                                     \
        int64_t uo = lo[nd - 1], yo = lo[nd - 1], fo = lo[nd - 1], co = lo[nd - 1];                           \
        for (int d = 0; d < nd - 1; d++) {                                                                    \
          int64_t i = lo[d] + idx[d];                                                                         \
          uo += i * J->ust[d];                                                                                \
          yo += i * J->yst[d];                                                                                \
          fo += i * J->fst[d];                                                                                \
          co += i * J->cst[d];                                                                                \
        }                                                                                                     \
        row_##S(J, (const T *)J->u + uo, (T *)J->y + yo, J->relax ? (const T *)J->f + fo : NULL, co, len);     \
        for (int d = nd - 2; d >= 0; d--) {                                                                   \
          if (++idx[d] < cnt[d]) break;                                                                       \
          idx[d] = 0;                                                                                         \
        }                                                                                                     \
      }                                                                                                       \
    }                                                                                                         \
  }

MN_ST_LOOPS(f32, float)
MN_ST_LOOPS(f64, double)

void mni_st_run_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt) {
  if (j->t == MN_FLOAT32) run_f32(j, lo, cnt);
  else run_f64(j, lo, cnt);
}

int mni_st_copy_owned(const mn_array *src, mn_array *dst, int dev) {
  mn_local a, b;
  mn_array_local_in(src, dev, &a);
  mn_array_local_in(dst, dev, &b);
  if (!a.data) return MN_SUCCESS;
  int nd = a.ndim;
  size_t es = mn_dtype_size(src->dtype);
  if (dev) return src->buf->ops->copy_box(nd, a.count, es, (const char *)a.data, a.stride, (char *)b.data, b.stride);
  int64_t rows = 1, len = a.count[nd - 1];
  for (int d = 0; d < nd - 1; d++) rows *= a.count[d];
  int par = rows * len >= MN_ST_OMP_MIN;
  (void)par;
#pragma omp parallel for schedule(static) if (par)
  for (int64_t q = 0; q < rows; q++) {
    int64_t r = q, so = 0, dof = 0;
    for (int d = nd - 2; d >= 0; d--) {
      int64_t i = r % a.count[d];
      r /= a.count[d];
      so += i * a.stride[d];
      dof += i * b.stride[d];
    }
    memcpy((char *)b.data + dof * (int64_t)es, (const char *)a.data + so * (int64_t)es, (size_t)len * es);
  }
  return MN_SUCCESS;
}
