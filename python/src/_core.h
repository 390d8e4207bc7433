/* Private: what the extension's C files share (_core.c holds them). */
#ifndef MANIPLE_PY_CORE_H
#define MANIPLE_PY_CORE_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <maniple/maniple.h>

extern mn_ctx *g_ctx;
extern PyTypeObject ArrayType;
/* Raise the Python exception NumPy would for a maniple error code. */
PyObject *raise_mn(int code);
int need_ctx(void);
int dtype_of(PyObject *o, mn_dtype *t);
int is_array(PyObject *o);
mn_array *arr(PyObject *o);
PyObject *wrap(mn_array *a);
/* The sparse types and functions (_sparse.c), added to the module. */
int mnpy_sparse_init(PyObject *m);
/* The matrix of a _core.Csr, or NULL when o is not one. */
mn_csr *mnpy_csr_of(PyObject *o);
/* The solver type and functions (_solver.c). */
int mnpy_solver_init(PyObject *m);
#endif
