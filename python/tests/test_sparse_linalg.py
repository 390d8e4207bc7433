"""maniple.sparse.linalg against scipy.sparse.linalg and direct solves, on
every rank under mpiexec -n 1, 2, 3: each method on SPD (2-d and 3-d
Poisson), nonsymmetric (convection-diffusion) and diagonally dominant
matrices, with maniple and NumPy/SciPy inputs, C and Python
preconditioners, matrix-free operators, renumbered (METIS) matrices;
iteration counts beside SciPy's; every stop reason; bad input raised on
every rank; LinearOperator algebra, norm and spsolve against SciPy."""
import numpy
import numpy.testing as nt
import pytest
import scipy.sparse as ssp
import scipy.sparse.linalg as sla

import maniple.numpy as mnp
import maniple.sparse as msp
import maniple.sparse.linalg as mla


def poisson2d(g):
    t = ssp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(g, g))
    return ssp.csr_array(ssp.kronsum(t, t))


def poisson3d(g):
    t = ssp.diags_array([-1.0, 2.0, -1.0], offsets=[-1, 0, 1], shape=(g, g))
    return ssp.csr_array(ssp.kronsum(ssp.kronsum(t, t), t))


def convdiff(g, c=0.4):
    """2-d convection-diffusion, upwind convection: nonsymmetric"""
    t = ssp.diags_array([-1.0 - c, 2.0 + c, -1.0], offsets=[-1, 0, 1], shape=(g, g))
    return ssp.csr_array(ssp.kronsum(t, t))


def diagdom(n, seed=3):
    rng = numpy.random.default_rng(seed)
    R = ssp.random_array((n, n), density=0.05, rng=rng, format="csr")
    R.data -= 0.5
    d = abs(R).sum(axis=1) + 1.0
    return ssp.csr_array(R + ssp.diags_array(d))


PROBLEMS = {
    "poisson2d": (poisson2d(12), True),
    "poisson3d": (poisson3d(6), True),
    "convdiff": (convdiff(12), False),
    "diagdom": (diagdom(150), False),
}


def rhs(n, seed=1):
    return numpy.random.default_rng(seed).standard_normal(n)


def direct(S, b):
    return sla.spsolve(ssp.csc_array(S), b)


def relerr(x, ref):
    x = numpy.asarray(x)
    return numpy.linalg.norm(x - ref) / numpy.linalg.norm(ref)


def residual(S, x, b):
    return numpy.linalg.norm(b - S @ numpy.asarray(x)) / numpy.linalg.norm(b)


METHODS = {
    "cg": (mla.cg, sla.cg, True),
    "minres": (mla.minres, sla.minres, True),
    "bicgstab": (mla.bicgstab, sla.bicgstab, False),
    "gmres": (mla.gmres, sla.gmres, False),
}


def jacobi_op(S, lib):
    d = S.diagonal()
    if lib is mla:
        d = mnp.asarray(d)
    return lib.LinearOperator(S.shape, matvec=lambda r: r / d, dtype=S.dtype)


# cg and minres on the symmetric problems only; minres not with ILU(0),
# which is not a symmetric preconditioner
CASES = [(p, m, M) for p in PROBLEMS for m in METHODS for M in [None, "jacobi", "bjacobi_ilu0", "bjacobi_sgs", "python"]
         if (PROBLEMS[p][1] or not METHODS[m][2]) and not (m == "minres" and M == "bjacobi_ilu0")]


@pytest.mark.parametrize("problem,method,M", CASES)
def test_methods_against_direct(problem, method, M):
    S, spd = PROBLEMS[problem]
    mine = METHODS[method][0]
    b = rhs(S.shape[0])
    ref = direct(S, b)
    A = msp.csr_array(S)
    MM = jacobi_op(S, mla) if M == "python" else M
    x, info = mine(A, mnp.asarray(b), rtol=1e-10, maxiter=2000, M=MM)
    assert info == 0, (method, problem, M, info)
    assert isinstance(x, mnp.ndarray) and x.shape == (S.shape[0],) and x.dtype == numpy.float64
    assert residual(S, x, b) <= 1e-9
    assert relerr(x, ref) <= 1e-7 * numpy.linalg.cond(S.toarray())


