/* NumPy .npy files, written and read collectively with MPI-IO: each rank
 * moves its own block through file views (no gather to a root).
 *
 * Reading: every rank checks that it can open the file (mn_file_check),
 * then reads and parses the header itself (npy_header.c) and the ranks
 * compare what they saw, so a file that differs between ranks (node-local
 * disks) is an error instead of rank 0's header applied to every rank's
 * data. Writing: the file is written under a temporary name next to the
 * target and renamed into place by rank 0 once every rank has written and
 * synced, so an interrupted save never leaves a plausible file behind.
 *
 * MPI counts are ints: the local block moves in pieces of at most
 * chunk_bytes() bytes, each described by a file type built from int counts
 * and 64-bit byte strides, so axes and blocks beyond 2^31 elements work. */
#define _XOPEN_SOURCE 700 /* realpath, pread */
#include "expr_impl.h" /* mn_shape_str */
#include "npy_header.h"
#include "spmd.h"
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char *descr_of(mn_dtype t) {
  switch (t) {
  case MN_BOOL: return "|b1";
  case MN_INT8: return "|i1";
  case MN_INT16: return "<i2";
  case MN_INT32: return "<i4";
  case MN_INT64: return "<i8";
  case MN_UINT8: return "|u1";
  case MN_UINT16: return "<u2";
  case MN_UINT32: return "<u4";
  case MN_UINT64: return "<u8";
  case MN_FLOAT16: return "<f2";
  case MN_FLOAT32: return "<f4";
  case MN_COMPLEX64: return "<c8";
  case MN_COMPLEX128: return "<c16";
  default: return "<f8";
  }
}

static MPI_Datatype mpi_type(mn_dtype t) {
  switch (t) {
  case MN_BOOL: case MN_UINT8: return MPI_UINT8_T;
  case MN_INT8: return MPI_INT8_T;
  case MN_INT16: return MPI_INT16_T;
  case MN_UINT16: case MN_FLOAT16: return MPI_UINT16_T;
  case MN_INT32: return MPI_INT32_T;
  case MN_UINT32: return MPI_UINT32_T;
  case MN_INT64: return MPI_INT64_T;
  case MN_UINT64: return MPI_UINT64_T;
  case MN_FLOAT32: return MPI_FLOAT;
  case MN_COMPLEX64: return MPI_C_FLOAT_COMPLEX;
  case MN_COMPLEX128: return MPI_C_DOUBLE_COMPLEX;
  default: return MPI_DOUBLE;
  }
}

/* header (magic .. newline) for version 1.0, padded to a multiple of 64;
 * 0 when it does not fit in cap. fortran: a is the transpose of the array
 * the file holds in Fortran order (the reversed shape) */
static size_t make_header(const mn_array *a, int fortran, char *h, size_t cap) {
  char dict[1024], shp[512];
  int64_t s[MN_MAXDIM];
  for (int d = 0; d < a->map.ndim; d++) s[d] = a->map.shape[fortran ? a->map.ndim - 1 - d : d];
  mn_shape_str(a->map.ndim, s, shp, sizeof shp);
  int n = snprintf(dict, sizeof dict, "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }",
                   descr_of(a->dtype), fortran ? "True" : "False", shp);
  if (n < 0 || (size_t)n >= sizeof dict) return 0;
  size_t total = 10 + (size_t)n + 1;
  size_t pad = (64 - total % 64) % 64;
  total += pad;
  if (total > cap || total - 10 > 0xffff) return 0;
  memcpy(h, "\x93NUMPY\x01\x00", 8);
  uint16_t hl = (uint16_t)(total - 10);
  h[8] = (char)(hl & 0xff);
  h[9] = (char)(hl >> 8);
  memcpy(h + 10, dict, (size_t)n);
  memset(h + 10 + n, ' ', pad);
  h[total - 1] = '\n';
  return total;
}

static int mpi_err(int rc, const char *what, const char *path) {
  char s[MPI_MAX_ERROR_STRING];
  int l = 0;
  MPI_Error_string(rc, s, &l);
  return MN_ERR(MN_ERR_IO, "%s '%s' failed: %s", what, path, s);
}

/* Elements of a shape, and its bytes at es bytes each, or an error naming
 * them. As NumPy ("array is too big"), the axes other than 0 must multiply
 * to a byte size that fits, also when an axis of 0 makes the array empty. */
