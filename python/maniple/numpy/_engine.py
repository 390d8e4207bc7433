"""The deferred-evaluation engine behind maniple.numpy's ndarray (the front
end, _ndarray): element-wise operations on arrays build expression trees
over concrete arrays, evaluated fused, in one pass, when a value is needed.
NumPy's eager semantics are kept by dependency tracking: before anything
writes into an array's storage, every pending expression that reads that
storage is evaluated first.

A pending array is an ndarray whose _expr is a tree of the node classes
below (_arr None until it is computed); the engine keeps its other slots
(_shape, _dtype, _bases, _n, _cell, _cost, _big) up to date.

Small arrays compute a costly value at its second consumer. Large ones
(GROUP_MIN elements) decide when evaluated: the pass also computes every
live pending array of the same shape that shares a value with it and that
no other such array reads (Fw, Fn, Ft of one flux), and stores a costly
value that a live array holds at its second pass (_note_inlined): a value
is computed at most twice, and no full-size temporary is written that
NumPy would not.
"""
import math
import operator
import os
import sys
import weakref

import numpy as _np

from maniple import _core

from . import _collect, _fpe, _views, _warn
from ._dtypes import CAN_CAST_SAME_KIND as _CAN_CAST_SAME_KIND, INT_RANGE as _INT_RANGE, INTEGER as _INTEGER
from ._dtypes import FLOATS as _FLOATS, KIND as _KIND, Unholdable, check_c_long as _check_c_long

MAX_NODES = 96  # past this an operand is materialised, bounding loops' trees
SHARE_COST = 2  # cost (below) from which a shared value is computed once
# elements from which values are shared at evaluation (MANIPLE_GROUP_MIN:
# tests set 1 to run every array through that path)
GROUP_MIN = int(os.environ.get("MANIPLE_GROUP_MIN", 1 << 15))
XMAX = 16  # values stored by one pass besides its result (the C side's limit)
# elements up to which an operation on whole concrete arrays of one shape
# (or one and a Python scalar) runs at once (MANIPLE_EAGER_MAX; 0: never):
# a pass over so few elements, which moves no message (the C library's
# direct path), costs less than the bookkeeping that would defer and fuse
# it. Views and broadcasts stay deferred (fused, their halos moved once),
# and so does everything on a device backend, where each pass is a launch.
_ON_HOST = os.environ.get("MANIPLE_BACKEND", "cpu") in ("", "cpu")
EAGER_MAX = int(os.environ.get("MANIPLE_EAGER_MAX", 4096 if _ON_HOST else 0))
# relative cost of an operation per element (others 1)
COST = {"true_divide": 4, "floor_divide": 4, "remainder": 4, "divmod": 4, "sqrt": 8, "cbrt": 8, "power": 8,
        "float_power": 8, "exp": 8, "exp2": 8, "expm1": 8, "log": 8, "log2": 8, "log10": 8, "log1p": 8,
        "sin": 8, "cos": 8, "tan": 8, "arcsin": 8, "arccos": 8, "arctan": 8, "arctan2": 8, "sinh": 8,
        "cosh": 8, "tanh": 8, "arcsinh": 8, "arccosh": 8, "arctanh": 8, "hypot": 8, "logaddexp": 8,
        "logaddexp2": 8}

ndarray = None  # the front end's class, bound by _ndarray (_bind): results are its instances
# the front end's module: passes over the data call maniple._core by the
# name it has there (_front._core), where tests put a stand-in that counts them
_front = None

_ref = weakref.ref
_fpe_var, _fpe_epoch, _fpe_current = _fpe._var, _fpe._epoch, _fpe.current
_tuple = tuple.__new__
_item = operator.itemgetter


def _bind(cls):
    global ndarray, _front
    ndarray, _front = cls, sys.modules[cls.__module__]


# ---- expression nodes ----
# Tuples whose first item names the kind, as the C side (_core.eval_tree,
# evaluate, reduce, result_info) reads them. In a tree the operands are
# nodes; in a compiled program (_compile) they are indices of earlier
# program entries.
class Node(tuple):
    __slots__ = ()
    operands = ()  # the nodes (or indices) this node reads


class Input(Node):
    """("in", array): a concrete maniple._core.Array."""
    __slots__ = ()
    array = property(_item(1))

    def __new__(cls, array):
        return _tuple(cls, ("in", array))


class Scalar(Node):
    """("sc", value): a Python scalar (weak, NEP 50) or (value, dtype)."""
    __slots__ = ()
    value = property(_item(1))

    def __new__(cls, value):
        return _tuple(cls, ("sc", value))


class Placeholder(Node):
    """("ph", dtype, shape): an operand known by its type only (result_info)."""
    __slots__ = ()

    def __new__(cls, dtype, shape):
        return _tuple(cls, ("ph", dtype, shape))


class Unary(Node):
    """("un", op, x)"""
    __slots__ = ()
    op, x = property(_item(1)), property(_item(2))
    operands = property(_item(slice(2, None)))

    def __new__(cls, op, x):
        return _tuple(cls, ("un", op, x))


class Binary(Node):
    """("bin", op, x, y)"""
    __slots__ = ()
    op, x, y = property(_item(1)), property(_item(2)), property(_item(3))
    operands = property(_item(slice(2, None)))

    def __new__(cls, op, x, y):
        return _tuple(cls, ("bin", op, x, y))


class Ternary(Node):
    """("ter", op, x, y, z)"""
    __slots__ = ()
    op, x, y, z = property(_item(1)), property(_item(2)), property(_item(3)), property(_item(4))
    operands = property(_item(slice(2, None)))

    def __new__(cls, op, x, y, z):
        return _tuple(cls, ("ter", op, x, y, z))


class Cast(Node):
    """("cast", x, dtype)"""
    __slots__ = ()
    x, dtype = property(_item(1)), property(_item(2))
    operands = property(lambda self: (self[1],))

    def __new__(cls, x, dtype):
        return _tuple(cls, ("cast", x, dtype))


def _set_node(cell, node):
    cell[1] = node


