#define _POSIX_C_SOURCE 200809L
/* The MANIPLE_CHECKS comparison of global arguments across ranks (see
 * spmd.h). The common case is one allreduce of a hash; only a difference
 * pays for the allgather that finds and names it. */
#include "spmd.h"
#include "expr_impl.h"
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void add(mn_spmd *s, const char *name, uint64_t h, const char *text) {
  if (s->n == MN_SPMD_ARGS) return; /* the first ones are compared */
  s->a[s->n].name = name;
  s->a[s->n].h = h;
  snprintf(s->a[s->n].text, MN_SPMD_TEXT, "%s", text);
  s->n++;
}

void mn_spmd_int(mn_spmd *s, const char *name, int64_t v) {
  char t[32];
  snprintf(t, sizeof t, "%" PRId64, v);
  add(s, name, mn_hash(MN_HASH0, &v, sizeof v), t);
}

void mn_spmd_f64(mn_spmd *s, const char *name, double v) {
  char t[40];
  snprintf(t, sizeof t, "%.17g", v);
  add(s, name, mn_hash(MN_HASH0, &v, sizeof v), t);
}

void mn_spmd_str(mn_spmd *s, const char *name, const char *v) {
  char t[MN_SPMD_TEXT];
  snprintf(t, sizeof t, "'%s'", v ? v : "(null)");
  add(s, name, v ? mn_hash(MN_HASH0, v, strlen(v) + 1) : 0, t);
}

void mn_spmd_shape(mn_spmd *s, const char *name, int nd, const int64_t *shape) {
  char t[MN_SPMD_TEXT] = "(?)";
  if (nd >= 0 && nd <= MN_MAXDIM && (shape || nd == 0)) mn_shape_str(nd, shape, t, sizeof t);
  uint64_t h = mn_hash(MN_HASH0, &nd, sizeof nd);
  if (nd > 0 && nd <= MN_MAXDIM && shape) h = mn_hash(h, shape, sizeof(int64_t) * (size_t)nd);
  add(s, name, h, t);
}

void mn_spmd_ints(mn_spmd *s, const char *name, int n, const int *v) {
  char t[MN_SPMD_TEXT] = "(";
  size_t k = 1;
  for (int i = 0; v && i < n && k < sizeof t; i++)
    k += (size_t)snprintf(t + k, sizeof t - k, i ? ", %d" : "%d", v[i]);
  if (k < sizeof t) snprintf(t + k, sizeof t - k, ")");
  uint64_t h = mn_hash(MN_HASH0, &n, sizeof n);
  if (v && n > 0) h = mn_hash(h, v, sizeof(int) * (size_t)n);
  add(s, name, h, t);
}

void mn_spmd_dtype(mn_spmd *s, const char *name, mn_dtype t) {
  int v = (int)t;
  add(s, name, mn_hash(MN_HASH0, &v, sizeof v), v >= 0 && v < MN_NDTYPE ? mn_dtype_name(t) : "(bad dtype)");
}

void mn_spmd_scalar(mn_spmd *s, const char *name, mn_scalar v) {
  char t[48];
  if (mn_is_float(v.dtype) || (v.weak && v.dtype == MN_FLOAT64)) snprintf(t, sizeof t, "%.17g", v.v.f);
  else snprintf(t, sizeof t, "%" PRId64, v.v.i);
  uint64_t h = mn_hash(MN_HASH0, &v.dtype, sizeof v.dtype);
  h = mn_hash(h, &v.weak, sizeof v.weak);
  h = mn_hash(h, &v.v, sizeof v.v);
  add(s, name, h, t);
}

