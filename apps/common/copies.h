/* The apps' check that a device run keeps its fields on the device: the
 * bytes copied between host and device over the steps, counted from the
 * profiling log, and where a field's values are at the end. At one rank
 * (no staged messages) the steps may copy only reductions' accumulators. */
#ifndef APP_COPIES_H
#define APP_COPIES_H

#include <maniple/maniple.h>

typedef struct {
  int on, was_on;             /* counting; the log was on before */
  mn_log_stats h2d, d2h;      /* the counters at the start */
} app_copies;

/* Starts counting when `on` (the log is switched on for it). */
void app_copies_start(mn_ctx *ctx, int on, app_copies *w);
/* Stops counting (the log back as it was); a no-op when not counting. */
void app_copies_stop(mn_ctx *ctx, app_copies *w);
/* After app_copies_stop: *ok when the steps copied at most 256 bytes a
 * step and field's values are in device memory; rank 0 prints the figures
 * after `label`. Sets *ok = 1 and prints nothing when not counting. */
int app_copies_check(mn_ctx *ctx, const app_copies *w, long steps, const mn_array *field, const char *label, int *ok);

#endif