static int shape_bytes(const char *path, int nd, const int64_t *shape, const char *descr, size_t es, int64_t *n,
                       int64_t *bytes) {
  int64_t p = 1, b;
  int zero = 0;
  char s[256];
  for (int d = 0; d < nd; d++) {
    if (shape[d] == 0) {
      zero = 1;
      continue;
    }
    if (__builtin_mul_overflow(p, shape[d], &p)) {
      mn_shape_str(nd, shape, s, sizeof s);
      return MN_ERR(MN_ERR_FORMAT, "'%s': shape %s has more than 2^63-1 elements", path, s);
    }
  }
  if (__builtin_mul_overflow(p, (int64_t)es, &b)) {
    mn_shape_str(nd, shape, s, sizeof s);
    return MN_ERR(MN_ERR_FORMAT, "'%s': shape %s of %s is %lld elements of %zu bytes = %.4g bytes, more than a "
                  "file can hold (2^63-1)", path, s, descr, (long long)p, es, (double)p * (double)es);
  }
  *n = zero ? 0 : p;
  *bytes = zero ? 0 : b;
  return MN_SUCCESS;
}

/* ---- pieces: the local block cut into MPI-IO calls of int counts ---- */

/* The largest piece one MPI-IO call moves, in bytes (1 GiB: well inside
 * int counts, and moderate buffers in the MPI library).
 * MANIPLE_NPY_CHUNK_BYTES=N lowers it, read once: tests set it (the same on
 * every rank) so that small arrays take the many-piece path that arrays
 * beyond 2^31 elements need. */
static int64_t chunk_bytes(void) {
  static int64_t v;
  if (!v) {
    int64_t x = (int64_t)1 << 30;
    const char *s = getenv("MANIPLE_NPY_CHUNK_BYTES");
    if (s && *s) {
      char *e;
      long long y = strtoll(s, &e, 10);
      if (!*e && y > 0 && y < x) x = y;
    }
    v = x;
  }
  return v;
}

/* A box (lo, c) of n elements cut into pieces, in C order: a piece is one
 * index on each axis before d, up to k indices on axis d, and the whole
 * box on the axes after d. Consecutive pieces are consecutive in the
 * box's C-order copy. */
typedef struct {
  int nd, d;
  int64_t lo[MN_MAXDIM], c[MN_MAXDIM];
  int64_t k, nchunk, total;
} pieces;

static void pieces_make(int nd, const int64_t *lo, const int64_t *hi, int64_t n, size_t es, pieces *P) {
  memset(P, 0, sizeof *P);
  P->nd = nd;
  for (int d = 0; d < nd; d++) {
    P->lo[d] = lo[d];
    P->c[d] = hi[d] - lo[d];
  }
  if (n == 0) return;
  if (nd == 0) {
    P->k = P->nchunk = P->total = 1;
    return;
  }
  int64_t lim = chunk_bytes() / (int64_t)es;
  if (lim < 1) lim = 1;
  if (lim > INT_MAX) lim = INT_MAX;
  int64_t inner = 1, t;
  int d = nd - 1;
  while (d > 0 && !__builtin_mul_overflow(inner, P->c[d], &t) && t <= lim) {
    inner = t;
    d--;
  }
  P->d = d;
  P->k = lim / inner;
  if (P->k > P->c[d]) P->k = P->c[d];
  P->nchunk = (P->c[d] + P->k - 1) / P->k;
  P->total = P->nchunk;
  for (int e = 0; e < d; e++) P->total *= P->c[e];
}

static void pieces_get(const pieces *P, int64_t i, int64_t *plo, int64_t *pc) {
  int d = P->d;
  int64_t j = i % P->nchunk, o = i / P->nchunk;
  for (int e = P->nd - 1; e > d; e--) {
    plo[e] = P->lo[e];
    pc[e] = P->c[e];
  }
  plo[d] = P->lo[d] + j * P->k;
  pc[d] = P->c[d] - j * P->k < P->k ? P->c[d] - j * P->k : P->k;
  for (int e = d - 1; e >= 0; e--) {
    plo[e] = P->lo[e] + o % P->c[e];
    pc[e] = 1;
    o /= P->c[e];
  }
}

/* File type of a piece (extents pc from axis d on) in a C-order file of
 * global shape g: a contiguous run over the innermost axes it spans whole,
 * then one hvector (int count, byte stride) per outer axis. */
