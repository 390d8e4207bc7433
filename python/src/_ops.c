/* Selection, sorting, scans and products (mn_select.h, mn_sort.h,
 * mn_linalg.h). */
#include "_core.h"
#include <string.h>

static PyObject *py_take(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *idx, *out;
  if (!PyArg_ParseTuple(args, "O!O!O!", &ArrayType, &x, &ArrayType, &idx, &ArrayType, &out)) return NULL;
  int rc;
  rc = mn_array_take(arr(x), arr(idx), arr(out));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_take_rows(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *idx, *out;
  if (!PyArg_ParseTuple(args, "O!O!O!", &ArrayType, &x, &ArrayType, &idx, &ArrayType, &out)) return NULL;
  int rc = mn_array_take_rows(arr(x), arr(idx), arr(out));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_put(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *idx, *v;
  if (!PyArg_ParseTuple(args, "O!O!O!", &ArrayType, &x, &ArrayType, &idx, &ArrayType, &v)) return NULL;
  int rc;
  rc = mn_array_put(arr(x), arr(idx), arr(v));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_compress(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *mask;
  if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &x, &ArrayType, &mask)) return NULL;
  mn_array *r = NULL;
  int rc;
  rc = mn_array_compress(arr(x), arr(mask), &r);
  if (rc) return raise_mn(rc);
  return wrap(r);
}

/* concat_local(dtype, buffer): a 1-d Array of every rank's values of
 * dtype, in rank order (collective) */
static PyObject *py_concat_local(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *dt, *bo;
  if (!PyArg_ParseTuple(args, "OO", &dt, &bo) || !need_ctx()) return NULL;
  mn_dtype t;
  if (!dtype_of(dt, &t)) return NULL;
  Py_buffer b;
  if (PyObject_GetBuffer(bo, &b, PyBUF_C_CONTIGUOUS) < 0) return NULL;
  size_t es = mn_dtype_size(t);
  if (b.len % (Py_ssize_t)es) {
    PyBuffer_Release(&b);
    PyErr_Format(PyExc_ValueError, "concat_local: %zd bytes are not whole %s values", b.len, mn_dtype_name(t));
    return NULL;
  }
  mn_array *r = NULL;
  int rc;
  rc = mn_array_concat_local(g_ctx, t, (int64_t)(b.len / (Py_ssize_t)es), b.buf, &r);
  PyBuffer_Release(&b);
  if (rc) return raise_mn(rc);
  return wrap(r);
}

/* sort(x, axis, want_values, want_perm) -> (values or None, perm or None) */
static PyObject *py_sort(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x;
  int axis, wv, wp;
  if (!PyArg_ParseTuple(args, "O!ipp", &ArrayType, &x, &axis, &wv, &wp)) return NULL;
  mn_array *s = NULL, *p = NULL;
  int rc;
  rc = mn_array_sort(arr(x), axis, wv ? &s : NULL, wp ? &p : NULL);
  if (rc) return raise_mn(rc);
  PyObject *so = s ? wrap(s) : (Py_INCREF(Py_None), Py_None);
  PyObject *po = p ? wrap(p) : (Py_INCREF(Py_None), Py_None);
  if (!so || !po) { Py_XDECREF(so); Py_XDECREF(po); return NULL; }
  return Py_BuildValue("(NN)", so, po);
}

static PyObject *py_searchsorted(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *v, *out;
  int right;
  if (!PyArg_ParseTuple(args, "O!O!pO!", &ArrayType, &a, &ArrayType, &v, &right, &ArrayType, &out)) return NULL;
  int rc;
  rc = mn_array_searchsorted(arr(a), arr(v), right, arr(out));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_scan(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *opname, *x, *out;
  int axis, op, rc;
  if (!PyArg_ParseTuple(args, "OO!iO!", &opname, &ArrayType, &x, &axis, &ArrayType, &out)) return NULL;
  if (!op_of(opname, MN_NREDUCE, mnpy_rname, "reduction", &op)) return NULL;
  rc = mn_array_scan((mn_reduce_op)op, arr(x), axis, arr(out));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_matmul(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *b, *out;
  if (!PyArg_ParseTuple(args, "O!O!O!", &ArrayType, &a, &ArrayType, &b, &ArrayType, &out)) return NULL;
  int rc;
  rc = mn_array_matmul(arr(a), arr(b), arr(out));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* dot(x, y) -> sum(x * y), the same on every rank: one C call for the
 * dots of a CG loop (no program built in Python); its floating-point
 * exceptions are named for dot, as NumPy's */
static PyObject *py_dot(PyObject *m, PyObject *args) {
  (void)m;
  static PyObject *name;
  PyObject *x, *y;
  if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &x, &ArrayType, &y)) return NULL;
  if (!name && !(name = PyUnicode_InternFromString("dot"))) return NULL;
  mn_scalar s;
  mnpy_fpe_begin();
  int rc = mn_array_dot(arr(x), arr(y), &s);
  if (rc) return raise_mn(rc);
  if (mnpy_fpe_end(name, 1) < 0) return NULL;
  return from_scalar(s);
}

/* diagonal(x, offset, out): out[i] = x[i + r0, i + c0] of a 2-d x */
static PyObject *py_diagonal(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *out;
  long long offset;
  if (!PyArg_ParseTuple(args, "O!LO!", &ArrayType, &x, &offset, &ArrayType, &out)) return NULL;
  int rc = mn_array_diagonal(arr(x), (int64_t)offset, arr(out));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* trace(x, offset) -> the sum of x's diagonal, the same on every rank */
static PyObject *py_trace(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x;
  long long offset;
  if (!PyArg_ParseTuple(args, "O!L", &ArrayType, &x, &offset)) return NULL;
  mn_scalar s;
  mnpy_fpe_begin();
  int rc = mn_array_trace(arr(x), (int64_t)offset, &s);
  if (rc) return raise_mn(rc);
  if (mnpy_fpe_end(Py_None, 1) < 0) return NULL;
  return from_scalar(s);
}

/* order_stats(x, positions) -> bytes: the elements at those positions of
 * x's sorted values (x's dtype), on every rank */
static PyObject *py_order_stats(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *seq;
  if (!PyArg_ParseTuple(args, "O!O", &ArrayType, &x, &seq)) return NULL;
  PyObject *fast = PySequence_Fast(seq, "order_stats: positions must be a sequence");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int64_t *pos = malloc(sizeof(int64_t) * (size_t)(n ? n : 1));
  size_t es = mn_dtype_size(mn_array_dtype(arr(x)));
  PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)(es * (size_t)n));
  for (Py_ssize_t i = 0; pos && out && i < n && !PyErr_Occurred(); i++)
    pos[i] = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(fast, i));
  Py_DECREF(fast);
  if (!pos || !out || PyErr_Occurred()) {
    free(pos);
    Py_XDECREF(out);
    return PyErr_Occurred() ? NULL : PyErr_NoMemory();
  }
  int rc = mn_array_order_stats(arr(x), (int)n, pos, PyBytes_AS_STRING(out));
  free(pos);
  if (rc) {
    Py_DECREF(out);
    return raise_mn(rc);
  }
  return out;
}