class Cell(list):
    """["ref", node, weak reference to the pending array]: a pending array's
    expression as its consumers see it; once computed, node is an Input of
    the values for every consumer. (A list: the C side reads node at [1].
    Made as Cell(("ref", node, owner)): list's own constructor is the
    fast one.)"""
    __slots__ = ("__weakref__",)
    node = property(_item(1), _set_node)
    owner = property(_item(2))


# ---- dependency tracking ----
# storage key -> [weak references to pending ndarrays whose expression
# reads it] (an expression nobody holds any more needs no evaluation)
_readers = {}
# storage key -> [weak references to cells whose node became an Input of
# it when their array was computed]: their consumers were registered under
# the storage the expression read, not this one (_resolve, _flush)
_resolved = {}
_linked = _views.linked  # storage keys whose writes propagate (reshape views)
_collecting = _collect._state


def _register(arr):
    r = _ref(arr)
    for key in arr._bases:
        lst = _readers.get(key)
        if lst is None:
            if len(_readers) > 4096:  # drop storage nobody pending reads any more
                for k in [k for k, v in _readers.items() if not any(x() is not None for x in v)]:
                    del _readers[k]
            _readers[key] = [r]
        else:
            lst.append(r)
            if len(lst) % 256 == 0:  # a loop that never writes: prune the dead
                lst[:] = [x for x in lst if x() is not None]


def _resolve(cell, arr):
    """Cell's array is computed: its consumers read arr from now on."""
    cell.node = Input(arr)
    key = arr.base
    lst = _resolved.get(key)
    if lst is None:
        if len(_resolved) > 4096:  # drop storage no cell reads any more
            for k in [k for k, v in _resolved.items() if not any(c() is not None for c in v)]:
                del _resolved[k]
        _resolved[key] = [_ref(cell)]
    else:
        lst.append(_ref(cell))
        if len(lst) % 256 == 0:
            lst[:] = [c for c in lst if c() is not None]


def _keep_resolved(key, refs):
    """Cells reading storage key, about to be written, that a consumer
    still holds read a copy of the old values (this rank's alone: no
    message, unchecked); a cell only its own array holds is left as it is
    (nobody reads it)."""
    snap, memo = [], {}
    for r in refs:
        c = r()
        if c is None or type(c.node) is not Input or c.node.array.base != key:
            continue
        o = c.owner()
        own = 1 if o is not None and o._cell is c else 0
        if sys.getrefcount(c) > 2 + own:  # (c here and getrefcount's argument)
            _rebased(c, key, memo, snap)
        del c, o


def _flush(key, keep=None):
    """Before a write into storage key: every pending expression reading it
    (but keep) is evaluated, or with more than one rank reads a copy of the
    old values instead (_keep_old); consumers of computed values stored
    there read a copy (_keep_resolved)."""
    refs = _resolved.pop(key, None)
    if refs:
        _keep_resolved(key, refs)
    pending = _readers.pop(key, None)
    if not pending:
        return
    live = []
    for r in pending:
        a = r()
        if a is not None and a is not keep and a._expr is not None:
            live.append(a)
    if live and _many_ranks():
        _keep_old(key, live)
    else:
        for a in live:
            if a._expr is not None:  # (an evaluation may store others)
                _evaluate(a)
    if keep is not None and keep._expr is not None:
        _readers[key] = [_ref(keep)]


def _many_ranks():
    if not _MANY:
        _MANY.append((_core.size() > 1, _core.backend() != "cpu"))
    return _MANY[0][0]


def _rebased(n, key, memo, snap):
    """Node n reading storage key's copy snap[0] (made at the first read
    found) instead; cells change in place, for every consumer, and a
    subtree that does not read key stays the same object (the programs
    built from it stay the same on every rank, whether or not that rank
    rewrote it)."""
    k = id(n)
    hit = memo.get(k)
    if hit is not None:
        return hit[1]
    t = type(n)
    if t is Cell:
        memo[k] = (n, n)
        node = n.node
        new = _rebased(node, key, memo, snap)
        if new is not node:
            n.node = new
        return n
    r = n
    if t is Input:
        x = n.array
        if x.base == key:
            hx = memo.get(id(x))
            if hx is None:
                if not snap:
                    snap.append(x.snapshot())
                hx = memo[id(x)] = (x, x.rebase(snap[0]))
            r = Input(hx[1])
    elif t is Unary or t is Binary or t is Ternary or t is Cast:
        ops = n.operands
        new = [_rebased(c, key, memo, snap) for c in ops]
        if any(a is not b for a, b in zip(new, ops)):
            if t is Unary:
                r = Unary(n.op, new[0])
            elif t is Binary:
                r = Binary(n.op, new[0], new[1])
            elif t is Ternary:
                r = Ternary(n.op, new[0], new[1], new[2])
            else:
                r = Cast(new[0], n.dtype)
    memo[k] = (n, r)
    return r


def _keep_old(key, live):
    """Pending arrays live that read storage key, about to be written, read
    a copy of its old values from now on. Which arrays are alive differs
    between ranks (one that only a reference cycle holds dies at each
    rank's own garbage collection), so evaluating them here could send
    messages on some ranks alone. The copy is this rank's alone (no
    message, outside MANIPLE_CHECKS) and is laid out as the original, so a
    reader evaluated later moves the messages it would have moved reading
    the original (plans depend on layouts, not on storage), on every rank
    alike, whether or not that rank made the copy."""
    snap = []
    memo = {}  # id of a node or array -> (it, its replacement): the same sharing as before
    for a in live:
        if a._expr is None:
            continue
        a._expr = _rebased(a._expr, key, memo, snap)
        if a._cell is not None:
            _rebased(a._cell, key, memo, snap)
    if snap:
        new = snap[0].base
        for a in live:
            if key in a._bases:
                a._bases = tuple(b for b in a._bases if b != key) + (new,)


def _wrote(key):
    """After a write into storage key: reshapes linked to it follow (_views);
    the collector's schedule with more than one rank ticks (_collect)."""
    if _collecting["ours"]:
        _collect.tick(bool(_linked))
    if key in _linked:
        _views.propagate(key)


