"""maniple.numpy.linalg against numpy.linalg, on every rank under mpiexec
-n 1, 2, 3: the gathered factorizations and solvers (NumPy's LAPACK on one
rank, results on every rank, errors raised on every rank) and the native
norms."""
import re

import numpy
import pytest

import maniple
import maniple.numpy as np

la = np.linalg
inf = numpy.inf
# NumPy's own divide-by-zero warnings (norms of negative order), and the
# announcement of the one fallback used here (matrix_power)
pytestmark = [pytest.mark.filterwarnings("ignore::RuntimeWarning"),
              pytest.mark.filterwarnings("ignore:maniple.numpy. numpy.linalg.matrix_power:UserWarning")]


def to_maniple(obj):
    if isinstance(obj, numpy.ndarray):
        return np.asarray(obj)
    if isinstance(obj, (list, tuple)):
        return type(obj)(to_maniple(x) for x in obj)
    return obj


def rtol_for(dtype):
    return 2e-5 if numpy.dtype(dtype) == numpy.float32 else 1e-11


def same(got, want, atol=0.0):
    """maniple's result equals NumPy's: structure, types, dtypes, values."""
    if isinstance(want, numpy.ndarray):
        assert isinstance(got, np.ndarray), f"{type(got)} instead of a maniple array"
        assert got.shape == want.shape and got.dtype == want.dtype, (got.shape, got.dtype, want.shape, want.dtype)
        numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=rtol_for(want.dtype), atol=atol)
    elif isinstance(want, tuple):
        assert type(got) is type(want) and len(got) == len(want)
        for g, w in zip(got, want):
            same(g, w, atol)
    else:
        assert type(got) is type(want), (type(got), type(want))
        if isinstance(want, (float, numpy.floating)):
            numpy.testing.assert_allclose(got, want, rtol=rtol_for(numpy.asarray(want).dtype), atol=atol)
        else:
            assert got == want


def compare(name, *args, atol=0.0, **kwargs):
    """maniple.numpy.linalg.name against numpy.linalg.name on the same
    arguments: the same result, or the same exception and message."""
    try:
        want = getattr(numpy.linalg, name)(*args, **kwargs)
    except Exception as e:
        with pytest.raises(type(e), match=re.escape(str(e))):
            getattr(la, name)(*to_maniple(args), **kwargs)
        return
    same(getattr(la, name)(*to_maniple(args), **kwargs), want, atol)


def spd(n, dtype="float64", seed=0):
    m = numpy.random.default_rng(seed).standard_normal((n, n))
    return (m @ m.T + n * numpy.eye(n)).astype(dtype)


def general(n, dtype="float64", seed=1):
    if numpy.dtype(dtype).kind in "iu":
        return (numpy.random.default_rng(seed).integers(-5, 6, (n, n)) + 12 * numpy.eye(n, dtype=int)).astype(dtype)
    return (numpy.random.default_rng(seed).standard_normal((n, n)) + n * numpy.eye(n)).astype(dtype)


SIZES = [0, 1, 2, 5]
DTYPES = ["int32", "int64", "float32", "float64"]


def test_names_and_kinds():
    assert la.LinAlgError is numpy.linalg.LinAlgError
    for name in ("eig", "eigvals", "pinv", "tensorinv", "tensorsolve"):
        assert getattr(la, name)._mn_kind == "gathered", name
    # on every rank for large matrices (test_linalg_factor.py)
    for name in ("norm", "vector_norm", "matrix_norm", "matrix_transpose", "matmul", "solve", "inv", "det", "slogdet",
                 "lstsq", "matrix_rank", "cond", "cholesky", "qr", "eigh", "eigvalsh", "svd", "svdvals"):
        assert getattr(getattr(la, name), "_mn_kind", None) is None, name


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("dtype", DTYPES)
def test_square_functions(n, dtype):
    a = general(n, dtype)
    compare("inv", a)
    compare("det", a)
    compare("slogdet", a)
    compare("solve", a, numpy.arange(n, dtype=dtype))
    compare("solve", a, numpy.arange(2 * n, dtype=dtype).reshape(n, 2))
    compare("pinv", a, atol=1e-12)
    compare("matrix_rank", a)
    compare("matrix_power", a, 3) if n else None
    s = spd(n, dtype if dtype.startswith("float") else "float64")
    compare("cholesky", s)
    compare("cholesky", s, upper=True)
    compare("eigh", s)
    compare("eigh", s, UPLO="U")
    compare("eigvalsh", s)
    compare("eig", s)       # symmetric: real eigenvalues, real results
    compare("eigvals", s)
    if n:
        compare("cond", a)
        compare("cond", a, "fro")
        compare("cond", a, 1)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (2, 1), (6, 3), (3, 6)])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
