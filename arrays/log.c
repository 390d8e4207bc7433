/* The profiling log (PETSc's -log_view): per kind of operation, calls and
 * inclusive time, memory traffic, messages and allreduces, taken as
 * differences of running totals so that nested operations count in each
 * enclosing one. The summary reduces over ranks on a communicator of its
 * own. */
#define _POSIX_C_SOURCE 200809L /* clock_gettime, nanosleep */
#include "mn_impl.h"
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *names[MN_LOG_NEVENTS] = {
  "eval", "reduce", "allreduce", "plan_begin", "plan_end", "halo", "stencil", "spmv",
  "solve", "sv_setup", "sv_op", "sv_pc", "sv_dot", "sv_update", "bcast", "h2d", "d2h"};

/* A destroy-time summary waits this long (MANIPLE_LOG_VIEW_WAIT seconds,
 * default 60) for the other ranks, then prints this rank's counters
 * alone: a rank that ended on its own must not hang the job there. */
static double finish_wait(void) {
  const char *v = getenv("MANIPLE_LOG_VIEW_WAIT");
  double w = v && *v ? strtod(v, NULL) : 60.0;
  return w > 0 ? w : 60.0;
}

/* a monotonic clock that works after MPI_Finalize too */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

const char *mn_log_event_name(mn_log_event ev) {
  return (unsigned)ev < MN_LOG_NEVENTS ? names[ev] : "unknown";
}

void mn_log_begin_(mn_log *L, mn_log_event ev) {
  mn_log_ev *e = &L->ev[ev];
  if (e->depth++) return;
  e->t0 = now();
  e->msgs0 = L->msgs;
  e->bytes0 = L->msg_bytes;
  e->ar0 = L->allreduces;
  e->mem0 = L->mem;
}

void mn_log_end_(mn_log *L, mn_log_event ev, int64_t mem_bytes) {
  mn_log_ev *e = &L->ev[ev];
  L->mem += mem_bytes; /* this operation's own bytes, beside those nested in it */
  if (e->depth <= 0 || --e->depth) return; /* begun before enable, or nested */
  /* kernels run after their launches return: wait, as PETSc's
   * -log_view_gpu_time does, or the time would be the launch's */
  if (L->wait) L->wait();
  e->s.mem_bytes += L->mem - e->mem0;
  e->s.calls++;
  e->s.time += now() - e->t0;
  e->s.messages += L->msgs - e->msgs0;
  e->s.msg_bytes += L->msg_bytes - e->bytes0;
  e->s.allreduces += L->allreduces - e->ar0;
}

void mn_log_more_calls_(mn_log *L, mn_log_event ev, int64_t calls) { L->ev[ev].s.calls += calls; }

int mn_log_enable(mn_ctx *ctx) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  if (!ctx->logst) {
    mn_log *L = calloc(1, sizeof *L);
    MN_CALL(mn_agree(ctx, L ? 0 : MN_ERR(MN_ERR_MEM, "cannot allocate the profiling log")));
    if (MPI_Comm_dup(ctx->comm, &L->comm) != MPI_SUCCESS) {
      free(L);
      return MN_ERR(MN_ERR_MPI, "MPI_Comm_dup for the profiling log failed");
    }
    L->t_start = now();
    L->wait = ctx->backend == MN_BACKEND_CUDA ? ctx->ops->sync : NULL;
    ctx->logst = L;
  }
  for (int k = 0; k < MN_LOG_NEVENTS; k++) ctx->logst->ev[k].depth = 0; /* ends seen while off */
  ctx->log = ctx->logst;
  return MN_SUCCESS;
}

int mn_log_disable(mn_ctx *ctx) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  ctx->log = NULL;
  return MN_SUCCESS;
}

int mn_log_enabled(const mn_ctx *ctx) { return ctx && ctx->log != NULL; }

int mn_log_set_view_on_destroy(mn_ctx *ctx, int on) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  if (!on) {
    if (ctx->logst) ctx->logst->view_at_destroy = 0;
    return MN_SUCCESS;
  }
  MN_CALL(mn_log_enable(ctx));
  ctx->logst->view_at_destroy = 1;
  return MN_SUCCESS;
}

int mn_log_is_flag(const char *arg) {
  return arg && (!strcmp(arg, "-log_view") || !strcmp(arg, "--log-view"));
}

int mn_log_view_from_args(mn_ctx *ctx, int argc, char **argv) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  for (int k = 1; k < argc; k++)
    if (mn_log_is_flag(argv[k])) return mn_log_set_view_on_destroy(ctx, 1);
  return MN_SUCCESS;
}

