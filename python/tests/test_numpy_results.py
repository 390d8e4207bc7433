"""Results that used to differ from NumPy's without a word (issue 14 items 2
to 5): isclose/allclose with infinities and on bool and integer arrays,
arange with a float start or step and an integer dtype, integers to
negative integer powers, insert and delete with boolean masks and the other
index-taking functions with boolean and float indices. NumPy runs beside
maniple in each test."""
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from xp import check, data
from test_numpy_args import same_error

inf, nan = numpy.inf, numpy.nan


# ---- isclose / allclose (item 2) ----
ISCLOSE = [
    ([1.0, inf], [inf, -inf]),
    ([inf, -inf, inf, 1.0, nan], [inf, -inf, -inf, inf, nan]),
    ([1e10, 1e-7], [1.00001e10, 1e-8]),
    ([1e-100, 1e-7], [0.0, 0.0]),
    ([0.0, -0.0, 1.0], [-0.0, 0.0, 1.0 + 1e-9]),
]


@pytest.mark.parametrize("x,y", ISCLOSE)
@pytest.mark.parametrize("equal_nan", [False, True])
def test_isclose_infinities_only_close_to_themselves(x, y, equal_nan):
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(y), equal_nan=equal_nan))
    check(lambda xp: xp.isclose(xp.asarray(y), xp.asarray(x), equal_nan=equal_nan))
    check(lambda xp: xp.allclose(xp.asarray(x), xp.asarray(y), equal_nan=equal_nan))
    check(lambda xp: xp.isclose(xp.asarray(x), inf))
    check(lambda xp: xp.isclose(-inf, xp.asarray(y)))


def test_allclose_with_an_infinity_is_false():
    assert mnp.allclose(mnp.asarray([1.0, inf]), mnp.asarray([1.0, -inf])) is False
    assert mnp.allclose(mnp.asarray([1.0, inf]), mnp.asarray([1.0, inf])) is True


@pytest.mark.parametrize("dt", ["bool", "int32", "int64", "float32"])
def test_isclose_on_bool_and_integer_arrays(dt):
    x, y = data((4, 5), dt, seed=1), data((4, 5), dt, seed=2)
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(y)))
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(x)))
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(y), rtol=1.0, atol=2))
    check(lambda xp: xp.allclose(xp.asarray(x), xp.asarray(x)))
    check(lambda xp: xp.allclose(xp.asarray(x), xp.asarray(y), atol=20))
    check(lambda xp: xp.isclose(xp.asarray(x), 1))
    check(lambda xp: xp.isclose(True, xp.asarray(y)))


def test_isclose_int_extremes():
    """NumPy takes b to float before |b|: abs(INT_MIN) does not wrap."""
    x = numpy.array([-2 ** 63, 2 ** 63 - 1, 0])
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(x)))
    check(lambda xp: xp.isclose(xp.asarray(x[::-1].copy()), xp.asarray(x)))


_BELOW_ONE = float(1.0 - numpy.finfo("f8").eps)


@pytest.mark.parametrize("x", [numpy.array(1, "float32"), numpy.array([1, 2], "float32"), numpy.array([1.0, 2.0]),
                               numpy.array([1, 3], "int8"), numpy.array(1, "float16")], ids=str)
@pytest.mark.parametrize("y", [2, 2.0, numpy.float64(2), numpy.array([2.0, 1.0], "float32")], ids=str)
@pytest.mark.parametrize("rtol", [_BELOW_ONE / 2, 1e-5, numpy.float32(0.5)], ids=str)
def test_isclose_keeps_python_scalars_weak(x, y, rtol):
    """NEP 50: |b| of a Python scalar stays a Python scalar, so float32 data
    compares in float32 (it had been float64: isclose(float32(1), 2,
    rtol=0.4999...) was False, NumPy's True)."""
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(y) if isinstance(y, numpy.ndarray) else y, atol=0,
                                rtol=rtol))


def test_isclose_tolerances_broadcast():
    x, y = data((3, 4), seed=3), data((3, 4), seed=4)
    rt = numpy.array([0.0, 0.5, 1.0, 2.0])
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(y), rtol=xp.asarray(rt)))
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(y), atol=rt, rtol=0))
    check(lambda xp: xp.isclose(xp.asarray(x), xp.asarray(y[0]), atol=[[1.0], [2.0], [3.0]]))


def test_isclose_scalars_give_scalars():
    check(lambda xp: xp.isclose(1.0, 1.0 + 1e-9))
    check(lambda xp: xp.isclose(1, 2))
    check(lambda xp: xp.isclose(xp.asarray(1.0), xp.asarray(inf)))
    check(lambda xp: xp.isclose(xp.asarray(numpy.float32(1)), numpy.float32(1.0000001)))
    check(lambda xp: xp.isclose(xp.asarray([[inf]]), inf))


def test_isclose_nonfinite_tolerance_warns_as_numpy():
    with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
        want = numpy.isclose(numpy.ones(3), numpy.ones(3), atol=nan)
    with pytest.warns(RuntimeWarning, match="One of rtol or atol is not valid"):
        got = mnp.isclose(mnp.ones(3), mnp.ones(3), atol=nan)
    numpy.testing.assert_array_equal(numpy.asarray(got), want)


