"""Reductions with axis (int or tuple), keepdims and out, statistics and
differences, against NumPy, on every rank under mpiexec -n 1, 2, 3."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from xp import SHAPES, check, data, raises_like


def tol(dtype):
    return dict(rtol=1e-5, atol=1e-5) if dtype == "float32" else dict(rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("shape", [s for s in SHAPES if 0 not in s])
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "bool"])
@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "mean", "std", "var", "any", "all", "ptp"])
def test_reductions_every_axis(shape, dtype, fn):
    x = data(shape, dtype, seed=1)
    if fn == "prod":
        x = x % 3 if dtype != "bool" else x
    if fn == "ptp" and dtype == "bool":
        return  # NumPy refuses subtract on bools
    nd = len(shape)
    axes = [None] + list(range(-nd, nd)) + ([(0, nd - 1)] if nd > 1 else [])
    for axis in axes:
        for keepdims in (False, True):
            check(lambda xp: getattr(xp, fn)(xp.asarray(x), axis=axis, keepdims=keepdims), **tol(dtype))


def test_reduction_out_and_methods():
    x = data((6, 4), seed=2)

    def run(xp):
        o = xp.zeros(4)
        xp.sum(xp.asarray(x), axis=0, out=o)
        o2 = xp.zeros((6, 1), dtype="float32")
        xp.max(xp.asarray(x), axis=1, keepdims=True, out=o2)
        a = xp.asarray(x)
        return o, o2, a.std(ddof=1), a.var(axis=0, ddof=2), a.mean(axis=(0, 1)), a.argmax(axis=1)
    check(run, rtol=1e-12)


def test_ddof_and_correction():
    x = data((7, 3), seed=3)
    check(lambda xp: xp.var(xp.asarray(x), axis=0, ddof=1), rtol=1e-12)
    check(lambda xp: xp.std(xp.asarray(x), correction=1), rtol=1e-12)


@pytest.mark.parametrize("fn", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanstd", "nanvar", "nanargmax",
                                "nanargmin"])
def test_nan_reductions(fn):
    x = data((6, 5), seed=4, nan=True)  # column 0 is all NaN
    for axis in ((None, 1) if "arg" in fn else (None, 0, 1)):
        check(lambda xp: getattr(xp, fn)(xp.asarray(x), axis=axis), rtol=1e-12)
    check(lambda xp: getattr(xp, fn)(xp.asarray(data((6,), "int64", seed=5))), rtol=1e-12)
    if fn in ("nanmax", "nanmin"):
        y = x.copy()
        y[:, 1] = numpy.nan
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            check(lambda xp: getattr(xp, fn)(xp.asarray(y), axis=0))


_SLICE_WARNINGS = ("All-NaN slice encountered", "Mean of empty slice", "Degrees of freedom <= 0 for slice.")


@pytest.mark.parametrize("fn", ["nanmax", "nanmin", "nanmean", "nanvar", "nanstd", "nanmedian", "nanquantile",
                                "nanpercentile"])
def test_nan_reductions_warn_of_their_slices(fn):
    """NumPy's warnings for all-NaN slices, along an axis too: a rank warns
    of the slices it holds, with no message between ranks (here every rank
    holds some, along either axis)."""
    from maniple import _core
    x = numpy.full((4, 3 * _core.size()), numpy.nan)
    x[0, 0] = 1.5  # the only number: row 0 and column 0 are the only slices with one
    q = (0.3,) if "quantile" in fn else (30.0,) if "percentile" in fn else ()

    def said(xp, axis):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            r = getattr(xp, fn)(xp.asarray(x), *q, axis=axis)
            numpy.asarray(r)
        return {str(m.message) for m in w if str(m.message) in _SLICE_WARNINGS}, numpy.asarray(r)
    for axis in (None, 0, 1):
        (got, gr), (want, wr) = said(mnp, axis), said(numpy, axis)
        numpy.testing.assert_allclose(gr, wr, rtol=1e-12, equal_nan=True)
        assert want or axis is None, (fn, axis)  # (as a whole, not all NaN)
        assert got == want, (fn, axis, got, want)


def _complex_with_nans():
    """complex data whose NaNs sit in either part; row 3 is all NaN, and
    infinities with imaginary parts that the NaN fill must not beat."""
    x = data((5, 4), seed=7) + 1j * data((5, 4), seed=8)
    x[0, 1] = complex(numpy.nan, 1.0)
    x[1, 2] = complex(2.0, numpy.nan)
    x[2, 0] = complex(numpy.inf, 3.0)
    x[4, 3] = complex(-numpy.inf, -2.0)
    x[3, :] = complex(0.0, numpy.nan)
    return x


@pytest.mark.parametrize("fn", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanstd", "nanvar", "nancumsum",
                                "nancumprod", "nanargmax", "nanargmin"])
@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_nan_reductions_of_complex_skip_nans(fn, dtype):
    """A complex element is NaN when either part is, and the nan-functions
    skip it as NumPy's do (they used to treat complex as having no NaNs:
    nansum of [nan, 2] was nan+0j)."""
    x = _complex_with_nans().astype(dtype)
    rtol = 1e-5 if dtype == "complex64" else 1e-12
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if fn.startswith("nanarg"):  # an all-NaN row is their ValueError
            x = x[[0, 1, 2, 4]]
        for axis in (None, 0, 1):
            y = x
            if (fn.startswith("nancum") or fn == "nanprod") and axis != 1:
                # across ranks products fold in rank partials (another association),
                # and inf products then differ in their NaN parts: finite values there
                y = numpy.where(numpy.isinf(x), 3.0 + 1j, x).astype(dtype)
            # (complex nanvar, nanstd and nancumprod raise invalid where NumPy's do not, and
            # the other way: their floating-point warnings are not yet NumPy's)
            check(lambda xp: getattr(xp, fn)(xp.asarray(y), axis=axis), rtol=rtol, fpe=False)


@pytest.mark.parametrize("fn", ["nansum", "nanprod", "nanmax", "nanmin", "nanmean", "nanvar", "nanstd"])
def test_nan_reductions_take_where_and_initial(fn):
    x = data((6, 5), seed=4, nan=True)
    w = data((6, 5), "bool", seed=9)
    w[:, 2] = True
    extreme = fn in ("nanmax", "nanmin")
    kw = {"initial": 0.5} if extreme else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for axis in (None, 0, 1):
            check(lambda xp: getattr(xp, fn)(xp.asarray(x), axis=axis, where=xp.asarray(w), **kw), rtol=1e-12)
            if fn in ("nansum", "nanprod") or extreme:
                check(lambda xp: getattr(xp, fn)(xp.asarray(x), axis=axis, initial=2.0), rtol=1e-12)
    if extreme:
        raises_like(lambda xp: getattr(xp, fn)(xp.asarray(x), where=xp.asarray(w)), ValueError, "initial")


def test_nanargmax_of_nothing_raises_as_argmax():
    for shape, axis in (((0,), None), ((0, 3), 0), ((3, 0), 1)):
        for fn in ("nanargmax", "nanargmin"):
            raises_like(lambda xp: getattr(xp, fn)(xp.zeros(shape), axis=axis), ValueError,
                        f"attempt to get {fn[3:]} of an empty sequence")
    check(lambda xp: xp.nanargmax(xp.zeros((0, 3)), axis=1))


def test_nanargmax_all_nan_raises():
    y = numpy.full((3,), numpy.nan)
    raises_like(lambda xp: xp.nanargmax(xp.asarray(y)), ValueError, "All-NaN")


def test_average():
    x, w = data((4, 5), seed=6), numpy.abs(data((4, 5), seed=7)) + 1
    check(lambda xp: xp.average(xp.asarray(x)), rtol=1e-12)
    check(lambda xp: xp.average(xp.asarray(x), axis=1, weights=xp.asarray(w)), rtol=1e-12)
    check(lambda xp: xp.average(xp.asarray(x), axis=0, weights=xp.asarray(w[:, 0])), rtol=1e-12)
    check(lambda xp: xp.average(xp.asarray(x), weights=xp.asarray(w), returned=True), rtol=1e-12)
    check(lambda xp: xp.average(xp.asarray(data((4,), "int64")), returned=True), rtol=1e-12)
    raises_like(lambda xp: xp.average(xp.asarray(x), weights=xp.zeros((4, 5))), ZeroDivisionError)


@pytest.mark.parametrize("shape", [(2,), (9,), (6, 7)])
def test_diff_gradient_trapezoid(shape):
    x = data(shape, seed=8)
    for n in (1, 2):
        check(lambda xp: xp.diff(xp.asarray(x), n=n), rtol=1e-12)
    check(lambda xp: xp.diff(xp.asarray(x), axis=0, prepend=0.5, append=xp.asarray(x)[-1:] if len(shape) > 1 else 3.0))
    check(lambda xp: xp.diff(xp.asarray(data(shape, "bool", seed=9))))
    check(lambda xp: xp.ediff1d(xp.asarray(x), to_begin=[-1.0], to_end=9.0))
    if shape[-1] > 2:
        for eo in (1, 2):
            check(lambda xp: xp.gradient(xp.asarray(x), 0.5, edge_order=eo), rtol=1e-12)
    check(lambda xp: xp.trapezoid(xp.asarray(x)), rtol=1e-12)
    check(lambda xp: xp.trapezoid(xp.asarray(x), dx=0.25, axis=0), rtol=1e-12)
    check(lambda xp: xp.trapezoid(xp.asarray(x), x=xp.asarray(numpy.arange(shape[-1]) ** 2.0)), rtol=1e-12)


def test_reduction_errors_on_every_rank():
    x = data((3, 4))
    raises_like(lambda xp: xp.sum(xp.asarray(x), axis=2), numpy.exceptions.AxisError)
    raises_like(lambda xp: xp.sum(xp.asarray(x), axis=(0, 0)), ValueError, "duplicate")
    raises_like(lambda xp: xp.max(xp.zeros((0, 3)), axis=0), ValueError)
    raises_like(lambda xp: xp.diff(xp.asarray(x), n=-1), ValueError)


def test_nanvar_nanstd_with_a_given_mean():
    """NumPy 2's mean=: the deviations are taken from the mean given"""
    x = data((4, 6), "float64", seed=40, nan=True)
    m = numpy.linspace(-1, 1, 4).reshape(4, 1)
    for f in ("nanvar", "nanstd", "var", "std"):
        if f in ("var", "std"):
            check(lambda xp: getattr(xp, f)(xp.asarray(numpy.nan_to_num(x)), axis=1, mean=m), rtol=1e-14)
        else:
            check(lambda xp: getattr(xp, f)(xp.asarray(x), axis=1, mean=m), rtol=1e-14)
            check(lambda xp: getattr(xp, f)(xp.asarray(x), axis=1, ddof=1, mean=xp.asarray(m)), rtol=1e-14)


