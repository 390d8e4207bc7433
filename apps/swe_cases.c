/* swe's cases (as CASES in apps/swe.py): domains, beds, initial states and
 * boundary strings. The formulas are written as in the Python so that both
 * give the same bits. */
#include "swe.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

static const swe_case cases[] = {
  {"dambreak1d", 10.0, 0.0, 200, 2, 0.5, "outflow,outflow,wall,wall", 1.0, 0.5, SWE_CHECK_DAMBREAK},
  {"ritter", 10.0, 0.0, 200, 2, 0.5, "outflow,outflow,wall,wall", 1.0, 0.0, SWE_CHECK_DAMBREAK},
  {"lake", 1.0, 1.0, 50, 50, 0.5, "wall", 0.0, 0.0, SWE_CHECK_LAKE},
  {"bump", 25.0, 0.0, 100, 2, 60.0, "inflow:4.42,outflow:2,wall,wall", 0.0, 0.0, SWE_CHECK_BUMP},
  {"mass", 1.0, 1.0, 64, 64, 0.25, "wall", 0.0, 0.0, SWE_CHECK_MASS},
  {"dambreak2d", 2.0, 2.0, 100, 100, 0.2, "wall", 2.0, 0.5, SWE_CHECK_MASS},
};
#define NCASES (sizeof cases / sizeof cases[0])

const swe_case *swe_case_find(const char *name) {
  for (size_t k = 0; k < NCASES; k++)
    if (!strcmp(cases[k].name, name)) return &cases[k];
  return NULL;
}

const char *swe_case_names(void) { return "dambreak1d, ritter, lake, bump, mass, dambreak2d"; }

static double mx(double a, double b) { return a >= b ? a : b; } /* numpy.maximum without NaN */

double swe_bed(const swe_case *c, double x, double y) {
  if (!strcmp(c->name, "bump")) /* Delestre's (SWASHES) bump */
    return (x > 8.0 && x < 12.0) ? 0.2 - 0.05 * (x - 10.0) * (x - 10.0) : 0.0;
  if (!strcmp(c->name, "lake") || !strcmp(c->name, "mass")) { /* a mound below the surface */
    double r2 = ((x - 0.5) * (x - 0.5) + (y - 0.5) * (y - 0.5)) / 0.09;
    double m = mx(1.0 - r2, 0.0);
    return 0.5 * m * m;
  }
  return 0.0;
}

void swe_initial(const swe_case *c, double hl, double hr, double x, double y, double bc, double *w,
                 double *hu, double *hv) {
  *hu = *hv = 0.0;
  if (c->check == SWE_CHECK_DAMBREAK) {
    *w = (x < 5.0 ? hl : hr) + bc;
  } else if (!strcmp(c->name, "dambreak2d")) {
    double r2 = (x - 1.0) * (x - 1.0) + (y - 1.0) * (y - 1.0);
    *w = (r2 < 0.25 * 0.25 ? hl : hr) + bc;
  } else if (!strcmp(c->name, "lake")) {
    *w = mx(bc, 1.0);
  } else if (!strcmp(c->name, "bump")) { /* w = 2 and the inflow's discharge everywhere */
    *w = mx(bc, 2.0);
    *hu = 4.42;
  } else { /* mass: a hump of water over the mound */
    double r2 = ((x - 0.3) * (x - 0.3) + (y - 0.6) * (y - 0.6)) / 0.04;
    double m = mx(1.0 - r2, 0.0);
    *w = 1.0 + 0.1 * m * m;
  }
}

static const char *const side_names[4] = {"west", "east", "south", "north"};

static int parse_one(const char *p, size_t len, int side, swe_bc *b) {
  char buf[64];
  MN_CHECK(len < sizeof buf, MN_ERR_ARG, "--bc: %s boundary is too long", side_names[side]);
  memcpy(buf, p, len);
  buf[len] = 0;
  char *val = strchr(buf, ':');
  if (val) *val++ = 0;
  static const char *const kinds[4] = {"periodic", "wall", "outflow", "inflow"};
  int k = 0;
  while (k < 4 && strcmp(buf, kinds[k])) k++;
  MN_CHECK(k < 4, MN_ERR_ARG, "--bc: %s boundary '%s' is not periodic, wall, outflow[:h] or inflow:q",
           side_names[side], buf);
  b->kind = (swe_bc_kind)k;
  b->has_value = val != NULL;
  b->value = 0.0;
  MN_CHECK(!(b->kind == SWE_INFLOW && !val), MN_ERR_ARG, "--bc: %s inflow needs its discharge, as inflow:4.42",
           side_names[side]);
  MN_CHECK(!(val && (b->kind == SWE_PERIODIC || b->kind == SWE_WALL)), MN_ERR_ARG,
           "--bc: %s boundary '%s:%s' takes no value", side_names[side], buf, val);
  if (val) {
    char *end;
    b->value = strtod(val, &end);
    MN_CHECK(*val && !*end, MN_ERR_ARG, "--bc: %s boundary value '%s' is not a number", side_names[side], val);
    MN_CHECK(!(b->kind == SWE_OUTFLOW && !(b->value >= 0)), MN_ERR_ARG, "--bc: %s outflow depth %g is negative",
             side_names[side], b->value);
  }
  return MN_SUCCESS;
}

int swe_parse_bc(const char *text, swe_bc bc[4]) {
  const char *p[4];
  size_t len[4];
  int n = 0;
  const char *s = text;
  for (;;) {
    const char *e = strchr(s, ',');
    size_t l = e ? (size_t)(e - s) : strlen(s);
    MN_CHECK(n < 4, MN_ERR_ARG, "--bc '%s': give one kind or four (west,east,south,north)", text);
    p[n] = s;
    len[n++] = l;
    if (!e) break;
    s = e + 1;
  }
  MN_CHECK(n == 1 || n == 4, MN_ERR_ARG, "--bc '%s': give one kind or four (west,east,south,north)", text);
  for (int k = 0; k < 4; k++) MN_CALL(parse_one(p[n == 1 ? 0 : k], len[n == 1 ? 0 : k], k, &bc[k]));
  for (int a = 0; a < 4; a += 2)
    MN_CHECK((bc[a].kind == SWE_PERIODIC) == (bc[a + 1].kind == SWE_PERIODIC), MN_ERR_ARG,
             "--bc: periodic along %s needs both %s and %s periodic", a ? "y" : "x", side_names[a],
             side_names[a + 1]);
  return MN_SUCCESS;
}