# ---- walks over a tree ----
def _compile(expr):
    """Expression tree -> _core program (list of nodes referring back)."""
    prog = []
    _walk(expr, prog, {})
    return prog


def _walk(n, prog, memo):
    """Append n's nodes not yet in prog (memo: identity -> index); n's index."""
    if type(n) is Cell:
        n = n.node
    kind = type(n)
    k = id(n.array) if kind is Input else id(n)
    if k in memo:
        return memo[k]
    if kind is Input or kind is Scalar:
        prog.append(n)
    elif kind is Unary:
        prog.append(Unary(n.op, _walk(n.x, prog, memo)))
    elif kind is Binary:
        a, b = _walk(n.x, prog, memo), _walk(n.y, prog, memo)
        prog.append(Binary(n.op, a, b))
    elif kind is Ternary:
        a, b, c = _walk(n.x, prog, memo), _walk(n.y, prog, memo), _walk(n.z, prog, memo)
        prog.append(Ternary(n.op, a, b, c))
    else:
        prog.append(Cast(_walk(n.x, prog, memo), n.dtype))
    memo[k] = len(prog) - 1
    return memo[k]


def _bases(expr, out=None):
    """The storage keys expr reads."""
    out = set() if out is None else out
    if type(expr) is Cell:
        expr = expr.node
    if type(expr) is Input:
        out.add(expr.array.base)
    for c in expr.operands:
        _bases(c, out)
    return out


def _count(expr, seen=None):
    """expr's distinct nodes."""
    seen = set() if seen is None else seen
    if type(expr) is Cell:
        expr = expr.node
    if id(expr) in seen:
        return 0
    seen.add(id(expr))
    return 1 + sum(_count(c, seen) for c in expr.operands)


def _has_cells(expr):
    """Whether expr reads another pending array's value (a cell) directly."""
    if type(expr) is Cell:
        expr = expr.node
    for x in expr.operands:
        if type(x) is Cell:
            return True
    return False


def _cells_in(expr, acc):
    """Add the pending cells reachable from expr to acc (id -> cell)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        if type(n) is Cell:
            if id(n) in acc or type(n.node) is Input:
                continue
            acc[id(n)] = n
            n = n.node
        stack.extend(n.operands)


# ---- evaluation ----
def _evaluate(a):
    """Compute pending array a: its values become a._arr (its passes
    report under the errstate settings where it was recorded)."""
    old = _fpe.use(a._fe)
    try:
        if a._big and _has_cells(a._expr):
            if _eval_shared(a._expr, a._shape, a, _core.empty(a._shape, a._dtype)) is not _NOTHING:
                return
        a._arr = _front._core.eval_tree(a._expr, a._shape, a._dtype)
    finally:
        _fpe.use(old)
    a._expr, a._bases = None, ()
    if a._cell is not None:  # consumers now read the values
        _resolve(a._cell, a._arr)


def _node_of(a):
    """ndarray a as an expression node (concrete arrays are leaves)."""
    fe = _fpe_epoch[1] if _fpe_var.get() is _fpe_epoch[0] else _fpe_current()  # (the pass's settings)
    if a._expr is not None:
        if a._n > MAX_NODES or a._fe is not fe:  # (recorded under other errstate settings: its own pass)
            _evaluate(a)
        else:
            return _share(a)
    return Input(a._arr)


def _share(x):
    """x's cell for a consumer that inlines pending x. A second consumer of
    a costly small value computes it now, so that no consumer recomputes
    it (large ones: _eval_shared)."""
    c = x._cell
    if c is None:
        c = x._cell = Cell(("ref", x._expr, _ref(x)))
    elif x._cost >= SHARE_COST and x._expr is not None and not x._big:
        _evaluate(x)
    return c


_recent = []  # weak references to large pending arrays: the candidates to share a pass
# id -> weak reference of the cells an earlier pass computed without
# storing them (_eval_shared): a value live arrays hold is stored at its
# second pass, not its first
_inlined = {}
_NOTHING = object()
# a reduction on more ranks whose operands are laid out apart (on the
# CPU): its pass can store nothing (see _eval_shared). From SPLIT_COST (see
# COST) its value is computed into an array first, in an evaluation's pass
# that stores the values that share it (swe's fluxes beside their wave
# speeds), and then reduced (_functions._reduce)
_APART = object()
SPLIT_COST = 32
_MANY = []  # [more than one rank], once known


def _full_read(expr, shape):
    """An array expr reads whole (of its shape), or None."""
    stack = [expr]
    while stack:
        n = stack.pop()
        if type(n) is Cell:
            n = n.node
        if type(n) is Input:
            if tuple(n.array.shape) == shape:
                return n.array
            continue
        stack.extend(n.operands)
    return None


def _aligned_reads(expr, ref, seen):
    """Whether every array expr reads is laid out as ref (the same map of
    the same layout: read where it is computed, with no message). seen:
    ids of the cells and arrays already found so, to which expr's are
    added (ref None: all of them, none checked)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        if type(n) is Cell:
            if id(n) in seen:
                continue
            seen.add(id(n))
            n = n.node
        if type(n) is Input:
            a = n.array
            if id(a) not in seen:
                if ref is not None and not _core.aligned(a, ref):
                    return False
                seen.add(id(a))
            continue
        stack.extend(n.operands)
    return True