# ---- arange (item 3) ----
ARANGE = [
    (-2.5, 10.0, None, "int32"), (0.5, 5.5, 1.5, "int64"), (-3, 3, 0.5, "int32"), (-3, 3, 0.5, "int64"),
    (-1.5, -0.1, 0.2, "int64"), (5, 0, -1.5, "int32"), (3.7, None, None, "int64"), (0.0, 3.0, None, "int64"),
    (0.1, 1, 0.1, "float32"), (-7.3, 11.9, 0.7, "float32"), (-3, 3, 0.5, "float32"), (0, 3, 1.5, "float32"),
    (0.1, 3.3, 0.1, "float64"), (1e16, 1e16 + 50, 3.3, "float64"), (0.1, 3.3, 0.1, None), (1, 100, 7, None),
    (0, 2, None, "bool"), (1, None, None, "bool"), (0.5, 2, None, "bool"), (2 ** 31 - 2, 2 ** 31 + 3, None, "int32"),
    (2 ** 62, 2 ** 62 + 5, 2 ** 61, None), (0, 1e-300, 1e300, None), (0, -1e-300, 1e300, None), (True, 5, None, None),
    (numpy.float32(0.5), 4, None, None), (numpy.int32(1), numpy.int32(9), numpy.int32(3), None),
    (-5, 5, 1.25, "float32"), (10, -10, -0.3, "int32"),
]


@pytest.mark.parametrize("start,stop,step,dt", ARANGE)
def test_arange_is_numpys_for_every_dtype(start, stop, step, dt):
    args = [start] + ([stop] if stop is not None else []) + ([step] if step is not None else [])
    check(lambda xp: xp.arange(*args, dtype=dt))


def test_arange_keywords_and_errors():
    check(lambda xp: xp.arange(stop=3))
    check(lambda xp: xp.arange(3, stop=5))
    check(lambda xp: xp.arange(2, 9, step=2))
    for fn in [lambda xp: xp.arange(start=3), lambda xp: xp.arange(0, 10, 0), lambda xp: xp.arange(0, 10, 0.0),
               lambda xp: xp.arange(0, nan), lambda xp: xp.arange(0, inf), lambda xp: xp.arange(0, -inf),
               lambda xp: xp.arange(3, dtype=bool), lambda xp: xp.arange(nan, 3, dtype="int64"),
               lambda xp: xp.arange(2 ** 40, 2 ** 40 + 3, dtype="int32"), lambda xp: xp.arange(None),
               lambda xp: xp.arange(1, 2, 3, 4, 5), lambda xp: xp.arange(0, 3, start=1)]:
        same_error(fn)


# ---- integer ** negative integer (item 4) ----
POWER_RAISES = [
    lambda xp: xp.asarray([1, 2, 3]) ** -1,
    lambda xp: xp.asarray(numpy.array([1, 2, 3], "int32")) ** -1,
    lambda xp: xp.power(xp.asarray([1, 2, 3]), -2),
    lambda xp: xp.power(xp.asarray([1, 2, 3]), numpy.int64(-2)),
    lambda xp: numpy.power(xp.asarray([1, 2, 3]), -2),
    lambda xp: xp.pow(xp.asarray([4, 5]), -1),
    lambda xp: pow(xp.asarray([4, 5]), -1),
    lambda xp: 2 ** xp.asarray([1, -1, 2]),
    lambda xp: numpy.int32(2) ** xp.asarray(numpy.array([1, -1], "int32")),
    lambda xp: xp.asarray([1, 2, 3]) ** xp.asarray([1, -1, 2]),
    lambda xp: xp.asarray(numpy.array([[1], [2]], "int32")) ** xp.asarray(numpy.array([3, -2], "int64")),
    lambda xp: xp.asarray([1, 2, 3]) ** numpy.array([1, 2, -3]),
    lambda xp: xp.asarray([True, False]) ** -1,
    lambda xp: xp.asarray([[1, 2], [3, 4]])[:, 0] ** -1,
    lambda xp: (xp.asarray([1, 2]) + 1) ** -1,
    # a Python int out of the array's range: NumPy's OverflowError comes first
    lambda xp: xp.asarray(numpy.array([1, 2], "uint8")) ** -3,
    lambda xp: xp.asarray(numpy.array([1, 2], "uint64")) ** -1,
    lambda xp: 300 ** xp.asarray(numpy.array([2, -3], "int8")),
    lambda xp: (2**40) ** xp.asarray(numpy.array([2, -3], "int32")),
    lambda xp: xp.asarray(numpy.array([1, 2], "uint8")) ** numpy.int64(-3),  # int64: the ValueError
]


@pytest.mark.parametrize("k", range(len(POWER_RAISES)))
def test_integer_to_negative_integer_power_raises(k):
    same_error(POWER_RAISES[k])


