#include "copies.h"
#include <stdio.h>

void app_copies_start(mn_ctx *ctx, int on, app_copies *w) {
  *w = (app_copies){.on = on, .was_on = mn_log_enabled(ctx)};
  if (!on) return;
  mn_log_enable(ctx);
  mn_log_get(ctx, MN_LOG_H2D, &w->h2d);
  mn_log_get(ctx, MN_LOG_D2H, &w->d2h);
}

void app_copies_stop(mn_ctx *ctx, app_copies *w) {
  if (!w->on) return;
  mn_log_stats h, d;
  mn_log_get(ctx, MN_LOG_H2D, &h);
  mn_log_get(ctx, MN_LOG_D2H, &d);
  w->h2d.mem_bytes = h.mem_bytes - w->h2d.mem_bytes, w->h2d.calls = h.calls - w->h2d.calls;
  w->d2h.mem_bytes = d.mem_bytes - w->d2h.mem_bytes, w->d2h.calls = d.calls - w->d2h.calls;
  if (!w->was_on) mn_log_disable(ctx);
}

int app_copies_check(mn_ctx *ctx, const app_copies *w, long steps, const mn_array *field, const char *label, int *ok) {
  *ok = 1;
  if (!w->on) return MN_SUCCESS;
  double per_step = (double)(w->h2d.mem_bytes + w->d2h.mem_bytes) / (double)(steps > 0 ? steps : 1);
  mn_local l; /* and the values are there, not on the host */
  MN_CALL(mn_array_local_memtype(field, &l));
  *ok = per_step <= 256 && l.mem == MN_MEM_DEVICE;
  if (mn_ctx_rank(ctx) == 0)
    printf("%s: host-device copies %.1f bytes a step (%ld to the device, %ld back), at most 256; the fields in %s "
           "memory %s\n",
           label, per_step, (long)w->h2d.calls, (long)w->d2h.calls, l.mem == MN_MEM_DEVICE ? "device" : "host",
           *ok ? "PASS" : "FAIL");
  return MN_SUCCESS;
}
