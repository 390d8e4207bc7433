"""NumPy's memory orders ('C', 'F', 'A', 'K') against NumPy run here, on
every rank under mpiexec -n 1, 2, 3: the values and the contiguity flags
of arrays made in F order, of copies and casts in each order, and of
ravel/flatten/reshape in the orders that follow memory ('A', 'K'), which
read an F-ordered array in another sequence than C's."""
import numpy
import pytest

import maniple.numpy as mnp

SHAPE = (5, 7)


def sources(xp):
    """Arrays laid out in several ways: C, transposed (F), strided, F-made,
    and a 3-d one with permuted axes (neither C nor F)."""
    base = xp.arange(35.0).reshape(SHAPE) * 1.5 - 4.0
    cube = xp.arange(60.0).reshape(3, 4, 5)
    return {
        "c": base,
        "transposed": base.T,
        "strided": base[:, ::2],
        "reversed": base[::-1],
        "fortran": xp.asfortranarray(base),
        "permuted": cube.transpose(1, 2, 0),
        "permuted_f": xp.asfortranarray(cube).transpose(2, 0, 1),
    }


SOURCES = list(sources(numpy))


def same(got, want):
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    numpy.testing.assert_array_equal(numpy.asarray(got), want)
    for f in ("C_CONTIGUOUS", "F_CONTIGUOUS"):
        assert bool(got.flags[f]) == bool(want.flags[f]), (f, got.flags[f], want.flags[f])


def both(fn, name):
    return fn(mnp, sources(mnp)[name]), fn(numpy, sources(numpy)[name])


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_ravel_and_flatten_read_in_memory_order(name, order):
    got, want = both(lambda xp, a: a.ravel(order=order), name)
    numpy.testing.assert_array_equal(numpy.asarray(got), want)
    got, want = both(lambda xp, a: a.flatten(order=order), name)
    numpy.testing.assert_array_equal(numpy.asarray(got), want)
    got, want = both(lambda xp, a: xp.ravel(a, order=order), name)
    numpy.testing.assert_array_equal(numpy.asarray(got), want)


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_reshape_in_each_order(name, order):
    got, want = both(lambda xp, a: a.reshape(-1, a.shape[0], order=order), name)
    numpy.testing.assert_array_equal(numpy.asarray(got), want)


def test_reshape_refuses_k():
    for xp in (numpy, mnp):
        with pytest.raises(ValueError, match="'K' is not permitted for reshaping"):
            xp.arange(6.0).reshape(2, 3).reshape(6, order="K")


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_copies_and_casts_in_each_order(name, order):
    same(*both(lambda xp, a: a.copy(order=order), name))
    same(*both(lambda xp, a: xp.copy(a, order=order), name))
    same(*both(lambda xp, a: a.astype(numpy.float32, order=order), name))
    same(*both(lambda xp, a: xp.array(a, order=order), name))
    same(*both(lambda xp, a: xp.array(a, dtype=numpy.int64, order=order), name))


@pytest.mark.parametrize("name", SOURCES)
def test_default_orders(name):
    same(*both(lambda xp, a: a.copy(), name))  # the method's default is C
    same(*both(lambda xp, a: xp.copy(a), name))  # the function's is K
    same(*both(lambda xp, a: a.astype(numpy.float32), name))
    same(*both(lambda xp, a: xp.array(a), name))


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("order", ["C", "F", "A", "K"])
def test_like_functions_follow_the_prototype(name, order):
    same(*both(lambda xp, a: xp.zeros_like(a, order=order), name))
    same(*both(lambda xp, a: xp.ones_like(a, dtype=numpy.int32, order=order), name))
    same(*both(lambda xp, a: xp.full_like(a, 2.5, order=order), name))
    got, want = both(lambda xp, a: xp.empty_like(a, order=order), name)
    assert got.flags.f_contiguous == want.flags.f_contiguous and got.flags.c_contiguous == want.flags.c_contiguous


