/* Option parsing and error reports of the C apps (see cli.h). */
#include "cli.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int bounded(const app_opt *o, double x) {
  switch (o->bound) {
  case APP_NONNEG: return x >= 0;
  case APP_POS: return x > 0;
  case APP_UNIT: return x > 0 && x < 1;
  default: return 1;
  }
}

static const char *bound_text(const app_opt *o) {
  switch (o->bound) {
  case APP_NONNEG: return "is negative";
  case APP_POS: return o->kind == APP_INT ? "must be at least 1" : "must be positive";
  default: return "must be in (0, 1)";
  }
}

/* the index of v in "a|b|c", or -1 */
static int choice(const char *choices, const char *v) {
  size_t n = strlen(v);
  for (int k = 0; *choices; k++) {
    size_t len = strcspn(choices, "|");
    if (len == n && !strncmp(choices, v, n)) return k;
    choices += len + (choices[len] == '|');
  }
  return -1;
}

/* "a, b or c" from "a|b|c" */
static void choice_list(const char *choices, char *buf, size_t size) {
  size_t used = 0;
  buf[0] = 0;
  while (*choices && used < size) {
    size_t len = strcspn(choices, "|");
    const char *sep = !used ? "" : strchr(choices, '|') ? ", " : " or ";
    used += (size_t)snprintf(buf + used, size - used, "%s%.*s", sep, (int)len, choices);
    choices += len + (choices[len] == '|');
  }
}

static int set(const app_opt *o, const char *v) {
  char *end, list[256];
  MN_CHECK(v, MN_ERR_ARG, "%s needs a value", o->name);
  switch (o->kind) {
  case APP_INT: {
    long x = strtol(v, &end, 10);
    MN_CHECK(*v && !*end, MN_ERR_ARG, "%s '%s' is not an integer", o->name, v);
    MN_CHECK(bounded(o, (double)x), MN_ERR_ARG, "%s %ld %s", o->name, x, bound_text(o));
    *(long *)o->dst = x;
    break;
  }
  case APP_REAL: {
    double x = strtod(v, &end);
    MN_CHECK(*v && !*end, MN_ERR_ARG, "%s '%s' is not a number", o->name, v);
    MN_CHECK(bounded(o, x), MN_ERR_ARG, "%s %g %s", o->name, x, bound_text(o));
    *(double *)o->dst = x;
    break;
  }
  case APP_CHOICE: {
    int k = choice(o->choices, v);
    choice_list(o->choices, list, sizeof list);
    MN_CHECK(k >= 0, MN_ERR_ARG, "%s '%s': %s", o->name, v, list);
    *(int *)o->dst = k;
    break;
  }
  default:
    *(const char **)o->dst = v;
  }
  return MN_SUCCESS;
}

int app_parse(int argc, char **argv, const app_opt *opts, int nopts) {
  for (int k = 1; k < argc; k++) {
    if (!strcmp(argv[k], "--help") || !strcmp(argv[k], "-h")) return -1;
    if (mn_log_is_flag(argv[k])) continue; /* mn_log_view_from_args's */
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

int app_scheme(const char *text, int *scheme) {
  static const char *names[] = {"auto", "loops", "exprs"};
  for (int k = 0; k < 3; k++)
    if (!strcmp(text, names[k])) {
      *scheme = k;
      return MN_SUCCESS;
    }
  return MN_ERR(MN_ERR_ARG, "--scheme '%s' is not one of auto, loops, exprs", text);
}

int app_finite(const char *field, double value, long step) {
  MN_CHECK(isfinite(value), MN_ERR_ARG,
           "the solution blew up: %s holds NaN or Inf after step %ld (unstable parameters: a smaller --dt?)", field,
           step);
  return MN_SUCCESS;
}

void app_report(const char *prog, mn_ctx *ctx, int input) {
  const char *msg = mn_ctx_errmsg(ctx), *colon = strstr(msg, ": ");
  int len = input ? (int)strcspn(msg, "\n") : (int)strlen(msg);
  if (input && colon && colon < msg + len) { /* drop "MN_ERR_ARG: " */
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