POWER_FINE = [
    lambda xp: xp.asarray([1, 2, 3]) ** 2,
    lambda xp: xp.asarray([1.0, 2.0]) ** -1,
    lambda xp: xp.asarray([1, 2, 4]) ** -1.0,
    lambda xp: xp.asarray([1, 2, 4]) ** xp.asarray([-1.0, 2.0, 0.5]),
    lambda xp: xp.asarray(numpy.zeros(0, "int64")) ** -1,
    lambda xp: xp.asarray(numpy.zeros((0, 3), "int64")) ** xp.asarray([-1, 1, 1]),
    lambda xp: xp.asarray([2, 3]) ** xp.asarray([0, 5]),
    lambda xp: 2.0 ** xp.asarray([1, -1, 2]),
    lambda xp: xp.float_power(xp.asarray([1, 2, 4]), -1),
    lambda xp: xp.asarray(numpy.array([2, 3], "int32")) ** numpy.int32(3),
    # uint64 with a signed integer is float64: negative powers are fine
    lambda xp: xp.asarray(numpy.array([2, 3], "uint64")) ** xp.asarray(numpy.array([-1, 2], "int8")),
    lambda xp: xp.asarray(numpy.array([2, 3], "uint64")) ** numpy.int64(-2),
    lambda xp: xp.asarray(numpy.array([2, 3], "uint64")) ** numpy.array([-1, 2]),
    lambda xp: numpy.int16(-3) ** xp.asarray(numpy.array([2, 3], "uint64")),
    # NumPy's operator squares for a Python int 2: bool gives int8 (np.power gives int64)
    lambda xp: xp.asarray([True, False]) ** 2,
    lambda xp: xp.power(xp.asarray([True, False]), 2),
    lambda xp: xp.asarray([True, False]) ** numpy.int64(2),
    lambda xp: xp.asarray([True, False]) ** 2.0,
]


@pytest.mark.parametrize("k", range(len(POWER_FINE)))
def test_powers_numpy_allows(k):
    with numpy.errstate(divide="ignore"):
        check(POWER_FINE[k])


@pytest.mark.parametrize("exponent", [-1, numpy.int32(-3), [2, -1, 0]])
@pytest.mark.parametrize("pending", [False, True])
def test_inplace_power_raises_and_leaves_the_target(exponent, pending):
    x = numpy.array([1, 2, 3])
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed."):
        y = x.copy()
        y **= numpy.asarray(exponent)
    a = mnp.asarray(x)
    if pending:
        a = a + 0  # a deferred value: its expression must not change either
    e = mnp.asarray(exponent) if isinstance(exponent, list) else exponent
    with pytest.raises(ValueError, match="Integers to negative integer powers are not allowed."):
        a **= e
    numpy.testing.assert_array_equal(numpy.asarray(a), x)


@pytest.mark.parametrize("e", [2, 3, 2.0, 0.5])
def test_bool_squared_in_place_is_numpy_casting_error(e):
    """b **= 2 squares (int8), which a bool target cannot hold: NumPy's
    error from square; other exponents NumPy's error from power."""
    def f(xp):
        b = xp.asarray([True, False])
        b **= e
    same_error(f)


# ---- insert / delete with boolean masks, and other index arguments (item 5) ----
MASK = numpy.array([True, False, True, False, False])


def test_insert_with_a_boolean_mask_uses_its_true_positions():
    check(lambda xp: xp.insert(xp.arange(5), MASK, 99))
    check(lambda xp: xp.insert(xp.arange(5), xp.asarray(MASK), 99))
    check(lambda xp: xp.insert(xp.arange(5), MASK, [7, 8]))
    check(lambda xp: xp.insert(xp.arange(5), numpy.array([True, False]), 9))
    check(lambda xp: xp.insert(xp.asarray(data((5, 3))), MASK, 0.5, axis=0))
    check(lambda xp: xp.insert(xp.asarray(data((3, 5))), MASK, [[1], [2], [3]], axis=1))


@pytest.mark.parametrize("obj,values", [([2], [7, 8]), (2, [7, 8]), ([1, 3], [7, 8]), (numpy.array([4]), [7, 8]),
                                        ([], 7), ([-1, 0, 0], 7), (slice(1, 4), 7), ([5, 0, 3, 3], [1, 2, 3, 4])])
def test_insert_indices_as_numpy(obj, values):
    check(lambda xp: xp.insert(xp.arange(5), obj, values))
    check(lambda xp: xp.insert(xp.asarray(data((2, 5))), obj, 1.5, axis=1))


def test_insert_many_indices():
    idx = numpy.random.default_rng(0).integers(-20, 21, 40)
    check(lambda xp: xp.insert(xp.asarray(data((20, 3))), idx, xp.asarray(data((40, 3), seed=9)), axis=0))
    check(lambda xp: xp.insert(xp.asarray(data((20,))), idx, 7))


