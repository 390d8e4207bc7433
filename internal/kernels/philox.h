/* Philox4x32-10 counter-based generator (Salmon et al., SC'11), shared by
 * the CPU and CUDA backends: values depend only on (seed, counter). */
#ifndef MANIPLE_PHILOX_H
#define MANIPLE_PHILOX_H
#include "kernels/mn_hd.h"
#include <stdint.h>

typedef struct { uint32_t v[4]; } mn_philox4;

MN_HD static inline uint32_t mn_mulhilo32(uint32_t a, uint32_t b, uint32_t *hi) {
  uint64_t p = (uint64_t)a * (uint64_t)b;
  *hi = (uint32_t)(p >> 32);
  return (uint32_t)p;
}

MN_HD static inline mn_philox4 mn_philox(uint64_t counter, uint64_t seed) {
  uint32_t c0 = (uint32_t)counter, c1 = (uint32_t)(counter >> 32), c2 = 0, c3 = 0;
  uint32_t k0 = (uint32_t)seed, k1 = (uint32_t)(seed >> 32);
  for (int r = 0; r < 10; r++) {
    uint32_t hi0, hi1;
    uint32_t lo0 = mn_mulhilo32(0xD2511F53u, c0, &hi0);
    uint32_t lo1 = mn_mulhilo32(0xCD9E8D57u, c2, &hi1);
    uint32_t n0 = hi1 ^ c1 ^ k0, n2 = hi0 ^ c3 ^ k1;
    c0 = n0; c1 = lo1; c2 = n2; c3 = lo0;
    k0 += 0x9E3779B9u; k1 += 0xBB67AE85u;
  }
  mn_philox4 out = {{c0, c1, c2, c3}};
  return out;
}

/* Uniform double in [0, 1) from two 32-bit words (53 bits). */
MN_HD static inline double mn_u01(uint32_t a, uint32_t b) {
  uint64_t x = ((uint64_t)a << 21) ^ (uint64_t)(b >> 11);
  x &= ((uint64_t)1 << 53) - 1;
  return (double)x * (1.0 / 9007199254740992.0);
}
#endif
