"""maniple.numpy against NumPy: the seeds' scripts and the semantics they rely
on, run on every rank under mpiexec -n 1, 2, 3."""
import numpy
import pytest

import maniple.numpy as np


def A(x):
    return numpy.asarray(x)


def test_seed_stencil_views_written_through():
    def run(m, N=37, I=12):
        grid = m.zeros((N + 2, N + 2))
        grid[:, 0] = -273.15
        grid[:, -1] = -273.15
        grid[-1, :] = -273.15
        grid[0, :] = 40.0
        center = grid[1:-1, 1:-1]
        north = grid[0:-2, 1:-1]
        east = grid[1:-1, 2:]
        west = grid[1:-1, 0:-2]
        south = grid[2:, 1:-1]
        for _ in range(I):
            average = center + north + east + west + south
            average = 0.2 * average
            center[:] = average
        return grid, average

    g, avg = run(np)
    gr, avgr = run(numpy)
    numpy.testing.assert_allclose(A(g), gr, rtol=1e-13)
    numpy.testing.assert_allclose(A(avg), avgr, rtol=1e-13)


@pytest.mark.parametrize("shape, dtype", [((9, 10002), "float64"), ((31, 603), "float64"), ((12, 5000), "float32"),
                                          ((7, 9000), "float64"), ((40, 3), "float64")])
def test_stencil_idiom_rows_of_every_length(shape, dtype):
    """The idiom on rows longer than one evaluation block (512), than a
    whole-row unit (8192) and than a 32 KiB band (one-row bands), and on a
    few short rows: the in-place sweep (bands written back late) and the
    same sum out of place give NumPy's values, float32 included"""
    rng = numpy.random.default_rng(3)
    g0 = rng.standard_normal((shape[0] + 2, shape[1] + 2)).astype(dtype)

    def run(m):
        grid = m.asarray(g0) if m is np else g0.copy()
        c, n, e, w, s = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[1:-1, 2:], grid[1:-1, :-2], grid[2:, 1:-1]
        other = m.zeros(shape, dtype=dtype)
        for _ in range(3):
            other[:] = 0.2 * (c + n + e + w + s)  # out of place
            average = c + n + e + w + s
            average = 0.2 * average
            c[:] = average  # in place
        return grid, other
    (g, o), (gr, orf) = run(np), run(numpy)
    tol = 1e-6 if dtype == "float32" else 1e-14  # the sums in NumPy's order; float32 computed so too
    numpy.testing.assert_allclose(A(g), gr, rtol=tol, atol=tol)
    numpy.testing.assert_allclose(A(o), orf, rtol=tol, atol=tol)


def test_seed_float32_jacobi_with_swapped_buffers():
    rng = numpy.random.default_rng(1)
    blur = rng.integers(0, 255, (21, 17)).astype(numpy.float32)

    def run(m):
        def jacobi(ap, a, b):
            ap[1:-1, 1:-1] = 0.25 * (a[0:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, 0:-2] + a[1:-1, 2:] - b)
        mm, nn = blur.shape
        X = m.zeros((mm + 2, nn + 2), dtype="float32")
        X[1:-1, 1:-1] = numpy.float32(blur)
        X2 = m.copy(X)
        b = m.asarray(blur)
        for _ in range(30):
            jacobi(X2, X, b)
            X, X2 = X2, X
        return X

    got, want = run(np), run(numpy)
    assert got.dtype == want.dtype == numpy.float32
    numpy.testing.assert_allclose(A(got), want, rtol=2e-6, atol=1e-3)


def test_seed_dot_of_random_vectors_and_inplace_add():
    v1, v2 = np.random.rand(10001), np.random.rand(10001)
    d = np.dot(v1, v2)
    assert isinstance(d, numpy.float64)
    assert d == pytest.approx(float(numpy.dot(A(v1), A(v2))), rel=1e-12)
    x = np.ones(256, dtype="float32")
    x += 3.
    assert x.dtype == numpy.float32
    assert not np.any(abs(x - 4.0) > 1e-12)