def test_insert_and_delete_errors_as_numpy():
    for fn in [lambda xp: xp.insert(xp.arange(5), numpy.array([[True]]), 9),
               lambda xp: xp.insert(xp.arange(5), numpy.array(True), 9),
               lambda xp: xp.insert(xp.arange(5), [True, False, True, False, False], 9),
               lambda xp: xp.insert(xp.arange(5), [[1]], 0),
               lambda xp: xp.insert(xp.arange(5), [1, 9], 0),
               lambda xp: xp.insert(xp.arange(5), 9, 0),
               lambda xp: xp.insert(xp.arange(5), [9], 0),
               lambda xp: xp.insert(xp.arange(5), [1.5], 0),
               lambda xp: xp.insert(xp.arange(5), numpy.array([], dtype=float), 0),
               lambda xp: xp.delete(xp.arange(5), numpy.array([True, False])),
               lambda xp: xp.delete(xp.arange(5), True),
               lambda xp: xp.delete(xp.arange(5), [1.5]),
               lambda xp: xp.delete(xp.arange(5), 7),
               lambda xp: xp.delete(xp.arange(5), [-9, 7]),
               lambda xp: xp.delete(xp.arange(5), [7, -9])]:
        same_error(fn)


@pytest.mark.parametrize("obj", [MASK, [True, False, True, False, False], numpy.array([3]), 3, -1, [-1, 0, 0],
                                 slice(1, 3), [], numpy.array([], dtype=int)])
def test_delete_as_numpy(obj):
    check(lambda xp: xp.delete(xp.arange(5), obj))
    check(lambda xp: xp.delete(xp.asarray(data((3, 5))), obj, axis=1))


def test_other_index_arguments_with_booleans_and_floats():
    x = data((5,))
    b = numpy.array([True, False])
    check(lambda xp: xp.take(xp.asarray(x), b))               # 0/1 indices, as NumPy's take
    check(lambda xp: xp.take(xp.asarray(x), xp.asarray(b)))
    check(lambda xp: xp.compress(numpy.array([True, False, True]), xp.asarray(x)))
    check(lambda xp: xp.compress([1.5, 0, 2], xp.asarray(x)))
    check(lambda xp: xp.choose(b, [[1, 2], [3, 4]]))
    check(lambda xp: xp.ix_(numpy.array([True, False, True])))
    check(lambda xp: xp.ix_([True, False, True]))
    check(lambda xp: xp.asarray(x)[[True, False, True, False, False]])
    check(lambda xp: xp.ravel_multi_index((numpy.array([True]), numpy.array([False])), (2, 2)))
    check(lambda xp: xp.unravel_index(numpy.array([True]), (2, 2)))
    check(lambda xp: xp.take(xp.asarray(x), [1.7, -0.5]))
    same_error(lambda xp: xp.take(xp.asarray(x), xp.asarray([3.9, 0.2])))  # a float array is refused
    same_error(lambda xp: xp.take(xp.asarray(x), numpy.array([3.9, 0.2])))
    check(lambda xp: xp.take(xp.asarray(x), [5.5], mode="clip"))
    same_error(lambda xp: xp.take(xp.asarray(x), [nan]))
    same_error(lambda xp: xp.choose([0.5, 1], [[1, 2], [3, 4]]))
    same_error(lambda xp: xp.take_along_axis(xp.asarray(x), numpy.array([1.5]), 0))
    same_error(lambda xp: xp.searchsorted(xp.asarray(numpy.sort(x)), 2, sorter=numpy.array([True] * 5)))
    same_error(lambda xp: xp.put(xp.asarray(x.copy()), numpy.array([1.5, 3.2]), [7, 8]))
    for xp in (numpy, mnp):  # put truncates a list of floats (not an array)
        y = xp.asarray(x.copy())
        xp.put(y, [1.5, 3.2], [7, 8])
        numpy.testing.assert_array_equal(numpy.asarray(y), numpy.asarray([x[0], 7, x[2], 8, x[4]]))


# ---- siblings: Python ints beyond the array's integer type (NEP 50) ----
BIG = [2 ** 31, -2 ** 31 - 1, 2 ** 40, -2 ** 40, 2 ** 63, -2 ** 63 - 1, 2 ** 70]
OPS = ["add", "subtract", "multiply", "floor_divide", "remainder", "maximum", "bitwise_and", "left_shift",
       "true_divide", "arctan2", "heaviside", "logical_and", "logical_or", "less", "less_equal", "greater",
       "greater_equal", "equal", "not_equal"]


@pytest.mark.parametrize("dt", ["int32", "int64", "bool", "float64", "float32"])
@pytest.mark.parametrize("name", OPS)
def test_python_ints_beyond_the_dtype_as_numpy(dt, name):
    """int32 + 2**40 is NumPy's OverflowError (maniple wrapped it), int32 <
    2**40 is all True (maniple said False), int / 2**70 is computed in
    float: each as NumPy, both operand orders."""
    x = data((3, 4), dt, seed=6)
    for v in BIG:
        for fn in (lambda xp: getattr(xp, name)(xp.asarray(x), v), lambda xp: getattr(xp, name)(v, xp.asarray(x))):
            try:
                with numpy.errstate(all="ignore"):
                    fn(numpy)
            except Exception:
                same_error(fn)
            else:
                with numpy.errstate(all="ignore"):  # (float32 transcendentals: maniple's own, within an ulp)
                    check(fn, rtol=2e-7 if dt == "float32" and name == "arctan2" else 0)


