/* Start-up, command-line options and error reports shared by the C apps
 * (heat, cavity, poisson, swe, laplace_image): --flag value or --flag=value,
 * numbers parsed whole and checked against their bounds, and bad input
 * reported on every rank or on rank 0 as the app chooses (each rank parses
 * the same arguments and meets the same error, so no rank is left waiting
 * in a collective). */
#ifndef APP_CLI_H
#define APP_CLI_H

#include <maniple/maniple.h>

typedef enum {
  APP_INT,    /* long * */
  APP_REAL,   /* double * */
  APP_STR,    /* const char ** */
  APP_SET,    /* int *, set to 1; takes no value */
  APP_CHOICE, /* int *, the index of the value in `choices` */
} app_kind;

/* Checked when the flag is given (defaults are the app's to choose), with
 * a message naming the flag and the value. */
typedef enum {
  APP_ANY,
  APP_NONNEG, /* "--n -1 is negative" */
  APP_POS,    /* APP_INT: "--every 0 must be at least 1"; APP_REAL: "--dt 0 must be positive" */
  APP_UNIT,   /* APP_REAL: "--rtol 2 must be in (0, 1)" */
} app_bound;

typedef struct {
  const char *name; /* "--nx" */
  app_kind kind;
  void *dst;
  app_bound bound;     /* APP_INT and APP_REAL */
  const char *choices; /* APP_CHOICE: "none|jacobi" ("--pc 'ilu': none or jacobi" otherwise) */
} app_opt;

/* rows of an option table (designated, so the fields left out are zero) */
#define APP_OPT(flag, k, d) {.name = (flag), .kind = (k), .dst = (d)}
#define APP_BOUNDED(flag, k, d, b) {.name = (flag), .kind = (k), .dst = (d), .bound = (b)}
#define APP_CHOOSE(flag, d, list) {.name = (flag), .kind = APP_CHOICE, .dst = (d), .choices = (list)}

/* MPI (funneled threads) and a context on MPI_COMM_WORLD with the backend
 * MANIPLE_BACKEND names; on failure every rank prints "prog: cannot create
 * a maniple context: <message>" and the job aborts with status 2. */
mn_ctx *app_start(int *argc, char ***argv, const char *prog);

/* MN_SUCCESS, MN_ERR_ARG (unknown flag, missing, malformed or out-of-bounds
 * value; the message names it), or -1 for --help / -h. -log_view and
 * --log-view are left to mn_log_view_from_args. */
int app_parse(int argc, char **argv, const app_opt *opts, int nopts);

/* -log_view / --log-view (every app): the profiling table at exit. */
#define APP_LOG_VIEW_HELP "  -log_view, --log-view: print the profiling summary at exit (docs/profiling.md)\n"

/* --scheme's value: 0 auto, 1 loops, 2 exprs (the apps' enums), else
 * MN_ERR_ARG naming it. */
int app_scheme(const char *text, int *scheme);

/* MN_ERR_ARG when value, a sum over every element of a field, is NaN or
 * Inf: the solution blew up (by step `step`; the parameters, --dt most
 * often, are unstable). Every rank holds the same reduced value, so every
 * rank returns the same. */
int app_finite(const char *field, double value, long step);

/* This rank prints "prog: error: <message>": for bad input (`input`
 * nonzero: a flag's value, a file the user named) only the message's first
 * line, without the code name; otherwise the whole trace. */
void app_report(const char *prog, mn_ctx *ctx, int input);

#endif
