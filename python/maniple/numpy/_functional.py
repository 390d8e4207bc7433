"""Functions that call user code on maniple arrays: the user's function
gets distributed arrays (slices, masked parts), so it runs distributed too."""
import numpy as _np

from maniple import _core

from ._creation import asarray, zeros
from ._dtypes import SUPPORTED as _SUPPORTED_NAMES, Unholdable
from ._functions import _axis
from ._manipulation import stack
from ._ndarray import _as_type, _reshaped, ndarray


def piecewise(x, condlist, funclist, *args, **kw):
    x = asarray(x)
    # NumPy's reading: one condition unless the first item is itself a
    # sequence; conditions are truth values (an int array is not an index)
    if _np.isscalar(condlist) or (not isinstance(condlist[0], (list, ndarray, _np.ndarray)) and x.ndim != 0):
        condlist = [condlist]
    conds = [asarray(c).astype(bool) for c in condlist]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(f"with {n} condition(s), either {n} or {n + 1} functions are expected")
    if len(funclist) == n + 1:  # the last function where no condition holds
        others = ~conds[0] if n else asarray(_np.ones(x.shape, bool))
        for c in conds[1:]:
            others = others & ~c
        conds.append(others)
    y = zeros(x.shape, x._dtype)
    for c, f in zip(conds, funclist):
        if c.shape != x.shape:
            c = c + zeros(x.shape, "bool")
        if callable(f):
            part = x[c]
            if part.size:
                y[c] = f(part, *args, **kw)
        else:
            y[c] = f
    return y


def apply_along_axis(func1d, axis, arr, *args, **kwargs):
    """func1d on each 1-d slice along axis (each a distributed view), in C
    order of the other indices; the results are stacked as NumPy does."""
    arr = asarray(arr)
    ax = _axis(axis, arr.ndim, "int")
    rest = [arr.shape[d] for d in range(arr.ndim) if d != ax]
    if 0 in rest:
        raise ValueError("Cannot apply_along_axis when any iteration dimensions are 0")
    outs = []
    for idx in _np.ndindex(*rest):
        key = list(idx)
        key.insert(ax, slice(None))
        outs.append(asarray(func1d(arr[tuple(key)], *args, **kwargs)))
    res = stack(outs)  # (prod(rest), *result shape)
    shape = tuple(rest) + res.shape[1:]
    res = _reshaped(res, shape)
    # the result's own axes go where the axis was
    nres = res.ndim - len(rest)
    order = list(range(ax)) + [len(rest) + k for k in range(nres)] + list(range(ax, len(rest)))
    res = res.transpose(order) if order != list(range(res.ndim)) else res
    # of the first result's class, as NumPy wraps it (a subclass's rows give its class)
    return res if type(outs[0]) is ndarray else _as_type(res, type(outs[0]), outs[0])


def apply_over_axes(func, a, axes):
    a = asarray(a)
    for ax in (axes if isinstance(axes, (list, tuple)) else [axes]):
        ax = _axis(ax, a.ndim)
        r = asarray(func(a, ax))
        if r.ndim == a.ndim - 1:
            r = r[(slice(None),) * ax + (None,)]
        elif r.ndim != a.ndim:
            raise ValueError("function is not returning an array of the correct shape")
        a = r
    return a


