/* The emulated device: the device code path run on the host. Device
 * storage is mapped PROT_NONE, opened only by the copy or launch that
 * names it, so host code that reads device memory faults; the host copy
 * of a device array is PROT_NONE while it is stale, so host code that did
 * not ask for it (mn_buf_host) faults too rather than read old values. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "mn_impl.h"
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static size_t pages(size_t n) {
  size_t pg = (size_t)sysconf(_SC_PAGESIZE);
  return (n + pg - 1) / pg * pg;
}

static int map(size_t n, int prot, void **p) {
  void *m = mmap(NULL, pages(n), prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (m == MAP_FAILED) {
    *p = NULL;
    return MN_ERR(MN_ERR_MEM, "cannot map %zu bytes of emulated device memory", n);
  }
  *p = m;
  return MN_SUCCESS;
}

static void unmap(void *p, size_t n) { munmap(p, pages(n)); }

void mni_emu_open(const void *d, size_t n, int write) {
  mprotect((void *)d, pages(n ? n : 1), write ? PROT_READ | PROT_WRITE : PROT_READ);
}

void mni_emu_close(const void *d, size_t n) { mprotect((void *)d, pages(n ? n : 1), PROT_NONE); }

static int dev_alloc(size_t n, void **p) { return map(n, PROT_NONE, p); }

static int dev_zero(void *d, size_t n) {
  mni_emu_open(d, n, 1);
  memset(d, 0, n);
  mni_emu_close(d, n);
  return MN_SUCCESS;
}

static int h2d(void *d, const void *h, size_t n) {
  mni_emu_open(d, n, 1);
  memcpy(d, h, n);
  mni_emu_close(d, n);
  return MN_SUCCESS;
}

static int d2h(void *h, const void *d, size_t n) {
  mni_emu_open(d, n, 0);
  memcpy(h, d, n);
  mni_emu_close(d, n);
  return MN_SUCCESS;
}

/* a kernel launch: the bodies run on the host, inside a window that opens
 * only the storage the launch names */
static int fill(void *d, int64_t n, size_t es, const void *value) {
  mni_emu_open(d, (size_t)n * es, 1);
  for (int64_t i = 0; i < n; i++) memcpy((char *)d + i * (int64_t)es, value, es);
  mni_emu_close(d, (size_t)n * es);
  return MN_SUCCESS;
}

static int host_alloc(size_t n, void **p) { return map(n, PROT_READ | PROT_WRITE, p); }

static void host_guard(void *h, size_t n, int open) {
  mprotect(h, pages(n), open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

const mn_backend_ops mn_backend_emulated = {
  .name = "emulated", .dev_alloc = dev_alloc, .dev_free = unmap, .dev_zero = dev_zero, .h2d = h2d,
  .d2h = d2h, .host_alloc = host_alloc, .host_free = unmap, .host_guard = host_guard,
  .fill = fill};
