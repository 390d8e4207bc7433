"""maniple.sparse's operators and methods against scipy.sparse, on every
rank under mpiexec -n 1, 2, 3: products with maniple and NumPy vectors and
blocks and with sparse matrices, sums and differences, scalar and
element-wise products, transposes, conversions, reductions, diagonals,
element-wise maps, gathered attributes, *_matrix semantics, errors."""
import numpy
import pytest
import scipy.sparse as ssp

import maniple.numpy as mnp
import maniple.sparse as msp
from spxp import check, compare, mat, raises_like

SHAPES = [(2, 2), (7, 5), (4, 9), (6, 6), (1, 3), (3, 1)]
DT = ["float64", "float32"]
CT = DT + ["complex128", "complex64"]


def tol(*dts):
    return dict(rtol=1e-6, atol=1e-5) if "float32" in dts or "complex64" in dts else {}


def both(s, kind="array"):
    """A body's operand: the same matrix in the module it is given."""
    return lambda sp: getattr(sp, f"csr_{kind}")(s)


@pytest.mark.parametrize("shape", SHAPES + [(0, 3), (3, 0)])
@pytest.mark.parametrize("dtype", CT)
@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_matvec_matmat(shape, dtype, kind):
    s = mat(shape, dtype=dtype, seed=5)
    m, n = shape
    x = numpy.arange(n, dtype=float) - 2
    X = numpy.arange(2 * n, dtype=float).reshape(n, 2) - 3
    w = numpy.arange(m, dtype=float) + 1
    W = numpy.arange(3 * m, dtype=float).reshape(3, m) - 1
    A = both(s, kind)
    check(lambda sp, xp: A(sp) @ x)
    check(lambda sp, xp: A(sp) @ xp.asarray(x))
    check(lambda sp, xp: A(sp) @ X)
    check(lambda sp, xp: A(sp).dot(xp.asarray(X)))
    check(lambda sp, xp: A(sp) @ x.astype(numpy.float32))
    check(lambda sp, xp: A(sp) @ numpy.arange(n))  # an integer vector
    check(lambda sp, xp: w @ A(sp))
    check(lambda sp, xp: xp.asarray(w) @ A(sp))
    check(lambda sp, xp: W @ A(sp))
    check(lambda sp, xp: A(sp) @ X[:, :1])
    z = x + 1j * (numpy.arange(n) % 3)  # a complex vector: a real matrix's product is complex
    check(lambda sp, xp: A(sp) @ z, **tol(dtype))
    check(lambda sp, xp: A(sp) @ xp.asarray(z), **tol(dtype))
    check(lambda sp, xp: xp.asarray(w + 0.5j) @ A(sp), **tol(dtype))
    check(lambda sp, xp: A(sp).conj().T @ xp.asarray(w), **tol(dtype))


@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_star_is_elementwise_for_arrays_and_matmul_for_matrices(kind):
    s, t = mat((5, 4), seed=6), mat((5, 4), seed=7)
    u = mat((4, 3), seed=8)
    x = numpy.arange(4.0)
    check(lambda sp, xp: 2 * getattr(sp, f"csr_{kind}")(s))
    check(lambda sp, xp: getattr(sp, f"csr_{kind}")(s) * 0.5)
    if kind == "array":
        check(lambda sp, xp: sp.csr_array(s) * sp.csr_array(t))
    else:
        check(lambda sp, xp: sp.csr_matrix(s) * sp.csr_matrix(u))
        check(lambda sp, xp: sp.csr_matrix(s) * x)
        check(lambda sp, xp: numpy.arange(5.0) * sp.csr_matrix(s))
        sq = mat((4, 4), seed=9)
        for p in (1, 2, 3, 5):
            check(lambda sp, xp: sp.csr_matrix(sq) ** p)
        # SciPy 1.17 gives a dia_array for a matrix's zeroth power; maniple the identity matrix
        check(lambda sp, xp: (sp.csr_matrix(sq) ** 0).toarray())
        raises_like(lambda sp, xp: sp.csr_matrix(s) ** 2, TypeError)