void mn_spmd_array(mn_spmd *s, const char *name, const mn_array *a) {
  if (!a) {
    add(s, name, 0, "NULL");
    return;
  }
  char sh[48], t[MN_SPMD_TEXT];
  mn_shape_str(a->map.ndim, a->map.shape, sh, sizeof sh);
  const mn_layout *lay = a->buf->lay;
  snprintf(t, sizeof t, "%s %s%s", mn_dtype_name(a->dtype), sh, a->is_view ? " (a view)" : "");
  int d = (int)a->dtype, k = (int)lay->kind;
  uint64_t h = mn_hash(MN_HASH0, &d, sizeof d);
  h = mn_hash(h, &a->map.ndim, sizeof a->map.ndim);
  h = mn_hash(h, &a->map.bndim, sizeof a->map.bndim);
  h = mn_hash(h, a->map.bax, sizeof(int) * (size_t)a->map.ndim);
  h = mn_hash(h, a->map.start, sizeof(int64_t) * (size_t)a->map.ndim);
  h = mn_hash(h, a->map.step, sizeof(int64_t) * (size_t)a->map.ndim);
  h = mn_hash(h, a->map.shape, sizeof(int64_t) * (size_t)a->map.ndim);
  h = mn_hash(h, a->map.fixed, sizeof(int64_t) * (size_t)a->map.bndim);
  h = mn_hash(h, &k, sizeof k);
  h = mn_hash(h, &a->buf->halo, sizeof a->buf->halo);
  h = mn_hash(h, lay->shape, sizeof(int64_t) * (size_t)lay->ndim);
  h = mn_hash(h, lay->dims, sizeof(int) * (size_t)lay->ndim);
  add(s, name, h, t);
}

void mn_spmd_bytes(mn_spmd *s, const char *name, const void *p, size_t n, const char *text) {
  add(s, name, p ? mn_hash(MN_HASH0, p, n) : 0, text);
}

/* one rank's record, for the allgather that names a difference */
typedef struct {
  char fn[48];
  int n;
  char name[MN_SPMD_ARGS][24];
  uint64_t h[MN_SPMD_ARGS];
  char text[MN_SPMD_ARGS][MN_SPMD_TEXT];
} record;

static int name_difference(mn_ctx *ctx, const mn_spmd *s) {
  record *all = calloc((size_t)ctx->size, sizeof(record)), mine;
  memset(&mine, 0, sizeof mine);
  snprintf(mine.fn, sizeof mine.fn, "%s", s->fn);
  mine.n = s->n;
  for (int k = 0; k < s->n; k++) {
    snprintf(mine.name[k], sizeof mine.name[k], "%s", s->a[k].name);
    mine.h[k] = s->a[k].h;
    memcpy(mine.text[k], s->a[k].text, MN_SPMD_TEXT);
  }
  /* every rank takes part even without memory, so none is left waiting */
  int ok = all != NULL, allok = 0;
  MPI_Allreduce(&ok, &allok, 1, MPI_INT, MPI_MIN, ctx->comm);
  if (!allok) {
    free(all);
    return MN_ERR(MN_ERR_ARG, "MANIPLE_CHECKS: %s: the ranks passed different arguments (no memory to say which)",
                  s->fn);
  }
  MPI_Allgather(&mine, (int)sizeof mine, MPI_BYTE, all, (int)sizeof mine, MPI_BYTE, ctx->comm);
  int err = MN_SUCCESS;
  for (int r = 1; r < ctx->size && !err; r++) {
    const record *p = &all[0], *q = &all[r];
    if (strcmp(p->fn, q->fn)) {
      err = MN_ERR(MN_ERR_ARG, "MANIPLE_CHECKS: the ranks make different calls: rank 0 calls %s, rank %d calls %s "
                   "(every rank must make the same calls in the same order)", p->fn, r, q->fn);
      break;
    }
    for (int k = 0; k < p->n && k < q->n; k++)
      if (p->h[k] != q->h[k] || strcmp(p->name[k], q->name[k])) {
        err = MN_ERR(MN_ERR_ARG, "MANIPLE_CHECKS: %s: argument '%s' differs between ranks: rank 0 passes %s, "
                     "rank %d passes %s (every rank must pass the same global arguments)", p->fn, p->name[k],
                     p->text[k], r, q->text[k]);
        break;
      }
    if (!err && p->n != q->n)
      err = MN_ERR(MN_ERR_ARG, "MANIPLE_CHECKS: %s: rank 0 passes %d arguments, rank %d passes %d", p->fn, p->n, r,
                   q->n);
  }
  if (!err) err = MN_ERR(MN_ERR_ARG, "MANIPLE_CHECKS: %s: the ranks' arguments hash differently", s->fn);
  free(all);
  return err;
}

