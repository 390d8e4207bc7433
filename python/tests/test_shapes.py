"""Creation and shape manipulation against NumPy over shapes (0-d, empty,
smaller than the rank count, uneven splits) and dtypes, on every rank under
mpiexec -n 1, 2, 3."""
import re

import numpy
import pytest

import maniple.numpy as mnp
from xp import SHAPES, check, data, raises_like

DTYPES = ["float64", "float32", "int64", "int32", "bool"]


@pytest.mark.parametrize("dtype", DTYPES)
def test_creation(dtype):
    for shape in [(), (0,), (2,), (7, 5), (3, 0, 2)]:
        check(lambda xp: xp.zeros(shape, dtype=dtype))
        check(lambda xp: xp.ones(shape, dtype=dtype))
        check(lambda xp: xp.full(shape, 1, dtype=dtype))
        check(lambda xp: xp.zeros_like(xp.asarray(data(shape, dtype))))
        check(lambda xp: xp.ones_like(xp.asarray(data(shape, dtype)), dtype="float32"))
        check(lambda xp: xp.full_like(xp.asarray(data(shape, dtype)), 0))
        check(lambda xp: xp.empty(shape, dtype=dtype).shape)
        check(lambda xp: xp.asarray(data(shape, dtype)))
        check(lambda xp: xp.array(data(shape, dtype), copy=True))
    if dtype != "bool":
        check(lambda xp: xp.arange(2, 17, 3, dtype=dtype))
        check(lambda xp: xp.eye(4, 6, k=1, dtype=dtype))
        check(lambda xp: xp.identity(3, dtype=dtype))
    check(lambda xp: xp.linspace(-1, 2, 9, dtype="float32" if dtype == "float32" else None), rtol=1e-6)


def test_creation_helpers():
    check(lambda xp: xp.arange(5.5))
    check(lambda xp: xp.arange(10, 0, -3))
    check(lambda xp: xp.linspace(0, 1, 7, endpoint=False), rtol=1e-15)
    check(lambda xp: xp.meshgrid(xp.arange(3), xp.arange(4.0)))
    check(lambda xp: xp.meshgrid(xp.arange(3), xp.arange(4.0), indexing="ij"))
    check(lambda xp: xp.diag(xp.arange(4), -1))
    check(lambda xp: xp.diagflat(xp.asarray([[1, 2], [3, 4]])))


@pytest.mark.parametrize("sparse", [False, True])
@pytest.mark.parametrize("copy", [True, False])
@pytest.mark.parametrize("indexing", ["xy", "ij"])
def test_meshgrid_keywords(indexing, copy, sparse):
    """sparse= keeps the 1-long axes, copy=False gives views; any count of
    inputs, n-d inputs flattened, the result a tuple as in NumPy 2."""
    x, y, z = data((5,), "float64"), data((2, 3), "int16"), data((4,), "complex64")
    for args in [(x,), (x, y), (x, y, z), ()]:
        got = check(lambda xp: xp.meshgrid(*[xp.asarray(a) for a in args], copy=copy, sparse=sparse,
                                           indexing=indexing))
        assert isinstance(got, tuple)
    if copy:
        a = mnp.asarray(x)
        g = mnp.meshgrid(a, mnp.asarray(z), copy=True, sparse=sparse, indexing=indexing)
        g[0][...] = 0  # a copy: the input keeps its values
        numpy.testing.assert_array_equal(numpy.asarray(a), x)


