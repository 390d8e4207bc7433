/* CUDA C source of a fused expression (one kernel over a box of any
 * strides), for NVRTC: the nodes call the bodies of kernels/ops.h, as the
 * CPU tables do. The source depends only on the program's structure and
 * dtypes; pointers, strides, extents and scalar values are arguments, so
 * a time loop compiles each statement once. */
#include "eval_impl.h"
#include "kernel_src.h"
#include "kernels/ops.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NAME(E, N, S, TI, TO) [(E) * MN_NDTYPE + MN_DT_##S] = #N "_" #S,
static const char *const un_name[MN_NUNARY * MN_NDTYPE] = {MN_UNARY_LIST(NAME)};
static const char *const bin_name[MN_NBINARY * MN_NDTYPE] = {MN_BINARY_LIST(NAME)};
static const char *const ter_name[MN_NTERNARY * MN_NDTYPE] = {MN_TERNARY_LIST(NAME)};

static const char *ctype(mn_dtype t) {
  switch (t) {
  case MN_BOOL: return "mn_b";
  case MN_INT8: return "int8_t";
  case MN_INT16: return "int16_t";
  case MN_INT32: return "int32_t";
  case MN_INT64: return "int64_t";
  case MN_UINT8: return "uint8_t";
  case MN_UINT16: return "uint16_t";
  case MN_UINT32: return "uint32_t";
  case MN_UINT64: return "uint64_t";
  case MN_FLOAT32: return "float";
  case MN_FLOAT16: return "mn_h";
  case MN_COMPLEX64: return "mn_c64";
  case MN_COMPLEX128: return "mn_c128";
  default: return "double";
  }
}

/* how a value of t is read as a number: float16's bits through mn_h2f */
static const char *ld(mn_dtype t) { return t == MN_FLOAT16 ? "mn_h2f" : ""; }

/* the cast of a value of dtype from to dtype to, as kernels/ops.h's
 * MN_CAST_LIST has it: a complex value is a pair (its real part to a real
 * type, both parts to bool and to complex) */
static const char *cast_fmt(mn_dtype from, mn_dtype to) {
  if (!mn_is_complex(from)) return "MN_CAST_VAL(%s, %s(v%d))";
  if (to == MN_BOOL) return "MN_CV_mn_bz(%.0s%sv%d)";
  if (to == MN_COMPLEX64) return "MN_CV_mn_zc64(%.0s%sv%d)";
  if (to == MN_COMPLEX128) return "MN_CV_mn_zc128(%.0s%sv%d)";
  return "MN_CAST_VAL(%s, %sv%d.re)";
}

typedef struct { char *p; size_t cap, len; int over; } sbuf;
static void put(sbuf *s, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int k = vsnprintf(s->p + s->len, s->len < s->cap ? s->cap - s->len : 0, fmt, ap);
  va_end(ap);
  if (k < 0 || s->len + (size_t)k >= s->cap) s->over = 1;
  else s->len += (size_t)k;
}

/* The nodes root needs, each after its arguments (the program's own list
 * leaves out what the CPU path fuses into linear combinations). seen has
 * e->n entries; returns the count. */
static int order(const mn_expr *e, int j, unsigned char *seen, int *out, int n) {
  if (seen[j]) return n;
  seen[j] = 1;
  const mn_node *v = &e->v[j];
  int k = mn_node_arity(v);
  if (k > 0) n = order(e, v->a, seen, out, n);
  if (k > 1) n = order(e, v->b, seen, out, n);
  if (k > 2) n = order(e, v->c, seen, out, n);
  out[n++] = j;
  return n;
}

/* the nodes in order, in nodes[] (e->n entries, malloc'd by the caller):
 * the root's, then (extras) the extra outputs' not among them */
static int nodes_of(const prog *P, int *nodes, int extras) {
  unsigned char *seen = calloc((size_t)P->e->n, 1);
  if (!seen) return -1;
  int n = order(P->e, P->root, seen, nodes, 0);
  for (int x = 0; extras && x < P->nx; x++) n = order(P->e, P->xnode[x], seen, nodes, n);
  free(seen);
  return n;
}

