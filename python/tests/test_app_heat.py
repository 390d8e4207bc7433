"""apps/heat.py (the seeds' stencil): NumPy's run against plain loops,
maniple's run equal to NumPy's, the C program (apps/heat.c) equal to the
Python, and bad input rejected on every rank."""
import numpy
import pytest

import maniple
import maniple.numpy as mnp

from apptools import c_program, decode_png, load, run_singleton, shared_path

heat = load("heat")


def serial_loop(n, iterations):
    """The sweep point by point, reading only the previous iterate."""
    g = numpy.zeros((n + 2, n + 2))
    g[:, 0] = g[:, -1] = g[-1, :] = -273.15
    g[0, :] = 40.0
    for _ in range(iterations):
        new = g.copy()
        for i in range(1, n + 1):
            for j in range(1, n + 1):
                new[i, j] = 0.2 * (g[i, j] + g[i - 1, j] + g[i, j + 1] + g[i, j - 1] + g[i + 1, j])
        g = new
    return g


@pytest.mark.parametrize("n,iterations", [(1, 3), (6, 5), (11, 8)])
def test_numpy_run_equals_serial_loop(n, iterations):
    numpy.testing.assert_array_equal(heat.run(numpy, n, iterations), serial_loop(n, iterations))


@pytest.mark.parametrize("n,iterations", [(1, 2), (2, 3), (5, 4), (16, 10), (31, 7), (40, 0)])
def test_maniple_equals_numpy(n, iterations):
    a = heat.run(numpy, n, iterations)
    b = heat.run(mnp, n, iterations)
    assert isinstance(b, mnp.ndarray) and b.shape == (n + 2, n + 2)
    numpy.testing.assert_allclose(numpy.asarray(b), a, rtol=1e-15, atol=0)
    assert float(b.sum()) == pytest.approx(float(a.sum()), rel=1e-13)  # reduction order only


def test_c_program_equals_python():
    exe = c_program("MANIPLE_HEAT_EXE")
    if exe is None:
        pytest.skip("the C program's path is not set (MANIPLE_HEAT_EXE, set by python/CMakeLists.txt)")
    if maniple.rank() != 0:
        pytest.skip("rank 0 runs the C program")
    path = shared_path("heat_c") + ".npy"
    r = run_singleton(exe, ["--n", "23", "--iterations", "12", "--save", path, "--png", path + ".png"])
    assert r.returncode == 0, r.stderr
    py = heat.run(numpy, 23, 12)
    c = numpy.load(path)
    # the stencil layer adds 0.2 u + 0.2 (north + south) + 0.2 (west + east): rounding apart, the same sweep
    numpy.testing.assert_allclose(c, py, rtol=1e-13, atol=1e-12)
    checksum = float(r.stdout.split("checksum:")[1].split()[0])
    assert checksum == pytest.approx(float(py.sum()), rel=1e-12)
    # the same picture (a 25 x 25 grid drawn 16 pixels a point)
    assert heat.main(["--n", "23", "--iterations", "12", "--png", path + "_py.png"]) == 0
    px = decode_png(path + ".png")
    assert px.shape == (400, 400, 3)
    numpy.testing.assert_array_equal(px, decode_png(path + "_py.png"))


@pytest.mark.parametrize("n,iterations,msg", [
    (0, 5, "--n 0 is too small: the grid needs N >= 1 interior points"),
    (-4, 5, "--n -4 is too small"),
    (8, -1, "--iterations -1 is negative"),
])
def test_bad_input_on_every_rank(n, iterations, msg):
    for xp in (numpy, mnp):
        with pytest.raises(ValueError, match=msg):
            heat.run(xp, n, iterations)


def test_main_output_and_exit_status(capsys):
    png = shared_path("heat_main") + ".png"
    assert heat.main(["--n", "12", "--iterations", "4", "--backend", "maniple", "--png", png]) == 0
    out, _ = capsys.readouterr()
    if maniple.rank() == 0:
        assert f"maniple on {maniple.size()} rank(s)" in out and "M points/s" in out
        px = decode_png(png)  # 14 x 14 points, 29 pixels each
        assert px.shape == (406, 406, 3)
        numpy.testing.assert_array_equal(px[0, 0], [253, 231, 37])  # the warm top row: the map's top colour
        numpy.testing.assert_array_equal(px[-1, 0], [68, 1, 84])    # the cold sides: its bottom
        checksum = float(out.split("checksum:")[1].split()[0])
        assert checksum == pytest.approx(float(heat.run(numpy, 12, 4).sum()), rel=1e-13)
    else:
        assert out == ""
    assert heat.main(["--n", "0", "--backend", "maniple"]) == 2
    _, err = capsys.readouterr()
    assert "heat: error: --n 0 is too small" in err  # on every rank