def _eval_shared(expr, shape, me=None, out=None, reduce=None):
    """Evaluate expr (a large pending value) into out, or reduce it with
    op reduce (the scalar is returned), storing in the same pass the live
    pending arrays of its shape that share values with it and the costly
    values live arrays hold (see GROUP_MIN). me: the array being
    materialised, out its fresh array. _NOTHING: nothing to share, nothing
    done.

    Which values are stored depends on which arrays are alive, and an
    array that only a reference cycle holds dies at each rank's own
    garbage collection: the ranks may choose different extra outputs.
    With more than one rank the extras must change no message: every rank
    runs the same program for the root, its nodes first (the same
    operands in the same order, so the same plans), an extra reads only
    what the root reads or arrays laid out as the result (_many_ok), and
    pending values that read a stored one keep reading its expression, as
    on a rank that did not store it. MANIPLE_CHECKS compares the root
    alone."""
    if not _MANY:
        _MANY.append((_core.size() > 1, _core.backend() != "cpu"))
    many, device = _MANY[0]
    ref = out
    if many and reduce is not None:  # the anchor is an operand: all laid out as one read whole
        ref = _full_read(expr, shape)
        if ref is None or not _aligned_reads(expr, ref, set()):
            return _NOTHING if device else _APART  # (a device's pass could store none of its siblings)
    cells = {}
    _cells_in(expr, cells)
    own, self_ = None, me  # the value's own cell and array (never a store of its own pass)
    if type(expr) is Cell:
        own = expr
        cells.pop(id(expr), None)
        if self_ is None:
            self_ = expr.owner()
    elif me is not None:
        own = me._cell
    if not cells:
        return _NOTHING
    anc_ok = me is not None  # a fresh result: an array computed from it may share the pass
    fe = _fpe._active[0]  # the pass reports under the root's errstate mode: stores of that mode only
    stores, live, inner = [], [], {}
    for r in _recent:  # siblings: live, pending, same shape, sharing a value
        y = r()
        if y is None or y._expr is None:
            continue
        live.append(r)
        if y is self_ or y._shape != shape or len(stores) >= XMAX or y._fe is not fe or \
                (y._cell is not None and id(y._cell) in cells):
            continue
        yc = {}
        _cells_in(y._expr, yc)
        if own is not None and id(own) in yc and not anc_ok:
            continue
        if any(k in cells for k in yc):
            stores.append(y)
            inner.update(yc)
    _recent[:] = live
    # a sibling another one reads is stored at its second pass (_note_inlined)
    stores = [y for y in stores if y._cell is None or id(y._cell) not in inner or _seen(y._cell)]
    if not many:  # (with more ranks a sibling may be alive here alone: its values are not followed)
        for y in stores:
            _cells_in(y._expr, cells)
    if own is not None:
        cells.pop(id(own), None)
    held, sid = [], {id(y) for y in stores}
    # with more ranks, the root's first XMAX cells whatever their owners'
    # state: a cut that an array alive on some ranks alone cannot move
    cand = list(cells.values())[:XMAX] if many else cells.values()
    for c in cand:  # values a live array holds, computed by an earlier pass too: computed once more, here
        o = c.owner()
        if o is None or o is self_ or o._cell is not c or o._expr is None or o._shape != shape or \
                o._cost < SHARE_COST or id(o) in sid or o._fe is not fe or not _seen(c):
            continue
        held.append(o)
    if many:
        stores = (held + stores)[:XMAX]
    else:
        if len(held) + len(stores) > XMAX:
            held.sort(key=lambda o: -o._cost)
        stores = (stores + held)[:XMAX]
    arrs = [None] * len(stores)
    if many and stores:  # one array shows the stores' layout (all of one shape): the others once kept
        arrs[0] = _core.empty(stores[0]._shape, stores[0]._dtype, True)
        keep = _many_ok(expr, stores, arrs[0], ref, reduce is not None, device)
        stores = [y for y, k in zip(stores, keep) if k]
        arrs = [x for x, k in zip(arrs, keep) if k]
    # this rank's choice: unchecked
    arrs = [x if x is not None else _core.empty(y._shape, y._dtype, True) for y, x in zip(stores, arrs)]
    _note_inlined(cells, stores)
    if not stores and not many:  # (with more ranks the root's program all the same, whatever is stored)
        return _NOTHING
    prog, memo = [], {}
    top = _walk(expr, prog, memo)  # first: the root's operands in their own order, whatever is stored
    idx = [_walk(y._cell if y._cell is not None else y._expr, prog, memo) for y in stores]
    extras = list(zip(idx, arrs))
    if reduce is not None:
        result = _front._core.reduce(prog, reduce, extras, top)
    else:
        _front._core.evaluate(prog, out, extras, top)
        result = None
    for y, a in zip(stores, arrs):
        y._arr, y._expr, y._bases = a, None, ()
        if y._cell is not None and not many:  # (with more ranks its readers keep their program: see above)
            _resolve(y._cell, a)
    if me is not None:
        me._arr, me._expr, me._bases = out, None, ()
        if me._cell is not None:
            _resolve(me._cell, out)
    return result


def _seen(c):
    r = _inlined.get(id(c))
    return r is not None and r() is c


def _note_inlined(cells, stores):
    """Record the cells this pass computes without storing. A value that
    live arrays hold is stored at its second pass: storing it at its first
    writes a full array that, as with a function's temporaries, nobody may
    read again (swe's fluxes: 13 of a pass's 16 stores), while a loop that
    reads it again computes it at most twice."""
    if len(_inlined) > 4096:
        for k in [k for k, r in _inlined.items() if r() is None]:
            del _inlined[k]
    done = {id(y._cell) for y in stores if y._cell is not None}
    for k, c in cells.items():
        if k not in done:
            _inlined[k] = _ref(c)


def _many_ok(expr, stores, fresh, ref, reducing, device):
    """Which stores may share a pass on more than one rank, where the ranks
    may choose different ones: those that add no message. An extra output
    written in the pass (on the CPU, laid out as the anchor ref) may read
    what the root reads (a reduction's root reads only arrays laid out as
    ref) and arrays laid out as ref; one evaluated apart (a device's
    kernels, or an output laid out otherwise) only arrays laid out as its
    own output (fresh)."""
    in_pass = not device and _core.aligned(fresh, ref)
    roots = set()
    if in_pass and not reducing:
        _aligned_reads(expr, None, roots)
    lay = ref if in_pass else fresh
    return [_aligned_reads(y._cell if y._cell is not None else y._expr, lay, set(roots)) for y in stores]


# ---- operands ----
_PYSCALAR = (bool, int, float, complex)


_STYPE = {}  # dtype name -> NumPy scalar type