/* The statement computing node j as "const T vJ = ...;". Device: inputs
 * read a.in[] at their offsets, scalars a.sf/a.si (*si: the next scalar's
 * place). Host (mn_kernel_host_src): inputs read pointer iK at element k
 * (K the operand), scalars sf/si as the device's. */
static int put_node(sbuf *s, const prog *P, int j, int host, int *si) {
  const mn_expr *e = P->e;
  const mn_node *n = &e->v[j];
  const char *T = ctype(n->dtype), *f = NULL, *A = host ? "" : "a.";
  switch (n->kind) {
  case MN_N_INPUT:
    if (P->opi[j] < 0) return MN_ERR(MN_ERR_ARG, "internal: input node %d is not an operand", j);
    if (host) put(s, "    const %s v%d = i%d[k];\n", T, j, P->opi[j]);
    else put(s, "    const %s v%d = ((const %s *)a.in[%d])[o%d];\n", T, j, T, P->opi[j], P->opi[j]);
    break;
  case MN_N_SCALAR:
    if (n->dtype == MN_FLOAT16) put(s, "    const mn_h v%d = mn_d2h(%ssf[%d]);\n", j, A, (*si)++);
    else if (mn_is_complex(n->dtype)) { /* the real part in sf, the imaginary one's bits in si */
      const char *R = n->dtype == MN_COMPLEX64 ? "float" : "double";
      if (host) put(s, "    double im%d; memcpy(&im%d, &si[%d], 8);\n", j, j, *si);
      put(s, "    const %s v%d = mn_mk_%s((%s)%ssf[%d], (%s)", T, j, n->dtype == MN_COMPLEX64 ? "c64" : "c128", R, A,
          *si, R);
      if (host) put(s, "im%d);\n", j);
      else put(s, "__longlong_as_double(a.si[%d]));\n", *si);
      (*si)++;
    }
    else put(s, "    const %s v%d = (%s)%s%s[%d];\n", T, j, T, A, mn_is_float(n->dtype) ? "sf" : "si", (*si)++);
    break;
  case MN_N_CAST:
    put(s, "    const %s v%d = ", T, j);
    put(s, cast_fmt(e->v[n->a].dtype, n->dtype), T, ld(e->v[n->a].dtype), n->a);
    put(s, ";\n");
    break;
  case MN_N_UNARY:
    f = un_name[n->op * MN_NDTYPE + n->ct];
    if (!f) return MN_ERR(MN_ERR_DTYPE, "no kernel body for unary op %d on %s", n->op, mn_dtype_name(n->ct));
    put(s, "    const %s v%d = mni_k_%s(v%d);\n", T, j, f, n->a);
    break;
  case MN_N_BINARY:
    f = bin_name[n->op * MN_NDTYPE + n->ct];
    if (!f) return MN_ERR(MN_ERR_DTYPE, "no kernel body for binary op %d on %s", n->op, mn_dtype_name(n->ct));
    put(s, "    const %s v%d = mni_k_%s(v%d, v%d);\n", T, j, f, n->a, n->b);
    break;
  case MN_N_TERNARY:
    f = ter_name[n->op * MN_NDTYPE + n->ct];
    if (!f) return MN_ERR(MN_ERR_DTYPE, "no kernel body for ternary op %d on %s", n->op, mn_dtype_name(n->ct));
    put(s, "    const %s v%d = mni_k_%s(v%d, v%d, v%d);\n", T, j, f, n->a, n->b, n->c);
    break;
  }
  return MN_SUCCESS;
}