@pytest.mark.parametrize("sa,sb", [((5, 4), (4, 6)), ((2, 2), (2, 2)), ((1, 3), (3, 1)), ((6, 3), (3, 0)),
                                   ((4, 7), (7, 4))])
@pytest.mark.parametrize("da,db", [("float64", "float64"), ("float32", "float32"), ("float32", "float64")])
def test_sparse_matmul(sa, sb, da, db):
    a, b = mat(sa, dtype=da, seed=10), mat(sb, dtype=db, seed=11)
    check(lambda sp, xp: sp.csr_array(a) @ sp.csr_array(b))
    check(lambda sp, xp: sp.csr_matrix(a) @ sp.csc_matrix(b))
    check(lambda sp, xp: sp.csr_array(a) @ ssp.csr_array(b))  # a SciPy operand is converted


@pytest.mark.parametrize("shape", SHAPES + [(0, 0)])
@pytest.mark.parametrize("da,db", [("float64", "float64"), ("float32", "float32"), ("float32", "float64")])
def test_add_sub_neg(shape, da, db):
    a, b = mat(shape, dtype=da, seed=12), mat(shape, dtype=db, seed=13)
    A, B = both(a), both(b)
    check(lambda sp, xp: A(sp) + B(sp))
    check(lambda sp, xp: A(sp) - B(sp))
    check(lambda sp, xp: -A(sp))
    check(lambda sp, xp: A(sp) + 0)
    check(lambda sp, xp: A(sp) - A(sp))
    d = numpy.arange(shape[0] * shape[1], dtype=float).reshape(shape)
    check(lambda sp, xp: A(sp) + d)
    check(lambda sp, xp: A(sp) - xp.asarray(d))
    check(lambda sp, xp: d - A(sp))
    check(lambda sp, xp: xp.asarray(d) + A(sp))


def test_add_errors():
    a, b = mat((3, 4), seed=14), mat((4, 3), seed=15)
    raises_like(lambda sp, xp: sp.csr_array(a) + sp.csr_array(b), ValueError)
    raises_like(lambda sp, xp: sp.csr_array(a) - sp.csr_array(b), ValueError)
    raises_like(lambda sp, xp: sp.csr_array(a) + 1.0, NotImplementedError)
    raises_like(lambda sp, xp: sp.csr_array(a) + numpy.ones((4, 3)), ValueError)


def test_product_errors():
    a = mat((3, 4), seed=16)
    A = both(a)
    raises_like(lambda sp, xp: A(sp) @ numpy.ones(3), ValueError)
    raises_like(lambda sp, xp: A(sp) @ xp.ones(3), ValueError)
    raises_like(lambda sp, xp: A(sp) @ numpy.ones((3, 2)), ValueError)
    raises_like(lambda sp, xp: numpy.ones(4) @ A(sp), ValueError)
    raises_like(lambda sp, xp: A(sp) @ sp.csr_array(a), ValueError)
    raises_like(lambda sp, xp: A(sp) @ 2.0, ValueError)
    raises_like(lambda sp, xp: A(sp) / 0, ZeroDivisionError)
    raises_like(lambda sp, xp: A(sp).multiply(numpy.ones((4, 4))), ValueError)
    raises_like(lambda sp, xp: A(sp).multiply(sp.csr_array(numpy.ones((4, 3)))), ValueError)
    raises_like(lambda sp, xp: A(sp).sum(axis=2), ValueError)
    raises_like(lambda sp, xp: len(A(sp)), TypeError)
    raises_like(lambda sp, xp: bool(A(sp)), ValueError)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("dtype", CT)
def test_multiply(shape, dtype):
    a, b = mat(shape, dtype=dtype, seed=17), mat(shape, dtype=dtype, density=0.7, seed=18)
    A = both(a)
    m, n = shape
    d = numpy.arange(m * n, dtype=float).reshape(shape) - 3
    check(lambda sp, xp: A(sp).multiply(sp.csr_array(b)))
    check(lambda sp, xp: A(sp).multiply(2.5))
    check(lambda sp, xp: A(sp).multiply(d))
    check(lambda sp, xp: A(sp).multiply(xp.asarray(d)))
    # broadcast over rows and columns (SciPy's format of the result varies with the shapes)
    check(lambda sp, xp: A(sp).multiply(numpy.arange(n, dtype=float)), fmt=False)
    check(lambda sp, xp: A(sp).multiply(xp.asarray(numpy.arange(m, dtype=float).reshape(m, 1))), fmt=False)
    check(lambda sp, xp: A(sp) * d)
    check(lambda sp, xp: sp.csr_matrix(a).multiply(d))


