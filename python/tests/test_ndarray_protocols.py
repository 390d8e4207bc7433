"""Python protocols of maniple.numpy.ndarray as NumPy's ndarray has them
(issue 14 item 18's siblings): copies that never alias, in-place and
reflected shifts, conversions of 0-d arrays only, format of 0-d arrays,
comparisons with None and strings, and NumPy's errors elsewhere."""
import copy
import re

import numpy
import pytest

import maniple.numpy as mnp
from xp import check, data, raises_like
from test_numpy_args import same_error

X = data((3, 4), seed=1)


def test_copy_module_copies_do_not_alias():
    for fn in (copy.copy, copy.deepcopy):
        a = mnp.asarray(X)
        b = fn(a)
        assert isinstance(b, mnp.ndarray) and b is not a
        b[0, 0] = 99.0
        assert float(a[0, 0]) == X[0, 0]
        numpy.testing.assert_array_equal(numpy.asarray(b)[1:], X[1:])


def test_pickle_round_trip():
    """Pickled as the gathered values (on every rank), unpickled as a
    maniple array of the same values, dtype and shape."""
    import pickle
    for x in (X, X[:, ::2].astype("float32"), numpy.array([1 + 2j, 3]), numpy.arange(7, dtype="int8"),
              numpy.float64(2.5) * numpy.ones(()), numpy.zeros((0, 3))):
        a = mnp.asarray(x)
        b = pickle.loads(pickle.dumps(a[:, ::2] if a.ndim == 2 and a.size else a))
        assert isinstance(b, mnp.ndarray)
        want = x[:, ::2] if x.ndim == 2 and x.size else x
        assert b.dtype == want.dtype and b.shape == want.shape
        numpy.testing.assert_array_equal(b.__array__(), want)


def _resized(xp, shape, refcheck=False, alias=False, setup=None):
    a = xp.arange(1, 7, dtype="int16") * 3
    if setup:
        a = setup(a)
    b = a if alias else None  # noqa: F841 (a second reference, for refcheck)
    if refcheck:
        a.resize(shape)
    else:
        a.resize(shape, refcheck=False)
    # (a new shape over the same memory is a reshape here: NumPy's owndata only after a reallocation)
    return (a, a.sum(), a.flags.owndata) if a.size != 6 else (a, a.sum())


@pytest.mark.parametrize("shape", [(2, 4), (2, 2), 8, (0,), (3, 1, 2), (), (2, 3)])
def test_resize_in_place(shape):
    """The elements in order, cut or padded with zeros; NumPy's errors for
    another reference (refcheck), views and negative extents."""
    check(lambda xp: _resized(xp, shape, refcheck=True))
    check(lambda xp: _resized(xp, shape, refcheck=False, alias=True))
    check(lambda xp: _resized(xp, shape, setup=lambda a: a.reshape(3, 2).copy()))
    if shape in ((3, 1, 2), (2, 3)):  # the same size: a new shape over the same memory, owned or not
        check(lambda xp: _resized(xp, shape, setup=lambda a: a.reshape(3, 2)))
        check(lambda xp: _resized(xp, shape, setup=lambda a: a.reshape(2, 3).T))
    else:
        raises_like(lambda xp: _resized(xp, shape, setup=lambda a: a.reshape(3, 2)), ValueError,
                    "does not own its data")
    raises_like(lambda xp: _resized(xp, (2, 4), refcheck=True, alias=True), ValueError,
                "cannot resize an array that references")
    raises_like(lambda xp: _resized(xp, 2, setup=lambda a: a[:4]), ValueError, "does not own its data")
    raises_like(lambda xp: _resized(xp, 2, setup=lambda a: a[::2]), ValueError, "single-segment")
    raises_like(lambda xp: _resized(xp, (-1, 2)), ValueError, "negative dimensions not allowed")