def test_python_ints_beyond_the_dtype_operators():
    a32 = numpy.arange(3, dtype=numpy.int32)
    same_error(lambda xp: xp.asarray(a32) + 2 ** 40)
    same_error(lambda xp: 2 ** 40 - xp.asarray(a32))
    check(lambda xp: xp.asarray(a32) < 2 ** 40)
    check(lambda xp: 2 ** 40 < xp.asarray(a32))
    check(lambda xp: xp.asarray(a32) == -2 ** 40)
    check(lambda xp: xp.asarray(numpy.arange(3)) != 2 ** 70)
    check(lambda xp: xp.asarray(numpy.arange(3.0)) + 2 ** 70)
    x = mnp.asarray(a32)
    with pytest.raises(OverflowError, match="Python integer 1099511627776 out of bounds for int32"):
        x += 2 ** 40
    numpy.testing.assert_array_equal(numpy.asarray(x), a32)


def test_clip_and_full_with_ints_beyond_the_dtype():
    a32 = numpy.arange(3, dtype=numpy.int32)
    check(lambda xp: xp.clip(xp.asarray(a32), -2 ** 40, 2 ** 40))
    check(lambda xp: xp.clip(xp.asarray(numpy.arange(3)), -2 ** 70, 2 ** 71))
    check(lambda xp: xp.clip(xp.asarray(a32), 1, 2 ** 31))
    same_error(lambda xp: xp.clip(xp.asarray(a32), 2 ** 40, 2 ** 41))
    same_error(lambda xp: xp.clip(xp.asarray(a32), None, -2 ** 40))
    same_error(lambda xp: xp.clip(xp.asarray(numpy.arange(3)), 2 ** 70, 2 ** 71))
    same_error(lambda xp: xp.full(2, 2 ** 40, dtype="int32"))


# ---- siblings: dtypes and values computed as NumPy computes them ----
def test_full_and_linspace_dtypes_follow_the_values():
    check(lambda xp: xp.full((2, 2), numpy.float32(0.1)))
    check(lambda xp: xp.full(3, numpy.int32(-4)))
    check(lambda xp: xp.full(3, True))
    check(lambda xp: xp.linspace(numpy.float32(0.1), numpy.float32(0.9), 7))
    check(lambda xp: xp.linspace(numpy.int32(0), 5, 4))


def test_einsum_refuses_what_casting_refuses():
    x = data((3,))
    same_error(lambda xp: xp.einsum("i,i->", xp.asarray(x), xp.asarray(x), dtype="float32"))
    same_error(lambda xp: xp.einsum("i,i->i", xp.asarray(x), xp.asarray(x), dtype="int64"))
    check(lambda xp: xp.einsum("i,i->", xp.asarray(x), xp.asarray(x), dtype="float32", casting="same_kind"))
    check(lambda xp: xp.einsum("i,i->i", xp.asarray(x.astype("int32")), xp.asarray(x.astype("int32")),
                               dtype="int64"))


def test_trapezoid_with_dx_in_numpys_order():
    y = data((9,), seed=2)
    check(lambda xp: xp.trapezoid(xp.asarray(y), dx=0.1), rtol=1e-15)


def test_gradient_keeps_the_order_of_its_axes():
    f = data((4, 5), seed=3)
    check(lambda xp: xp.gradient(xp.asarray(f), axis=(1, 0)))
    check(lambda xp: xp.gradient(xp.asarray(f), 2.0, axis=(-1, 0)))


_RNG = numpy.random.default_rng(1)
_F = _RNG.standard_normal((7, 6))
_X0, _X1 = numpy.cumsum(_RNG.random(7)), numpy.cumsum(_RNG.random(6))
GRADIENTS = [((_F,), {}), ((_F, 0.5), {}), ((_F, _X0, _X1), {}), ((_F, _X0, 2.0), {}),
             ((_F, _X0, _X1), {"edge_order": 2}), ((_F, numpy.arange(7), numpy.arange(6) * 3), {}),
             ((_F, numpy.arange(7) * 2.0, numpy.float32(3)), {"edge_order": 2}),
             ((_F.astype("float32"), _X0, _X1), {}), ((_F.astype("float32"), 2.0), {"edge_order": 2}),
             ((numpy.arange(10) ** 2,), {}), ((_F, _X1), {"axis": 1}), ((_F, _X0), {"axis": -2, "edge_order": 2}),
             ((_F + 1j * _F, _X0, _X1), {}), ((_F.astype("float16"), 0.5), {}), ((_F, 1, 2), {}),
             ((numpy.arange(5, dtype="uint8"),), {})]