int mn_log_get(const mn_ctx *ctx, mn_log_event ev, mn_log_stats *out) {
  MN_CHECK(ctx && out, MN_ERR_ARG, "NULL context or output");
  MN_CHECK((unsigned)ev < MN_LOG_NEVENTS, MN_ERR_ARG, "unknown log event %d (0 to %d)", (int)ev,
           MN_LOG_NEVENTS - 1);
  if (ctx->logst) *out = ctx->logst->ev[ev].s;
  else memset(out, 0, sizeof *out);
  return MN_SUCCESS;
}

int mn_log_reset(mn_ctx *ctx) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  mn_log *L = ctx->logst;
  if (!L) return MN_SUCCESS;
  for (int k = 0; k < MN_LOG_NEVENTS; k++) memset(&L->ev[k].s, 0, sizeof L->ev[k].s);
  L->t_start = now();
  return MN_SUCCESS;
}

/* per kind: maxima (time, calls, allreduces) and sums (time, mem, msgs,
 * bytes), as doubles (exact below 2^53) so two reductions carry all */
enum { NMAX = 3, NSUM = 4 };
static void pack(const mn_log *L, double *mx, double *sm) {
  for (int k = 0; k < MN_LOG_NEVENTS; k++) {
    const mn_log_stats *s = &L->ev[k].s;
    mx[NMAX * k] = s->time;
    mx[NMAX * k + 1] = (double)s->calls;
    mx[NMAX * k + 2] = (double)s->allreduces;
    sm[NSUM * k] = s->time;
    sm[NSUM * k + 1] = (double)s->mem_bytes;
    sm[NSUM * k + 2] = (double)s->messages;
    sm[NSUM * k + 3] = (double)s->msg_bytes;
  }
  mx[NMAX * MN_LOG_NEVENTS] = now() - L->t_start;
}

static void unpack(const double *mx, const double *sm, int nranks, mn_log_row *rows) {
  for (int k = 0; k < MN_LOG_NEVENTS; k++) {
    mn_log_row *r = &rows[k];
    r->time_max = mx[NMAX * k];
    r->calls = (int64_t)mx[NMAX * k + 1];
    r->allreduces = (int64_t)mx[NMAX * k + 2];
    r->time = sm[NSUM * k] / nranks;
    r->mem_bytes = (int64_t)sm[NSUM * k + 1];
    r->messages = (int64_t)sm[NSUM * k + 2];
    r->msg_bytes = (int64_t)sm[NSUM * k + 3];
    r->imbalance = r->time > 0 ? r->time_max / r->time : 1.0;
  }
}

/* The reductions on the log's communicator; with wait_s > 0 give up after
 * that many seconds (*alone = 1: rows hold this rank's counters alone). */
static int reduce_rows(mn_log *L, int nranks, double wait_s, mn_log_row *rows, double *elapsed, int *alone_out) {
  enum { NX = NMAX * MN_LOG_NEVENTS + 1, NS = NSUM * MN_LOG_NEVENTS };
  /* on the heap: after a timeout MPI may still write the results, so the
   * buffers are then left allocated (as the communicator is left alone) */
  double *mx = malloc(sizeof(double) * 2 * (NX + NS)), *sm = mx + NX, *gmx = sm + NS, *gsm = gmx + NX;
  MN_CHECK(mx, MN_ERR_MEM, "cannot allocate the profiling summary");
  pack(L, mx, sm);
  int alone = 0, kept = 0;
  if (nranks > 1) {
    MPI_Request req[2];
    int rc = MPI_Iallreduce(mx, gmx, NX, MPI_DOUBLE, MPI_MAX, L->comm, &req[0]);
    if (rc == MPI_SUCCESS) rc = MPI_Iallreduce(sm, gsm, NS, MPI_DOUBLE, MPI_SUM, L->comm, &req[1]);
    if (rc == MPI_SUCCESS && wait_s <= 0) rc = MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    if (rc != MPI_SUCCESS) {
      free(mx);
      return MN_ERR(MN_ERR_MPI, "MPI_Iallreduce of the profiling log failed");
    }
    int done = wait_s <= 0;
    for (double t0 = now(); !done && now() - t0 < wait_s;) {
      MPI_Testall(2, req, &done, MPI_STATUSES_IGNORE);
      if (!done) nanosleep(&(struct timespec){0, 1000000}, NULL);
    }
    if (done) {
      memcpy(mx, gmx, sizeof(double) * NX);
      memcpy(sm, gsm, sizeof(double) * NS);
    } else {
      alone = kept = 1;
      L->comm = MPI_COMM_NULL; /* requests still pending on it: never freed */
    }
  }
  unpack(mx, sm, alone ? 1 : nranks, rows);
  *elapsed = mx[NX - 1];
  *alone_out = alone;
  if (!kept) free(mx);
  return MN_SUCCESS;
}