@pytest.mark.parametrize("dtype", CT)
def test_scalar_ops(dtype):
    a = mat((6, 5), dtype=dtype, seed=19)
    A = both(a)
    for s in (2, 0.1, -3.0, numpy.float32(1.5), numpy.float64(0.3), 2j, numpy.complex64(1 - 1j)):
        check(lambda sp, xp: A(sp) * s)
        check(lambda sp, xp: s * A(sp))
        check(lambda sp, xp: A(sp) / s)
    B, Bs = msp.csr_array(a), ssp.csr_array(a, copy=True)
    B *= 3
    Bs *= 3
    compare(B, Bs)
    B /= 3  # SciPy's in-place division keeps the dtype (float32 stays)
    Bs /= 3
    compare(B, Bs)


@pytest.mark.parametrize("shape", SHAPES + [(0, 2)])
@pytest.mark.parametrize("fmt", ["csr", "csc", "coo"])
def test_transpose_and_conversions(shape, fmt):
    a = mat(shape, seed=20)
    A = lambda sp: getattr(sp, f"{fmt}_array")(a)  # noqa: E731
    check(lambda sp, xp: A(sp).T)
    check(lambda sp, xp: A(sp).transpose())
    check(lambda sp, xp: A(sp).T.T)
    check(lambda sp, xp: A(sp).tocsr())
    check(lambda sp, xp: A(sp).tocsc())
    check(lambda sp, xp: A(sp).tocoo())
    check(lambda sp, xp: A(sp).asformat("csr"))
    check(lambda sp, xp: A(sp).toarray())
    check(lambda sp, xp: A(sp).todense())
    check(lambda sp, xp: A(sp).copy())
    check(lambda sp, xp: A(sp).astype(numpy.float32))
    check(lambda sp, xp: A(sp).astype(numpy.float32).astype("float64"))
    check(lambda sp, xp: sp.csr_matrix(a).T)


@pytest.mark.parametrize("shape", SHAPES + [(0, 3)])
@pytest.mark.parametrize("dtype", CT)
@pytest.mark.parametrize("kind", ["array", "matrix"])
def test_reductions(shape, dtype, kind):
    a = mat(shape, dtype=dtype, seed=21)
    A = both(a, kind)
    check(lambda sp, xp: A(sp).sum())
    check(lambda sp, xp: A(sp).sum(axis=0))
    check(lambda sp, xp: A(sp).sum(axis=1))
    check(lambda sp, xp: A(sp).sum(axis=-1))
    wide = numpy.complex128 if numpy.dtype(dtype).kind == "c" else numpy.float64
    check(lambda sp, xp: A(sp).sum(axis=0, dtype=wide))
    if shape[0] and shape[1]:
        check(lambda sp, xp: A(sp).mean(), **tol(dtype, "float32"))
        check(lambda sp, xp: A(sp).mean(axis=0), **tol(dtype, "float32"))
        check(lambda sp, xp: A(sp).mean(axis=1), **tol(dtype, "float32"))
        check(lambda sp, xp: A(sp).max())
        check(lambda sp, xp: A(sp).min())
    check(lambda sp, xp: A(sp).count_nonzero())
    check(lambda sp, xp: A(sp).nnz)
    check(lambda sp, xp: A(sp).shape)
    check(lambda sp, xp: A(sp).ndim)
    check(lambda sp, xp: A(sp).size)
    for k in (0, 1, -1, 2, -4, 10):
        check(lambda sp, xp: A(sp).diagonal(k))
        check(lambda sp, xp: A(sp).trace(k))


def test_matrix_axis_sums_are_2d():
    a = mat((4, 3), seed=22)
    s0, s1 = msp.csr_matrix(a).sum(axis=0), msp.csr_matrix(a).sum(axis=1)
    assert s0.shape == (1, 3) and s1.shape == (4, 1)
    assert msp.csr_array(a).sum(axis=0).shape == (3,)


