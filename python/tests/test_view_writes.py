"""Writes through views reach their base, and writes to the base show in the
views, exactly where NumPy's results are views; where NumPy copies, they do
not. Each body runs with NumPy and with maniple.numpy (xp.check); the shapes
are odd so that the blocks of the two shapes differ at 2 and 3 ranks."""
import gc
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from maniple.numpy import _views
from xp import check
from test_numpy_args import same_error


def grid(xp, shape=(6, 35)):
    return xp.arange(float(numpy.prod(shape))).reshape(shape) * 1.0


def test_reshape_write_reaches_base():
    def f(xp):
        x = xp.ones(4)
        y = x.reshape(2, 2)
        y[:] = 2
        return x
    check(f)


def test_reshape_write_both_ways():
    def f(xp):
        x = xp.arange(210.0)
        y = x.reshape(6, 35)
        y[1:3, 4:30] = -1.0        # into the view
        x[100:140] += 1000.0      # into the base: the view follows
        y *= 2                    # in place on the view
        return x, y
    check(f)


def test_ravel_write_reaches_base():
    def f(xp):
        x = grid(xp)
        x.ravel()[7] = 70.0
        xp.ravel(x)[8] = 80.0
        return x
    check(f)


def test_numpy_functions_reshape_ravel():
    def f(xp):
        x = grid(xp)
        xp.reshape(x, (35, 6))[34, 5] = -5.0
        xp.reshape(x, (-1,))[0] = -7.0
        return x
    check(f)


def test_view_of_a_slice_reshaped():
    def f(xp):
        x = grid(xp, (8, 9))
        y = x[:4].reshape(36)      # contiguous rows: a view
        y[5] = -1.0
        z = x[2:6].reshape(2, 2, 9)
        z[1, 0, 3] = -2.0
        return x
    check(f)


def test_copies_stay_copies():
    """NumPy copies here (the strides cannot express the new shape)."""
    def f(xp):
        x = grid(xp, (4, 6))
        a = x.T.ravel()
        a[1] = -1.0
        b = x[::2].reshape(12)
        b[0] = -2.0
        c = x[:, :3].reshape(12)
        c[2] = -3.0
        d = xp.arange(6.0)[::2].ravel()  # ravel of a non-contiguous 1-d array copies
        d[1] = -4.0
        e = x.reshape(2, 3, 4).T.reshape(24)
        e[3] = -5.0
        return x, a, b, c, d, e
    check(f)


def test_chained_reshapes():
    def f(xp):
        x = xp.zeros(30)
        y = x.reshape(5, 6).reshape(3, 10)
        y[2, 9] = 5.0
        z = x.reshape(6, 5)[1:3].reshape(10)  # rows 1-2 of a view: contiguous, a view again
        z[4] = 6.0
        w = x.reshape(6, 5)[:, 1:3].reshape(12)  # not contiguous: NumPy copies
        w[0] = 7.0
        return x, y, z, w
    check(f)


def test_strided_view_reshape_then_merge():
    """A view's strides over the original decide, not its own copy's."""
    def f(xp):
        x = xp.zeros((4, 4))
        v = x[::2].reshape(2, 2, 2)  # a view: strides (8, 2, 1)
        v[1, 1, 1] = 1.0
        m = v.reshape(4, 2)          # merging axes 0 and 1 needs a copy
        m[0, 0] = 9.0
        return x, v, m
    check(f)


def test_write_into_base_shows_in_view():
    def f(xp):
        x = xp.zeros(4)
        y = x.reshape(2, 2)
        x[3] = 9.0
        return y
    check(f)


def test_pending_values_keep_their_values():
    """Expressions read before a write keep what they read (eager NumPy)."""
    def f(xp):
        x = xp.arange(12.0)
        y = x.reshape(3, 4)
        zx = x * 2     # reads x; a write through y must not change it
        zy = y + 1     # reads y; a write into x must not change it
        y[0, 0] = 100.0
        x[11] = -100.0
        return zx, zy, x, y
    check(f)


def test_in_place_operators_out_and_methods():
    def f(xp):
        x = xp.arange(12.0)
        y = x.reshape(3, 4)
        y += 1
        xp.multiply(y, 2, out=y)
        x.reshape(4, 3).fill(0.5) if xp is numpy else x.reshape(4, 3).fill(0.5)
        s = xp.array([3.0, 1.0, 2.0, 0.0])
        s.reshape(2, 2).sort()
        xp.copyto(x.reshape(2, 6), 7.0)
        return x, y, s
    check(f)


