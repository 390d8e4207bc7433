"""apps/cavity.py (12 steps to Navier-Stokes, steps 11 and 12): the flows'
expected shapes, maniple's run equal to NumPy's run of the same code, the C
program (apps/cavity.c) equal to the Python, and bad input rejected on
every rank."""
import numpy
import pytest

import maniple
import maniple.numpy as mnp

from apptools import c_program, decode_png, load, run_singleton, shared_path

cavity = load("cavity")
SMALL = dict(nx=17, ny=13, nt=6, nit=8)
VARIANTS = [("cavity", 0.0), ("cavity", 0.2), ("channel", 0.0), ("channel", 0.3)]


# ---- the flows ----
def test_cavity_centreline_u_changes_sign():
    f = cavity.run(numpy, "cavity", nx=21, ny=21, nt=200, nit=30)
    line = f["u"][:, 10]
    assert line[-1] == 1.0 and line[0] == 0.0  # lid and floor
    assert line.min() < -0.05 and line.max() > 0  # the return flow under the lid's drag
    assert f["v"][10, 3] > 0 > f["v"][10, -4]  # up near the left wall, down near the right


def test_course_channel_stops_after_499_steps():
    f = cavity.run(numpy, "channel")  # the course's step 12 as printed there
    assert f["steps"] == 499
    assert numpy.abs(f["v"]).max() == 0.0  # no x dependence: v stays 0
    numpy.testing.assert_array_equal(f["u"], f["u"][:, :1] * numpy.ones((1, 41)))


def test_channel_approaches_poiseuille():
    ny = 21
    f = cavity.run(numpy, "channel", nx=5, ny=ny, nit=20, tol=1e-5)
    y = numpy.linspace(0, 2, ny)
    u = f["u"][:, 2]
    exact = 1.0 / (2 * 0.1) * y * (2 - y)  # F / (2 nu) y (2 - y), which the scheme keeps exactly
    assert numpy.abs(u / u.max() - y * (2 - y)).max() < 5e-3
    assert numpy.abs(u - exact).max() < 0.02 * exact.max()


# ---- maniple runs the same code to the same numbers ----
@pytest.mark.parametrize("case,perturb", VARIANTS)
def test_maniple_equals_numpy(case, perturb):
    a = cavity.run(numpy, case, perturb=perturb, **SMALL)
    b = cavity.run(mnp, case, perturb=perturb, **SMALL)
    assert a["steps"] == b["steps"] == SMALL["nt"]
    for k in "uvp":
        assert isinstance(b[k], mnp.ndarray)
        numpy.testing.assert_allclose(numpy.asarray(b[k]), a[k], rtol=1e-13, atol=1e-13, err_msg=k)
    sa, sb = cavity.summary(numpy, a), cavity.summary(mnp, b)
    assert sa == pytest.approx(sb, rel=1e-13, abs=1e-13)


def test_maniple_channel_stops_where_numpy_does():
    a = cavity.run(numpy, "channel", nx=9, ny=9, nit=5, tol=2e-2)
    b = cavity.run(mnp, "channel", nx=9, ny=9, nit=5, tol=2e-2)
    assert a["steps"] == b["steps"] and 3 < a["steps"] < 100
    numpy.testing.assert_allclose(numpy.asarray(b["u"]), a["u"], rtol=1e-13, atol=1e-13)


# ---- the C program gives the same fields ----
@pytest.mark.parametrize("case,perturb", VARIANTS)
def test_c_program_equals_python(case, perturb):
    exe = c_program("MANIPLE_CAVITY_EXE")
    if exe is None:
        pytest.skip("the C program's path is not set (MANIPLE_CAVITY_EXE, set by python/CMakeLists.txt)")
    if maniple.rank() != 0:
        pytest.skip("rank 0 runs the C program")
    prefix = shared_path(f"cavity_c_{case}_{perturb}")
    args = ["--case", case, "--perturb", repr(perturb)] + [x for k, v in SMALL.items() for x in (f"--{k}", str(v))]
    r = run_singleton(exe, args + ["--save", prefix, "--png", prefix + ".png"])
    assert r.returncode == 0, r.stderr
    assert f"{SMALL['nt']} steps" in r.stdout
    f = cavity.run(numpy, case, perturb=perturb, **SMALL)
    for k in "uvp":
        numpy.testing.assert_allclose(numpy.load(f"{prefix}_{k}.npy"), f[k], rtol=1e-12, atol=1e-13, err_msg=k)
    # the same picture of the speed (17 x 13 points, 24 pixels each)
    assert cavity.main(args + ["--png", prefix + "_py.png"]) == 0
    px = decode_png(prefix + ".png")
    assert px.shape == (13 * 24, 17 * 24, 3)
    numpy.testing.assert_array_equal(px, decode_png(prefix + "_py.png"))


