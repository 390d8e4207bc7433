"""maniple.numpy.fft: the sample frequencies and shifts are native
(aranges and rolls of distributed arrays); the transforms themselves are
computed by NumPy on one rank as announced fallbacks (see _fallback): the
input is gathered, the complex result comes back as a maniple array."""
import numbers as _numbers

from . import _fallback
from ._creation import arange as _arange, asarray as _asarray, empty as _empty


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


_fallback.install(globals(), "fft")
del _fallback