def test_put_flat_and_advanced_indexing_through_view():
    def f(xp):
        x = xp.zeros(20)
        y = x.reshape(4, 5)
        y[[0, 3], [1, 4]] = 5.0
        y[y == 0] = 1.0 if xp is numpy else 1.0
        xp.put(y, [0, 19], [-1.0, -2.0])
        y.flat[7] = 8.0
        return x
    check(f)


def test_unit_axes_are_true_views():
    def f(xp):
        x = xp.zeros(7)
        x.reshape(7, 1)[3, 0] = 1.0
        x.reshape(1, 7, 1)[0, 4, 0] = 2.0
        y = xp.zeros((1, 7))
        y.reshape(7)[2] = 3.0
        return x, y
    check(f)


def test_transposes_and_axis_moves_write_through():
    def f(xp):
        x = xp.zeros((2, 3, 4))
        x.T[3, 2, 1] = 1.0
        xp.swapaxes(x, 0, 2)[0, 0, 1] = 2.0
        xp.moveaxis(x, 0, -1)[2, 3, 0] = 3.0
        xp.squeeze(x[None])[1, 1, 1] = 4.0
        xp.expand_dims(x, 1)[0, 0, 1, 2] = 5.0
        x.flat[5] = 6.0
        xp.atleast_3d(x)[1, 0, 0] = 7.0
        return x
    check(f)


def test_atleast_1d_of_0d_is_a_view():
    def f(xp):
        x = xp.zeros(())
        xp.atleast_1d(x)[0] = 5.0
        xp.atleast_2d(x)[0, 0] += 1.0
        return x
    check(f)


def test_read_only_views_refuse_writes():
    for xp in (numpy, mnp):
        x = xp.zeros(3)
        b = xp.broadcast_to(x, (2, 3))
        with pytest.raises(ValueError, match="read-only"):
            b[0, 0] = 1.0
        with pytest.raises(ValueError, match="read-only"):
            b[:1].reshape(3)[0] = 1.0  # a view of a read-only view
        b.reshape(6)[0] = 1.0  # NumPy copies here (zero strides cannot merge): writable
        d = xp.diagonal(xp.zeros((3, 3)))
        with pytest.raises(ValueError, match="read-only"):
            d[0] = 1.0
        assert float(xp.asarray(x).sum()) == 0.0


@pytest.mark.parametrize("shape,offset,axes", [((6, 35), 0, (0, 1)), ((6, 35), 3, (0, 1)), ((6, 35), -2, (0, 1)),
                                                ((35, 6), 1, (1, 0)), ((7, 7), 0, (1, 0))])
def test_diagonal_follows_later_writes(shape, offset, axes):
    """NumPy's diagonal of a matrix is a read-only view: it shows writes
    made to the matrix after it was taken (maniple kept the values it was
    taken with), and shares the matrix's memory."""
    def f(xp):
        a = grid(xp, shape)
        d = xp.diagonal(a, offset, *axes)
        dt = a.T.diagonal(offset)
        first = d.copy()
        a[1:4] *= -2.0
        mid = d * 1.0
        a[...] = grid(xp, shape) + 100.0
        return first, mid, d, dt, xp.shares_memory(a, d), xp.shares_memory(a[2:], d), d.flags.owndata
    check(f)


def test_broadcast_arrays_write_warns_as_numpy():
    def f(xp):
        x = xp.zeros(3)
        a, _ = xp.broadcast_arrays(x, xp.zeros((2, 1)))
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            a[0, 1] = 5.0
        assert any(issubclass(k.category, DeprecationWarning) for k in w)
        return x
    check(f)


