"""The fast paths dense scripts take (issue 22), against NumPy on every
rank under mpiexec -n 1, 2, 3: matrix-vector products read in place by
BLAS (rows, columns and transposed views), vector . matrix with both split
by rows (no gather), dots of vectors, NumPy float64 scalars beside arrays,
pairwise float sums, min/max, and integer-array take/put on row splits."""
import math

import numpy
import pytest

import maniple.numpy as mnp
from xp import check, data

T64 = dict(rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("m,k", [(1, 1), (1, 9), (9, 1), (37, 23), (4, 64), (0, 5), (5, 0),
                                 # narrow widths (arrays/gemv_narrow.c: strips of 32 float64 or 64 float32
                                 # columns, masked tails, row blocks, and past its limit)
                                 (101, 3), (203, 16), (50, 31), (70, 32), (45, 33), (130, 64), (66, 65),
                                 (40, 100), (33, 129)])
def test_matrix_vector_every_orientation(dtype, m, k):
    tol = dict(rtol=2e-5, atol=1e-4) if dtype == "float32" else T64
    A, x, y = data((m, k), dtype, seed=1), data((k,), dtype, seed=2), data((m,), dtype, seed=3)
    check(lambda xp: xp.asarray(A).dot(xp.asarray(x)), **tol)       # A p
    check(lambda xp: xp.asarray(y).dot(xp.asarray(A)), **tol)       # e . X (rows split alike)
    check(lambda xp: xp.asarray(A).T.dot(xp.asarray(y)), **tol)     # X.T e: a transposed view
    check(lambda xp: xp.asarray(x) @ xp.asarray(A).T, **tol)
    check(lambda xp: xp.asarray(A) @ xp.asarray(data((k, 3), dtype, seed=4)), **tol)
    check(lambda xp: xp.asarray(A).T @ xp.asarray(data((m, 2), dtype, seed=5)), **tol)
    W = data((m, k + 5), dtype, seed=6)  # columns of a wider matrix: rows k + 5 apart
    check(lambda xp: xp.asarray(y).dot(xp.asarray(W)[:, 2:k + 2]), **tol)
    check(lambda xp: xp.asarray(W)[:, 1:k + 1].T.dot(xp.asarray(y)), **tol)


def test_products_of_strided_views_fall_back():
    """Views BLAS cannot read in place (steps, reversed) are copied first."""
    A, x = data((30, 20), seed=6), data((40,), seed=7)
    check(lambda xp: xp.asarray(A)[::2, ::-1].dot(xp.asarray(x)[:20]), **T64)
    check(lambda xp: xp.asarray(A)[3:, 1::3] @ xp.asarray(x)[::-6][:7], **T64)
    check(lambda xp: xp.asarray(x)[1:31:1] @ xp.asarray(A)[:, ::2], **T64)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int32", "complex128", "bool"])
def test_vector_dots(dtype):
    a, b = data((101,), dtype, seed=8), data((101,), dtype, seed=9)
    tol = dict(rtol=2e-6, atol=1e-4) if dtype == "float32" else {}
    check(lambda xp: xp.asarray(a).dot(xp.asarray(b)), **tol)
    check(lambda xp: xp.asarray(a) @ xp.asarray(b), **tol)
    check(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b)), **tol)
    check(lambda xp: xp.matmul(xp.asarray(a), xp.asarray(b)), **tol)


def test_vector_dot_mixed_and_out():
    a, b = data((50,), "float32", seed=10), data((50,), "float64", seed=11)
    check(lambda xp: xp.asarray(a).dot(xp.asarray(b)), **T64)
    check(lambda xp: xp.asarray(a).dot(xp.asarray(a)[::-1]), rtol=2e-6)
    out = mnp.zeros(())
    r = mnp.dot(mnp.asarray(b), mnp.asarray(b), out=out)
    assert r is out and float(out) == float(numpy.dot(b, b))


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "complex128", "complex64", "int64", "int8",
                                   "uint8", "bool"])
