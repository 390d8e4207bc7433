"""Matrix products and contractions against NumPy, on every rank under
mpiexec -n 1, 2, 3: matmul/dot in every combination of 1-d and 2-d and
stacks, tensordot, inner, outer, kron, einsum, diagonal, trace."""
import numpy
import pytest

from xp import check, data, raises_like
from test_numpy_args import same_error

DT = ["float64", "float32", "int64", "int32", "bool"]


def tol(dtype):
    return dict(rtol=2e-6, atol=1e-4) if "float32" in dtype else dict(rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("sa,sb", [((7, 5), (5, 3)), ((5,), (5, 3)), ((7, 5), (5,)), ((5,), (5,)), ((1, 4), (4, 1)),
                                   ((2, 30), (30, 40)), ((40, 30), (30, 2)), ((3, 0), (0, 4)), ((0, 3), (3, 2)),
                                   ((2, 3, 4), (4, 5)), ((2, 3, 4), (2, 4, 2)), ((4,), (3, 4, 2)), ((2, 1, 3, 4), (5, 4, 1))])
@pytest.mark.parametrize("dtype", DT)
def test_matmul(sa, sb, dtype):
    a, b = data(sa, dtype, seed=1), data(sb, dtype, seed=2)
    check(lambda xp: xp.matmul(xp.asarray(a), xp.asarray(b)), **tol(dtype))
    check(lambda xp: xp.asarray(a) @ xp.asarray(b), **tol(dtype))


@pytest.mark.parametrize("da,db", [("int32", "float32"), ("int64", "float64"), ("bool", "int32"), ("float32", "float64")])
def test_matmul_promotes(da, db):
    a, b = data((6, 4), da, seed=3), data((4, 3), db, seed=4)
    check(lambda xp: xp.asarray(a) @ xp.asarray(b), **tol(da + db))
    check(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b)), **tol(da + db))


def test_dot_vdot_inner_outer_tensordot():
    a, b, c = data((4, 5), seed=5), data((5, 6), seed=6), data((5,), seed=7)
    a3, b3 = data((2, 3, 4), seed=8), data((4, 3, 2), seed=9)
    t = dict(rtol=1e-12, atol=1e-12)
    check(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b)), **t)
    check(lambda xp: xp.dot(xp.asarray(a), 2.5), **t)
    check(lambda xp: xp.dot(xp.asarray(a3), xp.asarray(data((3, 4, 2), seed=19))), **t)
    check(lambda xp: xp.dot(xp.asarray(a3), xp.asarray(data((4,), seed=10))), **t)
    check(lambda xp: xp.vdot(xp.asarray(a), xp.asarray(a)), **t)
    check(lambda xp: xp.inner(xp.asarray(a), xp.asarray(data((3, 5), seed=11))), **t)
    check(lambda xp: xp.inner(xp.asarray(c), xp.asarray(c)), **t)
    check(lambda xp: xp.outer(xp.asarray(c), xp.asarray(a)), **t)
    check(lambda xp: xp.tensordot(xp.asarray(a3), xp.asarray(b3), axes=([1, 0], [1, 2])), **t)
    check(lambda xp: xp.tensordot(xp.asarray(a3), xp.asarray(b3), axes=1), **t)
    check(lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(a), axes=2), **t)
    check(lambda xp: xp.asarray(a).dot(xp.asarray(c)), **t)
    check(lambda xp: xp.vecdot(xp.asarray(a), xp.asarray(a)), **t)
    check(lambda xp: xp.matvec(xp.asarray(a), xp.asarray(c)), **t)
    check(lambda xp: xp.vecmat(xp.asarray(c), xp.asarray(b)), **t)
    check(lambda xp: xp.matrix_transpose(xp.asarray(a3)))


@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "complex128"])
@pytest.mark.parametrize("shape", [(12, 5, 4), (1, 3, 2), (0, 3, 2), (7, 1, 6)])
def test_contraction_over_trailing_axes_shares_no_state(dtype, shape):
    """tensordot and einsum over a 3-d array's trailing axes (its rows kept:
    the matrix operand shares the array's storage): the products as NumPy's,
    and the array unchanged by them and writable after."""
    def run(xp):
        x = xp.asarray(data(shape, dtype, seed=7))
        y = xp.asarray(data(shape[1:], dtype, seed=8))
        t = xp.tensordot(x, y, axes=([1, 2], [0, 1]))
        e = xp.einsum("ijk,jk->i", x, y)
        f = xp.einsum("ijk,k->ij", x, y[0]) if shape[1] else xp.zeros((shape[0], 0), dtype)
        if x.size:
            x[0] = 1                                   # the source stays its own array
        return t, e, f, x
    check(run, **tol(dtype))


