"""Floating-point exceptions as NumPy reports them (np.errstate, seterr,
seterrcall). The C side calls report() after an element-wise pass that
raised divide-by-zero, overflow, underflow or invalid on this rank.

Deferred operations are reported under the settings in force where their
line ran: each pending array records its mode (the settings as a tuple,
one object per errstate value), a pass that computes it reports under that
mode, and an operation under other settings computes such an operand first
instead of fusing it. Nothing is computed because settings changed: which
pending arrays are still alive depends on each rank's garbage collection,
and every rank must compute the same ones.

Warnings, prints, logs and calls are each rank's own: a rank reports what
its elements raised, so at one rank they are NumPy's. 'raise' is decided
alike on every rank: under it each operation is computed at once (so the
error comes at its line, as NumPy's) and every pass ors the ranks'
exceptions (one allreduce per pass, paid only then). The CUDA backend
raises no floating-point exceptions (as CuPy's)."""
import contextlib
import os
import sys

import numpy as _np

from maniple import _core

from . import _warn

try:  # NumPy 2 keeps the settings in a context variable: a change is a new value
    _var = _np._core.umath._extobj_contextvar
except AttributeError:  # NumPy 1: its thread-local settings, compared by value
    class _Var:
        last = None

        def get(self):
            v = (tuple(_np.geterr().items()), _np.geterrcall())
            if v != self.last:
                self.last = v
            return self.last
    _var = _Var()

# (setting, NumPy's bit, the words of its message), in NumPy's order
_KINDS = (("divide", 1, "divide by zero"), ("over", 2, "overflow"), ("under", 4, "underflow"),
          ("invalid", 8, "invalid value"))
# the operations that can raise each exception, for the name in the message
_CAN = {
    1: {"true_divide", "floor_divide", "remainder", "divmod", "fmod", "reciprocal", "log", "log2", "log10", "log1p",
        "power", "float_power", "arctanh", "logaddexp", "logaddexp2"},
    2: {"add", "subtract", "multiply", "true_divide", "floor_divide", "power", "float_power", "exp", "exp2", "expm1",
        "square", "cosh", "sinh", "ldexp", "hypot", "reciprocal", "divmod", "logaddexp", "logaddexp2", "cast"},
}
_NUMPY_NAME = {"true_divide": "divide"}
_epoch = [None, None]  # the errstate value last seen and its mode ((divide, over, under, invalid), call)
_modes = {}  # errstate value -> its mode: settings back in force are the same mode again
_active = [None]  # the mode passes report under now: the current one, or an evaluated array's
_HOOKED = os.environ.get("MANIPLE_BACKEND", "cpu") in ("", "cpu")


def _mode_of(v):
    m = _modes.get(v)
    if m is None:
        if len(_modes) > 64:
            _modes.clear()
        e = _np.geterr()
        m = _modes[v] = ((e["divide"], e["over"], e["under"], e["invalid"]), _np.geterrcall())
    return m


def current():
    """The mode of the settings in force (the one passes report under from
    now, outside an array's own evaluation)."""
    v = _var.get()
    if v is not _epoch[0]:
        _epoch[0], _epoch[1] = v, _mode_of(v)
        use(_epoch[1])
    return _epoch[1]


def use(m):
    """Passes report under mode m from now; returns the mode before."""
    old = _active[0]
    if m is not old:
        _active[0] = m
        if _HOOKED and (old is None or ("raise" in m[0]) != ("raise" in old[0])):
            _core.set_fpe_hook(report, "raise" in m[0])
    return old


def _ops(what, acc):
    """The operation names of a program (a list of nodes) or a tree, in
    the order they are computed."""
    if isinstance(what, list):
        for n in what:
            _ops(n, acc) if isinstance(n, list) else acc.append(_op(n))
    elif isinstance(what, tuple) and what:
        k = what[0]
        if k in ("un", "bin", "ter"):
            for x in what[2:]:
                if isinstance(x, tuple):
                    _ops(x, acc)
        elif k == "cast" and isinstance(what[1], tuple):
            _ops(what[1], acc)
        acc.append(_op(what))
    return acc


def _op(n):
    k = n[0] if isinstance(n, tuple) and n else None
    return n[1] if k in ("un", "bin", "ter") else "cast" if k == "cast" else None


def _name(what, bit, reducing):
    if isinstance(what, str):  # one named operation (dot)
        return what
    ops = [o for o in _ops(what, []) if o is not None]
    can = _CAN.get(bit)
    for o in ops:
        if can is None or o in can:
            return _NUMPY_NAME.get(o, o)
    return "reduce" if reducing or not ops else _NUMPY_NAME.get(ops[-1], ops[-1])


_muted = [0]  # bits that maniple's own steps raise where NumPy's would not (computed_quietly)


@contextlib.contextmanager
def muted(bits):
    """The exceptions in bits unreported inside (maniple's own steps, where
    NumPy computes under errstate: isclose's invalid); what the body leaves
    pending must be computed inside it."""
    old = _muted[0]
    _muted[0] = old | bits
    try:
        yield
    finally:
        _muted[0] = old


def _handle(how, words, msg, bits, call):
    """One exception handled as its setting says (how: 'warn', 'raise',
    'call', 'print' or 'log'; a warning names the script's line)."""
    if how == "warn":
        _warn.warn(msg, RuntimeWarning)
    elif how == "raise":
        raise FloatingPointError(msg)
    elif how == "call":
        call(words, bits)
    elif how == "print":
        print(f"Warning: {msg}", file=sys.stderr)
    elif how == "log":
        call.write(f"Warning: {msg}\n")


def report(bits, what, reducing):
    err, call = _active[0]
    if "raise" in err:
        bits = _core.agree_fpe(bits)  # every rank raises alike, or none does
    bits &= ~_muted[0]
    for i, (_key, bit, words) in enumerate(_KINDS):
        how = err[i]
        if not bits & bit or how == "ignore":
            continue
        _handle(how, words, f"{words} encountered in {_name(what, bit, reducing)}", bits, call)


def event(key, where):
    """One exception ('divide', 'invalid', ...) that maniple knows of
    without a pass (a division whose operands the shapes alone determine),
    handled as the settings in force say: every rank knows it alike."""
    err, call = _mode_of(_var.get())
    i = next(k for k, kind in enumerate(_KINDS) if kind[0] == key)
    _key, bit, words = _KINDS[i]
    if err[i] != "ignore":
        _handle(err[i], words, f"{words} encountered in {where}", bit, call)


# a device backend's kernels raise none (the emulated device runs them on
# the host, as the CUDA path would, and reports none either)
current()