@pytest.mark.parametrize("d1", ["bool", "int8", "int64", "float32", "float64", "complex128"])
def test_inplace_matmul_casting_and_shapes(d1):
    """a @= b stores the product in a's dtype under 'same_kind' (a float
    product into integers is NumPy's UFuncTypeError, not a truncation),
    and its shape must be a's."""
    a = (data((3, 4), seed=2) * 3).astype(d1)
    for d2 in ["bool", "int8", "int64", "float32", "float64", "complex128"]:
        b = (data((4, 4), seed=3) * 3).astype(d2)

        def run(xp):
            x = xp.array(a)  # (a copy: NumPy's asarray would write into a)
            alias = x
            x @= xp.asarray(b)
            return alias
        try:
            want = run(numpy)
        except TypeError as e:
            with pytest.raises(TypeError, match=re.escape(str(e))):
                run(mnp)
            continue
        check(run, rtol=1e-6 if "float32" in (d1, d2) else 1e-13)
    for shape in ((4, 5), (5, 4)):
        raises_like(lambda xp: xp.ones((3, 4)).__imatmul__(xp.ones(shape)), ValueError, "mismatch in its core dimension")
    # out= under the same rule: int64 into uint8 is not the same kind
    raises_like(lambda xp: xp.matmul(xp.ones((2, 2), "int64"), xp.ones((2, 2), "int64"), out=xp.zeros((2, 2), "uint8")),
                TypeError, re.escape("from dtype('int64') to dtype('uint8')"))


def test_inplace_shifts_write_through_aliases():
    for op in ("__ilshift__", "__irshift__"):
        want = numpy.arange(6)
        alias = want
        getattr(alias, op)(1)
        got = mnp.arange(6)
        alias = got
        alias = getattr(alias, op)(1)
        assert alias is got
        numpy.testing.assert_array_equal(numpy.asarray(got), want)
    a = mnp.arange(4)
    b = a
    b <<= 2
    numpy.testing.assert_array_equal(numpy.asarray(a), numpy.arange(4) << 2)


def test_reflected_shifts():
    check(lambda xp: 1 << xp.arange(5))
    check(lambda xp: 256 >> xp.arange(5))
    check(lambda xp: numpy.int32(3) << xp.asarray(numpy.arange(3, dtype=numpy.int32)))


def test_conversions_of_0d_arrays_only():
    for fn in [lambda xp: int(xp.asarray([3.7])), lambda xp: float(xp.arange(2)), lambda xp: complex(xp.arange(2)),
               lambda xp: float(xp.asarray([1.5])), lambda xp: __import__("operator").index(xp.asarray([3])),
               lambda xp: __import__("operator").index(xp.asarray(3.0)), lambda xp: bool(xp.arange(0)),
               lambda xp: bool(xp.arange(3))]:
        same_error(fn)
    for xp in (numpy, mnp):
        assert int(xp.asarray(3.7)) == 3 and float(xp.asarray(2.5)) == 2.5
        assert complex(xp.asarray(2.5)) == 2.5 + 0j
        assert __import__("operator").index(xp.asarray(4)) == 4
        assert bool(xp.asarray([1])) is True


def test_format_of_0d_arrays():
    for spec in (".3f", "e", "", ">8"):
        assert format(mnp.asarray(2.5), spec) == format(numpy.asarray(2.5), spec)
    assert f"{mnp.asarray(7)}" == f"{numpy.asarray(7)}"
    assert f"{mnp.asarray(X)}" == f"{X}"
    same_error(lambda xp: format(xp.asarray(X), ".3f"))


def test_comparison_with_none_and_strings():
    check(lambda xp: xp.asarray(X) == None)  # noqa: E711
    check(lambda xp: xp.asarray(X) != None)  # noqa: E711
    check(lambda xp: xp.asarray(X) == "a")
    check(lambda xp: xp.asarray(X) != "a")
    check(lambda xp: xp.asarray(2.0) == None)  # noqa: E711


def test_delete_item_and_generic_alias_and_mT():
    same_error(lambda xp: xp.asarray(X).__delitem__(0))
    assert mnp.ndarray[float] is not None
    check(lambda xp: xp.asarray(data((2, 3, 4))).mT)
    same_error(lambda xp: xp.asarray(X[0]).mT)


def test_creation_order_arguments():
    check(lambda xp: xp.zeros((2, 3), float, "C"))
    check(lambda xp: xp.ones((2, 3), "int32", "F"))
    check(lambda xp: xp.empty_like(xp.asarray(X), float, "K").shape)
    check(lambda xp: xp.zeros_like(xp.asarray(X), "int32", "C"))
    check(lambda xp: xp.full_like(xp.asarray(X), 2, None, "A", True, (2, 2)))
    for fn in [lambda xp: xp.zeros(2, order="X"), lambda xp: xp.zeros(2, order="K"),
               lambda xp: xp.ones_like(xp.asarray(X), order=5), lambda xp: xp.full(2, 1.0, order="A")]:
        same_error(fn)


