/* The emulated device: the device code path run on the host. Device
 * storage is mapped PROT_NONE, opened only by the copy or launch that
 * names it, so host code that reads device memory faults; the host copy
 * of a device array is PROT_NONE while it is stale, so host code that did
 * not ask for it (mn_buf_host) faults too rather than read old values. */
#define _DEFAULT_SOURCE /* MAP_ANONYMOUS */
#include "eval_impl.h" /* mni_emu_eval */
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

/* the pages holding bytes [d, d + n) */
static void window(const void *d, size_t n, int prot) {
  uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE), a = (uintptr_t)d & ~(pg - 1);
  mprotect((void *)a, pages((uintptr_t)d + (n ? n : 1) - a), prot);
}

void mni_emu_open(const void *d, size_t n, int write) { window(d, n, write ? PROT_READ | PROT_WRITE : PROT_READ); }
void mni_emu_close(const void *d, size_t n) { window(d, n, PROT_NONE); }

/* the bytes a strided box of cnt elements touches, from its first */
static void box_span(int nd, const int64_t *cnt, size_t es, const int64_t *st, int64_t *first, int64_t *len) {
  int64_t lo = 0, hi = 0;
  for (int d = 0; d < nd; d++) {
    int64_t r = (cnt[d] - 1) * st[d];
    if (r < 0) lo += r;
    else hi += r;
  }
  *first = lo * (int64_t)es;
  *len = (hi - lo + 1) * (int64_t)es;
}

static int dev_alloc(size_t n, void **p) { return map(n, PROT_NONE, p); }

static int fill_index(const mn_fill_job *j) {
  mni_emu_open(j->b->dev, j->b->nbytes, 1);
  mni_fill_index_run(j);
  mni_emu_close(j->b->dev, j->b->nbytes);
  return MN_SUCCESS;
}

static void mpi_expose(void *d, size_t n, int open, int write) {
  if (open) mni_emu_open(d, n, write);
  else mni_emu_close(d, n);
}

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

static int copy_box(int nd, const int64_t *cnt, size_t es, const char *src, const int64_t *sst, char *dst,
                    const int64_t *dst_st) {
  if (mn_box_size(nd, cnt) == 0) return MN_SUCCESS;
  int64_t s0, sn, d0, dn;
  box_span(nd, cnt, es, sst, &s0, &sn);
  box_span(nd, cnt, es, dst_st, &d0, &dn);
  mni_emu_open(src + s0, (size_t)sn, 0);
  mni_emu_open(dst + d0, (size_t)dn, 1); /* after src: when they share a page, it stays writable */
  mn_strided_copy(nd, cnt, es, src, sst, dst, dst_st);
  mni_emu_close(src + s0, (size_t)sn);
  mni_emu_close(dst + d0, (size_t)dn);
  return MN_SUCCESS;
}

static int move(size_t es, int64_t n, const int64_t *sidx, const char *src, int64_t nsrc, const int64_t *didx,
                char *dst, int64_t ndst) {
  if (!n) return MN_SUCCESS;
  if (sidx) mni_emu_open(sidx, (size_t)n * 8, 0);
  if (didx) mni_emu_open(didx, (size_t)n * 8, 0);
  mni_emu_open(src, (size_t)nsrc * es, 0);
  mni_emu_open(dst, (size_t)ndst * es, 1); /* after src: a shared page stays writable */
  for (int64_t k = 0; k < n; k++)
    memcpy(dst + (didx ? didx[k] : k) * (int64_t)es, src + (sidx ? sidx[k] : k) * (int64_t)es, es);
  if (sidx) mni_emu_close(sidx, (size_t)n * 8);
  if (didx) mni_emu_close(didx, (size_t)n * 8);
  mni_emu_close(src, (size_t)nsrc * es);
  mni_emu_close(dst, (size_t)ndst * es);
  return MN_SUCCESS;
}

static int host_alloc(size_t n, void **p) { return map(n, PROT_READ | PROT_WRITE, p); }

static void host_guard(void *h, size_t n, int open) {
  mprotect(h, pages(n), open ? PROT_READ | PROT_WRITE : PROT_NONE);
}

const mn_backend_ops mn_backend_emulated = {
  .name = "emulated", .dev_alloc = dev_alloc, .dev_free = unmap, .dev_zero = dev_zero, .h2d = h2d,
  .d2h = d2h, .host_alloc = host_alloc, .host_free = unmap, .host_guard = host_guard,
  .fill = fill, .fill_index = fill_index, .copy_box = copy_box, .eval = mni_emu_eval, .axis = mni_emu_axis, .sort = mni_emu_sort, .gemm = mni_emu_gemm,
  .stencil_box = mni_emu_stencil_box, .stencil_bc = mni_emu_stencil_bc, .mpi_expose = mpi_expose,
  .sv = mni_emu_sv, .tri = mni_emu_tri, .csr_rows = mni_emu_csr_rows, .move = move};
