/* Matrix Market coordinate files. Reading: rank 0 parses the header; then
 * every rank parses the lines that start in its share of the bytes (or
 * rank 0 alone parses all), with line numbers from a prefix sum of line
 * counts, so every error names the file and line; the triplets are
 * assembled as COO. The sizes the file declares are checked (overflow,
 * memory) before anything is allocated for them. Writing: rank 0 writes
 * the header, then each rank appends its rows in rank order. Both check
 * the path on every rank first (mn_file_check), so a file missing on some
 * ranks is an error everywhere, never a hang. */
#define _POSIX_C_SOURCE 200809L /* getline */
#include "csr_impl.h"
#include "spmd.h"
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { FIELD_REAL = 0, FIELD_INTEGER = 1, FIELD_PATTERN = 2, FIELD_COMPLEX = 3 };
enum { SYM_GENERAL = 0, SYM_SYMMETRIC = 1, SYM_SKEW = 2, SYM_HERMITIAN = 3 };

typedef struct {
  long long m, n, nnz;
  int field, sym;
  int f32;           /* values are kept as float32 */
  int vt;            /* the dtype they are kept in (an integer one's range is checked) */
  long long offset;  /* byte of the first entry line */
  long long line;    /* its line number (1-based) */
  long long size;    /* file size in bytes */
} mtx_header;

static int header_error(const char *path, long long line, const char *what, const char *got) {
  return MN_ERR(MN_ERR_FORMAT, "%s:%lld: %s (got '%.60s')", path, line, what, got);
}

/* The next line, of any length, into *buf without its newline or a final
 * '\r'; returns the bytes it took in the file, 0 at the end of the file,
 * or -1 when the line does not fit in memory. */
static long long next_line(FILE *f, char **buf, size_t *cap) {
  errno = 0;
  ssize_t n = getline(buf, cap, f);
  if (n < 0) return errno == ENOMEM ? -1 : 0;
  long long raw = (long long)n;
  if (n && (*buf)[n - 1] == '\n') (*buf)[--n] = 0;
  if (n && (*buf)[n - 1] == '\r') (*buf)[--n] = 0;
  return raw;
}

static int line_too_long(const char *path, long long line) {
  return MN_ERR(MN_ERR_MEM, "%s:%lld: cannot allocate a buffer for this line", path, line);
}

/* The decimal integer field at *s (leading blanks skipped, *s moved to
 * it) into *v, *end after it: 0, 1 when there is none, 2 beyond long long. */
static int ll_field(char **s, long long *v, char **end) {
  while (isspace((unsigned char)**s)) (*s)++;
  errno = 0;
  *v = strtoll(*s, end, 10);
  if (*end == *s || (**end && !isspace((unsigned char)**end))) return 1;
  return errno == ERANGE ? 2 : 0;
}

/* A non-negative decimal count of the size line, int64 at most. */
static int size_field(const char *path, long long line, char **s, const char *name, long long *out) {
  char *end;
  long long v;
  int bad = ll_field(s, &v, &end);
  if (bad == 1) return header_error(path, line, "expected the size line 'rows columns entries'", *s);
  if (bad || v < 0)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: the %s count %.*s is out of range 0..%lld", path, line, name,
                  (int)(end - *s > 40 ? 40 : end - *s), *s, (long long)INT64_MAX);
  *s = end;
  *out = v;
  return MN_SUCCESS;
}

