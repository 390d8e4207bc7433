/* Fused expression programs from the Python engine: node lists and trees
 * built into an mn_expr, evaluated into an array or reduced. */
#include "_core.h"
#include <string.h>

/* Programs: lists of node tuples, arguments referring to earlier nodes. */
static int build_ids(PyObject *program, mn_expr **out, int *root, int **ids_keep, Py_ssize_t *nids) {
  PyObject *seq = PySequence_Fast(program, "program must be a sequence of nodes");
  if (!seq) return 0;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n == 0) { Py_DECREF(seq); PyErr_SetString(PyExc_ValueError, "empty program"); return 0; }
  mn_expr *e = NULL;
  int rc = mn_expr_create(g_ctx, &e);
  if (rc) { Py_DECREF(seq); raise_mn(rc); return 0; }
  int *ids = PyMem_Malloc(sizeof(int) * (size_t)n);
  if (!ids) { Py_DECREF(seq); mn_expr_destroy(&e); PyErr_NoMemory(); return 0; }
  int ok = 1;
#define ARG(k) (ids[PyLong_AsLong(PyTuple_GET_ITEM(it, (k)))])
  for (Py_ssize_t k = 0; k < n && ok; k++) {
    PyObject *it = PySequence_Fast_GET_ITEM(seq, k);
    const char *kind = PyTuple_Check(it) && PyTuple_GET_SIZE(it) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(it, 0)) : NULL;
    Py_ssize_t len = kind ? PyTuple_GET_SIZE(it) : 0;
    /* argument positions must point at earlier nodes */
    for (Py_ssize_t q = 2; kind && q < len && strcmp(kind, "in") && strcmp(kind, "sc") && strcmp(kind, "cast") &&
                           strcmp(kind, "ph"); q++) {
      long r = PyLong_AsLong(PyTuple_GET_ITEM(it, q));
      if (r < 0 || r >= k) { kind = NULL; break; }
    }
    int op = 0, id = -1;
    rc = 0;
    if (!kind) {
      ok = 0;
    } else if (!strcmp(kind, "in") && len == 2 && is_array(PyTuple_GET_ITEM(it, 1))) {
      rc = mn_expr_input(e, arr(PyTuple_GET_ITEM(it, 1)), &id);
    } else if (!strcmp(kind, "ph") && len == 3) {
      mn_dtype t;
      int nd;
      int64_t shape[MN_MAXDIM];
      if (!dtype_of(PyTuple_GET_ITEM(it, 1), &t) || !to_shape(PyTuple_GET_ITEM(it, 2), &nd, shape)) ok = 0;
      else rc = mn_expr_placeholder(e, t, nd, shape, &id);
    } else if (!strcmp(kind, "sc") && len == 2) {
      mn_scalar s;
      if (!to_scalar(PyTuple_GET_ITEM(it, 1), &s)) ok = 0;
      else rc = mn_expr_scalar(e, s, &id);
    } else if (!strcmp(kind, "un") && len == 3) {
      if (!op_of(PyTuple_GET_ITEM(it, 1), MN_NUNARY, mnpy_uname, "unary op", &op)) ok = 0;
      else rc = mn_expr_unary(e, (mn_unary_op)op, ARG(2), &id);
    } else if (!strcmp(kind, "bin") && len == 4) {
      if (!op_of(PyTuple_GET_ITEM(it, 1), MN_NBINARY, mnpy_bname, "binary op", &op)) ok = 0;
      else rc = mn_expr_binary(e, (mn_binary_op)op, ARG(2), ARG(3), &id);
    } else if (!strcmp(kind, "ter") && len == 5) {
      if (!op_of(PyTuple_GET_ITEM(it, 1), MN_NTERNARY, mnpy_tname, "ternary op", &op)) ok = 0;
      else rc = mn_expr_ternary(e, (mn_ternary_op)op, ARG(2), ARG(3), ARG(4), &id);
    } else if (!strcmp(kind, "cast") && len == 3) {
      mn_dtype t;
      long r = PyLong_AsLong(PyTuple_GET_ITEM(it, 1));
      if (r < 0 || r >= k || !dtype_of(PyTuple_GET_ITEM(it, 2), &t)) ok = 0;
      else rc = mn_expr_cast(e, ids[r], t, &id);
    } else {
      ok = 0;
    }
    if (rc) { raise_mn(rc); ok = 0; }
    if (!ok && !PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "malformed program node %zd", k);
    ids[k] = id;
  }
