/* maniple._core's solver part: Solver, a handle on mn_solver over a Csr or
 * over Python callables (matrix-free operators and preconditioners, the
 * monitor), which the C solver calls back with the GIL taken again. */
#include "_core.h"
#include <string.h>

typedef struct {
  PyObject_HEAD
  mn_solver *s;
  mn_op *op;
  PyObject *refs;      /* what the C side points at: matrix, callables */
  PyObject *error;     /* an exception a callback raised (re-raised after the solve) */
} SolverObject;
static PyTypeObject SolverType;

/* A Python callable f(x, y) on _core.Arrays: wrap the C arrays as
 * borrowed-for-the-call handles (views that share the storage). */
static PyObject *borrow(const mn_array *a) {
  mn_array *v = NULL;
  mn_index all = mn_all();
  if (mn_array_index((mn_array *)a, 1, &all, &v)) return raise_mn(MN_ERR_ARG);
  return wrap(v);
}

typedef struct {
  SolverObject *owner;
  PyObject *fn;
} callback;

static int call_apply(void *user, const mn_array *x, mn_array *y) {
  callback *cb = user;
  PyGILState_STATE g = PyGILState_Ensure();
  int rc = 0;
  PyObject *px = borrow(x), *py = px ? borrow(y) : NULL, *r = NULL;
  if (px && py) r = PyObject_CallFunctionObjArgs(cb->fn, px, py, NULL);
  if (!r) {
    if (!cb->owner->error) {
      PyObject *t, *v, *tb;
      PyErr_Fetch(&t, &v, &tb);
      PyErr_NormalizeException(&t, &v, &tb);
      cb->owner->error = v ? v : t;
      if (v) Py_XDECREF(t);
      Py_XDECREF(tb);
    }
    PyErr_Clear();
    rc = MN_ERR(MN_ERR_ARG, "a Python operator or preconditioner raised an exception");
  }
  Py_XDECREF(r);
  Py_XDECREF(px);
  Py_XDECREF(py);
  PyGILState_Release(g);
  return rc;
}

static int call_monitor(void *user, int64_t it, double rnorm) {
  callback *cb = user;
  PyGILState_STATE g = PyGILState_Ensure();
  PyObject *r = PyObject_CallFunction(cb->fn, "Ld", (long long)it, rnorm);
  int stop = 0;
  if (!r) {
    if (!cb->owner->error) {
      PyObject *t, *v, *tb;
      PyErr_Fetch(&t, &v, &tb);
      PyErr_NormalizeException(&t, &v, &tb);
      cb->owner->error = v ? v : t;
      if (v) Py_XDECREF(t);
      Py_XDECREF(tb);
    }
    PyErr_Clear();
    stop = 1;
  } else {
    stop = PyObject_IsTrue(r) == 1;
    Py_DECREF(r);
  }
  PyGILState_Release(g);
  return stop;
}

/* Callback records live as long as the solver: kept as capsules in refs. */
static callback *keep_callback(SolverObject *self, PyObject *fn) {
  callback *cb = PyMem_Malloc(sizeof *cb);
  if (!cb) { PyErr_NoMemory(); return NULL; }
  cb->owner = self;
  cb->fn = fn;
  PyObject *cap = PyCapsule_New(cb, NULL, NULL);
  if (!cap || PyList_Append(self->refs, fn) < 0 || PyList_Append(self->refs, cap) < 0) {
    Py_XDECREF(cap);
    PyMem_Free(cb);
    return NULL;
  }
  Py_DECREF(cap);
  return cb;
}

static void Solver_dealloc(SolverObject *self) {
  mn_solver_destroy(&self->s);
  mn_op_destroy(&self->op);
  if (self->refs) {
    for (Py_ssize_t k = 0; k < PyList_GET_SIZE(self->refs); k++) {
      PyObject *o = PyList_GET_ITEM(self->refs, k);
      if (PyCapsule_CheckExact(o)) PyMem_Free(PyCapsule_GetPointer(o, NULL));
    }
  }
  Py_XDECREF(self->refs);
  Py_XDECREF(self->error);
  PyObject_Free(self);
}

