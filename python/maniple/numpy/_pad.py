"""numpy.pad on maniple arrays, every mode native: the result is made at its
padded shape, the array copied into its middle, then each axis's two pad
areas filled in turn from what is already there (slices of the result
assigned into slices of it, so the plans move only the rows a pad needs).
Axis k fills its pads over the whole extent of the axes before it (their
pads are filled by then, so the corners come out as NumPy's) and over the
original extent of the axes after it (whose pads hold nothing yet)."""
import numpy as _np

from ._creation import asarray, empty
from ._ndarray import ndarray

# the keywords each mode takes (NumPy refuses the others)
_KEYWORDS = {"constant": ("constant_values",), "edge": (), "empty": (), "wrap": (),
             "linear_ramp": ("end_values",), "maximum": ("stat_length",), "mean": ("stat_length",),
             "median": ("stat_length",), "minimum": ("stat_length",), "reflect": ("reflect_type",),
             "symmetric": ("reflect_type",)}


def _plain(x):
    return x.__array__() if isinstance(x, ndarray) else x


def _pairs(x, ndim, index=False):
    """x as ndim (before, after) pairs, read as NumPy reads pad_width,
    constant_values, end_values and stat_length: one value for all, one
    pair for every axis, or one pair per axis."""
    if x is None:
        return [(None, None)] * ndim
    v = _np.array(_plain(x))
    if index:
        v = _np.round(v).astype(_np.intp, copy=False)
    if v.size in (1, 2) and v.ndim < 3 and v.shape != (2, 1):  # NumPy scalars (a value cast as NumPy casts)
        v = v.reshape(-1)
        p = (v[0], v[-1])
        if index and min(p) < 0:
            raise ValueError("index can't contain negative values")
        return [p] * ndim
    if index and v.size and v.min() < 0:
        raise ValueError("index can't contain negative values")
    return [tuple(p) for p in _np.broadcast_to(v, (ndim, 2)).tolist()]  # Python scalars


def _widths(pad_width, ndim):
    if isinstance(pad_width, dict):  # {axis: width or (before, after)}, the others 0
        seq = [(0, 0)] * ndim
        for ax, w in pad_width.items():
            seq[ax] = (w, w) if isinstance(w, int) else tuple(w)
        pad_width = seq
    pw = _np.asarray(_plain(pad_width))
    if pw.dtype.kind != "i":
        raise TypeError("`pad_width` must be of integral type.")
    return _pairs(pw, ndim, index=True)


def pad(array, pad_width, mode="constant", **kwargs):
    """NumPy's pad. A callable mode (NumPy's old protocol, a Python function
    on 1-d vectors) runs NumPy's pad on the gathered array."""
    a = asarray(array)
    nd = a.ndim
    widths = _widths(pad_width, nd)
    if callable(mode):
        from ._root import everywhere
        return asarray(_np.pad(everywhere(a), widths, mode, **kwargs))
    allowed = _KEYWORDS.get(mode) if isinstance(mode, str) else None
    if allowed is None:
        raise ValueError(f"mode '{mode}' is not supported")
    extra = set(kwargs) - set(allowed)
    if extra:
        raise ValueError(f"unsupported keyword arguments for mode '{mode}': {extra}")
    f = a.flags  # an F-ordered array pads to an F-ordered result, as NumPy's
    order = "F" if f.f_contiguous and not f.c_contiguous else "C"
    out = empty(tuple(s + lo + hi for s, (lo, hi) in zip(a.shape, widths)), a.dtype, order)
    middle = tuple(slice(lo, lo + s) for s, (lo, _) in zip(a.shape, widths))
    out[middle] = a
    if mode == "empty":
        return out
    if mode != "constant" and a.size == 0:  # nothing to repeat: only axes with nothing to add pass
        for ax, (lo, hi) in enumerate(widths):
            if a.shape[ax] == 0 and (lo or hi):
                raise ValueError(f"can't extend empty axis {ax} using modes other than 'constant' or 'empty'")
        return out
    fill = _FILL.get(mode, _stat)
    cv = kwargs.get("constant_values", 0)
    if mode == "constant" and not isinstance(cv, ndarray) and nd:
        # NumPy's errors for values the dtype cannot hold, from its own pad of a one-element stand-in
        # (which raises for some: 1000 into int8; and wraps others: -2 into uint8)
        _np.pad(_np.zeros((1,) * nd, a._dtype), 1, constant_values=cv)
    if mode in ("constant", "linear_ramp"):
        extra = _pairs(kwargs.get(_KEYWORDS[mode][0], 0), nd)
    else:  # stat_length (None: the whole extent), or nothing
        extra = _pairs(kwargs.get("stat_length"), nd, index=True)
    for ax in range(nd):
        lo, hi = widths[ax]
        fill(_Axis(out, ax, middle, lo, hi, a.shape[ax]), extra[ax], mode, kwargs)
    return out


class _Axis:
    """Axis ax of the result out while its pads are filled: at(s) indexes
    out with slice s on this axis (the whole extent of the axes before,
    the original one of the axes after)."""

    def __init__(self, out, ax, middle, lo, hi, n):
        self.out, self.ax, self.lo, self.hi, self.n = out, ax, lo, hi, n
        self.size = out.shape[ax]
        self.pre, self.post = (slice(None),) * ax, middle[ax + 1:]

    def at(self, start, stop, step=None):
        if step is not None and stop is not None and stop < 0:
            stop = None  # a reversed slice down to the first element
        return self.pre + (slice(start, stop, step),) + self.post

    def get(self, start, stop, step=None):
        return self.out[self.at(start, stop, step)]

    def set(self, start, stop, value):
        if stop > start:
            self.out[self.at(start, stop)] = value


