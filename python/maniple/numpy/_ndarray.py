"""The distributed ndarray, NumPy's array on maniple: either concrete (a
maniple._core.Array, possibly a view) or deferred (an element-wise
expression tree over concrete arrays, kept by the engine, _engine).

Deferred expressions are evaluated fused, in one pass, when a value is
needed: assignment into an array, a reduction, printing, __array__, or
indexing.
"""
import builtins
import functools
import math
import operator
import sys
import weakref

import numpy as _np

from maniple import _core

from . import _collect, _engine, _layout, _views, _warn
from ._dtypes import COMPLEX as _COMPLEX, INEXACT as _INEXACT, INTS as _INTS, Unholdable, check_cast
from ._engine import (_CAN_CAST_SAME_KIND, _INTEGER, _assign, _binary, _check_scalar_into, _flush, _prep, _pyscalar,
                      _scalar, _unary, _wrote)
from ._engine import GROUP_MIN as _GROUP_MIN  # noqa: F401 (tests read it here)

# NumPy float64 scalar (op) array: the operators that go straight to _binary
_SCALAR_OPS = {_np.add: "add", _np.subtract: "subtract", _np.multiply: "multiply", _np.true_divide: "true_divide"}

_refcount = sys.getrefcount

# modules that import this one, for the methods: bound once the package has
# loaded them (_late_imports), since an import in a method costs about
# 1 us a call
_functions = _indexing = _manipulation = _math = _products = _reductions = _root = _select = _sorting = None


def _late_imports():
    global _functions, _indexing, _manipulation, _math, _products, _reductions, _root, _select, _sorting
    from . import _functions, _indexing, _manipulation, _math, _products, _reductions, _root, _select, _sorting


def _np_shape(shape):
    """A shape as NumPy's C messages write it: (3,4), (3,)."""
    return "(" + ",".join(map(str, shape)) + ("," if len(shape) == 1 else "") + ")"


def _lead_ones_dropped(value, ndim):
    """NumPy's assignment drops a value's leading length-1 axes beyond the
    target's (a[...] = ones((1, 3, 2)) into a (3, 2) array)."""
    if not isinstance(value, (ndarray, _np.ndarray)) or value.ndim <= ndim:
        return value
    shape = value.shape
    k = 0
    while len(shape) - k > ndim and shape[k] == 1:
        k += 1
    return value.reshape(shape[k:]) if k else value


def _view_of(src, h, linked=False):
    """h, a view of src's memory, as an array whose base is src's owner.
    linked: h is storage of its own kept in step with src's (_views), which
    the base holds weakly, so that the link still ends with its source."""
    b = getattr(src, "_np_base", None)
    if type(b) is weakref.ref:
        b = b()
    if b is None:
        b = src
    r = ndarray(h)
    r._np_base = weakref.ref(b) if linked else b
    # a view of a subclass is of that subclass, finalized from src, as NumPy's views are
    return r if type(src) is ndarray else _as_type(r, type(src), src)


_CoreArray = _core.Array


def _finalized(o, src):
    """o with its class's __array_finalize__(src) called, if it has one."""
    fin = getattr(o, "__array_finalize__", None)
    if fin is not None:
        fin(src)
    return o


def _highest_priority(objs):
    """The first of objs whose type's __array_priority__ is highest: the
    one whose type NumPy's __array_wrap__ gives a result."""
    best = objs[0]
    for x in objs[1:]:
        if type(x).__array_priority__ > type(best).__array_priority__:
            best = x
    return best


def _as_type(r, cls, src):
    """r, a fresh maniple array, as an instance of cls (maniple's ndarray or
    a subclass of it), cls's __array_finalize__(src) called, as NumPy's
    view(cls) does. r is evaluated first: the engine keeps a pending array
    itself, not a copy of its fields."""
    if cls is type(r):
        return r
    r._materialize()
    o = object.__new__(cls)
    o._take_slots(r, True)
    return _finalized(o, src)


def _base_view(a):
    """a (an instance of a subclass of ndarray) evaluated, as maniple's own
    ndarray over the same storage: what the engine's type tests expect."""
    return _as_type(a, ndarray, None)


def _is_sub(a):
    return type(a) is not ndarray and isinstance(a, ndarray)


def _keeps_subclass(fn):
    """fn, given instances of ndarray subclasses, computes on them as
    maniple's ndarray and returns its array result as the type of the
    argument with the highest __array_priority__ (the first on a tie), as
    NumPy's ufuncs and reductions wrap theirs; results written into out=
    are out itself."""
    @functools.wraps(fn)
    def call(*args, **kwargs):
        for a in args:  # (inline: the plain call's only cost)
            if type(a) is not ndarray and isinstance(a, ndarray):
                break
        else:
            if not _is_sub(kwargs.get("out")):
                return fn(*args, **kwargs)  # (no subclass: the plain call)
        subs = [a for a in args if _is_sub(a)]
        out = kwargs.get("out")
        args = tuple(_base_view(a) if _is_sub(a) else a for a in args)
        if out is not None:
            if _is_sub(out):
                kwargs["out"] = _base_view(out)  # (same storage: writes reach out)
            r = fn(*args, **kwargs)
            return out if r is kwargs["out"] else r
        best = _highest_priority(subs)

        def wrap(r):
            if isinstance(r, (builtins.bool, int, float, complex, _np.generic)):
                from ._creation import asarray
                r = asarray(r)  # (a subclass's whole reduction: a 0-d array of it, as NumPy's)
            return _as_type(r, type(best), best) if type(r) is ndarray else r
        r = fn(*args, **kwargs)
        return tuple(wrap(x) for x in r) if type(r) is tuple else wrap(r)  # (average's returned= pair)
    return call


def _from_shape(self, shape, dtype, buffer, offset, strides, order):
    if buffer is not None or strides is not None or offset:
        raise NotImplementedError("maniple.numpy.ndarray: buffer=, offset= and strides= are not supported "
                                  "(a distributed array owns its memory); use asarray(numpy.ndarray(...))")
    from ._creation import empty
    self._take_slots(empty(shape, float if dtype is None else dtype, "C" if order is None else order), True)


