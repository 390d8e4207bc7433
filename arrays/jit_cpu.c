/* Fused expressions compiled to native code at run time (as a JIT). The
 * interpreter (eval_kernel.c) runs a program node by node over blocks, a
 * load and a store per node and element: a long program (swe's flux pass,
 * some 90 operations) then costs several times what one loop holding
 * every value in registers costs. A hot program's host C source
 * (mn_kernel_host_src: the same kernels/ops.h bodies the interpreter's
 * tables expand) is compiled by the C compiler maniple was built with into
 * a shared object, in a background thread, and loaded with dlopen; until
 * it is ready, and wherever anything fails, the interpreter runs. Results
 * are the interpreter's bit for bit: the same operations in the same
 * order with no contraction, libmvec's functions are left to the
 * interpreter, and a block whose comparisons raised invalid (a NaN) runs
 * again through the interpreter for NumPy's flags.
 *
 * MANIPLE_JIT: unset or "auto" compiles a program at its third large
 * evaluation (JIT_MIN element-operations, an operation or more per array
 * it reads or writes), in the background; "sync"
 * compiles any program of two operations or more at its first evaluation
 * and waits (the tests); "0" never. MANIPLE_JIT_CC names the compiler.
 * Objects are kept in the kernel cache directory (kernel_cache.c), each
 * beside its source, which is compared whole before an object is used. */
#define _POSIX_C_SOURCE 200809L /* strdup, posix_spawn */
#include "jit_cpu.h"
#include "kernel_src.h"
#include "mn_impl.h"
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <fenv.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

#ifndef MN_JIT_CC
#define MN_JIT_CC "cc"
#endif

enum { JIT_SLOTS = 1024, JIT_MIN_OPS = 4, JIT_HOT = 3 };
#define JIT_MIN (2.0 * 1024 * 1024) /* element-operations of an evaluation worth compiling for */

enum { J_NEW, J_QUEUED, J_READY, J_FAILED };
typedef struct {
  uint64_t key;
  char *src;      /* the program's source, owned */
  int state, seen;
  mn_jit_fn fn;
} entry;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t wake = PTHREAD_COND_INITIALIZER, done = PTHREAD_COND_INITIALIZER;
static entry table[JIT_SLOTS];
static int nentries, worker_on, mode = -1; /* -1 unread, else an mn_jit_mode */
static volatile int no_cc;                  /* the compiler could not be started */
static int queue[JIT_SLOTS], qhead, qtail;

static int jit_mode(void) {
  if (mode < 0) {
    const char *m = getenv("MANIPLE_JIT");
    mode = !m || !*m || !strcmp(m, "auto") || !strcmp(m, "1") ? MN_JIT_AUTO : !strcmp(m, "sync") ? MN_JIT_SYNC : MN_JIT_OFF;
  }
  return mode;
}

mn_jit_mode mn_jit_set_mode(mn_jit_mode m) {
  pthread_mutex_lock(&lock);
  int old = jit_mode();
  if (m >= MN_JIT_OFF && m <= MN_JIT_SYNC) mode = (int)m;
  pthread_mutex_unlock(&lock);
  return (mn_jit_mode)old;
}

int mn_jit_kernels(void) {
  pthread_mutex_lock(&lock);
  int n = 0;
  for (int k = 0; k < JIT_SLOTS; k++) n += table[k].state == J_READY;
  pthread_mutex_unlock(&lock);
  return n;
}

static int verbose(void) {
  const char *v = getenv("MANIPLE_JIT_VERBOSE");
  return v && *v && strcmp(v, "0");
}

static uint64_t fnv(const char *s, uint64_t h) {
  for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
  return h;
}

/* The target flags (chosen from this CPU, so an object never meets a CPU
 * without its instructions: they are in the source's first line, and so
 * in its key). Complex programs get no FMA: GCC 12 vectorises a complex
 * product (and sum) into vfmaddsub even under -ffp-contract=off, an ulp
 * off the interpreter's. */
static const char *arch_flag(int cplx) {
#if defined(__x86_64__) && defined(__GNUC__)
  if (cplx) return "-march=x86-64-v2";
  if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq") &&
      __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512vl"))
    return "-march=x86-64-v4";
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi2"))
    return "-march=x86-64-v3";
  return "-march=x86-64-v2";
#else
  (void)cplx;
  return "-O3";
#endif
}

/* The kernel cache's directory with "/cpu" after it (0: no cache, so no
 * compiled kernels) */
static int dir_of(char *d, size_t n) {
  char b[3000];
  return mn_kcache_dir(b, sizeof b) && snprintf(d, n, "%s/cpu", b) < (int)n;
}

/* Whether file p holds exactly text (n bytes) */
static int same_file(const char *p, const char *text, size_t n) {
  FILE *f = fopen(p, "rb");
  if (!f) return 0;
  char *b = malloc(n + 1);
  int ok = b && fread(b, 1, n + 1, f) == n && !memcmp(b, text, n);
  free(b);
  fclose(f);
  return ok;
}