/* Rank 0: the banner, comments and the size line (lines of any length). */
static int read_header(const char *path, mtx_header *h) {
  FILE *f = fopen(path, "rb");
  if (!f) return MN_ERR_ERRNO(errno, path, "cannot open");
  char *buf = NULL, obj[64] = "", fmt[64] = "", field[64] = "", sym[64] = "", ban[64] = "";
  size_t cap = 0;
  int err = 0;
  long long line = 1, got = next_line(f, &buf, &cap);
  if (got < 0) err = line_too_long(path, 1);
  else if (!got) err = header_error(path, 1, "empty file, expected a %MatrixMarket banner", "");
  else {
    int k = sscanf(buf, "%63s %63s %63s %63s %63s", ban, obj, fmt, field, sym);
    if (k != 5 || strcasecmp(ban, "%%MatrixMarket") != 0)
      err = header_error(path, 1, "expected '%MatrixMarket matrix coordinate <field> <symmetry>'", buf);
    else if (strcasecmp(obj, "matrix") != 0)
      err = header_error(path, 1, "only 'matrix' objects are read", obj);
    else if (strcasecmp(fmt, "coordinate") != 0)
      err = header_error(path, 1, "only the 'coordinate' format is read (not 'array')", fmt);
    else if (!strcasecmp(field, "real") || !strcasecmp(field, "double")) h->field = FIELD_REAL;
    else if (!strcasecmp(field, "integer")) h->field = FIELD_INTEGER;
    else if (!strcasecmp(field, "pattern")) h->field = FIELD_PATTERN;
    else if (!strcasecmp(field, "complex")) h->field = FIELD_COMPLEX;
    else err = header_error(path, 1, "the field must be real, integer, complex or pattern", field);
    if (!err) {
      /* hermitian is symmetric for the real fields (SciPy reads it so) */
      if (!strcasecmp(sym, "general")) h->sym = SYM_GENERAL;
      else if (!strcasecmp(sym, "hermitian") && h->field == FIELD_COMPLEX) h->sym = SYM_HERMITIAN;
      else if (!strcasecmp(sym, "symmetric") || !strcasecmp(sym, "hermitian")) h->sym = SYM_SYMMETRIC;
      else if (!strcasecmp(sym, "skew-symmetric")) h->sym = SYM_SKEW;
      else err = header_error(path, 1, "the symmetry must be general, symmetric, skew-symmetric or hermitian", sym);
    }
  }
  /* comments (any length), blank lines, then the size line */
  while (!err) {
    got = next_line(f, &buf, &cap);
    if (got <= 0) {
      err = got ? line_too_long(path, line + 1) : header_error(path, line + 1, "missing size line 'rows columns entries'", "");
      break;
    }
    line++;
    char *s = buf;
    while (isspace((unsigned char)*s)) s++;
    if (!*s || *s == '%') continue;
    err = size_field(path, line, &s, "row", &h->m);
    if (!err) err = size_field(path, line, &s, "column", &h->n);
    if (!err) err = size_field(path, line, &s, "entry", &h->nnz);
    while (!err && isspace((unsigned char)*s)) s++;
    if (!err && *s) err = header_error(path, line, "expected the size line 'rows columns entries'", buf);
    break;
  }
  if (!err) {
    h->offset = ftell(f);
    h->line = line + 1;
    fseek(f, 0, SEEK_END);
    h->size = ftell(f);
  }
  free(buf);
  fclose(f);
  return err;
}

/* ---- what the declared sizes need, before anything is allocated ---- */
/* Bytes per entry: the parsed triplet (row, column, value pair: 32) and
 * the 40-byte record it is sent as; then, at its row's owner, the record
 * received, its column and value and the blocks' copies (about 100). */
enum { PARSE_BYTES = 32 + 40, ASSEMBLE_BYTES = 100 };

/* The shortest entry line ("1 1\n", "1 1 1\n"): the file's bytes bound the
 * entries it can hold, whatever its size line says. */
static long long max_entries(const mtx_header *h) {
  long long body = h->size - h->offset;
  return (body + 1) / (h->field == FIELD_PATTERN ? 4 : 6);
}

/* Rank r's need: its row tables (three of nl + 1 int64), the entries it
 * parses (its share of the bytes, or all on rank 0) and an even share of
 * the stored ones (a symmetric file stores up to twice its entries).
 * MN_ERR_FORMAT naming what overflows; rank 0's share is the largest, so
 * checking it finds an overflow alike on every rank. */
