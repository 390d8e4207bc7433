/* A tiny self-contained PNG writer for the apps (no zlib, no libpng): 8-bit
 * RGB with the image data in stored (uncompressed) deflate blocks. Files are
 * about 3 bytes a pixel, which is fine for pictures of a run; in exchange
 * there is no optional dependency to find, build or test. */
#ifndef APP_PNG_H
#define APP_PNG_H

#include <stdint.h>

/* rgb: ny rows of nx pixels, 3 bytes each, row 0 at the top. Returns 0 or
 * MN_ERR_IO / MN_ERR_MEM / MN_ERR_ARG with a message (mn_ctx_errmsg). */
int app_png_write_rgb(const char *path, const unsigned char *rgb, int64_t nx, int64_t ny);
/* A field f (C order, ny x nx) as the viridis-like colour map of
 * apps/picture.py over its finite range (non-finite values black); lower = 1
 * puts row 0 at the bottom (y up). */
int app_png_write_field(const char *path, const double *f, int64_t nx, int64_t ny, int lower);

#endif
