/* Exchanging an array's memory with other libraries without a copy: the
 * rank's block as (pointer, strides) for __cuda_array_interface__, and a
 * DLPack capsule that keeps the Array alive until its consumer deletes it:
 * "dltensor_versioned" (DLPack 1.0, writable) for consumers that ask for
 * it, else "dltensor" (the ABI of dlpack.h 0.8, which NumPy imports read
 * only). */
#include "_core.h"
#include <stdlib.h>

typedef struct { int32_t device_type, device_id; } DLDevice;
typedef struct { uint8_t code, bits; uint16_t lanes; } DLDataType;
typedef struct {
  void *data;
  DLDevice device;
  int32_t ndim;
  DLDataType dtype;
  int64_t *shape, *strides; /* strides in elements */
  uint64_t byte_offset;
} DLTensor;
typedef struct DLManagedTensor {
  DLTensor dl_tensor;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensor *self);
} DLManagedTensor;
typedef struct DLManagedTensorVersioned {
  struct { uint32_t major, minor; } version;
  void *manager_ctx;
  void (*deleter)(struct DLManagedTensorVersioned *self);
  uint64_t flags;
  DLTensor dl_tensor;
} DLManagedTensorVersioned;
enum { KDL_CPU = 1, KDL_CUDA = 2, KDL_CUDA_MANAGED = 13, KDL_INT = 0, KDL_UINT = 1, KDL_FLOAT = 2, KDL_BOOL = 6, KDL_COMPLEX = 5 };
/* DLPack's type code of each maniple dtype (its bits: the dtype's size) */
static const uint8_t DL_CODE[MN_NDTYPE] = {KDL_BOOL, KDL_INT,  KDL_INT,  KDL_FLOAT, KDL_FLOAT, KDL_INT,
                                           KDL_INT,  KDL_UINT, KDL_UINT, KDL_UINT,  KDL_UINT,  KDL_FLOAT,
                                           KDL_COMPLEX, KDL_COMPLEX};

/* a managed tensor of either version and its shape and strides, in one
 * block (the tensor first: the consumer frees what it was given) */
typedef struct {
  union { DLManagedTensor m; DLManagedTensorVersioned v; } t;
  int64_t shape[MN_MAXDIM], strides[MN_MAXDIM];
} managed;

static void release(void *block, void *owner) {
  PyGILState_STATE g = PyGILState_Ensure();
  Py_XDECREF((PyObject *)owner);
  PyGILState_Release(g);
  free(block);
}
static void deleter(DLManagedTensor *m) { release(m, m->manager_ctx); }
static void deleter_v(DLManagedTensorVersioned *v) { release(v, v->manager_ctx); }

static void capsule_free(PyObject *cap) { /* a capsule no consumer took */
  if (PyCapsule_IsValid(cap, "dltensor")) {
    DLManagedTensor *m = PyCapsule_GetPointer(cap, "dltensor");
    m->deleter(m);
  } else if (PyCapsule_IsValid(cap, "dltensor_versioned")) {
    DLManagedTensorVersioned *v = PyCapsule_GetPointer(cap, "dltensor_versioned");
    v->deleter(v);
  }
}

/* the whole array must be this rank's block: one process, or a copy */
static int local_whole(ArrayObject *self, int device, mn_local *l) {
  if (mn_ctx_size(g_ctx) > 1) {
    PyErr_Format(PyExc_BufferError,
                 "an array distributed over %d ranks has no single buffer to share (numpy.asarray gathers a copy)",
                 mn_ctx_size(g_ctx));
    return -1;
  }
  int rc = device ? mn_array_local_device(self->a, l) : mn_array_local(self->a, l);
  if (rc) { raise_mn(rc); return -1; }
  return 0;
}

/* local_block(device) -> (pointer, strides in elements): the whole array's
 * memory on one rank, on the device (device: 1) or the host */
PyObject *Array_local_block(ArrayObject *self, PyObject *arg) {
  int device = PyObject_IsTrue(arg);
  mn_local l;
  if (device < 0 || local_whole(self, device, &l)) return NULL;
  return Py_BuildValue("(KN)", (unsigned long long)(uintptr_t)l.data, shape_tuple(l.ndim, l.stride));
}