int mn_ctx_checks(const mn_ctx *ctx) { return ctx && ctx->checks; }

int mn_ctx_set_checks(mn_ctx *ctx, int on) {
  MN_CHECK(ctx, MN_ERR_ARG, "NULL context");
  ctx->checks = on != 0;
  return MN_SUCCESS;
}

int mn_ctx_check_args(mn_ctx *ctx, const char *fn, int n, const char *const *names, const char *const *values) {
  MN_CHECK(ctx && fn && n >= 0 && (n == 0 || (names && values)), MN_ERR_ARG, "NULL context, name or arguments");
  if (!ctx->checks) return MN_SUCCESS;
  mn_spmd s = {fn, 0, {{0, 0, {0}}}};
  for (int k = 0; k < n; k++) mn_spmd_str(&s, names[k], values[k]);
  return mn_spmd_check(ctx, &s);
}

int mn_spmd_check(mn_ctx *ctx, mn_spmd *s) {
  if (ctx->size == 1) return MN_SUCCESS;
  uint64_t h = mn_hash(MN_HASH0, s->fn, strlen(s->fn) + 1);
  for (int k = 0; k < s->n; k++) {
    h = mn_hash(h, s->a[k].name, strlen(s->a[k].name) + 1);
    h = mn_hash(h, &s->a[k].h, sizeof s->a[k].h);
  }
  /* min of h and of ~h: all equal exactly when min(h) == ~min(~h) = max(h) */
  uint64_t v[2] = {h, ~h}, m[2];
  if (MPI_Allreduce(v, m, 2, MPI_UINT64_T, MPI_MIN, ctx->comm) != MPI_SUCCESS)
    return MN_ERR(MN_ERR_MPI, "MANIPLE_CHECKS: MPI_Allreduce failed in %s", s->fn);
  if (m[0] == ~m[1]) return MN_SUCCESS;
  return name_difference(ctx, s);
}

void mn_spmd_index(mn_spmd *s, const char *name, int n, const mn_index *idx) {
  char t[MN_SPMD_TEXT] = "[";
  size_t k = 1;
  uint64_t h = mn_hash(MN_HASH0, &n, sizeof n);
  for (int i = 0; idx && i < n; i++) { /* field by field: struct padding is not data */
    int kind = (int)idx[i].kind;
    h = mn_hash(h, &kind, sizeof kind);
    if (kind == MN_IDX_SLICE) {
      h = mn_hash(h, &idx[i].start, 8);
      h = mn_hash(h, &idx[i].stop, 8);
      h = mn_hash(h, &idx[i].step, 8);
    } else if (kind == MN_IDX_INT) {
      h = mn_hash(h, &idx[i].index, 8);
    }
    if (k + 2 >= sizeof t) continue;
    if (kind == MN_IDX_INT) k += (size_t)snprintf(t + k, sizeof t - k, "%s%" PRId64, i ? ", " : "", idx[i].index);
    else if (kind == MN_IDX_NEWAXIS) k += (size_t)snprintf(t + k, sizeof t - k, "%snewaxis", i ? ", " : "");
    else {
      char b[3][24];
      const int64_t v[3] = {idx[i].start, idx[i].stop, idx[i].step};
      for (int q = 0; q < 3; q++)
        if (v[q] == MN_NONE) b[q][0] = 0;
        else snprintf(b[q], sizeof b[q], "%" PRId64, v[q]);
      k += (size_t)snprintf(t + k, sizeof t - k, "%s%s:%s:%s", i ? ", " : "", b[0], b[1], b[2]);
    }
  }
  if (k + 1 < sizeof t) strcat(t, "]");
  add(s, name, h, t);
}

