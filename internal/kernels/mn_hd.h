/* MN_HD marks kernel bodies compiled both for the host and for CUDA. */
#ifndef MANIPLE_MN_HD_H
#define MANIPLE_MN_HD_H
#ifdef __CUDACC__
#define MN_HD __host__ __device__
#else
#define MN_HD
#endif
/* An integer division by zero raises divide-by-zero on the host, as
 * NumPy's integer loops do (a GPU has no floating-point flags); an integer
 * reciprocal of zero also raises invalid (NumPy converts 1.0 / 0 to it). */
#ifdef __CUDACC__
#define MN_RAISE_DIVZERO() ((void)0)
#define MN_RAISE_DIVZERO_INVALID() ((void)0)
#else
#include <fenv.h>
#define MN_RAISE_DIVZERO() ((void)feraiseexcept(FE_DIVBYZERO))
#define MN_RAISE_DIVZERO_INVALID() ((void)feraiseexcept(FE_DIVBYZERO | FE_INVALID))
#endif
#endif
