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

from . import emath, fft, lib, linalg, random, testing
from ._creation import (arange, array, asarray, copy, copyto, empty, empty_like, eye, from_dlpack, full, full_like, identity,
                        linspace, load, meshgrid, ones, ones_like, save, zeros, zeros_like)
from ._functions import (UFUNCS as _UFUNCS, all, allclose, amax, amin, any, argmax, argmin, array_equal, array_equiv, clip,
                         count_nonzero, isclose, max, mean, min, prod, ravel, reshape, std, sum, var, where)
from ._indexing import nonzero
from ._index_tricks import c_, index_exp, mgrid, ogrid, r_, s_
from ._manipulation import (append, array_split, atleast_1d, atleast_2d, atleast_3d, block, broadcast_arrays,
                            broadcast_shapes, broadcast_to, column_stack, concatenate, delete, diag, diagflat, dsplit,
                            dstack, expand_dims, flip, fliplr, flipud, hsplit, hstack, insert, matrix_transpose,
                            moveaxis, repeat,
                            resize, roll, rollaxis, rot90, row_stack, split, squeeze, stack, swapaxes, tile, transpose,
                            trim_zeros, unstack, vsplit, vstack)
from ._pad import pad
from ._math import (angle, around, bitwise_count, conj, conjugate, fix, i0, imag, iscomplex, iscomplexobj, isneginf,
                    isposinf, isreal, isrealobj, nan_to_num, packbits, real, real_if_close, round, sinc,
                    unpackbits)
from ._meta import (array2string, array_repr, array_str, asfortranarray, broadcast, fromfile, fromstring, info,
                    ndenumerate, nditer, show_config, show_runtime,
                    asanyarray, asarray_chkfinite, ascontiguousarray, astype, base_repr, binary_repr, bool, byte,
                    short, ubyte, uint, uintc, uintp, ulong, ulonglong, unsignedinteger, ushort, can_cast, common_type, double, errstate, finfo, floating, format_float_positional,
                    format_float_scientific, frombuffer, fromfunction, fromiter, generic, get_include, get_printoptions,
                    getbufsize, geterr, geterrcall, iinfo, inexact, int_, intc, integer, intp, isdtype, isfortran,
                    isscalar, issubdtype, long, longlong, may_share_memory, min_scalar_type, mintypecode, ndim, shares_memory,
                    ndindex, number, printoptions, promote_types, require, result_type, set_printoptions, setbufsize,
                    seterr,
                    seterrcall, shape, signedinteger, single, size, typename)
from ._functional import apply_along_axis, apply_over_axes, piecewise, vectorize
from ._windows import bartlett, blackman, geomspace, hamming, hanning, kaiser, logspace, vander
from ._signal import convolve, correlate, interp, polyval, unwrap
from ._polynomial import poly, poly1d, polyadd, polyder, polydiv, polyfit, polyint, polymul, polysub, roots
from ._stats import corrcoef, cov
from ._histogram import bincount, histogram, histogram2d, histogram_bin_edges, histogramdd
from ._ndarray import ndarray, flatiter
from ._ufunc import ufunc
from ._textio import genfromtxt, loadtxt, savetxt, savez, savez_compressed
from ._products import (cross, diagonal, dot, einsum, einsum_path, inner, kron, matmul, matvec, outer, tensordot, trace,
                        vdot, vecdot, vecmat)
from ._reductions import (average, diff, ediff1d, gradient, nanargmax, nanargmin, nanmax, nanmean, nanmin, nanprod,
                          nanstd, nansum, nanvar, ptp, trapezoid)
from ._select import (argwhere, choose, compress, diag_indices, diag_indices_from, extract, fill_diagonal,
                      flatnonzero, indices, ix_, mask_indices, place, put, put_along_axis, putmask,
                      ravel_multi_index, select, take, take_along_axis, tri, tril, tril_indices, tril_indices_from,
                      triu, triu_indices, triu_indices_from, unravel_index)