# ---- bad input: the same error on every rank ----
@pytest.mark.parametrize("kw,msg", [
    (dict(nx=2), "grid 2 x 41 is smaller than the 3-point stencil"),
    (dict(ny=1), "grid 41 x 1 is smaller than the 3-point stencil"),
    (dict(dt=0.0), "--dt 0 must be positive"),
    (dict(dt=-0.001), "--dt -0.001 must be positive"),
    (dict(nu=-0.1), "--nu -0.1 must be positive"),
    (dict(rho=0.0), "--rho 0 must be positive"),
    (dict(nt=-1), "--nt -1 is negative"),
    (dict(nit=-2), "--nit -2 is negative"),
    (dict(case="box"), "--case 'box' is not one of cavity, channel"),
])
def test_bad_input_on_every_rank(kw, msg):
    kw = dict(dict(case="cavity"), **kw)
    for xp in (numpy, mnp):
        with pytest.raises(ValueError, match=msg):
            cavity.run(xp, **kw)


def test_main_output_and_exit_status(capsys):
    args = ["--nx", "11", "--ny", "9", "--nt", "3", "--nit", "4", "--backend", "maniple"]
    assert cavity.main(args) == 0
    out, _ = capsys.readouterr()
    if maniple.rank() == 0:
        assert f"3 steps, nit 4, maniple on {maniple.size()} rank(s)" in out
        for key in ("max |u| =", "centre (x = 1, y = 1): u =", "centreline x = 1", "M points/s"):
            assert key in out
    else:
        assert out == ""
    assert cavity.main(["--nx", "2", "--backend", "maniple"]) == 2
    _, err = capsys.readouterr()
    assert "cavity: error: grid 2 x 41 is smaller than the 3-point stencil" in err  # on every rank


BLOWUP = ["--nx", "41", "--ny", "41", "--dt", "0.05", "--nt", "100", "--nit", "10"]
BLOWUP_MSG = "the solution blew up: u holds NaN or Inf after step"


@pytest.mark.parametrize("backend", ["numpy", "maniple"])
def test_blow_up_is_an_error_naming_the_step(backend, capsys):
    """dt = 0.05 on 41 x 41 is unstable: NumPy's own run overflows to NaN;
    the app must say so and exit 2, not print nan and exit 0."""
    f = cavity.run(numpy, "cavity", nx=41, ny=41, nt=100, nit=10, dt=0.05)
    with numpy.errstate(all="ignore"):
        assert not numpy.isfinite(numpy.sum(f["u"]))  # the reference really blows up
    with numpy.errstate(all="ignore"):  # NumPy's overflow warnings on the way
        rc = cavity.main(BLOWUP + ["--backend", backend])
    assert rc == 2
    _, err = capsys.readouterr()
    assert f"cavity: error: {BLOWUP_MSG} 100" in err  # on every rank


def test_c_program_blow_up_names_the_step():
    exe = c_program("MANIPLE_CAVITY_EXE")
    if exe is None:
        pytest.skip("the C program is not built (MANIPLE_CAVITY_EXE)")
    if maniple.rank() != 0:
        pytest.skip("rank 0 runs the C program")  # singletons started from every rank at once can hang
    r = run_singleton(exe, BLOWUP)
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert f"cavity: error: {BLOWUP_MSG} 50" in r.stderr, r.stderr  # found by the check every 50 steps
    assert "nan" not in r.stdout
    r = run_singleton(exe, ["--nx", "401", "--ny", "401", "--dt", "1e-3", "--nt", "60", "--nit", "5"])
    assert r.returncode == 2 and BLOWUP_MSG in r.stderr, (r.returncode, r.stdout, r.stderr)
