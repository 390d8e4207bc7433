"""Array creation: zeros, ones, full, empty, *_like, arange, linspace, array."""
import math
import operator
import os

import numpy as _np

from maniple import _core
from maniple import init as _init

from . import _layout
from ._dtypes import INTS as _INTS, Unholdable, check_c_long
from ._engine import _KIND, _check_scalar_into, _complex_warn, _pyscalar
from ._ndarray import ndarray
from ._npzfile import NpzFile
from ._root import into_numpy as _into_numpy
from ._textio import _on_root

_SUPPORTED = tuple(_KIND)


_DT = {}  # dtype arguments already parsed (str(numpy.dtype) costs microseconds a call)


def _dtype_of(dtype):
    """numpy.dtype(dtype), with NumPy's DType classes (numpy.dtypes.Float64DType,
    type(a.dtype)) taken as their dtype, as NumPy's dtype= arguments take
    them (numpy.dtype itself makes such a class an object dtype)."""
    if isinstance(dtype, type) and issubclass(dtype, _np.dtype):
        try:
            return dtype()
        except TypeError:  # a DType class with parameters to fill (void)
            pass
    return _np.dtype(dtype)


def _dt(dtype, default="float64"):
    if dtype is None:
        return default
    try:
        return _DT[dtype]
    except (KeyError, TypeError):  # new, or unhashable
        pass
    nd = _dtype_of(dtype)
    if not nd.isnative:  # a byte order of another machine ('>f8', from a file): the values, in this one's
        nd = nd.newbyteorder("=")
    d = str(nd)
    if d not in _SUPPORTED:
        raise Unholdable(nd)
    if isinstance(dtype, (str, type, _np.dtype)) and len(_DT) < 256:
        _DT[dtype] = d
    return d


def _dim(s):
    """One dimension as NumPy takes it: an integer (no bools, no floats)."""
    if isinstance(s, (bool, _np.bool_)):
        raise TypeError("an integer is required")
    return operator.index(s)


def _shape(shape):
    """A shape argument as NumPy parses it: an integer or a sequence of
    integers, never negative, with NumPy's errors."""
    if shape is None:
        raise TypeError("Use () not None as shape arguments")
    if isinstance(shape, ndarray):
        shape = shape.__array__()
    if not isinstance(shape, (int, _np.integer)) and (isinstance(shape, (tuple, list, range)) or
                                                      (isinstance(shape, _np.ndarray) and shape.ndim)):
        shape = tuple(_dim(s) for s in shape)
    else:
        if isinstance(shape, (bool, _np.bool_, float, _np.floating)):
            raise TypeError(f"expected a sequence of integers or a single integer, got '{shape!r}'")
        shape = (operator.index(shape),)
    for s in shape:
        if s < 0:
            raise ValueError("negative dimensions are not allowed")
    return shape


