"""maniple.numpy.lib: the parts of numpy.lib scripts reach for
(stride_tricks, NumpyVersion, mixins, npyio.NpzFile); other names are AttributeErrors saying so."""
import types as _types

import numpy as _np

from .._npzfile import NpzFile as _NpzFile

from . import stride_tricks

NumpyVersion = _np.lib.NumpyVersion
# NDArrayOperatorsMixin defines the operators through ufuncs, which reach
# maniple arrays by __array_ufunc__: NumPy's module serves as it is.
mixins = _np.lib.mixins
# numpy.lib.npyio's public names: load's archive class is maniple's own
npyio = _types.SimpleNamespace(NpzFile=_NpzFile, DataSource=_np.lib.npyio.DataSource)


def __getattr__(name):
    if hasattr(_np.lib, name):
        raise AttributeError(f"maniple.numpy does not implement numpy.lib.{name} yet")
    raise AttributeError(f"module 'maniple.numpy.lib' has no attribute '{name}'")
