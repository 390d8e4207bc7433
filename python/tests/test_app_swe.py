"""apps/swe.py, the shallow-water app: its checks (Stoker and Ritter dam
breaks, lake at rest, Bernoulli over a bump, mass), maniple's run equal to
NumPy's run of the same code, the C program (apps/swe.c) equal to the
Python, the pictures, and the bad-input errors on every rank."""
import os

import numpy
import pytest

import maniple
import maniple.numpy as mnp

import apptools

swe = apptools.load("swe")
picture = apptools.load("picture")
BACKENDS = {"numpy": numpy, "maniple": mnp}


def shared_path(name):
    """A path every rank names alike (rank 0 writes, rank 0 reads)."""
    return apptools.shared_path(f"swe_{name}")


def run(backend, case, steps=None, t_end=None, **kw):
    sim = swe.Solver(BACKENDS[backend], case, **kw)
    sim.run(t_end if t_end is not None else swe.CASES[case]["t_end"], steps=steps)
    return sim


# ---- the checks ----
@pytest.mark.parametrize("case", ["dambreak1d", "ritter"])
def test_dambreak_error_small_and_dropping_with_resolution(case):
    coarse = swe.check(run("numpy", case, nx=50))
    fine = swe.check(run("numpy", case, nx=100))
    assert coarse["ok"] and fine["ok"], (coarse, fine)
    assert fine["error"] < 0.7 * coarse["error"], (coarse["error"], fine["error"])


@pytest.mark.parametrize("case", ["dambreak1d", "ritter"])
def test_dambreak_under_maniple(case):
    r = swe.check(run("maniple", case, nx=50))
    assert r["ok"], r


@pytest.mark.parametrize("backend", ["numpy", "maniple"])
def test_lake_at_rest_stays_at_rest(backend):
    sim = run(backend, "lake", steps=15, nx=18, ny=14)
    r = swe.check(sim)
    assert r["ok"] and r["error"] < 1e-13, r


@pytest.mark.parametrize("backend", ["numpy", "maniple"])
@pytest.mark.parametrize("bc", ["wall", "periodic", "periodic,periodic,wall,wall"])
def test_mass_conserved_in_a_closed_box(backend, bc):
    sim = run(backend, "mass", steps=12, nx=20, ny=16, bc=bc)
    r = swe.check(sim)
    assert r["ok"] and r["error"] < 1e-13, r
    assert numpy.abs(sim.fields()[1]).max() > 1e-3  # water moved


def test_bump_converges_to_bernoulli():
    sim = run("numpy", "bump", t_end=30.0, nx=40)
    r = swe.check(sim)
    assert r["ok"], r
    assert r["error_q"] < 0.02 and r["error"] < 6e-3, r


# ---- maniple runs the same code to the same numbers ----
@pytest.mark.parametrize("case,bc", [("dambreak1d", None), ("ritter", None), ("lake", "periodic"), ("mass", None),
                                     ("bump", None), ("dambreak2d", "periodic,periodic,wall,wall")])
def test_maniple_equals_numpy(case, bc):
    a = run("numpy", case, steps=6, nx=22, ny=10, bc=bc)
    b = run("maniple", case, steps=6, nx=22, ny=10, bc=bc)
    assert a.t == b.t  # dt is a max: no reduction-order difference
    for fa, fb in zip(a.fields(), b.fields()):
        numpy.testing.assert_allclose(fb, fa, rtol=1e-13, atol=1e-14)
    assert b.mass() == pytest.approx(a.mass(), rel=1e-13)


# ---- the C program gives the same fields ----
@pytest.mark.parametrize("case", ["mass", "ritter", "bump"])
def test_c_program_equals_python(case):
    exe = os.environ.get("MANIPLE_SWE_EXE")
    if not exe or not os.path.exists(exe):
        pytest.skip("the C program's path is not set (MANIPLE_SWE_EXE, set by python/CMakeLists.txt)")
    if maniple.rank() != 0:
        pytest.skip("rank 0 runs the C program")
    prefix = shared_path(f"c_{case}")
    args = ["--case", case, "--nx", "24", "--ny", "12", "--steps", "10"]
    r = apptools.run_singleton(exe, args + ["--save", prefix, "--png", prefix + ".png"])
    assert r.returncode in (0, 1), r.stderr  # 1: a check not met after 10 steps
    sim = run("numpy", case, steps=10, nx=24, ny=12)
    for name, f in zip(("h", "hu", "hv"), sim.fields()):
        numpy.testing.assert_allclose(numpy.load(f"{prefix}_{name}.npy"), f, rtol=1e-12, atol=1e-13, err_msg=name)
    picture.write_png(prefix + "_py.png", sim.fields()[0], origin="lower")
    numpy.testing.assert_array_equal(apptools.decode_png(prefix + ".png"), apptools.decode_png(prefix + "_py.png"))