def test_array_protocol_copy_false_is_refused():
    """NumPy 2's __array__(copy=False) contract: no copy or an error; a
    gathered array is always a copy (a silent one would lose writes)."""
    a = mnp.asarray(X)
    with pytest.raises(ValueError, match="Unable to avoid copy while creating an array as requested."):
        numpy.array(a, copy=False)
    with pytest.raises(ValueError, match="Unable to avoid copy"):
        numpy.asarray(a, copy=False)
    numpy.testing.assert_array_equal(numpy.asarray(a), X)
    numpy.testing.assert_array_equal(numpy.array(a, copy=True), X)
    numpy.testing.assert_array_equal(numpy.asarray(a, dtype=numpy.float32), X.astype(numpy.float32))


def test_flags_setflags_device():
    """flags (NumPy's names as attributes and keys), setflags(write=),
    device, to_device and __array_namespace__, as NumPy's."""
    import maniple.numpy as mnp
    for xp in (numpy, mnp):
        a = xp.zeros((3, 4))
        v = a[:, 1:3]
        e = xp.zeros((0, 3))  # empty: contiguous both ways, views too
        got = (a.flags["C_CONTIGUOUS"], a.flags.f_contiguous, a.flags.owndata, v.flags.c_contiguous,
               v.flags.owndata, a[0].flags.f_contiguous, a.flags.writeable, a.device, e.flags.f_contiguous,
               e[:, ::2].flags.c_contiguous, e.T.flags.c_contiguous, xp.zeros((3, 0, 2))[:, :, ::2].flags.f_contiguous)
        # NumPy's combined flags, as attributes and keys, on C, F, neither and read-only arrays
        ro = xp.broadcast_to(xp.arange(3.0), (2, 3))
        for b in (a, a.T, v, v.T, a[0], ro):
            got += tuple(getattr(b.flags, f) for f in ("fnc", "forc", "behaved", "carray", "farray"))
            got += tuple(b.flags[k] for k in ("FNC", "FORC", "B", "CA", "FA"))
        if xp is numpy:
            want = got
        else:
            assert got == want
        a.setflags(write=False)
        assert not a.flags.writeable
        with pytest.raises(ValueError, match="read-only"):
            a[0, 0] = 1.0
        a.flags.writeable = True
        a[0, 0] = 1.0
        assert float(a[0, 0]) == 1.0
        assert a.to_device("cpu") is a
        with pytest.raises(ValueError):
            a.to_device("cuda")
    assert mnp.zeros(2).__array_namespace__() is mnp
    with pytest.raises(ValueError):  # views maniple made read-only stay so
        mnp.broadcast_to(mnp.arange(3.0), (2, 3)).setflags(write=True)


def test_require_and_real_if_close():
    import maniple.numpy as mnp
    x = numpy.arange(12.0).reshape(3, 4)
    check(lambda xp: xp.require(xp.asarray(x), dtype="float32", requirements=["C", "W"]))
    check(lambda xp: xp.require(xp.asarray(x)[:, 1:], requirements="O"))
    check(lambda xp: xp.real_if_close(xp.asarray(x)))
    a = mnp.asarray(x)
    assert mnp.require(a) is a and mnp.require(a[:, 1:], requirements=["OWNDATA"]).flags.owndata
    with pytest.raises(ValueError, match="both C and Fortran"):
        mnp.require(a, requirements=["C", "F"])
    with pytest.raises(KeyError):  # as NumPy's
        mnp.require(a, requirements=["Z"])


def test_fortran_contiguity_of_views():
    """flags.f_contiguous and isfortran as NumPy's: a transposed view of a
    C-ordered array is Fortran-contiguous, a slice of it may not be"""
    x = numpy.arange(24.0).reshape(2, 3, 4)
    views = [lambda a: a, lambda a: a.T, lambda a: a.transpose(1, 0, 2), lambda a: a[:, :2], lambda a: a.T[:, :, :1],
             lambda a: a[0].T, lambda a: a[:, 0].T, lambda a: a.T[::2], lambda a: a[:1].T]
    for v in views:
        check(lambda xp: (v(xp.asarray(x)).flags.c_contiguous, v(xp.asarray(x)).flags.f_contiguous,
                          xp.isfortran(v(xp.asarray(x)))))