def test_kron_diagonal_trace():
    a, b = data((2, 3), "int64", seed=12), data((3, 2), "int64", seed=13)
    check(lambda xp: xp.kron(xp.asarray(a), xp.asarray(b)))
    check(lambda xp: xp.kron(xp.asarray(a[0]), xp.asarray(b)))
    m = data((5, 7), seed=14)
    for k in (-6, -2, 0, 3, 7):
        check(lambda xp: xp.diagonal(xp.asarray(m), k))
        check(lambda xp: xp.trace(xp.asarray(m), k))
        check(lambda xp: xp.diag(xp.asarray(m), k))
    m3 = data((3, 4, 5), seed=15)
    check(lambda xp: xp.diagonal(xp.asarray(m3), 1, 0, 2))
    check(lambda xp: xp.asarray(m3).trace(axis1=1, axis2=2))


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint16", "int64", "float16", "float32", "complex128"])
@pytest.mark.parametrize("shape", [(9, 9), (4, 7), (7, 4), (1, 6), (0, 3)])
def test_diagonal_and_trace_of_every_layout(dtype, shape):
    """A matrix split by rows (each rank copies its own diagonal), its
    transpose and an interior slice (views: the elements are taken from
    their owners), at every offset, as NumPy."""
    m = data(shape, dtype, seed=47)
    forms = (lambda xp: xp.asarray(m), lambda xp: xp.asarray(m.T.copy()).T,
             lambda xp: xp.asarray(numpy.pad(m, 1))[1:-1, 1:-1])
    for form in forms:
        for k in (-5, -1, 0, 1, 3):
            check(lambda xp: xp.diagonal(form(xp), k))
            check(lambda xp: xp.trace(form(xp), k))
        if shape[0] == shape[1] and dtype in ("float32", "complex128"):
            check(lambda xp: xp.einsum("ii->", form(xp)))
            check(lambda xp: xp.einsum("ii", form(xp)))


@pytest.mark.parametrize("spec,shapes", [
    ("ij,jk->ik", [(4, 5), (5, 3)]), ("ij,j->i", [(4, 5), (5,)]), ("i,i->", [(6,), (6,)]), ("ii->i", [(5, 5)]),
    ("ii", [(5, 5)]), ("ij->ji", [(3, 4)]), ("ij->", [(3, 4)]), ("ij->j", [(3, 4)]), ("i,j->ij", [(3,), (4,)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]), ("ij,ij->i", [(3, 4), (3, 4)]), ("...j,j", [(2, 3, 4), (4,)]),
    ("ijk,kji", [(2, 3, 4), (4, 3, 2)]), ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 2)]), ("ij", [(3, 4)])])