def test_seed_arange_reshape_multiply():
    a = np.arange(10000, dtype=int)
    a = a.reshape((100, 100,))
    b = np.arange(10000, dtype=int)
    b = b.reshape((100, 100,))
    c = np.multiply(a, b)
    want = numpy.multiply(numpy.arange(10000).reshape(100, 100), numpy.arange(10000).reshape(100, 100))
    numpy.testing.assert_array_equal(A(c), want)
    assert c.dtype == numpy.int64 and c.shape == (100, 100)


def test_reshape_ravel_flatten():
    x = numpy.arange(24.0).reshape(4, 6)
    a = np.asarray(x)
    numpy.testing.assert_array_equal(A(a.reshape(3, -1)), x.reshape(3, -1))
    numpy.testing.assert_array_equal(A(a.T.reshape(2, 12)), x.T.reshape(2, 12))
    numpy.testing.assert_array_equal(A(np.ravel(a[::2])), numpy.ravel(x[::2]))
    numpy.testing.assert_array_equal(A(a.flatten()), x.flatten())
    with pytest.raises(ValueError, match="cannot reshape"):
        a.reshape(5, 5)
    with pytest.raises(ValueError, match="cannot reshape"):
        a.reshape(5, -1)


def test_deferred_values_keep_numpy_semantics():
    a = np.arange(12.0)
    b = a + 1           # pending, reads a
    a[0] = 100.0        # must not change b
    c = a * 2
    a += 1              # must not change c
    numpy.testing.assert_array_equal(A(b), numpy.arange(12.0) + 1)
    want_a = numpy.arange(12.0)
    want_a[0] = 100.0
    numpy.testing.assert_array_equal(A(c), want_a * 2)
    numpy.testing.assert_array_equal(A(a), want_a + 1)
    # an assigned value stays what it was when its target changes again
    t = np.zeros(5)
    v = np.arange(5.0) * 3
    t[:] = v
    t[:] = -1.0
    numpy.testing.assert_array_equal(A(v), numpy.arange(5.0) * 3)


@pytest.mark.parametrize("op", ["__add__", "__sub__", "__mul__", "__truediv__", "__floordiv__", "__mod__",
                                "__pow__", "__lt__", "__ge__", "__eq__"])
@pytest.mark.parametrize("da,db", [("float64", "float64"), ("int32", "float32"), ("int64", "int64"),
                                   ("float32", "float32")])
def test_operators_and_promotion(op, da, db):
    rng = numpy.random.default_rng(2)
    x = (rng.standard_normal((7, 9)) * 5).astype(da)
    y = (rng.standard_normal((9,)) * 5 + 7).astype(db)
    if op == "__pow__":
        x, y = numpy.abs(x) % 3, (numpy.abs(y) % 3).astype(db)
    with numpy.errstate(all="ignore"):
        want = getattr(x, op)(y)
    got = getattr(np.asarray(x), op)(np.asarray(y))
    assert got.dtype == want.dtype, (op, da, db)
    numpy.testing.assert_allclose(A(got), want, rtol=1e-6 if "float32" in (da, db) else 1e-14)


def test_scalars_are_weak_like_numpy2():
    x = np.ones(4, dtype="float32")
    assert (x * 2.5).dtype == numpy.float32
    assert (np.ones(4, dtype="int32") + 0.5).dtype == numpy.float64
    assert (x * numpy.float64(2.0)).dtype == numpy.float64


def test_indexing_views_and_scalars():
    x = numpy.arange(60.0).reshape(6, 10)
    a = np.asarray(x)
    numpy.testing.assert_array_equal(A(a[1:5:2, ::-3]), x[1:5:2, ::-3])
    numpy.testing.assert_array_equal(A(a[..., 2]), x[..., 2])
    numpy.testing.assert_array_equal(A(a[None, -1]), x[None, -1])
    assert a[2, 3] == x[2, 3] and isinstance(a[2, 3], numpy.float64)
    a[::2, 1:3] = -1
    x[::2, 1:3] = -1
    numpy.testing.assert_array_equal(A(a), x)
    numpy.testing.assert_array_equal(A(a.T), x.T)
    with pytest.raises(IndexError):
        a[6]
    with pytest.raises(IndexError):
        a[1, 2, 3]
    numpy.testing.assert_array_equal(A(a[a > 3]), x[x > 3])