@pytest.mark.parametrize("args,kw", GRADIENTS, ids=range(len(GRADIENTS)))
def test_gradient_as_numpy(args, kw):
    """Coordinate arrays (uneven spacing; even ones reduce to a scalar, as in
    NumPy) and scalars, both edge orders: NumPy's formulas, so the same bits."""
    def run(xp):
        return xp.gradient(*[xp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args], **kw)
    check(run)


@pytest.mark.parametrize("args,kw", [((_F, _X0[:-1], _X1), {}), ((_F, _F, _X1), {}), ((_F, 1, 2, 3), {}),
                                     ((_F,), {"edge_order": 3}), ((numpy.arange(2.0),), {"edge_order": 2})])
def test_gradient_errors_as_numpy(args, kw):
    same_error(lambda xp: xp.gradient(*[xp.asarray(a) if isinstance(a, numpy.ndarray) else a for a in args], **kw))


def test_diff_of_order_zero_is_its_argument():
    x = [0, 1, 3]
    assert mnp.diff(x, n=0) is x and numpy.diff(x, n=0) is x
    a = mnp.asarray(x)
    assert mnp.diff(a, n=0) is a
    check(lambda xp: xp.diff(x, n=2))


def test_argmax_keepdims_and_out():
    x = data((3, 4), seed=4)
    check(lambda xp: xp.asarray(x).argmax(axis=0, keepdims=True))
    check(lambda xp: xp.asarray(x).argmin(axis=1, keepdims=True))
    check(lambda xp: xp.argmax(xp.asarray(x), keepdims=True))
    check(lambda xp: xp.argmin(xp.asarray(x), 1, keepdims=True))
    o = mnp.zeros(4, "int64")
    assert mnp.argmax(mnp.asarray(x), 0, o) is o
    numpy.testing.assert_array_equal(numpy.asarray(o), numpy.argmax(x, 0))


def test_count_nonzero_keepdims():
    x = data((3, 4), seed=4)
    check(lambda xp: xp.count_nonzero(xp.asarray(x), axis=1, keepdims=True))
    check(lambda xp: xp.count_nonzero(xp.asarray(x), keepdims=True))
    for v in (x, [0, 1, 2], 5):  # a whole count is NumPy 2's intp scalar, not a Python int
        got, want = mnp.count_nonzero(mnp.asarray(v) if v is x else v), numpy.count_nonzero(v)
        assert type(got) is type(want) and got == want


# ---- siblings: NumPy's messages where maniple raised the right type ----
def test_reductions_of_nothing_name_numpys_operation():
    for fn in [lambda xp: xp.max(xp.zeros(0)), lambda xp: xp.min(xp.zeros((0, 3)), axis=0),
               lambda xp: xp.argmax(xp.zeros(0)), lambda xp: xp.argmin(xp.zeros((0, 3)), axis=0),
               lambda xp: xp.ptp(xp.zeros(0)), lambda xp: xp.zeros((2, 0)).max(axis=1)]:
        same_error(fn)
    check(lambda xp: xp.max(xp.zeros((0, 3)), axis=1))


def test_unsupported_operand_types_give_numpys_error():
    b, f = data((3,), "bool"), data((3,))
    for fn in [lambda xp: xp.asarray(b) - xp.asarray(b), lambda xp: -xp.asarray(b),
               lambda xp: xp.asarray(f) & xp.asarray(f), lambda xp: xp.asarray(f) << 1,
               lambda xp: xp.asarray(b) - True, lambda xp: xp.invert(xp.asarray(f)),
               lambda xp: xp.subtract(xp.asarray(b), xp.asarray(b))]:
        same_error(fn)


def test_round_of_bool_names_numpys_first_step():
    b = data((3,), "bool")
    same_error(lambda xp: xp.round(xp.asarray(b), 1))
    same_error(lambda xp: xp.around(xp.asarray(b), -1))


def test_reductions_with_initial_and_where():
    x, w = data((3, 4), seed=5), data((3, 4), "bool", seed=6)
    for fn in [lambda xp: xp.sum(xp.asarray(x), where=xp.asarray(w)),
               lambda xp: xp.sum(xp.asarray(x), axis=0, where=w[0], initial=1.5),
               lambda xp: xp.asarray(x).prod(axis=1, initial=2),
               lambda xp: xp.max(xp.asarray(x), axis=1, where=xp.asarray(w), initial=-100.0),
               lambda xp: xp.asarray(x).min(initial=-100),
               lambda xp: xp.min(xp.asarray(numpy.zeros((0, 3))), axis=0, initial=7.0),
               lambda xp: xp.any(xp.asarray(x) > 3, axis=0, where=xp.asarray(w)),
               lambda xp: xp.all(xp.asarray(x) > -3, where=xp.asarray(w)),
               lambda xp: xp.mean(xp.asarray(x), axis=1, where=xp.asarray(w)),
               lambda xp: xp.asarray(x).mean(where=xp.asarray(w)),
               lambda xp: xp.sum(xp.asarray(data((3, 4), "int32")), initial=5),
               lambda xp: xp.add.reduce(xp.asarray(x), axis=0, where=w[0]),
               lambda xp: xp.maximum.reduce(xp.asarray(x), axis=None, where=xp.asarray(w), initial=0.5)]:
        check(fn, rtol=1e-14)
    same_error(lambda xp: xp.max(xp.asarray(x), where=xp.asarray(w)))


