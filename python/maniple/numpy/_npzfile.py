"""numpy.load of a .npz archive: rank 0 holds NumPy's NpzFile open and
reads each member when asked; the array is scattered to every rank (a
"gathered" read, as savez is a gathered write). The member names are
broadcast once, so every rank answers `files`, `in` and `len` alike."""
import weakref
from collections.abc import Mapping

import numpy as _np

from ._textio import _on_root


class NpzFile(Mapping):
    """What numpy.load returns for a zip archive: a read-only mapping from
    member names (without .npy) to maniple arrays; close() or `with`."""

    def __init__(self, opener, name):
        """opener() runs on rank 0 and gives NumPy's NpzFile."""
        self._np = None
        self._path = name

        def open_it():
            self._np = opener()
            return list(self._np.files)

        self.files = _on_root(open_it, (), {})
        self.f = _BagObj(weakref.proxy(self))  # no reference cycle, as NumPy's

    # rank 0's open zip file and file object; None on the other ranks
    zip = property(lambda self: self._np.zip if self._np is not None else None)
    fid = property(lambda self: self._np.fid if self._np is not None else None)

    def _read(self, key):
        if self._np is None:
            raise ValueError("I/O operation on closed file.")
        return self._np[key]

    def __getitem__(self, key):
        return _on_root(self._read, (key,), {})

    def __iter__(self):
        return iter(self.files)

    def __len__(self):
        return len(self.files)

    def __contains__(self, key):
        return key in self.files or (isinstance(key, str) and key.endswith(".npy") and key[:-4] in self.files)

    def close(self):
        if self._np is not None:
            self._np.close()
            self._np = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        self.close()

    def __repr__(self):
        return f"NpzFile {self._path!r} with keys: {', '.join(self.files[:5])}{'...' if len(self.files) > 5 else ''}"


class _BagObj:
    """npz.f.name for npz['name'], as NumPy's BagObj."""

    def __init__(self, npz):
        self._npz = npz

    def __getattr__(self, name):
        try:
            return self._npz[name]
        except KeyError:
            raise AttributeError(name) from None

    def __dir__(self):
        return list(self._npz.files)
