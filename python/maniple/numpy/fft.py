"""maniple.numpy.fft: NumPy's discrete Fourier transforms, computed by NumPy
on one rank as announced fallbacks (see _fallback): the input is gathered,
the result comes back to every rank. Complex results, which maniple arrays
cannot hold, are NumPy arrays, the same on every rank."""
from . import _fallback

_fallback.install(globals(), "fft")
del _fallback