@pytest.mark.parametrize("shape", [s for s in SHAPES if len(s) >= 1])
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_manipulation(shape, dtype):
    x = data(shape, dtype, seed=3)
    nd = len(shape)
    check(lambda xp: xp.flip(xp.asarray(x)))
    check(lambda xp: xp.transpose(xp.asarray(x)))
    check(lambda xp: xp.expand_dims(xp.asarray(x), -1))
    check(lambda xp: xp.squeeze(xp.asarray(x)[None]))
    check(lambda xp: xp.concatenate([xp.asarray(x), xp.asarray(x)], axis=-1))
    check(lambda xp: xp.stack([xp.asarray(x), xp.asarray(x)], axis=nd))
    check(lambda xp: xp.tile(xp.asarray(x), 2))
    check(lambda xp: xp.repeat(xp.asarray(x), 2, axis=0))
    check(lambda xp: xp.roll(xp.asarray(x), 3, axis=0))
    check(lambda xp: xp.roll(xp.asarray(x), -2))
    check(lambda xp: xp.pad(xp.asarray(x), 1))
    check(lambda xp: xp.moveaxis(xp.asarray(x), 0, -1))
    check(lambda xp: xp.append(xp.asarray(x), xp.asarray(x)))
    check(lambda xp: xp.array_split(xp.asarray(x), 3))
    check(lambda xp: xp.broadcast_to(xp.asarray(x), (2,) + shape))
    check(lambda xp: xp.atleast_3d(xp.asarray(x)))
    if nd >= 2:
        check(lambda xp: xp.swapaxes(xp.asarray(x), 0, 1))
        check(lambda xp: xp.rot90(xp.asarray(x)))
        check(lambda xp: xp.rot90(xp.asarray(x), 3))
        check(lambda xp: xp.vstack([xp.asarray(x), xp.asarray(x)]))
        check(lambda xp: xp.hstack([xp.asarray(x), xp.asarray(x)]))
        check(lambda xp: xp.dstack([xp.asarray(x), xp.asarray(x)]))
        check(lambda xp: xp.rollaxis(xp.asarray(x), 1))
    if shape[0] > 0:
        check(lambda xp: xp.delete(xp.asarray(x), [0], axis=0))
        check(lambda xp: xp.insert(xp.asarray(x), 1, xp.asarray(x)[:1].sum(axis=0) if nd > 1 else 3, axis=0))


def test_split_stack_block_resize():
    x = data((6, 4), seed=4)
    check(lambda xp: xp.split(xp.asarray(x), [1, 4]))
    check(lambda xp: xp.split(xp.asarray(x), 2, axis=1))
    check(lambda xp: xp.hsplit(xp.asarray(x), 2))
    check(lambda xp: xp.vsplit(xp.asarray(x), [5]))
    check(lambda xp: xp.dsplit(xp.asarray(x)[:, :, None].repeat(2, axis=2), 2))
    check(lambda xp: xp.block([[xp.asarray(x), xp.asarray(x)], [xp.asarray(x), xp.asarray(x)]]))
    check(lambda xp: xp.column_stack([xp.asarray(x[:, 0]), xp.asarray(x)]))
    check(lambda xp: xp.resize(xp.asarray(x), (5, 7)))
    check(lambda xp: xp.trim_zeros(xp.asarray(numpy.array([0, 0, 3, 0, 4, 0]))))
    t = numpy.zeros((6, 7, 5))
    t[1:4, 2:6, 1:3] = data((3, 4, 2), seed=9) + 2.0
    for trim in ("fb", "f", "b"):
        for axis in (None, 0, -2, (0, 2), ()):
            check(lambda xp: xp.trim_zeros(xp.asarray(t), trim, axis=axis))
    check(lambda xp: xp.trim_zeros(xp.zeros((3, 4)), axis=1))  # all zero: that axis empties
    assert mnp.trim_zeros([0, 1, 2, 0]) == [1, 2]  # a list stays a list, as NumPy's
    raises_like(lambda xp: xp.trim_zeros(xp.asarray(t), "fbx"), ValueError, "unexpected character")
    raises_like(lambda xp: xp.trim_zeros(xp.asarray(t), axis=3), numpy.exceptions.AxisError, "axis 3 is out of bounds")
    check(lambda xp: xp.unstack(xp.asarray(x), axis=1))
    check(lambda xp: xp.insert(xp.asarray(x), [1, 1, 5], -1.0, axis=0))
    check(lambda xp: xp.broadcast_arrays(xp.asarray(x), xp.asarray(x[0])))


def test_views_write_through_across_ranks():
    def run(xp):
        a = xp.asarray(data((9, 8), seed=5))
        v = a[1::2, ::-3]
        v[...] = v * 10
        w = a.T[2:6]
        w += 1
        a[::4] = a[::4][::-1]
        s = xp.swapaxes(a, 0, 1)[3]
        s[:] = -5
        return a
    check(run)