static int piece_type(int nd, int d, const int64_t *pc, const int64_t *g, MPI_Datatype et, int64_t es,
                      MPI_Datatype *ft) {
  int e = nd - 1;
  int64_t run = pc[e];
  while (e > d && pc[e] == g[e]) {
    e--;
    run *= pc[e];
  }
  MPI_Datatype t, u;
  int rc = MPI_Type_contiguous((int)run, et, &t);
  if (rc != MPI_SUCCESS) return rc;
  int64_t stride = es;
  for (int j = e; j < nd; j++) stride *= g[j];
  for (int j = e - 1; j >= d; j--) {
    rc = MPI_Type_create_hvector((int)pc[j], 1, (MPI_Aint)stride, t, &u);
    MPI_Type_free(&t);
    if (rc != MPI_SUCCESS) return rc;
    t = u;
    stride *= g[j];
  }
  rc = MPI_Type_commit(&t);
  if (rc != MPI_SUCCESS) {
    MPI_Type_free(&t);
    return rc;
  }
  *ft = t;
  return MPI_SUCCESS;
}

/* Collective calls each rank makes: the most pieces of any rank (every
 * rank knows every block from the layout, so no message is needed). */
static int64_t rounds_of(const mn_layout *lay, int nranks, size_t es) {
  int64_t most = 0, lo[MN_MAXDIM], hi[MN_MAXDIM];
  pieces P;
  for (int r = 0; r < nranks; r++) {
    mn_layout_box(lay, r, lo, hi);
    pieces_make(lay->ndim, lo, hi, mn_layout_local_size(lay, r), es, &P);
    if (P.total > most) most = P.total;
  }
  return most;
}

/* Move this rank's block of a base array between the file (data at byte
 * header) and mem, its C-order copy; collective: every rank makes rounds
 * calls, with count 0 once its own pieces are done, even after an error. */
static int block_io(mn_ctx *ctx, MPI_File f, const mn_buf *b, MPI_Offset header, char *mem, int write,
                    const char *path) {
  int nd = b->ndim;
  size_t es = mn_dtype_size(b->dtype);
  MPI_Datatype et = mpi_type(b->dtype);
  const int64_t *g = b->lay->shape;
  int64_t gst[MN_MAXDIM];
  mn_dense_strides(nd, g, gst);
  pieces P;
  pieces_make(nd, b->lo, b->hi, mn_layout_local_size(b->lay, ctx->rank), es, &P);
  int64_t rounds = rounds_of(b->lay, ctx->size, es), off = 0;
  int err = 0;
  for (int64_t i = 0; i < rounds; i++) {
    MPI_Datatype ft = et;
    MPI_Offset disp = header;
    int count = 0, rc = MPI_SUCCESS;
    if (i < P.total && !err) {
      int64_t plo[MN_MAXDIM], pc[MN_MAXDIM], n = 1, pos = 0;
      if (nd) pieces_get(&P, i, plo, pc);
      for (int d = 0; d < nd; d++) {
        n *= pc[d];
        pos += plo[d] * gst[d];
      }
      disp = header + (MPI_Offset)(pos * (int64_t)es);
      count = (int)n;
      if (nd) rc = piece_type(nd, P.d, pc, g, et, (int64_t)es, &ft);
      if (rc != MPI_SUCCESS) {
        err = mpi_err(rc, "building a file type for", path);
        ft = et;
        count = 0;
      }
    }
    rc = MPI_File_set_view(f, disp, et, ft, "native", MPI_INFO_NULL);
    if (rc != MPI_SUCCESS) {
      if (!err) err = mpi_err(rc, "setting a file view on", path);
      count = 0;
    }
    MPI_Status st;
    char *p = mem ? mem + off * (int64_t)es : NULL;
    rc = write ? MPI_File_write_all(f, p, count, et, &st) : MPI_File_read_all(f, p, count, et, &st);
    if (rc != MPI_SUCCESS) {
      if (!err) err = mpi_err(rc, write ? "writing" : "reading", path);
    } else if (count) {
      int got = 0;
      MPI_Get_count(&st, et, &got);
      if (got != count && !err)
        err = MN_ERR(MN_ERR_IO, "'%s': %s %d of %d elements at byte %lld (did the file change?)", path,
                     write ? "wrote" : "read", got, count, (long long)disp);
    }
    if (ft != et) MPI_Type_free(&ft);
    off += count;
  }
  return err;
}

/* The array's own memory when it is its block in C order without gaps (no
 * halo), so that MPI-IO can use it directly; else NULL. */
static char *dense_block(const mn_buf *b) {
  int64_t s = 1;
  for (int d = b->ndim - 1; d >= 0; d--) {
    if (b->alo[d] != b->lo[d] || b->alen[d] != b->hi[d] - b->lo[d] || b->astride[d] != s) return NULL;
    s *= b->alen[d];
  }
  return mn_buf_host(b, 1); /* loading writes it; saving reads it */
}

