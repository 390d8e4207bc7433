"""maniple.numpy.lib.mixins: a class built on NDArrayOperatorsMixin that
wraps a maniple array gets NumPy's operators, computed by maniple (the
wrapped value stays a maniple array), with the values NumPy gives the
same class wrapping a NumPy array."""
import functools
import numbers
import operator

import numpy
import pytest

import maniple.numpy as mnp
from xp import compare, data


@functools.cache
def wrapper(xp):
    class Wrapped(xp.lib.mixins.NDArrayOperatorsMixin):
        def __init__(self, value):
            self.value = xp.asarray(value)

        def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
            for x in inputs:
                if not isinstance(x, (Wrapped, numbers.Number, type(self.value))):
                    return NotImplemented
            inputs = tuple(x.value if isinstance(x, Wrapped) else x for x in inputs)
            if method == "at":  # in place, returning nothing
                return getattr(ufunc, method)(*inputs, **kwargs)
            out = kwargs.pop("out", None)
            if out:  # in place: into the wrapped array
                getattr(ufunc, method)(*inputs, out=tuple(o.value for o in out), **kwargs)
                return out[0]
            return Wrapped(getattr(ufunc, method)(*inputs, **kwargs))

    return Wrapped


OPS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv, operator.mod,
       operator.pow, operator.lt, operator.ge, operator.eq, operator.matmul]


@pytest.mark.parametrize("op", OPS, ids=lambda o: o.__name__)
def test_binary_operators(op):
    a, b = data((5, 5), "float64", seed=1) + 1.0, data((5, 5), "float64", seed=2) + 2.0
    want = op(wrapper(numpy)(a), wrapper(numpy)(b)).value
    got = op(wrapper(mnp)(a), wrapper(mnp)(b))
    assert isinstance(got.value, mnp.ndarray)
    compare(got.value, want, rtol=1e-14)
    if op is not operator.matmul:  # with a Python number, on either side
        compare(op(wrapper(mnp)(a), 3.0).value, op(wrapper(numpy)(a), 3.0).value, rtol=1e-14)
        compare(op(3.0, wrapper(mnp)(b)).value, op(3.0, wrapper(numpy)(b)).value, rtol=1e-14)


def test_unary_and_in_place():
    a = data((4, 6), "int64", seed=3)
    for op in (operator.neg, operator.pos, abs, operator.invert):
        compare(op(wrapper(mnp)(a)).value, op(wrapper(numpy)(a)).value)
    w, n = wrapper(mnp)(a), wrapper(numpy)(a)
    w += 5
    n += 5
    compare(w.value, n.value)


def test_not_implemented_is_type_error():
    with pytest.raises(TypeError):
        wrapper(mnp)(data((3,), "float64")) + "a string"


def test_ufunc_at_through_the_override():
    """ufunc.at on a wrapper goes through its __array_ufunc__ (NEP 13), which
    applies it to the wrapped maniple array in place."""
    a = data((6,), "int64", seed=5)
    got, want = wrapper(mnp)(a), wrapper(numpy)(a)
    assert mnp.negative.at(got, mnp.asarray([0, 1, 1])) is None
    assert numpy.negative.at(want, numpy.asarray([0, 1, 1])) is None
    assert isinstance(got.value, mnp.ndarray)
    compare(got.value, want.value)
    mnp.add.at(got, mnp.asarray([2, 2]), 5)
    numpy.add.at(want, numpy.asarray([2, 2]), 5)
    compare(got.value, want.value)


def test_an_array_defers_to_an_override_on_its_right():
    """array (op) wrapper and ufunc(array, wrapper) go through the wrapper's
    __array_ufunc__ (NEP 13), as NumPy's do; a class with __array_ufunc__ =
    None gets its reflected operator."""
    a, b = data((3, 4), "float64", seed=6), data((3, 4), "float64", seed=7)
    for op in (operator.add, operator.mul, operator.lt):
        got = op(mnp.asarray(a), wrapper(mnp)(b))
        want = op(numpy.asarray(a), wrapper(numpy)(b))
        assert type(got).__name__ == "Wrapped" and isinstance(got.value, mnp.ndarray)
        compare(got.value, want.value)
    got = mnp.add(mnp.asarray(a), wrapper(mnp)(b))
    compare(got.value, numpy.add(a, wrapper(numpy)(b)).value)

    class OptOut:
        __array_ufunc__ = None

        def __radd__(self, other):
            return "reflected"
    assert mnp.asarray(a) + OptOut() == "reflected" == numpy.asarray(a) + OptOut()
