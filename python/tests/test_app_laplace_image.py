"""apps/laplace_image.py: the Jacobi error decreasing and CG recovering the
picture, maniple's run equal to NumPy's run of the same code, the C program
(apps/laplace_image.c) equal to the Python, the PGM reader and writer, and
bad files rejected on every rank with the file's name."""
import os

import numpy
import pytest

import maniple
import maniple.numpy as mnp
import maniple.sparse.linalg as mspla
import scipy.sparse.linalg as sspla

import apptools

pytestmark = pytest.mark.filterwarnings("ignore:maniple.numpy. reshape")

li = apptools.load("laplace_image")
pgm = apptools.load("pgm")
BACKENDS = {"numpy": (numpy, sspla), "maniple": (mnp, mspla)}


def picture(m=24, n=20):
    """a small grey picture with a ramp and a square (uint8, like a PGM's)"""
    i, j = numpy.mgrid[0:m, 0:n]
    img = 40 + 5 * i + 3 * j
    img[6:14, 5:12] = 220
    return img.astype(numpy.uint8)


def reconstruct(backend, pix, iterations, every, rtol=1e-10):
    np, spla = BACKENDS[backend]
    img = np.asarray(pix.astype(numpy.float32))
    blur = li.laplacian(np, img)
    xj, rows, _ = li.jacobi(np, blur, img, iterations, every)
    xc, its, _ = li.cg(np, spla, blur, rtol)
    return dict(blur=blur, xj=xj, rows=rows, xc=xc, its=its, cg=li.errors(np, xc, img))


def test_laplacian_against_loops():
    pix = picture(7, 6).astype(float)
    m, n = pix.shape
    want = numpy.zeros((m, n))
    for i in range(m):
        for j in range(n):
            at = lambda a, b: pix[a, b] if 0 <= a < m and 0 <= b < n else 0.0  # noqa: E731
            want[i, j] = at(i - 1, j) + at(i + 1, j) + at(i, j - 1) + at(i, j + 1) - 4 * pix[i, j]
    got = li.laplacian(mnp, mnp.asarray(pix.astype(numpy.float32)))
    assert got.dtype == numpy.float32
    numpy.testing.assert_array_equal(numpy.asarray(got), want)  # integers: exact in float32


def test_jacobi_error_decreases_and_cg_recovers_the_picture():
    r = reconstruct("numpy", picture(), 1500, 300)
    assert li.decreasing(r["rows"]), r["rows"]
    assert r["rows"][-1][1] < 0.5 * r["rows"][0][1], r["rows"]
    assert r["cg"][0] < 1e-6, r["cg"]


def test_maniple_equals_numpy():
    want, got = reconstruct("numpy", picture(), 400, 100), reconstruct("maniple", picture(), 400, 100)
    assert isinstance(got["xj"], mnp.ndarray) and numpy.asarray(got["xj"]).dtype == numpy.float32
    numpy.testing.assert_array_equal(numpy.asarray(got["blur"]), want["blur"])
    # float32 sweeps: the same operations in the same order, so only rounding of fused evaluation may differ
    numpy.testing.assert_allclose(numpy.asarray(got["xj"]), want["xj"], rtol=1e-5, atol=1e-3)
    for (s1, m1, r1), (s2, m2, r2) in zip(got["rows"], want["rows"]):
        assert s1 == s2 and m1 == pytest.approx(m2, rel=1e-5) and r1 == pytest.approx(r2, rel=1e-5)
    assert abs(got["its"] - want["its"]) <= 1, (got["its"], want["its"])
    numpy.testing.assert_allclose(numpy.asarray(got["xc"]), want["xc"], rtol=0, atol=1e-7)


def test_main_with_the_shipped_picture(capsys):
    prefix = shared_path("main")
    rc = li.main(["--iterations", "600", "--every", "200", "--backend", "maniple", "--png", prefix + ".png",
                  "--pgm", prefix])
    out = capsys.readouterr().out
    assert rc == 0, out
    if maniple.rank() == 0:
        assert "cg (float64, matrix-free):" in out and "throughput:" in out, out
        with open(prefix + ".png", "rb") as f:
            assert f.read(8) == b"\x89PNG\r\n\x1a\n"
        cg = pgm.read_pgm(prefix + "_cg.pgm")
        numpy.testing.assert_array_equal(cg, pgm.read_pgm(li.DEFAULT_IMAGE))  # recovered to the last grey level