@pytest.mark.parametrize("dtype", CT)
def test_elementwise_maps(dtype):
    a = mat((6, 5), dtype=dtype, seed=23)
    A = both(a)
    cplx = numpy.dtype(dtype).kind == "c"
    check(lambda sp, xp: abs(A(sp)))
    check(lambda sp, xp: A(sp).power(2))
    check(lambda sp, xp: A(sp).power(3, dtype=numpy.complex128 if cplx else numpy.float64))
    check(lambda sp, xp: A(sp) ** 2)
    check(lambda sp, xp: A(sp).conj().T)
    check(lambda sp, xp: sp.csr_matrix(a).getH())
    real_only = ("floor", "ceil", "trunc", "deg2rad")  # NumPy's TypeError for complex
    for name in ("sign", "floor", "ceil", "trunc", "rint", "sin", "tanh", "expm1", "deg2rad", "arctan"):
        if cplx and name in real_only:
            raises_like(lambda sp, xp: getattr(A(sp), name)(), TypeError)
            continue
        check(lambda sp, xp: getattr(A(sp), name)(), **tol(dtype))
    p = abs(a)
    check(lambda sp, xp: sp.csr_array(p).sqrt(), **tol(dtype))
    check(lambda sp, xp: sp.csr_array(p).log1p(), **tol(dtype))
    check(lambda sp, xp: A(sp).conj())
    check(lambda sp, xp: A(sp).real)
    check(lambda sp, xp: A(sp).imag)
    raises_like(lambda sp, xp: A(sp).power(0), NotImplementedError)


def test_zero_handling_and_canonical_no_ops():
    d = numpy.array([[0.0, 1.0, 0.0], [2.0, 0.0, 0.0], [0.0, 0.0, 3.0]])
    r, c, v = [0, 0, 1, 2, 2], [0, 1, 0, 2, 1], [0.0, 1.0, 2.0, 3.0, 0.0]
    for sp in (ssp, msp):
        a = sp.csr_array((v, (r, c)), shape=(3, 3))
        assert a.nnz == 5 and a.count_nonzero() == 3
        a.sum_duplicates()
        a.sort_indices()
        assert a.has_sorted_indices and a.has_canonical_format
        a.eliminate_zeros()
        assert a.nnz == 3
        numpy.testing.assert_array_equal(numpy.asarray(a.toarray()), d)
        assert a.sorted_indices().nnz == 3


@pytest.mark.parametrize("shape", [(2, 2), (7, 5), (3, 0), (1, 6)])
def test_gathered_attributes(shape):
    a = mat(shape, seed=24)
    for fmt in ("csr", "csc"):
        s, g = getattr(ssp, f"{fmt}_array")(a), getattr(msp, f"{fmt}_array")(a)
        for attr in ("data", "indices", "indptr"):
            numpy.testing.assert_array_equal(getattr(g, attr), getattr(s, attr))
            assert getattr(g, attr).dtype == getattr(s, attr).dtype, attr
    s, g = ssp.coo_array(a), msp.coo_array(a)
    for attr in ("row", "col", "data"):
        numpy.testing.assert_array_equal(getattr(g, attr), getattr(s, attr))
    numpy.testing.assert_array_equal(g.coords, s.coords)
    s, g = ssp.csr_array(a), msp.csr_array(a)
    for x, y in zip(g.nonzero(), s.nonzero()):
        numpy.testing.assert_array_equal(x, y)
    if shape == (7, 5):
        s, g = ssp.dia_array(a.toarray()), msp.dia_array(a.toarray())
        numpy.testing.assert_array_equal(g.offsets, s.offsets)
        numpy.testing.assert_array_equal(g.data, s.data)


def test_str_and_repr():
    a = mat((5, 4), seed=25)
    for kind in ("array", "matrix"):
        for fmt in ("csr", "csc", "coo"):
            s = getattr(ssp, f"{fmt}_{kind}")(a)
            g = getattr(msp, f"{fmt}_{kind}")(a)
            assert repr(g) == repr(s)
        assert str(msp.csr_array(a)) == str(ssp.csr_array(a))
    big = mat((30, 30), density=0.5, seed=26)
    assert str(msp.csr_array(big)).splitlines()[:5] == str(ssp.csr_array(big)).splitlines()[:5]


