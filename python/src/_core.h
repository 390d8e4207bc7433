/* Private: what the extension's C files share. */
#ifndef MANIPLE_PY_CORE_H
#define MANIPLE_PY_CORE_H
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <maniple/maniple.h>

/* The files share these names, and nothing else may see them: a global
 * such as libc's uname, taken by a build without -fvisibility=hidden,
 * would be called by MPI in its place. */
#pragma GCC visibility push(hidden)

extern mn_ctx *g_ctx;
/* The Array type (_array.c): a handle on one mn_array. */
typedef struct {
  PyObject_HEAD
  mn_array *a;
} ArrayObject;
extern PyTypeObject ArrayType;

/* Every call into the C core keeps the GIL. The core is not re-entrant (one
 * context per process, MPI initialised MPI_THREAD_SERIALIZED), so Python
 * threads take turns in it, one call at a time. */

/* Conversions (_core.c): an op's name to its code (what: "unary op",
 * "binary op", "ternary op", "reduction"); scalars; shapes. */
int op_of(PyObject *o, int n, const char *(*name)(int), const char *what, int *op);
const char *mnpy_uname(int k);
const char *mnpy_bname(int k);
const char *mnpy_tname(int k);
const char *mnpy_rname(int k);
PyObject *from_scalar(mn_scalar s);
/* Python bool/int/float -> weak scalar; (value, dtype) -> typed scalar */
int to_scalar(PyObject *o, mn_scalar *s);
int to_shape(PyObject *o, int *nd, int64_t *shape);
PyObject *shape_tuple(int nd, const int64_t *shape);
/* Array methods gathering to, and scattering from, a root rank (_transfer.c). */
PyObject *Array_gather_root(ArrayObject *self, PyObject *args);
PyObject *Array_scatter_root(ArrayObject *self, PyObject *args);
PyObject *Array_local_values(ArrayObject *self, PyObject *u);
PyObject *Array_local_any(ArrayObject *self, PyObject *u);
PyObject *Array_split_local(ArrayObject *self, PyObject *arg);
/* Sharing the memory of a one-rank array (_interop.c): local_block(device)
 * and a DLPack capsule. */
PyObject *Array_local_block(ArrayObject *self, PyObject *arg);
PyObject *Array_dlpack(ArrayObject *self, PyObject *arg);
/* from_device(capsule): a new Array copied from a CUDA producer's DLPack tensor */
PyObject *py_from_device(PyObject *m, PyObject *cap);
/* Raise the Python exception NumPy would for a maniple error code. */
PyObject *raise_mn(int code);
int need_ctx(void);
int dtype_of(PyObject *o, mn_dtype *t);
int is_array(PyObject *o);
mn_array *arr(PyObject *o);
PyObject *wrap(mn_array *a);
/* Each file's functions, added to the module. */
int mnpy_array_init(PyObject *m);
int mnpy_expr_init(PyObject *m);
int mnpy_ops_init(PyObject *m);
int mnpy_transfer_init(PyObject *m);
int mnpy_log_init(PyObject *m);
int mnpy_fpe_init(PyObject *m);
/* Around an element-wise pass (_fpe.c): begin clears this thread's
 * floating-point exceptions; end reports those raised as NumPy's errstate
 * says (what: the program, for the operation's name), -1 with a Python
 * error set when that raises. */
void mnpy_fpe_begin(void);
int mnpy_fpe_end(PyObject *what, int reducing);
/* The sparse types and functions (_sparse.c). */
int mnpy_sparse_init(PyObject *m);
/* The matrix of a _core.Csr, or NULL when o is not one. */
mn_csr *mnpy_csr_of(PyObject *o);
/* The solver type and functions (_solver.c). */
int mnpy_solver_init(PyObject *m);
#pragma GCC visibility pop

#endif
