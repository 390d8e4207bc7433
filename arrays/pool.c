/* Array buffers freed recently, kept for the next array of the same size.
 * glibc hands large blocks back to the OS when they are freed, so a time
 * loop's temporaries would fault in fresh pages at every step (for a
 * 260 x 260 float64 temporary that was 3 to 5 times the cost of the
 * arithmetic). Smaller blocks of a few KiB cost glibc a consolidation of
 * its free lists at many frees (measured: a 1000-element temporary's
 * create and destroy 0.24 -> 0.19 us). Blocks of POOL_MIN bytes or more are kept, at most
 * POOL_SLOTS of them and MANIPLE_POOL_BYTES in all (default 1 GiB, 0
 * turns the pool off); sanitizer builds keep none, so that use after free
 * is still caught. */
#include "mn_impl.h"
#include <stdatomic.h>
#include <stdlib.h>

enum { POOL_SLOTS = 32 };
#define POOL_MIN ((size_t)4 * 1024)

static struct {
  size_t n;
  void *p;
} slot[POOL_SLOTS];
static int nslot;           /* slot[0] oldest */
static size_t held, cap = (size_t)-1;
static atomic_flag busy = ATOMIC_FLAG_INIT; /* API calls may come from several threads */

#if defined(__SANITIZE_ADDRESS__)
#define POOL_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define POOL_OFF 1
#endif
#endif
#ifndef POOL_OFF
#define POOL_OFF 0
#endif

static void lock(void) {
  while (atomic_flag_test_and_set_explicit(&busy, memory_order_acquire)) {
  }
}
static void unlock(void) { atomic_flag_clear_explicit(&busy, memory_order_release); }

static size_t limit(void) { /* under the lock */
  if (cap == (size_t)-1) {
    const char *e = getenv("MANIPLE_POOL_BYTES");
    cap = e ? (size_t)strtoull(e, NULL, 10) : (size_t)1 << 30;
    if (POOL_OFF) cap = 0;
  }
  return cap;
}

void *mn_pool_take(size_t n) {
  void *p = NULL;
  if (n >= POOL_MIN) {
    lock();
    for (int k = nslot - 1; k >= 0; k--) /* the most recent: warm in cache */
      if (slot[k].n == n) {
        p = slot[k].p;
        held -= n;
        for (int j = k; j < nslot - 1; j++) slot[j] = slot[j + 1];
        nslot--;
        break;
      }
    unlock();
  }
  return p ? p : mn_malloc(n);
}

int mn_pool_keeps(size_t n) {
  if (POOL_OFF) return n >= POOL_MIN; /* sanitizers: malloc each time, so a stale pointer is caught */
  lock();
  size_t lim = limit();
  unlock();
  return n >= POOL_MIN && n <= lim;
}

void mn_pool_give(void *p, size_t n) {
  if (!p) return;
  if (n < POOL_MIN) {
    mn_free(p);
    return;
  }
  void *drop[POOL_SLOTS + 1];
  int ndrop = 0;
  lock();
  size_t lim = limit();
  if (n > lim) {
    drop[ndrop++] = p;
  } else {
    while (nslot && (nslot == POOL_SLOTS || held + n > lim)) { /* the oldest go */
      drop[ndrop++] = slot[0].p;
      held -= slot[0].n;
      for (int j = 0; j < nslot - 1; j++) slot[j] = slot[j + 1];
      nslot--;
    }
    slot[nslot].n = n;
    slot[nslot++].p = p;
    held += n;
  }
  unlock();
  for (int k = 0; k < ndrop; k++) mn_free(drop[k]);
}

void mn_pool_drain(void) {
  lock();
  for (int k = 0; k < nslot; k++) mn_free(slot[k].p);
  nslot = 0;
  held = 0;
  unlock();
}
