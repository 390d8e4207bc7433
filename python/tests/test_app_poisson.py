"""apps/poisson.py: second order, matrix-free equal to assembled, maniple's
run equal to NumPy's run of the same code, the C program (apps/poisson.c)
equal to the Python, and bad input rejected on every rank."""
import importlib.util
import os
import subprocess

import numpy
import pytest

import maniple
import maniple.numpy as mnp
import maniple.sparse as msp
import maniple.sparse.linalg as mspla
import scipy.sparse as ssp
import scipy.sparse.linalg as sspla

APPS = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir, "apps")
pytestmark = pytest.mark.filterwarnings("ignore:maniple.numpy. reshape")


def _load(name):
    spec = importlib.util.spec_from_file_location(f"app_{name}", os.path.join(APPS, f"{name}.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


poisson = _load("poisson")
BACKENDS = {"numpy": (numpy, ssp, sspla), "maniple": (mnp, msp, mspla)}


def solve(backend, n, dim, pc="none", rtol=1e-10):
    np, sp, spla = BACKENDS[backend]
    return poisson.solve(np, sp, spla, n, dim, rtol, pc)


@pytest.mark.parametrize("dim,n", [(2, 31), (3, 15)])
def test_second_order(dim, n):
    rows = [solve("numpy", m, dim) for m in poisson.grids(n, 3)]
    for o in poisson.orders(rows) + poisson.orders(rows, "err_rms")[1:]:
        assert abs(o - 2) < poisson.ORDER_TOL, [r["err_max"] for r in rows]


@pytest.mark.parametrize("backend", ["numpy", "maniple"])
@pytest.mark.parametrize("dim,n,pc", [(2, 15, "none"), (2, 15, "jacobi"), (3, 7, "jacobi")])
def test_matrix_free_equals_assembled(backend, dim, n, pc):
    r = solve(backend, n, dim, pc)
    assert abs(r["its_mf"] - r["its_as"]) <= 1, r
    assert r["diff"] <= 1e-12 * 10 ** dim, r


@pytest.mark.parametrize("dim,n,pc", [(2, 15, "none"), (3, 7, "jacobi")])
def test_maniple_equals_numpy(dim, n, pc):
    want, got = solve("numpy", n, dim, pc), solve("maniple", n, dim, pc)
    assert isinstance(got["x"], mnp.ndarray)
    for k in ("its_mf", "its_as"):  # reductions in another order: one iteration either way
        assert abs(got[k] - want[k]) <= 1, (k, got[k], want[k])
    for k in ("err_max", "err_rms"):
        assert got[k] == pytest.approx(want[k], rel=1e-6), k
    numpy.testing.assert_allclose(numpy.asarray(got["x"]), want["x"], rtol=0, atol=1e-9)


def test_main_prints_the_order_and_passes(capsys):
    rc = poisson.main(["--dim", "2", "--n", "15", "--levels", "2", "--backend", "maniple"])
    out = capsys.readouterr().out
    assert rc == 0
    if maniple.rank() == 0:
        assert "order (max error):" in out and "PASS" in out and "throughput:" in out, out


@pytest.mark.parametrize("backend", ["numpy", "maniple"])
def test_grid_smaller_than_the_stencil(backend, capsys):
    with pytest.raises(poisson.InputError, match="grid smaller than the stencil: --n 2 gives 2 points per side"):
        solve(backend, 2, 2)
    assert poisson.main(["--n", "2", "--backend", backend]) == 2
    err = capsys.readouterr().err
    if maniple.rank() == 0:
        assert "poisson: error: grid smaller than the stencil" in err, err


def test_bad_dim_and_levels():
    with pytest.raises(poisson.InputError, match="--dim 4: 2 or 3"):
        poisson.check_grid(5, 4)
    assert poisson.main(["--levels", "0", "--backend", "maniple"]) == 2


def _clean_env():
    """the C program as a single process of its own, not a rank of this job"""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("OMPI_", "PMIX_", "PRTE_", "OPAL_", "PMI_", "HYDRA_"))}
    env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1", OMP_NUM_THREADS="1")
    return env


def _rows(out):
    """the table rows the programs print: n, h, its mf, its as, errors, |mf - as|"""
    rows = []
    for line in out.splitlines():
        f = line.split()
        if len(f) == 7 and f[0].isdigit():
            rows.append(dict(n=int(f[0]), its_mf=int(f[2]), its_as=int(f[3]), err_max=float(f[4]),
                             err_rms=float(f[5])))
    return rows


@pytest.mark.parametrize("dim,n,pc", [(2, 31, "none"), (3, 15, "jacobi")])
def test_c_program_equals_python(dim, n, pc):
    exe = os.environ.get("MANIPLE_POISSON_EXE")
    if not exe or not os.path.exists(exe):
        pytest.skip("the C program's path is not set (MANIPLE_POISSON_EXE, set by python/CMakeLists.txt)")
    if maniple.rank() != 0:
        pytest.skip("rank 0 runs the C program")
    r = subprocess.run([exe, "--dim", str(dim), "--n", str(n), "--levels", "2", "--pc", pc], env=_clean_env(),
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    got = _rows(r.stdout)
    assert [g["n"] for g in got] == poisson.grids(n, 2), r.stdout
    for g in got:
        want = solve("numpy", g["n"], dim, pc)
        assert abs(g["its_mf"] - want["its_mf"]) <= 1 and abs(g["its_as"] - want["its_as"]) <= 1, (g, want)
        for k in ("err_max", "err_rms"):  # printed to 5 digits
            assert g[k] == pytest.approx(want[k], rel=2e-4), (k, g, want)


def test_c_program_rejects_a_negative_n():
    """--n -1 ran the default size silently"""
    from apptools import c_program, run_singleton
    exe = c_program("MANIPLE_POISSON_EXE")
    if exe is None:
        pytest.skip("the C program is not built (MANIPLE_POISSON_EXE)")
    assert poisson.main(["--n", "-1", "--backend", "numpy"]) == 2
    if maniple.rank() != 0:
        pytest.skip("rank 0 runs the C program")  # singletons started from every rank at once can hang
    for n in ("-1", "-5"):
        r = run_singleton(exe, ["--n", n])
        assert r.returncode == 2 and f"poisson: error: --n {n} is negative" in r.stderr, (r.returncode, r.stderr)