def _scalar(v, dtype):
    """A NumPy scalar of dtype, as NumPy returns from reductions and indexing."""
    t = _STYPE.get(dtype)
    if t is None:
        t = _STYPE[dtype] = _np.dtype(dtype).type
    return t(v)


def _pyscalar(v):
    """Python scalars stay weak (NEP 50); NumPy scalars keep their dtype."""
    if isinstance(v, _np.generic):
        dt = str(v.dtype)
        if dt not in _KIND:
            raise Unholdable(v.dtype)
        return (v.item(), dt)
    if isinstance(v, (bool, int, float, complex)):
        return v
    raise TypeError(f"unsupported scalar type {type(v).__name__}")


def _operand(x):
    """An expression node for x: ndarray, Python/NumPy scalar, or array-like."""
    if isinstance(x, ndarray):
        return _node_of(x)
    if isinstance(x, (bool, int, float, complex, _np.generic)):
        return Scalar(_pyscalar(x))
    from . import _creation
    return _node_of(_creation.asarray(x))


def _prep(x, subs=None):
    """x as an operand: arrays and scalars as they are, an instance of a
    subclass of ndarray as maniple's ndarray over its storage (noted in
    subs, for the result's type), anything else through asarray."""
    if isinstance(x, ndarray) and type(x) is not ndarray and subs is not None:
        subs.append(x)
        from ._ndarray import _base_view
        return _base_view(x)
    if isinstance(x, (ndarray, bool, int, float, _np.generic)):
        return x
    if _numpy_subclass(x):
        raise Unholdable(x.dtype)  # a NumPy subclass (masked array, matrix): NumPy computes, with its rules
    if subs is not None and not isinstance(x, _np.ndarray) and hasattr(type(x), "__array_ufunc__"):
        raise _Override(x)  # (caught in _make: the object computes the operation)
    from . import _creation
    return _creation.asarray(x)


class _Override(Exception):
    """An operand that overrides ufuncs (NEP 13: __array_ufunc__)."""

    def __init__(self, obj):
        super().__init__()
        self.obj = obj


def _override(obj, uf, method, *args):
    """uf's method over args computed by obj's __array_ufunc__ (NEP 13);
    NumPy's TypeError when it declines."""
    r = type(obj).__array_ufunc__(obj, uf, method, *args)
    if r is NotImplemented:
        raise TypeError(f"operand type(s) all returned NotImplemented from __array_ufunc__(<ufunc "
                        f"'{uf.__name__}'>, '{method}', ...): '{type(obj).__name__}'")
    return r


def _overridden(name, obj, xs):
    """name over xs computed by obj's __array_ufunc__ with maniple's ufunc,
    as NumPy's ufuncs defer to it; NotImplemented where obj opts out
    (__array_ufunc__ = None: its reflected operator runs)."""
    from ._functions import UFUNCS
    if type(obj).__array_ufunc__ is None or name not in UFUNCS:
        return NotImplemented
    return _override(obj, UFUNCS[name], "__call__", *xs)


# ---- result types ----
_INFO = {}  # (node class, op, operand types) -> (dtype, shape) of the result


def _info(node, name, xs):
    """The result's dtype and shape by the C library's rules, asked once per
    combination of operand dtypes and shapes (Python scalars by type)."""
    key = [node, name]
    for x in xs:
        t = type(x)
        if t is ndarray:
            key.append(x._dtype)
            key.append(x._shape)
        elif t is int:  # NumPy checks weak ints against the array's range
            key.append((int, -2147483648 <= x < 2147483648))
        elif t is float or t is bool or t is complex:
            key.append(t)
        else:
            key.append(str(x.dtype))
    key = tuple(key)
    r = _INFO.get(key)
    if r is None:
        prog = [Placeholder(x._dtype, x._shape) if type(x) is ndarray else Scalar(_pyscalar(x)) for x in xs]
        prog.append(node(name, *range(len(xs))))
        try:
            dtype, shape = _core.result_info(prog)
        except TypeError:
            _numpy_type_error(name, xs)
            raise
        r = (dtype, tuple(shape))
        if len(_INFO) > 65536:
            _INFO.clear()
        _INFO[key] = r
    return r


def _numpy_type_error(name, xs):
    """NumPy's own TypeError (type and text) for operands NumPy refuses too
    (boolean subtract, bitwise ops on floats, ...): NumPy is asked with
    one-element stand-ins of the same dtypes (Python scalars as they are)."""
    f = getattr(_np, name, None)
    if not isinstance(f, _np.ufunc):
        return
    args = [_np.zeros(1, x._dtype) if type(x) is ndarray else x for x in xs]
    try:
        with _np.errstate(all="ignore"):
            f(*args)
    except TypeError as e:
        raise e.with_traceback(None) from None


_COMPARISONS = ("less", "less_equal", "greater", "greater_equal", "equal", "not_equal")


# per dtype, the Python ints a weak scalar beside it takes without asking
# NumPy (_big_int): the dtype's range within int32's
_I32 = (-2147483648, 2147483647)
_WEAK_OK = {t: (max(r[0], _I32[0]), min(r[1], _I32[1])) for t, r in _INT_RANGE.items()}
for _t in ("bool",) + _FLOATS + ("complex64", "complex128"):
    _WEAK_OK[_t] = _I32


def _weak_out(v, other):
    """v (a Python int) beside other needs NumPy's NEP 50 handling."""
    lo, hi = _WEAK_OK[other._dtype] if type(other) is ndarray else _I32
    return not lo <= v <= hi


