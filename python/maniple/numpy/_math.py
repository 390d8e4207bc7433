"""NumPy's element-wise functions that are exact compositions of maniple's
fused ufuncs (no kernels of their own): rounding, nan_to_num, the
real/complex helpers (maniple arrays are real), sinc, angle, and the
two-output ufuncs divmod, modf and frexp."""
import builtins
import operator

import numpy as _np

from . import _ufunc
from ._creation import asarray, full, zeros
from ._functions import UFUNCS, _make_unary, _scalars_only, _with_out, where
from ._engine import _binary, _unary
from ._ndarray import ndarray

from ._dtypes import INTS as _INT
from ._dtypes import COMPLEX as _COMPLEX, FLOATS as _FLOAT


_FLOAT_OF = {t: _np.sqrt(_np.zeros(1, t)).dtype.name for t in ("bool",) + _INT}


def _float_of(x, name=None):
    """x in the float dtype NumPy's float functions compute in (float16 for
    bool and 8-bit integers, float32 for 16-bit ones, else float64);
    complex x as it is, or, for the ufunc name that has no complex loop,
    NumPy's own error (raised by NumPy on one element)."""
    if x._dtype in _COMPLEX:
        if name is not None:
            getattr(_np, name)(_np.zeros(1, x._dtype))
        return x
    return x if x._dtype in _FLOAT else x.astype(_FLOAT_OF[x._dtype])


def _outs(name, nout, positional, out):
    """The output arrays of a ufunc with nout outputs: positional outs or
    out=(...), as NumPy accepts them."""
    if out is not None:
        if builtins.any(p is not None for p in positional):
            raise TypeError(f"{name}: cannot specify 'out' as both a positional and keyword argument")
        if isinstance(out, ndarray) and nout == 1:
            out = (out,)
        if not isinstance(out, tuple) or len(out) != nout:
            raise ValueError(f"{name}: 'out' must be a tuple of {nout} arrays (or None)")
        positional = out
    for o in positional:  # NumPy arrays get the gathered result (_with_out)
        if o is not None and not isinstance(o, (ndarray, _np.ndarray)):
            raise TypeError(f"{name}: 'out' must be arrays")
    return positional


# ---- same functions under NumPy's other ufunc names ----
UFUNCS["degrees"] = _make_unary("degrees", "rad2deg")
UFUNCS["radians"] = _make_unary("radians", "deg2rad")


# ---- complex parts, and their values for real arrays ----
def conjugate(x, out=None):
    """numpy.conjugate: a copy for real arrays (int8 for bool, as NumPy)."""
    if out is None and _scalars_only(x):
        return _np.conjugate(x)
    x = asarray(x)
    if x._dtype in _COMPLEX:
        return _with_out(_unary("conjugate", x), out)
    if x._dtype == "bool":
        return _with_out(x.astype("int8"), out)
    return _with_out(_unary("positive", x), out)


conjugate = UFUNCS["conjugate"] = _ufunc.make("conjugate", conjugate)


def bitwise_count(x, out=None):
    """numpy.bitwise_count: the 1-bits of |x| as uint8, by the SWAR
    popcount in uint64 (one fused expression)."""
    if out is None and _scalars_only(x):
        return _np.bitwise_count(x)
    x = asarray(x)
    if x._dtype not in ("bool",) + _INT:
        raise TypeError("ufunc 'bitwise_count' not supported for the input types, and the inputs could not be "
                        "safely coerced to any supported types according to the casting rule ''safe''")
    signed = x._dtype.startswith("int")
    v = _unary("absolute", x.astype("int64")).astype("uint64") if signed else x.astype("uint64")
    v = v - ((v >> 1) & 0x5555555555555555)
    v = (v & 0x3333333333333333) + ((v >> 2) & 0x3333333333333333)
    v = (v + (v >> 4)) & 0x0F0F0F0F0F0F0F0F
    return _with_out(((v * 0x0101010101010101) >> 56).astype("uint8"), out, "bitwise_count")


