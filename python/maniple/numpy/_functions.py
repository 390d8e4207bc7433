"""Universal functions, reductions and a few NumPy functions on ndarrays."""
import builtins
import operator
import warnings

import numpy as _np

from maniple import _core

from ._creation import asarray, empty
from ._dtypes import COMPLEX as _COMPLEX, INEXACT as _INEXACT, FLOATS as _FLOATS, INTS as _INTS, sum_dtype as _sum_dtype
from ._dtypes import check_cast as _check_cast
from . import _fpe, _ufunc, _warn
from ._engine import (_APART, _NOTHING, SPLIT_COST, _assign, _binary, _compile, _complex_warn, _eval_shared,
                      _has_cells, _scalar, _ternary, _unary)
from ._ndarray import ndarray, _check_power, _check_writable, _f_order, _power_fast

# ---- ufuncs (the names are NumPy's) ----
_UNARY = ["negative", "positive", "absolute", "sqrt", "exp", "log", "log2", "log10", "expm1", "log1p", "sin",
          "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "floor", "ceil", "trunc", "rint",
          "sign", "square", "reciprocal", "logical_not", "invert", "isnan", "isinf", "isfinite", "arccosh",
          "arcsinh", "arctanh", "cbrt", "exp2", "fabs", "signbit", "spacing", "deg2rad", "rad2deg"]
_BINARY = ["add", "subtract", "multiply", "true_divide", "floor_divide", "remainder", "power", "maximum",
           "minimum", "fmax", "fmin", "equal", "not_equal", "less", "less_equal", "greater", "greater_equal",
           "logical_and", "logical_or", "logical_xor", "bitwise_and", "bitwise_or", "bitwise_xor", "left_shift",
           "right_shift", "arctan2", "hypot", "copysign", "fmod", "logaddexp", "logaddexp2", "heaviside", "nextafter",
           "ldexp", "gcd", "lcm", "float_power"]


def _cast_error(name, vdt, tdt):
    """NumPy's error (its exception type too) for a ufunc's result that out
    cannot take under 'same_kind'."""
    u = getattr(_np, name or "", None)
    if not isinstance(u, _np.ufunc):  # clip: a function over the ufunc numpy._core.umath.clip
        u = getattr(_np._core.umath, name or "", None)
    if isinstance(u, _np.ufunc):
        try:
            from numpy._core._exceptions import _UFuncOutputCastingError
            return _UFuncOutputCastingError(u, "same_kind", _np.dtype(vdt), _np.dtype(tdt), 0)
        except Exception:  # a NumPy without that class: the message alone
            pass
    return TypeError(f"Cannot cast ufunc '{name}' output from dtype('{vdt}') to dtype('{tdt}') with casting rule "
                     "'same_kind'")


def _into_numpy(r, out, name=None, unsafe=False):
    """A NumPy array given as out=: the whole result (gathered, the same on
    every rank) written into it, as NumPy would."""
    v = _np.asarray(r)
    if not unsafe and not _np.can_cast(v.dtype, out.dtype, "same_kind"):
        raise _cast_error(name, v.dtype, out.dtype)
    if unsafe:
        _complex_warn(v.dtype.name, out.dtype.name)
    _np.copyto(out, v, casting="unsafe")
    return out


def _with_out(r, out, name=None, unsafe=False):
    """r into out (None: r itself); unsafe: any cast, as NumPy's reductions
    store into their out, else 'same_kind' as its ufuncs."""
    if type(out) is tuple:  # NumPy's out=(o,): one entry per output
        if len(out) != 1:
            raise ValueError("The 'out' tuple must have exactly one entry per ufunc output")
        out = out[0]
    if out is None:
        return r
    if out is Ellipsis:  # NumPy 2's out=...: an array, a 0-d one where the result would be a scalar
        return r if isinstance(r, ndarray) else asarray(r)
    if isinstance(out, _np.ndarray):
        return _into_numpy(r, out, name, unsafe)
    if not isinstance(out, ndarray):  # (a scalar such as a[0], a list)
        raise TypeError("return arrays must be of ArrayType")
    _check_writable(out)
    if not unsafe and name is not None and isinstance(r, ndarray) and \
            not _np.can_cast(r._dtype, out._dtype, "same_kind"):
        raise _cast_error(name, r._dtype, out._dtype)
    _assign(out._materialize(), r, same_kind=not unsafe)
    return out


