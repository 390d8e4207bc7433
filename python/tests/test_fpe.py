"""Floating-point exceptions as NumPy reports them: warnings by default,
np.errstate / seterr / seterrcall honoured, the settings where a line ran
applying to it even when maniple computes it later, and 'raise' decided
alike on every rank."""
import gc
import warnings

import numpy
import pytest

import maniple.numpy as mnp
from maniple import _core

ON_HOST = _core.backend() == "cpu"
pytestmark = pytest.mark.skipif(not ON_HOST, reason="device kernels raise no floating-point exceptions")


def caught(fn, xp):
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = fn(xp)
        numpy.asarray(r)
    return sorted(str(x.message) for x in w if issubclass(x.category, RuntimeWarning))


CASES = [lambda xp: xp.asarray([1.0, 0.0, -1.0]) / xp.asarray([0.0, 0.0, 0.0]),
         lambda xp: xp.log(xp.asarray([0.0, -1.0, 2.0])),
         lambda xp: xp.sqrt(xp.asarray([-1.0, 4.0])),
         lambda xp: xp.asarray([1e308, 1.0]) * 10,
         lambda xp: xp.exp(xp.asarray([1000.0, 0.0], dtype="float32")),
         lambda xp: xp.asarray([3, 4]) // xp.asarray([0, 2]),
         lambda xp: xp.asarray([3, 4], dtype="uint16") % xp.asarray([0, 3], dtype="uint16"),
         lambda xp: xp.asarray([numpy.nan, 1.0]) < 2.0,
         lambda xp: xp.maximum(xp.asarray([numpy.nan, 1.0]), 0.5),
         lambda xp: xp.clip(xp.asarray([numpy.nan, 3.0]), 0.0, 1.0),
         lambda xp: xp.remainder(xp.asarray([numpy.nan, 3.0]), 2.0),
         lambda xp: xp.isclose(xp.asarray([numpy.inf, 1.0]), xp.asarray([numpy.inf, numpy.nan])),
         lambda xp: xp.max(xp.asarray([numpy.nan, 1.0, 2.0])),
         lambda xp: xp.asarray([numpy.inf, 1.0]) - xp.asarray([numpy.inf, 1.0]) + 1.0,
         lambda xp: xp.reciprocal(xp.asarray([0, 1, -1, 2], dtype="int32")),
         lambda xp: xp.reciprocal(xp.asarray([3, 0], dtype="uint8")),
         lambda xp: xp.fmod(xp.asarray([3, 4]), xp.asarray([0, 3])),
         lambda xp: xp.fmod(xp.asarray([3, 4], dtype="uint16"), xp.asarray([2, 0], dtype="uint16")),
         lambda xp: xp.asarray([1e200, 1e200, 1.0]).dot(xp.asarray([1e200, 1e200, 1.0])),
         lambda xp: xp.dot(xp.asarray([numpy.inf, 0.0, 1.0]), xp.asarray([0.0, numpy.inf, 1.0]))]


@pytest.mark.parametrize("k", range(len(CASES)))
def test_warnings_as_numpy(k):
    fn = CASES[k]
    want, got = caught(fn, numpy), caught(fn, mnp)
    if _core.size() == 1:
        assert got == want
    else:  # each rank reports what its own elements raised
        assert set(got) <= set(want)


def test_errstate_settings_of_the_line_apply():
    n = 3 * _core.size()  # elements on every rank
    a, z = mnp.ones(n), mnp.zeros(n)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with mnp.errstate(divide="ignore"):
            r = a / z  # computed below, outside the block: still ignored
        numpy.testing.assert_array_equal(numpy.asarray(r), numpy.full(n, numpy.inf))
    with pytest.warns(RuntimeWarning, match="divide by zero encountered in divide"):
        r = a / z  # recorded under the defaults ...
        with mnp.errstate(divide="ignore"):
            numpy.asarray(r)  # ... and warned though computed under 'ignore'


def test_garbage_is_never_computed():
    """A pending array that only a reference cycle holds dies at each rank's
    own garbage collection: a change of settings computes nothing, so every
    rank makes the same calls (MANIPLE_CHECKS compares them)."""
    n = 5000 * _core.size()  # (past MANIPLE_EAGER_MAX: deferred)
    a, z = mnp.ones(n), mnp.zeros(n)
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        gc.disable()
        try:
            cycle = [a / z]
            cycle.append(cycle)
            del cycle
            if _core.rank() == 0:
                gc.collect()  # dead here, alive on the other ranks
            with mnp.errstate(divide="ignore"):
                b = (a + 1.0) * 2.0
            c = b - 1.0
        finally:
            gc.enable()
        numpy.testing.assert_array_equal(numpy.asarray(c), numpy.full(n, 3.0))
    assert [str(x.message) for x in w if issubclass(x.category, RuntimeWarning)] == []


