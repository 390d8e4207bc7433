/* maniple._core's sparse part: Csr, a handle on a row-distributed CSR
 * matrix (mn_sparse.h), and the functions that make one. Index and value
 * buffers come from NumPy arrays (buffer protocol); local rows go back as
 * bytes that the Python layer views with numpy.frombuffer. */
#include "_core.h"
#include <string.h>

typedef struct {
  PyObject_HEAD
  mn_csr *A;
} CsrObject;
static PyTypeObject CsrType;

static PyObject *wrap_csr(mn_csr *A) {
  CsrObject *o = PyObject_New(CsrObject, &CsrType);
  if (!o) { mn_csr_destroy(&A); return NULL; }
  o->A = A;
  return (PyObject *)o;
}

static void Csr_dealloc(CsrObject *self) {
  mn_csr_destroy(&self->A);
  PyObject_Free(self);
}

static int is_csr(PyObject *o) { return PyObject_TypeCheck(o, &CsrType); }
mn_csr *mnpy_csr_of(PyObject *o) { return is_csr(o) ? ((CsrObject *)o)->A : NULL; }

/* ---- Partition: a renumbering of a matrix's rows (mn_partition.h) ---- */
typedef struct {
  PyObject_HEAD
  mn_partition *p;
} PartObject;
static PyTypeObject PartType;

static void Part_dealloc(PartObject *self) {
  mn_partition_destroy(&self->p);
  PyObject_Free(self);
}

#define PART_MOVE(NAME, FN)                                                                  \
  static PyObject *Part_##NAME(PartObject *self, PyObject *args) {                           \
    PyObject *x, *y;                                                                         \
    if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &x, &ArrayType, &y)) return NULL;       \
    int rc;                                                                                  \
    rc = FN(self->p, arr(x), arr(y));                                                        \
    if (rc) return raise_mn(rc);                                                             \
    Py_RETURN_NONE;                                                                          \
  }
PART_MOVE(to_new, mn_partition_to_new)
PART_MOVE(to_old, mn_partition_to_old)

static PyObject *Part_quality(PartObject *self, PyObject *u) {
  (void)u;
  mn_partition_quality q;
  int rc = mn_partition_get_quality(self->p, &q);
  if (rc) return raise_mn(rc);
  return Py_BuildValue("{sLsLsLsLsd}", "edge_cut", (long long)q.edge_cut, "ghost_min", (long long)q.ghost_min,
                       "ghost_max", (long long)q.ghost_max, "ghost_total", (long long)q.ghost_total, "imbalance",
                       q.imbalance);
}

static PyMethodDef Part_methods[] = {
  {"to_new", (PyCFunction)Part_to_new, METH_VARARGS, "to_new(x_old, x_new): x_new[new(i)] = x_old[i]."},
  {"to_old", (PyCFunction)Part_to_old, METH_VARARGS, "to_old(x_new, x_old): back."},
  {"quality", (PyCFunction)Part_quality, METH_NOARGS, "edge cut, ghost volumes and load imbalance."},
  {NULL, NULL, 0, NULL}};

static PyTypeObject PartType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "maniple._core.Partition",
  .tp_basicsize = sizeof(PartObject),
  .tp_dealloc = (destructor)Part_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A renumbering of a matrix's rows (equal, METIS or PT-Scotch).",
  .tp_methods = Part_methods,
};
static mn_csr *csr(PyObject *o) { return ((CsrObject *)o)->A; }

/* An index buffer (int32 or int64) and its element count. */
static int index_buffer(PyObject *o, Py_buffer *b, mn_dtype *t, Py_ssize_t *n) {
  if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return 0;
  const char *f = b->format ? b->format : "B";
  if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
  if (b->itemsize == 4 && (f[0] == 'i' || f[0] == 'l')) *t = MN_INT32;
  else if (b->itemsize == 8 && (f[0] == 'q' || f[0] == 'l')) *t = MN_INT64;
  else {
    PyErr_Format(PyExc_TypeError, "indices must be int32 or int64, got format '%s' of %zd bytes", f, b->itemsize);
    PyBuffer_Release(b);
    return 0;
  }
  *n = b->len / b->itemsize;
  return 1;
}