/* The owned block of a base array and its C-order copy dst, either way. */
static void block_pack(const mn_buf *b, char *dst, int out) {
  int64_t cnt[MN_MAXDIM], dst_st[MN_MAXDIM];
  for (int d = 0; d < b->ndim; d++) cnt[d] = b->hi[d] - b->lo[d];
  mn_dense_strides(b->ndim, cnt, dst_st);
  size_t es = mn_dtype_size(b->dtype);
  mn_buf_host(b, !out);
  char *p = mn_buf_ptr(b, b->lo);
  if (out) mn_strided_copy(b->ndim, cnt, es, p, b->astride, dst, dst_st);
  else mn_strided_copy(b->ndim, cnt, es, dst, dst_st, p, b->astride);
}

/* A C-order copy of this rank's block: the array's memory or a new buffer
 * (*owned), or an error. */
static int block_mem(mn_ctx *ctx, const mn_buf *b, const char *path, char **mem, int *owned) {
  int64_t n = mn_layout_local_size(b->lay, ctx->rank), bytes;
  *owned = 0;
  *mem = dense_block(b);
  if (*mem || n == 0) return MN_SUCCESS;
  if (__builtin_mul_overflow(n, (int64_t)mn_dtype_size(b->dtype), &bytes) || (uint64_t)bytes > SIZE_MAX)
    return MN_ERR(MN_ERR_MEM, "a block of %lld elements to move for '%s' does not fit in memory", (long long)n,
                  path);
  *mem = mn_malloc((size_t)bytes);
  if (!*mem) return MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes to move '%s'", (long long)bytes, path);
  *owned = 1;
  return MN_SUCCESS;
}

/* ---- saving ---- */

/* MANIPLE_NPY_FAULT (tests only, read at each save): "write" makes the last
 * rank report a write error after its data is written, "kill" makes rank
 * 0 kill itself just before the rename, as an interrupted job would. */
static int fault_is(const char *what) {
  const char *s = getenv("MANIPLE_NPY_FAULT");
  return s && !strcmp(s, what);
}

/* Rank 0: the file a save replaces (path, or what a symbolic link at path
 * points to: NumPy writes through links) and a new empty file next to it,
 * ".<name>.mn-tmp-<16 hex digits>", created exclusively. */
static int make_temp(const char *path, char **final, char **tmp) {
  struct stat st;
  *final = *tmp = NULL;
  char *real = NULL;
  if (!lstat(path, &st) && S_ISLNK(st.st_mode)) real = realpath(path, NULL);
  *final = real ? real : strdup(path);
  if (!*final) return MN_ERR(MN_ERR_MEM, "cannot allocate a file name");
  const char *slash = strrchr(*final, '/'), *base = slash ? slash + 1 : *final;
  int dirlen = slash ? (int)(slash - *final + 1) : 0;
  size_t cap = strlen(*final) + 40;
  *tmp = malloc(cap);
  if (!*tmp) return MN_ERR(MN_ERR_MEM, "cannot allocate a file name");
  static unsigned counter;
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  uint64_t token = ((uint64_t)getpid() << 40) ^ ((uint64_t)ts.tv_sec << 20) ^ (uint64_t)ts.tv_nsec;
  for (int tries = 0; tries < 64; tries++) {
    token = token * 6364136223846793005ull + 1442695040888963407ull + counter++;
    /* a name of at most 255 bytes: long names are cut */
    snprintf(*tmp, cap, "%.*s.%.200s.mn-tmp-%016llx", dirlen, *final, base, (unsigned long long)token);
    int fd = open(*tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd >= 0) {
      close(fd);
      return MN_SUCCESS;
    }
    if (errno != EEXIST) {
      int e = errno;
      free(*tmp);
      *tmp = NULL;
      return MN_ERR_ERRNO(e, path, "cannot create a temporary file next to");
    }
  }
  free(*tmp);
  *tmp = NULL;
  return MN_ERR_ERRNO(EEXIST, path, "cannot find a free temporary name next to");
}

/* Rank 0, once every rank has written: the temporary file replaces the
 * target in one step (rename), keeping the permission bits of a file it
 * replaces as writing into that file would. */
static int commit_temp(const char *tmp, const char *final, const char *path) {
  struct stat st;
  if (!stat(final, &st) && S_ISREG(st.st_mode)) chmod(tmp, st.st_mode & 07777);
  if (fault_is("kill")) raise(SIGKILL);
  if (rename(tmp, final)) return MN_ERR_ERRNO(errno, path, "cannot move the written file into place as");
  return MN_SUCCESS;
}

