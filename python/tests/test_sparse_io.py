"""maniple.io.mmread/mmwrite against scipy.io, on every rank under mpiexec
-n 1, 2, 3: files written by one read by the other (general, symmetric,
integer, pattern); skipped until the C library has the Matrix Market
functions."""
import os
import tempfile

import numpy
import pytest
import scipy.io as sio
import scipy.sparse as ssp

import maniple.io as mio
import maniple.sparse as msp
from maniple import _core
from maniple.sparse import _dist
from spxp import compare, mat

pytestmark = pytest.mark.skipif(not hasattr(_core, "read_mtx") or not hasattr(_core.Csr, "write_mtx"),
                                reason="the C library has no Matrix Market functions yet")


@pytest.fixture(scope="module")
def tmp():
    return _dist.bcast_obj(tempfile.mkdtemp(prefix="mn_mtx_") if _dist.rank() == 0 else None)


def _scipy_writes(path, a, **kw):
    if _dist.rank() == 0:
        sio.mmwrite(path, a, **kw)
    _dist.bcast_obj(None)


@pytest.mark.parametrize("shape", [(7, 5), (2, 2), (1, 4), (5, 5)])
def test_read_scipys_files(shape, tmp):
    a = mat(shape, seed=40)
    path = os.path.join(tmp, f"s_{shape[0]}x{shape[1]}.mtx")
    _scipy_writes(path, a, symmetry="general")
    compare(mio.mmread(path), sio.mmread(path))
    compare(mio.mmread(path, spmatrix=False), sio.mmread(path, spmatrix=False))
    if shape[0] == shape[1]:
        s = ssp.csr_array(a + a.T)
        path = os.path.join(tmp, f"sym_{shape[0]}.mtx")
        _scipy_writes(path, s, symmetry="symmetric")
        compare(mio.mmread(path), sio.mmread(path))


def test_read_integer_and_pattern(tmp):
    d = numpy.array([[1, 0, 2], [0, 0, 3]])
    path = os.path.join(tmp, "int.mtx")
    _scipy_writes(path, ssp.coo_array(d))
    r = mio.mmread(path)
    assert r.dtype == numpy.float64  # SciPy gives int64
    compare(r, sio.mmread(path))
    path = os.path.join(tmp, "pat.mtx")
    _scipy_writes(path, ssp.coo_array(d), field="pattern")
    compare(mio.mmread(path), sio.mmread(path))


@pytest.mark.parametrize("symmetry", ["general", "symmetric", "AUTO"])
def test_write_read_by_scipy(symmetry, tmp):
    a = mat((6, 6), seed=41)
    a = ssp.csr_array(a + a.T) if symmetry != "general" else a
    path = os.path.join(tmp, f"m_{symmetry}")
    mio.mmwrite(path, msp.csr_array(a), symmetry=symmetry)
    assert os.path.exists(path + ".mtx")
    numpy.testing.assert_array_equal(sio.mmread(path + ".mtx").toarray(), a.toarray())
    compare(mio.mmread(path + ".mtx").tocsr(), ssp.csr_matrix(a))


def test_errors(tmp):
    with pytest.raises(FileNotFoundError):
        mio.mmread(os.path.join(tmp, "none.mtx"))
    bad = os.path.join(tmp, "bad.mtx")
    if _dist.rank() == 0:
        with open(bad, "w") as f:
            f.write("%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1.0\n9 9 2.0\n")
    _dist.bcast_obj(None)
    with pytest.raises(ValueError):
        mio.mmread(bad)
    with pytest.raises(NotImplementedError):
        mio.mmwrite(os.path.join(tmp, "dense"), numpy.eye(2))
