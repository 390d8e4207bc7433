/* Loops over the local blocks of work vectors. The methods' updates are
 * fused so that each vector is read and written once per iteration where
 * the algorithm allows (memory traffic is the cost of an iteration). */
#include "solver_impl.h"
#include "kernels/sv.h"

#define MN_OMP_MIN 20000 /* below this, threads cost more than they save */

double mni_k_dot(mn_ctx *dv, int64_t n, const double *x, const double *y) {
  if (dv) return mni_sv_run1(dv, MNI_SV_DOTS, n, 0, 0, 0, (double *[]){(double *)x, (double *)y}, 2);
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) s += x[i] * y[i];
  return s;
}

void mni_k_dot2(mn_ctx *dv, int64_t n, const double *x, const double *y, const double *u, const double *v,
                double out[2]) {
  if (dv) {
    mni_sv_job j = {.kind = MNI_SV_DOTS, .k = 2, .n = n, .v = {(double *)x, (double *)y, (double *)u, (double *)v}};
    double acc[MNI_SV_MAXACC];
    mni_sv_launch(dv, &j, acc);
    out[0] = acc[0];
    out[1] = acc[1];
    return;
  }
  double a = 0, b = 0;
#pragma omp parallel for schedule(static) reduction(+ : a, b) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) {
    a += x[i] * y[i];
    b += u[i] * v[i];
  }
  out[0] = a;
  out[1] = b;
}

void mni_k_copy(mn_ctx *dv, int64_t n, const double *x, double *y) {
  if (dv) { mni_sv_run1(dv, MNI_SV_COPY, n, 0, 0, 0, (double *[]){(double *)x, y}, 2); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] = x[i];
}

void mni_k_axpy(mn_ctx *dv, int64_t n, double a, const double *x, double *y) {
  if (dv) { mni_sv_run1(dv, MNI_SV_AXPY, n, 0, a, 0, (double *[]){(double *)x, y}, 2); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] += a * x[i];
}

void mni_k_aypx(mn_ctx *dv, int64_t n, double a, const double *x, double *y) {
  if (dv) { mni_sv_run1(dv, MNI_SV_AYPX, n, 0, a, 0, (double *[]){(double *)x, y}, 2); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] = x[i] + a * y[i];
}

void mni_k_waxpy(mn_ctx *dv, int64_t n, double a, const double *x, const double *y, double *w) {
  if (dv) { mni_sv_run1(dv, MNI_SV_WAXPY, n, 0, a, 0, (double *[]){(double *)x, (double *)y, w}, 3); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) w[i] = a * x[i] + y[i];
}

void mni_k_scale(mn_ctx *dv, int64_t n, double a, double *x) {
  if (dv) { mni_sv_run1(dv, MNI_SV_SCALE, n, 0, a, 0, (double *[]){x}, 1); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) x[i] *= a;
}

void mni_k_mul(mn_ctx *dv, int64_t n, const double *d, const double *x, double *y) {
  if (dv) { mni_sv_run1(dv, MNI_SV_MUL, n, 0, 0, 0, (double *[]){(double *)d, (double *)x, y}, 3); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) y[i] = d[i] * x[i];
}

double mni_k_residual(mn_ctx *dv, int64_t n, const double *b, const double *q, double *r) {
  if (dv) return mni_sv_run1(dv, MNI_SV_RESIDUAL, n, 0, 0, 0, (double *[]){(double *)b, (double *)q, r}, 3);
  double s = 0;
#pragma omp parallel for schedule(static) reduction(+ : s) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) {
    r[i] = b[i] - q[i];
    s += r[i] * r[i];
  }
  return s;
}

/* one loop per case, so that no loop carries a test per element */
void mni_k_cg_update(mn_ctx *dv, int64_t n, double a, const double *p, const double *q, double *x, double *r, const double *dinv,
                    double *z, int rr, double *out) {
  if (dv) {
    mni_sv_job j = {.kind = MNI_SV_CG, .flags = (dinv ? MNI_SV_DINV : 0) | (rr ? MNI_SV_RR : 0), .n = n,
                    .a = {a}, .v = {(double *)p, (double *)q, x, r, (double *)dinv, z}};
    mni_sv_launch(dv, &j, out);
    return;
  }
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

void mni_k_cg1_update(mn_ctx *dv, int64_t n, double a, double beta, double *u, const double *w, double *p, double *s, double *x,
                     double *r, const double *dinv, int rr, double *out) {
  if (dv) {
    mni_sv_job j = {.kind = MNI_SV_CG1, .flags = (dinv ? MNI_SV_DINV : 0) | (rr ? MNI_SV_RR : 0), .n = n,
                    .a = {a, beta}, .v = {u, (double *)w, p, s, x, r, (double *)dinv}};
    mni_sv_launch(dv, &j, out);
    return;
  }
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

void mni_k_axpby(mn_ctx *dv, int64_t n, double a, const double *x, double b, const double *y, double *w) {
  if (dv) { mni_sv_run1(dv, MNI_SV_AXPBY, n, 0, a, b, (double *[]){(double *)x, (double *)y, w}, 3); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) w[i] = a * x[i] + b * y[i];
}

void mni_k_bicg_p(mn_ctx *dv, int64_t n, double beta, double omega, const double *r, const double *v, double *p) {
  if (dv) { mni_sv_run1(dv, MNI_SV_BICG_P, n, 0, beta, omega, (double *[]){(double *)r, (double *)v, p}, 3); return; }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) p[i] = r[i] + beta * (p[i] - omega * v[i]);
}

void mni_k_combine(mn_ctx *dv, int64_t n, int k, const double *const *v, const double *y, double *x) {
  if (dv) { /* in groups of MNI_SV_MAXA vectors, one coefficient each */
    for (int j0 = 0; j0 < k; j0 += MNI_SV_MAXA) {
      mni_sv_job j = {.kind = MNI_SV_COMBINE, .k = k - j0 < MNI_SV_MAXA ? k - j0 : MNI_SV_MAXA, .n = n};
      for (int q = 0; q < j.k; q++) { j.a[q] = y[j0 + q]; j.v[q] = (double *)v[j0 + q]; }
      j.v[j.k] = x;
      mni_sv_launch(dv, &j, NULL);
    }
    return;
  }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < k; j++) s += y[j] * v[j][i];
    x[i] += s;
  }
}

void mni_k_minres_w(mn_ctx *dv, int64_t n, double e, double d, double g, double phi, const double *v, const double *w1,
                   const double *w2, double *w, double *x) {
  if (dv) {
    mni_sv_job j = {.kind = MNI_SV_MINRES_W, .n = n, .a = {e, d, g, phi},
                    .v = {(double *)v, (double *)w1, (double *)w2, w, x}};
    mni_sv_launch(dv, &j, NULL);
    return;
  }
#pragma omp parallel for schedule(static) if (n > MN_OMP_MIN)
  for (int64_t i = 0; i < n; i++) {
    double wi = (v[i] - e * w1[i] - d * w2[i]) * g;
    w[i] = wi;
    x[i] += phi * wi;
  }
}