/* Write text to p through a temporary name (ranks writing the same file
 * at once never leave a torn one) */
static int put_file(const char *p, const char *text) {
  char t[4200];
  snprintf(t, sizeof t, "%s.%ld.tmp", p, (long)getpid());
  FILE *f = fopen(t, "wb");
  if (!f) return 0;
  size_t n = strlen(text);
  int ok = fwrite(text, 1, n, f) == n;
  ok = !fclose(f) && ok;
  if (!ok || rename(t, p)) { remove(t); return 0; }
  return 1;
}

/* The kernel headers under d/inc-<hash>/kernels (once per version) */
static int headers(const char *d, uint64_t hh, char *inc, size_t n) {
  if (snprintf(inc, n, "%s/inc-%016llx", d, (unsigned long long)hh) >= (int)n) return 0;
  for (int k = 0; k < mni_src_nhdr; k++) {
    char p[4096];
    if (snprintf(p, sizeof p, "%s/%s", inc, mni_src_hdr_name[k]) >= (int)sizeof p) return 0;
    size_t len = strlen(mni_src_hdr[k]);
    if (same_file(p, mni_src_hdr[k], len)) continue;
    char dd[4096];
    snprintf(dd, sizeof dd, "%s", p);
    char *slash = strrchr(dd, '/');
    *slash = '\0';
    if (!mn_kcache_mkdirs(dd) || !put_file(p, mni_src_hdr[k])) return 0;
  }
  return 1;
}

static uint64_t headers_hash(void) {
  uint64_t h = 1469598103934665603ull;
  for (int k = 0; k < mni_src_nhdr; k++) h = fnv(mni_src_hdr[k], fnv(mni_src_hdr_name[k], h));
  return h;
}