@pytest.mark.parametrize("name", SOURCES)
def test_contiguous_conversions(name):
    same(*both(lambda xp, a: xp.asfortranarray(a), name))
    same(*both(lambda xp, a: xp.ascontiguousarray(a), name))
    same(*both(lambda xp, a: xp.asarray(a, order="F"), name))
    same(*both(lambda xp, a: xp.asarray(a, order="C"), name))
    same(*both(lambda xp, a: xp.require(a, requirements="F"), name))
    assert mnp.isfortran(sources(mnp)[name]) == numpy.isfortran(sources(numpy)[name])


@pytest.mark.parametrize("make", ["zeros", "ones", "empty", "full"])
@pytest.mark.parametrize("shape", [(4, 6), (3, 4, 5), (6,), (1, 5)])
def test_creation_in_f_order(make, shape):
    args = (2.0,) if make == "full" else ()
    got = getattr(mnp, make)(shape, *args, order="F")
    want = getattr(numpy, make)(shape, *args, order="F")
    if make == "empty":
        got[...] = 3.0
        want[...] = 3.0
    same(got, want)
    same(got.ravel(order="K"), want.ravel(order="K"))


def test_f_ordered_array_computes_as_numpy():
    """Element-wise work, reductions, products and writes on an F-ordered
    array (its storage split along the other axis) give NumPy's values."""
    a, r = mnp.asfortranarray(mnp.arange(35.0).reshape(SHAPE)), numpy.asfortranarray(numpy.arange(35.0).reshape(SHAPE))
    b, s = mnp.arange(35.0).reshape(SHAPE) * 0.5, numpy.arange(35.0).reshape(SHAPE) * 0.5
    numpy.testing.assert_array_equal(numpy.asarray(a + b * 2.0), r + s * 2.0)
    numpy.testing.assert_allclose(numpy.asarray(a.sum(axis=0)), r.sum(axis=0))
    numpy.testing.assert_allclose(numpy.asarray(a @ b.T), r @ s.T)
    a[1:3, 2] = -1.0
    r[1:3, 2] = -1.0
    a += 1.0
    r += 1.0
    same(a, r)
    numpy.testing.assert_array_equal(numpy.asarray(a.ravel("K")), r.ravel("K"))


def test_numpy_input_in_f_order():
    r = numpy.asfortranarray(numpy.arange(12.0).reshape(3, 4))
    same(mnp.array(r), numpy.array(r))
    same(mnp.array(r, order="C"), numpy.array(r, order="C"))
    same(mnp.asarray(r, order="F"), numpy.asarray(r, order="F"))


def test_order_errors_as_numpy():
    for bad, exc in (("Q", ValueError), (3, TypeError)):
        for xp in (numpy, mnp):
            with pytest.raises(exc):
                xp.zeros((2, 2)).copy(order=bad)
    for xp in (numpy, mnp):
        with pytest.raises(ValueError):
            xp.zeros((2, 2), order="K")


@pytest.mark.parametrize("name", SOURCES)
@pytest.mark.parametrize("order", ["C", "F", "A"])
def test_tobytes_in_each_order(name, order):
    got, want = both(lambda xp, a: a.tobytes(order=order), name)
    assert got == want


@pytest.mark.parametrize("name", SOURCES)
def test_save_and_load_of_each_layout(name):
    """A transposed, strided or F-made array saved and loaded back (every
    rank writes its part of a view's elements) equals NumPy's array, as
    numpy.load reads the file too; then savetxt/loadtxt of the same array."""
    import os
    path = os.path.join(os.environ["MANIPLE_PYTEST_TMP"], f"layout_{name}")
    a, want = sources(mnp)[name], sources(numpy)[name]
    if a.ndim > 2:
        a, want = a.reshape(a.shape[0], -1), want.reshape(want.shape[0], -1)
    mnp.save(path + ".npy", a)
    numpy.testing.assert_array_equal(numpy.load(path + ".npy"), want)
    numpy.testing.assert_array_equal(numpy.asarray(mnp.load(path + ".npy")), want)
    mnp.savetxt(path + ".txt", a)
    numpy.testing.assert_array_equal(numpy.asarray(mnp.loadtxt(path + ".txt")), want)
