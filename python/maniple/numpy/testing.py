"""maniple.numpy.testing: numpy.testing for maniple arrays, as cupy.testing
is for CuPy's. NumPy's comparison assertions take a maniple array for the
NumPy array it gathers to (assert_equal would otherwise compare with ==
and ask a many-element result for its truth value); everything else is
numpy.testing's own. Every rank gathers and compares, so an assertion
fails on every rank alike."""
import functools

import numpy.testing as _nt
from numpy.testing import *  # noqa: F401,F403 (NumPy's names, replaced below where they compare values)

import numpy as _np

from ._creation import _via_array_method
from ._ndarray import ndarray as _mn_ndarray
from ._root import everywhere as _to_numpy

_COMPARING = ("assert_equal", "assert_almost_equal", "assert_approx_equal", "assert_array_equal",
              "assert_array_almost_equal", "assert_array_less", "assert_allclose", "assert_array_max_ulp",
              "assert_array_almost_equal_nulp")


def _host(a):
    """a gathered; an array-like whose __array__ makes a maniple array (a
    test's class after its import changed) through that array. Anything
    else as it is: a NumPy masked array keeps its mask."""
    if not isinstance(a, _np.ndarray):
        r = _via_array_method(a)
        a = r if isinstance(r, _mn_ndarray) else a
    return _to_numpy(a)


def _gathering(fn):
    @functools.wraps(fn)
    def compare(*args, **kwargs):
        return fn(*[_host(a) for a in args], **{k: _host(v) for k, v in kwargs.items()})
    return compare


for _name in _COMPARING:
    globals()[_name] = _gathering(getattr(_nt, _name))
del _name


def __getattr__(name):
    """numpy.testing's other names (its private helpers too, which NumPy's
    own test files import), as numpy.testing has them."""
    try:
        return getattr(_nt, name)
    except AttributeError:
        raise AttributeError(f"module 'maniple.numpy.testing' has no attribute '{name}'") from None
