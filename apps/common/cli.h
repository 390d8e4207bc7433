/* Start-up, command-line options and error reports shared by the C apps
 * (options: heat, cavity): --flag value or --flag=value, numbers parsed whole, and bad
 * input reported by every rank (each rank parses the same arguments and
 * meets the same error, so no rank is left waiting in a collective). */
#ifndef APP_CLI_H
#define APP_CLI_H

#include <maniple/maniple.h>

typedef enum { APP_INT, APP_REAL, APP_STR, APP_SET } app_kind;

typedef struct {
  const char *name; /* "--nx" */
  app_kind kind;    /* APP_INT: long *, APP_REAL: double *, APP_STR: const char **, APP_SET: int * = 1 */
  void *dst;
} app_opt;

/* MPI (funneled threads) and a context on MPI_COMM_WORLD with the backend
 * MANIPLE_BACKEND names; on failure every rank prints "prog: cannot create
 * a maniple context: <message>" and the job aborts with status 2. */
mn_ctx *app_start(int *argc, char ***argv, const char *prog);

/* MN_SUCCESS, MN_ERR_ARG (unknown flag, missing or malformed value; the
 * message names it), or -1 for --help / -h. */
int app_parse(int argc, char **argv, const app_opt *opts, int nopts);

/* -log_view / --log-view (every app): the profiling table at exit. */
#define APP_LOG_VIEW_HELP "  -log_view, --log-view: print the profiling summary at exit (docs/profiling.md)\n"

/* MN_ERR_ARG when value, a sum over every element of a field, is NaN or
 * Inf: the solution blew up (by step `step`; the parameters, --dt most
 * often, are unstable). Every rank holds the same reduced value, so every
 * rank returns the same. */
int app_finite(const char *field, double value, long step);

/* Every rank prints "prog: error: <message>" (for bad input only the first
 * line, without the code name; otherwise the whole trace). */
void app_report(const char *prog, mn_ctx *ctx, int err);

#endif
