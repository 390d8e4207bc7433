/* CUDA sort of a block's lines (kernels/sort.h): each element's key and
 * position on its line, CUB's stable radix sort of the (key, position)
 * pairs (a segmented one for several lines), then the values and
 * positions written back in sorted order. Work space comes from the
 * backend's device pool. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <cub/cub.cuh>
#include <maniple/mn_array.h>
extern "C" {
#include "mn_impl.h"
#include "backend.h"
}
#include "kernels/sort.h"

#define GRID_LOOP(i, n) for (int64_t i = blockIdx.x * (int64_t)blockDim.x + threadIdx.x; i < (n); \
                             i += (int64_t)gridDim.x * blockDim.x)

static __global__ void sort_keys(const __grid_constant__ mni_sort_job j, uint64_t *key, int64_t *pos) {
  int es = mni_ft_size(j.t);
  GRID_LOOP(e, j.lines * j.len) {
    int64_t l = e / j.len, k = e % j.len;
    key[e] = mni_sort_key(j.t, j.x + (mni_sort_line_at(&j, l) + k * j.st[j.axis]) * es);
    pos[e] = k;
  }
}

static __global__ void sort_put(const __grid_constant__ mni_sort_job j, const int64_t *pos) {
  int es = mni_ft_size(j.t);
  GRID_LOOP(e, j.lines * j.len) {
    int64_t l = e / j.len, k = e % j.len, base = mni_sort_line_at(&j, l), at = base + k * j.st[j.axis];
    if (j.out) memcpy(j.out + at * es, j.x + (base + pos[e] * j.st[j.axis]) * es, es);
    if (j.perm) j.perm[at] = pos[e];
  }
}

static __global__ void line_starts(int64_t lines, int64_t len, int64_t *offs) {
  GRID_LOOP(l, lines + 1) offs[l] = l * len;
}

static unsigned grid(int64_t n) { return (unsigned)((n + 255) / 256 < 65535 ? (n + 255) / 256 : 65535); }

static int failed(const char *what, cudaError_t e) {
  (void)cudaGetLastError();
  return MN_ERR(MN_ERR_CUDA, "sort: %s failed: %s (%s)", what, cudaGetErrorName(e), cudaGetErrorString(e));
}

extern "C" int mni_cuda_sort(const mni_sort_job *j) {
  int64_t n = j->lines * j->len;
  if (n == 0) return MN_SUCCESS;
  const mn_backend_ops *ops = mn_backend_table(MN_BACKEND_CUDA);
  /* keys and positions, in and out; the line starts; CUB's work space */
  size_t kb = sizeof(uint64_t) * (size_t)n, ob = sizeof(int64_t) * (size_t)(j->lines + 1), tb = 0;
  cudaError_t e = j->lines == 1
                      ? cub::DeviceRadixSort::SortPairs(nullptr, tb, (const uint64_t *)nullptr, (uint64_t *)nullptr,
                                                        (const int64_t *)nullptr, (int64_t *)nullptr, n)
                      : cub::DeviceSegmentedSort::StableSortPairs(
                            nullptr, tb, (const uint64_t *)nullptr, (uint64_t *)nullptr, (const int64_t *)nullptr,
                            (int64_t *)nullptr, n, j->lines, (const int64_t *)nullptr, (const int64_t *)nullptr);
  if (e != cudaSuccess) return failed("sizing CUB's work space", e);
  size_t total = 4 * kb + ob + tb + 256;
  char *w = nullptr;
  MN_CALL(ops->dev_alloc(total, (void **)&w));
  uint64_t *k0 = (uint64_t *)w, *k1 = k0 + n;
  int64_t *p0 = (int64_t *)(k1 + n), *p1 = p0 + n, *offs = p1 + n;
  void *tmp = (void *)(((uintptr_t)(offs + j->lines + 1) + 255) & ~(uintptr_t)255);
  sort_keys<<<grid(n), 256>>>(*j, k0, p0);
  if (j->lines == 1) {
    e = cub::DeviceRadixSort::SortPairs(tmp, tb, k0, k1, p0, p1, n);
  } else {
    line_starts<<<grid(j->lines + 1), 256>>>(j->lines, j->len, offs);
    e = cub::DeviceSegmentedSort::StableSortPairs(tmp, tb, k0, k1, p0, p1, n, j->lines, offs, offs + 1);
  }
  if (e == cudaSuccess) {
    sort_put<<<grid(n), 256>>>(*j, p1);
    e = cudaGetLastError();
  }
  ops->dev_free(w, total); /* the pool hands it out again only to later work on the same stream */
  if (e != cudaSuccess) return failed("the sort's kernels", e);
  return MN_SUCCESS;
}
