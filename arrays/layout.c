/* Equal splits of index ranges and block layouts over process grids. */
#include "mn_impl.h"
#include <stdlib.h>
#include <string.h>

int64_t mn_split_size(int64_t n, int p, int r) { return n / p + (r < n % p); }

int64_t mn_split_start(int64_t n, int p, int r) {
  int64_t q = n / p, m = n % p;
  return (int64_t)r * q + (r < m ? r : m);
}

int mn_split_owner(int64_t n, int p, int64_t i) {
  /* the first m parts hold q+1 items, big of them in all; q + 1 is formed
   * only where m > 0 (so p > 1 and q <= n / 2): with p = 1, q may be
   * INT64_MAX (sizes read from a file) */
  int64_t q = n / p, m = n % p, big = m * q + m;
  if (i < big) return (int)(i / (q + 1));
  return (int)(m + (i - big) / q);
}

int mn_grid_dims(int nranks, int ndim, const int64_t *shape, int *dims) {
  MN_CHECK(nranks >= 1, MN_ERR_ARG, "number of ranks %d must be positive", nranks);
  MN_CHECK(ndim >= 1 && ndim <= MN_MAXDIM, MN_ERR_ARG,
           "ndim %d outside [1, %d]", ndim, MN_MAXDIM);
  /* split only axes longer than 1, at most 3 of them */
  int axes[MN_MAXDIM], na = 0;
  for (int d = 0; d < ndim; d++) {
    dims[d] = 1;
    if (shape[d] > 1) axes[na++] = d;
  }
  if (na == 0) { dims[0] = nranks; return MN_SUCCESS; }
  /* the larger factors go to the earlier axes, unless a later axis is more
   * than twice as long: arrays of nearly equal extents (a field and its
   * faces, (n, n + 2) beside (n + 2, n)) then share one grid, and their
   * elementwise expressions need halo messages, not a redistribution */
  for (int i = 1; i < na; i++)
    for (int j = i; j > 0 && shape[axes[j]] > 2 * shape[axes[j - 1]]; j--) {
      int t = axes[j]; axes[j] = axes[j - 1]; axes[j - 1] = t;
    }
  if (na > 3) na = 3;
  int f[3] = {0, 0, 0};
  MN_MPI(MPI_Dims_create(nranks, na, f)); /* non-increasing factors */
  for (int i = 0; i < na; i++) dims[axes[i]] = f[i];
  return MN_SUCCESS;
}

static int check_shape(int ndim, const int64_t *shape) {
  MN_CHECK(ndim >= 0 && ndim <= MN_MAXDIM, MN_ERR_SHAPE,
           "ndim %d outside [0, %d]", ndim, MN_MAXDIM);
  MN_CHECK(ndim == 0 || shape, MN_ERR_ARG, "shape pointer is NULL for ndim %d", ndim);
  int64_t n = 1;
  for (int d = 0; d < ndim; d++) {
    MN_CHECK(shape[d] >= 0, MN_ERR_SHAPE, "shape[%d] = %lld is negative", d,
             (long long)shape[d]);
    /* element counts and byte sizes (up to 16 bytes an element) must fit */
    MN_CHECK(!__builtin_mul_overflow(n, shape[d], &n) && n <= INT64_MAX / 16, MN_ERR_SHAPE,
             "shape has too many elements: the product overflows at axis %d (extent %lld)", d,
             (long long)shape[d]);
  }
  return MN_SUCCESS;
}

static int layout_new(mn_ctx *ctx, int ndim, const int64_t *shape, mn_layout **lay) {
  mn_layout *l = calloc(1, sizeof *l);
  MN_CHECK(l, MN_ERR_MEM, "cannot allocate a layout");
  l->ctx = ctx;
  l->refs = 1;
  l->ndim = ndim;
  for (int d = 0; d < ndim; d++) { l->shape[d] = shape[d]; l->dims[d] = 1; }
  *lay = l;
  return MN_SUCCESS;
}

int mn_layout_create_block(mn_ctx *ctx, int ndim, const int64_t *shape,
                           const int *dims, mn_layout **lay) {
  MN_CHECK(ctx && lay, MN_ERR_ARG, "NULL context or output pointer");
  *lay = NULL;
  MN_CALL(check_shape(ndim, shape));
  int g[MN_MAXDIM];
  if (ndim == 0) {
    /* a 0-d array lives on rank 0 */
    MN_CALL(layout_new(ctx, 0, shape, lay));
    (*lay)->kind = MN_LAYOUT_ROOT;
    return MN_SUCCESS;
  }
  if (dims) {
    long prod = 1;
    for (int d = 0; d < ndim; d++) {
      MN_CHECK(dims[d] >= 1, MN_ERR_ARG, "process grid dims[%d] = %d must be >= 1", d, dims[d]);
      prod *= dims[d];
      g[d] = dims[d];
    }
    MN_CHECK(prod == ctx->size, MN_ERR_ARG,
             "process grid has %ld ranks but the communicator has %d", prod, ctx->size);
  } else {
    MN_CALL(mn_grid_dims(ctx->size, ndim, shape, g));
  }
  MN_CALL(layout_new(ctx, ndim, shape, lay));
  (*lay)->kind = MN_LAYOUT_BLOCK;
  for (int d = 0; d < ndim; d++) (*lay)->dims[d] = g[d];
  return MN_SUCCESS;
}

