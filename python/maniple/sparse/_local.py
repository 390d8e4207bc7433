"""The values maniple.sparse holds (every numeric dtype but float16, as
scipy.sparse) and a Csr's rows on
this rank as NumPy arrays, and back: the layer every sparse module builds
on (a maniple._core.Csr keeps each row's columns sorted and without
duplicates, rows split over the ranks in equal parts)."""
import numpy as _np

from maniple import _core

_HELD = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64",
         "complex64", "complex128")


# ---------------------------------------------------------------- dtypes ---
def value_dtype(dt, explicit=True):
    """The value dtype maniple stores for dt: bool, the integers, float32,
    float64, complex64 and complex128 as they are (SciPy's set, less its
    long double ones); anything else is SciPy's ValueError. (explicit: kept
    for the callers that tell a dtype asked for from the data's.)"""
    d = _np.dtype(dt)
    if d.name in _HELD:
        return d.name
    raise ValueError(f"maniple.sparse does not support dtype {d.name}: it holds {', '.join(_HELD)}")


def _result_dtype(*dts):
    """NumPy's result dtype of values of these dtypes (float16 with an
    8-bit integer: float32, which maniple holds)."""
    r = _np.result_type(*dts)
    return value_dtype(_np.float32 if r == _np.float16 else r)


def sum_dtype(dt):
    """The dtype SciPy sums values of dt in: int64 (uint64) for the
    narrower integers and bool, as NumPy's sum."""
    d = _np.dtype(dt)
    if d.kind == "u":
        return "uint64"
    if d.kind in "bi":
        return "int64"
    return d.name


# ---------------------------------------------------- local rows of a Csr ---
def local_rows(A):
    """This rank's rows of A: (row0, rowptr, cols, vals), NumPy arrays
    (int64 rowptr starting at 0, int64 global sorted columns, values).
    Local."""
    r0, nl, _ = A.local_rows()
    rp, c, v = A.get_rows()
    return (r0, _np.frombuffer(rp, _np.int64), _np.frombuffer(c, _np.int64), _np.frombuffer(v, A.dtype))


def local_coo(A):
    """This rank's entries of A as (rows, cols, vals) with global indices."""
    r0, rp, c, v = local_rows(A)
    rows = r0 + _np.repeat(_np.arange(len(rp) - 1, dtype=_np.int64), _np.diff(rp))
    return rows, c, v


def from_local_rows(shape, dtype, rowptr, cols, vals):
    """A Csr of shape from this rank's rows in CSR form (collective)."""
    return _core.csr_rows(int(shape[0]), int(shape[1]), dtype, _np.ascontiguousarray(rowptr, _np.int64),
                          _np.ascontiguousarray(cols, _np.int64), _np.ascontiguousarray(vals, dtype))


def from_local_coo(shape, dtype, rows, cols, vals):
    """A Csr of shape from triplets this rank holds (any rows; duplicates
    summed; collective). An index out of range is SciPy's ValueError, on
    every rank."""
    try:
        return _core.csr_coo(int(shape[0]), int(shape[1]), dtype, _np.ascontiguousarray(rows, _np.int64),
                             _np.ascontiguousarray(cols, _np.int64), _np.ascontiguousarray(vals, dtype))
    except IndexError as e:
        raise ValueError(str(e)) from None


def map_values(A, fn, dtype=None):
    """A new Csr with the same pattern and values fn(vals) (NumPy's
    arithmetic, element by element, so that results equal SciPy's)."""
    r0, rp, c, v = local_rows(A)
    w = _np.asarray(fn(v))
    dt = value_dtype(w.dtype, True) if dtype is None else dtype
    return from_local_rows(A.shape, dt, rp, c, w.astype(dt, copy=False))
