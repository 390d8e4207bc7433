"""Every rank runs the same tests in the same order (SPMD)."""
import gc
import os
import tempfile

import pytest

import maniple
from maniple import _core

maniple.init()

# Files that ranks share go in one directory per session, the same on every
# rank (rank 0 makes it): names that hold only the rank count would meet
# those of another session at that count (pytest_np3 and pytest_checks_np3
# run at once, in one MANIPLE_TEST_TMP).
if "MANIPLE_PYTEST_TMP" not in os.environ:
    _base = os.environ.get("MANIPLE_TEST_TMP") or tempfile.gettempdir()
    _dir = None
    if maniple.rank() == 0:
        os.makedirs(_base, exist_ok=True)
        _dir = tempfile.mkdtemp(prefix=f"pytest_np{maniple.size()}_", dir=_base).encode()
    os.environ["MANIPLE_PYTEST_TMP"] = _core.bcast(_dir, 0).decode()


@pytest.fixture
def logging_on():
    """The profiling log on and zeroed for a test, off and zeroed after."""
    maniple.log_enable()
    maniple.log_reset()
    yield
    maniple.log_enable(False)
    maniple.log_reset()


@pytest.fixture
def deferred(monkeypatch):
    """Small operations deferred as large ones are (no eager evaluation),
    for tests of the deferral and fusion themselves on small arrays."""
    from maniple.numpy import _engine
    monkeypatch.setattr(_engine, "EAGER_MAX", 0)


_tests_run = 0


@pytest.fixture(autouse=True)
def _same_collections_on_every_rank():
    """A full garbage collection before each test, on every rank. The lazy
    front end evaluates a pending array only while something holds it; one
    that dies in a reference cycle lives until the cyclic collector runs,
    and that runs after a count of allocations that differs between ranks
    where rank 0 does more (files, printing). Starting each test from the
    same collected state keeps the ranks' calls in the same order, which
    MANIPLE_CHECKS=1 verifies (pytest_checks_np3 once saw a test where they
    were not).

    What survives is frozen (gc.freeze), so the next collection walks only
    what the last test made: walking all the session's objects before each
    test had been most of the suite's time. Every 256 tests all is thawed
    and collected, so what was frozen and became garbage since is freed."""
    global _tests_run
    _tests_run += 1
    if _tests_run % 256 == 0:
        gc.unfreeze()
    gc.collect()
    gc.freeze()
    yield


def pytest_report_teststatus(report, config):
    """Under mpiexec each rank's progress dot is a tagged line of its own,
    which buried a failure's report in CI's excerpt of the output: passes
    print nothing there (failures, errors and skips still do, and the
    summary counts every test)."""
    if maniple.size() > 1 and report.when == "call" and report.passed:
        return "passed", "", "PASSED"
    return None
