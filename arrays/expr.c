/* Building fused element-wise expressions: dtype promotion (NumPy 2 rules,
 * weak Python scalars), casts inserted where an op computes in another
 * dtype, and broadcasting of shapes. */
#include "expr_impl.h"
#include "kernels/table.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int mn_expr_create(mn_ctx *ctx, mn_expr **e) {
  MN_CHECK(ctx && e, MN_ERR_ARG, "NULL context or output pointer");
  *e = calloc(1, sizeof **e);
  MN_CHECK(*e, MN_ERR_MEM, "cannot allocate an expression");
  (*e)->ctx = ctx;
  return MN_SUCCESS;
}

int mn_expr_destroy(mn_expr **e) {
  if (!e || !*e) return MN_SUCCESS;
  free((*e)->v);
  free(*e);
  *e = NULL;
  return MN_SUCCESS;
}

/* Whether x and y compute the same values: the same operation of the same
 * operands, or the same input, or equal scalars (by their bits: -0.0 is
 * not 0.0). */
static int same_node(const mn_node *x, const mn_node *y) {
  if (x->kind != y->kind || x->op != y->op || x->a != y->a || x->b != y->b || x->c != y->c || x->dtype != y->dtype ||
      x->ct != y->ct || x->weak != y->weak || x->arr != y->arr || x->ndim != y->ndim)
    return 0;
  for (int d = 0; d < x->ndim; d++)
    if (x->shape[d] != y->shape[d]) return 0;
  if (x->kind != MN_N_SCALAR) return 1;
  return x->s.dtype == y->s.dtype && x->s.weak == y->s.weak && !memcmp(&x->s.v, &y->s.v, sizeof x->s.v) &&
         !memcmp(&x->s.im, &y->s.im, sizeof x->s.im);
}

/* A node equal to one already there is that one (common subexpressions:
 * swe's velocities wrote sqrt(h4 + max(h4, eps)) twice for each face
 * depth, and each pass ran both), so a pass computes each value once. */
static int add_node(mn_expr *e, const mn_node *n, int *id) {
  for (int j = e->n - 1; j >= 0; j--)
    if (same_node(&e->v[j], n)) { *id = j; return MN_SUCCESS; }
  if (e->n == e->cap) {
    int cap = e->cap ? 2 * e->cap : 4; /* small first: most are; a large first block costs malloc a consolidation */
    mn_node *v = realloc(e->v, sizeof *v * (size_t)cap);
    MN_CHECK(v, MN_ERR_MEM, "cannot grow an expression to %d nodes", cap);
    e->v = v;
    e->cap = cap;
  }
  e->v[e->n] = *n;
  *id = e->n++;
  return MN_SUCCESS;
}

static int check_node(const mn_expr *e, int id) {
  MN_CHECK(id >= 0 && id < e->n, MN_ERR_ARG, "expression node %d does not exist (have %d)", id, e->n);
  return MN_SUCCESS;
}

void mn_shape_str(int nd, const int64_t *s, char *buf, size_t n) {
  size_t k = (size_t)snprintf(buf, n, "(");
  for (int d = 0; d < nd && k < n; d++)
    k += (size_t)snprintf(buf + k, n - k, d + 1 < nd || nd > 1 ? "%lld, " : "%lld,", (long long)s[d]);
  if (nd > 1 && k >= 2 && k < n) k -= 2;
  if (k < n) snprintf(buf + k, n - k, ")");
}

int mn_broadcast_shapes(int na, const int64_t *a, int nb, const int64_t *b, int *nd, int64_t *out) {
  int n = na > nb ? na : nb;
  for (int k = 0; k < n; k++) {
    int ia = k - (n - na), ib = k - (n - nb);
    int64_t x = ia >= 0 ? a[ia] : 1, y = ib >= 0 ? b[ib] : 1;
    if (x != y && x != 1 && y != 1) {
      char sa[128], sb[128];
      mn_shape_str(na, a, sa, sizeof sa);
      mn_shape_str(nb, b, sb, sizeof sb);
      return MN_ERR(MN_ERR_SHAPE, "operands could not be broadcast together with shapes %s %s", sa, sb);
    }
    out[k] = x == 1 ? y : x;
  }
  *nd = n;
  return MN_SUCCESS;
}

int mn_expr_input(mn_expr *e, const mn_array *x, int *node) {
  MN_CHECK(e && x && node, MN_ERR_ARG, "NULL expression, array or output");
  MN_CHECK(x->ctx == e->ctx, MN_ERR_ARG, "array belongs to another context");
  mn_node n;
  memset(&n, 0, sizeof n);
  n.kind = MN_N_INPUT;
  n.arr = x;
  n.dtype = n.ct = x->dtype;
  n.ndim = x->map.ndim;
  memcpy(n.shape, x->map.shape, sizeof n.shape);
  MN_CALL(add_node(e, &n, node));
  return MN_SUCCESS;
}

