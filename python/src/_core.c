/* maniple._core: the one C extension. Thin handles over the C library:
 * arrays and views, fused expression programs, reductions, I/O. Errors
 * become the Python exceptions NumPy would raise. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <maniple/maniple.h>
#include <stdio.h>
#include "_core.h"
#include <string.h>

mn_ctx *g_ctx = NULL;

/* ---- errors ---- */
PyObject *raise_mn(int code) {
  PyObject *type = PyExc_RuntimeError;
  switch (code) {
  case MN_ERR_SHAPE: type = PyExc_ValueError; break;
  case MN_ERR_ARG: type = PyExc_ValueError; break;
  case MN_ERR_DTYPE: type = PyExc_TypeError; break;
  case MN_ERR_INDEX: type = PyExc_IndexError; break;
  case MN_ERR_MEM: type = PyExc_MemoryError; break;
  case MN_ERR_IO: type = PyExc_OSError; break;
  case MN_ERR_FORMAT: type = PyExc_ValueError; break;
  case MN_ERR_NOTIMPL: type = PyExc_NotImplementedError; break;
  default: break;
  }
  const char *path = NULL;
  int rank = -1, e = code == MN_ERR_IO ? mn_err_errno(&path, &rank) : 0;
  if (e) { /* OSError(errno, text, path): Python picks FileNotFoundError, IsADirectoryError, ... */
    char text[256];
    if (mn_ctx_size(g_ctx) > 1 && rank >= 0) snprintf(text, sizeof text, "%s (on rank %d)", strerror(e), rank);
    else snprintf(text, sizeof text, "%s", strerror(e));
    PyObject *args = Py_BuildValue("(isN)", e, text, PyUnicode_DecodeFSDefault(path));
    if (args) {
      PyErr_SetObject(PyExc_OSError, args);
      Py_DECREF(args);
    }
    return NULL;
  }
  /* the message's first line, without the code's name (the exception type
   * says it); the C trace stays available in mn_ctx_errmsg */
  const char *msg = mn_ctx_errmsg(g_ctx), *colon = strstr(msg, ": ");
  if (colon && (size_t)(colon - msg) < 20) msg = colon + 2;
  PyObject *text = PyUnicode_FromStringAndSize(msg, (Py_ssize_t)strcspn(msg, "\n"));
  if (text) {
    PyErr_SetObject(type, text);
    Py_DECREF(text);
  }
  return NULL;
}

int need_ctx(void) {
  if (g_ctx) return 1;
  PyErr_SetString(PyExc_RuntimeError, "maniple is not initialised: call maniple._core.init() first");
  return 0;
}

/* Release the GIL only around calls long enough to pay for it: on small
 * arrays the release and the reacquisition cost more than the work. */
enum { NOGIL_MIN = 1 << 16 };
#define CALL_NOGIL(big, stmt) \
  do { if (big) { Py_BEGIN_ALLOW_THREADS stmt; Py_END_ALLOW_THREADS } else { stmt; } } while (0)

/* ---- dtypes and names ---- */
int dtype_of(PyObject *o, mn_dtype *t) {
  const char *s = PyUnicode_AsUTF8(o);
  if (!s) return 0;
  for (int k = 0; k < MN_NDTYPE; k++)
    if (!strcmp(s, mn_dtype_name((mn_dtype)k))) { *t = (mn_dtype)k; return 1; }
  PyErr_Format(PyExc_TypeError, "dtype '%s' is not supported (bool, int32, int64, float32, float64)", s);
  return 0;
}

typedef const char *(*name_fn)(int);
/* name -> op code, per table: a dict lookup (strings cache their hash)
 * instead of comparing against every name, on every node of every call */
static PyObject *op_tables[4];

static int op_of(PyObject *o, int n, const char *(*name)(int), const char *what, int *op) {
  int t = what[0] == 'u' ? 0 : what[0] == 'b' ? 1 : what[0] == 't' ? 2 : 3;
  if (!op_tables[t]) {
    PyObject *d = PyDict_New();
    for (int k = 0; d && k < n; k++) {
      PyObject *v = PyLong_FromLong(k);
      if (!v || PyDict_SetItemString(d, name(k), v) < 0) { Py_XDECREF(v); Py_CLEAR(d); break; }
      Py_DECREF(v);
    }
    if (!d) return 0;
    op_tables[t] = d;
  }
  PyObject *v = PyUnicode_Check(o) ? PyDict_GetItemWithError(op_tables[t], o) : NULL;
  if (v) { *op = (int)PyLong_AsLong(v); return 1; }
  if (PyErr_Occurred()) return 0;
  const char *s = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : "?";
  PyErr_Format(PyExc_ValueError, "unknown %s '%s'", what, s ? s : "?");
  return 0;
}
static const char *uname(int k) { return mn_unary_name((mn_unary_op)k); }
static const char *bname(int k) { return mn_binary_name((mn_binary_op)k); }
static const char *tname(int k) { return mn_ternary_name((mn_ternary_op)k); }
static const char *rname(int k) { return mn_reduce_name((mn_reduce_op)k); }

