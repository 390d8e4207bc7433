"""Products: matmul/dot over the C distributed matrix product, and the
contractions built on it (tensordot, inner, einsum), plus outer, kron,
diagonal and trace."""
import builtins
import operator
import string

import numpy as _np

from maniple import _core

from . import _collect, _views, _warn
from ._creation import arange, asarray, empty
from ._dtypes import COMPLEX as _COMPLEX, sum_dtype as _sum_dtype
from ._functions import _axis, sum as _sum
from ._engine import Binary, _assign, _binary, _compile, _scalar
from ._ndarray import ndarray, _flat, _part_of, _view_of

_FLOATS = ("float64", "float32")


_RESULT = {}  # (dtype, dtype) -> NumPy's result dtype name


def _promote(a, b):
    key = (a._dtype, b._dtype)
    dt = _RESULT.get(key)
    if dt is None:
        dt = _RESULT[key] = str(_np.result_type(_np.dtype(a._dtype), _np.dtype(b._dtype)))
    return a.astype(dt, copy=False), b.astype(dt, copy=False), dt


def _with_out(r, out, name="matmul", exact=False, unsafe=False):
    if out is None:
        return r
    shape = r.shape if isinstance(r, ndarray) else ()
    rdt = r._dtype if isinstance(r, ndarray) else _np.asarray(r).dtype.name
    if not isinstance(out, ndarray):
        raise TypeError("out must be a maniple.numpy array")
    if tuple(out.shape) != tuple(shape):
        raise ValueError(f"output array has shape {out.shape}, the result has shape {shape}")
    if exact and out._dtype != rdt:  # numpy.dot takes only an out of the result's dtype
        raise ValueError(f"output array is not acceptable (must have the right datatype {rdt}, got "
                         f"{out._dtype})")
    if not unsafe and not _np.can_cast(rdt, out._dtype, "same_kind"):  # (int64 into uint8 too, as NumPy)
        from ._functions import _cast_error
        raise _cast_error(name, rdt, out._dtype)
    _assign(out._materialize(), r)
    return out


def _mm2(a, b, dt):
    """1-d/2-d operands through the C product."""
    if dt == "float16":  # NumPy sums half products in float, rounding the result once
        r = _mm2(a.astype("float32"), b.astype("float32"), "float32").astype("float16")
        r._materialize()  # callers take r._arr
        return r
    if dt in ("complex64", "complex128"):  # four real products, as matmul (the C product is real)
        f = "float32" if dt == "complex64" else "float64"
        ar, ai, br, bi = (_part_of(x, p).astype(f) for x in (a, b) for p in ("real", "imag"))
        r = _binary("complex", _mm2(ar, br, f) - _mm2(ai, bi, f), _mm2(ar, bi, f) + _mm2(ai, br, f)).astype(dt)
        r._materialize()
        return r
    shape = (a.shape[0],) * (a.ndim == 2) + (b.shape[-1],) * (b.ndim == 2)
    r = empty(shape, dt)
    _core.matmul(a._materialize(), b._materialize(), r._arr)
    return r


