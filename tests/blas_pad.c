/* Sanitizer builds only (tests/CMakeLists.txt): OpenBLAS 0.3.21, Debian
 * 12's, reads past the end of x (and of A: MN_SL_PAD) in its cgemv_n and
 * zgemv_n kernels (upstream OpenMathLib/OpenBLAS#4013, fixed later).
 * ScaLAPACK's complex eigh calls them on PBLAS's own vector buffers, which
 * ASan's tightly packed heap can end at an unmapped page: a SEGV that came
 * and went with the allocations before it. These wrappers, which ScaLAPACK
 * binds to ahead of OpenBLAS's, hand the real routine padded copies of
 * A, x and y. Under glibc's malloc the extra read lands in the next
 * chunk's header. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef void gemv_fn(const char *, const int *, const int *, const void *, const void *, const int *, const void *,
                     const int *, const void *, void *, const int *, size_t);

/* k elements of size es, stride inc (its sign aside), packed into a new
 * buffer with room past its end */
static char *pack(const void *p, int k, int inc, size_t es) {
  size_t s = (size_t)(inc < 0 ? -inc : inc) * es;
  char *q = malloc(((size_t)(k > 0 ? k : 0) + 64) * es);
  if (!q) abort();
  for (int i = 0; i < k; i++) memcpy(q + (size_t)i * es, (const char *)p + (size_t)i * s, es);
  return q;
}

static void unpack(void *p, const char *q, int k, int inc, size_t es) {
  size_t s = (size_t)(inc < 0 ? -inc : inc) * es;
  for (int i = 0; i < k; i++) memcpy((char *)p + (size_t)i * s, q + (size_t)i * es, es);
}

/* The kernels read one stride past the end of x (x[n * incx] at a stride
 * of 70 inside pzlarft): x and y go packed, at a stride of +-1, and A with
 * a column's room past its end */
static void padded(const char *name, gemv_fn **real_p, size_t es, const char *tr, const int *m, const int *n,
                   const void *alpha, const void *a, const int *lda, const void *x, const int *incx,
                   const void *beta, void *y, const int *incy, size_t len) {
  if (!*real_p) *real_p = (gemv_fn *)dlsym(RTLD_NEXT, name); /* (looked up once) */
  gemv_fn *real = *real_p;
  if (!real) {
    fprintf(stderr, "blas_pad: no %s after the test's own\n", name);
    abort();
  }
  int nt = *tr == 'N' || *tr == 'n', kx = nt ? *n : *m, ky = nt ? *m : *n;
  int ix = *incx < 0 ? -1 : 1, iy = *incy < 0 ? -1 : 1;
  size_t ca = *m > 0 && *n > 0 ? (size_t)(*n - 1) * (size_t)*lda + (size_t)*m : 0; /* A's elements */
  char *xp = pack(x, kx, *incx, es), *yp = pack(y, ky, *incy, es), *ap = malloc((ca + (size_t)*lda + 64) * es);
  if (!ap) abort();
  if (ca) memcpy(ap, a, ca * es); /* (and a column of room past the end) */
  real(tr, m, n, alpha, ap, lda, xp, &ix, beta, yp, &iy, len);
  unpack(y, yp, ky, *incy, es);
  free(xp); free(yp); free(ap);
}

void cgemv_(const char *tr, const int *m, const int *n, const void *alpha, const void *a, const int *lda,
            const void *x, const int *incx, const void *beta, void *y, const int *incy, size_t len) {
  static gemv_fn *real;
  padded("cgemv_", &real, 8, tr, m, n, alpha, a, lda, x, incx, beta, y, incy, len);
}

void zgemv_(const char *tr, const int *m, const int *n, const void *alpha, const void *a, const int *lda,
            const void *x, const int *incx, const void *beta, void *y, const int *incy, size_t len) {
  static gemv_fn *real;
  padded("zgemv_", &real, 16, tr, m, n, alpha, a, lda, x, incx, beta, y, incy, len);
}