def _constant(x, values, mode, kw):
    x.set(0, x.lo, values[0])
    x.set(x.size - x.hi, x.size, values[1])


def _edge(x, _v, mode, kw):
    if x.lo:
        x.set(0, x.lo, x.get(x.lo, x.lo + 1))
    if x.hi:
        x.set(x.size - x.hi, x.size, x.get(x.size - x.hi - 1, x.size - x.hi))


def _ramp(x, ends, mode, kw):
    """From the end value to the edge value over the pad, the edge left
    out, computed as NumPy's linspace does (in float64 or complex128, one
    step for all unless some step is zero) and cast to the array's type
    (integers rounded down)."""
    import maniple.numpy as mnp
    dt = x.out.dtype
    wide = _np.result_type(dt, _np.float64)
    for side, (n, end) in enumerate(((x.lo, ends[0]), (x.hi, ends[1]))):
        if not n:
            continue
        e = x.size - x.hi - 1 if side else x.lo
        edge = x.get(e, e + 1).astype(wide)
        # (complex for a complex array: NumPy divides it as complex, by a reciprocal)
        k = mnp.arange(n, dtype=wide).reshape((1,) * x.ax + (n,) + (1,) * (x.out.ndim - x.ax - 1))
        delta = edge - end
        step = delta / n
        y = (k / n) * delta + end if bool((step == 0).any()) else k * step + end
        if _np.issubdtype(dt, _np.integer):
            y = mnp.floor(y)
        y = y.astype(dt)
        if side:
            y = y[(slice(None),) * x.ax + (slice(None, None, -1),)]
            x.set(x.size - n, x.size, y)
        else:
            x.set(0, n, y)


_STATS = ("maximum", "minimum", "mean", "median")


def _stat(x, lengths, mode, kw):
    """The statistic of the first (last) stat_length values of the
    original extent, over each pad (rounded for integer arrays)."""
    import maniple.numpy as mnp
    func = {"maximum": mnp.max, "minimum": mnp.min, "mean": mnp.mean, "median": mnp.median}[mode]
    first, last = x.lo, x.size - x.hi
    n = last - first
    ll = n if lengths[0] is None or lengths[0] > n else lengths[0]
    rl = n if lengths[1] is None or lengths[1] > n else lengths[1]
    if (ll == 0 or rl == 0) and mode in ("maximum", "minimum"):
        raise ValueError("stat_length of 0 yields no value for padding")
    integer = _np.issubdtype(x.out.dtype, _np.integer)

    def value(start, stop):
        v = func(x.get(start, stop), axis=x.ax, keepdims=True)
        return mnp.rint(v) if integer else v
    left = value(first, first + ll) if x.lo else None
    right = None
    if x.hi:
        right = left if left is not None and ll == rl == n else value(last - rl, last)
    if left is not None:
        x.set(0, x.lo, left)
    if right is not None:
        x.set(last, x.size, right)


def _mirror(x, _v, mode, kw):
    """reflect (the edge not repeated) and symmetric (repeated): each round
    mirrors what is filled so far about the outermost value, whole periods
    of it only, until the pads are full; reflect_type 'odd' takes 2 * edge
    - the mirrored values."""
    odd = kw.get("reflect_type", "even") == "odd"
    if x.n == 1:  # one value: NumPy repeats it (reflect and symmetric alike)
        return _edge(x, None, mode, kw)
    sym = mode == "symmetric"
    lo, hi = x.lo, x.size - x.hi
    while lo > 0 or hi < x.size:
        cur = hi - lo
        usable = cur // x.n * x.n if sym else (cur - 1) // (x.n - 1) * (x.n - 1)
        m, mr = min(usable, lo), min(usable, x.size - hi)
        if m:
            s = 0 if sym else 1  # the first mirrored value: the edge's own or its neighbour's
            v = x.get(lo + s + m - 1, lo + s - 1, -1)
            x.set(lo - m, lo, 2 * x.get(lo, lo + 1) - v if odd else v)
        if mr:
            s = 1 if sym else 2
            v = x.get(hi - s, hi - s - mr, -1)
            x.set(hi, hi + mr, 2 * x.get(hi - 1, hi) - v if odd else v)
        lo, hi = lo - m, hi + mr


def _wrap(x, _v, mode, kw):
    """Periodic: each round copies whole periods of what is filled so far."""
    lo, hi = x.lo, x.size - x.hi
    while lo > 0 or hi < x.size:
        usable = (hi - lo) // x.n * x.n
        m, mr = min(usable, lo), min(usable, x.size - hi)
        if m:
            x.set(lo - m, lo, x.get(lo + usable - m, lo + usable))
        if mr:
            x.set(hi, hi + mr, x.get(hi - usable, hi - usable + mr))
        lo, hi = lo - m, hi + mr


_FILL = {"constant": _constant, "edge": _edge, "linear_ramp": _ramp, "reflect": _mirror,
         "symmetric": _mirror, "wrap": _wrap}