static int value_buffer(PyObject *o, mn_dtype t, Py_buffer *b, Py_ssize_t n) {
  if (PyObject_GetBuffer(o, b, PyBUF_C_CONTIGUOUS) < 0) return 0;
  if (b->len != n * (Py_ssize_t)mn_dtype_size(t)) {
    PyErr_Format(PyExc_ValueError, "%zd values of %s expected, the buffer holds %zd bytes", n, mn_dtype_name(t), b->len);
    PyBuffer_Release(b);
    return 0;
  }
  return 1;
}

/* csr_coo(nrows, ncols, dtype, rows, cols, vals): this rank's triplets */
static PyObject *py_csr_coo(PyObject *m, PyObject *args) {
  (void)m;
  long long nr, nc;
  PyObject *dt, *ro, *co, *vo;
  if (!PyArg_ParseTuple(args, "LLOOOO", &nr, &nc, &dt, &ro, &co, &vo)) return NULL;
  if (!need_ctx()) return NULL;
  mn_dtype t, it, jt;
  if (!dtype_of(dt, &t)) return NULL;
  Py_buffer rb, cb, vb;
  Py_ssize_t n, n2;
  if (!index_buffer(ro, &rb, &it, &n)) return NULL;
  if (!index_buffer(co, &cb, &jt, &n2)) { PyBuffer_Release(&rb); return NULL; }
  if (n != n2 || it != jt) {
    PyBuffer_Release(&rb); PyBuffer_Release(&cb);
    PyErr_Format(PyExc_ValueError, "row and column index arrays differ (%zd and %zd entries)", n, n2);
    return NULL;
  }
  if (!value_buffer(vo, t, &vb, n)) { PyBuffer_Release(&rb); PyBuffer_Release(&cb); return NULL; }
  mn_csr *A = NULL;
  int rc;
  rc = mn_csr_create_coo(g_ctx, nr, nc, t, n, it, rb.buf, cb.buf, vb.buf, &A);
  PyBuffer_Release(&rb); PyBuffer_Release(&cb); PyBuffer_Release(&vb);
  if (rc) return raise_mn(rc);
  return wrap_csr(A);
}

/* csr_rows(nrows, ncols, dtype, rowptr (int64), cols, vals): my own rows */
static PyObject *py_csr_rows(PyObject *m, PyObject *args) {
  (void)m;
  long long nr, nc;
  PyObject *dt, *po, *co, *vo;
  if (!PyArg_ParseTuple(args, "LLOOOO", &nr, &nc, &dt, &po, &co, &vo)) return NULL;
  if (!need_ctx()) return NULL;
  mn_dtype t, pt, ct;
  if (!dtype_of(dt, &t)) return NULL;
  Py_buffer pb, cb, vb;
  Py_ssize_t np, nnz;
  if (!index_buffer(po, &pb, &pt, &np)) return NULL;
  if (pt != MN_INT64 || np < 1) {
    PyBuffer_Release(&pb);
    PyErr_SetString(PyExc_ValueError, "rowptr must be int64 with at least one entry");
    return NULL;
  }
  if (!index_buffer(co, &cb, &ct, &nnz)) { PyBuffer_Release(&pb); return NULL; }
  if (!value_buffer(vo, t, &vb, nnz)) { PyBuffer_Release(&pb); PyBuffer_Release(&cb); return NULL; }
  mn_csr *A = NULL;
  int rc;
  rc = mn_csr_create_rows(g_ctx, nr, nc, t, np - 1, pb.buf, ct, cb.buf, vb.buf, &A);
  PyBuffer_Release(&pb); PyBuffer_Release(&cb); PyBuffer_Release(&vb);
  if (rc) return raise_mn(rc);
  return wrap_csr(A);
}

static PyObject *Csr_shape(CsrObject *self, void *c) {
  (void)c;
  int64_t r, k;
  mn_csr_shape(self->A, &r, &k);
  return Py_BuildValue("(LL)", (long long)r, (long long)k);
}
static PyObject *Csr_dtype(CsrObject *self, void *c) {
  (void)c;
  return PyUnicode_FromString(mn_dtype_name(mn_csr_dtype(self->A)));
}
static PyObject *Csr_nnz(CsrObject *self, void *c) {
  (void)c;
  return PyLong_FromLongLong((long long)mn_csr_nnz(self->A));
}