/* solver(operator, n, dtype, options): operator a Csr or a callable f(x, y) */
static PyObject *py_solver(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *A, *dt;
  long long n;
  const char *opts;
  if (!PyArg_ParseTuple(args, "OLOs", &A, &n, &dt, &opts)) return NULL;
  if (!need_ctx()) return NULL;
  mn_dtype t;
  if (!dtype_of(dt, &t)) return NULL;
  SolverObject *o = PyObject_New(SolverObject, &SolverType);
  if (!o) return NULL;
  o->s = NULL;
  o->op = NULL;
  o->error = NULL;
  o->refs = PyList_New(0);
  if (!o->refs) { Py_DECREF(o); return NULL; }
  int rc = 0;
  mn_csr *csr = mnpy_csr_of(A);
  if (csr) {
    if (PyList_Append(o->refs, A) < 0) { Py_DECREF(o); return NULL; }
    rc = mn_op_create_csr(csr, &o->op);
  } else if (PyCallable_Check(A)) {
    callback *cb = keep_callback(o, A);
    if (!cb) { Py_DECREF(o); return NULL; }
    rc = mn_op_create_shell(g_ctx, n, t, call_apply, cb, &o->op);
  } else {
    Py_DECREF(o);
    PyErr_SetString(PyExc_TypeError, "the operator must be a Csr or a callable f(x, y)");
    return NULL;
  }
  if (!rc) rc = mn_solver_create(g_ctx, &o->s);
  if (!rc) rc = mn_solver_set_operator(o->s, o->op);
  if (!rc) rc = mn_solver_set_options(o->s, opts);
  if (rc) { Py_DECREF(o); return raise_mn(rc); }
  return (PyObject *)o;
}

