"""maniple.numpy.testing: numpy.testing for maniple arrays, as cupy.testing
is for CuPy's. NumPy's comparison assertions take a maniple array for the
NumPy array it gathers to (assert_equal would otherwise compare with ==
and ask a many-element result for its truth value); everything else is
numpy.testing's own. Every rank gathers and compares, so an assertion
fails on every rank alike."""
import functools

import numpy.testing as _nt
from numpy.testing import *  # noqa: F401,F403 (NumPy's names, replaced below where they compare values)

from ._root import everywhere as _to_numpy

_COMPARING = ("assert_equal", "assert_almost_equal", "assert_approx_equal", "assert_array_equal",
              "assert_array_almost_equal", "assert_array_less", "assert_allclose", "assert_array_max_ulp",
              "assert_array_almost_equal_nulp")


def _gathering(fn):
    @functools.wraps(fn)
    def compare(*args, **kwargs):
        return fn(*[_to_numpy(a) for a in args], **{k: _to_numpy(v) for k, v in kwargs.items()})
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
