"""maniple._core against NumPy, run on every rank under mpiexec -n 1, 2, 3."""
import os
import tempfile

import numpy as np
import pytest

import maniple
from maniple import _core


def gathered(a):
    """The whole array as NumPy, on every rank."""
    return np.frombuffer(a.allgather(), dtype=a.dtype).reshape(a.shape)


def from_numpy(x):
    a = _core.create(x.shape, str(x.dtype))
    a.set_global(np.ascontiguousarray(x))
    return a


def ref(shape, dtype="float64", seed=0):
    """The same NumPy array on every rank."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 10).astype(dtype)


def evaluate(program):
    dtype, shape = _core.result_info(program)
    out = _core.create(shape, dtype)
    _core.evaluate(program, out)
    return out


def test_rank_and_size():
    assert 0 <= maniple.rank() < maniple.size()


@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "float64"])
def test_roundtrip_and_fills(dtype):
    x = ref((7, 5), dtype)
    a = from_numpy(x)
    assert a.shape == (7, 5) and a.dtype == dtype
    np.testing.assert_array_equal(gathered(a), x)
    a.fill(1)
    np.testing.assert_array_equal(gathered(a), np.ones((7, 5), dtype))


def test_arange_linspace_get():
    a = _core.create((4, 6), "float64")
    a.arange(-3.0, 0.5)
    np.testing.assert_array_equal(gathered(a), np.arange(-3.0, 9.0, 0.5).reshape(4, 6))
    assert a.get((3, 5)) == 8.5
    b = _core.create((11,), "float64")
    b.linspace(0.0, 1.0, True)
    np.testing.assert_allclose(gathered(b), np.linspace(0.0, 1.0, 11), rtol=0, atol=1e-15)


def test_views_write_through():
    x = ref((9, 8))
    a = from_numpy(x)
    v = a.index([("s", 1, None, 3), ("s", None, None, -2)])
    np.testing.assert_array_equal(gathered(v), x[1::3, ::-2])
    v.fill(-1.0)
    x[1::3, ::-2] = -1.0
    np.testing.assert_array_equal(gathered(a), x)
    row = a.index([("i", -2)])
    np.testing.assert_array_equal(gathered(row), x[-2])
    t = a.transpose()
    np.testing.assert_array_equal(gathered(t), x.T)
    n = a.index([("n",), ("s", None, None, None), ("i", 3)])
    np.testing.assert_array_equal(gathered(n), x[np.newaxis, :, 3])


def test_stencil_program_matches_numpy():
    """The seed's 5-point stencil as one fused program over views."""
    g = ref((23, 17))
    a = from_numpy(g)
    center = a.index([("s", 1, -1, 1), ("s", 1, -1, 1)])
    views = [a.index([("s", r0, r1, 1), ("s", c0, c1, 1)])
             for r0, r1, c0, c1 in [(0, -2, 1, -1), (1, -1, 2, None), (1, -1, 0, -2), (2, None, 1, -1)]]
    prog = [("in", center)] + [("in", v) for v in views] + [
        ("bin", "add", 0, 1), ("bin", "add", 5, 2), ("bin", "add", 6, 3), ("bin", "add", 7, 4),
        ("sc", 0.2), ("bin", "multiply", 9, 8)]
    for _ in range(5):
        _core.evaluate(prog, center)  # center[:] = 0.2 * (...)
        c = g[1:-1, 1:-1]
        c[:] = 0.2 * (c + g[:-2, 1:-1] + g[1:-1, 2:] + g[1:-1, :-2] + g[2:, 1:-1])
    np.testing.assert_allclose(gathered(a), g, rtol=1e-14, atol=0)
    cached, hits, misses = _core.plan_stats()
    assert hits > 0 or maniple.size() == 1  # one rank needs no plans


@pytest.mark.parametrize("da,db", [("int32", "float32"), ("int32", "int64"), ("float32", "float64"),
                                   ("bool", "int32"), ("int64", "int64")])
def test_promotion_follows_numpy(da, db):
    x, y = ref((13,), da, 1), ref((13,), db, 2)
    for op, npop in [("add", np.add), ("multiply", np.multiply), ("true_divide", np.true_divide),
                     ("less", np.less)]:
        if da == db == "bool" and op == "true_divide":
            continue
        with np.errstate(divide="ignore", invalid="ignore"):
            want = npop(x, y)
        got = evaluate([("in", from_numpy(x)), ("in", from_numpy(y)), ("bin", op, 0, 1)])
        assert got.dtype == str(want.dtype), (op, da, db)
        np.testing.assert_allclose(gathered(got), want, rtol=1e-6 if "float32" in (da, db) else 1e-15)