/* the dense factorisations (ScaLAPACK over every rank): new Arrays */
static PyObject *py_factor(PyObject *m, PyObject *args) {
  (void)m;
  const char *what;
  PyObject *a, *b = Py_None;
  if (!PyArg_ParseTuple(args, "sO!|O", &what, &ArrayType, &a, &b)) return NULL;
  mn_array *x = NULL, *y = NULL, *z = NULL;
  int rc, two = 0;
  if (!strcmp(what, "svd")) { /* (u, s, vt) */
    rc = mn_array_svd(arr(a), &x, &y, &z);
    if (rc) return raise_mn(rc);
    PyObject *u = wrap(x), *sv = u ? wrap(y) : NULL, *v = sv ? wrap(z) : NULL;
    if (!v) {
      Py_XDECREF(u);
      Py_XDECREF(sv);
      if (!u) mn_array_destroy(&y);
      if (!sv) mn_array_destroy(&z);
      return NULL;
    }
    return Py_BuildValue("(NNN)", u, sv, v);
  }
  if (!strcmp(what, "slogdet")) { /* (sign real, sign imaginary, log |det|) */
    double sg[2], ld;
    rc = mn_array_slogdet(arr(a), sg, &ld);
    if (rc) return raise_mn(rc);
    return Py_BuildValue("(ddd)", sg[0], sg[1], ld);
  }
  if (!strcmp(what, "cholesky")) rc = mn_array_cholesky(arr(a), &x);
  else if (!strcmp(what, "eigh_L") || !strcmp(what, "eigh_U")) rc = mn_array_eigh(arr(a), what[5] == 'L', &x, &y), two = 1;
  else if (!strcmp(what, "eigvalsh_L") || !strcmp(what, "eigvalsh_U")) rc = mn_array_eigh(arr(a), what[9] == 'L', &x, NULL);
  else if (!strcmp(what, "svdvals")) rc = mn_array_svd(arr(a), NULL, &x, NULL);
  else if (!strcmp(what, "inv")) rc = mn_array_inv(arr(a), &x);
  else if (!strcmp(what, "qr")) rc = mn_array_qr(arr(a), &x, &y), two = 1;
  else if (!strcmp(what, "qr_r")) rc = mn_array_qr(arr(a), NULL, &x);
  else if (!strcmp(what, "solve")) {
    if (!PyObject_TypeCheck(b, &ArrayType)) {
      PyErr_Format(PyExc_TypeError, "factor('solve', a, b): b must be a maniple array, not %s", Py_TYPE(b)->tp_name);
      return NULL;
    }
    rc = mn_array_solve(arr(a), arr(b), &x);
  } else {
    PyErr_Format(PyExc_ValueError, "factor: unknown request '%s'", what);
    return NULL;
  }
  if (rc) return raise_mn(rc);
  if (!two) return wrap(x);
  PyObject *q = wrap(x), *r = q ? wrap(y) : NULL;
  if (!r) {
    Py_XDECREF(q);
    if (!q) mn_array_destroy(&y);
    return NULL;
  }
  return Py_BuildValue("(NN)", q, r);
}