#undef ARG
  *root = ids[n - 1];
  if (ok && ids_keep) { *ids_keep = ids; *nids = n; }
  else PyMem_Free(ids);
  Py_DECREF(seq);
  if (!ok) { mn_expr_destroy(&e); return 0; }
  *out = e;
  return 1;
}

static int build(PyObject *program, mn_expr **out, int *root) { return build_ids(program, out, root, NULL, NULL); }

/* extras: None or a sequence of (program index, Array) pairs: nodes also
 * stored, in the same pass, into those (fresh) arrays. */
enum { XMAX = 16 };
static int extras_of(PyObject *extras, const int *ids, Py_ssize_t n, int *nx, int *xnode, mn_array **xout) {
  *nx = 0;
  if (!extras || extras == Py_None) return 1;
  PyObject *seq = PySequence_Fast(extras, "extras must be a sequence of (index, Array)");
  if (!seq) return 0;
  Py_ssize_t m = PySequence_Fast_GET_SIZE(seq);
  int ok = m <= XMAX;
  if (!ok) PyErr_Format(PyExc_ValueError, "%zd extra outputs (at most %d)", m, (int)XMAX);
  for (Py_ssize_t k = 0; k < m && ok; k++) {
    PyObject *it = PySequence_Fast_GET_ITEM(seq, k);
    long i = -1;
    if (PyTuple_Check(it) && PyTuple_GET_SIZE(it) == 2 && is_array(PyTuple_GET_ITEM(it, 1)))
      i = PyLong_AsLong(PyTuple_GET_ITEM(it, 0));
    if (i < 0 || i >= n) {
      if (!PyErr_Occurred()) PyErr_Format(PyExc_ValueError, "malformed extra output %zd", k);
      ok = 0;
      break;
    }
    xnode[k] = ids[i];
    xout[k] = arr(PyTuple_GET_ITEM(it, 1));
    (*nx)++;
  }
  Py_DECREF(seq);
  return ok;
}

/* Expression trees straight from Python's nested tuples (as
 * maniple.numpy builds them), without a program list in between:
 * ("in", Array) | ("sc", v) | ("un", name, x) | ("bin", name, x, y) |
 * ("ter", name, x, y, z) | ("cast", x, dtype), and cells ["ref", node]
 * (a pending array's value as its consumers see it). Shared subtrees and arrays
 * become one node each (memo by object identity; trees are small, so a
 * linear table beats a dict). */
enum { MEMO_MAX = 128 };
typedef struct { int n; const void *key[MEMO_MAX]; int id[MEMO_MAX]; } tree_memo;

