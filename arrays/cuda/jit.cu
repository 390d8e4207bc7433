/* Fused expressions on a CUDA device: the program's source
 * (arrays/kernel_src.c) compiled at run time by NVRTC for the device's
 * architecture, kept by source in memory and on disk between runs
 * (arrays/kernel_cache.c), and launched over the output's box. */
#define OMPI_SKIP_MPICXX 1
#define MPICH_SKIP_MPICXX 1
#include <cuda_runtime.h>
#include <nvrtc.h>
#include <mutex>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <maniple/mn_array.h>
extern "C" {
#include "kernel_src.h"
}
#include "cuda/cuda_backend.h"

enum { CACHE = 256, BLOCK = MN_KERNEL_BLOCK };
static std::mutex busy; /* API calls may come from several threads: the cache and source buffer */

typedef struct {
  uint64_t key;
  cudaLibrary_t lib;
  cudaKernel_t k, fin; /* fin: a reduction's mn_reduce_final */
} entry;
static entry cache[CACHE];
static int ncache;

/* NVRTC's CUBIN of src for arch, malloc'd into *bin */
static int nvrtc_cubin(const char *src, const char *arch, char **bin, size_t *n) {
  /* no contraction into fma: results equal NumPy's (and the CPU's) operation by operation */
  const char *opts[] = {arch, "--std=c++17", "--fmad=false"};
  nvrtcProgram p;
  nvrtcResult r = nvrtcCreateProgram(&p, src, "mn_eval.cu", mni_src_nhdr, mni_src_hdr, mni_src_hdr_name);
  if (r != NVRTC_SUCCESS) return MN_ERR(MN_ERR_CUDA, "nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
  r = nvrtcCompileProgram(p, 3, opts);
  if (r != NVRTC_SUCCESS) {
    size_t m = 0;
    nvrtcGetProgramLogSize(p, &m);
    char *log = (char *)malloc(m + 1);
    if (log) nvrtcGetProgramLog(p, log);
    int err = MN_ERR(MN_ERR_CUDA, "NVRTC could not compile a fused expression (%s): %s\n%.2000s", arch,
                     nvrtcGetErrorString(r), log ? log : "");
    free(log);
    nvrtcDestroyProgram(&p);
    return err;
  }
  *n = 0;
  nvrtcGetCUBINSize(p, n);
  *bin = (char *)malloc(*n);
  if (!*bin) { nvrtcDestroyProgram(&p); return MN_ERR(MN_ERR_MEM, "cannot allocate %zu bytes of CUBIN", *n); }
  nvrtcGetCUBIN(p, *bin);
  nvrtcDestroyProgram(&p);
  return MN_SUCCESS;
}

/* What a kept binary depends on besides its source: the headers NVRTC
 * includes (maniple's kernel bodies), folded into the disk key once. */
static uint64_t headers_hash(void) {
  static uint64_t h;
  if (!h) {
    uint64_t x = MN_HASH0;
    for (int i = 0; i < mni_src_nhdr; i++) {
      x = mn_hash(x, mni_src_hdr_name[i], strlen(mni_src_hdr_name[i]) + 1);
      x = mn_hash(x, mni_src_hdr[i], strlen(mni_src_hdr[i]) + 1);
    }
    h = x ? x : 1;
  }
  return h;
}

/* NVRTC's CUBIN, kept on disk for the next run */
static int compile_kept(const char *src, const char *arch, uint64_t dkey, const char *tag, char **bin, size_t *n) {
  MN_CALL(nvrtc_cubin(src, arch, bin, n));
  mn_kcache_store(dkey, tag, src, *bin, *n);
  return MN_SUCCESS;
}

static int compile(const char *src, uint64_t key, int red, cudaKernel_t *k, cudaKernel_t *fin) {
  int dev = 0, maj = 0, min = 0, vmaj = 0, vmin = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&maj, cudaDevAttrComputeCapabilityMajor, dev);
  cudaDeviceGetAttribute(&min, cudaDevAttrComputeCapabilityMinor, dev);
  nvrtcVersion(&vmaj, &vmin);
  char arch[32], tag[64];
  snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", maj, min);
  snprintf(tag, sizeof tag, "sm_%d%d-nvrtc%d.%d", maj, min, vmaj, vmin);
  /* the disk's binary of this source, else NVRTC's, kept there for the next run */
  uint64_t dkey = mn_hash(headers_hash(), src, strlen(src));
  char *bin = NULL;
  size_t n = 0;
  int kept = mn_kcache_load(dkey, tag, src, &bin, &n);
  if (!kept) MN_CALL(compile_kept(src, arch, dkey, tag, &bin, &n));
  cudaLibrary_t lib;
  cudaError_t e = cudaLibraryLoadData(&lib, bin, NULL, NULL, 0, NULL, NULL, 0);
  free(bin);
  if (e != cudaSuccess && kept) { /* a kept binary this driver refuses: compiled afresh */
    (void)cudaGetLastError();
    MN_CALL(compile_kept(src, arch, dkey, tag, &bin, &n));
    e = cudaLibraryLoadData(&lib, bin, NULL, NULL, 0, NULL, NULL, 0);
    free(bin);
  }
  if (e == cudaSuccess) e = cudaLibraryGetKernel(k, lib, "mn_eval_kernel");
  *fin = NULL;
  if (e == cudaSuccess && red) e = cudaLibraryGetKernel(fin, lib, "mn_reduce_final");
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return MN_ERR(MN_ERR_CUDA, "loading a compiled fused expression failed: %s (%s)", cudaGetErrorName(e),
                  cudaGetErrorString(e));
  }
  if (ncache == CACHE) { /* full: the oldest goes, once no launch of it is left */
    cudaDeviceSynchronize();
    cudaLibraryUnload(cache[0].lib);
    memmove(cache, cache + 1, sizeof(entry) * (CACHE - 1));
    ncache--;
  }
  cache[ncache].key = key;
  cache[ncache].lib = lib;
  cache[ncache].fin = *fin;
  cache[ncache++].k = *k;
  return MN_SUCCESS;
}