def matmul(a, b, out=None):
    r = _fast(a, b) if out is None else None
    if r is not None:
        return r
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        raise ValueError("matmul: Input operand 0 does not have enough dimensions (has 0, gufunc core with "
                         "signature (n?,k),(k,m?)->(n?,m?) requires 1)")
    if a.shape[-1] != b.shape[-2 if b.ndim > 1 else 0]:
        k2 = b.shape[-2 if b.ndim > 1 else 0]
        raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc signature "
                         f"(n?,k),(k,m?)->(n?,m?) (size {k2} is different from {a.shape[-1]})")
    a, b, dt = _promote(a, b)
    if dt == "float16":  # NumPy sums half products in float, rounding the result once
        return _with_out(matmul(a.astype("float32"), b.astype("float32")).astype("float16"), out)
    if a.ndim == 1 and b.ndim == 1 and dt != "bool":
        # a fused reduction: it runs where the vectors are (a device too)
        # and brings back the value alone
        return _with_out((a * b).sum(dtype=dt), out)
    if dt in ("complex64", "complex128"):  # four real products, as (ar + i ai)(br + i bi) expands
        ar, ai, br, bi = (_part_of(x, p) for x in (a, b) for p in ("real", "imag"))
        re = matmul(ar, br) - matmul(ai, bi)
        im = matmul(ar, bi) + matmul(ai, br)
        return _with_out(_binary("complex", re, im), out)
    if a.ndim <= 2 and b.ndim <= 2:
        r = _mm2(a, b, dt)
        return _with_out(r[()] if r.ndim == 0 else r, out)
    # stacks of matrices: one distributed product per broadcast batch index
    a2 = a if a.ndim > 1 else a[None, :]
    b2 = b if b.ndim > 1 else b[:, None]
    batch = _np.broadcast_shapes(a2.shape[:-2], b2.shape[:-2])
    shape = tuple(batch) + (a2.shape[-2], b2.shape[-1])
    r = empty(shape, dt)
    for idx in _np.ndindex(*batch):
        ia = tuple(i if s > 1 else 0 for i, s in zip(idx[len(idx) - (a2.ndim - 2):], a2.shape[:-2]))
        ib = tuple(i if s > 1 else 0 for i, s in zip(idx[len(idx) - (b2.ndim - 2):], b2.shape[:-2]))
        blk = r[idx] if idx else r
        _core.matmul(a2[ia]._materialize() if ia else a2._materialize(),
                     b2[ib]._materialize() if ib else b2._materialize(), blk._materialize())
    if a.ndim == 1:
        r = r[..., 0, :]
    if b.ndim == 1:
        r = r[..., 0]
    return _with_out(r, out)


def _dot_vectors(a, b):
    """a . b for two concrete 1-d arrays of one float dtype and length (the
    CG loop's dots): the product and its sum in one fused reduction, on any
    number of ranks, in one C call without the general path's checks or a
    program built in Python; NumPy's scalar."""
    return _scalar(_core.dot(a._arr, b._arr), a._dtype)


def _vectors(a, b):
    return (a._expr is None and b._expr is None and len(a._shape) == 1 and a._shape == b._shape and
            a._dtype == b._dtype and a._dtype in _FLOATS)


def _matrix_fast(a, b):
    """a @ b for two arrays of one float dtype, one of them 2-d and the
    other 1-d or 2-d, aligned (the dense loops' A.dot(p)): straight to the
    C product, without the general path's conversions and checks; None for
    any other operands."""
    sa, sb, dt = a._shape, b._shape, a._dtype
    if dt != b._dtype or dt not in _FLOATS or len(sa) + len(sb) not in (3, 4) or not sa or not sb \
            or len(sa) > 2 or len(sb) > 2 or sa[-1] != sb[-2 if len(sb) == 2 else 0]:
        return None
    r = ndarray(_core.create(sa[:-1] + sb[1:], dt))
    _core.matmul(a._materialize(), b._materialize(), r._arr)
    return r


def _fast(a, b):
    """a @ b without the general path where that is safe: two float vectors
    (the CG loop's dots) or a float matrix with a vector or matrix of its
    dtype (_matrix_fast); None for any other operands."""
    if type(a) is not ndarray or type(b) is not ndarray:
        return None
    return _dot_vectors(a, b) if _vectors(a, b) else _matrix_fast(a, b)


def dot(a, b, out=None):
    r = _fast(a, b) if out is None else None
    if r is not None:
        return r
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return _with_out(_scalar0(a * b) if out is None else a * b, out, "dot", True)
    if a.ndim <= 2 and b.ndim <= 2:
        if a.shape[-1] != b.shape[0]:
            raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) != "
                             f"{b.shape[0]} (dim 0)")
        r = matmul(a, b)
        return _with_out(r, out, "dot", True)
    if b.ndim == 1:
        r = tensordot(a, b, axes=([-1], [0]))
        return _with_out(r[()] if r.ndim == 0 else r, out, "dot", True)
    return _with_out(tensordot(a, b, axes=([-1], [-2])), out, "dot", True)


def vdot(a, b):
    a, b = asarray(a), asarray(b)
    if a.size != b.size:
        raise ValueError("cannot reshape array of size %d into shape (%d,)" % (b.size, a.size))
    return dot(_flat(_conj(a)), _flat(b))  # the first one conjugated