static int tree_node(PyObject *t, mn_expr *e, tree_memo *memo, int *id) {
  if (PyList_Check(t) && PyList_GET_SIZE(t) >= 2) t = PyList_GET_ITEM(t, 1); /* a cell ["ref", node, ...] */
  if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) < 2) {
    PyErr_SetString(PyExc_ValueError, "malformed expression tree node");
    return 0;
  }
  const char *kind = PyUnicode_AsUTF8(PyTuple_GET_ITEM(t, 0));
  if (!kind) return 0;
  const void *ident = kind[0] == 'i' ? (const void *)PyTuple_GET_ITEM(t, 1) : (const void *)t;
  for (int k = memo->n - 1; k >= 0; k--)
    if (memo->key[k] == ident) { *id = memo->id[k]; return 1; }
  Py_ssize_t len = PyTuple_GET_SIZE(t);
  int rc = 0, ok = 1, a = 0, b = 0, c = 0, op = 0;
  if (!strcmp(kind, "in") && len == 2 && is_array(PyTuple_GET_ITEM(t, 1))) {
    rc = mn_expr_input(e, arr(PyTuple_GET_ITEM(t, 1)), id);
  } else if (!strcmp(kind, "sc") && len == 2) {
    mn_scalar sv;
    ok = to_scalar(PyTuple_GET_ITEM(t, 1), &sv);
    if (ok) rc = mn_expr_scalar(e, sv, id);
  } else if (!strcmp(kind, "un") && len == 3) {
    ok = op_of(PyTuple_GET_ITEM(t, 1), MN_NUNARY, mnpy_uname, "unary op", &op) && tree_node(PyTuple_GET_ITEM(t, 2), e, memo, &a);
    if (ok) rc = mn_expr_unary(e, (mn_unary_op)op, a, id);
  } else if (!strcmp(kind, "bin") && len == 4) {
    ok = op_of(PyTuple_GET_ITEM(t, 1), MN_NBINARY, mnpy_bname, "binary op", &op) &&
         tree_node(PyTuple_GET_ITEM(t, 2), e, memo, &a) && tree_node(PyTuple_GET_ITEM(t, 3), e, memo, &b);
    if (ok) rc = mn_expr_binary(e, (mn_binary_op)op, a, b, id);
  } else if (!strcmp(kind, "ter") && len == 5) {
    ok = op_of(PyTuple_GET_ITEM(t, 1), MN_NTERNARY, mnpy_tname, "ternary op", &op) &&
         tree_node(PyTuple_GET_ITEM(t, 2), e, memo, &a) && tree_node(PyTuple_GET_ITEM(t, 3), e, memo, &b) &&
         tree_node(PyTuple_GET_ITEM(t, 4), e, memo, &c);
    if (ok) rc = mn_expr_ternary(e, (mn_ternary_op)op, a, b, c, id);
  } else if (!strcmp(kind, "cast") && len == 3) {
    mn_dtype dt;
    ok = tree_node(PyTuple_GET_ITEM(t, 1), e, memo, &a) && dtype_of(PyTuple_GET_ITEM(t, 2), &dt);
    if (ok) rc = mn_expr_cast(e, a, dt, id);
  } else {
    PyErr_Format(PyExc_ValueError, "malformed expression tree node '%s'", kind);
    ok = 0;
  }
  if (ok && rc) { raise_mn(rc); ok = 0; }
  if (ok && memo->n < MEMO_MAX) { /* past the table's size: correct, just not shared */
    memo->key[memo->n] = ident;
    memo->id[memo->n++] = *id;
  }
  return ok;
}

/* eval_tree(tree, shape, dtype) -> a new Array holding the tree's values */
static PyObject *py_eval_tree(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *tree, *shape, *dt;
  if (!PyArg_ParseTuple(args, "OOO", &tree, &shape, &dt)) return NULL;
  if (!need_ctx()) return NULL;
  int nd;
  int64_t sh[MN_MAXDIM];
  mn_dtype t;
  if (!to_shape(shape, &nd, sh) || !dtype_of(dt, &t)) return NULL;
  mn_expr *e = NULL;
  int rc = mn_expr_create(g_ctx, &e), root = 0;
  if (rc) return raise_mn(rc);
  tree_memo memo;
  memo.n = 0;
  if (!tree_node(tree, e, &memo, &root)) { mn_expr_destroy(&e); return NULL; }
  mn_array *out = NULL;
  rc = mn_array_create_empty(g_ctx, t, nd, sh, &out); /* every element is written */
  /* the entry a shared pass takes too: MANIPLE_CHECKS compares them alike */
  mnpy_fpe_begin();
  if (!rc) rc = mn_expr_eval_extra(e, root, out, 0, NULL, NULL);
  mn_expr_destroy(&e);
  if (rc) { mn_array_destroy(&out); return raise_mn(rc); }
  if (mnpy_fpe_end(tree, 0) < 0) { mn_array_destroy(&out); return NULL; }
  return wrap(out);
}

static PyObject *py_result_info(PyObject *m, PyObject *program) {
  (void)m;
  if (!need_ctx()) return NULL;
  mn_expr *e;
  int root, nd;
  int64_t shape[MN_MAXDIM];
  if (!build(program, &e, &root)) return NULL;
  mn_dtype t = mn_expr_dtype(e, root);
  mn_expr_shape(e, root, &nd, shape);
  mn_expr_destroy(&e);
  PyObject *s = shape_tuple(nd, shape);
  if (!s) return NULL;
  PyObject *r = Py_BuildValue("(sN)", mn_dtype_name(t), s);
  return r;
}

