/* PNG with stored deflate blocks (see png.h for why no compression). */
#include "png.h"
#include <maniple/mn_core.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc_table[256];

static void crc_init(void) {
  for (uint32_t n = 0; n < 256; n++) {
    uint32_t c = n;
    for (int k = 0; k < 8; k++) c = c & 1 ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
}

static uint32_t crc(uint32_t c, const unsigned char *p, size_t n) {
  c = ~c;
  for (size_t i = 0; i < n; i++) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
  return ~c;
}

static void be32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24); p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8); p[3] = (unsigned char)v;
}

static int chunk(FILE *fp, const char *type, const unsigned char *data, size_t n) {
  unsigned char head[8], tail[4];
  be32(head, (uint32_t)n);
  memcpy(head + 4, type, 4);
  be32(tail, crc(crc(0, head + 4, 4), data, n));
  return fwrite(head, 1, 8, fp) == 8 && (n == 0 || fwrite(data, 1, n, fp) == n) && fwrite(tail, 1, 4, fp) == 4;
}

int app_png_write_rgb(const char *path, const unsigned char *rgb, int64_t nx, int64_t ny) {
  MN_CHECK(path && rgb && nx > 0 && ny > 0, MN_ERR_ARG, "PNG of %lld x %lld pixels: nothing to write",
           (long long)nx, (long long)ny);
  size_t row = 1 + 3 * (size_t)nx, raw = row * (size_t)ny;
  size_t nblk = raw / 65535 + 1, zlen = 2 + raw + 5 * nblk + 4;
  MN_CHECK(zlen < 0x7FFFFFFFu, MN_ERR_ARG, "PNG of %lld x %lld pixels is too large", (long long)nx, (long long)ny);
  unsigned char *z = malloc(zlen);
  MN_CHECK(z, MN_ERR_MEM, "cannot allocate %zu bytes for a PNG", zlen);
  crc_init();
  /* zlib stream: header, stored blocks of the filtered rows, Adler-32 */
  size_t o = 0, done = 0;
  uint32_t a = 1, b = 0;
  z[o++] = 0x78;
  z[o++] = 0x01;
  for (size_t blk = 0; blk < nblk; blk++) {
    size_t len = raw - done < 65535 ? raw - done : 65535;
    z[o++] = blk + 1 == nblk;
    z[o++] = (unsigned char)len; z[o++] = (unsigned char)(len >> 8);
    z[o++] = (unsigned char)~len; z[o++] = (unsigned char)(~len >> 8);
    for (size_t k = 0; k < len; k++, done++) {
      size_t r = done / row, c = done % row;
      unsigned char v = c == 0 ? 0 : rgb[r * (row - 1) + c - 1]; /* filter byte 0: none */
      z[o++] = v;
      a = (a + v) % 65521;
      b = (b + a) % 65521;
    }
  }
  be32(z + o, b << 16 | a);
  o += 4;
  unsigned char ihdr[13];
  be32(ihdr, (uint32_t)nx);
  be32(ihdr + 4, (uint32_t)ny);
  memcpy(ihdr + 8, "\x08\x02\x00\x00\x00", 5); /* 8 bits, RGB, deflate, no filter set, no interlace */
  FILE *fp = fopen(path, "wb");
  int ok = fp && fwrite("\x89PNG\r\n\x1a\n", 1, 8, fp) == 8 && chunk(fp, "IHDR", ihdr, 13) &&
           chunk(fp, "IDAT", z, o) && chunk(fp, "IEND", NULL, 0);
  if (fp && fclose(fp)) ok = 0;
  free(z);
  MN_CHECK(ok, MN_ERR_IO, "cannot write the PNG file '%s'", path);
  return MN_SUCCESS;
}

/* anchors of the viridis-like map, as in apps/picture.py */
static const double cmap[10][3] = {{68, 1, 84},    {72, 40, 120},  {62, 74, 137},  {49, 104, 142}, {38, 130, 142},
                                   {31, 158, 137}, {53, 183, 121}, {110, 206, 88}, {181, 222, 43}, {253, 231, 37}};

int app_png_write_field(const char *path, const double *f, int64_t nx, int64_t ny, int lower) {
  MN_CHECK(f && nx > 0 && ny > 0, MN_ERR_ARG, "PNG of a %lld x %lld field: nothing to draw", (long long)nx,
           (long long)ny);
  double lo = INFINITY, hi = -INFINITY;
  for (int64_t k = 0; k < nx * ny; k++)
    if (isfinite(f[k])) { lo = fmin(lo, f[k]); hi = fmax(hi, f[k]); }
  if (!(lo <= hi)) lo = 0.0, hi = 1.0;
  unsigned char *rgb = malloc((size_t)(nx * ny) * 3);
  MN_CHECK(rgb, MN_ERR_MEM, "cannot allocate a %lld x %lld picture", (long long)nx, (long long)ny);
  for (int64_t j = 0; j < ny; j++)
    for (int64_t i = 0; i < nx; i++) {
      double v = f[(lower ? ny - 1 - j : j) * nx + i];
      unsigned char *p = rgb + 3 * (j * nx + i);
      if (!isfinite(v)) { p[0] = p[1] = p[2] = 0; continue; }
      double t = hi <= lo ? 0.5 : (v - lo) / (hi - lo);
      t = t < 0.0 ? 0.0 : t > 1.0 ? 1.0 : t;
      double pos = t * 9.0;
      int k = (int)pos < 8 ? (int)pos : 8;
      double w = pos - k;
      for (int c = 0; c < 3; c++) p[c] = (unsigned char)nearbyint(cmap[k][c] * (1.0 - w) + cmap[k + 1][c] * w);
    }
  int err = app_png_write_rgb(path, rgb, nx, ny);
  free(rgb);
  return err;
}