static PyObject *from_scalar(mn_scalar s) {
  switch (s.dtype) {
  case MN_BOOL: return PyBool_FromLong((long)s.v.i);
  case MN_INT32: case MN_INT64: return PyLong_FromLongLong((long long)s.v.i);
  default: return PyFloat_FromDouble(s.v.f);
  }
}

/* Python bool/int/float -> weak scalar; (value, dtype) -> typed scalar */
static int to_scalar(PyObject *o, mn_scalar *s) {
  if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
    mn_dtype t;
    if (!dtype_of(PyTuple_GET_ITEM(o, 1), &t)) return 0;
    PyObject *v = PyTuple_GET_ITEM(o, 0);
    if (t == MN_FLOAT32 || t == MN_FLOAT64) {
      double d = PyFloat_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) return 0;
      *s = mn_scalar_typed(t, d);
    } else {
      long long i = PyLong_AsLongLong(v);
      if (i == -1 && PyErr_Occurred()) return 0;
      *s = mn_scalar_typed(t, 0);
      s->v.i = t == MN_BOOL ? i != 0 : (t == MN_INT32 ? (int32_t)i : i);
    }
    return 1;
  }
  if (PyBool_Check(o)) { *s = mn_scalar_bool(o == Py_True); return 1; }
  if (PyLong_Check(o)) {
    int over = 0;
    long long i = PyLong_AsLongLongAndOverflow(o, &over);
    if (over) { PyErr_SetString(PyExc_OverflowError, "Python int too large for int64"); return 0; }
    *s = mn_scalar_i64(i);
    return 1;
  }
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) return 0;
  *s = mn_scalar_f64(d);
  return 1;
}

static int to_shape(PyObject *o, int *nd, int64_t *shape) {
  PyObject *seq = PySequence_Fast(o, "shape must be a sequence of ints");
  if (!seq) return 0;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  if (n > MN_MAXDIM) {
    Py_DECREF(seq);
    PyErr_Format(PyExc_ValueError, "maniple arrays have at most %d dimensions, got %zd", MN_MAXDIM, n);
    return 0;
  }
  for (Py_ssize_t k = 0; k < n; k++) {
    long long v = PyLong_AsLongLong(PySequence_Fast_GET_ITEM(seq, k));
    if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return 0; }
    shape[k] = v;
  }
  *nd = (int)n;
  Py_DECREF(seq);
  return 1;
}

static PyObject *shape_tuple(int nd, const int64_t *shape) {
  PyObject *t = PyTuple_New(nd);
  if (!t) return NULL;
  for (int k = 0; k < nd; k++) PyTuple_SET_ITEM(t, k, PyLong_FromLongLong((long long)shape[k]));
  return t;
}

/* ---- Array ---- */
typedef struct {
  PyObject_HEAD
  mn_array *a;
} ArrayObject;
PyTypeObject ArrayType;

PyObject *wrap(mn_array *a) {
  ArrayObject *o = PyObject_New(ArrayObject, &ArrayType);
  if (!o) { mn_array_destroy(&a); return NULL; }
  o->a = a;
  return (PyObject *)o;
}

static void Array_dealloc(ArrayObject *self) {
  mn_array_destroy(&self->a);
  PyObject_Free(self);
}

int is_array(PyObject *o) { return PyObject_TypeCheck(o, &ArrayType); }
mn_array *arr(PyObject *o) { return ((ArrayObject *)o)->a; }

static PyObject *Array_shape(ArrayObject *self, void *c) {
  (void)c;
  return shape_tuple(mn_array_ndim(self->a), mn_array_shape(self->a));
}
static PyObject *Array_dtype(ArrayObject *self, void *c) {
  (void)c;
  return PyUnicode_FromString(mn_dtype_name(mn_array_dtype(self->a)));
}
static PyObject *Array_base(ArrayObject *self, void *c) {
  (void)c;
  return PyLong_FromUnsignedLongLong((unsigned long long)mn_array_base_key(self->a));
}
/* ((base axis per axis, -1 for none), (step per axis), base shape) */
static PyObject *Array_view_axes(ArrayObject *self, void *c) {
  (void)c;
  int nd = mn_array_ndim(self->a), bax[MN_MAXDIM];
  int64_t step[MN_MAXDIM];
  mn_array_view_axes(self->a, bax, step);
  PyObject *b = PyTuple_New(nd), *st = shape_tuple(nd, step);
  if (!b || !st) { Py_XDECREF(b); Py_XDECREF(st); return NULL; }
  for (int k = 0; k < nd; k++) PyTuple_SET_ITEM(b, k, PyLong_FromLong(bax[k]));
  mn_layout *lay = mn_array_layout(self->a);
  return Py_BuildValue("(NNN)", b, st, shape_tuple(mn_layout_ndim(lay), mn_layout_shape(lay)));
}
static PyObject *Array_share_count(ArrayObject *self, void *c) {
  (void)c;
  return PyLong_FromLong(mn_array_share_count(self->a));
}
static PyObject *Array_is_view(ArrayObject *self, void *c) {
  (void)c;
  return PyBool_FromLong(mn_array_is_view(self->a));
}