/* build(program) plus its extras, resolved to node ids */
static int build_extras(PyObject *program, PyObject *extras, long rootix, mn_expr **e, int *root, int *nx,
                        int *xnode, mn_array **xout) {
  int *ids = NULL;
  Py_ssize_t nids = 0;
  if (!build_ids(program, e, root, &ids, &nids)) return 0;
  int ok = extras_of(extras, ids, nids, nx, xnode, xout);
  if (ok && (rootix < -1 || rootix >= nids)) {
    PyErr_Format(PyExc_ValueError, "root %ld of a program of %zd nodes", rootix, nids);
    ok = 0;
  }
  if (ok && rootix >= 0) *root = ids[rootix]; /* else the last node */
  PyMem_Free(ids);
  if (!ok) mn_expr_destroy(e);
  return ok;
}

static PyObject *py_evaluate(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *program, *out, *extras = NULL;
  long rootix = -1;
  if (!PyArg_ParseTuple(args, "OO!|Ol", &program, &ArrayType, &out, &extras, &rootix)) return NULL;
  if (!need_ctx()) return NULL;
  mn_expr *e;
  int root, rc, nx = 0, xnode[XMAX];
  mn_array *xout[XMAX];
  if (!build_extras(program, extras, rootix, &e, &root, &nx, xnode, xout)) return NULL;
  mnpy_fpe_begin();
  rc = mn_expr_eval_extra(e, root, arr(out), nx, xnode, xout);
  mn_expr_destroy(&e);
  if (rc) return raise_mn(rc);
  if (mnpy_fpe_end(program, 0) < 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *py_reduce(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *program, *opname, *extras = NULL;
  long rootix = -1;
  if (!PyArg_ParseTuple(args, "OO|Ol", &program, &opname, &extras, &rootix)) return NULL;
  if (!need_ctx()) return NULL;
  int op;
  if (!op_of(opname, MN_NREDUCE, mnpy_rname, "reduction", &op)) return NULL;
  mn_expr *e;
  int root, rc, nx = 0, xnode[XMAX];
  mn_array *xout[XMAX];
  mn_scalar s;
  if (!build_extras(program, extras, rootix, &e, &root, &nx, xnode, xout)) return NULL;
  mnpy_fpe_begin();
  rc = mn_expr_reduce_extra(e, root, (mn_reduce_op)op, &s, nx, xnode, xout);
  mn_expr_destroy(&e);
  if (rc) return raise_mn(rc);
  if (mnpy_fpe_end(program, 1) < 0) return NULL;
  return from_scalar(s);
}

static PyObject *py_reduce_axis(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *opname, *x, *out;
  int axis;
  if (!PyArg_ParseTuple(args, "OO!iO!", &opname, &ArrayType, &x, &axis, &ArrayType, &out)) return NULL;
  int op, rc;
  if (!op_of(opname, MN_NREDUCE, mnpy_rname, "reduction", &op)) return NULL;
  mnpy_fpe_begin();
  rc = mn_array_reduce_axis((mn_reduce_op)op, arr(x), axis, arr(out));
  if (rc) return raise_mn(rc);
  if (mnpy_fpe_end(Py_None, 1) < 0) return NULL;
  Py_RETURN_NONE;
}

static PyMethodDef expr_functions[] = {
  {"result_info", py_result_info, METH_O, "(dtype, shape) of a program's last node."},
  {"evaluate", py_evaluate, METH_VARARGS, "evaluate(program, out[, extras[, root]]): fused evaluation of node root (default: the last) into out; extras: (program index, Array) pairs also stored in the pass."},
  {"eval_tree", py_eval_tree, METH_VARARGS, "eval_tree(tree, shape, dtype) -> new Array, evaluated fused."},
  {"reduce", py_reduce, METH_VARARGS, "reduce(program, op[, extras[, root]]) -> scalar, same on every rank; extras and root as evaluate's."},
  {"reduce_axis", py_reduce_axis, METH_VARARGS, "reduce_axis(op, x, axis, out)."},
  {NULL, NULL, 0, NULL}};

int mnpy_expr_init(PyObject *m) { return PyModule_AddFunctions(m, expr_functions); }