def test_weak_python_scalars():
    x = ref((10,), "float32")
    got = evaluate([("in", from_numpy(x)), ("sc", 2.5), ("bin", "multiply", 0, 1)])
    assert got.dtype == "float32"
    np.testing.assert_allclose(gathered(got), x * 2.5, rtol=1e-6)
    i = ref((10,), "int32")
    got = evaluate([("in", from_numpy(i)), ("sc", 0.5), ("bin", "add", 0, 1)])
    assert got.dtype == str((i + 0.5).dtype) == "float64"


def test_broadcasting():
    x, y = ref((5, 1)), ref((1, 7), seed=3)
    got = evaluate([("in", from_numpy(x)), ("in", from_numpy(y)), ("bin", "subtract", 0, 1)])
    np.testing.assert_array_equal(gathered(got), x - y)


@pytest.mark.parametrize("op", ["sum", "prod", "min", "max", "argmin", "argmax", "any", "all"])
def test_reductions(op):
    x = ref((11, 7)) / 10
    a = from_numpy(x)
    got = _core.reduce([("in", a)], op)
    want = getattr(np, op)(x)
    if op in ("argmin", "argmax", "any", "all"):
        assert got == want
    else:
        assert got == pytest.approx(float(want), rel=1e-12)
    for axis in (0, 1):
        w = getattr(np, op)(x, axis=axis)
        out = _core.create(w.shape, str(w.dtype))
        _core.reduce_axis(op, a, axis, out)
        np.testing.assert_allclose(gathered(out), w, rtol=1e-12)


def test_dot_of_shifted_views():
    """The seed's np.dot of random vectors, with views offset across ranks."""
    x, y = ref((101,), seed=4), ref((101,), seed=5)
    a, b = from_numpy(x), from_numpy(y)
    got = _core.reduce([("in", a.index([("s", 1, None, 1)])), ("in", b.index([("s", None, -1, 1)])),
                        ("bin", "multiply", 0, 1)], "sum")
    assert got == pytest.approx(float(np.dot(x[1:], y[:-1])), rel=1e-12)


def test_explicit_root_and_extras():
    """evaluate/reduce of a root that is not the program's last node, with
    an extra output built on it; a root outside the program is refused."""
    x = ref((9, 4), seed=6)
    a = from_numpy(x)
    prog = [("in", a), ("sc", 2.0), ("bin", "multiply", 0, 1), ("bin", "add", 2, 0)]  # root 2: 2x; 3: 3x
    out, extra = _core.empty((9, 4), "float64"), _core.empty((9, 4), "float64")
    _core.evaluate(prog, out, [(3, extra)], 2)
    np.testing.assert_array_equal(gathered(out), 2 * x)
    np.testing.assert_array_equal(gathered(extra), 3 * x)
    extra2 = _core.empty((9, 4), "float64")
    assert _core.reduce(prog, "sum", [(3, extra2)], 2) == pytest.approx(float((2 * x).sum()), rel=1e-12)
    np.testing.assert_array_equal(gathered(extra2), 3 * x)
    for bad in (4, -2):
        with pytest.raises(ValueError, match=f"root {bad} of a program of 4 nodes"):
            _core.evaluate(prog, out, [], bad)
    np.testing.assert_array_equal(gathered(out), 2 * x)  # unchanged
    assert _core.aligned(a, out) and not _core.aligned(a, a.index([("s", 1, None, 1)]))
    with pytest.raises(TypeError):
        _core.aligned(a, x)


def test_random_moments_and_determinism():
    a, b = _core.create((20001,), "float64"), _core.create((20001,), "float64")
    a.random("uniform", 7, 0.0, 1.0)
    b.random("uniform", 7, 0.0, 1.0)
    u = gathered(a)
    np.testing.assert_array_equal(u, gathered(b))
    assert abs(u.mean() - 0.5) < 0.02 and abs(u.var() - 1 / 12) < 0.01
    a.random("normal", 8, 0.0, 1.0)
    z = gathered(a)
    assert abs(z.mean()) < 0.03 and abs(z.std() - 1) < 0.03