def _big_int(name, xs):
    """NumPy 2's handling of a Python int beyond int32 beside an array
    (NEP 50), found by asking NumPy with a one-element stand-in of the
    array's dtype: its OverflowError where it raises one ("Python integer
    ... out of bounds for int32"), the exact result of a comparison with an
    int beyond the array's integer range (every element on the same side),
    the int as a float where NumPy computes in float. None: carry on with
    xs (changed in place)."""
    k = 0 if type(xs[0]) is int else 1
    v, other = xs[k], xs[1 - k]
    f = getattr(_np, name, None)
    if type(other) is not ndarray or not isinstance(f, _np.ufunc) or f.nout != 1:
        return None
    args = [None, None]
    args[k], args[1 - k] = v, _np.zeros(1, other._dtype)
    with _np.errstate(all="ignore"):
        r = f(*args)  # NumPy's own error, if it has one
    od = other._dtype
    if od in _INTEGER and name in _COMPARISONS:
        info = _np.iinfo("int64" if od == "bool" else od)
        if not info.min <= v <= info.max:
            from ._creation import full
            c = full(other._shape, bool(r[0]), "bool")
            return c[()] if not other._shape else c
    if name == "ldexp" and k == 1:  # the exponent stays an integer
        xs[k] = _np.int64(v)
    elif r.dtype.kind == "f" and od not in _FLOATS:  # NumPy's float loop, as small as the array's holds
        xs[k] = r.dtype.type(v)  # (copysign(uint8, -1) is float16)
    elif r.dtype.kind == "f" or od in _FLOATS:  # NumPy takes the int as a float
        xs[k] = float(v)
    elif name in ("logical_and", "logical_or", "logical_xor"):
        xs[k] = True
    return None


# ---- deferred operations ----
def _make(node, name, *xs):
    """A deferred operation (node: Unary, Binary or Ternary): its expression
    node, dtype and shape, and the storage it reads (kept incrementally: no
    walk over the tree)."""
    if node is Binary and ((type(xs[0]) is int and _weak_out(xs[0], xs[1])) or
                           (type(xs[1]) is int and _weak_out(xs[1], xs[0]))):
        xs = list(xs)
        r = _big_int(name, xs)
        if r is not None:
            return r
    nodes, bases, n, cost, subs = [], set(), 1, COST.get(name, 1), []
    try:
        xs2 = [x if type(x) is ndarray or type(x) in _PYSCALAR else _prep(x, subs) for x in xs]
        dtype, shape = _info(node, name, xs2)
    except _Override as o:
        return _overridden(name, o.obj, xs)
    except Unholdable:  # an operand maniple cannot hold: NumPy computes, on every rank alike
        from . import _unholdable
        return _unholdable.ufunc(name, xs)
    xs = xs2
    for x in xs:
        if type(x) is ndarray:
            if x._expr is not None and x._n <= MAX_NODES:
                # a large value already shared counts once: its consumers
                # meet in one program (one node each after memoisation)
                b, xn, xc = x._bases, 1 if x._big and x._cell is not None else x._n, x._cost
                nodes.append(_share(x))
                if x._expr is not None:  # else computed just now: a leaf
                    bases.update(b)
                    n += xn
                    cost += xc
                    continue
                bases.add(x._arr.base)
                n += 1
                continue
            a = x._materialize()
            nodes.append(Input(a))
            bases.add(a.base)
        else:
            nodes.append(Scalar(_pyscalar(x)))
        n += 1
    if not subs:
        return _pending(node(name, *nodes), shape, dtype, bases, n, cost, name != "where")
    from ._ndarray import _finalized, _highest_priority
    best = _highest_priority(subs)  # NumPy's __array_wrap__
    # (made as that type: the engine keeps the pending array itself)
    r = _pending(node(name, *nodes), shape, dtype, bases, n, cost, name != "where", type(best))
    return _finalized(r, best) if isinstance(r, ndarray) else r


def _now(tree, info):
    """tree (one op over concrete operands) computed at once into a new
    concrete ndarray; info: the result's (dtype, shape, ...) from _BIN."""
    dtype, shape = info[0], info[1]
    if _fpe_var.get() is not _fpe_epoch[0]:
        _fpe_current()
    r = ndarray.__new__(ndarray)
    r._arr, r._expr, r._shape, r._dtype, r._bases, r._n, r._cell, r._cost, r._big = \
        _front._core.eval_tree(tree, shape, dtype), None, shape, dtype, (), 1, None, 1, False
    return r


def _bin_info(key, name, x, y, eager):
    """_BIN's entry for key: (dtype, shape, elements), the elements -1 where
    the result never runs at once (eager false, or a 0-d result: that one
    is a NumPy scalar, _pending)."""
    dtype, shape = _info(Binary, name, [x, y])
    info = _BIN[key] = (dtype, shape, math.prod(shape) if eager and shape else -1)
    return info


def _pending(expr, shape, dtype, bases, n, cost, scalar_0d=True, cls=None):
    """The new pending array of expr (its n nodes of total cost read the
    storage in bases), an instance of cls (None: ndarray); a 0-d result
    (scalar_0d) is computed to a NumPy scalar, as a ufunc's is in NumPy."""
    fe = _fpe_epoch[1] if _fpe_var.get() is _fpe_epoch[0] else _fpe_current()
    r = ndarray.__new__(cls or ndarray)
    r._arr, r._expr, r._shape, r._dtype, r._bases, r._n = None, expr, shape, dtype, tuple(bases), n
    r._cell, r._cost, r._fe = None, cost, fe
    if not shape and scalar_0d:
        r._big = False
        return _scalar(r._materialize().get(()), dtype)
    r._big = big = math.prod(shape) >= GROUP_MIN
    if "raise" in fe[0]:  # NumPy's error comes at its line: computed at once
        r._big = False
        _evaluate(r)
        return r
    if big:
        _recent.append(_ref(r))
    _register(r)
    return r


def _unary(name, x):
    return _make(Unary, name, x)


def _ternary(name, x, y, z):
    return _make(Ternary, name, x, y, z)


_BIN = {}  # (name, dtype, shape, dtype or scalar type, shape) -> (dtype, shape)


_FLIPPED = {"less": "greater", "less_equal": "greater_equal", "greater": "less", "greater_equal": "less_equal",
            "equal": "equal", "not_equal": "not_equal"}
_SIGNED = frozenset(("int8", "int16", "int32", "int64"))


