/* Pictures of distributed fields: gather to rank 0 and write a PNG there
 * with png.h's colour map (the same map as apps/picture.py). Collective. */
#ifndef APP_PICTURE_H
#define APP_PICTURE_H

#include <maniple/maniple.h>

#define APP_PICTURE_MIN 400 /* pixels across, at least (small grids are magnified) */

/* f: a 2-d float64 array (any layout or halo); lower = 1 puts row 0 at the
 * bottom (y up). Errors are the same on every rank. */
int app_picture(mn_array *f, const char *path, int lower);
/* The speed sqrt(u^2 + v^2) of two fields of one shape, as a new array
 * (a fused expression: one pass, no temporaries). */
int app_speed(mn_array *u, mn_array *v, mn_array **speed);

#endif
