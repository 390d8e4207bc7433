"""maniple.sparse's constructors against scipy.sparse, on every rank under
mpiexec -n 1, 2, 3: dense (NumPy, lists, maniple arrays), triplets
(NumPy and maniple arrays), (data, indices, indptr), other sparse
matrices (maniple and SciPy), shapes with empty rows, fewer rows than
ranks, no stored entries; dtypes; bad input raising SciPy's errors."""
import numpy
import pytest
import scipy.sparse as ssp

import maniple.numpy as mnp
import maniple.sparse as msp
from spxp import check, compare, mat, raises_like

SHAPES = [(2, 2), (1, 5), (5, 1), (7, 5), (4, 9), (6, 6), (3, 0), (0, 4)]
FORMATS = ["csr", "csc", "coo"]
KINDS = ["array", "matrix"]


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("kind", KINDS)
def test_from_dense(shape, fmt, kind):
    d = mat(shape, seed=1).toarray()
    name = f"{fmt}_{kind}"
    check(lambda sp, xp: getattr(sp, name)(d))
    check(lambda sp, xp: getattr(sp, name)(xp.asarray(d)))
    check(lambda sp, xp: getattr(sp, name)(d.tolist()) if d.size else getattr(sp, name)(d))
    check(lambda sp, xp: getattr(sp, name)(d, dtype=numpy.float32))


@pytest.mark.parametrize("shape", [(2, 2), (7, 5), (3, 8), (4, 4)])
@pytest.mark.parametrize("kind", KINDS)
def test_from_triplets(shape, kind):
    rng = numpy.random.default_rng(2)
    k = 12
    r = rng.integers(0, shape[0], k)
    c = rng.integers(0, shape[1], k)
    v = rng.integers(-5, 6, k).astype(float)
    r[-2:], c[-2:] = r[0], c[0]  # duplicates are summed
    for fmt in FORMATS:
        name = f"{fmt}_{kind}"
        got = check(lambda sp, xp: getattr(sp, name)((v, (r, c)), shape=shape).tocsr(), fmt=False)
        check(lambda sp, xp: getattr(sp, name)((v, (r, c)), shape=shape), fmt=True)
        # maniple arrays: distributed triplets
        g2 = getattr(msp, name)((mnp.asarray(v), (mnp.asarray(r), mnp.asarray(c))), shape=shape)
        compare(g2.tocsr(), getattr(ssp, name)((v, (r, c)), shape=shape).tocsr(), fmt=False)
        assert got.nnz == ssp.csr_array((v, (r, c)), shape=shape).nnz
    # shape inferred from the indices
    check(lambda sp, xp: sp.coo_array((v, (r, c))))
    check(lambda sp, xp: sp.csr_array((xp.asarray(v), (xp.asarray(r), xp.asarray(c)))), fmt=False)


def test_triplets_int32_indices_and_explicit_zeros():
    r = numpy.array([0, 1, 1, 2], numpy.int32)
    c = numpy.array([2, 0, 0, 1], numpy.int32)
    v = numpy.array([0.0, 1.5, -1.5, 4.0])
    got = check(lambda sp, xp: sp.csr_array((v, (r, c)), shape=(3, 3)))
    assert got.nnz == ssp.csr_array((v, (r, c)), shape=(3, 3)).nnz == 3  # summed to zero: stored
    got.eliminate_zeros()
    assert got.nnz == 1


@pytest.mark.parametrize("shape", [(2, 2), (7, 5), (5, 7), (1, 1), (0, 3)])
@pytest.mark.parametrize("kind", KINDS)
def test_from_compressed(shape, kind):
    s = mat(shape, seed=3)
    csr, csc = ssp.csr_array(s), ssp.csc_array(s)
    check(lambda sp, xp: getattr(sp, f"csr_{kind}")((csr.data, csr.indices, csr.indptr), shape=shape))
    check(lambda sp, xp: getattr(sp, f"csc_{kind}")((csc.data, csc.indices, csc.indptr), shape=shape))
    if shape[0] and s.nnz:
        check(lambda sp, xp: getattr(sp, f"csr_{kind}")((csr.data, csr.indices, csr.indptr)))


def test_compressed_unsorted_duplicates():
    data, indices, indptr = [1.0, 2.0, 3.0, 4.0], [2, 0, 2, 1], [0, 3, 3, 4]
    check(lambda sp, xp: sp.csr_array((data, indices, indptr), shape=(3, 3)))


@pytest.mark.parametrize("fmt", FORMATS + ["dia"])
def test_from_sparse(fmt):
    s = mat((6, 5), seed=4)
    check(lambda sp, xp: sp.csr_array(getattr(s, f"to{fmt}")()))  # a SciPy matrix
    check(lambda sp, xp: sp.csc_matrix(getattr(sp, f"{fmt}_array")(s.toarray())))
    check(lambda sp, xp: getattr(sp, f"{fmt}_array")(sp.csr_array(s.toarray()), dtype=numpy.float32),
          fmt=fmt != "dia")
    a = msp.csr_array(s.toarray())
    b = msp.csr_array(a, copy=True)
    b *= 2
    compare(a, s)


def test_empty_shapes():
    for shape in [(0, 0), (3, 4), (4, 3), (2, 2), (1, 0)]:
        check(lambda sp, xp: sp.csr_array(shape))
        check(lambda sp, xp: sp.coo_matrix(shape, dtype=numpy.float32))
        g = msp.csr_array(shape)
        assert g.nnz == 0 and g.shape == shape


