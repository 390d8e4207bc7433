"""Run a test body once with NumPy and once with maniple.numpy and compare
the results (maniple results are gathered with numpy.asarray)."""
import warnings

import numpy
import numpy.testing as nt

import maniple.numpy as mnp
from maniple import _core

_ON_HOST = _core.backend() == "cpu"
SHAPES = [(), (0,), (2,), (7,), (7, 5), (3, 4, 5), (1, 6), (4, 0)]


def data(shape, dtype="float64", seed=0, nan=False):
    """The same array on every rank: small integers (exact in every
    dtype, with repeats), optionally with NaNs and a -0.0."""
    rng = numpy.random.default_rng(seed)
    x = rng.integers(-9, 10, size=shape)
    if dtype == "bool":
        return x > 0
    x = x.astype(dtype)
    if numpy.dtype(dtype).kind == "f" and x.size:
        x = x + numpy.asarray(rng.random(shape) > 0.5, dtype) * numpy.asarray(0.5, dtype)
        if nan:
            x.flat[::5] = numpy.nan
        x.flat[-1] = -0.0
    return x


def compare(got, want, rtol=0.0, atol=0.0, dtype=True):
    if isinstance(want, (tuple, list)):
        assert isinstance(got, (tuple, list)) and len(got) == len(want), (got, want)
        for g, w in zip(got, want):
            compare(g, w, rtol, atol, dtype)
        return
    if isinstance(want, numpy.ndarray):
        assert isinstance(got, mnp.ndarray), f"expected a maniple array, got {type(got).__name__}"
        g = numpy.asarray(got)
        assert g.shape == want.shape, (g.shape, want.shape)
        if dtype:
            assert g.dtype == want.dtype, (g.dtype, want.dtype)
        if rtol or atol:
            nt.assert_allclose(g, want, rtol=rtol, atol=atol, equal_nan=True)
        else:
            nt.assert_array_equal(g, want)
        return
    if isinstance(want, numpy.generic):
        assert not isinstance(got, mnp.ndarray), f"expected a scalar like {want!r}, got an array"
        if dtype:
            assert numpy.asarray(got).dtype == want.dtype, (type(got), type(want))
        if rtol or atol:
            nt.assert_allclose(got, want, rtol=rtol, atol=atol, equal_nan=True)
        else:
            nt.assert_array_equal(got, want)
        return
    assert got == want or (got != got and want != want), (got, want)


def fpe_kinds(caught):
    """The floating-point exceptions NumPy-style warnings name ("divide by
    zero", "overflow", "underflow", "invalid value")."""
    kinds = set()
    for w in caught:
        m = str(w.message)
        if issubclass(w.category, RuntimeWarning) and " encountered in " in m:
            kinds.add(m.split(" encountered in ")[0])
    return kinds


def check(fn, rtol=0.0, atol=0.0, dtype=True, fpe=True):
    """fn(xp) with both modules; the results must agree, and so must the
    floating-point exceptions each reports (at one rank; at more, each
    rank's are among NumPy's: a rank reports its own elements')."""
    with warnings.catch_warnings(record=True) as ww:
        warnings.simplefilter("always")
        want = fn(numpy)
    with warnings.catch_warnings(record=True) as wg:
        warnings.simplefilter("always")
        got = fn(mnp)
        compare(got, want, rtol, atol, dtype)
    for w in ww + wg:  # for the caller's filters and pytest.warns, as if not caught here
        warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if fpe and _ON_HOST:  # (a device reports no floating-point exceptions, as CuPy's)
        g, w = fpe_kinds(wg), fpe_kinds(ww)
        assert g == w if _core.size() == 1 else g <= w, f"floating-point warnings {sorted(g)}, NumPy's {sorted(w)}"
    return got


def raises_like(fn, exc, match=None):
    """Both modules raise exc (maniple on every rank: each rank runs this)."""
    import pytest
    with pytest.raises(exc):
        fn(numpy)
    with pytest.raises(exc, match=match):
        fn(mnp)
