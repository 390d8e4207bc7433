/* PETSc-style option strings: "-solver cg -pc jacobi -rtol 1e-8 ...".
 * Parsed into a copy of the settings, which replace the solver's only when
 * the whole string is valid on every rank and gives the same settings
 * everywhere. */
#include "solver_impl.h"
#include "spmd.h"
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
  const char *p;
  int len;
} tok;

static int next(const char **s, tok *t) {
  const char *p = *s;
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  const char *q = p;
  while (*q && *q != ' ' && *q != '\t' && *q != '\n' && *q != '\r') q++;
  *s = q;
  t->p = p;
  t->len = (int)(q - p);
  return t->len > 0;
}

static int is(const tok *t, const char *w) { return (int)strlen(w) == t->len && !strncmp(t->p, w, (size_t)t->len); }

static int value(const char **s, const tok *opt, tok *v, char *buf) {
  MN_CHECK(next(s, v), MN_ERR_ARG, "option %.*s needs a value", opt->len, opt->p);
  MN_CHECK(v->len < 64, MN_ERR_ARG, "option %.*s: value '%.40s...' is too long", opt->len, opt->p, v->p);
  memcpy(buf, v->p, (size_t)v->len);
  buf[v->len] = 0;
  return MN_SUCCESS;
}

/* the whole token must be the number */
static int real(const char **s, const tok *opt, double lo, double *out) {
  tok v;
  char buf[64], *end;
  MN_CALL(value(s, opt, &v, buf));
  errno = 0;
  double x = strtod(buf, &end);
  MN_CHECK(end != buf && !*end && !errno && isfinite(x), MN_ERR_ARG, "option %.*s: '%s' is not a finite number",
           opt->len, opt->p, buf);
  MN_CHECK(x >= lo, MN_ERR_ARG, "option %.*s: %s must be >= %g", opt->len, opt->p, buf, lo);
  *out = x;
  return MN_SUCCESS;
}

static int integer(const char **s, const tok *opt, long long lo, long long hi, long long *out) {
  tok v;
  char buf[64], *end;
  MN_CALL(value(s, opt, &v, buf));
  errno = 0;
  long long x = strtoll(buf, &end, 10);
  MN_CHECK(end != buf && !*end && !errno, MN_ERR_ARG, "option %.*s: '%s' is not an integer", opt->len, opt->p, buf);
  MN_CHECK(x >= lo && x <= hi, MN_ERR_ARG, "option %.*s: %s is outside [%lld, %lld]", opt->len, opt->p, buf, lo, hi);
  *out = x;
  return MN_SUCCESS;
}

static int name(const char **s, const tok *opt, const char *const *names, int n, int *out) {
  tok v;
  char buf[64];
  MN_CALL(value(s, opt, &v, buf));
  for (int i = 0; i < n; i++)
    if (!strcmp(buf, names[i])) {
      *out = i;
      return MN_SUCCESS;
    }
  char list[256] = "";
  for (int i = 0; i < n; i++) {
    strcat(list, i ? ", " : "");
    strcat(list, names[i]);
  }
  return MN_ERR(MN_ERR_ARG, "option %.*s: unknown value '%s' (one of %s)", opt->len, opt->p, buf, list);
}

static int parse(mn_solver *t, const char *str) {
  const char *ksp[16];
  int nksp = mni_sv_method_names(ksp, 16);
  static const char *const pc[] = {"none", "jacobi", "bjacobi_ilu0", "bjacobi_sgs", "shell", "matrix"};
  const char *s = str ? str : "";
  tok o;
  while (next(&s, &o)) {
    int k = 0;
    long long i = 0;
    if (is(&o, "-solver")) {
      MN_CALL(name(&s, &o, ksp, nksp, &k));
      t->ksp = (mn_ksp_type)k;
    } else if (is(&o, "-pc")) {
      MN_CALL(name(&s, &o, pc, 6, &k));
      MN_CHECK(k != MN_PC_SHELL || t->pc_fn, MN_ERR_ARG, "option -pc shell: no function given (mn_solver_set_pc_shell)");
      MN_CHECK(k != MN_PC_MATRIX || t->pc_mat, MN_ERR_ARG,
               "option -pc matrix: no matrix given (mn_solver_set_pc_matrix)");
      t->pct = (mn_pc_type)k;
    } else if (is(&o, "-rtol")) MN_CALL(real(&s, &o, 0, &t->rtol));
    else if (is(&o, "-atol")) MN_CALL(real(&s, &o, 0, &t->atol));
    else if (is(&o, "-omega")) {
      MN_CALL(real(&s, &o, 0, &t->omega));
      MN_CHECK(t->omega > 0, MN_ERR_ARG, "option -omega: must be > 0");
    } else if (is(&o, "-maxit")) {
      MN_CALL(integer(&s, &o, 0, INT64_MAX, &i));
      t->maxit = i;
    } else if (is(&o, "-restart")) {
      MN_CALL(integer(&s, &o, 1, 10000, &i));
      t->restart = (int)i;
    } else if (is(&o, "-skip_test")) t->skip = 1;
    else return MN_ERR(MN_ERR_ARG, "unknown option '%.*s' (known: -solver -pc -rtol -atol -maxit -restart -omega "
                       "-skip_test)", o.len > 60 ? 60 : o.len, o.p);
  }
  return MN_SUCCESS;
}

int mn_solver_set_options(mn_solver *s, const char *options) {
  MN_CHECK(s, MN_ERR_ARG, "NULL solver");
  MN_SPMD(s ? s->ctx : NULL, "mn_solver_set_options", mn_spmd_str(S, "options", options));
  mn_solver t = *s;
  MN_CALL(mn_agree(s->ctx, parse(&t, options)));
  int h = mni_sv_settings_hash(&t), v[2] = {h, -h}, all[2];
  mn_allreduce(s->ctx, v, all, 2, MPI_INT, MPI_MIN);
  MN_CHECK(all[0] == -all[1], MN_ERR_ARG, "the options give settings that differ between ranks");
  *s = t;
  return MN_SUCCESS;
}