def inner(a, b):
    a, b = asarray(a), asarray(b)
    if a.ndim == 0 or b.ndim == 0:
        return _scalar0(a * b)
    if a.shape[-1] != b.shape[-1]:
        raise ValueError(f"shapes {a.shape} and {b.shape} not aligned: {a.shape[-1]} (dim {a.ndim - 1}) != "
                         f"{b.shape[-1]} (dim {b.ndim - 1})")
    r = tensordot(a, b, axes=([-1], [-1]))
    return r[()] if r.ndim == 0 else r


def outer(a, b, out=None):
    a, b = asarray(a), asarray(b)
    a = _flat(a)
    b = _flat(b)
    return _with_out((a[:, None] * b[None, :]).copy(), out, "multiply")


def tensordot(a, b, axes=2):
    from ._manipulation import transpose
    a, b = asarray(a), asarray(b)
    try:
        iter(axes)
    except Exception:  # a count (NumPy's ranges: a negative one sums over no axis)
        ax_a, ax_b = list(range(-axes, 0)), list(range(0, axes))
    else:
        ax_a, ax_b = axes
    try:
        na = len(ax_a)
        ax_a = list(ax_a)
    except TypeError:
        ax_a, na = [ax_a], 1
    try:
        nb = len(ax_b)
        ax_b = list(ax_b)
    except TypeError:
        ax_b, nb = [ax_b], 1
    if na != nb:
        raise ValueError("shape-mismatch for sum")
    for x in ax_a:
        a.shape[x]  # Python's errors for a bad axis, as NumPy's (it indexes the shape)
    for x in ax_b:
        b.shape[x]
    ax_a = [x % a.ndim for x in ax_a]
    ax_b = [x % b.ndim for x in ax_b]
    for x, y in zip(ax_a, ax_b):
        if a.shape[x] != b.shape[y]:
            raise ValueError("shape-mismatch for sum")
    free_a = [d for d in range(a.ndim) if d not in ax_a]
    free_b = [d for d in range(b.ndim) if d not in ax_b]
    M = int(_np.prod([a.shape[d] for d in free_a]))
    N = int(_np.prod([b.shape[d] for d in free_b]))
    K = int(_np.prod([a.shape[d] for d in ax_a]))
    at = transpose(a, free_a + ax_a) if free_a + ax_a != list(range(a.ndim)) else a
    bt = transpose(b, ax_b + free_b) if ax_b + free_b != list(range(b.ndim)) else b
    a2 = _flat2(at, M, K)
    b2 = _flat2(bt, K, N)
    a2, b2, dt = _promote(a2, b2)
    r = _mm2(a2, b2, dt)
    shape = tuple(a.shape[d] for d in free_a) + tuple(b.shape[d] for d in free_b)
    if shape == r.shape:
        return r
    return ndarray(r._arr.reshape(shape))  # 0-d stays an array, as NumPy's


def _flat2(x, m, n):
    """x as an (m, n) matrix (a copy when the shape changes, its rows split
    as x's where that keeps every element on its rank)."""
    if x.shape == (m, n):
        return x
    return ndarray(x._materialize().reshape_rows((m, n)))


def kron(a, b):
    a, b = asarray(a), asarray(b)
    nd = builtins.max(a.ndim, b.ndim)
    a = a[(None,) * (nd - a.ndim)] if a.ndim < nd else a
    b = b[(None,) * (nd - b.ndim)] if b.ndim < nd else b
    if nd == 0:
        return _scalar0(a * b)
    ka = tuple(x for d in range(nd) for x in (slice(None), None))
    kb = tuple(x for d in range(nd) for x in (None, slice(None)))
    prod = a[ka] * b[kb]
    shape = tuple(a.shape[d] * b.shape[d] for d in range(nd))
    p = prod._materialize()
    return ndarray(p.reshape(shape)) if prod.size else empty(shape, prod._dtype)


