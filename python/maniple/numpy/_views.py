"""NumPy's view semantics for reshape and ravel.

Where NumPy's reshape gives a view, writes through the result reach the
original and writes to the original show in the result. A new shape that
only adds or drops axes of length 1 is a true view (the same storage). Any
other new shape splits the elements into other blocks over the ranks, so
the result gets storage of its own, linked to its source: after a write
into either storage the other is brought up to date (one redistribution),
for as long as both are alive. Where NumPy copies (the strides cannot
express the new shape, decided as NumPy does), the result is a plain copy.

Storage is known by its key (Array.base). A link holds the source view and
the result's base handle; it is dropped when either side is held by
nobody else (share counts and reference counts), so a reshaped temporary
(`np.arange(n).reshape(k, m)`) costs nothing after the statement.
"""
import sys

import numpy as _np

_links = {}   # source storage key -> [Link] made from it
_source = {}  # result storage key -> its Link
linked = set()  # every key in either map: writes into these propagate
_refcount = sys.getrefcount


class _Link:
    __slots__ = ("src", "skey", "dst", "dkey", "strides", "part", "origin", "fwd")

    def __init__(self, src, dst, strides, part=None, origin=0, fwd=None):
        self.src, self.skey = src, src.base  # src None: the source is gone
        self.dst, self.dkey = dst, dst.base
        self.strides = strides  # NumPy's strides of dst's axes over the root storage
        self.part = part  # None: dst holds src's elements; "real"/"imag": that part of each
        self.origin = origin  # dst's first element in the root storage, from src's (elements)
        self.fwd = fwd  # fwd(src, dst) refreshes a read-only dst (a diagonal); None: the above


def _cstrides(shape):
    st, s = [], 1
    for n in reversed(shape):
        st.append(s)
        s *= n
    return tuple(reversed(st))


def strides(h):
    """NumPy's strides (in elements) of handle h over its root storage: the
    storage a chain of linked reshapes started from."""
    bax, step, bshape = h.view_axes
    link = _source.get(h.base)
    bs = link.strides if link is not None else _cstrides(bshape)
    return tuple(s * bs[b] if b >= 0 else 0 for b, s in zip(bax, step))


def memory(h):
    """(root key, byte offset, byte strides) of handle h's elements in its
    root storage (the storage a chain of linked reshapes and complex parts
    started from): where NumPy would have them, for overlap questions."""
    bax, step, bshape = h.view_axes
    org, isz = h.view_origin, _np.dtype(h.dtype).itemsize
    link = _source.get(h.base)
    if link is None or link.src is None:
        root, off, bst = h.base, 0, [s * isz for s in _cstrides(bshape)]
    else:  # element 0 of the linked storage is the source's first element (or its part)
        root, off, _ = memory(link.src)
        risz = _np.dtype(link.src.dtype).itemsize
        off += (isz if link.part == "imag" else 0) + link.origin * risz
        bst = [s * risz for s in link.strides]
    off += sum(i * s for i, s in zip(org, bst))
    return root, off, tuple(bst[b] * s if b >= 0 else 0 for b, s in zip(bax, step))


def nocopy_strides(shape, st, newshape):
    """The strides of shape `newshape` over the same elements, if NumPy's
    reshape of an array with `shape` and strides `st` is a view; else None
    (NumPy's _attempt_nocopy_reshape, for C order)."""
    if 0 in shape:
        return _cstrides(newshape)
    od = [n for n in shape if n != 1]
    os = [s for n, s in zip(shape, st) if n != 1]
    nd = len(newshape)
    ns = [0] * nd
    oi, oj, ni, nj = 0, 1, 0, 1
    while ni < nd and oi < len(od):
        np_, op = newshape[ni], od[oi]
        while np_ != op:
            if np_ < op:
                np_ *= newshape[nj]
                nj += 1
            else:
                op *= od[oj]
                oj += 1
        for k in range(oi, oj - 1):  # the old axes merged here must be contiguous
            if os[k] != od[k + 1] * os[k + 1]:
                return None
        ns[nj - 1] = os[oj - 1]
        for k in range(nj - 1, ni, -1):
            ns[k - 1] = ns[k] * newshape[k]
        ni, nj, oi, oj = nj, nj + 1, oj, oj + 1
    last = ns[ni - 1] if ni else 1
    for k in range(ni, nd):  # trailing axes of length 1
        ns[k] = last
    return tuple(ns)


def unit_axes_items(shape, newshape):
    """Index items turning shape into newshape when they differ only by axes
    of length 1 (a true view), else None."""
    items, i, j = [], 0, 0
    while i < len(shape) or j < len(newshape):
        if i < len(shape) and j < len(newshape) and shape[i] == newshape[j]:
            items.append(("s", None, None, None))
            i, j = i + 1, j + 1
        elif j < len(newshape) and newshape[j] == 1:
            items.append(("n",))
            j += 1
        elif i < len(shape) and shape[i] == 1:
            items.append(("i", 0))
            i += 1
        else:
            return None
    return items


