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


def _into(xp, fn, x, dt, *args):
    o = xp.zeros(3, dt)
    if len(args) == 2:  # (q, method)
        getattr(xp, fn)(xp.asarray(x), args[0], axis=0, out=o, method=args[1])
    else:
        getattr(xp, fn)(xp.asarray(x), *args, axis=0, out=o)
    return o


@pytest.mark.parametrize("fn", ["sum", "prod", "max", "min", "mean", "var", "nansum", "nanmax", "median"])
def test_an_inexact_reduction_into_an_integer_out(fn):
    """NumPy casts a reduction's float result into out unsafely (the mean
    of 1.5s into integers is 1), a complex one into floats with its
    ComplexWarning; std's sqrt into an integer out and an interpolated
    quantile's add into one are its casting errors."""
    x = numpy.array([[1.5, 1.6, 2.7], [1.5, -1.6, -0.2]])
    for dt in ("int64", "int8", "bool", "float32"):
        check(lambda xp: _into(xp, fn, x, dt))
    if fn in ("sum", "mean", "max"):
        with pytest.warns(numpy.exceptions.ComplexWarning):
            check(lambda xp: _into(xp, fn if fn != "max" else "sum", x + 1j, "float64"))


def test_reductions_into_out_errors_and_indices():
    x = numpy.array([[1.5, 1.6, 2.7], [1.5, -1.6, -0.2]])
    raises_like(lambda xp: _into(xp, "std", x, "int64"), TypeError, "Cannot cast ufunc 'sqrt' output")
    raises_like(lambda xp: _into(xp, "nanmean", x, "int64"), TypeError, "If a is inexact, then out must be inexact")
    raises_like(lambda xp: _into(xp, "quantile", x, "int64", 0.5), TypeError, "Cannot cast ufunc 'add' output")
    check(lambda xp: _into(xp, "nanquantile", x, "int64", 0.5))  # (its nan form casts)
    check(lambda xp: _into(xp, "quantile", x, "int64", 0.5, "lower"))  # (a chosen element: no add)
    check(lambda xp: _into(xp, "std", x, "float32"), rtol=1e-6)
    for fn in ("argmax", "argmin", "nanargmax"):
        for dt in ("bool", "uint8", "int32"):
            check(lambda xp: _into(xp, fn, x, dt))
        raises_like(lambda xp: _into(xp, fn, x, "float64"), TypeError,
                    "Cannot cast array data from dtype.'float64'. to dtype.'int64'. according to the rule 'safe'")


@pytest.mark.parametrize("dt", ["int8", "uint8", "int64", "float32"])
def test_cumulative_into_out_of_another_dtype(dt):
    """NumPy's partial sums and products in the input's dtype, each cast into
    out (not the elements cast first: -1.9 + -0.4 is -2 in int8, not -1)."""
    x = numpy.array([-1.96, -0.39, 2.35, 4.48, -3.78, 4.54])
    for fn in ("cumsum", "cumprod"):
        check(lambda xp: getattr(xp, fn)(xp.asarray(x), out=xp.zeros(6, dt)), rtol=1e-6)
        check(lambda xp: getattr(xp, fn)(xp.asarray(x + 0.5j), out=xp.zeros(6, "complex64")), rtol=1e-6)
    check(lambda xp: xp.add.accumulate(xp.asarray(x), out=xp.zeros(6, dt)), rtol=1e-6)


def test_mean_of_integers_into_an_integer_out_wraps_as_numpy():
    """NumPy sums into an integer out in its dtype (wrapping), then divides."""
    xu = numpy.array([[250, 3, 0], [10, 200, 0]], numpy.uint8)
    xi = numpy.array([[100, -3, 7], [100, -56, 1]], numpy.int8)
    for x in (xu, xi):
        for dt in ("uint8", "int8", "int16", "int64"):
            check(lambda xp: _into(xp, "mean", x, dt))