# ---- pictures ----
def test_png_of_a_maniple_array_written_by_rank_0():
    a = mnp.asarray(numpy.arange(12.0).reshape(3, 4))
    path = shared_path("pic") + ".png"
    picture.write_png(path, a, vmin=0.0, vmax=11.0)
    if maniple.rank() == 0:
        px = apptools.decode_png(path)
        assert px.shape == (3, 4, 3)
        numpy.testing.assert_array_equal(px[0, 0], [68, 1, 84])     # vmin: the map's first colour
        numpy.testing.assert_array_equal(px[2, 3], [253, 231, 37])  # vmax: its last
        assert (numpy.diff(px[..., 1].ravel().astype(int)) >= 0).all()  # green rises along the map
    picture.write_png(path, a, origin="lower", cmap="gray")
    if maniple.rank() == 0:
        px = apptools.decode_png(path)
        assert px[0, 0, 0] == 185 and px[2, 0, 0] == 0  # 8/11 of white on top; row 0 at the bottom


def test_png_bad_input():
    with pytest.raises(ValueError, match="cmap 'jet'"):
        picture.write_png(shared_path("bad") + ".png", numpy.ones((2, 2)), cmap="jet")
    with pytest.raises(ValueError, match="non-empty 2-d array, got shape \\(3,\\)"):
        picture.write_png(shared_path("bad") + ".png", numpy.ones(3))


# ---- bad input: the same error on every rank, nothing changed ----
def test_negative_initial_depth():
    with pytest.raises(ValueError, match="initial depth is negative: min h = -1 \\(case dambreak1d\\)"):
        swe.Solver(mnp, "dambreak1d", nx=20, hl=-1.0)


def test_grid_too_small():
    with pytest.raises(ValueError, match="grid 1 x 2 is too small: the 2-ghost-cell stencil needs nx >= 2"):
        swe.Solver(mnp, "dambreak1d", nx=1)


def test_fixed_dt_above_the_cfl_limit_leaves_the_state_unchanged():
    sim = swe.Solver(mnp, "dambreak1d", nx=40)
    before = sim.fields()
    with pytest.raises(ValueError, match=r"--dt 0.5 violates the CFL condition at t = 0: the stable limit is "
                                         r"0.0199547 \(cfl 0.25\)"):
        sim.run(0.5, dt=0.5)
    for f0, f1 in zip(before, sim.fields()):
        numpy.testing.assert_array_equal(f1, f0)
    assert sim.t == 0.0 and sim.steps == 0
    sim.run(0.0625, dt=0.015625)  # a stable fixed dt runs (both exact in binary)
    assert sim.steps == 4 and sim.t == 0.0625


@pytest.mark.parametrize("text,msg", [
    ("wall,periodic", "give one kind or four"),
    ("inflow", "west inflow needs its discharge"),
    ("periodic,wall,wall,wall", "periodic along x needs both west and east periodic"),
    ("wall:3", "takes no value"),
    ("outflow:-1", "outflow depth -1.0 is negative"),
    ("sponge", "'sponge' is not periodic, wall, outflow"),
])
def test_bad_boundaries(text, msg):
    with pytest.raises(ValueError, match=msg):
        swe.Solver(mnp, "lake", nx=8, ny=8, bc=text)


def test_main_exit_status_and_output(capsys):
    assert swe.main(["--case", "lake", "--nx", "12", "--ny", "10", "--steps", "4", "--backend", "maniple"]) == 0
    assert swe.main(["--case", "dambreak1d", "--nx", "1", "--backend", "maniple"]) == 2
    out, err = capsys.readouterr()
    if maniple.rank() == 0:
        assert "check: lake at rest" in out and "PASS" in out and "M cell updates/s" in out and "ms/step" in out
        assert "swe: error: grid 1 x 2 is too small" in err
    else:
        assert out == "" and err == ""
