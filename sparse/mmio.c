/* Matrix Market coordinate files. Reading: rank 0 parses the header; then
 * every rank parses the lines that start in its share of the bytes (or
 * rank 0 alone parses all), with line numbers from a prefix sum of line
 * counts, so every error names the file and line; the triplets are
 * assembled as COO. Writing: rank 0 writes the header, then each rank
 * appends its rows in rank order. */
#include "csr_impl.h"
#include "spmd.h"
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { FIELD_REAL = 0, FIELD_INTEGER = 1, FIELD_PATTERN = 2 };
enum { SYM_GENERAL = 0, SYM_SYMMETRIC = 1, SYM_SKEW = 2 };

typedef struct {
  long long m, n, nnz;
  int field, sym;
  long long offset;  /* byte of the first entry line */
  long long line;    /* its line number (1-based) */
  long long size;    /* file size in bytes */
} mtx_header;

static int header_error(const char *path, long long line, const char *what, const char *got) {
  return MN_ERR(MN_ERR_FORMAT, "%s:%lld: %s (got '%.60s')", path, line, what, got);
}

/* Rank 0: the banner, comments and the size line. */
static int read_header(const char *path, mtx_header *h) {
  FILE *f = fopen(path, "rb");
  if (!f) return MN_ERR(MN_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  char buf[1024], obj[64] = "", fmt[64] = "", field[64] = "", sym[64] = "", ban[64] = "";
  int err = 0;
  long long line = 1;
  if (!fgets(buf, sizeof buf, f)) err = header_error(path, 1, "empty file, expected a %MatrixMarket banner", "");
  else {
    buf[strcspn(buf, "\r\n")] = 0;
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
    else err = header_error(path, 1, "the field must be real, integer or pattern (complex values are not supported)",
                            field);
    if (!err) {
      if (!strcasecmp(sym, "general")) h->sym = SYM_GENERAL;
      else if (!strcasecmp(sym, "symmetric")) h->sym = SYM_SYMMETRIC;
      else if (!strcasecmp(sym, "skew-symmetric")) h->sym = SYM_SKEW;
      else err = header_error(path, 1, "the symmetry must be general, symmetric or skew-symmetric", sym);
    }
  }
  /* comments, then the size line */
  while (!err) {
    if (!fgets(buf, sizeof buf, f)) { err = header_error(path, line + 1, "missing size line 'rows columns entries'", ""); break; }
    line++;
    if (buf[0] == '%') continue;
    char *s = buf;
    while (isspace((unsigned char)*s)) s++;
    if (!*s) continue; /* blank lines before the size line */
    char extra[8];
    if (sscanf(buf, "%lld %lld %lld %7s", &h->m, &h->n, &h->nnz, extra) != 3 || h->m < 0 || h->n < 0 || h->nnz < 0) {
      buf[strcspn(buf, "\r\n")] = 0;
      err = header_error(path, line, "expected the size line 'rows columns entries'", buf);
    }
    break;
  }
  if (!err) {
    h->offset = ftell(f);
    h->line = line + 1;
    fseek(f, 0, SEEK_END);
    h->size = ftell(f);
  }
  fclose(f);
  return err;
}

typedef struct { int64_t *r, *c; double *v; int64_t n, cap; } triplets;

static int push(triplets *t, int64_t i, int64_t j, double v) {
  if (t->n == t->cap) {
    int64_t cap = t->cap ? 2 * t->cap : 1024;
    int64_t *r = realloc(t->r, sizeof(int64_t) * (size_t)cap), *c = r ? realloc(t->c, sizeof(int64_t) * (size_t)cap) : NULL;
    if (r) t->r = r;
    if (c) t->c = c;
    double *w = c ? realloc(t->v, sizeof(double) * (size_t)cap) : NULL;
    if (!w) return MN_ERR(MN_ERR_MEM, "cannot hold %lld entries", (long long)cap);
    t->v = w;
    t->cap = cap;
  }
  t->r[t->n] = i;
  t->c[t->n] = j;
  t->v[t->n++] = v;
  return MN_SUCCESS;
}

/* One entry line (NUL-terminated, no newline). */
static int parse_entry(const char *path, long long line, char *s, const mtx_header *h, triplets *t) {
  char *end;
  errno = 0;
  long long i = strtoll(s, &end, 10);
  if (end == s || errno) return header_error(path, line, "expected a row index", s);
  s = end;
  long long j = strtoll(s, &end, 10);
  if (end == s || errno) return header_error(path, line, "expected a column index after the row", s);
  s = end;
  double v = 1.0;
  if (h->field != FIELD_PATTERN) {
    while (isspace((unsigned char)*s)) s++;
    if (!*s) return MN_ERR(MN_ERR_FORMAT, "%s:%lld: missing value after the indices", path, line);
    if (h->field == FIELD_INTEGER) {
      long long q = strtoll(s, &end, 10);
      if (end == s || errno || !(*end == 0 || isspace((unsigned char)*end)))
        return header_error(path, line, "non-integer value in an integer file", s);
      v = (double)q;
    } else {
      v = strtod(s, &end);
      if (end == s) return header_error(path, line, "non-numeric value", s);
    }
    s = end;
  }
  while (isspace((unsigned char)*s)) s++;
  if (*s) return header_error(path, line, "unexpected text after the entry", s);
  if (i < 1 || i > h->m)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: row index %lld is out of range 1..%lld", path, line, i, h->m);
  if (j < 1 || j > h->n)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: column index %lld is out of range 1..%lld", path, line, j, h->n);
  if (h->sym != SYM_GENERAL && j > i)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: entry (%lld, %lld) above the diagonal in a %s file", path, line, i, j,
                  h->sym == SYM_SKEW ? "skew-symmetric" : "symmetric");
  if (h->sym == SYM_SKEW && i == j)
    return MN_ERR(MN_ERR_FORMAT, "%s:%lld: diagonal entry in a skew-symmetric file", path, line);
  MN_CALL(push(t, i - 1, j - 1, v));
  if (h->sym != SYM_GENERAL && i != j) MN_CALL(push(t, j - 1, i - 1, h->sym == SYM_SKEW ? -v : v));
  return MN_SUCCESS;
}

