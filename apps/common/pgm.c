/* Binary PGM (P5): "P5", width, height and maxval as decimal numbers
 * separated by whitespace (and '#' comments to the end of a line), one
 * whitespace byte, then the samples row by row: one byte each when maxval <
 * 256, else two, most significant first. */
#include "pgm.h"
#include <maniple/maniple.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int space(int c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

/* the next header number; its name for the messages */
static int field(FILE *f, const char *path, const char *name, long *out) {
  int c = fgetc(f);
  while (c != EOF && (space(c) || c == '#')) {
    if (c == '#')
      while (c != EOF && c != '\n' && c != '\r') c = fgetc(f);
    c = fgetc(f);
  }
  MN_CHECK(c != EOF, MN_ERR_FORMAT, "%s: truncated PGM header: no %s", path, name);
  char tok[32];
  int n = 0;
  while (c != EOF && !space(c) && c != '#') {
    if (n < (int)sizeof tok - 1) tok[n++] = (char)c;
    c = fgetc(f);
  }
  tok[n] = 0;
  if (c != EOF) ungetc(c, f);
  int digits = n > 0 && n < 10;
  for (int k = 0; k < n && digits; k++) digits = tok[k] >= '0' && tok[k] <= '9';
  MN_CHECK(digits, MN_ERR_FORMAT, "%s: bad PGM header: %s '%s' is not a number", path, name, tok);
  *out = strtol(tok, NULL, 10);
  return MN_SUCCESS;
}

static int header(FILE *f, const char *path, long *w, long *h, long *maxval) {
  char magic[2] = {0, 0};
  size_t got = fread(magic, 1, 2, f);
  MN_CHECK(got == 2 && magic[0] == 'P' && magic[1] == '5', MN_ERR_FORMAT,
           "%s: not a binary PGM (P5): it starts with '%.*s'", path, (int)got,
           got ? magic : "nothing (an empty file)");
  MN_CALL(field(f, path, "width", w));
  MN_CALL(field(f, path, "height", h));
  MN_CALL(field(f, path, "maxval", maxval));
  MN_CHECK(space(fgetc(f)), MN_ERR_FORMAT, "%s: truncated PGM header: no whitespace after the maxval", path);
  MN_CHECK(*w >= 1 && *h >= 1, MN_ERR_FORMAT, "%s: bad PGM size %ld x %ld", path, *w, *h);
  MN_CHECK(*maxval >= 1 && *maxval <= 65535, MN_ERR_FORMAT, "%s: bad PGM maxval %ld (1 to 65535)", path, *maxval);
  return MN_SUCCESS;
}

int app_pgm_read(const char *path, int64_t *w, int64_t *h, int *maxval, double **pix) {
  *pix = NULL;
  FILE *f = fopen(path, "rb");
  MN_CHECK(f, MN_ERR_IO, "%s: cannot open the file", path);
  long W = 0, H = 0, M = 0;
  int err = header(f, path, &W, &H, &M);
  int size = M < 256 ? 1 : 2;
  size_t need = (size_t)W * (size_t)H * (size_t)size, got = 0;
  unsigned char *raw = err ? NULL : malloc(need);
  double *v = err ? NULL : malloc(sizeof(double) * (size_t)W * (size_t)H);
  if (!err && (!raw || !v)) err = MN_ERR(MN_ERR_MEM, "%s: cannot allocate a %ld x %ld image", path, W, H);
  if (!err) {
    got = fread(raw, 1, need, f);
    if (got < need)
      err = MN_ERR(MN_ERR_FORMAT, "%s: truncated: %zu of %zu bytes of pixels (%ld x %ld, maxval %ld)", path, got,
                   need, W, H, M);
  }
  for (size_t k = 0; !err && k < (size_t)W * (size_t)H; k++) {
    long s = size == 1 ? raw[k] : raw[2 * k] << 8 | raw[2 * k + 1];
    if (s > M) err = MN_ERR(MN_ERR_FORMAT, "%s: a pixel value %ld exceeds the maxval %ld", path, s, M);
    v[k] = (double)s;
  }
  fclose(f);
  free(raw);
  if (err) {
    free(v);
    return err;
  }
  *w = W;
  *h = H;
  *maxval = (int)M;
  *pix = v;
  return MN_SUCCESS;
}

int app_pgm_write(const char *path, const double *v, int64_t w, int64_t h) {
  MN_CHECK(v && w > 0 && h > 0, MN_ERR_ARG, "PGM of a %lld x %lld image: nothing to write", (long long)w, (long long)h);
  unsigned char *b = malloc((size_t)(w * h));
  MN_CHECK(b, MN_ERR_MEM, "cannot allocate a %lld x %lld image", (long long)w, (long long)h);
  for (int64_t k = 0; k < w * h; k++) {
    double x = isfinite(v[k]) ? nearbyint(v[k]) : 0.0;
    b[k] = (unsigned char)(x < 0 ? 0 : x > 255 ? 255 : x);
  }
  FILE *f = fopen(path, "wb");
  int ok = f && fprintf(f, "P5\n%lld %lld\n255\n", (long long)w, (long long)h) > 0 &&
           fwrite(b, 1, (size_t)(w * h), f) == (size_t)(w * h);
  if (f && fclose(f)) ok = 0;
  free(b);
  MN_CHECK(ok, MN_ERR_IO, "cannot write the PGM file '%s'", path);
  return MN_SUCCESS;
}