static int read_need(const char *path, const mtx_header *h, int P, int r, int parallel, int64_t *need) {
  long long sl = h->line - 1;
  int64_t nl = mn_split_size(h->m, P, r), ptrs, rows;
  if (__builtin_add_overflow(nl, 1, &ptrs))
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: the size line declares %lld rows: rank %d's row pointers would number "
                  "%lld + 1, which overflows int64", path, sl, h->m, r, (long long)nl);
  if (__builtin_mul_overflow(ptrs, 24, &rows))
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: the size line declares %lld rows: rank %d's row tables (3 x %lld row "
                  "pointers of 8 bytes) take a byte count that overflows int64", path, sl, h->m, r, (long long)ptrs);
  int64_t e = h->nnz < max_entries(h) ? h->nnz : max_entries(h), mult = h->sym == SYM_GENERAL ? 1 : 2;
  int64_t mine = parallel ? e / P + (e % P != 0) : r == 0 ? e : 0, stored, share, a, b;
  if (__builtin_mul_overflow(e, mult, &stored) || __builtin_mul_overflow(mine, mult * PARSE_BYTES, &a) ||
      __builtin_mul_overflow(stored / P + 1, ASSEMBLE_BYTES, &share) || __builtin_add_overflow(a, share, &b) ||
      __builtin_add_overflow(rows, b, need))
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: the size line declares %lld entries: the bytes to read them (about %lld "
                  "each) overflow int64", path, sl, h->nnz, (long long)(PARSE_BYTES + ASSEMBLE_BYTES));
  return MN_SUCCESS;
}

/* This rank's verdict on what reading needs (not agreed: the caller does);
 * collective where the largest rank's need is large (the node check). */
static int read_fits(mn_ctx *ctx, const char *path, const mtx_header *h, int parallel) {
  int64_t need0, need;
  MN_CALL(read_need(path, h, ctx->size, 0, parallel, &need0));
  MN_CALL(read_need(path, h, ctx->size, ctx->rank, parallel, &need));
  char what[512];
  snprintf(what, sizeof what, "%.300s:%lld: reading a %lld x %lld matrix of %lld entries (%lld rows on rank %d)", path,
           h->line - 1, h->m, h->n, h->nnz, (long long)mn_split_size(h->m, ctx->size, ctx->rank), ctx->rank);
  int err = mn_mem_fits(ctx, need, need0 >= MN_MEM_NODE_CHECK, what);
  /* local column numbers are 32-bit; rank 0 holds the most columns */
  int64_t nc0 = mn_split_size(h->n, ctx->size, 0);
  if (!err && nc0 > INT32_MAX)
    err = MN_ERR(MN_ERR_NOTIMPL, "%s:%lld: the size line declares %lld columns: rank 0 would hold %lld of them, and "
                 "local column numbers are 32-bit (run on more ranks)", path, h->line - 1, h->n, (long long)nc0);
  return err;
}

typedef struct { int64_t *r, *c; mni_sval *v; int64_t n, cap; } triplets;

static int push(triplets *t, int64_t i, int64_t j, mni_sval v) {
  if (t->n == t->cap) {
    int64_t cap = t->cap ? 2 * t->cap : 1024, bytes = mn_csr_nbytes(cap - 1, 32);
    int64_t *r = bytes >= 0 ? realloc(t->r, sizeof(int64_t) * (size_t)cap) : NULL;
    if (r) t->r = r;
    int64_t *c = r ? realloc(t->c, sizeof(int64_t) * (size_t)cap) : NULL;
    if (c) t->c = c;
    mni_sval *w = c ? realloc(t->v, sizeof(mni_sval) * (size_t)cap) : NULL;
    if (!w) return MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes to hold %lld entries", (long long)bytes, (long long)cap);
    t->v = w;
    t->cap = cap;
  }
  t->r[t->n] = i;
  t->c[t->n] = j;
  t->v[t->n++] = v;
  return MN_SUCCESS;
}

