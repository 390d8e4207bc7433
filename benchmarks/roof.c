/* Hand-fused C loops that the Python benchmarks call through ctypes, so
 * that the roof runs in the same process and run as the code measured:
 * one 5-point sweep y = 0.2*(x + 4 neighbours) over the interior of a
 * rows x cols grid, the STREAM triad a = b + s*c, and the op-class loops
 * of swe's op-mix roof. */
#include <stdint.h>

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define CLONES __attribute__((target_clones("avx2", "default")))
#define CLONES_WIDE __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define CLONES
#define CLONES_WIDE
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

/* The op-mix roof of swe (benchmarks/swe_roof.py): n elements in cache
 * through one class of operation, reps passes between x and y (each pass
 * reads the last one's values, so none can be skipped): square roots,
 * divisions, multiplications and additions (11 on each value loaded). The
 * vector throughput this CPU gives each, on the AVX-512 or AVX2 clone as
 * the C swe's loops (the stencil and triad roofs keep AVX2: maniple's
 * linear combinations do). */
CLONES_WIDE void mn_roof_sqrt(int64_t n, int64_t reps, double *x, double *y) {
  for (int64_t r = 0; r < reps; r++) {
    const double *s = r & 1 ? y : x;
    double *d = r & 1 ? x : y;
    for (int64_t i = 0; i < n; i++) d[i] = __builtin_sqrt(s[i]);
  }
}

CLONES_WIDE void mn_roof_div(int64_t n, int64_t reps, const double *a, double *x, double *y) {
  for (int64_t r = 0; r < reps; r++) {
    const double *s = r & 1 ? y : x;
    double *d = r & 1 ? x : y;
    for (int64_t i = 0; i < n; i++) d[i] = a[i] / s[i];
  }
}

CLONES_WIDE void mn_roof_muladd(int64_t n, int64_t reps, double *x, double *y) {
  for (int64_t r = 0; r < reps; r++) {
    const double *s = r & 1 ? y : x;
    double *d = r & 1 ? x : y;
    for (int64_t i = 0; i < n; i++) { /* 11 operations on one value, 4 deep */
      double v = s[i];
      d[i] = (v * 0.25 + 0.5) * (v * 0.125 + 0.5) + (v * 0.25 + 0.25) * (v * 0.125 + 0.25);
    }
  }
}