def test_printing_iteration_and_files(tmp_path):
    """array2string/array_repr/array_str, broadcast, ndenumerate,
    fromstring, fromfile (binary in parts, text), dumps/dump, byteswap and
    asfortranarray as NumPy's"""
    import pickle
    from maniple.sparse import _dist
    x = numpy.arange(12.0).reshape(3, 4) / 7
    for f in ("array2string", "array_repr", "array_str"):
        assert getattr(mnp, f)(mnp.asarray(x)) == getattr(numpy, f)(x)
    assert mnp.array2string(mnp.asarray(x), precision=2) == numpy.array2string(x, precision=2)
    b, nb = mnp.broadcast(mnp.asarray(x), mnp.arange(4.0)), numpy.broadcast(x, numpy.arange(4.0))
    assert (b.shape, b.ndim, b.nd, b.size, b.numiter) == (nb.shape, nb.ndim, nb.nd, nb.size, nb.numiter)
    assert [tuple(map(float, t)) for t in b] == [tuple(map(float, t)) for t in nb]
    with pytest.raises(ValueError):
        mnp.broadcast(mnp.ones(3), mnp.ones(4))
    for outer in (mnp.broadcast, numpy.broadcast):  # a broadcast argument counts its arrays
        inner = outer(x, numpy.arange(4.0))
        n = mnp.broadcast(inner, mnp.ones((2, 3, 1)))
        assert (n.shape, n.numiter) == ((2, 3, 4), 3)
    raises_like(lambda xp: xp.broadcast(1, x=1), ValueError, "keyword arguments not accepted")
    raises_like(lambda xp: xp.broadcast(*[xp.ones(2)] * 65), ValueError, "at most 64 array objects")
    assert mnp.broadcast(*[mnp.ones(2)] * 64).numiter == 64
    assert list(mnp.ndenumerate(mnp.asarray(x))) == list(numpy.ndenumerate(x))
    check(lambda xp: xp.fromstring("1 2 3.5", sep=" "))
    check(lambda xp: xp.fromstring("1,2,3", dtype=int, sep=","))
    y = numpy.arange(1001, dtype=numpy.int32) * 3
    path = str(tmp_path / "y.bin") if _dist.rank() == 0 else None
    path = _dist.bcast_obj(path)
    if _dist.rank() == 0:
        y.tofile(path)
    _dist.allgather_obj(0)  # (the file is written before anyone reads it)
    for kw in ({}, {"count": 10}, {"offset": 8}, {"count": 5000}):
        got = mnp.fromfile(path, dtype=numpy.int32, **kw)
        assert isinstance(got, mnp.ndarray)
        numpy.testing.assert_array_equal(numpy.asarray(got), numpy.fromfile(path, dtype=numpy.int32, **kw))
    a = mnp.asarray(x)
    assert numpy.array_equal(pickle.loads(a.dumps()), x)
    dpath = _dist.bcast_obj(str(tmp_path / "x.pkl") if _dist.rank() == 0 else None)
    a.dump(dpath)
    with open(dpath, "rb") as fh:
        assert numpy.array_equal(pickle.load(fh), x)
    check(lambda xp: xp.asarray(y).byteswap())
    z = mnp.asarray(y.astype(numpy.float32))
    z.byteswap(inplace=True)
    assert numpy.array_equal(numpy.asarray(z), y.astype(numpy.float32).byteswap())
    check(lambda xp: xp.asfortranarray(xp.asarray(x)))
    check(lambda xp: xp.asfortranarray(3.0))


def test_nditer_writes_back():
    """nditer iterates the gathered operands; readwrite ones get the
    values back at the loop's end, iternext()'s end, close() or exit"""
    def run(xp):
        a = xp.arange(6.0).reshape(2, 3)
        with xp.nditer(a, op_flags=["readwrite"]) as it:
            for x in it:
                x[...] = 2 * x
        b = xp.arange(4)
        for x in xp.nditer(b, op_flags=["readwrite"]):
            x[...] = x + 10
        c = xp.arange(3.0)
        it = xp.nditer([c, None])
        with it:
            for x, y in it:
                y[...] = x * x
            sq = it.operands[1]
        d = xp.arange(5.0)
        it = xp.nditer(d, flags=["c_index"], op_flags=["readwrite"])
        idx = []
        while not it.finished:
            idx.append(it.index)
            it[0] = it[0] * 3
            it.iternext()
        s = sum(int(v) for v in xp.nditer(xp.arange(5)))
        return a, b, sq, d, numpy.array(idx), numpy.array(s)
    for got, want in zip(run(mnp), run(numpy)):
        assert numpy.array_equal(numpy.asarray(got), want)