@pytest.mark.parametrize("op", ["add", "subtract", "multiply", "true_divide"])
def test_numpy_float64_scalar_beside_an_array(dtype, op):
    """NumPy's float64 scalar is strong (NEP 50): float32 arrays become
    float64; on float64 and complex128 arrays it acts as a Python float."""
    a = data((23,), dtype, seed=12)
    s = numpy.float64(0.375)
    f = getattr(numpy, op)
    check(lambda xp: f(s, xp.asarray(a)), rtol=1e-6 if "16" in dtype else 0)
    check(lambda xp: f(xp.asarray(a), s), rtol=1e-6 if "16" in dtype else 0)
    py = {"add": lambda x, y: x + y, "subtract": lambda x, y: x - y, "multiply": lambda x, y: x * y,
          "true_divide": lambda x, y: x / y}[op]
    check(lambda xp: py(s, xp.asarray(a)), rtol=1e-6 if "16" in dtype else 0)
    check(lambda xp: py(xp.asarray(a), s), rtol=1e-6 if "16" in dtype else 0)


def test_numpy_float64_scalar_keywords_still_apply():
    a = data((9,), "float64", seed=13)
    check(lambda xp: numpy.multiply(numpy.float64(2.0), xp.asarray(a), dtype="float32"))
    check(lambda xp: numpy.add(numpy.float64(1.0), xp.asarray(a), where=xp.asarray(a) > 0,
                               out=xp.zeros(9)))


def test_float_sums_are_pairwise():
    """2**20 copies of 0.1: a one-by-one sum is off by about 1e-10
    relatively; a pairwise one stays near the exact value at any rank count."""
    n = 1 << 20
    exact = math.fsum([0.1] * n)
    seq = numpy.cumsum(numpy.full(n, 0.1))[-1]  # the one-by-one order
    assert abs(seq - exact) / exact > 1e-11  # (what the test tells apart)
    got = float(mnp.full(n, 0.1).sum())
    assert abs(got - exact) / exact < 1e-13, (got, exact)
    got32 = float(mnp.full(n, 0.1, dtype="float32").sum())
    want32 = float(numpy.full(n, 0.1, dtype="float32").sum())  # NumPy's pairwise float32
    assert abs(got32 - want32) / want32 < 1e-6
    v = data((3000,), seed=14) * 1e3
    check(lambda xp: xp.sum(xp.asarray(v) ** 2), rtol=1e-14)
    check(lambda xp: xp.linalg.norm(xp.asarray(v)), rtol=1e-14)
    check(lambda xp: xp.abs(xp.asarray(v)).sum(), rtol=1e-14)


@pytest.mark.parametrize("dtype", ["float64", "float32", "float16", "int8", "int64", "uint8", "uint64", "bool"])
@pytest.mark.parametrize("nan", [False, True])
def test_min_max(dtype, nan):
    if nan and numpy.dtype(dtype).kind != "f":
        pytest.skip("no NaN in integers")
    a = data((1500,), dtype, seed=15, nan=nan)
    if dtype == "uint64":
        a = a + numpy.uint64(2**63)  # beyond int64
    for f in ("min", "max"):
        check(lambda xp: getattr(xp.asarray(a), f)())
        check(lambda xp: getattr(xp, f)(xp.asarray(a).reshape(30, 50), axis=0))
    check(lambda xp: xp.asarray(a)[::-7].max())


@pytest.mark.parametrize("dtype", ["float64", "int32", "uint8", "complex128", "bool"])
def test_take_put_on_row_splits(dtype):
    v = data((1000,), dtype, seed=16)
    M = data((60, 7), dtype, seed=17)
    rng = numpy.random.default_rng(18)
    idx = rng.integers(-1000, 1000, 3000)
    ridx = rng.integers(0, 60, 45)
    check(lambda xp: xp.asarray(v)[xp.asarray(idx)])
    check(lambda xp: xp.asarray(M)[xp.asarray(ridx)])
    check(lambda xp: xp.asarray(M)[xp.asarray(ridx), 3])
    check(lambda xp: xp.take(xp.asarray(v), xp.asarray(idx[:10])))
    check(lambda xp: xp.asarray(v)[1::3][xp.asarray(idx[:50] % 333)])  # a view: element by element

    def put(xp):
        x = xp.asarray(v).copy()
        x[xp.asarray(idx)] = xp.asarray(data((3000,), dtype, seed=19))  # repeats: the last wins
        return x
    check(put)

    def put_rows(xp):
        x = xp.asarray(M).copy()
        x[xp.asarray(ridx)] = xp.asarray(data((45, 7), dtype, seed=20))
        return x
    check(put_rows)


