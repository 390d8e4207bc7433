/* Fused expressions on a CUDA device: the program's source
 * (arrays/kernel_src.c) compiled at run time by NVRTC for the device's
 * architecture, kept by source, and launched over the output's box. */
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

enum { CACHE = 256, BLOCK = 256 };
static std::mutex busy; /* API calls may come from several threads: the cache and source buffer */

typedef struct {
  uint64_t key;
  cudaLibrary_t lib;
  cudaKernel_t k;
} entry;
static entry cache[CACHE];
static int ncache;

static int compile(const char *src, uint64_t key, cudaKernel_t *k) {
  int dev = 0, maj = 0, min = 0;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&maj, cudaDevAttrComputeCapabilityMajor, dev);
  cudaDeviceGetAttribute(&min, cudaDevAttrComputeCapabilityMinor, dev);
  char arch[32];
  snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d%d", maj, min);
  const char *hdr[] = {mni_src_ops_h, mni_src_mn_hd_h}, *names[] = {"kernels/ops.h", "kernels/mn_hd.h"};
  /* no contraction into fma: results equal NumPy's (and the CPU's) operation by operation */
  const char *opts[] = {arch, "--std=c++17", "--fmad=false"};
  nvrtcProgram p;
  nvrtcResult r = nvrtcCreateProgram(&p, src, "mn_eval.cu", 2, hdr, names);
  if (r != NVRTC_SUCCESS) return MN_ERR(MN_ERR_CUDA, "nvrtcCreateProgram: %s", nvrtcGetErrorString(r));
  r = nvrtcCompileProgram(p, 3, opts);
  if (r != NVRTC_SUCCESS) {
    size_t n = 0;
    nvrtcGetProgramLogSize(p, &n);
    char *log = (char *)malloc(n + 1);
    if (log) nvrtcGetProgramLog(p, log);
    int err = MN_ERR(MN_ERR_CUDA, "NVRTC could not compile a fused expression for sm_%d%d: %s\n%.2000s", maj, min,
                     nvrtcGetErrorString(r), log ? log : "");
    free(log);
    nvrtcDestroyProgram(&p);
    return err;
  }
  size_t n = 0;
  nvrtcGetCUBINSize(p, &n);
  char *bin = (char *)malloc(n);
  if (!bin) { nvrtcDestroyProgram(&p); return MN_ERR(MN_ERR_MEM, "cannot allocate %zu bytes of CUBIN", n); }
  nvrtcGetCUBIN(p, bin);
  nvrtcDestroyProgram(&p);
  cudaLibrary_t lib;
  cudaError_t e = cudaLibraryLoadData(&lib, bin, NULL, NULL, 0, NULL, NULL, 0);
  free(bin);
  if (e == cudaSuccess) e = cudaLibraryGetKernel(k, lib, "mn_eval_kernel");
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
  cache[ncache++].k = *k;
  return MN_SUCCESS;
}

/* the kernel of L's program: from the cache, or compiled */
static int kernel_of(const mn_eval_launch *L, mn_kernel_shape *ks, cudaKernel_t *k) {
  static char *src;
  std::lock_guard<std::mutex> hold(busy);
  if (!src && !(src = (char *)malloc(MN_KERNEL_SRC))) return MN_ERR(MN_ERR_MEM, "cannot allocate a kernel source buffer");
  MN_CALL(mn_kernel_src(L->P, L->ob->dtype, src, MN_KERNEL_SRC, ks));
  uint64_t key = mn_hash(MN_HASH0, src, strlen(src));
  *k = NULL;
  for (int i = ncache - 1; i >= 0 && !*k; i--)
    if (cache[i].key == key) *k = cache[i].k;
  if (!*k) MN_CALL(compile(src, key, k));
  return MN_SUCCESS;
}

int mni_cuda_eval(const mn_eval_launch *L) {
  mn_kernel_shape ks;
  cudaKernel_t k = NULL;
  MN_CALL(kernel_of(L, &ks, &k));
  char blk[8192];
  MN_CHECK(mn_kernel_args(&ks, L, blk), MN_ERR_MEM, "cannot order a kernel's nodes");
  long long n;
  memcpy(&n, blk, sizeof n);
  if (n == 0) return MN_SUCCESS;
  int dev = 0, sms = 1;
  cudaGetDevice(&dev);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
  long long want = (n + BLOCK - 1) / BLOCK, cap = (long long)sms * 32;
  unsigned grid = (unsigned)(want < cap ? want : cap);
  void *args[] = {blk};
  cudaError_t e = cudaLaunchKernel((const void *)k, dim3(grid), dim3(BLOCK), args, 0, 0);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    return MN_ERR(MN_ERR_CUDA, "launch of a fused expression on %lld elements failed: %s (%s)", n,
                  cudaGetErrorName(e), cudaGetErrorString(e));
  }
  return MN_SUCCESS;
}