@pytest.mark.parametrize("fn", ["sum", "prod", "min", "max", "argmin", "argmax", "mean", "any", "all"])
def test_reductions_match_numpy(fn):
    x = numpy.random.default_rng(3).standard_normal((8, 5)) / 3
    a = np.asarray(x)
    got, want = getattr(np, fn)(a), getattr(numpy, fn)(x)
    assert type(got) is type(want)
    assert got == pytest.approx(want, rel=1e-12)
    for axis in (0, 1, -1):
        numpy.testing.assert_allclose(A(getattr(np, fn)(a, axis=axis)), getattr(numpy, fn)(x, axis=axis),
                                      rtol=1e-12)
    numpy.testing.assert_allclose(A(a.sum(axis=0, keepdims=True)), x.sum(axis=0, keepdims=True), rtol=1e-12)


def test_ufuncs_where_clip_allclose():
    x = numpy.linspace(0.1, 3.0, 29)
    a = np.asarray(x)
    for name in ("sqrt", "exp", "log", "sin", "cos", "tanh", "floor", "ceil", "square", "sign"):
        numpy.testing.assert_allclose(A(getattr(np, name)(a)), getattr(numpy, name)(x), rtol=1e-14)
    numpy.testing.assert_array_equal(A(np.where(a > 1.5, a, -a)), numpy.where(x > 1.5, x, -x))
    numpy.testing.assert_array_equal(A(np.clip(a, 0.5, 2.0)), numpy.clip(x, 0.5, 2.0))
    assert np.allclose(a, x) and not np.allclose(a, x + 1e-3)
    assert np.array_equal(a, x)


def test_creation_matches_numpy():
    numpy.testing.assert_array_equal(A(np.linspace(0, 1, 11)), numpy.linspace(0, 1, 11))
    numpy.testing.assert_array_equal(A(np.arange(3, 20, 4)), numpy.arange(3, 20, 4))
    numpy.testing.assert_array_equal(A(np.full((2, 3), 7.5)), numpy.full((2, 3), 7.5))
    numpy.testing.assert_array_equal(A(np.ones_like(np.zeros((4,), dtype="int32"))), numpy.ones(4, dtype="int32"))
    assert np.zeros((3, 4)).shape == (3, 4) and len(np.zeros((3, 4))) == 3
    assert np.asarray([1, 2, 3]).tolist() == [1, 2, 3]
    with pytest.warns(UserWarning, match="float128 arrays are NumPy arrays"):
        z = np.zeros(3, dtype="longdouble")  # (a dtype maniple arrays do not hold: NumPy's array)
    assert type(z) is numpy.ndarray and z.dtype == numpy.longdouble


def test_errors_like_numpy():
    with pytest.raises(ValueError, match="could not be broadcast"):
        np.ones(5) + np.ones(6)
    with pytest.raises(TypeError):
        np.ones(3) & np.ones(3)
    with pytest.raises(ValueError, match="ambiguous"):
        bool(np.ones(3))
    with pytest.raises(TypeError, match="same_kind"):
        x = np.ones(3, dtype="int64")
        x += 1.5


def test_numpy_protocols_dispatch_to_maniple():
    x = numpy.linspace(0.5, 2.0, 13)
    a = np.asarray(x)
    r = numpy.sqrt(a)                      # __array_ufunc__
    assert isinstance(r, np.ndarray)
    numpy.testing.assert_allclose(A(r), numpy.sqrt(x), rtol=1e-15)
    r = numpy.add(a, 1.0)
    assert isinstance(r, np.ndarray)
    s = numpy.sum(a)                       # __array_function__
    assert s == pytest.approx(x.sum(), rel=1e-14)
    c = numpy.concatenate([a, a])
    assert isinstance(c, np.ndarray) and c.shape == (26,)
    out = np.zeros(13)
    numpy.multiply(a, 2.0, out=out)
    numpy.testing.assert_allclose(A(out), 2 * x)
    assert numpy.linalg.norm(a) == pytest.approx(numpy.linalg.norm(x), rel=1e-14)
    with pytest.raises(TypeError):         # NumPy's own (datetimes are NumPy's arrays), on the
        numpy.datetime_as_string(a)        # gathered array: its TypeError for float input
    assert A(a).shape == (13,)             # __array__ gathers the whole array


