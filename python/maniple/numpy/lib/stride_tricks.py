"""numpy.lib.stride_tricks for distributed arrays. Strides mean nothing
across ranks, so sliding_window_view copies the windows into a read-only
array (NumPy's default view is read-only too, so reads agree); it holds
prod(window_shape) times the elements, where NumPy's view holds none."""
import operator

import numpy as _np

from .._creation import asarray, empty
from .._manipulation import broadcast_arrays, broadcast_shapes, broadcast_to, stack


def _axes(axis, ndim):
    if axis is None:
        return tuple(range(ndim))
    axis = (axis,) if _np.ndim(axis) == 0 else tuple(axis)
    out = []
    for ax in axis:
        ax = operator.index(ax)
        if not -ndim <= ax < ndim:
            raise _np.exceptions.AxisError(ax, ndim)
        out.append(ax % ndim)
    return tuple(out)


def sliding_window_view(x, window_shape, axis=None, *, subok=False, writeable=False):
    """numpy.lib.stride_tricks.sliding_window_view, as a read-only copy."""
    if writeable:
        raise NotImplementedError("maniple.numpy: sliding_window_view(writeable=True) is not implemented: the "
                                  "windows are a copy, which writes could not carry back to x")
    window_shape = tuple(window_shape) if _np.iterable(window_shape) else (window_shape,)
    x = asarray(x)
    if any(w < 0 for w in window_shape):
        raise ValueError("`window_shape` cannot contain negative values")
    if axis is None:
        if len(window_shape) != x.ndim:
            raise ValueError(f"Since axis is `None`, must provide window_shape for all dimensions of `x`; got "
                             f"{len(window_shape)} window_shape elements and `x.ndim` is {x.ndim}.")
    axes = _axes(axis, x.ndim)
    if len(window_shape) != len(axes):
        raise ValueError(f"Must provide matching length window_shape and axis; got {len(window_shape)} "
                         f"window_shape elements and {len(axes)} axes elements.")
    trimmed = list(x.shape)
    for ax, w in zip(axes, window_shape):
        if trimmed[ax] < w:
            raise ValueError("window shape cannot be larger than input array shape")
        trimmed[ax] -= w - 1
    out_shape = tuple(trimmed) + window_shape
    if 0 in out_shape:
        out = empty(out_shape, x.dtype)
    else:
        out = x
        for ax, w in zip(axes, window_shape):  # each window axis goes last, in the order given
            n = out.shape[ax] - w + 1
            out = stack([out[(slice(None),) * ax + (slice(k, k + n),)] for k in range(w)], axis=-1)
    out.setflags(write=False)
    return out


def as_strided(x, shape=None, strides=None, subok=False, writeable=True):
    raise NotImplementedError("maniple.numpy: as_strided is not implemented: a distributed array has no single "
                              "memory block for raw strides to address (sliding_window_view makes windows)")


__all__ = ["as_strided", "broadcast_arrays", "broadcast_shapes", "broadcast_to", "sliding_window_view"]
