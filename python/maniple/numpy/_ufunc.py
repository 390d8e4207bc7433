"""maniple's ufuncs as objects with NumPy's ufunc interface: calling one is
the element-wise operation (deferred, fused), and reduce, accumulate, outer,
at and reduceat are its methods. They are native where maniple has the
pieces (add.reduce is sum, multiply.reduce prod, maximum/minimum.reduce max
and min, logical_and/or.reduce all and any, add/multiply.accumulate cumsum
and cumprod, outer a broadcast operation, at a scatter in rounds of
distinct indices); the others run through the announced fallback (the
arrays gathered to one rank, NumPy there, a warning once per method)."""
import numpy as _np

# ufunc -> (reduction of maniple's _reduce, scan of _sorting._scan)
_REDUCE = {"add": "sum", "multiply": "prod", "maximum": "max", "minimum": "min", "logical_and": "all",
           "logical_or": "any"}
_SCAN = {"add": "sum", "multiply": "prod"}
# most repeats of one index that at() handles natively (one round each)
_AT_ROUNDS = 64
_NOVALUE = _np._NoValue


class ufunc:
    """A maniple ufunc (NumPy's interface). Each instance's class defines
    __call__ as the plain function, so a call costs what the function does."""

    def __init__(self, name, np_ufunc):
        self.__name__ = self.__qualname__ = name
        self._np = np_ufunc
        self.nin, self.nout, self.nargs = np_ufunc.nin, np_ufunc.nout, np_ufunc.nargs
        self.ntypes, self.types, self.signature = np_ufunc.ntypes, np_ufunc.types, np_ufunc.signature
        self.identity = np_ufunc.identity
        self.__doc__ = f"numpy.{name}, element-wise, evaluated fused with the expression around it."

    def __repr__(self):
        return f"<ufunc '{self.__name__}'>"

    def _fallback(self, method, *args, **kwargs):
        from . import _fallback
        return _fallback.make(f"{self._np.__name__}.{method}", getattr(self._np, method))(*args, **kwargs)

    def _binary_only(self, what):
        if self.nin != 2:
            raise ValueError(f"{what} only supported for binary functions")

    # ---- reduce ----
    def reduce(self, array, axis=0, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
        from ._creation import asarray
        from ._functions import _NOVALUE as NOVALUE, _axes, _out_dtype, _reduce_iw, _reduced_out, _with_out
        self._binary_only("reduce")
        op = _REDUCE.get(self.__name__)
        if isinstance(out, tuple):
            out = out[0] if len(out) == 1 else out
        dtype = _out_dtype(op, array, dtype, out)
        if op is None or (dtype is not None and op not in ("sum", "prod")):
            np_out = out if isinstance(out, _np.ndarray) else None
            kw = {"axis": axis, "dtype": dtype, "keepdims": keepdims, "where": where,
                  "out": None if np_out is not None else out}
            if initial is not _NOVALUE:
                kw["initial"] = initial
            r = self._fallback("reduce", array, **kw)
            return _with_out(r, np_out, self.__name__) if np_out is not None else r
        a = asarray(array)
        if a.ndim == 0 and (axis is None or (type(axis) is int and axis in (0, -1))):
            axis = ()  # NumPy reduces a 0-d array over axis 0 or None to itself
        if isinstance(axis, tuple) and len(axis) == 0 and initial is _NOVALUE and where is True:
            r = a.astype(dtype or _reduce_dtype(op, a._dtype))  # no axis: the array itself, cast
            r = r.copy() if r is a else r
            return _with_out(r[()] if r.ndim == 0 else r, out, self.__name__)
        axes = _axes(axis, a.ndim)
        if initial is None:
            initial = _NOVALUE
        r = _reduce_iw(op, a, None if len(axes) == a.ndim else tuple(axes), dtype, None, keepdims,
                       NOVALUE if initial is _NOVALUE else initial, where)
        return _reduced_out(r, out)  # (as np.sum's out=)

    # ---- accumulate ----
    def accumulate(self, array, axis=0, dtype=None, out=None):
        from ._creation import asarray
        from ._functions import _axis
        self._binary_only("accumulate")
        if isinstance(out, tuple):
            out = out[0] if len(out) == 1 else out
        op = _SCAN.get(self.__name__)
        np_out = out if isinstance(out, _np.ndarray) else None
        if op is None:
            r = self._fallback("accumulate", array, axis=axis, dtype=dtype, out=None if np_out is not None else out)
            return _with_out_np(r, np_out, self.__name__)
        a = asarray(array)
        if a.ndim == 0:
            raise TypeError("cannot accumulate on a scalar")
        if axis is None or isinstance(axis, tuple) and len(axis) != 1:
            raise ValueError("accumulate does not allow multiple axes")
        ax = _axis(axis[0] if isinstance(axis, tuple) else axis, a.ndim)
        from ._sorting import _scan
        r = _scan(op, a, ax, dtype, None if np_out is not None else out)  # cumsum's dtypes
        return _with_out_np(r, np_out, self.__name__)

    # ---- outer ----
    def outer(self, A, B, /, **kwargs):
        from ._creation import asarray
        self._binary_only("outer product")
        a, b = asarray(A), asarray(B)
        return self(a[(Ellipsis,) + (None,) * b.ndim], b, **kwargs)

    # ---- reduceat ----
    def reduceat(self, array, indices, axis=0, dtype=None, out=None):
        self._binary_only("reduceat")
        if isinstance(out, tuple):
            out = out[0] if len(out) == 1 else out
        np_out = out if isinstance(out, _np.ndarray) else None
        if out is None:
            r = _reduceat(self, array, indices, axis, dtype)
            if r is not None:
                return r
        r = self._fallback("reduceat", array, indices, axis=axis, dtype=dtype,
                           out=None if np_out is not None else out)
        return _with_out_np(r, np_out, self.__name__)

    # ---- at ----
    def at(self, a, indices, b=None, /):
        """a[indices] = op(a[indices], b), unbuffered: an index repeated k
        times is applied k times, in order, as NumPy's at."""
        from ._ndarray import ndarray, _check_writable
        if self.nin == 2 and b is None:
            raise ValueError("second operand needed for ufunc")
        if self.nin == 1 and b is not None:
            raise ValueError("second operand provided when ufunc is unary")
        if self.nout != 1:
            raise ValueError("ufunc.at does not support ufuncs with more than one output")
        if not isinstance(a, (ndarray, _np.ndarray)) and getattr(type(a), "__array_ufunc__", None) is not None:
            from ._engine import _override  # NEP 13: an array-like overriding ufuncs does it itself
            return _override(a, self, "at", a, indices, *(() if b is None else (b,)))
        if not isinstance(a, ndarray):  # a NumPy array: NumPy works in place on it, everything gathered
            ind = tuple(_gathered(i) for i in indices) if isinstance(indices, tuple) else _gathered(indices)
            return self._np.at(a, ind, *(() if b is None else (_gathered(b),)))
        _check_writable(a)
        _at(self, a, indices, b)


def _gathered(x):
    from ._ndarray import ndarray
    return x.__array__() if isinstance(x, ndarray) else x


def _with_out_np(r, np_out, name):
    from ._functions import _with_out
    return _with_out(r, np_out, name) if np_out is not None else r


def _reduce_dtype(op, dt):
    from ._functions import _result_dtype
    return _result_dtype(op, dt)


def _positions(a, indices):
    """Flat positions (int64, C order) of a[indices], in NumPy's order, as a
    maniple array, with NumPy's IndexError for a bad index."""
    from ._creation import arange, asarray
    from ._ndarray import ndarray, _reshaped
    from ._select import _flat_indices
    plain = not isinstance(indices, (tuple, slice)) and indices is not Ellipsis and indices is not None
    if a.ndim == 1 and plain:
        y = indices if isinstance(indices, ndarray) else _np.asarray(indices)
        if y.dtype.kind in "iu":  # integer indices into a 1-d array: they are the positions
            return asarray(_flat_indices(indices, a.size, "raise"))
    p = _reshaped(arange(a.size), a.shape)[indices]
    return asarray(p) if not isinstance(p, ndarray) else p


def _at(uf, a, indices, b):
    from ._creation import arange, asarray
    from ._functions import _reduce
    from ._manipulation import broadcast_to
    from ._engine import _assign
    from ._ndarray import _flat, _reshaped
    from ._select import compress, put, take
    from ._sorting import _first_flags, argsort, cumsum
    pos = _positions(a, indices)
    if isinstance(b, (bool, int, float, complex)):
        bv = b  # a Python scalar stays weak (NEP 50), as in NumPy's at
        if type(b) is int and _np.dtype(a._dtype).kind in "iu":
            info = _np.iinfo(a._dtype)
            if not info.min <= b <= info.max and -2 ** 63 <= b < 2 ** 64:
                # one a's dtype cannot hold: NumPy's at takes it as a 64-bit int, and wraps
                bv = _np.int64(b) if b < 2 ** 63 else _np.uint64(b)
    elif b is not None:
        bv = asarray(b)
        try:
            bv = broadcast_to(bv, pos.shape) if bv.shape != pos.shape else bv
        except ValueError:
            raise ValueError("array is not broadcastable to correct shape") from None
        bv = _flat(bv.copy())
    f = _flat(pos).astype("int64").copy()
    n = f.size
    if n == 0:
        return
    perm = argsort(f)  # stable: each index's occurrences in their order
    fs = f[perm]
    flags = _first_flags(fs, False)
    seg = cumsum(flags) - 1
    starts = compress(flags, arange(n))
    occ = (arange(n) - take(starts, seg)).copy()  # which occurrence of its index each is
    rounds = int(_reduce("max", occ)) + 1
    if rounds > _AT_ROUNDS:  # an index repeated that often: NumPy on one rank, announced
        r = uf._fallback_at(a, indices, b)
        return r
    nd = a.ndim != 1
    flat = _flat(a) if nd else a  # N-d: a copy, written back at the end
    weak = isinstance(bv, (bool, int, float, complex, _np.generic)) if b is not None else False
    for k in range(rounds):  # each round's indices are distinct: read, operate, write
        if rounds == 1:
            idx, vals = f, (None if b is None else bv)
        else:
            sel = perm[occ == k]
            idx, vals = f[sel], (None if b is None else bv if weak else bv[sel])
        cur = take(flat, idx)
        r = uf(cur) if vals is None else uf(cur, vals)
        put(flat, idx, asarray(r).astype(a._dtype))
    if nd:
        _assign(a._materialize(), _reshaped(flat, a.shape))


def _reduceat(uf, array, indices, axis, dtype):
    """ufunc.reduceat with strictly increasing indices, on every rank: the
    array as rows along axis (C order, flat), each rank given whole segments
    (its share of the flat elements moved to the nearest segment start)
    and reducing them with NumPy's own reduceat, so each value is NumPy's
    bit for bit. None where this does not apply (unsorted or empty indices,
    0-d, nothing to reduce): NumPy on one rank then."""
    from maniple import _core
    from maniple.sparse import _dist
    from ._creation import asarray
    from ._functions import _axis
    from ._ndarray import ndarray, _reshaped
    a = asarray(array)
    idx = _np.asarray(indices.__array__() if isinstance(indices, ndarray) else indices)
    if a.ndim == 0 or idx.ndim != 1 or idx.size == 0 or idx.dtype.kind not in "iu" or a.size == 0:
        return None
    ax = _axis(axis, a.ndim)
    L = a.shape[ax]
    bad = idx[(idx < 0) | (idx >= L)]
    if bad.size:
        raise IndexError(f"index {int(bad[0])} out-of-bounds in {uf.__name__}.reduceat [0, {L})")
    idx = idx.astype(_np.int64)
    if idx.size > 1 and not (_np.diff(idx) > 0).all():
        return None
    rdt = uf._np.reduceat(_np.zeros(1, a.dtype), [0], dtype=dtype).dtype
    moved = a if ax == a.ndim - 1 else a.swapaxes(ax, -1)
    flat = moved.reshape(moved.size).astype(a.dtype, copy=True)._materialize()
    n, m = moved.size, idx.size

    def snap(t):  # the first segment start at or after flat position t (a row's end if none in its row)
        if t >= n:
            return n
        r, j = divmod(t, L)
        i = int(_np.searchsorted(idx, j))
        return r * L + int(idx[i]) if i < m else (r + 1) * L

    k, p = _dist.rank(), _dist.size()
    lo = 0 if k == 0 else snap(_dist.split(n, k, p)[0])
    hi = n if k == p - 1 else snap(_dist.split(n, k + 1, p)[0])
    chunk = _np.frombuffer(flat.split_local(hi - lo), dtype=a.dtype)
    # the segment starts in [lo, hi), and each row's end where its last
    # segment stops short of the next row's first start (outputs dropped)
    rows = _np.arange(lo // L, (hi - 1) // L + 1 if hi > lo else lo // L, dtype=_np.int64)
    starts = (rows[:, None] * L + idx[None, :]).ravel()
    keep = (starts >= lo) & (starts < hi)
    cuts = (rows + 1) * L if idx[0] > 0 else _np.empty(0, _np.int64)
    cuts = cuts[(cuts > lo) & (cuts < hi)]
    pos = _np.concatenate([starts[keep], cuts]) - lo
    real = _np.concatenate([_np.ones(int(keep.sum()), bool), _np.zeros(cuts.size, bool)])
    order = _np.argsort(pos, kind="stable")
    pos, real = pos[order], real[order]
    # an integer power's negative exponent raises on the ranks whose
    # segments hold one: every rank learns of it and raises alike (no rank
    # left waiting); no other reduceat raises on values
    agree, err = uf.__name__ == "power" and _np.dtype(rdt).kind in "iu", None
    try:
        res = uf._np.reduceat(chunk, pos, dtype=dtype)[real] if pos.size else _np.empty(0, rdt)
    except ValueError as e:
        if not agree:
            raise
        err = str(e)
    errs = [e for e in _dist.allgather_obj(err) if e is not None] if agree else ()
    if errs:
        raise ValueError(errs[0])
    r = _reshaped(ndarray(_core.concat_local(_np.dtype(rdt).name, res.astype(rdt).tobytes())),
                  moved.shape[:-1] + (m,))
    return r if ax == a.ndim - 1 else r.swapaxes(ax, -1)


def _fallback_at(self, a, indices, b):
    """ufunc.at by NumPy on one rank (announced): a gathered there, changed
    in place by NumPy, and written back."""
    from . import _fallback, _root
    from ._engine import _assign

    def run(x, ind, *rest):
        self._np.at(x, ind, *rest)
        return x
    _fallback._announce(f"{self._np.__name__}.at")
    r = _root.call(run, (a, indices) + (() if b is None else (b,)))
    _assign(a._materialize(), r)


ufunc._fallback_at = _fallback_at


def make(name, fn, np_ufunc=None):
    """The ufunc object for fn (a plain function), named as NumPy's."""
    cls = type("ufunc", (ufunc,), {"__call__": staticmethod(fn), "__module__": __name__})
    return cls(name, np_ufunc or getattr(_np, name))
