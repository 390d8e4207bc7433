"""maniple.io: scipy.io's Matrix Market functions over maniple.sparse
(mmread, mmwrite), on the C library's parallel reader and writer."""
from ._mmio import mmread, mmwrite

__all__ = ["mmread", "mmwrite"]


def __getattr__(name):
    if not name.startswith("_"):
        raise AttributeError(f"maniple.io does not implement scipy.io.{name}: only mmread and mmwrite are there")
    raise AttributeError(f"module 'maniple.io' has no attribute '{name}'")