int mn_log_summary(mn_ctx *ctx, mn_log_row *rows) {
  MN_CHECK(ctx && rows, MN_ERR_ARG, "NULL context or rows");
  memset(rows, 0, sizeof(mn_log_row) * MN_LOG_NEVENTS);
  if (!ctx->logst) return MN_SUCCESS; /* never enabled: on no rank (enable is collective) */
  double el;
  int alone;
  MN_CALL(reduce_rows(ctx->logst, ctx->size, 0, rows, &el, &alone));
  return MN_SUCCESS;
}

static void print_table(FILE *f, const mn_log_row *rows, int nranks, double elapsed, int alone) {
  fprintf(f, "\n---------------------------------------------- maniple -log_view ----------------------------------------------\n");
  fprintf(f, "%d rank%s, %.4g s since logging started %s\n", nranks, nranks == 1 ? "" : "s", elapsed,
          alone ? "(this rank); OTHER RANKS DID NOT ANSWER (MANIPLE_LOG_VIEW_WAIT): THIS RANK'S COUNTERS ONLY"
                : "(max over ranks)");
  fprintf(f, "Times are inclusive: an SpMV's includes its ghost exchange, a stencil's its halo exchange, a solve's "
             "everything it called.\n");
  fprintf(f, "Calls: max over ranks. Time: mean over ranks of each rank's total; Max: max over ranks; Ratio: Max/Time "
             "(load imbalance).\n");
  fprintf(f, "Mem: bytes read+written by the kernels (estimate, inclusive), sum over ranks; GB/s: Mem / Max. Msgs, MsgMB: "
             "point-to-point\nsends, sum over ranks. Allred: MPI allreduces issued inside, max over ranks.\n\n");
  fprintf(f, "%-11s %9s %10s %10s %6s %10s %8s %9s %10s %8s\n", "Event", "Calls", "Time(s)", "Max(s)", "Ratio", "Mem(MB)",
          "GB/s", "Msgs", "MsgMB", "Allred");
  for (int k = 0; k < MN_LOG_NEVENTS; k++) {
    const mn_log_row *r = &rows[k];
    if (!r->calls) continue;
    double gbs = r->time_max > 0 ? (double)r->mem_bytes / r->time_max * 1e-9 : 0;
    fprintf(f, "%-11s %9lld %10.3e %10.3e %6.2f %10.3f %8.2f %9lld %10.3f %8lld\n", names[k], (long long)r->calls,
            r->time, r->time_max, r->imbalance, (double)r->mem_bytes * 1e-6, gbs, (long long)r->messages,
            (double)r->msg_bytes * 1e-6, (long long)r->allreduces);
  }
  fprintf(f, "----------------------------------------------------------------------------------------------------------------\n");
  fflush(f);
}

static int view(mn_ctx *ctx, FILE *f, double wait_s) {
  mn_log_row rows[MN_LOG_NEVENTS];
  memset(rows, 0, sizeof rows);
  double el = 0;
  int alone = 0; /* never enabled: on no rank (enable is collective), an empty table */
  if (ctx->logst) MN_CALL(reduce_rows(ctx->logst, ctx->size, wait_s, rows, &el, &alone));
  if (ctx->rank == 0 || alone) print_table(f ? f : stdout, rows, ctx->size, el, alone);
  return MN_SUCCESS;
}

int mn_log_view(mn_ctx *ctx, FILE *f) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  MN_CALL(view(ctx, f, 0));
  return MN_SUCCESS;
}

void mn_log_finish(mn_ctx *ctx) {
  mn_log *L = ctx->logst;
  if (!L) return;
  int fin = 0;
  MPI_Finalized(&fin);
  ctx->log = NULL; /* the summary's own work is not logged */
  if (L->view_at_destroy && fin) {
    /* MPI is gone: this rank's counters alone, from rank 0 */
    if (ctx->rank == 0) {
      mn_log_row rows[MN_LOG_NEVENTS];
      double mx[NMAX * MN_LOG_NEVENTS + 1], sm[NSUM * MN_LOG_NEVENTS];
      pack(L, mx, sm);
      unpack(mx, sm, 1, rows);
      fprintf(stdout, "(MPI was finalised before the context was destroyed: rank 0's counters)\n");
      print_table(stdout, rows, 1, mx[NMAX * MN_LOG_NEVENTS], 0);
    }
  } else if (L->view_at_destroy) {
    view(ctx, stdout, finish_wait());
  }
  if (!fin && L->comm != MPI_COMM_NULL) MPI_Comm_free(&L->comm);
  free(L);
  ctx->logst = NULL;
}