@pytest.mark.parametrize("method", list(METHODS))
def test_numpy_and_scipy_inputs(method):
    """SciPy's matrix and NumPy's vectors go in as they are; the answer
    equals SciPy's own solver's within the tolerance asked for."""
    S = poisson2d(10)
    b = rhs(S.shape[0], 7)
    mine, theirs, _ = METHODS[method]
    x, info = mine(S, b, rtol=1e-8)
    xs, infos = theirs(S, b, rtol=1e-8)
    assert info == 0 and infos == 0
    assert residual(S, x, b) <= 1e-8 * 1.0001
    nt.assert_allclose(numpy.asarray(x), xs, rtol=0, atol=1e-6 * numpy.abs(xs).max())


@pytest.mark.parametrize("partition", ["metis", "ptscotch", "graph", "equal"])
@pytest.mark.parametrize("method", ["cg", "bicgstab", "gmres"])
def test_renumbered_matrix(partition, method):
    """partition= solves in the renumbered copy: x comes back in the
    user's numbering; a Python preconditioner sees the user's numbering."""
    S = convdiff(9) if method != "cg" else poisson2d(9)
    perm = numpy.random.default_rng(2).permutation(S.shape[0])
    S = ssp.csr_array(S[perm][:, perm])  # a shuffled numbering
    b = rhs(S.shape[0], 4)
    ref = direct(S, b)
    A = msp.csr_array(S, partition=partition)
    mine = METHODS[method][0]
    for M in (None, "jacobi", jacobi_op(S, mla)):
        x, info = mine(A, mnp.asarray(b), rtol=1e-11, maxiter=1000, M=M)
        assert info == 0
        assert relerr(x, ref) <= 1e-8


def test_cg_jacobi_iterations_as_scipy():
    """CG with Jacobi takes SciPy's iteration count (at any rank count: only
    reduction order differs); callback(xk) gets each iterate, the last the
    solution."""
    S = poisson2d(20)
    b = rhs(S.shape[0], 9)
    seen, seen_s = [], []
    x, info = mla.cg(msp.csr_array(S), b, rtol=1e-8, M="jacobi", callback=lambda xk: seen.append(numpy.asarray(xk)))
    xs, infos = sla.cg(S, b, rtol=1e-8, M=jacobi_op(S, sla), callback=lambda xk: seen_s.append(xk.copy()))
    assert info == 0 and infos == 0
    assert abs(len(seen) - len(seen_s)) <= 1, (len(seen), len(seen_s))
    nt.assert_allclose(seen[-1], numpy.asarray(x), rtol=0, atol=0)
    nt.assert_allclose(seen[0], seen_s[0], rtol=1e-10, atol=1e-12)
    nt.assert_allclose(seen[5], seen_s[5], rtol=1e-8, atol=1e-10)


def test_bicgstab_minres_callbacks():
    S = poisson2d(8)
    b = rhs(S.shape[0], 5)
    for f in (mla.bicgstab, mla.minres):
        seen = []
        x, info = f(msp.csr_array(S), b, rtol=1e-10, callback=lambda xk: seen.append(numpy.asarray(xk)))
        assert info == 0 and len(seen) >= 2
        nt.assert_allclose(seen[-1], numpy.asarray(x), rtol=0, atol=0)
        assert residual(S, seen[0], b) > residual(S, seen[-1], b)