def test_einsum(spec, shapes):
    ops = [data(s, seed=16 + i) for i, s in enumerate(shapes)]
    check(lambda xp: xp.einsum(spec, *[xp.asarray(o) for o in ops]), rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float64", "float32", "int32", "int8", "bool", "complex64"])
def test_einsum_whole_sums_and_trace_keep_numpys_dtype(dtype):
    """One operand summed whole (einsum's own dtype: int32 not widened, bool
    an or) and trace (NumPy's sum dtype), as NumPy's scalars."""
    m, v = data((5, 5), dtype, seed=45), data((7,), dtype, seed=46)
    for spec, x in (("ii->", m), ("ij->", m), ("i->", v), ("ii", m)):
        check(lambda xp: xp.einsum(spec, xp.asarray(x)))
    check(lambda xp: xp.trace(xp.asarray(m)))
    check(lambda xp: xp.trace(xp.asarray(m), 1, dtype="float64"))


def test_einsum_interleaved_form():
    """einsum(op, sublist, ..., [out sublist]): integers 0-51 as letters,
    Ellipsis as '...', NumPy's errors for others."""
    a, b = data((4, 5), seed=41), data((5, 3), seed=42)
    check(lambda xp: xp.einsum(xp.asarray(a), [0, 1], xp.asarray(b), [1, 30], [30, 0]), rtol=1e-12, atol=1e-12)
    check(lambda xp: xp.einsum(xp.asarray(a), [0, 1], xp.asarray(a), [0, 1], [1]), rtol=1e-12, atol=1e-12)
    check(lambda xp: xp.einsum(xp.asarray(a), [Ellipsis, 1], [1, Ellipsis]))
    check(lambda xp: xp.einsum(xp.asarray(a), [3, 3 + 26]))
    same_error(lambda xp: xp.einsum(xp.asarray(a), [52, 0]))
    same_error(lambda xp: xp.einsum(xp.asarray(a), ["i", 0]))


def test_einsum_out_follows_casting():
    """out= takes the result under casting= ('safe' by default, as NumPy's
    iterator: float64 into int64 or float32 is its TypeError); unsafe
    casts; with optimize NumPy's contraction path casts as it writes."""
    a, b = data((4, 5), seed=43), data((5,), seed=44)

    def into(dt, **kw):
        def run(xp):
            out = xp.zeros(4, dt)
            xp.einsum("ij,j->i", xp.asarray(a) * 10, xp.asarray(b), out=out, **kw)
            return out
        return run
    same_error(into("int64"))
    same_error(into("float32"))
    same_error(into("float32", casting="same_kind", dtype="complex128"))
    check(into("int64", casting="unsafe"))
    check(into("float32", casting="same_kind"), rtol=1e-6)
    check(into("int64", optimize=True))


@pytest.mark.parametrize("dtype", ["complex128", "complex64"])
def test_complex_contractions(dtype):
    """tensordot, einsum, dot of stacks, inner and kron of complex operands
    (the C product is real: four real products, as matmul; they raised
    'matmul has no complex kernel')."""
    a = (data((4, 5), seed=21) + 1j * data((4, 5), seed=22)).astype(dtype)
    b = (data((5, 3), seed=23) - 0.5j * data((5, 3), seed=24)).astype(dtype)
    c = data((4, 5, 2), seed=25).astype(dtype) * (1 - 1j)
    tol = dict(rtol=2e-5, atol=1e-5) if dtype == "complex64" else dict(rtol=1e-12, atol=1e-13)
    check(lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(b), axes=1), **tol)
    check(lambda xp: xp.einsum("ij,jk->ik", xp.asarray(a), xp.asarray(b)), **tol)
    check(lambda xp: xp.einsum("ijk,ij->k", xp.asarray(c), xp.asarray(a)), **tol)
    check(lambda xp: xp.dot(xp.asarray(c).transpose(2, 0, 1), xp.asarray(b)), **tol)
    check(lambda xp: xp.inner(xp.asarray(a), xp.asarray(a)), **tol)
    check(lambda xp: xp.tensordot(xp.asarray(a.real), xp.asarray(b), axes=1), **tol)
    check(lambda xp: xp.kron(xp.asarray(a[:2, :2]), xp.asarray(b[:2, :2])), **tol)


def test_product_errors_on_every_rank():
    a, b = data((4, 5)), data((4, 5))
    raises_like(lambda xp: xp.asarray(a) @ xp.asarray(b), ValueError, "mismatch")
    raises_like(lambda xp: xp.dot(xp.asarray(a), xp.asarray(b)), ValueError, "not aligned")
    raises_like(lambda xp: xp.matmul(xp.asarray(a), 2.0), ValueError)
    raises_like(lambda xp: xp.einsum("ij,jk", xp.asarray(a)), ValueError)


@pytest.mark.parametrize("dtype", ["complex128", "complex64", "float64", "int32"])
def test_vecdot_and_vecmat_conjugate_the_first_operand(dtype):
    """NumPy's vecdot is sum(conj(x1) * x2) and vecmat conj(x1) @ x2 (they
    multiplied without the conjugate: a wrong complex answer)."""
    rng = numpy.random.default_rng(3)
    x = rng.integers(-4, 5, (3, 4)) + (1j * rng.integers(-4, 5, (3, 4)) if "complex" in dtype else 0)
    m = rng.integers(-4, 5, (4, 2)) + (1j * rng.integers(-4, 5, (4, 2)) if "complex" in dtype else 0)
    x, m = x.astype(dtype), m.astype(dtype)
    check(lambda xp: xp.vecdot(xp.asarray(x), xp.asarray(x[::-1])))
    check(lambda xp: xp.linalg.vecdot(xp.asarray(x), xp.asarray(x), axis=0))
    check(lambda xp: xp.vecmat(xp.asarray(x), xp.asarray(m)))