def test_numpy_operands_defer_to_sparse():
    a = mat((3, 4), seed=27)
    x = numpy.arange(3.0)
    got = x @ msp.csr_array(a)
    assert isinstance(got, mnp.ndarray)
    numpy.testing.assert_array_equal(numpy.asarray(got), x @ a)
    got = mnp.asarray(x) @ msp.csr_array(a)
    numpy.testing.assert_array_equal(numpy.asarray(got), x @ a)


INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool"]


@pytest.mark.parametrize("dtype", INTS)
def test_integer_and_bool_matrices_as_scipy(dtype):
    """SciPy's dtypes and values: products wrap in the matrix's dtype (int8
    100 * 3), sums and means widen, a float operand makes the result float."""
    rng = numpy.random.default_rng(31)
    d = rng.integers(-100 if dtype[0] == "i" else 0, 120, size=(7, 6)) * (rng.random((7, 6)) < 0.5)
    d = d.astype(dtype)
    x = (numpy.arange(6) % 4).astype(dtype)
    w = (numpy.arange(7) % 3).astype(dtype)
    for name in ("csr_array", "csr_matrix"):
        A = lambda sp: getattr(sp, name)(d)  # noqa: E731
        check(lambda sp, xp: A(sp).sum())
        check(lambda sp, xp: A(sp).sum(axis=0))
        check(lambda sp, xp: A(sp).sum(axis=1))
        check(lambda sp, xp: A(sp).mean(), rtol=1e-14)  # (SciPy divides before it sums)
        check(lambda sp, xp: A(sp).mean(axis=1), rtol=1e-14)
        check(lambda sp, xp: A(sp) @ x)
        check(lambda sp, xp: A(sp) @ xp.asarray(x))
        check(lambda sp, xp: w @ A(sp))
        check(lambda sp, xp: A(sp) @ numpy.arange(6.0))
        check(lambda sp, xp: A(sp) @ A(sp).T)
        check(lambda sp, xp: A(sp) + A(sp))
        check(lambda sp, xp: A(sp).diagonal())
        check(lambda sp, xp: A(sp).T)
        check(lambda sp, xp: A(sp).max())
        check(lambda sp, xp: A(sp).astype(numpy.float64))
        check(lambda sp, xp: A(sp) / 2)
        check(lambda sp, xp: A(sp).multiply(A(sp)))
        check(lambda sp, xp: A(sp).toarray())
        if dtype != "bool":
            check(lambda sp, xp: A(sp) * 3)
            check(lambda sp, xp: A(sp) - A(sp).T.T)
            check(lambda sp, xp: abs(A(sp)))
            check(lambda sp, xp: A(sp).power(2))
        else:
            raises_like(lambda sp, xp: -A(sp), NotImplementedError)
    # an integer matrix and a float vector from maniple.numpy: float64, as NumPy
    check(lambda sp, xp: sp.csr_array(d) @ xp.asarray(numpy.arange(6.0) / 3))
    # products in a loop convert the matrix once, and again after it changes
    B = msp.csr_array(d)
    y1, y2 = B @ numpy.ones(6), B @ numpy.ones(6)
    first = B._cast[2]
    B @ numpy.ones(6)
    assert B._cast[2] is first
    compare(y2, numpy.asarray(y1))
    if dtype != "bool":
        B *= 2
        compare(B @ numpy.ones(6), ssp.csr_array(d * 2) @ numpy.ones(6))


def test_matrix_only_methods():
    a = mat((4, 3), seed=28)
    m, s = msp.csr_matrix(a), ssp.csr_matrix(a)
    assert m.getnnz() == s.getnnz() and m.get_shape() == s.get_shape() and m.getformat() == s.getformat()
    compare(m.getH(), s.getH())
    assert not hasattr(msp.csr_array, "getnnz") and not hasattr(ssp.csr_array, "getnnz")


