/* Transfers through a root rank (computations gathered to one rank): the
 * root's verdict reaches every rank before any data moves, so a failure
 * on the root raises the same exception everywhere and no rank is left in
 * a collective. */
#include "_core.h"
#include <string.h>


static int root_ok(int root) {
  if (root >= 0 && root < mn_ctx_size(g_ctx)) return 1;
  /* root is the same argument on every rank (SPMD): all raise here */
  PyErr_Format(PyExc_ValueError, "root rank %d outside [0, %d)", root, mn_ctx_size(g_ctx));
  return 0;
}

/* MANIPLE_CHECKS for this module's own collectives: the call and its
 * global arguments as text (root, an array's dtype and shape), compared
 * across ranks before any message; nothing while checks are off. */
static int check_call(const char *fn, int root, const mn_array *a) {
  if (!mn_ctx_checks(g_ctx)) return 1;
  char r[24], d[96] = "none";
  snprintf(r, sizeof r, "%d", root);
  if (a) {
    int nd = mn_array_ndim(a);
    const int64_t *s = mn_array_shape(a);
    int k = snprintf(d, sizeof d, "%s (", mn_dtype_name(mn_array_dtype(a)));
    for (int i = 0; i < nd && k < (int)sizeof d - 24; i++) k += snprintf(d + k, sizeof d - (size_t)k, "%lld,", (long long)s[i]);
    snprintf(d + k, sizeof d - (size_t)k, ")");
  }
  const char *names[2] = {"root", "array"}, *values[2] = {r, d};
  int rc = mn_ctx_check_args(g_ctx, fn, 2, names, values);
  if (rc) raise_mn(rc);
  return rc == 0;
}

static int bcast_raw(void *buf, int64_t n, int root) {
  int rc;
  rc = mn_ctx_bcast(g_ctx, buf, n, root);
  if (rc) raise_mn(rc);
  return rc == 0;
}

/* Root checked something only it holds (its buffer); ok = 0 there means a
 * Python exception is set. Every rank learns the outcome and raises the
 * root's exception type and message, so no rank is left in a collective.
 * *n carries one number from root along (a length). */
static int agree_with_root(int root, int ok, int64_t *n) {
  static PyObject **const kinds[] = {&PyExc_TypeError, &PyExc_ValueError, &PyExc_MemoryError, &PyExc_BufferError,
                                     &PyExc_OverflowError, &PyExc_RuntimeError};
  const int nkinds = (int)(sizeof kinds / sizeof kinds[0]);
  struct { int64_t kind, n; char text[496]; } h;
  memset(&h, 0, sizeof h);
  int me = mn_ctx_rank(g_ctx) == root;
  if (me) {
    h.n = n ? *n : 0;
    if (!ok) {
      PyObject *t, *v, *tb;
      h.kind = nkinds; /* RuntimeError unless one of the kinds matches */
      for (int k = nkinds - 1; k >= 0; k--)
        if (PyErr_ExceptionMatches(*kinds[k])) h.kind = k + 1;
      PyErr_Fetch(&t, &v, &tb);
      PyErr_NormalizeException(&t, &v, &tb);
      PyObject *s = v ? PyObject_Str(v) : NULL;
      const char *u = s ? PyUnicode_AsUTF8(s) : NULL;
      if (!u) PyErr_Clear();
      snprintf(h.text, sizeof h.text, "%s", u ? u : "error on the root rank");
      Py_XDECREF(s);
      PyErr_Restore(t, v, tb); /* root keeps its own exception */
    }
  }
  if (!bcast_raw(&h, (int64_t)sizeof h, root)) return 0;
  if (n) *n = h.n;
  if (!h.kind) return 1;
  if (!me) PyErr_SetString(*kinds[h.kind - 1], h.text);
  return 0;
}

/* every rank's allocation succeeded, or all raise MemoryError */
static int agree_alloc(int ok) {
  int all = ok, rc;
  rc = mn_ctx_all(g_ctx, ok, &all);
  if (rc) { raise_mn(rc); return 0; }
  if (all) return 1;
  if (!PyErr_Occurred()) PyErr_SetString(PyExc_MemoryError, "cannot allocate the broadcast buffer on some rank");
  return 0;
}

PyObject *Array_gather_root(ArrayObject *self, PyObject *args) {
  int root = 0;
  if (!PyArg_ParseTuple(args, "|i", &root) || !check_call("Array.gather_root", root, self->a) || !root_ok(root))
    return NULL;
  Py_ssize_t bytes = (Py_ssize_t)(mn_array_size(self->a) * (int64_t)mn_dtype_size(mn_array_dtype(self->a)));
  PyObject *b = NULL;
  int me = mn_ctx_rank(g_ctx) == root;
  if (me) b = PyBytes_FromStringAndSize(NULL, bytes);
  if (!agree_with_root(root, !me || b, NULL)) return NULL;
  int rc;
  char *buf = me ? PyBytes_AS_STRING(b) : NULL;
  rc = mn_array_gather(self->a, root, buf);
  if (rc) { Py_XDECREF(b); return raise_mn(rc); }
  if (me) return b;
  Py_RETURN_NONE;
}

/* local_values() -> (first index, bytes): the elements of a 1-d array this
 * rank owns, in order, copied from host memory (no message) */
