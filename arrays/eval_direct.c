/* The direct evaluation: one unary or binary op over whole arrays that
 * share one layout, stored into a fresh array of that layout (c = a + b on
 * temporaries). Every rank's operands are its own contiguous blocks, so
 * the table kernel runs on them with no program, plan, piece or cell: a
 * small array's statement costs a kernel call, not the general driver's
 * set-up. Large blocks take the general path (threads, streaming stores). */
#include "eval_impl.h"
#include "kernels/table.h"
#include <fenv.h>

enum { DIRECT_MAX = 1 << 15 }; /* local elements: past this, threads pay */

/* node j as a direct operand of compute type ct: a whole host array of
 * out's layout (*arr), or a scalar (*arr NULL) */
static int operand_ok(const mn_expr *e, int j, mn_dtype ct, const mn_array *out, const mn_array **arr) {
  const mn_node *n = &e->v[j];
  *arr = NULL;
  if (n->kind == MN_N_SCALAR) return n->dtype == ct;
  if (n->kind != MN_N_INPUT || !n->arr) return 0;
  const mn_array *x = n->arr;
  const mn_buf *b = x->buf;
  if (x->dtype != ct || x->is_view || b->halo || b->dev || mn_buf_lost(b) || !mn_layout_same(b->lay, out->buf->lay))
    return 0;
  *arr = x;
  return 1;
}

int mn_eval_direct(const mn_expr *e, int node, mn_array *out, int64_t *mem) {
  const mn_node *n = &e->v[node];
  const mn_buf *ob = out->buf;
  if ((n->kind != MN_N_UNARY && n->kind != MN_N_BINARY) || out->dtype != n->dtype || out->is_view || ob->halo ||
      ob->dev || mn_buf_lost(ob) || out->map.ndim != n->ndim || !out->map.ndim)
    return 0;
  for (int d = 0; d < n->ndim; d++)
    if (out->map.shape[d] != n->shape[d]) return 0;
  int nin = n->kind == MN_N_UNARY ? 1 : 2, args[2] = {n->a, n->b};
  const mn_array *in[2] = {NULL, NULL};
  for (int k = 0; k < nin; k++)
    if (!operand_ok(e, args[k], n->ct, out, &in[k])) return 0;
  if (!in[0] && (nin == 1 || !in[1])) return 0; /* scalars only: the general path */
  size_t oes = mn_eval_es(out->dtype), ces = mn_eval_es(n->ct);
  int64_t len = (int64_t)(ob->nbytes / oes);
  if (len > DIRECT_MAX) return 0;
  /* every element is written; an input may be out itself (same map, so
   * each element is read before it is written) */
  int reads_out = (in[0] && in[0]->buf == ob) || (in[1] && in[1]->buf == ob);
  char *o = mn_buf_host(ob, reads_out ? 1 : MN_WRITE_ALL);
  const char *p[2] = {NULL, NULL};
  _Alignas(64) char sc[2][BLK * MAXES];
  for (int k = 0; k < nin; k++) {
    if (in[k]) p[k] = mn_buf_host(in[k]->buf, 0);
    else mn_eval_scalar_fill(&e->v[args[k]], BLK, sc[k]);
  }
  int had = mn_eval_quiet(n) ? fetestexcept(FE_INVALID) : 1;
  for (int64_t i = 0; i < len; i += BLK) {
    int64_t m = len - i < BLK ? len - i : BLK;
    const char *a = in[0] ? p[0] + i * (int64_t)ces : sc[0];
    char *dst = o + i * (int64_t)oes;
    if (nin == 1) {
      mn_unary_table[n->op][n->ct](m, a, dst);
    } else {
      const char *b = in[1] ? p[1] + i * (int64_t)ces : sc[1];
      mn_binary_table[n->op][n->ct](m, a, b, dst);
    }
  }
  if (!had && fetestexcept(FE_INVALID)) feclearexcept(FE_INVALID);
  *mem += len * (int64_t)(oes + (in[0] ? ces : 0) + (in[1] ? ces : 0));
  return 1;
}