def test_nanvar_of_integers_honours_mean_and_correction():
    x = numpy.array([[1, 2, 3], [4, 6, 9]])
    check(lambda xp: xp.nanvar(xp.asarray(x), axis=1, mean=numpy.array([[0.0], [1.0]])), rtol=1e-14)
    check(lambda xp: xp.nanvar(xp.asarray(x), correction=1), rtol=1e-14)
    check(lambda xp: xp.nanstd(xp.asarray(x), axis=0, correction=1), rtol=1e-14)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape", [(400, 3), (3, 700), (5, 6, 300), (40, 1), (1, 40)])
@pytest.mark.parametrize("fn", ["max", "min", "argmax", "argmin", "sum", "mean"])
def test_reductions_along_an_axis_a_rank_holds(dtype, shape, fn):
    """Along an axis each rank holds whole (straight into the result, no
    partials): NaNs (the first wins), ties (the first index wins), values
    cast back to float32, views and deferred expressions; against NumPy,
    exactly for the extremes and their indices."""
    x = numpy.round(data(shape, dtype, seed=70) * 4) / 4  # ties
    y = x.copy()
    flat = y.reshape(-1)
    flat[::37] = numpy.nan
    t = {} if fn.startswith(("max", "min", "arg")) else tol(dtype)
    for axis in range(len(shape)):
        for v in (x, y):
            check(lambda xp: getattr(xp, fn)(xp.asarray(v), axis=axis), **t)
        check(lambda xp: getattr(xp, fn)(xp.asarray(x) * 2 - 1, axis=axis), **t)
        check(lambda xp: getattr(xp, fn)(xp.asarray(y)[::-1], axis=axis), **t)