/* the kernel of L's program: from the cache, or compiled */
static int kernel_of(const mn_eval_launch *L, mn_kernel_shape *ks, cudaKernel_t *k, cudaKernel_t *fin) {
  static char *src;
  std::lock_guard<std::mutex> hold(busy);
  if (!src && !(src = (char *)malloc(MN_KERNEL_SRC))) return MN_ERR(MN_ERR_MEM, "cannot allocate a kernel source buffer");
  const prog *P = L->P;
  MN_CALL(mn_kernel_src(P, P->odt, src, MN_KERNEL_SRC, ks));
  uint64_t key = mn_hash(MN_HASH0, src, strlen(src));
  *k = NULL;
  for (int i = ncache - 1; i >= 0 && !*k; i--)
    if (cache[i].key == key) { *k = cache[i].k; *fin = cache[i].fin; }
  if (!*k) MN_CALL(compile(src, key, P->reduce, k, fin));
  return MN_SUCCESS;
}

static int launched(cudaError_t e, const char *what, long long n) {
  if (e == cudaSuccess) return MN_SUCCESS;
  (void)cudaGetLastError();
  return MN_ERR(MN_ERR_CUDA, "launch of %s on %lld elements failed: %s (%s)", what, n, cudaGetErrorName(e),
                cudaGetErrorString(e));
}

int mni_cuda_eval(const mn_eval_launch *L) {
  mn_kernel_shape ks;
  cudaKernel_t k = NULL, fin = NULL;
  MN_CALL(kernel_of(L, &ks, &k, &fin));
  if (!L->C) { /* a reduction's cells' results, MN_KERNEL_RED_BLOCKS apart, merged into part[0] */
    mn_acc *part = L->part;
    int nc = (int)L->nmerge;
    long long stride = MN_KERNEL_RED_BLOCKS;
    void *margs[] = {&part, &nc, &stride};
    return launched(cudaLaunchKernel((const void *)fin, dim3(1), dim3(BLOCK), margs, 0, 0), "a reduction's merge", nc);
  }
  char blk[8192];
  MN_CHECK(mn_kernel_args(&ks, L, blk), MN_ERR_MEM, "cannot order a kernel's nodes");
  long long n;
  memcpy(&n, blk, sizeof n);
  int red = L->P->reduce;
  if (n == 0 && !red) return MN_SUCCESS; /* a reduction still leaves its (empty) accumulator */
  int dev = 0, sms = 1;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  /* a reduction: a few blocks per SM, so that the last pass over their accumulators is short */
  long long want = (n + BLOCK - 1) / BLOCK, cap = red ? (long long)sms * 8 : (long long)sms * 32;
  if (red && cap > MN_KERNEL_RED_BLOCKS) cap = MN_KERNEL_RED_BLOCKS;
  if (want < 1) want = 1;
  unsigned grid = (unsigned)(want < cap ? want : cap);
  void *args[] = {blk};
  MN_CALL(launched(cudaLaunchKernel((const void *)k, dim3(grid), dim3(BLOCK), args, 0, 0),
                   red ? "a reduction" : "a fused expression", n));
  if (!red) return MN_SUCCESS;
  mn_acc *part = L->part;
  int nb = (int)grid;
  long long one = 1;
  void *fargs[] = {&part, &nb, &one};
  return launched(cudaLaunchKernel((const void *)fin, dim3(1), dim3(BLOCK), fargs, 0, 0), "a reduction's last pass", nb);
}