@pytest.mark.parametrize("src,to", [("float64", "int64"), ("float64", "uint64"), ("int32", "float32"),
                                    ("complex64", "float64"), ("uint8", "int8"), ("float16", "uint16"),
                                    ("complex128", "complex128")])
def test_view_as_another_dtype_of_the_same_size(src, to):
    """NumPy's reinterpretation of each element's bits, on views too; a
    read-only copy here, so a write is an error rather than lost."""
    x = (data((5, 6), "float64", seed=31) * 1e3).astype(src) if "int" not in src else \
        data((5, 6), src, seed=31)
    check(lambda xp: xp.asarray(x).view(to))
    check(lambda xp: xp.asarray(x).T[1:, ::2].view(to))
    v = mnp.asarray(x).view(to)
    if to != src:
        with pytest.raises(ValueError, match="read-only"):
            v[0, 0] = 1
    assert mnp.asarray(x).view(mnp.ndarray).shape == x.shape


@pytest.mark.parametrize("src,to,shape", [("float64", "int32", (5, 6)), ("float64", "uint8", (7, 3)),
                                          ("int8", "int64", (3, 16)), ("uint8", "float32", (9, 4)),
                                          ("complex128", "float64", (4, 5)), ("float32", "complex64", (6, 2)),
                                          ("int16", "float64", (44,)), ("float64", "float16", (23,)),
                                          ("complex64", "int8", (2, 3, 2))])
def test_view_as_another_item_size(src, to, shape):
    """NumPy's reinterpretation with another item size: the last axis
    rescaled (complex as pairs of floats, bytes as wider integers), on
    arrays whose new elements would straddle the ranks' default split and on
    a view whose last axis is contiguous; the same values at any rank count"""
    x = data(shape, "float64", seed=33)
    x = (x * 1e3).astype(src) if numpy.dtype(src).kind in "iu" else (x + 1j * x[::-1] if "complex" in src else x)
    x = numpy.ascontiguousarray(x.astype(src))
    check(lambda xp: xp.asarray(x).view(to))
    if len(shape) > 1 and shape[0] > 2:
        check(lambda xp: xp.asarray(x)[1:3].view(to))  # the last axis still contiguous
    check(lambda xp: (xp.asarray(x) * 1).view(to))  # a pending expression


def test_bytes_viewed_as_bool_are_true_bools():
    """Bytes other than 0 and 1 seen as bool (a view, or a NumPy array
    given) compare, sum and unique as True, as NumPy's."""
    raw = numpy.arange(10, dtype=numpy.uint8).reshape(-1, 2)
    for make in (lambda xp: xp.asarray(raw).view(bool), lambda xp: xp.asarray(raw.view(bool))):
        check(lambda xp: make(xp)[1] == make(xp)[2])
        check(lambda xp: make(xp).sum(axis=0))
        check(lambda xp: (make(xp) == True).sum())  # noqa: E712
        check(lambda xp: xp.unique(make(xp), axis=0))
        check(lambda xp: xp.logical_xor(make(xp), make(xp)[::-1]))


def test_view_refusals():
    a = mnp.asarray(data((3, 4), seed=32))
    raises_like(lambda xp: xp.asarray(data((3, 3), seed=32)).view("complex128"), ValueError,
                "its size must be a divisor of the total size in bytes of the last axis")
    raises_like(lambda xp: xp.asarray(data((3, 4), seed=32))[:, ::2].view("int32"), ValueError,
                "the last axis must be contiguous")
    raises_like(lambda xp: xp.asarray(data((3, 4), seed=32)).T.view("int32"), ValueError,
                "the last axis must be contiguous")
    raises_like(lambda xp: xp.asarray(numpy.float64(2.5)).view("int32"), ValueError,
                "0d array is only supported if the itemsize is unchanged")
    check(lambda xp: xp.asarray(data((3, 4), seed=32)).T[:, :1].view("int8"))  # a last axis of one element
    with pytest.raises(NotImplementedError, match="ndarray subclass"):
        a.view(numpy.ndarray)
    with pytest.raises(TypeError, match="does not support dtype"):
        a.view("V8")