def _signed_vs_u64(name, x, y):
    """A comparison of signed integers with uint64, exact as NumPy 2's
    (their common type, float64, would round values above 2**53), or None
    for any other operands."""
    if name not in _FLIPPED:
        return None
    dx = x._dtype if type(x) is ndarray else str(getattr(x, "dtype", ""))
    dy = y._dtype if type(y) is ndarray else str(getattr(y, "dtype", ""))
    if dx == "uint64" and dy in _SIGNED:
        x, y, name = y, x, _FLIPPED[name]
    elif not (dy == "uint64" and dx in _SIGNED):
        return None
    from ._creation import asarray
    x = asarray(x)
    neg = _binary("less", x, 0)
    same = _binary(name, x.astype("uint64"), y)  # where x >= 0, in uint64
    if name in ("less", "less_equal", "not_equal"):
        return _binary("logical_or", neg, same)
    return _binary("logical_and", _unary("logical_not", neg), same)


_F64 = _np.float64
_F64_SAME = frozenset(("float64", "complex128"))  # dtypes a float64 scalar promotes as a weak float does


def _numpy_subclass(v):
    return isinstance(v, _np.ndarray) and type(v) is not _np.ndarray and not isinstance(v, _np.memmap)


_NUMPY_OPERATOR = {"add": operator.add, "subtract": operator.sub, "multiply": operator.mul,
                   "true_divide": operator.truediv, "floor_divide": operator.floordiv, "remainder": operator.mod,
                   "power": operator.pow, "bitwise_and": operator.and_, "bitwise_or": operator.or_,
                   "bitwise_xor": operator.xor, "left_shift": operator.lshift, "right_shift": operator.rshift,
                   "less": operator.lt, "less_equal": operator.le, "greater": operator.gt,
                   "greater_equal": operator.ge, "equal": operator.eq, "not_equal": operator.ne}


def _numpy_operator(name, x, y, sub):
    """NumPy's operator between a maniple array and sub, a NumPy subclass
    (x or y), on the gathered array (with _unholdable's warning)."""
    from ._unholdable import _announce
    _announce(type(sub), f"the {name} operator", True)
    return _NUMPY_OPERATOR[name](x if x is sub else _np.asarray(x), y if y is sub else _np.asarray(y))


def _binary(name, x, y, op=False):
    """x (op) y, deferred: the common cases (arrays and Python floats and
    ints) without the general path's lists and loops. A maniple.sparse
    operand gets NotImplemented, so that its reflected operator runs. op:
    called by an operator, which a NumPy subclass operand (masked array,
    matrix) computes as NumPy's ndarray would let it (a matrix's * is a
    matrix product; a ufunc call multiplies elements)."""
    if type(x) is not ndarray:
        tx = type(x)
        if tx is _F64 and type(y) is ndarray and y._dtype in _F64_SAME:
            x, tx = float(x), float
        if getattr(tx, "_mn_sparse", False):
            return NotImplemented
        if type(y) is ndarray and y._expr is None and (tx is float or tx is int and not _weak_out(x, y)) \
                and not y._arr.is_view:
            key = (name, tx, None, y._dtype, y._shape)  # a scalar first (2.0 * a)
            info = _BIN.get(key) or _bin_info(key, name, x, y, True)
            if 0 <= info[2] <= EAGER_MAX:
                return _now(("bin", name, ("sc", x), ("in", y._arr)), info)
        if op and _numpy_subclass(x):
            return _numpy_operator(name, x, y, x)
        r = _signed_vs_u64(name, x, y)
        return _make(Binary, name, x, y) if r is None else r
    ty = type(y)
    if ty is _F64 and x._dtype in _F64_SAME:  # a float64 scalar acts as a Python float here
        y, ty = float(y), float
    if ty is ndarray:
        if name in _FLIPPED and (x._dtype == "uint64") != (y._dtype == "uint64"):
            r = _signed_vs_u64(name, x, y)
            if r is not None:
                return r
        key = (name, x._dtype, x._shape, y._dtype, y._shape)
    elif ty is float:
        key = (name, x._dtype, x._shape, float, None)
    elif ty is int and not _weak_out(y, x):
        key = (name, x._dtype, x._shape, int, None)
    elif getattr(ty, "_mn_sparse", False):
        return NotImplemented
    else:
        if op and _numpy_subclass(y):
            return _numpy_operator(name, x, y, y)
        r = _signed_vs_u64(name, x, y)
        return _make(Binary, name, x, y) if r is None else r
    info = _BIN.get(key)
    if info is None:  # at once only without a broadcast: one shape
        info = _bin_info(key, name, x, y, ty is not ndarray or x._shape == y._shape)
    if 0 <= info[2] <= EAGER_MAX and x._expr is None and not x._arr.is_view:  # small, whole, concrete: now
        if ty is ndarray:
            if y._expr is None and not y._arr.is_view:
                return _now(("bin", name, ("in", x._arr), ("in", y._arr)), info)
        else:
            return _now(("bin", name, ("in", x._arr), ("sc", y)), info)
    cost = COST.get(name, 1)
    if x._expr is not None and x._n <= MAX_NODES:
        b, xn, xc = x._bases, 1 if x._big and x._cell is not None else x._n, x._cost
        nx = _share(x)
        if x._expr is not None:
            bases, n = set(b), xn + 1
            cost += xc
        else:  # computed just now (shared): a leaf
            bases, n = {x._arr.base}, 2
    else:
        a = x._materialize()
        nx, bases, n = Input(a), {a.base}, 2
    if ty is ndarray:
        if y is x and type(nx) is Cell:  # x (op) x: one consumer
            ny = nx
        elif y._expr is not None and y._n <= MAX_NODES:
            b, yn, yc = y._bases, 1 if y._big and y._cell is not None else y._n, y._cost
            ny = _share(y)
            if y._expr is not None:
                bases.update(b)
                n += yn
                cost += yc
            else:
                bases.add(y._arr.base)
                n += 1
        else:
            b = y._materialize()
            ny = Input(b)
            bases.add(b.base)
            n += 1
    else:
        ny = Scalar(y)
        n += 1
    return _pending(Binary(name, nx, ny), info[1], info[0], bases, n, cost)