/* A row or column number: decimal, within int64. */
static int index_field(const char *path, long long line, char **s, const char *what, long long *out) {
  char *end;
  long long v;
  int bad = ll_field(s, &v, &end);
  if (bad == 1) return MN_ERR(MN_ERR_FORMAT, "%s:%lld: expected a %s index (got '%.60s')", path, line, what, *s);
  if (bad)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: %s index %.*s is out of range", path, line, what,
                  (int)(end - *s > 40 ? 40 : end - *s), *s);
  *s = end;
  *out = v;
  return MN_SUCCESS;
}

/* One value. Decimal only: hexadecimal floats (strtod reads 0x1p3; SciPy
 * reads 0 there) are not Matrix Market numbers. A value beyond the
 * largest double (or float, for float32) is refused, where SciPy gives
 * inf without a word: an inf the file does not spell out is a silent
 * change of the data. Gradual underflow rounds as strtod does (1e-999 is
 * 0, as in SciPy), and inf and nan spelt out are read as such (this
 * writer writes them so). */
static int value_field(const char *path, long long line, char **s, const mtx_header *h, double *out,
                       int64_t *iout) {
  char *end, *t = *s;
  while (isspace((unsigned char)*t)) t++;
  if (!*t) return MN_ERR(MN_ERR_FORMAT, "%s:%lld: missing value after the indices", path, line);
  int len = (int)strcspn(t, " \t\r\n\v\f");
  const char *d = t + (*t == '+' || *t == '-');
  if (d[0] == '0' && (d[1] == 'x' || d[1] == 'X'))
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: hexadecimal value '%.*s' (Matrix Market values are decimal)", path, line,
                  len > 60 ? 60 : len, t);
  errno = 0;
  if (h->field == FIELD_INTEGER) {
    mn_dtype vt = (mn_dtype)h->vt;
    /* uint64 values above INT64_MAX keep their bits in the int64 slot */
    int u64 = vt == MN_UINT64 && *t != '-';
    long long q = u64 ? (long long)strtoull(t, &end, 10) : strtoll(t, &end, 10);
    if (end == t || (*end && !isspace((unsigned char)*end)))
      return header_error(path, line, "non-integer value in an integer file", t);
    if (errno == ERANGE)
      return MN_ERR(MN_ERR_FORMAT, "%s:%lld: integer value '%.*s' is out of range (%s)", path, line,
                    len > 60 ? 60 : len, t, u64 ? "uint64" : "int64");
    *out = u64 ? (double)(unsigned long long)q : (double)q;
    *iout = q;
    if (mni_csr_intk(vt) && !u64 && (mn_int_wrap(vt, q) != q || (mn_is_uint(vt) && q < 0)))
      return MN_ERR(MN_ERR_FORMAT, "%s:%lld: value '%.*s' is out of range for %s", path, line, len > 60 ? 60 : len, t,
                    mn_dtype_name(vt));
  } else {
    double v = strtod(t, &end);
    if (end == t) return header_error(path, line, "non-numeric value", t);
    if (errno == ERANGE && fabs(v) == HUGE_VAL)
      return MN_ERR(MN_ERR_FORMAT, "%s:%lld: value '%.*s' is out of range for float64", path, line,
                    len > 60 ? 60 : len, t);
    *out = v;
  }
  if (h->f32 && isfinite(*out) && fabs(*out) > FLT_MAX)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: value '%.*s' is out of range for float32", path, line, len > 60 ? 60 : len,
                  t);
  *s = end;
  return MN_SUCCESS;
}

/* One entry line (NUL-terminated, no newline). Symmetric files are read as
 * SciPy reads them: an entry on either side of the diagonal stands for
 * itself and its mirror (negated in a skew-symmetric file); a diagonal
 * entry stands once, in a skew-symmetric file too. */
