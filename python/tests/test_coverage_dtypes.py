"""`python -m maniple.numpy.coverage --dtypes / --keywords`: the measured
reports, run with NumPy beside maniple on every rank (mpiexec -n 1, 2, 3).
Every dtype maniple holds must agree with NumPy on every case (no refusal,
no different answer), and so must every keyword case."""
import pytest

from maniple.numpy import coverage, coverage_dtypes as cd
from maniple.numpy._dtypes import SUPPORTED


def test_dtype_report_agrees_with_numpy():
    rep = cd.dtype_report(tuple(t for t in SUPPORTED if not t.startswith("complex")))
    for dt, r in rep.items():
        assert len(r["ok"]) > 100, dt  # every ufunc and the common functions ran
        for s in ("refused", "differs", "lenient"):
            assert not r[s], f"{dt} {s}: {r[s]}"


@pytest.mark.parametrize("dt", ["complex64", "complex128"])
def test_complex_refusals_are_the_known_ones(dt):
    """complex runs the arithmetic, exponentials, trigonometry, sums and
    products, indexing and products natively; what it still refuses is
    listed in docs/python.md and raises a TypeError (never a different
    answer)."""
    r = cd.dtype_report((dt,))[dt]
    assert not r["differs"] and not r["lenient"]
    assert len(r["ok"]) >= 93 and len(r["refused"]) <= 5, r["refused"]


def test_keyword_report_agrees_with_numpy():
    for kw, r in cd.keyword_report().items():
        for s in ("refused", "differs", "lenient"):
            assert not r[s], f"{kw} {s}: {r[s]}"


def test_report_cli(capsys):
    assert coverage.main(["--keywords"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["keyword", "ok", "refused", "differs", "lenient"]
    assert "out=" in out and "order=" in out