def shared_path(name):
    """A path every rank names alike (rank 0 writes, rank 0 reads)."""
    return apptools.shared_path(f"laplace_image_{name}")


# ---- PGM files ----
def test_pgm_round_trip(tmp_path):
    pix = picture(5, 7)
    path = str(tmp_path / "a.pgm")
    pgm.write_pgm(path, pix)  # plain NumPy: every rank writes its own file here
    if maniple.rank() == 0:
        got = pgm.read_pgm(path)
        assert got.dtype == numpy.uint8 and got.shape == (5, 7)
        numpy.testing.assert_array_equal(got, pix)
    p16 = tmp_path / "b.pgm"  # 16-bit samples, comments in the header
    p16.write_bytes(b"P5 # a comment\n3 2\n# another\n1000\n" + numpy.arange(6, dtype=">u2").tobytes())
    numpy.testing.assert_array_equal(pgm.read_pgm(str(p16)), numpy.arange(6).reshape(2, 3))


@pytest.mark.parametrize("content,message", [
    (b"P2\n2 2\n255\n1 2 3 4\n", "not a binary PGM \\(P5\\): it starts with 'P2'"),
    (b"", "not a binary PGM \\(P5\\): it starts with 'nothing \\(an empty file\\)'"),
    (b"P5\n4 4\n255\nabc", "truncated: 3 of 16 bytes of pixels \\(4 x 4, maxval 255\\)"),
    (b"P5\n4 4\n", "truncated PGM header: no maxval"),
    (b"P5\n4 x4\n255\n", "bad PGM header: height 'x4' is not a number"),
    (b"P5\n5 2\n255\nABCDEFGHIJ", "image 2 x 5 is smaller than the 5-point stencil \\(3 x 3\\)"),
])
@pytest.mark.parametrize("backend", ["numpy", "maniple"])
def test_bad_files_rejected_on_every_rank(tmp_path, content, message, backend, capsys):
    path = tmp_path / "bad.pgm"  # each rank's own file: every rank must find the error itself
    path.write_bytes(content)
    with pytest.raises(li.InputError, match=message) as e:
        li.read_image(str(path))
    assert str(path) in str(e.value)
    assert li.main(["--image", str(path), "--backend", backend]) == 2
    err = capsys.readouterr().err
    if maniple.rank() == 0:
        assert "laplace_image: error:" in err and str(path) in err, err


def test_missing_file_named(tmp_path):
    path = str(tmp_path / "absent.pgm")
    with pytest.raises(li.InputError, match="absent.pgm: cannot read"):
        li.read_image(path)


# ---- the C program ----

def test_c_program_equals_python():
    exe = os.environ.get("MANIPLE_LAPLACE_IMAGE_EXE")
    if not exe or not os.path.exists(exe):
        pytest.skip("the C program's path is not set (MANIPLE_LAPLACE_IMAGE_EXE, set by python/CMakeLists.txt)")
    if maniple.rank() != 0:
        pytest.skip("rank 0 runs the C program")
    path = shared_path("c") + ".pgm"
    pix = picture()
    pgm.write_pgm(path, pix)
    r = apptools.run_singleton(exe, ["--image", path, "--iterations", "900", "--every", "300"])
    assert r.returncode == 0, r.stdout + r.stderr
    rows = [tuple(float(v) for v in line.split()) for line in r.stdout.splitlines()
            if len(line.split()) == 3 and line.split()[0].isdigit()]
    want = reconstruct("numpy", pix, 900, 300)
    assert [int(s) for s, _, _ in rows] == [s for s, _, _ in want["rows"]], r.stdout
    # C sweeps u + (f - A u) / D (mn_stencil_jacobi), the seed (sum - B) / 4: rounding apart
    for (_, m1, r1), (_, m2, r2) in zip(rows, want["rows"]):
        assert m1 == pytest.approx(m2, rel=1e-3) and r1 == pytest.approx(r2, rel=1e-3)
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("cg "))
    its = int(line.split(":")[1].split()[0])
    assert abs(its - want["its"]) <= 1, (line, want["its"])
