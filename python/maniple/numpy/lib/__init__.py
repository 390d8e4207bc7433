"""maniple.numpy.lib: the parts of numpy.lib scripts reach for
(stride_tricks, NumpyVersion, mixins); other names are AttributeErrors saying so."""
import numpy as _np

from . import stride_tricks

NumpyVersion = _np.lib.NumpyVersion
# NDArrayOperatorsMixin defines the operators through ufuncs, which reach
# maniple arrays by __array_ufunc__: NumPy's module serves as it is.
mixins = _np.lib.mixins


def __getattr__(name):
    if hasattr(_np.lib, name):
        raise AttributeError(f"maniple.numpy does not implement numpy.lib.{name} yet")
    raise AttributeError(f"module 'maniple.numpy.lib' has no attribute '{name}'")
