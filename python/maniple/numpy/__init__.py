"""maniple.numpy: NumPy over distributed arrays. Change `import numpy as np`
to `import maniple.numpy as np` and run the script with `python` or under
`mpiexec -n N`: every rank runs the same program on its part of each array.

Element-wise expressions are deferred and evaluated fused, in one pass, when
a value is needed. What is implemented so far is listed in docs/python.md;
anything else raises NotImplementedError or AttributeError rather than
giving a wrong answer.
"""
import numpy as _np

from maniple import init as _init

from . import linalg, random
from ._creation import (arange, array, asarray, copy, copyto, empty, empty_like, eye, full, full_like, identity,
                        linspace, load, meshgrid, ones, ones_like, save, zeros, zeros_like)
from ._functions import (UFUNCS as _UFUNCS, all, allclose, amax, amin, any, argmax, argmin, array_equal, clip,
                         count_nonzero, dot, isclose, matmul, max, mean, min, prod, ravel, reshape, sum, vdot, where)
from ._manipulation import (atleast_1d, atleast_2d, concatenate, diag, expand_dims, flip, fliplr, flipud, hstack,
                            pad, repeat, roll, split, squeeze, stack, swapaxes, tile, transpose, vstack)
from ._math import (angle, around, conj, conjugate, fix, i0, imag, iscomplex, iscomplexobj, isneginf, isposinf,
                    isreal, isrealobj, nan_to_num, real, round, sinc)
from ._ndarray import ndarray

_init()

globals().update(_UFUNCS)
# NumPy's other names for the same functions (NumPy 2 array-API names too)
abs = absolute  # noqa: F821 (defined by the update above)
divide = true_divide  # noqa: F821
mod = remainder  # noqa: F821
acos, asin, atan, atan2, pow = arccos, arcsin, arctan, arctan2, power  # noqa: F821
acosh, asinh, atanh = arccosh, arcsinh, arctanh  # noqa: F821
bitwise_not = bitwise_invert = invert  # noqa: F821
bitwise_left_shift, bitwise_right_shift = left_shift, right_shift  # noqa: F821
concat, permute_dims = concatenate, transpose
bool_ = _np.bool_
int32, int64, float32, float64 = _np.int32, _np.int64, _np.float32, _np.float64
dtype = _np.dtype
newaxis = None
pi, e, inf, nan = _np.pi, _np.e, _np.inf, _np.nan


# NumPy names left out on purpose, and why
_WITHHELD = {
    "bitwise_count": "its result dtype is uint8, which maniple does not have (a wider integer result would "
                     "wrap differently in later arithmetic)",
}


def __getattr__(name):
    """A NumPy name maniple.numpy lacks is an AttributeError saying so,
    never a silent fallback to NumPy on a gathered copy."""
    if name in _WITHHELD:
        raise AttributeError(f"maniple.numpy does not implement numpy.{name}: {_WITHHELD[name]}")
    if hasattr(_np, name):
        raise AttributeError(f"maniple.numpy does not implement numpy.{name} yet; see "
                             "`python -m maniple.numpy.coverage` for what is implemented")
    raise AttributeError(f"module 'maniple.numpy' has no attribute '{name}'")
