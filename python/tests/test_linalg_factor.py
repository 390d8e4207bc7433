"""The factorisations that run on every rank (ScaLAPACK: cholesky, solve,
inv, det, slogdet, qr, eigh, eigvalsh, svd, svdvals) against numpy.linalg, under mpiexec -n 1, 2, 3. DISTRIBUTED_MIN is
lowered so that small matrices take the distributed path, and NumPy on one
rank (the gathered path) is made to fail, so a silent fallback cannot pass."""
import numpy
import pytest

import maniple.numpy as np
from maniple import _core
from maniple.numpy import _root
from maniple.numpy.linalg import _factor

la = np.linalg
DTYPES = ["int32", "int64", "float32", "float64", "complex64", "complex128"]
multi = _core.size() > 1


@pytest.fixture(autouse=True)
def distributed(monkeypatch):
    monkeypatch.setattr(_factor, "DISTRIBUTED_MIN", 1)
    monkeypatch.setattr(_factor, "VECTORS_MIN", 1)
    if multi:
        def refuse(*args, **kwargs):
            raise AssertionError("gathered to one rank instead of running on every rank")
        monkeypatch.setattr(_root, "call", refuse)


def tol(dtype):
    return 1e-3 if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else 1e-10


def matrix(shape, dtype, seed):
    rng = numpy.random.default_rng(seed)
    if numpy.dtype(dtype).kind in "iu":
        return rng.integers(-5, 6, shape).astype(dtype)
    m = rng.standard_normal(shape)
    if numpy.dtype(dtype).kind == "c":
        m = m + 1j * rng.standard_normal(shape)
    return m.astype(dtype)


def hpd(n, dtype, seed=0):
    m = matrix((n, n), dtype, seed).astype(numpy.result_type(dtype, numpy.float32))
    return (m @ m.conj().T + n * numpy.eye(n)).astype(dtype)


def check(got, want, dtype):
    assert isinstance(got, np.ndarray), type(got)
    assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
    numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=tol(dtype), atol=tol(dtype) * 10)


def layouts(a):
    """a as a default maniple array, a transposed view (split by columns) and
    a strided view"""
    t = np.asarray(numpy.ascontiguousarray(a.T)).T
    big = numpy.zeros((a.shape[0] * 2, a.shape[1]), a.dtype)
    big[::2] = a
    return [np.asarray(a), t, np.asarray(big)[::2]]


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 70])
def test_cholesky(dtype, n):
    s = hpd(n, dtype)
    for a in layouts(s):
        check(la.cholesky(a), numpy.linalg.cholesky(s), dtype)
        check(la.cholesky(a, upper=True), numpy.linalg.cholesky(s, upper=True), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 70])
def test_solve_and_inv(dtype, n):
    a = matrix((n, n), dtype, 1) + 12 * numpy.eye(n, dtype=dtype)
    b1, b2 = matrix((n,), dtype, 2), matrix((n, 3), dtype, 3)
    for x in layouts(a):
        check(la.solve(x, np.asarray(b1)), numpy.linalg.solve(a, b1), dtype)
        check(la.solve(x, np.asarray(b2)), numpy.linalg.solve(a, b2), dtype)
        check(la.inv(x), numpy.linalg.inv(a), dtype)
    # mixed dtypes: NumPy's common type
    check(la.solve(np.asarray(a), np.asarray(b1.real.astype("float32"))), numpy.linalg.solve(a, b1.real.astype("float32")),
          "float32" if dtype == "float32" else dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(9, 9), (70, 7), (140, 66), (130, 1)])
def test_lstsq_of_full_column_rank(dtype, shape):
    """x from the QR factors, the residuals from b - a x, rank and singular
    values from svdvals: NumPy's gelsd's answers, a rounding apart."""
    a = matrix(shape, dtype, 5)
    for b in (matrix(shape[:1], dtype, 6), matrix((shape[0], 3), dtype, 7)):
        want = numpy.linalg.lstsq(a, b)
        for x in layouts(a):
            got = la.lstsq(x, np.asarray(b))
            assert type(got[2]) is type(want[2]) and got[2] == want[2], (got[2], want[2])
            for g, w in zip((got[0], got[1], got[3]), (want[0], want[1], want[3])):
                check(g, w, dtype)


