/* MN_HD marks kernel bodies compiled both for the host and for CUDA. */
#ifndef MANIPLE_MN_HD_H
#define MANIPLE_MN_HD_H
#ifdef __CUDACC__
#define MN_HD __host__ __device__
#else
#define MN_HD
#endif
#endif