int mn_expr_placeholder(mn_expr *e, mn_dtype dtype, int ndim, const int64_t *shape, int *node) {
  MN_CHECK(e && node && (ndim == 0 || shape), MN_ERR_ARG, "NULL expression, shape or output");
  MN_CHECK(dtype >= 0 && dtype < MN_NDTYPE, MN_ERR_DTYPE, "unknown dtype code %d", (int)dtype);
  MN_CHECK(ndim >= 0 && ndim <= MN_MAXDIM, MN_ERR_SHAPE, "ndim %d outside [0, %d]", ndim, MN_MAXDIM);
  mn_node n;
  memset(&n, 0, sizeof n);
  n.kind = MN_N_INPUT; /* with no array: type inference only */
  n.dtype = n.ct = dtype;
  n.ndim = ndim;
  for (int d = 0; d < ndim; d++) {
    MN_CHECK(shape[d] >= 0, MN_ERR_SHAPE, "shape[%d] = %lld is negative", d, (long long)shape[d]);
    n.shape[d] = shape[d];
  }
  MN_CALL(add_node(e, &n, node));
  return MN_SUCCESS;
}

static mn_scalar scalar_to(mn_scalar s, mn_dtype t) {
  return mn_scalar_cast(s, t);
}

int mn_expr_scalar(mn_expr *e, mn_scalar s, int *node) {
  MN_CHECK(e && node, MN_ERR_ARG, "NULL expression or output");
  MN_CHECK(s.dtype >= 0 && s.dtype < MN_NDTYPE, MN_ERR_DTYPE, "scalar has unknown dtype code %d", (int)s.dtype);
  mn_node n;
  memset(&n, 0, sizeof n);
  n.kind = MN_N_SCALAR;
  n.s = scalar_to(s, s.dtype);
  n.dtype = n.ct = s.dtype;
  n.weak = s.weak;
  MN_CALL(add_node(e, &n, node));
  return MN_SUCCESS;
}

static int cast_to(mn_expr *e, int id, mn_dtype t, int *out) {
  const mn_node *a = &e->v[id];
  if (a->dtype == t) { *out = id; return MN_SUCCESS; }
  mn_node n;
  memset(&n, 0, sizeof n);
  if (a->kind == MN_N_SCALAR) {
    n = *a;
    n.s = scalar_to(a->s, t);
    n.dtype = n.ct = t;
  } else {
    n.kind = MN_N_CAST;
    n.a = id;
    n.dtype = n.ct = t;
    n.ndim = a->ndim;
    memcpy(n.shape, a->shape, sizeof n.shape);
  }
  MN_CALL(add_node(e, &n, out));
  return MN_SUCCESS;
}

int mn_expr_cast(mn_expr *e, int a, mn_dtype t, int *node) {
  MN_CHECK(e && node, MN_ERR_ARG, "NULL expression or output");
  MN_CALL(check_node(e, a));
  MN_CHECK(t >= 0 && t < MN_NDTYPE, MN_ERR_DTYPE, "unknown dtype code %d", (int)t);
  MN_CALL(cast_to(e, a, t, node));
  return MN_SUCCESS;
}

static int kind_of(mn_dtype t) { return t == MN_BOOL ? 0 : mn_is_int(t) ? 1 : mn_is_complex(t) ? 3 : 2; }

/* the type a weak scalar w of a higher kind lifts t to: a Python complex
 * keeps a float's precision (float32 + 1j is complex64), others promote */
static mn_dtype lift(mn_dtype t, mn_dtype w) {
  return mn_is_complex(w) && mn_is_float(t) ? mn_complex_of(t) : mn_dtype_promote(t, w);
}

/* dtype a weak scalar takes next to a typed operand (NEP 50) */
static mn_dtype effective(const mn_node *x, const mn_node *other) {
  if (!x->weak || other->weak) return x->dtype;
  if (kind_of(x->dtype) <= kind_of(other->dtype)) return other->dtype;
  return mn_is_complex(x->dtype) && mn_is_float(other->dtype) ? mn_complex_of(other->dtype) : x->dtype;
}

static mn_dtype promote_weak(const mn_node *const *v, int n) {
  mn_dtype t = MN_NDTYPE;
  int any_strong = 0;
  for (int i = 0; i < n; i++) any_strong |= !v[i]->weak;
  for (int i = 0; i < n; i++) {
    if (any_strong && v[i]->weak) continue;
    /* Python ints alone are int64, one past int64 too (its bits: NumPy's where(c, 2**63, 0) wraps) */
    mn_dtype d = v[i]->weak && v[i]->dtype == MN_UINT64 ? MN_INT64 : v[i]->dtype;
    t = t == MN_NDTYPE ? d : mn_dtype_promote(t, d);
  }
  /* a weak scalar of a higher kind lifts the type: int32 array * 2.5 -> float64 */
  for (int i = 0; i < n; i++)
    if (any_strong && v[i]->weak && kind_of(v[i]->dtype) > kind_of(t)) t = lift(t, v[i]->dtype);
  return t;
}