bitwise_count = UFUNCS["bitwise_count"] = _ufunc.make("bitwise_count", bitwise_count)
conj = conjugate


def real(val):
    try:
        return val.real
    except AttributeError:
        return asarray(val).real


def imag(val):
    try:
        return val.imag
    except AttributeError:
        return asarray(val).imag


def iscomplexobj(x):
    if isinstance(x, ndarray):
        return x._dtype in _COMPLEX
    return _np.iscomplexobj(x)


def isrealobj(x):
    return not iscomplexobj(x)


def iscomplex(x):
    if _scalars_only(x):
        return _np.iscomplex(x)
    x = asarray(x)
    if x._dtype in _COMPLEX:
        r = _binary("not_equal", _unary("imag", x), 0)
        return r[()] if x.ndim == 0 else r
    r = zeros(x.shape, "bool")
    return r[()] if x.ndim == 0 else r


def isreal(x):
    if _scalars_only(x):
        return _np.isreal(x)
    x = asarray(x)
    if x._dtype in _COMPLEX:
        r = _binary("equal", _unary("imag", x), 0)
        return r[()] if x.ndim == 0 else r
    return full(x.shape, True, "bool")


def angle(z, deg=False):
    """The argument: arctan2(imag, real); for real numbers arctan2(0, z),
    so 0 for z >= +0 and pi for z < 0 and z = -0.0 (NumPy's convention)."""
    if _scalars_only(z):
        return _np.angle(z, deg=deg)
    z = asarray(z)
    if z._dtype in _COMPLEX:
        a = _binary("arctan2", _unary("imag", z), _unary("real", z))
    else:
        a = _binary("arctan2", 0, z)
    return a * (180 / _np.pi) if deg else a


# ---- rounding ----
def fix(x, out=None):
    """Round towards zero: trunc, as NumPy 2 (ints keep their dtype)."""
    if out is None and _scalars_only(x):
        return _np.fix(x)
    return _with_out(_unary("trunc", x), out)


def _pow10(n):
    # exact to 1e8, then repeated multiplication by 10 in double, so that
    # decimals >= 23 scale by the same (inexact) factor as NumPy's round
    if n < 9:
        return 10.0 ** n
    r = 1e9
    for _ in range(n - 9):
        r *= 10.0
        if r == _np.inf:
            break
    return r


def round(a, decimals=0, out=None):
    """numpy.round: round half to even at `decimals` places. decimals=0 is
    rint (ints keep their dtype); otherwise rint(a * 10**d) / 10**d (or
    rint(a / 10**-d) * 10**-d), with NumPy's order of operations, dtypes
    and casting into `out`."""
    if out is None and _scalars_only(a):
        return _np.round(a, decimals)
    a = asarray(a)
    decimals = operator.index(decimals)
    dt = a._dtype
    if dt in _INT and decimals >= 0:
        return _with_out(a.astype(dt), out)
    if decimals == 0:
        return _with_out(_unary("rint", a), out)
    f = _pow10(abs(decimals))
    op1, op2 = ("multiply", "true_divide") if decimals > 0 else ("true_divide", "multiply")
    if out is not None:  # NumPy computes step by step in out
        _with_out(_binary(op1, a, f), out)
        _with_out(_unary("rint", out), out)
        return _with_out(_binary(op2, out, f), out)
    if dt == "bool":  # NumPy's error from its first step (multiply, or divide for decimals < 0)
        from ._functions import _cast_error
        raise _cast_error("multiply" if decimals > 0 else "divide", "float64", "bool")
    r = _binary(op2, _unary("rint", _binary(op1, _float_of(a), f)), f)
    return r.astype(dt) if dt in _INT else r


around = round