def _order(order, allowed="CF"):
    """NumPy's memory order argument, checked (_layout gives it effect)."""
    if order is None:
        return
    if not isinstance(order, str):
        raise TypeError(f"order must be str, not {type(order).__name__}")
    if order.upper() not in "CFAK":
        raise ValueError(f"order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    if order.upper() not in allowed:
        raise ValueError("only 'C' or 'F' order is permitted")


def empty(shape, dtype=None, order="C", *, device=None, like=None):
    _init()
    _order(order)
    shape, dtype = _shape(shape), _dt(dtype)
    return _layout.fresh(shape, _f_axes(order, shape), lambda s: ndarray(_core.create(s, dtype)))


def _unset(shape, dtype):
    """A new C-order array whose every element the caller writes (a take's
    result): not zero-filled first, unlike empty's."""
    return ndarray(_core.empty(_shape(shape), _dt(dtype)))


def _f_axes(order, shape):
    """The storage order of a new array asked for in order 'C' or 'F' (_layout)."""
    return tuple(range(len(shape) - 1, -1, -1)) if order in ("F", "f") and len(shape) > 1 else None


def zeros(shape, dtype=None, order="C", *, device=None, like=None):
    return empty(shape, dtype, order)  # maniple arrays start zeroed


def full(shape, fill_value, dtype=None, order="C", *, device=None, like=None):
    _order(order)
    if isinstance(fill_value, ndarray) or (isinstance(fill_value, (list, tuple, _np.ndarray))
                                           and _np.ndim(fill_value) > 0):
        # an array of values broadcast to shape, cast unsafely, as NumPy's copyto
        v = fill_value if isinstance(fill_value, ndarray) else asarray(fill_value)
        a = empty(shape, v._dtype if dtype is None else dtype, order)
        try:
            fits = _np.broadcast_shapes(v.shape, a.shape) == a.shape
        except ValueError:
            fits = False
        if not fits:
            from ._ndarray import _np_shape
            raise ValueError(f"could not broadcast input array from shape {_np_shape(v.shape)} into shape "
                             f"{_np_shape(a.shape)}")
        a[...] = v.astype(a._dtype)
        return a
    if dtype is None:  # NumPy's: the fill value's own dtype (a float32 scalar gives float32)
        dtype = _np.asarray(fill_value).dtype
    a = empty(shape, dtype, order)
    if type(fill_value) is int:  # NumPy's OverflowError for an int the dtype cannot hold (bool: past C long)
        if a._dtype == "bool":
            check_c_long(fill_value, "bool")
        _check_scalar_into(fill_value, a._dtype)
    a._materialize().fill(_pyscalar(fill_value))
    return a


def ones(shape, dtype=None, order="C", *, device=None, like=None):
    return full(shape, 1, _dt(dtype), order)


def _like(a, dtype, shape, order):
    """The shape, dtype and storage order (_layout) of a new array like a."""
    _order(order, "CFAK")
    s = a.shape if shape is None else _shape(shape)
    p = _layout.axes(a, order) if tuple(s) == a.shape else _f_axes(order, s)
    return s, (a.dtype if dtype is None else dtype), p


# NumPy's signatures: (a, dtype, order, subok, shape); subok without effect here
def empty_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, p = _like(asarray(a), dtype, shape, order)
    return _layout.fresh(s, p, lambda t: empty(t, d))


def zeros_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, p = _like(asarray(a), dtype, shape, order)
    return _layout.fresh(s, p, lambda t: zeros(t, d))


def ones_like(a, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, p = _like(asarray(a), dtype, shape, order)
    return _layout.fresh(s, p, lambda t: ones(t, d))


def full_like(a, fill_value, dtype=None, order="K", subok=True, shape=None, *, device=None):
    s, d, p = _like(asarray(a), dtype, shape, order)
    return _layout.fresh(s, p, lambda t: full(t, fill_value, d))


def _arange_length(start, stop, step):
    """NumPy's length: ceil((stop - start) / step), computed on the Python
    (or NumPy) scalars as given, with NumPy's errors."""
    delta = stop - start
    q = delta / step
    if isinstance(q, complex) or _np.iscomplexobj(q):  # NumPy: the shorter of the two parts' lengths
        q = complex(q)
        parts = [_arange_length(0.0, v, 1.0) if v == v else None for v in (q.real, q.imag)]
        if None in parts:
            raise ValueError("arange: cannot compute length")
        return min(parts)
    value = float(q)
    if value == 0.0 and delta != 0:  # underflow: one element or none, by the sign
        return 0 if math.copysign(1.0, value) < 0 else 1
    if value != value:
        raise ValueError("arange: cannot compute length")
    if value in (math.inf, -math.inf) or math.ceil(value) > 2 ** 63 - 1:
        raise ValueError("Maximum allowed size exceeded")
    return max(0, math.ceil(value))


def _wrap(v, dt):
    """The integer v stored in integer dtype dt (two's complement)."""
    bits = _np.iinfo(dt).bits
    return (v + 2 ** (bits - 1)) % 2 ** bits - 2 ** (bits - 1)


_ARANGE_ARGS = ("start", "stop", "step", "dtype")


def arange(*args, start=None, stop=None, step=None, dtype=None, device=None, like=None):
    """NumPy's arange exactly: the length in double, the first two values
    (start and start + step) stored in dtype as NumPy stores them, and the
    rest first + i * (second - first) in dtype (so arange(-2.5, 10,
    dtype=int32) is -2, -1, 0, ..., 10, as NumPy's)."""
    if like is not None:
        raise TypeError("maniple.numpy: arange with like= is not supported")
    if len(args) > 4:
        raise TypeError(f"arange() takes from 0 to 4 positional arguments but {len(args)} were given")
    given = {"start": start, "stop": stop, "step": step, "dtype": dtype}
    for k, (name, v) in enumerate(zip(_ARANGE_ARGS, args)):
        if given[name] is not None:
            raise TypeError(f"argument for arange() given by name ('{name}') and position (position {k})")
        given[name] = v
    start, stop, step, dtype = (given[k] for k in _ARANGE_ARGS)
    if stop is None:
        if not args:
            raise TypeError("arange() requires stop to be specified.")
        start, stop = 0, start
    elif start is None:
        start = 0
    if step is None:
        step = 1
    n = _arange_length(start, stop, step)
    if dtype is None:
        kinds = [_np.asarray(v).dtype.kind for v in (start, stop, step)]
        dtype = "complex128" if "c" in kinds else "float64" if "f" in kinds else "int64"
    dt = _dt(dtype)
    if dt == "bool" and n > 2:
        raise TypeError("arange() is only supported for booleans when the result has at most length 2.")
    if n == 0:
        return empty((0,), dt)
    first = _np.empty(2, dt)  # NumPy's setitem: truncation, its overflow and NaN errors
    first[0] = start
    if n > 1:
        first[1] = start + step
    if n <= 2 or dt == "bool":
        return asarray(first[:n].copy())
    if dt == "float64":  # C's start + k*delta in double is NumPy's fill
        a = empty((n,), dt)
        a._arr.arange(float(first[0]), float(first[1] - first[0]))
        return a
    if dt in ("complex128", "complex64"):  # start + i * delta in complex, as NumPy's fill
        i = empty((n,), "float64" if dt == "complex128" else "float32")
        i._arr.arange(0.0, 1.0)
        return (i * (first[1] - first[0]) + first[0]).astype(dt)
    i = empty((n,), "float32" if dt in ("float32", "float16") else "int64")
    i._arr.arange(0.0, 1.0)
    if dt == "float32":  # NumPy's fill runs in float32: start + (float)i * delta
        return (i * (first[1] - first[0]) + first[0]).copy()
    if dt == "float16":  # in float32 too, from the first two halves, then rounded to half
        f0 = _np.float32(first[0])
        return (i * (_np.float32(first[1]) - f0) + f0).astype("float16")
    # integers: delta in dtype, start + i*delta in intp, stored as dtype
    x0 = int(first[0])
    d = _wrap(int(first[1]) - x0, dt)
    last = x0 + (n - 1) * d
    info = _np.iinfo(dt)
    if max(abs(x0), abs(last)) < 2 ** 53 and info.min <= min(x0, last) and max(x0, last) <= info.max:
        a = empty((n,), dt)
        a._arr.arange(float(x0), float(d))  # exact in double
        return a
    return (i * _np.int64(d) + _np.int64(_wrap(x0, "int64"))).astype(dt)  # (uint64 past int64: its bits)


def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0, *, device=None):
    """NumPy's linspace: computed in the inexact type of start and stop
    (float32 stays float32), k * step + start, the end point exact."""
    num = operator.index(num)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    if _np.ndim(start) or _np.ndim(stop):
        return _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis)
    if axis not in (0, -1):
        raise _np.exceptions.AxisError(axis, 1)
    div = (num - 1) if endpoint else num
    dt = _np.result_type(start, stop, 1.0)
    delta = _np.subtract(stop, start, dtype=dt.type)
    step = delta / div if div > 0 else _np.nan
    out_dt = _dt(dt if dtype is None else dtype)
    if dt == _np.float64 and div > 0 and step != 0:  # C's start + k*step in double is NumPy's
        a = empty((num,), out_dt)
        a._arr.linspace(float(start), float(stop), bool(endpoint))
    else:  # NumPy's steps in dt (float32, or a step that underflows to 0)
        y = arange(0, num, dtype=_dt(dt))
        if div > 0:
            y = y / div * delta if step == 0 else y * step
        else:
            y = y * delta
        y = y + _np.asarray(start, dt)[()]
        if endpoint and num > 1:
            y = y.copy()
            y[-1] = stop
        if out_dt in _INTS:
            from ._functions import UFUNCS
            y = UFUNCS["floor"](y)
        a = y.astype(out_dt) if y._dtype != out_dt or y._expr is not None else y
    return (a, step) if retstep else a