int mn_kernel_fits(const prog *P) {
  const mn_expr *e = P->e;
  if (P->nops > MAXOPS) return 0;
  int *nodes = malloc(sizeof(int) * (size_t)e->n);
  int nn = nodes ? nodes_of(P, nodes, 0) : -1, ns = 0, ok = nn >= 0 && nn <= MN_KERNEL_NODES;
  for (int k = 0; ok && k < nn; k++) {
    const mn_node *n = &e->v[nodes[k]];
    ns += n->kind == MN_N_SCALAR;
    if (n->kind == MN_N_UNARY) ok = un_name[n->op * MN_NDTYPE + n->ct] != NULL;
    if (n->kind == MN_N_BINARY) ok = bin_name[n->op * MN_NDTYPE + n->ct] != NULL;
    if (n->kind == MN_N_TERNARY) ok = ter_name[n->op * MN_NDTYPE + n->ct] != NULL;
    if (n->kind == MN_N_INPUT) ok = P->opi[nodes[k]] >= 0;
  }
  free(nodes);
  return ok && ns <= MN_KERNEL_SCALARS;
}

int mn_kernel_src(const prog *P, mn_dtype odt, char *buf, size_t cap, mn_kernel_shape *ks) {
  const mn_expr *e = P->e;
  int nd = P->nd > 0 ? P->nd : 1, ni = P->nops, ns = 0;
  sbuf s = {buf, cap, 0, 0};
  int *nodes = malloc(sizeof(int) * (size_t)e->n);
  int nn = nodes ? nodes_of(P, nodes, 0) : -1;
  if (nn < 0) { free(nodes); return MN_ERR(MN_ERR_MEM, "cannot order %d nodes", e->n); }
  int err = MN_SUCCESS;
  for (int k = 0; k < nn; k++) ns += e->v[nodes[k]].kind == MN_N_SCALAR;
  if (ns > MN_KERNEL_SCALARS) {
    free(nodes);
    return MN_ERR(MN_ERR_NOTIMPL, "a device kernel of %d scalars (at most %d)", ns, MN_KERNEL_SCALARS);
  }
  mn_dtype rdt = e->v[P->root].dtype;
  int red = P->reduce, rop = (int)P->rop, isf = mn_is_float(rdt),
      kind = isf ? 1 : mn_is_uint(rdt) ? 2 : mn_is_complex(rdt) ? 3 : 0;
  put(&s, "#include \"kernels/ops.h\"\n");
  if (red) put(&s, "#include \"kernels/reduce.h\"\n");
  put(&s, "struct mn_args { long long n; long long cnt[%d]; const char *in[%d]; long long ist[%d][%d]; "
          "char *out; long long ost[%d]; double sf[%d]; long long si[%d];%s",
      nd, ni ? ni : 1, ni ? ni : 1, nd, nd, ns ? ns : 1, ns ? ns : 1, red ? "" : " };\n");
  /* a reduction: each element's flat index (for arg*), and where the blocks' accumulators go */
  if (red) put(&s, " long long fbase; long long fst[%d]; mn_acc *part; };\n", nd);
  put(&s, "extern \"C\" __global__ void mn_eval_kernel(const mn_args a) {\n");
  if (red) put(&s, "  __shared__ mn_acc sh[%d];\n  mn_acc acc;\n  mni_acc_init(%d, &acc);\n", MN_KERNEL_BLOCK, rop);
  put(&s, "  for (long long k = blockIdx.x * (long long)blockDim.x + threadIdx.x; k < a.n;\n"
          "       k += (long long)blockDim.x * gridDim.x) {\n"
          "    long long r = k, c, oo = 0%s", red ? ", ff = a.fbase" : "");
  for (int i = 0; i < ni; i++) put(&s, ", o%d = 0", i);
  put(&s, ";\n");
  for (int d = nd - 1; d >= 0; d--) {
    put(&s, "    c = r %% a.cnt[%d]; r /= a.cnt[%d]; oo += c * a.ost[%d];", d, d, d);
    if (red) put(&s, " ff += c * a.fst[%d];", d);
    for (int i = 0; i < ni; i++) put(&s, " o%d += c * a.ist[%d][%d];", i, i, d);
    put(&s, "\n");
  }
  int si = 0;
  for (int k = 0; k < nn && !err; k++) err = put_node(&s, P, nodes[k], 0, &si);
  if (!red) {
    put(&s, "    ((%s *)a.out)[oo] = ", ctype(odt));
    put(&s, cast_fmt(e->v[P->root].dtype, odt), ctype(odt), ld(e->v[P->root].dtype), P->root);
    put(&s, ";\n  }\n}\n");
  } else { /* each thread's elements, then a tree over the block (and over the blocks in mn_reduce_final) */
    int R = P->root;
    if (kind == 3) put(&s, "    mni_acc_push_c(%d, &acc, (double)v%d.re, (double)v%d.im, ff);\n  }\n", rop, R, R);
    else if (isf) put(&s, "    mni_acc_push(%d, 1, &acc, (double)%s(v%d), 0, %s(v%d) != 0, ff);\n  }\n", rop, ld(rdt), R,
                 ld(rdt), R);
    else put(&s, "    mni_acc_push(%d, %d, &acc, 0, (long long)v%d, v%d != 0, ff);\n  }\n", rop, kind, R, R);
    const char *tree = "  sh[threadIdx.x] = acc;\n  __syncthreads();\n"
                       "  for (int s = blockDim.x / 2; s > 0; s >>= 1) {\n"
                       "    if (threadIdx.x < s) mni_acc_merge(%d, %d, &sh[threadIdx.x], &sh[threadIdx.x + s]);\n"
                       "    __syncthreads();\n  }\n";
    put(&s, tree, rop, kind);
    put(&s, "  if (threadIdx.x == 0) a.part[blockIdx.x] = sh[0];\n}\n");
    put(&s, "extern \"C\" __global__ void mn_reduce_final(mn_acc *part, int n, long long stride) {\n"
            "  __shared__ mn_acc sh[%d];\n  mn_acc acc;\n  mni_acc_init(%d, &acc);\n"
            "  for (int k = threadIdx.x; k < n; k += blockDim.x) mni_acc_merge(%d, %d, &acc, &part[k * stride]);\n",
        MN_KERNEL_BLOCK, rop, rop, kind);
    put(&s, tree, rop, kind);
    put(&s, "  if (threadIdx.x == 0) part[0] = sh[0]; /* every part was read before the first barrier */\n}\n");
  }
  free(nodes);
  if (err) return err;
  MN_CHECK(!s.over, MN_ERR_MEM, "the source of a kernel of %d nodes does not fit in %zu bytes", e->n, cap);
  ks->nd = nd;
  ks->ni = ni;
  ks->ns = ns;
  return MN_SUCCESS;
}

