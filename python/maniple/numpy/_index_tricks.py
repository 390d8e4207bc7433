"""The index objects: mgrid, ogrid, r_, c_ (making distributed arrays with
NumPy's values and dtypes), and s_, index_exp (NumPy's own: they build
index tuples and hold no data)."""
import math

import numpy as _np

from ._creation import arange, array, empty, linspace
from ._manipulation import concatenate

s_, index_exp = _np.s_, _np.index_exp


def _start_step(sl):
    start = 0 if sl.start is None else sl.start
    step = 1 if sl.step is None else sl.step
    return start, step


class _Grid:
    """mgrid (dense) and ogrid (sparse): the arithmetic of NumPy's nd_grid,
    each axis as arange(n) * step + start, so the values are NumPy's."""

    def __init__(self, sparse):
        self.sparse = sparse

    def __getitem__(self, key):
        if isinstance(key, slice):
            return self._one(key)
        key = tuple(key)
        sizes, nums = [], []
        for sl in key:
            if not isinstance(sl, slice):
                raise TypeError(f"{'ogrid' if self.sparse else 'mgrid'} takes slices, not {type(sl).__name__}")
            start, step = _start_step(sl)
            if isinstance(step, (complex, _np.complexfloating)):
                step = abs(step)
                sizes.append(int(step))
            else:
                sizes.append(int(math.ceil((sl.stop - start) / (step * 1.0))))
            nums += [start, sl.stop, step]
        typ = _np.result_type(*nums)
        axes = []
        for n, sl in zip(sizes, key):
            start, step = _start_step(sl)
            if isinstance(step, (complex, _np.complexfloating)):
                step = int(abs(step))
                if step != 1:
                    step = (sl.stop - start) / float(step - 1)
            axes.append((arange(max(n, 0), dtype=typ) * step + start).astype(typ, copy=False))
        nd = len(axes)
        shaped = [v.reshape(tuple(v.size if d == k else 1 for d in range(nd))) for k, v in enumerate(axes)]
        if self.sparse:
            return tuple(shaped)
        out = empty((nd,) + tuple(max(n, 0) for n in sizes), dtype=typ)
        for k, v in enumerate(shaped):
            out[k] = v
        return out

    @staticmethod
    def _one(sl):
        start, step = _start_step(sl)
        if isinstance(step, (complex, _np.complexfloating)):
            length = int(abs(step))
            typ = _np.result_type(start, sl.stop, abs(step))
            step = (sl.stop - start) / float(length - 1) if length != 1 else length
            return arange(0, length, 1, dtype=typ) * step + start
        return arange(start, sl.stop, sl.step)

    def __len__(self):
        return 0


mgrid = _Grid(sparse=False)
ogrid = _Grid(sparse=True)


class _Concatenator:
    """r_ and c_: slices become arange/linspace, scalars and sequences
    arrays of at least ndmin axes, all cast to one result type and
    concatenated along axis; a leading string sets axis, ndmin and where a
    1-d item's axis goes ('0,2,1'), as in NumPy."""

    def __init__(self, axis=0, ndmin=1, trans1d=-1):
        self.axis, self.ndmin, self.trans1d = axis, ndmin, trans1d

    def __getitem__(self, key):
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs, kinds = [], []
        for k, item in enumerate(key):
            if isinstance(item, slice):
                start, step = _start_step(item)
                if isinstance(step, (complex, _np.complexfloating)):
                    new = linspace(start, item.stop, num=int(abs(step)))
                else:
                    new = arange(start, item.stop, step)
                if ndmin > 1:
                    new = array(new, copy=None, ndmin=ndmin)
                    if trans1d != -1:
                        new = new.swapaxes(-1, trans1d)
                kinds.append(new.dtype)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise NotImplementedError("maniple.numpy has no matrix type: the 'r' and 'c' directives "
                                              "of r_ make numpy.matrix objects")
                try:
                    vec = [int(x) for x in item.split(",")]
                except ValueError as e:
                    raise ValueError(f"unknown special directive {item!r}") from e
                if len(vec) == 1:
                    axis = vec[0]
                else:
                    axis, ndmin = vec[:2]
                    if len(vec) == 3:
                        trans1d = vec[2]
                continue
            elif type(item) in _np.ScalarType:
                new = item
                kinds.append(item)
            else:
                item_ndim = _np.ndim(item)
                new = array(item, copy=None, ndmin=ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + k2 + 1 if trans1d < 0 else trans1d
                    order = list(range(ndmin))
                    new = new.transpose(order[:k1] + order[k2:] + order[k1:k2])
                kinds.append(new.dtype)
            objs.append(new)
        if kinds:
            dt = _np.result_type(*kinds)
            objs = [array(o, copy=None, ndmin=ndmin, dtype=dt) for o in objs]
        return concatenate(tuple(objs), axis=axis)

    def __len__(self):
        return 0


r_ = _Concatenator(0)
c_ = _Concatenator(-1, ndmin=2, trans1d=0)