def _complex_warn(src, dst):
    """NumPy's ComplexWarning for a complex value cast to a real dtype
    (bool is a test of nonzero: no warning)."""
    if src in ("complex64", "complex128") and dst not in ("complex64", "complex128", "bool"):
        _warn.warn("Casting complex values to real discards the imaginary part", _np.exceptions.ComplexWarning)


def _cast(x, dtype):
    """x as dtype, deferred (astype)."""
    _complex_warn(x._dtype, dtype)
    expr = Cast(_node_of(x), dtype)
    r = ndarray.__new__(ndarray)
    # the cost of what it casts too, so that a costly value behind a cast is kept once computed
    r._arr, r._expr, r._shape, r._dtype, r._cell = None, expr, x._shape, dtype, None
    r._fe = _fpe_epoch[1] if _fpe_var.get() is _fpe_epoch[0] else _fpe_current()
    r._cost = 1 + (x._cost if x._expr is not None else 0)
    r._big = math.prod(r._shape) >= GROUP_MIN
    r._bases, r._n = tuple(_bases(expr)), _count(expr)
    if "raise" in r._fe[0]:  # at once, as in _pending
        r._big = False
        _evaluate(r)
        return r
    _register(r)
    return r


def _take_over(a, r):
    """Pending a becomes pending r (a op= b while nobody else holds a's
    value); a's earlier consumers keep the value before."""
    if r._expr is None:  # r computed at once (errstate 'raise'): its values
        a._arr, a._expr, a._bases, a._n, a._cost, a._cell = r._arr, None, (), 1, 1, None
        return
    a._expr, a._bases, a._n, a._cost, a._fe = r._expr, r._bases, r._n, r._cost, r._fe
    a._cell = None
    _register(a)


# ---- assignment ----


def _check_scalar_into(v, dtype):
    """NumPy's errors for a scalar that an integer (or real) array cannot
    hold."""
    if dtype not in ("complex64", "complex128", "bool"):
        if type(v) is complex:
            kind = "float" if dtype in _FLOATS else "int"
            what = "a real number" if kind == "float" else "a bytes-like object or a real number"
            raise TypeError(f"{kind}() argument must be a string, {what}, not 'complex'")
        if isinstance(v, _np.complexfloating):
            _complex_warn(str(v.dtype), dtype)
    r = _INT_RANGE.get(dtype)
    if r is None or isinstance(v, (bool, _np.bool_)):
        return
    if isinstance(v, (float, _np.floating)):
        if v != v:
            raise ValueError("cannot convert float NaN to integer")
        if v in (float("inf"), float("-inf")):
            raise OverflowError("cannot convert float infinity to integer")
    elif isinstance(v, int) and not r[0] <= v <= r[1]:
        _check_c_long(v, dtype)  # (NumPy's C long first)
        raise OverflowError(f"Python integer {v} out of bounds for {dtype}")


def _check_values_into(v, dtype):
    """_check_scalar_into for a value given as a Python scalar, or for
    each Python scalar of a (nested) list or tuple of them."""
    if isinstance(v, (bool, int, float, complex, _np.generic)):
        _check_scalar_into(v, dtype)
    elif isinstance(v, (list, tuple)):
        _check_scalars_into(v, dtype)


def _check_scalars_into(seq, dtype):
    """_check_scalar_into for each Python scalar of a (nested) list or
    tuple: a[:] = [1000, 1] into int8 raises, as NumPy's conversion does."""
    for v in seq:
        if isinstance(v, (list, tuple)):
            _check_scalars_into(v, dtype)
        elif isinstance(v, (bool, int, float, complex)):
            _check_scalar_into(v, dtype)


def _part_into(dst, src, part):
    """dst (a base handle) = the real or imaginary part of src's elements,
    evaluated with no write hooks (a linked part following its array)."""
    _front._core.evaluate(_compile(_operand(_unary(part, ndarray(src)))), dst)


def _part_back(src, dst, part):
    """src's real or imaginary part = dst's values, the other part kept,
    with no write hooks (an array following its linked part)."""
    s, d = ndarray(src), ndarray(dst)
    v = _binary("complex", d, _unary("imag", s)) if part == "real" else _binary("complex", _unary("real", s), d)
    _front._core.evaluate(_compile(_operand(v)), src)


def _assign(target, value, same_kind=False):
    """target[...] = value, fused: pending readers of target's storage are
    evaluated first, except value itself (whose evaluation reads the old
    values, as NumPy's right-hand side does)."""
    keep, vdt = (value, value._dtype) if isinstance(value, ndarray) else (None, None)
    if keep is None:
        _check_values_into(value, target.dtype)
    if vdt is not None:
        _complex_warn(vdt, target.dtype)
    if same_kind and vdt is not None and vdt not in _CAN_CAST_SAME_KIND[target.dtype]:
        raise TypeError(f"Cannot cast ufunc output from dtype('{vdt}') to dtype('{target.dtype}') "
                        "with casting rule 'same_kind'")
    # a pending value that reads target must keep its own values afterwards
    # (average stays what it was after center[:] = average): when it equals
    # what target will hold, it becomes a view of target, else it is
    # evaluated first
    reads = keep is not None and keep._expr is not None and target.base in keep._bases
    alias_ok = reads and keep._dtype == target.dtype and keep._shape == tuple(target.shape)
    if reads and not alias_ok:
        keep._materialize()
    try:
        node = _operand(value)
    except Unholdable:  # object, str, float128 values: cast by NumPy to target's dtype, as its assignment
        from ._root import everywhere
        node = _operand(_np.asarray(everywhere(value)).astype(target.dtype))
    _flush(target.base, keep if alias_ok else None)
    if not (type(value) is ndarray and value._big and value._expr is not None and _has_cells(node)
            and _eval_shared(node, value._shape, out=target) is not _NOTHING):
        _front._core.evaluate(_compile(node), target)
    if alias_ok:
        keep._expr, keep._bases, keep._n = Input(target), (target.base,), 1
        if keep._cell is not None:
            keep._cell.node = keep._expr
    _wrote(target.base)