def _overlap_cases(m):
    a = m.arange(24.0).reshape(4, 6)
    c = (m.arange(12.0) + 1j).reshape(3, 4)
    v = a[1:, ::2]
    return [(a, a), (a, a[1:]), (a[:2], a[2:]), (a[:, ::2], a[:, 1::2]), (a[:, ::2], a[1:, 2::2]), (a.T, a[3]),
            (a.reshape(6, 4), a[0, :2]), (a.reshape(6, 4)[1:], a[0]), (a.ravel()[::5], a[1, 4:]),
            (c.real, c.imag), (c.real, c), (c.imag[1], c[1, :2]), (c.real[::2], c.imag[1]), (v, v.T),
            (v[::-1], a[0]), (v[::-1], a[3, 4:]), (a, m.arange(3.0)), (a, a + 1), (a[:0], a),
            (a[2], a.reshape(24)[12:18]), (a.reshape(2, 12)[1], a[1]), (a[None, 1], a[1, None]), (a, [1.0])]


def test_shares_memory_as_numpy():
    """Views, reshapes NumPy makes views and complex parts overlap where
    NumPy's do, element for element (shares_memory) and by bounds
    (may_share_memory); fresh results and other arrays never."""
    for k, ((x, y), (p, q)) in enumerate(zip(_overlap_cases(numpy), _overlap_cases(mnp))):
        for fn in ("shares_memory", "may_share_memory"):
            want, got = getattr(numpy, fn)(x, y), getattr(mnp, fn)(p, q)
            assert type(got) is bool and got == want, (k, fn, got, want)
    x = numpy.arange(5)
    assert mnp.shares_memory(x, x[1:]) and not mnp.shares_memory(mnp.arange(5), x)
    with pytest.raises(numpy.exceptions.TooHardError):
        a = mnp.zeros((30, 30, 30))
        mnp.shares_memory(a[:, ::7, ::5], a[::3, ::2, 1::11], max_work=1)


def test_base_is_the_owner():
    a = mnp.arange(12.0)
    assert a.base is None and (a + 1).base is None and a.copy().base is None
    b = a.reshape(3, 4)
    for v in (a[1:], a[1:][::2], b, b.T, b[1], b[:, 1:].T[0], b.view(), mnp.broadcast_to(a, (2, 12))):
        assert v.base is a and not v.flags.owndata
    c = mnp.arange(4.0) + 1j
    assert c.real.base is c and c.imag[1:].base is c
    numpy.testing.assert_array_equal(numpy.asarray(b[1].base), numpy.arange(12.0))


def test_base_does_not_keep_a_linked_source():
    """A reshape held in storage of its own names its source weakly: the
    link (and the copying after writes) ends with the source."""
    from maniple.numpy import _views
    a = mnp.arange(12.0)
    b = a.reshape(3, 4)  # storage of its own, linked, where the ranks' blocks differ
    linked = b._arr.base != a._arr.base
    assert b.base is a
    del a
    _views._prune()
    assert b.base is None or not linked
    if linked:
        assert b._arr.base not in _views._source or _views._source[b._arr.base].src is None
    b[0, 0] = 5.0
    assert float(b[0, 0]) == 5.0


@pytest.mark.parametrize("via", ["asarray", "array", "intersect1d", "add"])
def test_array_likes_whose_array_method_gives_a_maniple_array(via):
    """A script's array-like class keeps working once its import is changed:
    its __array__ now returns a maniple array (NumPy's asarray would refuse
    that as not producing an array); one returning a NumPy array too."""
    def run(xp):
        class Like:
            def __array__(self, dtype=None, copy=None):
                return xp.arange(3.0)

        class NumPyLike:
            def __array__(self, dtype=None, copy=None):
                return numpy.arange(3.0) * 2

        out = []
        for a in (Like(), NumPyLike()):
            if via == "intersect1d":
                r = xp.intersect1d(a, a)
            elif via == "add":
                r = xp.add(a, 1.0)
            else:
                r = getattr(xp, via)(a)
            out.append(numpy.asarray(r))
        return out
    for g, w in zip(run(mnp), run(numpy)):
        numpy.testing.assert_array_equal(g, w)