def test_bool_sum_and_prod_into_a_bool_out():
    """NumPy reduces in out's dtype when none is given: a bool array summed
    into a bool out is any along the axis, its product all (maniple summed
    in int64 and refused the cast into bool)."""
    x = numpy.random.default_rng(5).random((7, 5)) > 0.6

    outs = []
    for xp in (numpy, mnp):
        a, got = xp.asarray(x), []
        for axis, red in ((0, lambda o: a.sum(axis=0, out=o)), (1, lambda o: a.prod(axis=1, out=o)),
                          (0, lambda o: xp.add.reduce(a, axis=0, out=o)),
                          (1, lambda o: xp.multiply.reduce(a, axis=1, out=(o,))),
                          (0, lambda o: xp.sum(a, 0, out=o, where=xp.asarray(x[0]), initial=False)),
                          (None, lambda o: a.sum(out=o))):
            o = xp.zeros(() if axis is None else x.shape[1 - axis], bool)
            red(o)
            got.append(numpy.asarray(o))
        outs.append(got)
    for n, m in zip(*outs):
        assert n.dtype == m.dtype == bool and (n == m).all()


def test_sums_and_scans_run_in_a_safe_outs_dtype():
    """Given out and no dtype, NumPy sums, multiplies and accumulates in
    out's dtype where the array casts to it safely (int64 into float64 does
    not wrap, float16 into float64 keeps its digits), and otherwise in the
    usual dtype, cast into out after (float into int, int32 into int16)."""
    big = numpy.array([2 ** 62, 2 ** 62, 5])
    half = numpy.array([2000, .1, .1, .1], "f2")
    ints = numpy.arange(1, 8, dtype="i4") * 1000
    for f in (lambda xp, o: xp.sum(xp.asarray(big), out=o(())),
              lambda xp, o: xp.add.reduce(xp.asarray(numpy.stack([big] * 3)), axis=1, out=o(3)),
              lambda xp, o: xp.prod(xp.asarray(big[:2] // 2 ** 22), out=o(())),
              lambda xp, o: xp.sum(xp.asarray(half), out=o(())),
              lambda xp, o: xp.cumprod(xp.asarray(ints), out=o(7)),
              lambda xp, o: xp.multiply.accumulate(xp.asarray(half[1:] + 1), out=o(3)),
              lambda xp, o: xp.sum(xp.asarray([1.5, 2.5]), out=o((), "int64")),
              lambda xp, o: xp.sum(xp.asarray(numpy.array([40000, 40000], "i4")), out=o((), "int16")),
              lambda xp, o: xp.sum(xp.ones(200, bool), out=o((), "int8"))):
        check(lambda xp: f(xp, lambda shape, dt="float64": xp.zeros(shape, dt)), rtol=0, atol=0)


def test_reduction_out_of_the_wrong_shape_is_refused():
    """out is not broadcast into: NumPy's ValueError (maniple filled
    out=zeros(3) with a sum of all elements)."""
    for f in (lambda xp: xp.sum(xp.asarray([1.0, 2.0]), out=xp.zeros(3)),
              lambda xp: xp.mean(xp.ones((2, 3)), keepdims=True, out=xp.zeros((1, 1, 2))),
              lambda xp: xp.max(xp.ones((2, 3)), axis=0, out=xp.zeros(2)),
              lambda xp: xp.sum(xp.ones((2, 3)), axis=0, out=xp.zeros((1, 3))),
              lambda xp: xp.std(xp.ones((2, 3)), axis=1, out=xp.zeros(3)),
              lambda xp: xp.nansum(xp.ones((2, 3)), axis=1, out=xp.zeros((2, 1)))):
        raises_like(f, ValueError)


def test_nanstd_into_a_0d_out_and_integer_initial_range():
    def f(xp):
        o = xp.zeros(())
        r = xp.nanstd(xp.asarray([1.0, 2.0, numpy.nan, 3.0]), out=o)
        assert r is o
        return o
    check(f)
    for dt, op, init in (("uint8", "max", -2), ("int8", "min", 300), ("uint64", "sum", -2), ("uint64", "prod", -2)):
        raises_like(lambda xp: getattr(xp, op)(xp.asarray(numpy.array([1, 2], dt)), initial=init), OverflowError)
        raises_like(lambda xp: getattr(xp, op)(xp.asarray(numpy.array([], dt)), initial=init), OverflowError)
    check(lambda xp: xp.sum(xp.asarray(numpy.array([1, 2], "int8")), initial=300))  # int8 sums in int64