from ._sorting import (argpartition, argsort, cumprod, cumsum, cumulative_prod, cumulative_sum, digitize, intersect1d,
                       isin, lexsort, median, nancumprod, nancumsum, nanmedian, nanpercentile, nanquantile, partition,
                       percentile, quantile, searchsorted, setdiff1d, setxor1d, sort, sort_complex, union1d, unique, unique_all,
                       unique_counts, unique_inverse, unique_values)

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
int8, int16, uint8, uint16, uint32, uint64 = _np.int8, _np.int16, _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16 = half = _np.float16
complex64 = csingle = _np.complex64
complex128 = cdouble = complex_ = _np.complex128
complexfloating = _np.complexfloating
dtype = _np.dtype
newaxis = None
pi, e, inf, nan = _np.pi, _np.e, _np.inf, _np.nan
euler_gamma, little_endian = _np.euler_gamma, _np.little_endian
False_, True_ = _np.False_, _np.True_
# type and error information, and NumPy's own assertions (they read a
# maniple array through __array__): the same objects as NumPy's
typecodes, sctypeDict, ScalarType = _np.typecodes, _np.sctypeDict, _np.ScalarType
dtypes, exceptions = _np.dtypes, _np.exceptions
iterable = _np.iterable
polynomial = _np.polynomial  # NumPy's package: maniple arrays gathered through __array__ (docs/python.md)
# NumPy's own, taking maniple arrays gathered through __array__ and giving
# NumPy arrays ("gathered", docs/python.md): masked arrays, the matrix class
# and record arrays, which maniple arrays do not hold
ma, rec, matrix, asmatrix, bmat = _np.ma, _np.rec, _np.matrix, _np.asmatrix, _np.bmat
_core = _np._core  # NumPy's private package, for code that reads its tables (sctypes)
# and for the dtypes maniple arrays do not hold (their arrays are NumPy's, _unholdable.py):
# record arrays and regex-parsed files, and the datetime helpers
recarray, record, fromregex = _np.recarray, _np.record, _np.fromregex
isnat, datetime_as_string, datetime_data = _np.isnat, _np.datetime_as_string, _np.datetime_data
busday_count, busday_offset, busdaycalendar, is_busday = _np.busday_count, _np.busday_offset, _np.busdaycalendar, \
    _np.is_busday
_GATHERED_NAMES = frozenset({"ma", "rec", "matrix", "asmatrix", "bmat", "recarray", "record", "fromregex", "isnat",
                             "datetime_as_string", "datetime_data", "busday_count", "busday_offset", "busdaycalendar",
                             "is_busday"})
# scalar types of dtypes maniple arrays do not hold, for isinstance checks
# and type tests in scripts; as a dtype each is refused with a TypeError
longdouble, clongdouble, object_, str_, bytes_, void = (_np.longdouble, _np.clongdouble, _np.object_, _np.str_,
                                                        _np.bytes_, _np.void)
datetime64, timedelta64, character, flexible = _np.datetime64, _np.timedelta64, _np.character, _np.flexible
__version__ = _np.__version__  # the NumPy API level it follows (scripts branch on it)

from ._ndarray import _keeps_subclass, _late_imports  # noqa: E402
_late_imports()  # the methods' modules, all loaded by now
# results of these take their arguments' ndarray subclass, as NumPy's do
for _n in ("sum", "prod", "min", "max", "amin", "amax", "mean", "std", "var", "argmin", "argmax", "all", "any", "ptp",
           "average", "cumsum", "cumprod", "median", "percentile", "quantile", "nanargmax", "nanargmin", "nanmax",
           "nanmean", "nanmin", "nanprod", "nanstd", "nansum", "nanvar", "nancumsum", "nancumprod", "nanmedian",
           "nanpercentile", "nanquantile", "insert", "delete", "piecewise"):
    globals()[_n] = _keeps_subclass(globals()[_n])

# announced fallbacks for the NumPy names not defined above
from . import _fallback  # noqa: E402
_fallback.install(globals())
# dtypes maniple arrays cannot hold (object, str, ...): NumPy's functions on gathered arrays
from . import _unholdable  # noqa: E402
_unholdable.install(globals())


# NumPy names left out on purpose, and why
_WITHHELD = {}


def __getattr__(name):
    """A NumPy name maniple.numpy lacks (not even as an announced fallback)
    is an AttributeError saying so, never a silent fallback to NumPy on a
    gathered copy."""
    if name in _WITHHELD:
        raise AttributeError(f"maniple.numpy does not implement numpy.{name}: {_WITHHELD[name]}")
    if hasattr(_np, name):
        raise AttributeError(f"maniple.numpy does not implement numpy.{name} yet; see "
                             "`python -m maniple.numpy.coverage` for what is implemented")
    raise AttributeError(f"module 'maniple.numpy' has no attribute '{name}'")