/* Every rank learns the temporary name rank 0 made (after an agreed
 * success, so every rank is here) and checks that it sees that file: a
 * directory on node-local disks would show rank 0's file to rank 0 only. */
static int bcast_name(mn_ctx *ctx, const char *path, char **tmp) {
  char name[PATH_MAX + 64];
  int len = ctx->rank == 0 ? (int)strlen(*tmp) : 0;
  if (len >= (int)sizeof name) len = -1; /* cannot happen: realpath gives at most PATH_MAX */
  if (ctx->rank == 0 && len > 0) memcpy(name, *tmp, (size_t)len);
  MN_MPI(MPI_Bcast(&len, 1, MPI_INT, 0, ctx->comm));
  if (len < 0) return MN_ERR(MN_ERR_IO, "the temporary name for '%s' is too long", path);
  MN_MPI(MPI_Bcast(name, len, MPI_CHAR, 0, ctx->comm));
  name[len] = 0;
  if (ctx->rank != 0 && !(*tmp = strdup(name))) return MN_ERR(MN_ERR_MEM, "cannot allocate a file name");
  if (access(name, W_OK))
    return MN_ERR(MN_ERR_IO, "'%s': rank %d cannot open the temporary file '%s' that rank 0 made next to it (%s): "
                  "is the directory on a disk of rank 0's node only?", path, ctx->rank, name, strerror(errno));
  return MN_SUCCESS;
}

