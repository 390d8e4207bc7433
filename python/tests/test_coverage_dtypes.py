"""`python -m maniple.numpy.coverage --dtypes / --keywords`: the measured
reports, run with NumPy beside maniple on every rank (mpiexec -n 1, 2, 3).
Every dtype maniple holds must agree with NumPy on every case (no refusal,
no different answer), and so must every keyword case."""
import pytest

from maniple.numpy import coverage, coverage_dtypes as cd
from maniple.numpy._dtypes import SUPPORTED


@pytest.mark.parametrize("dt", cd.DTYPES)
def test_cases_run_on_their_dtype(dt):
    """Each dtype's cases are arrays of that dtype (integer data divided
    by 1 once made every integer case a float64 one)."""
    assert cd._data(dt, 1).dtype == dt and cd._data(dt, 2).dtype == dt


def test_dtype_report_agrees_with_numpy():
    rep = cd.dtype_report(tuple(SUPPORTED))
    for dt, r in rep.items():
        # every ufunc and the common functions ran (complex has no integer, rounding or ordering ufuncs)
        assert len(r["ok"]) > (95 if dt.startswith("complex") else 100), dt
        for s in ("refused", "differs", "lenient"):
            assert not r[s], f"{dt} {s}: {r[s]}"


def test_keyword_report_agrees_with_numpy():
    for kw, r in cd.keyword_report().items():
        for s in ("refused", "differs", "lenient"):
            assert not r[s], f"{kw} {s}: {r[s]}"


def test_report_cli(capsys):
    assert coverage.main(["--keywords"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0].split() == ["keyword", "ok", "refused", "differs", "lenient"]
    assert "out=" in out and "order=" in out
