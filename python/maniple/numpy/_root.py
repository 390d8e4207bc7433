"""NumPy run on one rank: the maniple arrays among a call's arguments are
gathered to the root rank, NumPy computes there, and the result comes back
to every rank (arrays scattered into new maniple arrays, everything else
pickled and broadcast). An exception NumPy raises on root is raised on every
rank with the same type and message. Used by the gathered linear algebra and
the announced fallbacks: acceptable for small data, it does not scale."""
import functools
import pickle

import numpy as _np

from maniple import _core

from . import _layout
from ._engine import _KIND
from ._ndarray import ndarray

ROOT = 0


def _has_arrays(obj):
    if isinstance(obj, ndarray):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_has_arrays(x) for x in obj)
    if isinstance(obj, dict):
        return any(_has_arrays(x) for x in obj.values())
    return False


def gather(x):
    """x (a maniple array) as a NumPy array on root, None elsewhere, in x's
    memory order (an F-ordered array gives NumPy's F-ordered one)."""
    a = x._materialize()
    if a.is_view and x.ndim > 1:
        p = _layout.axes(x, "K")
        if p is not None:
            y = gather(x.transpose(p))
            return None if y is None else y.transpose(_layout.inverse(p))
    b = a.gather_root(ROOT)
    if b is None:
        return None
    # a writable copy: NumPy may work in place on what it is given
    return _np.frombuffer(b, dtype=x._dtype).reshape(x.shape).copy()


def _gathered(obj):
    """obj with its maniple arrays (in lists, tuples and dicts too) gathered;
    every rank walks the same structure in the same order (SPMD)."""
    if isinstance(obj, ndarray):
        return gather(obj)
    if isinstance(obj, (list, tuple)):
        items = [_gathered(x) for x in obj]
        return _rebuild(obj, items)
    if isinstance(obj, dict):
        return {k: _gathered(v) for k, v in obj.items()}
    return obj


def everywhere(obj):
    """obj with its maniple arrays (in lists, tuples and dicts too) as NumPy
    arrays on every rank (each gathered whole; for small arrays such as
    histogram edges, and for assertions)."""
    if isinstance(obj, ndarray):
        return _np.asarray(obj)
    if isinstance(obj, (list, tuple)):
        return _rebuild(obj, [everywhere(x) for x in obj])
    if isinstance(obj, dict):
        return {k: everywhere(v) for k, v in obj.items()}
    return obj


def into_numpy(name):
    """For a function that writes into its first argument (copyto, put,
    place, ...): given a NumPy array there, NumPy's own function writes into
    it, with maniple arguments gathered (each rank's NumPy array is its own,
    as a NumPy out= array is)."""
    def wrap(f):
        np_f = getattr(_np, name)

        @functools.wraps(f)
        def g(a, *args, **kw):
            if isinstance(a, _np.ndarray):
                return np_f(a, *everywhere(args), **everywhere(kw))
            return f(a, *args, **kw)
        return g
    return wrap


def _rebuild(seq, items):
    if all(a is b for a, b in zip(seq, items)):
        return seq  # untouched: the caller's own object (a list subclass used as a file)
    if isinstance(seq, list):
        return items
    if hasattr(seq, "_fields"):  # a named tuple (NumPy's linalg results)
        return type(seq)(*items)
    return type(seq)(items) if type(seq) is not tuple else tuple(items)


class _Slot:
    """Stands for an array of the result while the rest is broadcast."""

    def __init__(self, k, shape, dtype, fortran=False):
        self.k, self.shape, self.dtype, self.fortran = k, shape, dtype, fortran


def holdable(x):
    # (not a masked array: maniple has none, so NumPy's comes back, the same on every rank)
    return isinstance(x, _np.ndarray) and str(x.dtype) in _KIND and not isinstance(x, _np.ma.MaskedArray)


def _pack(obj, arrays, memo):
    """The result with each array maniple can hold replaced by a _Slot
    (arrays NumPy returns twice, as diag_indices does, become one)."""
    if holdable(obj):
        if id(obj) not in memo:
            memo[id(obj)] = _Slot(len(arrays), obj.shape, str(obj.dtype), obj.flags.fnc)
            arrays.append(obj)
        return memo[id(obj)]
    if isinstance(obj, (list, tuple)):
        return _rebuild(obj, [_pack(x, arrays, memo) for x in obj])
    if isinstance(obj, dict):
        return {k: _pack(v, arrays, memo) for k, v in obj.items()}
    return obj


