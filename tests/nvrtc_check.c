/* Compiles every kernel source in a directory (the fused expressions a
 * test run produced under MANIPLE_KERNEL_DUMP) with NVRTC, as the CUDA
 * backend does on a device, for sm_80 and sm_90, with ptxas reporting
 * registers and spills. No GPU is needed. Fails when any does not
 * compile; prints how many did, the most registers and any spills. */
#include "kernel_src.h"
#include <dirent.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *slurp(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  rewind(f);
  char *s = malloc((size_t)n + 1);
  if (s && fread(s, 1, (size_t)n, f) != (size_t)n) { free(s); s = NULL; }
  if (s) s[n] = 0;
  fclose(f);
  return s;
}

/* 0 when it compiled; *regs, *spill from ptxas's report */
static int compile(const char *name, const char *src, int sm, int *regs, long *spill) {
  char arch[40];
  snprintf(arch, sizeof arch, "--gpu-architecture=sm_%d", sm);
  const char *opts[] = {arch, "--std=c++17", "--fmad=false", "--ptxas-options=-v"};
  nvrtcProgram p;
  if (nvrtcCreateProgram(&p, src, name, mni_src_nhdr, mni_src_hdr, mni_src_hdr_name) != NVRTC_SUCCESS) return 1;
  nvrtcResult r = nvrtcCompileProgram(p, 4, opts);
  size_t n = 0;
  nvrtcGetProgramLogSize(p, &n);
  char *log = malloc(n + 1);
  log[0] = 0;
  nvrtcGetProgramLog(p, log);
  if (r != NVRTC_SUCCESS) fprintf(stderr, "%s (sm_%d): %s\n%s\n", name, sm, nvrtcGetErrorString(r), log);
  /* one report per kernel (a reduction has two): the most registers, all spills */
  long st = 0, ld = 0;
  *regs = 0;
  for (const char *u = strstr(log, "Used "); u; u = strstr(u + 5, "Used "))
    if (atoi(u + 5) > *regs) *regs = atoi(u + 5);
  for (const char *b = strstr(log, "bytes spill stores"); b; b = strstr(b + 1, "bytes spill stores")) {
    /* "N bytes spill stores, M bytes spill loads" */
    const char *q = b;
    while (q > log && q[-1] == ' ') q--;
    while (q > log && q[-1] >= '0' && q[-1] <= '9') q--;
    st += atol(q);
    const char *c = strstr(b, ", ");
    if (c) ld += atol(c + 2);
  }
  *spill = st + ld;
  free(log);
  nvrtcDestroyProgram(&p);
  return r != NVRTC_SUCCESS;
}

int main(int argc, char **argv) {
  if (argc != 2) {
    fprintf(stderr, "usage: nvrtc_check DIR\n");
    return 2;
  }
  DIR *d = opendir(argv[1]);
  if (!d) {
    perror(argv[1]);
    return 2;
  }
  int n = 0, bad = 0, most = 0;
  long spilled = 0;
  const int sms[] = {80, 90};
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l < 4 || strcmp(de->d_name + l - 3, ".cu")) continue;
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", argv[1], de->d_name);
    char *src = slurp(path);
    if (!src) { fprintf(stderr, "cannot read %s\n", path); bad++; continue; }
    for (int k = 0; k < 2; k++) {
      int regs = 0;
      long sp = 0;
      bad += compile(de->d_name, src, sms[k], &regs, &sp);
      if (regs > most) most = regs;
      if (sp) { spilled++; printf("%s (sm_%d): %ld bytes spilled\n", de->d_name, sms[k], sp); }
    }
    free(src);
    n++;
  }
  closedir(d);
  printf("nvrtc: %d kernel sources, %d compilations for sm_80 and sm_90, %d failed; at most %d registers; %ld with "
         "spills\n", n, 2 * n, bad, most, spilled);
  return bad || n == 0;
}
