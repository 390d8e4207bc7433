#define _POSIX_C_SOURCE 200809L /* access */
/* Fused evaluation on the device: mn_eval_execute's cells over device
 * storage, each one launch of the backend. Operands read elsewhere than
 * where they are computed come through their alignment plans, packed and
 * received on the device (staged through host buffers for MPI), so no
 * array moves between host and device; an output its inputs read shifted
 * (the stencil idiom's center[:] = f(north, ...)) is computed into a
 * device temporary, then copied. It follows the data: inputs (and an
 * output written in part) whose values are on the host only keep the
 * evaluation on the host, so arrays do not go back and forth between
 * statements that run on different sides. */
#include "eval_impl.h"
#include "kernel_src.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* the program's shape allows launches (whatever the data's state) */
static int fits_dev(const prog *P) {
  mn_ctx *ctx = P->e->ctx;
  if (!ctx->ops->eval || !mn_kernel_fits(P)) return 0;
  for (int i = 0; i < P->nops; i++)
    if (!P->e->v[P->ops[i].node].arr->buf->dev) return 0;
  return 1;
}

static int fits(const prog *P, const mn_array *out, int nx) {
  return out->buf->dev && !nx && !P->reduce && fits_dev(P);
}

/* every input's values are on the device */
static int inputs_on_device(const prog *P) {
  int ok = 1;
  for (int i = 0; i < P->nops && ok; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    ok = mn_buf_device_ok(b) && (b->valid & MN_VALID_DEV);
  }
  return ok;
}

static int dump(const char *src);
static void dump_host_path(const prog *P, mn_dtype odt);

int mn_eval_device_ok(const prog *P, const mn_array *out, int nx) {
  if (!fits(P, out, nx)) return 0;
  const mn_buf *ob = out->buf;
  int ok = mn_buf_device_ok(ob) && (mn_array_whole_storage(out) || (ob->valid & MN_VALID_DEV)) &&
           inputs_on_device(P);
  if (!ok) dump_host_path(P, ob->dtype);
  return ok;
}

/* for the nvrtc test: what would run here with the data there */
static void dump_host_path(const prog *P, mn_dtype odt) {
  if (!getenv("MANIPLE_KERNEL_DUMP")) return;
  char *src = malloc(MN_KERNEL_SRC);
  mn_kernel_shape ks;
  if (src && !mn_kernel_src(P, odt, src, MN_KERNEL_SRC, &ks)) (void)dump(src);
  free(src);
}

int mn_eval_device_reduce_ok(const prog *P) {
  if (!P->reduce || P->nx || !P->nops || !fits_dev(P)) return 0;
  int ok = inputs_on_device(P);
  if (!ok) dump_host_path(P, P->odt);
  return ok;
}

int mn_eval_device_reduce(prog *P, const mn_map *am, const mn_layout *alay, mn_acc *acc) {
  mn_ctx *ctx = P->e->ctx;
  for (int i = 0; i < P->nops; i++) mn_buf_dev(P->e->v[P->ops[i].node].arr->buf, 0);
  P->dev = 1;
  /* (also where this rank owns nothing: its messages and plan lookups) */
  MN_CALL(mn_eval_execute(P, am, alay, NULL, NULL, NULL, 1, NULL, 0));
  if (P->deferred || !P->dev_cells) { /* an error kept for the combine, or nothing here: no value */
    mn_acc_init(P->rop, P->e->v[P->root].dtype, acc);
    return MN_SUCCESS;
  }
  return mn_copy_counted(ctx, 0, (char *)(P->dev_part + 1), (char *)acc, sizeof *acc);
}

