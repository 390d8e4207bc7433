"""mgrid, ogrid, r_, c_, s_ and index_exp against NumPy: the same values
(bit for bit), dtypes and shapes, and NumPy's errors."""
import numpy
import pytest

import maniple.numpy as mnp
from xp import check, raises_like

S = numpy.s_
GRIDS = [S[0:3, 0:1:0.5], S[0:3, 0:4], S[0:1:3j, 0:2], S[-1:1:5j], S[0:5], S[0:3, 0:2, 1:4:2], S[3:0:-1],
         S[0:1:0.1], S[-2:2:7j, 0:1:1j], S[0.5:3, numpy.float32(0):2], S[0:40, 0:7], S[5:5, 0:2]]


@pytest.mark.parametrize("key", GRIDS, ids=range(len(GRIDS)))
@pytest.mark.parametrize("name", ["mgrid", "ogrid"])
def test_grids(name, key):
    got = check(lambda xp: getattr(xp, name)[key])
    if name == "ogrid" and isinstance(key, tuple):
        assert isinstance(got, tuple)


def _conv(xp, k):
    """The key with its NumPy arrays made by xp."""
    return tuple(xp.asarray(x) if isinstance(x, numpy.ndarray) else x for x in k) if isinstance(k, tuple) else k


CONCAT = [S[1:4, 0, 4.5, [7, 8]], S[-1:1:5j], S["0,2,0", [1, 2, 3], [4, 5, 6]],
          S["-1", numpy.ones((2, 2)), numpy.zeros((2, 1))], S["1", numpy.ones((2, 2)), numpy.zeros((2, 1))],
          S[0:3, numpy.int8(4)], S[numpy.array([1, 2], "uint8"), 300], S["0,2", [1, 2, 3], [4, 5, 6]],
          S["1,2,-1", [1, 2, 3], [4, 5, 6]], S[numpy.arange(30.0).reshape(10, 3), numpy.arange(12.0).reshape(4, 3)],
          S[numpy.arange(5), numpy.arange(5) * 2]]


@pytest.mark.parametrize("key", CONCAT, ids=range(len(CONCAT)))
@pytest.mark.parametrize("name", ["r_", "c_"])
def test_concatenators(name, key):
    try:
        getattr(numpy, name)[key]
    except Exception as e:  # uint8 and 300: NumPy's OverflowError
        raises_like(lambda xp: getattr(xp, name)[_conv(xp, key)], type(e), str(e))
        return
    check(lambda xp: getattr(xp, name)[_conv(xp, key)])


def test_concatenator_errors():
    raises_like(lambda xp: xp.r_[1, "0"], ValueError, "special directives must be the first entry")
    raises_like(lambda xp: xp.r_["x,y", 1], ValueError, "unknown special directive")
    with pytest.raises(NotImplementedError, match="matrix"):
        mnp.r_["r", [1, 2]]


def test_index_expressions_are_numpys():
    a = numpy.arange(20.0).reshape(4, 5)
    for key in (mnp.s_[1:3, ::2], mnp.index_exp[2], mnp.s_[..., 1]):
        check(lambda xp: xp.asarray(a)[key])
    assert mnp.s_[1:2] == slice(1, 2) and mnp.index_exp[3] == (3,)