def _reduced_out(r, out, index=False):
    """A reduction's result into out. NumPy casts an inexact one unsafely
    (a float mean into integers; a complex sum into floats, with its
    ComplexWarning), and an index of argmax. An integer one into integers
    of another dtype NumPy accumulates in out (the first element cast,
    then each step's result cast back), which differs where values
    overflow or change sign: refused here across kinds ('same_kind')."""
    if out is None:
        return r
    if type(out) is tuple and len(out) == 1:
        out = out[0]
    shape = tuple(r.shape) if isinstance(r, ndarray) else _np.shape(r)
    if isinstance(out, (ndarray, _np.ndarray)) and tuple(out.shape) != shape:
        # NumPy's errors: out is not broadcast into
        if out.ndim != len(shape):
            raise ValueError(f"output parameter for reduction operation has the wrong number of dimensions: Found "
                             f"{out.ndim} but expected {len(shape)}")
        raise ValueError(f"operands could not be broadcast together: output array of shape {tuple(out.shape)}, "
                         f"the reduction's result has shape {shape}")
    rdt = r._dtype if isinstance(r, ndarray) else _np.asarray(r).dtype.name
    return _with_out(r, out, unsafe=index or rdt in _INEXACT)


def _sqrt_out(out):
    """std's out: NumPy stores the variance there, then takes sqrt(out,
    out=out) under 'same_kind' (an integer out: its casting error)."""
    if out is not None and out is not Ellipsis:
        sq = _np.sqrt(_np.ones(1, out.dtype)).dtype
        if not _np.can_cast(sq, out.dtype, "same_kind"):
            raise _cast_error("sqrt", sq, out.dtype)


def _index_out(out):
    """argmax's and argmin's out: NumPy's check that it casts safely to
    intp (bool and small integers do; floats do not)."""
    if out is not None and out is not Ellipsis:
        _check_cast(out.dtype, _np.intp, "safe")


def _scalars_only(*xs):
    return builtins.all(isinstance(x, (bool, int, float, complex, _np.generic)) for x in xs)


_UFUNC_KW = ("where", "casting", "dtype", "order", "subok", "signature")


def _ufunc_kw(name, f, args, out, kw):
    """A ufunc call with NumPy's keywords: dtype= casts the inputs to the
    loop's dtype (under casting=), where= writes out only where true (its
    other elements are left as they are; without out they are undefined,
    as NumPy's), casting= also rules the store into out; order and subok
    change no values."""
    for k in kw:
        if k not in _UFUNC_KW:
            raise TypeError(f"{name}() got an unexpected keyword argument '{k}'")
    casting, dtype, where_ = kw.get("casting", "same_kind"), kw.get("dtype"), kw.get("where", True)
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', or 'unsafe' (got {casting!r})")
    from ._creation import _dt, _order
    _order(kw.get("order", "K"), "CFAK")
    if kw.get("signature") is not None:
        raise TypeError(f"maniple.numpy: {name}() does not take signature=; use dtype=")
    xs = list(args)
    if dtype is not None:
        dt = _dt(dtype)
        for i, x in enumerate(xs):
            if type(x) in (bool, int, float, complex):  # (not NumPy's float64, a float subclass)
                continue  # weak: it takes the loop's dtype
            x = asarray(x)
            if not _np.can_cast(x._dtype, dt, casting):
                raise _np._core._exceptions._UFuncInputCastingError(getattr(_np, name), casting, _np.dtype(x._dtype),
                                                                    _np.dtype(dt), i)
            xs[i] = x.astype(dt)
    r = f(*xs)
    if dtype is not None and isinstance(r, ndarray) and r._dtype != _dt(dtype):
        raise TypeError(f"No loop matching the specified signature and casting was found for ufunc {name}")
    if out is None:
        return r
    if isinstance(out, tuple):
        out = out[0]
    if isinstance(r, ndarray) and not _np.can_cast(r._dtype, out.dtype, casting):
        raise _cast_error(name, r._dtype, str(out.dtype))
    if where_ is True:
        if isinstance(out, _np.ndarray):
            return _into_numpy(r, out, name)
        _check_writable(out)
        _assign(out._materialize(), r)
        return out
    if not isinstance(out, ndarray):
        raise TypeError(f"maniple.numpy: {name}(where=) needs a maniple array out")
    _check_writable(out)
    _assign(out._materialize(), _ternary("where", asarray(where_), r, out).astype(out._dtype))
    return out


def _make_unary(name, op=None):
    """numpy.<name>, computed by maniple's op of that name (or by op): a
    ufunc object (_ufunc), whose call is this function."""
    np_f, op = getattr(_np, name), op or name

    def f(x, out=None, **kw):
        if kw:
            return _ufunc_kw(name, lambda a: _unary(op, a), (x,), out, kw)
        if out is None and _scalars_only(x):  # a scalar in, NumPy's scalar out
            return np_f(x)
        return _with_out(_unary(op, x), out, name)
    f.__name__ = name
    return _ufunc.make(name, f)