def test_gmres_restart_maxiter_and_callbacks():
    S = convdiff(10, 1.5)
    b = rhs(S.shape[0], 6)
    ref = direct(S, b)
    A = msp.csr_array(S)
    # SciPy's convention: maxiter counts restart cycles
    x, info = mla.gmres(A, b, rtol=1e-10, restart=5, maxiter=2)
    xs, infos = sla.gmres(S, b, rtol=1e-10, restart=5, maxiter=2)
    assert info == 2 and infos == 2
    nt.assert_allclose(numpy.asarray(x), xs, rtol=1e-6, atol=1e-8)
    pr = []
    x, info = mla.gmres(A, b, rtol=1e-10, restart=10, callback=pr.append, callback_type="pr_norm")
    prs = []
    xs, infos = sla.gmres(S, b, rtol=1e-10, restart=10, callback=prs.append, callback_type="pr_norm")
    assert info == 0 and relerr(x, ref) <= 1e-8
    assert abs(len(pr) - len(prs)) <= 1
    nt.assert_allclose(pr[:5], prs[:5], rtol=1e-6)
    xk = []
    x, info = mla.gmres(A, b, rtol=1e-10, restart=10, callback=lambda v: xk.append(numpy.asarray(v)),
                        callback_type="x")
    assert info == 0 and len(xk) >= 1
    assert residual(S, xk[0], b) < 1
    with pytest.raises(ValueError, match="callback_type"):
        mla.gmres(A, b, callback=print, callback_type="bogus")


def test_matrix_free_operator():
    S = poisson3d(5)
    b = rhs(S.shape[0], 8)
    ref = direct(S, b)
    A = msp.csr_array(S)
    calls = []

    def mv(v):
        calls.append(1)
        assert isinstance(v, mnp.ndarray)
        return A @ v

    op = mla.LinearOperator(S.shape, matvec=mv, dtype=numpy.float64)
    for f in (mla.cg, mla.bicgstab, mla.gmres, mla.minres):
        calls.clear()
        x, info = f(op, b, rtol=1e-11, maxiter=500, M=jacobi_op(S, mla))
        assert info == 0 and relerr(x, ref) <= 1e-8 and len(calls) > 1
    # a NumPy matvec, the same on every rank, and a dense NumPy matrix
    D = S.toarray()
    x, info = mla.cg(mla.LinearOperator(S.shape, matvec=lambda v: D @ numpy.asarray(v)), b, rtol=1e-11)
    assert info == 0 and relerr(x, ref) <= 1e-8
    x, info = mla.gmres(D, b, rtol=1e-11)
    assert info == 0 and relerr(x, ref) <= 1e-8
    with pytest.raises(ValueError, match="needs a sparse matrix"):
        mla.cg(op, b, M="bjacobi_ilu0")


def test_float32():
    S = poisson2d(8).astype(numpy.float32)
    b = rhs(S.shape[0]).astype(numpy.float32)
    x, info = mla.cg(msp.csr_array(S), mnp.asarray(b), rtol=1e-5)
    assert info == 0 and x.dtype == numpy.float32
    assert residual(S.astype(numpy.float64), numpy.asarray(x, numpy.float64), b.astype(numpy.float64)) <= 1e-5


def test_x0_and_zero_rhs():
    S = poisson2d(6)
    b = rhs(S.shape[0])
    ref = direct(S, b)
    seen = []
    x, info = mla.cg(msp.csr_array(S), b, x0=ref, rtol=1e-8, callback=seen.append)
    assert info == 0 and seen == [] and relerr(x, ref) <= 1e-14
    x, info = mla.bicgstab(msp.csr_array(S), numpy.zeros(S.shape[0]))
    assert info == 0 and not numpy.asarray(x).any()
    x0 = mnp.asarray(numpy.ones(S.shape[0]))
    x, info = mla.gmres(msp.csr_array(S), b, x0=x0, rtol=1e-10)
    assert info == 0 and relerr(x, ref) <= 1e-8
    assert numpy.array_equal(numpy.asarray(x0), numpy.ones(S.shape[0])), "x0 was written"