/* The lines that start in [a, b): parsed, counted (entries in *nent). */
static int read_range(const char *path, const mtx_header *h, long long a, long long b, long long first_line,
                      int count_only, long long *nlines, long long *nent, triplets *t) {
  *nlines = 0;
  *nent = 0;
  if (b <= a) return MN_SUCCESS;
  FILE *f = fopen(path, "rb");
  if (!f) return MN_ERR(MN_ERR_IO, "cannot open %s: %s", path, strerror(errno));
  int err = 0;
  if (a > h->offset) { /* the first line starting at or after a */
    fseek(f, a - 1, SEEK_SET);
    int ch = fgetc(f);
    while (ch != '\n' && ch != EOF) { ch = fgetc(f); a++; }
  }
  fseek(f, a, SEEK_SET);
  size_t cap = 256;
  char *buf = malloc(cap);
  long long pos = a;
  while (!err && pos < b && buf) {
    size_t len = 0;
    int ch;
    while ((ch = fgetc(f)) != EOF && ch != '\n') {
      if (len + 1 >= cap) {
        char *nb = realloc(buf, cap * 2);
        if (!nb) { err = MN_ERR(MN_ERR_MEM, "cannot hold a line of %zu bytes", len); break; }
        buf = nb;
        cap *= 2;
      }
      buf[len++] = (char)ch;
    }
    if (err || (ch == EOF && len == 0)) break;
    pos += (long long)len + (ch == '\n');
    buf[len] = 0;
    if (len && buf[len - 1] == '\r') buf[len - 1] = 0;
    long long line = first_line + *nlines;
    (*nlines)++;
    char *s = buf;
    while (isspace((unsigned char)*s)) s++;
    if (!*s || *s == '%') continue; /* blank lines and comments */
    (*nent)++;
    if (!count_only) err = parse_entry(path, line, s, h, t);
  }
  if (!buf) err = MN_ERR(MN_ERR_MEM, "cannot allocate a line buffer");
  free(buf);
  fclose(f);
  return err;
}