def _make_binary(name):
    np_f = getattr(_np, name)

    if name == "power":  # NumPy's error for integers to negative integer powers
        def f(x, y, out=None, **kw):
            if kw:
                return _ufunc_kw(name, lambda a, b: f(a, b), (x, y), out, kw)
            if out is None and _scalars_only(x, y):
                return np_f(x, y)
            t = type(y)
            if t is not float and (t is not int or y < 0):  # a scalar exponent: nothing to check
                _check_power(x, y)
            r = _power_fast(x, y, False) if isinstance(x, ndarray) else None
            return _with_out(_binary(name, x, y) if r is None else r, out, name)
    else:
        def f(x, y, out=None, **kw):
            if kw:
                return _ufunc_kw(name, lambda a, b: _binary(name, a, b), (x, y), out, kw)
            if out is None and _scalars_only(x, y):
                return np_f(x, y)
            return _with_out(_binary(name, x, y), out, name)
    f.__name__ = name
    return _ufunc.make(name, f)


UFUNCS = {n: _make_unary(n) for n in _UNARY}
UFUNCS.update({n: _make_binary(n) for n in _BINARY})


_NOARG = object()


def where(condition, x=_NOARG, y=_NOARG):
    if x is _NOARG and y is _NOARG:
        from ._indexing import nonzero
        return nonzero(condition)
    if x is _NOARG or y is _NOARG:
        raise ValueError("either both or neither of x and y should be given")
    return _ternary("where", condition, x, y)


_NOVALUE = object()


def clip(a, a_min=_NOVALUE, a_max=_NOVALUE, out=None, *, min=_NOVALUE, max=_NOVALUE, **kwargs):
    """NumPy 2's clip: bounds positional or as min=/max=; a None bound is
    no bound (maximum or minimum only); the ufunc keywords (casting=,
    where=, dtype=) as NumPy's clip takes them."""
    if kwargs:
        return _ufunc_kw("clip", lambda x: clip(x, a_min, a_max, min=min, max=max), (a,), out, kwargs)
    if min is not _NOVALUE:
        if a_min is not _NOVALUE:
            raise ValueError("Passed more than one argument for the minimum (a_min and min)")
        a_min = min
    if max is not _NOVALUE:
        if a_max is not _NOVALUE:
            raise ValueError("Passed more than one argument for the maximum (a_max and max)")
        a_max = max
    lo = None if a_min is _NOVALUE else a_min
    hi = None if a_max is _NOVALUE else a_max
    if isinstance(a, ndarray) and a._dtype in _INTS and (type(lo) is int or type(hi) is int):
        # NumPy 2: a bound beyond the integer dtype is no bound, or its OverflowError where it would bind
        info, dt = _np.iinfo(a._dtype), a._dtype

        def too_big(v):
            if -2 ** 63 <= v < 2 ** 64 and not (dt == "int64" and v >= 2 ** 63):
                return f"Python integer {v} out of bounds for {dt}"
            return "Python int too large to convert to C long"
        if type(lo) is int and not info.min <= lo <= info.max:
            if lo > info.max:
                raise OverflowError(too_big(lo))
            lo = None
        if type(hi) is int and not info.min <= hi <= info.max:
            if hi < info.min:
                raise OverflowError(too_big(hi))
            hi = None
    if lo is None and hi is None:
        a = asarray(a)
        return _with_out(a.astype(a._dtype), out, "clip")
    if lo is None:
        return _with_out(_binary("minimum", a, hi), out, "clip")
    if hi is None:
        return _with_out(_binary("maximum", a, lo), out, "clip")
    return _with_out(_ternary("clip", a, lo, hi), out, "clip")


# ---- reductions ----
def _result_dtype(op, dt):
    if op in ("argmin", "argmax"):
        return "int64"
    if op in ("any", "all"):
        return "bool"
    if op in ("sum", "prod"):
        return _sum_dtype(dt)
    return dt


def _index(x, how="index"):
    """An integer argument, converted as NumPy converts it. how: "index"
    (operator.index: "'float' object cannot be interpreted as an
    integer"), "int" (NumPy's normalize_axis_index: "integer argument
    expected, got float"), "reduce" (a C reduction's axis: operator.index,
    no bools), "mean" (mean/var/std: "int" for floats, no bools), "scan"
    (cumsum, concatenate: operator.index, no bools)."""
    if how == "index":
        return operator.index(x)
    if how in ("int", "mean") and isinstance(x, float):
        raise TypeError("integer argument expected, got float")
    if how != "int" and isinstance(x, (bool, _np.bool_)):
        raise TypeError("an integer is required for the axis" if how == "scan" else "an integer is required")
    return operator.index(x)


