/* Floating-point exceptions of element-wise passes, reported as NumPy's
 * errstate says. The core leaves the exceptions an evaluation raised on
 * this rank in the calling thread's environment (as a serial C loop
 * would); the hook (maniple.numpy._fpe.report) turns them into NumPy's
 * warnings, errors or calls. */
#include "_core.h"
#include <fenv.h>

#define FPE_ALL (FE_DIVBYZERO | FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID)

static PyObject *g_hook; /* report(bits, what, reducing) */
static int g_agree;      /* some exception is set to raise: every rank reports every pass */

/* (clearing rewrites the x87 and SSE environments, reading them is cheaper:
 * most passes begin with nothing raised) */
void mnpy_fpe_begin(void) {
  if (fetestexcept(FPE_ALL)) feclearexcept(FPE_ALL);
}

int mnpy_fpe_end(PyObject *what, int reducing) {
  int f = fetestexcept(FPE_ALL);
  if (!g_hook || (!f && !g_agree)) return 0;
  feclearexcept(FPE_ALL);
  /* NumPy's bits: divide 1, overflow 2, underflow 4, invalid 8 */
  int bits = (f & FE_DIVBYZERO ? 1 : 0) | (f & FE_OVERFLOW ? 2 : 0) | (f & FE_UNDERFLOW ? 4 : 0) |
             (f & FE_INVALID ? 8 : 0);
  PyObject *r = PyObject_CallFunction(g_hook, "iOi", bits, what, reducing);
  Py_XDECREF(r);
  return r ? 0 : -1;
}

/* set_fpe_hook(report, agree) */
static PyObject *py_set_fpe_hook(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *hook;
  int agree;
  if (!PyArg_ParseTuple(args, "Op", &hook, &agree)) return NULL;
  if (hook != Py_None && !PyCallable_Check(hook)) return PyErr_Format(PyExc_TypeError, "the hook must be callable");
  Py_XSETREF(g_hook, hook == Py_None ? NULL : Py_NewRef(hook));
  g_agree = agree;
  Py_RETURN_NONE;
}

/* agree_fpe(bits) -> the bits of every rank, or'ed (collective) */
static PyObject *py_agree_fpe(PyObject *m, PyObject *arg) {
  (void)m;
  long b = PyLong_AsLong(arg);
  if (b == -1 && PyErr_Occurred()) return NULL;
  if (!need_ctx()) return NULL;
  int bits = (int)b, all = 0;
  if (MPI_Allreduce(&bits, &all, 1, MPI_INT, MPI_BOR, mn_ctx_comm(g_ctx)) != MPI_SUCCESS)
    return PyErr_Format(PyExc_RuntimeError, "agree_fpe: MPI_Allreduce failed");
  return PyLong_FromLong(all);
}

static PyMethodDef fpe_functions[] = {
  {"agree_fpe", py_agree_fpe, METH_O, "agree_fpe(bits) -> every rank's bits or'ed (collective)."},
  {"set_fpe_hook", py_set_fpe_hook, METH_VARARGS,
   "set_fpe_hook(report, agree): report(bits, what, reducing) is called after a pass that raised floating-point "
   "exceptions on this rank (bits as NumPy's: divide 1, overflow 2, underflow 4, invalid 8), and after every pass "
   "while agree is true."},
  {NULL, NULL, 0, NULL}};

int mnpy_fpe_init(PyObject *m) { return PyModule_AddFunctions(m, fpe_functions); }
