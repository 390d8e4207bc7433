"""maniple.numpy.fft: distributed FFTs by transposes over the
redistribution (the slab/pencil method of FFTW's MPI interface and
mpi4py-fft), with NumPy's pocketfft doing the local 1-d transforms.

A transform along one axis moves that axis last and splits the other
axes' lines over the ranks, whole lines per rank (mn_array_split_local);
each rank transforms its lines with NumPy and the results are joined back
(concat_local). When there are fewer lines than ranks (a 1-d transform of
one long vector), a length n = n1 n2 is done by the four-step method:
n2 transforms of length n1, a twiddle, n1 transforms of length n2, and a
transpose, so every rank works and none holds the whole vector. A prime
length has no such split and is transformed by whole lines (one rank per
line). Multi-dimensional transforms are 1-d transforms axis after axis,
in NumPy's order, so results equal NumPy's up to rounding.

The sample frequencies and shifts are aranges and rolls of distributed
arrays."""
import math as _math
import numbers as _numbers

import numpy as _np

from maniple import _core
from . import _warn
from ._creation import arange as _arange, asarray as _asarray, empty as _empty, zeros as _zeros
from ._ndarray import _part_of, ndarray as _ndarray

# a line count below the rank count and a length of at least this many
# points goes four-step (shorter lines cost little on one rank)
FOUR_STEP_MIN = 64

_NORMS = (None, "backward", "ortho", "forward")
_SWAP = {None: "forward", "backward": "forward", "ortho": "ortho", "forward": "backward"}
_HALF_IN = ("irfft", "hfft")      # n real outputs from n // 2 + 1 inputs
_HALF_OUT = ("rfft", "ihfft")     # n // 2 + 1 outputs from n real inputs
_INVERSE = ("ifft", "irfft", "hfft")


def _nranks():
    return _core.size()


def _check(name, a, axis, norm):
    """NumPy's errors and result dtype for a, from NumPy on a tiny array of
    a's dtype and rank (the length is checked apart, since n may be large)"""
    return getattr(_np.fft, name)(_np.ones((2,) * a.ndim, dtype=a.dtype), axis=axis, norm=norm).dtype


def _factor(norm, n, inverse):
    """the scale of an unscaled transform of length n under norm"""
    if norm == "ortho":
        return 1.0 / _math.sqrt(n)
    if (norm == "forward") != inverse:
        return 1.0 / n
    return 1.0


def _split2(n):
    """n1 * n2 = n with n1 the largest divisor not above sqrt(n) (1: prime)"""
    for n1 in range(int(_math.isqrt(n)), 0, -1):
        if n % n1 == 0:
            return n1, n // n1
    return 1, n


def _lines(x2, fn, nout, odt):
    """fn on every row of the 2-d array x2 (M, m), rows split over the
    ranks, each rank's rows given to fn as one NumPy block (c, m) that it
    maps to (c, nout); the (M, nout) result of dtype odt"""
    M, m = x2.shape
    odt = _np.dtype(odt)
    r, P = _core.rank(), _nranks()
    c = M // P + (1 if r < M % P else 0)
    flat = x2.reshape(M * m)._materialize()
    loc = _np.frombuffer(flat.split_local(c * m), dtype=x2.dtype).reshape(c, m)
    res = _np.ascontiguousarray(fn(loc), dtype=odt)
    return _ndarray(_core.concat_local(odt.name, res.tobytes())).reshape(M, nout)


def _twiddle(n1, n2, sign, dt):
    """exp(sign 2 pi i j2 k1 / n) as an (n2, n1) array [j2, k1], the
    exponent reduced mod n so the angle stays in [0, 2 pi)"""
    n = n1 * n2
    jk = (_arange(n2, dtype="int64").reshape(n2, 1) * _arange(n1, dtype="int64").reshape(1, n1)) % n
    ang = jk * (sign * 2.0 * _math.pi / n)
    from ._functions import UFUNCS as _U
    return (_U["cos"](ang) + 1j * _U["sin"](ang)).astype(dt)


def _c2c(x2, sign):
    """the unscaled complex transform of each row of x2 (M, n) (sign -1:
    forward, +1: inverse), four-step when the rows are fewer than ranks"""
    M, n = x2.shape
    dt = x2.dtype
    n1, n2 = _split2(n)
    if M >= _nranks() or n < FOUR_STEP_MIN or n1 == 1:
        fn = (lambda L: _np.fft.fft(L, axis=1)) if sign < 0 else (lambda L: _np.fft.ifft(L, axis=1, norm="forward"))
        return _lines(x2, fn, n, dt)
    # x[m, j1 n2 + j2]: transforms over j1, twiddle, over j2; X[m, k1 + n1 k2]
    t1 = x2.reshape(M, n1, n2).transpose(0, 2, 1).reshape(M * n2, n1)
    b = _c2c(t1, sign).reshape(M, n2, n1) * _twiddle(n1, n2, sign, dt)
    t2 = b.transpose(0, 2, 1).reshape(M * n1, n2)
    c = _c2c(t2, sign).reshape(M, n1, n2)
    return c.transpose(0, 2, 1).reshape(M, n)


