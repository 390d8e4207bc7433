"""Names about types, shapes and settings rather than data: dtype
aliases, type queries that accept maniple arrays, print options (maniple
prints through NumPy, so they apply), and creation from Python data that
every rank holds alike (SPMD)."""
import builtins
import inspect as _inspect

import numpy as _np

from . import _views
from ._creation import _dt, asarray
from ._dtypes import FLOATS as _FLOATS
from ._ndarray import ndarray

# scalar types maniple arrays hold (NumPy's own classes, so that
# isinstance and issubdtype keep working), and the abstract ones above them
bool = _np.bool  # noqa: A001 (NumPy 2's name)
double, single = _np.float64, _np.float32
intc, int_, intp, long, longlong = _np.int32, _np.int64, _np.intp, _np.long, _np.longlong
byte, short, ubyte, ushort, uintc = _np.byte, _np.short, _np.ubyte, _np.ushort, _np.uintc
uint, uintp, ulong, ulonglong = _np.uint, _np.uintp, _np.ulong, _np.ulonglong
generic, number, integer, signedinteger, unsignedinteger, inexact, floating = (
    _np.generic, _np.number, _np.integer, _np.signedinteger, _np.unsignedinteger, _np.inexact, _np.floating)
# settings and constants-like helpers with no array data
finfo, iinfo, isdtype, issubdtype, isscalar = _np.finfo, _np.iinfo, _np.isdtype, _np.issubdtype, _np.isscalar
promote_types, min_scalar_type, mintypecode = _np.promote_types, _np.min_scalar_type, _np.mintypecode
errstate, geterr, seterr, geterrcall, seterrcall = _np.errstate, _np.geterr, _np.seterr, _np.geterrcall, _np.seterrcall
getbufsize, setbufsize = _np.getbufsize, _np.setbufsize
get_printoptions, set_printoptions, printoptions = _np.get_printoptions, _np.set_printoptions, _np.printoptions
format_float_positional, format_float_scientific = _np.format_float_positional, _np.format_float_scientific
base_repr, binary_repr, typename, ndindex = _np.base_repr, _np.binary_repr, _np.typename, _np.ndindex
get_include = _np.get_include  # C extensions see maniple arrays through NumPy's buffer protocol
# NumPy's own objects, re-exported: they take no array data (types, shapes,
# settings), so they work with maniple as they are
NO_DATA = ("finfo", "iinfo", "isdtype", "issubdtype", "isscalar", "promote_types", "min_scalar_type", "mintypecode",
           "errstate", "geterr", "seterr", "geterrcall", "seterrcall", "getbufsize", "setbufsize",
           "get_printoptions", "set_printoptions", "printoptions", "format_float_positional",
           "format_float_scientific", "base_repr", "binary_repr", "typename", "ndindex", "get_include")


def _dtypes_of(args):
    return [_np.dtype(a._dtype) if isinstance(a, ndarray) else a for a in args]


def result_type(*arrays_and_dtypes):
    return _np.result_type(*_dtypes_of(arrays_and_dtypes))


def can_cast(from_, to, casting="safe"):
    return _np.can_cast(_np.dtype(from_._dtype) if isinstance(from_, ndarray) else from_, to, casting)


def common_type(*arrays):
    return _np.common_type(*[_np.empty(0, a._dtype) if isinstance(a, ndarray) else a for a in arrays])


def ndim(a):
    return a.ndim if isinstance(a, ndarray) else _np.ndim(a)


def shape(a):
    return a.shape if isinstance(a, ndarray) else _np.shape(a)


def size(a, axis=None):
    """numpy.size: the element count, or the extents of the axes given."""
    if not isinstance(a, ndarray):
        return _np.size(a, axis)
    return _np.size(_np.broadcast_to(_np.empty((), _np.int8), a.shape), axis)  # NumPy's axis rules, no data


def isfortran(a):
    """NumPy's: Fortran-contiguous and not C-contiguous (a transposed view
    of a C-ordered array; a 1-d array is not Fortran)."""
    f = a.flags if isinstance(a, ndarray) else _np.asarray(a).flags
    return bool(f.f_contiguous and not f.c_contiguous)


class _Extent:
    """A NumPy array interface at a made-up address (never read): where a
    maniple array's elements lie in its root storage, for NumPy's overlap
    solver."""

    def __init__(self, a):
        root, off, st = _views.memory(a._arr)
        self.root = root
        self.__array_interface__ = {"shape": a.shape, "typestr": _np.dtype(a._dtype).str, "version": 3,
                                    "data": ((1 << 40) + off, False), "strides": st}


