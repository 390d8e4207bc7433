/* NumPy .npy files, written and read collectively with MPI-IO: each rank
 * moves its own block through a subarray file view (no gather to a root).
 * The header is written and parsed by rank 0 and broadcast. */
#include "mn_impl.h"
#include "spmd.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *descr_of(mn_dtype t) {
  switch (t) {
  case MN_BOOL: return "|b1";
  case MN_INT32: return "<i4";
  case MN_INT64: return "<i8";
  case MN_FLOAT32: return "<f4";
  default: return "<f8";
  }
}

/* header (magic .. newline) for version 1.0, padded to a multiple of 64 */
static size_t make_header(const mn_array *a, char *h, size_t cap) {
  char dict[1024], shp[512];
  size_t k = 0;
  int nd = a->map.ndim;
  k += (size_t)snprintf(shp + k, sizeof shp - k, "(");
  for (int d = 0; d < nd; d++)
    k += (size_t)snprintf(shp + k, sizeof shp - k, nd == 1 ? "%lld," : (d + 1 < nd ? "%lld, " : "%lld"),
                          (long long)a->map.shape[d]);
  snprintf(shp + k, sizeof shp - k, ")");
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': False, 'shape': %s, }",
                   descr_of(a->dtype), shp);
  size_t total = 10 + (size_t)n + 1;
  size_t pad = (64 - total % 64) % 64;
  total += pad;
  if (total > cap) return 0;
  memcpy(h, "\x93NUMPY\x01\x00", 8);
  uint16_t hl = (uint16_t)(total - 10);
  h[8] = (char)(hl & 0xff);
  h[9] = (char)(hl >> 8);
  memcpy(h + 10, dict, (size_t)n);
  memset(h + 10 + n, ' ', pad);
  h[total - 1] = '\n';
  return total;
}

static MPI_Datatype mpi_type(mn_dtype t) {
  switch (t) {
  case MN_BOOL: return MPI_UINT8_T;
  case MN_INT32: return MPI_INT32_T;
  case MN_INT64: return MPI_INT64_T;
  case MN_FLOAT32: return MPI_FLOAT;
  default: return MPI_DOUBLE;
  }
}

static int mpi_err(int rc, const char *what, const char *path) {
  char s[MPI_MAX_ERROR_STRING];
  int l = 0;
  MPI_Error_string(rc, s, &l);
  return MN_ERR(MN_ERR_IO, "%s '%s' failed: %s", what, path, s);
}

/* Set a file view selecting this rank's block; *count = elements to move. */
static int block_view(MPI_File f, const mn_array *a, MPI_Offset disp, int *count, MPI_Datatype *ft) {
  const mn_buf *b = a->buf;
  int nd = b->ndim;
  int64_t n = mn_layout_local_size(b->lay, a->ctx->rank);
  MPI_Datatype et = mpi_type(a->dtype);
  *ft = MPI_DATATYPE_NULL;
  if (nd == 0 || n == 0) {
    MPI_File_set_view(f, disp, et, et, "native", MPI_INFO_NULL);
    *count = (nd == 0 && n) ? 1 : 0;
    return MN_SUCCESS;
  }
  int gs[MN_MAXDIM], ss[MN_MAXDIM], st[MN_MAXDIM];
  for (int d = 0; d < nd; d++) {
    MN_CHECK(b->lay->shape[d] <= 0x7fffffff, MN_ERR_NOTIMPL, "axis %d extent %lld too large for MPI-IO", d,
             (long long)b->lay->shape[d]);
    gs[d] = (int)b->lay->shape[d];
    ss[d] = (int)(b->hi[d] - b->lo[d]);
    st[d] = (int)b->lo[d];
  }
  MPI_Type_create_subarray(nd, gs, ss, st, MPI_ORDER_C, et, ft);
  MPI_Type_commit(ft);
  MPI_File_set_view(f, disp, et, *ft, "native", MPI_INFO_NULL);
  *count = (int)n;
  return MN_SUCCESS;
}

/* Owned block of a base array without halo: contiguous copy in/out. */
static void block_pack(const mn_array *a, char *dst, int out) {
  const mn_buf *b = a->buf;
  int64_t cnt[MN_MAXDIM], dst_st[MN_MAXDIM], s = 1;
  for (int d = b->ndim - 1; d >= 0; d--) { cnt[d] = b->hi[d] - b->lo[d]; dst_st[d] = s; s *= cnt[d]; }
  size_t es = mn_dtype_size(b->dtype);
  char *p = mn_buf_ptr(b, b->lo);
  if (out) mn_strided_copy(b->ndim, cnt, es, p, b->astride, dst, dst_st);
  else mn_strided_copy(b->ndim, cnt, es, dst, dst_st, p, b->astride);
}

