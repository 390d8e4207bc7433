"""The distributed ndarray: either concrete (a maniple._core.Array, possibly a
view) or deferred (an element-wise expression tree over concrete arrays).

Deferred expressions are evaluated fused, in one pass, when a value is
needed: assignment into an array, a reduction, printing, __array__, or
indexing. NumPy's eager semantics are kept by dependency tracking: before
anything writes into an array's storage, every pending expression that reads
that storage is evaluated first.
"""
import math
import operator
import os
import sys
import weakref

import numpy as _np

from maniple import _core
from maniple import init as _init

from . import _views

# Expression nodes (tuples):
#   ("in", Array) | ("sc", python scalar or (value, dtype)) | ("un", name, x)
#   ("bin", name, x, y) | ("ter", name, x, y, z) | ("cast", x, dtype)
# and cells ["ref", node, weakref to the pending array]: a pending array's
# expression as its consumers see it; once computed the cell holds
# ("in", Array) for every consumer. Small arrays compute a costly value at
# its second consumer. Large ones (_GROUP_MIN elements) decide when
# evaluated: the pass also stores every costly value that a live array
# still holds, and computes every live pending array of the same shape that
# shares a value with it (Fw, Fn, Ft of one flux), so that each value is
# computed once and no full-size temporary is written that NumPy would not.
_MAX_NODES = 48  # past this an operand is materialised, bounding loops' trees
_SHARE_COST = 2  # cost (below) from which a shared value is computed once
# elements from which values are shared at evaluation (MANIPLE_GROUP_MIN:
# tests set 1 to run every array through that path)
_GROUP_MIN = int(os.environ.get("MANIPLE_GROUP_MIN", 1 << 15))
_XMAX = 16  # values stored by one pass besides its result (the C side's limit)
# relative cost of an operation per element (others 1)
_COST = {"true_divide": 4, "floor_divide": 4, "remainder": 4, "divmod": 4, "sqrt": 8, "cbrt": 8, "power": 8,
         "float_power": 8, "exp": 8, "exp2": 8, "expm1": 8, "log": 8, "log2": 8, "log10": 8, "log1p": 8,
         "sin": 8, "cos": 8, "tan": 8, "arcsin": 8, "arccos": 8, "arctan": 8, "arctan2": 8, "sinh": 8,
         "cosh": 8, "tanh": 8, "arcsinh": 8, "arccosh": 8, "arctanh": 8, "hypot": 8, "logaddexp": 8,
         "logaddexp2": 8}

# storage key -> [weak references to pending ndarrays whose expression
# reads it] (an expression nobody holds any more needs no evaluation)
_readers = {}
_ref = weakref.ref
_refcount = sys.getrefcount
_linked = _views.linked  # storage keys whose writes propagate (reshape views)


def _register(arr):
    r = _ref(arr)
    for key in arr._bases:
        lst = _readers.get(key)
        if lst is None:
            if len(_readers) > 4096:  # drop storage nobody pending reads any more
                for k in [k for k, v in _readers.items() if not any(x() is not None for x in v)]:
                    del _readers[k]
            _readers[key] = [r]
        else:
            lst.append(r)
            if len(lst) % 256 == 0:  # a loop that never writes: prune the dead
                lst[:] = [x for x in lst if x() is not None]


def _flush(key, keep=None):
    """Evaluate every pending expression reading storage key (but keep)."""
    pending = _readers.pop(key, None)
    if not pending:
        return
    for r in pending:
        a = r()
        if a is not None and a is not keep and a._expr is not None:
            a._materialize()
    if keep is not None and keep._expr is not None:
        _readers[key] = [_ref(keep)]


def _compile(expr):
    """Expression tree -> _core program (list of nodes referring back)."""
    prog = []
    _walk(expr, prog, {})
    return prog


def _walk(n, prog, memo):
    """Append n's nodes not yet in prog (memo: identity -> index); n's index."""
    if type(n) is list:
        n = n[1]
    k = id(n[1]) if n[0] == "in" else id(n)
    if k in memo:
        return memo[k]
    kind = n[0]
    if kind in ("in", "sc"):
        prog.append(n)
    elif kind == "un":
        prog.append(("un", n[1], _walk(n[2], prog, memo)))
    elif kind == "bin":
        a, b = _walk(n[2], prog, memo), _walk(n[3], prog, memo)
        prog.append(("bin", n[1], a, b))
    elif kind == "ter":
        a, b, c = _walk(n[2], prog, memo), _walk(n[3], prog, memo), _walk(n[4], prog, memo)
        prog.append(("ter", n[1], a, b, c))
    else:  # cast
        prog.append(("cast", _walk(n[1], prog, memo), n[2]))
    memo[k] = len(prog) - 1
    return memo[k]


def _bases(expr, out=None):
    out = set() if out is None else out
    if type(expr) is list:
        expr = expr[1]
    if expr[0] == "in":
        out.add(expr[1].base)
    elif expr[0] == "cast":
        _bases(expr[1], out)
    elif expr[0] != "sc":
        for c in expr[2:]:
            _bases(c, out)
    return out


def _count(expr, seen=None):
    seen = set() if seen is None else seen
    if type(expr) is list:
        expr = expr[1]
    if id(expr) in seen:
        return 0
    seen.add(id(expr))
    return 1 + sum(_count(c, seen) for c in expr[2:] if isinstance(c, (tuple, list))) + (
        _count(expr[1], seen) if expr[0] == "cast" else 0)