int mn_kernel_host_src(const prog *P, char *buf, size_t cap, int *scal, int *nscal) {
  const mn_expr *e = P->e;
  sbuf s = {buf, cap, 0, 0};
  int *nodes = malloc(sizeof(int) * (size_t)e->n), nn = nodes ? nodes_of(P, nodes, 1) : -1, err = MN_SUCCESS,
      si = 0, ns = 0;
  if (nn < 0) {
    free(nodes);
    return MN_ERR(MN_ERR_MEM, "cannot order %d nodes", e->n);
  }
  put(&s, "#include <string.h>\n#include \"kernels/ops.h\"\n"
          "void mn_jit(long long n, const void *const *in, void *const *out, const double *sf, const long long *si) {\n");
  for (int i = 0; i < P->nops; i++) {
    const char *T = ctype(e->v[P->ops[i].node].dtype);
    put(&s, "  const %s *restrict i%d = (const %s *)in[%d];\n", T, i, T, i);
  }
  for (int x = 0; x <= P->nx; x++) {
    const char *T = ctype(e->v[x ? P->xnode[x - 1] : P->root].dtype);
    put(&s, "  %s *restrict x%d = (%s *)out[%d];\n", T, x, T, x);
  }
  for (int k = 0; k < nn && !err; k++) /* the scalars once, before the loop */
    if (e->v[nodes[k]].kind == MN_N_SCALAR) {
      if (ns == MN_KERNEL_SCALARS) err = MN_ERR(MN_ERR_NOTIMPL, "a kernel of more than %d scalars", ns);
      else { scal[ns++] = nodes[k]; err = put_node(&s, P, nodes[k], 1, &si); }
    }
  /* outputs never overlap inputs (run_jit in eval_kernel.c): without the
   * promise, more than one output took GCC past its run-time alias checks
   * and the loop stayed scalar */
  put(&s, "  (void)sf; (void)si;\n#if defined(__clang__)\n#pragma clang loop vectorize(assume_safety)\n"
          "#elif defined(__GNUC__)\n#pragma GCC ivdep\n#endif\n  for (long long k = 0; k < n; k++) {\n");
  for (int k = 0; k < nn && !err; k++)
    if (e->v[nodes[k]].kind != MN_N_SCALAR) err = put_node(&s, P, nodes[k], 1, &si);
  for (int x = 0; x <= P->nx; x++) put(&s, "    x%d[k] = v%d;\n", x, x ? P->xnode[x - 1] : P->root);
  put(&s, "  }\n}\n");
  free(nodes);
  if (err) return err;
  MN_CHECK(!s.over, MN_ERR_MEM, "the source of a kernel of %d nodes does not fit in %zu bytes", e->n, cap);
  *nscal = ns;
  return MN_SUCCESS;
}