/* Run argv, waiting; 1 when it exited 0 */
static int run(char *const *argv) {
  pid_t pid;
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (!verbose()) {
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
  }
  int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
  posix_spawn_file_actions_destroy(&fa);
  if (rc) { /* no compiler: nothing more is tried in this process */
    no_cc = 1;
    return 0;
  }
  int st = 0;
  while (waitpid(pid, &st, 0) < 0)
    if (errno != EINTR) return 0;
  return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* The object of src (key), compiled now or found in the cache: its
 * function, or NULL. Runs without the lock. */
static mn_jit_fn build(uint64_t key, const char *src) {
  static uint64_t hh;
  char d[3000], inc[3200], c[3300], so[3300], tmp[3400];
  if (!hh) hh = headers_hash();
  if (!dir_of(d, sizeof d) || !mn_kcache_mkdirs(d) || !headers(d, hh, inc, sizeof inc)) return NULL;
  snprintf(c, sizeof c, "%s/%016llx-%016llx.c", d, (unsigned long long)key, (unsigned long long)hh);
  snprintf(so, sizeof so, "%s/%016llx-%016llx.so", d, (unsigned long long)key, (unsigned long long)hh);
  size_t n = strlen(src);
  if (!(same_file(c, src, n) && access(so, R_OK) == 0)) {
    const char *cc = getenv("MANIPLE_JIT_CC");
    char incf[3300], csrc[3400];
    snprintf(incf, sizeof incf, "-I%s", inc);
    snprintf(csrc, sizeof csrc, "%s.%ld.src.c", c, (long)getpid());
    snprintf(tmp, sizeof tmp, "%s.%ld.tmp", so, (long)getpid());
    if (!put_file(csrc, src)) return NULL;
    /* the interpreter's kernels' options: no contraction into fma, no errno */
    char arch[64] = "-O3"; /* the source's first line names it */
    sscanf(src, "/* maniple jit -O3 %63s", arch);
    char *argv[] = {(char *)(cc && *cc ? cc : MN_JIT_CC), "-O3", arch, "-ffp-contract=off",
                    "-fno-math-errno", "-fPIC", "-shared", incf, "-o", tmp, csrc, NULL};
    int ok = run(argv);
    if (ok) ok = !rename(tmp, so) && put_file(c, src);
    remove(csrc);
    if (!ok) {
      remove(tmp);
      if (verbose()) fprintf(stderr, "maniple jit: %s could not compile %s\n", argv[0], csrc);
      return NULL;
    }
  }
  void *h = dlopen(so, RTLD_NOW | RTLD_LOCAL);
  if (!h) return NULL;
  mn_jit_fn fn;
  void *sym = dlsym(h, "mn_jit");
  memcpy(&fn, &sym, sizeof fn);
  return fn; /* the object stays loaded for the process's life */
}

static void *worker(void *arg) {
  (void)arg;
  pthread_mutex_lock(&lock);
  for (;;) {
    while (qhead == qtail) pthread_cond_wait(&wake, &lock);
    entry *t = &table[queue[qhead++ % JIT_SLOTS]];
    uint64_t key = t->key;
    const char *src = t->src;
    pthread_mutex_unlock(&lock);
    mn_jit_fn fn = build(key, src);
    pthread_mutex_lock(&lock);
    t->fn = fn;
    t->state = fn ? J_READY : J_FAILED;
    pthread_cond_broadcast(&done);
  }
  return NULL;
}

/* A child of fork has no worker: what was queued is queued again when
 * next met (its lock is released: fork copies this thread alone, and
 * prepare took the lock so that no other thread held it) */
static void fork_prepare(void) { pthread_mutex_lock(&lock); }
static void fork_parent(void) { pthread_mutex_unlock(&lock); }
static void fork_child(void) {
  worker_on = 0;
  qhead = qtail = 0;
  for (int k = 0; k < JIT_SLOTS; k++)
    if (table[k].state == J_QUEUED) table[k].state = J_NEW;
  pthread_mutex_unlock(&lock);
}
static void at_fork(void) { pthread_atfork(fork_prepare, fork_parent, fork_child); }

/* The entry of (key, src): found, or new (NULL when the table is full) */
static entry *find(uint64_t key, const char *src) {
  for (int k = 0; k < JIT_SLOTS; k++) {
    entry *t = &table[(key + (uint64_t)k) % JIT_SLOTS];
    if (!t->src) {
      if (nentries >= JIT_SLOTS * 3 / 4 || !(t->src = strdup(src))) return NULL;
      t->key = key;
      nentries++;
      return t;
    }
    if (t->key == key && !strcmp(t->src, src)) return t;
  }
  return NULL;
}

void mn_jit_attach(prog *P, int64_t npoints) {
  int m = jit_mode();
  if (!m || no_cc || P->nops > MAXOPS) return;
  /* its operations, and whether it compares (quiet), is complex, or has a
   * libmvec function (those keep the interpreter's values) */
  int nop = 0, quiet = 0, cplx = 0, vec = 0;
  for (int k = 0; k < P->nlive; k++) {
    const mn_node *n = &P->e->v[P->live[k]];
    nop += n->kind >= MN_N_UNARY || P->lc[P->live[k]].n;
    quiet |= mn_eval_quiet(n);
    cplx |= mn_is_complex(n->dtype) || mn_is_complex(n->ct);
    vec |= n->kind == MN_N_UNARY && mn_unary_vec(n->op, n->ct);
  }
  if (vec || nop < (m == MN_JIT_SYNC ? 2 : JIT_MIN_OPS)) return;
  /* auto: enough work, and an operation or more per array read or written
   * (fewer are bound by memory, where the interpreter's fused sums and
   * streaming stores do as well) */
  if (m == MN_JIT_AUTO && ((double)npoints * nop < JIT_MIN || nop < P->nops + 1 + P->nx)) return;
  static char *src; /* (under the lock) */
  int scal[MN_KERNEL_SCALARS], ns = 0;
  pthread_mutex_lock(&lock);
  if (!src) src = malloc(MN_KERNEL_SRC);
  int n0 = src ? snprintf(src, MN_KERNEL_SRC, "/* maniple jit -O3 %s */\n", arch_flag(cplx)) : 0;
  if (!src || mn_kernel_host_src(P, src + n0, MN_KERNEL_SRC - (size_t)n0, scal, &ns)) {
    pthread_mutex_unlock(&lock);
    return;
  }
  uint64_t key = fnv(src, 1469598103934665603ull);
  entry *t = find(key, src);
  mn_jit_fn fn = NULL;
  if (t && t->state == J_NEW && (m == MN_JIT_SYNC || ++t->seen >= JIT_HOT)) {
    if (!worker_on) {
      static pthread_once_t once = PTHREAD_ONCE_INIT;
      pthread_once(&once, at_fork);
      pthread_t th;
      pthread_attr_t at;
      pthread_attr_init(&at);
      pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
      worker_on = !pthread_create(&th, &at, worker, NULL);
      pthread_attr_destroy(&at);
    }
    if (worker_on) {
      t->state = J_QUEUED;
      queue[qtail++ % JIT_SLOTS] = (int)(t - table);
      pthread_cond_signal(&wake);
    } else {
      t->state = J_FAILED;
    }
  }
  if (t && m == MN_JIT_SYNC)
    while (t->state == J_QUEUED) pthread_cond_wait(&done, &lock);
  if (t && t->state == J_READY) fn = t->fn;
  pthread_mutex_unlock(&lock);
  if (!fn) return;
  for (int k = 0; k < ns; k++) { /* the values, as mn_kernel_args passes them */
    const mn_node *v = &P->e->v[scal[k]];
    P->jsf[k] = v->s.v.f;
    P->jsi[k] = v->s.v.i;
    if (mn_is_complex(v->dtype)) memcpy(&P->jsi[k], &v->s.im, sizeof P->jsi[k]);
  }
  P->jquiet = quiet;
  P->jit = fn;
}