/* items: list of ('s', start|None, stop|None, step|None), ('i', k), ('n',) */
static PyObject *Array_index(ArrayObject *self, PyObject *items) {
  PyObject *seq = PySequence_Fast(items, "index items must be a sequence");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  mn_index idx[2 * MN_MAXDIM];
  if (n > 2 * MN_MAXDIM) { Py_DECREF(seq); PyErr_SetString(PyExc_IndexError, "too many indices"); return NULL; }
  for (Py_ssize_t k = 0; k < n; k++) {
    PyObject *it = PySequence_Fast_GET_ITEM(seq, k);
    const char *kind = PyTuple_Check(it) && PyTuple_GET_SIZE(it) ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(it, 0)) : NULL;
    if (!kind) { Py_DECREF(seq); if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "bad index item"); return NULL; }
    if (kind[0] == 's' && PyTuple_GET_SIZE(it) == 4) {
      int64_t b[3];
      for (int q = 0; q < 3; q++) {
        PyObject *v = PyTuple_GET_ITEM(it, q + 1);
        b[q] = v == Py_None ? MN_NONE : PyLong_AsLongLong(v);
        if (b[q] == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
      }
      idx[k] = mn_slice(b[0], b[1], b[2]);
    } else if (kind[0] == 'i' && PyTuple_GET_SIZE(it) == 2) {
      long long v = PyLong_AsLongLong(PyTuple_GET_ITEM(it, 1));
      if (v == -1 && PyErr_Occurred()) { Py_DECREF(seq); return NULL; }
      idx[k] = mn_at(v);
    } else if (kind[0] == 'n') {
      idx[k] = mn_newaxis();
    } else {
      Py_DECREF(seq);
      PyErr_SetString(PyExc_TypeError, "bad index item");
      return NULL;
    }
  }
  Py_DECREF(seq);
  mn_array *v = NULL;
  int rc = mn_array_index(self->a, (int)n, idx, &v);
  if (rc) return raise_mn(rc);
  return wrap(v);
}

static PyObject *Array_transpose(ArrayObject *self, PyObject *args) {
  PyObject *perm = Py_None;
  if (!PyArg_ParseTuple(args, "|O", &perm)) return NULL;
  int p[MN_MAXDIM], nd = 0;
  int64_t tmp[MN_MAXDIM];
  if (perm != Py_None) {
    if (!to_shape(perm, &nd, tmp)) return NULL;
    if (nd != mn_array_ndim(self->a)) {
      PyErr_Format(PyExc_ValueError, "axes don't match array: %d axes for a %d-d array", nd, mn_array_ndim(self->a));
      return NULL;
    }
    for (int k = 0; k < nd; k++) p[k] = (int)tmp[k];
  }
  mn_array *v = NULL;
  int rc = mn_array_transpose(self->a, perm == Py_None ? NULL : p, &v);
  if (rc) return raise_mn(rc);
  return wrap(v);
}

static PyObject *Array_broadcast_to(ArrayObject *self, PyObject *shape) {
  int nd;
  int64_t s[MN_MAXDIM];
  if (!to_shape(shape, &nd, s)) return NULL;
  mn_array *v = NULL;
  int rc = mn_array_broadcast_to(self->a, nd, s, &v);
  if (rc) return raise_mn(rc);
  return wrap(v);
}

static PyObject *Array_reshape(ArrayObject *self, PyObject *shape) {
  int nd;
  int64_t s[MN_MAXDIM];
  if (!to_shape(shape, &nd, s)) return NULL;
  mn_array *r = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_reshape(self->a, nd, s, &r);
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  return wrap(r);
}

static PyObject *Array_allgather(ArrayObject *self, PyObject *unused) {
  (void)unused;
  Py_ssize_t bytes = (Py_ssize_t)(mn_array_size(self->a) * (int64_t)mn_dtype_size(mn_array_dtype(self->a)));
  PyObject *b = PyBytes_FromStringAndSize(NULL, bytes);
  if (!b) return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_allgather(self->a, PyBytes_AS_STRING(b));
  Py_END_ALLOW_THREADS
  if (rc) { Py_DECREF(b); return raise_mn(rc); }
  return b;
}