class ndarray:
    """A distributed array with NumPy's semantics."""

    __slots__ = ("_arr", "_expr", "_shape", "_dtype", "_bases", "_n", "_cell", "_cost", "_big", "_ro",
                 "__weakref__")
    __array_priority__ = 100

    def __init__(self, arr=None, expr=None, shape=None, dtype=None):
        self._arr, self._expr, self._cell, self._cost = arr, expr, None, 1
        if arr is not None:
            self._shape, self._dtype, self._bases, self._n = tuple(arr.shape), arr.dtype, (), 1
            self._big = False
        else:
            self._shape, self._dtype = tuple(shape), dtype
            self._big = math.prod(self._shape) >= _GROUP_MIN
            self._bases = tuple(_bases(expr))
            self._n = _count(expr)
            _register(self)

    # ---- evaluation ----
    def _materialize(self):
        if self._expr is not None:
            if self._big and _has_cells(self._expr):
                if _eval_shared(self._expr, self._shape, self, _core.empty(self._shape, self._dtype)) is not _NOTHING:
                    return self._arr
            self._arr = _core.eval_tree(self._expr, self._shape, self._dtype)
            self._expr, self._bases = None, ()
            if self._cell is not None:  # consumers now read the values
                self._cell[1] = ("in", self._arr)
        return self._arr

    def _node(self):
        """This array as an expression node (concrete arrays are leaves)."""
        if self._expr is not None:
            if self._n > _MAX_NODES:
                self._materialize()
            else:
                return _share(self)
        return ("in", self._arr)

    # ---- attributes ----
    @property
    def shape(self):
        return self._shape

    @property
    def ndim(self):
        return len(self._shape)

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
    def mT(self):
        if len(self._shape) < 2:
            raise ValueError("matrix transpose with ndim < 2 is undefined")
        from ._manipulation import matrix_transpose
        return matrix_transpose(self)

    # maniple arrays are real: .real is the array itself (as NumPy's view
    # of a real array, writes go through), .imag zeros that cannot be set
    @property
    def real(self):
        return self

    @real.setter
    def real(self, value):
        self[...] = value

    @property
    def imag(self):
        from ._creation import zeros
        return zeros(self._shape, self._dtype)

    @imag.setter
    def imag(self, value):
        raise TypeError("array does not have imaginary part to set")

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
        x = _np.frombuffer(a.allgather(), dtype=self._dtype).reshape(self._shape).copy()
        return x if dtype is None else x.astype(dtype, copy=False)

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
        if self._dtype not in ("int32", "int64", "bool") or self._shape:
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
        from . import _functions
        name = {"divide": "true_divide", "abs": "absolute"}.get(ufunc.__name__, ufunc.__name__)
        fn = _functions.UFUNCS.get(name)
        out = kwargs.pop("out", None)
        if fn is None and method == "__call__":  # an announced fallback, if maniple.numpy has one
            import maniple.numpy as mnp
            impl = getattr(mnp, ufunc.__name__, None)
            if getattr(impl, "_mn_kind", None) == "fallback":
                return impl(*inputs, out=out, **kwargs)
        if fn is None or (kwargs and method == "__call__"):
            return NotImplemented
        if out is not None:  # NumPy passes a tuple of ufunc.nout entries; a NumPy
            # array there gets the whole result, as NumPy would write it
            if len(out) != ufunc.nout or not all(o is None or isinstance(o, (ndarray, _np.ndarray)) for o in out):
                return NotImplemented
            if ufunc.nout == 1:
                out = out[0]
        if method == "__call__":
            return fn(*inputs, out=out)
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
        items, axis = [], 0
        for k in key:
            if k is Ellipsis:
                for _ in range(self.ndim - nreal):
                    items.append(("s", None, None, None))
                    axis += 1
            elif k is None:
                items.append(("n",))
            elif isinstance(k, slice):
                n = self._shape[axis]
                start, stop, step = k.indices(n)
                if n == 0:  # every slice of an empty axis is empty
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
            elif isinstance(k, ndarray) and k.ndim == 0 and k._dtype in ("int32", "int64"):
                items.append(("i", int(k.item())))
                axis += 1
            else:
                raise IndexError("only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and "
                                 f"integer or boolean arrays are valid indices (got {type(k).__name__})")
        return items

    def __getitem__(self, key):
        from . import _indexing
        if _indexing.is_advanced_key(key):
            return _indexing.getitem(self, key)
        a = self._materialize()
        v = ndarray(a.index(self._items(key)))
        if v.ndim == 0:  # NumPy returns a scalar for a single element
            return _scalar(v._arr.get(()), v._dtype)
        ro = getattr(self, "_ro", False)
        if ro:
            v._ro = ro
        return v

    def __setitem__(self, key, value):
        from . import _indexing
        _check_writable(self)
        if _indexing.is_advanced_key(key):
            return _indexing.setitem(self, key, value)
        a = self._materialize()
        target = a.index(self._items(key))
        _assign(target, value)

    # ---- element-wise arithmetic ----
    def __add__(self, o): return _binary("add", self, o)
    def __radd__(self, o): return _binary("add", o, self)
    def __sub__(self, o): return _binary("subtract", self, o)
    def __rsub__(self, o): return _binary("subtract", o, self)
    def __mul__(self, o): return _binary("multiply", self, o)
    def __rmul__(self, o): return _binary("multiply", o, self)
    def __truediv__(self, o): return _binary("true_divide", self, o)
    def __rtruediv__(self, o): return _binary("true_divide", o, self)
    def __floordiv__(self, o): return _binary("floor_divide", self, o)
    def __rfloordiv__(self, o): return _binary("floor_divide", o, self)
    def __mod__(self, o): return _binary("remainder", self, o)
    def __rmod__(self, o): return _binary("remainder", o, self)
    def __pow__(self, o):
        t = type(o)
        if t is not float and (t is not int or o < 0):  # a scalar exponent: nothing to check
            _check_power(self, o)
        return _binary("power", self, o)

    def __rpow__(self, o): return _power(o, self)
    def __and__(self, o): return _binary("bitwise_and", self, o)
    def __rand__(self, o): return _binary("bitwise_and", o, self)
    def __or__(self, o): return _binary("bitwise_or", self, o)
    def __ror__(self, o): return _binary("bitwise_or", o, self)
    def __xor__(self, o): return _binary("bitwise_xor", self, o)
    def __rxor__(self, o): return _binary("bitwise_xor", o, self)
    def __lshift__(self, o): return _binary("left_shift", self, o)
    def __rlshift__(self, o): return _binary("left_shift", o, self)
    def __rshift__(self, o): return _binary("right_shift", self, o)
    def __rrshift__(self, o): return _binary("right_shift", o, self)
    def __lt__(self, o): return _binary("less", self, o)
    def __le__(self, o): return _binary("less_equal", self, o)
    def __gt__(self, o): return _binary("greater", self, o)
    def __ge__(self, o): return _binary("greater_equal", self, o)
    def __eq__(self, o):
        if o is None or type(o) is str:  # NumPy: nothing equals them
            return self._constant(False)
        return _binary("equal", self, o)

    def __ne__(self, o):
        if o is None or type(o) is str:
            return self._constant(True)
        return _binary("not_equal", self, o)

    def _constant(self, v):
        from ._creation import full
        r = full(self._shape, v, "bool")
        return r[()] if not self._shape else r
    def __matmul__(self, o):
        if getattr(type(o), "_mn_sparse", False):  # maniple.sparse's reflected product
            return NotImplemented
        from . import _products
        return _products.matmul(self, o)

    def __rmatmul__(self, o):
        from . import _products
        return _products.matmul(o, self)

    def __imatmul__(self, o):
        from . import _products
        r = _products.matmul(self, o)
        if r.shape != self._shape:
            raise ValueError(f"matmul result of shape {r.shape} cannot be stored in an array of shape {self._shape}")
        self[...] = r
        return self

    def __divmod__(self, o):
        from . import _math
        return _math.divmod(self, o)

    def __rdivmod__(self, o):
        from . import _math
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
        r = _binary(name, self, o)
        if type(r) is ndarray:
            if r._dtype not in _CAN_CAST_SAME_KIND[self._dtype]:  # NumPy's error, before anything changes
                from ._functions import _cast_error
                raise _cast_error(name, r._dtype, self._dtype)
            if pending:  # nothing else holds this value yet
                if r._dtype != self._dtype:
                    r = r.astype(self._dtype)
                self._expr, self._bases, self._n, self._cost = r._expr, r._bases, r._n, r._cost
                self._cell = None  # earlier consumers keep the value before
                _register(self)
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
        from ._creation import _dt, _order
        dt = _dt(dtype)  # the one supported-dtype check and message
        _order(order, "CFAK")
        if casting != "unsafe" and not _np.can_cast(self._dtype, dt, casting):
            raise TypeError(f"Cannot cast array data from dtype('{self._dtype}') to dtype('{dt}') according to "
                            f"the rule '{casting}'")
        if dt == self._dtype and not copy:
            return self
        return ndarray(expr=("cast", self._node(), dt), shape=self._shape, dtype=dt)

    def copy(self, order="C"):
        if order != "C":
            from ._creation import _order
            _order(order, "CFAK")
        out = _core.create(self._shape, self._dtype)
        _core.evaluate(_compile(self._node()), out)
        return ndarray(out)

    def fill(self, value):
        _check_writable(self)
        _check_scalar_into(value, self._dtype)
        a = self._materialize()
        _flush(a.base)
        a.fill(_pyscalar(value))
        _wrote(a.base)

    def reshape(self, *shape, order="C"):
        """NumPy's reshape: a view where NumPy gives one (writes through it
        reach this array and back, _views), else a copy."""
        count = _refcount(self)  # first: a temporary's reshape needs no link
        if order != "C":
            raise NotImplementedError("maniple.numpy: reshape supports order='C' only")
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = tuple(shape[0])
        shape = _new_shape(shape, self.size)
        return self._reshape(shape, count)

    def _reshape(self, shape, count, ravel=False):
        self._materialize()
        temporary = _views.is_temporary(count, self._arr)  # before any other name holds the handle
        a = self._arr
        if ravel and not _views.contiguous(a):
            return ndarray(a.reshape(shape))  # NumPy's ravel copies a non-contiguous array
        h, view = _views.reshape(a, shape, temporary)
        r = ndarray(h)
        ro = getattr(self, "_ro", False)
        if ro and view:
            r._ro = ro
        return r

    def ravel(self, order="C"):
        count = _refcount(self)
        if order != "C":
            raise NotImplementedError("maniple.numpy: ravel supports order='C' only")
        return self._reshape((self.size,), count, ravel=True)

    def flatten(self, order="C"):
        if order != "C":
            raise NotImplementedError("maniple.numpy: flatten supports order='C' only")
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
        return ndarray(a.transpose(tuple(axes) if axes else None))

    def sum(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        from . import _functions
        return _functions.sum(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def prod(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        from . import _functions
        return _functions.prod(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def min(self, axis=None, out=None, keepdims=False, **kw):
        from . import _functions
        return _functions.min(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def max(self, axis=None, out=None, keepdims=False, **kw):
        from . import _functions
        return _functions.max(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def argmin(self, axis=None, out=None, *, keepdims=False):
        from . import _functions
        return _functions.argmin(self, axis, out, keepdims=keepdims)

    def argmax(self, axis=None, out=None, *, keepdims=False):
        from . import _functions
        return _functions.argmax(self, axis, out, keepdims=keepdims)

    def any(self, axis=None, out=None, keepdims=False, **kw):
        from . import _functions
        return _functions.any(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def all(self, axis=None, out=None, keepdims=False, **kw):
        from . import _functions
        return _functions.all(self, axis=axis, out=out, keepdims=keepdims, **kw)

    def mean(self, axis=None, dtype=None, out=None, keepdims=False, **kw):
        from . import _functions
        return _functions.mean(self, axis=axis, dtype=dtype, out=out, keepdims=keepdims, **kw)

    def var(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        from . import _functions
        return _functions.var(self, axis, dtype, out, ddof, keepdims, **kw)

    def std(self, axis=None, dtype=None, out=None, ddof=0, keepdims=False, **kw):
        from . import _functions
        return _functions.std(self, axis, dtype, out, ddof, keepdims, **kw)

    def cumsum(self, axis=None, dtype=None, out=None):
        from . import _sorting
        return _sorting.cumsum(self, axis, dtype, out)

    def cumprod(self, axis=None, dtype=None, out=None):
        from . import _sorting
        return _sorting.cumprod(self, axis, dtype, out)

    def dot(self, other, out=None):
        from . import _products
        return _products.dot(self, other, out)

    def sort(self, axis=-1, kind=None, order=None, *, stable=None):
        """In place, as NumPy's method."""
        from . import _sorting
        self[...] = _sorting.sort(self, axis, kind, order)

    def argsort(self, axis=-1, kind=None, order=None, *, stable=None):
        from . import _sorting
        return _sorting.argsort(self, axis, kind, order)

    def partition(self, kth, axis=-1, kind="introselect", order=None):
        from . import _sorting
        self[...] = _sorting.partition(self, kth, axis)

    def argpartition(self, kth, axis=-1, kind="introselect", order=None):
        from . import _sorting
        return _sorting.argpartition(self, kth, axis)

    def searchsorted(self, v, side="left", sorter=None):
        from . import _sorting
        return _sorting.searchsorted(self, v, side, sorter)

    def nonzero(self):
        from . import _indexing
        return _indexing.nonzero(self)

    def take(self, indices, axis=None, out=None, mode="raise"):
        from . import _select
        return _select.take(self, indices, axis, out, mode)

    def put(self, indices, values, mode="raise"):
        from . import _select
        _select.put(self, indices, values, mode)

    def compress(self, condition, axis=None, out=None):
        from . import _select
        return _select.compress(condition, self, axis, out)

    def choose(self, choices, out=None, mode="raise"):
        from . import _select
        return _select.choose(self, choices, out, mode)

    def repeat(self, repeats, axis=None):
        from . import _manipulation
        return _manipulation.repeat(self, repeats, axis)

    def squeeze(self, axis=None):
        from . import _manipulation
        return _manipulation.squeeze(self, axis)

    def swapaxes(self, axis1, axis2):
        from . import _manipulation
        return _manipulation.swapaxes(self, axis1, axis2)

    def diagonal(self, offset=0, axis1=0, axis2=1):
        from . import _products
        return _products.diagonal(self, offset, axis1, axis2)

    def trace(self, offset=0, axis1=0, axis2=1, dtype=None, out=None):
        from . import _products
        return _products.trace(self, offset, axis1, axis2, dtype, out)

    def round(self, decimals=0, out=None):
        from . import _math
        return _math.round(self, decimals, out)

    def conj(self):
        return self  # real: NumPy's ndarray.conj returns the array itself

    conjugate = conj

    def clip(self, min=None, max=None, out=None, **kwargs):
        from . import _functions
        if "a_min" in kwargs or "a_max" in kwargs:
            min, max = kwargs.pop("a_min", min), kwargs.pop("a_max", max)
        if kwargs:
            raise TypeError(f"clip() got unexpected keyword arguments {sorted(kwargs)}")
        return _functions.clip(self, min, max, out=out)

    def ptp(self, axis=None, out=None, keepdims=False):
        from . import _reductions
        return _reductions.ptp(self, axis, out, keepdims)

    def tobytes(self, order="C"):
        return self.__array__().tobytes(order)

    def tofile(self, fid, sep="", format="%s"):
        """Written by rank 0 from the array gathered there (every rank calls
        it); its error (a missing directory) is raised on every rank, as
        NumPy's, where it used to leave the others waiting."""
        from . import _root
        _root.call(lambda x: x.tofile(fid, sep, format), (self,))

    def view(self, dtype=None, type=None):
        if dtype is None and type is None:
            return ndarray(self._materialize().index([("s", None, None, None)] * self.ndim))
        raise NotImplementedError("maniple.numpy: view with another dtype is not supported")

    @property
    def flat(self):
        return flatiter(self)

    def resize(self, *new_shape, refcheck=True):
        raise NotImplementedError("maniple.numpy: in-place resize is not supported (use numpy.resize)")


class flatiter:
    """a.flat: iteration and indexing over the elements in C order."""

    def __init__(self, a):
        self.base = a

    def __len__(self):
        return self.base.size

    def __iter__(self):
        for x in _flat(self.base).__array__():
            yield _scalar(x, self.base._dtype)

    def __array__(self, dtype=None, copy=None):
        return self.base.__array__(dtype).ravel()

    def __getitem__(self, key):
        return _flat(self.base)[key]

    def __setitem__(self, key, value):
        from . import _select
        if isinstance(key, slice):
            from ._creation import arange
            idx = arange(*key.indices(self.base.size))
            _select.put(self.base, idx, value)
        elif isinstance(key, (int, _np.integer)):
            n = self.base.size
            if not -n <= int(key) < n:
                raise IndexError(f"index {int(key)} is out of bounds for axis 0 with size {n}")
            _select.put(self.base, [int(key) % n], value)
        else:
            _select.put(self.base, key, value)

# ---- helpers shared with the function modules ----
def _flat(a):
    """a as 1-d (a itself when it is; else a new array): for internal use,
    where the copy is not the user's concern, so no warning."""
    return a if a.ndim == 1 else ndarray(a._materialize().reshape((a.size,)))


def _reshaped(a, shape):
    """a in another shape, as a new array (internal use: no warning)."""
    shape = tuple(shape)
    return a if shape == a.shape else ndarray(a._materialize().reshape(shape))


def _new_shape(shape, size):
    """shape (ints; one negative entry is the unknown one) checked against
    size, with NumPy's errors."""
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
        text = ",".join(str(s) for s in shape) + ("," if len(shape) == 1 else "")
        raise ValueError(f"cannot reshape array of size {size} into shape ({text})")
    return shape


_KIND = {"bool": 0, "int32": 1, "int64": 1, "float32": 2, "float64": 2}


def _scalar(v, dtype):
    """A NumPy scalar of dtype, as NumPy returns from reductions and indexing."""
    return _np.dtype(dtype).type(v)


def _pyscalar(v):
    """Python scalars stay weak (NEP 50); NumPy scalars keep their dtype."""
    if isinstance(v, _np.generic):
        dt = str(v.dtype)
        if dt not in _KIND:
            raise TypeError(f"maniple.numpy does not support dtype {dt}")
        return (v.item(), dt)
    if isinstance(v, (bool, int, float)):
        return v
    raise TypeError(f"unsupported scalar type {type(v).__name__}")


def _operand(x):
    """An expression node for x: ndarray, Python/NumPy scalar, or array-like."""
    if isinstance(x, ndarray):
        return x._node()
    if isinstance(x, (bool, int, float, _np.generic)):
        return ("sc", _pyscalar(x))
    from . import _creation
    return _creation.asarray(x)._node()


def _prep(x):
    if isinstance(x, (ndarray, bool, int, float, _np.generic)):
        return x
    from . import _creation
    return _creation.asarray(x)


_INFO = {}  # (kind, name, operand types) -> (dtype, shape) of the result
_PYSCALAR = (bool, int, float)


def _info(kind, name, xs):
    """The result's dtype and shape by the C library's rules, asked once per
    combination of operand dtypes and shapes (Python scalars by type)."""
    key = [kind, name]
    for x in xs:
        t = type(x)
        if t is ndarray:
            key.append(x._dtype)
            key.append(x._shape)
        elif t is int:  # NumPy checks weak ints against the array's range
            key.append((int, -2147483648 <= x < 2147483648))
        elif t is float or t is bool:
            key.append(t)
        else:
            key.append(str(x.dtype))
    key = tuple(key)
    r = _INFO.get(key)
    if r is None:
        prog = [("ph", x._dtype, x._shape) if type(x) is ndarray else ("sc", _pyscalar(x)) for x in xs]
        prog.append((kind, name) + tuple(range(len(xs))))
        try:
            r = _core.result_info(prog)
        except TypeError:
            _numpy_type_error(name, xs)
            raise
        if type(r[1]) is not tuple:
            r = (r[0], tuple(r[1]))
        if len(_INFO) > 65536:
            _INFO.clear()
        _INFO[key] = r
    return r


def _numpy_type_error(name, xs):
    """NumPy's own TypeError (type and text) for operands NumPy refuses too
    (boolean subtract, bitwise ops on floats, ...): NumPy is asked with
    one-element stand-ins of the same dtypes (Python scalars as they are)."""
    f = getattr(_np, name, None)
    if not isinstance(f, _np.ufunc):
        return
    args = [_np.zeros(1, x._dtype) if type(x) is ndarray else x for x in xs]
    try:
        with _np.errstate(all="ignore"):
            f(*args)
    except TypeError as e:
        raise e.with_traceback(None) from None


_COMPARISONS = ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal")


def _big_int(name, xs):
    """NumPy 2's handling of a Python int beyond int32 beside an array
    (NEP 50), found by asking NumPy with a one-element stand-in of the
    array's dtype: its OverflowError where it raises one ("Python integer
    ... out of bounds for int32"), the exact result of a comparison with an
    int beyond the array's integer range (every element on the same side),
    the int as a float where NumPy computes in float. None: carry on with
    xs (changed in place)."""
    k = 0 if type(xs[0]) is int else 1
    v, other = xs[k], xs[1 - k]
    f = getattr(_np, name, None)
    if type(other) is not ndarray or not isinstance(f, _np.ufunc) or f.nout != 1:
        return None
    args = [None, None]
    args[k], args[1 - k] = v, _np.zeros(1, other._dtype)
    with _np.errstate(all="ignore"):
        r = f(*args)  # NumPy's own error, if it has one
    od = other._dtype
    if od in _INTEGER and name in _COMPARISONS:
        info = _np.iinfo("int64" if od == "bool" else od)
        if not info.min <= v <= info.max:
            from ._creation import full
            c = full(other._shape, bool(r[0]), "bool")
            return c[()] if not other._shape else c
    if r.dtype.kind == "f" or od in ("float32", "float64"):  # NumPy takes the int as a float
        xs[k] = float(v)
    elif name in ("logical_and", "logical_or", "logical_xor"):
        xs[k] = True
    return None


def _make(kind, name, *xs):
    """A deferred operation: its expression node, dtype and shape, and the
    storage it reads (kept incrementally: no walk over the tree)."""
    if kind == "bin" and ((type(xs[0]) is int and not -2147483648 <= xs[0] < 2147483648) or
                          (type(xs[1]) is int and not -2147483648 <= xs[1] < 2147483648)):
        xs = list(xs)
        r = _big_int(name, xs)
        if r is not None:
            return r
    nodes, bases, n, cost = [], set(), 1, _COST.get(name, 1)
    xs = [x if type(x) is ndarray or type(x) in _PYSCALAR else _prep(x) for x in xs]
    dtype, shape = _info(kind, name, xs)
    for x in xs:
        if type(x) is ndarray:
            if x._expr is not None and x._n <= _MAX_NODES:
                # a large value already shared counts once: its consumers
                # meet in one program (one node each after memoisation)
                b, xn, xc = x._bases, 1 if x._big and x._cell is not None else x._n, x._cost
                nodes.append(_share(x))
                if x._expr is not None:  # else computed just now: a leaf
                    bases.update(b)
                    n += xn
                    cost += xc
                    continue
                bases.add(x._arr.base)
                n += 1
                continue
            a = x._materialize()
            nodes.append(("in", a))
            bases.add(a.base)
        else:
            nodes.append(("sc", _pyscalar(x)))
        n += 1
    r = _new_pending()
    r._arr, r._expr, r._shape, r._dtype, r._bases, r._n = None, (kind, name) + tuple(nodes), shape, dtype, \
        tuple(bases), n
    r._cell, r._cost = None, cost
    if not shape and name != "where":  # a ufunc's 0-d result is a scalar in NumPy
        r._big = False
        return _scalar(r._materialize().get(()), dtype)
    r._big = big = math.prod(shape) >= _GROUP_MIN
    if big:
        _recent.append(_ref(r))
    _register(r)
    return r


def _new_pending():
    return ndarray.__new__(ndarray)


def _share(x):
    """x's cell for a consumer that inlines pending x. A second consumer of
    a costly small value computes it now, so that no consumer recomputes
    it (large ones: _eval_shared)."""
    c = x._cell
    if c is None:
        c = x._cell = ["ref", x._expr, _ref(x)]
    elif x._cost >= _SHARE_COST and x._expr is not None and not x._big:
        x._materialize()
    return c


_recent = []  # weak references to large pending arrays: the candidates to share a pass


def _has_cells(expr):
    if type(expr) is list:
        expr = expr[1]
    k = expr[0]
    if k == "cast":
        return type(expr[1]) is list
    if k in ("in", "sc"):
        return False
    for x in expr[2:]:
        if type(x) is list:
            return True
    return False


def _cells_in(expr, acc):
    """Add the pending cells reachable from expr to acc (id -> cell)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        if type(n) is list:
            if id(n) in acc or n[1][0] == "in":
                continue
            acc[id(n)] = n
            n = n[1]
        k = n[0]
        if k == "bin":
            stack.append(n[2])
            stack.append(n[3])
        elif k == "un":
            stack.append(n[2])
        elif k == "ter":
            stack.extend(n[2:5])
        elif k == "cast":
            stack.append(n[1])


_NOTHING = object()


def _eval_shared(expr, shape, me=None, out=None, reduce=None):
    """Evaluate expr (a large pending value) into out, or reduce it with
    op reduce (the scalar is returned), storing in the same pass the live
    pending arrays of its shape that share values with it and the costly
    values live arrays hold (see _GROUP_MIN). me: the array being
    materialised, out its fresh array. _NOTHING: nothing to share, nothing
    done."""
    cells = {}
    _cells_in(expr, cells)
    own, self_ = None, me  # the value's own cell and array (never a store of its own pass)
    if type(expr) is list:
        own = expr
        cells.pop(id(expr), None)
        if self_ is None:
            self_ = expr[2]()
    elif me is not None:
        own = me._cell
    if not cells:
        return _NOTHING
    anc_ok = me is not None  # a fresh result: an array computed from it may share the pass
    stores, live = [], []
    for r in _recent:  # siblings: live, pending, same shape, sharing a value
        y = r()
        if y is None or y._expr is None:
            continue
        live.append(r)
        if y is self_ or y._shape != shape or len(stores) >= _XMAX or \
                (y._cell is not None and id(y._cell) in cells):
            continue
        yc = {}
        _cells_in(y._expr, yc)
        if own is not None and id(own) in yc and not anc_ok:
            continue
        if any(k in cells for k in yc):
            stores.append(y)
    _recent[:] = live
    for y in stores:
        _cells_in(y._expr, cells)
    if own is not None:
        cells.pop(id(own), None)
    held, sid = [], {id(y) for y in stores}
    for c in cells.values():  # values a live array holds: computed once, here
        o = c[2]()
        if o is None or o is self_ or o._cell is not c or o._expr is None or o._shape != shape or \
                o._cost < _SHARE_COST or id(o) in sid:
            continue
        held.append(o)
    if len(held) + len(stores) > _XMAX:
        held.sort(key=lambda o: -o._cost)
    stores = (stores + held)[:_XMAX]
    if not stores:
        return _NOTHING
    prog, memo = [], {}
    idx = [_walk(y._cell if y._cell is not None else y._expr, prog, memo) for y in stores]
    top = _walk(expr, prog, memo)
    arrs = [_core.empty(y._shape, y._dtype) for y in stores]
    extras = list(zip(idx, arrs))
    root_out = out
    if top != len(prog) - 1:  # expr is a part of a stored value, which is the root
        if me is None:
            return _NOTHING
        k = idx.index(len(prog) - 1)
        root_out = arrs[k]
        extras[k] = (top, out)
    if reduce is not None:
        result = _core.reduce(prog, reduce, extras)
    else:
        _core.evaluate(prog, root_out, extras)
        result = None
    for y, a in zip(stores, arrs):
        y._arr, y._expr, y._bases = a, None, ()
        if y._cell is not None:
            y._cell[1] = ("in", a)
    if me is not None:
        me._arr, me._expr, me._bases = out, None, ()
        if me._cell is not None:
            me._cell[1] = ("in", out)
    return result


def _unary(name, x):
    return _make("un", name, x)


_BIN = {}  # (name, dtype, shape, dtype or scalar type, shape) -> (dtype, shape)


def _binary(name, x, y):
    """x (op) y, deferred: the common cases (arrays and Python floats and
    ints) without the general path's lists and loops. A maniple.sparse
    operand gets NotImplemented, so that its reflected operator runs."""
    if type(x) is not ndarray:
        if getattr(type(x), "_mn_sparse", False):
            return NotImplemented
        return _make("bin", name, x, y)
    ty = type(y)
    if ty is ndarray:
        key = (name, x._dtype, x._shape, y._dtype, y._shape)
    elif ty is float:
        key = (name, x._dtype, x._shape, float, None)
    elif ty is int and -2147483648 <= y < 2147483648:
        key = (name, x._dtype, x._shape, int, None)
    elif getattr(ty, "_mn_sparse", False):
        return NotImplemented
    else:
        return _make("bin", name, x, y)
    info = _BIN.get(key)
    if info is None:
        info = _BIN[key] = _info("bin", name, [x, y])
    cost = _COST.get(name, 1)
    if x._expr is not None and x._n <= _MAX_NODES:
        b, xn, xc = x._bases, 1 if x._big and x._cell is not None else x._n, x._cost
        nx = _share(x)
        if x._expr is not None:
            bases, n = set(b), xn + 1
            cost += xc
        else:  # computed just now (shared): a leaf
            bases, n = {x._arr.base}, 2
    else:
        a = x._materialize()
        nx, bases, n = ("in", a), {a.base}, 2
    if ty is ndarray:
        if y is x and type(nx) is list:  # x (op) x: one consumer
            ny = nx
        elif y._expr is not None and y._n <= _MAX_NODES:
            b, yn, yc = y._bases, 1 if y._big and y._cell is not None else y._n, y._cost
            ny = _share(y)
            if y._expr is not None:
                bases.update(b)
                n += yn
                cost += yc
            else:
                bases.add(y._arr.base)
                n += 1
        else:
            b = y._materialize()
            ny = ("in", b)
            bases.add(b.base)
            n += 1
    else:
        ny = ("sc", y)
        n += 1
    r = _new_pending()
    r._arr, r._expr, r._dtype, r._shape, r._bases, r._n = None, ("bin", name, nx, ny), info[0], info[1], \
        tuple(bases), n
    r._cell, r._cost = None, cost
    if not info[1]:  # NumPy gives a scalar for a 0-d result
        r._big = False
        return _scalar(r._materialize().get(()), info[0])
    r._big = big = math.prod(info[1]) >= _GROUP_MIN
    if big:
        _recent.append(_ref(r))
    _register(r)
    return r


def _ternary(name, x, y, z):
    return _make("ter", name, x, y, z)


_INTEGER = ("bool", "int32", "int64")


def _check_power(x, y):
    """NumPy's ValueError for an integer base to a negative integer power
    (its loop raises on the first such element): free for a scalar
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
        raise ValueError("Integers to negative integer powers are not allowed.")
    if ty is not ndarray:
        if isinstance(y, (bool, _np.generic)) or not isinstance(y, (list, tuple, _np.ndarray)):
            return
        y = _np.asarray(y)  # the same on every rank: checked here, no communication
        if y.dtype.kind not in "iu" or not y.size or not (y < 0).any():
            return
        xs = x._shape if type(x) is ndarray else _np.shape(x)
        xd = x._dtype if type(x) is ndarray else _np.asarray(x).dtype.name
        if xd in _INTEGER and math.prod(_np.broadcast_shapes(xs, y.shape)):
            raise ValueError("Integers to negative integer powers are not allowed.")
        return
    if y._dtype not in ("int32", "int64"):
        return
    if type(x) is ndarray:
        if x._dtype not in _INTEGER:
            return
        xs = x._shape
    elif isinstance(x, (int, _np.integer, _np.bool_)):
        xs = ()
    else:
        x = _np.asarray(x)
        if x.dtype.kind not in "biu":
            return
        xs = x.shape
    try:
        n = math.prod(_np.broadcast_shapes(xs, y._shape))
    except ValueError:
        return  # the operation raises NumPy's broadcast error
    if n and bool((y < 0).any()):
        raise ValueError("Integers to negative integer powers are not allowed.")


def _power(x, y):
    """x ** y (the operators and numpy.power)."""
    _check_power(x, y)
    return _binary("power", x, y)


_CAN_CAST_SAME_KIND = {
    "bool": {"bool"}, "int32": {"bool", "int32", "int64"}, "int64": {"bool", "int32", "int64"},
    "float32": {"bool", "int32", "int64", "float32", "float64"},
    "float64": {"bool", "int32", "int64", "float32", "float64"},
}


def _check_writable(a):
    """NumPy's error for arrays it makes read-only (broadcast_to's views and
    views of them: the `_ro` slot, unset elsewhere)."""
    ro = getattr(a, "_ro", False)
    if ro == "warn":  # broadcast_arrays' results, as NumPy 2 has them
        import warnings
        warnings.warn("Numpy has detected that you (may be) writing to an array with\noverlapping memory from "
                      "np.broadcast_arrays. If this is intentional\nset the WRITEABLE flag True or make a copy "
                      "immediately before writing.", DeprecationWarning, stacklevel=3)
    elif ro:
        raise ValueError("assignment destination is read-only")


_INT_RANGE = {"int32": (-2 ** 31, 2 ** 31 - 1), "int64": (-2 ** 63, 2 ** 63 - 1)}


def _check_scalar_into(v, dtype):
    """NumPy's errors for a scalar that an integer array cannot hold."""
    r = _INT_RANGE.get(dtype)
    if r is None or isinstance(v, (bool, _np.bool_)):
        return
    if isinstance(v, (float, _np.floating)):
        if v != v:
            raise ValueError("cannot convert float NaN to integer")
        if v in (float("inf"), float("-inf")):
            raise OverflowError("cannot convert float infinity to integer")
    elif isinstance(v, int) and not r[0] <= v <= r[1]:
        raise OverflowError(f"Python integer {v} out of bounds for {dtype}")


def _assign(target, value, same_kind=False):
    """target[...] = value, fused: pending readers of target's storage are
    evaluated first, except value itself (whose evaluation reads the old
    values, as NumPy's right-hand side does)."""
    keep, vdt = (value, value._dtype) if isinstance(value, ndarray) else (None, None)
    if keep is None and isinstance(value, (bool, int, float, _np.generic)):
        _check_scalar_into(value, target.dtype)
    if same_kind and vdt is not None and vdt not in _CAN_CAST_SAME_KIND[target.dtype]:
        raise TypeError(f"Cannot cast ufunc output from dtype('{vdt}') to dtype('{target.dtype}') "
                        "with casting rule 'same_kind'")
    # a pending value that reads target must keep its own values afterwards
    # (average stays what it was after center[:] = average): when it equals
    # what target will hold, it becomes a view of target, else it is
    # evaluated first
    reads = keep is not None and keep._expr is not None and target.base in keep._bases
    alias_ok = reads and keep._dtype == target.dtype and keep._shape == tuple(target.shape)
    if reads and not alias_ok:
        keep._materialize()
    node = _operand(value)
    _flush(target.base, keep if alias_ok else None)
    if not (type(value) is ndarray and value._big and value._expr is not None and _has_cells(node)
            and _eval_shared(node, value._shape, out=target) is not _NOTHING):
        _core.evaluate(_compile(node), target)
    if alias_ok:
        keep._expr, keep._bases, keep._n = ("in", target), (target.base,), 1
        if keep._cell is not None:
            keep._cell[1] = keep._expr
    _wrote(target.base)


def _wrote(key):
    """After a write into storage key: reshapes linked to it follow (_views)."""
    if key in _linked:
        _views.propagate(key)