def _axis(axis, ndim, how="index", prefix=None):
    """NumPy's normalize_axis_index: one axis, checked (AxisError, with
    NumPy's prefix where it has one), in [0, ndim)."""
    axis = _index(axis, how)
    if not -ndim <= axis < ndim:
        raise _np.exceptions.AxisError(axis, ndim, prefix)
    return axis % ndim


def _axes(axis, ndim, how="reduce"):
    """The sorted axes of a reduction's axis argument: None (every axis),
    an integer or a tuple (a list is NumPy's TypeError), no repeats."""
    if axis is None:
        return list(range(ndim))
    if isinstance(axis, tuple):
        axes = [_axis(x, ndim, how) for x in axis]
    else:
        axes = [_axis(axis, ndim, how)]
    if len(set(axes)) != len(axes):
        raise ValueError("duplicate value in 'axis'")
    return sorted(axes)


def _axis_tuple(axis, ndim, argname=None, allow_duplicate=False):
    """NumPy's normalize_axis_tuple: an integer or a sequence of them, each
    checked as normalize_axis_index does, with no repeats (in order)."""
    if type(axis) not in (tuple, list):
        try:
            axis = [operator.index(axis)]
        except TypeError:
            pass
    axis = tuple(_axis(ax, ndim, "int", argname) for ax in axis)
    if not allow_duplicate and len(set(axis)) != len(axis):
        raise ValueError(f"repeated axis in `{argname}` argument" if argname else "repeated axis")
    return axis


# NumPy's errors for reductions of nothing that have no identity
_NO_IDENTITY = {"max": "zero-size array to reduction operation maximum which has no identity",
                "min": "zero-size array to reduction operation minimum which has no identity",
                "argmax": "attempt to get argmax of an empty sequence",
                "argmin": "attempt to get argmin of an empty sequence"}


def _reduce(op, a, axis=None, dtype=None, out=None, keepdims=False):
    a = asarray(a)
    if dtype is not None:
        a = a.astype(dtype, copy=False)  # (read only here)
    if op in ("argmin", "argmax"):
        _index_out(out)
        if axis is not None:
            axis = operator.index(axis)  # one axis only: NumPy's TypeError for a tuple
    axes = _axes(axis, a.ndim)
    if op in _NO_IDENTITY and builtins.any(a.shape[d] == 0 for d in axes):
        raise ValueError(_NO_IDENTITY[op])
    rdt = _result_dtype(op, a._dtype)
    if dtype is not None and op in ("sum", "prod"):
        rdt = a._dtype  # an explicit dtype is the accumulator's and the result's
    if len(axes) == a.ndim:  # every axis: one fused pass to a scalar
        node = a._node()
        v = _NOTHING
        if a._big and a._expr is not None and _has_cells(node):
            v = _eval_shared(node, a._shape, reduce=op)
        if v is _APART:  # (more ranks: a costly value computed first, in a pass that may store its siblings)
            v = _NOTHING
            if a._cost >= SPLIT_COST:
                a._materialize()
                node = a._node()
        if v is _NOTHING:
            v = _core.reduce(_compile(node), op)
        # integers wrap into a narrower result dtype, as NumPy's accumulation does
        v = _np.asarray(v).astype(rdt)[()] if rdt != _result_dtype(op, a._dtype) else _scalar(v, rdt)
        if keepdims and a.ndim:
            v = asarray(_np.full((1,) * a.ndim, v, dtype=rdt))
        return _reduced_out(v, out, op in ("argmin", "argmax"))
    r = a
    _fpe.current()  # (the passes' settings)
    for ax in reversed(axes):  # one axis at a time, from the last
        shape = r.shape[:ax] + r.shape[ax + 1:]
        t = empty(shape, rdt)
        _core.reduce_axis(op, r._materialize(), ax, t._arr)
        r = t
    if keepdims:
        r = r[tuple(None if d in axes else slice(None) for d in range(a.ndim))]
    return _reduced_out(r, out, op in ("argmin", "argmax"))


_IDENTITY = {"sum": 0, "prod": 1, "any": False, "all": True}
_REDUCE_UFUNC = {"sum": "add", "prod": "multiply", "max": "maximum", "min": "minimum", "any": "logical_or",
                 "all": "logical_and"}