def link(src, dst, st, part=None, origin=0, fwd=None):
    """Make dst (a fresh base handle holding src's elements in another shape,
    or the real or imaginary part of each) follow src and back; st: dst's
    strides over the root storage. With fwd, dst is read-only and follows
    src alone: fwd(src, dst) brings it up to date (a diagonal), and origin
    is its first element's offset from src's in the root storage."""
    for k in list(_links.get(src.base, ())):  # earlier results from the same source
        if _dead(k.dst):
            _unlink_dst(k)
    _prune()
    k = _Link(src, dst, st, part, origin, fwd)
    _links.setdefault(k.skey, []).append(k)
    _source[k.dkey] = k
    linked.add(k.skey)
    linked.add(k.dkey)


def _off_source(k):
    """k no longer among its source's links."""
    lst = _links.get(k.skey)
    if lst is not None:
        lst.remove(k)
        if not lst:
            del _links[k.skey]
            if k.skey not in _source:
                linked.discard(k.skey)


def _unlink_dst(k):
    _source.pop(k.dkey, None)
    if k.src is not None:
        _off_source(k)
    if k.dkey not in _links:
        linked.discard(k.dkey)


def _drop_src(k):
    """The source is gone: dst keeps its strides (for later reshapes) only."""
    _off_source(k)
    k.src = None


def _one_holder():
    """getrefcount of a handle inside _dead when one slot alone holds it."""
    class _Holder:
        __slots__ = ("h",)
    k = _Holder()
    k.h = object()
    return _count(k.h)


def _count(h):
    return _refcount(h)


def _dead(h):
    """h is held by the one slot that passed it here, and no view shares its storage."""
    return h.share_count == 1 and _refcount(h) <= _ONE


_ONE = _one_holder()


_pruned_at = [0]


def _prune():
    """Drop links whose result or source nobody holds any more (a dropped
    copy frees its memory)."""
    if len(_source) > 64 and len(_source) < 2 * _pruned_at[0]:
        return  # many live links: prune as often as they double
    for k in list(_source.values()):
        if _dead(k.dst):
            _unlink_dst(k)
        elif k.src is not None and _dead(k.src):
            _drop_src(k)
    _pruned_at[0] = len(_source)


def _forward(k):
    """src's values into dst (a raw evaluation: no write hooks)."""
    if k.fwd is not None:
        k.fwd(k.src, k.dst)
    elif k.part is None:
        k.src.copy_flat(k.dst)
    else:
        from ._engine import _part_into
        _part_into(k.dst, k.src, k.part)


def _backward(k):
    """dst's values into src: its elements, or the one part (the other kept)."""
    if k.fwd is not None:
        return  # (read-only: nothing written into it goes back)
    if k.part is None:
        k.dst.copy_flat(k.src)
    else:
        from ._engine import _part_back
        _part_back(k.src, k.dst, k.part)


def propagate(key, origin=None):
    """After a write into storage key: bring the storages linked to it up to
    date (not origin, where the write came from)."""
    from ._engine import _flush
    for k in list(_links.get(key, ())):
        if _dead(k.dst):
            _unlink_dst(k)
        elif k.dkey != origin:
            _flush(k.dkey)  # pending readers of the result keep its old values
            _forward(k)
            if k.dkey in linked:
                propagate(k.dkey, key)
    k = _source.get(key)
    if k is not None and k.src is not None and k.skey != origin:
        if _dead(k.src):
            _drop_src(k)
        else:
            _flush(k.skey)
            _backward(k)
            if k.skey in linked:
                propagate(k.skey, key)
    if key not in _links and key not in _source:
        linked.discard(key)


def _calibrate():
    """The reference count of self inside a method called on a temporary,
    if it differs from the count for a named object (else None): a
    reshape of a temporary needs no link."""
    class _Probe:
        def count(self):
            return _refcount(self)
    named = _Probe()
    a, b = named.count(), _Probe().count()
    return b if b < a else None


TEMP_SELF = _calibrate()


def is_temporary(self_count, h):
    """Whether the ndarray whose method counted self_count references to
    itself is a temporary nobody else can reach, holding handle h alone
    (h passed straight from its slot)."""
    return TEMP_SELF is not None and self_count <= TEMP_SELF and h.share_count == 1 and _refcount(h) <= _ONE




def contiguous(h):
    """NumPy's C-contiguity of handle h over its root storage (axes of
    length 1 aside): ravel gives a view only then."""
    st, expect = strides(h), 1
    for n, s in zip(reversed(h.shape), reversed(st)):
        if n == 1:
            continue
        if s != expect:
            return False
        expect *= n
    return True


def numpy_view(h, shape):
    """Whether NumPy's reshape of handle h to shape is a view (its strides
    rule), so that reshape(copy=False) and `a.shape = s` may go ahead."""
    return unit_axes_items(tuple(h.shape), shape) is not None or \
        nocopy_strides(tuple(h.shape), strides(h), shape) is not None


def reshape(h, shape, temporary):
    """Handle h's elements in another shape, with NumPy's view semantics: a
    view for axes of length 1 alone, a linked copy where NumPy's result is
    a view, a plain copy otherwise (or when h is a temporary); and whether
    NumPy's result is a view."""
    items = unit_axes_items(tuple(h.shape), shape)
    if items is not None:
        return h.index(items), True
    r = h.reshape(shape)
    st = nocopy_strides(tuple(h.shape), strides(h), shape)
    if st is not None and not temporary and 0 not in shape:
        link(h, r, st)
    return r, st is not None