def test_manipulation_matches_numpy():
    x = numpy.arange(24.0).reshape(4, 6)
    y = -numpy.arange(12.0).reshape(2, 6)
    a, b = np.asarray(x), np.asarray(y)
    numpy.testing.assert_array_equal(A(np.concatenate([a, b])), numpy.concatenate([x, y]))
    numpy.testing.assert_array_equal(A(np.concatenate([a.T, b.T], axis=1)), numpy.concatenate([x.T, y.T], axis=1))
    numpy.testing.assert_array_equal(A(np.vstack([a, b])), numpy.vstack([x, y]))
    numpy.testing.assert_array_equal(A(np.hstack([a[:2], b])), numpy.hstack([x[:2], y]))
    numpy.testing.assert_array_equal(A(np.stack([a, a], axis=1)), numpy.stack([x, x], axis=1))
    numpy.testing.assert_array_equal(A(np.flip(a)), numpy.flip(x))
    numpy.testing.assert_array_equal(A(np.flip(a, 1)), numpy.flip(x, 1))
    numpy.testing.assert_array_equal(A(np.roll(a, 2, axis=1)), numpy.roll(x, 2, axis=1))
    numpy.testing.assert_array_equal(A(np.roll(a, -5)), numpy.roll(x, -5))
    numpy.testing.assert_array_equal(A(np.pad(a, 2)), numpy.pad(x, 2))
    numpy.testing.assert_array_equal(A(np.pad(a, ((1, 0), (0, 3)), constant_values=7)),
                                     numpy.pad(x, ((1, 0), (0, 3)), constant_values=7))
    numpy.testing.assert_array_equal(A(np.swapaxes(a, 0, 1)), numpy.swapaxes(x, 0, 1))
    numpy.testing.assert_array_equal(A(np.expand_dims(a, 1)), numpy.expand_dims(x, 1))
    numpy.testing.assert_array_equal(A(np.squeeze(a[:, :1])), numpy.squeeze(x[:, :1]))
    for p, q in zip(np.split(a, 3, axis=1), numpy.split(x, 3, axis=1)):
        numpy.testing.assert_array_equal(A(p), q)
    for p, q in zip(np.split(a, [1, 3]), numpy.split(x, [1, 3])):
        numpy.testing.assert_array_equal(A(p), q)
    with pytest.raises(ValueError, match="dimension 1"):
        np.concatenate([a, np.zeros((2, 5))])


def test_eye_meshgrid_norm_save_load():
    numpy.testing.assert_array_equal(A(np.eye(4, 6, k=1)), numpy.eye(4, 6, k=1))
    numpy.testing.assert_array_equal(A(np.identity(3, dtype="int32")), numpy.identity(3, dtype="int32"))
    x, y = numpy.linspace(-1, 1, 7), numpy.array([-0.0, 2.0, numpy.inf])
    for ix in ("xy", "ij"):
        for p, q in zip(np.meshgrid(x, y, indexing=ix), numpy.meshgrid(x, y, indexing=ix)):
            numpy.testing.assert_array_equal(A(p), q)
    v = numpy.random.default_rng(9).standard_normal(101)
    for o in (None, 1, numpy.inf):
        assert np.linalg.norm(np.asarray(v), o) == pytest.approx(numpy.linalg.norm(v, o), rel=1e-13)
    m = v[:100].reshape(10, 10)
    assert np.linalg.norm(np.asarray(m), "fro") == pytest.approx(numpy.linalg.norm(m, "fro"), rel=1e-13)
    import os
    import tempfile
    import maniple
    path = os.path.join(os.environ.get("MANIPLE_PYTEST_TMP") or tempfile.gettempdir(), f"maniple_np_save_np{maniple.size()}")
    np.save(path, np.asarray(m.astype(numpy.float32)))
    numpy.testing.assert_array_equal(numpy.load(path + ".npy"), m.astype(numpy.float32))
    numpy.testing.assert_array_equal(A(np.load(path + ".npy")), m.astype(numpy.float32))


def test_missing_names_say_so():
    with pytest.raises(AttributeError, match="does not implement numpy.nested_iters"):
        np.nested_iters  # iterates over views: never an announced fallback
    with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
        np.no_such_name