/* ---- transfers through a root rank (computations gathered to one rank) ---- */

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
  Py_BEGIN_ALLOW_THREADS
  rc = mn_ctx_bcast(g_ctx, buf, n, root);
  Py_END_ALLOW_THREADS
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
  Py_BEGIN_ALLOW_THREADS
  rc = mn_ctx_all(g_ctx, ok, &all);
  Py_END_ALLOW_THREADS
  if (rc) { raise_mn(rc); return 0; }
  if (all) return 1;
  if (!PyErr_Occurred()) PyErr_SetString(PyExc_MemoryError, "cannot allocate the broadcast buffer on some rank");
  return 0;
}

static PyObject *Array_gather_root(ArrayObject *self, PyObject *args) {
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
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_gather(self->a, root, buf);
  Py_END_ALLOW_THREADS
  if (rc) { Py_XDECREF(b); return raise_mn(rc); }
  if (me) return b;
  Py_RETURN_NONE;
}

static PyObject *Array_scatter_root(ArrayObject *self, PyObject *args) {
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
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_scatter(self->a, root, me ? view.buf : NULL);
  Py_END_ALLOW_THREADS
  if (me) PyBuffer_Release(&view);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_set_global(ArrayObject *self, PyObject *obj) {
  Py_buffer view;
  if (PyObject_GetBuffer(obj, &view, PyBUF_C_CONTIGUOUS) < 0) return NULL;
  int64_t need = mn_array_size(self->a) * (int64_t)mn_dtype_size(mn_array_dtype(self->a));
  if (view.len != need) {
    PyBuffer_Release(&view);
    PyErr_Format(PyExc_ValueError, "buffer holds %zd bytes, the array needs %lld", view.len, (long long)need);
    return NULL;
  }
  int rc = mn_array_set_global(self->a, view.buf);
  PyBuffer_Release(&view);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_fill(ArrayObject *self, PyObject *value) {
  mn_scalar s;
  if (!to_scalar(value, &s)) return NULL;
  int rc = mn_array_fill(self->a, s);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_arange(ArrayObject *self, PyObject *args) {
  double start, step;
  if (!PyArg_ParseTuple(args, "dd", &start, &step)) return NULL;
  int rc = mn_array_arange(self->a, start, step);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_linspace(ArrayObject *self, PyObject *args) {
  double start, stop;
  int endpoint;
  if (!PyArg_ParseTuple(args, "ddp", &start, &stop, &endpoint)) return NULL;
  int rc = mn_array_linspace(self->a, start, stop, endpoint);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_random(ArrayObject *self, PyObject *args) {
  const char *kind;
  unsigned long long seed;
  double p1, p2;
  if (!PyArg_ParseTuple(args, "sKdd", &kind, &seed, &p1, &p2)) return NULL;
  mn_random_kind k;
  if (!strcmp(kind, "uniform")) k = MN_RANDOM_UNIFORM;
  else if (!strcmp(kind, "normal")) k = MN_RANDOM_NORMAL;
  else { PyErr_Format(PyExc_ValueError, "unknown distribution '%s' (uniform, normal)", kind); return NULL; }
  int rc = mn_array_random(self->a, k, (uint64_t)seed, p1, p2);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_get(ArrayObject *self, PyObject *idx) {
  int nd;
  int64_t i[MN_MAXDIM];
  if (!to_shape(idx, &nd, i)) return NULL;
  if (nd != mn_array_ndim(self->a)) {
    PyErr_Format(PyExc_IndexError, "%d indices for a %d-d array", nd, mn_array_ndim(self->a));
    return NULL;
  }
  mn_scalar s;
  int rc = mn_array_get(self->a, i, &s);
  if (rc) return raise_mn(rc);
  return from_scalar(s);
}

static PyObject *Array_copy_to(ArrayObject *self, PyObject *dst) {
  if (!is_array(dst)) { PyErr_SetString(PyExc_TypeError, "copy_to needs an Array"); return NULL; }
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_copy(self->a, arr(dst));
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_copy_flat(ArrayObject *self, PyObject *dst) {
  if (!is_array(dst)) { PyErr_SetString(PyExc_TypeError, "copy_flat needs an Array"); return NULL; }
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_copy_flat(self->a, arr(dst));
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_save_npy(ArrayObject *self, PyObject *path) {
  const char *p = PyUnicode_AsUTF8(path);
  if (!p) return NULL;
  int rc = mn_array_save_npy(self->a, p);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyMethodDef Array_methods[] = {
  {"index", (PyCFunction)Array_index, METH_O, "Basic-indexing view from index items."},
  {"transpose", (PyCFunction)Array_transpose, METH_VARARGS, "Transposed view (axes optional)."},
  {"broadcast_to", (PyCFunction)Array_broadcast_to, METH_O, "View broadcast to a shape (read only by contract)."},
  {"reshape", (PyCFunction)Array_reshape, METH_O, "A new Array of another shape, same C-order elements."},
  {"allgather", (PyCFunction)Array_allgather, METH_NOARGS, "Whole array as C-order bytes on every rank."},
  {"gather_root", (PyCFunction)Array_gather_root, METH_VARARGS, "gather_root(root=0): C-order bytes on root, None elsewhere."},
  {"scatter_root", (PyCFunction)Array_scatter_root, METH_VARARGS,
   "scatter_root(buffer_or_None, root=0): fill from root's whole C-order buffer."},
  {"set_global", (PyCFunction)Array_set_global, METH_O, "Fill from a C-order buffer every rank holds in full."},
  {"fill", (PyCFunction)Array_fill, METH_O, "Fill with a scalar."},
  {"arange", (PyCFunction)Array_arange, METH_VARARGS, "a.flat[k] = start + k*step."},
  {"linspace", (PyCFunction)Array_linspace, METH_VARARGS, "Evenly spaced values."},
  {"random", (PyCFunction)Array_random, METH_VARARGS, "Counter-based random fill (kind, seed, p1, p2)."},
  {"get", (PyCFunction)Array_get, METH_O, "One element, on every rank."},
  {"copy_to", (PyCFunction)Array_copy_to, METH_O, "dst[...] = self, with a cast."},
  {"copy_flat", (PyCFunction)Array_copy_flat, METH_O, "dst[...] = self's elements in C order (any shapes)."},
  {"save_npy", (PyCFunction)Array_save_npy, METH_O, "Write a .npy file collectively."},
  {NULL, NULL, 0, NULL}};

static PyGetSetDef Array_getset[] = {
  {"shape", (getter)Array_shape, NULL, "shape", NULL},
  {"dtype", (getter)Array_dtype, NULL, "dtype name", NULL},
  {"is_view", (getter)Array_is_view, NULL, "whether this is a view", NULL},
  {"base", (getter)Array_base, NULL, "key of the storage shared with views", NULL},
  {"view_axes", (getter)Array_view_axes, NULL, "(base axis per axis, step per axis, base shape)", NULL},
  {"share_count", (getter)Array_share_count, NULL, "handles sharing the storage, this one included", NULL},
  {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject ArrayType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "maniple._core.Array",
  .tp_basicsize = sizeof(ArrayObject),
  .tp_dealloc = (destructor)Array_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A distributed array or view (maniple C handle).",
  .tp_methods = Array_methods,
  .tp_getset = Array_getset,
};

/* ---- programs: list of node tuples, arguments referring to earlier nodes ---- */
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
      if (!op_of(PyTuple_GET_ITEM(it, 1), MN_NUNARY, uname, "unary op", &op)) ok = 0;
      else rc = mn_expr_unary(e, (mn_unary_op)op, ARG(2), &id);
    } else if (!strcmp(kind, "bin") && len == 4) {
      if (!op_of(PyTuple_GET_ITEM(it, 1), MN_NBINARY, bname, "binary op", &op)) ok = 0;
      else rc = mn_expr_binary(e, (mn_binary_op)op, ARG(2), ARG(3), &id);
    } else if (!strcmp(kind, "ter") && len == 5) {
      if (!op_of(PyTuple_GET_ITEM(it, 1), MN_NTERNARY, tname, "ternary op", &op)) ok = 0;
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
    ok = op_of(PyTuple_GET_ITEM(t, 1), MN_NUNARY, uname, "unary op", &op) && tree_node(PyTuple_GET_ITEM(t, 2), e, memo, &a);
    if (ok) rc = mn_expr_unary(e, (mn_unary_op)op, a, id);
  } else if (!strcmp(kind, "bin") && len == 4) {
    ok = op_of(PyTuple_GET_ITEM(t, 1), MN_NBINARY, bname, "binary op", &op) &&
         tree_node(PyTuple_GET_ITEM(t, 2), e, memo, &a) && tree_node(PyTuple_GET_ITEM(t, 3), e, memo, &b);
    if (ok) rc = mn_expr_binary(e, (mn_binary_op)op, a, b, id);
  } else if (!strcmp(kind, "ter") && len == 5) {
    ok = op_of(PyTuple_GET_ITEM(t, 1), MN_NTERNARY, tname, "ternary op", &op) &&
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
  if (!rc) CALL_NOGIL(mn_array_size(out) >= NOGIL_MIN, rc = mn_expr_eval(e, root, out));
  mn_expr_destroy(&e);
  if (rc) { mn_array_destroy(&out); return raise_mn(rc); }
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
static int build_extras(PyObject *program, PyObject *extras, mn_expr **e, int *root, int *nx, int *xnode,
                        mn_array **xout) {
  int *ids = NULL;
  Py_ssize_t nids = 0;
  if (!build_ids(program, e, root, &ids, &nids)) return 0;
  int ok = extras_of(extras, ids, nids, nx, xnode, xout);
  PyMem_Free(ids);
  if (!ok) mn_expr_destroy(e);
  return ok;
}

static PyObject *py_evaluate(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *program, *out, *extras = NULL;
  if (!PyArg_ParseTuple(args, "OO!|O", &program, &ArrayType, &out, &extras)) return NULL;
  if (!need_ctx()) return NULL;
  mn_expr *e;
  int root, rc, nx = 0, xnode[XMAX];
  mn_array *xout[XMAX];
  if (!build_extras(program, extras, &e, &root, &nx, xnode, xout)) return NULL;
  CALL_NOGIL(mn_array_size(arr(out)) >= NOGIL_MIN, rc = mn_expr_eval_extra(e, root, arr(out), nx, xnode, xout));
  mn_expr_destroy(&e);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_reduce(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *program, *opname, *extras = NULL;
  if (!PyArg_ParseTuple(args, "OO|O", &program, &opname, &extras)) return NULL;
  if (!need_ctx()) return NULL;
  int op;
  if (!op_of(opname, MN_NREDUCE, rname, "reduction", &op)) return NULL;
  mn_expr *e;
  int root, rc, nx = 0, xnode[XMAX];
  mn_array *xout[XMAX];
  mn_scalar s;
  if (!build_extras(program, extras, &e, &root, &nx, xnode, xout)) return NULL;
  int64_t rsz = 1;
  { int nd; int64_t shp[MN_MAXDIM]; mn_expr_shape(e, root, &nd, shp); for (int d = 0; d < nd; d++) rsz *= shp[d]; }
  CALL_NOGIL(rsz >= NOGIL_MIN, rc = mn_expr_reduce_extra(e, root, (mn_reduce_op)op, &s, nx, xnode, xout));
  mn_expr_destroy(&e);
  if (rc) return raise_mn(rc);
  return from_scalar(s);
}

static PyObject *py_reduce_axis(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *opname, *x, *out;
  int axis;
  if (!PyArg_ParseTuple(args, "OO!iO!", &opname, &ArrayType, &x, &axis, &ArrayType, &out)) return NULL;
  int op, rc;
  if (!op_of(opname, MN_NREDUCE, rname, "reduction", &op)) return NULL;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_reduce_axis((mn_reduce_op)op, arr(x), axis, arr(out));
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* create(shape, dtype) zero-filled, or empty (values unset) */
static PyObject *create_array(PyObject *args, int empty) {
  PyObject *shape, *dt;
  if (!PyArg_ParseTuple(args, "OO", &shape, &dt)) return NULL;
  if (!need_ctx()) return NULL;
  int nd;
  int64_t s[MN_MAXDIM];
  mn_dtype t;
  if (!to_shape(shape, &nd, s) || !dtype_of(dt, &t)) return NULL;
  mn_array *a = NULL;
  int rc = empty ? mn_array_create_empty(g_ctx, t, nd, s, &a) : mn_array_create(g_ctx, t, nd, s, 0, &a);
  if (rc) return raise_mn(rc);
  return wrap(a);
}

static PyObject *py_create(PyObject *m, PyObject *args) { (void)m; return create_array(args, 0); }

/* empty(shape, dtype): values unset, for a result that writes every element */
static PyObject *py_empty(PyObject *m, PyObject *args) { (void)m; return create_array(args, 1); }

static PyObject *py_load_npy(PyObject *m, PyObject *path) {
  (void)m;
  if (!need_ctx()) return NULL;
  const char *p = PyUnicode_AsUTF8(path);
  if (!p) return NULL;
  mn_array *a = NULL;
  int rc = mn_array_load_npy(g_ctx, p, &a);
  if (rc) return raise_mn(rc);
  return wrap(a);
}

/* ---- selection, sorting, scans, products (mn_select.h, mn_sort.h, mn_linalg.h) ---- */
static PyObject *py_take(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *idx, *out;
  if (!PyArg_ParseTuple(args, "O!O!O!", &ArrayType, &x, &ArrayType, &idx, &ArrayType, &out)) return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_take(arr(x), arr(idx), arr(out));
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_put(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *idx, *v;
  if (!PyArg_ParseTuple(args, "O!O!O!", &ArrayType, &x, &ArrayType, &idx, &ArrayType, &v)) return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_put(arr(x), arr(idx), arr(v));
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_compress(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *x, *mask;
  if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &x, &ArrayType, &mask)) return NULL;
  mn_array *r = NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_compress(arr(x), arr(mask), &r);
  Py_END_ALLOW_THREADS
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
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_sort(arr(x), axis, wv ? &s : NULL, wp ? &p : NULL);
  Py_END_ALLOW_THREADS
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
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_searchsorted(arr(a), arr(v), right, arr(out));
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_scan(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *opname, *x, *out;
  int axis, op, rc;
  if (!PyArg_ParseTuple(args, "OO!iO!", &opname, &ArrayType, &x, &axis, &ArrayType, &out)) return NULL;
  if (!op_of(opname, MN_NREDUCE, rname, "reduction", &op)) return NULL;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_scan((mn_reduce_op)op, arr(x), axis, arr(out));
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_matmul(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *b, *out;
  if (!PyArg_ParseTuple(args, "O!O!O!", &ArrayType, &a, &ArrayType, &b, &ArrayType, &out)) return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_array_matmul(arr(a), arr(b), arr(out));
  Py_END_ALLOW_THREADS
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

/* init(comm_f2c=None): a Fortran handle (mpi4py: comm.py2f()), else WORLD */
static PyObject *py_init(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *h = Py_None;
  if (!PyArg_ParseTuple(args, "|O", &h)) return NULL;
  if (g_ctx) Py_RETURN_NONE;
  MPI_Comm comm = MPI_COMM_WORLD;
  int inited = 0;
  MPI_Initialized(&inited);
  if (h != Py_None) {
    if (!inited) { PyErr_SetString(PyExc_RuntimeError, "a communicator was given but MPI is not initialised"); return NULL; }
    long f = PyLong_AsLong(h);
    if (f == -1 && PyErr_Occurred()) return NULL;
    comm = MPI_Comm_f2c((MPI_Fint)f);
  }
  int rc = mn_ctx_create(comm, MN_BACKEND_DEFAULT, &g_ctx);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* finalize(quiet=False): quiet (an uncaught exception, which may have
 * stopped some ranks only) skips the collective -log_view summary */
static PyObject *py_finalize(PyObject *m, PyObject *args) {
  (void)m;
  int quiet = 0;
  if (!PyArg_ParseTuple(args, "|p", &quiet)) return NULL;
  if (g_ctx && quiet && mn_log_enabled(g_ctx)) {
    mn_log_set_view_on_destroy(g_ctx, 0);
    if (getenv("MANIPLE_LOG_VIEW") && mn_ctx_rank(g_ctx) == 0)
      fprintf(stderr, "maniple: no -log_view summary: the program ended with an uncaught exception\n");
  }
  mn_ctx_destroy(&g_ctx);
  Py_RETURN_NONE;
}

/* ---- the profiling log (docs/profiling.md) ---- */
static PyObject *py_log_enable(PyObject *m, PyObject *args) {
  (void)m;
  int on = 1;
  if (!PyArg_ParseTuple(args, "|p", &on)) return NULL;
  if (!need_ctx()) return NULL;
  int rc = on ? mn_log_enable(g_ctx) : mn_log_disable(g_ctx);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_log_reset(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  mn_log_reset(g_ctx);
  Py_RETURN_NONE;
}

static PyObject *py_log_print(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_log_view(g_ctx, stdout);
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* {kind: {calls, time, time_max, imbalance, mem_bytes, messages,
 * msg_bytes, allreduces}} over all ranks (collective) */
static PyObject *py_log_view(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  mn_log_row rows[MN_LOG_NEVENTS];
  int rc;
  Py_BEGIN_ALLOW_THREADS
  rc = mn_log_summary(g_ctx, rows);
  Py_END_ALLOW_THREADS
  if (rc) return raise_mn(rc);
  PyObject *d = PyDict_New();
  for (int k = 0; d && k < MN_LOG_NEVENTS; k++) {
    const mn_log_row *r = &rows[k];
    PyObject *e = Py_BuildValue("{s:L,s:d,s:d,s:d,s:L,s:L,s:L,s:L}", "calls", (long long)r->calls, "time", r->time,
                                "time_max", r->time_max, "imbalance", r->imbalance, "mem_bytes",
                                (long long)r->mem_bytes, "messages", (long long)r->messages, "msg_bytes",
                                (long long)r->msg_bytes, "allreduces", (long long)r->allreduces);
    if (!e || PyDict_SetItemString(d, mn_log_event_name((mn_log_event)k), e) < 0) Py_CLEAR(d);
    Py_XDECREF(e);
  }
  return d;
}

static PyObject *py_rank(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  return PyLong_FromLong(mn_ctx_rank(g_ctx));
}

static PyObject *py_size(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  return PyLong_FromLong(mn_ctx_size(g_ctx));
}

/* check_args(fn, {name: text}): MANIPLE_CHECKS for a Python-level
 * collective; checks(): whether it is on; set_checks(on) */
static PyObject *py_check_args(PyObject *m, PyObject *args) {
  (void)m;
  const char *fn;
  PyObject *d;
  if (!PyArg_ParseTuple(args, "sO!", &fn, &PyDict_Type, &d) || !need_ctx()) return NULL;
  if (!mn_ctx_checks(g_ctx)) Py_RETURN_NONE;
  Py_ssize_t n = PyDict_Size(d), pos = 0, k = 0;
  if (n > 12) n = 12; /* the first ones are compared */
  const char *names[12], *values[12];
  PyObject *key, *val;
  while (k < n && PyDict_Next(d, &pos, &key, &val)) {
    names[k] = PyUnicode_AsUTF8(key);
    values[k] = PyUnicode_AsUTF8(val);
    if (!names[k] || !values[k]) return NULL;
    k++;
  }
  int rc = mn_ctx_check_args(g_ctx, fn, (int)k, names, values);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *py_checks(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  return PyBool_FromLong(mn_ctx_checks(g_ctx));
}

static PyObject *py_set_checks(PyObject *m, PyObject *on) {
  (void)m;
  if (!need_ctx()) return NULL;
  int v = PyObject_IsTrue(on);
  if (v < 0) return NULL;
  mn_ctx_set_checks(g_ctx, v);
  Py_RETURN_NONE;
}

static PyObject *py_plan_stats(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  int cached;
  long hits, misses;
  mn_ctx_plan_stats(g_ctx, &cached, &hits, &misses);
  return Py_BuildValue("(ill)", cached, hits, misses);
}

static PyMethodDef module_methods[] = {
  {"init", py_init, METH_VARARGS, "Create the context (optional Fortran communicator handle)."},
  {"finalize", py_finalize, METH_VARARGS, "finalize(quiet=False): destroy the context (quiet: no -log_view summary)."},
  {"log_enable", py_log_enable, METH_VARARGS, "log_enable(on=True): start (collective) or stop the profiling log."},
  {"log_reset", py_log_reset, METH_NOARGS, "Zero the profiling log's counters."},
  {"log_view", py_log_view, METH_NOARGS, "The profiling log over all ranks as a dict per kind (collective)."},
  {"log_print", py_log_print, METH_NOARGS, "Print the profiling table on rank 0 (collective)."},
  {"rank", py_rank, METH_NOARGS, "This rank."},
  {"size", py_size, METH_NOARGS, "Number of ranks."},
  {"create", py_create, METH_VARARGS, "create(shape, dtype) -> zero-filled Array."},
  {"empty", py_empty, METH_VARARGS, "empty(shape, dtype) -> Array of unset values (every element to be written)."},
  {"load_npy", py_load_npy, METH_O, "Read a .npy file collectively."},
  {"result_info", py_result_info, METH_O, "(dtype, shape) of a program's last node."},
  {"evaluate", py_evaluate, METH_VARARGS, "evaluate(program, out[, extras]): fused evaluation into out; extras: (program index, Array) pairs also stored in the pass."},
  {"eval_tree", py_eval_tree, METH_VARARGS, "eval_tree(tree, shape, dtype) -> new Array, evaluated fused."},
  {"reduce", py_reduce, METH_VARARGS, "reduce(program, op[, extras]) -> scalar, same on every rank; extras as evaluate's."},
  {"reduce_axis", py_reduce_axis, METH_VARARGS, "reduce_axis(op, x, axis, out)."},
  {"bcast", py_bcast, METH_VARARGS, "bcast(bytes_or_None, root=0) -> the root's bytes on every rank."},
  {"plan_stats", py_plan_stats, METH_NOARGS, "(cached plans, hits, misses)."},
  {"check_args", py_check_args, METH_VARARGS, "MANIPLE_CHECKS: compare a call and its arguments (texts) across ranks."},
  {"checks", py_checks, METH_NOARGS, "Whether MANIPLE_CHECKS is on."},
  {"set_checks", py_set_checks, METH_O, "Turn MANIPLE_CHECKS on or off (every rank alike)."},
  {"take", py_take, METH_VARARGS, "take(x, idx, out): out[k] = x.flat[idx[k]]."},
  {"put", py_put, METH_VARARGS, "put(x, idx, v): x.flat[idx[k]] = v[k] (the last repeat wins)."},
  {"compress", py_compress, METH_VARARGS, "compress(x, mask) -> 1-d Array of x[mask]."},
  {"sort", py_sort, METH_VARARGS, "sort(x, axis, values, perm) -> (sorted or None, argsort or None)."},
  {"searchsorted", py_searchsorted, METH_VARARGS, "searchsorted(a, v, right, out)."},
  {"scan", py_scan, METH_VARARGS, "scan('sum'|'prod', x, axis, out): cumulative along axis."},
  {"matmul", py_matmul, METH_VARARGS, "matmul(a, b, out) for 1-d and 2-d operands."},
  {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_core", "maniple's C core.", -1, module_methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__core(void) {
  if (PyType_Ready(&ArrayType) < 0) return NULL;
  PyObject *m = PyModule_Create(&module);
  if (!m) return NULL;
  Py_INCREF(&ArrayType);
  if (PyModule_AddObject(m, "Array", (PyObject *)&ArrayType) < 0) {
    Py_DECREF(&ArrayType);
    Py_DECREF(m);
    return NULL;
  }
  if (mnpy_sparse_init(m) < 0 || mnpy_solver_init(m) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
