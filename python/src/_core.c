/* maniple._core: the one C extension. Thin handles over the C library:
 * arrays and views (_array.c), fused expression programs and reductions
 * (_expr.c), selection, sorting and products (_ops.c), transfers through a
 * root rank (_transfer.c), the profiling log (_log.c), sparse matrices
 * (_sparse.c) and solvers (_solver.c). This file: the context, errors and
 * the conversions they share. Errors become the Python exceptions NumPy
 * would raise. */
#include "_core.h"
#include <stdio.h>
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
  PyObject *owned = NULL;
  if (code == MN_ERR_LINALG) { /* numpy.linalg.LinAlgError, as NumPy raises */
    PyObject *np_linalg = PyImport_ImportModule("numpy.linalg");
    owned = np_linalg ? PyObject_GetAttrString(np_linalg, "LinAlgError") : NULL;
    Py_XDECREF(np_linalg);
    PyErr_Clear();
    if (owned) type = owned;
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
  Py_XDECREF(owned);
  return NULL;
}

int need_ctx(void) {
  if (g_ctx) return 1;
  PyErr_SetString(PyExc_RuntimeError, "maniple is not initialised: call maniple._core.init() first");
  return 0;
}


/* ---- dtypes and names ---- */
int dtype_of(PyObject *o, mn_dtype *t) {
  const char *s = PyUnicode_AsUTF8(o);
  if (!s) return 0;
  for (int k = 0; k < MN_NDTYPE; k++)
    if (!strcmp(s, mn_dtype_name((mn_dtype)k))) { *t = (mn_dtype)k; return 1; }
  PyErr_Format(PyExc_TypeError,
               "dtype '%s' is not supported (bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64, "
               "float16, float32, float64, complex64, complex128)", s);
  return 0;
}

/* name -> op code, per table: a dict lookup (strings cache their hash)
 * instead of comparing against every name, on every node of every call */
static PyObject *op_tables[4];

int op_of(PyObject *o, int n, const char *(*name)(int), const char *what, int *op) {
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
const char *mnpy_uname(int k) { return mn_unary_name((mn_unary_op)k); }
const char *mnpy_bname(int k) { return mn_binary_name((mn_binary_op)k); }
const char *mnpy_tname(int k) { return mn_ternary_name((mn_ternary_op)k); }
const char *mnpy_rname(int k) { return mn_reduce_name((mn_reduce_op)k); }

PyObject *from_scalar(mn_scalar s) {
  switch (s.dtype) {
  case MN_BOOL: return PyBool_FromLong((long)s.v.i);
  case MN_FLOAT16: case MN_FLOAT32: case MN_FLOAT64: return PyFloat_FromDouble(s.v.f);
  case MN_COMPLEX64: case MN_COMPLEX128: return PyComplex_FromDoubles(s.v.f, s.im);
  case MN_UINT64: return PyLong_FromUnsignedLongLong((unsigned long long)s.v.i);
  default: return PyLong_FromLongLong((long long)s.v.i);
  }
}

/* i as an integer dtype t holds it (NumPy's wrap-around) */
static int64_t wrap_int(mn_dtype t, long long i) {
  switch (mn_dtype_size(t)) {
  case 1: return t == MN_INT8 ? (int8_t)(uint8_t)i : (int64_t)(uint8_t)i;
  case 2: return t == MN_INT16 ? (int16_t)(uint16_t)i : (int64_t)(uint16_t)i;
  case 4: return t == MN_INT32 ? (int32_t)(uint32_t)i : (int64_t)(uint32_t)i;
  default: return (int64_t)i;
  }
}

/* Python bool/int/float -> weak scalar; (value, dtype) -> typed scalar */
int to_scalar(PyObject *o, mn_scalar *s) {
  if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
    mn_dtype t;
    if (!dtype_of(PyTuple_GET_ITEM(o, 1), &t)) return 0;
    PyObject *v = PyTuple_GET_ITEM(o, 0);
    if (t == MN_COMPLEX64 || t == MN_COMPLEX128) {
      Py_complex c = PyComplex_AsCComplex(v);
      if (c.real == -1.0 && PyErr_Occurred()) return 0;
      int f32 = t == MN_COMPLEX64;
      *s = mn_scalar_c128(f32 ? (float)c.real : c.real, f32 ? (float)c.imag : c.imag);
      s->dtype = t;
      s->weak = 0;
    } else if (t == MN_FLOAT16 || t == MN_FLOAT32 || t == MN_FLOAT64) {
      double d = PyFloat_AsDouble(v);
      if (d == -1.0 && PyErr_Occurred()) return 0;
      *s = mn_scalar_typed(t, d);
    } else {
      int over = 0;
      long long i = PyLong_AsLongLongAndOverflow(v, &over);
      if (over > 0) i = (long long)PyLong_AsUnsignedLongLong(v); /* uint64 beyond int64 */
      if (i == -1 && PyErr_Occurred()) return 0;
      *s = mn_scalar_typed(t, 0);
      s->v.i = t == MN_BOOL ? i != 0 : wrap_int(t, i);
    }
    return 1;
  }
  if (PyBool_Check(o)) { *s = mn_scalar_bool(o == Py_True); return 1; }
  if (PyLong_Check(o)) {
    int over = 0;
    long long i = PyLong_AsLongLongAndOverflow(o, &over);
    unsigned long long u = over > 0 ? PyLong_AsUnsignedLongLong(o) : 0;
    if (over > 0 && !(u == (unsigned long long)-1 && PyErr_Occurred())) {
      i = (long long)u; /* up to 2**64 - 1 for uint64 arrays, as its bits */
    } else if (over) { /* past every integer dtype: a Python float's value, as NumPy writes into float arrays
                        * (integer arrays reject it before it comes here) */
      PyErr_Clear();
      double d = PyLong_AsDouble(o);
      if (d == -1.0 && PyErr_Occurred()) return 0;
      *s = mn_scalar_f64(d);
      return 1;
    }
    *s = mn_scalar_i64(i);
    if (over > 0) s->dtype = MN_UINT64; /* (its bits read unsigned: 2**63 into a float array stays positive) */
    return 1;
  }
  if (PyComplex_Check(o)) {
    *s = mn_scalar_c128(PyComplex_RealAsDouble(o), PyComplex_ImagAsDouble(o));
    return 1;
  }
  double d = PyFloat_AsDouble(o);
  if (d == -1.0 && PyErr_Occurred()) return 0;
  *s = mn_scalar_f64(d);
  return 1;
}

