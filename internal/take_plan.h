/* Private: the plan of a take kept for the next take with the same
 * indices (a loop's a[idx]): which slot each index goes to, the requests
 * sent and received, and the buffers of the answers. One per context. */
#ifndef MANIPLE_TAKE_PLAN_H
#define MANIPLE_TAKE_PLAN_H
#include "expr_impl.h"

typedef struct mn_take_plan_s {
  int64_t n, size, m, nmine; /* indices here, x's size, requests received, my own (last of req) */
  size_t es;                 /* element size of the answers */
  int64_t *start;            /* x's row split (ranks + 1) */
  int64_t *cnt;              /* 4 x ranks: request bytes sent, answer bytes sent, answer bytes received and
                              * their displacements */
  /* buffers of the pool (the take's own, handed over): */
  int64_t *ix;               /* this rank's indices as given: the key */
  int64_t *order, *req;      /* n each: index k's slot in comb; the requests by slot (wrapped) */
  int64_t *rreq;             /* m: the requests of my elements, in the order received */
  char *ans, *comb;          /* m and n elements: my answers; all answers by slot */
} mn_take_plan;

/* 1 when ctx's kept plan was made for these n indices into an array of
 * size elements with row split start, answers of es bytes (on this rank:
 * callers agree, by marking their exchange's counts). */
int mn_take_plan_match(const mn_ctx *ctx, const int64_t *ix, int64_t n, int64_t size, const int64_t *start,
                       size_t es);
/* ctx's plan emptied (its buffers back to the pool) for the caller to
 * fill: a copy of the n indices ix as its key, the rest handed over;
 * NULL when memory is short (nothing is kept: a plan only saves time). */
mn_take_plan *mn_take_plan_reset(mn_ctx *ctx, const int64_t *ix, int64_t n);
void mn_take_plan_free(mn_take_plan **p);
#endif