def _overlap(a, b, np_fn, max_work):
    if not isinstance(a, ndarray) and not isinstance(b, ndarray):
        return np_fn(a, b) if max_work is None else np_fn(a, b, max_work=max_work)
    if not (isinstance(a, ndarray) and isinstance(b, ndarray)) or not a.size or not b.size:
        return False  # a maniple array and anything else: other memory
    if a._expr is not None or b._expr is not None:
        return a is b  # a pending result gets fresh storage of its own
    ea, eb = _Extent(a), _Extent(b)
    if ea.root != eb.root:
        return False
    xa, xb = _np.asarray(ea), _np.asarray(eb)
    return builtins.bool(np_fn(xa, xb) if max_work is None else np_fn(xa, xb, max_work=max_work))


def shares_memory(a, b, max_work=None):
    """NumPy's shares_memory: whether some element of a lies where one of b
    does (views, reshapes that NumPy makes views and complex parts share
    their source's memory, as in NumPy), decided by NumPy's own solver over
    where the elements lie: no data is read and nothing is sent."""
    return _overlap(a, b, _np.shares_memory, max_work)


def may_share_memory(a, b, max_work=None):
    """NumPy's may_share_memory: whether the memory bounds of a and b
    overlap (max_work as NumPy's)."""
    return _overlap(a, b, _np.may_share_memory, max_work)


def astype(x, dtype, /, *, copy=True, device=None):
    return asarray(x).astype(dtype, copy=copy)


def asanyarray(a, dtype=None, order=None, *, like=None):
    return asarray(a, dtype, order)


def ascontiguousarray(a, dtype=None, *, like=None):
    """a as a C-contiguous array, at least 1-d (a copy if it is laid out
    otherwise, _layout)."""
    from ._ndarray import _reshaped
    a = asarray(a, dtype, "C")
    return a if a.ndim else _reshaped(a, (1,))


def asarray_chkfinite(a, dtype=None, order=None):
    a = asarray(a, dtype)
    if a._dtype in _FLOATS and not builtins.bool(_np.isfinite(a).all()):
        raise ValueError("array must not contain infs or NaNs")
    return a


def frombuffer(buffer, dtype=float, count=-1, offset=0, *, like=None):
    """From a buffer every rank holds alike; each rank keeps its part."""
    return asarray(_np.frombuffer(buffer, dtype=_dt(dtype), count=count, offset=offset))


def fromiter(iter, dtype, count=-1, *, like=None):
    return asarray(_np.fromiter(iter, dtype=_dt(dtype), count=count))


def fromfunction(function, shape, *, dtype=float, like=None, **kwargs):
    """function(*indices) with maniple index arrays: evaluated distributed."""
    from ._select import indices
    idx = indices(shape, dtype=dtype)
    return function(*[idx[k] for k in range(len(shape))], **kwargs)


_REQUIREMENTS = {"C": "C", "C_CONTIGUOUS": "C", "CONTIGUOUS": "C", "F": "F", "F_CONTIGUOUS": "F",
                 "FORTRAN": "F", "A": "A", "ALIGNED": "A", "W": "W", "WRITEABLE": "W", "O": "O", "OWNDATA": "O",
                 "E": "E", "ENSUREARRAY": "E"}


def require(a, dtype=None, requirements=None, *, like=None):
    """numpy.require: a (a copy when it must own its data or be writeable
    and is not) of dtype, C- or Fortran-contiguous when asked (_layout)."""
    reqs = set() if requirements is None else {_REQUIREMENTS[r.upper()] for r in
                                                 ([requirements] if isinstance(requirements, str) else requirements)}
    if "C" in reqs and "F" in reqs:
        raise ValueError("Cannot specify both C and Fortran contiguous.")
    order = "C" if "C" in reqs else "F" if "F" in reqs else None
    r = asarray(a, dtype, order)
    if ("O" in reqs and not r.flags.owndata) or ("W" in reqs and not r.flags.writeable):
        r = r.copy("K" if order is None else order)
    return r


def asfortranarray(a, dtype=None, *, like=None):
    """a as a Fortran-contiguous array, at least 1-d (a copy if it is laid
    out otherwise: storage of the reversed shape, seen transposed, _layout)."""
    from ._ndarray import _reshaped
    a = asarray(a, dtype, "F")
    return a if a.ndim else _reshaped(a, (1,))


def array2string(a, *args, **kwargs):
    """NumPy's text of the array gathered (as printing is)."""
    return _np.array2string(_np.asarray(a), *args, **kwargs)


def array_repr(arr, *args, **kwargs):
    return _np.array_repr(_np.asarray(arr), *args, **kwargs)


def array_str(a, *args, **kwargs):
    return _np.array_str(_np.asarray(a), *args, **kwargs)