def _linspace_arrays(start, stop, num, endpoint, retstep, dtype, axis):
    """linspace between arrays: the samples along a new axis (first, then
    moved to axis), NumPy's arithmetic in the inexact type of start and stop
    (k * step + start, or k / div * delta where some step is zero)."""
    from ._manipulation import moveaxis
    from ._functions import UFUNCS

    def typed(x):  # an array's dtype, a Python scalar as NumPy's weak one
        return _np.dtype(x._dtype) if isinstance(x, ndarray) else x if isinstance(x, (int, float, complex)) else \
            _np.asarray(x).dtype
    dt = _np.result_type(typed(start), typed(stop), 1.0)
    dts = _dt(dt)
    start, stop = asarray(start).astype(dts), asarray(stop).astype(dts)
    delta = stop - start
    div = (num - 1) if endpoint else num
    y = arange(0, num, dtype=dts).reshape((-1,) + (1,) * delta.ndim)
    if div > 0:
        step = delta / div
        y = y / div * delta if bool((step == 0).any()) else y * step
    else:
        step = _np.nan
        y = y * delta
    y = y + start
    if endpoint and num > 1:
        y = y.copy()
        y[-1, ...] = stop
    if axis != 0:
        y = moveaxis(y, 0, axis)
    out_dt = dts if dtype is None else _dt(dtype)
    if out_dt in _INTS:
        y = UFUNCS["floor"](y)
    y = y.astype(out_dt) if y._dtype != out_dt or y._expr is not None else y
    return (y, step) if retstep else y


