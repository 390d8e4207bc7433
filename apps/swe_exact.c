/* Reference solutions for swe's checks (as apps/swe_exact.py): Stoker's and
 * Ritter's dam breaks on a flat bed, and the Bernoulli steady state over a
 * bump. Per point and serial: every rank evaluates its own cells. */
#include "swe.h"
#include <math.h>

/* Depth between rarefaction and shock: the root in (hr, hl) of
 * 2 (cl - cm) = (hm - hr) sqrt(g (hm + hr) / (2 hm hr)), by bisection. */
static double stoker_middle(double hl, double hr) {
  const double g = SWE_G, cl = sqrt(g * hl);
  double lo = hr, hi = hl;
  for (int k = 0; k < 200; k++) {
    double m = 0.5 * (lo + hi);
    double f = 2.0 * (cl - sqrt(g * m)) - (m - hr) * sqrt(g * (m + hr) / (2.0 * m * hr));
    if (f > 0) lo = m;
    else hi = m;
  }
  return 0.5 * (lo + hi);
}

double swe_dambreak_depth(double x, double t, double x0, double hl, double hr) {
  const double g = SWE_G, cl = sqrt(g * hl), xi = (x - x0) / t;
  double fan = (2.0 * cl - xi) * (2.0 * cl - xi) / (9.0 * g);
  if (xi < -cl) return hl;
  if (hr == 0.0) return xi >= 2.0 * cl ? 0.0 : fan; /* Ritter: dry front at 2 cl */
  double hm = stoker_middle(hl, hr), cm = sqrt(g * hm), um = 2.0 * (cl - cm);
  double s = hm * um / (hm - hr); /* shock speed from mass balance */
  if (xi >= s) return hr;
  if (xi >= um - cm) return hm;
  return fan;
}

double swe_bernoulli_depth(double b, double q, double h_out) {
  const double g = SWE_G, energy = q * q / (2.0 * g * h_out * h_out) + h_out;
  double h = h_out; /* Newton from the subcritical side */
  for (int k = 0; k < 100; k++) {
    double f = q * q / (2.0 * g * h * h) + h + b - energy;
    double df = 1.0 - q * q / (g * h * h * h);
    h -= f / df;
  }
  return h;
}