def test_dia_constructor():
    data = numpy.array([[1.0, 2, 3, 4], [5, 6, 7, 8], [9, 1, 2, 3]])
    for shape in [(4, 4), (3, 4), (5, 3), (2, 2)]:
        check(lambda sp, xp: sp.dia_array((data, [0, -1, 2]), shape=shape).tocsr())
        check(lambda sp, xp: sp.dia_matrix((data, [0, -1, 2]), shape=shape).toarray())


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]


def test_integer_and_bool_data_keep_their_dtype():
    d = numpy.array([[1, 0, 2], [0, 3, 0]])
    for name in ("csr_array", "coo_matrix", "csc_array"):
        a = getattr(msp, name)(d)
        assert a.dtype == numpy.int64 == getattr(ssp, name)(d).dtype
        check(lambda sp, xp: getattr(sp, name)(d))
        check(lambda sp, xp: getattr(sp, name)(d > 0))
    check(lambda sp, xp: sp.csr_array(([1, 2], ([0, 1], [1, 0])), shape=(2, 2)))
    for dt in INTS:
        check(lambda sp, xp: sp.csr_array(d, dtype=dt))
        check(lambda sp, xp: sp.csr_array(d.astype(dt)))
        check(lambda sp, xp: sp.csr_array(d).astype(dt))
        check(lambda sp, xp: sp.eye(3, dtype=dt))
        check(lambda sp, xp: sp.coo_array((numpy.array([3, 4, 5], dtype=dt), ([0, 1, 0], [1, 0, 1])), shape=(2, 2)))


def test_unsupported_dtypes_raise_value_error_as_scipy():
    d = numpy.eye(2)
    for dt in (numpy.float16, "U1"):
        raises_like(lambda sp, xp: sp.csr_array(d, dtype=dt), ValueError)
        raises_like(lambda sp, xp: sp.csr_array(d).astype(dt), ValueError)
    with pytest.raises(ValueError, match="longdouble|float128"):  # SciPy holds it; maniple does not
        msp.csr_array(d, dtype=numpy.longdouble)
    raises_like(lambda sp, xp: sp.csr_array(numpy.array([[None, 1]], dtype=object)), ValueError)
    with pytest.raises(ValueError, match="float16"):  # SciPy's dia eye holds float16; its csr does not
        msp.eye(3, dtype=numpy.float16)


def test_bad_input_raises_scipys_errors():
    v, r, c = [1.0, 2.0], [0, 5], [0, 1]
    raises_like(lambda sp, xp: sp.coo_array((v, (r, c)), shape=(2, 2)), ValueError)
    raises_like(lambda sp, xp: sp.csr_array((v, ([0, -1], c)), shape=(2, 2)), ValueError)
    raises_like(lambda sp, xp: sp.csr_array((v, (r, [0]))), ValueError)
    raises_like(lambda sp, xp: sp.csr_array(([], ([], []))), ValueError)
    raises_like(lambda sp, xp: sp.csr_array(([1.0], [0], [1, 1, 1]), shape=(2, 2)), ValueError)
    raises_like(lambda sp, xp: sp.csr_array(([1.0], [0], [0, 1]), shape=(2, 2)), ValueError)
    raises_like(lambda sp, xp: sp.csr_array(numpy.zeros((2, 2, 2))), ValueError)
    raises_like(lambda sp, xp: sp.csr_array(numpy.eye(2), shape=(3, 3)), ValueError)
    # distributed triplets out of range: every rank raises
    with pytest.raises(ValueError):
        msp.coo_array((mnp.asarray([1.0, 2.0]), (mnp.asarray([0, 5]), mnp.asarray([0, 1]))), shape=(2, 2))
    with pytest.raises(ValueError):
        msp.coo_array((mnp.asarray([1.0, 2.0]), (mnp.asarray([0, 1]), mnp.asarray([0, -1]))), shape=(2, 2))
    with pytest.raises(TypeError):
        msp.coo_array(([1.0], ([0.5], [0])), shape=(2, 2))


def test_classes_and_predicates():
    a, m = msp.csr_array(numpy.eye(2)), msp.csr_matrix(numpy.eye(2))
    assert msp.issparse(a) and msp.issparse(m) and not msp.issparse(numpy.eye(2))
    assert not msp.isspmatrix(a) and msp.isspmatrix(m)
    assert msp.isspmatrix_csr(m) and not msp.isspmatrix_csr(a) and not msp.isspmatrix_csc(m)
    assert msp.isspmatrix_coo(m.tocoo()) and msp.isspmatrix_csc(m.tocsc()) and msp.isspmatrix_dia(m.todia())
    assert not msp.isspmatrix_lil(m) and not msp.isspmatrix_bsr(m) and not msp.isspmatrix_dok(m)
    assert isinstance(a, msp.sparray) and isinstance(m, msp.spmatrix)
    for x in (a, m, a.tocoo(), m.tocsc(), msp.eye(3), msp.eye_array(2, 3, k=1)):
        s = {"csr_array": ssp.csr_array, "csr_matrix": ssp.csr_matrix, "coo_array": ssp.coo_array,
             "csc_matrix": ssp.csc_matrix, "dia_matrix": ssp.dia_matrix, "dia_array": ssp.dia_array}[type(x).__name__]
        assert repr(x) == repr(s(numpy.asarray(x.toarray())))


def test_missing_names_raise_attribute_error():
    for name in ("lil_array", "dok_matrix", "bsr_array", "csgraph", "get_index_dtype"):
        with pytest.raises(AttributeError, match="maniple.sparse does not implement"):
            getattr(msp, name)
    with pytest.raises(AttributeError, match="not implemented"):
        msp.csr_array(numpy.eye(2)).tolil()
    with pytest.raises(AttributeError):
        msp.no_such_name