def test_coverage_report_reads_the_reference_table():
    from maniple.numpy import coverage
    rows = coverage.coverage()  # the table ships with the package
    assert len(rows) == 616
    status = dict(rows)
    assert status["add"] == "native" and status["sqrt"] == "native" and status["random.rand"] == "native"
    assert status["fft.fft"] == "native"
    native = sum(1 for _, s in rows if s == "native")
    assert native >= 140  # measured 142 when this test was written; only grows


def test_seed_cg_loop_with_dense_matrix():
    """The seed's conjugate-gradient loop on a dense SPD matrix."""
    rng = numpy.random.default_rng(11)
    n = 40
    m = rng.standard_normal((n, n))
    A_np = m @ m.T + n * numpy.eye(n)
    b_np = rng.standard_normal(n)

    def cg(xp, A, b, tolerance=1e-10):
        x = xp.zeros_like(b)
        r = b - A.dot(x)
        p = r
        rsold = r.dot(r)
        max_iters = b.shape[0]
        for i in range(max_iters):
            Ap = A.dot(p)
            alpha = rsold / (p.dot(Ap))
            x = x + alpha * p
            r = r - alpha * Ap
            rsnew = r.dot(r)
            if xp.sqrt(rsnew) < tolerance:
                break
            beta = rsnew / rsold
            p = r + beta * p
            rsold = rsnew
        return x, i

    x, it = cg(np, np.asarray(A_np), np.asarray(b_np))
    x_ref, it_ref = cg(numpy, A_np, b_np)
    assert abs(it - it_ref) <= 1
    numpy.testing.assert_allclose(A(x), numpy.linalg.solve(A_np, b_np), rtol=1e-8, atol=1e-10)
    numpy.testing.assert_allclose(A(np.asarray(A_np) @ np.asarray(b_np)), A_np @ b_np, rtol=1e-12)
    numpy.testing.assert_allclose(A(np.asarray(b_np) @ np.asarray(A_np)), b_np @ A_np, rtol=1e-12)
    with pytest.raises(ValueError, match="not aligned"):
        np.asarray(A_np).dot(np.ones(n + 1))
    numpy.testing.assert_allclose(A(np.asarray(A_np) @ np.asarray(A_np)), A_np @ A_np, rtol=1e-12)


def test_repeat_tile_diag():
    x = numpy.array([[1.0, -0.0, numpy.inf], [numpy.nan, 2.0, -3.0]])
    a = np.asarray(x)
    for args in ((2,), (3, 0), (2, 1), (0, 1)):
        numpy.testing.assert_array_equal(A(np.repeat(a, *args)), numpy.repeat(x, *args))
    numpy.testing.assert_array_equal(A(np.repeat(np.asarray([1, 2, 3]), 2)), numpy.repeat([1, 2, 3], 2))
    for reps in (2, (2, 1), (1, 3), (2, 2, 1)):
        numpy.testing.assert_array_equal(A(np.tile(a, reps)), numpy.tile(x, reps))
    v = numpy.array([1.0, -2.0, numpy.inf, 4.0])
    for k in (0, 1, -2):
        numpy.testing.assert_array_equal(A(np.diag(np.asarray(v), k)), numpy.diag(v, k))
    numpy.testing.assert_array_equal(A(np.diag(np.asarray([1, 2], dtype="int32"))), numpy.diag([1, 2]).astype("int32"))


def test_matrix_transpose_is_a_view():
    x = numpy.arange(24.0).reshape(2, 3, 4)
    a = np.asarray(x)
    t = np.matrix_transpose(a)
    numpy.testing.assert_array_equal(A(t), numpy.matrix_transpose(x))
    t[0, 0, 0] = -1.0  # writes through, as NumPy's view does
    assert a[0, 0, 0] == -1.0
    with pytest.raises(ValueError, match="at least 2-dimensional"):
        np.matrix_transpose(np.arange(3))