@pytest.mark.parametrize("dtype", DTYPES)
def test_rank_cond_and_spectral_norms(dtype):
    """From the singular values (svdvals on every rank) and, for cond's
    other orders, the inverse: NumPy's values and types, and a singular
    matrix's infinite condition number."""
    a = matrix((70, 70), dtype, 10)
    z = a.copy()
    z[:, 3] = 0  # exactly singular
    for m in (a, z, matrix((90, 40), dtype, 11), matrix((40, 90), dtype, 12)):
        x = np.asarray(m)
        for kw in ({}, {"tol": 0.5}, {"rtol": 0.05}):
            got, want = la.matrix_rank(x, **kw), numpy.linalg.matrix_rank(m, **kw)
            assert got == want and type(got) is type(want), (kw, got, want)
        for o in (2, -2, "nuc"):
            got, want = la.norm(x, o), numpy.linalg.norm(m, o)
            assert type(got) is type(want)  # (the smallest of a singular matrix: rounding, near 0)
            numpy.testing.assert_allclose(got, want, rtol=tol(dtype), atol=tol(dtype) * numpy.linalg.norm(m, 2))
        square = m.shape[0] == m.shape[1]
        for p in ((None, 2, -2, "fro", 1, -1, numpy.inf, -numpy.inf) if square else (None, 2, -2)):
            got, want = la.cond(x, p), numpy.linalg.cond(m, p)
            assert type(got) is type(want), (p, type(got), type(want))
            if p == -2 and want < 1e-12:  # singular: 0, or as small in rounding
                assert got < 1e-6, (p, got, want)
            elif numpy.isinf(want) or want > 1e12:  # singular: infinite, or as large in rounding
                assert numpy.isinf(got) or got > 1e6, (p, got, want)
            else:
                numpy.testing.assert_allclose(got, want, rtol=1e-3 if tol(dtype) > 1e-6 else 1e-8)
    h = hpd(70, dtype)
    assert la.matrix_rank(np.asarray(h), hermitian=True) == numpy.linalg.matrix_rank(h, hermitian=True)


def test_lstsq_rank_deficient_or_wide_is_numpys(monkeypatch):
    """The minimum-norm answers are NumPy's gelsd's, gathered."""
    monkeypatch.undo()
    monkeypatch.setattr(_factor, "DISTRIBUTED_MIN", 1)
    a = matrix((30, 6), "float64", 8)
    a[:, 5] = a[:, 0]  # rank 5
    b = matrix((30,), "float64", 9)
    for m in (a, a[:5].copy()):
        want = numpy.linalg.lstsq(m, b[:m.shape[0]])
        got = la.lstsq(np.asarray(m), np.asarray(b[:m.shape[0]]))
        assert got[2] == want[2]
        for g, w in zip((got[0], got[1], got[3]), (want[0], want[1], want[3])):
            numpy.testing.assert_allclose(numpy.asarray(g), w, rtol=1e-10, atol=1e-12)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 70, 130])
def test_det_and_slogdet(dtype, n):
    """From the LU factors on every rank: the signs of U's diagonal and of
    the row swaps, and the sum of its logarithms (in another order than
    LAPACK's sum on one rank: a rounding apart)."""
    a = matrix((n, n), dtype, 4) + 2 * numpy.eye(n, dtype=dtype)
    want = numpy.linalg.slogdet(a)
    rt = 1e-4 if numpy.dtype(dtype) in (numpy.float32, numpy.complex64) else 1e-11
    for x in layouts(a):
        sign, logabs = la.slogdet(x)
        assert type(sign) is type(want.sign) and type(logabs) is type(want.logabsdet), (type(sign), type(logabs))
        numpy.testing.assert_allclose(sign, want.sign, rtol=rt, atol=rt)
        numpy.testing.assert_allclose(logabs, want.logabsdet, rtol=rt, atol=rt)
        d = la.det(x)
        assert type(d) is type(numpy.linalg.det(a))
        numpy.testing.assert_allclose(d, numpy.linalg.det(a), rtol=rt * max(1, abs(want.logabsdet)))
    s = a.copy()
    s[:, -1] = s[:, 0]  # singular: NumPy's sign 0, -inf, det 0 (no error)
    if n > 1:
        z = numpy.zeros((n, n), dtype)
        for m in (s, z):
            w = numpy.linalg.slogdet(m)
            g = la.slogdet(np.asarray(m))
            if w.sign == 0:  # (s may come out nearly singular instead: then compare values)
                assert g.sign == 0 and g.logabsdet == -numpy.inf, (g, w)
                assert la.det(np.asarray(m)) == 0
        sw = numpy.eye(n, dtype=dtype)[::-1]  # a permutation: the swaps' sign alone
        numpy.testing.assert_allclose(la.det(np.asarray(sw)), numpy.linalg.det(sw), atol=1e-6)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (60, 20), (20, 60), (65, 65)])
