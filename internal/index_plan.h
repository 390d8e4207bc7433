/* Private: the plan of a take or a put kept for the next call with the
 * same indices (a loop's a[idx], a[idx] = v or M[idx]): which slot each
 * index goes to, what is sent and received, and the buffers. One of each
 * per context (mn_ctx's take_plan, put_plan and rows_plan). */
#ifndef MANIPLE_INDEX_PLAN_H
#define MANIPLE_INDEX_PLAN_H
#include "expr_impl.h"

typedef struct mn_index_plan_s {
  int64_t n, size, m, nmine; /* indices here, x's size, elements received, my own (last by slot) */
  int64_t below;             /* put: records received from lower ranks */
  size_t es;                 /* bytes of what moves per index (take: an answer; put: a record) */
  int64_t *start;            /* x's row split (ranks + 1) */
  int64_t *cnt;              /* 4 x ranks, by the caller (take: request bytes sent, answer bytes sent, answer
                              * bytes received and their displacements; put: record bytes sent, received,
                              * and their displacements) */
  /* buffers of the pool (the call's own, handed over; NULL: unused): */
  int64_t *ix;               /* this rank's indices as given: the key */
  int64_t *order, *req;      /* n each: index k's slot; take: the requests by slot (wrapped); take_rows:
                              * each row's owner */
  int64_t *rreq;             /* take, take_rows: m requests of my elements (rows), in the order received */
  char *recv, *send;         /* m and n of es bytes: take: my answers, all answers by slot; put: the
                              * records received, the records by slot */
} mn_index_plan;

/* 1 when plan p (NULL: none) was made for these n indices into an array
 * of size elements with row split start (P ranks), moving es bytes an
 * index (an answer, a record, a row; on this rank: callers agree, by
 * marking their exchange's counts). */
int mn_index_plan_match(const mn_index_plan *p, int P, const int64_t *ix, int64_t n, int64_t size,
                        const int64_t *start, size_t es);
/* The plan in *slot emptied (its buffers back to the pool; made when
 * none) for the caller to fill: a copy of the n indices ix as its key and
 * the fields but the buffers set, the buffers to be handed over; NULL when
 * memory is short (nothing is kept: a plan only saves time). */
mn_index_plan *mn_index_plan_reset(mn_index_plan **slot, int P, const int64_t *ix, int64_t n, int64_t size,
                                   const int64_t *start, size_t es);
void mn_index_plan_free(mn_index_plan **p);
#endif