def test_eliminate_zeros_leaves_shared_copies_alone():
    a = msp.csr_array(([0.0, 1.0], ([0, 1], [0, 1])), shape=(2, 2))
    b = a.tocsc()
    c = msp.csr_array(a)
    b.eliminate_zeros()
    assert (a.nnz, b.nnz, c.nnz) == (2, 1, 2)


@pytest.mark.parametrize("shape", [(2, 2), (7, 5), (1, 4), (4, 1), (5, 5)])
@pytest.mark.parametrize("density", [0.3, 1.0])
def test_argmax_argmin_maximum_minimum(shape, density):
    a, b = mat(shape, density=density, seed=29), mat(shape, density=0.5, seed=30)
    A, B = both(a), both(b)
    check(lambda sp, xp: A(sp).argmax())
    check(lambda sp, xp: A(sp).argmin())
    check(lambda sp, xp: abs(A(sp)).argmin())
    check(lambda sp, xp: (-abs(A(sp))).argmax())
    check(lambda sp, xp: sp.csr_array(shape).argmax())
    check(lambda sp, xp: A(sp).maximum(B(sp)), fmt=False)
    check(lambda sp, xp: A(sp).minimum(B(sp)), fmt=False)
    check(lambda sp, xp: A(sp).maximum(-1.0), fmt=False)
    check(lambda sp, xp: A(sp).minimum(0.5), fmt=False)
    raises_like(lambda sp, xp: A(sp).maximum(sp.csr_array((shape[0] + 1, shape[1]))), ValueError)


@pytest.mark.parametrize("kind", ["equal", "metis", "ptscotch", "graph"])
@pytest.mark.parametrize("fmt", ["csr_array", "csr_matrix", "coo_array", "csc_array"])
def test_products_of_partitioned_matrices_are_in_the_users_numbering(kind, fmt):
    """partition= renumbers the matrix behind the scenes; A @ x and A.dot(x)
    give SciPy's answers in the user's numbering."""
    import numpy
    import scipy.sparse as ss
    import maniple.numpy as mnp
    import maniple.sparse as msp
    g = 12
    n = g * g
    rng = numpy.random.default_rng(5)
    perm = rng.permutation(n)
    L = ss.diags([-1.0, -1.0, 4.0, -1.0, -1.0], [-g, -1, 0, 1, g], shape=(n, n), format="csr")
    S = L[perm][:, perm].tocsr()  # a shuffled numbering
    x = rng.standard_normal(n)
    A = getattr(msp, fmt)(S, partition=kind)
    numpy.testing.assert_allclose(numpy.asarray(A @ mnp.asarray(x)), S @ x, rtol=1e-13, atol=1e-13)
    numpy.testing.assert_allclose(numpy.asarray(A.dot(x)), S @ x, rtol=1e-13, atol=1e-13)
    # in-place changes reach the renumbered copy (and an integer one's cast copy)
    A *= 3.0
    numpy.testing.assert_allclose(numpy.asarray(A @ mnp.asarray(x)), 3 * (S @ x), rtol=1e-13, atol=1e-12)
    A /= 6
    numpy.testing.assert_allclose(numpy.asarray(A.dot(x)), 0.5 * (S @ x), rtol=1e-13, atol=1e-12)
    Ai = getattr(msp, fmt)(S.astype(numpy.int64), partition=kind)
    numpy.testing.assert_allclose(numpy.asarray(Ai @ mnp.asarray(x)), S @ x, rtol=1e-13, atol=1e-12)
    Ai *= 2
    numpy.testing.assert_allclose(numpy.asarray(Ai @ mnp.asarray(x)), 2 * (S @ x), rtol=1e-13, atol=1e-12)
    q = A.partition_quality
    assert set(q) == {"edge_cut", "ghost_min", "ghost_max", "ghost_total", "imbalance"}
    import maniple
    if maniple.size() == 1:
        assert q["ghost_total"] == 0 and q["edge_cut"] == 0
    with pytest.raises(ValueError, match="partition"):
        getattr(msp, fmt)(S, partition="spectral")


