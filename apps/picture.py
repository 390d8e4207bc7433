"""A dependency-free PNG writer for the apps: a 2-d field as a colour map
(zlib + struct only, so it runs wherever NumPy does).

    write_png("h.png", h)                    # viridis-like, range from data
    write_png("h.png", h, vmin=0, vmax=2, cmap="gray", origin="lower")

The array may be NumPy or maniple.numpy: it is gathered with numpy.asarray
(every rank takes part) and rank 0 alone writes the file.
"""
import os
import struct
import sys
import zlib

import numpy

# Anchors of a viridis-like map (dark blue -> green -> yellow), interpolated
# linearly: close enough to read a field, small enough to keep here.
_VIRIDIS = numpy.array([
    (68, 1, 84), (72, 40, 120), (62, 74, 137), (49, 104, 142), (38, 130, 142),
    (31, 158, 137), (53, 183, 121), (110, 206, 88), (181, 222, 43), (253, 231, 37)], dtype=float)
_GRAY = numpy.array([(0, 0, 0), (255, 255, 255)], dtype=float)
CMAPS = {"viridis": _VIRIDIS, "viridis-like": _VIRIDIS, "gray": _GRAY}


def colorize(a, vmin=None, vmax=None, cmap="viridis"):
    """(ny, nx) values -> (ny, nx, 3) uint8 RGB. NaN and inf are black;
    a constant field takes the map's middle colour."""
    if cmap not in CMAPS:
        raise ValueError(f"cmap {cmap!r} is not one of {', '.join(CMAPS)}")
    a = numpy.asarray(a, dtype=float)
    if a.ndim != 2 or a.size == 0:
        raise ValueError(f"write_png needs a non-empty 2-d array, got shape {a.shape}")
    finite = numpy.isfinite(a)
    lo = float(a[finite].min()) if vmin is None and finite.any() else (0.0 if vmin is None else float(vmin))
    hi = float(a[finite].max()) if vmax is None and finite.any() else (1.0 if vmax is None else float(vmax))
    t = numpy.full(a.shape, 0.5) if hi <= lo else (numpy.where(finite, a, lo) - lo) / (hi - lo)
    t = numpy.clip(t, 0.0, 1.0)
    table = CMAPS[cmap]
    pos = t * (len(table) - 1)
    k = numpy.minimum(pos.astype(int), len(table) - 2)
    f = (pos - k)[..., None]
    rgb = table[k] * (1.0 - f) + table[k + 1] * f
    rgb[~finite] = 0.0
    return numpy.rint(rgb).astype(numpy.uint8)


def _chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def png_bytes(rgb):
    """An 8-bit RGB PNG of a (ny, nx, 3) uint8 array, row 0 at the top."""
    ny, nx, _ = rgb.shape
    raw = b"".join(b"\x00" + rgb[j].tobytes() for j in range(ny))  # filter 0 on each row
    head = struct.pack(">IIBBBBB", nx, ny, 8, 2, 0, 0, 0)  # 8 bits, RGB, no interlace
    return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", head) + _chunk(b"IDAT", zlib.compress(raw, 6)) + \
        _chunk(b"IEND", b"")


def _rank():
    mod = sys.modules.get("maniple")
    if mod is not None and hasattr(mod, "rank"):
        return mod.rank()
    return int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0")))


def write_png(path, array2d, vmin=None, vmax=None, cmap="viridis", origin="upper"):
    """Write array2d as a colour-mapped PNG. origin='lower' puts row 0 at the
    bottom (y up, as a plot). Collective for maniple arrays; rank 0 writes."""
    if origin not in ("upper", "lower"):
        raise ValueError(f"origin {origin!r} must be 'upper' or 'lower'")
    a = numpy.asarray(array2d, dtype=float)  # gathers a maniple array on every rank
    rgb = colorize(a[::-1] if origin == "lower" else a, vmin, vmax, cmap)
    if _rank() == 0:
        with open(path, "wb") as f:
            f.write(png_bytes(rgb))