PyObject *Array_local_values(ArrayObject *self, PyObject *u) {
  (void)u;
  if (mn_array_ndim(self->a) != 1) {
    PyErr_Format(PyExc_ValueError, "local_values of a 1-d array, not %d-d", mn_array_ndim(self->a));
    return NULL;
  }
  mn_local l;
  int rc = mn_array_local_host(self->a, &l);
  if (rc) return raise_mn(rc);
  size_t es = mn_dtype_size(mn_array_dtype(self->a));
  int64_t n = l.data ? l.count[0] : 0;
  PyObject *b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)n * es));
  if (!b) return NULL;
  char *w = PyBytes_AS_STRING(b);
  for (int64_t k = 0; k < n; k++) memcpy(w + (size_t)k * es, (const char *)l.data + k * l.stride[0] * (int64_t)es, es);
  return Py_BuildValue("(LN)", (long long)(n ? l.lo[0] : 0), b);
}

/* local_any() -> whether any element of a bool array that this rank owns
 * is true (no message: a rank's own warnings, as its floating-point ones) */
PyObject *Array_local_any(ArrayObject *self, PyObject *u) {
  (void)u;
  if (mn_array_dtype(self->a) != MN_BOOL) return PyErr_Format(PyExc_TypeError, "local_any of a bool array");
  mn_local l;
  int rc = mn_array_local_host(self->a, &l);
  if (rc) return raise_mn(rc);
  int64_t total = l.data ? 1 : 0;
  for (int d = 0; d < l.ndim; d++) total *= l.count[d];
  int64_t idx[MN_MAXDIM] = {0};
  for (int64_t k = 0; k < total; k++) { /* the box in C order, any strides */
    int64_t off = 0;
    for (int d = 0; d < l.ndim; d++) off += idx[d] * l.stride[d];
    if (((const unsigned char *)l.data)[off]) Py_RETURN_TRUE;
    for (int d = l.ndim - 1; d >= 0 && ++idx[d] == l.count[d]; d--) idx[d] = 0;
  }
  Py_RETURN_FALSE;
}

PyObject *Array_split_local(ArrayObject *self, PyObject *arg) {
  /* a failure here (a bad count, no memory) still joins the collective
   * call with a refused count, so every rank raises and none waits */
  long long n = PyLong_AsLongLong(arg);
  size_t es = mn_dtype_size(mn_array_dtype(self->a));
  PyObject *b = NULL;
  int bad = PyErr_Occurred() || n < 0 || (unsigned long long)n > (unsigned long long)PY_SSIZE_T_MAX / es;
  if (!bad) bad = !(b = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)((size_t)n * es)));
  PyObject *et, *ev, *tb;
  PyErr_Fetch(&et, &ev, &tb);
  char none = 0;
  int rc;
  rc = mn_array_split_local(self->a, bad ? -1 : (int64_t)n, bad ? &none : PyBytes_AS_STRING(b));
  if (et) { /* this rank's own error first */
    Py_XDECREF(b);
    PyErr_Restore(et, ev, tb);
    return NULL;
  }
  if (rc) { Py_XDECREF(b); return raise_mn(rc); }
  return b;
}

PyObject *Array_scatter_root(ArrayObject *self, PyObject *args) {
  PyObject *obj;
  int root = 0;
  if (!PyArg_ParseTuple(args, "O|i", &obj, &root) || !check_call("Array.scatter_root", root, self->a) ||
      !root_ok(root))
    return NULL;
  int me = mn_ctx_rank(g_ctx) == root, ok = 1;
  Py_buffer view = {0};
  if (me) { /* only root's buffer is read; others' argument is ignored */
    int64_t need = mn_array_size(self->a) * (int64_t)mn_dtype_size(mn_array_dtype(self->a));
    if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0) ok = 0;
    else if (view.len != need) {
      PyErr_Format(PyExc_ValueError, "buffer holds %zd bytes, the array needs %lld", view.len, (long long)need);
      PyBuffer_Release(&view);
      ok = 0;
    }
  }
  if (!agree_with_root(root, ok, NULL)) return NULL;
  int rc;
  rc = mn_array_scatter(self->a, root, me ? view.buf : NULL);
  if (me) PyBuffer_Release(&view);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* bcast(bytes_or_None, root=0): root's bytes on every rank */
static PyObject *py_bcast(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *obj;
  int root = 0;
  if (!PyArg_ParseTuple(args, "O|i", &obj, &root)) return NULL;
  if (!need_ctx() || !check_call("bcast", root, NULL) || !root_ok(root)) return NULL;
  int me = mn_ctx_rank(g_ctx) == root;
  PyObject *out = NULL;
  int64_t n = 0;
  if (me) {
    if (PyBytes_Check(obj)) {
      Py_INCREF(obj);
      out = obj;
    } else {
      Py_buffer view;
      if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) == 0) {
        out = PyBytes_FromStringAndSize(view.buf, view.len);
        PyBuffer_Release(&view);
      }
    }
    if (out) n = PyBytes_GET_SIZE(out);
  }
  if (!agree_with_root(root, !me || out, &n)) return NULL;
  if (!me) out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)n);
  if (!agree_alloc(out != NULL)) { Py_XDECREF(out); return NULL; }
  if (!bcast_raw(PyBytes_AS_STRING(out), n, root)) { Py_DECREF(out); return NULL; }
  return out;
}

static PyMethodDef transfer_functions[] = {
  {"bcast", py_bcast, METH_VARARGS, "bcast(bytes_or_None, root=0) -> the root's bytes on every rank."},
  {NULL, NULL, 0, NULL}};

int mnpy_transfer_init(PyObject *m) { return PyModule_AddFunctions(m, transfer_functions); }
