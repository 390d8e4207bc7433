"""Functions that call user code on maniple arrays: the user's function
gets distributed arrays (slices, masked parts), so it runs distributed too."""
import numpy as _np

from ._creation import asarray, zeros
from ._functions import _axis
from ._manipulation import stack
from ._ndarray import _reshaped


def piecewise(x, condlist, funclist, *args, **kw):
    x = asarray(x)
    if not isinstance(condlist, (list, tuple)) or (len(condlist) and not isinstance(condlist[0], (list, tuple))
                                                    and getattr(condlist[0], "ndim", 1) == 0):
        condlist = [condlist]
    conds = [asarray(c) for c in condlist]
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
    return res.transpose(order) if order != list(range(res.ndim)) else res


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
