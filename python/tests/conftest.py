"""Every rank runs the same tests in the same order (SPMD)."""
import os
import tempfile

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