int mn_array_save_npy(const mn_array *a, const char *path) {
  MN_CHECK(a && path, MN_ERR_ARG, "NULL array or path");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_save_npy", mn_spmd_array(S, "a", a), mn_spmd_str(S, "path", path));
  mn_ctx *ctx = a->ctx;
  /* write a plain block copy: views and halos are laid out first */
  mn_array *c = NULL;
  int err = 0;
  if (a->is_view || a->buf->lay->kind != MN_LAYOUT_BLOCK) {
    MN_CALL(mn_array_create(ctx, a->dtype, a->map.ndim, a->map.shape, 0, &c));
    err = mn_array_copy(a, c);
    if (err) { mn_array_destroy(&c); return mn_trace(err, __FILE__, __LINE__, __func__); }
    a = c;
  }
  char h[2048];
  size_t hl = make_header(a, h, sizeof h);
  MPI_File f;
  int rc = MPI_File_open(ctx->comm, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &f);
  if (rc != MPI_SUCCESS) err = mpi_err(rc, "opening for writing", path);
  err = mn_agree(ctx, err);
  if (err) { mn_array_destroy(&c); return mn_trace(err, __FILE__, __LINE__, __func__); }
  int64_t n = mn_layout_local_size(a->buf->lay, ctx->rank);
  size_t es = mn_dtype_size(a->dtype);
  char *tmp = mn_malloc((size_t)n * es);
  if (!tmp) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes to write '%s'", (long long)(n * (int64_t)es), path);
  err = mn_agree(ctx, err);
  if (!err) {
    MPI_File_set_size(f, (MPI_Offset)(hl + (size_t)mn_array_size(a) * es));
    if (ctx->rank == 0) {
      rc = MPI_File_write_at(f, 0, h, (int)hl, MPI_BYTE, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) err = mpi_err(rc, "writing the header of", path);
    }
    int count;
    MPI_Datatype ft;
    if (n) block_pack(a, tmp, 1);
    block_view(f, a, (MPI_Offset)hl, &count, &ft);
    rc = MPI_File_write_all(f, tmp, count, mpi_type(a->dtype), MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS && !err) err = mpi_err(rc, "writing", path);
    if (ft != MPI_DATATYPE_NULL) MPI_Type_free(&ft);
  }
  MPI_File_close(&f);
  mn_free(tmp);
  mn_array_destroy(&c);
  err = mn_agree(ctx, err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

typedef struct {
  int err;
  int dtype, ndim;
  int64_t shape[MN_MAXDIM];
  int64_t header;
} npy_meta;

static int parse_header(const char *path, npy_meta *m) {
  FILE *fp = fopen(path, "rb");
  MN_CHECK(fp, MN_ERR_IO, "cannot open '%s' for reading", path);
  unsigned char pre[12];
  size_t got = fread(pre, 1, 10, fp);
  int err = 0;
  if (got < 10 || memcmp(pre, "\x93NUMPY", 6)) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s' is not a .npy file (bad magic string)", path);
    goto done;
  }
  size_t hl, off;
  if (pre[6] == 1) { hl = pre[8] | ((size_t)pre[9] << 8); off = 10; }
  else if (pre[6] == 2 || pre[6] == 3) {
    if (fread(pre + 10, 1, 2, fp) != 2) { err = MN_ERR(MN_ERR_FORMAT, "'%s': truncated header", path); goto done; }
    hl = pre[8] | ((size_t)pre[9] << 8) | ((size_t)pre[10] << 16) | ((size_t)pre[11] << 24);
    off = 12;
  } else {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': unsupported .npy format version %d.%d", path, pre[6], pre[7]);
    goto done;
  }
  if (hl > 65536) { err = MN_ERR(MN_ERR_FORMAT, "'%s': header length %zu is implausible", path, hl); goto done; }
  char *h = calloc(1, hl + 1);
  if (!h) { err = MN_ERR(MN_ERR_MEM, "cannot allocate a header"); goto done; }
  if (fread(h, 1, hl, fp) != hl) { free(h); err = MN_ERR(MN_ERR_FORMAT, "'%s': truncated header (%zu bytes expected)", path, hl); goto done; }
  m->header = (int64_t)(off + hl);
  const char *d = strstr(h, "'descr'"), *fo = strstr(h, "'fortran_order'"), *sh = strstr(h, "'shape'");
  if (!d || !fo || !sh) { err = MN_ERR(MN_ERR_FORMAT, "'%s' (line 1): header lacks descr, fortran_order or shape: %.200s", path, h); free(h); goto done; }
  d = strchr(d + 7, '\'');
  static const char *const names[] = {"|b1", "<i4", "<i8", "<f4", "<f8"};
  m->dtype = -1;
  for (int t = 0; d && t < 5; t++)
    if (!strncmp(d + 1, names[t], 3) && d[4] == '\'') m->dtype = t;
  if (d && m->dtype < 0 && (!strncmp(d + 1, "<u1", 3) || !strncmp(d + 1, "|u1", 3))) m->dtype = -1;
  if (m->dtype < 0) {
    char q[16] = {0};
    if (d) sscanf(d + 1, "%15[^']", q);
    err = MN_ERR(MN_ERR_DTYPE, "'%s': dtype '%s' not supported (bool, int32, int64, float32, float64, little-endian)", path, q);
    free(h);
    goto done;
  }
  const char *fv = fo + 15;
  while (*fv == ' ' || *fv == ':') fv++;
  if (!strncmp(fv, "True", 4)) { err = MN_ERR(MN_ERR_FORMAT, "'%s': Fortran-order arrays are not supported", path); free(h); goto done; }
  const char *p = strchr(sh, '(');
  if (!p) { err = MN_ERR(MN_ERR_FORMAT, "'%s': shape is not a tuple", path); free(h); goto done; }
  p++;
  m->ndim = 0;
  for (;;) {
    while (*p == ' ' || *p == ',') p++;
    if (*p == ')') break;
    char *e;
    long long v = strtoll(p, &e, 10);
    if (e == p || v < 0 || m->ndim == MN_MAXDIM) {
      err = MN_ERR(MN_ERR_FORMAT, "'%s': bad shape entry near '%.20s'", path, p);
      break;
    }
    m->shape[m->ndim++] = v;
    p = e;
  }
  free(h);
  if (!err) {
    fseek(fp, 0, SEEK_END);
    long size = ftell(fp);
    int64_t n = 1;
    for (int k = 0; k < m->ndim; k++) n *= m->shape[k];
    int64_t need = m->header + n * (int64_t)mn_dtype_size((mn_dtype)m->dtype);
    if (size < need)
      err = MN_ERR(MN_ERR_FORMAT, "'%s' holds %ld bytes but its header needs %lld (truncated file)", path, size,
                   (long long)need);
  }
done:
  fclose(fp);
  return err;
}

int mn_array_load_npy(mn_ctx *ctx, const char *path, mn_array **a) {
  MN_CHECK(ctx && path && a, MN_ERR_ARG, "NULL context, path or output");
  *a = NULL;
  MN_SPMD(ctx, "mn_array_load_npy", mn_spmd_str(S, "path", path));
  npy_meta m;
  memset(&m, 0, sizeof m);
  if (ctx->rank == 0) m.err = parse_header(path, &m);
  int err = mn_agree(ctx, m.err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MN_MPI(MPI_Bcast(&m, (int)sizeof m, MPI_BYTE, 0, ctx->comm));
  MN_CALL(mn_array_create(ctx, (mn_dtype)m.dtype, m.ndim, m.shape, 0, a));
  MPI_File f;
  int rc = MPI_File_open(ctx->comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f);
  if (rc != MPI_SUCCESS) err = mpi_err(rc, "opening for reading", path);
  err = mn_agree(ctx, err);
  if (err) { mn_array_destroy(a); return mn_trace(err, __FILE__, __LINE__, __func__); }
  int64_t n = mn_layout_local_size((*a)->buf->lay, ctx->rank);
  size_t es = mn_dtype_size((*a)->dtype);
  char *tmp = mn_malloc((size_t)n * es);
  if (!tmp) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes to read '%s'", (long long)(n * (int64_t)es), path);
  err = mn_agree(ctx, err);
  if (!err) {
    int count;
    MPI_Datatype ft;
    block_view(f, *a, (MPI_Offset)m.header, &count, &ft);
    rc = MPI_File_read_all(f, tmp, count, mpi_type((*a)->dtype), MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) err = mpi_err(rc, "reading", path);
    if (ft != MPI_DATATYPE_NULL) MPI_Type_free(&ft);
    if (!err && n) block_pack(*a, tmp, 0);
    if (!err && (*a)->dtype == MN_BOOL)
      for (int64_t i = 0; i < n; i++) /* NumPy bools are 0/1; normalise anyway */
        if ((unsigned char)tmp[i] > 1) {
          err = MN_ERR(MN_ERR_FORMAT, "'%s': a bool element holds byte %u (not 0 or 1)", path, (unsigned char)tmp[i]);
          break;
        }
  }
  MPI_File_close(&f);
  mn_free(tmp);
  err = mn_agree(ctx, err);
  if (err) { mn_array_destroy(a); return mn_trace(err, __FILE__, __LINE__, __func__); }
  return MN_SUCCESS;
}
