/* Binary PGM (P5) grey-level images for the apps, dependency-free (the
 * twin of apps/pgm.py). */
#ifndef APP_PGM_H
#define APP_PGM_H

#include <stdint.h>

/* Read path into *pix (malloc'd, h rows of w values, row 0 at the top; the
 * caller frees). 8-bit and 16-bit (big-endian) samples. Returns 0, or
 * MN_ERR_IO (cannot open) / MN_ERR_FORMAT (not P5, a bad or truncated
 * header, missing pixel bytes) / MN_ERR_MEM with a message naming the file
 * (mn_ctx_errmsg). */
int app_pgm_read(const char *path, int64_t *w, int64_t *h, int *maxval, double **pix);
/* Write v (h rows of w) as 8-bit P5, values rounded and clipped to 0..255. */
int app_pgm_write(const char *path, const double *v, int64_t w, int64_t h);

#endif
