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
enum { KDL_CPU = 1, KDL_CUDA = 2, KDL_INT = 0, KDL_FLOAT = 2, KDL_BOOL = 6 };

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
  static const uint8_t code[MN_NDTYPE] = {KDL_BOOL, KDL_INT, KDL_INT, KDL_FLOAT, KDL_FLOAT};
  DLTensor *d = versioned ? &t->t.v.dl_tensor : &t->t.m.dl_tensor;
  d->data = l.data;
  d->device = (DLDevice){device ? KDL_CUDA : KDL_CPU, 0};
  d->ndim = l.ndim;
  d->dtype = (DLDataType){code[dt], (uint8_t)(8 * mn_dtype_size(dt)), 1};
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
