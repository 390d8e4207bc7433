"""Edge cases of reductions and differences against NumPy (found in
review), on every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

from xp import check, data, raises_like


def test_sum_prod_with_an_explicit_dtype_keep_it():
    x = numpy.arange(-5, 7, dtype=numpy.int32).reshape(3, 4)
    big = numpy.full((3, 4), 2**30, dtype=numpy.int64)
    for dt in ("int32", "int64", "bool"):
        check(lambda xp: xp.sum(xp.asarray(x), dtype=dt))
        check(lambda xp: xp.sum(xp.asarray(x), axis=0, dtype=dt))
        check(lambda xp: xp.prod(xp.asarray(x), axis=1, dtype=dt))
    check(lambda xp: xp.sum(xp.asarray(big), dtype="int32"))          # wraps, as NumPy's int32 accumulation
    check(lambda xp: xp.sum(xp.asarray(big), axis=0, dtype="int32"))
    check(lambda xp: xp.prod(xp.asarray(big), dtype="int32"))
    check(lambda xp: xp.trace(xp.asarray(x), dtype="int32"))
    check(lambda xp: xp.cumsum(xp.asarray(x), axis=1, dtype="bool"))
    check(lambda xp: xp.cumprod(xp.asarray(x), axis=0, dtype="bool"))


@pytest.mark.filterwarnings("ignore:invalid value")
def test_nanvar_keeps_nan_from_infinities():
    check(lambda xp: xp.nanvar(xp.asarray([numpy.nan, -numpy.inf, numpy.nan])))
    check(lambda xp: xp.nanstd(xp.asarray([[numpy.nan, -numpy.inf], [1.0, 2.0]]), axis=1))


def test_nanargmax_nanargmin_keepdims():
    x = data((7, 5), seed=0, nan=True)
    x[:, 0] = 1.0  # no all-NaN row
    check(lambda xp: xp.nanargmax(xp.asarray(x), axis=1, keepdims=True))
    check(lambda xp: xp.nanargmin(xp.asarray(x), keepdims=True))
    check(lambda xp: xp.nanargmin(xp.asarray(data((7, 5), "int32")), axis=0, keepdims=True))


def test_average_returned_and_weights_over_several_axes():
    x = data((3, 4, 5), seed=1)
    w = data((3, 4, 5), seed=3) ** 2 + 1
    check(lambda xp: xp.average(xp.asarray(x), axis=1, returned=True))
    check(lambda xp: xp.average(xp.asarray(x), axis=0, weights=xp.asarray(w), returned=True), rtol=1e-12)
    check(lambda xp: xp.average(xp.asarray(x), axis=(1, 2), weights=xp.asarray(w[0])), rtol=1e-12)
    check(lambda xp: xp.average(xp.asarray(x), axis=(2, 0), weights=xp.asarray(w[:, 0].T)), rtol=1e-12)
    check(lambda xp: xp.average(xp.asarray(x), axis=-1, weights=xp.arange(1.0, 6.0)), rtol=1e-12)
    raises_like(lambda xp: xp.average(xp.asarray(x), axis=(2, 0), weights=xp.asarray(w[:, 0])), ValueError,
                "Shape of weights must be consistent")


def test_ediff1d_ends_cast_same_kind():
    x = data((6,), "int32")
    check(lambda xp: xp.ediff1d(xp.asarray(x), to_end=xp.asarray([1, 2]), to_begin=-1))
    check(lambda xp: xp.ediff1d(xp.asarray(data((6,), "float32")), to_begin=[[1.5, 2.0]]))
    raises_like(lambda xp: xp.ediff1d(xp.asarray(x), to_end=1.5), TypeError, "same_kind")


def test_gradient_argument_errors():
    raises_like(lambda xp: xp.gradient(xp.asarray(data((4,), "bool"))), TypeError, "boolean subtract")
    raises_like(lambda xp: xp.gradient(xp.asarray(data((4, 3))), 1.0, 2.0, 3.0), TypeError,
                "invalid number of arguments")
    check(lambda xp: xp.gradient(xp.asarray(data((5,))), xp.asarray(2.0)))


@pytest.mark.parametrize("f", ["nanmean", "nanvar", "nanstd"])
@pytest.mark.parametrize("dt", ["bool", "int64"])
def test_nan_moments_of_floats_refuse_exact_dtype_and_out(f, dt):
    x = data((4, 3))
    x[1, 2] = numpy.nan
    raises_like(lambda xp: getattr(xp, f)(xp.asarray(x), axis=1, dtype=dt), TypeError,
                "If a is inexact, then dtype must be inexact")
    raises_like(lambda xp: getattr(xp, f)(xp.asarray(x), axis=1, out=xp.empty(4, dtype=dt)), TypeError,
                "If a is inexact, then out must be inexact")
    check(lambda xp: getattr(xp, f)(xp.asarray(x), axis=1, dtype="float32"), rtol=1e-6)
    check(lambda xp: getattr(xp, f)(xp.asarray(x.astype("int64")), axis=1, dtype="float64"))


@pytest.mark.parametrize("dt", ["int64", "int32", "uint8", "bool"])
def test_var_and_std_with_an_integer_dtype_follow_numpy_steps(dt):
    """NumPy sums in dtype (each element cast to it), truncates the mean
    and the result to it, and takes the deviations in the input's dtype;
    std's sqrt into an integer result is NumPy's casting error (a scalar
    result is cast back)."""
    f = numpy.array([[1.5, 2.7, -1.9, 0.2], [0.4, 0.3, 3.9, 7.7], [5.5, -2.5, 1.0, 2.0]])
    i = numpy.array([[1, 2, 4, 0], [7, 3, 9, 11], [2, 2, 5, 8]])
    z = f + 1j * i
    w = numpy.array([[True, False, True, True], [True, True, True, False], [False, True, True, True]])
    for x in (f, i, z, i > 3):
        for kw in ({}, {"axis": 1}, {"axis": 0, "keepdims": True}, {"ddof": 1}, {"axis": 1, "where": w}):
            def call(xp, name, x=x, kw=kw):
                k = {a: xp.asarray(b) if a == "where" else b for a, b in kw.items()}
                return getattr(xp, name)(xp.asarray(x), dtype=dt, **k)
            if x.dtype == bool and dt == "bool":  # bool - bool: NumPy's TypeError
                raises_like(lambda xp: call(xp, "var"), TypeError)
                continue
            check(lambda xp: call(xp, "var"))
            if "axis" in kw:
                raises_like(lambda xp: call(xp, "std"), numpy._core._exceptions._UFuncOutputCastingError)
            else:
                check(lambda xp: call(xp, "std"))