int mn_eval_device(prog *P, mn_array *out) {
  const mn_buf *ob = out->buf;
  int reads_out = 0;
  for (int i = 0; i < P->nops; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    mn_buf_dev(b, 0);
    reads_out |= b == ob;
  }
  mn_buf_dev(ob, !reads_out && mn_array_whole_storage(out) ? MN_WRITE_ALL : 1);
  int shifted = 0; /* an input reads out through another map */
  for (int i = 0; i < P->nops; i++)
    shifted |= P->e->v[P->ops[i].node].arr->buf == ob && !mn_map_equal(&P->ops[i].bmap, &out->map);
  mn_ctx *ctx = P->e->ctx;
  size_t es = mn_eval_es(out->dtype);
  int64_t lo[MN_MAXDIM], cnt[MN_MAXDIM], st[MN_MAXDIM], dst_st[MN_MAXDIM];
  int have = mn_map_owned_box(&out->map, ob->lay, ctx->rank, lo, cnt);
  int nd = P->nd > 0 ? P->nd : 1;
  if (P->nd == 0) cnt[0] = 1;
  char *dst = have ? ob->dev + mn_map_off(&out->map, ob, lo) * (int64_t)es : NULL, *to = dst;
  mn_map_strides(&out->map, ob, dst_st);
  if (P->nd == 0) dst_st[0] = 1;
  memcpy(st, dst_st, sizeof st);
  P->dev = 1;
  P->dev_outbuf = ob->dev;
  P->dev_outbytes = ob->nbytes;
  int lerr = 0; /* this rank's alone: execute keeps it and still moves the messages */
  if (shifted && have) { /* into a dense temporary, then copied */
    size_t bytes = (size_t)mn_box_size(nd, cnt) * es;
    lerr = mn_ctx_dev_scratch(ctx, bytes, &to);
    P->dev_outbuf = to;
    P->dev_outbytes = bytes;
    mn_dense_strides(nd, cnt, st);
  }
  MN_CALL(mn_eval_execute(P, &out->map, ob->lay, to, st, NULL, 1, NULL, lerr));
  if (shifted && have && !P->deferred) MN_CALL(ob->ops->copy_box(nd, cnt, es, to, st, dst, dst_st));
  return MN_SUCCESS;
}

/* The CUDA source of the launch, made as CUDA makes it (so a program it
 * cannot express fails here too) and, under MANIPLE_KERNEL_DUMP=dir,
 * written there once per source (dir/<hash>.cu) for the nvrtc test, as
 * are the programs that could run on the device but stay on the host
 * because their data is there. */
static int emu_source(const mn_eval_launch *L) {
  char *src = malloc(MN_KERNEL_SRC);
  MN_CHECK(src, MN_ERR_MEM, "cannot allocate a kernel source buffer");
  mn_kernel_shape ks;
  int err = mn_kernel_src(L->P, L->P->odt, src, MN_KERNEL_SRC, &ks);
  if (!err) err = dump(src);
  free(src);
  return err;
}

static int dump(const char *src) {
  const char *dir = getenv("MANIPLE_KERNEL_DUMP");
  if (!dir || !*dir) return MN_SUCCESS;
  char path[4096];
  snprintf(path, sizeof path, "%s/%016llx.cu", dir, (unsigned long long)mn_hash(MN_HASH0, src, strlen(src)));
  if (access(path, F_OK) == 0) return MN_SUCCESS;
  FILE *f = fopen(path, "w");
  if (!f) return MN_ERR_ERRNO(errno, path, "cannot write a kernel source to");
  fputs(src, f);
  fclose(f);
  return MN_SUCCESS;
}

/* The emulated launch: the CPU evaluator's bodies over one cell of
 * device memory, inside windows that open only what the program names:
 * its operands' storage and their plans' receive buffers. */
static void windows(const prog *P, int open) {
  for (int i = 0; i < P->nops; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    const mn_plan *pl = P->ops[i].plan;
    /* (a plan still in flight: its messages are not read yet, and a
     * CUDA-aware MPI may be writing its buffer: left as it is) */
    size_t rb = pl && pl->drecv && !pl->active ? mn_plan_dbytes(pl, 0) : 0;
    if (open) mni_emu_open(b->dev, b->nbytes, 0);
    else mni_emu_close(b->dev, b->nbytes);
    if (rb && open) mni_emu_open(pl->drecv, rb, 0);
    else if (rb) mni_emu_close(pl->drecv, rb);
  }
}

int mni_emu_eval(const mn_eval_launch *L) {
  prog *P = L->P;
  if (!L->C) { /* merge the cells' results, in order */
    size_t span = sizeof(mn_acc) * (size_t)((L->nmerge - 1) * MN_KERNEL_RED_BLOCKS + 1);
    mni_emu_open(L->part, span, 1);
    for (int64_t k = 1; k < L->nmerge; k++)
      mn_acc_merge(P->rop, P->e->v[P->root].dtype, L->part, L->part + k * MN_KERNEL_RED_BLOCKS);
    mni_emu_close(L->part, span);
    return MN_SUCCESS;
  }
  MN_CALL(emu_source(L));
  windows(P, 1);
  if (P->reduce) { /* the accumulator is made in device memory, as the kernels leave it (one cell) */
    mni_emu_open(L->part, sizeof(mn_acc), 1);
    mn_acc_init(P->rop, P->e->v[P->root].dtype, L->part);
    mn_eval_run_cell(P, L->C, L->scratch, L->per, L->part);
    mni_emu_close(L->part, sizeof(mn_acc));
  } else {
    mni_emu_open(L->outbuf, L->outbytes, 1);
    mn_eval_run_cell(P, L->C, L->scratch, L->per, NULL);
    mni_emu_close(L->outbuf, L->outbytes);
  }
  windows(P, 0);
  return MN_SUCCESS;
}