def nan_to_num(x, copy=True, nan=0.0, posinf=None, neginf=None):
    """NaN -> nan, +inf -> posinf (default the dtype's largest value), -inf
    -> neginf (default the most negative); other dtypes unchanged."""
    if _scalars_only(x):
        return _np.nan_to_num(x, copy=copy, nan=nan, posinf=posinf, neginf=neginf)
    if not isinstance(x, ndarray):
        x, copy = asarray(x), True
    dt = x._dtype
    if dt in _FLOAT:
        fi = _np.finfo(dt)
        hi = fi.max if posinf is None else posinf
        lo = fi.min if neginf is None else neginf
        r = where(_unary("isnan", x), nan,
                  where(isposinf(x), hi, where(isneginf(x), lo, x))).astype(dt)
    elif dt in ("complex64", "complex128"):  # each part as a real array (NumPy's)
        r = x.copy()
        r.real = nan_to_num(x.real, True, nan, posinf, neginf)
        r.imag = nan_to_num(x.imag, True, nan, posinf, neginf)
    else:
        r = x.astype(dt)
    if not copy:
        x[...] = r
        r = x
    return r[()] if r.ndim == 0 else r


def isposinf(x, out=None):
    if out is None and _scalars_only(x):
        return _np.isposinf(x)
    return _with_out(_binary("logical_and", _unary("isinf", x), _unary("logical_not", _unary("signbit", x))), out)


def isneginf(x, out=None):
    if out is None and _scalars_only(x):
        return _np.isneginf(x)
    return _with_out(_binary("logical_and", _unary("isinf", x), _unary("signbit", x)), out)


def sinc(x):
    """sin(pi x) / (pi x), 1 at 0: as NumPy, zeros of pi*x are replaced by
    the dtype's epsilon before dividing."""
    if _scalars_only(x):
        return _np.sinc(x)
    y = _binary("multiply", _np.pi, asarray(x))
    eps = _np.finfo(_np.asarray(y).dtype if not hasattr(y, "_dtype") else y._dtype).eps
    y = where(y, y, eps)
    return _binary("true_divide", _unary("sin", y), y)


def i0(x):
    """Modified Bessel function of the first kind, order 0 (to within 2e-15
    of NumPy's in float64)."""
    if _scalars_only(x):
        return _np.i0(x)
    x = asarray(x)
    if x.dtype.kind == "c":
        raise TypeError("i0 not supported for complex values")
    return _unary("i0", x)


# ---- ufuncs with two outputs ----
def divmod(x1, x2, out1=None, out2=None, *, out=None):
    """(floor_divide, remainder)."""
    o1, o2 = _outs("divmod", 2, (out1, out2), out)
    if o1 is None and o2 is None and _scalars_only(x1, x2):
        return _np.divmod(x1, x2)
    # both are built before either is stored: writing o1 first evaluates a
    # pending remainder that reads o1's storage (dependency tracking)
    q, r = _binary("floor_divide", x1, x2), _binary("remainder", x1, x2)
    return _with_out(q, o1), _with_out(r, o2)


def modf(x, out1=None, out2=None, *, out=None):
    """(fractional part, integral part), both with x's sign: x - trunc(x) is
    exact; infinities have fractional part +-0."""
    o1, o2 = _outs("modf", 2, (out1, out2), out)
    if o1 is None and o2 is None and _scalars_only(x):
        return _np.modf(x)
    xf = _float_of(asarray(x), "modf")
    ip = _unary("trunc", xf)
    fp = _binary("copysign", where(_unary("isinf", xf), 0.0, _binary("subtract", xf, ip)), xf)
    return _with_out(fp, o1), _with_out(ip, o2)


def frexp(x, out1=None, out2=None, *, out=None):
    """(mantissa in [0.5, 1) with x's sign, int32 exponent): x == m * 2**e;
    0, inf and NaN have exponent 0."""
    o1, o2 = _outs("frexp", 2, (out1, out2), out)
    if o1 is None and o2 is None and _scalars_only(x):
        return _np.frexp(x)
    xf = _float_of(asarray(x), "frexp")
    e = _unary("frexp_exponent", xf)
    m = _binary("ldexp", xf, _unary("negative", e))  # exact: a power-of-two scaling
    return _with_out(m, o1), _with_out(e, o2)


