/* Compiles every kernel source in a directory (the fused expressions a
 * test run produced under MANIPLE_KERNEL_DUMP) with NVRTC, as the CUDA
 * backend does on a device, for sm_80 and sm_90, with ptxas reporting
 * registers and spills. No GPU is needed. Fails when any does not
 * compile; prints how many did, the most registers and any spills.
 *
 * Sources are compiled in batches, each in a namespace of one program:
 * about a third of a lone source's time was NVRTC reading the headers.
 * A batch that fails or spills is compiled again one source at a time,
 * so the report names the source. */
#define _POSIX_C_SOURCE 200809L /* strdup */
#include "kernel_src.h"
#include <dirent.h>
#include <nvrtc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { BATCH = 64 };

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

/* 0 when it compiled; *regs, *spill from ptxas's report; quiet: no log */
static int compile(const char *name, const char *src, int sm, int quiet, int *regs, long *spill) {
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
  if (r != NVRTC_SUCCESS && !quiet) fprintf(stderr, "%s (sm_%d): %s\n%s\n", name, sm, nvrtcGetErrorString(r), log);
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

/* the batch's sources as one program: the headers once, then each source,
 * less its #include lines and extern "C", in namespace mnk<i> */
static char *join(char **src, int n) {
  size_t cap = 128;
  for (int i = 0; i < n; i++) cap += strlen(src[i]) + 64;
  char *all = malloc(cap), *w = all;
  if (!all) return NULL;
  w += sprintf(w, "#include \"kernels/ops.h\"\n#include \"kernels/reduce.h\"\n");
  for (int i = 0; i < n; i++) {
    w += sprintf(w, "namespace mnk%d {\n", i);
    for (const char *l = src[i]; *l;) {
      const char *e = strchr(l, '\n'), *next = e ? e + 1 : l + strlen(l);
      if (strncmp(l, "#include", 8)) {
        if (!strncmp(l, "extern \"C\" ", 11)) l += 11;
        memcpy(w, l, (size_t)(next - l));
        w += next - l;
      }
      l = next;
    }
    w += sprintf(w, "\n}\n");
  }
  *w = 0;
  return all;
}

static int by_name(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

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
  int n = 0, cap = 0, bad = 0, most = 0, programs = 0;
  char **names = NULL;
  struct dirent *de;
  while ((de = readdir(d))) {
    size_t l = strlen(de->d_name);
    if (l < 4 || strcmp(de->d_name + l - 3, ".cu")) continue;
    if (n == cap && !(names = realloc(names, sizeof(char *) * (size_t)(cap = 2 * cap + 64)))) return 2;
    names[n++] = strdup(de->d_name);
  }
  closedir(d);
  qsort(names, (size_t)n, sizeof(char *), by_name);
  long spilled = 0;
  const int sms[] = {80, 90};
  char *src[BATCH];
  for (int b0 = 0; b0 < n; b0 += BATCH) {
    int nb = n - b0 < BATCH ? n - b0 : BATCH;
    for (int i = 0; i < nb; i++) {
      char path[4096];
      snprintf(path, sizeof path, "%s/%s", argv[1], names[b0 + i]);
      if (!(src[i] = slurp(path))) { fprintf(stderr, "cannot read %s\n", path); return 2; }
    }
    char *all = join(src, nb);
    if (!all) return 2;
    for (int k = 0; k < 2; k++) {
      int regs = 0;
      long sp = 0;
      programs++;
      if (!compile(names[b0], all, sms[k], 1, &regs, &sp) && !sp) {
        if (regs > most) most = regs;
        continue;
      }
      for (int i = 0; i < nb; i++) { /* name the source */
        programs++;
        bad += compile(names[b0 + i], src[i], sms[k], 0, &regs, &sp);
        if (regs > most) most = regs;
        if (sp) { spilled++; printf("%s (sm_%d): %ld bytes spilled\n", names[b0 + i], sms[k], sp); }
      }
    }
    free(all);
    for (int i = 0; i < nb; i++) free(src[i]);
  }
  printf("nvrtc: %d kernel sources for sm_80 and sm_90 (%d programs), %d failed; at most %d registers; %ld with "
         "spills\n", n, programs, bad, most, spilled);
  for (int i = 0; i < n; i++) free(names[i]);
  free(names);
  return bad || n == 0;
}