static PyObject *Solver_set_options(SolverObject *self, PyObject *a) {
  const char *s = PyUnicode_AsUTF8(a);
  if (!s) return NULL;
  int rc = mn_solver_set_options(self->s, s);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Solver_set_tolerances(SolverObject *self, PyObject *args) {
  double rtol, atol;
  long long maxit;
  if (!PyArg_ParseTuple(args, "ddL", &rtol, &atol, &maxit)) return NULL;
  int rc = mn_solver_set_tolerances(self->s, rtol, atol, maxit);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Solver_set_diagonal(SolverObject *self, PyObject *d) {
  if (!is_array(d)) { PyErr_SetString(PyExc_TypeError, "set_diagonal needs an Array"); return NULL; }
  int rc = mn_op_set_diagonal(self->op, arr(d));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Solver_set_pc_shell(SolverObject *self, PyObject *fn) {
  if (!PyCallable_Check(fn)) { PyErr_SetString(PyExc_TypeError, "a preconditioner must be callable f(r, z)"); return NULL; }
  callback *cb = keep_callback(self, fn);
  if (!cb) return NULL;
  int rc = mn_solver_set_pc_shell(self->s, call_apply, cb);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* set_pc_matrix(M): z = M r for a Csr M, applied in C (kept alive here) */
static PyObject *Solver_set_pc_matrix(SolverObject *self, PyObject *M) {
  mn_csr *m = mnpy_csr_of(M);
  if (!m) { PyErr_SetString(PyExc_TypeError, "set_pc_matrix takes a _core.Csr"); return NULL; }
  if (PyList_Append(self->refs, M) < 0) return NULL;
  int rc = mn_solver_set_pc_matrix(self->s, m);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Solver_set_monitor(SolverObject *self, PyObject *fn) {
  if (!PyCallable_Check(fn)) { PyErr_SetString(PyExc_TypeError, "a monitor must be callable f(it, rnorm)"); return NULL; }
  callback *cb = keep_callback(self, fn);
  if (!cb) return NULL;
  int rc = mn_solver_set_monitor(self->s, call_monitor, cb);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* solve(b, x) -> (iterations, rnorm, reason name, converged) */
static PyObject *Solver_solve(SolverObject *self, PyObject *args) {
  PyObject *b, *x;
  if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &b, &ArrayType, &x)) return NULL;
  Py_CLEAR(self->error);
  int rc;
  rc = mn_solver_solve(self->s, arr(b), arr(x));
  if (self->error) { /* a callback's own exception comes first */
    PyObject *e = self->error;
    self->error = NULL;
    PyErr_SetObject((PyObject *)Py_TYPE(e), e);
    Py_DECREF(e);
    return NULL;
  }
  if (rc) return raise_mn(rc);
  int64_t its;
  double rn;
  mn_stop_reason why;
  mn_solver_get_result(self->s, &its, &rn, &why);
  return Py_BuildValue("(Ldsi)", (long long)its, rn, mn_stop_reason_name(why), mn_stop_reason_converged(why));
}

/* iterate(x): the current iterate into x, from a monitor during a solve */
static PyObject *Solver_iterate(SolverObject *self, PyObject *x) {
  if (!is_array(x)) { PyErr_SetString(PyExc_TypeError, "iterate needs an Array"); return NULL; }
  int rc = mn_solver_get_iterate(self->s, arr(x));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* apply(x, y): y = A x with the solver's operator */
static PyObject *Solver_apply(SolverObject *self, PyObject *args) {
  PyObject *x, *y;
  if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &x, &ArrayType, &y)) return NULL;
  int rc = mn_op_apply(self->op, arr(x), arr(y));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Solver_history(SolverObject *self, PyObject *u) {
  (void)u;
  int64_t n;
  const double *h;
  int rc = mn_solver_get_history(self->s, &n, &h);
  if (rc) return raise_mn(rc);
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (int64_t k = 0; l && k < n; k++) PyList_SET_ITEM(l, (Py_ssize_t)k, PyFloat_FromDouble(h[k]));
  return l;
}

static PyMethodDef Solver_methods[] = {
  {"set_options", (PyCFunction)Solver_set_options, METH_O, "PETSc-style options string."},
  {"set_tolerances", (PyCFunction)Solver_set_tolerances, METH_VARARGS, "set_tolerances(rtol, atol, maxit)."},
  {"set_diagonal", (PyCFunction)Solver_set_diagonal, METH_O, "The operator's diagonal (matrix-free Jacobi)."},
  {"set_pc_shell", (PyCFunction)Solver_set_pc_shell, METH_O, "A preconditioner f(r, z): z = M^-1 r."},
  {"set_pc_matrix", (PyCFunction)Solver_set_pc_matrix, METH_O, "A sparse preconditioner M (a Csr): z = M r in C."},
  {"set_monitor", (PyCFunction)Solver_set_monitor, METH_O, "f(it, rnorm) after each iteration; true stops."},
  {"solve", (PyCFunction)Solver_solve, METH_VARARGS, "solve(b, x) -> (its, rnorm, reason, converged)."},
  {"history", (PyCFunction)Solver_history, METH_NOARGS, "Residual norms, initial first."},
  {"iterate", (PyCFunction)Solver_iterate, METH_O, "iterate(x): the current iterate, from a monitor."},
  {"apply", (PyCFunction)Solver_apply, METH_VARARGS, "apply(x, y): y = A x."},
  {NULL, NULL, 0, NULL}};

static PyTypeObject SolverType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "maniple._core.Solver",
  .tp_basicsize = sizeof(SolverObject),
  .tp_dealloc = (destructor)Solver_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A Krylov solver (mn_solver) over a Csr or a Python operator.",
  .tp_methods = Solver_methods,
};

static PyMethodDef solver_functions[] = {
  {"solver", py_solver, METH_VARARGS, "solver(A, n, dtype, options) -> Solver; A a Csr or f(x, y)."},
  {NULL, NULL, 0, NULL}};

int mnpy_solver_init(PyObject *m) {
  if (PyType_Ready(&SolverType) < 0) return -1;
  Py_INCREF(&SolverType);
  if (PyModule_AddObject(m, "Solver", (PyObject *)&SolverType) < 0) { Py_DECREF(&SolverType); return -1; }
  return PyModule_AddFunctions(m, solver_functions);
}