def _fit(x2, n):
    """x2's rows cut or zero-padded to n points"""
    M, m = x2.shape
    if m == n:
        return x2
    if m > n:
        return x2[:, :n]
    from ._manipulation import concatenate
    return concatenate([x2, _zeros((M, n - m), x2.dtype)], axis=1)


def _four_step(name, x2, n, norm, odt):
    """name's transform of x2's rows by _c2c (NumPy's semantics)"""
    cdt = _np.result_type(odt, _np.complex64)
    if name in ("ihfft", "hfft"):  # NumPy's definitions: the other direction, conjugated
        norm = _SWAP[norm]
    if name == "ihfft":
        x2 = _fit(x2, n).astype(cdt)
        r = _c2c(x2, -1)[:, :n // 2 + 1]
        return r.conj() * _factor(norm, n, False)
    if name in _HALF_IN:  # the Hermitian spectrum completed, its real transform
        h = _fit(x2, n // 2 + 1).astype(cdt)
        if name == "hfft":
            h = h.conj()
        from ._manipulation import concatenate
        tail = h[:, 1:n - n // 2][:, ::-1].conj()
        full = concatenate([h, tail], axis=1) if n - n // 2 > 1 else h
        return (_part_of(_c2c(full, 1), "real") * _factor(norm, n, True)).astype(odt)
    x2 = _fit(x2, n).astype(cdt)
    r = _c2c(x2, 1 if name == "ifft" else -1)
    if name == "rfft":
        r = r[:, :n // 2 + 1]
    return (r * _factor(norm, n, name == "ifft")).astype(odt)


def _finish(r, out):
    if out is None:
        return r
    from ._engine import _assign
    if isinstance(out, _ndarray):
        if out.shape != r.shape:
            raise ValueError(f"output array has wrong shape {out.shape}, expected {r.shape}")
        if not _np.can_cast(r.dtype, out.dtype, "same_kind"):
            raise TypeError(f"Cannot cast ufunc output from dtype('{r.dtype}') to dtype('{out.dtype}') with casting "
                            "rule 'same_kind'")
        _assign(out._materialize(), r, same_kind=True)
        return out
    out[...] = _np.asarray(r)  # a NumPy out: written as NumPy writes it
    return out


def _one(name, a, n, axis, norm, out=None):
    """the 1-d transform name of a along axis (NumPy's arguments)"""
    a = _asarray(a)
    odt = _check(name, a, axis, norm)
    if n is not None and not isinstance(n, _numbers.Integral):
        raise TypeError(f"'{type(n).__name__}' object cannot be interpreted as an integer")
    ax = axis % a.ndim
    m = a.shape[ax]
    nn = (2 * (m - 1) if name in _HALF_IN else m) if n is None else int(n)
    if nn < 1:
        raise ValueError(f"Invalid number of FFT data points ({nn}) specified.")
    nout = nn // 2 + 1 if name in _HALF_OUT else nn
    from ._manipulation import moveaxis
    x = moveaxis(a, ax, -1)
    lead = x.shape[:-1]
    M = int(_np.prod(lead, dtype=_np.int64))
    if M == 0 or m == 0:  # no lines, or lines of padding alone: zeros
        r = _zeros(lead + (nout,), odt)
    else:
        x2 = x.reshape(M, m)
        n1 = _split2(nn)[0]
        if M < _nranks() and nn >= FOUR_STEP_MIN and n1 > 1:
            r = _four_step(name, x2, nn, norm, odt)
        else:
            f = getattr(_np.fft, name)
            r = _lines(x2, lambda L: f(L, n=nn, axis=1, norm=norm), nout, odt)
        r = r.reshape(lead + (nout,))
    return _finish(moveaxis(r, -1, ax), out)


def fft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.fft, distributed (the module's docstring says how)."""
    return _one("fft", a, n, axis, norm, out)


def ifft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.ifft, distributed."""
    return _one("ifft", a, n, axis, norm, out)


def rfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.rfft, distributed."""
    return _one("rfft", a, n, axis, norm, out)


def irfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.irfft, distributed."""
    return _one("irfft", a, n, axis, norm, out)


def hfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.hfft, distributed."""
    return _one("hfft", a, n, axis, norm, out)


def ihfft(a, n=None, axis=-1, norm=None, out=None):
    """numpy.fft.ihfft, distributed."""
    return _one("ihfft", a, n, axis, norm, out)


def _cook(a, s, axes, invreal=False):
    """NumPy's (s, axes) for the n-d transforms: s defaults to a's shape
    along axes, axes to the last len(s); -1 in s means the whole axis"""
    if s is None:
        s = [a.shape[i] for i in (range(a.ndim) if axes is None else axes)]
        if invreal:
            last = a.ndim - 1 if axes is None else axes[-1]
            s[-1] = (a.shape[last] - 1) * 2
    elif axes is None:
        _warn.warn("`axes` should not be `None` if `s` is not `None` (Deprecated in NumPy 2.0): pass the axes "
                      "s refers to", DeprecationWarning)
    s = list(s)
    axes = list(range(-len(s), 0)) if axes is None else list(axes)
    if len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    for ax in axes:  # NumPy's AxisError (a ValueError and an IndexError) for an axis a does not have
        if not -a.ndim <= ax < a.ndim:
            raise _np.exceptions.AxisError(ax, a.ndim)
    return [a.shape[ax] if k == -1 else k for k, ax in zip(s, axes)], axes


def _nd(a, s, axes, norm, out, first, rest, invreal=False):
    a = _asarray(a)
    s, axes = _cook(a, s, axes, invreal)
    if not axes:
        if first != rest:  # the real transforms need a last axis (NumPy's IndexError)
            raise IndexError("list index out of range")
        return _finish(a.copy(), out)
    if first == "irfft":  # the complex inverses first, the real one last
        for k in range(len(axes) - 1):
            a = _one(rest, a, s[k], axes[k], norm)
        return _one("irfft", a, s[-1], axes[-1], norm, out)
    a = _one(first, a, s[-1], axes[-1], norm)
    for k in range(len(axes) - 2, -1, -1):
        a = _one(rest, a, s[k], axes[k], norm)
    return _finish(a, out)


def fftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.fftn: fft along each axis (last first), distributed."""
    return _nd(a, s, axes, norm, out, "fft", "fft")


def ifftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.ifftn, distributed."""
    return _nd(a, s, axes, norm, out, "ifft", "ifft")


def rfftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.rfftn: rfft along the last axis, then fft along the rest."""
    return _nd(a, s, axes, norm, out, "rfft", "fft")


def irfftn(a, s=None, axes=None, norm=None, out=None):
    """numpy.fft.irfftn: ifft along all but the last axis, then irfft."""
    return _nd(a, s, axes, norm, out, "irfft", "ifft", invreal=True)


def fft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.fft2, distributed."""
    return fftn(a, s, axes, norm, out)


def ifft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.ifft2, distributed."""
    return ifftn(a, s, axes, norm, out)


def rfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.rfft2, distributed."""
    return rfftn(a, s, axes, norm, out)


def irfft2(a, s=None, axes=(-2, -1), norm=None, out=None):
    """numpy.fft.irfft2, distributed."""
    return irfftn(a, s, axes, norm, out)


def fftfreq(n, d=1.0, device=None):
    """numpy.fft.fftfreq: [0, 1, ..., -(n // 2), ..., -1] / (n d)."""
    if not isinstance(n, _numbers.Integral):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    results = _empty(n, "int64")
    N = (n - 1) // 2 + 1
    results[:N] = _arange(0, N, dtype="int64")
    results[N:] = _arange(-(n // 2), 0, dtype="int64")
    return results * val


def rfftfreq(n, d=1.0, device=None):
    """numpy.fft.rfftfreq: [0, 1, ..., n // 2] / (n d)."""
    if not isinstance(n, _numbers.Integral):
        raise ValueError("n should be an integer")
    val = 1.0 / (n * d)
    return _arange(0, n // 2 + 1, dtype="int64") * val


def _shift(x, axes, sign):
    from ._manipulation import roll
    x = _asarray(x)
    if axes is None:
        axes = tuple(range(x.ndim))
        shift = [sign * (dim // 2) for dim in x.shape]
    elif isinstance(axes, _numbers.Integral):
        shift = sign * (x.shape[axes] // 2)
    else:
        shift = [sign * (x.shape[ax] // 2) for ax in axes]
    return roll(x, shift, axes)


def fftshift(x, axes=None):
    """numpy.fft.fftshift: the zero frequency moved to the centre (a roll)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None):
    """numpy.fft.ifftshift: fftshift undone."""
    return _shift(x, axes, -1)