divmod, modf, frexp = (_ufunc.make(f.__name__, f) for f in (divmod, modf, frexp))
UFUNCS.update(divmod=divmod, modf=modf, frexp=frexp)


def real_if_close(a, tol=100):
    """numpy.real_if_close: a complex array's real part where every
    imaginary part is below tol (in machine epsilons when tol > 1), else a;
    a real array itself."""
    a = asarray(a)
    if a._dtype not in _COMPLEX:
        return a
    if tol > 1:
        tol = tol * _np.finfo(a._dtype).eps
    im = _unary("absolute", _unary("imag", a))
    if a.size == 0 or builtins.bool((im < tol).all()):
        return _unary("real", a)
    return a


# ---- bits ----
def _bit_axis(a, axis):
    """a with the packed axis last (a flattened when axis is None), and
    how to put it back."""
    from ._functions import _axis
    from ._manipulation import moveaxis
    if axis is None:
        return a.ravel(), lambda r: r
    ax = _axis(axis, a.ndim)
    return moveaxis(a, ax, -1), lambda r: moveaxis(r, -1, ax)


def _bitorder(bitorder, call):
    """The bit weights of NumPy's bitorder: a str whose first letter is 'l'
    (little) or 'b' (big)."""
    if not isinstance(bitorder, str):
        raise TypeError(f"{call} must be str, not {'None' if bitorder is None else type(bitorder).__name__}")
    if bitorder[:1] not in ("l", "b"):
        raise ValueError("'order' must begin with 'l' or 'b'")
    w = [1 << k for k in range(8)]
    return w[::-1] if bitorder[0] == "b" else w


def packbits(a, /, axis=None, bitorder="big"):
    """numpy.packbits: groups of 8 elements (nonzero: 1) along axis into
    uint8, the last group padded with zeros; a weighted sum per group."""
    from ._manipulation import concatenate
    a = asarray(a)
    if a._dtype not in ("bool",) + _INT:
        raise TypeError("Expected an input array of integer or boolean data type")
    w = asarray(_np.asarray(_bitorder(bitorder, "pack() argument 3"), "uint8"))
    b, back = _bit_axis(a, axis)
    n = b.shape[-1]
    m = -(-n // 8)
    b = (b != 0).astype("uint8")
    if 8 * m != n:
        b = concatenate([b, zeros(b.shape[:-1] + (8 * m - n,), "uint8")], axis=-1)
    r = (b.reshape(b.shape[:-1] + (m, 8)) * w).sum(axis=-1).astype("uint8")
    return back(r)


def unpackbits(a, /, axis=None, count=None, bitorder="big"):
    """numpy.unpackbits: each uint8 along axis as its 8 bits (count of
    them kept: fewer trims, more pads with zeros, negative trims the end)."""
    from ._manipulation import concatenate
    a = asarray(a)
    if a._dtype != "uint8":
        raise TypeError("Expected an input array of unsigned byte data type")
    shifts = asarray(_np.asarray([w.bit_length() - 1 for w in _bitorder(bitorder, "unpack() argument 4")], "uint8"))
    b, back = _bit_axis(a, axis)
    n8 = 8 * b.shape[-1]
    r = ((b[..., None] >> shifts) & 1).reshape(b.shape[:-1] + (n8,))
    if count is not None:
        count = operator.index(count)
        if -count > n8:
            raise ValueError("-count larger than number of elements")
        k = count if count >= 0 else n8 + count
        if k <= n8:
            r = r[..., :k]
        else:
            r = concatenate([r, zeros(r.shape[:-1] + (k - n8,), "uint8")], axis=-1)
    return back(r)