@pytest.mark.parametrize("case", ["1d_back", "1d_fwd", "2d_stencil", "2d_tall", "3d_7pt", "strided", "transposed"])
def test_inplace_assignment_reading_its_own_target(case):
    """NumPy evaluates the right-hand side before writing; maniple writes in
    bands (or through a temporary) and must give the same values, with
    several bands, backward and forward reads, and rank boundaries."""
    def run(xp):
        if case == "1d_back":
            x = xp.asarray(numpy.arange(100003.0) % 7)
            x[3:] = x[:-3] + 0.5 * x[2:-1] - x[3:]
            return x
        if case == "1d_fwd":
            x = xp.asarray(numpy.arange(70001.0) % 5)
            x[:-2] = x[2:] * 2 - x[1:-1]
            return x
        if case == "2d_stencil":
            g = xp.asarray(numpy.arange(1002.0 * 53).reshape(1002, 53) % 11)
            for _ in range(3):
                g[1:-1, 1:-1] = 0.2 * (g[1:-1, 1:-1] + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:])
            return g
        if case == "2d_tall":  # a backward reach of 5 rows
            g = xp.asarray(numpy.arange(3000.0 * 7).reshape(3000, 7) % 13)
            g[5:, :] = g[:-5, :] - g[5:, :]
            return g
        if case == "3d_7pt":
            g = xp.asarray(numpy.arange(30.0 * 31 * 32).reshape(30, 31, 32) % 17)
            c = g[1:-1, 1:-1, 1:-1]
            c[...] = (g[:-2, 1:-1, 1:-1] + g[2:, 1:-1, 1:-1] + g[1:-1, :-2, 1:-1] + g[1:-1, 2:, 1:-1] +
                      g[1:-1, 1:-1, :-2] + g[1:-1, 1:-1, 2:] - 6 * c)
            return g
        if case == "strided":  # odd elements from even ones: never overlapping
            x = xp.asarray(numpy.arange(4001.0))
            x[1::2] = x[0:-1:2] + x[2::2]
            return x
        g = xp.asarray(numpy.arange(64.0 * 64).reshape(64, 64))
        g[...] = g.T + g  # a transposed read: through a temporary
        return g
    got, want = run(np), run(numpy)
    numpy.testing.assert_array_equal(A(got), want)


def test_stencil_idiom_in_fresh_storage_reaches_every_alias():
    """A grid large enough (at 1, 2 and 3 ranks) that the idiom writes fresh
    storage: the boundary rows and columns carry across, earlier views and
    reshapes see every sweep, and at one rank on the cpu backend a NumPy
    array sharing the grid's memory (from_dlpack) sees it too (that storage
    is kept)"""
    import maniple

    def run(xp, share):
        g = xp.asarray(numpy.arange(402.0 * 402).reshape(402, 402) % 23 - 11)
        c, row = g[1:-1, 1:-1], g[7]
        flat, cube = g.reshape(-1), g.reshape(201, 2, 402)
        shared = numpy.from_dlpack(g) if share else None
        for _ in range(4):
            average = c + g[:-2, 1:-1] + g[2:, 1:-1] + g[1:-1, :-2] + g[1:-1, 2:]
            c[:] = 0.2 * average
        return [A(x) for x in (g, c, row, flat, cube)] + ([shared.copy()] if share else [])

    share = maniple.size() == 1 and maniple.backend() == "cpu"
    got, want = run(np, share), run(numpy, share)
    for k, (x, y) in enumerate(zip(got, want)):
        numpy.testing.assert_allclose(x, y, rtol=1e-13, atol=1e-13, err_msg=f"result {k}")


def test_zero_d_results_are_scalars_as_in_numpy():
    for fn in (lambda xp: xp.asarray(2.5) + 1, lambda xp: xp.sqrt(xp.asarray(4.0)), lambda xp: -xp.asarray(3),
               lambda xp: xp.asarray(2.0, dtype="float32") > 1, lambda xp: xp.asarray([1.5, 2.0])[0] * 2,
               lambda xp: xp.where(xp.asarray(True), 1.0, 2.0), lambda xp: xp.maximum(xp.asarray(1), 2),
               lambda xp: xp.clip(xp.asarray(5.0), 0, 1), lambda xp: xp.asarray(5.0).astype("float32")):
        got, want = fn(np), fn(numpy)
        if isinstance(want, numpy.ndarray):  # where and astype keep 0-d arrays
            assert isinstance(got, np.ndarray) and got.shape == () and float(got) == float(want)
            continue
        assert type(got) is type(want), (got, want)
        assert got == want
    out = np.zeros(())
    r = np.add(np.asarray(1.0), 2.0, out=out)
    assert r is out and float(out) == 3.0