class vectorize:
    """numpy.vectorize on distributed arrays: the inputs are broadcast and
    flattened alike, each rank calls pyfunc on its own elements (NumPy's
    vectorize on its part, so in C order within it) and the results are
    joined back in rank order. The output types are otypes, else those of
    one call on the first elements, made on every rank (NumPy makes that
    call too). An exception pyfunc raises on any rank is raised on all.
    With a signature (a generalized ufunc), every rank runs NumPy's
    vectorize on the gathered arguments, and the results are distributed:
    a core dimension may span the ranks."""

    def __init__(self, pyfunc=_np._NoValue, otypes=None, doc=None, excluded=None, cache=False, signature=None):
        if pyfunc is not _np._NoValue and not callable(pyfunc):
            raise TypeError("When used as a decorator, only accepts keyword arguments.")
        self.pyfunc = pyfunc
        self.otypes = otypes
        self.__name__ = getattr(pyfunc, "__name__", "vectorize")
        self.excluded = set(excluded or ())
        self.cache = cache
        self.signature = signature
        if signature is not None:  # NumPy's parse, and its errors, now
            _np.vectorize(lambda *a: None, signature=signature)
        self.__doc__ = doc if doc is not None else getattr(pyfunc, "__doc__", None)

    @property
    def otypes(self):
        return self._otypes

    @otypes.setter
    def otypes(self, otypes):  # (NumPy's: a string of type characters or a list of dtypes, settable later)
        self._otypes = None if otypes is None else [_np.dtype(t) for t in otypes]

    def __call__(self, *args, **kwargs):
        if self.pyfunc is _np._NoValue:  # the decorator form: vectorize(otypes=...)(f)
            self.pyfunc = args[0]
            self.__name__ = getattr(self.pyfunc, "__name__", "vectorize")
            return self
        if self.signature is not None:
            return self._gathered(args, kwargs)
        pos = [i for i in range(len(args)) if i not in self.excluded]
        names = [k for k in kwargs if k not in self.excluded]
        from ._manipulation import broadcast_arrays
        try:
            arrays = broadcast_arrays(*[asarray(args[i]) for i in pos] + [asarray(kwargs[k]) for k in names])
        except Unholdable:  # object or str inputs (NumPy's arrays): NumPy's vectorize, on every rank
            return self._gathered(args, kwargs)
        shape = arrays[0].shape if arrays else ()

        def call(values):
            a = list(args)
            for i, v in zip(pos, values):
                a[i] = v
            kw = dict(kwargs)
            kw.update(zip(names, values[len(pos):]))
            return self.pyfunc(*a, **kw)

        otypes = self.otypes
        cached = []  # cache=True: the first element's value, from the call that found the otypes
        if otypes is None:
            if arrays and arrays[0].size == 0:
                raise ValueError("cannot call `vectorize` on size 0 inputs unless `otypes` is set")
            first = call([x.flat[0] for x in arrays])  # (the same on every rank)
            otypes = [_np.asarray(o).dtype for o in (first if isinstance(first, tuple) else (first,))]
            multi = isinstance(first, tuple)
            if self.cache and _core.rank() == 0:  # rank 0 holds the first element (the default split)
                cached.append(first)
        else:
            multi = len(otypes) > 1
        if any(t.name not in _SUPPORTED_NAMES for t in otypes):  # object or str outputs: NumPy's vectorize
            return self._gathered(args, kwargs)
        mine = [_own_elements(x) for x in arrays]
        err = None
        try:
            n = len(mine[0]) if mine else 1
            f = _np.vectorize(lambda *v: cached.pop() if cached else call(list(v)), otypes=[t.char for t in otypes])
            outs = f(*mine) if mine else f()
            outs = outs if multi else (outs,)
            outs = [_np.ascontiguousarray(_np.broadcast_to(o, (n,) if mine else ()), dtype=t).reshape(-1)
                    for o, t in zip(outs, otypes)]
        except Exception as e:  # noqa: BLE001 (re-raised on every rank below)
            err = e
        from maniple.sparse import _dist
        errs = _dist.allgather_obj(None if err is None else _portable(err))
        bad = next((e for e in errs if e is not None), None)
        if bad is not None:
            if err is not None:
                raise err
            try:
                other = bad[0](*bad[1])
            except Exception:  # noqa: BLE001 (a class whose constructor does not take its args)
                other = RuntimeError(f"{bad[0].__name__}{bad[1]!r} (raised on another rank)")
            raise other
        res = []
        for o, t in zip(outs, otypes):
            if not mine and _core.rank() != 0:  # no array argument: rank 0's one value
                o = o[:0]
            res.append(_joined(o, t, shape))
        return tuple(res) if multi else res[0]


def _gathered_call(self, args, kwargs):
    from ._root import everywhere
    f = _np.vectorize(self.pyfunc, otypes=self.otypes, excluded=self.excluded, cache=self.cache,
                      signature=self.signature)
    r = f(*everywhere(list(args)), **everywhere(dict(kwargs)))
    from ._unholdable import _back
    return tuple(_back(_np.asarray(x)) for x in r) if isinstance(r, tuple) else _back(_np.asarray(r))


vectorize._gathered = _gathered_call


def _portable(err):
    """(type, args) of an exception for the other ranks: picklable, else a
    RuntimeError naming it (a pickling failure on one rank would leave the
    others waiting)"""
    import pickle
    try:
        pickle.dumps((type(err), err.args))
        return (type(err), err.args)
    except Exception:  # noqa: BLE001
        return (RuntimeError, (f"{type(err).__name__}: {err}",))


def foreign_ufunc(uf, inputs, kwargs):
    """A NumPy ufunc maniple.numpy does not define (scipy.special's erf,
    gamma, jv; numpy.frompyfunc's) over maniple arrays: the inputs broadcast
    and flattened alike, each rank applies it to its own elements (no
    message: an element-wise function), and the outputs come back laid out
    as the inputs. Outputs of dtypes maniple does not hold (frompyfunc's
    object) are NumPy's, computed on the gathered inputs."""
    from ._manipulation import broadcast_arrays
    from ._root import everywhere
    from ._unholdable import _back
    arrays = broadcast_arrays(*[asarray(x) for x in inputs])
    shape = arrays[0].shape
    empty = [_np.empty(0, x.dtype) for x in arrays]
    types = uf(*empty, **kwargs)  # NumPy's type resolution (and its errors), alike on every rank
    types = types if isinstance(types, tuple) else (types,)
    if any(str(t.dtype) not in _SUPPORTED_NAMES for t in types):
        return _back(uf(*everywhere(list(inputs)), **kwargs))
    outs = uf(*[_own_elements(x) for x in arrays], **kwargs)
    res = tuple(_joined(o, o.dtype, shape) for o in (outs if isinstance(outs, tuple) else (outs,)))
    return res if len(res) > 1 else res[0]


def _own_elements(x):
    """This rank's share of x flattened (the default split), as NumPy's."""
    return _np.frombuffer(x.ravel().astype(x.dtype, copy=True)._materialize().local_values()[1], dtype=x.dtype)


def _joined(o, dtype, shape):
    """The ranks' flat parts o (of dtype), in rank order, as an array of shape."""
    return _reshaped(ndarray(_core.concat_local(_np.dtype(dtype).name, _np.ascontiguousarray(o).tobytes())), shape)
