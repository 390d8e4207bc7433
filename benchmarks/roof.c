/* Hand-fused C loops that the Python benchmarks call through ctypes, so
 * that the roof runs in the same process and run as the code measured:
 * one 5-point sweep y = 0.2*(x + 4 neighbours) over the interior of a
 * rows x cols grid, and the STREAM triad a = b + s*c. */
#include <stdint.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#endif

CLONES void mn_roof_stencil(int64_t rows, int64_t cols, const double *x, double *y) {
  for (int64_t i = 1; i < rows - 1; i++) {
    const double *c = x + i * cols, *n = c - cols, *s = c + cols;
    double *o = y + i * cols;
    for (int64_t j = 1; j < cols - 1; j++) o[j] = 0.2 * (c[j] + n[j] + c[j + 1] + c[j - 1] + s[j]);
  }
}

CLONES void mn_roof_triad(int64_t n, double *a, const double *b, const double *c, double s) {
  for (int64_t i = 0; i < n; i++) a[i] = b[i] + s * c[i];
}