def test_take_out_of_bounds_names_the_index():
    v = mnp.arange(10.0)
    with pytest.raises(IndexError, match="index 10 is out of bounds"):
        v[mnp.asarray([0, 10])]
    with pytest.raises(IndexError, match="index -11 is out of bounds"):
        v[mnp.asarray([-11])] = 1.0
    assert numpy.array_equal(numpy.asarray(v), numpy.arange(10.0))  # nothing written


@pytest.mark.parametrize("sub,shapes", [
    ("ij,jk,k->i", [(9, 7), (7, 5), (5,)]), ("ij,jk,kl->il", [(6, 4), (4, 5), (5, 3)]),
    ("ij,jk,kl->", [(6, 4), (4, 5), (5, 3)]), ("i,i,i->i", [(8,), (8,), (8,)]), ("i,i,i->", [(8,), (8,), (8,)]),
    ("ij,ij,ij->j", [(5, 4)] * 3), ("ij,k,jk->ki", [(6, 4), (3,), (4, 3)]), ("...j,jk,k", [(2, 3, 4), (4, 5), (5,)]),
    ("ij,j,j,jk->ik", [(5, 4), (4,), (4,), (4, 3)]), ("ii,i,i->", [(4, 4), (4,), (4,)]),
    ("ij,jk,k->i", [(0, 7), (7, 5), (5,)]), ("ab,bc,cd,de->ae", [(3, 4), (4, 5), (5, 6), (6, 2)])])
@pytest.mark.parametrize("dtype", ["float64", "int64", "complex128"])
def test_einsum_many_operands(sub, shapes, dtype):
    """Three or more operands contracted pairwise in NumPy's greedy order."""
    ops = [data(s, dtype, seed=30 + i) for i, s in enumerate(shapes)]
    check(lambda xp: xp.einsum(sub, *[xp.asarray(o) for o in ops]), rtol=1e-12, atol=1e-9)


@pytest.mark.parametrize("sub,sa,sb", [("ij,ij->", (7, 5), (7, 5)), ("ij,ij->i", (7, 5), (7, 5)),
                                       ("ij,ji->", (7, 5), (5, 7)), ("ij,ij->ij", (7, 5), (7, 5)),
                                       ("i,i->", (9,), (9,)), ("ij,ij->j", (0, 5), (0, 5))])
@pytest.mark.parametrize("dtype", ["float64", "int32", "bool"])
def test_einsum_same_letters(sub, sa, sb, dtype):
    """Both operands with the same letters: one fused product and sum."""
    a, b = data(sa, dtype, seed=40), data(sb, dtype, seed=41)
    check(lambda xp: xp.einsum(sub, xp.asarray(a), xp.asarray(b)), rtol=1e-12)


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("shape,axis", [((40, 30), 0), ((40, 30), 1), ((6, 7, 8), 1), ((6, 7, 8), 2), ((6, 7, 8), 0),
                                        ((1, 9), 0), ((9, 1), 1), ((5, 0), 0)])
def test_axis_sums(dtype, shape, axis):
    """Float sums along an axis, each line in index order (a NaN spreads)."""
    a = data(shape, dtype, seed=50, nan=True)
    tol = dict(rtol=1e-6) if dtype == "float32" else dict(rtol=1e-13)
    check(lambda xp: xp.asarray(a).sum(axis=axis), **tol)
    check(lambda xp: xp.asarray(a).mean(axis=axis), **tol)
    check(lambda xp: xp.asarray(numpy.abs(numpy.nan_to_num(a)) + 0.1)[..., ::-1].sum(axis=axis), **tol)  # a view


