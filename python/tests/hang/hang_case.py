"""Run only by tests/pytest_timeout.sh: a test that hangs (rank 0 enters a
collective the other ranks never join), to show that the per-test timeout
names it on every rank."""
import maniple
import maniple.numpy as np


def test_passes_first():
    assert int(np.arange(4).sum()) == 6


def test_hangs_on_rank_divergence():
    if maniple.rank() == 0:
        int(np.arange(10).sum())  # a reduction the other ranks never join
    while True:  # the other ranks: stuck too, in Python
        pass
