/* Private: a matrix in a 2-d block-cyclic distribution (ScaLAPACK's), and
 * moves between it and maniple arrays. Square nb x nb blocks; block row I
 * lives on grid row I mod pr, block column J on grid column J mod pc. Each
 * rank's blocks are stored row-major (row stride ln), which ScaLAPACK reads
 * as the column-major storage of the transpose (arrays/factor.c). */
#ifndef MANIPLE_BLOCK_CYCLIC_H
#define MANIPLE_BLOCK_CYCLIC_H
#include "mn_impl.h"

typedef struct {
  mn_ctx *ctx;
  int64_t m, n;   /* global rows and columns */
  int64_t nb;     /* block size */
  int pr, pc;     /* grid rows and columns (pr * pc = ranks) */
  int myr, myc;   /* this rank's cell */
  int64_t lm, ln; /* this rank's local rows and columns */
  int *rank_of;   /* cell r * pc + c -> rank in ctx's communicator */
} mn_bc;

/* The local extent of n over nprocs in blocks of nb on process p (numroc). */
int64_t mn_bc_local(int64_t n, int64_t nb, int p, int nprocs);
/* g for an m x n matrix on a pr x pc grid whose cells are rank_of
 * (copied); this rank's cell is found there. */
int mn_bc_init(mn_bc *g, mn_ctx *ctx, int64_t m, int64_t n, int64_t nb, int pr, int pc, const int *rank_of);
void mn_bc_free(mn_bc *g);

/* Moves between a (a 1-d or 2-d array, a 1-d one as a row) and the window
 * of the block-cyclic matrix whose top left element is (r0, c0): element
 * (i, j) of a is (r0 + i, c0 + j) of the matrix. loc is this rank's local
 * storage (lm x ln, row-major). Point-to-point messages whose sizes each
 * side computes: no collective. */
int mn_bc_from_array(const mn_bc *g, const mn_array *a, int64_t r0, int64_t c0, char *loc);
int mn_bc_to_array(const mn_bc *g, const char *loc, int64_t r0, int64_t c0, mn_array *a);
#endif