def diagonal(a, offset=0, axis1=0, axis2=1):
    from ._manipulation import moveaxis
    a = asarray(a)
    if a.ndim < 2:
        raise ValueError("diag requires an array of at least two dimensions")
    offset = operator.index(offset)
    x1, x2 = _axis(axis1, a.ndim, prefix="axis1"), _axis(axis2, a.ndim, prefix="axis2")
    if x1 == x2:
        raise ValueError("axis1 and axis2 cannot be the same")
    m = a if (x1, x2) == (a.ndim - 2, a.ndim - 1) else moveaxis(a, [x1, x2], [a.ndim - 2, a.ndim - 1])
    n1, n2 = m.shape[-2], m.shape[-1]
    k = offset
    length = builtins.max(0, builtins.min(n1 - builtins.max(-k, 0), n2 - builtins.max(k, 0)))
    r0, c0 = builtins.max(-k, 0), builtins.max(k, 0)
    if length == 0:
        r = empty(m.shape[:-2] + (0,), a._dtype)
    elif m.ndim == 2:  # each rank copies its own elements when it owns them (a matrix split by rows)
        # NumPy's diagonal is a read-only view: this copy is linked to the
        # matrix (_views) and follows its later writes
        _collect.before_reshape()  # links live and die alike on every rank
        r = empty((length,), a._dtype)
        src = m._materialize()
        _core.diagonal(src, k, r._arr)
        st = _views.strides(src)
        _views.link(src, r._arr, (st[0] + st[1],), origin=r0 * st[0] + c0 * st[1],
                    fwd=lambda s, d: _core.diagonal(s, k, d))
        r = _view_of(a, r._arr, linked=True)
    else:  # a copy: it does not follow later writes (docs/python.md)
        i = arange(length)
        r = m[..., i + r0, i + c0] if (r0 or c0) else m[..., i, i]
    r._ro = True
    return r


def trace(a, offset=0, axis1=0, axis2=1, dtype=None, out=None):
    if isinstance(offset, float):
        raise TypeError("integer argument expected, got float")
    if type(a) is ndarray and len(a._shape) == 2 and dtype is None and out is None and (axis1, axis2) == (0, 1):
        # one C call: the diagonal and its sum (a matrix's trace, the einsum 'ii->')
        return _scalar(_core.trace(a._materialize(), operator.index(offset)), _sum_dtype(a._dtype))
    d = diagonal(a, offset, axis1, axis2)
    r = _sum(d, axis=None if d.ndim == 1 else -1, dtype=dtype)  # (a matrix's: the whole-array sum, no axis walk)
    return _with_out(r, out, unsafe=True)  # numpy.trace casts into out as it must


def vecdot(x1, x2, /, *, axis=-1, out=None):
    """sum(conj(x1) * x2) along axis, as NumPy's (x1 conjugated)."""
    x1, x2 = _conj(asarray(x1)), asarray(x2)
    p = x1 * x2  # summed in its own dtype (a gufunc's loop: bool is any, int8 wraps)
    r = _sum(p, axis=operator.index(axis), dtype=p.dtype)  # one axis (NumPy's TypeError for a tuple)
    return _gufunc_out(r, out, "vecdot")


def _gufunc_out(r, out, name):
    """A gufunc's out=: the result stored there under 'same_kind'."""
    if out is None:
        return r
    from ._functions import _with_out
    return _with_out(r if isinstance(r, ndarray) else asarray(r), out, name)


def _conj(x):
    """x conjugated where complex (NumPy's vdot, vecdot and vecmat conjugate
    their first operand)."""
    return x.conj() if x._dtype in _COMPLEX else x


def matvec(x1, x2, /, *, out=None):
    x1, x2 = asarray(x1), asarray(x2)
    return _gufunc_out(matmul(x1, x2[..., None])[..., 0], out, "matvec")


def vecmat(x1, x2, /, *, out=None):
    """conj(x1) @ x2 for stacks of vectors and matrices, as NumPy's."""
    x1, x2 = _conj(asarray(x1)), asarray(x2)
    return _gufunc_out(matmul(x1[..., None, :], x2)[..., 0, :], out, "vecmat")


