"""maniple.sparse's functions against scipy.sparse, on every rank under
mpiexec -n 1, 2, 3: eye, identity, diags, spdiags, kron, kronsum, block
matrices, tril/triu/find, random, save_npz/load_npz (files exchanged with
SciPy both ways), and the partition extras when the C library has them."""
import os
import tempfile

import numpy
import pytest
import scipy.sparse as ssp

import maniple.numpy as mnp
import maniple.sparse as msp
from maniple import _core
from maniple.sparse import _dist
from spxp import check, compare, mat, raises_like


@pytest.fixture(scope="module")
def tmpdir_all():
    """A directory every rank names alike (made by rank 0)."""
    d = _dist.bcast_obj(tempfile.mkdtemp(prefix="mn_sparse_") if _dist.rank() == 0 else None)
    yield d


@pytest.mark.parametrize("m,n,k", [(1, None, 0), (2, None, 0), (5, None, 1), (5, 3, -2), (3, 7, 2), (4, 4, 3),
                                   (0, 3, 0)])
def test_eye_identity(m, n, k):
    check(lambda sp, xp: sp.eye(m, n, k))
    check(lambda sp, xp: sp.eye(m, n, k=k, dtype=numpy.float32, format="csr"))
    check(lambda sp, xp: sp.eye_array(m, n, k=k, format="coo"))
    check(lambda sp, xp: sp.identity(m))
    check(lambda sp, xp: sp.identity(m, format="csc"))


def test_eye_offset_out_of_bounds():
    raises_like(lambda sp, xp: sp.eye(4, 4, 9), ValueError)
    raises_like(lambda sp, xp: sp.eye_array(4, 3, k=-5), ValueError)
    raises_like(lambda sp, xp: sp.eye(3, 0, 1), ValueError)
    check(lambda sp, xp: sp.eye(4, 3, -4))


