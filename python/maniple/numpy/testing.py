"""maniple.numpy.testing: numpy.testing for maniple arrays, as cupy.testing
is for CuPy's. NumPy's comparison assertions take a maniple array for the
NumPy array it gathers to (assert_equal would otherwise compare with ==
and ask a many-element result for its truth value); everything else is
numpy.testing's own. Every rank gathers and compares, so an assertion
fails on every rank alike."""
import functools

import numpy as _np
import numpy.testing as _nt
from numpy.testing import *  # noqa: F401,F403 (NumPy's names, replaced below where they compare values)

from ._ndarray import ndarray as _ndarray

_COMPARING = ("assert_equal", "assert_almost_equal", "assert_approx_equal", "assert_array_equal",
              "assert_array_almost_equal", "assert_array_less", "assert_allclose", "assert_array_max_ulp",
              "assert_array_almost_equal_nulp")


def _to_numpy(v):
    """v with its maniple arrays gathered, inside lists, tuples and dicts too."""
    if isinstance(v, _ndarray):
        return _np.asarray(v)
    if isinstance(v, (list, tuple)) and type(v) in (list, tuple):
        return type(v)(_to_numpy(x) for x in v)
    if isinstance(v, dict) and type(v) is dict:
        return {k: _to_numpy(x) for k, x in v.items()}
    return v


def _gathering(fn):
    @functools.wraps(fn)
    def compare(*args, **kwargs):
        return fn(*[_to_numpy(a) for a in args], **{k: _to_numpy(v) for k, v in kwargs.items()})
    return compare


for _name in _COMPARING:
    globals()[_name] = _gathering(getattr(_nt, _name))
del _name
