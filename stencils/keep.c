/* What a stencil keeps between calls: the halo plan, job buffer and
 * temporary slot of each field it last served. A call whose fields match the kept keys
 * allocates nothing, so nothing can fail on one rank alone, and it skips
 * the error agreement (an allreduce) that a first call makes. The keys are
 * global metadata (dtype, halo, shape, process grid, periodic axes), so
 * every rank decides alike. */
#include "stencil_impl.h"
#include <stdlib.h>
#include <string.h>

static void key_of(const mn_stencil *s, const mn_array *u, int slot, mni_st_key *k) {
  const mn_buf *b = u->buf;
  memset(k, 0, sizeof *k);
  k->kind = 'S';
  k->slot = slot;
  k->t = b->dtype;
  k->halo = b->halo;
  k->nd = b->ndim;
  memcpy(k->shape, b->lay->shape, sizeof k->shape);
  memcpy(k->dims, b->lay->dims, sizeof k->dims);
  for (int d = 0; d < s->nd; d++) k->periodic[d] = s->bc[d][0].kind == MN_BC_PERIODIC;
}

/* The halo plan of u under s's periodic axes, cached on the context per
 * slot (plans run at the same time need different slots). */
static int plan_of(const mn_stencil *s, mn_array *u, int slot, mn_plan **p) {
  mni_st_key key;
  key_of(s, u, slot, &key);
  *p = mn_cache_get(s->ctx, &key, sizeof key);
  if (*p) return MN_SUCCESS;
  MN_CALL(mn_plan_create_halo(u, key.periodic, p));
  mn_cache_put(s->ctx, &key, sizeof key, *p);
  return MN_SUCCESS;
}

static void keep_free(mni_st_keep *k) {
  for (int i = 0; k->plan && i < k->nkey; i++) mn_plan_destroy(&k->plan[i]);
  for (int i = 0; k->job && i < k->njob; i++) mni_st_job_free(&k->job[i]);
  free(k->key);
  free(k->plan);
  free(k->tmp);
  free(k->job);
  memset(k, 0, sizeof *k);
}

void mni_st_keep_drop(mn_stencil *s) { keep_free(&s->keep); }

/* every field a base grid (checked before), keys equal to the kept ones */
static int matches(const mn_stencil *s, int nf, mn_array *const *u, int njob) {
  const mni_st_keep *k = &s->keep;
  if (nf > k->nkey || njob > k->njob) return 0;
  for (int i = 0; i < nf; i++) {
    mni_st_key q;
    if (!u[i] || u[i]->is_view) return 0;
    key_of(s, u[i], i, &q);
    if (memcmp(&q, &k->key[i], sizeof q)) return 0;
  }
  return 1;
}

static int build(mn_stencil *s, int nf, mn_array *const *u, int njob, mni_st_keep *k) {
  k->key = calloc((size_t)nf, sizeof *k->key);
  k->plan = calloc((size_t)nf, sizeof *k->plan);
  k->tmp = calloc((size_t)nf, sizeof *k->tmp);
  k->job = calloc((size_t)njob, sizeof *k->job);
  MN_CHECK(k->key && k->plan && k->tmp && k->job, MN_ERR_MEM, "cannot allocate %d field records", nf);
  k->nkey = nf;
  for (int i = 0; i < nf; i++) {
    key_of(s, u[i], i, &k->key[i]);
    MN_CALL(plan_of(s, u[i], i, &k->plan[i]));
  }
  for (int i = 0; i < njob; i++) {
    MN_CALL(mni_st_job_alloc(s, &k->job[i]));
    k->njob = i + 1;
  }
  return MN_SUCCESS;
}

int mni_st_keep_get(mn_stencil *s, int nf, mn_array *const *u, int njob, int err) {
  if (njob < nf) njob = nf;
  int hit = matches(s, nf, u, njob);
  if (hit) return err; /* err, if any, comes from global metadata: every rank has it */
  mni_st_keep k;
  memset(&k, 0, sizeof k);
  if (!err) err = build(s, nf, u, njob, &k);
  /* every rank the same answer before any message */
  err = mn_agree(s->ctx, err);
  if (err) {
    keep_free(&k);
    return err;
  }
  keep_free(&s->keep);
  s->keep = k;
  return MN_SUCCESS;
}
