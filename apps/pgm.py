"""Binary PGM (P5) grey-level images for the apps, with no dependency but
NumPy: read_pgm gives a plain NumPy array (every rank reads the file), and
write_pgm gathers a NumPy or maniple array (numpy.asarray; every rank takes
part) and writes it on rank 0. Bad files raise PGMError naming the file."""
import os
import sys

import numpy


class PGMError(ValueError):
    """A file that is not a readable binary PGM; the message names it."""


def _header(data, path):
    """(width, height, maxval, offset of the pixels): 'P5', then three
    numbers separated by whitespace and comments, then one whitespace."""
    if data[:2] != b"P5":
        what = data[:2].decode("latin-1") if data else "nothing (an empty file)"
        raise PGMError(f"{path}: not a binary PGM (P5): it starts with {what!r}")
    fields, k = [], 2
    while len(fields) < 3:
        while k < len(data) and (data[k:k + 1].isspace() or data[k:k + 1] == b"#"):
            if data[k:k + 1] == b"#":
                while k < len(data) and data[k:k + 1] not in (b"\n", b"\r"):
                    k += 1
            else:
                k += 1
        start = k
        while k < len(data) and not data[k:k + 1].isspace() and data[k:k + 1] != b"#":
            k += 1
        token = data[start:k]
        name = ("width", "height", "maxval")[len(fields)]
        if not token:
            raise PGMError(f"{path}: truncated PGM header: no {name}")
        if not token.isdigit():
            raise PGMError(f"{path}: bad PGM header: {name} {token.decode('latin-1')!r} is not a number")
        fields.append(int(token))
    if k >= len(data) or not data[k:k + 1].isspace():
        raise PGMError(f"{path}: truncated PGM header: no whitespace after the maxval")
    w, h, maxval = fields
    if w < 1 or h < 1:
        raise PGMError(f"{path}: bad PGM size {w} x {h}")
    if not 1 <= maxval <= 65535:
        raise PGMError(f"{path}: bad PGM maxval {maxval} (1 to 65535)")
    return w, h, maxval, k + 1


def read_pgm(path):
    """The image as a (height, width) NumPy array: uint8 for maxval < 256,
    else uint16 (the file's big-endian samples)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise PGMError(f"{path}: cannot read: {e.strerror}") from None
    w, h, maxval, off = _header(data, path)
    size = 1 if maxval < 256 else 2
    need, have = w * h * size, len(data) - off
    if have < need:
        raise PGMError(f"{path}: truncated: {have} of {need} bytes of pixels ({w} x {h}, maxval {maxval})")
    dt = numpy.uint8 if size == 1 else numpy.dtype(">u2")
    img = numpy.frombuffer(data, dtype=dt, count=w * h, offset=off).reshape(h, w)
    if img.max() > maxval:
        raise PGMError(f"{path}: a pixel value {int(img.max())} exceeds the maxval {maxval}")
    return img.astype(numpy.uint8 if size == 1 else numpy.uint16)


def _rank():
    mod = sys.modules.get("maniple")
    if mod is not None and hasattr(mod, "rank"):
        return mod.rank()
    return int(os.environ.get("OMPI_COMM_WORLD_RANK", os.environ.get("PMI_RANK", "0")))


def write_pgm(path, array2d):
    """Write a 2-d array as an 8-bit P5 file, values rounded and clipped to
    0..255. Collective for maniple arrays; rank 0 writes."""
    a = numpy.asarray(array2d, dtype=float)  # gathers a maniple array on every rank
    if a.ndim != 2 or a.size == 0:
        raise ValueError(f"write_pgm needs a non-empty 2-d array, got shape {a.shape}")
    if _rank() == 0:
        pix = numpy.clip(numpy.rint(numpy.nan_to_num(a)), 0, 255).astype(numpy.uint8)
        with open(path, "wb") as f:
            f.write(b"P5\n%d %d\n255\n" % (a.shape[1], a.shape[0]))
            f.write(pix.tobytes())