int mn_csr_read_mtx(mn_ctx *ctx, const char *path, mn_dtype dtype, int parallel, mn_csr **A) {
  MN_CHECK(ctx && path && A, MN_ERR_ARG, "NULL context, path or output");
  *A = NULL;
  MN_SPMD(ctx, "mn_csr_read_mtx", mn_spmd_str(S, "path", path), mn_spmd_dtype(S, "dtype", dtype),
          mn_spmd_int(S, "parallel", parallel));
  MN_CHECK(dtype == MN_FLOAT64 || dtype == MN_FLOAT32, MN_ERR_DTYPE, "sparse matrices hold float64 or float32, not %s",
           mn_dtype_name(dtype));
  int P = ctx->size, me = ctx->rank, err = 0;
  mtx_header h;
  memset(&h, 0, sizeof h);
  if (me == 0) err = read_header(path, &h);
  err = mn_agree(ctx, err);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  MN_MPI(MPI_Bcast(&h, (int)sizeof h, MPI_BYTE, 0, ctx->comm));
  /* my byte range of the entries */
  long long body = h.size - h.offset, a = h.offset, b = h.offset;
  if (parallel) { a = h.offset + body * me / P; b = h.offset + body * (me + 1) / P; }
  else if (me == 0) b = h.size;
  /* line numbers: count my lines first, then a prefix sum */
  long long nlines = 0, nent = 0, before = 0;
  triplets t = {0};
  err = mn_agree(ctx, read_range(path, &h, a, b, 0, 1, &nlines, &nent, &t));
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
  if (!err && dtype == MN_FLOAT32)
    for (int64_t k = 0; k < t.n; k++) ((float *)t.v)[k] = (float)t.v[k];
  if (!err) err = mn_csr_create_coo(ctx, h.m, h.n, dtype, t.n, MN_INT64, t.r, t.c, t.v, A);
  free(t.r);
  free(t.c);
  free(t.v);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
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
      sym = ca[k] == ct[k] && mn_csr_val(A->dtype, va, k) == mn_csr_val(A->dtype, vt, k);
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
        : !strcmp(field, "pattern") ? FIELD_PATTERN : -1;
  MN_CHECK(f >= 0, MN_ERR_ARG, "field '%s': real, integer or pattern", field);
  MN_CHECK(!symmetric || A->nrows == A->ncols, MN_ERR_SHAPE, "a %lld x %lld matrix cannot be symmetric",
           (long long)A->nrows, (long long)A->ncols);
  mn_ctx *ctx = A->ctx;
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
    double v = mn_csr_val(A->dtype, vals, k);
    if (v != floor(v) || fabs(v) > 9.2e18)
      err = MN_ERR(MN_ERR_ARG, "value %g is not an integer: write the field 'real'", v);
  }
  err = mn_agree(ctx, err);
  if (!err) {
    MN_MPI(mn_allreduce(ctx, &mine, &total, 1, MPI_LONG_LONG, MPI_SUM));
    if (me == 0) { /* the header, then each rank appends in turn */
      FILE *o = fopen(path, "w");
      if (!o) err = MN_ERR(MN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
      else {
        fprintf(o, "%%%%MatrixMarket matrix coordinate %s %s\n%lld %lld %lld\n", field,
                symmetric ? "symmetric" : "general", (long long)A->nrows, (long long)A->ncols, total);
        if (fclose(o)) err = MN_ERR(MN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
      }
    }
    err = mn_agree(ctx, err);
  }
  for (int q = 0; q < P && !err; q++) {
    int e = 0;
    if (q == me) {
      FILE *o = fopen(path, "a");
      if (!o) e = MN_ERR(MN_ERR_IO, "cannot append to %s: %s", path, strerror(errno));
      for (int64_t i = 0; o && i < A->nlocal; i++)
        for (int64_t k = rp[i]; k < rp[i + 1]; k++) {
          long long r = (long long)(A->row0 + i) + 1, c = (long long)cols[k] + 1;
          if (symmetric && c > r) continue;
          double v = mn_csr_val(A->dtype, vals, k);
          if (f == FIELD_PATTERN) fprintf(o, "%lld %lld\n", r, c);
          else if (f == FIELD_INTEGER) fprintf(o, "%lld %lld %lld\n", r, c, (long long)v);
          else fprintf(o, "%lld %lld %.17g\n", r, c, v);
        }
      if (o && fclose(o)) e = MN_ERR(MN_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    }
    err = mn_agree(ctx, e); /* also the turn's end: the next rank appends after */
  }
  mn_free(rp);
  mn_free(cols);
  mn_free(vals);
  if (err) return mn_trace(err, __FILE__, __LINE__, __func__);
  return MN_SUCCESS;
}