def test_rectangular_functions(shape, dtype):
    a = (numpy.arange(numpy.prod(shape)).reshape(shape) % 7 + numpy.eye(*shape) * 3).astype(dtype)
    for mode in ("reduced", "complete", "r"):
        compare("qr", a, mode=mode)
    compare("svd", a)
    compare("svd", a, full_matrices=False)
    compare("svd", a, compute_uv=False)
    compare("svdvals", a)
    compare("pinv", a, atol=1e-12)
    compare("matrix_rank", a)
    compare("lstsq", a, numpy.arange(shape[0], dtype=dtype), rcond=None)


def test_stacked_and_tensor_functions():
    rng = numpy.random.default_rng(5)
    st = rng.standard_normal((3, 4, 4)) + 4 * numpy.eye(4)
    compare("inv", st)
    compare("det", st)
    compare("slogdet", st)
    compare("solve", st, rng.standard_normal((3, 4, 2)))
    compare("svdvals", st)
    t = rng.standard_normal((4, 6, 8, 3))
    compare("tensorinv", t, ind=2)
    compare("tensorsolve", rng.standard_normal((2, 3, 6)), rng.standard_normal((2, 3)))


def test_results_on_every_rank_are_distributed():
    a = general(5)
    x = la.solve(np.asarray(a), np.ones(5))
    assert isinstance(x, np.ndarray)
    numpy.testing.assert_allclose(numpy.asarray(np.dot(np.asarray(a), x)), numpy.ones(5), rtol=1e-12)
    d = la.det(np.asarray(a))
    assert isinstance(d, numpy.float64)
    # NumPy's own functions route here too
    r = numpy.linalg.inv(np.asarray(a))
    assert isinstance(r, np.ndarray)
    numpy.testing.assert_allclose(numpy.asarray(r), numpy.linalg.inv(a), rtol=1e-12)


def test_errors_are_raised_on_every_rank():
    """NumPy raises on one rank; every rank raises NumPy's exception, with
    its message, and stays in step."""
    with pytest.raises(la.LinAlgError, match="Singular matrix"):
        la.inv(np.zeros((3, 3)))
    with pytest.raises(numpy.linalg.LinAlgError, match="Singular matrix"):
        la.solve(np.asarray([[1.0, 2.0], [2.0, 4.0]]), np.ones(2))
    with pytest.raises(la.LinAlgError, match="not positive definite"):
        la.cholesky(np.asarray([[1.0, 2.0], [2.0, 1.0]]))
    with pytest.raises(la.LinAlgError, match="must be square"):
        la.inv(np.ones((2, 3)))
    with pytest.raises(la.LinAlgError, match="must be square"):
        la.det(np.ones((3, 2)))
    with pytest.raises(la.LinAlgError, match="1-dimensional array given"):
        la.inv(np.ones(3))
    with pytest.raises(la.LinAlgError, match="0-dimensional array given"):
        la.eigh(np.asarray(2.0))
    with pytest.raises(ValueError):
        la.solve(np.eye(3), np.ones(4))
    assert float(np.sum(np.ones(7))) == 7.0  # every rank still in step


def test_eigenvalues_have_numpys_dtype():
    """complex where NumPy gives complex (a rotation), as maniple arrays"""
    rot = numpy.asarray([[0.0, -1.0], [1.0, 0.0]])
    for a in (rot, numpy.asarray([[2.0, 1.0], [0.0, 3.0]])):
        w, want = la.eigvals(np.asarray(a)), numpy.linalg.eigvals(a)
        assert isinstance(w, np.ndarray) and w.dtype == want.dtype
        numpy.testing.assert_allclose(numpy.sort_complex(numpy.asarray(w)), numpy.sort_complex(want), atol=1e-14)
        r, want = la.eig(np.asarray(a)), numpy.linalg.eig(a)
        assert r.eigenvectors.dtype == want.eigenvectors.dtype
        numpy.testing.assert_allclose(numpy.asarray(r.eigenvectors), want.eigenvectors, atol=1e-14)


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_norms_of_complex(dt):
    """NumPy's: norms of |x| (the spectral ones of x itself), in float32 for complex64."""
    x = (numpy.arange(12.0).reshape(3, 4) - 5 + 1j * (numpy.arange(12.0).reshape(3, 4) % 5 - 2)).astype(dt)
    tol = 1e-5 if dt == "complex64" else 1e-13
    for ord in (None, 1, 2, inf, -inf, 3):
        got, want = la.norm(np.asarray(x[0]), ord), numpy.linalg.norm(x[0], ord)
        assert numpy.asarray(got).dtype == want.dtype
        numpy.testing.assert_allclose(got, want, rtol=tol)
    for ord in (None, "fro", 1, -1, inf, 2, "nuc"):
        got, want = la.norm(np.asarray(x), ord), numpy.linalg.norm(x, ord)
        assert numpy.asarray(got).dtype == want.dtype, ord
        numpy.testing.assert_allclose(got, want, rtol=tol)
    numpy.testing.assert_allclose(la.vector_norm(np.asarray(x), axis=1), numpy.linalg.vector_norm(x, axis=1),
                                  rtol=tol)


