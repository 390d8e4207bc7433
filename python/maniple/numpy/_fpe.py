"""Floating-point exceptions as NumPy reports them (np.errstate, seterr,
seterrcall). The C side calls report() after an element-wise pass that
raised divide-by-zero, overflow, underflow or invalid on this rank.

Deferred operations are reported under the settings in force where their
line ran: the settings are an epoch; when an operation (or a reduction)
starts under other settings than the pending work was recorded under, that
work is computed first and reported under its own (sync), so fusion spans
an epoch and nothing leaks across a `with np.errstate(...)` boundary.

Warnings, prints, logs and calls are each rank's own: a rank reports what
its elements raised, so at one rank they are NumPy's. 'raise' is decided
alike on every rank: while some exception is set to raise, every pass ors
the ranks' exceptions (one allreduce per pass, paid only then). The CUDA
backend raises no floating-point exceptions (as CuPy's)."""
import contextlib
import os
import sys
import warnings

import numpy as _np

from maniple import _core

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
_epoch = [None, None]  # the errstate value pending work was recorded under, and its (geterr(), geterrcall())


def sync():
    """Before an operation runs or is recorded: if the settings changed since
    the pending work was recorded, compute that work (reported under its
    settings) and start an epoch under the new ones."""
    if _var.get() is not _epoch[0]:
        _switch()


def _switch():
    from . import _engine
    _epoch[0] = _var.get()  # (what the pending work's passes record is of the new epoch)
    _engine._evaluate_all()  # reported under the old settings, still in _epoch[1]
    mode = (_np.geterr(), _np.geterrcall())
    _epoch[1] = mode
    _core.set_fpe_hook(report, "raise" in mode[0].values())


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


def report(bits, what, reducing):
    err, call = _epoch[1]
    if "raise" in err.values():
        bits = _core.agree_fpe(bits)  # every rank raises alike, or none does
    bits &= ~_muted[0]
    for key, bit, words in _KINDS:
        if not bits & bit or err[key] == "ignore":
            continue
        how = err[key]
        msg = f"{words} encountered in {_name(what, bit, reducing)}"
        if how == "warn":
            warnings.warn(msg, RuntimeWarning, stacklevel=2)
        elif how == "raise":
            raise FloatingPointError(msg)
        elif how == "call":
            call(words, bits)
        elif how == "print":
            print(f"Warning: {msg}", file=sys.stderr)
        elif how == "log":
            call.write(f"Warning: {msg}\n")


_epoch[0], _epoch[1] = _var.get(), (_np.geterr(), _np.geterrcall())
# a device backend's kernels raise none (the emulated device runs them on
# the host, as the CUDA path would, and reports none either)
if os.environ.get("MANIPLE_BACKEND", "cpu") in ("", "cpu"):
    _core.set_fpe_hook(report, "raise" in _epoch[1][0].values())
