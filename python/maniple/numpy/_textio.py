"""File formats beyond .npy, through rank 0: writing gathers the arrays to
rank 0, which writes with NumPy; reading is done by rank 0 with NumPy and the
result scattered. Marked "gathered": one rank holds each whole array."""
import numpy as _np

from . import _root


def _gathered_io(np_func):
    def f(*args, **kwargs):
        return _root.call(np_func, args, kwargs)
    f.__name__ = np_func.__name__
    f.__doc__ = f"numpy.{np_func.__name__} on rank 0 (arrays gathered there, results scattered)."
    f._mn_kind = "gathered"
    return f


savetxt = _gathered_io(_np.savetxt)
loadtxt = _gathered_io(_np.loadtxt)
genfromtxt = _gathered_io(_np.genfromtxt)
savez = _gathered_io(_np.savez)
savez_compressed = _gathered_io(_np.savez_compressed)