/* the argument block, laid out as the generated struct mn_args */
size_t mn_kernel_args(const mn_kernel_shape *ks, const mn_eval_launch *L, char *blk) {
  const prog *P = L->P;
  const mn_expr *e = P->e;
  int nd = ks->nd, ni = ks->ni ? ks->ni : 1, ns = ks->ns ? ks->ns : 1;
  size_t off = 0;
#define PUT(v) do { memcpy(blk + off, &(v), sizeof(v)); off += sizeof(v); } while (0)
#define ALIGN8() (off = (off + 7) / 8 * 8)
  const cell *C = L->C;
  long long n = 1;
  for (int d = 0; d < P->nd; d++) n *= C->cnt[d];
  PUT(n);
  for (int d = 0; d < nd; d++) { long long c = P->nd ? C->cnt[d] : 1; PUT(c); }
  for (int i = 0; i < ni; i++) { const char *p = i < ks->ni ? C->optr[i] : NULL; PUT(p); }
  for (int i = 0; i < ni; i++)
    for (int d = 0; d < nd; d++) { long long v = i < ks->ni ? C->ost[i][d] : 0; PUT(v); }
  PUT(C->out);
  for (int d = 0; d < nd; d++) { long long v = C->outst[d]; PUT(v); }
  double sf[MN_KERNEL_SCALARS] = {0};
  long long sv[MN_KERNEL_SCALARS] = {0};
  int k = 0, *nodes = malloc(sizeof(int) * (size_t)e->n), nn = nodes ? nodes_of(P, nodes, 0) : -1;
  if (nn < 0) { free(nodes); return 0; }
  for (int q = 0; q < nn && k < MN_KERNEL_SCALARS; q++) {
    const mn_node *v = &e->v[nodes[q]];
    if (v->kind != MN_N_SCALAR) continue;
    sf[k] = v->s.v.f;
    sv[k] = v->s.v.i;
    if (mn_is_complex(v->dtype)) memcpy(&sv[k], &v->s.im, sizeof sv[k]); /* the imaginary part's bits */
    k++;
  }
  free(nodes);
  for (int q = 0; q < ns; q++) PUT(sf[q]);
  for (int q = 0; q < ns; q++) PUT(sv[q]);
  if (P->reduce) {
    long long fb = 0;
    for (int d = 0; d < P->nd; d++) fb += C->lo[d] * P->cstride[d];
    PUT(fb);
    for (int d = 0; d < nd; d++) { long long v = P->nd ? P->cstride[d] : 0; PUT(v); }
    PUT(L->part);
  }
  ALIGN8();
  return off;
#undef PUT
#undef ALIGN8
}