def _unpack(obj, arrays, made):
    """The broadcast skeleton with its slots filled: one new maniple array
    per slot, scattered from root (arrays is root's list, None elsewhere)."""
    if isinstance(obj, _Slot):
        if obj.k not in made:
            from ._creation import empty
            if obj.fortran:  # NumPy's F order kept: the transpose's C order (_layout)
                a = empty(obj.shape[::-1], obj.dtype)
                a._arr.scatter_root(_np.ascontiguousarray(arrays[obj.k].T) if arrays is not None else None, ROOT)
                a = a.T
            else:
                a = empty(obj.shape, obj.dtype)
                a._arr.scatter_root(_np.ascontiguousarray(arrays[obj.k]) if arrays is not None else None, ROOT)
            made[obj.k] = a
        return made[obj.k]
    if isinstance(obj, (list, tuple)):
        return _rebuild(obj, [_unpack(x, arrays, made) for x in obj])
    if isinstance(obj, dict):
        return {k: _unpack(v, arrays, made) for k, v in obj.items()}
    return obj


def _portable(exc):
    """exc as something every rank can unpickle: itself, or its type's name
    and message (rebuilt as that type when importable, else RuntimeError)."""
    try:
        pickle.loads(pickle.dumps(exc))
        return ("exc", exc)
    except Exception:
        t = type(exc)
        return ("exc_text", t.__module__, t.__qualname__, str(exc))


def _exception(payload):
    """The exception a payload of _portable stands for."""
    if payload[0] == "exc":
        return payload[1]
    _, mod, qual, text = payload
    t = RuntimeError
    try:
        import importlib
        obj = importlib.import_module(mod)
        for part in qual.split("."):
            obj = getattr(obj, part)
        if isinstance(obj, type) and issubclass(obj, Exception):
            t = obj
    except Exception:
        pass
    try:
        return t(text)
    except Exception:
        return RuntimeError(f"{mod}.{qual}: {text}")


def throw(box):
    """Raise the exception in the one-element list box, emptying it, so
    that no frame refers to the exception whose traceback refers to the
    frames. Such a cycle would keep the frames' arrays alive after the
    error is caught, until a garbage collection, which comes at another
    moment on each rank: pending arrays alive on some ranks only would be
    stored by a shared pass there and not elsewhere (_engine._eval_shared).
    The caller drops its own references before calling."""
    raise box.pop()


def to_maniple(obj):
    """A result every rank computed alike: NumPy arrays maniple can hold
    become maniple arrays (each rank keeps its part), in containers too."""
    if holdable(obj):
        from ._creation import asarray
        return asarray(obj)
    if isinstance(obj, (list, tuple)):
        return _rebuild(obj, [to_maniple(x) for x in obj])
    if isinstance(obj, dict):
        return {k: to_maniple(v) for k, v in obj.items()}
    return obj


def call(fn, args=(), kwargs=None, check=None):
    """fn(*args, **kwargs) by NumPy on root, the result on every rank.
    check(result), run on root, returns the result to send, or raises to
    reject it (an exception that every rank then raises)."""
    kwargs = kwargs or {}
    if not _has_arrays(args) and not _has_arrays(kwargs):
        # nothing distributed: every rank computes the same thing (SPMD),
        # with no communication, and raises the same errors
        r = fn(*args, **kwargs)
        if check is not None:
            r = check(r)
        return to_maniple(r)
    rargs, rkwargs = _gathered(args), _gathered(kwargs)
    arrays, root = None, _core.rank() == ROOT
    if root:
        arrays, failure = [], None
        try:
            r = fn(*rargs, **rkwargs)
            if check is not None:
                r = check(r)
            data = pickle.dumps(("ok", _pack(r, arrays, {})), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:
            failure = e
            data = pickle.dumps(("err", _portable(e)), protocol=pickle.HIGHEST_PROTOCOL)
    else:
        data = None
    status, body = pickle.loads(_core.bcast(data, ROOT))
    if status == "err":
        # root raises NumPy's own exception, traceback included; no local keeps it (throw)
        box = [failure if root else _exception(body)]
        failure = body = None
        throw(box)
    return _unpack(body, arrays, {})
