/* Option parsing and error reports of the C apps (see cli.h). */
#include "cli.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int set(const app_opt *o, const char *v) {
  char *end;
  MN_CHECK(v, MN_ERR_ARG, "%s needs a value", o->name);
  switch (o->kind) {
  case APP_INT:
    *(long *)o->dst = strtol(v, &end, 10);
    MN_CHECK(*v && !*end, MN_ERR_ARG, "%s '%s' is not an integer", o->name, v);
    break;
  case APP_REAL:
    *(double *)o->dst = strtod(v, &end);
    MN_CHECK(*v && !*end, MN_ERR_ARG, "%s '%s' is not a number", o->name, v);
    break;
  default:
    *(const char **)o->dst = v;
  }
  return MN_SUCCESS;
}

int app_parse(int argc, char **argv, const app_opt *opts, int nopts) {
  for (int k = 1; k < argc; k++) {
    if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) return -1;
    if (mn_log_is_flag(argv[k])) continue; /* app_log_view's */
    const char *eq = strchr(argv[k], '=');
    size_t len = eq ? (size_t)(eq - argv[k]) : strlen(argv[k]);
    const app_opt *o = NULL;
    for (int q = 0; q < nopts && !o; q++)
      if (strlen(opts[q].name) == len && !strncmp(opts[q].name, argv[k], len)) o = &opts[q];
    MN_CHECK(o, MN_ERR_ARG, "unknown option '%.*s' (--help lists them)", (int)len, argv[k]);
    if (o->kind == APP_SET) {
      MN_CHECK(!eq, MN_ERR_ARG, "%s takes no value", o->name);
      *(int *)o->dst = 1;
      continue;
    }
    MN_CALL(set(o, eq ? eq + 1 : (k + 1 < argc ? argv[++k] : NULL)));
  }
  return MN_SUCCESS;
}

int app_finite(const char *field, double value, long step) {
  MN_CHECK(isfinite(value), MN_ERR_ARG,
           "the solution blew up: %s holds NaN or Inf after step %ld (unstable parameters: a smaller --dt?)", field,
           step);
  return MN_SUCCESS;
}

void app_report(const char *prog, mn_ctx *ctx, int err) {
  const char *msg = mn_ctx_errmsg(ctx), *colon = strstr(msg, ": ");
  int len = err == MN_ERR_ARG ? (int)strcspn(msg, "\n") : (int)strlen(msg);
  if (err == MN_ERR_ARG && colon && colon < msg + len) { /* drop "MN_ERR_ARG: " */
    len -= (int)(colon + 2 - msg);
    msg = colon + 2;
  }
  fprintf(stderr, "%s: error: %.*s\n", prog, len, msg);
  fflush(stderr);
}

mn_ctx *app_start(int *argc, char ***argv, const char *prog) {
  int provided;
  MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided);
  mn_ctx *ctx = NULL;
  if (mn_ctx_create(MPI_COMM_WORLD, MN_BACKEND_DEFAULT, &ctx)) {
    fprintf(stderr, "%s: cannot create a maniple context: %s\n", prog, mn_ctx_errmsg(NULL));
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return ctx;
}