static int shape_of(mn_expr *e, const int *ids, int n, mn_node *out) {
  out->ndim = 0;
  for (int i = 0; i < n; i++) {
    const mn_node *a = &e->v[ids[i]];
    if (a->kind == MN_N_SCALAR) continue;
    int64_t s[MN_MAXDIM];
    int nd;
    MN_CALL(mn_broadcast_shapes(out->ndim, out->shape, a->ndim, a->shape, &nd, s));
    out->ndim = nd;
    memcpy(out->shape, s, sizeof s);
  }
  return MN_SUCCESS;
}

/* float16 computes in float32, as NumPy's loops do: the operation's node
 * (added as *n, its dtype float32 where rt is float16) and, for a float16
 * result, a cast that rounds it to half */
static mn_dtype compute_of(mn_dtype t) { return t == MN_FLOAT16 ? MN_FLOAT32 : t; }
/* an operand cast to the loop's dtype lt, through float16 when lt is
 * (a weak 0.1 next to a float16 array is the half 0.1, as in NumPy) */
static int cast_in(mn_expr *e, int id, mn_dtype lt, mn_dtype ct, int *out) {
  if (lt == MN_FLOAT16) MN_CALL(cast_to(e, id, MN_FLOAT16, &id));
  return cast_to(e, id, ct, out);
}
static int add_op(mn_expr *e, mn_node *n, mn_dtype rt, int *node) {
  int round = rt == MN_FLOAT16 && n->ct != MN_FLOAT16; /* not spacing and nextafter's own kernels */
  n->dtype = round ? MN_FLOAT32 : rt;
  MN_CALL(add_node(e, n, node));
  if (round) MN_CALL(cast_to(e, *node, MN_FLOAT16, node));
  return MN_SUCCESS;
}

int mn_expr_unary(mn_expr *e, mn_unary_op op, int a, int *node) {
  MN_CHECK(e && node, MN_ERR_ARG, "NULL expression or output");
  MN_CALL(check_node(e, a));
  MN_CHECK(op >= 0 && op < MN_NUNARY && op != MN_OP_CAST, MN_ERR_ARG, "unknown unary op %d", (int)op);
  mn_dtype da = e->v[a].dtype, rt = mn_unary_result(op, da);
  MN_CHECK(rt != MN_NDTYPE, MN_ERR_DTYPE, "ufunc '%s' not supported for input dtype %s",
           mn_unary_name(op), mn_dtype_name(da));
  /* signbit and the frexp exponent look at a float (ints go through float64) */
  mn_dtype ct = (op == MN_OP_ISNAN || op == MN_OP_ISINF || op == MN_OP_ISFINITE) ? compute_of(da)
                : op == MN_OP_LOGICAL_NOT ? MN_BOOL
                : (op == MN_OP_SIGNBIT || op == MN_OP_FREXP_EXP)
                    ? (da == MN_FLOAT32 || da == MN_FLOAT16 ? MN_FLOAT32 : MN_FLOAT64)
                : rt;
  if (mn_is_complex(da) && (op == MN_OP_ABS || op == MN_OP_REAL || op == MN_OP_IMAG)) ct = da; /* to its parts */
  mn_dtype lt = ct; /* the loop's dtype (NumPy's); float16 computes in float32 but for spacing */
  if (op != MN_OP_SPACING) ct = compute_of(ct);
  MN_CHECK(mn_unary_table[op][ct], MN_ERR_DTYPE, "ufunc '%s' has no %s kernel", mn_unary_name(op), mn_dtype_name(ct));
  int ca;
  MN_CALL(cast_in(e, a, lt, ct, &ca));
  mn_node n;
  memset(&n, 0, sizeof n);
  n.kind = MN_N_UNARY;
  n.op = op;
  n.a = ca;
  n.ct = ct;
  n.weak = e->v[a].weak;
  n.ndim = e->v[a].ndim;
  memcpy(n.shape, e->v[a].shape, sizeof n.shape);
  MN_CALL(add_op(e, &n, rt, node));
  return MN_SUCCESS;
}