def asarray(x, dtype=None, order=None, *, device=None, copy=None, like=None):
    """x as a maniple array. NumPy arrays and sequences must be the same on
    every rank (SPMD); each rank keeps its own part. order 'C' or 'F' copies
    an array laid out otherwise (_layout), as NumPy's."""
    if order is not None or copy:
        return _asarray_in(x, dtype, order, copy)
    if isinstance(x, ndarray):
        return x if dtype is None or str(_np.dtype(dtype)) == x._dtype else x.astype(dtype)
    x = _via_array_method(x)
    if isinstance(x, ndarray):
        return asarray(x, dtype)
    y = _np.asarray(x, dtype=dtype)
    if dtype is None and y.dtype.kind == "f" and y.dtype.itemsize > 8:
        raise Unholdable(y.dtype)
    if y.flags.fnc:  # Fortran's order kept, as NumPy's asarray
        return asarray(y.T).T  # (the transpose's C order: _layout)
    d = _dt(y.dtype)
    if d == "bool":  # bytes other than 0 and 1 (a view of other data) stored as True
        y = y.view(_np.uint8) != 0
    a = empty(y.shape, d)
    a._arr.set_global(_np.ascontiguousarray(y, dtype=d))
    return a


_KDL_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged


def from_dlpack(x, /, *, device=None, copy=None):
    """An array with the values of x, any object exporting memory through
    DLPack, copied into a distributed array as asarray does; x must be the
    same on every rank. Host producers (NumPy, PyTorch on the CPU) go
    through numpy.from_dlpack. A CUDA producer (CuPy, PyTorch on a GPU) is
    copied on the device, each rank its block, on a device backend; the cpu
    backend refuses it, since its arrays live in host memory."""
    if copy is False:
        raise BufferError("maniple.numpy.from_dlpack copies the values into a distributed array")
    if isinstance(x, ndarray):
        return x.copy()
    where = getattr(x, "__dlpack_device__", None)
    if where is not None and where()[0] in _KDL_CUDA:
        _init()
        if _core.backend() == "cpu":
            raise BufferError(f"from_dlpack: x is in CUDA device memory (DLPack device {tuple(where())}), but "
                              "the cpu backend keeps arrays in host memory: run with MANIPLE_BACKEND=cuda, or "
                              "copy x to the host first (cupy.asnumpy)")
        # maniple's kernels run on the legacy default stream (DLPack's 1):
        # the producer orders its work before it
        try:
            cap = x.__dlpack__(stream=1, max_version=(1, 0))
        except TypeError:  # a producer older than DLPack 1.0's keywords
            cap = x.__dlpack__(stream=1)
        return ndarray(_core.from_device(cap))
    return asarray(_np.from_dlpack(x))


def _via_array_method(x):
    """x, or what its __array__ gives when x is another kind of object: a
    class whose __array__ returns a maniple array (a script's array-like
    after its import changed) gives that array, which NumPy's asarray would
    refuse as "not producing an array"."""
    if type(x) in (list, tuple, _np.ndarray) or isinstance(x, (ndarray, _np.generic, int, float, complex)):
        return x
    f = getattr(type(x), "__array__", None)
    return x if f is None else f(x)