int to_shape(PyObject *o, int *nd, int64_t *shape) {
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

PyObject *shape_tuple(int nd, const int64_t *shape) {
  PyObject *t = PyTuple_New(nd);
  if (!t) return NULL;
  for (int k = 0; k < nd; k++) PyTuple_SET_ITEM(t, k, PyLong_FromLongLong((long long)shape[k]));
  return t;
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

static PyObject *py_backend(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  mn_backend b = mn_ctx_backend(g_ctx);
  return PyUnicode_FromString(b == MN_BACKEND_CUDA ? "cuda" : b == MN_BACKEND_EMULATED ? "emulated" : "cpu");
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

static PyObject *py_sync(PyObject *m, PyObject *unused) {
  (void)m;
  (void)unused;
  if (!need_ctx()) return NULL;
  int err = mn_ctx_sync(g_ctx);
  if (err) return raise_mn(err);
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

static PyObject *py_jit(PyObject *m, PyObject *args) {
  (void)m;
  const char *set = NULL;
  if (!PyArg_ParseTuple(args, "|z", &set)) return NULL;
  static const char *const names[] = {"off", "auto", "sync"};
  mn_jit_mode want = (mn_jit_mode)-1;
  for (int k = 0; set && k < 3; k++)
    if (!strcmp(set, names[k])) want = (mn_jit_mode)k;
  if (set && (int)want < 0) return PyErr_Format(PyExc_ValueError, "jit mode %R is not 'off', 'auto' or 'sync'", PyTuple_GET_ITEM(args, 0));
  mn_jit_mode old = mn_jit_set_mode(want);
  return Py_BuildValue("(si)", names[old], mn_jit_kernels());
}

static PyMethodDef module_methods[] = {
  {"init", py_init, METH_VARARGS, "Create the context (optional Fortran communicator handle)."},
  {"finalize", py_finalize, METH_VARARGS, "finalize(quiet=False): destroy the context (quiet: no -log_view summary)."},
  {"from_device", py_from_device, METH_O,
   "from_device(capsule): a new array with a copy of a CUDA producer's DLPack tensor (each rank its block)."},
  {"rank", py_rank, METH_NOARGS, "This rank."},
  {"size", py_size, METH_NOARGS, "Number of ranks."},
  {"backend", py_backend, METH_NOARGS, "Where arrays live: \"cpu\", \"cuda\" or \"emulated\"."},
  {"plan_stats", py_plan_stats, METH_NOARGS, "(cached plans, hits, misses)."},
  {"jit", py_jit, METH_VARARGS,
   "jit([mode]): (the compiled kernels' mode before, kernels loaded); mode 'off', 'auto' or 'sync' sets it."},
  {"sync", py_sync, METH_NOARGS, "Raise on every rank an error kept on some rank (mn_ctx_sync; collective)."},
  {"check_args", py_check_args, METH_VARARGS, "MANIPLE_CHECKS: compare a call and its arguments (texts) across ranks."},
  {"checks", py_checks, METH_NOARGS, "Whether MANIPLE_CHECKS is on."},
  {"set_checks", py_set_checks, METH_O, "Turn MANIPLE_CHECKS on or off (every rank alike)."},
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
  if (mnpy_array_init(m) < 0 || mnpy_expr_init(m) < 0 || mnpy_fpe_init(m) < 0 || mnpy_ops_init(m) < 0 || mnpy_transfer_init(m) < 0 ||
      mnpy_log_init(m) < 0 || mnpy_sparse_init(m) < 0 || mnpy_solver_init(m) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}

