/* Loops over the local blocks of work vectors. The methods' updates are
 * fused so that each vector is read and written once per iteration where
 * the algorithm allows (memory traffic is the cost of an iteration). */
#include "solver_impl.h"

#define MN_OMP_MIN 20000 /* below this, threads cost more than they save */

double mni_k_dot(int64_t n, const double *x, const double *y) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

void mni_k_copy(int64_t n, const double *x, double *y) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] = x[i];
}

void mni_k_axpy(int64_t n, double a, const double *x, double *y) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] += a * x[i];
}

void mni_k_aypx(int64_t n, double a, const double *x, double *y) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] = x[i] + a * y[i];
}

void mni_k_waxpy(int64_t n, double a, const double *x, const double *y, double *w) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) w[i] = a * x[i] + y[i];
}

void mni_k_scale(int64_t n, double a, double *x) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) x[i] *= a;
}

void mni_k_mul(int64_t n, const double *d, const double *x, double *y) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] = d[i] * x[i];
}

double mni_k_residual(int64_t n, const double *b, const double *q, double *r) {
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) {
    r[i] = b[i] - q[i];
    s += r[i] * r[i];
  }
  return s;
}

/* one loop per case, so that no loop carries a test per element */
void mni_k_cg_update(int64_t n, double a, const double *p, const double *q, double *x, double *r, const double *dinv,
                    double *z, int rr, double *out) {
  double s0 = 0, s1 = 0;
  if (dinv && rr) {
#pragma omp parallel for schedule(static) reduction(+ : s0, s1) if (n > MN_OMP_MIN)
    for (int64_t i = 0; i < n; i++) {
      x[i] += a * p[i];
      double ri = r[i] - a * q[i];
      r[i] = ri;
      z[i] = dinv[i] * ri;
      s0 += ri * z[i];
      s1 += ri * ri;
    }
  } else if (dinv) {
#pragma omp parallel for schedule(static) reduction(+ : s0) if (n > MN_OMP_MIN)
    for (int64_t i = 0; i < n; i++) {
      x[i] += a * p[i];
      double ri = r[i] - a * q[i];
      r[i] = ri;
      z[i] = dinv[i] * ri;
      s0 += ri * z[i];
    }
  } else if (rr) {
#pragma omp parallel for schedule(static) reduction(+ : s1) if (n > MN_OMP_MIN)
    for (int64_t i = 0; i < n; i++) {
      x[i] += a * p[i];
      double ri = r[i] - a * q[i];
      r[i] = ri;
      s1 += ri * ri;
    }
  } else {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
    for (int64_t i = 0; i < n; i++) {
      x[i] += a * p[i];
      r[i] -= a * q[i];
    }
  }
  out[0] = s0;
  out[1] = s1;
}

void mni_k_cg1_update(int64_t n, double a, double beta, double *u, const double *w, double *p, double *s, double *x,
                     double *r, const double *dinv, int rr, double *out) {
  double s0 = 0, s1 = 0;
  if (dinv) {
#pragma omp parallel for schedule(static) reduction(+ : s0, s1) if (n > MN_OMP_MIN)
    for (int64_t i = 0; i < n; i++) {
      double pi = u[i] + beta * p[i], si = w[i] + beta * s[i];
      p[i] = pi;
      s[i] = si;
      x[i] += a * pi;
      double ri = r[i] - a * si;
      r[i] = ri;
      u[i] = dinv[i] * ri;
      s0 += ri * u[i];
      s1 += ri * ri;
    }
  } else {
#pragma omp parallel for schedule(static) reduction(+ : s1) if (n > MN_OMP_MIN)
    for (int64_t i = 0; i < n; i++) {
      double pi = u[i] + beta * p[i], si = w[i] + beta * s[i];
      p[i] = pi;
      s[i] = si;
      x[i] += a * pi;
      double ri = r[i] - a * si;
      r[i] = ri;
      s1 += ri * ri;
    }
  }
  out[0] = s0;
  out[1] = rr ? s1 : 0;
}

void mni_k_axpby(int64_t n, double a, const double *x, double b, const double *y, double *w) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) w[i] = a * x[i] + b * y[i];
}

void mni_k_bicg_p(int64_t n, double beta, double omega, const double *r, const double *v, double *p) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) p[i] = r[i] + beta * (p[i] - omega * v[i]);
}

void mni_k_combine(int64_t n, int k, const double *const *v, const double *y, double *x) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < k; j++) s += y[j] * v[j][i];
    x[i] += s;
  }
}

void mni_k_minres_w(int64_t n, double e, double d, double g, double phi, const double *v, const double *w1,
                   const double *w2, double *w, double *x) {
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) {
    double wi = (v[i] - e * w1[i] - d * w2[i]) * g;
    w[i] = wi;
    x[i] += phi * wi;
  }
}
