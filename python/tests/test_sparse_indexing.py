"""Reading CSR and CSC matrices by index (ints, slices, Ellipsis, integer
and boolean arrays) against scipy.sparse, on every rank under mpiexec -n 1,
2, 3: values, shape, format, family and stored count; SciPy's IndexError
out of range; a clear NotImplementedError for what maniple does not do."""
import numpy
import pytest
import scipy.sparse as ssp

import maniple.numpy as mnp
import maniple.sparse as msp
from spxp import check, mat, raises_like

KEYS = [
    (slice(1, 5),), (slice(None, None, 2),), (slice(None, None, -1),), (slice(5, 0, -2), slice(None)),
    (Ellipsis,), (slice(None), slice(1, 4)), (slice(None), slice(None, None, -3)), ([0, 4, 4, 2],),
    (slice(None), [3, 0, 1]), (numpy.array([True, False, True, True, False, False, True]),),
    ([], slice(None)), (slice(2, 2),), ([6, -7],), (slice(-3, None), [-1, 0]), (Ellipsis, slice(0, 2)),
]
INT_KEYS = [(3,), (-1,), (2, slice(None)), (slice(None), 4), (Ellipsis, -2), (3, [0, 2]), ([1, 5], 0)]


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("k", range(len(KEYS)))
def test_rows_and_columns_as_scipy(fmt, dtype, k):
    s = mat((7, 5), dtype=dtype, seed=k)
    for kind in ("array", "matrix"):
        key = KEYS[k]
        check(lambda sp, xp: getattr(sp, f"{fmt}_{kind}")(s)[key])
        check(lambda sp, xp: getattr(sp, f"{fmt}_{kind}")(s)[key].nnz)


@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("k", range(len(INT_KEYS)))
def test_an_int_index_keeps_its_axis_in_a_matrix(fmt, k):
    s = mat((7, 5), seed=k)
    check(lambda sp, xp: getattr(sp, f"{fmt}_matrix")(s)[INT_KEYS[k]])
    with pytest.raises(NotImplementedError, match="1-d sparse array"):
        getattr(msp, f"{fmt}_array")(s)[INT_KEYS[k]]


@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_elements(kind):
    s = mat((6, 4), dtype="float64", seed=3)
    for i, j in [(0, 0), (5, 3), (-1, -4), (1, 2), (numpy.int64(2), numpy.int32(1))]:
        check(lambda sp, xp: getattr(sp, f"csr_{kind}")(s)[i, j])
        check(lambda sp, xp: getattr(sp, f"csc_{kind}")(s)[i, j])
    z = mat((3, 3), dtype="complex128", seed=4)
    check(lambda sp, xp: sp.csr_matrix(z)[2, 0])


def test_maniple_index_arrays():
    s = mat((7, 5), seed=5)
    want = ssp.csr_array(s)[[4, 0, 6]][:, [1, 1, 3]].toarray()
    got = msp.csr_array(s)[mnp.asarray([4, 0, 6])][:, mnp.asarray([1, 1, 3])]
    numpy.testing.assert_array_equal(numpy.asarray(got.toarray()), want)


def test_out_of_range_and_bad_keys():
    s = mat((3, 4), seed=6)
    for key in [(5, 0), (0, 9), (-4, 0), ([5],), (slice(None), [9]), ([0, -5], 1)]:
        raises_like(lambda sp, xp: sp.csr_matrix(s)[key], IndexError, r"index \(-?\d+\) out of range")
    raises_like(lambda sp, xp: sp.csr_matrix(s)[0, 1, 2], IndexError)
    raises_like(lambda sp, xp: sp.csr_matrix(s)[1.5, 0], IndexError)
    raises_like(lambda sp, xp: sp.csr_matrix(s)[numpy.array([True, False])], IndexError)
    with pytest.raises(NotImplementedError, match="element pairs"):
        msp.csr_matrix(s)[[0, 1], [1, 2]]
    with pytest.raises(TypeError):  # as SciPy's coo: not subscriptable
        msp.coo_matrix(s)[0, 0]
