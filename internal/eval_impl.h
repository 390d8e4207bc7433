/* Private to the evaluation of fused expressions (arrays/eval*.c): the
 * program an evaluation runs, the operands' pieces, the cells the
 * iteration box is cut into, and the steps that share them. */
#ifndef MANIPLE_EVAL_IMPL_H
#define MANIPLE_EVAL_IMPL_H
#include "acc.h"
#include "expr_impl.h"
#include "fuse.h"

enum { BLK = 512, MAXOPS = 40, MAXX = 16, MAXES = 16 /* complex128's bytes: the widest element */ };
/* at most this many scalars in a generated kernel (kernel_src.c), whose
 * values a launch or a compiled kernel's call carries */
enum { MN_KERNEL_SCALARS = 64 };
/* a compiled program (jit_cpu.c): n elements from contiguous inputs into
 * outputs, scalars' values in sf/si */
typedef void (*mn_jit_fn)(long long n, const void *const *in, void *const *out, const double *sf, const long long *si);
/* band_mode buffers: about this many bytes per band (a row or two of a
 * large grid, so that the band, the rows it reads and the rows written back
 * stay in L1/L2: 256 KiB bands ran 10% slower), and at most this many when
 * the backward reach forces taller bands */
#define BAND_BYTES (32.0 * 1024)
#define BAND_MAX_BYTES (64.0 * 1024 * 1024)

typedef struct {
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM], st[MN_MAXDIM];
  char *ptr; /* element at lo */
  int local;
} piece;

typedef struct {
  int node;
  mn_map bmap;
  mn_plan *plan;
  int np;
  piece *pc;           /* local part and one per sending rank */
} operand;

typedef struct {
  const mn_expr *e;
  int root;
  int nops;
  operand *ops;
  int *opi;            /* node -> operand index or -1 */
  int *live;           /* nodes needed by root, in order */
  mn_lincomb *lc;      /* per node: fused linear combination (n = 0: none) */
  int nlive;
  int *slotof;         /* node -> its scratch slot (assign_slots in eval.c) */
  int nslots;
  size_t slot;         /* bytes of a node's block of values: BLK of its widest element, 8 at least */
  int nd;
  int64_t cstride[MN_MAXDIM]; /* C-order strides of the iteration shape */
  int64_t boxsize;     /* elements of the iteration box (1 for 0-d): the longest a unit can be (axes merged) */
  /* output (eval) or reduction */
  mn_dtype odt;         /* what is stored (a reduction: the values it reduces) */
  int reduce;
  mn_reduce_op rop;
  int stream;          /* output too large for cache: fused sums stream it */
  int deferred;        /* execute met an error on this rank alone and kept it (mn_defer): nothing computed */
  int nthreads;        /* threads a cell may use (mn_eval_execute's: its scratch and accumulators) */
  int64_t dev_cells;   /* cells launched by the last execute on the device */
  int dev;             /* operands' pointers are into device storage (eval_dev.c): */
  char *dev_outbuf;    /* each cell a launch of the backend, writing the device */
  size_t dev_outbytes; /* region dev_outbuf (or, a reduction, its accumulator */
  mn_acc *dev_part;    /* in dev_part[1], from each cell's block of MN_KERNEL_RED_BLOCKS after it) */
  /* a compiled kernel of the program (jit_cpu.c; NULL: the interpreter)
   * with its scalars' values, and whether it compares (its invalid flag
   * then comes from the interpreter) */
  mn_jit_fn jit;
  double jsf[MN_KERNEL_SCALARS];
  long long jsi[MN_KERNEL_SCALARS];
  int jquiet;
  /* extra outputs: node xnode[k] also stored in a fresh array aligned with
   * the iteration box (xbase[k]: its element at the box start) */
  int nx, xnode[MAXX];
  char *xbase[MAXX];
  int64_t xst[MAXX][MN_MAXDIM];
} prog;

typedef struct {
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM];
  char *optr[MAXOPS];
  int64_t ost[MAXOPS][MN_MAXDIM];
  char *out;
  int64_t outst[MN_MAXDIM];
  char *xout[MAXX];
} cell;

static inline size_t mn_eval_es(mn_dtype t) { return mn_dtype_size(t); }

/* In-place evaluation whose inputs read the output shifted (the stencil's
 * center[:] = f(north, south, ...)): bands of h output rows along axis 0
 * are computed into a small buffer and written back one band late, once no
 * later band reads them (h >= the furthest backward read along axis 0). */
typedef struct {
  int64_t h;
  char *buf[2];
  char *mem;                  /* out's element at the box start */
  int64_t st[MN_MAXDIM];      /* out's strides */
} band_mode;

/* eval_exec.c: fill elements of scalar node n's value in its dtype (the
 * block a kernel reads for a scalar operand) */
void mn_eval_scalar_fill(const mn_node *n, int64_t fill, char *slot);
/* eval_direct.c: node (one unary or binary op over whole arrays of out's
 * layout, or scalars) stored into out, a fresh array, by one table kernel
 * call on the local blocks; 0 when the statement is not of that form (the
 * general path then runs). Decided from global metadata and this rank's
 * storage; no collective either way. */
