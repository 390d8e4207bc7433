"""NumPy's memory orders ('C', 'F', 'A', 'K') for maniple arrays.

An array's memory order is that of its view over its storage (_views
strides): a fresh array is C-ordered, a transposed view is F-ordered. An
array asked for in F order (`zeros(..., order='F')`, `asfortranarray`,
`copy(order='F')`, or 'A'/'K' of an F-ordered array) is storage of the
reversed shape in C order, seen transposed: its flags, ravel('K'/'A') and
reshape(order='A') are NumPy's. Its storage is split over the ranks along
its last axis, so element-wise work between it and a C-ordered array
redistributes one of them.
"""
from . import _views


def axes(a, order):
    """The axes of a from the slowest to the fastest in memory for a result
    in this order (checked by the caller), or None for C order."""
    o = "K" if order is None else order.upper()
    n = a.ndim
    if n < 2 or o == "C":
        return None
    if o == "F":
        return tuple(range(n - 1, -1, -1))
    if a._expr is not None or a.size == 0:  # pending values land in fresh C storage
        return None
    if o == "A":
        f = a.flags
        return tuple(range(n - 1, -1, -1)) if f.f_contiguous and not f.c_contiguous else None
    st = _views.strides(a._materialize())
    p = tuple(sorted(range(n), key=lambda i: -abs(st[i])))  # stable: ties keep their order
    return None if p == tuple(range(n)) else p


def inverse(p):
    inv = [0] * len(p)
    for i, j in enumerate(p):
        inv[j] = i
    return tuple(inv)


def fresh(shape, p, make):
    """make(shape') for the shape permuted by p, seen in shape (p None: make(shape))."""
    if p is None:
        return make(tuple(shape))
    return make(tuple(shape[i] for i in p)).transpose(inverse(p))


def laid_out(a, p, convert=None):
    """a's values (through convert, an element-wise map such as a cast) in
    fresh storage whose memory order is p."""
    convert = convert or (lambda t: t.copy())
    if p is None:
        return convert(a)
    return convert(a.transpose(p)).transpose(inverse(p))


def satisfies(a, order):
    """a is already laid out as order asks ('A', 'K' and None: always)."""
    o = "K" if order is None else order.upper()
    if o == "C":
        return a.flags.c_contiguous
    if o == "F":
        return a.flags.f_contiguous
    return True
