/* Data-dependent all-to-all: counts first (one MPI_Alltoall), then the
 * payloads point to point, split into pieces below MPI's int limit. */
#include "exchange.h"
#include <stdlib.h>
#include <string.h>

int64_t mn_prefix(int n, const int64_t *count, int64_t *disp) {
  int64_t s = 0;
  for (int q = 0; q < n; q++) { disp[q] = s; s += count[q]; }
  return s;
}

int mn_exchange(mn_ctx *ctx, const char *sbuf, const int64_t *scount, char **rbuf, int64_t *rcount,
                int64_t *rdisp) {
  int P = ctx->size, me = ctx->rank, err = 0;
  *rbuf = NULL;
  MN_MPI(MPI_Alltoall(scount, 1, MPI_INT64_T, rcount, 1, MPI_INT64_T, ctx->comm));
  int64_t *sdisp = malloc(sizeof(int64_t) * (size_t)P);
  int64_t total = mn_prefix(P, rcount, rdisp), npc = 1;
  for (int q = 0; q < P; q++)
    if (q != me) npc += mn_mpi_npieces(scount[q]) + mn_mpi_npieces(rcount[q]);
  char *r = mn_malloc((size_t)(total ? total : 1));
  MPI_Request *req = malloc(sizeof(MPI_Request) * (size_t)npc);
  if (!sdisp || !r || !req) err = MN_ERR(MN_ERR_MEM, "cannot allocate %lld bytes for an exchange", (long long)total);
  err = mn_agree(ctx, err);
  int nr = 0;
  if (!err) {
    mn_prefix(P, scount, sdisp);
    for (int q = 0; q < P && !err; q++)
      if (q != me && rcount[q]) err = mn_mpi_post(0, r + rdisp[q], rcount[q], q, 93, ctx->comm, req, &nr);
    for (int q = 0; q < P && !err; q++)
      if (q != me && scount[q]) err = mn_mpi_post(1, (char *)sbuf + sdisp[q], scount[q], q, 93, ctx->comm, req, &nr);
    if (rcount[me]) memcpy(r + rdisp[me], sbuf + sdisp[me], (size_t)rcount[me]);
    if (nr) MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
  }
  free(sdisp);
  free(req);
  if (err) { mn_free(r); return mn_trace(err, __FILE__, __LINE__, __func__); }
  *rbuf = r;
  return MN_SUCCESS;
}
