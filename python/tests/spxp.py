"""Run a test body once with scipy.sparse (and NumPy) and once with
maniple.sparse (and maniple.numpy) and compare the results: sparse results
by class family, format, shape, dtype and values (gathered with
.toarray()), dense ones gathered with numpy.asarray.

Dtypes: maniple holds float64 or float32 values; where SciPy keeps an
integer or boolean dtype, maniple's is float64 (checked, not ignored)."""
import numpy
import numpy.testing as nt
import pytest
import scipy.sparse as ssp

import maniple.numpy as mnp
import maniple.sparse as msp


def mat(shape, density=0.4, dtype="float64", seed=0, empty_row=True):
    """The same scipy.sparse CSR on every rank: values small integers and
    halves (sums exact in float32 too), no explicit zeros; row 1 empty
    when there is a row 1. A complex dtype adds small imaginary parts
    (some entries purely imaginary) on the same pattern."""
    rng = numpy.random.default_rng(seed)
    m, n = shape
    d = rng.integers(-9, 10, size=shape).astype("float64") + 0.5 * (rng.random(shape) > 0.5)
    d[rng.random(shape) > density] = 0
    if empty_row and m > 2:
        d[1] = 0
    if numpy.dtype(dtype).kind == "c":
        nz = d != 0
        d = d + 1j * (rng.integers(-3, 4, size=shape) * nz)
        d[nz & (rng.random(shape) > 0.8)] *= 1j  # some purely imaginary
    return ssp.csr_array(d.astype(dtype))


def want_dtype(dt):
    return numpy.dtype(dt)  # maniple.sparse holds SciPy's dtypes


def _family(x):
    return "array" if isinstance(x, (ssp.sparray, msp.sparray)) else "matrix"


def compare(got, want, rtol=0.0, atol=0.0, fmt=True):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            compare(g, w, rtol, atol, fmt)
        return
    if ssp.issparse(want):
        assert msp.issparse(got), f"expected a maniple sparse matrix, got {type(got).__name__}"
        assert _family(got) == _family(want), (type(got), type(want))
        if fmt:
            assert got.format == want.format, (got.format, want.format)
        assert got.shape == want.shape, (got.shape, want.shape)
        assert got.dtype == want_dtype(want.dtype), (got.dtype, want.dtype)
        g = numpy.asarray(got.toarray())
        _values(g, want.toarray(), rtol, atol)
        return
    if isinstance(want, numpy.ndarray):  # np.matrix too: maniple gives a 2-d array
        assert isinstance(got, mnp.ndarray), f"expected a maniple array, got {type(got).__name__}"
        g = numpy.asarray(got)
        w = numpy.asarray(want)
        assert g.shape == w.shape, (g.shape, w.shape)
        assert g.dtype == want_dtype(w.dtype), (g.dtype, w.dtype)
        _values(g, w, rtol, atol)
        return
    if isinstance(want, numpy.generic):
        assert isinstance(got, numpy.generic), f"expected a NumPy scalar like {want!r}, got {got!r}"
        if got.dtype.kind in "iu":  # a count
            assert got.dtype == want.dtype, (got.dtype, want.dtype)
        else:
            assert got.dtype == want_dtype(want.dtype), (got.dtype, want.dtype)
        _values(numpy.asarray(got), numpy.asarray(want), rtol, atol)
        return
    assert got == want, (got, want)


def _values(g, w, rtol, atol):
    if rtol or atol:
        nt.assert_allclose(g, w.astype(g.dtype), rtol=rtol, atol=atol, equal_nan=True)
    else:
        nt.assert_array_equal(g, w)


def check(fn, rtol=0.0, atol=0.0, fmt=True):
    """fn(sp, xp) with (scipy.sparse, numpy) and (maniple.sparse,
    maniple.numpy); the results must agree."""
    want = fn(ssp, numpy)
    got = fn(msp, mnp)
    compare(got, want, rtol, atol, fmt)
    return got


def raises_like(fn, exc, match=None):
    """Both raise exc (maniple on every rank: each rank runs this)."""
    with pytest.raises(exc):
        fn(ssp, numpy)
    with pytest.raises(exc, match=match):
        fn(msp, mnp)