static int save_npy(const mn_array *a, const char *path, int fortran) {
  MN_CHECK(a && path, MN_ERR_ARG, "NULL array or path");
  MN_SPMD(a ? a->ctx : NULL, "mn_array_save_npy", mn_spmd_array(S, "a", a), mn_spmd_str(S, "path", path),
          mn_spmd_int(S, "fortran", fortran));
  mn_ctx *ctx = a->ctx;
  /* before anything else collective: a missing directory on some ranks
   * would otherwise block the others inside MPI_File_open */
  MN_CALL(mn_file_check(ctx, path, 1));
  /* write a plain block copy: views and halos are laid out first */
  mn_array *c = NULL;
  int err = 0;
  if (a->is_view || a->buf->lay->kind != MN_LAYOUT_BLOCK) {
    MN_CALL(mn_array_create(ctx, a->dtype, a->map.ndim, a->map.shape, 0, &c));
    err = mn_array_copy(a, c);
    if (err) {
      mn_array_destroy(&c);
      return mn_trace(err, __FILE__, __LINE__, __func__);
    }
    a = c;
  }
  const mn_buf *b = a->buf;
  char h[2048], *mem = NULL, *final = NULL, *tmp = NULL;
  int owned = 0;
  int64_t n = 0, bytes = 0, total = 0;
  size_t hl = make_header(a, fortran, h, sizeof h);
  if (!hl) err = MN_ERR(MN_ERR_SHAPE, "the .npy header for '%s' does not fit", path);
  if (!err) err = shape_bytes(path, a->map.ndim, a->map.shape, descr_of(a->dtype), mn_dtype_size(a->dtype), &n, &bytes);
  if (!err && __builtin_add_overflow((int64_t)hl, bytes, &total))
    err = MN_ERR(MN_ERR_SHAPE, "'%s': %lld bytes of data is too large for a file", path, (long long)bytes);
  if (!err) err = block_mem(ctx, b, path, &mem, &owned);
  if (!err && owned) block_pack(b, mem, 1);
  if (!err && ctx->rank == 0) err = make_temp(path, &final, &tmp);
  err = mn_agree(ctx, err);
  MPI_File f = MPI_FILE_NULL;
  if (!err) err = mn_agree(ctx, bcast_name(ctx, path, &tmp));
  if (!err) {
    int rc = MPI_File_open(ctx->comm, tmp, MPI_MODE_WRONLY, MPI_INFO_NULL, &f);
    if (rc != MPI_SUCCESS) {
      err = mpi_err(rc, "opening for writing the temporary file of", path);
      f = MPI_FILE_NULL;
    }
    err = mn_agree(ctx, err);
  }
  if (!err) {
    int rc = MPI_File_set_size(f, (MPI_Offset)total);
    if (rc != MPI_SUCCESS) err = mpi_err(rc, "setting the size of", path);
    if (ctx->rank == 0 && !err) {
      rc = MPI_File_write_at(f, 0, h, (int)hl, MPI_BYTE, MPI_STATUS_IGNORE);
      if (rc != MPI_SUCCESS) err = mpi_err(rc, "writing the header of", path);
    }
    int e2 = block_io(ctx, f, b, (MPI_Offset)hl, mem, 1, path);
    if (!err) err = e2;
    if (!err && fault_is("write") && ctx->rank == ctx->size - 1)
      err = MN_ERR(MN_ERR_IO, "'%s': a write error injected by MANIPLE_NPY_FAULT=write", path);
    /* the data is on disk before the rename makes it visible */
    rc = MPI_File_sync(f);
    if (rc != MPI_SUCCESS && !err) err = mpi_err(rc, "syncing", path);
  }
  if (f != MPI_FILE_NULL) {
    int rc = MPI_File_close(&f);
    if (rc != MPI_SUCCESS && !err) err = mpi_err(rc, "closing", path);
  }
  /* agreeing is the barrier: every rank has written, synced and closed */
  err = mn_agree(ctx, err);
  if (!err) err = mn_agree(ctx, ctx->rank == 0 ? commit_temp(tmp, final, path) : MN_SUCCESS);
  if (err && ctx->rank == 0 && tmp) unlink(tmp);
  if (err) MPI_Barrier(ctx->comm); /* no rank returns while the temporary is still there */
  if (owned) mn_free(mem);
  free(tmp);
  free(final);
  mn_array_destroy(&c);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

int mn_array_save_npy(const mn_array *a, const char *path) { return save_npy(a, path, 0); }

int mn_array_save_npy_fortran(const mn_array *t, const char *path) { return save_npy(t, path, 1); }

/* ---- loading ---- */

typedef struct {
  mn_npy_header h;
  int64_t header; /* bytes before the data */
  int64_t size;   /* of the file */
} npy_meta;

/* n bytes at off, or fewer at the end of the file; -1 and errno on error */
static ssize_t read_at(int fd, void *buf, size_t n, off_t off) {
  size_t got = 0;
  while (got < n) {
    ssize_t r = pread(fd, (char *)buf + got, n - got, off + (off_t)got);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return -1;
    if (r == 0) break;
    got += (size_t)r;
  }
  return (ssize_t)got;
}

/* This rank's view of the file: its header and size. */
static int read_meta(const char *path, npy_meta *m) {
  int fd = open(path, O_RDONLY);
  if (fd < 0) return MN_ERR_ERRNO(errno, path, "cannot open");
  int err = 0;
  char *text = NULL;
  struct stat st;
  unsigned char pre[12];
  if (fstat(fd, &st)) {
    err = MN_ERR_ERRNO(errno, path, "cannot stat");
    goto done;
  }
  if (S_ISDIR(st.st_mode)) {
    err = MN_ERR_ERRNO(EISDIR, path, "cannot read");
    goto done;
  }
  m->size = (int64_t)st.st_size;
  ssize_t got = read_at(fd, pre, 8, 0);
  if (got < 0) {
    err = MN_ERR_ERRNO(errno, path, "cannot read");
    goto done;
  }
  if (got == 0) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s' is an empty file, not a .npy file (no magic string)", path);
    goto done;
  }
  if (got >= 4 && !memcmp(pre, "PK\x03\x04", 4)) {
    err = MN_ERR(MN_ERR_NOTIMPL, "'%s' is a zip archive (.npz); only .npy files are read", path);
    goto done;
  }
  if (got < 6 || memcmp(pre, "\x93NUMPY", 6)) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s' is not a .npy file (bad magic string: it does not start with \\x93NUMPY)",
                 path);
    goto done;
  }
  if (got < 8) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': truncated header (%zd of the 8 bytes of magic string and version)", path, got);
    goto done;
  }
  int major = pre[6], minor = pre[7];
  if (minor != 0 || major < 1 || major > 3) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': unsupported .npy format version %d.%d (NumPy reads 1.0, 2.0 and 3.0)", path,
                 major, minor);
    goto done;
  }
  size_t lb = major == 1 ? 2 : 4;
  got = read_at(fd, pre + 8, lb, 8);
  if (got < 0) {
    err = MN_ERR_ERRNO(errno, path, "cannot read");
    goto done;
  }
  if ((size_t)got < lb) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': truncated header (no header length)", path);
    goto done;
  }
  uint64_t hl = pre[8] | (uint64_t)pre[9] << 8;
  if (lb == 4) hl |= (uint64_t)pre[10] << 16 | (uint64_t)pre[11] << 24;
  /* longer than NumPy reads (UTF-8 takes up to 4 bytes a character) */
  if (hl > (uint64_t)MN_NPY_MAX_HEADER_CHARS * (major >= 3 ? 4 : 1)) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': the .npy header is %llu bytes, more than the %d characters NumPy reads "
                 "without allow_pickle", path, (unsigned long long)hl, MN_NPY_MAX_HEADER_CHARS);
    goto done;
  }
  text = malloc((size_t)hl + 1);
  if (!text) {
    err = MN_ERR(MN_ERR_MEM, "cannot allocate the header of '%s'", path);
    goto done;
  }
  got = read_at(fd, text, (size_t)hl, (off_t)(8 + lb));
  if (got < 0) {
    err = MN_ERR_ERRNO(errno, path, "cannot read");
    goto done;
  }
  if ((uint64_t)got < hl) {
    err = MN_ERR(MN_ERR_FORMAT, "'%s': truncated header (%llu bytes expected, %zd present)", path,
                 (unsigned long long)hl, got);
    goto done;
  }
  err = mn_npy_parse_header(path, text, (size_t)hl, major, &m->h);
  if (err) goto done;
  m->header = (int64_t)(8 + lb + hl);
  int64_t n, bytes, need;
  char d[16];
  snprintf(d, sizeof d, "%s", descr_of((mn_dtype)m->h.dtype));
  err = shape_bytes(path, m->h.ndim, m->h.shape, d, mn_dtype_size((mn_dtype)m->h.dtype), &n, &bytes);
  if (err) goto done;
  if (__builtin_add_overflow(m->header, bytes, &need)) need = INT64_MAX;
  if (m->size < need) {
    char s[256];
    mn_shape_str(m->h.ndim, m->h.shape, s, sizeof s);
    err = MN_ERR(MN_ERR_FORMAT, "'%s' holds %lld bytes but its header (shape %s, dtype %s) needs %lld "
                 "(truncated file)", path, (long long)m->size, s, mn_dtype_name((mn_dtype)m->h.dtype),
                 (long long)need);
  }
