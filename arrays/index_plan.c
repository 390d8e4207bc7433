/* The plans of the last take and put, kept for a call with the same indices. */
#include "index_plan.h"
#include <stdlib.h>
#include <string.h>

int mn_index_plan_match(const mn_index_plan *p, int P, const int64_t *ix, int64_t n, int64_t size,
                        const int64_t *start, size_t es) {
  return p && p->ix && p->n == n && p->size == size && p->es == es &&
         !memcmp(p->start, start, sizeof(int64_t) * (size_t)(P + 1)) &&
         (n == 0 || !memcmp(p->ix, ix, sizeof(int64_t) * (size_t)n));
}

static size_t at_least1(int64_t n, size_t es) { return (size_t)(n ? n : 1) * es; }

/* the pool buffers back (the sizes the call took them with) */
static void give_back(mn_index_plan *p) {
  mn_pool_give(p->ix, at_least1(p->n, 8));
  mn_pool_give(p->order, at_least1(p->n, 8));
  mn_pool_give(p->req, at_least1(p->n, 8));
  mn_pool_give(p->rreq, at_least1(p->m, 8));
  mn_pool_give(p->recv, at_least1(p->m, p->es));
  mn_pool_give(p->send, at_least1(p->n, p->es));
  p->ix = p->order = p->req = p->rreq = NULL;
  p->recv = p->send = NULL;
}

mn_index_plan *mn_index_plan_reset(mn_index_plan **slot, int P, const int64_t *ix, int64_t n, int64_t size,
                                   const int64_t *start, size_t es) {
  mn_index_plan *p = *slot;
  if (!p) {
    p = calloc(1, sizeof *p);
    if (p) {
      p->start = malloc(sizeof(int64_t) * (size_t)(P + 1));
      p->cnt = malloc(sizeof(int64_t) * 4 * (size_t)P);
    }
    if (p && (!p->start || !p->cnt)) mn_index_plan_free(&p);
    if (!p) return NULL;
    *slot = p;
  }
  give_back(p);
  p->n = n;
  p->m = 0;
  p->size = size;
  p->es = es;
  memcpy(p->start, start, sizeof(int64_t) * (size_t)(P + 1));
  p->ix = mn_pool_take(at_least1(n, 8));
  if (!p->ix) return NULL; /* (p->ix NULL: it matches nothing) */
  if (n) memcpy(p->ix, ix, sizeof(int64_t) * (size_t)n);
  return p;
}

void mn_index_plan_free(mn_index_plan **pp) {
  mn_index_plan *p = pp ? *pp : NULL;
  if (!p) return;
  give_back(p);
  free(p->start);
  free(p->cnt);
  free(p);
  *pp = NULL;
}
