/* maniple's profiling log, as PETSc's -log_view: per kind of operation, the
 * calls, time, memory traffic, messages and allreduces of a context, and a
 * table of them over all ranks. Off by default; when off each logged
 * operation costs one branch. MANIPLE_LOG_VIEW=1 at mn_ctx_create turns it
 * on and prints the table when the context is destroyed. */
#ifndef MANIPLE_MN_LOG_H
#define MANIPLE_MN_LOG_H

#include "mn_core.h"
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of operation. Times are inclusive: an SpMV's includes its ghost
 * exchange (plan begin and end), a solve's everything it called. A kind
 * entered again inside itself counts once, at the outermost level. */
typedef enum {
  MN_LOG_EVAL = 0,     /* element-wise kernel: one fused expression evaluation */
  MN_LOG_REDUCE,       /* reduction to a scalar or along an axis */
  MN_LOG_ALLREDUCE,    /* MPI_Allreduce (or the rank-ordered allgather a reduction uses) */
  MN_LOG_PLAN_BEGIN,   /* communication plan begin: pack and post the messages */
  MN_LOG_PLAN_END,     /* communication plan end: wait and unpack */
  MN_LOG_HALO,         /* mn_array_halo_exchange */
  MN_LOG_STENCIL,      /* stencil apply (and Jacobi sweeps), with its halo exchange */
  MN_LOG_SPMV,         /* sparse matrix-vector product, with its ghost exchange */
  MN_LOG_SOLVE,        /* mn_solver_solve, whole */
  MN_LOG_SV_SETUP,     /* solver: preconditioner set-up */
  MN_LOG_SV_OP,        /* solver: operator apply */
  MN_LOG_SV_PC,        /* solver: preconditioner apply (Jacobi fused into updates is not one) */
  MN_LOG_SV_DOT,       /* solver: dot products and norms summed over ranks */
  MN_LOG_SV_UPDATE,    /* solver: vector updates (axpy and fused variants) */
  MN_LOG_BCAST,        /* mn_ctx_bcast: bytes from one rank to all (front ends' own transfers) */
  MN_LOG_H2D,          /* copy of an array from host to device (mem_bytes: its bytes) */
  MN_LOG_D2H,          /* copy of an array from device to host */
  MN_LOG_NEVENTS
} mn_log_event;

/* Counters of one kind on one rank. */
typedef struct {
  int64_t calls;
  double time;         /* seconds, inclusive */
  int64_t mem_bytes;   /* bytes the kernels read and wrote (an estimate, inclusive) */
  int64_t messages;    /* point-to-point messages sent */
  int64_t msg_bytes;   /* their bytes */
  int64_t allreduces;  /* allreduces issued inside */
} mn_log_stats;

/* One kind over all ranks, as the table shows it. */
typedef struct {
  int64_t calls;       /* max over ranks */
  double time;         /* mean over ranks of each rank's total */
  double time_max;     /* max over ranks */
  double imbalance;    /* time_max / time (1 when time is 0) */
  int64_t mem_bytes;   /* sum over ranks */
  int64_t messages;    /* sum over ranks */
  int64_t msg_bytes;   /* sum over ranks */
  int64_t allreduces;  /* max over ranks */
} mn_log_row;

MN_EXTERN const char *mn_log_event_name(mn_log_event ev);
/* Start recording (collective: the summary gets a communicator of its own,
 * so it can never be matched with the library's messages). */
MN_EXTERN int mn_log_enable(mn_ctx *ctx);
/* Stop recording; the counters are kept. */
MN_EXTERN int mn_log_disable(mn_ctx *ctx);
MN_EXTERN int mn_log_enabled(const mn_ctx *ctx);
/* on = 1: enable, and print the table to stdout when the context is
 * destroyed (what MANIPLE_LOG_VIEW=1 and the apps' -log_view do);
 * collective. on = 0: no table at destroy (a program that fails on some
 * ranks only; local). */
MN_EXTERN int mn_log_set_view_on_destroy(mn_ctx *ctx, int on);
/* mn_log_set_view_on_destroy(ctx, 1) when argv holds -log_view or --log-view (the
 * flag of the C apps; a program's own parser should skip it, see
 * mn_log_is_flag). Collective: every rank passes the same arguments. */
MN_EXTERN int mn_log_view_from_args(mn_ctx *ctx, int argc, char **argv);
MN_EXTERN int mn_log_is_flag(const char *arg);
/* This rank's counters of one kind (zero when logging was never on). */
MN_EXTERN int mn_log_get(const mn_ctx *ctx, mn_log_event ev, mn_log_stats *out);
/* Zero every counter (this rank). */
MN_EXTERN int mn_log_reset(mn_ctx *ctx);
/* Every kind over all ranks (collective; rows has MN_LOG_NEVENTS). */
MN_EXTERN int mn_log_summary(mn_ctx *ctx, mn_log_row *rows);
/* The table, printed by rank 0 (collective). */
MN_EXTERN int mn_log_view(mn_ctx *ctx, FILE *f);

#ifdef __cplusplus
}
#endif
#endif
