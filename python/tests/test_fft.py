"""maniple.numpy.fft against numpy.fft run in the test, at 1, 2 and 3
ranks: every transform, axis, n (cut and padded), norm and dtype, shapes
with fewer lines than ranks (the four-step path for lengths of 64 and up
that factor, whole lines for a prime length), empty arrays, out= and
NumPy's errors. Transforms by another route than NumPy's agree up to
rounding: 1e-12 of the largest value in float64. NumPy's float16
transforms are computed in float32 and scaled in float16 (errors near
1e-4), maniple's scaled in float32: the tolerance there is NumPy's."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from xp import raises_like

R = numpy.random.default_rng(11)
TOL = {"float64": 1e-12, "complex128": 1e-12, "float32": 1e-5, "complex64": 1e-5, "float16": 1e-3}
NAMES = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")


def same(got, want, tol):
    assert isinstance(got, mnp.ndarray)
    g = numpy.asarray(got)
    assert g.shape == want.shape and g.dtype == want.dtype, (g.shape, want.shape, g.dtype, want.dtype)
    if want.size:
        err = numpy.abs(g - want).max() / max(1.0, numpy.abs(want).max())
        assert err <= tol, err


def data(shape, complex_=True):
    x = R.standard_normal(shape)
    return x + 1j * R.standard_normal(shape) if complex_ else x


@pytest.mark.parametrize("shape", [(1000,), (997,), (64,), (7,), (1,), (5, 300), (300, 5), (2, 3, 256)])
@pytest.mark.parametrize("name", NAMES)
def test_one_axis(shape, name):
    inp = data(shape, name not in ("rfft", "ihfft"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # native: no fallback announcement
        for ax in range(len(shape)):
            for norm in (None, "backward", "ortho", "forward"):
                for n in (None, shape[ax] + 3, max(1, shape[ax] - 2)):
                    if name in ("irfft", "hfft") and n is None and shape[ax] == 1:
                        continue  # no points (NumPy's error, below)
                    want = getattr(numpy.fft, name)(inp, n=n, axis=ax, norm=norm)
                    same(getattr(mnp.fft, name)(mnp.asarray(inp), n=n, axis=ax - len(shape), norm=norm), want,
                         1e-12)


@pytest.mark.parametrize("shape", [(16, 12), (3, 4, 5), (40, 2)])
@pytest.mark.parametrize("name", ["fftn", "ifftn", "rfftn", "irfftn", "fft2", "ifft2", "rfft2", "irfft2"])
def test_several_axes(shape, name):
    inp = data(shape, not name.startswith("rfft"))
    axes2 = (0, 1) if len(shape) == 2 else (0, 2)
    for kw in ({}, {"axes": (0,)}, {"s": (5, 6), "axes": axes2}, {"s": (-1, 7), "axes": axes2}, {"norm": "ortho"},
               {"axes": ()}):
        if kw.get("axes") == () and name.endswith("2"):
            continue
        if kw.get("axes") == () and "rfft" in name:
            raises_like(lambda xp: getattr(xp.fft, name)(xp.asarray(inp), **kw), IndexError)
            continue
        want = getattr(numpy.fft, name)(inp, **kw)
        same(getattr(mnp.fft, name)(mnp.asarray(inp), **kw), want, 1e-12)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int64", "uint64", "float16", "float32", "float64", "complex64",
                                   "complex128"])
def test_dtypes_as_numpy(dtype):
    """NumPy's result dtypes (single precision stays single) and its
    TypeError for a complex input to the real transforms"""
    x = (R.standard_normal(200) * 3).astype(dtype) if dtype != "bool" else R.random(200) > 0.5
    for name in NAMES:
        for n in (None, 300):
            try:
                want = getattr(numpy.fft, name)(x, n=n)
            except TypeError:
                raises_like(lambda xp: getattr(xp.fft, name)(xp.asarray(x), n=n), TypeError)
                continue
            same(getattr(mnp.fft, name)(mnp.asarray(x), n=n), want, TOL.get(dtype, 1e-12))


def test_round_trips_and_a_long_vector():
    """ifft(fft(x)) and irfft(rfft(x)) give x back; a long 1-d vector (the
    four-step path at any rank count above 1) against NumPy"""
    x = data(3 * 4096)
    same(mnp.fft.fft(mnp.asarray(x)), numpy.fft.fft(x), 1e-12)
    same(mnp.fft.ifft(mnp.fft.fft(mnp.asarray(x))), x, 1e-13)
    y = x.real.copy()
    same(mnp.fft.irfft(mnp.fft.rfft(mnp.asarray(y)), n=y.size), y, 1e-13)


def test_empty_out_and_errors():
    for shape, kw in (((0, 4), {}), ((4, 0), {"n": 3}), ((0, 4), {"axis": 0, "n": 2})):
        for name in NAMES:
            x = numpy.zeros(shape, complex if name not in ("rfft", "ihfft") else float)
            got, want = getattr(mnp.fft, name)(mnp.asarray(x), **kw), getattr(numpy.fft, name)(x, **kw)
            if name in ("irfft", "hfft") and "n" in kw:  # NumPy pads nothing with unset memory: zeros here
                want = numpy.zeros_like(want)
            same(got, want, 0)
    for name in NAMES:
        raises_like(lambda xp: getattr(xp.fft, name)(xp.ones(4), norm="x"), ValueError, "norm")
        raises_like(lambda xp: getattr(xp.fft, name)(xp.ones(4), n=0), ValueError, "Invalid number")
        raises_like(lambda xp: getattr(xp.fft, name)(xp.ones(4), axis=1), IndexError)
        raises_like(lambda xp: getattr(xp.fft, name)(xp.ones((4, 0))), ValueError, "Invalid number")
        raises_like(lambda xp: getattr(xp.fft, name)(3.0), IndexError)
    raises_like(lambda xp: xp.fft.irfft(xp.ones(1)), ValueError, "Invalid number")
    raises_like(lambda xp: xp.fft.fftn(xp.ones((4, 3)), s=(2, 3, 4), axes=(0, 1)), ValueError, "different lengths")
    x = numpy.arange(8.0)
    for out in (mnp.zeros(8, complex), numpy.zeros(8, complex)):
        r = mnp.fft.fft(mnp.asarray(x), out=out)
        assert r is out
        numpy.testing.assert_allclose(numpy.asarray(out), numpy.fft.fft(x), rtol=0, atol=1e-12)
    raises_like(lambda xp: xp.fft.fft(xp.arange(8.0), out=xp.zeros(8)), TypeError, "Cannot cast")
    raises_like(lambda xp: xp.fft.fft(xp.arange(8.0), out=xp.zeros(7, complex)), ValueError, "shape")
    with pytest.warns(DeprecationWarning):
        mnp.fft.fftn(mnp.ones((4, 3)), s=(2, 3))


@pytest.mark.parametrize("fn", ["fftn", "ifftn", "rfftn", "irfftn"])
def test_an_axis_the_array_lacks_is_numpys_axis_error(fn):
    """s with more axes than the array (or axes past its last): NumPy's
    AxisError, which `except ValueError` catches; maniple raised an
    IndexError."""
    import warnings
    x = numpy.ones((4, 4))
    for kw in (dict(s=(4, 4, 4)), dict(s=(4, 4, 4), axes=(0, 1, 2))):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            raises_like(lambda xp: getattr(xp.fft, fn)(xp.asarray(x), **kw), numpy.exceptions.AxisError,
                        "out of bounds for array of dimension 2")
