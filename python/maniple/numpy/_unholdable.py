"""Arrays of the dtypes maniple arrays cannot hold (object, strings and
bytes, datetimes and timedeltas, structured, longdouble and clongdouble)
are NumPy arrays, whole and alike on every rank. A maniple function or
ufunc that meets one (a dtype= argument, an operand, an inferred type)
hands the call to NumPy's function of the same name, with its maniple
arrays gathered to every rank; results maniple holds come back as maniple
arrays, the others as NumPy's (docs/python.md). The functions that write
into their arguments or files are left out: a gathered copy would lose
the write, and every rank would write the file."""
import functools

import numpy as _np

from maniple import _core

from . import _warn
from ._dtypes import SUPPORTED, Unholdable
from ._engine import _NUMPY_OPERATOR, _numpy_subclass
from ._ndarray import ndarray
from ._root import _has_arrays, everywhere

# writes into an argument, a file or a stream, or user code per rank: never handed over
KEEP = frozenset({"copyto", "put", "place", "putmask", "put_along_axis", "fill_diagonal", "save", "savez",
                  "savez_compressed", "savetxt", "nditer", "vectorize", "frompyfunc", "apply_along_axis",
                  "apply_over_axes", "piecewise", "fromfunction", "info", "show_config", "show_runtime",
                  "set_printoptions", "printoptions", "seterr", "seterrcall", "errstate", "setbufsize"})
# numeric dtypes maniple is to hold itself one day: their arrays warn
_PENDING = frozenset({"float128", "complex256", "float96", "complex192"})


def _announce(about, what="", gathers=False):
    """Warn when maniple arrays are gathered for NumPy at more than one rank
    (at one the gather moves nothing), or of a numeric dtype's NumPy array
    (Python's filters show each once per script line). about: a NumPy
    dtype, or the NumPy subclass met."""
    name = str(about) if isinstance(about, _np.dtype) else f"a {about.__name__}"
    if gathers and _core.size() > 1:
        held = "which maniple arrays do not hold" if isinstance(about, _np.dtype) else "a NumPy subclass"
        _warn.warn(f"maniple.numpy: {what} meets {'dtype ' if isinstance(about, _np.dtype) else ''}{name}, "
                      f"{held}: its maniple arrays are gathered to every rank and NumPy computes (it does not scale)",
                      UserWarning)
    elif name in _PENDING:
        _warn.warn(f"maniple.numpy: {name} arrays are NumPy arrays, whole on every rank (maniple arrays do not "
                      "hold them yet): computed by NumPy, not distributed", UserWarning)


def _back(r):
    """A NumPy result as maniple's: arrays of dtypes maniple holds become
    maniple arrays (each rank keeps its part of the same values)."""
    if type(r) is _np.ndarray and str(r.dtype) in SUPPORTED:
        from ._creation import asarray
        return asarray(r)
    if type(r) is tuple:
        return tuple(_back(x) for x in r)
    if type(r) is list and any(type(x) is _np.ndarray for x in r):
        return [_back(x) for x in r]
    return r


def _has_maniple_out(args, kwargs):
    out = kwargs.get("out")
    return isinstance(out, ndarray) or (isinstance(out, tuple) and any(isinstance(o, ndarray) for o in out))


def call(np_fn, args, kwargs, about, what=None):
    """np_fn over the gathered arguments; about: the dtype or NumPy subclass met."""
    _announce(about, what or f"numpy.{np_fn.__name__}", _has_arrays((args, kwargs)))
    return _back(np_fn(*everywhere(args), **everywhere(kwargs)))


_GIVEN = (_np.generic, _np.ndarray)
_HELD = frozenset(SUPPORTED)
_subclass = _numpy_subclass  # a NumPy subclass (masked array, matrix; not memmap): NumPy knows its rules


def routed(fn, np_fn):
    """fn, handing its call to np_fn when it meets a dtype maniple cannot hold."""

    @functools.wraps(fn)
    def f(*args, **kwargs):
        for a in args:  # a NumPy scalar or array maniple cannot hold (np.longdouble(10) as hanning's M)
            if isinstance(a, _GIVEN) and (a.dtype.name not in _HELD or _subclass(a)):
                if not _has_maniple_out(args, kwargs):
                    return call(np_fn, args, kwargs, type(a) if _subclass(a) else a.dtype)
        try:
            return fn(*args, **kwargs)
        except Unholdable as e:
            if _has_maniple_out(args, kwargs):
                raise
            return call(np_fn, args, kwargs, e.dtype)
    return f


def ufunc(name, xs):
    """NumPy's ufunc name over operands xs, one of them unholdable."""
    uf = getattr(_np, name, None)
    bad = next((x for x in xs if _subclass(x) or (hasattr(x, "dtype") and str(x.dtype) not in SUPPORTED)), None)
    if not isinstance(uf, _np.ufunc):  # (maniple's internal operations that are not NumPy ufuncs)
        if bad is None or _subclass(bad):
            raise TypeError(f"maniple.numpy: {name} does not take {type(bad).__name__} operands")
        raise Unholdable(bad.dtype)
    if bad is not None:
        _announce(type(bad) if _subclass(bad) else bad.dtype, f"numpy.{name}", _has_arrays(xs))
    args = everywhere(list(xs))
    if name in ("equal", "not_equal"):  # (== and != as NumPy's operators: no loop compares unequal)
        return _back(_np.asarray(_NUMPY_OPERATOR[name](_np.asarray(args[0]), args[1])))
    return _back(uf(*args))


def install(namespace):
    """Wrap every maniple.numpy function that NumPy also has (but KEEP)."""
    import types
    for name, fn in list(namespace.items()):
        if name.startswith("_") or name in KEEP or not isinstance(fn, types.FunctionType) or \
                not fn.__module__.startswith("maniple"):  # (NumPy's own, as asmatrix, take anything)
            continue
        np_fn = getattr(_np, name, None)
        if np_fn is None or not callable(np_fn) or getattr(fn, "_mn_kind", None) == "fallback":
            continue
        namespace[name] = routed(fn, np_fn)
