"""Sharing memory without a copy: DLPack (__dlpack__, __dlpack_device__,
from_dlpack) and __cuda_array_interface__. On one rank the host memory of
the cpu backend round-trips through numpy.from_dlpack (writes seen both
ways); on a device backend the protocol objects describe the device
memory (checked field by field here: the emulated device's memory cannot
be read by a consumer, and no GPU is attached). A distributed array has no
single buffer: BufferError."""
import ctypes

import numpy
import pytest

import maniple
import maniple.numpy as np

ONE = maniple.size() == 1
DEVICE = maniple.backend() != "cpu"
DTYPES = ["bool", "int32", "int64", "float32", "float64"]

_name = ctypes.pythonapi.PyCapsule_GetName
_name.restype = ctypes.c_char_p
_name.argtypes = [ctypes.py_object]


def _values(dt):
    return (numpy.arange(24).reshape(4, 6) % 5).astype(dt)


@pytest.mark.skipif(not ONE, reason="one rank")
@pytest.mark.skipif(DEVICE, reason="host memory (cpu backend)")
@pytest.mark.parametrize("dt", DTYPES)
def test_numpy_shares_host_memory(dt):
    ref = _values(dt)
    a = np.asarray(ref)
    assert a.__dlpack_device__() == (1, 0)
    assert not hasattr(a, "__cuda_array_interface__")
    v = numpy.from_dlpack(a)  # NumPy asks for DLPack 1.0: a writable view
    assert v.dtype == ref.dtype and numpy.array_equal(v, ref)
    v[1, 2] = 1
    assert bool(a[1, 2]) if dt == "bool" else a[1, 2] == 1
    a[2, 3] = 0
    assert v[2, 3] == 0
    t = numpy.from_dlpack(a[:, 1::2])  # a strided view
    assert numpy.array_equal(t, numpy.asarray(a)[:, 1::2])
    del a  # the capsule keeps the storage alive
    assert v[2, 3] == 0 and v.sum() == v.sum()


@pytest.mark.skipif(not ONE or DEVICE, reason="one rank, cpu backend")
def test_dlpack_copy_and_versions():
    a = np.arange(6.0)
    c = numpy.from_dlpack(a, copy=True) if numpy.lib.NumpyVersion(numpy.__version__) >= "2.1.0" else None
    if c is not None:
        c[0] = 7
        assert a[0] == 0
    assert _name(a.__dlpack__()) == b"dltensor"
    assert _name(a.__dlpack__(max_version=(1, 0))) == b"dltensor_versioned"
    with pytest.raises(BufferError, match="device"):
        a.__dlpack__(dl_device=(2, 0))


@pytest.mark.skipif(not ONE or not DEVICE, reason="one rank, device backend")
@pytest.mark.parametrize("dt", DTYPES)
def test_cuda_array_interface(dt, logging_on):
    ref = _values(dt)
    a = np.asarray(ref)
    maniple.log_reset()
    base = a.__cuda_array_interface__
    assert base["shape"] == ref.shape and base["typestr"] == ref.dtype.str
    assert base["version"] == 3 and base["strides"] is None and base["stream"] == 1
    ptr, ro = base["data"]
    assert ptr and ro is False
    view, rview = a[1:, 1::2], ref[1:, 1::2]
    c = view.__cuda_array_interface__
    assert c["shape"] == rview.shape and c["strides"] == rview.strides
    assert c["data"][0] - ptr == rview.__array_interface__["data"][0] - ref.__array_interface__["data"][0]
    assert a.__dlpack_device__() == (2, 0)
    assert _name(a.__dlpack__()) == b"dltensor"
    assert _name(a.__dlpack__(max_version=(1, 0))) == b"dltensor_versioned"
    d = maniple.log_view()  # the values stayed on the device
    assert d["d2h"]["calls"] == 0 and d["h2d"]["calls"] == 0, (d["d2h"], d["h2d"])
    assert numpy.array_equal(numpy.asarray(a), ref)


@pytest.mark.skipif(ONE, reason="several ranks")
def test_distributed_has_no_single_buffer():
    a = np.arange(10.0)
    with pytest.raises(BufferError, match="ranks"):
        a.__dlpack__()
    if DEVICE:
        with pytest.raises(BufferError, match="ranks"):
            a.__cuda_array_interface__