int mn_eval_direct(const mn_expr *e, int node, mn_array *out, int64_t *mem);
/* eval_kernel.c: the program over one cell, threads for large cells; acc
 * (reductions) per thread */
void mn_eval_run_cell(const prog *P, const cell *C, char *scratch_all, size_t scratch_per, mn_acc *accs);
/* eval_cells.c: cell c of the product of the cut points (lo, cnt); its
 * inputs' pointers and strides (*local: every input is local); its extra
 * outputs' pointers (Rlo: the iteration box's start) */
void mn_eval_cell_box(int64_t c, int nd, int64_t *const *cuts, const int *ncut, cell *C);
int mn_eval_cell_inputs(prog *P, cell *C, int *local);
void mn_eval_cell_xouts(const prog *P, cell *C, const int64_t *Rlo);
/* eval_cells.c: the banded driver (see band_mode) */
int mn_eval_run_bands(prog *P, const band_mode *bm, int64_t *const *cuts, const int *ncut, int64_t ncells,
                      const int64_t *Rlo, const int64_t *Rcnt, char *scratch, size_t per);
/* eval_exec.c: one evaluation over the boxes anchor map am owns on alay:
 * plans begun, local cells, plans ended, remaining cells; out (NULL for a
 * reduction into accs) with strides outst_at_Rlo. lerr is an error the
 * caller met on this rank alone (an allocation). When a plan had to be
 * built (the same on every rank) errors are agreed, once; otherwise no
 * collective is made and an error of this rank alone is deferred
 * (P->deferred; its messages still move, nothing is computed). */
int mn_eval_execute(prog *P, const mn_map *am, const mn_layout *alay, char *out, const int64_t *outst_at_Rlo,
                    mn_acc *accs, int nthreads, const band_mode *bm, int lerr);

/* eval_dev.c: evaluation on the device. A launch is the program over
 * one cell (mn_eval_execute's, whose pointers are device memory: the
 * operands' storage and their plans' device receive buffers), writing
 * C->out in outbuf, or a reduction's accumulator. */
struct mn_eval_launch_s {
  prog *P;
  const cell *C;
  char *outbuf;         /* the device region C->out points into, */
  size_t outbytes;      /* for the emulated launch's window */
  char *scratch;        /* the CPU evaluator's scratch (the emulated launch) */
  size_t per;
  mn_acc *part;         /* a reduction (P->reduce): device room for MN_KERNEL_RED_BLOCKS
                           accumulators; the launch leaves the cell's result in part[0] */
  int64_t nmerge;       /* C NULL: merge part[k * MN_KERNEL_RED_BLOCKS], k < nmerge (the
                           cells' results), into part[0] */
};
/* 1 when P, into out with nx extra outputs, can run on the device: a
 * device backend with an eval launch, a program with device bodies, no
 * extra outputs, not a reduction (decided from global metadata: the same
 * on every rank), and every input's values on the device. */
int mn_eval_device_ok(const prog *P, const mn_array *out, int nx);
/* Inputs' and out's device copies made current, then the launch. */
int mn_eval_device(prog *P, mn_array *out);
/* The same for a whole-array reduction (P->reduce, no extra outputs):
 * 1 when it can run on the device (the same on every rank but for where
 * the data is); then, over the anchor map am on alay, this rank's
 * accumulator, brought to *acc (one copy of its bytes, the scalar asked
 * for). Operands read elsewhere come through their plans, as in an
 * evaluation: each cell leaves its accumulator, and they are merged on
 * the device in order. */
int mn_eval_device_reduce_ok(const prog *P);
int mn_eval_device_reduce(prog *P, const mn_map *am, const mn_layout *alay, mn_acc *acc);
/* the emulated backend's launch, and CUDA's (arrays/cuda/jit.cu) */
int mni_emu_eval(const mn_eval_launch *L);
int mni_cuda_eval(const mn_eval_launch *L);
/* Operations that raise no floating-point exception for a NaN operand in
 * NumPy (comparisons, min/max, clip, sign, the NaN and infinity tests):
 * their kernels compare with the signalling predicates C compilers
 * vectorise to, so an invalid they raise is dropped. */
static inline int mn_eval_quiet(const mn_node *n) {
  switch (n->kind) {
  case MN_N_BINARY:
    return (n->op >= MN_OP_MAXIMUM && n->op <= MN_OP_GE) || n->op == MN_OP_HEAVISIDE || n->op == MN_OP_NEXTAFTER;
  case MN_N_TERNARY: return n->op == MN_OP_CLIP;
  case MN_N_UNARY:
    return n->op == MN_OP_SIGN || n->op == MN_OP_ISNAN || n->op == MN_OP_ISINF || n->op == MN_OP_ISFINITE ||
           n->op == MN_OP_SIGNBIT;
  default: return 0;
  }
}

#endif