def test_stop_reasons():
    S = poisson2d(12)
    b = rhs(S.shape[0])
    A = msp.csr_array(S)
    # maxiter: SciPy's info, an improved x
    x, info = mla.cg(A, b, rtol=1e-12, maxiter=3)
    xs, infos = sla.cg(S, b, rtol=1e-12, maxiter=3)
    assert info == 3 and infos == 3
    nt.assert_allclose(numpy.asarray(x), xs, rtol=1e-10, atol=1e-12)
    # NaN in b: stopped, reported negative, on every rank
    bn = b.copy()
    bn[S.shape[0] // 2] = numpy.nan
    for f in (mla.cg, mla.bicgstab, mla.gmres, mla.minres):
        x, info = f(A, bn, rtol=1e-8)
        assert info == -30, (f.__name__, info)
    # an indefinite matrix: CG notices p.Ap <= 0
    Sind = ssp.csr_array(S - 6.0 * ssp.eye_array(S.shape[0]))
    x, info = mla.cg(msp.csr_array(Sind), b, rtol=1e-8)
    assert info == -20
    # minres handles the symmetric indefinite one, with shift= too
    x, info = mla.minres(msp.csr_array(Sind), b, rtol=1e-10, maxiter=5000)
    assert info == 0 and residual(Sind, x, b) <= 1e-9
    x, info = mla.minres(A, b, shift=6.0, rtol=1e-10, maxiter=5000)
    assert info == 0 and residual(Sind, x, b) <= 1e-9
    # a zero pivot in BiCGStab: A = [[0, 1], [1, 0]] with b = e1 gives r0.A r0 = 0
    x, info = mla.bicgstab(msp.csr_array(ssp.csr_array([[0.0, 1.0], [1.0, 0.0]])), numpy.array([1.0, 0.0]),
                           rtol=1e-12)
    assert info in (0, -10)
    if info == 0:
        nt.assert_allclose(numpy.asarray(x), [0.0, 1.0], atol=1e-12)


def test_bad_input_every_rank():
    S = poisson2d(5)
    A = msp.csr_array(S)
    with pytest.raises(ValueError, match=r"\(25, 25\).*\(24,\)"):
        mla.cg(A, numpy.ones(24))
    with pytest.raises(ValueError, match=r"x0 \(26,\)"):
        mla.bicgstab(A, numpy.ones(25), x0=numpy.zeros(26))
    with pytest.raises(ValueError, match="square"):
        mla.gmres(msp.csr_array(ssp.random_array((5, 4), density=0.5, rng=1, format="csr")), numpy.ones(5))
    with pytest.raises(ValueError, match="rtol"):
        mla.cg(A, numpy.ones(25), rtol=-1.0)
    with pytest.raises(ValueError, match="maxiter"):
        mla.cg(A, numpy.ones(25), maxiter=0)
    with pytest.raises(ValueError, match="unknown preconditioner 'ilu'"):
        mla.cg(A, numpy.ones(25), M="ilu")
    with pytest.raises(ValueError, match=r"M \(4, 4\)"):
        mla.cg(A, numpy.ones(25), M=numpy.eye(4))
    with pytest.raises(TypeError, match="complex"):
        mla.minres(A, numpy.ones(25, complex))
    with pytest.raises(ValueError, match="real matrix"):
        mla.cg(A, numpy.ones(25, complex), M="bjacobi_ilu0")
    # an exception in the user's operator comes out of the solve, every rank
    def bad(v):
        raise ZeroDivisionError("bad operator")
    with pytest.raises(ZeroDivisionError, match="bad operator"):
        mla.cg(mla.LinearOperator((25, 25), matvec=bad, dtype=float), numpy.ones(25))


def test_linear_operator_algebra():
    S = diagdom(30)
    T = diagdom(30, seed=8)
    v = rhs(30, 2)
    V = numpy.stack([v, 2 * v + 1], axis=1)
    for lib, mk in ((sla, lambda X: X), (mla, msp.csr_array)):
        A, B = lib.aslinearoperator(mk(S)), lib.aslinearoperator(mk(T))
        ops = {"sum": A + B, "diff": A - B, "scaled": 2.5 * A, "prod": A * B, "pow": A ** 2, "neg": -A,
               "H": A.H, "T": A.T, "div": A / 4}
        res = {k: numpy.asarray(o.matvec(v)) for k, o in ops.items()}
        res["matmat"] = numpy.asarray(A.matmat(V))
        res["rmatvec"] = numpy.asarray(A.rmatvec(v))
        res["matmul"] = numpy.asarray(A @ v)
        res["col"] = numpy.asarray(A.matvec(v.reshape(-1, 1)))
        if lib is sla:
            want = res
        else:
            for k in want:
                assert res[k].shape == want[k].shape, k
                nt.assert_allclose(res[k], want[k], rtol=1e-12, atol=1e-12, err_msg=k)
    op = mla.LinearOperator((3, 3), matvec=lambda x: 2 * x)
    assert op.dtype.kind == "i" and sla.LinearOperator((3, 3), matvec=lambda x: 2 * x).dtype.kind == "i"
    with pytest.raises(ValueError, match="dimension mismatch"):
        op.matvec(numpy.ones(4))
    with pytest.raises(TypeError, match="type not understood"):
        mla.aslinearoperator("nope")
    with pytest.raises(NotImplementedError, match="rmatvec"):
        op.rmatvec(numpy.ones(3))


@pytest.mark.parametrize("kw", [{}, {"ord": "fro"}, {"ord": numpy.inf}, {"ord": -numpy.inf}, {"ord": 1},
                                {"ord": -1}, {"axis": 0}, {"axis": 1}, {"axis": 1, "ord": numpy.inf},
                                {"axis": 0, "ord": -numpy.inf}, {"axis": 0, "ord": 1}, {"axis": -1, "ord": 0},
                                {"axis": 1, "ord": 3}])
def test_norm(kw):
    S = ssp.csr_array(diagdom(20) - 1.5 * ssp.eye_array(20))
    got, want = mla.norm(msp.csr_array(S), **kw), sla.norm(S, **kw)
    nt.assert_allclose(numpy.asarray(got), numpy.asarray(want), rtol=1e-12)
    with pytest.raises(ValueError):
        mla.norm(msp.csr_array(S), ord=3)
    with pytest.raises(TypeError, match="not sparse"):
        mla.norm(numpy.ones((2, 2)))


def test_spsolve():
    S = convdiff(6)
    b = rhs(S.shape[0])
    for A in (msp.csr_array(S), msp.csc_array(S), S):
        x = mla.spsolve(A, mnp.asarray(b))
        assert isinstance(x, mnp.ndarray)
        nt.assert_allclose(numpy.asarray(x), direct(S, b), rtol=1e-10, atol=1e-13)
    B = numpy.stack([b, -b], axis=1)
    nt.assert_allclose(numpy.asarray(mla.spsolve(msp.csr_array(S), B)), sla.spsolve(ssp.csc_array(S), B),
                       rtol=1e-10, atol=1e-13)
    Bs = ssp.csc_array(ssp.random_array((S.shape[0], 3), density=0.2, rng=3))
    got, want = mla.spsolve(msp.csc_array(S), msp.csc_array(Bs)), sla.spsolve(ssp.csc_array(S), Bs)
    assert msp.issparse(got)
    nt.assert_allclose(got.toarray().__array__(), want.toarray(), rtol=1e-10, atol=1e-13)
    with pytest.raises(ValueError):
        mla.spsolve(msp.csr_array(S), numpy.ones(5))


def test_missing_names():
    with pytest.raises(AttributeError, match="does not implement scipy.sparse.linalg.eigsh"):
        mla.eigsh


@pytest.mark.parametrize("method", ["gmres", "bicgstab", "cg", "minres"])
def test_singular_inconsistent_system_is_not_reported_converged(method):
    """ones((20, 20)) x = arange(20) has no solution: SciPy's gmres gives
    info > 0; no maniple method may say 0, and GMRES's x keeps a true
    residual no larger than ||b|| (the least-squares one here)."""
    A, b = numpy.ones((20, 20)), numpy.arange(20.0)
    x, info = getattr(mla, method)(msp.csr_matrix(A), b)
    r = numpy.linalg.norm(b - A @ numpy.asarray(x))
    if method == "gmres":
        xs, infos = sla.gmres(ssp.csr_matrix(A), b)
        assert infos > 0
    if method in ("gmres", "minres"):  # they stop at the least-squares x (SciPy's minres says info 0 there)
        least = numpy.linalg.norm(b - b.mean())  # the best any x can do
        assert r == pytest.approx(least, rel=1e-6)
    assert info != 0, f"{method} reported convergence with true residual {r}"


def _sparse_M(S, off):
    """diag(1 / a_ii) (off = 0), or that plus off on the first neighbours
    (symmetric and diagonally dominant: SPD)"""
    d = 1.0 / S.diagonal()
    if off == 0:
        return ssp.diags_array(d)
    e = numpy.full(S.shape[0] - 1, off)
    return ssp.csr_array(ssp.diags_array([e, d, e], offsets=[-1, 0, 1]))


@pytest.mark.parametrize("method", list(METHODS))
def test_sparse_preconditioner_runs_in_c(method, monkeypatch):
    """A sparse M (maniple's or SciPy's) is applied in C, never through a
    Python operator: a diagonal one is Jacobi's fused scale (x equal, bit
    for bit, to M='jacobi'), another its product (x as through a Python
    operator applying it, and the solution of A x = b)."""
    from maniple.sparse.linalg import _isolve

    S = poisson2d(12)
    b = rhs(S.shape[0], 5)
    A, mb = msp.csr_array(S), mnp.asarray(b)
    mine = METHODS[method][0]
    xj, info = mine(A, mb, rtol=1e-10, maxiter=2000, M="jacobi")
    assert info == 0
    G = _sparse_M(S, 0.01)

    def no_python(*a, **k):
        raise AssertionError("a sparse M went through a Python operator")
    monkeypatch.setattr(_isolve, "aslinearoperator", no_python)
    for D in (_sparse_M(S, 0), msp.diags_array(1.0 / S.diagonal()), msp.dia_array(_sparse_M(S, 0))):
        x, info = mine(A, mb, rtol=1e-10, maxiter=2000, M=D)
        assert info == 0 and numpy.array_equal(numpy.asarray(x), numpy.asarray(xj)), type(D)
    xg, info = mine(A, mb, rtol=1e-10, maxiter=2000, M=msp.csr_array(G))
    assert info == 0
    monkeypatch.undo()
    Gm = msp.csr_array(G)
    xp, info = mine(A, mb, rtol=1e-10, maxiter=2000, M=mla.LinearOperator(S.shape, matvec=lambda r: Gm @ r))
    assert info == 0
    nt.assert_allclose(numpy.asarray(xg), numpy.asarray(xp), rtol=0, atol=1e-12 * numpy.abs(numpy.asarray(xp)).max())
    assert residual(S, xg, b) <= 1e-9
    with pytest.raises(ValueError, match=r"M \(4, 4\)"):
        mine(A, mb, M=ssp.eye_array(4))


@pytest.mark.parametrize("partition", ["metis", "ptscotch", "equal"])
def test_sparse_preconditioner_renumbered(partition):
    """A sparse M follows A's renumbering: the same x as without it."""
    S = poisson2d(9)
    perm = numpy.random.default_rng(2).permutation(S.shape[0])
    S = ssp.csr_array(S[perm][:, perm])
    b = rhs(S.shape[0], 4)
    ref = direct(S, b)
    for off in (0, 0.01):
        x, info = mla.cg(msp.csr_array(S, partition=partition), mnp.asarray(b), rtol=1e-11, maxiter=1000,
                         M=_sparse_M(S, off))
        assert info == 0 and relerr(x, ref) <= 1e-8


def helmholtz(g, shift):
    """2-d Laplacian plus a complex shift (complex symmetric, not Hermitian)"""
    L = poisson2d(g)
    return ssp.csr_array(L + shift * ssp.eye_array(g * g))


def hermitian(g):
    """SPD Laplacian plus an imaginary skew coupling: Hermitian positive definite"""
    L = poisson2d(g).astype(complex)
    n = g * g
    K = ssp.diags_array([0.4j, -0.4j], offsets=[-1, 1], shape=(n, n))
    return ssp.csr_array(L + K)


def _residual(A, x, b):
    x = numpy.asarray(x)
    return numpy.linalg.norm(A @ x - b) / numpy.linalg.norm(b)


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_complex_systems_against_scipy(dtype):
    rng = numpy.random.default_rng(7)
    tol = 1e-9 if dtype == "complex128" else 1e-4
    H, G = hermitian(7).astype(dtype), helmholtz(7, 0.3 + 0.8j).astype(dtype)
    b = (rng.random(49) + 1j * rng.random(49)).astype(dtype)
    cases = [("cg", H, None), ("cg", H, "jacobi"), ("bicgstab", G, None), ("bicgstab", G, "jacobi"),
             ("gmres", G, None), ("gmres", G, "jacobi"), ("gmres", H, None)]
    for method, A, M in cases:
        x, info = getattr(mla, method)(msp.csr_array(A), b, rtol=tol, M=M)
        xs, infos = getattr(sla, method)(A, b, rtol=tol, M=None if M is None else ssp.diags_array(1 / A.diagonal()))
        assert info == 0 and infos == 0, (method, M, info, infos)
        assert isinstance(x, mnp.ndarray) and x.dtype == numpy.dtype(dtype), (method, x.dtype)
        assert _residual(A, x, b) <= 2 * tol, (method, M, _residual(A, x, b))
        nt.assert_allclose(numpy.asarray(x), xs, rtol=0, atol=50 * tol * numpy.abs(xs).max())


def test_complex_inputs_operators_and_callbacks():
    rng = numpy.random.default_rng(8)
    G = helmholtz(6, 0.5j)
    n = G.shape[0]
    b = rng.random(n) + 1j * rng.random(n)
    # a real matrix with a complex b, a SciPy matrix, a complex x0 and a maniple b
    L = poisson2d(6)
    x, info = mla.cg(msp.csr_array(L), b, rtol=1e-10)
    assert info == 0 and x.dtype == numpy.complex128 and _residual(L, x, b) < 1e-9
    x, info = mla.gmres(G, mnp.asarray(b), x0=numpy.ones(n, complex), rtol=1e-10)
    assert info == 0 and _residual(G, x, b) < 1e-9
    # a matrix-free operator and a LinearOperator preconditioner
    op = mla.LinearOperator((n, n), matvec=lambda v: msp.csr_array(G) @ v, dtype=complex)
    Minv = mla.LinearOperator((n, n), matvec=lambda v: v / mnp.asarray(G.diagonal()), dtype=complex)
    x, info = mla.bicgstab(op, b, rtol=1e-10, M=Minv)
    assert info == 0 and _residual(G, x, b) < 1e-9
    # callbacks: x after each iteration (cg, bicgstab), residual norms (gmres), as SciPy counts them
    got, want = [], []
    mla.cg(msp.csr_array(hermitian(6)), b, rtol=1e-8, callback=lambda xk: got.append(1))
    sla.cg(hermitian(6), b, rtol=1e-8, callback=lambda xk: want.append(1))
    assert abs(len(got) - len(want)) <= 2, (len(got), len(want))
    res = []
    x, info = mla.gmres(msp.csr_array(G), b, rtol=1e-8, restart=5, callback=res.append, callback_type="pr_norm")
    assert info == 0 and len(res) > 5 and res[-1] <= 1e-8 and all(r >= 0 for r in res)
    xs = []
    x, info = mla.gmres(msp.csr_array(G), b, rtol=1e-8, restart=5, callback=xs.append, callback_type="x")
    assert info == 0 and len(xs) >= 2 and _residual(G, xs[-1], b) <= 1e-8
    # too few iterations: info is maxiter, as SciPy
    x, info = mla.gmres(msp.csr_array(G), b, rtol=1e-12, restart=2, maxiter=1)
    assert info == 1
    x, info = mla.bicgstab(msp.csr_array(G), b, rtol=1e-12, maxiter=2)
    assert info == 2


def test_complex_edge_cases_as_scipy():
    G = helmholtz(5, 0.5j)
    n = G.shape[0]
    # b = 0: SciPy's answer is zeros, info 0, whatever x0
    for method in ("cg", "bicgstab", "gmres"):
        A = hermitian(5) if method == "cg" else G
        x, info = getattr(mla, method)(msp.csr_array(A), numpy.zeros(n, complex), x0=numpy.ones(n, complex))
        xs, infos = getattr(sla, method)(A, numpy.zeros(n, complex), x0=numpy.ones(n, complex))
        assert info == infos == 0 and numpy.array_equal(numpy.asarray(x), xs), (method, numpy.asarray(x))
    # a complex x0 for a real system: cast to real with NumPy's ComplexWarning, a real answer
    L = poisson2d(5)
    b = numpy.arange(25.0)
    with pytest.warns(numpy.exceptions.ComplexWarning):
        x, info = mla.cg(msp.csr_array(L), b, x0=numpy.ones(25) + 1j, rtol=1e-10)
    assert info == 0 and x.dtype == numpy.float64 and _residual(L, x, b) < 1e-9
    # jacobi on a zero diagonal entry: refused naming the row, as the real solvers do
    Z = ssp.csr_array(G.tolil())
    Z[3, 3] = 0
    Z.eliminate_zeros()
    with pytest.raises(ValueError, match="row 3"):
        mla.gmres(msp.csr_array(Z), numpy.ones(n, complex), M="jacobi")


def test_complex_cg_stops_on_an_indefinite_operator():
    A = ssp.diags_array([1.0 + 0j, -1.0, 2.0, 3.0])
    x, info = mla.cg(msp.csr_array(A), numpy.array([1, 1, 1, 1j]), rtol=1e-10)
    assert info == -20


@pytest.mark.parametrize("partition", [None, "metis"])
def test_integer_matrix_solves_as_float64(partition):
    """An integer matrix (SciPy keeps int64) is solved as float64, converted
    once and kept for the next solve while the matrix is unchanged"""
    A = ssp.csr_array(poisson2d(6).astype(numpy.int64))
    b = numpy.arange(36.0)
    M = msp.csr_array(A, partition=partition)
    want = sla.spsolve(A.astype(float).tocsc(), b)
    for method in ("cg", "bicgstab", "gmres"):
        x, info = getattr(mla, method)(M, b, rtol=1e-12)
        assert info == 0 and x.dtype == numpy.float64
        nt.assert_allclose(numpy.asarray(x), want, rtol=0, atol=1e-9)
    kept = M._cast[2]
    mla.cg(M, b, rtol=1e-12)
    assert M._cast[2] is kept
    x, info = mla.minres(M, b, shift=0.5, rtol=1e-12)
    nt.assert_allclose(numpy.asarray(x), sla.spsolve((A - 0.5 * ssp.eye_array(36)).tocsc(), b), rtol=0, atol=1e-9)


@pytest.mark.parametrize("ka", ["csc_matrix", "csr_matrix", "csc_array", "csr_array", "coo_matrix", "coo_array"])
@pytest.mark.parametrize("kb", ["csc_matrix", "csr_array"])
def test_spsolve_of_a_sparse_right_hand_side_has_scipys_class(ka, kb):
    """x of A's class where A is csr or csc (a *_matrix, whose * is the
    matrix product), else csc_array; maniple gave an *_array always, so
    x * A multiplied element by element."""
    import warnings
    import scipy.sparse as ssp
    import scipy.sparse.linalg as ssl
    import maniple.sparse as msp
    import maniple.sparse.linalg as msl
    a = numpy.array([[2.0, 1.0, 0.0], [0.0, 4.0, 1.0], [1.0, 0.0, 3.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = ssl.spsolve(getattr(ssp, ka)(a), getattr(ssp, kb)(numpy.eye(3)))
        got = msl.spsolve(getattr(msp, ka)(a), getattr(msp, kb)(numpy.eye(3)))
    assert type(got).__name__ == type(want).__name__, (type(got), type(want))
    numpy.testing.assert_allclose(got.toarray(), want.toarray(), rtol=1e-14)
    if "matrix" in type(want).__name__:
        numpy.testing.assert_allclose((got * getattr(msp, ka)(a)).toarray(), numpy.eye(3), atol=1e-14)