def test_raise_comes_at_its_line():
    """Under 'raise' an operation is computed at once: the error comes
    where NumPy's does, and a pending value from before is computed under
    its own settings first."""
    n = 5000 * _core.size()  # (past MANIPLE_EAGER_MAX: deferred)
    a, z = mnp.arange(1.0, n + 1.0), mnp.zeros(n)
    before = a * 2.0  # pending, under the defaults
    with mnp.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            a / z
        before /= 4.0  # a pending value updated in place
        after = before + 1.0
    numpy.testing.assert_array_equal(numpy.asarray(after), numpy.arange(1.0, n + 1.0) / 2.0 + 1.0)


def test_raise_on_every_rank():
    """Only the last rank's block divides by zero; every rank raises."""
    n = 3 * _core.size()
    x = numpy.ones(n)
    x[-1] = 0.0
    a = mnp.asarray(x)
    with mnp.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="divide by zero encountered in divide"):
            numpy.asarray(1.0 / a)
        with pytest.raises(FloatingPointError, match="divide by zero encountered in log"):
            mnp.log(a).sum()
        numpy.testing.assert_array_equal(numpy.asarray(a + 1.0), x + 1.0)  # nothing raised: nothing raises
    old = mnp.seterr(invalid="raise")
    try:
        with pytest.raises(FloatingPointError, match="invalid value encountered in sqrt"):
            numpy.asarray(mnp.sqrt(a - 2.0))
    finally:
        mnp.seterr(**old)


def test_call_and_log():
    got = []
    a = mnp.asarray([1.0, 0.0])
    with mnp.errstate(divide="call", call=lambda kind, flags: got.append((kind, flags))):
        numpy.asarray(1.0 / a)
    with numpy.errstate(divide="call", call=lambda kind, flags: got.append((kind, flags))):
        1.0 / numpy.asarray([1.0, 0.0])
    if _core.size() == 1:
        assert got[0] == got[1] and got[0][0] == "divide by zero"

    class Log:
        text = []

        def write(self, s):
            self.text.append(s)
    with mnp.errstate(over="log", call=Log()):
        numpy.asarray(mnp.asarray([1e308, 1.0, 1.0]) * 10.0)
    want = ["Warning: overflow encountered in multiply\n"]
    assert Log.text == want if _core.rank() == 0 else Log.text in ([], want)  # the rank holding 1e308


def test_shape_known_events_follow_the_settings():
    """A mean or variance of nothing is 0/0, known from the shapes alone:
    'call' calls, 'raise' raises, as NumPy's division does."""
    for xp in (numpy, mnp):
        got = []
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with xp.errstate(invalid="call", call=lambda kind, flags: got.append((kind, flags))):
                numpy.asarray(xp.mean(xp.zeros((0, 3)), axis=0))
                xp.var(xp.zeros(0))
        if xp is numpy:
            want = got
    assert got == want and got, (got, want)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with mnp.errstate(invalid="raise"):
            with pytest.raises(FloatingPointError, match="invalid value encountered in scalar divide"):
                mnp.mean(mnp.zeros(0))


WHERE = [lambda xp: xp.asarray([1.0, 0.0]) / xp.asarray([0.0, 0.0]),
         lambda xp: xp.fmod(xp.asarray([3, 4]), xp.asarray([0, 3])).sum(),
         lambda xp: xp.mean(xp.asarray([])),
         lambda xp: xp.nanmax(xp.asarray([numpy.nan, numpy.nan])),
         lambda xp: xp.nanmedian(xp.asarray([[numpy.nan, 1.0], [numpy.nan, numpy.nan]]), axis=1),
         lambda xp: xp.var(xp.asarray([1.0]), ddof=2)]


@pytest.mark.parametrize("k", range(len(WHERE)))
def test_warnings_name_the_scripts_line(k):
    """A warning names the line that called maniple, as NumPy's names the
    line that called NumPy (Python's default filter shows it once per such
    line), not a line of maniple's own, however deep the evaluation is."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter("always")
        r = WHERE[k](mnp)
        numpy.asarray(r)
    if _core.size() == 1:
        assert w, "no warning"
    line = WHERE[k].__code__.co_firstlineno  # the lambda's line calls maniple
    assert [(x.filename, x.lineno) for x in w] == [(__file__, line)] * len(w), [(x.filename, x.lineno) for x in w]