def test_item_with_a_flat_index():
    x = data((3, 4), seed=7)
    for k in (0, 5, 11, -1, numpy.int64(7)):
        assert mnp.asarray(x).item(k) == x.item(k)
    assert mnp.asarray(x).item((1, 2)) == x.item((1, 2))
    assert mnp.asarray(x).item(1, 2) == x.item(1, 2)
    same_error(lambda xp: xp.asarray(x).item(12))


def test_astype_and_copy_take_numpys_arguments():
    x = data((3, 4), seed=8)
    check(lambda xp: xp.asarray(x).astype("float32", casting="same_kind"))
    check(lambda xp: xp.asarray(x).astype("int64", "C"))
    check(lambda xp: xp.asarray(x).copy(order="C"))
    check(lambda xp: xp.asarray(x).copy("K"))
    same_error(lambda xp: xp.asarray(x).astype("int64", casting="safe"))
    same_error(lambda xp: xp.asarray(x).astype("float32", casting="safe"))


def test_repeat_with_a_count_per_element():
    x = data((3, 4), seed=9)
    check(lambda xp: xp.repeat(xp.asarray(x), [1, 0, 2], axis=0))
    check(lambda xp: xp.repeat(xp.asarray(x), xp.asarray([2, 1, 0, 3]), axis=1))
    check(lambda xp: xp.asarray(x).repeat([1.5, 2, 0.2], axis=0))
    check(lambda xp: xp.repeat(xp.asarray(x[0]), [3, 1, 1, 2]))
    check(lambda xp: xp.repeat(xp.asarray(x), [2], axis=1))
    for fn in [lambda xp: xp.repeat(xp.asarray(x), [1, -1, 1], axis=0),
               lambda xp: xp.repeat(xp.asarray(x), [1, 2, 3]),
               lambda xp: xp.repeat(xp.asarray(x), [[1, 2, 3]], axis=0)]:
        same_error(fn)


def _warned(fn):
    import warnings
    with warnings.catch_warnings(record=True) as ws:
        warnings.simplefilter("always")
        try:
            fn()
        except FloatingPointError as e:
            return repr(e)
    return [(k.category.__name__, str(k.message)) for k in ws]


EMPTY_STATS = {
    "mean_all": lambda xp: xp.mean(xp.asarray([])),
    "mean_axis0": lambda xp: xp.mean(xp.zeros((0, 3)), axis=0),
    "mean_axis1": lambda xp: xp.mean(xp.zeros((0, 3)), axis=1),
    "mean_complex": lambda xp: xp.mean(xp.zeros((0, 3), "complex128"), axis=0),
    "mean_list": lambda xp: xp.mean([]),
    "var_all": lambda xp: xp.var(xp.asarray([])),
    "var_ddof": lambda xp: xp.var(xp.asarray([1.0]), ddof=1),
    "var_ddof_nonzero": lambda xp: xp.var(xp.asarray([1.0, 2.0]), ddof=2),
    "var_axis0": lambda xp: xp.var(xp.zeros((0, 3)), axis=0),
    "var_axis1": lambda xp: xp.var(xp.zeros((0, 3)), axis=1),
    "var_axis_ddof": lambda xp: xp.var(xp.asarray([[1.0, 2.0], [1.0, 1.0]]), axis=1, ddof=2),
    "std_all": lambda xp: xp.std(xp.asarray([])),
    "std_keepdims": lambda xp: xp.std(xp.zeros((0, 2)), axis=0, keepdims=True),
    "median_all": lambda xp: xp.median(xp.asarray([])),
    "median_axis0": lambda xp: xp.median(xp.zeros((0, 3)), axis=0),
    "median_axis1": lambda xp: xp.median(xp.zeros((0, 3)), axis=1),
    "nanmedian_all": lambda xp: xp.nanmedian(xp.asarray([])),
    "average_all": lambda xp: xp.average(xp.asarray([])),
    "nanmean_all": lambda xp: xp.nanmean(xp.asarray([])),
    "nanmean_all_nan": lambda xp: xp.nanmean(xp.asarray([numpy.nan, numpy.nan])),
    "nanvar_all": lambda xp: xp.nanvar(xp.asarray([])),
    "nanvar_ddof": lambda xp: xp.nanvar(xp.asarray([1.0, numpy.nan]), ddof=1),
}


@pytest.mark.parametrize("mode", ["warn", "ignore", "raise"])
@pytest.mark.parametrize("name", sorted(EMPTY_STATS))
def test_mean_and_var_over_nothing_warn_as_numpy(name, mode):
    """'Mean of empty slice' and 'Degrees of freedom <= 0' (known from the
    shapes), then the 0/0 or x/0 of the division under np.errstate."""
    fn = EMPTY_STATS[name]
    with numpy.errstate(invalid=mode, divide=mode):
        assert _warned(lambda: fn(mnp)) == _warned(lambda: fn(numpy))


