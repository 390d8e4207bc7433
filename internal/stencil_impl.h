/* Private structures of the stencils/ layer. */
#ifndef MANIPLE_STENCIL_IMPL_H
#define MANIPLE_STENCIL_IMPL_H

#include "mn_impl.h"
#include "stencil_shared.h"

/* The fast paths a stencil may take (all weights constant). */
enum { MN_ST_GENERAL = 0, MN_ST_CROSS5 = 5, MN_ST_CROSS7 = 7 };

typedef struct {
  mn_bc_kind kind;
  double value;
} mni_st_bc;

/* The halo plan key of one field: global metadata only. */
typedef struct {
  char kind;
  int slot;
  mn_dtype t;
  int halo, nd;
  int64_t shape[MN_MAXDIM];
  int dims[MN_MAXDIM];
  int periodic[MN_MAXDIM];
} mni_st_key;

typedef struct mni_st_job_s mni_st_job;

/* Plans and job buffers kept for the fields of the last call (keep.c). */
typedef struct {
  int nkey, njob;
  mni_st_key *key;  /* nkey */
  mn_plan **plan;  /* nkey, one reference each */
  mn_array **tmp;  /* nkey slots for a call's output temporaries, NULL between calls */
  mni_st_job *job;  /* njob (>= nkey) */
} mni_st_keep;

struct mn_stencil_s {
  mn_ctx *ctx;
  int nd, npts;
  int *off;            /* npts * nd offsets */
  double *w;           /* npts constant weights */
  mn_array **coef;     /* npts: the user's coefficient arrays, copied (NULL: constant) */
  int ncoef;           /* how many coef[] are set */
  mn_array **conv;     /* coef[] converted to the last grid's dtype and layout */
  int reach[MN_MAXDIM];
  int maxreach;
  int cross;           /* MN_ST_CROSS5 / 7 when it applies, else MN_ST_GENERAL */
  int cross_pt[7];     /* point of each cross entry: centre, -x, +x, -y, +y, (-z, +z) */
  int nctr;            /* zero-offset points (the diagonal) */
  int *ctr;
  mni_st_bc bc[MN_MAXDIM][2];
  mn_array *work;      /* Jacobi's work grid, kept between calls */
  mni_st_keep keep;
};

/* One stencil evaluation over boxes of a rank's owned block: dst = A src,
 * or (f != NULL) dst = src + omega D^-1 (f - A src). Pointers are at the
 * owned origin; the last axis is contiguous in every array. */
struct mni_st_job_s {
  mn_dtype t;
  int nd;
  int kind;                      /* MN_ST_GENERAL / CROSS5 / CROSS7 */
  int sym;                       /* cross with equal weights on both sides of every axis */
  const char *u;                 /* source grid (with halo) */
  int64_t ust[MN_MAXDIM];
  char *y;                       /* destination */
  int64_t yst[MN_MAXDIM];
  int relax;                     /* Jacobi: f is the right-hand side */
  const char *f;
  int64_t fst[MN_MAXDIM];
  int var;                       /* any variable coefficient */
  const char **c;                /* npts coefficient origins (NULL: constant) */
  mn_array *const *conv;         /* the stencil's coefficient copies they point into */
  int64_t cst[MN_MAXDIM];
  int npts;
  int64_t *off;                  /* npts offsets in u's buffer */
  void *w;                       /* npts weights, of type t (cross: in cross order) */
  const int *ctr;
  int nctr;
  double omega;
  double wd;                     /* omega / D for a constant D */
  int dev;                       /* the pointers are device memory (stencils/dev.c) */
  const double *wn;              /* the npts weights in point order (a CUDA box takes them so) */
  const mn_buf *ub, *yb, *fb;    /* the storage u, y, f point into (the emulated launch's windows) */
};

/* A job's buffers (before the errors are agreed: filling it cannot fail),
 * then the job for grid u (base array, halo >= reach) writing into dst (a
 * base array of u's layout and dtype); f (Jacobi) may be NULL. The
 * coefficient copies must be prepared for u. Free with mni_st_job_free. */
int mni_st_job_alloc(const mn_stencil *s, mni_st_job *j);
void mni_st_job_init(const mn_stencil *s, const mn_array *u, mn_array *dst, const mn_array *f, double omega,
                    int dev, mni_st_job *j);
/* A call runs on the device when mni_st_dev_ok (the backend has stencil
 * launches; the stencil has at most 3 axes and the CUDA kernel's 27
 * points, and its coefficient copies can live on the device) and every field's mni_st_dev_field (its grid u's
 * values are on the device, y can be written there; y NULL: u alone). It
 * follows the data, as fused evaluation does. */
int mni_st_dev_ok(const mn_stencil *s);
int mni_st_dev_field(const mn_array *u, const mn_array *y);
/* The job over a box, where its pointers are (host loop or launch). */
void mni_st_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt);
void mni_st_job_free(mni_st_job *j);
/* Run the job on the box of local indices [lo, lo + cnt) (relative to the
 * owned origin); threads over rows when the box is large. */
void mni_st_run_box(const mni_st_job *j, const int64_t *lo, const int64_t *cnt);
/* The points whose neighbours are all owned, and the boundary strips
 * around them (up to 2 nd boxes, disjoint; together with the interior
 * they cover the block). Return the number of boxes. */
int mni_st_interior(int nd, const int64_t *n, const int *reach, int64_t *lo, int64_t *cnt);
int mni_st_strips(int nd, const int64_t *n, const int *reach, int64_t (*lo)[MN_MAXDIM],
                 int64_t (*cnt)[MN_MAXDIM]);

/* dst's owned block = src's (same layout and dtype), threaded over rows. */
int mni_st_copy_owned(const mn_array *src, mn_array *dst, int dev);

/* Write the physical-boundary ghosts of u (up to the reach) from the
 * boundary conditions, axis by axis (see docs/design.md). */
void mni_st_fill_bc(const mn_stencil *s, mn_array *u);
/* One side of axis d on the host (also the emulated device's launch). */
void mni_st_fill_side(int dtype, char *o, int nd, const int64_t *n, const int64_t *st, const int *reach, int d,
                      int side, int kind, double value);

int mni_st_check_same_shape(const mn_array *u, const mn_array *y, const char *what);
/* Is a a base array of u's layout and dtype, not sharing u's storage? */
int mni_st_direct(const mn_array *a, const mn_array *u);
/* s->keep ready for nf fields u (checked: err is the checks' code) and
 * njob jobs. When the fields match what is kept this returns err as is,
 * with no message and no allocation (every check it follows is either
 * global or passed before on this very layout); otherwise it builds anew
 * and agrees on the error over the ranks. */
int mni_st_keep_get(mn_stencil *s, int nf, mn_array *const *u, int njob, int err);
void mni_st_keep_drop(mn_stencil *s);
/* Bring the coefficient copies to u's dtype and layout (collective). */
int mni_st_prepare_coef(mn_stencil *s, const mn_array *u);

/* Bytes passes over u's owned points move (nf fields), for the log. */
int64_t mni_st_log_bytes(const mn_array *u, int nf, int passes);
#endif