/* dlpack(device, versioned) -> a capsule of the array's memory */
PyObject *Array_dlpack(ArrayObject *self, PyObject *args) {
  int device, versioned;
  mn_local l;
  if (!PyArg_ParseTuple(args, "pp", &device, &versioned) || local_whole(self, device, &l)) return NULL;
  managed *t = calloc(1, sizeof *t);
  if (!t) return PyErr_NoMemory();
  mn_dtype dt = mn_array_dtype(self->a);
  DLTensor *d = versioned ? &t->t.v.dl_tensor : &t->t.m.dl_tensor;
  d->data = l.data;
  d->device = (DLDevice){device ? KDL_CUDA : KDL_CPU, 0};
  d->ndim = l.ndim;
  d->dtype = (DLDataType){DL_CODE[dt], (uint8_t)(8 * mn_dtype_size(dt)), 1};
  for (int k = 0; k < l.ndim; k++) {
    t->shape[k] = l.count[k];
    t->strides[k] = l.stride[k];
  }
  d->shape = t->shape;
  d->strides = t->strides;
  Py_INCREF(self);
  if (versioned) {
    t->t.v.version.major = 1;
    t->t.v.manager_ctx = self;
    t->t.v.deleter = deleter_v;
  } else {
    t->t.m.manager_ctx = self;
    t->t.m.deleter = deleter;
  }
  PyObject *cap = PyCapsule_New(t, versioned ? "dltensor_versioned" : "dltensor", capsule_free);
  if (!cap) release(t, self);
  return cap;
}

/* a DLPack dtype as maniple's, or -1 */
static int dtype_from_dl(DLDataType t) {
  for (int k = 0; k < MN_NDTYPE && t.lanes == 1; k++)
    if (DL_CODE[k] == t.code && 8 * mn_dtype_size((mn_dtype)k) == t.bits) return k;
  return -1;
}

/* from_device(capsule) -> a new Array with a copy of a CUDA producer's
 * tensor (either DLPack version), each rank's block copied on the device;
 * the producer's memory is released once the copies are done. */
PyObject *py_from_device(PyObject *m, PyObject *cap) {
  (void)m;
  if (!need_ctx()) return NULL;
  int versioned = PyCapsule_IsValid(cap, "dltensor_versioned");
  if (!versioned && !PyCapsule_IsValid(cap, "dltensor")) {
    PyErr_SetString(PyExc_TypeError, "from_device takes an unused DLPack capsule (\"dltensor\")");
    return NULL;
  }
  void *p = PyCapsule_GetPointer(cap, versioned ? "dltensor_versioned" : "dltensor");
  DLManagedTensor *mt = versioned ? NULL : p;
  DLManagedTensorVersioned *vt = versioned ? p : NULL;
  const DLTensor *d = versioned ? &vt->dl_tensor : &mt->dl_tensor;
  int dt = dtype_from_dl(d->dtype);
  static const char *kinds[] = {"int", "uint", "float", "opaque", "bfloat", "complex", "bool"};
  if (d->device.device_type != KDL_CUDA && d->device.device_type != KDL_CUDA_MANAGED) {
    PyErr_Format(PyExc_BufferError, "a DLPack tensor on device type %d: from_device takes CUDA memory (2 or 13)",
                 (int)d->device.device_type);
    return NULL;
  }
  if (dt < 0) {
    PyErr_Format(PyExc_TypeError,
                 "a device tensor of %s%d (x%d lanes): maniple arrays hold bool, int32, int64, float32 or float64",
                 d->dtype.code < 7 ? kinds[d->dtype.code] : "code ", (int)d->dtype.bits, (int)d->dtype.lanes);
    return NULL;
  }
  if (d->ndim < 0 || d->ndim > MN_MAXDIM) {
    PyErr_Format(PyExc_ValueError, "a device tensor of %d dimensions: maniple arrays have at most %d",
                 (int)d->ndim, MN_MAXDIM);
    return NULL;
  }
  mn_array *a = NULL;
  const char *data = (const char *)d->data + d->byte_offset;
  int rc;
  rc = mn_array_create_from_device(g_ctx, (mn_dtype)dt, d->ndim, d->shape, data, d->strides, &a);
  if (!rc) rc = mn_ctx_wait(g_ctx); /* the producer may reuse its memory once released */
  if (rc) {
    mn_array_destroy(&a);
    return raise_mn(rc);
  }
  /* consumed: the capsule's own destructor must not release it again */
  if (versioned) { if (vt->deleter) vt->deleter(vt); }
  else if (mt->deleter) mt->deleter(mt);
  PyCapsule_SetName(cap, versioned ? "used_dltensor_versioned" : "used_dltensor");
  return wrap(a);
}
