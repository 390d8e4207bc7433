/* The profiling log (docs/profiling.md) from Python. */
#include "_core.h"
#include <string.h>

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
  rc = mn_log_view(g_ctx, stdout);
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
  rc = mn_log_summary(g_ctx, rows);
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

static PyMethodDef log_functions[] = {
  {"log_enable", py_log_enable, METH_VARARGS, "log_enable(on=True): start (collective) or stop the profiling log."},
  {"log_reset", py_log_reset, METH_NOARGS, "Zero the profiling log's counters."},
  {"log_view", py_log_view, METH_NOARGS, "The profiling log over all ranks as a dict per kind (collective)."},
  {"log_print", py_log_print, METH_NOARGS, "Print the profiling table on rank 0 (collective)."},
  {NULL, NULL, 0, NULL}};

int mnpy_log_init(PyObject *m) { return PyModule_AddFunctions(m, log_functions); }