def _out_dtype(op, a, dtype, out):
    """The dtype a sum or product runs in, given out and no dtype: NumPy's
    is out's where the array casts to it safely (an int64 sum into a float
    out does not wrap; a bool one into a bool out is any, a product all),
    else the usual one, cast into out after."""
    if dtype is not None or op not in ("sum", "prod") or not isinstance(out, (ndarray, _np.ndarray)):
        return dtype
    adt, odt = _np.dtype(a.dtype if hasattr(a, "dtype") else _np.asarray(a).dtype), _np.dtype(out.dtype)
    if adt == odt:
        return "bool" if odt == _np.bool_ else None
    return odt.name if _np.can_cast(adt, odt, "safe") else None


def _reduce_iw(op, a, axis=None, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    """A reduction with NumPy's initial= (the first operand of the
    reduction) and where= (elements left out: replaced by the identity, or
    by initial where there is none)."""
    dtype = _out_dtype(op, a, dtype, out)
    if initial is _NOVALUE and where is True:
        return _reduce(op, a, axis, dtype, out, keepdims)
    a = asarray(a)
    name = _REDUCE_UFUNC[op]
    rdt = _np.dtype(dtype).name if dtype is not None and op in ("sum", "prod") else _result_dtype(op, a._dtype)
    if type(initial) is int and op not in ("any", "all"):  # NumPy's OverflowError for one the dtype cannot hold
        from ._engine import _check_scalar_into
        _check_scalar_into(initial, rdt)
    if where is not True:
        if op not in _IDENTITY and initial is _NOVALUE:
            raise ValueError(f"reduction operation '{name}' does not have an identity, so to use a where mask one "
                             "has to specify 'initial'")
        w = asarray(where)
        a = _ternary("where", w, a, _IDENTITY.get(op, initial)).astype(a._dtype)
    if initial is _NOVALUE:
        return _reduce(op, a, axis, dtype, out, keepdims)
    axes = _axes(axis, a.ndim)  # (the where mask above kept a's dtype: rdt stands)
    if builtins.any(a.shape[d] == 0 for d in axes):  # nothing but initial
        from ._creation import full
        shape = tuple(1 if d in axes else n for d, n in enumerate(a.shape)) if keepdims else \
            tuple(n for d, n in enumerate(a.shape) if d not in axes)
        r = full(shape, initial, rdt)
        if op in _IDENTITY:  # the identity reduced with initial
            r = UFUNCS[name](r, _IDENTITY[op])
        r = r.astype(rdt)
        r = r[()] if r.ndim == 0 else r
    else:
        r = _reduce(op, a, axis, dtype, None, keepdims)
        init = bool(initial) if op in ("any", "all") else _np.asarray(initial).astype(rdt)[()]
        r = UFUNCS[name](r, init)
        r = r.astype(rdt) if isinstance(r, ndarray) else _np.asarray(r).astype(rdt)[()]
    return _reduced_out(r, out)


def sum(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    return _reduce_iw("sum", a, axis, dtype, out, keepdims, initial, where)


def prod(a, axis=None, dtype=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    return _reduce_iw("prod", a, axis, dtype, out, keepdims, initial, where)


def min(a, axis=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    return _reduce_iw("min", a, axis, None, out, keepdims, initial, where)


def max(a, axis=None, out=None, keepdims=False, initial=_NOVALUE, where=True):
    return _reduce_iw("max", a, axis, None, out, keepdims, initial, where)


amin, amax = min, max


def argmin(a, axis=None, out=None, *, keepdims=False):
    return _reduce("argmin", a, axis, None, out, keepdims)


def argmax(a, axis=None, out=None, *, keepdims=False):
    return _reduce("argmax", a, axis, None, out, keepdims)


def any(a, axis=None, out=None, keepdims=False, *, where=True):
    return _reduce_iw("any", a, axis, None, out, keepdims, _NOVALUE, where)


def all(a, axis=None, out=None, keepdims=False, *, where=True):
    return _reduce_iw("all", a, axis, None, out, keepdims, _NOVALUE, where)


def _fp_event(kind, where):
    """One floating-point event (kind: 'invalid' or 'divide') of a division
    whose operands the shapes alone determine, handled as np.seterr says, as
    NumPy's division would (every rank knows it alike: no collective)."""
    _fpe.event(kind, where)


def _warn_where(mask, text):
    """NumPy's warning about some slices of a reduction (an all-NaN slice,
    no degrees of freedom) when mask, the flag of each slice, is true
    somewhere: a rank warns of the slices it holds (no message), as it
    does of its elements' floating-point exceptions; a scalar mask is
    every rank's."""
    hit = mask._materialize().local_any() if isinstance(mask, ndarray) else bool(mask)
    if hit:
        _warn.warn(text, RuntimeWarning)


def _warn_each(mask, text):
    """_warn_where once per flagged slice this rank holds, as NumPy's
    nanmedian warns once per all-NaN slice when it works slice by slice."""
    if not isinstance(mask, ndarray):
        return _warn_where(mask, text)
    m = mask.ravel()._materialize()  # (every rank: ravel may move data)
    if m.local_any():
        for _ in range(bytes(m.local_values()[1]).count(1)):
            _warn.warn(text, RuntimeWarning)


def _empty_division(result_shape, scalar):
    """0/0 in each element of a mean or variance over nothing."""
    if _np.prod(result_shape) > 0:
        _fp_event("invalid", "scalar divide" if scalar else "divide")


def mean(a, axis=None, dtype=None, out=None, keepdims=False, *, where=True):
    a = asarray(a)
    _axes(axis, a.ndim, "mean")  # NumPy's errors for a bad axis, first
    fdt = a._dtype if a._dtype in _INEXACT else "float64"
    sdt = dtype or ("float32" if fdt == "float16" else fdt)  # float16 sums in float32, as NumPy's mean
    if where is not True:  # the sum of the chosen elements over their count
        from ._manipulation import broadcast_to
        w = broadcast_to(asarray(where), a.shape)
        s = sum(a.astype(sdt), axis, None, None, keepdims, where=w)
        n = sum(w, axis, None, None, keepdims)
        with _np.errstate(invalid="ignore", divide="ignore"):
            r = s / n
        if isinstance(r, ndarray):
            return _reduced_out(r.astype(dtype or fdt), out)
        r = _scalar(r, dtype or fdt)
        return _reduced_out(r, out) if out is not None else r
    if dtype is None and out is not None and out is not Ellipsis and a._dtype in _INTS and \
            _np.dtype(out.dtype).kind in "iu":
        # NumPy sums integers into an integer out there (wrapping), then divides
        s = _reduce("sum", a, axis, None, None, keepdims)
        s = s.astype(out.dtype) if isinstance(s, ndarray) else _np.asarray(s).astype(out.dtype)[()]
    else:  # (the result is float16 again after a float32 sum)
        s = _reduce("sum", a.astype(sdt) if sdt != a._dtype else a, axis, None, None, keepdims)
    n = 1
    for d in _axes(axis, a.ndim):
        n *= a.shape[d]
    if n == 0:  # as NumPy: known from the shapes, so no collective is needed
        _warn.warn("Mean of empty slice", RuntimeWarning)
        _empty_division(_np.shape(s), not isinstance(s, ndarray))
    r = _by_count(s, n) if n else s * _np.nan
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(dtype or fdt), out)
    return _reduced_out(_scalar(r, dtype or fdt), out) if out is not None else _scalar(r, dtype or fdt)


def _by_count(s, n):
    """s / n as NumPy's mean and var divide, by an intp count: float16,
    float32 and complex64 sums are divided in double precision (the caller
    casts back), not with n rounded to their own precision."""
    dt = s._dtype if isinstance(s, ndarray) else _np.asarray(s).dtype.name
    wide = {"float16": "float64", "float32": "float64", "complex64": "complex128"}.get(dt)
    if wide:
        s = s.astype(wide) if isinstance(s, ndarray) else _np.dtype(wide).type(s)
    return s / n


def _ddof(ddof, correction):
    """NumPy 2's correction=, the same as ddof= (both given: its ValueError)."""
    if correction is _NOVALUE:
        return ddof
    if ddof != 0:
        raise ValueError("ddof and correction can't be provided simultaneously.")
    return correction


def var(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=_NOVALUE):
    """Mean of squared deviations from the mean (two passes, as NumPy)."""
    ddof = _ddof(ddof, correction)
    a = asarray(a)
    _axes(axis, a.ndim, "mean")
    fdt = a._dtype if a._dtype in _INEXACT else "float64"
    dt = dtype or fdt
    if _np.dtype(dt).kind in "biu":
        return _var_exact(a, axis, _np.dtype(dt).name, out, ddof, keepdims, where, mean)
    x = a.astype(dt) if dt != a._dtype else a
    if where is not None and where is not True:
        return _var_where(x, axis, dt, out, ddof, keepdims, where, mean)
    n = 1
    for ax in _axes(axis, a.ndim):
        n *= a.shape[ax]
    if n - ddof <= 0:  # NumPy's warning, from the shapes alone
        _warn.warn("Degrees of freedom <= 0 for slice", RuntimeWarning)
    if mean is None and n == 0:  # NumPy's inner mean divides 0 by 0 without its own warning
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            with _np.errstate(invalid="ignore"):
                m = globals()["mean"](x, axis=axis, dtype=dt, keepdims=True)
        _empty_division(m.shape, False)
    else:  # (in x's dtype: NumPy's var sums float16 in float16, where its mean takes float32)
        m = globals()["mean"](x, axis=axis, dtype=dt, keepdims=True) if mean is None else asarray(mean)
    sq, dt = _squares(x - m, dt)
    ss = _reduce("sum", sq, axis, None, None, keepdims)
    div = builtins.max(n - ddof, 0)
    if not div:  # ss / 0: x/0 is a division by zero, 0/0 invalid (NumPy reports them in that order)
        scalar = not isinstance(ss, ndarray)
        if n == 0:
            _empty_division(_np.shape(ss), scalar)
        elif scalar:
            if ss == ss:
                _fp_event("invalid" if ss == 0 else "divide", "scalar divide")
        elif ss.size:  # ddof >= n: a degenerate call, where a collective is acceptable
            if bool(((ss != 0) & (ss == ss)).any()):
                _fp_event("divide", "divide")
            if bool((ss == 0).any()):
                _fp_event("invalid", "divide")
    if div:
        r = _by_count(ss, div)
    else:  # ss / 0 as NumPy divides (inf, or nan where ss is 0): the events were reported above
        with _np.errstate(divide="ignore", invalid="ignore"):
            r = ss / 0
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(dt), out)
    r = _scalar(r, dt)
    return _reduced_out(asarray(r), out) if out is not None else r


def _var_exact(a, axis, dt, out, ddof, keepdims, where, mean_):
    """var with an integer or bool dtype=, by NumPy's steps: the sums in dt
    (each element cast to it), the mean and the result divided and cast
    back to dt (truncated), the deviations in a's own dtype."""
    from ._manipulation import broadcast_to, squeeze
    w = True if where is None or where is True else broadcast_to(asarray(where), a.shape)
    if w is True:
        n = 1
        for ax in _axes(axis, a.ndim):
            n *= a.shape[ax]
        if n - ddof <= 0:
            _warn.warn("Degrees of freedom <= 0 for slice", RuntimeWarning)
    else:
        n = sum(w, axis, None, None, True)
        if bool(n.size) and ddof >= n.min():
            _warn.warn("Degrees of freedom <= 0 for slice", RuntimeWarning)
    with _np.errstate(invalid="ignore", divide="ignore"):
        m = (sum(a, axis, dt, None, True, where=w) / n).astype(dt) if mean_ is None else asarray(mean_)
        d = a - m
        sq = _unary("real", d * _unary("conjugate", d)) if a._dtype in _COMPLEX else d * d
        ss = sum(sq, axis, dt, None, keepdims, where=w)
        cnt = n if w is True or keepdims else squeeze(n, tuple(_axes(axis, n.ndim)))
        r = ss / (builtins.max(cnt - ddof, 0) if w is True else UFUNCS["maximum"](cnt - ddof, 0))
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(dt), out)
    r = _np.dtype(dt).type(r)
    return _reduced_out(asarray(r), out) if out is not None else r


def _squares(d, dt):
    """|d|^2 and its dtype (complex: re^2 + im^2, real, as NumPy's)."""
    if dt in _COMPLEX:
        d = asarray(d)
        re, im = _unary("real", d), _unary("imag", d)
        return asarray(re * re + im * im), "float32" if dt == "complex64" else "float64"
    return asarray(d * d), dt


def _var_where(x, axis, dt, out, ddof, keepdims, where, mean_):
    """var over the elements where= chooses: NumPy's counts per slice (the
    'Degrees of freedom' warning needs one reduction of them here)."""
    from ._manipulation import broadcast_to
    w = broadcast_to(asarray(where), x.shape)
    cnt = sum(w, axis, None, None, keepdims)
    few = (bool(cnt.size) and ddof >= cnt.min()) if isinstance(cnt, ndarray) else ddof >= cnt
    if few:
        _warn.warn("Degrees of freedom <= 0 for slice", RuntimeWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        m = mean(x, axis=axis, dtype=dt, keepdims=True, where=w) if mean_ is None else asarray(mean_)
    sq, rdt = _squares(x - m, dt)
    ss = sum(sq, axis, None, None, keepdims, where=w)
    div = UFUNCS["maximum"](cnt - ddof, 0)
    with _np.errstate(invalid="ignore", divide="ignore"):
        r = ss / div
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(rdt), out)
    r = _scalar(r, rdt)
    return _reduced_out(asarray(r), out) if out is not None else r


def std(a, axis=None, dtype=None, out=None, ddof=0, keepdims=False, *, where=None, mean=None, correction=_NOVALUE):
    _sqrt_out(out)
    v = var(a, axis, dtype, None, ddof, keepdims, where=where, mean=mean, correction=correction)
    if isinstance(v, ndarray) and v._dtype not in _INEXACT:  # NumPy's sqrt into v: its casting error
        UFUNCS["sqrt"](v, out=v)
    elif not isinstance(v, ndarray) and v.dtype.kind in "biu":  # a scalar: NumPy's sqrt cast back
        r = v.dtype.type(_np.sqrt(v))
        return _reduced_out(asarray(r), out) if out is not None else r
    r = UFUNCS["sqrt"](v)
    if isinstance(r, ndarray):
        return _reduced_out(r.astype(v._dtype), out)
    return _reduced_out(asarray(r), out) if out is not None else r


def count_nonzero(a, axis=None, *, keepdims=False):
    return sum(asarray(a) != 0, axis=axis, keepdims=keepdims)  # (a whole count: NumPy 2's intp scalar)


# ---- comparisons ----
def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """NumPy's isclose, step by step: b (and so the arithmetic) in float
    (bool and integers too), |a - b| <= atol + rtol |b| where b is finite,
    or a == b (so an infinity is close only to itself)."""
    if _scalars_only(a, b) and not builtins.any(isinstance(t, ndarray) for t in (rtol, atol)):
        return _np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)
    x, y, atol, rtol = (t if isinstance(t, (int, float, complex, ndarray)) else
                        asarray(t) if not isinstance(t, _np.generic) else t for t in (a, b, atol, rtol))
    if isinstance(y, (ndarray, _np.generic)):
        dt = _np.result_type(y.dtype, 1.0)
        if y.dtype != dt:
            y = y.astype(dt)
    elif isinstance(y, int):
        y = float(y)
    def finite(t):
        return builtins.bool(all(UFUNCS["isfinite"](t))) if isinstance(t, ndarray) else \
            builtins.bool(_np.all(_np.isfinite(t)))
    if not (finite(atol) and finite(rtol)):
        err = _np.geterr()["invalid"]
        msg = f"One of rtol or atol is not valid, atol: {atol}, rtol: {rtol}"
        if err == "warn":
            _warn.warn(msg, RuntimeWarning)
        elif err == "raise":
            raise FloatingPointError(msg)
        elif err == "print":
            print(msg)
    U = UFUNCS
    from ._fpe import muted
    with muted(8):  # inf - inf: NumPy's isclose ignores invalid
        # the built-in abs, as NumPy's: a Python scalar stays weak (float32 data compares in float32)
        result = U["logical_or"](U["logical_and"](U["less_equal"](builtins.abs(x - y), atol + rtol * builtins.abs(y)),
                                                  U["isfinite"](y)), x == y)
        if equal_nan:
            result = U["logical_or"](result, U["logical_and"](U["isnan"](x), U["isnan"](y)))
        if isinstance(result, ndarray):
            result._materialize()
    return result[()] if isinstance(result, ndarray) and result.ndim == 0 else result


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    return builtins.bool(all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan)))


