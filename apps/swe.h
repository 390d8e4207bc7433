/* swe: 2-d shallow-water equations, Kurganov-Petrova central-upwind scheme
 * over maniple arrays with a halo of 2 (the C twin of apps/swe.py: the same
 * cases, the same arithmetic in the same order, so the two agree to
 * round-off). */
#ifndef SWE_H
#define SWE_H

#include <maniple/maniple.h>

#define SWE_G 9.81

enum { SWE_WEST, SWE_EAST, SWE_SOUTH, SWE_NORTH };
typedef enum { SWE_PERIODIC, SWE_WALL, SWE_OUTFLOW, SWE_INFLOW } swe_bc_kind;
typedef struct {
  swe_bc_kind kind;
  int has_value; /* outflow's depth (optional), inflow's discharge */
  double value;
} swe_bc;

typedef enum { SWE_CHECK_DAMBREAK, SWE_CHECK_LAKE, SWE_CHECK_BUMP, SWE_CHECK_MASS } swe_check_kind;

/* A case: domain (ly 0 = a channel of square cells), default grid, time and
 * boundaries, dam-break depths, and its check. */
typedef struct {
  const char *name;
  double lx, ly;
  int64_t nx, ny;
  double t_end;
  const char *bc;
  double hl, hr;
  swe_check_kind check;
} swe_case;

const swe_case *swe_case_find(const char *name);
const char *swe_case_names(void);
/* Bed elevation at a point, and the initial state (w, hu, hv) of a cell
 * centred at (x, y) over a cell bed bc. */
double swe_bed(const swe_case *c, double x, double y);
void swe_initial(const swe_case *c, double hl, double hr, double x, double y, double bc, double *w,
                 double *hu, double *hv);
/* "KIND" or "W,E,S,N" with KIND periodic, wall, outflow[:h], inflow:q. */
int swe_parse_bc(const char *text, swe_bc bc[4]);

/* Reference solutions (serial, per point). */
double swe_dambreak_depth(double x, double t, double x0, double hl, double hr);
double swe_bernoulli_depth(double b, double q, double h_out);

typedef struct swe_s swe;
/* How the scheme runs: loops over each rank's block (the host's), or fused
 * expressions over slices (which run on a device backend's device); AUTO
 * picks by the context's backend. Both give the same bits. */
enum { SWE_AUTO = 0, SWE_LOOPS, SWE_EXPRS };

typedef struct {
  const char *case_name;
  int64_t nx, ny;     /* -1: the case's */
  double theta;
  const char *bc;     /* NULL: the case's */
  double hl, hr;      /* NAN: the case's */
  int scheme;         /* SWE_AUTO, SWE_LOOPS or SWE_EXPRS */
} swe_opts;

int swe_create(mn_ctx *ctx, const swe_opts *o, swe **s);
int swe_destroy(swe **s);
/* One SSP-RK2 step: dt <= 0 picks cfl * the stable limit; a larger given dt
 * is an error. t_end > 0 shortens the last step. */
int swe_step(swe *s, double cfl, double dt, double t_end, double *taken);
double swe_time(const swe *s);
long swe_steps(const swe *s);
int64_t swe_nx(const swe *s);
int64_t swe_ny(const swe *s);
/* Total water volume (a global sum), and the initial one. */
int swe_mass(swe *s, double *m);
double swe_mass0(const swe *s);
/* The case's check: the measured error, its tolerance, a label, and (bump)
 * the discharge error. */
typedef struct {
  char name[96];
  double error, tol, error_q;
  int ok;
} swe_result;
int swe_check(swe *s, swe_result *r);
/* h (cells' depth) as a new maniple array of shape (ny, nx); hu, hv. */
int swe_depth(swe *s, mn_array **h);
mn_array *swe_hu(swe *s);
mn_array *swe_hv(swe *s);
/* 1 when s runs the scheme as expressions */
int swe_exprs(const swe *s);

#endif
