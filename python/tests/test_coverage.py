"""The coverage report (`python -m maniple.numpy.coverage`): every name of
the reference table classified once, totals that add up, and what it calls
native really maniple's own."""
import re
import types

import numpy
import pytest

import maniple.numpy as np
from maniple.numpy import coverage
from maniple.numpy._dtypes import SUPPORTED


@pytest.fixture(scope="module")
def rows():
    return coverage.coverage()  # the table ships with the package


def test_every_name_classified_once(rows):
    names = [n for n, _ in rows]
    assert len(names) == 616 and len(set(names)) == 616
    assert {s for _, s in rows} <= set(coverage.CATEGORIES)
    assert not any(n.endswith("()") or n.startswith("numpy.") for n in names)


def test_printed_totals_add_up(rows, capsys):
    coverage.main([])
    last = capsys.readouterr().out.strip().splitlines()[-1]
    m = re.fullmatch(r"(\d+) NumPy names: (\d+) native, (\d+) gathered, (\d+) fallback, (\d+) missing", last)
    assert m, last
    total, *counts = (int(g) for g in m.groups())
    assert total == 616 == sum(counts)
    assert counts == [sum(1 for _, s in rows if s == c) for c in coverage.CATEGORIES]


def test_ndarray_methods_are_looked_up_on_the_class(rows):
    status = dict(rows)
    for method in ("all", "any", "sum", "astype", "copy", "reshape", "transpose", "mean", "dot", "fill"):
        assert status[f"ndarray.{method}"] == "native"
    assert status["ndarray"] == "native"
    assert status["ndarray.setflags"] == "native"
    assert status["ndarray.byteswap"] == "native" and status["ndarray.getfield"] == "missing"


def test_native_means_maniple_own(rows):
    """A name reported native exists in maniple.numpy, is no gathered or
    fallback function, and is maniple's own callable (not NumPy's function
    re-exported, but for the helpers that take no array data, listed in
    maniple.numpy._meta.NO_DATA), or a type: a dtype maniple holds, an
    abstract type above one, or a class."""
    from maniple.numpy import _meta
    for name, status in rows:
        if status != "native":
            continue
        obj = coverage._resolve(np, name)
        assert obj is not None, name
        assert getattr(obj, "_mn_kind", None) is None, name
        if name in _meta.NO_DATA:
            continue
        if isinstance(obj, type):
            if issubclass(obj, numpy.generic) and obj not in (numpy.generic, numpy.number, numpy.integer,
                                                             numpy.signedinteger, numpy.unsignedinteger,
                                                             numpy.inexact, numpy.floating, numpy.complexfloating):
                assert str(numpy.dtype(obj)) in SUPPORTED, name
            continue
        assert callable(obj), name
        if isinstance(obj, (types.FunctionType, types.MethodType)):
            assert obj.__module__.startswith("maniple"), f"{name} is {obj.__module__}'s"


def test_other_categories_follow_mn_kind(rows):
    for name, status in rows:
        if status in ("gathered", "fallback"):
            if name.split(".")[0] in np._GATHERED_NAMES:  # NumPy's own objects, gathered by __array__
                assert status == "gathered" and coverage._resolve(np, name) is coverage._resolve(numpy, name), name
                continue
            assert getattr(coverage._resolve(np, name), "_mn_kind") == status, name


def test_dtypes_maniple_cannot_hold_stay_missing(monkeypatch):
    assert coverage.classify("float64") == "native"
    assert coverage.classify("int32") == "native"
    assert coverage.classify("uint16") == "native"
    assert coverage.classify("float16") == "native"
    assert coverage.classify("complex64") == "native"
    for name in ("longdouble", "clongdouble", "character"):
        monkeypatch.setattr(np, name, getattr(numpy, name), raising=False)
        assert coverage.classify(name) == "missing", name


def test_numpy_own_gathered_names_take_maniple_arrays():
    """np.ma, np.matrix, np.asmatrix and np.bmat are NumPy's: a maniple array
    is gathered into them through __array__ (the same on every rank)."""
    x = numpy.arange(12.0).reshape(3, 4)
    a = np.asarray(x)
    m = np.asmatrix(a)
    assert type(m) is numpy.matrix
    numpy.testing.assert_array_equal(m, x)
    numpy.testing.assert_array_equal(np.bmat([[a, a]]), numpy.bmat([[x, x]]))
    numpy.testing.assert_array_equal(np.matrix(a) * np.matrix(a).T, numpy.matrix(x) * numpy.matrix(x).T)
    ma = np.ma.masked_array(a, mask=a > 5)
    assert ma.sum() == numpy.ma.masked_array(x, mask=x > 5).sum() == 15.0
    assert np._core.sctypes["float"] == numpy._core.sctypes["float"]
    assert coverage.classify("matrix") == coverage.classify("asmatrix") == "gathered"