# ---- einsum ----
def _parse(subscripts, operands):
    s = subscripts.replace(" ", "")
    if "->" in s:
        ins, out = s.split("->")
        explicit = True
    else:
        ins, out, explicit = s, None, False
    terms = ins.split(",")
    if len(terms) != len(operands):
        raise ValueError("more operands provided to einstein sum function than specified in the subscripts "
                         "string" if len(operands) > len(terms) else
                         "fewer operands provided to einstein sum function than specified in the subscripts string")
    used = set(c for c in s if c.isalpha())
    free = [c for c in string.ascii_letters if c not in used]
    ell_n = 0
    for t, op in zip(terms, operands):
        if "..." in t:
            ell_n = builtins.max(ell_n, op.ndim - (len(t) - 3))
    ell = "".join(free[:ell_n])
    terms2 = []
    for t, op in zip(terms, operands):
        if "..." in t:
            k = op.ndim - (len(t) - 3)
            t = t.replace("...", ell[ell_n - k:] if k else "")
        if len(t) != op.ndim:
            raise ValueError(f"operand has more dimensions than subscripts given in einstein sum, but no '...' "
                             f"ellipsis provided to broadcast the extra dimensions." if op.ndim > len(t) else
                             f"einstein sum subscripts string contains too many subscripts for operand")
        terms2.append(t)
    if explicit:
        out = out.replace("...", ell)
        for c in out:
            if not any(c in t for t in terms2):
                raise ValueError(f"einstein sum subscripts string included output subscript '{c}' which never "
                                 "appeared in an input")
            if out.count(c) > 1:
                raise ValueError(f"einstein sum subscripts string includes output subscript '{c}' multiple times")
    else:
        counts = {}
        for t in terms2:
            for c in t:
                counts[c] = counts.get(c, 0) + 1
        out = ell + "".join(sorted(c for c, n in counts.items() if n == 1 and c not in ell))
    return terms2, out


_TRACE_AS_EINSUM = ("float32", "float64", "complex64", "complex128")


def _take_diagonals(op, t):
    """Repeated letters within one operand: keep their diagonal."""
    while len(set(t)) != len(t):
        for c in t:
            if t.count(c) > 1:
                i = t.index(c)
                j = t.index(c, i + 1)
                if op.shape[i] != op.shape[j]:
                    raise ValueError(f"dimensions in operand for collapsing index '{c}' don't match "
                                     f"({op.shape[i]} != {op.shape[j]})")
                op = diagonal(op, 0, i, j)
                t = t[:i] + t[i + 1:j] + t[j + 1:] + c
                break
    return op, t


def _sublist(sub):
    """One sublist of einsum's interleaved form as subscript letters (NumPy's
    0-25 'A'-'Z', 26-51 'a'-'z', so the implicit output orders them by
    number; Ellipsis '...')."""
    out = []
    for v in sub:
        if v is Ellipsis:
            out.append("...")
        elif isinstance(v, (int, _np.integer)) and not isinstance(v, (bool, _np.bool_)):
            if not 0 <= v < 52:
                raise ValueError("subscript is not within the valid range [0, 52)")
            out.append(chr(ord("A") + v) if v < 26 else chr(ord("a") + v - 26))
        else:
            raise TypeError("each subscript must be either an integer or an ellipsis")
    return "".join(out)


def _interleaved(args):
    """einsum(op0, sub0, op1, sub1, ..., [subout]) as (subscripts, operands)."""
    pairs = len(args) // 2
    ops = [args[2 * i] for i in range(pairs)]
    subs = [_sublist(args[2 * i + 1]) for i in range(pairs)]
    spec = ",".join(subs)
    if len(args) % 2:  # an output sublist
        spec += "->" + _sublist(args[-1])
    return spec, ops