@pytest.mark.parametrize("dt", DTYPES)
def test_from_dlpack(dt):
    ref = _values(dt)
    a = np.from_dlpack(ref)
    assert a.dtype == ref.dtype and numpy.array_equal(numpy.asarray(a), ref)
    ref[0, 0] = 1  # a copy: the maniple array keeps its values
    assert not a[0, 0]
    b = np.from_dlpack(a)
    assert numpy.array_equal(numpy.asarray(b), numpy.asarray(a))
    with pytest.raises(BufferError):
        np.from_dlpack(ref, copy=False)


class _DeviceProducer:
    """A CUDA producer as CuPy is one: a one-rank maniple array's device
    memory behind __dlpack__ (the emulated device's, or a GPU's), recording
    the stream asked for."""

    def __init__(self, a):
        self.a, self.streams = a, []

    def __dlpack_device__(self):
        return (2, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        self.streams.append(stream)
        return self.a.__dlpack__(max_version=max_version)


@pytest.mark.skipif(not ONE or not DEVICE, reason="one rank, device backend")
@pytest.mark.parametrize("dt", DTYPES)
def test_from_dlpack_device_producer(dt, logging_on):
    ref = _values(dt)
    src = np.asarray(ref)
    for prod, want in ((_DeviceProducer(src), ref), (_DeviceProducer(src[1:, 1::2]), ref[1:, 1::2])):
        maniple.log_reset()
        a = np.from_dlpack(prod)
        d = maniple.log_view()  # copied on the device, never through the host
        assert d["d2h"]["calls"] == 0 and d["h2d"]["calls"] == 0, (d["d2h"], d["h2d"])
        assert prod.streams == [1]  # the legacy default stream, where maniple's kernels run
        assert a.dtype == want.dtype and numpy.array_equal(numpy.asarray(a), want)
    src[0, 0] = 1  # a copy: the new array keeps its values
    assert numpy.array_equal(numpy.asarray(np.from_dlpack(_DeviceProducer(src))), numpy.asarray(src))


class _OtherDevice:
    def __init__(self, kind):
        self.kind = kind

    def __dlpack_device__(self):
        return (self.kind, 0)


def test_from_dlpack_device_producer_refused():
    if not DEVICE:  # the cpu backend: no device memory to copy into
        with pytest.raises(BufferError, match="MANIPLE_BACKEND=cuda"):
            np.from_dlpack(_OtherDevice(2))
    if not ONE or not DEVICE:
        return
    src = np.asarray(numpy.arange(6.0))
    cap = src.__dlpack__()
    from maniple import _core
    a = _core.from_device(cap)  # the capsule is consumed ...
    assert _name(cap) == b"used_dltensor"
    with pytest.raises(TypeError, match="unused DLPack capsule"):
        _core.from_device(cap)  # ... and cannot be taken twice
    del a
    host = numpy.arange(6.0).__dlpack__()
    with pytest.raises(BufferError, match="device type 1"):
        _core.from_device(host)


@pytest.mark.skipif(maniple.backend() != "cuda", reason="a GPU (cuda backend)")
def test_cupy_round_trip():
    """On a GPU: CuPy takes a one-rank maniple array's memory without a
    copy (writes seen both ways), and maniple copies a CuPy array in on the
    device at any rank count."""
    cupy = pytest.importorskip("cupy")
    ref = numpy.arange(60.0).reshape(6, 10)
    c = cupy.asarray(ref)
    a = np.from_dlpack(c)  # every rank holds c whole: each copies its block
    assert numpy.array_equal(numpy.asarray(a), ref)
    c[0, 0] = -1.0  # a copy: a keeps its values
    assert a[0, 0] == 0.0
    s = np.from_dlpack(c[:, 1::3])
    assert numpy.array_equal(numpy.asarray(s), cupy.asnumpy(c[:, 1::3]))
    if not ONE:
        return
    v = cupy.from_dlpack(a)  # zero copy: the same device memory
    assert v.data.ptr == a.__cuda_array_interface__["data"][0]
    v[1, 2] = 42.0
    assert a[1, 2] == 42.0
    a[2, 3] = -7.0
    assert float(v[2, 3]) == -7.0
    w = cupy.asarray(a)  # __cuda_array_interface__
    assert w.data.ptr == v.data.ptr and float(w.sum()) == float(a.sum())