static int parse_entry(const char *path, long long line, char *s, const mtx_header *h, triplets *t) {
  long long i, j;
  MN_CALL(index_field(path, line, &s, "row", &i));
  MN_CALL(index_field(path, line, &s, "column", &j));
  /* the file's form: int64 for an integer file, (re, im) for the others */
  mni_sval v = h->field == FIELD_INTEGER ? mni_sv_i(1) : mni_sv_z(1, 0);
  int64_t q = 0;
  while (isspace((unsigned char)*s)) s++;
  const char *vstart = s; /* (the value's text, for messages) */
  if (h->field != FIELD_PATTERN) MN_CALL(value_field(path, line, &s, h, &v.z.re, &q));
  if (h->field == FIELD_INTEGER) v = mni_sv_i(q);
  if (h->field == FIELD_COMPLEX) MN_CALL(value_field(path, line, &s, h, &v.z.im, &q));
  while (isspace((unsigned char)*s)) s++;
  if (*s) return header_error(path, line, "unexpected text after the entry", s);
  if (i < 1 || i > h->m)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: row index %lld is out of range 1..%lld", path, line, i, h->m);
  if (j < 1 || j > h->n)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: column index %lld is out of range 1..%lld", path, line, j, h->n);
  /* a non-square symmetric file is read while the mirrors fit (as SciPy does) */
  if (h->sym != SYM_GENERAL && i != j && (j > h->m || i > h->n))
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: entry (%lld, %lld) of a %s file mirrors to (%lld, %lld), outside the %lld x "
                  "%lld matrix", path, line, i, j, h->sym == SYM_SKEW ? "skew-symmetric" : "symmetric", j, i, h->m, h->n);
  MN_CALL(push(t, i - 1, j - 1, v));
  mni_sval w = v;
  if (h->sym == SYM_SKEW && h->field == FIELD_INTEGER) w = mni_sv_i((int64_t)(0 - (uint64_t)v.i));
  else if (h->sym == SYM_SKEW) w = mni_sv_z(-v.z.re, -v.z.im);
  else if (h->sym == SYM_HERMITIAN) w = mni_sv_z(v.z.re, -v.z.im);
  mn_dtype vt = (mn_dtype)h->vt;
  if (h->sym == SYM_SKEW && i != j && h->field == FIELD_INTEGER && mni_csr_intk(vt) &&
      (mn_is_uint(vt) ? v.i != 0 : v.i == INT64_MIN || mn_int_wrap(vt, w.i) != w.i))
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: entry (%lld, %lld) of a skew-symmetric file mirrors to the negative "
                  "of %.*s, out of range for %s", path, line, i, j, (int)strcspn(vstart, " \t\r\n"), vstart,
                  mn_dtype_name(vt));
  if (h->sym != SYM_GENERAL && i != j) MN_CALL(push(t, j - 1, i - 1, w));
  return MN_SUCCESS;
}

/* The lines that start in [a, b): parsed, counted (entries in *nent). */
static int read_range(const char *path, const mtx_header *h, long long a, long long b, long long first_line,
                      int count_only, long long *nlines, long long *nent, triplets *t) {
  *nlines = 0;
  *nent = 0;
  if (b <= a) return MN_SUCCESS;
  FILE *f = fopen(path, "rb");
  if (!f) return MN_ERR_ERRNO(errno, path, "cannot open");
  int err = 0;
  if (a > h->offset) { /* the first line starting at or after a */
    fseek(f, a - 1, SEEK_SET);
    int ch = fgetc(f);
    while (ch != '\n' && ch != EOF) { ch = fgetc(f); a++; }
  }
  fseek(f, a, SEEK_SET);
  char *buf = NULL;
  size_t cap = 0;
  long long pos = a;
  while (!err && pos < b) {
    long long line = first_line + *nlines, got = next_line(f, &buf, &cap);
    if (got <= 0) {
      if (got < 0) err = line_too_long(path, line);
      break;
    }
    pos += got;
    (*nlines)++;
    char *s = buf;
    while (isspace((unsigned char)*s)) s++;
    if (!*s || *s == '%') continue; /* blank lines and comments (of any length) */
    (*nent)++;
    if (!count_only) err = parse_entry(path, line, s, h, t);
  }
  free(buf);
  fclose(f);
  return err;
}