int mn_layout_create_root(mn_ctx *ctx, int ndim, const int64_t *shape, int root,
                          mn_layout **lay) {
  MN_CHECK(ctx && lay, MN_ERR_ARG, "NULL context or output pointer");
  *lay = NULL;
  MN_CALL(check_shape(ndim, shape));
  MN_CHECK(root >= 0 && root < ctx->size, MN_ERR_ARG,
           "root rank %d outside [0, %d)", root, ctx->size);
  MN_CALL(layout_new(ctx, ndim, shape, lay));
  (*lay)->kind = MN_LAYOUT_ROOT;
  (*lay)->root = root;
  return MN_SUCCESS;
}

mn_layout *mn_layout_ref(mn_layout *lay) { lay->refs++; return lay; }

int mn_layout_destroy(mn_layout **lay) {
  if (!lay || !*lay) return MN_SUCCESS;
  if (--(*lay)->refs == 0) free(*lay);
  *lay = NULL;
  return MN_SUCCESS;
}

int mn_layout_ndim(const mn_layout *lay) { return lay->ndim; }
const int64_t *mn_layout_shape(const mn_layout *lay) { return lay->shape; }
mn_layout_kind mn_layout_get_kind(const mn_layout *lay) { return lay->kind; }
const int *mn_layout_dims(const mn_layout *lay) { return lay->dims; }

int mn_layout_rank_of(const mn_layout *lay, const int *coords) {
  int r = 0;
  for (int d = 0; d < lay->ndim; d++) r = r * lay->dims[d] + coords[d];
  return r;
}

void mn_layout_coords_of(const mn_layout *lay, int rank, int *coords) {
  for (int d = lay->ndim - 1; d >= 0; d--) {
    coords[d] = rank % lay->dims[d];
    rank /= lay->dims[d];
  }
}

void mn_layout_box(const mn_layout *lay, int rank, int64_t *lo, int64_t *hi) {
  if (lay->kind == MN_LAYOUT_ROOT) {
    int mine = rank == lay->root;
    for (int d = 0; d < lay->ndim; d++) { lo[d] = 0; hi[d] = mine ? lay->shape[d] : 0; }
    return;
  }
  int c[MN_MAXDIM];
  mn_layout_coords_of(lay, rank, c);
  for (int d = 0; d < lay->ndim; d++) {
    lo[d] = mn_split_start(lay->shape[d], lay->dims[d], c[d]);
    hi[d] = lo[d] + mn_split_size(lay->shape[d], lay->dims[d], c[d]);
  }
}

int64_t mn_layout_local_size(const mn_layout *lay, int rank) {
  int64_t lo[MN_MAXDIM], hi[MN_MAXDIM], n = 1;
  mn_layout_box(lay, rank, lo, hi);
  if (lay->kind == MN_LAYOUT_ROOT && lay->ndim == 0) return rank == lay->root;
  for (int d = 0; d < lay->ndim; d++) n *= hi[d] - lo[d];
  return n;
}

int mn_layout_owner(const mn_layout *lay, const int64_t *idx) {
  if (lay->kind == MN_LAYOUT_ROOT) return lay->root;
  int c[MN_MAXDIM];
  for (int d = 0; d < lay->ndim; d++)
    c[d] = mn_split_owner(lay->shape[d], lay->dims[d], idx[d]);
  return mn_layout_rank_of(lay, c);
}

/* The same distribution (kind, shape, process grid): equal boxes on every rank. */
int mn_layout_same(const mn_layout *a, const mn_layout *b) {
  if (a == b) return 1;
  if (a->kind != b->kind || a->ndim != b->ndim || a->root != b->root) return 0;
  for (int d = 0; d < a->ndim; d++)
    if (a->shape[d] != b->shape[d] || a->dims[d] != b->dims[d]) return 0;
  return 1;
}

int mn_map_split_alike(const mn_ctx *ctx, const mn_map *a, const mn_layout *la, const mn_map *b,
                       const mn_layout *lb, int quick) {
  if (mn_layout_same(la, lb) && mn_map_equal(a, b)) return 1;
  if (quick || a->ndim != b->ndim) return 0;
  for (int q = 0; q < ctx->size; q++) {
    int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM], blo[MN_MAXDIM], bcnt[MN_MAXDIM];
    int have = mn_map_owned_box(a, la, q, lo, cnt);
    if (have != mn_map_owned_box(b, lb, q, blo, bcnt)) return 0;
    for (int d = 0; have && d < a->ndim; d++)
      if (lo[d] != blo[d] || cnt[d] != bcnt[d]) return 0;
  }
  return 1;
}