done:
  free(text);
  close(fd);
  return err;
}

static void describe(const int64_t *v, char *buf, size_t n) {
  char s[256];
  mn_shape_str((int)v[2], v + 5, s, sizeof s);
  snprintf(buf, n, "%s %s%s, a %lld-byte header, %lld bytes in all", mn_dtype_name((mn_dtype)v[0]), s,
           v[1] ? " (Fortran order)" : "", (long long)v[3], (long long)v[4]);
}

/* The ranks must have read the same header and file size: a same-named
 * file that differs between ranks (node-local disks) is an error on every
 * rank naming both versions. (Identical headers and sizes are taken to
 * mean identical files: MPI-IO may read any rank's copy.) */
static int agree_meta(mn_ctx *ctx, const char *path, const npy_meta *m) {
  if (ctx->size == 1) return MN_SUCCESS;
  enum { NV = 5 + MN_MAXDIM };
  int64_t v[NV] = {m->h.dtype, m->h.fortran, m->h.ndim, m->header, m->size}, mm[2 * NV], out[2 * NV];
  for (int d = 0; d < m->h.ndim; d++) v[5 + d] = m->h.shape[d];
  for (int i = 0; i < NV; i++) {
    mm[i] = v[i];
    mm[NV + i] = -v[i]; /* MIN of -x: the MAX, in the same allreduce */
  }
  if (mn_allreduce(ctx, mm, out, 2 * NV, MPI_INT64_T, MPI_MIN) != MPI_SUCCESS)
    return MN_ERR(MN_ERR_MPI, "MPI_Allreduce failed while comparing the header of '%s'", path);
  int same = 1;
  for (int i = 0; i < NV; i++) same &= out[i] == -out[NV + i];
  if (same) return MN_SUCCESS;
  /* rare: say how, naming rank 0's file and the first rank's that differs */
  int64_t v0[NV], vf[NV];
  memcpy(v0, v, sizeof v);
  MN_MPI(MPI_Bcast(v0, NV, MPI_INT64_T, 0, ctx->comm));
  int differs = memcmp(v0, v, sizeof v) != 0, mine = differs ? ctx->rank : ctx->size, first = 0, ndiff = 0;
  MN_MPI(mn_allreduce(ctx, &mine, &first, 1, MPI_INT, MPI_MIN));
  MN_MPI(mn_allreduce(ctx, &differs, &ndiff, 1, MPI_INT, MPI_SUM));
  memcpy(vf, v, sizeof v);
  MN_MPI(MPI_Bcast(vf, NV, MPI_INT64_T, first, ctx->comm));
  char d0[400], df[400];
  describe(v0, d0, sizeof d0);
  describe(vf, df, sizeof df);
  return MN_ERR(MN_ERR_IO, "'%s' differs between ranks (a file on node-local disks?): rank 0 sees %s; rank %d "
                "sees %s (%d of %d ranks differ from rank 0)", path, d0, first, df, ndiff, ctx->size);
}