def test_matvec_vecmat_vecdot_out():
    a, v = data((4, 3), seed=3), data((3,), seed=4)
    check(lambda xp: xp.matvec(xp.asarray(a), xp.asarray(v), out=xp.zeros(4)))
    check(lambda xp: xp.vecmat(xp.asarray(a[:, 0]), xp.asarray(a), out=xp.zeros(3, "float32")), rtol=1e-6)
    check(lambda xp: xp.vecdot(xp.asarray(a), xp.asarray(v), out=xp.zeros(4)))
    raises_like(lambda xp: xp.matvec(xp.asarray(a), xp.asarray(v), out=xp.zeros(4, "int64")), TypeError,
                "Cannot cast ufunc 'matvec' output")


def test_var_std_with_ddof_past_the_count_divide_by_zero():
    """NumPy clamps n - ddof at 0 and divides: inf (nan where the squares
    sum to 0), with its warnings; maniple gave nan everywhere."""
    x = numpy.array([[1.0, 2.0, 3.0], [3.0, 3.0, 6.0], [5.0, 5.0, 5.0]])  # (means exact: sums in any order)
    for ddof in (3, 4):
        check(lambda xp: xp.var(xp.asarray(x), ddof=ddof + 6))
        check(lambda xp: xp.std(xp.asarray(x), ddof=ddof + 6))
        check(lambda xp: xp.var(xp.asarray(x), axis=1, ddof=ddof))
        check(lambda xp: xp.var(xp.asarray(x.astype("float32")), axis=1, ddof=ddof))
        check(lambda xp: xp.var(xp.asarray(x + 1j), ddof=ddof + 6))


@pytest.mark.parametrize("dtype", ["float16", "float32", "complex64"])
def test_mean_and_var_divide_by_the_count_as_numpy(dtype):
    """NumPy's mean sums float16 in float32, and mean and var divide their
    sums by an intp count, in double precision, then round back: maniple
    summed float16 in float16 and divided in the dtype itself (3001 is not
    a float16), a few ulps off. Sums of halves are exact in any order."""
    x = ((numpy.arange(3001) % 100) / 1024).astype(dtype)
    y = x[:3000].reshape(30, 100)
    check(lambda xp: xp.mean(xp.asarray(x)))
    check(lambda xp: xp.var(xp.asarray(x)))
    check(lambda xp: xp.std(xp.asarray(x)))
    check(lambda xp: xp.mean(xp.asarray(y), axis=1))
    check(lambda xp: xp.mean(xp.asarray(y), axis=0))
    check(lambda xp: xp.var(xp.asarray(y), axis=1))
    check(lambda xp: xp.mean(xp.asarray(x), where=xp.asarray(x) > 0.01))
    check(lambda xp: xp.asarray(x).mean())


@pytest.mark.parametrize("dt, out", [("int8", "int16"), ("uint8", "uint16"), ("int16", "int16"), ("int8", "int8"),
                                     ("float16", "float16")])
def test_scans_into_narrow_types_along_the_split_axis(dt, out):
    """cumsum/cumprod into a 1- or 2-byte dtype along axis 0 (split over the
    ranks): the line totals travel as 4-byte values, and their buffer was
    sized by the element, so at 2 ranks and more MPI wrote past it."""
    x = (numpy.arange(3001 * 7) % 7).astype(dt).reshape(3001, 7)
    if dt == "float16":  # sums exact in float16 (below 2048): a scan over ranks rounds elsewhere than NumPy's
        x = x[:300]
    check(lambda xp: xp.cumsum(xp.asarray(x), axis=0, dtype=out))
    check(lambda xp: xp.cumprod(xp.asarray(x[:12] % 2 + 1), axis=0, dtype=out))
    check(lambda xp: xp.add.accumulate(xp.asarray(x[:100]), axis=0, dtype=out))


def test_trapezoid_with_boolean_sample_points():
    """NumPy's diff of booleans is not_equal, so boolean x works (maniple
    subtracted them: TypeError)."""
    y = numpy.array([True, False, True, False, True, True])
    check(lambda xp: xp.trapezoid(xp.asarray(y), x=xp.asarray(y)))
    check(lambda xp: xp.trapezoid(xp.asarray(numpy.arange(12.0).reshape(2, 6)), x=xp.asarray(y)))
    check(lambda xp: xp.trapezoid(xp.asarray(numpy.arange(12.0).reshape(6, 2)), x=xp.asarray(y), axis=0))
