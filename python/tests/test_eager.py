"""Small operations on concrete operands run at once (_engine.EAGER_MAX):
the same values as NumPy, one pass each, nothing left pending; larger ones
stay deferred and fuse."""
import numpy
import numpy.testing as nt
import pytest

import maniple
import maniple.numpy as mnp
import maniple.numpy._ndarray as nd
from maniple.numpy import _engine

@pytest.fixture(autouse=True)
def _eager(monkeypatch):
    """On a device backend too (off there by default): the same results."""
    if _engine.EAGER_MAX == 0:
        monkeypatch.setattr(_engine, "EAGER_MAX", 4096)


OPS = ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__", "__pow__", "__lt__", "__eq__",
       "__and__", "__or__", "__xor__"]
KINDS = ("float64", "float32", "int64", "int32", "int16", "int8", "uint64", "uint32", "uint16", "uint8",
         "bool")  # maniple's dtypes


def counting(monkeypatch):
    calls = []
    real = nd._core.eval_tree

    def count(tree, shape, dtype):
        calls.append(shape)
        return real(tree, shape, dtype)
    monkeypatch.setattr(nd._core, "eval_tree", count)
    return calls


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "bool"])
def test_small_ops_match_numpy_and_run_at_once(dtype, monkeypatch):
    rng = numpy.random.default_rng(7)
    ra = (rng.standard_normal((13, 17)) * 5).astype(dtype)
    rb = rng.uniform(1, 4, (13, 17)).astype(dtype)  # no zero divisors, no negative integer powers
    a, b = mnp.asarray(ra), mnp.asarray(rb)
    calls = counting(monkeypatch)
    for name in OPS:
        for y, ry in ((b, rb), (3, 3), (2.5, 2.5)):
            try:
                with numpy.errstate(all="ignore"):
                    want = getattr(ra, name)(ry)
            except TypeError:  # NumPy refuses (bitwise ops on floats, ...): so must maniple
                want = None
            if want is None or str(want.dtype) not in KINDS:  # (float16: not a maniple dtype)
                with pytest.raises(TypeError):
                    getattr(a, name)(y)
                continue
            calls.clear()
            with numpy.errstate(all="ignore"):
                got = getattr(a, name)(y)
            # (an integer power first checks its exponents for negatives: a second pass)
            passes = 2 if name == "__pow__" and dtype.startswith("int") and y is b else 1
            assert got._expr is None and len(calls) == passes, (name, ry, len(calls))
            assert got.dtype == want.dtype, (name, ry)
            nt.assert_allclose(numpy.asarray(got), want, rtol=1e-6 if want.dtype == numpy.float32 else 1e-14,
                               err_msg=f"{dtype} {name} {ry!r}")
            rname = name.replace("__", "__r", 1)
            if y is not b and hasattr(ra, rname):  # the scalar first too (2.5 - a), run at once as well
                try:
                    with numpy.errstate(all="ignore"):
                        want_r = getattr(ra, rname)(ry)
                except (TypeError, ValueError) as exc:  # 3 ** a with negative integers a
                    with pytest.raises(type(exc)):
                        getattr(a, rname)(y)
                    continue
                if str(want_r.dtype) not in KINDS:
                    with pytest.raises(TypeError):
                        getattr(a, rname)(y)
                else:
                    with numpy.errstate(all="ignore"):
                        got_r = getattr(a, rname)(y)
                    assert got_r._expr is None and got_r.dtype == want_r.dtype, (rname, ry)
                    nt.assert_allclose(numpy.asarray(got_r), want_r,
                                       rtol=1e-6 if want_r.dtype == numpy.float32 else 1e-14,
                                       err_msg=f"{dtype} {rname} {ry!r}")


def test_results_are_values_not_aliases():
    ra, rb = numpy.arange(50.0), numpy.arange(50.0) * 3
    a, b = mnp.asarray(ra), mnp.asarray(rb)
    c = a + b
    a[:] = -1.0  # a later write to an operand does not reach c
    b += 1.0
    d = c * c  # c read by its consumer; c itself kept
    c[0] = 7.0
    nt.assert_array_equal(numpy.asarray(c), numpy.r_[7.0, (ra + rb)[1:]])
    nt.assert_array_equal(numpy.asarray(d), (ra + rb) ** 2)
    nt.assert_array_equal(numpy.asarray(a), -numpy.ones(50))
    a = a + a  # an operand that is also the name rebound
    nt.assert_array_equal(numpy.asarray(a), -2 * numpy.ones(50))


def test_views_and_broadcasts_stay_deferred():
    """Their messages move once for a whole fused statement."""
    ra = numpy.arange(60.0).reshape(6, 10)
    a = mnp.asarray(ra)
    row = mnp.asarray(numpy.arange(10.0))
    cases = [(a[1:, :] - a[:-1, :], ra[1:] - ra[:-1]), (a * row, ra * numpy.arange(10.0)),
             (a[:, 3] + a[:, 4], ra[:, 3] + ra[:, 4]), (2.0 * a[1:], 2.0 * ra[1:]), (a[1:] * 3, ra[1:] * 3)]
    for got, want in cases:
        assert got._expr is not None
        nt.assert_array_equal(numpy.asarray(got), want)


def test_large_operations_stay_deferred(monkeypatch):
    n = _engine.EAGER_MAX + 1
    a, b = mnp.ones(n), mnp.arange(n, dtype=float)
    calls = counting(monkeypatch)
    c = a + b
    d = c * 2.0 + a
    assert c._expr is not None and d._expr is not None and not calls
    nt.assert_array_equal(numpy.asarray(d), (1 + numpy.arange(n)) * 2 + 1)
    small = mnp.ones(_engine.EAGER_MAX) + 1.0
    assert small._expr is None


def test_one_pass_no_messages_no_allreduce(logging_on):
    a, b = mnp.ones(1000), mnp.arange(1000.0)
    maniple.log_reset()
    for _ in range(5):
        c = a + b
    d = maniple.log_view()
    assert d["eval"]["calls"] == 5 and d["eval"]["messages"] == 0 and d["allreduce"]["calls"] == 0, d["eval"]
    assert float(c[999]) == 1000.0