static PyObject *Csr_local_rows(CsrObject *self, PyObject *u) {
  (void)u;
  int64_t r0, n, z;
  mn_csr_local_rows(self->A, &r0, &n, &z);
  return Py_BuildValue("(LLL)", (long long)r0, (long long)n, (long long)z);
}

static PyObject *Csr_ghosts(CsrObject *self, PyObject *u) {
  (void)u;
  int64_t g, b;
  int nm;
  mn_csr_ghosts(self->A, &g, &nm, &b);
  return Py_BuildValue("(LiL)", (long long)g, nm, (long long)b);
}

/* (rowptr, cols, vals) of my rows as bytes (int64, int64, dtype) */
static PyObject *Csr_get_rows(CsrObject *self, PyObject *u) {
  (void)u;
  int64_t *rp = NULL, *cols = NULL, r0, n, z;
  void *vals = NULL;
  int rc = mn_csr_get_rows(self->A, &rp, &cols, &vals);
  if (rc) return raise_mn(rc);
  mn_csr_local_rows(self->A, &r0, &n, &z);
  size_t es = mn_dtype_size(mn_csr_dtype(self->A));
  PyObject *r = Py_BuildValue("(y#y#y#)", (const char *)rp, (Py_ssize_t)((n + 1) * 8), (const char *)cols,
                              (Py_ssize_t)(z * 8), (const char *)vals, (Py_ssize_t)(z * (int64_t)es));
  mn_free(rp); mn_free(cols); mn_free(vals);
  return r;
}

#define CSR_VEC2(NAME, FN)                                                                   \
  static PyObject *Csr_##NAME(CsrObject *self, PyObject *args) {                             \
    PyObject *x, *y;                                                                         \
    if (!PyArg_ParseTuple(args, "O!O!", &ArrayType, &x, &ArrayType, &y)) return NULL;       \
    int rc;                                                                                  \
    rc = FN(self->A, arr(x), arr(y));                                                        \
    if (rc) return raise_mn(rc);                                                             \
    Py_RETURN_NONE;                                                                          \
  }
CSR_VEC2(spmv, mn_csr_spmv)
CSR_VEC2(spmv_t, mn_csr_spmv_t)
CSR_VEC2(spmm, mn_csr_spmm)

static PyObject *Csr_add(CsrObject *self, PyObject *args) {
  double a, b;
  PyObject *o;
  if (!PyArg_ParseTuple(args, "ddO!", &a, &b, &CsrType, &o)) return NULL;
  mn_csr *C = NULL;
  int rc = mn_csr_add(a, self->A, b, csr(o), &C);
  if (rc) return raise_mn(rc);
  return wrap_csr(C);
}

static PyObject *Csr_transpose(CsrObject *self, PyObject *u) {
  (void)u;
  mn_csr *C = NULL;
  int rc = mn_csr_transpose(self->A, &C);
  if (rc) return raise_mn(rc);
  return wrap_csr(C);
}

static PyObject *Csr_matmul(CsrObject *self, PyObject *o) {
  if (!is_csr(o)) { PyErr_SetString(PyExc_TypeError, "matmul needs a Csr"); return NULL; }
  mn_csr *C = NULL;
  int rc;
  rc = mn_csr_matmul(self->A, csr(o), &C);
  if (rc) return raise_mn(rc);
  return wrap_csr(C);
}

static PyObject *Csr_copy(CsrObject *self, PyObject *dt) {
  mn_dtype t = MN_NDTYPE;
  if (dt != Py_None && !dtype_of(dt, &t)) return NULL;
  mn_csr *C = NULL;
  int rc = mn_csr_copy(self->A, t, &C);
  if (rc) return raise_mn(rc);
  return wrap_csr(C);
}