@pytest.mark.parametrize("dtype", ["float64", "float32", "int16", "int8", "complex128", "bool"])
@pytest.mark.parametrize("shape,axes", [((100, 70), (1, 0)), ((33, 97), (1, 0)), ((32, 32), (1, 0)),
                                        ((31, 40), (1, 0)), ((5, 70, 45), (0, 2, 1)), ((70, 3, 45), (2, 1, 0)),
                                        ((40, 50, 3), (1, 0, 2)), ((0, 40), (1, 0)), ((5, 40), (1, 0)),
                                        ((6, 33, 37), (2, 1, 0))])
def test_transposed_copies(dtype, shape, axes):
    """Copies whose input runs across the output's rows (copied in tiles),
    of whole arrays and of strided views, against NumPy."""
    a = data(shape, dtype, seed=50)
    check(lambda xp: xp.transpose(xp.asarray(a), axes).copy())
    check(lambda xp: xp.einsum("ij->ji", xp.asarray(a)).copy() if a.ndim == 2 else
          xp.asarray(a)[:, ::-1].transpose(axes).copy())
    check(lambda xp: xp.asarray(a)[::2].T.copy() if a.ndim == 2 else
          xp.ascontiguousarray(xp.asarray(a)[1:, :, ::2].transpose(axes)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "complex128"])
@pytest.mark.parametrize("shape", [(1000, 3), (7, 1), (1, 9), (50, 4, 3), (0, 3), (6, 5, 1, 2)])
def test_short_rows_walked_as_one(dtype, shape):
    """Elementwise expressions over arrays with short last axes, whose rows
    the evaluator merges when every operand runs on across them: scalars
    (filled as long as the merged unit), casts, broadcasts and views that
    do not merge, in-place updates; against NumPy."""
    a, b = data(shape, dtype, seed=60), data(shape, dtype, seed=61)
    c = data(shape[:1], dtype, seed=62)
    d = data(shape[-1:], "float64", seed=63)
    lead = (slice(None),) + (None,) * (len(shape) - 1)
    check(lambda xp: xp.asarray(a) + xp.asarray(b))
    check(lambda xp: xp.asarray(a) * 3 - xp.asarray(b) + 2)
    check(lambda xp: xp.asarray(a).astype("float64") * 0.5 + xp.asarray(d))
    check(lambda xp: xp.asarray(a) + xp.asarray(c)[lead])
    check(lambda xp: xp.asarray(a)[::-1] * 2 + xp.asarray(b)[::-1, ...])
    check(lambda xp: xp.asarray(a)[(slice(None, None, -1),) * len(shape)] - 1)
    check(lambda xp: xp.asarray(a)[..., ::2] + xp.asarray(b)[..., ::2])

    check(lambda xp: xp.asarray(a)[..., ::-1].copy())
    check(lambda xp: xp.asarray(a)[::2, ...].sum(), rtol=1e-5 if dtype == "float32" else 1e-12)

    def inplace(xp):
        x = xp.asarray(a).copy()
        x += 1
        x[...] = x * 2 + xp.asarray(b)
        x[..., :1] += xp.asarray(b)[..., -1:]  # a view of short rows as the output
        return x
    check(inplace)


@pytest.mark.parametrize("shape,axes", [((3, 200, 2), (0, 1, 2)), ((200, 4, 3), (1, 0, 2)), ((90, 5), (0, 1))])
def test_short_rows_walked_along_the_long_axis(shape, axes):
    """Rows too short to merge (views, permutations) are walked along the
    longest other axis: values, reductions and in-place updates against
    NumPy."""
    a, b = data(shape, seed=64), data(shape, seed=65)
    check(lambda xp: xp.asarray(a).transpose(axes)[..., ::2] * 3 + xp.asarray(b).transpose(axes)[..., -1::-2])
    check(lambda xp: xp.asarray(a).transpose(axes).copy())
    check(lambda xp: (xp.asarray(a)[..., ::-1] - 1).sum(), rtol=1e-12)
    check(lambda xp: xp.asarray(a)[..., ::-1].max())

    def inplace(xp):
        x = xp.asarray(a).copy()
        x[..., ::2] = x[..., ::2] * 2 + xp.asarray(b)[..., ::2]
        return x
    check(inplace)