def test_type_and_shape_queries():
    x = data((3, 4), "float32", seed=6)
    check(lambda xp: xp.result_type(xp.asarray(x), 2.0, "int64"))
    check(lambda xp: xp.can_cast(xp.asarray(x), "float64"))
    check(lambda xp: xp.common_type(xp.asarray(x), xp.asarray(x.astype("float64"))))
    check(lambda xp: (xp.ndim(xp.asarray(x)), xp.shape(xp.asarray(x)), xp.isfortran(xp.asarray(x))))
    check(lambda xp: xp.issubdtype(xp.asarray(x).dtype, xp.floating))
    check(lambda xp: xp.astype(xp.asarray(x), "int32"))
    check(lambda xp: xp.ascontiguousarray(xp.asarray(x).T))
    check(lambda xp: xp.frombuffer(numpy.arange(5.0).tobytes()))
    check(lambda xp: xp.fromiter(range(7), dtype="int64"))
    check(lambda xp: xp.fromfunction(lambda i, j: i * 10 + j, (4, 3)))
    check(lambda xp: xp.asarray_chkfinite(xp.asarray(x)))
    import maniple.numpy as mnp
    a = mnp.asarray(x)
    assert mnp.may_share_memory(a, a[1:]) and not mnp.may_share_memory(a, a.copy())
    with pytest.raises(ValueError, match="infs or NaNs"):
        mnp.asarray_chkfinite(mnp.asarray([1.0, numpy.nan]))


def test_user_functions_on_distributed_arrays():
    x = data((5, 6), seed=7)
    check(lambda xp: xp.piecewise(xp.asarray(x), [xp.asarray(x) < 0, xp.asarray(x) > 3],
                                  [lambda v: -v, lambda v: v * 2, 0.5]))
    check(lambda xp: xp.piecewise(xp.asarray(x), [xp.asarray(x) < 0], [lambda v: v ** 2]))
    check(lambda xp: xp.apply_along_axis(lambda v: v.sum(), 0, xp.asarray(x)), rtol=1e-12)
    check(lambda xp: xp.apply_along_axis(lambda v: v[::-1] * 2, 1, xp.asarray(x)))
    check(lambda xp: xp.apply_over_axes(xp.sum, xp.asarray(x), [0, 1]), rtol=1e-12)


def _cond(xp, c):
    if isinstance(c, numpy.ndarray):
        return xp.asarray(c)
    return [xp.asarray(k) if isinstance(k, numpy.ndarray) else k for k in c]


_X9 = numpy.linspace(-2, 2, 9)
PIECES = [([0, 0], numpy.array([True, False]), [1]), ([0, 0], numpy.array([1, 0]), [1]),
          ([0, 0], [numpy.array([1, 0])], [1]), ([0, 0], [[False, True]], [lambda v: -1]),
          (_X9, numpy.array([_X9 < 0, _X9 > 1]), [-1, 1]), (_X9, _X9 < 0, [lambda v: v * 2, 7]),
          (_X9, [_X9 < -1, _X9 > 1], [0, 1, 0.5])]


@pytest.mark.parametrize("x,conds,funcs", PIECES, ids=range(len(PIECES)))
def test_piecewise_conditions_as_numpy(x, conds, funcs):
    """Conditions are truth values: an int array [1, 0] had been used as an
    index, giving [1, 1] for NumPy's [1, 0]; a 2-d array is one condition a row."""
    check(lambda xp: xp.piecewise(xp.asarray(numpy.asarray(x)), _cond(xp, conds), funcs))


def test_text_and_npz_files_through_rank_zero(tmp_path_factory):
    import maniple
    import maniple.numpy as mnp
    from maniple import _core
    # every rank must name the same file: rank 0 picks it and broadcasts it
    import pickle
    d = pickle.loads(_core.bcast(pickle.dumps(str(tmp_path_factory.mktemp("io"))) if maniple.rank() == 0
                                 else None))
    x = data((6, 4), seed=8)
    mnp.savetxt(d + "/x.txt", mnp.asarray(x))
    y = mnp.loadtxt(d + "/x.txt")
    numpy.testing.assert_array_equal(numpy.asarray(y), x)
    mnp.savez(d + "/x.npz", a=mnp.asarray(x), b=mnp.arange(3))
    if maniple.rank() == 0:
        with numpy.load(d + "/x.npz") as f:
            numpy.testing.assert_array_equal(f["a"], x)
            numpy.testing.assert_array_equal(f["b"], numpy.arange(3))


def _reshape_sources(xp):
    a = xp.arange(24)
    return [a, a.reshape(4, 6), a.reshape(4, 6).T, a.reshape(4, 6)[:, ::2], a.reshape(2, 3, 4).transpose(1, 0, 2),
            a.reshape(4, 6)[1:3], xp.asfortranarray(a.reshape(4, 6))]