def _asarray_in(x, dtype, order, copy):
    """asarray/array of x in memory order order (_layout), copied when copy
    is true or when x is laid out otherwise."""
    _order(order, "CFAK")
    x = _via_array_method(x)
    if not isinstance(x, ndarray):
        y = _np.asarray(x, dtype=dtype)
        if order in ("C", "c"):
            y = _np.ascontiguousarray(y)
        r = asarray(y)  # (a NumPy array in F order stays so)
        return r if order not in ("F", "f") or r.ndim < 2 or r.flags.f_contiguous else \
            _layout.laid_out(r, _f_axes("F", r.shape))
    if copy or not _layout.satisfies(x, order):
        dt = x._dtype if dtype is None else str(_np.dtype(dtype))
        if order is None or (order in ("A", "a") and dt != x._dtype):
            order = "K"  # NumPy's array casts an 'A' copy keeping the layout
        return x.astype(dt, order=order)
    return asarray(x, dtype)


def array(x, dtype=None, copy=True, order="K", subok=False, ndmin=0, like=None):
    r = _asarray_in(x, dtype, order, copy)
    ndmin = operator.index(ndmin)
    if ndmin > 32:
        raise ValueError(f"ndmin bigger than allowable number of dimensions NPY_MAXDIMS (=64)")
    return r[(None,) * (ndmin - r.ndim)] if ndmin > r.ndim else r


def copy(a, order="K", subok=False):
    """NumPy's copy: order 'K' (the default) keeps a's memory order (_layout)."""
    return asarray(a).copy(order)


@_into_numpy("copyto")
def copyto(dst, src, casting="same_kind", where=True):
    """NumPy's copyto: src broadcast into dst, cast under casting, where
    where is true."""
    from ._engine import _assign, _ternary
    from ._ndarray import _check_writable
    if not isinstance(dst, ndarray):
        raise TypeError("copyto: destination must be a maniple array")
    _check_writable(dst)
    if isinstance(src, (bool, int, float, complex)) and not isinstance(src, _np.generic):
        src = _python_scalar_into(src, dst._dtype, casting)
    else:
        sa = src if isinstance(src, ndarray) else _np.asarray(src)
        sdt = sa.dtype.name if isinstance(sa, _np.ndarray) else sa._dtype
        if not _np.can_cast(sdt, dst._dtype, casting):
            what = "scalar" if not sa.ndim else "array data"
            raise TypeError(f"Cannot cast {what} from dtype('{sdt}') to dtype('{dst._dtype}') according to the "
                            f"rule '{casting}'")
    if where is True:
        _assign(dst._materialize(), src)
    else:
        _assign(dst._materialize(), _ternary("where", asarray(where), src, dst).astype(dst._dtype))



_PY_DTYPE = {bool: "bool", int: "int64", float: "float64", complex: "complex128"}  # (NumPy's for a Python scalar)


def _python_scalar_into(v, dtype, casting):
    """NumPy 2's checks of a Python scalar copied into an array of dtype
    (a weak scalar: any value of dtype's kind or a lower one passes, but an
    integer must fit), and the value to write."""
    t = _np.dtype(dtype)
    if type(v) is int and t.kind in "biu":
        check_c_long(v, dtype)
    if casting != "unsafe" and _KIND[_PY_DTYPE[type(v)]] > _KIND[dtype]:
        name = _np.result_type(t, _np.complex64).name if type(v) is complex and t.kind == "f" else _PY_DTYPE[type(v)]
        raise TypeError(f"Cannot cast scalar from dtype('{name}') to dtype('{dtype}') according to the rule "
                        f"'{casting}'")
    if type(v) is complex and t.kind in "iuf":
        _complex_warn("complex128", dtype)
        v = v.real
    if type(v) in (float, complex) and t.kind in "biu":  # (unsafe) NumPy's cast of the value, NaN included
        return _np.float64(v) if type(v) is float else _np.complex128(v)
    if type(v) is int and t.kind == "b":
        return bool(v)
    _check_scalar_into(v, dtype)
    return v


def eye(N, M=None, k=0, dtype=None, order="C", *, device=None, like=None):
    """Ones on the k-th diagonal: a fused comparison of broadcast aranges."""
    M = N if M is None else M
    N, M = _shape((N, M))  # NumPy's zeros((N, M)) and its errors
    if not k >= M:
        k = operator.index(k)
    _order(order, "CF")
    r = arange(N)[:, None]
    c = arange(M)[None, :]
    e = ((c - r) == k).astype(_dt(dtype))
    return e.copy(order="F") if order in ("F", "f") else e


def identity(n, dtype=None, *, like=None):
    return eye(n, dtype=dtype)