def einsum(*operands, out=None, dtype=None, order="K", casting="safe", optimize=False):
    if (len(operands) == 2 and type(operands[1]) is ndarray and operands[0].__class__ is str and
            operands[0] in ("ii->", "ii") and out is None and dtype is None and order == "K" and casting == "safe" and
            optimize is False):
        x = operands[1]  # a float matrix's trace: one C call (einsum sums in the operand's dtype, as trace here)
        if len(x._shape) == 2 and x._shape[0] == x._shape[1] and x._dtype in _TRACE_AS_EINSUM:
            return _scalar(_core.trace(x._materialize(), 0), x._dtype)
    if not operands:
        raise ValueError("must specify the einstein sum subscripts string and at least one operand, or at least "
                         "one operand and its corresponding subscripts list")
    if casting not in ("no", "equiv", "safe", "same_kind", "unsafe"):
        raise ValueError(f"casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got {casting!r})")
    from ._creation import _order as _check_order
    _check_order(order, "CFAK")
    subscripts, operands = operands[0], operands[1:]
    if not isinstance(subscripts, str):
        subscripts, operands = _interleaved((subscripts,) + operands)
    ops = [asarray(o) for o in operands]
    terms, target = _parse(subscripts, ops)
    if dtype is not None:
        dt = _np.dtype(dtype)
        for i, o in enumerate(ops):  # NumPy's iterator refuses what casting does not allow
            if not _np.can_cast(o.dtype, dt, casting):
                raise TypeError(f"Iterator operand {i} dtype could not be cast from dtype('{o.dtype}') to "
                                f"dtype('{dt}') according to the rule '{casting}'")
        ops = [o.astype(dtype) for o in ops]
    pairs = [_take_diagonals(o, t) for o, t in zip(ops, terms)]
    sizes = {}
    for o, t in pairs:
        for c, n in zip(t, o.shape):
            if sizes.get(c, n) != n and n != 1 and sizes.get(c) != 1:
                raise ValueError(f"operands could not be broadcast together with remapped shapes (size {n} and "
                                 f"{sizes[c]} for index '{c}')")
            sizes[c] = builtins.max(sizes.get(c, n), n)
    if len(pairs) == 1 and not target:  # one operand summed whole ("ii->", "ij->"): the whole-array sum
        o = pairs[0][0]
        return _einsum_out(_scalar0(_esum(o, None if o.ndim else ())), out, casting, len(ops), optimize)
    # two operands, a plain contraction: tensordot, then the output order
    if len(pairs) == 2:
        (a, ta), (b, tb) = pairs
        common = [c for c in ta if c in tb]
        # (the same letters on both: a fused product and sum, "ij,ij->" or
        # "ij,ij->i", beats reshaping both for a product with nothing free)
        if set(ta) != set(tb) and not (set(ta) & set(tb) & set(target)) and builtins.all(sizes[c] == a.shape[ta.index(c)] ==
                                                                   b.shape[tb.index(c)] for c in common):
            summed_a = [c for c in ta if c not in target and c not in tb]
            summed_b = [c for c in tb if c not in target and c not in ta]
            if summed_a:
                a = _esum(a, tuple(ta.index(c) for c in summed_a))
                ta = "".join(c for c in ta if c not in summed_a)
            if summed_b:
                b = _esum(b, tuple(tb.index(c) for c in summed_b))
                tb = "".join(c for c in tb if c not in summed_b)
            r = tensordot(a, b, axes=([ta.index(c) for c in common], [tb.index(c) for c in common]))
            rt = "".join(c for c in ta if c not in common) + "".join(c for c in tb if c not in common)
            return _einsum_out(_scalar0(_order(r, rt, target)), out, casting, len(ops), optimize)
    r = _contract(pairs, target) if len(pairs) > 2 else _broadcast_sum(pairs, target)
    return _einsum_out(_scalar0(r), out, casting, len(ops), optimize)


def _broadcast_sum(pairs, target):
    """The general contraction: the product of the operands broadcast over
    every letter, then the sums."""
    letters = "".join(dict.fromkeys(c for _, t in pairs for c in t))
    prod = None
    for o, t in pairs:
        perm = sorted(range(len(t)), key=lambda i: letters.index(t[i]))
        o = o.transpose(perm) if perm != list(range(len(t))) else o
        ts = "".join(t[i] for i in perm)
        key = tuple(slice(None) if c in ts else None for c in letters)
        v = o[key] if None in key else o  # (o itself, not a view of all of it: "ij->ji" copies as A.T does)
        prod = v if prod is None else prod * v
    summed = [i for i, c in enumerate(letters) if c not in target]
    r = _esum(prod, tuple(summed)) if summed else prod
    rt = "".join(c for c in letters if c in target)
    r = _order(r, rt, target)
    if isinstance(r, ndarray) and r._expr is not None:
        r = r.copy()
    return r