static PyMethodDef ops_functions[] = {
  {"take", py_take, METH_VARARGS, "take(x, idx, out): out[k] = x.flat[idx[k]]."},
  {"take_rows", py_take_rows, METH_VARARGS, "take_rows(x, idx, out): out[k, ...] = x[idx[k], ...] (idx 1-d)."},
  {"put", py_put, METH_VARARGS, "put(x, idx, v): x.flat[idx[k]] = v[k] (the last repeat wins)."},
  {"compress", py_compress, METH_VARARGS, "compress(x, mask) -> 1-d Array of x[mask]."},
  {"concat_local", py_concat_local, METH_VARARGS, "concat_local(dtype, buffer) -> 1-d Array of every rank's values."},
  {"sort", py_sort, METH_VARARGS, "sort(x, axis, values, perm) -> (sorted or None, argsort or None)."},
  {"searchsorted", py_searchsorted, METH_VARARGS, "searchsorted(a, v, right, out)."},
  {"scan", py_scan, METH_VARARGS, "scan('sum'|'prod', x, axis, out): cumulative along axis."},
  {"matmul", py_matmul, METH_VARARGS, "matmul(a, b, out) for 1-d and 2-d operands."},
  {"diagonal", py_diagonal, METH_VARARGS, "diagonal(x, offset, out): the diagonal of a 2-d array into out."},
  {"trace", py_trace, METH_VARARGS, "trace(x, offset) -> the sum of a 2-d array's diagonal, on every rank."},
  {"dot", py_dot, METH_VARARGS, "dot(x, y) -> sum(x * y) of two arrays of one shape, on every rank."},
  {"order_stats", py_order_stats, METH_VARARGS,
   "order_stats(x, positions) -> bytes of the elements at those positions of x's sorted values."},
  {"factor", py_factor, METH_VARARGS,
   "factor('cholesky'|'inv'|'qr'|'qr_r'|'solve', a[, b]) -> Array, or (q, r) for 'qr', on every rank; "
   "factor('slogdet', a) -> (sign real, sign imaginary, log |det|)."},
  {NULL, NULL, 0, NULL}};

int mnpy_ops_init(PyObject *m) { return PyModule_AddFunctions(m, ops_functions); }
