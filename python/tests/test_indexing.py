"""Advanced indexing (integer arrays, boolean masks) and the selection
functions, against NumPy, on every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

from xp import check, data, raises_like

KEYS_2D = [
    lambda xp, x: x > 0,
    lambda xp, x: [1, 3],
    lambda xp, x: [-1, 0, 0],
    lambda xp, x: (slice(None), [1, -2]),
    lambda xp, x: ([0, 2], [1, 3]),
    lambda xp, x: (numpy.array([[0], [2]]), [1, 3, 4]),
    lambda xp, x: (slice(1, 4), [0, 0, 4]),
    lambda xp, x: ([1, 2], slice(None, None, -2)),
    lambda xp, x: (1, [2, 3]),
    lambda xp, x: ([1, 2], 3),
    lambda xp, x: (x[:, 0] > 0,),
    lambda xp, x: (slice(None), x[0] > 0),
    lambda xp, x: (None, [1, 2]),
    lambda xp, x: ([2, 3], None, slice(2, 5)),
    lambda xp, x: (Ellipsis, [4]),
    lambda xp, x: xp.asarray([5, 1]),
    lambda xp, x: [],
]


@pytest.mark.parametrize("k", range(len(KEYS_2D)))
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_getitem_2d(k, dtype):
    check(lambda xp: (lambda x: x[KEYS_2D[k](xp, x)])(xp.asarray(data((7, 5), dtype, seed=k))))


@pytest.mark.parametrize("key", [([0, 1], slice(None), [2, 3]), (slice(None), [0, 1], [2, 3]), (Ellipsis, [1, 5]),
                                 ([[1]], [[2], [3]], 0), (slice(None), slice(1, 3), [0, 0])])
def test_getitem_3d(key):
    check(lambda xp: xp.asarray(data((4, 5, 6), seed=3))[key])


@pytest.mark.parametrize("shape", [(0,), (2,), (7,), (3, 4), (2, 0, 3)])
def test_mask_of_every_shape(shape):
    check(lambda xp: (lambda x: x[x > 0])(xp.asarray(data(shape, seed=4))))
    check(lambda xp: (lambda x: xp.nonzero(x))(xp.asarray(data(shape, seed=4))))


def test_setitem_advanced():
    def run(xp):
        x = xp.asarray(data((6, 10), seed=1))
        x[x > 3] = -1
        x[[0, 1, 0], [2, 3, 2]] = [7, 8, 9]            # a repeated index: the last wins
        x[:, [1, 2]] = xp.arange(6.0)[:, None]
        x[x > 3] = xp.arange(int((x > 3).sum()), dtype="float64")
        x[[5, -1]] = 2.5
        x[1:4, [0, 9]] *= 10                           # a copy, as in NumPy
        v = x[::2]                                     # writes through a view
        v[[0, 2], 1] = -7
        return x
    check(run)


@pytest.mark.parametrize("kdt", ["int64", "int32", "int16", "uint8", "uint64"])
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool", "complex128"])
def test_integer_array_key_on_1d(kdt, dtype):
    """x[idx] and x[idx] = scalar on a 1-d array with a maniple index array
    (the C take and put, no index arithmetic): repeats, negative indices,
    2-d keys, views, as NumPy."""
    n = 23
    ix = numpy.random.default_rng(5).integers(-n if kdt[0] == "i" else 0, n, 40).astype(kdt)

    def run(xp):
        x = xp.asarray(data((n,), dtype, seed=4))
        k = xp.asarray(ix)
        a, b, c = x[k], x[k[:12].reshape(3, 4)], x[k[:0]]
        y = xp.asarray(data((2 * n,), dtype, seed=6))
        v = y[::2]                                   # a view: writes reach y
        v[xp.asarray(ix[:7])] = 1
        x[k] = 0
        x[k[:0]] = 1                                 # nothing to write
        return a, b, c, x, y
    check(run)


def test_integer_array_key_used_again():
    """A loop's x[idx] and y[idx] = v with the same index array (plans kept
    between takes and puts): the indices written in place between uses, the last one alone
    (on the last rank), x written, another x of x's size and of another
    dtype, an index out of bounds at the end, as NumPy."""
    n = 301
    ix = numpy.random.default_rng(8).integers(-n, n, 200)

    def run(xp):
        x, z = xp.asarray(data((n,), seed=9)), xp.asarray(data((n,), "float32", seed=10))
        y = xp.zeros(n)
        k = xp.array(ix)                         # (a copy: run(numpy) writes it)
        got = []
        for step in range(6):
            if step == 2:
                k[-1] = (int(k[-1]) + 1) % n     # one index, on the last rank
            if step == 3:
                x *= 2.0
            if step == 5:
                k[:] = k[::-1]                   # every index, same values
            got.append((x if step != 4 else z)[k])
            got.append(x[k] + 0 * x[k])
            y[k] = float(step)                   # puts with the same indices: the last value wins
            y[k] = xp.arange(200.0) * step
            got.append(y.copy())
        k[-1] = n
        with pytest.raises(IndexError, match=f"index {n} is out of bounds"):
            x[k]
        return got
    check(run)


def test_integer_array_key_on_1d_errors():
    x = data((6,))
    msg = "index {} is out of bounds for axis 0 with size 6"
    raises_like(lambda xp: xp.asarray(x)[xp.asarray([0, 6])], IndexError, msg.format(6))
    raises_like(lambda xp: xp.asarray(x)[xp.asarray([-7, 1])], IndexError, msg.format(-7))

    def bad_set(xp):
        a = xp.asarray(x)
        a[xp.asarray([5, 0, 6])] = 1.0
        return a
    raises_like(bad_set, IndexError, "index 6 is out of bounds")

    def bad_value(xp):
        a = xp.asarray(x.astype("int32"))
        a[xp.asarray([1])] = numpy.inf
    raises_like(bad_value, OverflowError, "infinity")
    import maniple.numpy as mnp
    a = mnp.asarray(x)
    with pytest.raises(IndexError):
        a[mnp.asarray([0, 9])] = 1.0
    numpy.testing.assert_array_equal(numpy.asarray(a), x)


def test_fancy_getitem_is_a_copy():
    def run(xp):
        x = xp.asarray(data((5,), seed=2))
        y = x[[0, 1]]
        y[0] = 100
        return x, y
    check(run)


def test_index_errors_on_every_rank():
    x = data((6, 10))
    raises_like(lambda xp: xp.asarray(x)[[1, 7]], IndexError, "index 7 is out of bounds for axis 0 with size 6")
    raises_like(lambda xp: xp.asarray(x)[:, [-11]], IndexError, "index -11 is out of bounds for axis 1 with size 10")
    raises_like(lambda xp: xp.asarray(x)[xp.asarray(x[:3] > 0)], IndexError, "boolean index did not match")
    raises_like(lambda xp: xp.asarray(x)[[1.5]], IndexError, "integer")

    def bad_set(xp):
        a = xp.asarray(x)
        a[[0, 1]] = xp.ones(3)
    raises_like(bad_set, ValueError, "shape mismatch")


def test_failed_assignment_leaves_target_unchanged():
    import maniple.numpy as mnp
    a = mnp.asarray(data((4, 4)))
    with pytest.raises(IndexError):
        a[[0, 9]] = 1.0
    numpy.testing.assert_array_equal(numpy.asarray(a), data((4, 4)))


@pytest.mark.parametrize("shape", [(5,), (3, 4), (2, 3, 2)])
def test_nonzero_argwhere_flatnonzero_where(shape):
    check(lambda xp: xp.nonzero(xp.asarray(data(shape, seed=5))))
    check(lambda xp: xp.argwhere(xp.asarray(data(shape, seed=5))))
    check(lambda xp: xp.flatnonzero(xp.asarray(data(shape, seed=5))))
    check(lambda xp: xp.where(xp.asarray(data(shape, seed=5)) > 1))
    check(lambda xp: xp.asarray(data(shape, seed=5)).nonzero())


def test_take_put_compress_extract():
    x = data((4, 5), seed=6)
    check(lambda xp: xp.take(xp.asarray(x), [3, 0, 19, -1]))
    check(lambda xp: xp.take(xp.asarray(x), [[1, 0], [2, 2]], axis=1))
    check(lambda xp: xp.take(xp.asarray(x), [7, -9, 40], mode="wrap"))
    check(lambda xp: xp.take(xp.asarray(x), [7, -9, 40], mode="clip"))
    check(lambda xp: xp.asarray(x).take(2))
    check(lambda xp: xp.compress([True, False, True], xp.asarray(x), axis=0))
    check(lambda xp: xp.compress([0, 1, 1, 0, 1], xp.asarray(x), axis=1))
    check(lambda xp: xp.extract(xp.asarray(x) > 0, xp.asarray(x)))

    def puts(xp):
        a = xp.asarray(x)
        xp.put(a, [0, 7, 19], [-1.0, -2.0, -3.0])
        a.put([1, 2, 3, 4], [9.0, 8.0])           # values repeat
        xp.place(a, a > 5, [100.0, 200.0])
        xp.putmask(a, a < -1, xp.asarray([0.5, 1.5, 2.5]))
        return a
    check(puts)
    raises_like(lambda xp: xp.take(xp.asarray(x), [20]), IndexError, "out of bounds")


def test_along_axis_select_choose():
    x = data((4, 6), seed=7)
    idx = numpy.argsort(x, axis=1, kind="stable")
    check(lambda xp: xp.take_along_axis(xp.asarray(x), xp.asarray(idx), axis=1))
    check(lambda xp: xp.take_along_axis(xp.asarray(x), xp.asarray(idx[:2] % 4), axis=0))

    def pa(xp):
        a = xp.asarray(x)
        xp.put_along_axis(a, xp.asarray(idx[:, :2]), -5.0, axis=1)
        return a
    check(pa)
    check(lambda xp: xp.select([xp.asarray(x) < 0, xp.asarray(x) > 5], [xp.asarray(x) * 2, 7.0], default=-1.0))
    c = numpy.abs(data((3, 4), "int64", seed=8)) % 3
    check(lambda xp: xp.choose(xp.asarray(c), [xp.asarray(x[:3, :4]), 0.5 * xp.asarray(x[:3, :4]), -1.0]))


def test_triangles_and_index_helpers():
    x = data((5, 7), seed=9)
    for k in (-2, 0, 3):
        check(lambda xp: xp.tril(xp.asarray(x), k))
        check(lambda xp: xp.triu(xp.asarray(x), k))
        check(lambda xp: xp.tri(4, 6, k))
        check(lambda xp: xp.tril_indices(5, k, 7))
        check(lambda xp: xp.triu_indices_from(xp.asarray(x), k))
    check(lambda xp: xp.diag_indices(4))
    check(lambda xp: xp.ravel_multi_index((xp.asarray([1, 2, 4]), xp.asarray([0, 6, 3])), (5, 7)))
    check(lambda xp: xp.unravel_index(xp.asarray([0, 17, 34]), (5, 7)))
    check(lambda xp: xp.unravel_index(17, (5, 7)))
    check(lambda xp: xp.indices((3, 4)))
    check(lambda xp: xp.ix_(xp.asarray([0, 2]), xp.asarray([True, False, True]))[1])

    def fd(xp):
        a = xp.asarray(x)
        xp.fill_diagonal(a, 0.25)
        b = xp.zeros((7, 3))
        xp.fill_diagonal(b, 1.0, wrap=True)
        return a, b
    check(fd)
    raises_like(lambda xp: xp.ravel_multi_index((xp.asarray([9]), xp.asarray([0])), (5, 7)), ValueError)


@pytest.mark.parametrize("order", ["C", "F"])
def test_ravel_and_unravel_in_both_orders(order):
    check(lambda xp: xp.ravel_multi_index((xp.asarray([1, 2, 4]), xp.asarray([0, 6, 3])), (5, 7), order=order))
    check(lambda xp: xp.ravel_multi_index((xp.asarray([1, 9]), xp.asarray([-1, 6]), xp.asarray([2, 2])), (5, 7, 3),
                                          mode=("clip", "wrap", "raise"), order=order))
    check(lambda xp: xp.ravel_multi_index((1, 2), (5, 7), order=order))
    check(lambda xp: xp.unravel_index(xp.asarray([0, 17, 34]), (5, 7), order=order))
    check(lambda xp: xp.unravel_index(xp.asarray([[0, 17], [104, 3]]), (5, 7, 3), order=order))
    check(lambda xp: xp.unravel_index(17, (5, 7), order=order))


def test_ravel_unravel_and_isin_errors_as_numpy():
    raises_like(lambda xp: xp.unravel_index(xp.asarray([0]), ()), ValueError, "0d arrays")
    raises_like(lambda xp: xp.unravel_index(xp.asarray([1]), ()), ValueError, "out of bounds")
    raises_like(lambda xp: xp.unravel_index(xp.asarray([1]), (3,), order="K"), ValueError, "'C' or 'F'")
    raises_like(lambda xp: xp.ravel_multi_index((1, 2), (5, 7), order="A"), ValueError, "'C' or 'F'")
    raises_like(lambda xp: xp.isin(xp.asarray([1, 2]), xp.asarray([2]), kind="quicksort"), ValueError, "Invalid kind")
    raises_like(lambda xp: xp.isin(xp.asarray([1.5]), xp.asarray([2]), kind="table"), ValueError, "'table'")
    check(lambda xp: xp.isin(xp.asarray([1, 2, 5]), xp.asarray([2, 5]), kind="table"))
    # the table's range in the test values' own dtype: int8 from -128 to 127 overflows it
    big = numpy.array([-128, 0, 127], dtype="int8")
    raises_like(lambda xp: xp.isin(xp.asarray(numpy.array([0, 1], "int16")), xp.asarray(big), kind="table"),
                RuntimeError, "exceed the maximum")
    check(lambda xp: xp.isin(xp.asarray(numpy.array([0, 1], "int16")), xp.asarray(big)))
    check(lambda xp: xp.isin(xp.asarray(numpy.array([0, 1], "int16")), xp.asarray(big[1:]), kind="table"))
    check(lambda xp: xp.isin(xp.asarray([True]), xp.asarray([False, True]), kind="table"))


def test_ufunc_out_ellipsis_and_dtype_classes():
    """out=... gives an array (0-d, not a scalar), and dtype= takes NumPy's
    DType classes (type(a.dtype)), as NumPy's ufuncs do."""
    check(lambda xp: xp.add(xp.asarray(2), xp.asarray(5.0), out=...))
    check(lambda xp: xp.add(xp.arange(4), 1, out=...))
    check(lambda xp: xp.add.reduce(xp.arange(4), out=...))
    check(lambda xp: xp.subtract(xp.asarray([1, 2]), 1.0, dtype=numpy.dtypes.Float32DType))
    check(lambda xp: xp.zeros(3, dtype=numpy.dtypes.Int8DType))


def test_flat():
    def run(xp):
        a = xp.asarray(data((3, 4), seed=10))
        a.flat[[1, 5]] = -1.0
        a.flat[7] = 3.0
        return a, a.flat[2:9:3], list(a.flat)[:5]
    check(run)
