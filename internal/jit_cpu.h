/* Fused expressions compiled to native code at run time (arrays/jit_cpu.c). */
#ifndef MANIPLE_JIT_CPU_H
#define MANIPLE_JIT_CPU_H
#include "eval_impl.h"

/* When P's compiled kernel is ready (compiling it in the background, or
 * now under MANIPLE_JIT=sync, when it is hot and worth it), set P->jit
 * and the scalars it reads; otherwise leave P as it is. npoints: the
 * elements this rank evaluates. Never fails: the interpreter is always
 * there. */
void mn_jit_attach(prog *P, int64_t npoints);
/* kernels_cpu.c: whether the interpreter's unary op on dtype dt runs
 * libmvec's vector function (whose values a compiled loop would not
 * reproduce) */
int mn_unary_vec(int op, int dt);
#endif