/* Read the data of the file described by m into *r, an array of shape
 * (ndim, shape) in C order. */
static int read_data(mn_ctx *ctx, const char *path, const npy_meta *m, int ndim, const int64_t *shape,
                     mn_array **r) {
  MN_CALL(mn_array_create_empty(ctx, (mn_dtype)m->h.dtype, ndim, shape, r));
  const mn_buf *b = (*r)->buf;
  char *mem = NULL;
  int owned = 0;
  int err = block_mem(ctx, b, path, &mem, &owned);
  MPI_File f = MPI_FILE_NULL;
  int rc = MPI_File_open(ctx->comm, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &f);
  if (rc != MPI_SUCCESS) {
    if (!err) err = mpi_err(rc, "opening for reading", path);
    f = MPI_FILE_NULL;
  }
  err = mn_agree(ctx, err);
  if (!err) {
    err = block_io(ctx, f, b, (MPI_Offset)m->header, mem, 0, path);
    int64_t n = mn_layout_local_size(b->lay, ctx->rank);
    if (!err && b->dtype == MN_BOOL)
      for (int64_t i = 0; i < n; i++) /* NumPy writes bools as bytes 0 and 1 */
        if ((unsigned char)mem[i] > 1) {
          err = MN_ERR(MN_ERR_FORMAT, "'%s': a bool element holds byte %u (not 0 or 1)", path,
                       (unsigned char)mem[i]);
          break;
        }
    if (!err && owned) block_pack(b, mem, 0);
  }
  if (f != MPI_FILE_NULL) {
    rc = MPI_File_close(&f);
    if (rc != MPI_SUCCESS && !err) err = mpi_err(rc, "closing", path);
  }
  if (owned) mn_free(mem);
  err = mn_agree(ctx, err);
  if (err) {
    mn_array_destroy(r);
    return mn_trace(err, __FILE__, __LINE__, __func__);
  }
  return MN_SUCCESS;
}

int mn_array_load_npy_fortran(mn_ctx *ctx, const char *path, mn_array **a, int *fortran) {
  MN_CHECK(ctx && path && a && fortran, MN_ERR_ARG, "NULL context, path or output");
  *a = NULL;
  *fortran = 0;
  MN_SPMD(ctx, "mn_array_load_npy", mn_spmd_str(S, "path", path));
  /* before anything else collective: a file missing on some ranks would
   * otherwise block the others inside MPI_File_open */
  MN_CALL(mn_file_check(ctx, path, 0));
  npy_meta m;
  memset(&m, 0, sizeof m);
  int err = mn_agree(ctx, read_meta(path, &m));
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MN_CALL(agree_meta(ctx, path, &m));
  const mn_npy_header *h = &m.h;
  /* Fortran order: the file holds the transpose in C order, unless at most
   * one axis is longer than 1 (then both orders are the same bytes) */
  int longer = 0, empty = 0;
  for (int d = 0; d < h->ndim; d++) {
    longer += h->shape[d] > 1;
    empty |= h->shape[d] == 0;
  }
  if (!h->fortran || longer < 2 || empty) {
    MN_CALL(read_data(ctx, path, &m, h->ndim, h->shape, a));
    return MN_SUCCESS;
  }
  int64_t rev[MN_MAXDIM];
  for (int d = 0; d < h->ndim; d++) rev[d] = h->shape[h->ndim - 1 - d];
  MN_CALL(read_data(ctx, path, &m, h->ndim, rev, a));
  *fortran = 1;
  return MN_SUCCESS;
}

int mn_array_load_npy(mn_ctx *ctx, const char *path, mn_array **a) {
  MN_CHECK(a, MN_ERR_ARG, "NULL output");
  *a = NULL;
  int fortran = 0, err = 0;
  mn_array *r = NULL, *t = NULL;
  MN_CALL(mn_array_load_npy_fortran(ctx, path, &r, &fortran));
  if (!fortran) {
    *a = r;
    return MN_SUCCESS;
  }
  MN_CALLG(err, mn_array_transpose(r, NULL, &t), out);
  MN_CALLG(err, mn_array_create_empty(ctx, r->dtype, t->map.ndim, t->map.shape, a), out);
  MN_CALLG(err, mn_array_copy(t, *a), out);
out:
  mn_array_destroy(&t);
  mn_array_destroy(&r);
  if (err) {
    mn_array_destroy(a);
    return err;
  }
  return MN_SUCCESS;
}
