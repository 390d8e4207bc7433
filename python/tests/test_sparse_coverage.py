"""The coverage report (`python -m maniple.sparse.coverage`): every SciPy
name classified once, totals that add up, and names called native really
maniple.sparse's own."""
import re

import pytest

import maniple.sparse as msp
from maniple.sparse import coverage


@pytest.fixture(scope="module")
def rows():
    return coverage.coverage()


def test_every_name_classified_once(rows):
    names = [n for n, _ in rows]
    assert len(names) == len(set(names)) > 100
    assert {s for _, s in rows} <= set(coverage.CATEGORIES)
    status = dict(rows)
    for name in ("csr_array", "coo_matrix", "eye", "kron", "save_npz", "csr_array.toarray", "csr_array.sum",
                 "csr_array.multiply", "csr_array.diagonal"):
        assert status[name] == "native", name
    for name in ("lil_array", "dok_matrix", "bsr_array", "csr_array.tolil", "csr_array.setdiag"):
        assert status[name] == "missing", name


def test_printed_totals_add_up(rows, capsys):
    coverage.main([])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(r"(\d+) scipy.sparse names: (\d+) native, (\d+) fallback, (\d+) missing", last)
    assert m, last
    total, *counts = (int(g) for g in m.groups())
    assert total == len(rows) == sum(counts)


def test_native_means_maniple_own(rows):
    for name, status in rows:
        if status != "native":
            continue
        obj = msp
        for part in name.split("."):
            obj = getattr(obj, part)
        mod = getattr(obj, "__module__", None) or ""
        assert not mod.startswith("scipy"), name


def test_missing_names_raise_attribute_error(rows):
    for name, status in rows:
        if status == "missing" and "." not in name:
            with pytest.raises(AttributeError, match="maniple.sparse does not implement"):
                getattr(msp, name)
