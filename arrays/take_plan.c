/* The plan of the last take, kept for a take with the same indices. */
#include "take_plan.h"
#include <stdlib.h>
#include <string.h>

int mn_take_plan_match(const mn_ctx *ctx, const int64_t *ix, int64_t n, int64_t size, const int64_t *start,
                       size_t es) {
  const mn_take_plan *p = ctx->take_plan;
  return p && p->ix && p->n == n && p->size == size && p->es == es &&
         !memcmp(p->start, start, sizeof(int64_t) * (size_t)(ctx->size + 1)) &&
         (n == 0 || !memcmp(p->ix, ix, sizeof(int64_t) * (size_t)n));
}

static size_t at_least1(int64_t n, size_t es) { return (size_t)(n ? n : 1) * es; }

/* the pool buffers back (the sizes the take took them with) */
static void give_back(mn_take_plan *p) {
  mn_pool_give(p->ix, at_least1(p->n, 8));
  mn_pool_give(p->order, at_least1(p->n, 8));
  mn_pool_give(p->req, at_least1(p->n, 8));
  mn_pool_give(p->rreq, at_least1(p->m, 8));
  mn_pool_give(p->ans, at_least1(p->m, p->es));
  mn_pool_give(p->comb, at_least1(p->n, p->es));
  p->ix = p->order = p->req = p->rreq = NULL;
  p->ans = p->comb = NULL;
}

mn_take_plan *mn_take_plan_reset(mn_ctx *ctx, const int64_t *ix, int64_t n) {
  int P = ctx->size;
  mn_take_plan *p = ctx->take_plan;
  if (!p) {
    p = calloc(1, sizeof *p);
    if (p) {
      p->start = malloc(sizeof(int64_t) * (size_t)(P + 1));
      p->cnt = malloc(sizeof(int64_t) * 4 * (size_t)P);
    }
    if (p && (!p->start || !p->cnt)) mn_take_plan_free(&p);
    if (!p) return NULL;
    ctx->take_plan = p;
  }
  give_back(p);
  p->n = n;
  p->m = 0;
  p->ix = mn_pool_take(at_least1(n, 8));
  if (!p->ix) return NULL; /* (p->ix NULL: it matches nothing) */
  if (n) memcpy(p->ix, ix, sizeof(int64_t) * (size_t)n);
  return p;
}

void mn_take_plan_free(mn_take_plan **pp) {
  mn_take_plan *p = pp ? *pp : NULL;
  if (!p) return;
  give_back(p);
  free(p->start);
  free(p->cnt);
  free(p);
  *pp = NULL;
}
