/* Private: non-temporal (streaming) stores for outputs too large to stay in
 * cache; they skip the read-for-ownership of each written line. */
#ifndef MANIPLE_STREAM_H
#define MANIPLE_STREAM_H
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* Once per thread after its last streamed store (a fence per block stalls). */
static inline void mn_stream_fence(void) {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}
#endif