def test_npy_roundtrip_with_numpy():
    x = ref((6, 4), "float32")
    d = os.environ.get("MANIPLE_PYTEST_TMP") or tempfile.gettempdir()  # one per session: conftest.py
    path = os.path.join(d, f"maniple_core_np{maniple.size()}.npy")
    from_numpy(x).save_npy(path)
    np.testing.assert_array_equal(np.load(path), x)
    np.testing.assert_array_equal(gathered(_core.load_npy(path)[0]), x)


def test_errors_are_numpy_exceptions():
    a = _core.create((5,), "float64")
    b = _core.create((6,), "float64")
    with pytest.raises(ValueError, match=r"\(5,\) \(6,\)"):
        evaluate([("in", a), ("in", b), ("bin", "add", 0, 1)])
    with pytest.raises(TypeError, match="bitwise_and"):
        evaluate([("in", a), ("in", a), ("bin", "bitwise_and", 0, 1)])
    with pytest.raises(IndexError, match="20"):
        a.index([("s", 20, None, None)])
    with pytest.raises(IndexError):
        a.get((5,))
    with pytest.raises(TypeError, match="complex256"):
        _core.create((3,), "complex256")
    with pytest.raises(OSError, match="no_such_file"):
        _core.load_npy("/nonexistent/no_such_file.npy")
    np.testing.assert_array_equal(gathered(a), np.zeros(5))  # unchanged


@pytest.mark.parametrize("shape", [(0,), (1,), (2,), (7, 5), (3, 0, 2), ()])
@pytest.mark.parametrize("dtype", ["bool", "int32", "int64", "float32", "float64"])
def test_gather_and_scatter_through_a_root(shape, dtype):
    x = ref(shape, dtype, seed=4)
    a = from_numpy(x)
    for root in range(_core.size()):
        b = a.gather_root(root)
        if _core.rank() == root:
            np.testing.assert_array_equal(np.frombuffer(b, dtype=dtype).reshape(shape), x)
        else:
            assert b is None
        c = _core.create(shape, dtype)
        c.scatter_root(np.ascontiguousarray(x[::-1] if x.ndim else x) if _core.rank() == root else None, root)
        np.testing.assert_array_equal(gathered(c), x[::-1] if x.ndim else x)


def test_scatter_into_a_view_and_gather_of_a_view():
    base = from_numpy(np.zeros((6, 4)))
    v = base.index([("s", 1, 6, 2), ("s", None, None, -1)])  # rows 1, 3, 5 reversed
    vals = np.arange(12.0).reshape(3, 4)
    v.scatter_root(vals if _core.rank() == 0 else None)
    want = np.zeros((6, 4))
    want[1:6:2, ::-1] = vals
    np.testing.assert_array_equal(gathered(base), want)
    g = v.gather_root()
    if _core.rank() == 0:
        np.testing.assert_array_equal(np.frombuffer(g).reshape(3, 4), vals)


def test_bcast():
    for root in range(_core.size()):
        data = bytes(range(256)) * 3 if _core.rank() == root else None
        assert _core.bcast(data, root) == bytes(range(256)) * 3
        view = memoryview(bytearray(b"xyz")) if _core.rank() == root else None
        assert _core.bcast(view, root) == b"xyz"
    assert _core.bcast(b"" if _core.rank() == 0 else None) == b""


def test_root_errors_are_raised_on_every_rank():
    """What only root can see wrong (its buffer) raises the same exception
    and message on every rank; nobody is left waiting."""
    a = _core.create((4,), "float64")
    with pytest.raises(ValueError, match="buffer holds 3 bytes, the array needs 32"):
        a.scatter_root(b"abc" if _core.rank() == 0 else None)
    with pytest.raises(TypeError, match="bytes-like object is required"):
        a.scatter_root(None)
    with pytest.raises(TypeError, match="bytes-like object is required"):
        _core.bcast(None)
    with pytest.raises(TypeError, match="bytes-like object is required"):
        _core.bcast(12345 if _core.rank() == 0 else b"ignored elsewhere")
    for bad in (-1, _core.size()):
        with pytest.raises(ValueError, match="root rank"):
            a.gather_root(bad)
        with pytest.raises(ValueError, match="root rank"):
            _core.bcast(b"x", bad)
    assert _core.bcast(b"still in step" if _core.rank() == 0 else None) == b"still in step"
