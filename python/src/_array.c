/* The Array type: a handle on one mn_array (a base array or a view), its
 * attributes, views, element access and I/O; creating arrays. */
#include "_core.h"
#include <string.h>

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
/* base index of the first element, one per base axis */
static PyObject *Array_view_origin(ArrayObject *self, void *c) {
  (void)c;
  int64_t org[MN_MAXDIM];
  mn_array_view_origin(self->a, org);
  return shape_tuple(mn_layout_ndim(mn_array_layout(self->a)), org);
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

/* snapshot(): this rank's copy of the storage (no message, unchecked);
 * rebase(base): the same view over base's storage (a snapshot's) */
static PyObject *Array_snapshot(ArrayObject *self, PyObject *unused) {
  (void)unused;
  mn_array *c = NULL;
  int rc = mn_array_snapshot(self->a, &c);
  if (rc) return raise_mn(rc);
  return wrap(c);
}

static PyObject *Array_rebase(ArrayObject *self, PyObject *base) {
  if (!PyObject_TypeCheck(base, &ArrayType)) {
    PyErr_SetString(PyExc_TypeError, "rebase needs an Array");
    return NULL;
  }
  mn_array *v = NULL;
  int rc = mn_array_rebase(self->a, ((ArrayObject *)base)->a, &v);
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

/* reshape and reshape_rows: the shape converted, the C call, the result wrapped */
static PyObject *reshape_by(ArrayObject *self, PyObject *shape,
                            int (*fn)(const mn_array *, int, const int64_t *, mn_array **)) {
  int nd;
  int64_t s[MN_MAXDIM];
  if (!to_shape(shape, &nd, s)) return NULL;
  mn_array *r = NULL;
  int rc = fn(self->a, nd, s, &r);
  if (rc) return raise_mn(rc);
  return wrap(r);
}

static PyObject *Array_reshape(ArrayObject *self, PyObject *shape) {
  return reshape_by(self, shape, mn_array_reshape);
}

static PyObject *Array_reshape_rows(ArrayObject *self, PyObject *shape) {
  return reshape_by(self, shape, mn_array_reshape_rows);
}

static PyObject *Array_allgather(ArrayObject *self, PyObject *unused) {
  (void)unused;
  Py_ssize_t bytes = (Py_ssize_t)(mn_array_size(self->a) * (int64_t)mn_dtype_size(mn_array_dtype(self->a)));
  PyObject *b = PyBytes_FromStringAndSize(NULL, bytes);
  if (!b) return NULL;
  int rc;
  rc = mn_array_allgather(self->a, PyBytes_AS_STRING(b));
  if (rc) { Py_DECREF(b); return raise_mn(rc); }
  return b;
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
  rc = mn_array_copy(self->a, arr(dst));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_copy_flat(ArrayObject *self, PyObject *dst) {
  if (!is_array(dst)) { PyErr_SetString(PyExc_TypeError, "copy_flat needs an Array"); return NULL; }
  int rc;
  rc = mn_array_copy_flat(self->a, arr(dst));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Array_save_npy(ArrayObject *self, PyObject *args) {
  const char *p;
  int fortran = 0;
  if (!PyArg_ParseTuple(args, "s|p", &p, &fortran)) return NULL;
  int rc = fortran ? mn_array_save_npy_fortran(self->a, p) : mn_array_save_npy(self->a, p);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyMethodDef Array_methods[] = {
  {"index", (PyCFunction)Array_index, METH_O, "Basic-indexing view from index items."},
  {"snapshot", (PyCFunction)Array_snapshot, METH_NOARGS,
   "snapshot() -> a copy of the whole storage in a new base of the same layout (this rank alone: no message, unchecked)."},
  {"rebase", (PyCFunction)Array_rebase, METH_O, "rebase(base) -> this view over base's storage (laid out alike)."},
  {"transpose", (PyCFunction)Array_transpose, METH_VARARGS, "Transposed view (axes optional)."},
  {"broadcast_to", (PyCFunction)Array_broadcast_to, METH_O, "View broadcast to a shape (read only by contract)."},
  {"reshape", (PyCFunction)Array_reshape, METH_O, "A new Array of another shape, same C-order elements."},
  {"reshape_rows", (PyCFunction)Array_reshape_rows, METH_O,
   "reshape_rows(shape) -> as reshape, the rows split as this array's where that moves nothing (a product's temporary)."},
  {"allgather", (PyCFunction)Array_allgather, METH_NOARGS, "Whole array as C-order bytes on every rank."},
  {"gather_root", (PyCFunction)Array_gather_root, METH_VARARGS, "gather_root(root=0): C-order bytes on root, None elsewhere."},
  {"local_values", (PyCFunction)Array_local_values, METH_NOARGS, "local_values() -> (first index, bytes) of a 1-d array's own elements."},
  {"local_any", (PyCFunction)Array_local_any, METH_NOARGS, "local_any() -> whether this rank owns a true element of a bool array (no message)."},
  {"split_local", (PyCFunction)Array_split_local, METH_O, "split_local(n) -> bytes: this rank's next n elements of a 1-d array, in rank order (collective; concat_local's inverse)."},
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
  {"save_npy", (PyCFunction)Array_save_npy, METH_VARARGS,
   "save_npy(path[, fortran]): write a .npy file collectively; fortran: this array's transpose, Fortran-ordered."},
  {"local_block", (PyCFunction)Array_local_block, METH_O,
   "local_block(device) -> (pointer, strides in elements): a one-rank array's memory."},
  {"dlpack", (PyCFunction)Array_dlpack, METH_VARARGS,
   "dlpack(device, versioned) -> a DLPack capsule of a one-rank array's memory."},
  {NULL, NULL, 0, NULL}};

static PyGetSetDef Array_getset[] = {
  {"shape", (getter)Array_shape, NULL, "shape", NULL},
  {"dtype", (getter)Array_dtype, NULL, "dtype name", NULL},
  {"is_view", (getter)Array_is_view, NULL, "whether this is a view", NULL},
  {"base", (getter)Array_base, NULL, "key of the storage shared with views", NULL},
  {"view_axes", (getter)Array_view_axes, NULL, "(base axis per axis, step per axis, base shape)", NULL},
  {"view_origin", (getter)Array_view_origin, NULL, "base index of the first element", NULL},
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

/* create(shape, dtype) zero-filled, or empty (values unset); unchecked:
 * out of MANIPLE_CHECKS' comparison, for an array this rank alone may make
 * (a shared pass's extra output: creating one is local) */
static PyObject *create_array(PyObject *args, int empty) {
  PyObject *shape, *dt;
  int unchecked = 0;
  if (!PyArg_ParseTuple(args, "OO|p", &shape, &dt, &unchecked)) return NULL;
  if (!need_ctx()) return NULL;
  int nd;
  int64_t s[MN_MAXDIM];
  mn_dtype t;
  if (!to_shape(shape, &nd, s) || !dtype_of(dt, &t)) return NULL;
  mn_array *a = NULL;
  int was = mn_ctx_checks(g_ctx);
  if (unchecked) mn_ctx_set_checks(g_ctx, 0);
  int rc = empty ? mn_array_create_empty(g_ctx, t, nd, s, &a) : mn_array_create(g_ctx, t, nd, s, 0, &a);
  if (unchecked) mn_ctx_set_checks(g_ctx, was);
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
  int fortran = 0;
  int rc = mn_array_load_npy_fortran(g_ctx, p, &a, &fortran);
  if (rc) return raise_mn(rc);
  PyObject *w = wrap(a);
  return w ? Py_BuildValue("(Ni)", w, fortran) : NULL;
}

/* aligned(a, b): the same map of the same layout (no message between them) */
static PyObject *py_aligned(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *a, *b;
  if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &a, &ArrayType, &b)) return NULL;
  return PyBool_FromLong(mn_array_aligned(arr(a), arr(b)));
}

static PyMethodDef array_functions[] = {
  {"create", py_create, METH_VARARGS, "create(shape, dtype) -> zero-filled Array."},
  {"empty", py_empty, METH_VARARGS, "empty(shape, dtype[, unchecked]) -> Array of unset values (every element to be written); unchecked: out of MANIPLE_CHECKS (an array of this rank alone)."},
  {"load_npy", py_load_npy, METH_O,
   "load_npy(path) -> (Array, fortran), read collectively; a Fortran-ordered file gives its transpose, fortran 1."},
  {"aligned", py_aligned, METH_VARARGS, "aligned(a, b): the same map of the same layout (local)."},
  {NULL, NULL, 0, NULL}};

int mnpy_array_init(PyObject *m) { return PyModule_AddFunctions(m, array_functions); }