# ---- norms (native) ----
VECTOR_ORDS = [None, 2, 1, inf, -inf, 0, 3, -1, 0.5]


@pytest.mark.parametrize("shape", [(0,), (1,), (2,), (5,), (4, 3), (2, 3, 4), ()])
@pytest.mark.parametrize("dtype", ["int32", "float32", "float64"])
def test_vector_norm(shape, dtype):
    x = ((numpy.arange(numpy.prod(shape, dtype=int)) % 5 - 2) * 1.5).reshape(shape).astype(dtype)
    nd = len(shape)
    axes = [None] + list(range(-nd, nd)) + ([(0, nd - 1)] if nd >= 2 else []) + ([(2, 0)] if nd == 3 else [])
    for ord in VECTOR_ORDS[1:]:
        for axis in axes:
            for keepdims in (False, True):
                compare("vector_norm", x, ord=ord, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("shape", [(0, 0), (1, 1), (2, 3), (4, 3), (3, 2, 4), (2, 0, 3)])
@pytest.mark.parametrize("dtype", ["int64", "float32", "float64"])
def test_matrix_norm(shape, dtype):
    x = ((numpy.arange(numpy.prod(shape, dtype=int)) % 7 - 3) * 0.75).reshape(shape).astype(dtype)
    for ord in ("fro", 1, -1, inf, -inf, 2, -2, "nuc", 3):
        for keepdims in (False, True):
            compare("matrix_norm", x, ord=ord, keepdims=keepdims)


@pytest.mark.parametrize("shape", [(5,), (4, 3), (2, 3, 4), (1, 1), (0,)])
def test_norm(shape):
    x = ((numpy.arange(numpy.prod(shape, dtype=int)) % 5 - 2) * 1.25).reshape(shape)
    nd = len(shape)
    axes = [None] + list(range(nd)) + ([(0, 1), (1, 0), (-1, 0)] if nd >= 2 else [])
    for axis in axes:
        for ord in VECTOR_ORDS + ["fro", "nuc", 2, -2, "f"]:
            for keepdims in (False, True):
                compare("norm", x, ord=ord, axis=axis, keepdims=keepdims)


@pytest.mark.parametrize("shape", [(5,), (4, 3), (2, 3, 4)])
def test_norms_of_float16_are_float16(shape):
    """NumPy's float16 norms are float16 (rounded here from float64); those
    from singular values are its linalg's TypeError."""
    x = ((numpy.arange(numpy.prod(shape, dtype=int)) % 5 - 2) * 1.25).reshape(shape).astype("float16")
    nd = len(shape)
    for axis in [None, -1] + ([(0, 1)] if nd >= 2 else []):
        for ord in [None, 1, inf, -inf] + (["fro", 2, "nuc"] if axis == (0, 1) or (axis is None and nd == 2) else
                                          [0, 3]):
            if axis is None and nd == 3 and ord is not None:
                continue
            compare("norm", x, ord=ord, axis=axis)
    compare("vector_norm", x, ord=3)
    if nd >= 2:
        for ord in ("fro", 1, 2, "nuc"):
            compare("matrix_norm", x, ord=ord)


def test_norm_errors():
    compare("norm", numpy.ones((2, 2)), axis=(0, 0))       # duplicate axes
    compare("norm", numpy.ones((2, 2, 2)), ord=1)           # improper dimensions
    compare("norm", numpy.ones(3), axis=2)                  # AxisError
    compare("matrix_norm", numpy.ones(3))
    compare("vector_norm", numpy.ones(3), ord="fro")
    compare("vector_norm", numpy.ones((2, 3)), axis=(0, 0))
    compare("norm", numpy.ones((2, 2)), ord=3, axis=(0, 1))


def test_norm_of_a_distributed_vector_is_native():
    x = np.arange(1000) * 0.5
    want = numpy.arange(1000) * 0.5
    assert la.norm(x) == pytest.approx(numpy.linalg.norm(want), rel=1e-13)
    assert la.vector_norm(x, ord=1) == pytest.approx(numpy.abs(want).sum(), rel=1e-13)
    assert maniple.size() >= 1


def test_matrix_transpose():
    x = numpy.arange(24.0).reshape(2, 3, 4)
    same(la.matrix_transpose(np.asarray(x)), numpy.linalg.matrix_transpose(x))




@pytest.mark.parametrize("shape", [(4, 4), (3, 5), (2, 3, 4), (2, 2, 5, 3)])
@pytest.mark.parametrize("offset", [0, 1, -2])
def test_linalg_diagonal_of_the_last_two_axes(shape, offset):
    a = numpy.arange(float(numpy.prod(shape))).reshape(shape) * 0.5
    got = np.linalg.diagonal(np.asarray(a), offset=offset)
    want = numpy.linalg.diagonal(a, offset=offset)
    assert got.shape == want.shape
    numpy.testing.assert_array_equal(numpy.asarray(got), want)