int mn_csr_read_mtx(mn_ctx *ctx, const char *path, mn_dtype dtype, int parallel, mn_csr **A) {
  MN_CHECK(ctx && path && A, MN_ERR_ARG, "NULL context, path or output");
  *A = NULL;
  MN_SPMD(ctx, "mn_csr_read_mtx", mn_spmd_str(S, "path", path), mn_spmd_dtype(S, "dtype", dtype),
          mn_spmd_int(S, "parallel", parallel));
  MN_CHECK(dtype == MN_NDTYPE || mni_csr_dtype_ok(dtype), MN_ERR_DTYPE,
           "sparse matrices hold any numeric dtype but float16, not %s", mn_dtype_name(dtype));
  MN_CALL(mn_file_check(ctx, path, 0)); /* missing, a directory, unreadable: on every rank */
  int P = ctx->size, me = ctx->rank, err = 0;
  mtx_header h;
  memset(&h, 0, sizeof h);
  if (me == 0) err = read_header(path, &h);
  err = mn_agree(ctx, err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MN_MPI(MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, ctx->comm));
  /* the file's dtype, as SciPy's: int64, complex128, else float64 */
  mn_dtype fdt = h.field == FIELD_INTEGER ? MN_INT64 : h.field == FIELD_COMPLEX ? MN_COMPLEX128 : MN_FLOAT64;
  if (dtype == MN_NDTYPE) dtype = fdt;
  MN_CHECK(h.field != FIELD_COMPLEX || mni_csr_cplx(dtype), MN_ERR_DTYPE,
           "%s holds complex values: read it as complex128 or complex64, not %s", path, mn_dtype_name(dtype));
  MN_CHECK(h.field != FIELD_REAL || !mni_csr_intk(dtype), MN_ERR_DTYPE,
           "%s holds real values: read it as a float or complex dtype, not %s", path, mn_dtype_name(dtype));
  h.f32 = dtype == MN_FLOAT32 || dtype == MN_COMPLEX64;
  h.vt = (int)dtype;
  /* my byte range of the entries (body / P first: body * me may overflow) */
  long long body = h.size - h.offset, a = h.offset, b = h.offset;
  if (parallel) {
    a = h.offset + body / P * me + body % P * me / P;
    b = h.offset + body / P * (me + 1) + body % P * (me + 1) / P;
  } else if (me == 0) b = h.size;
  /* what the declared sizes need, then line numbers: count my lines first, then a prefix sum */
  long long nlines = 0, nent = 0, before = 0;
  triplets t = {0};
  err = read_fits(ctx, path, &h, parallel);
  if (!err) err = read_range(path, &h, a, b, 0, 1, &nlines, &nent, &t);
  err = mn_agree(ctx, err);
  if (!err) {
    MN_MPI(MPI_Exscan(&nlines, &before, 1, MPI_LONG_LONG, MPI_SUM, ctx->comm));
    if (me == 0) before = 0;
    err = mn_agree(ctx, read_range(path, &h, a, b, h.line + before, 0, &nlines, &nent, &t));
  }
  long long total = 0;
  if (!err) {
    MN_MPI(mn_allreduce(ctx, &nent, &total, 1, MPI_LONG_LONG, MPI_SUM));
    if (total != h.nnz)
      err = MN_ERR(MN_ERR_FORMAT, "%s:%lld: the size line announces %lld entries, the file holds %lld", path,
                   h.line - 1, h.nnz, total);
  }
  /* in place, to the dtype's narrower (or equal) elements, front to back */
  if (h.field == FIELD_PATTERN && mni_csr_intk(dtype)) fdt = MN_INT64; /* pattern 1s: as integers */
  for (int64_t k = 0; !err && k < t.n; k++) {
    mni_sval x = t.v[k];
    if (h.field == FIELD_PATTERN && mni_csr_intk(dtype)) x = mni_sv_i(1);
    mni_csr_put(dtype, t.v, k, mni_sv_cast(fdt, dtype, x));
  }
  if (!err) err = mn_csr_create_coo(ctx, h.m, h.n, dtype, t.n, MN_INT64, t.r, t.c, t.v, A);
  free(t.r);
  free(t.c);
  free(t.v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}

/* Entry k of a and b equal as numbers (+0 and -0 alike) or as bits (NaN) */
static int same_value(mn_dtype t, const void *a, const void *b, int64_t k) {
  size_t sz = mn_dtype_size(t);
  if (!memcmp((const char *)a + k * (int64_t)sz, (const char *)b + k * (int64_t)sz, sz)) return 1;
  mni_sval x = mn_csr_val(t, a, k), y = mn_csr_val(t, b, k);
  if (mni_csr_intk(t)) return x.i == y.i;
  return x.z.re == y.z.re && x.z.im == y.z.im;
}

/* Whether A equals its transpose, entry by entry (the same pattern). */
static int check_symmetric(const mn_csr *A, int64_t *bad_i, int64_t *bad_j) {
  mn_csr *T = NULL;
  MN_CALL(mn_csr_transpose(A, &T));
  int64_t *ra = NULL, *ca = NULL, *rt = NULL, *ct = NULL;
  void *va = NULL, *vt = NULL;
  int err = mn_csr_get_rows(A, &ra, &ca, &va);
  if (!err) err = mn_csr_get_rows(T, &rt, &ct, &vt);
  int sym = 1;
  *bad_i = *bad_j = -1;
  for (int64_t i = 0; !err && sym && i < A->nlocal; i++) {
    sym = ra[i + 1] - ra[i] == rt[i + 1] - rt[i];
    for (int64_t k = ra[i]; sym && k < ra[i + 1]; k++)
      sym = ca[k] == ct[k] && same_value(A->dtype, va, vt, k);
    if (!sym) { *bad_i = A->row0 + i; *bad_j = ra[i + 1] > ra[i] ? ca[ra[i]] : -1; }
  }
  mn_free(ra); mn_free(ca); mn_free(va); mn_free(rt); mn_free(ct); mn_free(vt);
  mn_csr_destroy(&T);
  if (!err && !sym)
    err = MN_ERR(MN_ERR_ARG, "the matrix is not symmetric (its row %lld differs from its column %lld): it cannot be "
                 "written as symmetric", (long long)*bad_i, (long long)*bad_i);
  return err;
}

int mn_csr_write_mtx(const mn_csr *A, const char *path, const char *field, int symmetric) {
  MN_CHECK(A && path && field, MN_ERR_ARG, "NULL matrix, path or field");
  MN_SPMD(A ? A->ctx : NULL, "mn_csr_write_mtx", mn_spmd_matrix(S, "A", A->dtype, A->nrows, A->ncols, A->nnz),
          mn_spmd_str(S, "path", path), mn_spmd_str(S, "field", field), mn_spmd_int(S, "symmetric", symmetric));
  int f = !strcmp(field, "real") ? FIELD_REAL : !strcmp(field, "integer") ? FIELD_INTEGER
        : !strcmp(field, "pattern") ? FIELD_PATTERN : !strcmp(field, "complex") ? FIELD_COMPLEX : -1;
  MN_CHECK(f >= 0, MN_ERR_ARG, "field '%s': real, integer, complex or pattern", field);
  MN_CHECK(f == FIELD_PATTERN || f == FIELD_COMPLEX || !mni_csr_cplx(A->dtype), MN_ERR_DTYPE,
           "a %s matrix is written with the field 'complex' (or 'pattern'), not '%s'", mn_dtype_name(A->dtype), field);
  MN_CHECK(!symmetric || A->nrows == A->ncols, MN_ERR_SHAPE, "a %lld x %lld matrix cannot be symmetric",
           (long long)A->nrows, (long long)A->ncols);
  mn_ctx *ctx = A->ctx;
  MN_CALL(mn_file_check(ctx, path, 1)); /* a missing directory, a directory: on every rank, before any work */
  int P = ctx->size, me = ctx->rank, err = 0;
  int64_t bi, bj;
  if (symmetric) MN_CALL(mn_agree(ctx, check_symmetric(A, &bi, &bj)));
  int64_t *rp = NULL, *cols = NULL;
  void *vals = NULL;
  MN_CALL(mn_agree(ctx, mn_csr_get_rows(A, &rp, &cols, &vals)));
  long long mine = 0, total = 0;
  for (int64_t i = 0; i < A->nlocal; i++)
    for (int64_t k = rp[i]; k < rp[i + 1]; k++) mine += !symmetric || cols[k] <= A->row0 + i;
  for (int64_t k = 0; f == FIELD_INTEGER && !err && k < rp[A->nlocal]; k++) {
    if (mni_csr_intk(A->dtype)) break; /* integers already */
    double v = mn_csr_val(A->dtype, vals, k).z.re;
    if (v != floor(v) || fabs(v) > 9.2e18)
      err = MN_ERR(MN_ERR_ARG, "value %g is not an integer: write the field 'real'", v);
  }
  err = mn_agree(ctx, err);
  if (!err) {
    MN_MPI(mn_allreduce(ctx, &mine, &total, 1, MPI_LONG_LONG, MPI_SUM));
    if (me == 0) { /* the header, then each rank appends in turn */
      FILE *o = fopen(path, "w");
      if (!o) err = MN_ERR_ERRNO(errno, path, "cannot write");
      else {
        fprintf(o, "%%%%MatrixMarket matrix coordinate %s %s\n%lld %lld %lld\n", field,
                symmetric ? "symmetric" : "general", (long long)A->nrows, (long long)A->ncols, total);
        int e = ferror(o) ? (errno ? errno : EIO) : 0;
        if (fclose(o) && !e) e = errno ? errno : EIO;
        if (e) err = MN_ERR_ERRNO(e, path, "cannot write");
      }
    }
    err = mn_agree(ctx, err);
  }
  for (int q = 0; q < P && !err; q++) {
    int e = 0;
    if (q == me) {
      FILE *o = fopen(path, "a");
      if (!o) e = MN_ERR_ERRNO(errno, path, "cannot append to");
      for (int64_t i = 0; o && i < A->nlocal; i++)
        for (int64_t k = rp[i]; k < rp[i + 1]; k++) {
          long long r = (long long)(A->row0 + i) + 1, c = (long long)cols[k] + 1;
          if (symmetric && c > r) continue;
          mni_sval x = mn_csr_val(A->dtype, vals, k);
          mn_c128 z = mni_sv_cast(A->dtype, MN_COMPLEX128, x).z;
          double v = z.re;
          if (f == FIELD_PATTERN) fprintf(o, "%lld %lld\n", r, c);
          else if (f == FIELD_COMPLEX) fprintf(o, "%lld %lld %.17g %.17g\n", r, c, z.re, z.im);
          else if (f == FIELD_INTEGER && A->dtype == MN_UINT64) fprintf(o, "%lld %lld %llu\n", r, c, (unsigned long long)x.i);
          else if (f == FIELD_INTEGER && mni_csr_intk(A->dtype)) fprintf(o, "%lld %lld %lld\n", r, c, (long long)x.i);
          else if (f == FIELD_INTEGER) fprintf(o, "%lld %lld %lld\n", r, c, (long long)v);
          else fprintf(o, "%lld %lld %.17g\n", r, c, v);
        }
      if (o) {
        int w = ferror(o) ? (errno ? errno : EIO) : 0;
        if (fclose(o) && !w) w = errno ? errno : EIO;
        if (w) e = MN_ERR_ERRNO(w, path, "cannot write");
      }
    }
    err = mn_agree(ctx, e); /* also the turn's end: the next rank appends after */
  }
  mn_free(rp);
  mn_free(cols);
  mn_free(vals);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