def test_broadcast_arrays_flags_as_numpy():
    """NumPy 2's transition: a broadcast result reads writeable with a
    FutureWarning and warns once on a write; an input that needs no
    broadcasting gives an ordinary writeable view (writes go through),
    a read-only input stays read-only, and nothing to broadcast returns
    the arrays themselves."""
    def f(xp):
        x, y = xp.zeros(3), xp.arange(6.0).reshape(2, 3)
        a, b = xp.broadcast_arrays(x, y)
        with pytest.warns(FutureWarning):
            assert a.flags.writeable
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert b.flags.writeable
            b[1, 2] = 50.0  # y's element, no warning
        with pytest.warns(DeprecationWarning):
            a[0, 1] = 5.0
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # the write cleared it
            assert a.flags.writeable
            a[0, 2] = 7.0
        c, _ = xp.broadcast_arrays(x, y)
        c.flags.writeable = True  # setting it clears the warning too
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            assert c.flags.writeable
        r = xp.arange(3.0)
        r.flags.writeable = False
        _, d = xp.broadcast_arrays(y, r)
        assert not d.flags.writeable
        p, q = xp.broadcast_arrays(x, r)
        assert p is x and q is r
        return x, y
    check(f)


def test_other_dtypes():
    for dt in ("int32", "int64", "float32", "bool"):
        def f(xp):
            x = xp.zeros(35, dtype=dt)
            y = x.reshape(5, 7)
            y[4, 6] = 1
            y[0] = 1
            return x
        check(f)


def test_temporaries_and_dead_views_leave_no_links():
    """A reshape of a temporary makes no link, and links of dropped arrays
    go away (their copies are freed)."""
    def links(a):
        return len(_views._links.get(a._arr.base, ()))
    t = mnp.arange(12.0)
    a = (t + 1).reshape(3, 4)          # a temporary's reshape: no link
    assert links(a) == 0 and a._arr.base not in _views._source
    x = mnp.arange(12.0)
    y = x.reshape(3, 4)
    assert links(x) == 1 and y._arr.base in _views._source
    del y
    x[0] = 1.0  # a write finds the view gone
    assert links(x) == 0
    for _ in range(50):  # a loop of reshaped temporaries keeps at most one
        float(x.reshape(4, 3).sum())
    assert links(x) <= 1
    z = x.reshape(2, 6)
    del x           # the source is gone: z is on its own, its copy of x freed
    z[0, 0] = 5.0
    k = _views._source[z._arr.base]
    assert k.src is None
    gc.collect()
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(1.0, 13.0).reshape(3, 4))


def test_reshape_argument_errors():
    for xp in (numpy, mnp):
        x = xp.zeros(6)
        with pytest.raises(ValueError, match="cannot reshape array of size 6 into shape"):
            x.reshape(4, 2)
        with pytest.raises(ValueError, match="can only specify one unknown dimension"):
            x.reshape(-1, -1)
        with pytest.raises(TypeError, match="'float' object cannot be interpreted as an integer"):
            x.reshape(2.0, 3)
        with pytest.raises(ValueError, match=r"into shape \(4,newaxis\)"):
            x.reshape(4, -3)
        assert x.reshape(-2, 3).shape == (2, 3)  # any negative entry is the unknown one
        assert numpy.asarray(x).sum() == 0


def _shape_case(xp, k):
    x = xp.arange(12.0)
    if k == 0:
        x.shape = (3, 4)
        return x
    if k == 1:  # a view taken before keeps seeing writes made after
        v = x[:5]
        x.shape = (3, 4)
        x[0, 0] = 99
        x[2, 3] = -1
        return x, v
    if k == 2:
        x.shape = (3, -1)
        v = x[1]
        v[0] = 7
        return x, v
    if k == 3:  # NumPy would copy: refused
        y = x.reshape(3, 4).T
        y.shape = (12,)
    if k == 4:
        x.shape = 12
        x.shape = (2, 2, 3)
        x[1] += 1
        return x
    if k == 5:
        x.shape = (5, 2)
    if k == 6:
        y = x.reshape(3, 4)[:, ::2]
        y.shape = (6,)
    if k == 7:
        y = x.reshape(3, 4)
        y.shape = (4, 3)
        y[0, 2] = 5
        return x, y
    if k == 8:
        y = x.reshape(3, 4)[1:]
        y.shape = (2, 2, 2)
        y[...] = 0
        return x, y


@pytest.mark.parametrize("k", range(9))
def test_shape_assignment(k):
    """a.shape = s reshapes in place where NumPy's reshape is a view, and
    writes still reach the storage; elsewhere NumPy's AttributeError."""
    try:
        _shape_case(numpy, k)
    except Exception:
        same_error(lambda xp: _shape_case(xp, k))
        return
    check(lambda xp: _shape_case(xp, k))