@pytest.mark.parametrize("order", ["C", "F", "A"])
@pytest.mark.parametrize("k", range(7))
def test_reshape_copy_keyword(k, order):
    """copy=False refuses exactly where NumPy's reshape would copy (its
    strides rule), copy=True gives a new array; shape= by keyword."""
    for shp in [(24,), (6, 4), (3, 2, 4), (-1,), (12, 2), (2, 2, 6), (4, 3), (2, 6), (12,)]:
        try:
            want = numpy.reshape(_reshape_sources(numpy)[k], shp, order=order, copy=False)
        except ValueError as e:
            raises_like(lambda xp: xp.reshape(_reshape_sources(xp)[k], shp, order=order, copy=False), ValueError,
                        re.escape(str(e)))
        else:
            check(lambda xp: xp.reshape(_reshape_sources(xp)[k], shape=shp, order=order, copy=False)
                  if xp is mnp else want)
    src = _reshape_sources(mnp)[k]
    r = mnp.reshape(src, (-1,), order=order, copy=True)
    r[...] = -1
    assert int(src.min()) >= 0  # a copy: the source is untouched


def test_flags_compare_as_numpys():
    a = mnp.arange(6.0).reshape(2, 3)
    assert a.flags == mnp.arange(6.0).reshape(2, 3).flags
    assert a.flags == numpy.arange(6.0).reshape(2, 3).flags
    assert a.T.flags != a.flags


@pytest.mark.parametrize("axis", [None, 0, 1, -1, (0, 1)], ids=str)
def test_size_function(axis):
    """np.size (it was missing): the element count or the axes' extents."""
    x = data((3, 4))
    assert mnp.size(mnp.asarray(x), axis) == numpy.size(x, axis)
    assert mnp.size(x.tolist(), axis) == numpy.size(x, axis)


def test_f_order_kept_by_eye_delete_insert():
    """eye(order='F') and delete/insert of an F-ordered array give F-ordered
    results, as NumPy's (the values as ever)."""
    x = numpy.asfortranarray(data((4, 6)))

    def run(xp):
        a = xp.asarray(x) if xp is numpy else xp.asarray(x).copy(order="F")
        outs = [xp.eye(4, 3, k=-1, order="F"), xp.delete(a, slice(1, 3), axis=1), xp.delete(a, 2, axis=0),
                xp.insert(a, 1, 7.0, axis=1)]
        return [(o, o.flags.f_contiguous, o.flags.c_contiguous) for o in outs]
    check(run)
    raises_like(lambda xp: xp.eye(3, order="K"), ValueError, "only 'C' or 'F' order is permitted")


def test_stacking_refuses_a_generator():
    for fn in ("stack", "vstack", "hstack", "dstack", "column_stack"):
        raises_like(lambda xp: getattr(xp, fn)(xp.ones(2) for _ in range(2)), TypeError,
                    'must be passed as a "sequence" type')


def test_spaces_between_arrays():
    """linspace, logspace (an array base too) and geomspace with array end
    points: the samples along a new axis, NumPy's values exactly."""
    rng = numpy.random.default_rng(3)
    s, e = rng.random(3) * 10 - 5, rng.random((2, 3)) * 10
    for kw in ({}, {"axis": 1}, {"axis": -1, "endpoint": False}, {"num": 5, "dtype": int}, {"num": 1}, {"num": 0}):
        check(lambda xp: xp.linspace(xp.asarray(s), xp.asarray(e), **kw))
    check(lambda xp: xp.linspace(0, xp.asarray(e), 7))
    check(lambda xp: xp.linspace(xp.asarray(s.astype("float32")), 1, 4))
    check(lambda xp: xp.linspace(xp.zeros(3), xp.zeros(3), 4))  # zero steps: k / div * delta
    check(lambda xp: xp.linspace(xp.asarray(s), xp.asarray(e), 5, retstep=True))
    for base in (numpy.array([2.0, 10.0]), numpy.array([[2.0], [3.0]])):
        for axis in (0, 1, -1):
            check(lambda xp: xp.logspace(0, xp.asarray([1.0, 2.0]), 4, base=xp.asarray(base), axis=axis),
                  rtol=1e-15)
    check(lambda xp: xp.geomspace(xp.asarray([1, -1j]), xp.asarray([1000, -1000j]), 4), rtol=1e-15)