def _dispatch_case(xp, case):
    a = numpy.linspace(-1, 1, 7)
    A = xp.asarray(a)
    if case == "ndarray_clip_into_maniple":
        o = xp.zeros(7)
        a.clip(-0.5, 0.6, out=o)
        return o
    if case == "ndarray_clip_unsafe":
        o = xp.zeros(7, "int32")
        a.clip(-0.5, 0.6, out=o, casting="unsafe")
        return o
    if case == "ndarray_clip_same_kind":
        a.clip(-0.5, 0.6, out=xp.zeros(7, "int32"))
    if case == "clip_same_kind":
        return xp.clip(A, -0.5, 0.6, out=xp.zeros(7, "int32"))
    if case == "clip_where":
        return xp.clip(A, -0.5, 0.6, out=xp.ones(7), where=A > 0)
    if case == "clip_dtype":
        return xp.clip(A, -0.5, 0.6, dtype="float32")
    if case == "clip_bad_keyword":
        return xp.clip(A, -0.5, 0.6, bogus=1)
    if case == "numpy_add_where":
        o = xp.zeros(7)
        numpy.add(a, 1, out=o, where=a > 0)
        return o
    if case == "numpy_add_dtype":
        return numpy.add(A, 1, dtype="float32")
    if case == "numpy_multiply_where":
        o = xp.ones(7)
        numpy.multiply(A, 2, where=A > 0, out=o)
        return o


@pytest.mark.parametrize("case", ["ndarray_clip_into_maniple", "ndarray_clip_unsafe", "ndarray_clip_same_kind",
                                  "clip_same_kind", "clip_where", "clip_dtype", "clip_bad_keyword",
                                  "numpy_add_where", "numpy_add_dtype", "numpy_multiply_where"])
def test_ufunc_keywords_through_numpys_dispatch(case):
    """NumPy's ufuncs (and a NumPy array's clip) with a maniple operand or out
    pass casting=/where=/dtype= on (they had returned NotImplemented: a
    TypeError), and clip checks its out under same_kind as NumPy."""
    try:
        _dispatch_case(numpy, case)
    except Exception as e:
        same_error(lambda xp: _dispatch_case(xp, case))
        return
    check(lambda xp: _dispatch_case(xp, case))


_VX = numpy.random.default_rng(0).standard_normal((5, 6))
_VM = numpy.random.default_rng(1).random((5, 6)) > 0.4
_VM[0] = False  # a column or row with nothing chosen: NaN and NumPy's warning


@pytest.mark.parametrize("kw", [{}, {"axis": 0}, {"axis": 1, "ddof": 1}, {"axis": 0, "keepdims": True},
                                {"axis": (0, 1)}], ids=str)
@pytest.mark.parametrize("f", ["var", "std"])
@pytest.mark.parametrize("kind", ["float", "complex", "int"])
def test_var_and_std_with_where(kind, f, kw):
    """where= (it was NotImplementedError): the chosen elements' mean and
    squared deviations, their count per slice less ddof, NumPy's warning."""
    x = {"float": _VX, "complex": _VX + 1j * _VX[::-1], "int": (_VX * 3).astype(int)}[kind]
    for wh in (_VM, _VM[0:1]):
        def run(xp):
            with warnings.catch_warnings(record=True) as ws:
                warnings.simplefilter("always")
                v = getattr(xp, f)(xp.asarray(x), where=xp.asarray(wh), **kw)
            return v, [str(k.message) for k in ws if "Degrees" in str(k.message)]
        (got, gw), (want, ww) = run(mnp), run(numpy)
        assert gw == ww
        check(lambda xp: got if xp is mnp else want, rtol=1e-12, atol=1e-15)


_VAR_DATA = [numpy.array([1.0, 2.0, 4.0]), numpy.array(1 + 2j), numpy.array([1 + 2j, 3 - 1j, numpy.nan]),
             numpy.array([1, 5, 2]), numpy.array(3.0), numpy.array([[1.0, numpy.nan], [2.0, 3.0]], "float32")]
_VAR_KW = [{}, {"ddof": 1}, {"correction": 1}, {"correction": 0.5}, {"ddof": 1, "correction": 1},
           {"ddof": 0, "correction": 1}, {"ddof": 1, "correction": None}]


@pytest.mark.parametrize("kw", _VAR_KW, ids=str)
@pytest.mark.parametrize("k", range(len(_VAR_DATA)))
@pytest.mark.parametrize("f", ["var", "std", "nanvar", "nanstd"])
def test_var_correction_and_0d_complex(f, k, kw):
    """correction= with ddof= is NumPy's ValueError (correction won), and the
    variance of a 0-d complex array is real (it raised AttributeError)."""
    def run(xp):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            return getattr(xp, f)(xp.asarray(_VAR_DATA[k]), **kw)
    try:
        run(numpy)
    except Exception:
        same_error(run)
        return
    check(run, rtol=1e-6 if _VAR_DATA[k].dtype == numpy.float32 else 1e-14)
