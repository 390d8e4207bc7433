"""Subclasses of maniple's ndarray, as NumPy's of its ndarray: view(cls)
gives a cls instance (its __array_finalize__ called with the source), and
ufuncs and reductions return their subclassed argument's type."""
import numpy
import pytest

import maniple.numpy as mnp


def make(xp):
    class Tagged(xp.ndarray):
        def __array_finalize__(self, obj):
            self.tag = getattr(obj, "tag", "fresh")

    class Loud(Tagged):
        __array_priority__ = 200

    return Tagged, Loud


@pytest.mark.parametrize("xp", [numpy, mnp])
def test_view_as_subclass(xp):
    Tagged, _ = make(xp)
    a = xp.arange(6.0).reshape(2, 3)
    v = a.view(Tagged)
    assert type(v) is Tagged and v.tag == "fresh" and v.shape == (2, 3)
    numpy.testing.assert_array_equal(numpy.asarray(v), numpy.arange(6.0).reshape(2, 3))
    v[0, 0] = 9.0  # a view: writes reach a
    assert float(a[0, 0]) == 9.0
    assert type(a.view(xp.ndarray)) is xp.ndarray
    w = a.view(dtype=a.dtype, type=Tagged)
    assert type(w) is Tagged


VIEWS = [lambda a: a[1:], lambda a: a[0, ...], lambda a: a[...], lambda a: a.reshape(3, 2), lambda a: a.T,
         lambda a: a[:, ::2]]


@pytest.mark.parametrize("xp", [numpy, mnp])
@pytest.mark.parametrize("k", range(len(VIEWS)))
def test_views_of_a_subclass_are_of_it(xp, k):
    """Slices, reshapes and transposes of a subclass instance are of its
    class, finalized from it, and write through; a[0, ...] is a 0-d view
    (not a scalar), as NumPy's."""
    Tagged, _ = make(xp)
    t = xp.arange(6.0).reshape(2, 3).view(Tagged)
    t.tag = "mine"
    v = VIEWS[k](t)
    assert type(v) is Tagged and v.tag == "mine", (type(v), getattr(v, "tag", None))
    assert type(VIEWS[k](xp.arange(6.0).reshape(2, 3))) is xp.ndarray
    v[...] = -1.0
    assert float(t.sum()) == float(VIEWS[k](numpy.arange(6.0).reshape(2, 3)).size) * -1.0 + \
        float(numpy.arange(6.0).sum() - VIEWS[k](numpy.arange(6.0).reshape(2, 3)).sum())


@pytest.mark.parametrize("xp", [numpy, mnp])
@pytest.mark.parametrize("axis", [0, 1])
def test_apply_along_axis_keeps_the_subclass(xp, axis):
    """The result is of the class of func1d's results (a subclass's rows
    give its class), as NumPy wraps it."""
    Tagged, _ = make(xp)
    t = xp.arange(6.0).reshape(2, 3).view(Tagged)
    r = xp.apply_along_axis(lambda row: row * 2, axis, t)
    assert type(r) is Tagged
    numpy.testing.assert_array_equal(numpy.asarray(r), numpy.arange(6.0).reshape(2, 3) * 2)
    assert type(xp.apply_along_axis(lambda row: row * 2, axis, xp.arange(6.0).reshape(2, 3))) is xp.ndarray


@pytest.mark.parametrize("xp", [numpy, mnp])
def test_subclass_new_with_its_own_arguments(xp):
    """A subclass whose __new__ takes its own arguments and returns a view
    (NumPy's ndarray has no __init__ to run on it afterwards)."""
    class Meta(xp.ndarray):
        def __new__(cls, data, metadata=None):
            r = xp.array(data, copy=True).view(cls)
            r.metadata = metadata
            return r

        def __array_finalize__(self, obj):
            self.metadata = getattr(obj, "metadata", None)

    m = Meta(xp.asarray([1.5, -2.5]), metadata="foo")
    assert type(m) is Meta and m.metadata == "foo"
    numpy.testing.assert_array_equal(numpy.asarray(m), [1.5, -2.5])
    assert Meta([1.0]).metadata is None
    with pytest.raises(TypeError):
        xp.ndarray((2,), foo=1)


F = ["nanmin", "nanmax", "nansum", "nanprod", "nanmean", "nanvar", "nanstd", "nanargmin", "nanargmax", "sum", "max",
     "mean", "cumsum", "nancumsum", "median", "nanmedian"]


