"""maniple.numpy.lib.stride_tricks against NumPy: sliding_window_view gives
NumPy's windows (read-only, through maniple.numpy.lib and through NumPy's
own function on a maniple array), with NumPy's errors."""
import numpy
import pytest
from numpy.lib.stride_tricks import sliding_window_view as np_swv

import maniple.numpy as mnp
from xp import check, data, raises_like

CASES = [((2, 3), None), (3, 1), (3, 0), ((2, 2), (1, 1)), (4, -1), ((1, 1), None), (10, 1), ((2, 3), (1, 0)),
         (0, 1), (6, 0)]


def _swv(xp):
    return xp.lib.stride_tricks.sliding_window_view


@pytest.mark.parametrize("dtype", ["float64", "int16", "complex64", "bool"])
@pytest.mark.parametrize("ws,axis", CASES, ids=range(len(CASES)))
def test_windows(ws, axis, dtype):
    x = data((6, 10), dtype)
    got = check(lambda xp: _swv(xp)(xp.asarray(x), ws, axis=axis))
    assert not got.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        got[(0,) * got.ndim] = 1
    # NumPy's function on a maniple array comes here through __array_function__
    assert isinstance(np_swv(mnp.asarray(x), ws, axis=axis), mnp.ndarray)


def test_one_dimensional_moving_average():
    x = data((50,), "float64")
    check(lambda xp: _swv(xp)(xp.asarray(x), 5).mean(axis=-1), rtol=1e-14)


@pytest.mark.parametrize("ws,axis", [(11, 1), (-1, 0), ((1,), None), ((1, 2), 0), (2, 2)])
def test_errors(ws, axis):
    x = numpy.arange(60.0).reshape(6, 10)
    try:
        np_swv(x, ws, axis=axis)
    except Exception as e:
        raises_like(lambda xp: _swv(xp)(xp.asarray(x), ws, axis=axis), type(e), None)
    else:
        raise AssertionError("NumPy accepted it")


def test_refused_with_reasons():
    x = mnp.arange(10.0)
    with pytest.raises(NotImplementedError, match="writeable=True"):
        mnp.lib.stride_tricks.sliding_window_view(x, 3, writeable=True)
    with pytest.raises(NotImplementedError, match="as_strided"):
        mnp.lib.stride_tricks.as_strided(x, (2,), (8,))
    assert mnp.lib.NumpyVersion("2.1.0") > "2.0.0"
