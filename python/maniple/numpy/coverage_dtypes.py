"""Coverage of NumPy's dtypes and keywords, measured by running both:
`python -m maniple.numpy.coverage --dtypes` (or `--keywords`).

Each case runs with NumPy and with maniple.numpy on the same small data
and is classified:

- ok: the same dtype, shape and values (floats to 1e-6, NaNs equal);
- refused: maniple raises where NumPy computes (a missing feature);
- differs: maniple's answer is not NumPy's (a bug to fix);
- lenient: maniple computes what NumPy refuses;
- n/a: both refuse (not counted).
"""
import warnings

import numpy as _np

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float16", "float32",
          "float64", "complex64", "complex128")
STATUSES = ("ok", "refused", "differs", "lenient")


def _data(dt, seed):
    x = (_np.arange(12).reshape(3, 4) * (seed + 3) + seed) % 9 - (seed % 2)
    if dt == "bool":
        return x % 2 == 0
    x = x.astype(dt)
    return x / 2 if x.dtype.kind in "fc" else x  # integers stay integers (x / 1 would be float64)


def _ops():
    """(name, fn(xp, x, y)) for every case of the dtype report."""
    import maniple.numpy as mnp
    ops = []
    for name in sorted(dir(_np)):
        f = getattr(_np, name)
        if isinstance(f, _np.ufunc) and f.nout == 1 and f.nin in (1, 2) and hasattr(mnp, name):
            if f.nin == 1:
                ops.append((name, lambda xp, x, y, n=name: getattr(xp, n)(x)))
            else:
                ops.append((name, lambda xp, x, y, n=name: getattr(xp, n)(x, y)))
    for name in ("sum", "prod", "min", "max", "mean", "std", "argmax", "argmin", "cumsum", "any", "all", "median",
                 "sort", "argsort", "unique", "ptp", "nonzero", "count_nonzero"):
        ops.append((name, lambda xp, x, y, n=name: getattr(xp, n)(x)))
    ops += [
        ("sum(axis=0)", lambda xp, x, y: xp.sum(x, axis=0)),
        ("astype(float64)", lambda xp, x, y: x.astype("float64")),
        ("astype(int32)", lambda xp, x, y: x.astype("int32")),
        ("slice", lambda xp, x, y: x[::2, 1:]),
        ("take", lambda xp, x, y: x[xp.asarray([2, 0])]),
        ("mask", lambda xp, x, y: x[x != x[0, 0]]),
        ("setitem", lambda xp, x, y: _set(x)),
        ("transpose", lambda xp, x, y: x.T.copy()),
        ("concatenate", lambda xp, x, y: xp.concatenate([x, y])),
        ("where", lambda xp, x, y: xp.where(x != x[0, 0], x, y)),
        ("clip", lambda xp, x, y: xp.clip(x, x[0, 1], x[2, 2])),
        ("matmul", lambda xp, x, y: x @ y.T),
        ("dot", lambda xp, x, y: xp.dot(x[0], y[0])),
        ("item", lambda xp, x, y: x[1, 2].item()),
        ("tolist", lambda xp, x, y: x.tolist()),
        ("zeros", lambda xp, x, y: xp.zeros(3, x.dtype)),
        ("arange", lambda xp, x, y: xp.arange(5, dtype=x.dtype) if x.dtype != bool else xp.arange(2, dtype=bool)),
    ]
    return ops


def _set(x):
    x = x.copy()
    x[1] = x[0]
    return x