def array_equal(a, b, equal_nan=False):
    a, b = asarray(a), asarray(b)
    if a.shape != b.shape:
        return False
    eq = a == b
    if equal_nan:
        eq = UFUNCS["logical_or"](eq, UFUNCS["logical_and"](UFUNCS["isnan"](a), UFUNCS["isnan"](b)))
    return builtins.bool(all(eq))


def array_equiv(a1, a2):
    """numpy.array_equiv: broadcastable and equal everywhere."""
    a1, a2 = asarray(a1), asarray(a2)
    try:
        _np.broadcast_shapes(a1.shape, a2.shape)
    except ValueError:
        return False
    return builtins.bool(all(a1 == a2))


# ---- shape ----
def reshape(a, /, shape, order="C", *, copy=None):
    """NumPy 2's reshape: copy=True always copies, copy=False refuses to."""
    a = asarray(a)
    r = a.reshape(shape, order=order)
    if copy:
        return r.copy()
    if copy is False and r.size:  # would NumPy's reshape copy? (its strides rule)
        from . import _views
        fort = _f_order(order, a, reshaping=True)
        if not _views.numpy_view((a.T if fort else a)._materialize(), r.shape[::-1] if fort else r.shape):
            raise ValueError("Unable to avoid creating a copy while reshaping.")
    return r


def ravel(a, order="C"):
    return asarray(a).ravel(order=order)