def meshgrid(*xi, copy=True, sparse=False, indexing="xy"):
    """numpy.meshgrid: each input flattened and laid along its own axis (the
    first two swapped for 'xy'); sparse keeps those 1-long axes, otherwise
    they are broadcast; copy=False gives views of the inputs (NumPy's
    broadcast views, writes warning), copy=True new arrays. A tuple, as
    NumPy 2 returns."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    n = len(xi)
    ones_ = (1,) * n
    out = [asarray(x).reshape(ones_[:i] + (-1,) + ones_[i + 1:]) for i, x in enumerate(xi)]
    if indexing == "xy" and n > 1:
        out[0] = out[0].reshape((1, -1) + ones_[2:])
        out[1] = out[1].reshape((-1, 1) + ones_[2:])
    if not sparse:
        from ._manipulation import broadcast_arrays
        out = broadcast_arrays(*out)
    if copy:
        out = [x.copy() for x in out]
    return tuple(out)


def _is_file_object(file, what):
    return hasattr(file, "write" if what == "save" else "read")


def save(file, arr, allow_pickle=True, fix_imports=True):
    """numpy.save, collectively: every rank writes its part of the named
    file, which appears at its name only once complete (docs/python.md). An
    open file object is written by rank 0 only (the array gathered there),
    as savez and savetxt write; load reads it back through rank 0 too."""
    if _is_file_object(file, "save"):
        return _on_root(_np.save, (file, asarray(arr)), {"allow_pickle": allow_pickle})
    path = os.fsdecode(os.fspath(file))
    if not path.endswith(".npy"):
        path += ".npy"
    a = asarray(arr)
    if a.flags.fnc:  # NumPy writes Fortran's order as it is
        a.T._materialize().save_npy(path, True)
    else:
        a._materialize().save_npy(path)


def _is_zip(path):
    """Whether rank 0 sees a zip archive at path (NumPy tells by the magic,
    not the name); decided on rank 0 so that every rank takes one path."""
    def probe():
        try:
            with open(path, "rb") as f:
                return f.read(4) in (b"PK\x03\x04", b"PK\x05\x06")
        except OSError:
            return False  # the collective reader raises NumPy's error everywhere
    return _on_root(probe, (), {})


def load(file, mmap_mode=None, allow_pickle=False, fix_imports=True, encoding="ASCII", *, max_header_size=10000):
    """numpy.load of a .npy file, collectively: every rank reads its part.
    A file missing or unreadable on any rank raises the OSError NumPy would
    (FileNotFoundError, IsADirectoryError, PermissionError) on every rank; a
    file that differs between ranks raises OSError saying how. A .npz archive
    and an open file object are read by rank 0 with NumPy and the arrays
    scattered. mmap_mode 'r' gives a read-only array and 'c' a writable one,
    both read into memory; 'r+' and 'w+' are refused, since writes through
    them would have to reach the file."""
    if mmap_mode not in (None, "r", "c", "r+", "w+"):
        raise ValueError(f"mode must be one of ['r', 'c', 'r+', 'w+'] (got {mmap_mode!r})")
    if mmap_mode in ("r+", "w+"):
        raise NotImplementedError(f"maniple.numpy: load with mmap_mode={mmap_mode!r} is not implemented "
                                  "(writes through the map would have to reach the file); 'r' and 'c' read "
                                  "the file into memory")
    kwargs = {"allow_pickle": allow_pickle, "fix_imports": fix_imports, "encoding": encoding,
              "max_header_size": max_header_size}
    if _is_file_object(file, "load"):
        opened = []

        def read():
            r = _np.load(file, **kwargs)
            if isinstance(r, _np.lib.npyio.NpzFile):
                opened.append(r)  # kept open on rank 0, read member by member
                return None
            return r
        a = _on_root(read, (), {})
        if a is None:
            return NpzFile(opened.pop, getattr(file, "name", repr(file)))
    else:
        path = os.fsdecode(os.fspath(file))
        _init()
        if _is_zip(path):
            return NpzFile(lambda: _np.load(path, **kwargs), path)
        if max_header_size != 10000:
            raise NotImplementedError("maniple.numpy.load reads headers of up to 10000 characters (NumPy's "
                                      "default max_header_size), no other limit")
        h, fortran = _core.load_npy(path)
        a = ndarray(h).T if fortran else ndarray(h)  # a Fortran-ordered file stays so, as NumPy's load keeps it
    if mmap_mode == "r" and isinstance(a, ndarray):
        a.setflags(write=False)
    return a