class broadcast:
    """numpy.broadcast: the broadcast shape of the arguments (no data
    moved); iterating it walks the elements of the arguments gathered."""

    def __init__(self, *arrays, **kwargs):
        if kwargs:
            raise ValueError("keyword arguments not accepted.")
        args = []
        for a in arrays:  # a broadcast argument stands for its arrays, as NumPy's
            args.extend(a._args if isinstance(a, broadcast) else
                        [i.base for i in a.iters] if isinstance(a, _np.broadcast) else [a])
        if len(args) > 64:
            raise ValueError("Need at least 0 and at most 64 array objects.")
        self._args = tuple(args)
        self.shape = _np.broadcast_shapes(*[_np.shape(a) for a in args])
        self.nd = self.ndim = len(self.shape)
        self.size = int(_np.prod(self.shape, dtype=_np.int64))
        self.numiter = len(args)
        self._it = None

    def _np(self):
        if self._it is None:
            self._it = _np.broadcast(*[_np.asarray(a) for a in self._args])
        return self._it

    @property
    def index(self):
        return 0 if self._it is None else self._it.index

    @property
    def iters(self):
        return self._np().iters

    def reset(self, /):
        if self._it is not None:
            self._it.reset()

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._np())


broadcast.__signature__ = _inspect.Signature(  # NumPy's: keywords are refused
    [_inspect.Parameter("arrays", _inspect.Parameter.VAR_POSITIONAL)])


class ndenumerate:
    """numpy.ndenumerate over the array gathered: (index, value) pairs in C
    order."""
    _mn_kind = "gathered"

    def __init__(self, arr):
        self._it = _np.ndenumerate(_np.asarray(arr))

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._it)


def fromstring(string, dtype=float, count=-1, *, sep, like=None):
    """From text every rank holds alike (SPMD); each rank keeps its part."""
    return asarray(_np.fromstring(string, dtype=_dt(dtype), count=count, sep=sep))


def fromfile(file, dtype=float, count=-1, sep="", offset=0, *, like=None):
    """A binary file named by a path is read in parts: each rank reads its
    own elements (the default split) and no rank holds the whole array.
    Text (sep given) and open file objects are read by NumPy on every rank
    alike, each rank keeping its part."""
    import os
    dt = _np.dtype(dtype)
    if sep == "" and isinstance(file, (str, bytes, os.PathLike)):
        from maniple import _core
        from maniple.sparse import _dist
        avail = (os.path.getsize(file) - offset) // dt.itemsize
        n = avail if count < 0 else min(count, avail)
        start, c = _dist.split(n)
        loc = _np.fromfile(file, dtype=dt, count=c, offset=offset + start * dt.itemsize)
        return ndarray(_core.concat_local(_dt(dt), loc.tobytes()))
    return asarray(_np.fromfile(file, dtype=dt, count=count, sep=sep, offset=offset))


def show_config(mode="stdout"):
    """NumPy's configuration (maniple's build: maniple.backend(), docs)."""
    return _np.show_config(mode)


def show_runtime():
    return _np.show_runtime()


def info(object=None, maxwidth=76, output=None, toplevel="numpy"):
    return _np.info(object, maxwidth, output, toplevel)


class nditer:
    """numpy.nditer over the operands gathered (every rank iterates the
    whole arrays alike). Maniple operands flagged readwrite or writeonly
    get the gathered copy's values back when the iteration ends (the
    loop's end, iternext() returning False, close() or the with block's
    exit); `operands` gives maniple arrays."""
    _mn_kind = "gathered"

    def __init__(self, op, flags=None, op_flags=None, *args, **kwargs):
        ops = list(op) if isinstance(op, (list, tuple)) else [op]
        self._targets = [o if isinstance(o, ndarray) else None for o in ops]
        gathered = [_np.asarray(o) if isinstance(o, ndarray) else o for o in ops]
        nops = len(ops)
        if op_flags is None:
            fl = [["readonly"]] * nops
        elif op_flags and isinstance(op_flags[0], str):
            fl = [op_flags] * nops
        else:
            fl = list(op_flags)
        self._write = [t is not None and any(f in ("readwrite", "writeonly") for f in fl[i])
                       for i, t in enumerate(self._targets)]
        arg = gathered if isinstance(op, (list, tuple)) else gathered[0]
        self._it = _np.nditer(arg, flags, op_flags, *args, **kwargs)
        self._done = False

    def _write_back(self):
        if self._done:
            return
        self._done = True
        for t, w, v in zip(self._targets, self._write, self._it.operands):
            if w:
                t[...] = asarray(_np.array(v))

    def __iter__(self):
        return self

    def __next__(self):
        try:
            return next(self._it)
        except StopIteration:
            self._write_back()
            raise

    def iternext(self):
        more = self._it.iternext()
        if not more:
            self._write_back()
        return more

    def __enter__(self):
        self._it.__enter__()
        return self

    def __exit__(self, *exc):
        self._write_back()
        return self._it.__exit__(*exc)

    def close(self):
        self._write_back()
        self._it.close()

    @property
    def operands(self):
        return tuple(t if t is not None and not w else asarray(_np.array(v))
                     for t, w, v in zip(self._targets, self._write, self._it.operands))

    def __getitem__(self, i):
        return self._it[i]

    def __setitem__(self, i, v):
        self._it[i] = v

    def __len__(self):
        return len(self._it)

    def __getattr__(self, name):
        return getattr(self._it, name)
