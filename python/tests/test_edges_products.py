"""Edge cases of the products against NumPy (found in review), on every
rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

from xp import check, data, raises_like


def test_products_with_out():
    a, b = data((7, 5)), data((5, 3), seed=1)

    def run(xp):
        o1, o2, o3, o4 = xp.zeros((7, 3)), xp.zeros((7, 3)), xp.zeros((7, 3)), xp.zeros(2)
        xp.matmul(xp.asarray(a), xp.asarray(b), out=o1)
        xp.dot(xp.asarray(a), xp.asarray(b), out=o2)
        xp.einsum("ij,jk", xp.asarray(a), xp.asarray(b), out=o3)
        xp.trace(xp.asarray(data((2, 3, 3))), axis1=1, axis2=2, out=o4)
        return o1, o2, o3, o4
    check(run)
    raises_like(lambda xp: xp.matmul(xp.asarray(a), xp.asarray(b), out=xp.zeros((7, 4))), ValueError)


def test_products_of_scalars_are_scalars():
    check(lambda xp: xp.dot(xp.asarray(2.0), xp.asarray(3.0)))
    check(lambda xp: xp.dot(xp.asarray(2.0), xp.asarray(data((2, 3)))))
    check(lambda xp: xp.kron(2.0, 3.0))
    check(lambda xp: xp.inner(2.0, 3.0))


def test_tensordot_integer_axes_edge_cases():
    a, b = data((3, 4)), data((3, 4), seed=1)
    check(lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(b), axes=-1))   # no axis: an outer product
    check(lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(b), axes=0))
    raises_like(lambda xp: xp.tensordot(xp.asarray(a), xp.asarray(b), axes=3), IndexError)


@pytest.mark.parametrize("dtype", ["int32", "bool", "float32"])
def test_einsum_sums_keep_the_operand_dtype(dtype):
    a, b, c = data((7, 5), dtype), data((5, 3), dtype, seed=1), data((2, 3, 4), dtype, seed=2)
    check(lambda xp: xp.einsum("ij->", xp.asarray(a)), rtol=1e-6)
    check(lambda xp: xp.einsum("ij->i", xp.asarray(a)), rtol=1e-6)
    check(lambda xp: xp.einsum("ij,jk->i", xp.asarray(a), xp.asarray(b)), rtol=1e-6)
    check(lambda xp: xp.einsum("ijk,k->i", xp.asarray(c), xp.asarray(data((4,), dtype))), rtol=1e-6)
    check(lambda xp: xp.einsum("i,j->ij", xp.asarray(a[0]), xp.asarray(b[0])))
    check(lambda xp: xp.einsum("ii->i", xp.asarray(data((4, 4), dtype))))


def test_einsum_int32_sum_wraps():
    check(lambda xp: xp.einsum("i->", xp.asarray(numpy.full(4, 2**30, numpy.int32))))


def test_einsum_bad_output_subscripts():
    a = data((7, 5))
    raises_like(lambda xp: xp.einsum("ij->k", xp.asarray(a)), ValueError, "output subscript 'k'")
    raises_like(lambda xp: xp.einsum("ij->ii", xp.asarray(a)), ValueError)


def test_out_dtype_rules():
    a, b = data((3, 5)), data((5, 4), seed=1)

    def into(fn, dtype, shape=(3, 4)):
        def run(xp):
            o = xp.zeros(shape, dtype=dtype)
            fn(xp, o)
            return o
        return run
    raises_like(into(lambda xp, o: xp.matmul(xp.asarray(a), xp.asarray(b), out=o), "int64"), TypeError, "same_kind")
    raises_like(into(lambda xp, o: xp.outer(xp.asarray(a[0]), xp.asarray(b[0]), out=o), "int64", (5, 4)),
                TypeError, "same_kind")
    raises_like(into(lambda xp, o: xp.dot(xp.asarray(a), xp.asarray(b), out=o), "float32"), ValueError,
                "output array is not acceptable")
    check(into(lambda xp, o: xp.matmul(xp.asarray(a), xp.asarray(b), out=o), "float32"))
    check(into(lambda xp, o: xp.matmul(xp.asarray(a.astype("int32")), xp.asarray(b.astype("int32")), out=o),
               "float64"))
    check(into(lambda xp, o: xp.trace(xp.asarray(data((2, 3, 3))), axis1=1, axis2=2, out=o), "int64", (2,)))