def test_explicit_extremes_and_out_as_scipy():
    """explicit=True: the stored entries only (argmax/argmin: SciPy's index
    into the stored entries); out= is SciPy's ValueError"""
    d = numpy.array([[-1.0, 0, -2], [0, 0, 0], [-3, -4, 0], [0, -4, -0.5]])
    for name in ("max", "min", "nanmax", "nanmin", "argmax", "argmin"):
        check(lambda sp, xp: getattr(sp.csr_array(d), name)(explicit=True))
        check(lambda sp, xp: getattr(sp.csr_array(d), name)())
        raises_like(lambda sp, xp: getattr(sp.csr_array(d), name)(out=numpy.zeros(1)), ValueError)
    check(lambda sp, xp: sp.csr_array((3, 3)).max(explicit=True))
    raises_like(lambda sp, xp: sp.csr_array((3, 3)).argmax(explicit=True), ValueError)


@pytest.mark.parametrize("kind", ["array", "matrix"])
@pytest.mark.parametrize("dtype, s, op", [
    ("int64", 3, "mul"), ("int32", numpy.int64(5), "mul"), ("float32", 0.1, "mul"), ("float32", 3, "div"),
    ("float32", numpy.float64(3.0), "div"), ("float64", 7, "div"), ("complex128", 2j, "mul"),
    ("complex64", 3, "div"), ("float64", numpy.array(4.0), "div")])
def test_in_place_scalar_keeps_dtype_as_scipy(kind, dtype, s, op):
    """A *= s and A /= s are SciPy's `data *= s` (and times 1/s): the dtype
    stays and the values are NumPy's in-place product, bit for bit."""
    S = ssp.random(7, 5, density=0.5, random_state=3, format="csr") * 10
    S = S.astype(dtype) + (1j * S if "complex" in dtype else 0)
    S = S.astype(dtype)

    def body(sp, xp):
        A = getattr(sp, f"csr_{kind}")(S.copy())  # SciPy's shares S's data
        if op == "mul":
            A *= s
        else:
            A /= s
        return A
    got = check(body)
    assert got.dtype == numpy.dtype(dtype)


@pytest.mark.parametrize("dtype, s, op", [
    ("int64", 2, "div"), ("int64", 2.5, "mul"), ("float64", 1j, "mul"), ("bool", 2, "mul"),
    ("int32", 2 ** 40, "mul")])
def test_in_place_scalar_that_numpy_refuses(dtype, s, op):
    """SciPy raises NumPy's error for an in-place product it cannot cast
    back (an int matrix /= 2): so does maniple, on every rank, with the
    matrix unchanged."""
    S = ssp.csr_array(numpy.array([[2, 0, 1], [0, 4, 0]]).astype(dtype))
    exc = OverflowError if isinstance(s, int) and s > 2 ** 31 else TypeError

    def body(sp, xp):
        A = sp.csr_array(S.copy())
        if op == "mul":
            A *= s
        else:
            A /= s
    raises_like(body, exc)
    A = msp.csr_array(S)
    with pytest.raises(exc):
        A *= s if op == "mul" else 1.0 / s
    numpy.testing.assert_array_equal(A.toarray(), S.toarray())
    assert A.dtype == S.dtype


@pytest.mark.parametrize("kind", ["csr_array", "csc_matrix", "coo_array"])
def test_sums_that_cancel_store_nothing(kind):
    """SciPy's sparse sum and difference store only nonzero results: A - A
    has nnz 0 (maniple kept explicit zeros: right values, other nnz)."""
    import maniple.sparse as msp
    a = numpy.array([[1.0, 0, 2], [0, 3, 0], [4, 0, 0]])
    b = numpy.array([[1.0, 1, 0], [0, 3, 0], [0, 0, 5]])
    for f in (lambda sp: getattr(sp, kind)(a) - getattr(sp, kind)(a),
              lambda sp: getattr(sp, kind)(a) - getattr(sp, kind)(b),
              lambda sp: getattr(sp, kind)(a) + getattr(sp, kind)(-b)):
        want, got = f(ssp), f(msp)
        assert got.nnz == want.nnz, (got.nnz, want.nnz)
        numpy.testing.assert_array_equal(got.toarray(), want.toarray())