static PyObject *Csr_scale(CsrObject *self, PyObject *s) {
  double v = PyFloat_AsDouble(s);
  if (v == -1.0 && PyErr_Occurred()) return NULL;
  int rc = mn_csr_scale(self->A, v);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Csr_diag_scale(CsrObject *self, PyObject *args) {
  PyObject *l, *r;
  if (!PyArg_ParseTuple(args, "OO", &l, &r)) return NULL;
  if ((l != Py_None && !is_array(l)) || (r != Py_None && !is_array(r))) {
    PyErr_SetString(PyExc_TypeError, "diag_scale takes Arrays or None");
    return NULL;
  }
  int rc = mn_csr_diag_scale(self->A, l == Py_None ? NULL : arr(l), r == Py_None ? NULL : arr(r));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Csr_diagonal(CsrObject *self, PyObject *d) {
  if (!is_array(d)) { PyErr_SetString(PyExc_TypeError, "diagonal needs an Array"); return NULL; }
  int rc = mn_csr_diagonal(self->A, arr(d));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Csr_sum(CsrObject *self, PyObject *args) {
  int axis;
  PyObject *s;
  if (!PyArg_ParseTuple(args, "iO!", &axis, &ArrayType, &s)) return NULL;
  int rc = mn_csr_sum(self->A, axis, arr(s));
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Csr_eliminate_zeros(CsrObject *self, PyObject *u) {
  (void)u;
  int rc = mn_csr_eliminate_zeros(self->A);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

static PyObject *Csr_partition(CsrObject *self, PyObject *kind) {
  const char *k = PyUnicode_AsUTF8(kind);
  if (!k) return NULL;
  mn_part_kind pk;
  if (!strcmp(k, "equal")) pk = MN_PART_EQUAL;
  else if (!strcmp(k, "metis")) pk = MN_PART_METIS;
  else if (!strcmp(k, "ptscotch")) pk = MN_PART_PTSCOTCH;
  else if (!strcmp(k, "graph")) pk = MN_PART_GRAPH;
  else {
    PyErr_Format(PyExc_ValueError, "partition must be 'graph', 'metis', 'ptscotch' or 'equal', not '%s'", k);
    return NULL;
  }
  mn_partition *p = NULL;
  int rc;
  rc = mn_csr_partition(self->A, pk, &p);
  if (rc) return raise_mn(rc);
  PartObject *o = PyObject_New(PartObject, &PartType);
  if (!o) { mn_partition_destroy(&p); return NULL; }
  o->p = p;
  return (PyObject *)o;
}

static PyObject *Csr_permute(CsrObject *self, PyObject *part) {
  if (!PyObject_TypeCheck(part, &PartType)) { PyErr_SetString(PyExc_TypeError, "permute needs a Partition"); return NULL; }
  mn_csr *B = NULL;
  int rc;
  rc = mn_csr_permute(self->A, ((PartObject *)part)->p, &B);
  if (rc) return raise_mn(rc);
  return wrap_csr(B);
}

/* Paths go through the file-system encoding (PyUnicode_FSConverter), so a
 * name os.fsdecode made from any bytes reaches the C library unchanged. */
static PyObject *Csr_write_mtx(CsrObject *self, PyObject *args) {
  PyObject *fs = NULL;
  const char *field;
  int sym;
  if (!PyArg_ParseTuple(args, "O&sp", PyUnicode_FSConverter, &fs, &field, &sym)) return NULL;
  const char *path = PyBytes_AS_STRING(fs);
  int rc;
  rc = mn_csr_write_mtx(self->A, path, field, sym);
  Py_DECREF(fs);
  if (rc) return raise_mn(rc);
  Py_RETURN_NONE;
}

/* read_mtx(path, dtype or None (the file's), parallel) -> Csr */
static PyObject *py_read_mtx(PyObject *m, PyObject *args) {
  (void)m;
  PyObject *fs = NULL, *dt;
  int par;
  if (!PyArg_ParseTuple(args, "O&Op", PyUnicode_FSConverter, &fs, &dt, &par)) return NULL;
  mn_dtype t = MN_NDTYPE;
  if (!need_ctx() || (dt != Py_None && !dtype_of(dt, &t))) {
    Py_DECREF(fs);
    return NULL;
  }
  const char *path = PyBytes_AS_STRING(fs);
  mn_csr *A = NULL;
  int rc;
  rc = mn_csr_read_mtx(g_ctx, path, t, par, &A);
  Py_DECREF(fs);
  if (rc) return raise_mn(rc);
  return wrap_csr(A);
}

static PyMethodDef Csr_methods[] = {
  {"write_mtx", (PyCFunction)Csr_write_mtx, METH_VARARGS, "write_mtx(path, field, symmetric): Matrix Market."},
  {"partition", (PyCFunction)Csr_partition, METH_O, "partition('graph' | 'metis' | 'ptscotch' | 'equal') -> Partition of A's graph."},
  {"permute", (PyCFunction)Csr_permute, METH_O, "permute(Partition) -> A renumbered."},
  {"local_rows", (PyCFunction)Csr_local_rows, METH_NOARGS, "(first row, rows, stored entries) of this rank."},
  {"ghosts", (PyCFunction)Csr_ghosts, METH_NOARGS, "(ghost columns, messages, bytes) of one product."},
  {"get_rows", (PyCFunction)Csr_get_rows, METH_NOARGS, "(rowptr, cols, vals) bytes of this rank's rows."},
  {"spmv", (PyCFunction)Csr_spmv, METH_VARARGS, "spmv(x, y): y = A x."},
  {"spmv_t", (PyCFunction)Csr_spmv_t, METH_VARARGS, "spmv_t(x, y): y = A^T x."},
  {"spmm", (PyCFunction)Csr_spmm, METH_VARARGS, "spmm(X, Y): Y = A X."},
  {"add", (PyCFunction)Csr_add, METH_VARARGS, "add(alpha, beta, B) -> alpha A + beta B."},
  {"transpose", (PyCFunction)Csr_transpose, METH_NOARGS, "A^T."},
  {"matmul", (PyCFunction)Csr_matmul, METH_O, "matmul(B) -> A B."},
  {"copy", (PyCFunction)Csr_copy, METH_O, "copy(dtype or None)."},
  {"scale", (PyCFunction)Csr_scale, METH_O, "A *= s."},
  {"diag_scale", (PyCFunction)Csr_diag_scale, METH_VARARGS, "diag_scale(l or None, r or None)."},
  {"diagonal", (PyCFunction)Csr_diagonal, METH_O, "diagonal(d)."},
  {"sum", (PyCFunction)Csr_sum, METH_VARARGS, "sum(axis, out)."},
  {"eliminate_zeros", (PyCFunction)Csr_eliminate_zeros, METH_NOARGS, "Drop stored zeros."},
  {NULL, NULL, 0, NULL}};

static PyGetSetDef Csr_getset[] = {
  {"shape", (getter)Csr_shape, NULL, "(rows, columns)", NULL},
  {"dtype", (getter)Csr_dtype, NULL, "value dtype name", NULL},
  {"nnz", (getter)Csr_nnz, NULL, "stored entries over all ranks", NULL},
  {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject CsrType = {
  PyVarObject_HEAD_INIT(NULL, 0)
  .tp_name = "maniple._core.Csr",
  .tp_basicsize = sizeof(CsrObject),
  .tp_dealloc = (destructor)Csr_dealloc,
  .tp_flags = Py_TPFLAGS_DEFAULT,
  .tp_doc = "A row-distributed CSR matrix (maniple C handle).",
  .tp_methods = Csr_methods,
  .tp_getset = Csr_getset,
};

static PyMethodDef sparse_functions[] = {
  {"csr_coo", py_csr_coo, METH_VARARGS, "csr_coo(nrows, ncols, dtype, rows, cols, vals) -> Csr from my triplets."},
  {"csr_rows", py_csr_rows, METH_VARARGS, "csr_rows(nrows, ncols, dtype, rowptr, cols, vals) -> Csr from my rows."},
  {"read_mtx", py_read_mtx, METH_VARARGS, "read_mtx(path, dtype or None, parallel) -> Csr from a Matrix Market file."},
  {NULL, NULL, 0, NULL}};

int mnpy_sparse_init(PyObject *m) {
  if (PyType_Ready(&CsrType) < 0 || PyType_Ready(&PartType) < 0) return -1;
  Py_INCREF(&PartType);
  if (PyModule_AddObject(m, "Partition", (PyObject *)&PartType) < 0) { Py_DECREF(&PartType); return -1; }
  Py_INCREF(&CsrType);
  if (PyModule_AddObject(m, "Csr", (PyObject *)&CsrType) < 0) { Py_DECREF(&CsrType); return -1; }
  return PyModule_AddFunctions(m, sparse_functions);
}
