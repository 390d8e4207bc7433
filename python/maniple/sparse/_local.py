"""The values maniple.sparse holds (float64, float32, complex128 or
complex64) and a Csr's rows on
this rank as NumPy arrays, and back: the layer every sparse module builds
on (a maniple._core.Csr keeps each row's columns sorted and without
duplicates, rows split over the ranks in equal parts)."""
import numpy as _np

from maniple import _core

_HELD = ("float64", "float32", "complex128", "complex64")


# ---------------------------------------------------------------- dtypes ---
def value_dtype(dt, explicit):
    """The value dtype maniple stores for dt: float64, float32, complex128
    and complex64 as they are; integer and boolean data become float64
    when the dtype was not asked for (explicit False); anything else is a
    TypeError."""
    d = _np.dtype(dt)
    if d.name in _HELD:
        return d.name
    if d.kind in "biu" and not explicit:
        return "float64"
    held = "float64, float32, complex128 or complex64"
    if d.kind in "biu":
        raise TypeError(f"maniple.sparse holds {held} values, not {d.name} (integer and boolean data "
                        "given without dtype= are converted to float64)")
    raise TypeError(f"maniple.sparse holds {held} values, not {d.name}")


def _result_float(*dts):
    """NumPy's result dtype of values of these dtypes, which must be a
    dtype maniple holds (integers and bools become float64)."""
    r = _np.result_type(*dts)
    return value_dtype(r, False)


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
