"""File formats beyond .npy, through rank 0: writing gathers the arrays to
rank 0, which writes with NumPy; reading is done by rank 0 with NumPy and the
result scattered. Marked "gathered": one rank holds each whole array.

Only rank 0 touches the file, also when no maniple array is involved (a
NumPy array to save, a file to load): every rank opening it would race on
one shared file, or read different files on node-local disks and hold
parts of different arrays; an error (a missing file) is raised on every
rank."""
import pickle

import numpy as _np

from maniple import _core

from . import _root


def _on_root(fn, args, kwargs):
    """fn(*args, **kwargs) run by rank 0 only; its result (arrays maniple
    holds scattered, the rest broadcast) or its exception on every rank."""
    if _root._has_arrays(args) or _root._has_arrays(kwargs):
        return _root.call(fn, args, kwargs)  # gathers to the root and runs there
    root = _core.rank() == _root.ROOT
    arrays, failure, data = None, None, None
    if root:
        arrays = []
        try:
            data = pickle.dumps(("ok", _root._pack(fn(*args, **kwargs), arrays, {})),
                                protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:
            failure = e
            data = pickle.dumps(("err", _root._portable(e)), protocol=pickle.HIGHEST_PROTOCOL)
    status, body = pickle.loads(_core.bcast(data, _root.ROOT))
    if status == "err":
        box = [failure if root else _root._exception(body)]
        failure = body = None
        _root.throw(box)  # no frame keeps the exception (a reference cycle)
    return _root._unpack(body, arrays, {})


def _gathered_io(np_func):
    def f(*args, **kwargs):
        return _on_root(np_func, args, kwargs)
    f.__name__ = np_func.__name__
    f.__doc__ = f"numpy.{np_func.__name__} on rank 0 (arrays gathered there, results scattered)."
    f._mn_kind = "gathered"
    return f


savetxt = _gathered_io(_np.savetxt)
loadtxt = _gathered_io(_np.loadtxt)
genfromtxt = _gathered_io(_np.genfromtxt)
savez = _gathered_io(_np.savez)
savez_compressed = _gathered_io(_np.savez_compressed)
