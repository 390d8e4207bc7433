/* A stand-in for the CUDA driver (libcuda.so.1) that is installed but sees
 * no GPU. cuPyNumeric's PyPI wheels (legate, Legion, Realm) link the driver
 * even when they run on CPUs only, and Realm aborts when a driver entry
 * point it looks up comes back NULL. This library answers: no device
 * (cuInit), zero devices, a driver version, readable error names, and for
 * any entry point looked up by name, that name if defined here, else a
 * function that reports no device. tools/setup.sh bench builds it into
 * .venv-cupynumeric/cuda-stub for the benchmark suite's cuPyNumeric rows
 * (python/maniple/bench/suite.py sets LD_LIBRARY_PATH to it). Not part of
 * maniple's library. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>

enum { OK = 0, BAD_VALUE = 1, NOT_INITIALIZED = 3, NO_DEVICE = 100, NOT_SUPPORTED = 801 };
#define API __attribute__((visibility("default"))) int

static int no_device(void) { return NO_DEVICE; }

API cuInit(unsigned flags) { (void)flags; return NO_DEVICE; }
API cuDriverGetVersion(int *v) { if (!v) return BAD_VALUE; *v = 13000; return OK; }
API cuDeviceGetCount(int *n) { if (!n) return BAD_VALUE; *n = 0; return OK; }
API cuDeviceGet(int *d, int ordinal) { (void)d; (void)ordinal; return NO_DEVICE; }

static const char *name_of(int e) {
  switch (e) {
  case OK: return "CUDA_SUCCESS";
  case BAD_VALUE: return "CUDA_ERROR_INVALID_VALUE";
  case NOT_INITIALIZED: return "CUDA_ERROR_NOT_INITIALIZED";
  case NO_DEVICE: return "CUDA_ERROR_NO_DEVICE";
  case NOT_SUPPORTED: return "CUDA_ERROR_NOT_SUPPORTED";
  default: return "CUDA_ERROR_UNKNOWN";
  }
}
API cuGetErrorName(int e, const char **s) { if (!s) return BAD_VALUE; *s = name_of(e); return OK; }
API cuGetErrorString(int e, const char **s) {
  if (!s) return BAD_VALUE;
  *s = e == NO_DEVICE ? "no CUDA device (maniple's CPU-only driver stub)" : name_of(e);
  return OK;
}
API cuGetExportTable(const void **table, const void *id) { (void)id; if (table) *table = NULL; return NOT_SUPPORTED; }

/* nothing is ever allocated, so releasing succeeds; contexts never exist */
API cuMemFree(uintptr_t p) { (void)p; return OK; }
API cuMemFree_v2(uintptr_t p) { (void)p; return OK; }
API cuMemFreeHost(void *p) { (void)p; return OK; }
API cuMemHostUnregister(void *p) { (void)p; return NOT_INITIALIZED; }
API cuCtxGetCurrent(void **c) { if (c) *c = NULL; return NOT_INITIALIZED; }
API cuCtxSetCurrent(void *c) { (void)c; return NOT_INITIALIZED; }
API cuCtxGetDevice(int *d) { (void)d; return NOT_INITIALIZED; }
API cuCtxSynchronize(void) { return NOT_INITIALIZED; }
API cuPointerGetAttribute(void *v, int attr, uintptr_t p) { (void)v; (void)attr; (void)p; return NOT_INITIALIZED; }

/* an entry point by name: this library's own, or the no-device function */
static void *lookup(const char *name) {
  Dl_info self;
  void *f = NULL;
  if (dladdr((void *)&lookup, &self) && self.dli_fname) {
    void *h = dlopen(self.dli_fname, RTLD_NOW | RTLD_NOLOAD);
    if (h) {
      f = dlsym(h, name);
      dlclose(h);
    }
  }
  return f ? f : (void *)&no_device;
}

API cuGetProcAddress(const char *name, void **fn, int version, uint64_t flags) {
  (void)version; (void)flags;
  if (!name || !fn) return BAD_VALUE;
  *fn = lookup(name);
  return OK;
}

API cuGetProcAddress_v2(const char *name, void **fn, int version, uint64_t flags, int *found) {
  (void)version; (void)flags;
  if (!name || !fn) return BAD_VALUE;
  *fn = lookup(name);
  if (found) *found = 0; /* CU_GET_PROC_ADDRESS_SUCCESS */
  return OK;
}