def test_diags_of_integers_are_float64_unless_dtype_is_given():
    """SciPy 1.17: NumPy's common_type of the diagonals (integers give
    float64, with its FutureWarning; bool raises), the diagonals' own dtype
    with dtype=None; maniple gave int64, and A *= 0.5 then raised."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        check(lambda sp, xp: sp.diags([1, -2, 1], [-1, 0, 1], shape=(4, 4)))
        check(lambda sp, xp: sp.diags_array([numpy.array([1, 2], numpy.int32)], offsets=[0]))
        check(lambda sp, xp: sp.diags_array([numpy.array([1.0, 2], numpy.float32)], offsets=[1]))
        check(lambda sp, xp: sp.diags([1, 2], 0, dtype=None))
        check(lambda sp, xp: sp.diags([1, 2], 0, dtype=numpy.int16))
        raises_like(lambda sp, xp: sp.diags([[True, False]], [0]), TypeError, "common type")

        def scaled(sp, xp):
            a = sp.diags([1, -2, 1], [-1, 0, 1], shape=(4, 4), format="csr")
            a *= 0.5
            return a
        check(scaled)
    with pytest.warns(FutureWarning, match="cast to float64"):
        msp.diags([1, -2, 1], [-1, 0, 1], shape=(4, 4))


def test_diags():
    check(lambda sp, xp: sp.diags_array([1.0, 2.0, 3.0]))
    check(lambda sp, xp: sp.diags_array([1.0, 2.0, 3.0], offsets=1))
    check(lambda sp, xp: sp.diags_array([[1.0, 2.0, 3.0], [4.0, 5.0], [6.0]], offsets=[0, -1, 2], shape=(3, 3)))
    check(lambda sp, xp: sp.diags_array([[1.0, 2.0, 3.0, 4.0], [4.0, 5.0, 6.0]], offsets=[0, 1], shape=(3, 5)))
    check(lambda sp, xp: sp.diags_array([[1.0], [-2.0], [1.0]], offsets=[-1, 0, 1], shape=(6, 6), format="csr"))
    check(lambda sp, xp: sp.diags_array([1.0, 2.0], offsets=0, dtype=numpy.float32))
    check(lambda sp, xp: sp.diags([[1.0, 2.0, 3.0], [4.0, 5.0]], [0, 1]))
    check(lambda sp, xp: sp.diags([1.0, -2.0, 1.0], [-1, 0, 1], shape=(5, 5)))
    raises_like(lambda sp, xp: sp.diags_array([[1.0, 2.0], [3.0, 4.0]], offsets=[0, 1], shape=(3, 3)), ValueError)
    raises_like(lambda sp, xp: sp.diags_array([[1.0, 2.0], [3.0]], offsets=[0, 0]), ValueError)
    raises_like(lambda sp, xp: sp.diags_array([[1.0, 2.0], [3.0]], offsets=[0]), ValueError)


def test_spdiags():
    data = numpy.array([[1.0, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]])
    check(lambda sp, xp: sp.spdiags(data, [0, -1, 2], 4, 4))
    check(lambda sp, xp: sp.spdiags(data, [0, -1, 2], 3, 5))
    check(lambda sp, xp: sp.spdiags(data, [0, 1, -2], (5, 3)))
    check(lambda sp, xp: sp.spdiags(data, [0, 1, -2]).toarray())


@pytest.mark.parametrize("sa,sb", [((2, 3), (3, 2)), ((1, 1), (4, 4)), ((5, 4), (1, 2)), ((3, 3), (0, 2))])
def test_kron(sa, sb):
    a, b = mat(sa, seed=30), mat(sb, seed=31)
    check(lambda sp, xp: sp.kron(sp.csr_array(a), sp.csr_array(b)), fmt=False)
    check(lambda sp, xp: sp.kron(sp.csr_matrix(a), b.toarray()), fmt=False)
    check(lambda sp, xp: sp.kron(a.toarray(), sp.csr_array(b), format="csr"))


def test_kronsum():
    a, b = mat((3, 3), seed=32), mat((2, 2), seed=33)
    check(lambda sp, xp: sp.kronsum(sp.csr_array(a), sp.csr_array(b)))
    check(lambda sp, xp: sp.kronsum(sp.csr_matrix(a), sp.csr_matrix(b), format="coo"))
    raises_like(lambda sp, xp: sp.kronsum(sp.csr_array(mat((2, 3))), sp.csr_array(b)), ValueError)


def test_stacks_and_blocks():
    a, b, c = mat((3, 4), seed=34), mat((2, 4), seed=35), mat((3, 2), seed=36)
    A = lambda sp, x: sp.csr_array(x)  # noqa: E731
    check(lambda sp, xp: sp.hstack([A(sp, a), A(sp, c)]))
    check(lambda sp, xp: sp.vstack([A(sp, a), A(sp, b), A(sp, b)]))
    check(lambda sp, xp: sp.vstack([A(sp, a), b.toarray()], format="csc"))
    check(lambda sp, xp: sp.hstack([sp.coo_matrix(a), sp.coo_matrix(c)]))
    check(lambda sp, xp: sp.hstack([A(sp, a), A(sp, c)], dtype=numpy.float32))
    check(lambda sp, xp: sp.bmat([[A(sp, a), None], [None, A(sp, b)]]), fmt=False)
    check(lambda sp, xp: sp.bmat([[A(sp, a), A(sp, c)], [A(sp, b), None]]))
    check(lambda sp, xp: sp.bmat([[A(sp, a), A(sp, c)], [A(sp, b), sp.csr_array((2, 2))]]))
    check(lambda sp, xp: sp.block_array([[A(sp, a), None], [A(sp, b), sp.csr_array((2, 5))]]))
    check(lambda sp, xp: sp.bmat([[sp.csr_matrix(a)]]))
    check(lambda sp, xp: sp.block_diag([A(sp, a), A(sp, b), c.toarray()]))
    check(lambda sp, xp: sp.block_diag([sp.csr_matrix(a), sp.csr_matrix((0, 2))], format="csr"))
    raises_like(lambda sp, xp: sp.hstack([A(sp, a), A(sp, b)]), ValueError)
    raises_like(lambda sp, xp: sp.vstack([A(sp, a), A(sp, c)]), ValueError)
    raises_like(lambda sp, xp: sp.bmat([[A(sp, a), A(sp, b)]]), ValueError)
    raises_like(lambda sp, xp: sp.block_diag([]), ValueError)


def test_tril_triu_find():
    a = mat((6, 5), density=0.8, seed=37)
    for k in (0, 1, -2):
        check(lambda sp, xp: sp.tril(sp.csr_array(a), k), fmt=False)
        check(lambda sp, xp: sp.triu(sp.csr_matrix(a), k), fmt=False)
    check(lambda sp, xp: sp.tril(a.toarray()), fmt=False)
    got = msp.find(msp.csr_array(a))
    want = ssp.find(ssp.csr_array(a))
    for g, w in zip(got, want):
        numpy.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("shape,density", [((7, 5), 0.3), ((2, 2), 1.0), ((3, 9), 0.0), ((40, 30), 0.05)])
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_random(shape, density, dtype):
    a = msp.random(shape[0], shape[1], density=density, dtype=dtype, rng=42)
    s = ssp.random(shape[0], shape[1], density=density, dtype=dtype, rng=42)
    assert type(a).__name__ == type(s).__name__ == "coo_matrix"
    assert a.shape == s.shape and a.nnz == s.nnz and a.dtype == s.dtype
    d = numpy.asarray(a.toarray())
    assert ((d >= 0) & (d < 1)).all() and numpy.count_nonzero(d) <= a.nnz
    # the same matrix on every rank, whatever the rank count: each rank's
    # whole copy equals rank 0's, and the same seed gives the same matrix
    assert _dist.allgather_obj(d.tobytes()) == [d.tobytes()] * _dist.size()
    numpy.testing.assert_array_equal(numpy.asarray(msp.random_array(shape, density=density, dtype=dtype,
                                                                    rng=42).toarray()), d)
    r = msp.random_array(shape, density=density, format="csr", data_sampler=lambda k: numpy.full(k, 2.0))
    assert r.format == "csr" and isinstance(r, msp.csr_array)
    assert set(numpy.unique(numpy.asarray(r.toarray()))) <= {0.0, 2.0}
    u = msp.random(shape[0], shape[1], density=density)  # no seed: rank 0's draw for every rank
    e = numpy.asarray(u.toarray())
    assert _dist.allgather_obj(e.tobytes()) == [e.tobytes()] * _dist.size()
    raises_like(lambda sp, xp: sp.random(3, 3, density=1.5), ValueError)


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "dia"])
@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_save_load_npz(fmt, kind, tmpdir_all):
    a = mat((7, 5), seed=38)
    if fmt == "dia":
        a = ssp.csr_array(numpy.triu(numpy.tril(a.toarray(), 1), -1))
    name = f"{fmt}_{kind}"
    mine = os.path.join(tmpdir_all, f"m_{name}.npz")
    theirs = os.path.join(tmpdir_all, f"s_{name}.npz")
    msp.save_npz(mine, getattr(msp, name)(a))
    if _dist.rank() == 0:
        ssp.save_npz(theirs, getattr(ssp, name)(a))
    _dist.bcast_obj(None)  # rank 0 has written
    want = ssp.load_npz(mine)
    assert type(want).__name__ == name
    numpy.testing.assert_array_equal(want.toarray(), a.toarray())
    compare(msp.load_npz(theirs), ssp.load_npz(theirs))
    compare(msp.load_npz(mine), want)
    if kind == "array" and fmt in ("csr", "coo"):
        with numpy.load(mine) as f, numpy.load(theirs) as g:
            assert sorted(f.files) == sorted(g.files)
            for k in f.files:
                numpy.testing.assert_array_equal(f[k], g[k])


def test_load_npz_errors(tmpdir_all):
    with pytest.raises((FileNotFoundError, OSError)):
        msp.load_npz(os.path.join(tmpdir_all, "nothing.npz"))
    path = os.path.join(tmpdir_all, "dense.npz")
    if _dist.rank() == 0:
        numpy.savez(path, x=numpy.ones(3))
    _dist.bcast_obj(None)
    with pytest.raises(ValueError):
        msp.load_npz(path)


def test_integer_npz_keeps_its_dtype(tmpdir_all):
    path = os.path.join(tmpdir_all, "int.npz")
    if _dist.rank() == 0:
        ssp.save_npz(path, ssp.csr_array(numpy.array([[1, 0], [0, 2]], dtype=numpy.int16)))
    _dist.bcast_obj(None)
    a = msp.load_npz(path)
    assert a.dtype == numpy.int16
    numpy.testing.assert_array_equal(numpy.asarray(a.toarray()), [[1, 0], [0, 2]])


@pytest.mark.skipif(not hasattr(_core.Csr, "partition"), reason="the C library has no Csr.partition yet")
@pytest.mark.parametrize("kind", ["equal", "metis"])
def test_partition_permute(kind):
    n = 12
    s = ssp.diags_array([[-1.0] * (n - 1), [4.0] * n, [-1.0] * (n - 1)], offsets=[-1, 0, 1]).tocsr()
    s = s + ssp.csr_array(([-1.0, -1.0], ([0, n - 1], [n - 1, 0])), shape=(n, n))
    A = msp.csr_array(s)
    p = msp.partition(A, kind)
    q = p.quality()
    assert set(q) >= {"edge_cut", "ghost_min", "ghost_max", "ghost_total", "imbalance"}
    B = msp.permute(A, p)
    x = numpy.arange(n, dtype=float)
    # B (new numbering) times x in the new numbering is A x in the new numbering
    y_new = B @ p.to_new(mnp.asarray(x))
    numpy.testing.assert_allclose(numpy.asarray(p.to_old(y_new)), s @ x)
    numpy.testing.assert_array_equal(numpy.asarray(p.to_old(p.to_new(mnp.asarray(x)))), x)
    assert B.nnz == A.nnz


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "complex64"])
@pytest.mark.parametrize("kind", ["csr_matrix", "csr_array", "csc_matrix", "coo_array"])
def test_trace_has_numpys_sum_dtype(dtype, kind):
    """SciPy's trace is the diagonal's sum, so bool and int32 sum in int64
    (maniple cast it back to the matrix's dtype: True, and an int32 that
    wrapped)."""
    d = numpy.diag(numpy.full(3, 2 ** 30)).astype(dtype) if dtype != "bool" else numpy.eye(3, dtype=bool)
    for k in (0, 1):
        check(lambda sp, xp: getattr(sp, kind)(d).trace(offset=k))
    check(lambda sp, xp: getattr(sp, kind)(numpy.zeros((0, 0), dtype)).trace())


def test_argmax_and_norm_result_types_as_scipy():
    """argmax() is a Python int, argmax(explicit=True) NumPy's int64, and a
    norm NumPy's float64, as SciPy returns them."""
    from maniple.sparse import linalg as msl
    import scipy.sparse.linalg as ssl
    a = mat((5, 4), seed=3)
    for fn in (lambda sp: sp.csr_array(a).argmax(), lambda sp: sp.csr_array(a).argmin(),
               lambda sp: sp.csr_array(a).argmax(explicit=True)):
        want, got = fn(ssp), fn(msp)
        assert type(got) is type(want) and got == want, (got, want)
    for o in (None, "fro", 1, -1, numpy.inf, -numpy.inf):
        want, got = ssl.norm(ssp.csr_array(a), o), msl.norm(msp.csr_array(a), o)
        assert type(got) is type(want), (o, type(got), type(want))
        numpy.testing.assert_allclose(got, want, rtol=1e-14)