def _run(fn, xp, args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with _np.errstate(all="ignore"):
            try:
                return fn(xp, *args), None
            except Exception as e:  # noqa: BLE001 - every failure is a finding
                return None, e


def _same(got, want):
    if isinstance(want, (tuple, list)):
        return isinstance(got, (tuple, list)) and len(got) == len(want) and all(map(_same, got, want))
    g, w = _np.asarray(got), _np.asarray(want)
    if g.dtype != w.dtype or g.shape != w.shape:
        return False
    if w.dtype.kind in "fc":
        return bool(_np.allclose(g, w, rtol=1e-6, atol=0, equal_nan=True))
    return bool(_np.array_equal(g, w))


def classify(fn, dt):
    """The status of fn on arrays of dtype dt (None: both refuse)."""
    import maniple.numpy as mnp
    x, y = _data(dt, 1), _data(dt, 2)
    want, we = _run(fn, _np, (x, y))
    try:
        mx, my = mnp.asarray(x), mnp.asarray(y)
    except TypeError:
        mx = None
    got, ge = _run(fn, mnp, (mx, my)) if mx is not None else (None, TypeError(dt))
    if we is not None:
        return None if ge is not None else "lenient"
    if ge is not None:
        return "refused"
    return "ok" if _same(got, want) else "differs"


def dtype_report(dtypes=DTYPES):
    """{dtype: {status: [case names]}}"""
    ops = _ops()
    rep = {}
    for dt in dtypes:
        r = rep[dt] = {s: [] for s in STATUSES}
        for name, fn in ops:
            s = classify(fn, dt)
            if s is not None:
                r[s].append(name)
    return rep


def _kw_cases():
    """(keyword, case, fn(xp)) of NumPy's keywords on common functions."""
    x = _np.arange(12.0).reshape(3, 4) - 5
    i = _np.arange(12).reshape(3, 4)
    m = x > 0
    return [
        ("out=", "add out= maniple", lambda xp: xp.add(xp.asarray(x), 1, out=xp.zeros((3, 4)))),
        ("out=", "add out= NumPy array", lambda xp: xp.add(xp.asarray(x), 1, out=_np.zeros((3, 4)))),
        ("out=", "sum out=", lambda xp: xp.sum(xp.asarray(x), axis=0, out=xp.zeros(4))),
        ("where=", "add where=", lambda xp: xp.add(xp.asarray(x), 1, out=xp.zeros((3, 4)), where=xp.asarray(m))),
        ("where=", "sum where=", lambda xp: xp.sum(xp.asarray(x), where=xp.asarray(m))),
        ("casting=", "add casting=unsafe", lambda xp: xp.add(xp.asarray(i), 1.5, out=xp.zeros((3, 4), "int64"),
                                                             casting="unsafe")),
        ("dtype=", "sum dtype=", lambda xp: xp.sum(xp.asarray(i), dtype="float32")),
        ("dtype=", "add dtype=", lambda xp: xp.add(xp.asarray(i), 1, dtype="float64")),
        ("initial=", "max initial=", lambda xp: xp.max(xp.asarray(x), initial=100.0)),
        ("initial=", "sum initial=", lambda xp: xp.sum(xp.asarray(x), initial=1.0)),
        ("keepdims=", "argmax keepdims=", lambda xp: xp.argmax(xp.asarray(x), axis=1, keepdims=True)),
        ("keepdims=", "mean keepdims=", lambda xp: xp.mean(xp.asarray(x), axis=0, keepdims=True)),
        ("order=", "reshape order=F", lambda xp: xp.asarray(x).reshape((4, 3), order="F")),
        ("order=", "ravel order=F", lambda xp: xp.asarray(x).ravel(order="F")),
        ("order=", "zeros order=F", lambda xp: xp.zeros((2, 3), order="F")),
        ("order=", "astype order=K", lambda xp: xp.asarray(x).astype("float32", order="K")),
        ("order=", "copy order=C", lambda xp: xp.asarray(x).copy(order="C")),
        ("ndmin=", "array ndmin=", lambda xp: xp.array([1, 2], ndmin=3)),
        ("axes=", "transpose axes=", lambda xp: xp.transpose(xp.asarray(x), axes=(1, 0))),
        ("casting=", "copyto casting=", lambda xp: _copyto(xp, "same_kind")),
        ("where=", "copyto where=", lambda xp: _copyto(xp, None, m)),
    ]


def _copyto(xp, casting=None, where=None):
    d = xp.zeros((3, 4))
    kw = {} if casting is None else {"casting": casting}
    if where is not None:
        kw["where"] = xp.asarray(where)
    xp.copyto(d, xp.asarray(_np.arange(12).reshape(3, 4)), **kw)
    return d


def keyword_report():
    """{keyword: {status: [case names]}}"""
    import maniple.numpy as mnp
    rep = {}
    for kw, case, fn in _kw_cases():
        r = rep.setdefault(kw, {s: [] for s in STATUSES})
        want, we = _run(lambda xp: fn(xp), _np, ())
        got, ge = _run(lambda xp: fn(xp), mnp, ())
        if we is not None:
            if ge is None:
                r["lenient"].append(case)
            continue
        r["refused" if ge is not None else "ok" if _same(got, want) else "differs"].append(case)
    return rep


def print_report(rep, what):
    width = max(len(k) for k in rep)
    print(f"{what:<{width}}  " + "  ".join(f"{s:>8}" for s in STATUSES))
    for k, r in rep.items():
        print(f"{k:<{width}}  " + "  ".join(f"{len(r[s]):>8}" for s in STATUSES))
    for k, r in rep.items():
        for s in ("refused", "differs", "lenient"):
            if r[s]:
                print(f"  {k} {s}: {', '.join(r[s])}")