/* The value of node as a canonical hash: each node it needs by its
 * operation, type, shape and its operands' hashes (not their positions),
 * so a program that also holds other values (a shared pass's extra
 * outputs, which ranks may choose differently) hashes as the expression
 * alone would. */
void mn_spmd_expr(mn_spmd *s, const char *name, const mn_expr *e, int node) {
  char t[MN_SPMD_TEXT];
  int n = e ? e->n : 0, used = 0;
  uint64_t h = mn_hash(MN_HASH0, &n, sizeof n);
  int ok = node >= 0 && node < n;
  uint64_t *hv = ok ? malloc(sizeof *hv * (size_t)(node + 1)) : NULL;
  char *need = ok ? calloc((size_t)node + 1, 1) : NULL;
  if (hv && need) {
    need[node] = 1;
    for (int i = node; i >= 0; i--) {
      if (!need[i]) continue;
      const mn_node *d = &e->v[i];
      int arg[3] = {d->a, d->b, d->c};
      for (int q = 0; q < mn_node_arity(d); q++) need[arg[q]] = 1;
    }
    for (int i = 0; i <= node; i++) {
      if (!need[i]) continue;
      used++;
      const mn_node *d = &e->v[i];
      int f[5] = {(int)d->kind, d->op, (int)d->dtype, (int)d->ct, d->weak};
      uint64_t x = mn_hash(MN_HASH0, f, sizeof f);
      x = mn_hash(x, &d->ndim, sizeof d->ndim);
      x = mn_hash(x, d->shape, sizeof(int64_t) * (size_t)d->ndim);
      if (d->kind == MN_N_INPUT && d->arr) { /* the input's own description */
        mn_spmd one = {"", 0, {{0, 0, {0}}}};
        mn_spmd_array(&one, "", d->arr);
        x = mn_hash(x, &one.a[0].h, sizeof one.a[0].h);
      } else if (d->kind == MN_N_SCALAR) {
        int st = (int)d->s.dtype;
        x = mn_hash(x, &st, sizeof st);
        x = mn_hash(x, &d->s.weak, sizeof d->s.weak);
        x = mn_hash(x, &d->s.v, sizeof d->s.v);
        x = mn_hash(x, &d->s.im, sizeof d->s.im); /* a complex scalar's imaginary part */
      }
      int arg[3] = {d->a, d->b, d->c};
      for (int q = 0; q < mn_node_arity(d); q++) x = mn_hash(x, &hv[arg[q]], sizeof hv[0]);
      hv[i] = x;
    }
    h = hv[node];
  } else {
    h = mn_hash(h, &node, sizeof node); /* no such node (or no memory: checks only) */
  }
  free(hv);
  free(need);
  char sh[40] = "()";
  if (ok) mn_shape_str(e->v[node].ndim, e->v[node].shape, sh, sizeof sh);
  snprintf(t, sizeof t, "an expression of %d nodes, result %.28s", used, sh); /* (fits the text field) */
  add(s, name, h, t);
}

void mn_spmd_matrix(mn_spmd *s, const char *name, mn_dtype t, int64_t m, int64_t n, int64_t nnz) {
  char x[MN_SPMD_TEXT];
  snprintf(x, sizeof x, "%s %" PRId64 " x %" PRId64 ", %" PRId64 " entries", (int)t >= 0 && t < MN_NDTYPE ?
           mn_dtype_name(t) : "?", m, n, nnz);
  int64_t v[4] = {(int64_t)t, m, n, nnz};
  add(s, name, mn_hash(MN_HASH0, v, sizeof v), x);
}
