"""The dtypes maniple.numpy holds, and what NumPy says of them: their kinds,
integer ranges and same-kind casts (asked of NumPy once, at import)."""
import numpy as _np

SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTS = SIGNED + UNSIGNED
FLOATS = ("float16", "float32", "float64")
COMPLEX = ("complex64", "complex128")
INEXACT = FLOATS + COMPLEX  # NumPy's inexact: means and variances keep these dtypes
INTEGER = ("bool",) + INTS  # NumPy's integer-like: sums count in int64 or uint64
SUPPORTED = ("bool",) + INTS + FLOATS + COMPLEX

# bool < integer < float < complex: the order of same-kind casting
KIND = {t: 0 if t == "bool" else 1 if t in INTS else 2 if t in FLOATS else 3 for t in SUPPORTED}
CAN_CAST_SAME_KIND = {t: {s for s in SUPPORTED if _np.can_cast(s, t, "same_kind")} for t in SUPPORTED}
INT_RANGE = {t: (int(_np.iinfo(t).min), int(_np.iinfo(t).max)) for t in INTS}


def check_cast(src, dst, rule):
    """NumPy's TypeError where src may not be cast to dst under rule."""
    if not _np.can_cast(src, dst, rule):
        raise TypeError(f"Cannot cast array data from dtype('{_np.dtype(src)}') to dtype('{_np.dtype(dst)}') "
                        f"according to the rule '{rule}'")


def check_c_long(v, dtype):
    """NumPy's first error for a Python int v an integer (or bool) dtype
    cannot take: past C long (uint64 takes up to 2**64 - 1)."""
    if not (-2 ** 63 <= v < 2 ** 63 or dtype == "uint64" and 0 <= v < 2 ** 64):
        raise OverflowError("Python int too large to convert to C long")


class Unholdable(TypeError):
    """A dtype maniple arrays cannot hold (object, strings, datetimes,
    structured, longdouble): the functions that meet one hand the call to
    NumPy (_unholdable.py); elsewhere it is the TypeError it derives from."""

    def __init__(self, dtype):
        self.dtype = _np.dtype(dtype)
        super().__init__(f"maniple.numpy does not support dtype '{self.dtype}' (supported: {', '.join(SUPPORTED)})")


def sum_dtype(dt):
    """NumPy's sum and prod of dt: int64 for bool and signed integers,
    uint64 for unsigned ones, else dt."""
    if dt in UNSIGNED:
        return "uint64"
    return "int64" if dt in INTEGER else dt