@pytest.mark.parametrize("f", F)
def test_reductions_keep_the_subclass(f):
    def run(xp):
        Tagged, _ = make(xp)
        m = xp.eye(3).view(Tagged)
        m.tag = "mine"
        m[1, 0] = numpy.nan if f.startswith("nan") else 2.0
        out = []
        for axis in (0, 1):
            r = getattr(xp, f)(m, axis=axis)
            out.append((type(r).__name__, getattr(r, "tag", None), numpy.asarray(r)))
        return out
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got, want = run(mnp), run(numpy)
    for (gt, gtag, gv), (wt, wtag, wv) in zip(got, want):
        assert (gt, gtag) == (wt, wtag)
        numpy.testing.assert_allclose(gv, wv)


def test_ufuncs_pick_the_highest_priority_subclass():
    def run(xp):
        Tagged, Loud = make(xp)
        a = xp.arange(4.0).view(Tagged)
        b = xp.ones(4).view(Loud)
        r = [xp.add(a, b), xp.add(b, a), xp.sqrt(a), xp.add(a, 1.0), xp.multiply(xp.ones(4), a)]
        return [(type(x).__name__, numpy.asarray(x)) for x in r]
    for (gt, gv), (wt, wv) in zip(run(mnp), run(numpy)):
        assert gt == wt
        numpy.testing.assert_allclose(gv, wv)


def test_out_keeps_its_type():
    Tagged, _ = make(mnp)
    a = mnp.arange(4.0).view(Tagged)
    o = mnp.empty(4)
    r = mnp.add(a, a, out=o)
    assert r is o and type(r) is mnp.ndarray


def test_operators_and_out_of_a_subclass():
    def run(xp):
        Tagged, _ = make(xp)
        a = xp.arange(4.0).view(Tagged)
        o = xp.zeros(4).view(Tagged)
        r = xp.add(xp.ones(4), 2.0, out=o)
        s = xp.sum(xp.ones((2, 2)), axis=0, out=xp.zeros(2).view(Tagged))
        return [(type(x).__name__, numpy.asarray(x)) for x in (a + 1, 2 * a, -a, a < 2, r, o, s)] + [r is o]
    got, want = run(mnp), run(numpy)
    assert got[-1] and want[-1]
    for (gt, gv), (wt, wv) in zip(got[:-1], want[:-1]):
        assert gt == wt
        numpy.testing.assert_array_equal(gv, wv)


@pytest.mark.parametrize("f", ["sum", "nansum", "nanprod", "mean", "nanmean", "nanvar", "nanstd"])
def test_whole_reductions_of_a_subclass_are_0d_of_it(f):
    def run(xp):
        Tagged, _ = make(xp)
        r = getattr(xp, f)(xp.eye(3).view(Tagged))
        return type(r).__name__, r.shape, float(r)
    got, want = run(mnp), run(numpy)
    assert got[:2] == want[:2]
    assert got[2] == pytest.approx(want[2], rel=1e-12)


def test_pending_results_of_a_subclass_evaluate():
    """A deferred result made as the subclass is the engine's own pending
    array: chained, printed and compared as NumPy's."""
    def run(xp):
        Tagged, _ = make(xp)
        a = xp.arange(6.0).reshape(2, 3).view(Tagged)
        b = (a + 1) * 2 - a
        s = xp.nanmin(a) != xp.nan
        return type(b).__name__, str(b), numpy.asarray(b), bool(s)
    got, want = run(mnp), run(numpy)
    assert got[:2] == want[:2] and got[3] == want[3]
    numpy.testing.assert_array_equal(got[2], want[2])


@pytest.mark.parametrize("call", [lambda xp, m: xp.insert(m, 1, [5.0, 6.0, 7.0], axis=0),
                                  lambda xp, m: xp.delete(m, 1, axis=1),
                                  lambda xp, m: xp.piecewise(m, [m > 0.5], [lambda v: -v, 3.0]),
                                  lambda xp, m: xp.average(m, axis=0, weights=m + 1, returned=True)])
def test_insert_delete_piecewise_average_keep_the_subclass(call):
    def run(xp):
        Tagged, _ = make(xp)
        m = (xp.eye(3) + xp.arange(3.0)).view(Tagged)
        m.tag = "mine"
        r = call(xp, m)
        return [(type(x).__name__, getattr(x, "tag", None), numpy.asarray(x)) for x in (r if type(r) is tuple else (r,))]
    for (gt, gtag, gv), (wt, wtag, wv) in zip(run(mnp), run(numpy)):
        assert (gt, gtag) == (wt, wtag)
        numpy.testing.assert_allclose(gv, wv, rtol=1e-15)