class ndarray:
    """A distributed array with NumPy's semantics."""

    __slots__ = ("_arr", "_expr", "_shape", "_dtype", "_bases", "_n", "_cell", "_cost", "_big", "_ro",
                 "_np_base", "_fe", "__weakref__")
    __array_priority__ = 100

    def __init__(self, arr, dtype=None, buffer=None, offset=0, strides=None, order=None, *more, **kw):
        """A concrete array on arr (a maniple._core.Array); pending arrays
        are made by the engine. NumPy's form, ndarray(shape, dtype=float,
        order='C'), makes an uninitialised array as empty() does."""
        if type(arr) is not _CoreArray or more or kw:
            if type(self) is not ndarray and hasattr(self, "_shape"):
                return  # a subclass's __new__ made it (as a view): NumPy's ndarray has no __init__ to run after
            if more or kw:
                raise TypeError(f"ndarray() takes at most 6 arguments and no keywords {sorted(kw)}")
            _from_shape(self, arr, dtype, buffer, offset, strides, order)
            return
        self._arr, self._expr, self._cell, self._cost = arr, None, None, 1
        self._shape, self._dtype, self._bases, self._n = tuple(arr.shape), arr.dtype, (), 1
        self._big = False

    # ---- evaluation (_engine) ----
    def _materialize(self):
        if self._expr is not None:
            _engine._evaluate(self)
        return self._arr

    def _node(self):
        """This array as an expression node (concrete arrays are leaves)."""
        return _engine._node_of(self)

    # ---- attributes ----
    @property
    def shape(self):
        return self._shape

    @shape.setter
    def shape(self, value):
        """NumPy's in-place reshape: only where NumPy's reshape is a view
        (the array then holds that view: writes still reach its storage)."""
        shp = _new_shape(tuple(value) if isinstance(value, (tuple, list)) else (value,), self.size)
        if shp == self._shape:
            return
        if not _views.numpy_view(self._materialize(), shp):
            raise AttributeError("Incompatible shape for in-place modification. Use `.reshape()` to make a copy with "
                                 "the desired shape.")
        r = self.reshape(shp)
        self._arr, self._shape = r._arr, r._shape

    @property
    def ndim(self):
        return len(self._shape)

    @property
    def base(self):
        """The array whose memory this view's elements lie in, None for an
        array that owns its memory (NumPy's: the first owner up a chain of
        views)."""
        b = getattr(self, "_np_base", None)
        return b() if type(b) is weakref.ref else b

    @property
    def size(self):
        n = 1
        for s in self._shape:
            n *= s
        return n

    @property
    def dtype(self):
        return _np.dtype(self._dtype)

    @property
    def itemsize(self):
        return self.dtype.itemsize

    @property
    def nbytes(self):
        return self.size * self.itemsize

    @property
    def T(self):
        return self.transpose()

    @property
    def flags(self):
        return _Flags(self)

    def setflags(self, write=None, align=None, uic=None):
        """write=False makes this array read-only (its later views too);
        write=True undoes only that (NumPy's error for views it made
        read-only itself, as broadcast_to's)."""
        if uic is not None and uic:
            raise ValueError("cannot set WRITEBACKIFCOPY flag to True")
        if write is None:
            return
        ro = getattr(self, "_ro", False)
        if write:
            if ro and ro not in ("set", "warn"):  # (True: views NumPy makes read-only itself)
                raise ValueError("cannot set WRITEABLE flag to True of this array")
            self._ro = False
        else:
            self._ro = "set"

    @property
    def device(self):
        return "cpu"  # NumPy's name for its arrays' device (the Array API's)

    def to_device(self, device, /, *, stream=None):
        if device != "cpu":
            raise ValueError(f"Unsupported device {device!r}. Only 'cpu' is accepted.")
        if stream is not None:
            raise ValueError("The stream argument in to_device() is not supported")
        return self

    def __array_namespace__(self, *, api_version=None):
        import maniple.numpy
        return maniple.numpy

    @property
    def mT(self):
        if len(self._shape) < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        from ._manipulation import matrix_transpose
        return matrix_transpose(self)

    # a real array's .real is the array itself (as NumPy's view of a real
    # array, writes go through) and its .imag zeros that cannot be set; a
    # complex array's parts behave as NumPy's views: each is storage of its
    # own linked to the array (_views), so a write into either shows in the
    # other, and setting one writes the array
    @property
    def real(self):
        return self._part("real") if self._dtype in _COMPLEX else self

    def _part(self, name):
        _collect.before_reshape()  # links live and die alike on every rank
        v = _unary(name, self)
        if not isinstance(v, ndarray):  # a 0-d array's part is a 0-d array, as NumPy's
            from ._creation import asarray
            v = asarray(v)
        p = v._materialize()
        _views.link(self._materialize(), p, _views.strides(self._arr), part=name)
        return _view_of(self, p, linked=True)

    @real.setter
    def real(self, value):
        if self._dtype in _COMPLEX:
            v = _prep(value)
            if isinstance(v, ndarray) and v._dtype in _COMPLEX:
                v = _unary("real", v)
            value = _binary("complex", v, _unary("imag", self))
        self[...] = value

    @property
    def imag(self):
        if self._dtype in _COMPLEX:
            return self._part("imag")
        from ._creation import zeros
        z = zeros(self._shape, self._dtype)
        z.setflags(write=False)  # NumPy's is a read-only view: writes are an error, not lost
        return z

    @imag.setter
    def imag(self, value):
        if self._dtype not in _COMPLEX:
            raise TypeError("array does not have imaginary part to set")
        v = _prep(value)
        if isinstance(v, ndarray) and v._dtype in _COMPLEX:
            v = _unary("real", v)
        self[...] = _binary("complex", _unary("real", self), v)

    def __len__(self):
        if not self._shape:
            raise TypeError("len() of unsized object")
        return self._shape[0]

    # ---- conversion to NumPy and Python ----
    def __array__(self, dtype=None, copy=None):
        """The whole array on every rank (never only the local block)."""
        if copy is False:  # NumPy 2's protocol: a gathered copy is the only way
            raise ValueError("Unable to avoid copy while creating an array as requested.")
        a = self._materialize()
        if a.is_view and len(self._shape) > 1:  # another memory order (an F-ordered array is a transposed view):
            p = _layout.axes(self, "K")       # NumPy's array in the same order, as numpy.asarray keeps it
            if p is not None:
                return self.transpose(p).__array__(dtype).transpose(_layout.inverse(p))
        x = _np.frombuffer(a.allgather(), dtype=self._dtype).reshape(self._shape).copy()
        return x if dtype is None else x.astype(dtype, copy=False)

    # ---- sharing memory without a copy (one rank: a distributed array
    # has no single buffer, so these raise BufferError there) ----
    def __dlpack_device__(self):
        """(kDLCUDA, 0) on a device backend, (kDLCPU, 0) on the cpu one."""
        return (1, 0) if _core.backend() == "cpu" else (2, 0)

    def __dlpack__(self, *, stream=None, max_version=None, dl_device=None, copy=None):
        """A DLPack capsule of the array's memory (numpy.from_dlpack,
        cupy.from_dlpack, torch.from_dlpack), alive while the consumer's
        array is. On the cpu backend the values then stay in host memory.
        maniple's kernels run on the device's legacy default stream, which
        every blocking stream waits for, so no stream is synchronised."""
        dev = self.__dlpack_device__()
        if dl_device is not None and tuple(dl_device) != dev:
            raise BufferError(f"maniple arrays are on device {dev}, not {tuple(dl_device)}")
        a = (self.copy() if copy else self)._materialize()
        return a.dlpack(dev[0] != 1, max_version is not None and tuple(max_version) >= (1, 0))

    @property
    def __cuda_array_interface__(self):
        """The array's device memory (version 3), as CuPy and Numba take it:
        on a device backend and one rank only."""
        if _core.backend() == "cpu":
            raise AttributeError("the array is in host memory (cpu backend): no __cuda_array_interface__")
        a = self._materialize()
        ptr, strides = a.local_block(True)
        it = _np.dtype(self._dtype).itemsize
        st = tuple(k * it for k in strides)
        dense = tuple(it * int(_np.prod(self._shape[d + 1:], dtype=_np.int64)) for d in range(len(self._shape)))
        return {"shape": tuple(self._shape), "typestr": _np.dtype(self._dtype).str, "data": (ptr, False),
                "strides": None if st == dense else st, "version": 3, "stream": 1}

    def get(self):
        """The whole array as a NumPy array (as CuPy's get())."""
        return self.__array__()

    def tolist(self):
        return self.__array__().tolist()

    def item(self, *args):
        if len(args) == 1 and isinstance(args[0], (int, _np.integer)):  # a flat index, as NumPy's
            n = self.size
            k = operator.index(args[0])
            if not -n <= k < n:
                raise IndexError(f"index {k} is out of bounds for size {n}")
            from ._select import take
            return take(self, k).item()
        if args:
            return self[args if len(args) > 1 else args[0]].item()
        if self.size != 1:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        a = self._materialize()
        return a.get((0,) * self.ndim)

    def _scalar_of(self):
        """The value of a 0-d array (NumPy 2.4: only 0-d arrays convert)."""
        if self._shape:
            raise TypeError("only 0-dimensional arrays can be converted to Python scalars")
        return self.item()

    def __float__(self):
        return float(self._scalar_of())

    def __int__(self):
        return int(self._scalar_of())

    def __complex__(self):
        return complex(self._scalar_of())

    def __index__(self):
        if self._dtype not in _INTEGER or self._shape:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return int(self.item())

    def __format__(self, spec):
        if not self._shape:  # a 0-d array formats as its value, as NumPy's
            return format(_scalar(self.item(), self._dtype), spec)
        if spec:
            raise TypeError("unsupported format string passed to numpy.ndarray.__format__")
        return str(self)

    def __copy__(self):
        return self.copy()  # never a second handle on the same storage

    def __deepcopy__(self, memo):
        return self.copy()

    def __delitem__(self, key):
        raise ValueError("cannot delete array elements")

    __class_getitem__ = classmethod(lambda cls, item: __import__("types").GenericAlias(cls, item))

    def __contains__(self, value):
        return bool((self == value).any())  # NumPy's definition

    def __bool__(self):
        if self.size != 1:
            if not self.size:
                raise ValueError("The truth value of an empty array is ambiguous. Use `array.size > 0` to check "
                                 "that an array is not empty.")
            raise ValueError("The truth value of an array with more than one element is ambiguous. "
                             "Use a.any() or a.all()")
        return bool(self.item())

    def __repr__(self):
        return repr(self.__array__()).replace("array(", "array(", 1)

    def __str__(self):
        return str(self.__array__())

    def __iter__(self):
        if not self._shape:
            raise TypeError("iteration over a 0-d array")
        for i in range(self._shape[0]):
            yield self[i]

    # ---- NumPy protocols (strict, as CuPy): NumPy functions called on
    # maniple arrays run in maniple (natively, gathered or as an announced
    # fallback), or fail; they never run silently on a gathered copy
    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if not kwargs and method == "__call__" and len(inputs) == 2:  # a NumPy float64 scalar's operator:
            name = _SCALAR_OPS.get(ufunc)  # the ufunc's own call, less the dispatch (_binary weighs the scalar)
            x, y = inputs
            if name and type(x) is _np.float64 and type(y) is ndarray:
                return _engine._binary(name, x, y)
        name = {"divide": "true_divide", "abs": "absolute"}.get(ufunc.__name__, ufunc.__name__)
        fn = _functions.UFUNCS.get(name)
        out = kwargs.pop("out", None)
        if fn is None and method == "__call__":  # maniple.numpy's function of that name (clip, a fallback)
            import maniple.numpy as mnp
            impl = getattr(mnp, ufunc.__name__, None)
            if callable(impl) and not isinstance(impl, type) and impl is not ufunc:  # (NumPy's own, as isnat)
                if out is not None and ufunc.nout == 1:
                    out = out[0]
                return impl(*inputs, out=out, **kwargs)
        if fn is None and method == "__call__" and out is None and \
                all(isinstance(x, (ndarray, _np.ndarray, _np.generic, int, float, complex, bool)) for x in inputs):
            from ._functional import foreign_ufunc  # scipy.special's, frompyfunc's: on each rank's elements
            return foreign_ufunc(ufunc, inputs, kwargs)
        if fn is None:
            return NotImplemented
        if out is not None:  # NumPy passes a tuple of ufunc.nout entries; a NumPy
            # array there gets the whole result, as NumPy would write it
            if len(out) != ufunc.nout or not all(o is None or isinstance(o, (ndarray, _np.ndarray)) for o in out):
                return NotImplemented
            if ufunc.nout == 1:
                out = out[0]
        if method == "__call__":
            return fn(*inputs, out=out, **kwargs)  # where=, casting=, dtype= as maniple's ufuncs take them
        m = getattr(fn, method, None)  # reduce, accumulate, outer, at, reduceat
        if m is None:
            return NotImplemented
        if out is not None:
            kwargs["out"] = out
        return m(*inputs, **kwargs)

    def __array_function__(self, func, types, args, kwargs):
        import maniple.numpy as mnp
        mod = func.__module__ or ""
        if not (mod == "numpy" or mod.startswith("numpy.")) or \
                not all(issubclass(t, (ndarray, _np.ndarray)) for t in types):
            return NotImplemented
        space = mnp  # numpy.linalg.norm -> maniple.numpy.linalg.norm
        for part in mod.split(".")[1:]:
            space = getattr(space, part, None)
            if space is None:
                return NotImplemented
        impl = getattr(space, func.__name__, None)
        if impl is None or not callable(impl) or isinstance(impl, type):
            return NotImplemented
        if impl is func:  # NumPy's own in maniple.numpy (asmatrix, isnat, ...): on the gathered arrays
            from ._root import everywhere
            return func(*everywhere(args), **everywhere(kwargs))
        return impl(*args, **kwargs)

    # ---- indexing ----
    def _items(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        nreal = sum(1 for k in key if k is not None and k is not Ellipsis)
        if sum(1 for k in key if k is Ellipsis) > 1:
            raise IndexError("an index can only have a single ellipsis ('...')")
        if nreal > self.ndim:
            raise IndexError(f"too many indices for array: array is {self.ndim}-dimensional, "
                             f"but {nreal} were indexed")
        items, axis, bad_slice = [], 0, None
        for k in key:
            if k is Ellipsis:
                for _ in range(self.ndim - nreal):
                    items.append(("s", None, None, None))
                    axis += 1
            elif k is None:
                items.append(("n",))
            elif isinstance(k, slice):
                n = self._shape[axis]
                try:
                    start, stop, step = k.indices(n)
                except TypeError as e:  # a float bound: NumPy's TypeError, after its IndexErrors
                    bad_slice = bad_slice or e
                    axis += 1
                    continue
                if len(range(start, stop, step)) == 0:
                    # empty: k.indices gives start -1 for a negative step
                    # from below the axis, which the core reads as the last element
                    start, stop, step = 0, 0, 1
                elif step < 0 and stop < 0:
                    stop = None  # runs through element 0
                items.append(("s", start, stop, step))
                axis += 1
            elif isinstance(k, (int, _np.integer)) and not isinstance(k, (bool, _np.bool_)):
                n = self._shape[axis]
                if not -n <= int(k) < n:
                    raise IndexError(f"index {int(k)} is out of bounds for axis {axis} with size {n}")
                items.append(("i", int(k)))
                axis += 1
            elif isinstance(k, ndarray) and k.ndim == 0 and k._dtype in _INTS:
                items.append(("i", int(k.item())))
                axis += 1
            else:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                                 f"integer or boolean arrays are valid indices (got {type(k).__name__})")
        if bad_slice is not None:
            raise bad_slice
        return items

    def __getitem__(self, key):
        if type(key) is int and len(self._shape) == 1:  # a[i]: one element, no view made
            n = self._shape[0]
            if not -n <= key < n:
                raise IndexError(f"index {key} is out of bounds for axis 0 with size {n}")
            a = self._arr if self._expr is None else self._materialize()
            return _scalar(a.get((key + n if key < 0 else key,)), self._dtype)
        if _indexing.is_advanced_key(key):
            return _indexing.getitem(self, key)
        a = self._materialize()
        v = _view_of(self, a.index(self._items(key)))
        if v.ndim == 0 and not (key is Ellipsis or type(key) is tuple and Ellipsis in key):
            return _scalar(v._arr.get(()), v._dtype)  # NumPy's scalar for one element (a 0-d view with ...)
        ro = getattr(self, "_ro", False)
        if ro:
            v._ro = ro
        return v

    def __setitem__(self, key, value):
        _check_writable(self)
        if _indexing.is_advanced_key(key):
            return _indexing.setitem(self, key, value)
        a = self._materialize()
        target = a.index(self._items(key))
        _assign(target, _lead_ones_dropped(value, len(target.shape)))

    # ---- element-wise arithmetic ----
    def __add__(self, o): return _binary("add", self, o, True)
    def __radd__(self, o): return _binary("add", o, self, True)
    def __sub__(self, o): return _binary("subtract", self, o, True)
    def __rsub__(self, o): return _binary("subtract", o, self, True)
    def __mul__(self, o): return _binary("multiply", self, o, True)
    def __rmul__(self, o): return _binary("multiply", o, self, True)
    def __truediv__(self, o): return _binary("true_divide", self, o, True)
    def __rtruediv__(self, o): return _binary("true_divide", o, self, True)
    def __floordiv__(self, o): return _binary("floor_divide", self, o, True)
    def __rfloordiv__(self, o): return _binary("floor_divide", o, self, True)
    def __mod__(self, o): return _binary("remainder", self, o, True)
    def __rmod__(self, o): return _binary("remainder", o, self, True)
    def __pow__(self, o):
        t = type(o)
        if (t is float or t is int) and (o == 0.5 or o == -1) and self._dtype in _INEXACT:
            # NumPy's operator takes these Python exponents as sqrt and reciprocal (-0.0 ** 0.5 is -0.0)
            return _unary("sqrt" if o == 0.5 else "reciprocal", self)
        if t is not float and (t is not int or o < 0):  # a scalar exponent: nothing to check
            _check_power(self, o)
        r = _power_fast(self, o, True)
        return _binary("power", self, o, True) if r is None else r

    def __rpow__(self, o): return _power(o, self, True)
    def __and__(self, o): return _binary("bitwise_and", self, o, True)
    def __rand__(self, o): return _binary("bitwise_and", o, self, True)
    def __or__(self, o): return _binary("bitwise_or", self, o, True)
    def __ror__(self, o): return _binary("bitwise_or", o, self, True)
    def __xor__(self, o): return _binary("bitwise_xor", self, o, True)
    def __rxor__(self, o): return _binary("bitwise_xor", o, self, True)
    def __lshift__(self, o): return _binary("left_shift", self, o, True)
    def __rlshift__(self, o): return _binary("left_shift", o, self, True)
    def __rshift__(self, o): return _binary("right_shift", self, o, True)
    def __rrshift__(self, o): return _binary("right_shift", o, self, True)
    def __lt__(self, o): return _binary("less", self, o, True)
    def __le__(self, o): return _binary("less_equal", self, o, True)
    def __gt__(self, o): return _binary("greater", self, o, True)
    def __ge__(self, o): return _binary("greater_equal", self, o, True)
    def __eq__(self, o):
        if o is None or type(o) is str:  # NumPy: nothing equals them
            return self._constant(False)
        return _binary("equal", self, o, True)

    def __ne__(self, o):
        if o is None or type(o) is str:
            return self._constant(True)
        return _binary("not_equal", self, o, True)

    def _constant(self, v):
        from ._creation import full
        r = full(self._shape, v, "bool")
        return r[()] if not self._shape else r
    def __matmul__(self, o):
        if getattr(type(o), "_mn_sparse", False):  # maniple.sparse's reflected product
            return NotImplemented
        return _products.matmul(self, o)

    def __rmatmul__(self, o):
        return _products.matmul(o, self)

    def __imatmul__(self, o):
        r = _products.matmul(self, o)
        if r.shape != self._shape:
            d = next((k for k in (-1, -2) if len(r.shape) >= -k and len(self._shape) >= -k and
                      r.shape[k] != self._shape[k]), None)
            if d is None:
                raise ValueError(f"matmul result of shape {r.shape} cannot be stored in an array of shape "
                                 f"{self._shape}")
            raise ValueError(f"matmul: Output operand 0 has a mismatch in its core dimension {d + 2}, with gufunc "
                             f"signature (n?,k),(k,m?)->(n?,m?) (size {self._shape[d]} is different from {r.shape[d]})")
        if not _np.can_cast(r.dtype, self.dtype, "same_kind"):  # NumPy's in-place rule (a float into ints)
            raise _functions._cast_error("matmul", r.dtype, self.dtype)
        self[...] = r
        return self

    def __divmod__(self, o):
        return _math.divmod(self, o)

    def __rdivmod__(self, o):
        return _math.divmod(o, self)

    def __neg__(self): return _unary("negative", self)
    def __pos__(self): return _unary("positive", self)
    def __abs__(self): return _unary("absolute", self)
    def __invert__(self): return _unary("invert", self)
    __hash__ = None

    def _inplace(self, name, o):
        _check_writable(self)
        if name == "power":
            _check_power(self, o)
        pending = self._expr is not None  # (computing r may store it: decided before)
        r = _power_fast(self, o, True) if name == "power" else None
        r = _binary(name, self, o) if r is None else r
        if type(r) is ndarray:
            if r._dtype not in _CAN_CAST_SAME_KIND[self._dtype]:  # NumPy's error, before anything changes
                from ._functions import _cast_error
                square = name == "power" and self._dtype == "bool" and type(o) is int and o == 2  # (_power_fast's)
                raise _cast_error("square" if square else name, r._dtype, self._dtype)
            if pending:  # nothing else holds this value yet
                if r._dtype != self._dtype:
                    r = r.astype(self._dtype)
                _engine._take_over(self, r)
                return self
            _assign(self._arr, r, same_kind=True)
            return self
        if r is NotImplemented:  # a maniple.sparse operand: its reflected operator
            return r
        rdt = str(getattr(r, "dtype", self._dtype))  # a 0-d result (a NumPy scalar)
        if rdt not in _CAN_CAST_SAME_KIND[self._dtype]:
            from ._functions import _cast_error
            raise _cast_error(name, rdt, self._dtype)
        _assign(self._materialize(), r, same_kind=True)
        return self

    def __iadd__(self, o): return self._inplace("add", o)
    def __isub__(self, o): return self._inplace("subtract", o)
    def __imul__(self, o): return self._inplace("multiply", o)
    def __itruediv__(self, o): return self._inplace("true_divide", o)
    def __ifloordiv__(self, o): return self._inplace("floor_divide", o)
    def __imod__(self, o): return self._inplace("remainder", o)
    def __ipow__(self, o): return self._inplace("power", o)
    def __iand__(self, o): return self._inplace("bitwise_and", o)
    def __ior__(self, o): return self._inplace("bitwise_or", o)
    def __ixor__(self, o): return self._inplace("bitwise_xor", o)
    def __ilshift__(self, o): return self._inplace("left_shift", o)
    def __irshift__(self, o): return self._inplace("right_shift", o)

    # ---- methods ----
    def astype(self, dtype, order="K", casting="unsafe", subok=True, copy=True):
        if not copy and dtype.__class__ is str and dtype == self._dtype and order == "K":
            return self  # (the callers' common case, before any import or check)
        from ._creation import _dt, _order
        try:
            dt = _dt(dtype)  # the one supported-dtype check and message
        except Unholdable as e:  # object, str, ...: NumPy's array, on every rank, for a script's call
            from ._unholdable import call
            from ._warn import from_script
            if not from_script():
                raise  # (maniple's own calls: the function that made them hands itself to NumPy)
            return call(lambda a: a.astype(dtype, order, casting, subok, copy), (self,), {}, e.dtype, "astype")
        _order(order, "CFAK")
        check_cast(self._dtype, dt, casting)
        if dt == self._dtype and not copy and _layout.satisfies(self, order):
            return self
        return _layout.laid_out(self, _layout.axes(self, order), lambda t: _engine._cast(t, dt))

    def copy(self, order="C"):
        if order != "C":
            from ._creation import _order
            _order(order, "CFAK")
            p = _layout.axes(self, order)
            if p is not None:
                return _layout.laid_out(self, p)
        out = _core.empty(self._shape, self._dtype)  # evaluate writes every element
        _core.evaluate(_engine._compile(self._node()), out)
        return ndarray(out)

    def fill(self, value):
        _check_writable(self)
        if isinstance(value, (ndarray, _np.ndarray)) and value.ndim == 0:
            value = value[()]  # a 0-d array is its value
        elif isinstance(value, (ndarray, _np.ndarray, list, tuple)):
            raise ValueError("setting an array element with a sequence.")
        _check_scalar_into(value, self._dtype)
        a = self._materialize()
        _flush(a.base)
        a.fill(_pyscalar(value))
        _wrote(a.base)

    def reshape(self, *shape, order="C"):
        """NumPy's reshape: a view where NumPy gives one (writes through it
        reach this array and back, _views), else a copy."""
        _collect.before_reshape()  # what each rank holds is decided alike
        count = _refcount(self)  # first: a temporary's reshape needs no link
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = _new_shape(shape, self.size)
        if _f_order(order, self, reshaping=True):  # Fortran order: the transposes' C order
            return self.T.reshape(shape[::-1]).T
        return self._reshape(shape, count)

    def _reshape(self, shape, count, ravel=False):
        self._materialize()
        temporary = _views.is_temporary(count, self._arr)  # before any other name holds the handle
        a = self._arr
        if ravel and not _views.contiguous(a):
            return ndarray(a.reshape(shape))  # NumPy's ravel copies a non-contiguous array
        h, view = _views.reshape(a, shape, temporary)
        # NumPy's result is a view (owndata False, its base this array's),
        # whatever storage holds it
        r = _view_of(self, h, linked=h.base != a.base) if view else ndarray(h)
        ro = getattr(self, "_ro", False)
        if ro and view:
            r._ro = ro
        return r

    def ravel(self, order="C"):
        _collect.before_reshape()
        count = _refcount(self)
        if _f_order(order):
            return self.T.ravel()
        p = _layout.axes(self, order) if order in ("A", "a", "K", "k") else None
        if p is not None:  # memory order: the axes as they lie in storage
            return self.transpose(p).ravel()
        return self._reshape((self.size,), count, ravel=True)

    def flatten(self, order="C"):
        if _f_order(order):
            return self.T.flatten()
        p = _layout.axes(self, order) if order in ("A", "a", "K", "k") else None
        if p is not None:
            return self.transpose(p).flatten()
        return ndarray(self._materialize().reshape((self.size,))) if self.ndim != 1 else self.copy()

    def transpose(self, *axes):
        if len(axes) == 1 and (axes[0] is None or _np.iterable(axes[0])):
            axes = axes[0]
        if axes is not None and len(axes):
            # NumPy's checks, in its order and with its messages
            axes = tuple(operator.index(x) for x in axes)
            n = len(self._shape)
            if len(axes) != n:
                raise ValueError("axes don't match array")
            for x in axes:
                if not -n <= x < n:
                    raise _np.exceptions.AxisError(x, n)
            axes = tuple(x % n for x in axes)
            if len(set(axes)) != n:
                raise ValueError("repeated axis in transpose")
        a = self._materialize()
        return _view_of(self, a.transpose(tuple(axes) if axes else None))

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return _functions.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return _functions.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def min(self, axis=None, out=None, keepdims=False, **kw):
        return _functions.min(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def max(self, axis=None, out=None, keepdims=False, **kw):
        return _functions.max(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        return _functions.argmin(self, axis, out, keepdims=keepdims)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        return _functions.argmax(self, axis, out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False, **kw):
        return _functions.any(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def all(self, axis=None, out=None, keepdims=False, **kw):
        return _functions.all(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        return _functions.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        return _functions.var(self, axis, dtype, out, ddof, keepdims, **kw)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        return _functions.std(self, axis, dtype, out, ddof, keepdims, **kw)

    def cumsum(self, axis=None, dtype=None, out=None):
        return _sorting.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        return _sorting.cumprod(self, axis, dtype, out)

    def dot(self, other, out=None):
        return _products.dot(self, other, out)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """In place, as NumPy's method."""
        self[...] = _sorting.sort(self, axis, kind, order)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        return _sorting.argsort(self, axis, kind, order)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        self[...] = _sorting.partition(self, kth, axis)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        return _sorting.argpartition(self, kth, axis)

    def searchsorted(self, v, side="left", sorter=None):
        return _sorting.searchsorted(self, v, side, sorter)

    def nonzero(self):
        return _indexing.nonzero(self)

    def take(self, indices, axis=None, out=None, mode="raise"):
        return _select.take(self, indices, axis, out, mode)

    def put(self, indices, values, mode="raise"):
        _select.put(self, indices, values, mode)

    def compress(self, condition, axis=None, out=None):
        return _select.compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode="raise"):
        return _select.choose(self, choices, out, mode)

    def repeat(self, repeats, axis=None):
        return _manipulation.repeat(self, repeats, axis)

    def squeeze(self, axis=None):
        return _manipulation.squeeze(self, axis)

    def swapaxes(self, axis1, axis2):
        return _manipulation.swapaxes(self, axis1, axis2)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        return _products.diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        return _products.trace(self, offset, axis1, axis2, dtype, out)

    def round(self, decimals=0, out=None):
        return _math.round(self, decimals, out)

    def conj(self):
        # real: NumPy's ndarray.conj returns the array itself
        return _unary("conjugate", self) if self._dtype in _COMPLEX else self

    conjugate = conj

    def clip(self, min=None, max=None, out=None, **kwargs):
        if "a_min" in kwargs or "a_max" in kwargs:
            min, max = kwargs.pop("a_min", min), kwargs.pop("a_max", max)
        if kwargs:
            raise TypeError(f"clip() got unexpected keyword arguments {sorted(kwargs)}")
        return _functions.clip(self, min, max, out=out)

    def ptp(self, axis=None, out=None, keepdims=False):
        return _reductions.ptp(self, axis, out, keepdims)

    def tobytes(self, order="C"):
        """The bytes gathered, in order ('A': Fortran's for an F-ordered array, _layout)."""
        if order in ("A", "a") and _layout.axes(self, "A") is not None:
            order = "F"
        return self.__array__().tobytes(order)

    def tofile(self, fid, sep="", format="%s"):
        """Written by rank 0 from the array gathered there (every rank calls
        it); its error (a missing directory) is raised on every rank, as
        NumPy's, where it used to leave the others waiting."""
        _root.call(lambda x: x.tofile(fid, sep, format), (self,))

    def dumps(self):
        """pickle bytes of the array gathered (they load as a NumPy array)"""
        import pickle
        return pickle.dumps(self.__array__(), protocol=2)

    def dump(self, file):
        """the pickle written by rank 0 (every rank calls it), as tofile"""
        import pickle

        def write(x):
            if isinstance(file, (str, bytes)) or hasattr(file, "__fspath__"):
                with open(file, "wb") as f:
                    pickle.dump(x, f, protocol=2)
            else:
                pickle.dump(x, file, protocol=2)
        _root.call(write, (self,))

    def byteswap(self, inplace=False):
        """the bytes of each element reversed, rank by rank on its own
        elements (in place: written into this array)"""
        from maniple import _core
        flat = self.reshape(self.size).astype(self._dtype, copy=True)._materialize()
        loc = _np.frombuffer(flat.local_values()[1], dtype=self._dtype).byteswap()
        r = _reshaped(ndarray(_core.concat_local(self._dtype, loc.tobytes())), self._shape)
        if inplace:
            self[...] = r
            return self
        return r

    def view(self, dtype=None, type=None):
        """A view (dtype and type None, this dtype, or maniple's ndarray); the
        elements' bits read as another dtype (NumPy's reinterpretation and
        its rules for another item size: the last axis rescaled) as a
        read-only copy, since writes through it could not reach this array."""
        if isinstance(dtype, builtins.type) and issubclass(dtype, (_np.ndarray, ndarray)):
            dtype, type = None, dtype  # NumPy's a.view(SomeArrayType)
        if type is not None and not issubclass(type, ndarray):
            raise NotImplementedError(f"maniple.numpy: view as {type.__name__}: a maniple array cannot be viewed as "
                                      "a NumPy ndarray subclass (np.asarray(a).view(...) gathers it)")
        nd = None if dtype is None else _np.dtype(dtype)
        if nd is None or nd == _np.dtype(self._dtype):
            r = _view_of(self, self._materialize().index([("s", None, None, None)] * self.ndim))
            return r if type is None else _as_type(r, type, self)
        from ._creation import _dt
        _dt(nd)  # a supported dtype, or the one message naming it
        from maniple import _core
        old = _np.dtype(self._dtype).itemsize
        shape = self._shape
        if nd.itemsize != old:  # NumPy's checks, then the last axis rescaled
            if not shape:
                raise ValueError("Changing the dtype of a 0d array is only supported if the itemsize is unchanged")
            if self._expr is None and shape[-1] != 1 and _views.strides(self._materialize())[-1] != 1:
                raise ValueError("To change to a dtype of a different size, the last axis must be contiguous")
            if shape[-1] * old % nd.itemsize:
                raise ValueError("When changing to a larger dtype, its size must be a divisor of the total size in "
                                 "bytes of the last axis of the array.")
            shape = shape[:-1] + (shape[-1] * old // nd.itemsize,)
        flat = self.reshape(self.size).astype(self._dtype, copy=True)._materialize()
        # each rank reinterprets whole new elements: its share of the flat
        # copy in groups of the elements one new element spans
        from maniple.sparse import _dist
        g = max(1, nd.itemsize // old)
        loc = _np.frombuffer(flat.split_local(_dist.split(self.size // g)[1] * g), dtype=self._dtype).view(nd)
        if nd == _np.bool_:  # bytes other than 0 and 1 stored as True (kernels compare bools bytewise)
            loc = loc.view(_np.uint8) != 0
        r = _reshaped(ndarray(_core.concat_local(nd.name, loc.tobytes())), shape)
        r._ro = True
        return r if type is None else _as_type(r, type, self)

    @property
    def flat(self):
        return flatiter(self)

    @flat.setter
    def flat(self, value):  # a.flat = v: every element, v cycled
        flatiter(self)[...] = value

    def resize(self, *new_shape, refcheck=True):
        """NumPy's in-place resize: the elements in memory order, cut or
        padded with zeros, in a new shape; this array takes the new
        storage (on every rank alike). Only an array owning its data, and
        with refcheck, referenced from one place, as NumPy's."""
        refs = sys.getrefcount(self)  # (the caller's name, self here, getrefcount's argument)
        if not new_shape or new_shape == (None,):  # NumPy: no change
            return
        if len(new_shape) == 1 and isinstance(new_shape[0], (tuple, list)):
            new_shape = tuple(new_shape[0])
        shape = tuple(operator.index(d) for d in new_shape)
        if builtins.any(d < 0 for d in shape):
            raise ValueError("negative dimensions not allowed")
        f = self.flags
        if math.prod(shape) == self.size:  # NumPy's new shape over the same memory, owned or not
            if not (f.c_contiguous or f.f_contiguous):
                raise ValueError("resize only works on single-segment arrays")
            self._take_slots(self.reshape(shape, order="F" if not f.c_contiguous else "C"), True)
            return
        if not f.owndata:
            if f.f_contiguous and not f.c_contiguous:
                raise NotImplementedError("maniple.numpy: in-place resize of an F-ordered array is not supported "
                                          "(use numpy.resize)")
            raise ValueError("resize only works on single-segment arrays" if not (f.c_contiguous or f.f_contiguous)
                             else "cannot resize this array: it does not own its data")
        if refcheck and refs > 3:
            raise ValueError("cannot resize an array that references or is referenced\nby another object in this "
                             "way.\nUse the np.resize function to get a new resized copy or\n set refcheck=False "
                             "to disable this check")
        from ._creation import zeros
        n = builtins.min(self.size, math.prod(shape))
        made = zeros(shape, self._dtype)
        if n:
            made.reshape(-1)[:n] = self.ravel()[:n]  # (written through)
        self._take_slots(made, False)

    def _take_slots(self, made, view):
        """This array becomes made (a new instance, or resize), keeping its
        read-only flag; view: made's NumPy base too, else made owns its
        data."""
        ro = getattr(self, "_ro", False)
        for k in ndarray.__slots__[:-1]:
            if hasattr(made, k) and (view or k != "_np_base"):
                setattr(self, k, getattr(made, k))
            elif hasattr(self, k):
                delattr(self, k)
        if ro:
            self._ro = ro

    def __reduce__(self):
        """Pickled as NumPy's array of the values (gathered: a collective,
        as every call here), unpickled as a maniple array again."""
        return (_unpickle, (self.__array__(),))


def _unpickle(values):
    from ._creation import asarray
    return asarray(values)


def _flat_key(key, assigning):
    """NumPy 2.4's index rules for a flat iterator: one index; no None, no
    list of bools (a bool array is a mask)."""
    if isinstance(key, tuple):
        if len(key) > 1:
            raise IndexError(f"too many indices for flat iterator: flat iterator is 1-dimensional, but {len(key)} "
                             "were indexed")
        if not key:
            if assigning:
                raise IndexError("Assigning to a flat iterator with a 0-D index is not supported")
            return Ellipsis
        key = key[0]
    if key is None:
        raise IndexError("only integers, slices (`:`), ellipsis (`...`) and integer or boolean arrays are valid "
                         "indices")
    if isinstance(key, list) and key and all(isinstance(k, (bool, _np.bool_)) for k in key):
        raise IndexError("boolean indices for iterators are not supported because of previous behavior that was "
                         "confusing (valid boolean indices are expected to work in the future)")
    return key


class flatiter:
    """a.flat: iteration and indexing over the elements in C order."""

    def __init__(self, a):
        self.base = a
        self._it = None  # next()'s elements: the whole array, read once

    def __len__(self):
        return self.base.size

    def __iter__(self):
        for x in _flat(self.base).__array__():
            yield _scalar(x, self.base._dtype)

    def __next__(self):
        if self._it is None:
            self._it = self.__iter__()
        return next(self._it)

    def copy(self):
        """The elements as a new 1-d array, as NumPy's flatiter.copy."""
        return _flat(self.base).copy()

    def __array__(self, dtype=None, copy=None):
        return self.base.__array__(dtype).ravel()

    def __getitem__(self, key):
        return _flat(self.base)[_flat_key(key, False)]

    def __setitem__(self, key, value):
        key = _flat_key(key, True)
        if key is Ellipsis:
            key = slice(None)
        if isinstance(key, slice):
            from ._creation import arange
            idx = arange(*key.indices(self.base.size))
            _select.put(self.base, idx, value)
        elif isinstance(key, (int, _np.integer)):
            n = self.base.size
            if not -n <= int(key) < n:
                raise IndexError(f"index {int(key)} is out of bounds for axis 0 with size {n}")
            from ._engine import _check_values_into
            try:
                _check_values_into(value, self.base._dtype)
            except OverflowError:  # NumPy's error for one flat element
                raise ValueError("Error setting single item of array.") from None
            _select.put(self.base, [int(key) % n], value)
        elif getattr(key, "dtype", None) == _np.bool_ or getattr(key, "_dtype", None) == "bool":
            # a mask over the flat elements: its True positions, the values cycled as put cycles them
            if len(key.shape) != 1:
                raise IndexError(f"too many indices for flat iterator: flat iterator is 1-dimensional, but "
                                 f"{len(key.shape)} were indexed")
            if key.shape[0] != self.base.size:
                raise IndexError(f"boolean index did not match indexed flat iterator along axis 0; size of axis is "
                                 f"{self.base.size} but size of corresponding boolean axis is {key.shape[0]}")
            from ._indexing import nonzero
            from ._creation import asarray
            _select.put(self.base, nonzero(asarray(key))[0], value)
        else:
            _select.put(self.base, key, value)

# ---- helpers shared with the function modules ----
def _f_order(order, a=None, reshaping=False):
    """order (checked as NumPy's) is Fortran's: 'F', or 'A' for a (when
    reshaping) Fortran-contiguous and not C-contiguous."""
    from ._creation import _order
    _order(order, "CFAK")
    if reshaping and order is not None and order.upper() == "K":
        raise ValueError("order 'K' is not permitted for reshaping")
    if order is None:
        return False
    o = order.upper()
    return o == "F" or (o == "A" and a is not None and _layout.axes(a, "A") is not None)


def _flat(a):
    """a as 1-d (a itself when it is; else a new array): for internal use,
    where the copy is not the user's concern, so no warning."""
    return a if a.ndim == 1 else ndarray(a._materialize().reshape((a.size,)))


def _part_of(x, name):
    """x's real or imaginary part for maniple's own computations: a fused
    expression, not the linked part `.real`/`.imag` give (only a part a
    script holds must follow writes; that costs a copy and a link)."""
    if not isinstance(x, ndarray):  # a 0-d operation's NumPy scalar
        return getattr(x, name)
    if x._dtype in _COMPLEX:
        return _unary(name, x)
    if name == "real":
        return x
    from ._creation import zeros
    return zeros(x._shape, x._dtype)


def _reshaped(a, shape):
    """a in another shape, as a new array (internal use: no warning)."""
    shape = tuple(shape)
    return a if shape == a.shape else ndarray(a._materialize().reshape(shape))


def _new_shape(shape, size):
    """shape (ints; one negative entry is the unknown one) checked against
    size, with NumPy's errors."""
    if builtins.any(isinstance(s, (bool, _np.bool_)) for s in shape):
        raise TypeError("an integer is required")  # NumPy's, for a bool
    shape = tuple(operator.index(s) for s in shape)  # NumPy's TypeError for a float
    unknown = [k for k, s in enumerate(shape) if s < 0]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    known = math.prod(s for s in shape if s >= 0)
    if unknown:
        if known == 0 or size % known:
            text = ",".join("newaxis" if s < 0 else str(s) for s in shape)
            raise ValueError(f"cannot reshape array of size {size} into shape ({text})")
        shape = tuple(size // known if s < 0 else s for s in shape)
    elif known != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {_np_shape(shape)}")
    return shape



def _check_power(x, y):
    """NumPy's ValueError for an integer base to a negative integer power
    (its loop raises on the first such element), where the result's dtype
    is an integer one (uint64 with a signed integer is float64: no error)
    and a Python int operand fits the other's dtype (else NumPy's
    OverflowError comes first, from the operation): free for a scalar
    exponent; an integer array exponent costs one reduction, and only when
    the base is an integer too."""
    ty = type(y)
    if ty is float:
        return
    if ty is int or isinstance(y, _np.integer):
        if y >= 0:
            return
        if type(x) is ndarray:
            if x._dtype not in _INTEGER or not math.prod(x._shape):
                return
        elif not isinstance(x, (int, _np.integer, _np.bool_)):
            x = _prep(x)
            if type(x) is not ndarray or x._dtype not in _INTEGER or not math.prod(x._shape):
                return
        if type(x) is ndarray and not _int_power(x._dtype, y):
            return
        raise ValueError("Integers to negative integer powers are not allowed.")
    if ty is not ndarray:
        if isinstance(y, (bool, _np.generic)) or not isinstance(y, (list, tuple, _np.ndarray)):
            return
        y = _np.asarray(y)  # the same on every rank: checked here, no communication
        if y.dtype.kind not in "iu" or not y.size or not (y < 0).any():
            return
        xs = x._shape if type(x) is ndarray else _np.shape(x)
        xd = x._dtype if type(x) is ndarray else _np.asarray(x).dtype.name
        if xd in _INTEGER and _int_power(x if type(x) is int else xd, y.dtype.name) and \
                math.prod(_np.broadcast_shapes(xs, y.shape)):
            raise ValueError("Integers to negative integer powers are not allowed.")
        return
    if y._dtype not in _INTS:
        return
    if type(x) is ndarray:
        if x._dtype not in _INTEGER:
            return
        xs, xd = x._shape, x._dtype
    elif isinstance(x, (int, _np.integer, _np.bool_)):
        xs, xd = (), x if type(x) is int else _np.asarray(x).dtype.name
    else:
        x = _np.asarray(x)
        if x.dtype.kind not in "biu":
            return
        xs, xd = x.shape, x.dtype.name
    if not _int_power(xd, y._dtype):
        return
    try:
        n = math.prod(_np.broadcast_shapes(xs, y._shape))
    except ValueError:
        return  # the operation raises NumPy's broadcast error
    if n and bool((y < 0).any()):
        raise ValueError("Integers to negative integer powers are not allowed.")


def _int_power(a, b):
    """a ** b (dtype names, or a Python int for a weak scalar) gives an
    integer dtype under NumPy 2's promotion; False also where a Python int
    does not fit the array's dtype (the operation raises NumPy's
    OverflowError)."""
    if type(a) is int or type(b) is int:
        v, dt = (a, b) if type(a) is int else (b, a)
        dt = "int64" if dt == "bool" else dt
        info = _np.iinfo(dt)
        return info.min <= v <= info.max
    return _np.result_type(a, b).kind in "iu"


def _power_fast(x, y, op):
    """x ** y as NumPy's float power loop takes a scalar or 0-d exponent:
    2 as x * x and -1 as 1 / x (not pow's rounding), a float scalar 0.5 as
    sqrt in float32 and float64; with op (the operators) a complex x and a
    Python int 2 as x * x too. Else None."""
    t = type(y)
    if (t is float or isinstance(y, _np.floating)) and y == 0.5:  # (a Python float is weak: x's dtype)
        dt = x._dtype if t is float else str(_np.result_type(x._dtype, y))
        if dt not in ("float32", "float64"):
            return None
        return _unary("sqrt", x.astype(dt) if dt != x._dtype else x)
    if not (t is int or t is float or isinstance(y, (_np.integer, _np.floating)) or
            (type(y) is _np.ndarray and y.ndim == 0 and y.dtype.kind in "iuf")) or (y != 2 and y != -1):
        return None
    if op and t is int and y == 2 and x._dtype == "bool":  # NumPy's operator squares: int8
        return _unary("square", x)
    dt = _np.result_type(x._dtype, y)
    if dt.kind != "f" and not (op and t is int and y == 2 and dt.kind == "c"):
        return None
    b = x if dt == x._dtype else x.astype(dt)
    return _binary("multiply", b, b, True) if y == 2 else _unary("reciprocal", b)


def _power(x, y, op=False):
    """x ** y (op: the operators; else numpy.power)."""
    if not (op and (_engine._numpy_subclass(x) or _engine._numpy_subclass(y))):  # (NumPy's operator checks those)
        _check_power(x, y)
    return _binary("power", x, y, op)


class _Flags:
    """a.flags: NumPy's flag names as attributes and keys; contiguity is of
    the array's view over its storage (maniple lays blocks out in C order)."""
    _KEYS = {"C_CONTIGUOUS": "c_contiguous", "C": "c_contiguous", "F_CONTIGUOUS": "f_contiguous",
             "F": "f_contiguous", "OWNDATA": "owndata", "O": "owndata", "WRITEABLE": "writeable", "W": "writeable",
             "ALIGNED": "aligned", "A": "aligned", "WRITEBACKIFCOPY": "writebackifcopy", "X": "writebackifcopy",
             "FNC": "fnc", "FORC": "forc", "BEHAVED": "behaved", "B": "behaved", "CARRAY": "carray",
             "CA": "carray", "FARRAY": "farray", "FA": "farray"}

    def __init__(self, a):
        object.__setattr__(self, "_a", a)

    _FIELDS = ("c_contiguous", "f_contiguous", "owndata", "writeable", "aligned", "writebackifcopy")

    def __eq__(self, other):  # as NumPy's flags objects compare (with theirs too)
        if not builtins.all(hasattr(other, f) for f in self._FIELDS):
            return NotImplemented
        return builtins.all(getattr(self, f) == getattr(other, f) for f in self._FIELDS)

    __hash__ = None

    @property
    def c_contiguous(self):
        a = self._a  # (an empty array is contiguous either way, as NumPy says)
        return a._expr is not None or a.size == 0 or _views.contiguous(a._materialize())

    @property
    def f_contiguous(self):
        a = self._a
        if a.size == 0 or sum(1 for n in a._shape if n != 1) <= 1:
            return self.c_contiguous
        # its axes reversed are C-contiguous (a transposed view of a C-ordered array)
        return a._expr is None and _views.contiguous(a.T._materialize())

    @property
    def owndata(self):
        a = self._a
        if a._expr is not None:
            return True
        # a reshape that NumPy makes a view owns nothing, whatever storage maniple gave it
        return getattr(a, "_np_base", None) is None and not a._materialize().is_view

    @property
    def writeable(self):
        ro = getattr(self._a, "_ro", False)
        if ro == "warn":  # broadcast_arrays' broadcast results, as NumPy 2 reports them
            _warn.warn("future versions will not create a writeable array from broadcast_array. Set the "
                          "writable flag explicitly to avoid this warning.", FutureWarning)
            return True
        return not ro

    aligned, writebackifcopy = True, False

    # NumPy's combined flags
    @property
    def fnc(self):
        return self.f_contiguous and not self.c_contiguous

    @property
    def forc(self):
        return self.f_contiguous or self.c_contiguous

    @property
    def behaved(self):
        return self.aligned and self.writeable

    @property
    def carray(self):
        return self.behaved and self.c_contiguous

    @property
    def farray(self):  # NumPy tests any of the three bits, not all (so: not C-contiguous, aligned as ours are)
        return (self.aligned or self.writeable or self.f_contiguous) and not self.c_contiguous

    def __setattr__(self, name, value):
        if name == "writeable":
            self._a.setflags(write=value)
        else:
            raise AttributeError(f"maniple.numpy: the {name} flag cannot be set")

    def __getitem__(self, key):
        return getattr(self, self._KEYS[key])

    def __setitem__(self, key, value):
        setattr(self, self._KEYS[key], value)

    def __repr__(self):
        return "\n".join(f"  {k} : {self[k]}" for k in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE",
                                                         "ALIGNED", "WRITEBACKIFCOPY"))


def _check_writable(a):
    """NumPy's error for arrays it makes read-only (broadcast_to's views and
    views of them: the `_ro` slot, unset elsewhere)."""
    ro = getattr(a, "_ro", False)
    if ro == "warn":  # broadcast_arrays' results, as NumPy 2 has them
        _warn.warn("Numpy has detected that you (may be) writing to an array with\noverlapping memory from "
                      "np.broadcast_arrays. If this is intentional\nset the WRITEABLE flag True or make a copy "
                      "immediately before writing.", DeprecationWarning)
        a._ro = False  # once, as NumPy: the write clears the warning
    elif ro:
        raise ValueError("assignment destination is read-only")


_engine._bind(ndarray)