def test_qr(dtype, shape):
    a = matrix(shape, dtype, 4)
    q0, r0 = numpy.linalg.qr(a)
    for x in layouts(a):
        res = la.qr(x)
        assert type(res).__name__ == "QRResult"
        q, r = res
        # LAPACK's signs: the same Householder reflections, so NumPy's own
        check(q, q0, dtype)
        check(r, r0, dtype)
        check(la.qr(x, mode="r"), numpy.linalg.qr(a, mode="r"), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [1, 7, 70])
@pytest.mark.parametrize("uplo", ["L", "U"])
def test_eigh(dtype, n, uplo):
    """NumPy's eigenvalues; eigenvectors (unique up to a unit factor each)
    through the residual of the Hermitian matrix NumPy reads, whose other
    triangle holds junk here"""
    m = matrix((n, n), dtype, 6)
    h = m + m.conj().T
    a = h.copy()
    a[numpy.triu_indices(n, 1) if uplo == "L" else numpy.tril_indices(n, -1)] = 9
    w0, v0 = numpy.linalg.eigh(a, UPLO=uplo)
    for x in layouts(a):
        res = la.eigh(x, UPLO=uplo)
        assert type(res).__name__ == "EighResult"
        w, v = res
        check(w, w0, dtype)
        V = numpy.asarray(v)
        assert isinstance(v, np.ndarray) and V.shape == v0.shape and V.dtype == v0.dtype
        numpy.testing.assert_allclose(h @ V, V * w0, atol=tol(dtype) * 100 * (1 + abs(w0).max()))
        numpy.testing.assert_allclose(V.conj().T @ V, numpy.eye(n), atol=tol(dtype) * 100)
        check(la.eigvalsh(x, UPLO=uplo), numpy.linalg.eigvalsh(a, UPLO=uplo), dtype)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(1, 1), (1, 5), (60, 20), (20, 60), (65, 65)])
def test_svd(dtype, shape):
    """NumPy's singular values; u s vh rebuilds a with orthonormal u and vh
    (the factors are unique up to a unit factor per singular value)"""
    a = matrix(shape, dtype, 7)
    s0 = numpy.linalg.svd(a, compute_uv=False)
    k = min(shape)
    for x in layouts(a):
        res = la.svd(x, full_matrices=False)
        assert type(res).__name__ == "SVDResult"
        u, s, vh = res
        check(s, s0, dtype)
        U, VH = numpy.asarray(u), numpy.asarray(vh)
        assert U.shape == (shape[0], k) and VH.shape == (k, shape[1]) and U.dtype == VH.dtype
        assert U.dtype == numpy.linalg.svd(a)[0].dtype
        numpy.testing.assert_allclose((U * s0) @ VH, a, atol=tol(dtype) * 100 * (1 + s0.max()))
        numpy.testing.assert_allclose(U.conj().T @ U, numpy.eye(k), atol=tol(dtype) * 100)
        check(la.svd(x, compute_uv=False), s0, dtype)
        check(la.svdvals(x), s0, dtype)
        if shape[0] == shape[1]:  # complete factors are the reduced ones
            assert la.svd(x).U.shape == (k, k)


def test_errors_on_every_rank():
    with pytest.raises(numpy.linalg.LinAlgError, match="^Matrix is not positive definite$"):
        la.cholesky(np.asarray(numpy.diag([1.0, 2.0, -1.0, 4.0])))
    with pytest.raises(numpy.linalg.LinAlgError, match="^Singular matrix$"):
        la.solve(np.asarray(numpy.diag([1.0, 0.0, 2.0])), np.ones(3))
    with pytest.raises(numpy.linalg.LinAlgError, match="^Singular matrix$"):
        la.inv(np.asarray(numpy.diag([1.0, 2.0, 0.0])))
    with pytest.raises(numpy.linalg.LinAlgError, match="Last 2 dimensions of the array must be square"):
        la.eigh(np.ones((3, 4)))
    assert float(np.sum(np.ones(7))) == 7.0  # every rank still in step


def test_large_default_uses_every_rank(monkeypatch):
    """At the default threshold, a large matrix takes the distributed path
    (several ranks) and a small one NumPy's (gathered)."""
    monkeypatch.undo()
    n = _factor.DISTRIBUTED_MIN
    s = hpd(n, "float64")
    called = []
    real = _root.call
    monkeypatch.setattr(_root, "call", lambda *a, **k: called.append(1) or real(*a, **k))
    check(la.cholesky(np.asarray(s)), numpy.linalg.cholesky(s), "float64")
    assert bool(called) == (not multi)
    called.clear()
    check(la.cholesky(np.asarray(s[:10, :10])), numpy.linalg.cholesky(s[:10, :10]), "float64")
    assert called