def _contract(pairs, target):
    """Three or more operands (array, subscripts) contracted two at a time,
    each contraction a two-operand einsum (tensordot where it is one), in
    the order of NumPy's greedy path: "ij,jk,k->i" as A @ (B @ c), not a
    3-d product. Each intermediate keeps the letters still needed."""
    stand = [_np.broadcast_to(_np.zeros((), o._dtype), o.shape) for o, _ in pairs]
    path = _np.einsum_path(",".join(t for _, t in pairs) + "->" + target, *stand, optimize="greedy")[0]
    ops, terms = [o for o, _ in pairs], [t for _, t in pairs]
    for con in path[1:]:
        con = sorted(con, reverse=True)
        ts, xs = [terms.pop(i) for i in con], [ops.pop(i) for i in con]
        rest = "".join(terms) + target
        keep = "".join(dict.fromkeys(c for t in ts for c in t if c in rest))
        # two at a time through einsum (tensordot); more (i,i,i->i) broadcast
        ops.append(einsum(",".join(ts) + "->" + keep, *xs) if len(xs) == 2 else
                   _broadcast_sum(list(zip(xs, ts)), keep))
        terms.append(keep)
    r = ops[0]
    if terms[0] != target:
        r = einsum(terms[0] + "->" + target, r)
    if not isinstance(r, ndarray):
        return r
    return r.copy() if r._expr is not None or r._arr.is_view else r


def _einsum_out(r, out, casting, nops, optimize):
    """r into out under einsum's casting= (NumPy's iterator: 'safe' unless
    told otherwise, and its message). With optimize NumPy's contraction
    path writes into out without that check, and so does this."""
    if out is not None and isinstance(out, ndarray) and optimize is False:
        rdt = _np.dtype(r._dtype) if isinstance(r, ndarray) else _np.asarray(r).dtype
        if not _np.can_cast(rdt, _np.dtype(out._dtype), casting):
            raise TypeError(f"Iterator requested dtype could not be cast from dtype('{rdt}') to "
                            f"dtype('{out._dtype}'), the operand {nops} dtype, according to the rule '{casting}'")
    return _with_out(r, out, "einsum", unsafe=True)


def _esum(x, axes):
    """einsum's sum: in the operands' dtype (NumPy does not widen int32),
    a logical or for bool."""
    from ._functions import any as _any
    if x._dtype == "bool":
        return _any(x, axis=axes)
    return _sum(x, axis=axes, dtype=x._dtype)


def _scalar0(r):
    """A full contraction gives NumPy's scalar."""
    return r[()] if isinstance(r, ndarray) and r.ndim == 0 else r


def _order(r, have, want):
    if not isinstance(r, ndarray) or have == want:
        return r
    return r.transpose([have.index(c) for c in want])


def einsum_path(*operands, optimize="greedy", einsum_call=False):
    """NumPy's einsum_path (the path and its report): it depends on the
    operands' shapes only, so NumPy computes it on stand-ins of the same
    shapes that hold no data (maniple's einsum contracts as it does anyway)."""
    def stand_in(x):
        if isinstance(x, ndarray):
            return _np.broadcast_to(_np.zeros((), x.dtype), x.shape)
        return x
    return _np.einsum_path(*[stand_in(x) for x in operands], optimize=optimize, einsum_call=einsum_call)


def cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """numpy.cross of 3-element (or, deprecated as in NumPy 2, 2-element)
    vectors along an axis: NumPy's products and differences, fused."""
    from ._manipulation import moveaxis, stack
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = moveaxis(asarray(a), axisa, -1), moveaxis(asarray(b), axisb, -1)
    if a.shape[-1] not in (2, 3) or b.shape[-1] not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if a.shape[-1] == 2 or b.shape[-1] == 2:
        _warn.warn("Arrays of 2-dimensional vectors are deprecated. Use arrays of 3-dimensional vectors "
                      "instead. (deprecated in NumPy 2.0)", DeprecationWarning)
    dt = str(_np.promote_types(a.dtype, b.dtype))
    a0, a1, b0, b1 = a[..., 0], a[..., 1], b[..., 0], b[..., 1]
    if a.shape[-1] == 2 and b.shape[-1] == 2:
        return (a0 * b1 - a1 * b0).astype(dt)
    if a.shape[-1] == 3 and b.shape[-1] == 3:
        a2, b2 = a[..., 2], b[..., 2]
        cp = [a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0]
    elif a.shape[-1] == 3:  # b2 = 0
        a2 = a[..., 2]
        cp = [-(a2 * b1), a2 * b0, a0 * b1 - a1 * b0]
    else:  # a2 = 0
        b2 = b[..., 2]
        cp = [a1 * b2, -(a0 * b2), a0 * b1 - a1 * b0]
    r = stack([c.astype(dt) for c in cp], axis=-1)
    return moveaxis(r, -1, axisc)