int mn_expr_binary(mn_expr *e, mn_binary_op op, int a, int b, int *node) {
  MN_CHECK(e && node, MN_ERR_ARG, "NULL expression or output");
  MN_CALL(check_node(e, a));
  MN_CALL(check_node(e, b));
  MN_CHECK(op >= 0 && op < MN_NBINARY, MN_ERR_ARG, "unknown binary op %d", (int)op);
  mn_dtype da = effective(&e->v[a], &e->v[b]), db = effective(&e->v[b], &e->v[a]);
  /* ldexp's exponent keeps its kind: a Python int stays an int next to floats */
  if (op == MN_OP_LDEXP) db = e->v[b].dtype;
  /* and a Python int mantissa takes NumPy's first loop that holds it: float16 */
  if (op == MN_OP_LDEXP && e->v[a].weak && !e->v[b].weak && !mn_is_float(e->v[a].dtype) && mn_is_int(db)) da = MN_BOOL;
  mn_dtype rt = mn_binary_result(op, da, db);
  MN_CHECK(rt != MN_NDTYPE, MN_ERR_DTYPE, "ufunc '%s' not supported for the input dtypes (%s, %s)",
           mn_binary_name(op), mn_dtype_name(da), mn_dtype_name(db));
  mn_dtype ct = rt;
  if (op == MN_OP_COMPLEX) ct = mn_real_of(rt); /* its parts */
  if (op >= MN_OP_EQ && op <= MN_OP_GE) ct = mn_dtype_promote(da, db);
  if (op >= MN_OP_LOGICAL_AND && op <= MN_OP_LOGICAL_XOR) ct = MN_BOOL;
  mn_dtype lt = ct;
  if (op != MN_OP_NEXTAFTER) ct = compute_of(ct);
  MN_CHECK(mn_binary_table[op][ct], MN_ERR_DTYPE, "ufunc '%s' has no %s kernel", mn_binary_name(op), mn_dtype_name(ct));
  mn_node n;
  memset(&n, 0, sizeof n);
  int ids[2] = {a, b};
  MN_CALL(shape_of(e, ids, 2, &n));
  int wa = e->v[a].weak && e->v[b].weak;
  MN_CALL(cast_in(e, a, lt, ct, &n.a));
  MN_CALL(cast_in(e, b, op == MN_OP_LDEXP ? ct : lt, ct, &n.b));
  n.kind = MN_N_BINARY;
  n.op = op;
  n.ct = ct;
  n.weak = wa;
  MN_CALL(add_op(e, &n, rt, node));
  return MN_SUCCESS;
}

int mn_expr_ternary(mn_expr *e, mn_ternary_op op, int a, int b, int c, int *node) {
  MN_CHECK(e && node, MN_ERR_ARG, "NULL expression or output");
  MN_CALL(check_node(e, a));
  MN_CALL(check_node(e, b));
  MN_CALL(check_node(e, c));
  MN_CHECK(op >= 0 && op < MN_NTERNARY, MN_ERR_ARG, "unknown ternary op %d", (int)op);
  const mn_node *v3[3] = {&e->v[a], &e->v[b], &e->v[c]};
  mn_dtype rt = op == MN_OP_WHERE ? promote_weak(v3 + 1, 2) : promote_weak(v3, 3), t = compute_of(rt);
  MN_CHECK(t != MN_NDTYPE && mn_ternary_table[op][t], MN_ERR_DTYPE,
           "'%s' not supported for the input dtypes (%s, %s, %s)", mn_ternary_name(op),
           mn_dtype_name(v3[0]->dtype), mn_dtype_name(v3[1]->dtype), mn_dtype_name(v3[2]->dtype));
  mn_node n;
  memset(&n, 0, sizeof n);
  int ids[3] = {a, b, c};
  MN_CALL(shape_of(e, ids, 3, &n));
  int weak = v3[0]->weak && v3[1]->weak && v3[2]->weak;
  MN_CALL(cast_in(e, a, op == MN_OP_WHERE ? MN_BOOL : rt, op == MN_OP_WHERE ? MN_BOOL : t, &n.a));
  MN_CALL(cast_in(e, b, rt, t, &n.b));
  MN_CALL(cast_in(e, c, rt, t, &n.c));
  n.kind = MN_N_TERNARY;
  n.op = op;
  n.ct = t;
  n.weak = weak;
  MN_CALL(add_op(e, &n, rt, node));
  return MN_SUCCESS;
}

mn_dtype mn_expr_dtype(const mn_expr *e, int node) {
  return (e && node >= 0 && node < e->n) ? e->v[node].dtype : MN_NDTYPE;
}

int mn_expr_shape(const mn_expr *e, int node, int *ndim, int64_t *shape) {
  MN_CHECK(e && ndim && shape, MN_ERR_ARG, "NULL expression or output");
  MN_CALL(check_node(e, node));
  *ndim = e->v[node].ndim;
  memcpy(shape, e->v[node].shape, sizeof(int64_t) * (size_t)*ndim);
  return MN_SUCCESS;
}
