#define _POSIX_C_SOURCE 200809L /* access */
/* Fused evaluation on the device: a program whose inputs are all read
 * where they are computed (no message) and whose output is not read
 * through another map runs as one launch of the backend over the output's
 * box, on device storage, moving no array between host and device (an
 * output its inputs read shifted, as the stencil idiom's center[:] =
 * f(north, ...), is computed into a device temporary, then copied). It
 * follows the data: inputs (and an output written in part) whose values
 * are on the host only keep the evaluation on the host, so arrays do not
 * go back and forth between statements that run on different sides. */
#include "eval_impl.h"
#include "kernel_src.h"
#include <stdio.h>
#include <stdlib.h>
#include <errno.h>
#include <string.h>
#include <unistd.h>

/* the program's shape allows a launch (whatever the data's state) */
static int fits(const prog *P, const mn_array *out, int nx) {
  const mn_buf *ob = out->buf;
  mn_ctx *ctx = P->e->ctx;
  if (!ob->dev || !ob->ops->eval || nx || P->reduce || !mn_kernel_fits(P)) return 0;
  for (int i = 0; i < P->nops; i++) {
    const mn_array *x = P->e->v[P->ops[i].node].arr;
    if (ctx->size > 1 && !mn_map_split_alike(ctx, &P->ops[i].bmap, x->buf->lay, &out->map, ob->lay, 1)) return 0;
    if (!x->buf->dev) return 0;
  }
  return 1;
}

static int dump(const char *src);

int mn_eval_device_ok(const prog *P, const mn_array *out, int nx) {
  if (!fits(P, out, nx)) return 0;
  const mn_buf *ob = out->buf;
  int ok = mn_buf_device_ok(ob) && (!out->is_view && !ob->halo ? 1 : (ob->valid & MN_VALID_DEV) != 0);
  for (int i = 0; i < P->nops && ok; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    ok = mn_buf_device_ok(b) && (b->valid & MN_VALID_DEV);
  }
  if (!ok && getenv("MANIPLE_KERNEL_DUMP")) { /* for the nvrtc test: what would run here with the data there */
    char *src = malloc(MN_KERNEL_SRC);
    mn_kernel_shape ks;
    if (src && !mn_kernel_src(P, ob->dtype, src, MN_KERNEL_SRC, &ks)) (void)dump(src);
    free(src);
  }
  return ok;
}

int mn_eval_device(prog *P, mn_array *out) {
  const mn_buf *ob = out->buf;
  int reads_out = 0;
  for (int i = 0; i < P->nops; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    mn_buf_dev(b, 0);
    reads_out |= b == ob;
  }
  mn_buf_dev(ob, !reads_out && !out->is_view && !ob->halo ? MN_WRITE_ALL : 1);
  int shifted = 0; /* an input reads out through another map */
  for (int i = 0; i < P->nops; i++)
    shifted |= P->e->v[P->ops[i].node].arr->buf == ob && !mn_map_equal(&P->ops[i].bmap, &out->map);
  P->dev = 1;
  mn_ctx *ctx = P->e->ctx;
  size_t es = mn_eval_es(out->dtype);
  mn_eval_launch L;
  L.P = P;
  L.am = &out->map;
  L.alay = ob->lay;
  L.ob = ob;
  L.have = mn_map_owned_box(&out->map, ob->lay, ctx->rank, L.lo, L.cnt);
  int nd = P->nd > 0 ? P->nd : 1;
  if (P->nd == 0) L.cnt[0] = 1;
  char *dst = L.have ? ob->dev + mn_map_off(&out->map, ob, L.lo) * (int64_t)es : NULL;
  int64_t dst_st[MN_MAXDIM];
  mn_map_strides(&out->map, ob, dst_st);
  if (P->nd == 0) dst_st[0] = 1;
  L.out = dst;
  L.outbuf = ob->dev;
  L.outbytes = ob->nbytes;
  memcpy(L.outst, dst_st, sizeof dst_st);
  if (shifted && L.have) { /* into a dense temporary, then copied */
    size_t bytes = (size_t)mn_box_size(nd, L.cnt) * es;
    MN_CALL(mn_ctx_dev_scratch(ctx, bytes, &L.out));
    L.outbuf = L.out;
    L.outbytes = bytes;
    mn_dense_strides(nd, L.cnt, L.outst);
  }
  MN_CALL(ob->ops->eval(&L));
  if (shifted && L.have) MN_CALL(ob->ops->copy_box(nd, L.cnt, es, L.out, L.outst, dst, dst_st));
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
  int err = mn_kernel_src(L->P, L->ob->dtype, src, MN_KERNEL_SRC, &ks);
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

/* The emulated launch: the CPU evaluator's bodies over the device storage,
 * inside a window that opens only the arrays the program names. */
int mni_emu_eval(const mn_eval_launch *L) {
  MN_CALL(emu_source(L));
  prog *P = L->P;
  for (int i = 0; i < P->nops; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    mni_emu_open(b->dev, b->nbytes, 0);
  }
  mni_emu_open(L->outbuf, L->outbytes, 1);
  int err = mn_eval_execute(P, L->am, L->alay, L->out, L->outst, NULL, 1, NULL, 0);
  for (int i = 0; i < P->nops; i++) {
    const mn_buf *b = P->e->v[P->ops[i].node].arr->buf;
    mni_emu_close(b->dev, b->nbytes);
  }
  mni_emu_close(L->outbuf, L->outbytes);
  return err;
}
